"""Importing the apps' task modules in a process that is not a Celery worker.

A worker imports them at start through ``loader.import_default_modules``, which first
sends Celery's ``import_modules`` signal. Celery's Django fixup answers that signal with
``django.setup()`` and all of Django's system checks: right for a worker starting, wrong
in a web process that is already set up and serving, where it configured logging anew
in the middle of the request that queued first (every handler added since was dropped)
and ran the checks inside it. The autodiscovery on its own (``force=True``) imports the
same modules, and only them.
"""

from __future__ import annotations

from celery import current_app


def import_task_modules() -> None:
    """Import every installed app's ``tasks`` module, registering its tasks."""
    current_app.autodiscover_tasks(force=True)
    for module in current_app.loader.default_modules:
        current_app.loader.import_task_module(module)
