"""games.services.moves: a human's move (`move_submit`) and the server's move for a seat
(`move_submit_for_seat`), called directly on games built by factories."""

from __future__ import annotations

import pytest

from games import services
from games.chain import chain_next, move_canonical_json
from games.models import Deal, Game
from games.models import Move as MoveRow
from pusoy.engine import Move
from pusoy_api.domain_errors import DomainError
from tests.factories import HUMAN, OPEN, PlayerFactory, game_with_seats
from tests.games.helpers import (
    OUT_ON_TWO_DEUCES,
    SEAT_0_GOES_OUT,
    current_deal_of,
    engine_state,
    game_an_ai_leads,
    player_at,
    stored,
    submit,
    submit_all,
)

pytestmark = pytest.mark.django_db


def refresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


# --- move_submit: a legal move -------------------------------------------------------


def test_a_legal_move_is_stored_with_its_chain_link():
    game = game_with_seats()
    deal = current_deal_of(game)
    leader, version = deal.turn, game.version
    expected = engine_state(deal)
    expected.apply(Move.parse("3C"), leader)

    outcome = submit(game, leader, "3C")

    move = MoveRow.objects.get(deal=deal)
    assert (move.seq, move.seat, move.action, move.cards, move.combination) == (
        1,
        leader,
        "play",
        ["3C"],
        "single",
    )
    assert (move.actor, move.player) == ("player", player_at(game, leader))
    link = move_canonical_json(deal_number=1, seq=1, seat=leader, action="play", cards=["3C"])
    assert move.chain == chain_next(deal.commitment, link)
    deal.refresh_from_db()
    assert (deal.seq, deal.chain_head, deal.turn) == (1, move.chain, expected.turn)
    assert deal.snapshot == expected.to_dict()
    assert refresh(game).version == version + 1  # waiters wake
    assert (outcome.move, outcome.deal, outcome.ended_deal) == (move, deal, None)
    assert outcome.state.to_dict() == expected.to_dict()


def test_each_move_links_to_the_one_before():
    game = game_with_seats(dealt_hands=OUT_ON_TWO_DEUCES)
    submit_all(game, SEAT_0_GOES_OUT[:3])
    moves = list(MoveRow.objects.filter(deal__game=game).order_by("seq"))
    assert [m.seq for m in moves] == [1, 2, 3]
    link = current_deal_of(game).commitment
    for move in moves:
        link = chain_next(
            link,
            move_canonical_json(
                deal_number=1, seq=move.seq, seat=move.seat, action=move.action, cards=move.cards
            ),
        )
        assert move.chain == link
    assert current_deal_of(game).chain_head == link


def test_a_move_with_the_current_expected_seq_is_applied():
    game = game_with_seats(dealt_hands=OUT_ON_TWO_DEUCES)
    submit(game, 0, "3C", expected_seq=0)
    submit(game, 1, "pass", expected_seq=1)
    assert current_deal_of(game).seq == 2


# --- move_submit: refusals -----------------------------------------------------------


def test_a_stale_expected_seq_is_refused_naming_the_current_seq():
    game = game_with_seats(dealt_hands=OUT_ON_TWO_DEUCES)
    submit(game, 0, "3C")
    before = stored(game)
    with pytest.raises(DomainError) as refused:
        submit(game, 1, "pass", expected_seq=0)
    assert (refused.value.code, refused.value.details) == ("stale_seq", {"seq": 1})
    assert stored(game) == before


@pytest.mark.parametrize(
    ("seat", "move", "code"),
    [
        (1, "pass", "not_your_turn"),
        (1, "4S", "not_your_turn"),
        (0, "pass", "cannot_pass_on_lead"),
        (0, "2D", "cards_not_in_hand"),
        (0, "2S", "must_include_opening_card"),
        (0, "3C 2S", "not_a_combination"),
    ],
)
def test_a_move_the_rules_refuse_changes_nothing(seat, move, code):
    game = game_with_seats(dealt_hands=OUT_ON_TWO_DEUCES)
    before = stored(game)
    with pytest.raises(DomainError) as refused:
        submit(game, seat, move)
    assert refused.value.code == code
    assert stored(game) == before


def test_a_move_by_a_player_with_no_seat_is_refused():
    game = game_with_seats(dealt_hands=OUT_ON_TWO_DEUCES)
    before = stored(game)
    with pytest.raises(DomainError) as refused:
        services.move_submit(game_id=game.pk, player=PlayerFactory(), action="pass", cards=None)
    assert refused.value.code == "not_a_participant"
    assert stored(game) == before


@pytest.mark.parametrize("status", ["waiting", "finished", "abandoned"])
def test_a_move_in_a_game_not_active_is_refused(status):
    started = status != "waiting"
    game = game_with_seats([HUMAN, HUMAN] if started else [HUMAN, OPEN], started=started)
    Game.objects.filter(pk=game.pk).update(status=status)
    before = stored(game)
    with pytest.raises(DomainError) as refused:
        services.move_submit(game_id=game.pk, player=game.created_by, action="pass", cards=None)
    assert refused.value.code == "game_not_active"
    assert stored(game) == before


def test_a_move_in_a_game_that_does_not_exist():
    with pytest.raises(DomainError) as refused:
        services.move_submit(
            game_id="00000000-0000-0000-0000-000000000000",
            player=PlayerFactory(),
            action="pass",
            cards=None,
        )
    assert refused.value.code == "not_found"


# --- move_submit: the move that ends a deal ------------------------------------------


def test_the_move_that_ends_the_last_deal_scores_it_and_finishes_the_match():
    game = game_with_seats(dealt_hands=OUT_ON_TWO_DEUCES)
    outcome = submit_all(game, SEAT_0_GOES_OUT)

    deal = Deal.objects.get(game=game)
    assert (deal.winner, deal.points, deal.places) == (0, [4, 0, 0, 0], [0, 1, 2, 3])
    assert deal.finished_at is not None
    assert deal.turn is None
    game = refresh(game)
    assert (game.status, game.winner_seat, game.current_deal_number) == ("finished", 0, 1)
    assert game.finished_at is not None
    assert [s.score for s in game.seats.order_by("position")] == [4, 0, 0, 0]
    stats = [
        (p.games_played, p.games_won, p.deals_played, p.deals_won, p.points)
        for p in (player_at(game, seat) for seat in range(4))
    ]
    assert stats == [(1, 1, 1, 1, 4), (1, 0, 1, 0, 0), (1, 0, 1, 0, 0), (1, 0, 1, 0, 0)]
    assert outcome.ended_deal == deal
    assert outcome.deal == deal
    assert outcome.state.is_over
    assert [s.score for s in outcome.game.seats.all()] == [4, 0, 0, 0]


def test_the_move_that_ends_a_deal_of_a_match_deals_the_next_led_by_its_winner():
    game = game_with_seats(dealt_hands=OUT_ON_TWO_DEUCES, target_deals=2)
    outcome = submit_all(game, SEAT_0_GOES_OUT)

    game = refresh(game)
    assert (game.status, game.current_deal_number, game.winner_seat) == ("active", 2, None)
    ended = Deal.objects.get(game=game, number=1)
    assert (ended.winner, ended.points) == (0, [4, 0, 0, 0])
    following = Deal.objects.get(game=game, number=2)
    # Led by the first deal's winner, with any play (no opening card to include).
    assert (following.leader, following.turn, following.seq) == (0, 0, 0)
    assert following.chain_head == following.commitment
    assert following.seed != ended.seed
    assert engine_state(following).required_card is None
    assert (outcome.ended_deal, outcome.deal) == (ended, following)
    assert outcome.state.to_dict() == following.snapshot
    # The deal is counted; the match is not over yet.
    winner = player_at(game, 0)
    assert (winner.deals_played, winner.deals_won, winner.points) == (1, 1, 4)
    assert (winner.games_played, winner.games_won) == (0, 0)


# --- move_submit_for_seat ------------------------------------------------------------


def for_seat(game: Game, **overrides) -> MoveRow | None:
    call = {
        "game_id": game.pk,
        "deal_number": 1,
        "expected_seq": 0,
        "seat": 1,
        "action": "play",
        "cards": ["3C"],
        "actor": "ai:random",
    }
    return services.move_submit_for_seat(**{**call, **overrides})


def test_a_move_for_a_seat_is_stored_as_the_server_made_it():
    game = game_an_ai_leads()
    move = for_seat(game)
    assert move is not None
    assert (move.seq, move.seat, move.cards, move.actor, move.player) == (
        1,
        1,
        ["3C"],
        "ai:random",
        None,
    )
    deal = current_deal_of(game)
    assert (deal.seq, deal.turn, deal.chain_head) == (1, 2, move.chain)


@pytest.mark.parametrize(
    "moved_on",
    [
        {"expected_seq": 1},  # a move the task did not see
        {"deal_number": 2},  # another deal
        {"seat": 2},  # not that seat's turn (any more)
    ],
)
def test_a_move_for_a_seat_after_the_deal_moved_on_applies_nothing(moved_on):
    game = game_an_ai_leads()
    before = stored(game)
    assert for_seat(game, **moved_on) is None
    assert stored(game) == before


def test_a_duplicated_move_for_a_seat_applies_once():
    game = game_an_ai_leads()
    assert for_seat(game) is not None
    after_first = stored(game)
    assert for_seat(game) is None
    assert stored(game) == after_first


@pytest.mark.parametrize("status", ["finished", "abandoned"])
def test_no_move_for_a_seat_once_the_game_is_over(status):
    game = game_an_ai_leads()
    Game.objects.filter(pk=game.pk).update(status=status)
    before = stored(game)
    assert for_seat(game) is None
    assert stored(game) == before


def test_an_illegal_move_for_a_seat_is_refused_and_changes_nothing():
    game = game_an_ai_leads()
    before = stored(game)
    with pytest.raises(DomainError) as refused:
        for_seat(game, cards=["6H"])
    assert refused.value.code == "must_include_opening_card"
    assert stored(game) == before
