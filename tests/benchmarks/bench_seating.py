"""Pre-generated seating against Pantheon's rule (the best of 1,000 random
shuffles per round), measured in the same run, for N = 16..200 and R = 5, 8, 10.

    python tests/benchmarks/bench_seating.py [--seed 1] [--shuffles 1000] [--sizes 16,20,...] [--rounds 5,8,10]
        [--table-size 3]

Columns: repeats (excess meetings) and wind spread of our seating, the lower
bound N * max(0, (k - 1)R - N + 1) / 2 at tables of k, our seconds (the ``seating`` command's
engine with its default budget), then the baseline's repeats, its seconds, and
our repeats as a share of the baseline's. Combinations with R > (N - 1) / 3
are kept: there repeats are forced, and the bound says how many.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from league.seating import lower_bound, pregenerate, repeats  # noqa: E402


def shuffled_baseline(n: int, rounds: int, shuffles: int, seed: int, size: int = 4) -> list[list[tuple[int, ...]]]:
    """Each round, the shuffle (of ``shuffles``) whose tables repeat the fewest earlier meetings."""
    rng = random.Random(seed)
    met: set[frozenset[int]] = set()
    out = []
    players = list(range(n))
    for _ in range(rounds):
        best, best_cost = None, None
        for _ in range(shuffles):
            rng.shuffle(players)
            tables = [tuple(players[k:k + size]) for k in range(0, n, size)]
            cost = sum(frozenset(pq) in met for t in tables for pq in combinations(t, 2))
            if best_cost is None or cost < best_cost:
                best, best_cost = tables, cost
                if cost == 0:
                    break
        assert best is not None
        met.update(frozenset(pq) for t in best for pq in combinations(t, 2))
        out.append(best)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shuffles", type=int, default=1000)
    parser.add_argument("--sizes", default="16,20,24,28,32,36,40,48,64,100,200")
    parser.add_argument("--rounds", default="5,8,10")
    parser.add_argument("--table-size", type=int, default=4, help="4, or 3 for three-player mahjong")
    args = parser.parse_args()
    k = args.table_size
    print(f"{'N x R':>8} {'repeats':>8} {'bound':>6} {'spread':>6} {'seconds':>8} {'iters':>6} "
          f"| {'shuffled':>8} {'seconds':>8} {'ratio':>6}")
    for n in map(int, args.sizes.split(",")):
        for r in map(int, args.rounds.split(",")):
            t0 = time.perf_counter()
            ours = pregenerate(n, r, seed=args.seed, table_size=k)
            ours_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            base = shuffled_baseline(n, r, args.shuffles, args.seed, k)
            base_s = time.perf_counter() - t0
            base_rep = repeats(base)
            q = ours.quality
            ratio = f"{q.repeat_count / base_rep:.2f}" if base_rep else "-"
            print(f"{f'{n}x{r}':>8} {q.repeat_count:>8} {lower_bound(n, r, k):>6} {q.wind_spread:>6} {ours_s:>8.2f} "
                  f"{ours.iterations:>6} | {base_rep:>8} {base_s:>8.2f} {ratio:>6}", flush=True)


if __name__ == "__main__":
    main()
