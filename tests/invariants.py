"""What must hold of every finished match, however it was played (through HTTP, the
services, AI seats): checked from the stored rows with the rules written out here, not
by asking the engine again, so a wrong engine or service result shows."""

from __future__ import annotations

import io
from collections import Counter

from django.core.management import call_command

from games import selectors
from games.chain import chain_next, move_canonical_json
from games.models import Deal, Game, Move
from pusoy.engine import Rules, verify_record


def expected_points(
    rules: Rules, winner: int, final_play: list[str], left: list[int], dealt: list[int]
) -> list[int]:
    """docs/rules.md "Scoring", from the cards each seat held when the winner went out."""
    if rules.scoring == "deuces-double":
        deuces = sum(card[0] == "2" for card in final_play)
        return [2**deuces if seat == winner else 0 for seat in range(len(left))]
    points = []
    for seat, count in enumerate(left):
        if seat == winner:
            points.append(0)
        elif rules.scoring == "cards-left-tiered" and count == dealt[seat]:
            points.append(3 * count)
        elif rules.scoring == "cards-left-tiered" and count >= 10:
            points.append(2 * count)
        else:
            points.append(count)
    return points


def assert_deal_consistent(game: Game, deal: Deal, rules: Rules) -> None:
    n = game.num_seats
    moves = list(Move.objects.filter(deal=deal).order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, deal.seq + 1))

    # The hash chain recomputes from the commitment, move by move, to the deal's head.
    link = deal.commitment
    for m in moves:
        link = chain_next(
            link,
            move_canonical_json(
                deal_number=deal.number, seq=m.seq, seat=m.seat, action=m.action, cards=m.cards
            ),
        )
        assert m.chain == link, f"deal {deal.number}: chain broken at move {m.seq}"
    assert deal.chain_head == link

    # Every card dealt was played once by the seat holding it, or is still held.
    dealt = [len(hand) for hand in deal.hands]
    held = [set(hand) for hand in deal.hands]
    left = list(dealt)
    left_when_won = final_play = None
    for m in moves:
        assert set(m.cards) <= held[m.seat], f"move {m.seq} plays cards seat {m.seat} lacks"
        held[m.seat] -= set(m.cards)
        left[m.seat] -= len(m.cards)
        if left[m.seat] == 0 and left_when_won is None:
            left_when_won, final_play = list(left), m.cards
            assert m.seat == deal.winner
    final = deal.snapshot["state"]
    assert final["card_counts"] == left == [len(h) for h in held]
    assert sorted(final["played_cards"]) == sorted(c for m in moves for c in m.cards)
    assert sum(dealt) == len(final["played_cards"]) + sum(final["card_counts"])

    # The result follows the scoring rule from the counts when the winner went out.
    assert left_when_won is not None, f"deal {deal.number} finished with nobody out"
    assert deal.points == expected_points(rules, deal.winner, final_play, left_when_won, dealt)
    assert sorted(deal.places) == list(range(n))
    assert deal.places[0] == deal.winner
    if not rules.play_out:
        # Then fewest cards left; the deal ends when the winner goes out.
        assert [left[s] for s in deal.places] == sorted(left)
        assert left == left_when_won

    # The published record verifies on its own (seed, hands, every move, the result).
    record = selectors.deal_record(game=game, number=deal.number)
    verdict = verify_record(record)
    assert verdict.valid, f"deal {deal.number}: {verdict.code} {verdict.message}"
    assert len(record["moves"]) == deal.seq


def assert_match_consistent(game: Game) -> None:
    """Every deal consistent; scores, the winner and the players' stats follow from
    the deals; `verify_game` passes. The human players must have played no other game."""
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished"
    rules = Rules.from_dict(game.rules)
    deals = list(game.deals.order_by("number"))
    assert [d.number for d in deals] == list(range(1, game.current_deal_number + 1))
    for previous, deal in zip([None, *deals], deals, strict=False):
        assert deal.is_finished
        # The first deal is led by the opening card's holder, later ones by the winner.
        assert deal.leader == (None if previous is None else previous.winner)
        assert_deal_consistent(game, deal, rules)

    seats = list(game.seats.order_by("position").select_related("player"))
    scores = [s.score for s in seats]
    assert scores == [sum(d.points[s.position] for d in deals) for s in seats]
    deals_won = Counter(d.winner for d in deals)
    # deuces-double: the most points win the match; cards-left: the fewest. Ties: more
    # deals won, then the lower seat.
    sign = -1 if rules.scoring == "deuces-double" else 1
    winner = min(range(len(seats)), key=lambda s: (sign * scores[s], -deals_won[s], s))
    assert game.winner_seat == winner
    if game.target_deals is not None and game.target_score is None:
        assert len(deals) == game.target_deals
    if game.target_score is not None:
        # The match ended with the first deal that took a seat to the target.
        running = [0] * len(seats)
        for number, deal in enumerate(deals, start=1):
            running = [r + p for r, p in zip(running, deal.points, strict=True)]
            reached = max(running) >= game.target_score or number == game.target_deals
            assert reached == (number == len(deals))

    for seat in seats:
        if seat.player is None:
            continue
        player = seat.player
        player.refresh_from_db()
        stats = (player.games_played, player.games_won, player.deals_played, player.deals_won)
        expected = (1, int(seat.position == winner), len(deals), deals_won[seat.position])
        assert stats == expected, f"seat {seat.position}: {stats} != {expected}"
        assert player.points == seat.score

    out = io.StringIO()
    call_command("verify_game", str(game.pk), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines == [f"{game.pk} deal {d.number}: ok" for d in deals] + ["1 game verified"]
