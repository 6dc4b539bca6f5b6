"""How each opponent plays, read from its past moves: the expert's rollouts play it so.

The expert's rollouts play every seat as the ``heuristic`` (the planner). Against other
planners that is its edge; against seats that play otherwise (people, or the greedy and
random bots at the ratings' table) it misjudges what they will do, and measured at that
table it placed below the instant level (docs/ai.md, "The expert against the instant
level, by places"). Here each opponent's moves so far are explained, in the worlds the
search draws, as a mix of three ways to play: the planner's move, the ``greedy`` bot's
(the lowest play that beats the table; on lead the lowest single) and a uniformly random
legal move. The mix's weights are fitted per seat by expectation-maximisation, with a
prior of ``PRIOR_MOVES`` moves played as the planner, so that a seat is read as a
planner until its moves say otherwise. A seat whose planner weight is below
``MODELLED_BELOW`` is played in the rollouts by its mix (each move drawn from it); the
others, by the planner, exactly as before.

Everything here reads the seat's own view only: the public history and worlds drawn
from it.
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

from pusoy.ai.greedy import greedy_play
from pusoy.ai.heuristic import heuristic_play, rollout_play
from pusoy.ai.inference import ActionModel
from pusoy.ai.match import NORMAL
from pusoy.engine.fast import PASS_PLAY, FastPlay, FastState

# Moves of prior evidence that a seat plays as the planner: a seat's first few moves
# cannot make it look random on their own.
PRIOR_MOVES: Final = 4.0
# Worlds drawn to read the styles (the search plays them afterwards, nothing is lost).
READING_WORLDS: Final = 6
# A seat's rollouts follow its mix only when the planner explains less of its play.
MODELLED_BELOW: Final = 0.6
# Expectation-maximisation steps (it settles in a few; the data are a few dozen moves).
EM_STEPS: Final = 25


class Style(NamedTuple):
    """A seat's mix: the chance that a move is the planner's, the greedy bot's, random."""

    planner: float
    greedy: float
    random: float


PLANNER_STYLE: Final = Style(1.0, 0.0, 0.0)


def random_play(sim: FastState, rng: random.Random) -> FastPlay:
    """A uniformly random legal move, a pass among them when following (``random``)."""
    plays = sim.legal_plays()
    if sim.beat_key >= 0:
        i = rng.randrange(len(plays) + 1)
        return plays[i] if i < len(plays) else PASS_PLAY
    return plays[rng.randrange(len(plays))]


class Observation(NamedTuple):
    """One past move in one world: whether the planner and the greedy bot would have
    made it, and the chance a random player would (one over the legal moves)."""

    planner: bool
    greedy: bool
    uniform: float


def observations(model: ActionModel, seat: int, hand: int) -> list[Observation]:
    """``seat``'s past moves read in the world where it holds ``hand`` now."""
    out: list[Observation] = []
    stance = model.stances[seat]
    for _seat, mask, snapshot, later in model.by_seat.get(seat, ()):
        snapshot.hands[seat] = hand | later
        plays = snapshot.legal_plays()
        moves = len(plays) + (1 if snapshot.beat_key >= 0 else 0)
        out.append(
            Observation(
                heuristic_play(snapshot, stance)[0] == mask,
                greedy_play(snapshot)[0] == mask,
                1.0 / moves,
            )
        )
    return out


def fit_style(seen: list[Observation], weight: float = 1.0) -> Style:
    """The mix that best explains ``seen`` (each counted ``weight`` times: the moves of
    several worlds share one move's weight), with ``PRIOR_MOVES`` of planner moves."""
    if not seen:
        return PLANNER_STYLE
    a, b, c = 0.6, 0.2, 0.2
    total = weight * len(seen) + PRIOR_MOVES
    for _ in range(EM_STEPS):
        sa = sb = sc = 0.0
        for o in seen:
            pa = a if o.planner else 0.0
            pb = b if o.greedy else 0.0
            pc = c * o.uniform
            z = pa + pb + pc
            if z > 0:
                sa += pa / z
                sb += pb / z
                sc += pc / z
        a = (weight * sa + PRIOR_MOVES) / total
        b = weight * sb / total
        c = weight * sc / total
    return Style(a, b, c)


def read_styles(model: ActionModel, worlds: list[list[int]]) -> list[Style | None]:
    """Per seat, its mix when the rollouts should follow it (``MODELLED_BELOW``), else
    None (the planner; always for the reading seat itself)."""
    out: list[Style | None] = [None] * model.n
    if not worlds:
        return out
    for seat in model.by_seat:
        seen: list[Observation] = []
        for world in worlds:
            seen.extend(observations(model, seat, world[seat]))
        style = fit_style(seen, 1.0 / len(worlds))
        if style.planner < MODELLED_BELOW:
            out[seat] = style
    return out


def styled_rollout(
    sim: FastState,
    styles: list[Style | None],
    rng: random.Random,
    seat_stances: tuple[int, ...] | None = None,
) -> None:
    """Finish the deal (to the next player out), each seat playing its mix of styles, the
    planner where it has none (``expert.rollout``)."""
    push = sim.push
    while True:
        seat = sim.turn
        stance = NORMAL if seat_stances is None else seat_stances[seat]
        if push(*styled_play(sim, styles[seat], rng, stance)):
            return


def styled_play(sim: FastState, style: Style | None, rng: random.Random, stance: int) -> FastPlay:
    """The move of the seat to play in a rollout: drawn from its ``style``, the planner's
    (in its ``stance``) when it has none."""
    if style is None:
        return rollout_play(sim, stance)
    u = rng.random()
    if u < style.planner:
        return rollout_play(sim, stance)
    if u < style.planner + style.greedy:
        return greedy_play(sim)
    return random_play(sim, rng)
