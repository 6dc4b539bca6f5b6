"""A web process imports the apps' task modules on the first queueing
(pusoy_api.task_queue.task_named). Two requests that queue at once, on two of the web
process's threads, must both find the task: the second used to find Celery's import
already under way, return at once and miss it (`NotRegistered: 'games.ai_move'`, a 500 on
`POST games/{id}/join` under load). And that import is only an import: it used to send
the worker's start-up signal, whose Django fixup ran `django.setup()` again (logging
configured anew in the middle of a request, every handler added since dropped) and all
of Django's system checks, in the request that queued first."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.throwaway import ROOT

# A fresh process (this one has imported every task module already), whose import of
# games.tasks takes half a second, so the second thread asks while the first imports.
RACE = """
import importlib.abc, sys, threading, time
import django
django.setup()

class Slow(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "games.tasks":
            time.sleep(0.5)
        return None

sys.meta_path.insert(0, Slow())
from pusoy_api.task_queue import task_named

found = []
def queue():
    try:
        found.append(task_named("games.ai_move").name)
    except Exception as exc:
        found.append(repr(exc))

first = threading.Thread(target=queue)
first.start()
time.sleep(0.2)
second = threading.Thread(target=queue)
second.start()
first.join()
second.join()
print(found)
"""


def last_line_of_a_fresh_process(script: str) -> str:
    """What ``script`` prints last, run in a new process of the project's test settings."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "pusoy_api.settings.test",
        "DATABASE_URL": "sqlite://:memory:",
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=True,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


def test_two_threads_queueing_at_once_both_find_the_task():
    assert last_line_of_a_fresh_process(RACE) == "['games.ai_move', 'games.ai_move']"


# A fresh process with a handler of its own on the root logger (as pytest's log capture
# or a log shipper adds one) and a spy on Django's system checks: the first queueing
# must leave both alone, and still find every task the schedule names.
FIRST_QUEUEING = """
import logging
import django
django.setup()
import django.core.checks
from celery import current_app
from django.conf import settings

ran_checks = []
real_run_checks = django.core.checks.run_checks
django.core.checks.run_checks = lambda *a, **k: ran_checks.append(1) or real_run_checks(*a, **k)
mine = logging.Handler()
logging.getLogger().addHandler(mine)

from pusoy_api.task_queue import task_named
task_named("games.ai_move")
scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
print(
    mine in logging.getLogger().handlers,
    len(ran_checks),
    sorted(scheduled - set(current_app.tasks)),
)
"""


def test_the_first_queueing_imports_the_tasks_and_nothing_more():
    assert last_line_of_a_fresh_process(FIRST_QUEUEING) == "True 0 []"
