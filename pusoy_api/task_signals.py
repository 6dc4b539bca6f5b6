"""Celery signal handlers: the request id and publish time travel in each message's
headers; a worker records queue wait and outcomes, logs as the web process does, and
serves its own metrics on CELERY_METRICS_PORT.

The worker's endpoint: prefork children record into PROMETHEUS_MULTIPROC_DIR (a
directory of the worker's own, set before start: scripts/serve.sh does), and the
worker's main process serves their sum on CELERY_METRICS_PORT. With no directory, only
what the main process itself records is served (fine with `--pool solo` or threads).
"""

from __future__ import annotations

import logging
import logging.config
import os
from typing import Any

from celery import signals

from pusoy_api import request_id

# pusoy_api.metrics (so prometheus-client) is imported at first use, never when this
# package is: gunicorn's master imports the package before its config sets
# PROMETHEUS_MULTIPROC_DIR, and prometheus-client picks its mode once, at import.

logger = logging.getLogger(__name__)


@signals.before_task_publish.connect
def _on_publish(headers: dict[str, Any] | None = None, **_: Any) -> None:
    if headers is None:
        return
    from pusoy_api import metrics

    request_id.add_to_task_headers(headers)
    metrics.task_published(headers)


@signals.task_prerun.connect
def _on_prerun(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    from pusoy_api import metrics

    request_id.restore_for_task(task_id, task)
    metrics.task_started(task, task_id)


@signals.task_postrun.connect
def _on_postrun(task_id: str | None = None, **_: Any) -> None:
    request_id.forget_after_task(task_id)


@signals.task_success.connect
def _on_success(sender: Any = None, **_: Any) -> None:
    from pusoy_api import metrics

    metrics.task_ended(sender, "success")


@signals.task_failure.connect
def _on_failure(sender: Any = None, **_: Any) -> None:
    from pusoy_api import metrics

    metrics.task_ended(sender, "failure")


@signals.task_retry.connect
def _on_retry(sender: Any = None, **_: Any) -> None:
    from pusoy_api import metrics

    metrics.task_ended(sender, "retry")


@signals.setup_logging.connect
def _keep_django_logging(**_: Any) -> None:
    """A worker logs through the project's LOGGING (JSON or plain, with request ids)
    instead of Celery's own setup (connecting here is what turns Celery's off)."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)


@signals.worker_init.connect
def _serve_worker_metrics(**_: Any) -> None:
    from django.conf import settings

    port = settings.CELERY_METRICS_PORT
    if not port:
        return
    from prometheus_client import REGISTRY, CollectorRegistry, start_http_server

    from pusoy_api import metrics

    registry = REGISTRY
    if metrics.MULTIPROCESS:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        logger.warning(
            "CELERY_METRICS_PORT without PROMETHEUS_MULTIPROC_DIR: prefork children's "
            "metrics are not served (docs/operations.md)"
        )
    start_http_server(port, addr=settings.CELERY_METRICS_ADDR, registry=registry)
    logger.info("worker metrics on port %d", port)


@signals.worker_process_shutdown.connect
def _forget_child(pid: int | None = None, **_: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())


@signals.worker_init.connect
def _on_worker_init(**_: Any) -> None:
    # A worker exists to run tasks, the AI's searches among them: let the expert tune the
    # garbage collector while it searches (pool processes forked after this inherit it).
    # The embedded default runs tasks in the web server's threads and never gets here.
    from pusoy.ai import expert

    expert.tune_collector()
