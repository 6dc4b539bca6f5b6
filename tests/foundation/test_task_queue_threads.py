"""A web process imports the apps' task modules on the first queueing
(pusoy_api.task_queue.task_named). Two requests that queue at once, on two of the web
process's threads, must both find the task: the second used to find Celery's import
already under way, return at once and miss it (`NotRegistered: 'games.ai_move'`, a 500 on
`POST games/{id}/join` under load)."""

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


def test_two_threads_queueing_at_once_both_find_the_task():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "pusoy_api.settings.test",
        "DATABASE_URL": "sqlite://:memory:",
    }
    done = subprocess.run(
        [sys.executable, "-c", RACE], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=True,
    )  # fmt: skip
    assert done.stdout.strip().splitlines()[-1] == "['games.ai_move', 'games.ai_move']"
