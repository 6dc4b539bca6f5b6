#!/usr/bin/env bash
# Installs the project (once) and runs the service on http://127.0.0.1:${PORT:-8000}.
# With CELERY_BROKER_URL set it also starts Celery workers (AI turns; webhook deliveries;
# pushes)
# and beat beside the web server; without it, these tasks run inside the web process
# (fine for a first try).
#
# Every process it starts is supervised: one that exits is started again (after 1 s,
# doubling to 30 s while it keeps failing), and the others keep running. A process that
# dies within 30 s of its start five times in a row is given up on, and the whole
# service stops with an error (a port in use, a wrong setting: nothing a restart fixes).
# Ctrl-C or SIGTERM stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}

if [ ! -x "$VENV/bin/gunicorn" ] || [ pyproject.toml -nt "$VENV/.installed" ]; then
  echo "==> installing into $VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet -e ".[compiled]"
  touch "$VENV/.installed"
fi
# VENV may be relative (the default) or absolute (a virtualenv elsewhere).
case "$VENV" in /*) ;; *) VENV="$PWD/$VENV" ;; esac
export PATH="$VENV/bin:$PATH"

# The bots' search compiled with mypyc (docs/ai.md, "The compiled search"): built once,
# again only when the engine's or the bots' sources change; plain Python without it.
python scripts/build_compiled.py

if [ -z "${SECRET_KEY:-}" ]; then
  # No deployment key: this is a local first run, so choose development mode explicitly
  # (a built-in insecure key, DEBUG on). Settings refuse to start without one or the other.
  echo "==> no SECRET_KEY: development mode (DEV_MODE=1)"
  export DEV_MODE=1
fi

python manage.py migrate --noinput
# Outside development mode the admin, the API docs and the web client name their assets
# through the static files manifest, which only collectstatic writes: without it those
# pages fail. Run on every start, so the manifest always matches the code being served.
echo "==> collecting static files"
python manage.py collectstatic --noinput -v 0

# supervise NAME COMMAND... (scripts/supervise.sh): COMMAND, started again when it exits.
# shellcheck source=scripts/supervise.sh
source scripts/supervise.sh

pids=()
cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -n "${CELERY_BROKER_URL:-}" ]; then
  echo "==> starting Celery worker and beat on $CELERY_BROKER_URL"
  # The worker's prefork children write metrics here; with CELERY_METRICS_PORT set the
  # worker serves their sum (docs/operations.md). Emptied first: old counts are not ours.
  worker_metrics="${TMPDIR:-/tmp}/pusoy-metrics-worker-$$"
  rm -rf "$worker_metrics" && mkdir -p "$worker_metrics"
  # Prefork children keep one connection each; psycopg's pool does not survive fork.
  supervise "Celery worker" env PROMETHEUS_MULTIPROC_DIR="$worker_metrics" \
    DB_POOL_MAX_SIZE=0 CONN_MAX_AGE=60 \
    celery -A pusoy_api worker --loglevel INFO --concurrency "${CELERY_CONCURRENCY:-2}" &
  pids+=($!)
  # Webhook deliveries have a worker of their own: a receiver that hangs holds one of
  # these for the HTTP timeouts, never an AI turn. Its metrics (deliveries by outcome)
  # are its own too: another directory, and WEBHOOK_METRICS_PORT (the AI worker has
  # CELERY_METRICS_PORT; two workers cannot serve one port).
  webhook_metrics="${TMPDIR:-/tmp}/pusoy-metrics-webhooks-$$"
  rm -rf "$webhook_metrics" && mkdir -p "$webhook_metrics"
  if [ -n "${WEBHOOK_METRICS_PORT:-}" ]; then
    webhook_port=(CELERY_METRICS_PORT="$WEBHOOK_METRICS_PORT")
  else
    webhook_port=(-u CELERY_METRICS_PORT)
  fi
  supervise "webhooks worker" env "${webhook_port[@]}" \
    PROMETHEUS_MULTIPROC_DIR="$webhook_metrics" DB_POOL_MAX_SIZE=0 CONN_MAX_AGE=60 \
    celery -A pusoy_api worker --loglevel INFO --queues "${WEBHOOK_QUEUE:-webhooks}" \
    --concurrency "${WEBHOOK_CONCURRENCY:-4}" --hostname "webhooks@%h" &
  pids+=($!)
  # Pushes too: a push provider that hangs holds one of these for PUSH_TIMEOUT, never a
  # move, an AI turn or a webhook; its metrics on PUSH_METRICS_PORT when set.
  push_metrics="${TMPDIR:-/tmp}/pusoy-metrics-push-$$"
  rm -rf "$push_metrics" && mkdir -p "$push_metrics"
  if [ -n "${PUSH_METRICS_PORT:-}" ]; then
    push_port=(CELERY_METRICS_PORT="$PUSH_METRICS_PORT")
  else
    push_port=(-u CELERY_METRICS_PORT)
  fi
  supervise "push worker" env "${push_port[@]}" \
    PROMETHEUS_MULTIPROC_DIR="$push_metrics" DB_POOL_MAX_SIZE=0 CONN_MAX_AGE=60 \
    celery -A pusoy_api worker --loglevel INFO --queues "${PUSH_QUEUE:-push}" \
    --concurrency "${PUSH_CONCURRENCY:-4}" --hostname "push@%h" &
  pids+=($!)
  supervise "Celery beat" env DB_POOL_MAX_SIZE=0 \
    celery -A pusoy_api beat --loglevel INFO --schedule "${TMPDIR:-/tmp}/pusoy-celerybeat-schedule" &
  pids+=($!)
else
  echo "==> no CELERY_BROKER_URL: AI moves, webhook deliveries and pushes run in-process"
fi

echo "==> serving on http://127.0.0.1:${PORT:-8000} (API docs at /api/docs/)"
supervise "web server" gunicorn pusoy_api.asgi:application --config python:pusoy_api.gunicorn_conf &
pids+=($!)
# Returns only when a supervisor gives up: then everything stops, with its status.
status=0
wait -n "${pids[@]}" || status=$?
exit "$status"
