"""/metrics: who may read it, and what the requests, moves and tasks put in it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Deal, Move
from games.tasks import ping
from pusoy_api import metrics
from tests.api.helpers import client_for, create_game, start_human_game, state_of
from tests.ops.metrics_helpers import scrape, value

MOVES_ROUTE = "/api/v1/games/<uuid:game_id>/moves"
STATE_ROUTE = "/api/v1/games/<uuid:game_id>/state"


# --- Access ---------------------------------------------------------------------------------


def test_open_to_loopback_by_default_in_prometheus_text_format():
    response = Client().get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert "# TYPE pusoy_http_requests_total counter" in response.content.decode()


def test_refused_to_an_address_outside_the_allowed_networks(settings):
    settings.METRICS_ALLOWED_IPS = ["10.0.0.0/8"]
    refused = Client(REMOTE_ADDR="192.168.1.5").get("/metrics")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "permission_denied"
    assert "pusoy_" not in refused.content.decode()
    assert Client(REMOTE_ADDR="10.1.2.3").get("/metrics").status_code == 200
    assert Client().get("/metrics").status_code == 403  # loopback is no longer listed


def test_a_bearer_of_the_token_may_read_from_anywhere(settings):
    settings.METRICS_ALLOWED_IPS = []
    settings.METRICS_TOKEN = "scrape-secret"
    client = Client(REMOTE_ADDR="203.0.113.9")
    assert client.get("/metrics").status_code == 403
    wrong = client.get("/metrics", HTTP_AUTHORIZATION="Bearer nope")
    assert wrong.status_code == 403
    right = client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-secret")
    assert right.status_code == 200


def test_only_get_is_answered():
    response = Client().post("/metrics")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


# --- HTTP requests ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_request_counts_under_its_route_template_method_and_status():
    game_id, clients = start_human_game(4)
    before = scrape(Client())
    assert clients[0].get(f"/api/v1/games/{game_id}/state").status_code == 200
    after = scrape(Client())
    labels = {"route": STATE_ROUTE, "method": "GET", "status": "200"}
    assert value(after, "pusoy_http_requests_total", **labels) == (
        value(before, "pusoy_http_requests_total", **labels) + 1
    )
    timed = {"route": STATE_ROUTE, "method": "GET"}
    assert value(after, "pusoy_http_request_duration_seconds_count", **timed) == (
        value(before, "pusoy_http_request_duration_seconds_count", **timed) + 1
    )
    # Never the raw path: ids would make a series per game.
    assert game_id not in after


@pytest.mark.django_db
def test_paths_that_match_no_route_share_one_label():
    before = scrape(Client())
    for n in range(3):
        assert Client().get(f"/api/v1/nothing-here-{n}").status_code == 404
    after = scrape(Client())
    labels = {"route": "<unmatched>", "method": "GET", "status": "404"}
    assert value(after, "pusoy_http_requests_total", **labels) == (
        value(before, "pusoy_http_requests_total", **labels) + 3
    )
    assert "nothing-here" not in after


# --- Moves ------------------------------------------------------------------------------------


def _human_moves(text: str) -> float:
    return value(text, "pusoy_moves_total", actor="human", ai_level="")


@pytest.mark.django_db
def test_a_move_counts_after_its_commit_and_a_refused_move_does_not(
    django_capture_on_commit_callbacks,
):
    game_id, clients = start_human_game(4)
    state = state_of(clients[0], game_id)
    mover = clients[state["deal"]["turn"]]
    other = clients[(state["deal"]["turn"] + 1) % 4]
    mover_state = state_of(mover, game_id)
    move = mover_state["deal"]["legal_moves"][0]
    before = scrape(Client())

    # Refused: not this player's turn. Nothing commits, nothing counts.
    with django_capture_on_commit_callbacks(execute=True):
        refused = other.post(
            f"/api/v1/games/{game_id}/moves",
            {**move, "expected_seq": mover_state["deal"]["seq"]},
            format="json",
        )
    assert refused.status_code >= 400
    assert _human_moves(scrape(Client())) == _human_moves(before)

    # Stored, but not yet committed (the test's transaction holds the commit): not yet.
    with django_capture_on_commit_callbacks(execute=False) as pending:
        made = mover.post(
            f"/api/v1/games/{game_id}/moves",
            {**move, "expected_seq": mover_state["deal"]["seq"]},
            format="json",
        )
    assert made.status_code == 201, made.json()
    assert _human_moves(scrape(Client())) == _human_moves(before)
    for callback in pending:  # the commit
        callback()
    assert _human_moves(scrape(Client())) == _human_moves(before) + 1


@pytest.mark.django_db
def test_a_move_rolled_back_with_its_transaction_does_not_count(
    django_capture_on_commit_callbacks,
):
    from games import services

    game_id, clients = start_human_game(4)
    deal = Deal.objects.get(game_id=game_id, number=1)
    seat = deal.turn
    player = clients[seat].player
    mover_state = state_of(clients[seat], game_id)
    move = mover_state["deal"]["legal_moves"][0]
    before = scrape(Client())

    def move_then_roll_back() -> None:
        with transaction.atomic():
            services.move_submit(
                player=player,
                game_id=game_id,
                expected_seq=deal.seq,
                action=move["action"],
                cards=move.get("cards"),
            )
            assert Move.objects.filter(deal=deal).count() == 1
            raise RuntimeError("rolled back after the move")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        move_then_roll_back()
    assert Move.objects.filter(deal=deal).count() == 0
    assert _human_moves(scrape(Client())) == _human_moves(before)


@pytest.mark.django_db(transaction=True)
def test_ai_moves_count_by_level_with_their_compute_time():
    client = client_for("solo")
    before = scrape(Client())
    game = create_game(client, [{"type": "human"}] + [{"type": "ai", "level": "random"}] * 3)
    # Play the human's turns until some AI has moved (tasks run in-process, after commit).
    for _ in range(20):
        state = state_of(client, game["id"])
        if value(scrape(Client()), "pusoy_moves_total", actor="ai", ai_level="random") > (
            value(before, "pusoy_moves_total", actor="ai", ai_level="random")
        ):
            break
        if state["deal"]["turn"] == 0:
            move = state["deal"]["legal_moves"][0]
            response = client.post(
                f"/api/v1/games/{game['id']}/moves",
                {**move, "expected_seq": state["deal"]["seq"]},
                format="json",
            )
            assert response.status_code == 201
    after = scrape(Client())
    ai_moves = value(after, "pusoy_moves_total", actor="ai", ai_level="random") - value(
        before, "pusoy_moves_total", actor="ai", ai_level="random"
    )
    assert ai_moves >= 1
    computed = value(after, "pusoy_ai_compute_seconds_count", level="random") - value(
        before, "pusoy_ai_compute_seconds_count", level="random"
    )
    assert computed >= ai_moves


def test_actor_labels_are_a_bounded_set():
    assert metrics.actor_labels("player") == ("human", "")
    assert metrics.actor_labels("timeout") == ("timeout", "")
    assert metrics.actor_labels("ai:expert") == ("ai", "expert")


# --- Celery ------------------------------------------------------------------------------------


def test_task_outcomes_count_by_task_name():
    before = scrape(Client())
    assert ping.delay("x").get() == "x"
    after = scrape(Client())
    labels = {"task": "games.ping", "outcome": "success"}
    assert value(after, "pusoy_celery_tasks_total", **labels) == (
        value(before, "pusoy_celery_tasks_total", **labels) + 1
    )


def test_queue_wait_is_the_time_from_publish_to_start():
    """The handlers, as a worker runs them: the publish stamps the headers, the worker's
    task request carries them (Celery puts message headers on `task.request`)."""
    headers: dict[str, object] = {}
    metrics.task_published(headers)
    headers[metrics.PUBLISHED_AT_HEADER] = float(headers[metrics.PUBLISHED_AT_HEADER]) - 2.5
    task = SimpleNamespace(name="games.test_wait", request=SimpleNamespace(**headers))
    before = scrape(Client())
    metrics.task_started(task, "some-id")
    after = scrape(Client())
    assert value(after, "pusoy_celery_queue_wait_seconds_count", task="games.test_wait") == (
        value(before, "pusoy_celery_queue_wait_seconds_count", task="games.test_wait") + 1
    )
    waited = value(after, "pusoy_celery_queue_wait_seconds_sum", task="games.test_wait")
    assert (
        2.5
        <= waited - value(before, "pusoy_celery_queue_wait_seconds_sum", task="games.test_wait")
        < 60
    )
    # An eager run (no publish, no header) observes nothing.
    metrics.task_started(SimpleNamespace(name="games.test_wait", request=SimpleNamespace()), "x")
    assert value(
        scrape(Client()), "pusoy_celery_queue_wait_seconds_count", task="games.test_wait"
    ) == (value(after, "pusoy_celery_queue_wait_seconds_count", task="games.test_wait"))


# --- What a process holds ---------------------------------------------------------------------


def test_long_poll_waiters_are_read_from_the_hubs(monkeypatch):
    from pusoy_api.realtime import longpoll

    fake_hub = SimpleNamespace(waiters={"g1": {object(), object()}, "g2": {object()}})
    monkeypatch.setattr(longpoll, "_hubs", {"loop": fake_hub})
    assert value(scrape(Client()), "pusoy_longpoll_waiters") == 3


def test_pool_readings_come_from_the_pool_stats(monkeypatch):
    stats = {
        "pool_size": 4,
        "pool_available": 3,
        "pool_max": 10,
        "requests_waiting": 2,
        "requests_num": 7,
        "requests_errors": 1,
    }
    monkeypatch.setattr(metrics, "_db_pool", lambda: SimpleNamespace(pop_stats=lambda: stats))
    before = scrape(Client())
    after = scrape(Client())  # a second sample adds the popped counters again
    assert value(after, "pusoy_db_pool_connections", state="size") == 4
    assert value(after, "pusoy_db_pool_connections", state="max") == 10
    assert value(after, "pusoy_db_pool_requests_waiting") == 2
    assert value(after, "pusoy_db_pool_events_total", event="requests") == (
        value(before, "pusoy_db_pool_events_total", event="requests") + 7
    )


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_real_pool_is_read_when_django_made_one():
    from django.db import connections

    pools = type(connections["default"])._connection_pools
    if connections["default"].alias not in pools:
        pytest.skip("no connection pool in this configuration")
    pool = pools[connections["default"].alias]
    text = scrape(Client())
    # The gauges are the real pool's, not zeros from a reader that found nothing.
    assert value(text, "pusoy_db_pool_connections", state="max") == pool.max_size
    assert value(text, "pusoy_db_pool_connections", state="size") >= 1


def test_webhook_deliveries_count_by_outcome():
    before = scrape(Client())
    metrics.webhook_delivery_observed("delivered", 0.2)
    metrics.webhook_delivery_observed("failed", 1.5)
    after = scrape(Client())
    for outcome in ("delivered", "failed"):
        assert value(after, "pusoy_webhook_deliveries_total", outcome=outcome) == (
            value(before, "pusoy_webhook_deliveries_total", outcome=outcome) + 1
        )
    metrics.webhook_delivery_observed("Delivered!", 0.1)  # not one of the set
    assert value(scrape(Client()), "pusoy_webhook_deliveries_total", outcome="other") == (
        value(after, "pusoy_webhook_deliveries_total", outcome="other") + 1
    )


@pytest.mark.django_db
def test_scraping_repeatedly_queries_nothing_and_counts_nothing_twice():
    metrics.webhook_delivery_observed("delivered", 0.2)
    with CaptureQueriesContext(connection) as queries:
        samples = [scrape(Client()) for _ in range(3)]
    # A scrape every few seconds must not cost the database anything.
    assert len(queries) == 0, [q["sql"] for q in queries]
    delivered = [value(t, "pusoy_webhook_deliveries_total", outcome="delivered") for t in samples]
    assert delivered[0] >= 1
    assert delivered == [delivered[0]] * 3
