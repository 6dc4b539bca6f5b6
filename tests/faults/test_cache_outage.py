"""The shared cache (Redis at REDIS_URL) down: the service keeps working without it, and
/healthz says "degraded" with a 200 (a load balancer keeps the instance), also when the
same Redis is the Celery broker; /healthz/full (monitoring) answers 503 naming them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.faults.helpers import NO_HANG_SECONDS, register
from tests.throwaway import LiveServer, ThrowawayRedis, wait_for

pytestmark = pytest.mark.faults


@pytest.fixture(scope="module")
def redis(redis_binary, logs) -> Iterator[ThrowawayRedis]:
    with ThrowawayRedis() as server:
        logs.watch("redis", server)
        yield server


@pytest.fixture
def redis_restored(redis) -> Iterator[ThrowawayRedis]:
    yield redis
    if redis.process is None:
        redis.start()


@pytest.fixture(scope="module")
def cache_only(postgres, redis, start_server) -> LiveServer:
    return start_server({"DATABASE_URL": postgres.url, "REDIS_URL": redis.url(1)})


@pytest.fixture(scope="module")
def cache_and_broker(postgres, redis, start_server) -> LiveServer:
    return start_server(
        {"DATABASE_URL": postgres.url, "REDIS_URL": redis.url(1), "CELERY_BROKER_URL": redis.url()},
        name="web-shared-redis",
    )


def healthz(server: LiveServer, path: str = "/healthz"):
    return server.call("GET", path, timeout=3)


def test_cache_down_is_degraded_not_down(cache_only, redis_restored):
    assert healthz(cache_only).body == {
        "status": "ok",
        "checks": {"database": "ok", "broker": "in-process", "cache": "ok"},
        "push": {"platforms": []},  # this server has no push credentials
    }
    redis_restored.stop()
    probe = healthz(cache_only)
    assert probe.status == 200, probe
    assert probe.body["status"] == "degraded"
    assert probe.body["checks"] == {"database": "ok", "broker": "in-process", "cache": "down"}
    assert set(probe.body["details"]) == {"cache"}
    full = healthz(cache_only, "/healthz/full")
    assert full.status == 503, full
    assert set(full.body["error"]["details"]) == {"cache"}
    redis_restored.start()
    wait_for(lambda: healthz(cache_only).body["status"] == "ok", timeout=30, what="cache back")


def test_redis_as_cache_and_broker_down_is_degraded_for_the_balancer_down_for_monitoring(
    cache_and_broker, redis_restored
):
    redis_restored.stop()
    probe = healthz(cache_and_broker)
    assert probe.status == 200, probe
    assert probe.body["status"] == "degraded"
    assert probe.body["checks"] == {"database": "ok", "broker": "down", "cache": "down"}
    assert set(probe.body["details"]) == {"broker", "cache"}
    full = healthz(cache_and_broker, "/healthz/full")
    assert full.status == 503, full
    assert full.body["checks"] == probe.body["checks"]
    assert full.body["error"]["code"] == "service_unavailable"
    assert full.body["error"]["message"] == "Unreachable: broker, cache."
    assert set(full.body["error"]["details"]) == {"broker", "cache"}


def two_human_game(server: LiveServer, prefix: str) -> tuple[str, list[str]]:
    tokens = [register(server, f"{prefix}-{i}") for i in range(2)]
    seats = [{"type": "human"}, {"type": "human"}]
    game = server.call("POST", "/api/v1/games", {"seats": seats}, token=tokens[0])
    assert game.status == 201, game
    joined = server.call("POST", f"/api/v1/games/{game.body['id']}/join", {}, token=tokens[1])
    assert joined.status == 200, joined
    return game.body["id"], tokens


@pytest.mark.parametrize("stack", ["cache_only", "cache_and_broker"])
def test_moves_and_reads_work_with_the_cache_down(stack, request, redis_restored):
    server = request.getfixturevalue(stack)
    game_id, tokens = two_human_game(server, stack)
    redis_restored.stop()
    states = [server.call("GET", f"/api/v1/games/{game_id}/state", token=token) for token in tokens]
    assert [state.status for state in states] == [200, 200], states
    assert server.call("GET", "/api/v1/players/me", token=tokens[0]).status == 200
    (mover,) = [i for i, s in enumerate(states) if s.body["deal"]["turn"] == s.body["seat"]]
    deal = states[mover].body["deal"]
    move = random.Random(3).choice(deal["legal_moves"])
    answer = server.call(
        "POST",
        f"/api/v1/games/{game_id}/moves",
        {**move, "expected_seq": deal["seq"]},
        token=tokens[mover],
        timeout=NO_HANG_SECONDS,
    )
    assert answer.status == 201, answer
