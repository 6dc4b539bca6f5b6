"""The environment sets which proxies are trusted and how long a cache call may wait."""

from __future__ import annotations

from tests.settings_probe import settings_under

PROBE = """
import json
from django.conf import settings
print(json.dumps({
    "num_proxies": settings.REST_FRAMEWORK["NUM_PROXIES"],
    "auth_rate": settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["auth"],
    "cache": settings.CACHES["default"],
}))
"""


def _settings_under(env: dict[str, str]) -> dict:
    return settings_under(PROBE, {"DEV_MODE": "1", **env})


def test_forwarded_for_is_not_trusted_by_default_and_redis_calls_time_out():
    found = _settings_under({"REDIS_URL": "redis://redis:6379/1"})
    assert found["num_proxies"] == 0
    assert found["auth_rate"] == "120/min"
    assert found["cache"]["OPTIONS"] == {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}


def test_trusted_proxy_count_comes_from_the_environment():
    assert _settings_under({"TRUSTED_PROXY_COUNT": "2"})["num_proxies"] == 2
