"""A deal's life inside a match: dealt from a fresh secret seed, scored when the first
player goes out, and followed by the next deal or the end of the match."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone

from games.chain import chain_genesis
from games.models import Deal, Game, GameStatus, Seat, SeatStatus
from games.selectors import deals_won
from games.services import feed
from games.services.game_row import game_touch
from games.services.side_effects import queue_ai_turn_on_commit
from players.models import Player
from pusoy.engine import DealResult, DealState, Rules, format_cards
from pusoy.engine.match import match_order
from pusoy.engine.shuffle import commitment, new_seed
from ratings.services import Entrant, ratings_apply_deal
from ratings.system import deal_ranks


def deal_start(game: Game, *, leader: int | None) -> Deal:
    """Shuffle from a fresh secret seed and publish only its commitment."""
    rules = Rules.from_dict(game.rules)
    seed = new_seed()
    state = DealState.from_seed(rules, seed, game.num_seats, leader=leader)
    game.current_deal_number += 1
    now = timezone.now()
    deal_commitment = commitment(seed)
    deal = Deal.objects.create(
        game=game,
        number=game.current_deal_number,
        seed=seed.hex(),
        commitment=deal_commitment,
        chain_head=chain_genesis(deal_commitment),
        hands=[format_cards(hand) for hand in state.initial_hands],
        set_aside=format_cards(state.set_aside),
        face_up_card=str(state.face_up_card or ""),
        leader=leader,
        turn=state.turn,
        turn_started_at=now,
        snapshot=state.to_dict(),
    )
    queue_ai_turn_on_commit(game, deal)
    feed.turn_announce(game, deal)
    return deal


def deal_score(game: Game, deal: Deal, result: DealResult) -> None:
    """Points are fixed when the first player goes out (even if play_out goes on).

    Seat scores are changed on the seats read with the locked game (every writer of a
    seat's score holds the game's row lock), so the game in hand stays true for the rest
    of the transaction and for the answer built from it."""
    deal.winner = result.winner
    deal.points = list(result.points)
    for seat in game.seats.all():
        seat.score += result.points[seat.position]
        seat.save(update_fields=["score"])
        # A resigned seat's deals are the AI's, not its former player's.
        if seat.player_id and seat.status == SeatStatus.PLAYING:
            Player.objects.filter(pk=seat.player_id).update(
                deals_played=F("deals_played") + 1,
                deals_won=F("deals_won") + (1 if seat.position == result.winner else 0),
                points=F("points") + result.points[seat.position],
            )
    if game.rated:
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        ranks = deal_ranks(
            winner=result.winner,
            cards_left=result.cards_left,
            places=result.places,
            play_out=bool(game.rules.get("play_out")),
        )
        ratings_apply_deal(
            game_id=game.pk,
            deal_number=deal.number,
            entrants=[seat_entrant(s) for s in seats],
            ranks=ranks,
        )


def seat_entrant(seat: Seat) -> Entrant | None:
    """Whom a seat's results rate: its AI level, or its player while they play it (a
    resigned seat's later deals are the AI's stand-in's, and rate nobody)."""
    if seat.ai_level:
        return Entrant(bot_level=seat.ai_level)
    if seat.player_id and seat.status == SeatStatus.PLAYING:
        return Entrant(player_id=seat.player_id)
    return None


def deal_finished(game: Game, deal: Deal) -> Deal | None:
    """The match goes on with a new deal led by this deal's winner (returned), or ends."""
    feed.deal_ended(game, deal)
    if target_reached(game):
        game_finish(game)
        return None
    next_deal = deal_start(game, leader=deal.winner)
    game_touch(game, "current_deal_number")
    return next_deal


def target_reached(game: Game) -> bool:
    if game.target_deals is not None and game.current_deal_number >= game.target_deals:
        return True
    if game.target_score is not None:
        return max(s.score for s in game.seats.all()) >= game.target_score
    return False


def game_finish(game: Game) -> None:
    """The match is over: the ranking, the winner (its first), the players' stats."""
    seats = list(game.seats.all())
    ranking = match_ranking(game, seats)
    game.status = GameStatus.FINISHED
    game.ranking = ranking
    game.winner_seat = ranking[0]
    game.finished_at = timezone.now()
    for s in seats:
        # Resigners had their loss counted when they resigned.
        if s.player_id and s.status == SeatStatus.PLAYING:
            Player.objects.filter(pk=s.player_id).update(
                games_played=F("games_played") + 1,
                games_won=F("games_won") + (1 if s.position == ranking[0] else 0),
            )
    feed.game_ended(game)
    game_touch(game, "status", "ranking", "winner_seat", "finished_at")


def match_ranking(game: Game, seats: list[Seat]) -> list[int]:
    """Seat positions best first. deuces-double: most points first; cards-left: fewest;
    ties: more deals won, then the lower seat. Resigned seats come last whatever their
    score, the last to resign first among them."""
    wins = deals_won(game)
    playing = [
        s for s in sorted(seats, key=lambda s: s.position) if s.status != SeatStatus.RESIGNED
    ]
    resigned = [s for s in seats if s.status == SeatStatus.RESIGNED]
    order = match_order(
        [s.score for s in playing],
        [wins.get(s.position, 0) for s in playing],
        game.rules["scoring"],
    )
    playing = [playing[i] for i in order]
    resigned.sort(key=lambda s: s.resigned_at or timezone.now(), reverse=True)
    return [s.position for s in playing + resigned]
