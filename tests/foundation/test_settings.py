"""Settings: a bare environment falls back to the embedded first-run defaults."""

from __future__ import annotations

from tests.settings_probe import probe, settings_under

PROBE = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "name": str(settings.DATABASES["default"]["NAME"]),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "debug": settings.DEBUG,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "broker": settings.CELERY_BROKER_URL,
}))
"""


def test_without_secret_key_or_dev_mode_start_up_fails_saying_why():
    out = probe(PROBE, {"DATABASE_URL": "postgres://u:p@db:5432/pusoy"})
    assert out.returncode != 0
    error = out.stderr
    assert "ImproperlyConfigured: SECRET_KEY is not set" in error
    assert "DEV_MODE=1" in error


def test_dev_mode_alone_falls_back_to_sqlite_and_in_process_ai():
    found = settings_under(PROBE, {"DEV_MODE": "1"})
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"].endswith("db.sqlite3")
    assert found["eager"] is True
    assert found["debug"] is True
    assert found["broker"] == ""


def test_configured_environment_uses_postgres_and_workers():
    found = settings_under(
        PROBE,
        {
            "SECRET_KEY": "x" * 60,
            "DATABASE_URL": "postgres://u:p@db:5432/pusoy",
            "CELERY_BROKER_URL": "redis://redis:6379/0",
        },
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["eager"] is False
    # A deployment (SECRET_KEY set) is production-safe by default.
    assert found["debug"] is False
    assert found["ssl_redirect"] is True
