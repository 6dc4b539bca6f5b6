"""Runs a real Celery worker process for tests, on its own Redis queue.

The worker listens on this test process's own queue (settings.test), so a developer's
own worker or a parallel test run never steals its messages, and it uses the test database.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection

from pusoy_api.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent
TEST_BROKER_URL = settings.CELERY_BROKER_URL
# The switch between tasks run in-process and tasks sent to the broker. Celery 5.6 looks
# a setting up under the name the Django settings gave it (CELERY_TASK_ALWAYS_EAGER)
# before its own name, so `conf.task_always_eager = False` alone changes nothing there.
EAGER = "CELERY_TASK_ALWAYS_EAGER"


def broker_reachable() -> bool:
    try:
        redis.Redis.from_url(TEST_BROKER_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        return False
    return True


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or 'localhost'}{port}/{db['NAME']}"


class CeleryWorker:
    """A `celery worker` subprocess; `kill()` is SIGKILL, as a crashed machine would do."""

    def __init__(self, concurrency: int = 1, queues: list[str] | None = None) -> None:
        self.queue = settings.CELERY_TASK_DEFAULT_QUEUE
        # Webhook deliveries and pushes are routed to queues of their own (settings.test).
        self.webhook_queue = settings.WEBHOOK_QUEUE
        self.push_queue = settings.PUSH_QUEUE
        # What it consumes: by default all three, as one worker (a test of one queue's
        # isolation starts a worker of its own with `queues`).
        self.queues = queues or [self.queue, self.webhook_queue, self.push_queue]
        self.concurrency = concurrency
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"celery-{self.queue}.log"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            DJANGO_SETTINGS_MODULE="pusoy_api.settings.base",
            DATABASE_URL=_database_url(),
            CELERY_BROKER_URL=TEST_BROKER_URL,
            CELERY_RESULT_BACKEND=TEST_BROKER_URL,
            CELERY_TASK_DEFAULT_QUEUE=self.queue,
            # Prefork children keep one plain connection each; a pool does not survive fork.
            DB_POOL_MAX_SIZE="0",
            CONN_MAX_AGE="60",
            # Quick enough for tests, slow enough that a kill lands mid-thought.
            AI_EXPERT_SECONDS=os.environ.get("TEST_AI_EXPERT_SECONDS", "0.6"),
            CELERY_VISIBILITY_TIMEOUT="5",
            WEBHOOK_QUEUE=self.webhook_queue,
            # Webhook retries in fractions of a second (every wait a countdown, none left
            # to the sweep, which no test worker runs), an event's retries over after a
            # few seconds, and a webhook disabled after 3 such events: the schedule's
            # shape with the production numbers is unit-tested (tests/webhooks).
            WEBHOOK_RETRY_BASE_SECONDS="0.05",
            WEBHOOK_RETRY_MAX_SECONDS="1",
            WEBHOOK_RETRY_WINDOW_SECONDS="4",
            WEBHOOK_DISABLE_AFTER_FAILED_EVENTS="3",
            WEBHOOK_CONNECT_TIMEOUT="2",
            WEBHOOK_READ_TIMEOUT="3",
            PUSH_QUEUE=self.push_queue,
            # The test run's Web Push key, so the receiver knows it (settings.test).
            PUSH_VAPID_PRIVATE_KEY=settings.PUSH_VAPID_PRIVATE_KEY,
            PUSH_VAPID_SUBJECT=settings.PUSH_VAPID_SUBJECT,
            PUSH_WEBPUSH_HOSTS="*",
            # Retries in a fraction of a second (Retry-After still wins), a hanging
            # provider given up on after 2 s.
            PUSH_RETRY_BASE_SECONDS="0.05",
            PUSH_RETRY_MAX_SECONDS="5",
            PUSH_MAX_ATTEMPTS="4",
            PUSH_TIMEOUT="2",
        )
        env.pop("SECRET_KEY", None)
        env["DEV_MODE"] = "1"
        return env

    def start(self) -> None:
        self.route_tasks_here()
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "pusoy_api", "worker",
                "-Q", ",".join(self.queues),
                "--concurrency", str(self.concurrency),
                "--pool", "prefork", "--loglevel", "INFO", "--without-gossip",
                "--without-mingle", "--without-heartbeat",
                "-n", f"{self.queue}@%h",
            ],
            cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            self.wait_ready()
        except BaseException:
            self.stop()  # never leave a half-started worker behind
            raise

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"celery worker exited early; log: {self.log_path}")
            replies = celery_app.control.ping(timeout=0.5, destination=[self.node_name()])
            if replies:
                return
        raise RuntimeError(f"celery worker not ready after {timeout}s; log: {self.log_path}")

    def node_name(self) -> str:
        return f"{self.queue}@{os.uname().nodename}"

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and pool children)."""
        if self.process is None:
            return
        # The worker runs in its own session, so its process group is exactly it and its
        # pool children: nothing gets a chance to ack, requeue or clean up.
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        self.route_tasks_in_process()

    def route_tasks_in_process(self) -> None:
        celery_app.conf[EAGER] = True

    def route_tasks_here(self) -> None:
        celery_app.conf[EAGER] = False
