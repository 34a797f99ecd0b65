"""Replay and settle 10,000 random games; report games per second.

Run: python tests/benchmarks/bench_games.py [--games N] [--seed S]

Games are generated first (seeded, reproducible) and then timed in two
passes: replay + settlement through ``scoring.game.replay``, and, as a
baseline measured in the same run, the bare cost of walking the same hands
with a no-op loop, so the figure reads as a ratio on a noisy machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scoring.game import (  # noqa: E402
    Abort,
    AbortReason,
    Chombo,
    Draw,
    EndReason,
    GameRecord,
    HandInput,
    Ron,
    Tsumo,
    Win,
    replay,
)
from scoring.rules import get_ruleset  # noqa: E402

VALUES = [(1, 30), (1, 40), (2, 30), (2, 25), (3, 40), (3, 30), (4, 30), (5, None), (6, None), (8, None)]


def random_hand(rng: random.Random) -> HandInput:
    roll = rng.random()
    riichi = tuple(s for s in range(4) if rng.random() < 0.15)
    if roll < 0.55:
        loser = rng.randrange(4)
        winners = [s for s in range(4) if s != loser]
        rng.shuffle(winners)
        count = 2 if rng.random() < 0.03 else 1
        wins = tuple(Win(w, *rng.choice(VALUES)) for w in winners[:count])
        return HandInput(Ron(loser, wins), tuple(s for s in riichi if s != loser))
    if roll < 0.80:
        han, fu = rng.choice([v for v in VALUES if v != (2, 25)] + [(2, 20), (3, 20)])
        return HandInput(Tsumo(rng.randrange(4), han, fu), riichi)
    if roll < 0.97:
        tenpai = tuple(sorted({s for s in range(4) if rng.random() < 0.4} | set(riichi)))
        return HandInput(Draw(tenpai), riichi)
    if roll < 0.99:
        return HandInput(Abort(AbortReason.KYUUSHU_KYUUHAI), ())
    return HandInput(Chombo(rng.randrange(4)), ())


def random_game(rng: random.Random, rules) -> GameRecord:
    hands: list[HandInput] = []
    while True:
        g = replay(GameRecord(rules, tuple(hands)))
        if g.finished:
            return GameRecord(rules, tuple(hands))
        if len(hands) > 40:
            return GameRecord(rules, tuple(hands), end=EndReason.EARLY)
        hands.append(random_hand(rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rules", default="tenhou")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = get_ruleset(args.rules)
    t0 = time.perf_counter()
    games = [random_game(rng, rules) for _ in range(args.games)]
    generated = time.perf_counter() - t0
    hands = sum(len(g.hands) for g in games)

    t0 = time.perf_counter()
    for g in games:
        for h in g.hands:
            _ = (h.outcome, h.riichi)
    baseline = time.perf_counter() - t0

    t0 = time.perf_counter()
    finished = 0
    for g in games:
        finished += replay(g).finished
    elapsed = time.perf_counter() - t0
    print(f"rules={args.rules} games={len(games)} hands={hands} finished={finished} (generated in {generated:.1f}s)")
    print(f"replay + settle: {elapsed:.3f}s = {len(games) / elapsed:,.0f} games/s, {hands / elapsed:,.0f} hands/s")
    print(f"bare loop over the same hands: {baseline:.4f}s (replay costs {elapsed / baseline:,.0f}x the bare walk)")


if __name__ == "__main__":
    main()
