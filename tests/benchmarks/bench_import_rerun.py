"""What re-runnable ``import_games`` costs (issue 29): every line is compared
with the series' own export lines before anything is written.

In one run, on a fresh test database: a file of N games (8 hands each)
imported into a new series (the baseline: nothing to compare), the same file
again (every game skipped), and N other games into the series now holding N
(each compared, none skipped), with the comparison (``game_records.skip_imported``)
timed alone.

    python tests/benchmarks/bench_import_rerun.py [--games 200] [--repeat 3]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tenbou python tests/benchmarks/bench_import_rerun.py
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

NAMES = [f"Player {i:02d}" for i in range(16)]


def lines(n: int, day: int) -> list[str]:
    from scoring.game import hand_to_dict
    from tests.factories import hanchan_passing_deal

    hands = [hand_to_dict(h) for h in hanchan_passing_deal()]
    start = datetime.datetime(2026, 1, day, 19, tzinfo=datetime.UTC)
    return [json.dumps({
        "round": 1 + i // 4, "table": str(i % 4 + 1), "players": [NAMES[(i + 4 * k) % 16] for k in range(4)],
        "started_at": (start + datetime.timedelta(minutes=i)).isoformat(), "rules": "ari-ari", "hands": hands,
    }) for i in range(n)]


def run_once(n: int) -> dict[str, float]:
    from league import game_records
    from league.models import Series

    first, other = lines(n, 1), lines(n, 2)
    t = {}
    t0 = time.perf_counter()
    report = game_records.import_lines(first, slug="bench")
    t["fresh import"] = time.perf_counter() - t0
    assert report.games == n
    t0 = time.perf_counter()
    report = game_records.import_lines(first, slug="bench")
    t["same file again (all skipped)"] = time.perf_counter() - t0
    assert report.games == 0 and len(report.already) == n
    series = Series.objects.get(slug="bench")
    parsed = game_records.check_lines(other, slug="bench")[0]
    t0 = time.perf_counter()
    todo, already = game_records.skip_imported(parsed, series)
    t["comparison alone (N held, N new)"] = time.perf_counter() - t0
    assert len(todo) == n and not already
    t0 = time.perf_counter()
    report = game_records.import_lines(other, slug="bench")
    t["N new games into a series of N"] = time.perf_counter() - t0
    assert report.games == n
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="runs, each on a fresh database; the best of each")
    args = parser.parse_args()
    setup_test_environment()
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            call_command("flush", interactive=False, verbosity=0)
            for what, seconds in run_once(args.games).items():
                best[what] = min(seconds, best.get(what, seconds))
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
    base = best["fresh import"]
    print(f"database: {connection.vendor}; N = {args.games} games of 8 hands; best of {args.repeat} fresh databases")
    for what, seconds in best.items():
        print(f"  {what:<36} {seconds:8.3f} s  {seconds / base:6.1%} of the fresh import")


if __name__ == "__main__":
    main()
