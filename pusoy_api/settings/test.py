"""Test settings: Postgres by default (as CI runs), fast password hashing, no throttling noise."""

from __future__ import annotations

import hashlib
import os
import socket
import uuid
import warnings


def _postgres_listening(host: str = "127.0.0.1", port: int = 5432) -> bool:
    try:
        socket.create_connection((host, port), timeout=0.5).close()
    except OSError:
        return False
    return True


def _vapid_key() -> str:
    """A fresh P-256 private key, base64url of its 32 raw bytes (never a committed one)."""
    import base64

    from cryptography.hazmat.primitives.asymmetric import ec

    raw = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return base64.urlsafe_b64encode(raw.to_bytes(32, "big")).rstrip(b"=").decode()


# Tests run against PostgreSQL, as CI does. On a machine without it (a newcomer's
# laptop) they fall back to SQLite and skip what needs Postgres; CI forbids that.
if "DATABASE_URL" not in os.environ:
    if _postgres_listening() or os.environ.get("PUSOY_REQUIRE_SERVICES") == "1":
        os.environ["DATABASE_URL"] = "postgres://postgres@127.0.0.1:5432/pusoy"
    else:
        warnings.warn("PostgreSQL not reachable: tests use SQLite", stacklevel=1)
        os.environ["DATABASE_URL"] = "sqlite://:memory:"

# Tests run with the development key unless a test sets its own environment, and tasks
# without a broker run inside the request that queued them (deterministic).
os.environ.setdefault("DEV_MODE", "1")
os.environ.setdefault("EMBEDDED_TASKS", "eager")
# The suite tests the sources (coverage, monkeypatched constants, the bots' code as
# written); tests/ai/test_compiled.py runs the compiled build against them on its own.
os.environ.setdefault("PUSOY_COMPILED", "0")

from .base import *  # noqa: E402, F403
from .base import REST_FRAMEWORK  # noqa: E402

# MD5 is unsafe for real passwords and fine for test users: it keeps each test fast.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECURE_SSL_REDIRECT = False
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {"auth": "10000/min", "writes": "100000/min", "guest": "10000/min"},
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Several checkouts on one Postgres server each get their own test databases, named after
# the checkout's path unless PUSOY_TEST_DB says: two runs sharing a name drop each other's
# databases mid-run (a CI run beside a developer's once failed that way).
_CHECKOUT = hashlib.sha256(str(BASE_DIR).encode()).hexdigest()[:8]  # noqa: F405
DATABASES["default"]["TEST"] = {  # noqa: F405
    "NAME": os.environ.get("PUSOY_TEST_DB") or f"test_pusoy_{_CHECKOUT}"
}

# Tasks run in-process unless a test asks for the real worker (tests/celery_worker.py),
# which only turns eager mode off: broker and queue stay fixed for the whole session,
# so Celery's cached connection pools never point at a stale broker. The queue name is
# unique per test process, so parallel runs and a developer's own worker never mix.
CELERY_BROKER_URL = os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
CELERY_RESULT_BACKEND = CELERY_BROKER_URL
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_DEFAULT_QUEUE = f"test-{uuid.uuid4().hex[:12]}"

# Deliveries go to a queue of this test process too; the test worker consumes both.
WEBHOOK_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}-webhooks"
PUSH_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}-push"
CELERY_TASK_ROUTES = {"webhooks.*": {"queue": WEBHOOK_QUEUE}, "push.*": {"queue": PUSH_QUEUE}}
# Web Push receivers in tests listen on 127.0.0.1 (tests/push/receiver.py), and Web Push
# is on with a key pair made for this run (the test worker gets the same key).
PUSH_WEBPUSH_HOSTS = ["*"]
PUSH_VAPID_PRIVATE_KEY = os.environ.get("TEST_PUSH_VAPID_PRIVATE_KEY") or _vapid_key()
PUSH_VAPID_SUBJECT = "mailto:push-tests@example.com"
# Receivers in tests listen on 127.0.0.1; the refusal is tested by overriding this.
WEBHOOK_ALLOW_PRIVATE_URLS = True
