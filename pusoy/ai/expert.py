"""The ``expert`` bot: Monte Carlo search over the hidden cards.

For each sampled world (opponents' hands that agree with what the seat may see, drawn
by ``inference.chained_worlds`` in proportion to how well they explain the opponents'
moves), every candidate move still in the race is played and the deal is finished by
``heuristic`` rollouts for all seats. The same worlds serve every candidate, so they are
compared on paired outcomes; candidates clearly worse than the best are dropped as the
evidence comes in (successive elimination), and the search stops at the budget (time
and/or rollouts) or when one candidate is left. It is a function of the view only.
"""

from __future__ import annotations

import gc
import math
import random
import threading
import time
from collections.abc import Callable
from typing import Final, NamedTuple

from pusoy import compiled
from pusoy.ai.budget import DEFAULT_BUDGET, Budget
from pusoy.ai.heuristic import heuristic_play, rollout_play
from pusoy.ai.inference import ActionModel, chained_worlds
from pusoy.ai.match import NORMAL, deal_spread, match_value, stances
from pusoy.ai.opponents import READING_WORLDS, Style, read_styles, styled_play, styled_rollout
from pusoy.ai.plan import five_candidates, plan
from pusoy.ai.worlds import WorldSampler, cards_dealt
from pusoy.engine.fast import PASS_PLAY, FastPlay, FastState, five_kind, play_size
from pusoy.engine.match import MatchStanding
from pusoy.engine.moves import PASS, Move
from pusoy.engine.scoring import deal_payments, deal_points
from pusoy.engine.state import PlayerView

Reward = Callable[[FastState, int, list[int]], float]
# The opponents' read styles (``opponents.read_styles``) and the seed of a world's draws:
# every candidate is played out in a world with the same draws, so they stay paired.
Styles = tuple[list[Style | None], int]
# A policy for the searching seat's own first moves of each rollout, and how many of them
# it plays (``Tuning.own_policy``).
OwnPolicy = tuple[Callable[[FastState], FastPlay], int]


# The search's constants. Each was measured against the alternatives; the runs, numbers
# and commands are in docs/ai.md, "The expert's constants".

# Candidates the search considers at most (the heuristic's choice always among them).
MAX_CANDIDATES: Final = 14
# A candidate is dropped when its mean is this many standard errors below the best's.
# A high bar, because the first few worlds of a long-tailed reward misjudge the spread.
ELIMINATE_Z: Final = 4.0
# Rollouts per second of one idle core (``benchmarks.speed.ai``): a time budget in rollouts,
# for ``SHARP_READING_FROM``; the compiled search (``pusoy.compiled``) runs more.
ROLLOUTS_PER_SECOND: Final = 10_000 if compiled.STATUS == "compiled" else 3500
# No candidate is dropped before this many worlds have been played.
MIN_WORLDS_BEFORE_ELIMINATION: Final = 8
# Budgets worth this many rollouts or more read the history sharper: the chains run
# SHARP_BURN_IN steps before their first world and SHARP_STEPS between two (instead of
# ``inference``'s 20 and 6); only a long search has the time for it.
SHARP_READING_FROM: Final = 3000
SHARP_BURN_IN: Final = 200
SHARP_STEPS: Final = 30
# The heuristic's choice stands unless another move is this many standard errors better.
# 2 since the rollouts play each opponent by its read style (``MODEL_OPPONENTS``): at 1
# the search left the planner's move on the strength of rollouts that misjudge players
# who are not planners, and placed below the instant level at a mixed table.
KEEP_DEFAULT_Z: Final = 2.0
# Read each opponent's way of playing from its moves and play it so in the rollouts
# (``pusoy.ai.opponents``); docs/ai.md, "Reading the opponents' styles".
MODEL_OPPONENTS: Final = True
# A world's reward is the seat's payment in the deal's own scoring (``deal_payments``), so
# the search plays for points; under ``deuces-double`` a loser's cards cost nothing, and
# this share of the cards left (as dealt) breaks ties between losing lines. In a match
# (``view.match``) the reward is the chance of winning the match instead
# (``pusoy.ai.match.match_value``), and every seat's rollouts play its match stance.
NEAR_MISS_WEIGHT: Final = 0.1
# Under ``deuces-double``, stakes added to the search's reward (not to the points scored)
# for going out first: the payment alone is a noisy signal there, swayed by rare doubled
# stakes more than by the chance of going out.
WIN_BONUS: Final = 10.0
# In a match, the deal's payment (in spreads of a deal's points) at this weight is added
# to the chance of winning the match, which is 1 or 0 for most lines of a last deal.
MATCH_TIE_BREAK: Final = 0.02


class Tuning(NamedTuple):
    """The search's knobs, the constants above by default: benchmarks pass others to
    compare variants on the same deals (``benchmarks.strength.variants``)."""

    eliminate_z: float = ELIMINATE_Z
    keep_default_z: float = KEEP_DEFAULT_Z
    # Successive halving: the rollout budget split into rounds, the better half of the
    # candidates kept after each (on top of the elimination by ``eliminate_z``).
    halving: bool = False
    # Read the history as sharply as a big budget does, whatever the budget.
    sharp: bool = False
    # Under ``deuces-double``, the weight of a losing seat's share of its cards left.
    near_miss_weight: float = NEAR_MISS_WEIGHT
    # Draw the worlds from the reading of the opponents' moves (``world_source``); when
    # False, uniformly but for the soft hints of passes and leads, as the instant level does.
    read_history: bool = True
    # Read each opponent's way of playing from its moves and play it so in the rollouts
    # (``pusoy.ai.opponents``); when False, every seat's rollouts are the planner's.
    model_opponents: bool = MODEL_OPPONENTS
    # With ``model_opponents``: the share of a rollout's moves, at each seat the reading
    # left to the planner, drawn instead half from the greedy bot and half uniformly
    # (``rollout_noise_self``: the searching seat's own too), since a rollout of one fixed
    # policy judges each candidate by a single continuation of each world. A variant only
    # (docs/ai.md, "Two more tries at the search").
    rollout_noise: float = 0.0
    rollout_noise_self: bool = False
    # A policy for the searching seat's own first ``own_moves`` moves of each rollout
    # (after the candidate; the planner's after them): the seat's own continuation is the
    # one the search knows least about, since it will play it by searching. A variant only,
    # played with the learned network (docs/ai.md, "The learned policy in the rollouts").
    own_policy: Callable[[FastState], FastPlay] | None = None
    own_moves: int = 0
    # The move the search keeps unless another is ``keep_default_z`` standard errors
    # better, chosen from the view with a random source of its own; None: the planner's.
    # A variant only, played with the instant level's move (docs/ai.md, "The instant
    # level's move as the expert's default").
    default_policy: Callable[[PlayerView, random.Random], FastPlay] | None = None
    # A lead in the search's reward (payment) that another move must have over the kept
    # one on top of ``keep_default_z`` standard errors: more worlds shrink the standard
    # error but not the bias of rollouts that model the other seats, so at a big budget
    # the search would leave the planner's move on leads the model invents. A variant
    # only (docs/ai.md, "A margin for leaving the planner's move").
    keep_margin: float = 0.0


def current_tuning() -> Tuning:
    """The constants above as they are now: a benchmark may patch them in the sources
    (``ai_regret --set``), and a default bound when the class was made would miss that."""
    return Tuning(
        eliminate_z=ELIMINATE_Z,
        keep_default_z=KEEP_DEFAULT_Z,
        near_miss_weight=NEAR_MISS_WEIGHT,
        model_opponents=MODEL_OPPONENTS,
    )


def candidates(sim: FastState, plays: list[FastPlay], default: FastPlay) -> list[FastPlay]:
    """The moves worth searching, the heuristic's first: every play when few; else the
    plan's plays, the lowest play of each size and rank, and alternative five-card hands."""
    following = sim.beat_key >= 0
    moves = [*plays, PASS_PLAY] if following else list(plays)
    if len(moves) <= MAX_CANDIDATES:
        return [default, *(m for m in moves if m != default)]
    legal = set(moves)
    chosen: list[FastPlay] = [default]
    seen = {default}

    def add(play: FastPlay) -> None:
        if play in legal and play not in seen and len(chosen) < MAX_CANDIDATES:
            seen.add(play)
            chosen.append(play)

    if following:
        add(PASS_PLAY)
    hand = sim.hands[sim.turn]
    for p in plan(sim.t, hand):
        add(p)
    # The lowest play per five-card type, and per size and group of ranks of the others.
    lowest: dict[tuple[int, int], FastPlay] = {}
    for p in plays:
        size = play_size(p[1])
        # (not ``low_rank``: the lowest card's bit length over 4 puts a diamond with the
        # next rank up; kept as it was, since changing it changes the expert's choices)
        group = (size, five_kind(p[1])) if size == 5 else (size, (p[0] & -p[0]).bit_length() >> 2)
        if group not in lowest or p[1] < lowest[group][1]:
            lowest[group] = p
    for p in sorted(lowest.values(), key=lambda p: p[1]):
        if play_size(p[1]) == 5:
            add(p)
    for p in five_candidates(sim.t, hand):
        add(p)
    for p in sorted(lowest.values(), key=lambda p: (play_size(p[1]), p[1])):
        add(p)
    return chosen


def budget_rollouts(budget: Budget) -> float:
    """About how many rollouts ``budget`` allows (its time at ``ROLLOUTS_PER_SECOND``)."""
    rollouts = budget.seconds * ROLLOUTS_PER_SECOND
    if budget.iterations is not None:
        rollouts = min(rollouts, budget.iterations)
    return rollouts


def world_source(
    view: PlayerView,
    rng: random.Random,
    budget: Budget,
    tuning: Tuning | None = None,
    model: ActionModel | None = None,
) -> Callable[[], list[int]]:
    """The search's worlds: drawn by chains over the deals of the hidden cards that
    weigh each by how well it explains the opponents' moves (``inference``; ``model``
    when the caller made one); longer chains for a big budget (``SHARP_READING_FROM``)."""
    tuning = tuning or current_tuning()
    sampler = WorldSampler(view)
    if not tuning.read_history:
        return lambda: sampler.sample(rng)
    sharp = tuning.sharp
    model = model or ActionModel(view)
    if sharp or budget_rollouts(budget) >= SHARP_READING_FROM:
        return chained_worlds(sampler, model, rng, steps=SHARP_STEPS, burn_in=SHARP_BURN_IN)
    return chained_worlds(sampler, model, rng)


def _reward(sim: FastState, me: int, dealt: list[int]) -> float:
    """The seat's payment when the rollout ended (someone went out); under
    ``deuces-double``, ``WIN_BONUS`` for going out and ``NEAR_MISS_WEIGHT`` otherwise."""
    return reward_with_bonus(sim, me, dealt, WIN_BONUS)


def _weighted_reward(near_miss_weight: float) -> Reward:
    """``_reward`` with another weight for the share of cards left (``Tuning``)."""

    def reward(sim: FastState, me: int, dealt: list[int]) -> float:
        return reward_with_bonus(sim, me, dealt, WIN_BONUS, near_miss_weight)

    return reward


def reward_with_bonus(
    sim: FastState,
    me: int,
    dealt: list[int],
    win_bonus: float,
    near_miss_weight: float = NEAR_MISS_WEIGHT,
) -> float:
    """``_reward`` with ``win_bonus`` stakes for going out under ``deuces-double``
    (benchmarks compare bonuses on the same deals)."""
    winner = sim.out
    rules = sim.rules
    points = deal_points(rules, winner, sim.beat_mask, sim.counts, dealt)
    payment = deal_payments(rules, winner, points)[me]
    if rules.scoring == "deuces-double":
        if winner == me:
            return payment + win_bonus
        return payment - near_miss_weight * sim.counts[me] / dealt[me]
    return payment


def _match_reward(standing: MatchStanding, scoring: str) -> Reward:
    """In a match: the chance of winning it once the rollout's deal is scored, and the
    deal's payment as a tie-break (``MATCH_TIE_BREAK``)."""
    weight = MATCH_TIE_BREAK / deal_spread(scoring, len(standing.scores))

    def reward(sim: FastState, me: int, dealt: list[int]) -> float:
        rules = sim.rules
        points = deal_points(rules, sim.out, sim.beat_mask, sim.counts, dealt)
        value = match_value(standing, rules.scoring, me, points, sim.out)
        return value + weight * deal_payments(rules, sim.out, points)[me]

    return reward


def rollout(sim: FastState, seat_stances: tuple[int, ...] | None = None) -> None:
    """Finish the deal (to the next player out) with the heuristic for every seat,
    each playing its stance in the match when ``seat_stances`` are given."""
    push = sim.push
    if seat_stances is None:
        while not push(*rollout_play(sim)):
            pass
    else:
        while not push(*rollout_play(sim, seat_stances[sim.turn])):
            pass


def play_out(
    world: FastState,
    play: FastPlay,
    me: int,
    dealt: list[int],
    reward: Reward,
    seat_stances: tuple[int, ...] | None = None,
    styles: Styles | None = None,
    own: OwnPolicy | None = None,
) -> float:
    """``me``'s reward once ``play`` is made in ``world`` and the deal is finished by
    ``rollout`` (``world`` itself is left as it was); with ``styles`` (the opponents'
    read styles and a seed for their random draws), by ``opponents.styled_rollout``;
    with ``own``, ``me``'s first moves by its policy (``own_moves``)."""
    sim = world.copy()
    if sim.push(*play):
        return reward(sim, me, dealt)
    rng = None if styles is None else random.Random(styles[1])
    if own is not None and own_moves(sim, me, own, styles, rng, seat_stances):
        return reward(sim, me, dealt)
    if styles is None or rng is None:
        rollout(sim, seat_stances)
    else:
        styled_rollout(sim, styles[0], rng, seat_stances)
    return reward(sim, me, dealt)


def own_moves(
    sim: FastState,
    me: int,
    own: OwnPolicy,
    styles: Styles | None,
    rng: random.Random | None,
    seat_stances: tuple[int, ...] | None,
) -> bool:
    """Play ``sim`` on until ``me`` has made ``own``'s count of moves by ``own``'s
    policy, the other seats as ``play_out``'s rollouts play them; whether the rollout
    ended on the way."""
    policy, left = own
    push = sim.push
    while left > 0:
        seat = sim.turn
        if seat == me:
            play = policy(sim)
            left -= 1
        else:
            stance = NORMAL if seat_stances is None else seat_stances[seat]
            if styles is None or rng is None:
                play = rollout_play(sim, stance)
            else:
                play = styled_play(sim, styles[0][seat], rng, stance)
        if push(*play):
            return True
    return False


def search(
    view: PlayerView,
    rng: random.Random,
    budget: Budget = DEFAULT_BUDGET,
    tuning: Tuning | None = None,
) -> tuple[FastPlay, dict[FastPlay, tuple[int, float]]]:
    """The chosen play and, per candidate, (worlds played, mean reward); ``tuning``
    defaults to ``current_tuning()``."""
    raised = collect_less()
    try:
        return _search(view, rng, budget, tuning or current_tuning())
    finally:
        if raised:
            collect_as_before()


# Rollouts make many small lists and no reference cycles: in a process that opted in
# (``tune_collector``), a search raises the cyclic collector's young-generation threshold
# to this while it runs, so collections are rare and still fall inside the search's
# deadline (docs/ai.md, "The compiled search").
SEARCH_GC_THRESHOLD: Final = 10_000
_gc_lock = threading.Lock()
_gc_tuned = False
_gc_searches = 0
_gc_saved: tuple[int, int, int] = (700, 10, 10)


def tune_collector(on: bool = True) -> None:
    """Let searches in this process raise the collector's threshold while they run.

    The collector's settings belong to the whole process, so a library does not touch
    them unless its host asks: processes that exist to search (the Celery workers, the
    arena, the benchmarks) opt in; a web server running a search in a thread does not."""
    global _gc_tuned
    with _gc_lock:
        _gc_tuned = on


def collect_less() -> bool:
    """Raise the collector's threshold while any search runs (threads may search at once),
    if this process opted in (``tune_collector``); whether it did (then the caller calls
    ``collect_as_before`` once it is done)."""
    global _gc_searches, _gc_saved
    with _gc_lock:
        if not _gc_tuned:
            return False
        if _gc_searches == 0:
            _gc_saved = gc.get_threshold()
            young, middle, old = _gc_saved
            gc.set_threshold(max(young, SEARCH_GC_THRESHOLD), middle, old)
        _gc_searches += 1
        return True


def collect_as_before() -> None:
    """Put the threshold back when the last running search ends."""
    global _gc_searches
    with _gc_lock:
        _gc_searches -= 1
        if _gc_searches == 0:
            gc.set_threshold(*_gc_saved)


def _search(
    view: PlayerView, rng: random.Random, budget: Budget, tuning: Tuning
) -> tuple[FastPlay, dict[FastPlay, tuple[int, float]]]:
    start = time.perf_counter()
    deadline = start + budget.seconds
    limit = budget.iterations
    root = FastState.from_view(view)
    me = view.seat
    hand = root.hands[me]
    plays = root.legal_plays()
    for p in plays:
        if p[0] == hand:
            return p, {}
    standing = view.match
    seat_stances = None if standing is None else stances(standing, view.rules.scoring, root.n)
    if tuning.default_policy is not None and seat_stances is None:
        default = tuning.default_policy(view, random.Random(rng.getrandbits(64)))
    else:
        default = heuristic_play(root, NORMAL if seat_stances is None else seat_stances[me])
    if standing is not None:
        reward = _match_reward(standing, view.rules.scoring)
    elif tuning.near_miss_weight == NEAR_MISS_WEIGHT:
        reward = _reward
    else:
        reward = _weighted_reward(tuning.near_miss_weight)
    cands = candidates(root, plays, default)
    if len(cands) == 1:
        return cands[0], {}
    dealt = cards_dealt(view)
    read: list[Style | None] | None = None
    if tuning.model_opponents:
        model = ActionModel(view)
        drawn = world_source(view, rng, budget, tuning, model)
        # The worlds that read the styles are the search's first: none is drawn twice.
        first = [drawn() for _ in range(READING_WORLDS)]
        read = read_styles(model, first)
        if tuning.rollout_noise > 0:
            read = with_rollout_noise(read, me, tuning)
        if all(style is None for style in read):
            read = None
        next_world = _replayed(first, drawn)
    else:
        next_world = world_source(view, rng, budget, tuning)
    own: OwnPolicy | None = None
    if tuning.own_policy is not None and tuning.own_moves > 0:
        own = (tuning.own_policy, tuning.own_moves)
    alive = list(range(len(cands)))
    results: list[list[float]] = [[] for _ in cands]
    rollouts = 0
    # Successive halving: rounds of equal rollouts, the better half kept after each.
    per_round = 0.0
    if tuning.halving:
        per_round = budget_rollouts(budget) / max(1, math.ceil(math.log2(len(cands))))
    round_start = 0
    worlds = 0
    out_of_budget = False
    searching = time.perf_counter()
    while len(alive) > 1 and not out_of_budget:
        if rollouts:
            # Start a world only when it can finish in time (an unfinished one is lost).
            now = time.perf_counter()
            if now + (now - searching) / rollouts * len(alive) > deadline:
                break
        base = root.copy()
        base.hands = next_world()
        styles = None if read is None else (read, rng.getrandbits(32))
        world: list[float] = []
        for i in alive:
            if limit is not None and rollouts >= limit:
                out_of_budget = True
                break
            world.append(play_out(base, cands[i], me, dealt, reward, seat_stances, styles, own))
            rollouts += 1
            if time.perf_counter() >= deadline:
                out_of_budget = True
                break
        if len(world) < len(alive):
            break  # an unfinished world would compare candidates on unequal ground
        for i, r in zip(alive, world, strict=True):
            results[i].append(r)
        worlds += 1
        if worlds >= MIN_WORLDS_BEFORE_ELIMINATION:
            alive = _eliminate(alive, results, tuning.eliminate_z)
        if per_round and rollouts - round_start + len(alive) > per_round and len(alive) > 1:
            alive = _better_half(alive, results)
            round_start = rollouts
    stats = {
        cands[i]: (len(results[i]), sum(results[i]) / len(results[i]))
        for i in range(len(cands))
        if results[i]
    }
    if worlds == 0:
        return default, stats
    return cands[_choose(alive, results, tuning.keep_default_z, tuning.keep_margin)], stats


def with_rollout_noise(read: list[Style | None], me: int, tuning: Tuning) -> list[Style | None]:
    """``read`` with ``tuning.rollout_noise`` of greedy and random moves mixed into every
    seat left to the planner (``me`` too only with ``rollout_noise_self``)."""
    noise = tuning.rollout_noise
    noisy = Style(1.0 - noise, noise / 2, noise / 2)
    out: list[Style | None] = [noisy if style is None else style for style in read]
    if not tuning.rollout_noise_self:
        out[me] = read[me]
    return out


def _replayed(first: list[list[int]], then: Callable[[], list[int]]) -> Callable[[], list[int]]:
    """The worlds of ``first`` in order, then those of ``then``."""
    pending = list(reversed(first))

    def next_world() -> list[int]:
        return pending.pop() if pending else then()

    return next_world


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over the worlds both were played in."""
    k = min(len(a), len(b))
    diffs = [x - y for x, y in zip(a[:k], b[:k], strict=True)]
    mean = sum(diffs) / k
    if k < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    return mean, math.sqrt(var / k)


def _choose(
    alive: list[int],
    results: list[list[float]],
    keep_z: float = KEEP_DEFAULT_Z,
    margin: float = 0.0,
) -> int:
    """The best mean; but the heuristic's choice (index 0) unless the best is ahead of
    it by more than ``keep_z`` standard errors and ``margin``: noise should not overrule it."""
    best = max(alive, key=lambda i: sum(results[i]) / len(results[i]))
    if best == 0 or 0 not in alive:
        return best
    mean, se = _paired(results[best], results[0])
    return best if mean > keep_z * se + margin else 0


def _better_half(alive: list[int], results: list[list[float]]) -> list[int]:
    """The half of ``alive`` (rounded up) with the best means; they were all played in
    the same worlds. The heuristic's choice stays while it is in that half."""
    ranked = sorted(alive, key=lambda i: -sum(results[i]) / len(results[i]))
    return sorted(ranked[: (len(ranked) + 1) // 2])


def _eliminate(alive: list[int], results: list[list[float]], z: float) -> list[int]:
    """Drop candidates whose paired difference to the leader is more than ``z``
    standard errors below zero."""
    leader = max(alive, key=lambda i: sum(results[i]) / len(results[i]))
    keep = []
    for i in alive:
        if i != leader:
            mean, se = _paired(results[leader], results[i])
            if mean > z * se + (0.0 if se > 0 else 0.5 / len(results[i])):
                continue
        keep.append(i)
    return keep


def expert_move(view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Move:
    play, _stats = search(view, rng, budget or DEFAULT_BUDGET)
    return Move(play[0]) if play[0] else PASS
