"""Gunicorn settings for the web process, from the environment (used by serve.sh and Docker)."""

import os
import shutil
import sys
import tempfile
from pathlib import Path

import environ

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
# uvicorn workers serving pusoy_api.asgi:application, which routes by kind of request
# (pusoy_api.serving): a `?wait=` long-poll or an event stream waits on the event loop,
# holding no thread; every other request runs on one of WEB_THREADS pool threads through
# Django's WSGI handler.
worker_class = "uvicorn_worker.UvicornWorker"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
errorlog = "-"


# A line per request (uvicorn's, plain text on stdout) costs the event loop, which every
# request passes through, about a fifth of its CPU per request (docs/performance.md,
# "The frame's cost per request"). Requests are counted and timed per route in the
# metrics, and every 4xx/5xx answer is logged with its request id (`django.request`), so
# it is off unless ACCESS_LOG says otherwise (on by default in DEV_MODE, for a terminal).
# The settings' reading of both flags (django-environ), so DEV_MODE means the same here.
_env = environ.Env()
accesslog = "-" if _env.bool("ACCESS_LOG", default=_env.bool("DEV_MODE", default=False)) else None

# Metrics from several worker processes (pusoy_api/metrics.py, docs/operations.md): each
# worker writes its metrics to files in PROMETHEUS_MULTIPROC_DIR and /metrics sums them.
# Set here, in the master, before any worker imports prometheus-client (which picks its
# mode once, at import: nothing the master imports before this may import it). A
# directory of our own, removed at exit, unless the deployment names one; emptied at
# start either way: old counts are not ours.
_own_metrics_dir = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
if _own_metrics_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="pusoy-metrics-web-")


def on_starting(server):
    if "prometheus_client" in sys.modules:
        server.log.warning(
            "prometheus_client was imported before PROMETHEUS_MULTIPROC_DIR was set: "
            "each worker's /metrics will show only its own numbers"
        )
    directory = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob("*.db"):
        stale.unlink()
    _warn_without_static_manifest(server)


def _warn_without_static_manifest(server):
    # Outside development mode the admin, the API docs and the web client name their
    # assets through the manifest `collectstatic` writes (scripts/serve.sh and the image
    # run it); a server started some other way without it answers them with 500.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pusoy_api.settings.base")
    from pusoy_api.static import missing_manifest

    manifest = missing_manifest()
    if manifest is not None:
        server.log.error(
            "no static files manifest at %s: the admin, the API docs and the web client "
            "will fail until `python manage.py collectstatic --noinput` runs",
            manifest,
        )


def child_exit(server, worker):
    from prometheus_client import multiprocess

    # A dead worker's gauges (long-poll waiters, pool) stop counting; its counters stay.
    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _own_metrics_dir:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
