"""Backoff on failed log-ins, per username, from any address.

The per-IP throttle cannot stop password guessing from many addresses, and cannot be
strict without locking out every player behind one carrier NAT. So failed log-ins are
also counted per canonical username: after `FREE_FAILURES` in a row, the name can be
tried again only `FIRST_WAIT` seconds after the latest failure, doubling with each
further failure up to `MAX_WAIT`. An attempt inside the wait is refused (429) without
checking the password; a successful log-in starts the count again. Unknown usernames are
counted the same way, so a refusal tells nothing about which names exist.

Password checks on one name also run one at a time: the request that claims the current
state goes ahead, a concurrent one is refused for a second. Without that, a burst of
simultaneous guesses would all be checked before the first failure was counted.

The state lives in the fail-open cache: while the cache is down, log-ins are checked
without backoff (and the cache module logs a warning).
"""

from __future__ import annotations

import hashlib
import math
import time
import uuid
from dataclasses import dataclass

from pusoy_api.cache import FailOpenCache
from pusoy_api.domain_errors import DomainError, ErrorCode

FREE_FAILURES = 10
FIRST_WAIT = 1.0
MAX_WAIT = 15 * 60.0
# A name with no attempt for this long starts from zero again.
FORGET_AFTER = 24 * 3600
# A claimed check that never reports back (its process died) frees the name after this.
CHECK_TIMEOUT = 10

cache = FailOpenCache()
clock = time.time  # tests replace it


@dataclass(frozen=True)
class LoginAttempt:
    key: str
    failures: int


def backoff_seconds(*, failures: int) -> float:
    """How long after its latest failure a name with `failures` failures in a row waits."""
    if failures < FREE_FAILURES:
        return 0.0
    return min(FIRST_WAIT * 2 ** (failures - FREE_FAILURES), MAX_WAIT)


def _key(username_canonical: str) -> str:
    # Hashed: names are user input, and some cache backends restrict key characters.
    return "login-backoff:" + hashlib.sha256(username_canonical.encode()).hexdigest()


def _refuse(wait: float) -> DomainError:
    return DomainError(
        ErrorCode.THROTTLED,
        "Too many failed log-ins for this username.",
        details={"retry_after": math.ceil(wait)},
    )


def login_attempt_start(*, username_canonical: str) -> LoginAttempt:
    """Let one password check for this name go ahead, or refuse it (429 `throttled`)."""
    key = _key(username_canonical)
    state = cache.get(key) or {"failures": 0, "at": 0.0, "version": "-"}
    wait = state["at"] + backoff_seconds(failures=state["failures"]) - clock()
    if wait > 0:
        raise _refuse(wait)
    # Every recorded outcome writes a new version, so each version is claimed once.
    if not cache.add(f"{key}:check:{state['version']}", 1, CHECK_TIMEOUT):
        raise _refuse(1.0)
    return LoginAttempt(key=key, failures=state["failures"])


def _record(attempt: LoginAttempt, *, failures: int) -> None:
    state = {"failures": failures, "at": clock(), "version": uuid.uuid4().hex}
    cache.set(attempt.key, state, FORGET_AFTER)


def login_attempt_failed(*, attempt: LoginAttempt) -> None:
    _record(attempt, failures=attempt.failures + 1)


def login_attempt_succeeded(*, attempt: LoginAttempt) -> None:
    _record(attempt, failures=0)
