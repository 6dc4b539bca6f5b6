"""The Celery app: AI moves and periodic sweeps run here, configured from Django settings."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pusoy_api.settings.base")

app = Celery("pusoy_api")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    # JSON only: a pickled message from a compromised broker would be code execution.
    accept_content=["json"],
    task_serializer="json",
    result_serializer="json",
    # Acknowledge after the task ran, and give a message back to the queue when a
    # worker dies mid-task, so a killed worker loses no AI turn. Tasks are idempotent.
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    # One message at a time per process: AI moves are CPU-bound and should spread out.
    worker_prefetch_multiplier=1,
    broker_connection_retry_on_startup=True,
    result_expires=3600,
    timezone="UTC",
)
app.autodiscover_tasks()

# Request ids, queue wait and task outcomes ride on Celery signals (pusoy_api/task_signals.py).
import pusoy_api.task_signals  # noqa: E402, F401
