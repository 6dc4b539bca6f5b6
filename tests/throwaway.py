"""Throwaway PostgreSQL, Redis and web-server processes for fault tests.

Fault tests stop, freeze and restart the services the server depends on, so they never
touch the machine's shared PostgreSQL (5432) and Redis (6379): each instance here runs on
a free port of its own, in a temp directory, and is removed when the test is done.

Nothing in this module imports Django: the processes it starts have their own settings,
and the test process only talks to them over sockets.
"""

from __future__ import annotations

import contextlib
import glob
import http.client
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(
    condition: Callable[[], T], *, timeout: float, interval: float = 0.1, what: str = "condition"
) -> T:
    """Poll until `condition()` is truthy and return it; fail after `timeout` seconds.
    Exceptions from the condition count as "not yet" (the service may be coming up)."""
    deadline = time.monotonic() + timeout
    last_error: BaseException | None = None
    while True:
        try:
            value = condition()
        except Exception as exc:
            value, last_error = None, exc  # type: ignore[assignment]
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what}: not true after {timeout}s (last error: {last_error!r})")
        time.sleep(interval)


def _stop_process_group(process: subprocess.Popen[bytes] | None, timeout: float = 15.0) -> None:
    """SIGTERM a process started with start_new_session=True and its children, then
    SIGKILL whatever is left after `timeout`."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


# --- Redis --------------------------------------------------------------------------------


def redis_server_binary() -> str | None:
    return shutil.which("redis-server")


class ThrowawayRedis:
    """`redis-server` on its own port, nothing persisted; stop and start again on the
    same port (so URLs handed to other processes stay valid)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.dir = Path(tempfile.mkdtemp(prefix="pusoy-redis-"))
        self.log_path = self.dir / "redis.log"
        self.closed_log = ""

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError("redis-server not installed")
        # A lost start race for the port must not look like success: wait for *our* pid.
        self.process = subprocess.Popen(
            [
                binary, "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(self.dir),
                "--logfile", str(self.log_path),
            ],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            wait_for(self._answers, timeout=10, what=f"redis on port {self.port}")
        except BaseException:
            self.stop()
            raise

    def _answers(self) -> bool:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"redis-server exited; log: {self.log_path}")
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return self.closed_log

    def stop(self) -> None:
        _stop_process_group(self.process)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def close(self) -> None:
        self.stop()
        self.closed_log = self.log()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> ThrowawayRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- PostgreSQL -----------------------------------------------------------------------------


def postgres_bin_dir() -> Path | None:
    """The newest installed PostgreSQL's binaries (Debian layout), or None."""
    found = sorted(
        (Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1]
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class ThrowawayPostgres:
    """A PostgreSQL cluster of its own: initdb into a temp dir, trust auth, loopback only,
    no fsync; stop, start, freeze (SIGSTOP every server process) and thaw. initdb refuses
    to run as root, so as root the cluster belongs to the `postgres` OS user."""

    def __init__(self, port: int | None = None) -> None:
        bin_dir = postgres_bin_dir()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL server binaries not installed")
        self.bin = bin_dir
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pusoy-pg-"))
        self.data = self.dir / "data"
        self.socket_dir = self.dir / "sock"
        self.log_path = self.dir / "postgres.log"
        self.frozen: list[int] = []
        self.setup_seconds: float | None = None
        self._initialized = False

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = 60.0) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, timeout=timeout, check=False)
        if result.returncode != 0:
            raise RuntimeError(
                f"{' '.join(args[:1])} failed ({result.returncode}): "
                f"{result.stdout.decode(errors='replace')}{result.stderr.decode(errors='replace')}"
            )

    def init(self) -> None:
        started = time.perf_counter()
        self.socket_dir.mkdir()
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            for path in (self.dir, self.socket_dir):
                os.chown(path, user.pw_uid, user.pw_gid)
        self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
            "-E", "UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        self._initialized = True
        self.start()
        self.setup_seconds = time.perf_counter() - started

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.socket_dir} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log_path), "-o", options,
                  "-w", "-t", "30", "start")  # fmt: skip

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return ""

    def stop(self, mode: str = "fast") -> None:
        self.thaw()
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def postmaster_pid(self) -> int | None:
        with contextlib.suppress(FileNotFoundError, ValueError):
            return int((self.data / "postmaster.pid").read_text().split()[0])
        return None

    def server_pids(self) -> list[int]:
        """The postmaster and its children (backends, checkpointer, walwriter, ...)."""
        postmaster = self.postmaster_pid()
        if postmaster is None:
            return []
        pids = [postmaster]
        for stat in glob.glob("/proc/[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == postmaster:
                    pids.append(int(Path(stat).parent.name))
        return pids

    def freeze(self) -> None:
        """SIGSTOP every server process: connections stay open and the kernel still
        accepts new ones, but nothing is ever answered (a hung host, a blackhole)."""
        # The postmaster first, so it forks no new child that would escape the freeze.
        for pid in self.server_pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
                self.frozen.append(pid)

    def thaw(self) -> None:
        for pid in reversed(self.frozen):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        self.frozen = []

    def close(self) -> None:
        """Always safe: thaw, stop (immediately: nothing here is worth a checkpoint),
        remove the directory."""
        try:
            if self._initialized and self.postmaster_pid() is not None:
                self.thaw()
                with contextlib.suppress(Exception):
                    self.stop(mode="immediate")
                pid = self.postmaster_pid()
                if pid is not None:  # pg_ctl could not stop it: do it by hand
                    for child in self.server_pids():
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(child, signal.SIGKILL)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> ThrowawayPostgres:
        try:
            self.init()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def pgbouncer_binary() -> str | None:
    return shutil.which("pgbouncer") or next(iter(glob.glob("/usr/sbin/pgbouncer")), None)


class ThrowawayPgBouncer:
    """PgBouncer of its own in front of one PostgreSQL (any database name passes through),
    in transaction pooling mode with a small server pool, as large deployments run it."""

    def __init__(self, postgres_port: int, *, pool_size: int = 4) -> None:
        binary = pgbouncer_binary()
        if binary is None:
            raise RuntimeError("pgbouncer not installed")
        self.binary = binary
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pusoy-pgbouncer-"))
        self.log_path = self.dir / "pgbouncer.log"
        (self.dir / "users.txt").write_text('"postgres" ""\n')
        (self.dir / "pgbouncer.ini").write_text(
            "[databases]\n"
            f"* = host=127.0.0.1 port={postgres_port}\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {self.dir / 'users.txt'}\n"
            "pool_mode = transaction\n"
            f"default_pool_size = {pool_size}\nmax_client_conn = 500\n"
            "ignore_startup_parameters = extra_float_digits,options\n"
            f"logfile = {self.log_path}\npidfile = {self.dir / 'pgbouncer.pid'}\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        command = [self.binary, str(self.dir / "pgbouncer.ini")]
        if os.geteuid() == 0:  # pgbouncer refuses to run as root
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            for path in self.dir.iterdir():
                os.chown(path, user.pw_uid, user.pw_gid)
            command = ["runuser", "-u", "postgres", "--", *command]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True
        )

        def answers() -> bool:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"pgbouncer exited: {self.log()[-2000:]}")
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            return False

        wait_for(answers, timeout=30, interval=0.1, what="pgbouncer up")

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return ""

    def close(self) -> None:
        _stop_process_group(self.process, timeout=10)
        self.process = None
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> ThrowawayPgBouncer:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- HTTP -----------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any
    seconds: float

    def error_code(self) -> str | None:
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return self.body["error"].get("code")
        return None


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    *,
    token: str | None = None,
    timeout: float = 6.0,
    accept: str = "application/json",
) -> Answer:
    """One request on a fresh connection; `socket.timeout` if no answer in `timeout`."""
    headers = {"Accept": accept}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        started = time.perf_counter()
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        seconds = time.perf_counter() - started
    finally:
        conn.close()
    content_type = response.getheader("Content-Type", "")
    parsed = json.loads(raw) if "json" in content_type and raw else raw
    headers = {k.lower(): v for k, v in response.getheaders()}
    return Answer(response.status, headers, parsed, seconds)


# --- The web server ---------------------------------------------------------------------------


class LiveServer:
    """The real web server (gunicorn + one uvicorn worker) as a subprocess, migrated and
    answering /healthz before `start()` returns. Its log is a file: `log()` reads it."""

    def __init__(self, env: dict[str, str], *, name: str = "web") -> None:
        self.port = free_port()
        self.extra_env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.dir = Path(tempfile.mkdtemp(prefix=f"pusoy-{name}-"))
        self.log_path = self.dir / "server.log"

    def env(self) -> dict[str, str]:
        # Only the machine's basics from this process: the server is configured by what
        # the test hands it, never by the test run's own database or broker settings.
        keep = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV"}
        env = {k: v for k, v in os.environ.items() if k in keep}
        env.update(
            DJANGO_SETTINGS_MODULE="pusoy_api.settings.base",
            SECRET_KEY="fault-tests-" + "x" * 40,
            DEBUG="false",
            DEV_MODE="1",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SECURE_SSL_REDIRECT="false",
            SECURE_HSTS_SECONDS="0",
            DATABASE_URL="",
            REDIS_URL="",
            CELERY_BROKER_URL="",
            THROTTLE_AUTH="100000/min",
            THROTTLE_WRITES="100000/min",
            WEB_CONCURRENCY="1",
            HOST="127.0.0.1",
            PORT=str(self.port),
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    def migrate(self) -> None:
        with self.log_path.open("ab") as log:
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT,
                timeout=180, check=True,
            )  # fmt: skip

    def start(self) -> None:
        try:
            self.migrate()
            log = self.log_path.open("ab")
            self.process = subprocess.Popen(
                [
                    str(Path(sys.executable).with_name("gunicorn")),
                    "pusoy_api.asgi:application",
                    "--config", "python:pusoy_api.gunicorn_conf",
                ],
                cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
            log.close()
            wait_for(self._answers, timeout=60, interval=0.2, what="web server up")
        except BaseException:
            self.stop()
            raise

    def _answers(self) -> bool:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError("web server exited")
        return call(self.port, "GET", "/healthz", timeout=5).status in (200, 503)

    def call(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Answer:
        return call(self.port, method, path, body, **kwargs)

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return ""

    def stop(self) -> None:
        _stop_process_group(self.process, timeout=20)
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def sqlite_server(
    directory: Path, *, name: str, env: dict[str, str] | None = None, log_chars: int = 4000
) -> Iterator[LiveServer]:
    """A started LiveServer on a SQLite file of its own in `directory`, with its tasks in
    the web process: `scripts/serve.sh` with nothing configured. The tail of its log is
    printed when it stops (pytest shows it with a failure)."""
    database = directory / "db.sqlite3"
    web = LiveServer({"DATABASE_URL": f"sqlite:///{database}", **(env or {})}, name=name)
    try:
        web.start()
        yield web
    finally:
        print(f"\n===== {name} server log (last {log_chars} chars) =====\n{web.log()[-log_chars:]}")
        web.close()


class CeleryProcess:
    """`celery worker` (with an embedded beat when asked) in a process group of its own;
    `env` is its whole environment (a live server's, plus what the test changes)."""

    def __init__(
        self, env: dict[str, str], *, beat: bool = False, production_like: bool = False
    ) -> None:
        self.env = env
        self.beat = beat
        # As scripts/serve.sh and docker-compose.yml run it: two processes, so the consumer
        # keeps polling the broker while a task runs, and gossip, mingle and heartbeat on:
        # all part of what a broker restart under a running task has to survive.
        self.production_like = production_like
        self.process: subprocess.Popen[bytes] | None = None
        self.dir = Path(tempfile.mkdtemp(prefix="pusoy-celery-"))
        self.log_path = self.dir / "celery.log"
        self.closed_log = ""

    def start(self) -> None:
        command = [
            sys.executable, "-m", "celery", "-A", "pusoy_api", "worker",
            "--pool", "prefork", "--loglevel", "INFO", "-n", f"faults-{os.getpid()}@%h",
        ]  # fmt: skip
        if self.production_like:
            command += ["--concurrency", "2"]
        else:
            command += [
                "--concurrency", "1", "--without-gossip", "--without-mingle",
                "--without-heartbeat",
            ]  # fmt: skip
        if self.beat:
            command += ["--beat", "--schedule", str(self.dir / "beat-schedule")]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return self.closed_log

    def stop(self) -> None:
        _stop_process_group(self.process)
        self.process = None

    def close(self) -> None:
        self.stop()
        # Tests close their workers before a failure's logs are printed: keep the text.
        self.closed_log = self.log()
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def closing_all(*things: Any) -> Iterator[None]:
    """Close each thing (in reverse order) however the block ends."""
    try:
        yield
    finally:
        for thing in reversed(things):
            with contextlib.suppress(Exception):
                thing.close()
