"""The APNs and FCM providers against the local fakes:
``python -m benchmarks.load.push_transports``.

Starts the fake APNs (HTTP/2 over TLS, verifying every provider token) and the fake FCM
(token endpoint and messages:send, over TLS) of tests/push in this process, then sends
through the real providers, first from one thread, then from several sharing one
provider as a threaded worker would. Prints sends per second and p50/p95 per send.

What it measures is the provider side of this machine: TLS, HTTP/2 framing, JSON, the
JWT, and a server in the same process (which competes for the same cores). Apple's and
Google's round trips, tens of milliseconds, are not in it. Numbers only; nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import platform
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from benchmarks.load.api import pct
from push.providers.apns import ApnsConfig, ApnsProvider
from push.providers.base import DeviceTarget, Outcome, PushMessage, SendResult
from push.providers.fcm import FcmConfig, FcmProvider
from tests.push.fake_apns import FakeApns
from tests.push.fake_fcm import FakeFcm
from tests.push.transport_helpers import Clock, make_apns_key, make_service_account, make_tls

# The fakes keep their connections for the whole run: a GOAWAY every 1000 requests
# (hypercorn's default) would measure reconnections, and turn one send in 1000 into a
# RETRY (tests/push/test_apns.py covers that).
ROTATE_NEVER = 10**9

MESSAGE = PushMessage(
    title="Your turn",
    body="Ana played; it is your move.",
    data={"kind": "turn", "game": "9f1c", "event": "311"},
    collapse_id="game-9f1c",
)


@contextlib.contextmanager
def apns(directory: Path) -> Iterator[tuple[ApnsProvider, DeviceTarget]]:
    tls = make_tls(directory / "apns-tls")
    key = make_apns_key(directory / "AuthKey.p8")
    clock = Clock(time.time())
    fake = FakeApns(
        key=key,
        key_id="ABC123DEFG",
        team_id="DEF123GHIJ",
        topic="ph.pusoy.app",
        tls=tls,
        clock=clock,
    ).start(requests_per_connection=ROTATE_NEVER)
    provider = ApnsProvider(
        ApnsConfig(
            key_id="ABC123DEFG",
            team_id="DEF123GHIJ",
            key_path=str(directory / "AuthKey.p8"),
            topic="ph.pusoy.app",
            base_url=fake.url,
            ca_file=tls.ca_file,
        ),
        clock=clock,
    )
    try:
        yield provider, DeviceTarget(platform="apns", token="a1" * 32)
    finally:
        provider.close()
        fake.stop()


@contextlib.contextmanager
def fcm(directory: Path) -> Iterator[tuple[FcmProvider, DeviceTarget]]:
    tls = make_tls(directory / "fcm-tls")
    path = directory / "service-account.json"
    key = make_service_account(path, token_uri="https://oauth2.googleapis.com/token")
    fake = FakeFcm(
        key=key,
        key_id="0123456789abcdef0123456789abcdef01234567",
        client_email="push@pusoy-test.iam.gserviceaccount.com",
        project_id="pusoy-test",
        tls=tls,
    ).start(requests_per_connection=ROTATE_NEVER)
    provider = FcmProvider(
        FcmConfig(
            service_account_path=str(path),
            base_url=fake.url,
            token_url=fake.token_url,
            ca_file=tls.ca_file,
        )
    )
    try:
        yield provider, DeviceTarget(platform="fcm", token="fMx3:APA91b" + "x" * 140)
    finally:
        provider.close()
        fake.stop()


def run(send: Callable[[], SendResult], *, threads: int, sends: int) -> tuple[float, list[float]]:
    """`sends` sends split over `threads` threads: (sends per second, each send's time)."""
    times: list[float] = []
    lock = threading.Lock()
    failures: list[SendResult] = []

    def worker(count: int) -> None:
        mine = []
        for _ in range(count):
            started = time.perf_counter()
            result = send()
            mine.append(time.perf_counter() - started)
            if result.outcome is not Outcome.SENT:
                failures.append(result)
        with lock:
            times.extend(mine)

    workers = [threading.Thread(target=worker, args=(sends // threads,)) for _ in range(threads)]
    started = time.perf_counter()
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    elapsed = time.perf_counter() - started
    if failures:
        raise SystemExit(f"{len(failures)} sends not sent, e.g. {failures[0]}")
    return len(times) / elapsed, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sends", type=int, default=2000, help="sends per run (default 2000)")
    parser.add_argument("--threads", type=int, default=8, help="threads of the second run")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {args.sends} sends a run")
    with tempfile.TemporaryDirectory() as tmp:
        for name, setup in (("apns", apns), ("fcm", fcm)):
            with setup(Path(tmp)) as (provider, target):
                provider.send(target, MESSAGE)  # the connection and the token, made once
                for threads in (1, args.threads):
                    rate, times = run(
                        functools.partial(provider.send, target, MESSAGE),
                        threads=threads,
                        sends=args.sends,
                    )
                    print(
                        f"{name:5} {threads} thread{'s' if threads > 1 else ' '}: "
                        f"{rate:7.0f} sends/s, p50 {pct(times, 50) * 1000:6.2f} ms, "
                        f"p95 {pct(times, 95) * 1000:6.2f} ms"
                    )


if __name__ == "__main__":
    main()
