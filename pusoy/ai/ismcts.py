"""The ``ismcts`` league bot: information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse's single-observer ISMCTS), with none of the heuristic's hand planning.

One tree for the seat's information set. Each iteration deals the hidden cards anew
(``WorldSampler``: uniform, bent only by the soft hints of passes and leads), walks down
the tree choosing, at every node, among the moves the mover has in that world by UCB1
(a child's availability counts the iterations it could have been chosen), adds one new
node, and finishes the deal with light rollouts: go out when a play empties the hand;
following, pass now and then (``PASS_CHANCE``), else the lowest play that beats the
table; leading, the lowest play of a size drawn at random. Each node holds the reward
of the seat that moved into it: the deal's zero-sum payment at the first player out,
scaled into [0, 1]. The move is the root's most visited child.

Moves are grouped so the tree stays narrow: per rank, the lowest single, pair or triple;
per five-card type, the lowest and the highest; and the pass. It is a pure function of
the view and the random source, bounded by iterations (a ``Budget``'s ``iterations``,
else ``ITERATIONS``), so it plays the same on any machine. A league member (docs/ai.md,
"The league"), not a lobby level.
"""

from __future__ import annotations

import math
import random
from typing import Final

from pusoy.ai.budget import Budget
from pusoy.ai.worlds import WorldSampler, cards_dealt
from pusoy.engine.fast import PASS_PLAY, FastPlay, FastState, five_kind, low_rank, play_size
from pusoy.engine.moves import PASS, Move
from pusoy.engine.scoring import deal_payments, deal_points
from pusoy.engine.state import PlayerView

# Iterations per move when the budget names none.
ITERATIONS: Final = 200
# The exploration constant of UCB1 for rewards in [0, 1].
EXPLORATION: Final = 0.7
# The light rollout passes this often when it could beat the table (it never holds
# anything back otherwise, so without passes it would spend its 2s on the first trick).
PASS_CHANCE: Final = 0.25


class Node:
    """A move in the tree: ``total`` is the reward of the seat that made it."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[FastPlay, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def actions(sim: FastState) -> list[FastPlay]:
    """The mover's moves, grouped (module doc); a pass first when following."""
    lowest: dict[tuple[int, int], FastPlay] = {}
    highest: dict[int, FastPlay] = {}
    for p in sim.legal_plays():
        key = p[1]
        size = play_size(key)
        group = (5, five_kind(key)) if size == 5 else (size, low_rank(p[0]))
        if group not in lowest or key < lowest[group][1]:
            lowest[group] = p
        if size == 5 and (group[1] not in highest or key > highest[group[1]][1]):
            highest[group[1]] = p
    out = [PASS_PLAY] if sim.beat_key >= 0 else []
    out += lowest.values()
    out += (p for p in highest.values() if p not in out)
    return out


def light_play(sim: FastState, rng: random.Random) -> FastPlay:
    """The rollout policy (module doc)."""
    plays = sim.legal_plays()
    hand = sim.hands[sim.turn]
    for p in plays:
        if p[0] == hand:
            return p
    if sim.beat_key >= 0:
        if not plays or rng.random() < PASS_CHANCE:
            return PASS_PLAY
        return min(plays, key=lambda p: p[1])
    by_size: dict[int, FastPlay] = {}
    for p in plays:
        size = play_size(p[1])
        if size not in by_size or p[1] < by_size[size][1]:
            by_size[size] = p
    return by_size[rng.choice(sorted(by_size))]


def rewards(sim: FastState, dealt: list[int]) -> list[float]:
    """Each seat's payment once someone went out, scaled so the winner has 1."""
    points = deal_points(sim.rules, sim.out, sim.beat_mask, sim.counts, dealt)
    payments = deal_payments(sim.rules, sim.out, points)
    scale = max(1, max(abs(p) for p in payments))
    return [0.5 + 0.5 * p / scale for p in payments]


def search(view: PlayerView, rng: random.Random, iterations: int) -> dict[FastPlay, Node]:
    """The root's children after ``iterations`` iterations."""
    root_state = FastState.from_view(view)
    sampler = WorldSampler(view)
    dealt = cards_dealt(view)
    root = Node()
    for _ in range(iterations):
        sim = root_state.copy()
        sim.hands = sampler.sample(rng)
        node = root
        path: list[tuple[Node, int]] = []
        done = False
        while not done:
            moves = actions(sim)
            mover = sim.turn
            fresh = [m for m in moves if m not in node.children]
            for m in moves:
                child = node.children.get(m)
                if child is not None:
                    child.avail += 1
            if fresh:
                move = rng.choice(fresh)
                child = Node()
                child.avail = 1
                node.children[move] = child
                path.append((child, mover))
                done = sim.push(*move)
                break
            move = max(moves, key=lambda m: _ucb(node.children[m]))
            node = node.children[move]
            path.append((node, mover))
            done = sim.push(*move)
        while not done:
            done = sim.push(*light_play(sim, rng))
        reward = rewards(sim, dealt)
        for child, mover in path:
            child.visits += 1
            child.total += reward[mover]
    return root.children


def _ucb(child: Node) -> float:
    return child.total / child.visits + EXPLORATION * math.sqrt(
        math.log(child.avail) / child.visits
    )


def ismcts_move(view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Move:
    """The most visited move after ``budget.iterations`` iterations (``ITERATIONS`` when
    not given; the budget's seconds are not looked at, so the move is the same on any
    machine)."""
    if view.turn != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn")
    plays = view.legal_plays_fast()
    hand = view.hand_mask
    for mask, _key in plays:
        if mask == hand:
            return Move(mask)
    if view.to_beat is not None and not plays:
        return PASS
    if view.to_beat is None and len(plays) == 1:
        return Move(plays[0][0])
    iterations = ITERATIONS if budget is None or budget.iterations is None else budget.iterations
    children = search(view, rng, iterations)
    best = max(children.items(), key=lambda item: item[1].visits)[0]
    return Move(best[0]) if best[0] else PASS
