"""Request ids: taken from the client or made, answered, on every log line of the
request and of the tasks it queues (in-process and through a real worker)."""

from __future__ import annotations

import json
import logging
import re
import threading
import time
import uuid

import pytest
from django.test import Client

from games.services import moves as move_services
from pusoy_api import request_id
from pusoy_api.embedded import Runner
from pusoy_api.log_format import logging_config
from tests.api.helpers import client_for, create_game, start_human_game, state_of

HEX32 = re.compile(r"[0-9a-f]{32}")


def test_a_valid_client_id_is_answered_back():
    response = Client().get("/healthz", HTTP_X_REQUEST_ID="client-abc.123:xyz")
    assert response["X-Request-ID"] == "client-abc.123:xyz"


@pytest.mark.parametrize(
    "sent",
    ["", "has space", "x" * 129, "newline\ninjected", "caf\u00e9", "tab\tid"],
)
def test_an_unacceptable_id_is_replaced_by_a_fresh_one(sent):
    response = Client().get("/healthz", HTTP_X_REQUEST_ID=sent)
    assert HEX32.fullmatch(response["X-Request-ID"])


def test_without_a_client_id_each_request_gets_its_own():
    first = Client().get("/healthz")["X-Request-ID"]
    second = Client().get("/healthz")["X-Request-ID"]
    assert HEX32.fullmatch(first)
    assert HEX32.fullmatch(second)
    assert first != second


def test_error_answers_carry_the_id_too():
    response = Client().get("/api/v1/no-such-thing", HTTP_X_REQUEST_ID="err-1")
    assert response.status_code == 404
    assert response["X-Request-ID"] == "err-1"


def _traced_move_apply(monkeypatch):
    """Every applied move logs a line (whoever applies it: the request or a task)."""
    original = move_services.move_apply
    log = logging.getLogger("tests.trace")

    def traced(*args, **kwargs):
        log.info("applying a move for %s", kwargs["actor"])
        return original(*args, **kwargs)

    monkeypatch.setattr(move_services, "move_apply", traced)


@pytest.mark.django_db(transaction=True)
def test_the_request_and_the_task_it_queues_log_with_its_id(monkeypatch, caplog):
    """Tasks run in-process here (tests: eagerly, after the request's commit)."""
    _traced_move_apply(monkeypatch)
    client = client_for("solo")
    game = create_game(client, [{"type": "human"}] + [{"type": "ai", "level": "random"}] * 3)
    state = state_of(client, game["id"])
    # The AIs that led have played already (tasks run eagerly after create's commit).
    assert state["deal"]["turn"] == 0
    rid = f"move-{uuid.uuid4().hex[:8]}"
    caplog.set_level(logging.INFO, logger="tests.trace")
    caplog.clear()
    move = state["deal"]["legal_moves"][0]
    response = client.post(
        f"/api/v1/games/{game['id']}/moves",
        {**move, "expected_seq": state["deal"]["seq"]},
        format="json",
        HTTP_X_REQUEST_ID=rid,
    )
    assert response.status_code == 201
    assert response["X-Request-ID"] == rid
    traced = [r for r in caplog.records if r.name == "tests.trace"]
    by_actor = {r.getMessage().rsplit(" ", 1)[1] for r in traced}
    assert "player" in by_actor
    assert any(a.startswith("ai:") for a in by_actor), by_actor
    assert {r.request_id for r in traced} == {rid}
    # Outside any request, the id is gone.
    assert request_id.current() is None


def test_the_embedded_runner_runs_a_task_under_the_id_that_queued_it():
    seen: list[str | None] = []
    done = threading.Event()

    class FakeTask:
        name = "tests.fake"

        def __call__(self) -> None:
            seen.append(request_id.current())
            done.set()

    runner = Runner(workers=1, schedule={})
    runner.threads[0].start()  # the task thread only: no beat
    with request_id.bound("queued-by-me"):
        runner.submit(FakeTask(), ())  # type: ignore[arg-type]
    assert done.wait(10)
    assert seen == ["queued-by-me"]
    runner.stop()
    assert not runner.threads[0].is_alive()


def test_the_task_signal_handlers_carry_the_id_to_the_worker_and_forget_it_after():
    headers: dict[str, object] = {}
    with request_id.bound("from-the-request"):
        request_id.add_to_task_headers(headers)
    assert headers[request_id.TASK_HEADER] == "from-the-request"

    class Task:
        request = type("Request", (), {request_id.TASK_HEADER: "from-the-request"})()

    request_id.restore_for_task("task-1", Task())
    assert request_id.current() == "from-the-request"
    request_id.forget_after_task("task-1")
    assert request_id.current() is None
    # A publish outside a request adds nothing (periodic tasks have no request).
    quiet: dict[str, object] = {}
    request_id.add_to_task_headers(quiet)
    assert quiet == {}


def test_json_log_lines_carry_the_request_id():
    config = logging_config(log_format="json", level="INFO")
    logging.config.dictConfig({**config, "root": {"level": "INFO", "handlers": []}})
    handler = logging.StreamHandler()
    from pythonjsonlogger.json import JsonFormatter

    spec = config["formatters"]["json"]
    handler.setFormatter(
        JsonFormatter(spec["fmt"], rename_fields=spec["rename_fields"], timestamp=spec["timestamp"])
    )
    with request_id.bound("json-1"):
        record = logging.getLogger("tests.json").makeRecord(
            "tests.json", logging.WARNING, __file__, 1, "hello %s", ("world",), None
        )
    line = json.loads(handler.format(record))
    assert line["request_id"] == "json-1"
    assert line["message"] == "hello world"
    assert line["level"] == "WARNING"
    assert line["logger"] == "tests.json"
    assert line["time"].endswith("+00:00")


def test_django_request_warnings_carry_the_id_through_the_filter():
    """Django logs a 4xx after the middleware returned: the filter finds the id on the
    request it attaches."""
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "x", (), None)
    record.request_id = request_id.NO_REQUEST
    record.request = type("R", (), {"request_id": "late-1"})()
    request_id.RequestIdFilter().filter(record)
    assert record.request_id == "late-1"


@pytest.mark.celery_worker
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_task_run_by_the_real_worker_logs_with_the_requests_id(celery_worker):
    """The AI's move is queued through the broker by whichever request comes first to an
    AI's turn: the game's creation (an AI leads) or the human's move; both send the id."""
    rid = f"worker-{uuid.uuid4().hex[:12]}"
    client = client_for("solo")
    seats = [{"type": "human"}] + [{"type": "ai", "level": "random"}] * 3
    created = client.post("/api/v1/games", {"seats": seats}, format="json", HTTP_X_REQUEST_ID=rid)
    assert created.status_code == 201, created.json()
    state = state_of(client, created.json()["id"])
    if state["deal"]["turn"] == 0:
        move = state["deal"]["legal_moves"][0]
        response = client.post(
            f"/api/v1/games/{created.json()['id']}/moves",
            {**move, "expected_seq": state["deal"]["seq"]},
            format="json",
            HTTP_X_REQUEST_ID=rid,
        )
        assert response.status_code == 201, response.json()
    deadline = time.monotonic() + 30
    lines: list[str] = []
    while time.monotonic() < deadline:
        lines = [
            line
            for line in celery_worker.log_path.read_text(errors="replace").splitlines()
            if rid in line
        ]
        if any("succeeded" in line for line in lines):
            break
        time.sleep(0.2)
    assert any("games.ai_move" in line and "succeeded" in line for line in lines), lines


@pytest.mark.django_db(transaction=True)
def test_an_async_view_logs_with_the_id(monkeypatch, caplog):
    """The long-poll history view is async: the middleware runs on the event loop and
    the view's reads in a thread; both see the id."""
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    from games.apis import play as apis
    from players.services import token_issue

    game_id, clients = start_human_game(4)
    original = apis.history_answer

    def traced(**kwargs):
        logging.getLogger("tests.trace").info("reading the history")
        return original(**kwargs)

    monkeypatch.setattr(apis, "history_answer", traced)
    caplog.set_level(logging.INFO, logger="tests.trace")
    token = token_issue(player=clients[0].player)
    response = async_to_sync(AsyncClient().get)(
        f"/api/v1/games/{game_id}/moves",
        headers={"Authorization": f"Bearer {token}", "X-Request-ID": "async-1"},
    )
    assert response.status_code == 200, response.json()
    assert response["X-Request-ID"] == "async-1"
    traced_records = [r for r in caplog.records if r.name == "tests.trace"]
    assert traced_records
    assert {r.request_id for r in traced_records} == {"async-1"}


def test_the_http2_stack_never_logs_headers_even_at_debug(settings):
    # An APNs request's path holds the device token, and hpack logs every header at DEBUG.
    previous = logging.root.manager.loggerDict.copy()
    logging.config.dictConfig(logging_config(log_format="plain", level="DEBUG"))
    try:
        for name in ("hpack", "h2", "httpcore", "httpx"):
            assert not logging.getLogger(name).isEnabledFor(logging.INFO), name
        assert logging.getLogger("pusoy_api").isEnabledFor(logging.DEBUG)
    finally:
        logging.config.dictConfig(settings.LOGGING)
        assert set(previous) <= set(logging.root.manager.loggerDict)
