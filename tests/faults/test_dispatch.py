"""In-process: queueing tasks after a commit (pusoy_api.task_queue). A broker error after the
move committed never turns the answer into an error, and the sweep goes on past a game
whose task could not be queued."""

from __future__ import annotations

import datetime as dt
import logging
import random

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from games import services
from games.models import Deal
from games.tasks import ai_move
from pusoy_api.celery import app as celery_app
from tests.api.helpers import client_for, create_game, play_one, state_of
from tests.celery_worker import EAGER

# Real commits: tasks are queued with transaction.on_commit.
pytestmark = pytest.mark.django_db(transaction=True)

AI_SEATS = [{"type": "human"}] + [{"type": "ai", "level": "random"}] * 3


@pytest.fixture
def broker(monkeypatch):
    """Tasks go to a 'broker' (eager mode off) that records them, or refuses them while
    `broker.down` is set."""

    class Broker:
        down = False
        published: list[tuple] = []

    def apply_async(args=None, kwargs=None, **options):
        if Broker.down:
            raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        Broker.published.append(tuple(args))

    monkeypatch.setitem(celery_app.conf, EAGER, False)
    monkeypatch.setattr(ai_move, "apply_async", apply_async)
    monkeypatch.setattr(ai_move, "delay", lambda *args: apply_async(args))
    Broker.published = []
    return Broker


def game_at_an_ai_turn(client, broker) -> str:
    """A game of one human and three AIs whose seat to play is an AI."""
    game_id = create_game(client, AI_SEATS)["id"]
    state = state_of(client, game_id)
    if state["deal"]["turn"] == state["seat"]:
        play_one(client, game_id, random.Random(1), state)
    deal = Deal.objects.get(game_id=game_id)
    assert deal.turn != 0
    return game_id


def test_a_move_is_201_when_the_broker_refuses_the_ai_task(broker, caplog):
    ana = client_for("ana")
    game_id = create_game(ana, AI_SEATS)["id"]
    state = state_of(ana, game_id)
    if state["deal"]["turn"] != state["seat"]:
        # An AI leads: play its turn as the worker would, to reach the human's.
        for args in broker.published:
            services.ai_turn_play(game_id=args[0], deal_number=args[1], expected_seq=args[2])
        state = state_of(ana, game_id)
    assert state["deal"]["turn"] == state["seat"]
    broker.down = True
    with caplog.at_level(logging.WARNING, logger="pusoy_api.task_queue"):
        play_one(ana, game_id, random.Random(2), state)  # asserts the 201
    deal = Deal.objects.get(game_id=game_id)
    assert deal.seq == state["deal"]["seq"] + 1
    assert deal.turn != 0  # an AI's turn, queued by nobody: the sweep's job
    assert "could not queue games.ai_move" in caplog.text


def test_the_sweep_goes_on_past_a_game_the_broker_refused(broker, settings, monkeypatch, caplog):
    ana = client_for("ana")
    games = [game_at_an_ai_turn(ana, broker) for _ in range(2)]
    Deal.objects.filter(game_id__in=games).update(
        turn_started_at=timezone.now() - dt.timedelta(hours=1)
    )
    broker.published = []
    refused_once = {"done": False}
    real = ai_move.apply_async

    def refuse_the_first(args=None, kwargs=None, **options):
        if not refused_once["done"]:
            refused_once["done"] = True
            raise BrokerError("Connection refused.")
        return real(args, kwargs, **options)

    monkeypatch.setattr(ai_move, "apply_async", refuse_the_first)
    with caplog.at_level(logging.WARNING, logger="pusoy_api.task_queue"):
        result = services.turns_sweep()
    assert result == {"requeued": 1, "timed_out": 0}
    assert len(broker.published) == 1
    assert "could not queue games.ai_move" in caplog.text
