"""The Pusoy Dos API project: settings, URLs, the Celery app and the WSGI/ASGI entry points."""

# Load the Celery app with Django so that `shared_task` binds to it and
# `transaction.on_commit(task.delay)` works in any process.
from .celery import app as celery_app

__all__ = ("celery_app",)
