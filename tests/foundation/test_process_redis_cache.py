"""The Redis cache keeps one connection pool per process, whatever the number of cache
objects: the server gives every request a fresh context, hence a fresh cache object."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.test import override_settings

from pusoy_api.cache import ProcessRedisCache
from tests.throwaway import ThrowawayRedis, redis_server_binary


@pytest.fixture(scope="module")
def redis() -> Iterator[ThrowawayRedis]:
    if redis_server_binary() is None:
        pytest.skip("redis-server not installed")
    with ThrowawayRedis() as server:
        yield server


def test_cache_objects_of_one_process_share_one_client():
    # Building the client connects to nothing, so no server is needed here.
    one = ProcessRedisCache("redis://127.0.0.1:6379/13", {})
    two = ProcessRedisCache("redis://127.0.0.1:6379/13", {})
    other = ProcessRedisCache("redis://127.0.0.1:6379/12", {})
    assert one._cache is two._cache
    assert other._cache is not one._cache


def test_requests_in_fresh_contexts_use_one_connection(redis):
    caches_setting = {
        "default": {
            "BACKEND": "pusoy_api.cache.ProcessRedisCache",
            "LOCATION": redis.url(),
            "KEY_PREFIX": "test-process-pool",
        }
    }
    with override_settings(CACHES=caches_setting):

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
