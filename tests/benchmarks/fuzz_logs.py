"""The long fuzz run: damaged copies of every real Tenhou log through the reader
(``tenhou.import_log``) and, for the ones it accepts, through
``services.import_tenhou_log`` into a fresh test database, as the upload page
and ``import_logs`` do.

A damaged log may be read (imported, or refused by the service with a code) or
refused by the reader with a ``LogError`` code; anything else is a crash. The
report gives the mutations tried, the outcomes by code and every crash kind
(exception type and where it was raised) with the seed that reproduces it
(``--seed N --count 1`` replays one). Goal: 0 crashes.

    python tests/benchmarks/fuzz_logs.py [--count 50000] [--seed 0] [--no-store]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tenbou python tests/benchmarks/fuzz_logs.py
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from tests.tenhou.mutate import log_paths, mutate  # noqa: E402

TENHOU = REPO.parent / "shared" / "realdata" / "tenhou"


def crash_kind(err: BaseException) -> str:
    """The exception type and the innermost frame of our own code that raised it."""
    frames = [f for f in traceback.extract_tb(err.__traceback__) if str(REPO) in f.filename]
    where = f"{Path(frames[-1].filename).relative_to(REPO)}:{frames[-1].lineno}" if frames else "?"
    return f"{type(err).__name__} at {where}"


def run(
    paths: list[Path], count: int, seed: int, store: bool
) -> tuple[Counter[str], dict[str, tuple[int, str]], float]:
    from league import services, tenhou
    from league.models import Series
    from scoring.rules import get_ruleset

    originals = [p.read_bytes() for p in paths]
    outcomes: Counter[str] = Counter()
    crashes: dict[str, tuple[int, str]] = {}  # kind -> first seed, its message
    series: dict[str, Series] = {}
    t0 = time.perf_counter()
    for n in range(seed, seed + count):
        rng = random.Random(n)
        i = rng.randrange(len(paths))
        data = mutate(originals[i], rng)
        try:
            imported = tenhou.import_log(data, paths[i].name)
        except tenhou.LogError as err:
            outcomes[f"refused {err.code}"] += 1
            continue
        except Exception as err:  # noqa: BLE001 - counting crashes is the point
            outcomes["CRASH"] += 1
            crashes.setdefault(crash_kind(err), (n, str(err)[:100]))
            continue
        if not store:
            outcomes["read"] += 1
            continue
        spec = get_ruleset(imported.log.rules).to_spec()
        key = str(spec)
        if key not in series:
            series[key] = Series.objects.create(slug=f"fuzz-{len(series)}", name=key, rules=spec)
        try:
            done = services.import_tenhou_log(series=series[key], data=imported, filename=paths[i].name,
                                              force=rng.random() < 0.5)
        except services.ServiceError as err:
            outcomes[f"refused by the service {err.code}"] += 1
            continue
        except Exception as err:  # noqa: BLE001
            outcomes["CRASH"] += 1
            crashes.setdefault(crash_kind(err), (n, str(err)[:100]))
            continue
        outcomes["imported" if done.created else "already there"] += 1
    return outcomes, crashes, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50_000, help="mutations to try")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (mutation n uses seed + n)")
    parser.add_argument("--no-store", action="store_true", help="only read; do not store accepted logs")
    args = parser.parse_args()
    paths = log_paths(TENHOU)
    if not paths:
        sys.exit(f"no logs under {TENHOU}")
    sys.setrecursionlimit(1000)  # the default: a deep log must be refused under it, not need more

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        call_command("flush", interactive=False, verbosity=0)
        outcomes, crashes, elapsed = run(paths, args.count, args.seed, not args.no_store)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"database: {connection.vendor}; {len(paths)} real logs; seeds {args.seed}..{args.seed + args.count - 1}")
    print(f"mutations tried: {args.count:,} in {elapsed:.0f} s ({args.count / elapsed:,.0f}/s)")
    for what, n in sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {n:>7,}  {what}")
    print(f"crashes: {outcomes['CRASH']:,} of {len(crashes)} kinds")
    for kind, (first, message) in sorted(crashes.items()):
        print(f"  seed {first}: {kind}: {message}")


if __name__ == "__main__":
    main()
