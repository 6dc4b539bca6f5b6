#!/usr/bin/env bash
# Installs the project (once) and runs the service on http://127.0.0.1:${PORT:-8000}.
# With CELERY_BROKER_URL set it also starts Celery workers (AI turns; webhook deliveries)
# and beat beside the web server; without it, these tasks run inside the web process
# (fine for a first try).
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
export PATH="$PWD/$VENV/bin:$PATH"

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

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM

if [ -n "${CELERY_BROKER_URL:-}" ]; then
  echo "==> starting Celery worker and beat on $CELERY_BROKER_URL"
  # The worker's prefork children write metrics here; with CELERY_METRICS_PORT set the
  # worker serves their sum (docs/operations.md). Emptied first: old counts are not ours.
  worker_metrics="${TMPDIR:-/tmp}/pusoy-metrics-worker-$$"
  rm -rf "$worker_metrics" && mkdir -p "$worker_metrics"
  # Prefork children keep one connection each; psycopg's pool does not survive fork.
  PROMETHEUS_MULTIPROC_DIR="$worker_metrics" DB_POOL_MAX_SIZE=0 CONN_MAX_AGE=60 \
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
  env "${webhook_port[@]}" PROMETHEUS_MULTIPROC_DIR="$webhook_metrics" \
    DB_POOL_MAX_SIZE=0 CONN_MAX_AGE=60 \
    celery -A pusoy_api worker --loglevel INFO --queues "${WEBHOOK_QUEUE:-webhooks}" \
    --concurrency "${WEBHOOK_CONCURRENCY:-4}" --hostname "webhooks@%h" &
  pids+=($!)
  DB_POOL_MAX_SIZE=0 celery -A pusoy_api beat --loglevel INFO --schedule "${TMPDIR:-/tmp}/pusoy-celerybeat-schedule" &
  pids+=($!)
else
  echo "==> no CELERY_BROKER_URL: AI moves and webhook deliveries run in-process"
fi

echo "==> serving on http://127.0.0.1:${PORT:-8000} (API docs at /api/docs/)"
gunicorn pusoy_api.asgi:application --config python:pusoy_api.gunicorn_conf &
pids+=($!)
wait -n "${pids[@]}"
