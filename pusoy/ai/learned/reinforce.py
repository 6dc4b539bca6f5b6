"""Stage 2 of the learned policy: policy-gradient improvement by play (REINFORCE).

The policy plays one seat of 4-player deals against three opponents of one kind (three
heuristics by default; with several kinds, the deals take them in turn, four deals each,
one per seat; with ``players`` 2 or 3, or a list taken in turn step by step, smaller
tables, one deal per seat each), sampling its moves from the softmax of its scores (at
``temperature``). A deal's return is the seat's zero-sum payment (``deal_payments``); the
baseline is the payment the heuristic itself takes from the same seat of the same deal
against the same opponents, so the advantage measures what the policy's moves gained over
the heuristic's on those cards (the luck of the deal cancels, as in the arena's paired
comparisons). Advantages are divided by their spread in the batch (among the deals
against the same kind of opponent: a kind whose payments swing wider, as the hoarder's
do, would otherwise drown the others), and every move of a deal carries its deal's
advantage.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pusoy.ai.heuristic import heuristic_move
from pusoy.ai.learned import learned_play
from pusoy.ai.learned.features import candidate_features, candidates, state_features
from pusoy.ai.learned.model import Array, Policy
from pusoy.ai.learned.train import Adam, Examples, batch, loss_and_grads
from pusoy.engine.fast import FastState
from pusoy.engine.moves import PASS, Move
from pusoy.engine.rules import Rules
from pusoy.engine.scoring import deal_payments
from pusoy.engine.state import DealState, PlayerView

Chooser = Callable[[PlayerView], Move]
# An opponent: a bot as the arena seats it (``pusoy.ai.arena.Bot``).
Opponent = Callable[[PlayerView, random.Random], Move]


@dataclass(frozen=True)
class Step:
    state: Array
    cands: Array
    chosen: int


def _deal(rules: Rules, seed: str, index: int, players: int = 4) -> DealState:
    # Four players keep the seeds (and so the deals) of the runs before tables of 2 and 3.
    table = "" if players == 4 else f"{players}p:"
    return DealState.from_seed(
        rules, hashlib.sha256(f"learned-rl:{table}{seed}:{index}".encode()).digest(), players
    )


def play(state: DealState, seat: int, chooser: Chooser, opponent: Opponent = heuristic_move) -> int:
    """Play ``state`` to its end, ``seat`` by ``chooser``, the others by ``opponent``;
    the seat's payment."""
    rng = random.Random(0)  # (the opponents' draws, if they make any: the same each deal)
    while not state.is_over:
        turn = state.turn
        assert turn is not None
        view = state.view(turn)
        state.apply(chooser(view) if turn == seat else opponent(view, rng))
    result = state.result
    assert result is not None
    return deal_payments(state.rules, result.winner, result.points)[seat]


def sampler(
    policy: Policy, temperature: float, rng: np.random.Generator, steps: list[Step]
) -> Chooser:
    """A chooser that samples from the policy and records each choice among two or more
    candidates in ``steps``."""

    def choose(view: PlayerView) -> Move:
        sim = FastState.from_view(view)
        moves = candidates(sim)
        if len(moves) == 1:
            index = 0
        else:
            s = state_features(sim)
            c = candidate_features(sim, moves)
            z = policy.scores(s, c) / temperature
            p = np.exp(z - z.max())
            index = int(rng.choice(len(moves), p=p / p.sum()))
            steps.append(Step(s, c, index))
        mask = moves[index][0]
        return Move(mask) if mask else PASS

    return choose


def greedy(policy: Policy) -> Chooser:
    def choose(view: PlayerView) -> Move:
        mask = learned_play(FastState.from_view(view), policy)[0]
        return Move(mask) if mask else PASS

    return choose


def evaluate_play(
    policy: Policy,
    rules: Rules,
    deals: int,
    seed: str,
    opponent: Opponent = heuristic_move,
    players: int = 4,
) -> tuple[float, float]:
    """Share of deals won and mean payment of the (greedy) policy in one seat against
    ``players - 1`` ``opponent``s: ``deals`` deals, each played from every seat."""
    wins = 0
    paid = 0
    for index in range(deals):
        for seat in range(players):
            state = _deal(rules, f"eval:{seed}", index, players)
            paid += play(state, seat, greedy(policy), opponent)
            result = state.result
            assert result is not None
            wins += result.winner == seat
    return wins / (players * deals), paid / (players * deals)


def improve(
    policy: Policy,
    rules: Rules | list[Rules],
    *,
    updates: int,
    deals: int,
    seed: int = 0,
    lr: float = 3e-5,
    temperature: float = 1.0,
    log: Callable[[int, float, float, Policy], None] | None = None,
    opponents: list[Opponent] | None = None,
    win_bonus: float = 0.0,
    players: int | list[int] = 4,
) -> Policy:
    """``updates`` policy-gradient steps, each on ``deals`` deals of play (under each of
    ``rules`` in turn when several, at tables of each of ``players`` in turn when
    several, every preset at every size; against each of ``opponents`` in turn, one deal
    per seat each, heuristics when None); a deal's return is the payment, plus
    ``win_bonus`` when the seat goes out first; ``log(update, mean advantage, mean
    payment, policy)`` after each."""
    cycle = rules if isinstance(rules, list) else [rules]
    tables = players if isinstance(players, list) else [players]
    kinds = opponents or [heuristic_move]
    rng = np.random.default_rng(seed)
    adam = Adam(policy, lr=lr)
    index = 0
    for update in range(updates):
        current = adam.policy()
        deal_rules = cycle[update % len(cycle)]
        # Every preset meets every table size: (p, 3), (h, 3), (p, 2), (h, 2), ...
        n = tables[update // len(cycle) % len(tables)]
        steps: list[Step] = []
        owners: list[int] = []
        advantages: list[float] = []
        payments: list[int] = []
        faced: list[int] = []
        for _ in range(deals):
            seat = index % n
            kind = index // n % len(kinds)
            opponent = kinds[kind]
            faced.append(kind)
            before = len(steps)
            deal = _deal(deal_rules, str(seed), index, n)
            paid = play(deal, seat, sampler(current, temperature, rng, steps), opponent)
            baseline = _deal(deal_rules, str(seed), index, n)
            base = play(baseline, seat, greedy_heuristic, opponent)
            owners += [len(advantages)] * (len(steps) - before)
            advantages.append(paid - base + win_bonus * (_won(deal, seat) - _won(baseline, seat)))
            payments.append(paid)
            index += 1
        adv = np.array(advantages, dtype=np.float32)
        scaled = _scaled_by_kind(adv, np.array(faced, dtype=np.intp))
        if steps:
            offsets = np.cumsum([0, *(len(step.cands) for step in steps)]).astype(np.intp)
            data = Examples(
                np.stack([step.state for step in steps]),
                np.concatenate([step.cands for step in steps]),
                offsets,
                offsets[:-1] + np.array([step.chosen for step in steps], dtype=np.intp),
            )
            weights = scaled[np.array(owners, dtype=np.intp)]
            _, _, grads = loss_and_grads(
                current, batch(data, np.arange(len(steps), dtype=np.intp)), weights
            )
            adam.step(grads)
        if log:
            log(update, float(adv.mean()), float(np.mean(payments)), adam.policy())
    return adam.policy()


def _won(state: DealState, seat: int) -> int:
    result = state.result
    assert result is not None
    return int(result.winner == seat)


def _scaled_by_kind(adv: Array, kinds: npt.NDArray[np.intp]) -> Array:
    """Each advantage divided by the spread of those against the same kind."""
    out = adv.copy()
    for kind in np.unique(kinds):
        mine = kinds == kind
        out[mine] /= float(adv[mine].std()) or 1.0
    return out


def greedy_heuristic(view: PlayerView) -> Move:
    return heuristic_move(view, random.Random(0))
