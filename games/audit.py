"""Audit of a stored game: rebuild every deal from its moves and check the cached
snapshot, the hash chain, the seed commitment and the scores against the engine."""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field

from games.chain import chain_genesis, chain_next, move_canonical_json
from games.models import Deal, Game, Move
from pusoy.engine import DealState, EngineError, Rules, record_from_state, verify_record
from pusoy.engine import Move as EngineMove
from pusoy.engine.shuffle import commitment, deal_from_seed, face_up_card


@dataclass
class DealAudit:
    number: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def deal_audit(game: Game, deal: Deal, *, previous: Deal | None) -> DealAudit:
    """`previous` is the deal before this one in the match (None for the first)."""
    audit = DealAudit(deal.number)
    # The first deal is led by the opening card's holder (no leader stored); every later
    # deal by the previous deal's winner.
    expected_leader = None if previous is None else previous.winner
    if deal.leader != expected_leader:
        audit.problems.append(f"led by seat {deal.leader}, not {expected_leader}")
    rules = Rules.from_dict(game.rules)
    seed = bytes.fromhex(deal.seed)
    if not hmac.compare_digest(commitment(seed), deal.commitment):
        audit.problems.append("commitment is not the SHA-256 of the seed")
    hands, set_aside = deal_from_seed(seed, rules, game.num_seats)
    face_up = face_up_card(seed, rules, game.num_seats)
    if str(face_up or "") != deal.face_up_card:
        audit.problems.append("the face-up card is not the seed's 52nd card")
    if [[str(c) for c in h] for h in hands] != deal.hands or [str(c) for c in set_aside] != list(
        deal.set_aside
    ):
        audit.problems.append("the seed does not reproduce the stored hands")
    state = DealState.new(
        rules,
        deal.hands,
        leader=deal.leader,
        set_aside=deal.set_aside,
        face_up=face_up if face_up is not None and str(face_up) == deal.face_up_card else None,
    )
    link = chain_genesis(deal.commitment)
    moves = list(Move.objects.filter(deal=deal).order_by("seq"))
    for expected_seq, move in enumerate(moves, start=1):
        if move.seq != expected_seq:
            audit.problems.append(f"move seq {move.seq} where {expected_seq} was due")
            break
        link = chain_next(
            link,
            move_canonical_json(
                deal_number=deal.number,
                seq=move.seq,
                seat=move.seat,
                action=move.action,
                cards=move.cards,
            ),
        )
        if not hmac.compare_digest(link, move.chain):
            audit.problems.append(f"hash chain broken at move {move.seq}")
            break
        engine_move = EngineMove.pass_() if move.action == "pass" else EngineMove.play(move.cards)
        try:
            state.apply(engine_move, move.seat)
        except EngineError as exc:
            audit.problems.append(f"move {move.seq} is illegal: {exc.code}")
            break
    if audit.ok:
        if deal.chain_head != link:
            audit.problems.append("the deal's chain head is not its last move's link")
        if deal.seq != state.seq:
            audit.problems.append(f"deal says seq {deal.seq}, moves give {state.seq}")
        if DealState.from_dict(deal.snapshot).to_dict() != state.to_dict():
            audit.problems.append("the cached snapshot differs from the replayed moves")
        result = state.result
        if deal.is_finished != state.is_over:
            audit.problems.append("finished flag disagrees with the replay")
        if result is not None and (deal.winner, deal.points) != (result.winner, result.points):
            audit.problems.append("stored winner/points differ from the replay")
        if state.is_over:
            audit.problems.extend(_record_problems(state, seed))
    return audit


def _record_problems(state: DealState, seed: bytes) -> list[str]:
    """The record this deal is published as must verify on its own, and a deal opened by
    the opening card's holder must say so (an `opening_card`, no free-lead `leader`)."""
    record = record_from_state(state, seed=seed).to_dict()
    problems = []
    if state.opening_card is not None and "leader" in record:
        problems.append("the record names a free leader for a deal led by the opening card")
    verdict = verify_record(record)
    if not verdict.valid:
        problems.append(f"the published record does not verify: {verdict.code}")
    return problems


def game_audit(game: Game) -> list[DealAudit]:
    deals = list(game.deals.order_by("number"))
    audits = [
        deal_audit(game, deal, previous=previous)
        for previous, deal in zip([None, *deals], deals, strict=False)
    ]
    scores = [0] * game.num_seats
    for deal in deals:
        for seat, points in enumerate(deal.points or []):
            scores[seat] += points
    stored = list(game.seats.order_by("position").values_list("score", flat=True))
    if stored != scores and audits:
        audits[-1].problems.append(f"seat scores {stored} differ from the deals' sum {scores}")
    return audits
