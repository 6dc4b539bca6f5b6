"""The Redis cache keeps one connection pool per process, whatever the number of cache
objects: the server gives every request a fresh context, hence a fresh cache object."""

from __future__ import annotations

import contextvars
import socket

import pytest
from django.core.cache import caches
from django.test import override_settings

from pusoy_api.cache import ProcessRedisCache

REDIS = {
    "default": {
        "BACKEND": "pusoy_api.cache.ProcessRedisCache",
        "LOCATION": "redis://127.0.0.1:6379/13",
        "KEY_PREFIX": "test-process-pool",
    }
}


def _redis_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        return False
    return True


def test_cache_objects_of_one_process_share_one_client():
    one = ProcessRedisCache("redis://127.0.0.1:6379/13", {})
    two = ProcessRedisCache("redis://127.0.0.1:6379/13", {})
    other = ProcessRedisCache("redis://127.0.0.1:6379/12", {})
    assert one._cache is two._cache
    assert other._cache is not one._cache


@pytest.mark.skipif(not _redis_up(), reason="no Redis on 127.0.0.1:6379")
def test_requests_in_fresh_contexts_use_one_connection():
    with override_settings(CACHES=REDIS):

        def request() -> object:
            cache = caches["default"]
            cache.set("k", "v", 10)
            assert cache.get("k") == "v"
            return cache

        first, second = (contextvars.Context().run(request) for _ in range(2))
        assert first is not second  # what each request gets: a cache object of its own
        pool = first._cache._get_connection_pool(True)
        assert second._cache._get_connection_pool(True) is pool
        assert len(pool._available_connections) + len(pool._in_use_connections) == 1
