"""`scripts/serve.sh`, started as the README says: every page is served whichever way it
starts (with and without SECRET_KEY, with and without a broker), and a process that dies
is started again while the others go on serving.

Without collectstatic, the admin, the API docs and the web client answered 500 under a
SECRET_KEY ("Missing staticfiles manifest entry"); with `set -e` and `wait -n`, a Celery
worker that died took the web server and beat down with it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.faults.helpers import human_seat_game, post_move, register
from tests.throwaway import ROOT, ThrowawayRedis, call, free_port, wait_for

pytestmark = pytest.mark.faults

PAGES = ["/", "/admin/login/", "/api/docs/", "/api/redoc/"]
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
# Static files, and ReDoc's bundle (served by a view, pusoy_api/redoc_bundle.py).
ASSET = re.compile(r"""(?:src|href)="(/(?:static|api/redoc-dist)/[^"]+)\"""")


class ServeScript:
    """`bash scripts/serve.sh` in a session of its own, with the environment a test gives
    it on top of the machine's basics; its output is a file."""

    def __init__(self, env: dict[str, str]) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="pusoy-serve-"))
        self.port = free_port()
        self.log_path = self.dir / "serve.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.closed_log = ""
        keep = {"PATH", "HOME", "LANG", "LC_ALL", "PYTHONPATH"}
        self.env = {k: v for k, v in os.environ.items() if k in keep}
        venv = Path(sys.executable).parent.parent
        # The test run's own virtualenv already holds the project (scripts/test.sh
        # installed it): tell serve.sh so, as its own install would have.
        (venv / ".installed").touch()
        self.env.update(
            VENV=str(venv),
            HOST="127.0.0.1",
            PORT=str(self.port),
            TMPDIR=str(self.dir),
            STATIC_ROOT=str(self.dir / "static"),
            DATABASE_URL=f"sqlite:///{self.dir / 'db.sqlite3'}",
            WEB_CONCURRENCY="1",
            CELERY_CONCURRENCY="1",
            WEBHOOK_CONCURRENCY="1",
            PYTHONUNBUFFERED="1",
        )
        self.env.update(env)

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                ["bash", str(ROOT / "scripts" / "serve.sh")],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=_interruptible,
            )  # fmt: skip
        wait_for(self._answers, timeout=180, interval=0.5, what="serve.sh serving")

    def _answers(self) -> bool:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"serve.sh exited:\n{self.log()[-4000:]}")
        return call(self.port, "GET", "/healthz", timeout=5).status in (200, 503)

    def call(self, method: str, path: str, body=None, **kwargs):
        return call(self.port, method, path, body, **kwargs)

    def get(self, path: str, **kwargs):
        return call(self.port, "GET", path, **kwargs)

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return self.closed_log

    def processes(self) -> list[tuple[int, int, str]]:
        """(pid, parent pid, command line) of every process of the script's session."""
        assert self.process is not None
        listing = subprocess.run(
            ["ps", "-e", "-ww", "-o", "pid=,ppid=,sid=,args="], capture_output=True, text=True,
            check=True,
        ).stdout  # fmt: skip
        found = []
        for line in listing.splitlines():
            pid, ppid, sid, args = line.split(None, 3)
            if int(sid) == self.process.pid:
                found.append((int(pid), int(ppid), args))
        return found

    def supervised(self, marker: str) -> int:
        """The pid of the one process a supervisor started whose command line has `marker`
        (children of that process have it too; a supervisor is a bash)."""
        processes = self.processes()
        shells = {pid for pid, _ppid, args in processes if args.startswith("bash ")}
        found = [pid for pid, ppid, args in processes if marker in args and ppid in shells]
        assert len(found) == 1, (marker, processes)
        return found[0]

    def stop(self, send: Callable[[int], None]) -> None:
        """`send` a signal to the script (given its pid); every process it started must be
        gone soon after, none printing a traceback on the way out."""
        assert self.process is not None
        send(self.process.pid)
        self.process.wait(60)
        wait_for(lambda: not self.processes(), timeout=30, what="every process gone")
        assert "Traceback" not in self.log()

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            # Every process of the script's session: each supervised one runs in a
            # process group of its own (serve.sh's `set -m`), which killing the script's
            # group alone left running, serving its port, after the test.
            session = self.processes()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            for pid, _ppid, _args in session:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.process.wait(10)
            wait_for(lambda: not self.processes(), timeout=30, what="every process gone")
        self.closed_log = self.log()
        shutil.rmtree(self.dir, ignore_errors=True)


def _interruptible() -> None:
    """SIGINT as a terminal's shell leaves it: a run started in the background (CI's, with
    `&` or nohup) ignores it, a shell started so cannot trap it, and Ctrl-C would not
    reach serve.sh as it does for a person."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def assert_pages_served(serve: ServeScript) -> None:
    for path in PAGES:
        page = serve.get(path, accept=BROWSER)
        assert page.status == 200, (path, page.status, str(page.body)[:300])
        assets = ASSET.findall(page.body.decode())
        assert assets, path
        for asset in assets:
            assert serve.get(asset, accept="*/*").status == 200, (path, asset)


@pytest.mark.parametrize(
    "env",
    [
        pytest.param({}, id="first-run-no-key"),
        pytest.param(
            {"SECRET_KEY": "serve-test-" + "k" * 40, "SECURE_SSL_REDIRECT": "false"},
            id="with-key-no-broker",
        ),
    ],
)
def test_every_page_is_served_however_serve_sh_starts(env, logs):
    serve = logs.watch("serve.sh", ServeScript(env))
    try:
        serve.start()
        assert_pages_served(serve)
        # SIGTERM to the script (a process manager's stop) stops everything it started.
        serve.stop(lambda pid: os.kill(pid, signal.SIGTERM))
    finally:
        serve.close()


def test_with_a_broker_a_dead_process_is_started_again_and_the_rest_keeps_serving(
    postgres, redis_binary, logs
):
    broker = logs.watch("broker", ThrowawayRedis())
    serve = logs.watch(
        "serve.sh",
        ServeScript(
            {
                "SECRET_KEY": "serve-test-" + "k" * 40,
                "SECURE_SSL_REDIRECT": "false",
                "DATABASE_URL": postgres.url,
                "CELERY_BROKER_URL": broker.url(),
                "REDIS_URL": broker.url(1),
            }
        ),
    )
    try:
        broker.start()
        serve.start()
        assert_pages_served(serve)
        token = register(serve, "sam")

        # The AI worker dies hard: it is started again; the web server never stops.
        worker = serve.supervised("worker --loglevel INFO --concurrency")
        os.kill(worker, signal.SIGKILL)
        assert serve.get("/healthz").status == 200
        wait_for(
            lambda: "Celery worker exited (status 137): starting it again" in serve.log(),
            timeout=30,
            what="the supervisor noticing the worker's death",
        )
        restarted = wait_for(
            lambda: serve.supervised("worker --loglevel INFO --concurrency"),
            timeout=30,
            what="a new AI worker",
        )
        assert restarted != worker
        # ... and it plays: the AI seats move in a new game.
        game = human_seat_game(serve, token)
        wait_for(
            lambda: ai_has_moved(serve, token, game["id"]),
            timeout=90,
            interval=0.5,
            what="an AI move played by the restarted worker",
        )

        # The web server's master dies hard: it is started again.
        web = serve.supervised("gunicorn pusoy_api.asgi:application")
        os.kill(web, signal.SIGKILL)
        wait_for(
            lambda: "web server exited (status 137): starting it again" in serve.log(),
            timeout=30,
            what="the supervisor noticing the web server's death",
        )
        # (Its worker, stopped with it, may still answer for a moment: wait for the new
        # master first.)
        wait_for(
            lambda: serve.supervised("gunicorn pusoy_api.asgi:application") != web,
            timeout=30,
            what="a new web server",
        )
        wait_for(
            lambda: serve.get("/healthz", timeout=3).status == 200,
            timeout=60,
            interval=0.5,
            what="the web server serving again",
        )
        assert_pages_served(serve)

        # Ctrl-C (SIGINT to the terminal's process group: the script and its supervisors)
        # stops everything it started.
        serve.stop(lambda pid: os.killpg(pid, signal.SIGINT))
    finally:
        serve.close()
        broker.close()


def ai_has_moved(serve: ServeScript, token: str, game_id: str) -> bool:
    """Whether some AI seat has played in the game (my first move made when it is due)."""
    state = serve.call("GET", f"/api/v1/games/{game_id}/state", token=token).body
    deal = state["deal"]
    history = serve.call("GET", f"/api/v1/games/{game_id}/moves", token=token).body
    if any(move["seat"] != state["seat"] for move in history["moves"]):
        return True
    if deal["turn"] == state["seat"] and deal["seq"] == 0:
        answer = post_move(serve, token, game_id, deal["legal_moves"][0], 0)
        assert answer.status == 201, answer
    return False
