"""Import every real Tenhou log in ../shared/realdata into a fresh test
database, through ``services.import_tenhou_log`` as the command does (read,
check against the engine, store, replay, settle), and report hands per second.

Each log goes to a series of its rules (hanchan, east-only, no red fives);
logs that are refused (fragments, three players, special lobbies that differ)
are counted apart, and the time spent refusing them is in the total.

    python tests/benchmarks/bench_import_logs.py [--repeat 3]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tenbou python tests/benchmarks/bench_import_logs.py
"""

from __future__ import annotations

import argparse
import os
import sys
import time
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

TENHOU = REPO.parent / "shared" / "realdata" / "tenhou"


def run_once(paths: list[Path]) -> tuple[float, Counter[str], int, int]:
    """Import everything into empty tables; seconds, outcomes, hands and games stored."""
    from league import services, tenhou
    from league.models import Game, Hand, Player, Series
    from scoring.rules import get_ruleset

    series: dict[str, Series] = {}
    outcomes: Counter[str] = Counter()
    t0 = time.perf_counter()
    for path in paths:
        data = path.read_bytes()
        try:
            imported = tenhou.import_log(data, path.name)
        except tenhou.LogError as err:
            outcomes[f"refused ({err.code})"] += 1
            continue
        spec = str(get_ruleset(imported.log.rules).to_spec())
        if spec not in series:
            series[spec] = Series.objects.create(slug=f"bench-{len(series)}", name=spec,
                                                 rules=get_ruleset(imported.log.rules).to_spec())
        try:
            done = services.import_tenhou_log(series=series[spec], data=imported, filename=path.name)
        except services.LogRefused as err:
            outcomes[f"refused ({err.code})"] += 1
            continue
        outcomes["imported" if done.created else "already there"] += 1
    elapsed = time.perf_counter() - t0
    hands, games = Hand.objects.count(), Game.objects.count()
    assert Player.objects.exists()
    return elapsed, outcomes, hands, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs, each on a fresh database; the best is shown")
    args = parser.parse_args()
    paths = sorted(p for p in TENHOU.rglob("*") if p.is_file())
    if not paths:
        sys.exit(f"no logs under {TENHOU}")

    setup_test_environment()
    best = None
    for _ in range(args.repeat):
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            # SQLite's in-memory test database can outlive destroy_test_db; start empty.
            call_command("flush", interactive=False, verbosity=0)
            result = run_once(paths)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        if best is None or result[0] < best[0]:
            best = result
    assert best is not None
    elapsed, outcomes, hands, games = best
    print(f"database: {connection.vendor}; {len(paths)} files, best of {args.repeat} runs on a fresh database")
    print("outcomes: " + ", ".join(f"{n} {what}" for what, n in sorted(outcomes.items())))
    print(f"stored: {games} games, {hands} hands in {elapsed:.2f} s")
    print(f"{hands / elapsed:,.0f} hands/s, {games / elapsed:,.1f} games/s (refused files included in the time)")


if __name__ == "__main__":
    main()
