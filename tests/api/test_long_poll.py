"""`GET games/{id}/moves?wait=`: held until a move, woken across connections by
PostgreSQL NOTIFY, holding no database connection while it waits."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import threading
from collections.abc import Callable

import psycopg
import pytest
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.db import connection, connections
from django.test import AsyncClient

from games.models import Deal
from pusoy_api.realtime import longpoll
from tests.api.helpers import client_for, play_one, start_human_game, state_of, whose_turn

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="LISTEN/NOTIFY needs PostgreSQL"
)


def _auth(client) -> str:
    return client._credentials["HTTP_AUTHORIZATION"]


async def _get(auth: str, url: str):
    """One request as the ASGI server runs it: its own thread-sensitive context."""
    async with ThreadSensitiveContext():
        return await AsyncClient().get(url, headers={"Authorization": auth})


def _move_and_release(client, game_id: str) -> dict:
    """A move through the sync test client, from a worker thread (its own connection)."""
    try:
        return play_one(client, game_id, random.Random(7))
    finally:
        connections.close_all()


move_in_thread = sync_to_async(_move_and_release, thread_sensitive=False)

# Fails a test rather than let it hang; never what a test measures.
NO_HANG = 20.0


async def until(condition: Callable[[], object], what: str, timeout: float = NO_HANG) -> None:
    """Wait on the event loop until `condition()` holds; fail after `timeout` seconds."""
    try:
        async with asyncio.timeout(timeout):
            while not condition():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"not within {timeout} s: {what}") from None


class WaitSpy:
    """Instrumentation of the long-poll waiters: how many are waiting now (past their
    first read), and how each wait ended: True when woken, False when its time ran out."""

    def __init__(self, monkeypatch) -> None:
        self.waiting = 0
        self.ends: list[bool] = []
        self.timeouts: list[float] = []
        real_wait = longpoll._Waiter.wait
        spy = self

        async def wait(waiter, timeout: float) -> bool:
            spy.timeouts.append(timeout)
            spy.waiting += 1
            try:
                woken = await real_wait(waiter, timeout)
            finally:
                spy.waiting -= 1
            spy.ends.append(woken)
            return woken

        monkeypatch.setattr(longpoll._Waiter, "wait", wait)


@pytest.fixture
def spy(monkeypatch) -> WaitSpy:
    return WaitSpy(monkeypatch)


@pytest.fixture
def no_recheck(monkeypatch) -> None:
    """The hub's periodic re-read (the safety net, and the polling while LISTEN is down)
    cannot happen within a test: whatever wakes a waiter, it is not that."""
    monkeypatch.setattr(longpoll, "RECHECK_SECONDS", 3600)
    monkeypatch.setattr(longpoll, "POLL_SECONDS", 3600)


def _cards_in(body) -> set[str]:
    found: set[str] = set()
    if isinstance(body, dict):
        for key, value in body.items():
            if key == "cards":
                found.update(value)
            else:
                found |= _cards_in(value)
    elif isinstance(body, list):
        for item in body:
            found |= _cards_in(item)
    return found


def _keys_in(body) -> set[str]:
    if isinstance(body, dict):
        return set(body) | {k for v in body.values() for k in _keys_in(v)}
    if isinstance(body, list):
        return {k for item in body for k in _keys_in(item)}
    return set()


@pytest.fixture
def game():
    """A four-human game in its first deal, and an outsider with no seat."""
    game_id, clients = start_human_game(4)
    turn = state_of(clients[0], game_id)["deal"]["turn"]
    outsider = client_for("eve")
    if not connection.in_atomic_block:
        connection.close()  # committed: give this thread's connection back to the pool
    return game_id, clients, clients[turn], clients[(turn + 1) % 4], outsider


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_waiting_requests_return_early_when_another_client_moves(game, spy, no_recheck):
    game_id, _, mover, other_player, outsider = game
    url = f"/api/v1/games/{game_id}/moves?since=0&wait=30"

    async def scenario():
        await until(longpoll.hub().ready.is_set, "the hub listens")
        waiting = [
            asyncio.create_task(_get(_auth(other_player), url)),
            asyncio.create_task(_get(_auth(outsider), url)),
        ]
        await until(lambda: spy.waiting == 2, "both requests read once and wait")
        played = await move_in_thread(mover, game_id)
        responses = await asyncio.wait_for(asyncio.gather(*waiting), NO_HANG)
        return played, responses

    played, responses = asyncio.run(scenario())
    # Woken, not timed out; with no re-check possible, by the move's NOTIFY.
    assert spy.ends == [True, True]
    plain = outsider.get(f"/api/v1/games/{game_id}/moves?since=0")
    assert responses[1].content == plain.content  # exactly what the plain GET answers
    assert responses[1]["Content-Type"] == plain["Content-Type"]
    for response in responses:
        assert response.status_code == 200
        body = response.json()
        assert body["deal"] == 1
        assert body["last_seq"] == 1
        assert [m["seq"] for m in body["moves"]] == [1]
        assert body["moves"][0]["cards"] == played["move"]["cards"]


@pytest.mark.django_db
def test_a_wait_with_nothing_new_ends_with_an_empty_list(game, spy):
    game_id, clients, *_ = game
    response = clients[0].get(f"/api/v1/games/{game_id}/moves?since=0&wait=0.6")
    assert response.status_code == 200
    assert response.json() == {"deal": 1, "last_seq": 0, "finished": False, "moves": []}
    # It waited for the time asked, and that wait ran out: nothing woke it to answer.
    # (The LISTEN connection coming up may wake it once first, to read again.)
    assert spy.timeouts[0] == pytest.approx(0.6, abs=0.1)
    assert spy.ends[-1] is False


@pytest.mark.django_db
def test_a_wait_returns_at_once_when_there_is_already_news(game, spy):
    game_id, clients, mover, *_ = game
    play_one(mover, game_id, random.Random(1))
    response = clients[0].get(f"/api/v1/games/{game_id}/moves?since=0&wait=20")
    assert [m["seq"] for m in response.json()["moves"]] == [1]
    assert spy.timeouts == []  # answered from its first read, without waiting


@pytest.mark.django_db
@pytest.mark.parametrize("wait", ["-1", "30.5", "31", "soon", "nan", "inf", "1e9"])
def test_wait_is_validated(game, wait):
    game_id, clients, *_ = game
    response = clients[0].get(f"/api/v1/games/{game_id}/moves?wait={wait}")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    assert "wait" in error["details"]["fields"]


@pytest.mark.django_db
def test_waiting_needs_auth_and_an_existing_game(game, api_client):
    game_id, clients, *_ = game
    response = api_client.get(f"/api/v1/games/{game_id}/moves?wait=5")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    missing = "00000000-0000-0000-0000-000000000000"
    response = clients[0].get(f"/api/v1/games/{missing}/moves?wait=5")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_an_outsider_reads_the_public_history_but_never_a_hand(game):
    game_id, clients, *_, outsider = game
    rng = random.Random(3)
    for _ in range(6):
        play_one(whose_turn(clients, game_id), game_id, rng)
    response = outsider.get(f"/api/v1/games/{game_id}/moves?since=2&wait=1")
    assert response.status_code == 200
    body = response.json()
    assert [m["seq"] for m in body["moves"]] == [3, 4, 5, 6]
    deal = Deal.objects.get(game_id=game_id, number=1)
    played = {card for m in deal.moves.all() for card in m.cards}
    assert _cards_in(body) <= played
    assert not _keys_in(body) & {"hand", "hands", "seed", "snapshot"}
    assert "hand" not in json.dumps(body)
    watched = outsider.get(f"/api/v1/games/{game_id}/state").json()
    assert watched["view"] == "spectator"
    assert not _keys_in(watched) & {"hand", "hands", "seed", "snapshot", "legal_moves"}


@pytest.mark.django_db
def test_waiting_on_a_named_deal(game):
    game_id, clients, *_ = game
    response = clients[0].get(f"/api/v1/games/{game_id}/moves?deal=1&since=0&wait=0.3")
    assert response.json() == {"deal": 1, "last_seq": 0, "finished": False, "moves": []}
    response = clients[0].get(f"/api/v1/games/{game_id}/moves?deal=9&wait=5")
    assert response.status_code == 404


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_hundred_waiters_hold_no_database_connection(game, spy, no_recheck):
    game_id, _, mover, _, outsider = game
    n = 200
    url = f"/api/v1/games/{game_id}/moves?since=0&wait=20"
    db = connections["default"].settings_dict["NAME"]

    def pool_in_use() -> int:
        stats = connections["default"].pool.get_stats()
        return stats["pool_size"] - stats["pool_available"]

    in_use_now = sync_to_async(pool_in_use, thread_sensitive=False)

    def busy_backends() -> tuple[int, int]:
        with psycopg.connect(dbname=db, host="127.0.0.1", user="postgres") as probe:
            rows = probe.execute(
                "SELECT state, count(*) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid() GROUP BY state",
                [db],
            ).fetchall()
        counts = dict(rows)
        return sum(counts.values()), sum(v for k, v in counts.items() if k != "idle")

    async def scenario():
        await longpoll.hub().wait_ready()
        waiting = [asyncio.create_task(_get(_auth(outsider), url)) for _ in range(n)]
        await until(lambda: spy.waiting == n, f"all {n} requests read once and wait", 60)
        # The first reads ran on the pool; on a loaded machine they can take a while to
        # give their connections back. Waiters that pinned connections never would.
        async with asyncio.timeout(30):
            while await in_use_now():
                await asyncio.sleep(0.1)
        samples = []
        for _ in range(5):
            samples.append(
                (
                    await in_use_now(),
                    await sync_to_async(busy_backends, thread_sensitive=False)(),
                )
            )
            await asyncio.sleep(0.1)
        assert not any(task.done() for task in waiting)
        await move_in_thread(mover, game_id)
        return samples, await asyncio.wait_for(asyncio.gather(*waiting), 30)

    samples, responses = asyncio.run(scenario())
    for in_use, (total, busy) in samples:
        assert in_use == 0
        assert busy == 0
        assert total <= connections["default"].settings_dict["OPTIONS"]["pool"]["max_size"] + 2
    assert all(r.status_code == 200 for r in responses)
    assert all([m["seq"] for m in r.json()["moves"]] == [1] for r in responses)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_waiters_survive_a_lost_listen_connection(game, spy, no_recheck, monkeypatch):
    game_id, _, mover, other_player, _ = game
    url = f"/api/v1/games/{game_id}/moves?since=0&wait=30"

    def kill_listener() -> int:
        with psycopg.connect(
            dbname=connections["default"].settings_dict["NAME"], host="127.0.0.1", user="postgres"
        ) as probe:
            return probe.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE application_name = 'pusoy-longpoll'"
            ).fetchone()[0]

    async def scenario():
        hub = longpoll.hub()
        await until(hub.ready.is_set, "the hub listens")
        # The listener reconnects only once the move is committed, so the move's NOTIFY
        # is surely lost: only the reconnection's wake-up can answer the waiter.
        moved = asyncio.Event()
        connect = psycopg.AsyncConnection.connect

        async def connect_after_the_move(*args, **kwargs):
            await moved.wait()
            return await connect(*args, **kwargs)

        monkeypatch.setattr(psycopg.AsyncConnection, "connect", connect_after_the_move)
        waiting = asyncio.create_task(_get(_auth(other_player), url))
        await until(lambda: spy.waiting == 1, "the request reads once and waits")
        assert await sync_to_async(kill_listener, thread_sensitive=False)() >= 1
        await until(lambda: not hub.ready.is_set(), "the hub sees its listener gone")
        await move_in_thread(mover, game_id)  # NOTIFY while nobody listens
        moved.set()
        return await asyncio.wait_for(waiting, NO_HANG)

    response = asyncio.run(scenario())
    # Woken, not timed out; with no re-check possible, by the reconnection.
    assert spy.ends == [True]
    assert [m["seq"] for m in response.json()["moves"]] == [1]


@pytest.mark.django_db(transaction=True)
def test_without_notify_waiters_poll(game, spy, monkeypatch):
    """The SQLite fallback: no LISTEN, the last seq is polled every half second."""
    monkeypatch.setattr(longpoll, "_uses_postgres", lambda: False)
    game_id, _, mover, other_player, _ = game
    url = f"/api/v1/games/{game_id}/moves?since=0&wait=30"

    async def scenario():
        assert longpoll.hub().task is None
        waiting = asyncio.create_task(_get(_auth(other_player), url))
        await until(lambda: spy.waiting == 1, "the request reads once and waits")
        await move_in_thread(mover, game_id)
        return await asyncio.wait_for(waiting, NO_HANG)

    response = asyncio.run(scenario())
    # Every wait was woken (by the poll: nothing else can), none timed out. The poll's
    # first look may wake the waiter once before the move, to read again.
    assert spy.ends
    assert all(spy.ends)
    assert [m["seq"] for m in response.json()["moves"]] == [1]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_lost_notification_is_caught_by_the_recheck(game, spy, monkeypatch):
    from games.services import game_row

    monkeypatch.setattr(longpoll, "RECHECK_SECONDS", 0.3)
    monkeypatch.setattr(game_row, "notify_waiters", lambda game: None)  # no NOTIFY comes
    game_id, _, mover, other_player, _ = game
    url = f"/api/v1/games/{game_id}/moves?since=0&wait=30"

    async def scenario():
        await until(longpoll.hub().ready.is_set, "the hub listens")
        waiting = asyncio.create_task(_get(_auth(other_player), url))
        await until(lambda: spy.waiting == 1, "the request reads once and waits")
        await move_in_thread(mover, game_id)
        return await asyncio.wait_for(waiting, NO_HANG)

    response = asyncio.run(scenario())
    # Woken by the re-check (no NOTIFY is sent), not timed out; its first look may wake
    # the waiter once before the move, to read again.
    assert spy.ends
    assert all(spy.ends)
    assert [m["seq"] for m in response.json()["moves"]] == [1]


@pytest.mark.django_db
def test_a_wait_on_a_finished_game_answers_at_once(monkeypatch):
    from tests.api.helpers import play_until_finished_fast

    game_id, clients = start_human_game(4)
    play_until_finished_fast(game_id, random.Random(5))
    waited = []
    monkeypatch.setattr(longpoll._Waiter, "wait", lambda self, timeout: waited.append(timeout))
    last = Deal.objects.get(game_id=game_id).seq
    response = clients[0].get(f"/api/v1/games/{game_id}/moves?since={last}&wait=30")
    assert response.status_code == 200
    assert response.json() == {"deal": 1, "last_seq": last, "finished": True, "moves": []}
    assert waited == []


@pytest.mark.django_db
def test_history_lists_no_move_past_its_last_seq(monkeypatch):
    # A move committed between reading the deal and reading its moves (simulated: the
    # deal is read, then a move lands) must not be listed past `last_seq`, or a client
    # that continues from `last_seq` receives it twice.
    from games import selectors

    game_id, clients = start_human_game(4)
    game = selectors.game_get(game_id=game_id)
    stale_deal = selectors.current_deal(game)
    play_one(whose_turn(clients, game_id), game_id, random.Random(1))
    history = selectors.deal_moves(game=game, number=None, since=0)
    assert history.last_seq == 1
    monkeypatch.setattr(selectors, "current_deal", lambda game: stale_deal)
    history = selectors.deal_moves(game=game, number=None, since=0)
    assert all(move.seq <= history.last_seq for move in history.moves)
    assert (history.last_seq, history.moves) == (0, [])


def _resign_and_release(client, game_id: str):
    try:
        return client.post(f"/api/v1/games/{game_id}/resign")
    finally:
        connections.close_all()


resign_in_thread = sync_to_async(_resign_and_release, thread_sensitive=False)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_wait_answers_when_the_game_ends_without_a_move(game, spy, no_recheck):
    """The last human resigning abandons the game: no move is made, and nothing more
    will come, so a waiting request answers then (finished), not when its time runs out."""
    game_id, clients, *_ = game
    for client in clients[:3]:
        assert client.post(f"/api/v1/games/{game_id}/resign").status_code == 200
    last = clients[3].get(f"/api/v1/games/{game_id}/moves").json()["last_seq"]
    if not connection.in_atomic_block:
        connection.close()
    url = f"/api/v1/games/{game_id}/moves?since={last}&wait=30"

    async def scenario():
        await until(longpoll.hub().ready.is_set, "the hub listens")
        waiting = asyncio.create_task(_get(_auth(clients[3]), url))
        await until(lambda: spy.waiting == 1, "the request waits")
        resigned = await resign_in_thread(clients[3], game_id)
        return resigned, await asyncio.wait_for(waiting, NO_HANG)

    resigned, response = asyncio.run(scenario())
    assert resigned.json()["status"] == "abandoned"
    assert spy.ends == [True]  # woken by the change, not timed out
    assert response.json() == {"deal": 1, "last_seq": last, "finished": True, "moves": []}


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_wait_without_a_deal_answers_at_once_once_the_next_deal_has_begun(spy):
    """`since` without `deal` counts in the deal the client last saw. When that deal has
    ended and the next begun, the wait answers at once with the new deal's number (the
    client starts it again from 0), not when its time runs out (it did, 25 s late)."""
    from tests.api.helpers import rig_deal
    from tests.games.helpers import OUT_ON_TWO_DEUCES, SEAT_0_GOES_OUT

    game_id, clients = start_human_game(4, target_deals=3)
    rig_deal(game_id, OUT_ON_TWO_DEUCES)
    for seat, text in SEAT_0_GOES_OUT:
        body = {"action": "pass"} if text == "pass" else {"action": "play", "cards": text.split()}
        moved = clients[seat].post(f"/api/v1/games/{game_id}/moves", body, format="json")
        assert moved.status_code == 201, moved.json()
    assert state_of(clients[0], game_id)["deal"]["number"] == 2
    seen = len(SEAT_0_GOES_OUT)  # the last seq of deal 1, as the client saw it
    response = clients[1].get(f"/api/v1/games/{game_id}/moves?since={seen}&wait=20")
    assert response.status_code == 200
    assert response.json()["deal"] == 2
    assert spy.timeouts == []  # answered from its first read, without waiting
    # Naming the deal keeps the old meaning: deal 2 has no move after 0 yet, so it waits.
    named = clients[1].get(f"/api/v1/games/{game_id}/moves?deal=2&since=0&wait=0.2")
    assert named.json()["moves"] == []
    assert spy.timeouts  # it waited


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_ending_the_waits_answers_them_now_and_not_the_waits_after(game, spy, no_recheck):
    """What a stopping server does (`end_waits`, from another thread): its waits answer at
    once with what their deadline would have given them; a wait that begins after waits
    its time."""
    game_id, _, _, other_player, outsider = game
    url = f"/api/v1/games/{game_id}/moves?since=0&wait=30"

    async def scenario():
        await longpoll.hub().wait_ready()
        waiting = [asyncio.create_task(_get(_auth(c), url)) for c in (other_player, outsider)]
        await until(lambda: spy.waiting == 2, "both requests read once and wait")
        await sync_to_async(longpoll.end_waits, thread_sensitive=False)()
        ended = await asyncio.wait_for(asyncio.gather(*waiting), NO_HANG)
        later = await _get(_auth(outsider), url.replace("wait=30", "wait=0.6"))
        return ended, later

    ended, later = asyncio.run(scenario())
    assert spy.ends[:2] == [True, True]  # woken by the end, not by their 30 s running out
    plain = outsider.get(f"/api/v1/games/{game_id}/moves?since=0").json()
    assert plain == {"deal": 1, "last_seq": 0, "finished": False, "moves": []}
    for response in [*ended, later]:
        assert response.status_code == 200
        assert response.json() == plain
    assert spy.ends[-1] is False  # the later wait ran its time out


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_ending_the_waits_ends_an_event_stream(game, spy, no_recheck):
    from notifications.apis import event_stream

    *_, outsider = game
    player_id = outsider.player.pk

    async def scenario():
        await longpoll.hub().wait_ready()
        stream = event_stream(player_id=player_id, since=0, lifetime=30, keepalive=30)
        assert (await anext(stream)).startswith("retry:")
        rest = asyncio.ensure_future(anext(stream))
        await until(lambda: spy.waiting == 1, "the stream has read the feed and waits")
        await sync_to_async(longpoll.end_waits, thread_sensitive=False)()
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(rest, NO_HANG)

    asyncio.run(scenario())
    assert spy.ends == [True]


def test_the_hubs_are_counted_while_other_threads_add_theirs(monkeypatch):
    """Under WSGI every waiting request runs its own loop, so threads add hubs while the
    metrics count the waiters (and `end_waits` walks the hubs) from another. The threads
    are switched every microsecond so that an insert lands mid-count when it can."""

    class LightHub:  # the registry is under test, not the LISTEN a real hub starts
        def __init__(self) -> None:
            self.waiters: dict[str, set] = {}

        def end_all(self) -> None:
            pass

    monkeypatch.setattr(longpoll, "Hub", LightHub)
    loops: list[asyncio.AbstractEventLoop] = []  # kept alive, so the registry grows

    def add_hubs() -> None:
        for _ in range(500):
            loop = asyncio.new_event_loop()

            async def make_hub() -> None:
                longpoll.hub()

            loop.run_until_complete(make_hub())
            loop.close()
            loops.append(loop)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    threads = [threading.Thread(target=add_hubs) for _ in range(3)]
    failures = []
    try:
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            try:
                assert longpoll.waiting_count() == 0
                longpoll.end_waits()
            except RuntimeError as exc:  # "dictionary changed size during iteration"
                failures.append(exc)
    finally:
        sys.setswitchinterval(switch)
        for thread in threads:
            thread.join()
    assert failures == []
    assert len(loops) == 1500
