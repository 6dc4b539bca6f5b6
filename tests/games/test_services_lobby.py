"""games.services.lobby: creating a game and taking its seats, called directly."""

from __future__ import annotations

import datetime as dt

import pytest

from games import services
from games.models import Deal, Game, Seat
from games.services import SeatSpec
from pusoy.engine import DealState, Rules, deal_from_seed, format_cards
from pusoy.engine.shuffle import commitment
from pusoy_api.domain_errors import DomainError
from tests.factories import HUMAN, OPEN, PlayerFactory, game_with_seats, repeatable_seed
from tests.games.helpers import stored

pytestmark = pytest.mark.django_db

HUMAN_SEAT = SeatSpec("human")


def ai(level: str = "random") -> SeatSpec:
    return SeatSpec("ai", level)


def assert_first_deal_dealt(game: Game) -> Deal:
    """The game is active in its first deal, dealt from its secret seed as published."""
    game.refresh_from_db()
    assert game.status == "active"
    assert game.started_at is not None
    assert game.current_deal_number == 1
    (deal,) = Deal.objects.filter(game=game)
    seed = bytes.fromhex(deal.seed)
    rules = Rules.from_dict(game.rules)
    assert deal.number == 1
    assert deal.commitment == commitment(seed)
    assert deal.chain_head == deal.commitment  # no move yet: the chain starts there
    hands, set_aside = deal_from_seed(seed, rules, game.num_seats)
    assert deal.hands == [format_cards(hand) for hand in hands]
    assert deal.set_aside == format_cards(set_aside)
    # The first deal: led by the opening card's holder, who must play it.
    expected = DealState.from_seed(rules, seed, game.num_seats)
    assert deal.leader is None
    assert (deal.seq, deal.turn) == (0, expected.turn)
    assert deal.snapshot == expected.to_dict()
    assert deal.turn_started_at is not None
    return deal


# --- game_create ---------------------------------------------------------------------


def test_create_seats_the_creator_in_the_first_human_seat_and_waits_for_the_others():
    ana = PlayerFactory()
    game = services.game_create(
        creator=ana, seats=[ai("greedy"), HUMAN_SEAT, HUMAN_SEAT, ai("expert")]
    )
    seats = list(game.seats.order_by("position"))
    assert [(s.position, s.player, s.ai_level) for s in seats] == [
        (0, None, "greedy"),
        (1, ana, ""),
        (2, None, ""),
        (3, None, "expert"),
    ]
    assert seats[1].joined_at is not None
    assert seats[2].joined_at is None
    assert (game.created_by, game.num_seats, game.status) == (ana, 4, "waiting")
    assert game.started_at is None
    assert not Deal.objects.filter(game=game).exists()


def test_create_stores_the_rules_resolved_and_the_targets():
    game = services.game_create(
        creator=PlayerFactory(),
        seats=[HUMAN_SEAT, HUMAN_SEAT],
        rules={"preset": "hong-kong", "play_out": True},
        target_score=50,
        turn_timeout=dt.timedelta(seconds=90),
    )
    game.refresh_from_db()
    # Every option, so the game keeps its rules when a preset's defaults change.
    assert game.rules == Rules.from_spec({"preset": "hong-kong", "play_out": True}).to_dict()
    assert (game.target_deals, game.target_score) == (None, 50)
    assert game.turn_timeout == dt.timedelta(seconds=90)


def test_create_without_a_target_plays_one_deal():
    game = services.game_create(creator=PlayerFactory(), seats=[HUMAN_SEAT, HUMAN_SEAT])
    assert (game.target_deals, game.target_score) == (1, None)
    assert game.rules == Rules.from_spec("philippine").to_dict()


def test_create_starts_at_once_when_no_other_seat_is_human():
    game = services.game_create(creator=PlayerFactory(), seats=[HUMAN_SEAT, ai(), ai()])
    deal = assert_first_deal_dealt(game)
    assert deal.face_up_card  # three players, the 52nd card is dealt face up


def test_an_ai_that_leads_the_first_deal_is_queued_once_the_game_commits(
    monkeypatch, enqueued, django_capture_on_commit_callbacks
):
    # A seed whose opening card (3C) falls to an AI seat: seats 1 to 3.
    rules = Rules.from_spec(None)
    seed = next(
        s for s in map(repeatable_seed, range(100)) if DealState.from_seed(rules, s, 4).turn != 0
    )
    monkeypatch.setattr("games.services.deals.new_seed", lambda: seed)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_create(creator=PlayerFactory(), seats=[HUMAN_SEAT] + [ai()] * 3)
        assert enqueued == []  # not before the commit
    deal = assert_first_deal_dealt(game)
    assert enqueued == [("games.ai_move", (str(game.pk), 1, 0))]
    assert deal.seed == seed.hex()


@pytest.mark.parametrize(
    ("seats", "rules", "code"),
    [
        ([HUMAN_SEAT], None, "invalid_seats"),
        ([HUMAN_SEAT] * 5, None, "invalid_seats"),
        ([], None, "invalid_seats"),
        ([HUMAN_SEAT, ai("god")], None, "invalid_seats"),
        ([HUMAN_SEAT, SeatSpec("ai")], None, "invalid_seats"),
        ([ai(), ai("expert")], None, "no_human_seat"),
        ([HUMAN_SEAT, HUMAN_SEAT], "nope", "invalid_rules"),
        ([HUMAN_SEAT, HUMAN_SEAT], {"straights": "x"}, "invalid_rules"),
        ([HUMAN_SEAT, HUMAN_SEAT], {"colour": "red"}, "invalid_rules"),
    ],
)
def test_create_refusals_store_nothing(seats, rules, code):
    with pytest.raises(DomainError) as refused:
        services.game_create(creator=PlayerFactory(), seats=seats, rules=rules)
    assert refused.value.code == code
    assert not Game.objects.exists()
    assert not Seat.objects.exists()


# --- game_join -----------------------------------------------------------------------


def test_joining_a_named_seat_takes_it_and_the_game_goes_on_waiting():
    game = game_with_seats([HUMAN, OPEN, OPEN], started=False)
    version = game.version
    ben = PlayerFactory()
    services.game_join(game_id=game.pk, player=ben, seat=2)
    game.refresh_from_db()
    seats = {s.position: s for s in game.seats.all()}
    assert seats[2].player == ben
    assert seats[2].joined_at is not None
    assert seats[1].player is None
    assert game.status == "waiting"
    assert game.version == version + 1  # waiters see the seat taken
    assert not Deal.objects.filter(game=game).exists()


def test_joining_without_a_seat_takes_the_first_open_one():
    game = game_with_seats(["random", HUMAN, OPEN, OPEN], started=False)
    ben = PlayerFactory()
    services.game_join(game_id=game.pk, player=ben)
    assert game.seats.get(player=ben).position == 2


def test_the_last_open_seat_taken_starts_the_game():
    game = game_with_seats([HUMAN, "greedy", OPEN], started=False)
    services.game_join(game_id=game.pk, player=PlayerFactory())
    assert_first_deal_dealt(game)


@pytest.mark.parametrize(
    ("status", "seat", "who", "code"),
    [
        ("waiting", None, "seated", "already_joined"),
        ("waiting", 0, "new", "seat_taken"),  # a human's
        ("waiting", 1, "new", "seat_taken"),  # an AI's
        ("waiting", 4, "new", "invalid_seat"),
        ("waiting", -1, "new", "invalid_seat"),
        ("active", None, "new", "game_not_open"),
        ("finished", 2, "new", "game_not_open"),
        ("active", None, "seated", "already_joined"),
    ],
)
def test_join_refusals_change_nothing(status, seat, who, code):
    game = game_with_seats([HUMAN, "random", OPEN, OPEN], started=False)
    Game.objects.filter(pk=game.pk).update(status=status)
    player = game.created_by if who == "seated" else PlayerFactory()
    before = stored(game)
    with pytest.raises(DomainError) as refused:
        services.game_join(game_id=game.pk, player=player, seat=seat)
    assert refused.value.code == code
    assert stored(game) == before


def test_joining_a_game_that_does_not_exist():
    with pytest.raises(DomainError) as refused:
        services.game_join(game_id="00000000-0000-0000-0000-000000000000", player=PlayerFactory())
    assert refused.value.code == "not_found"
