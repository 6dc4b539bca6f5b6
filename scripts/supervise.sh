# Sourced by scripts/serve.sh (and by tests/foundation/test_supervise.py).
#
# supervise NAME COMMAND...: runs COMMAND, and again whenever it exits (see the top of
# scripts/serve.sh).
# Each run is a process group of its own, stopped as a whole: a master killed outright
# leaves its workers behind (gunicorn's keep the port, Celery's their task), and they go
# with it before the next run starts.
supervise() {
  local name=$1
  shift
  local child="" status started delay=1 quick=0
  # Once, however many signals come: a stop that signals every process of the script
  # (`pkill -f scripts/serve.sh`, a process manager stopping the whole group) reaches
  # this shell and the script, whose cleanup then signals this shell again; the process
  # was sent a second TERM in the middle of its exit (Celery beat printed a traceback).
  # The master first, alone: it stops its own workers as it should (Celery's finish the
  # task in hand; TERM sent to the whole group killed them mid-task, WorkerLostError);
  # whatever of its group outlives it is stopped after.
  trap 'trap "" TERM INT; if [ -n "$child" ]; then kill -TERM "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; kill -TERM -- "-$child" 2>/dev/null || true; fi; exit 0' TERM INT
  while :; do
    started=$SECONDS
    set -m # only for the next line: the command gets a process group of its own
    "$@" &
    child=$!
    set +m
    status=0
    wait "$child" || status=$?
    kill -TERM -- "-$child" 2>/dev/null || true
    if ((SECONDS - started < 30)); then
      quick=$((quick + 1))
    else
      quick=0
      delay=1
    fi
    if ((quick >= 5)); then
      echo "==> $name exited (status $status) within 30 s of starting 5 times in a row: giving up" >&2
      exit 1
    fi
    echo "==> $name exited (status $status): starting it again in ${delay}s" >&2
    sleep "$delay" &
    wait $! || true
    kill -KILL -- "-$child" 2>/dev/null || true
    child=""
    delay=$((delay < 16 ? delay * 2 : 30))
  done
}
