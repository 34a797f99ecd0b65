"""What one cache operation on Redis costs this process, through Django's
own Redis backend and through ``league.redis_cache.RedisCache`` (one client
per pool), side by side on one Redis server this script starts.

    python tests/benchmarks/bench_redis_ops.py [--ops 5000] [--rounds 5]

Not collected by pytest. Needs ``redis-server``. For each backend: a
``get`` that finds a stamp-sized value (what every public page and, before
2026-11-27, every hand-entry request asked), a ``get`` of a kept read's size
(a pickled list of 20 kB), and a ``set`` of a stamp; the figure is the best
of ``--rounds`` of ``--ops`` calls, in microseconds of process CPU.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def _per_op(fn: Callable[[], Any], ops: int, rounds: int) -> float:
    for _ in range(200):
        fn()
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time_ns()
        for _ in range(ops):
            fn()
        best = min(best, (time.process_time_ns() - start) / ops / 1000)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ops", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if not shutil.which("redis-server"):
        raise SystemExit("redis-server is needed (apt-get install redis-server)")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
    import django

    django.setup()
    from django.core.cache.backends.redis import RedisCache as Djangos

    from league.redis_cache import RedisCache as Ours
    from tests.serve import redis_server

    with redis_server() as url:
        read = [{"number": i, "result": list(range(40)), "note": "x" * 200} for i in range(60)]
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; best of {args.rounds} x "
              f"{args.ops} calls, us of process CPU per call")
        print(f"{'operation':<28}{'Django':>10}{'held':>10}{'ratio':>8}")
        rows: list[tuple[str, float, float]] = []
        for name, op in (("get, a stamp", lambda c: c.get("stamp")),
                         ("get, a kept read (20 kB)", lambda c: c.get("read")),
                         ("set, a stamp", lambda c: c.set("stamp", "a1b2c3d4e5f6a7b8:1764222222", None))):
            got = []
            for cls in (Djangos, Ours):
                cache = cls(url, {})
                cache.set("stamp", "a1b2c3d4e5f6a7b8:1764222222", None)
                cache.set("read", read, None)
                got.append(_per_op(lambda cache=cache, op=op: op(cache), args.ops, args.rounds))
            rows.append((name, got[0], got[1]))
        for name, theirs, ours in rows:
            print(f"{name:<28}{theirs:>10.1f}{ours:>10.1f}{theirs / ours:>7.1f}x")


if __name__ == "__main__":
    main()
