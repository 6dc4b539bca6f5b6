"""Engine speed: ``python -m benchmarks.speed.engine [--scale 1.0]``.

Prints legal-move generations per second for a fresh random 13-card hand with nothing to
beat and when following a five-card hand, complete random 4-player deals per second and
moves applied per second; each for the fast internal API (``(mask, key)`` plays, what the
AI uses) and the public API (``Move`` objects, checked ``apply``). Every iteration uses a
fresh random hand or deal (generated before the clock starts), so no cache can learn a
pool of positions.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable, Iterator

from pusoy import compiled
from pusoy.engine import CARDS, DealState, Play, PlayerView, Rules
from pusoy.engine.cards import cards_of
from pusoy.engine.movegen import lead_plays, legal_plays
from pusoy.engine.tables import SIZE_SHIFT, tables_for

RULES = Rules.from_spec("philippine")
TABLES = tables_for(RULES)


def random_hand(rng: random.Random, exclude: int = 0, size: int = 13) -> int:
    pool = [i for i in range(52) if not exclude >> i & 1]
    mask = 0
    for i in rng.sample(pool, size):
        mask |= 1 << i
    return mask


def five_card_to_beat(rng: random.Random, hand: int) -> int:
    """The key of a random five-card play made of cards not in ``hand``."""
    while True:
        other = random_hand(rng, exclude=hand)
        fives = [key for _, key in lead_plays(TABLES, other) if key >> SIZE_SHIFT == 5]
        if fives:
            return rng.choice(fives)


def view_with(hand: int, beat: int) -> PlayerView:
    """Seat 0's view when it holds ``hand`` and must answer ``beat`` (-1: it leads)."""
    to_beat = None if beat < 0 else Play(0, beat, RULES)
    return PlayerView(
        seat=0,
        rules=RULES,
        num_players=4,
        hand=cards_of(hand),
        card_counts=(13, 13, 13, 13),
        turn=0,
        to_beat=to_beat,
        trick_leader=0 if to_beat is None else 3,
        last_player=None if to_beat is None else 3,
        passed=frozenset(),
        in_play=frozenset(range(4)),
        required_card=None,
        history=(),
        played_cards=(),
        finished_order=(),
        seq=0,
        is_over=False,
        result=None,
    )


def rate(count: int, run: Callable[[], None], repeats: int) -> float:
    """Best-of-``repeats`` rate (per second) of ``run`` doing ``count`` operations."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        rates.append(count / (time.perf_counter() - start))
    return max(rates)


def bench_generation(rng: random.Random, n: int, repeats: int) -> dict[str, float]:
    out = {}
    for label, follow in (("lead", False), ("follow five", True)):
        batches = []
        for _ in range(2 * repeats):
            hands = [random_hand(rng) for _ in range(n)]
            batches.append([(h, five_card_to_beat(rng, h) if follow else -1) for h in hands])
        fast_batches = iter(batches[:repeats])
        view_batches = iter([[view_with(h, b) for h, b in batch] for batch in batches[repeats:]])

        def fast(fast_batches: Iterator[list[tuple[int, int]]] = fast_batches) -> None:
            for hand, beat in next(fast_batches):
                legal_plays(TABLES, hand, beat, 0)

        def public(view_batches: Iterator[list[PlayerView]] = view_batches) -> None:
            for view in next(view_batches):
                view.legal_moves()

        out[f"legal-move generations/s, {label} (fast)"] = rate(n, fast, repeats)
        out[f"legal-move generations/s, {label} (public, Move objects)"] = rate(n, public, repeats)
    return out


def new_deals(rng: random.Random, n: int) -> list[list[list[int]]]:
    deals = []
    for _ in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        deals.append([deck[k * 13 : (k + 1) * 13] for k in range(4)])
    return deals


def bench_deals(rng: random.Random, n: int, repeats: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for label in ("fast", "public"):
        moves_rates, deal_rates = [], []
        for _ in range(repeats):
            deals = [[[CARDS[i] for i in hand] for hand in deal] for deal in new_deals(rng, n)]
            choice = random.Random(rng.random())
            moves = 0
            start = time.perf_counter()
            if label == "fast":
                for hands in deals:
                    state = DealState.new(RULES, hands)
                    while state.turn is not None:
                        plays = state.legal_plays_fast()
                        if state._f.beat_key >= 0:
                            i = choice.randrange(len(plays) + 1)
                            if i == len(plays):
                                state.push_fast(0, -1)
                            else:
                                state.push_fast(*plays[i])
                        else:
                            state.push_fast(*choice.choice(plays))
                        moves += 1
            else:
                for hands in deals:
                    state = DealState.new(RULES, hands)
                    while not state.is_over:
                        state.apply(choice.choice(state.legal_moves()))
                        moves += 1
            elapsed = time.perf_counter() - start
            deal_rates.append(n / elapsed)
            moves_rates.append(moves / elapsed)
        best = max(range(repeats), key=lambda k: deal_rates[k])
        out[f"random 4-player deals/s ({label})"] = deal_rates[best]
        out[f"moves applied/s in those deals ({label})"] = moves_rates[best]
        out[f"moves per deal ({label})"] = moves_rates[best] / deal_rates[best]
    return out


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}; {platform.python_implementation()} {platform.python_version()}; one core"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="work multiplier")
    parser.add_argument("--repeats", type=int, default=3, help="best of N runs")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"machine: {machine()}")
    print(f"rules: {RULES!r}")
    print(f"engine's fast modules: {compiled.STATUS}")
    results = {}
    results.update(bench_generation(rng, int(20000 * args.scale), args.repeats))
    results.update(bench_deals(rng, int(1000 * args.scale), args.repeats))
    targets = {
        "legal-move generations/s, lead": 36000,
        "legal-move generations/s, follow five": 48000,
        "random 4-player deals/s": 1710,
        "moves applied/s": 129000,
    }
    for name, value in results.items():
        target = next((t for k, t in targets.items() if name.startswith(k)), None)
        note = "" if target is None else f"   (target {target:,}: {value / target:.1f}x)"
        print(f"{name:58s} {value:>10,.0f}{note}")


if __name__ == "__main__":
    main()
