"""Standings on a generated series of 10,000 finished games: time and query
count of ``Series.standings()`` next to a raw SQL aggregate over the same rows,
measured in the same run on a throwaway test database.

    python tests/benchmarks/bench_standings.py [--games 10000] [--players 64]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tenbou python tests/benchmarks/bench_standings.py
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

RAW = """
    SELECT s.player_id, p.name, COUNT(*), SUM(s.points), SUM(s.place), SUM(s.end_score), MAX(s.points), MIN(s.points),
           SUM(CASE WHEN s.place = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN s.place = 2 THEN 1 ELSE 0 END),
           SUM(CASE WHEN s.place = 3 THEN 1 ELSE 0 END), SUM(CASE WHEN s.place = 4 THEN 1 ELSE 0 END)
    FROM league_seat s JOIN league_game g ON g.id = s.game_id JOIN league_player p ON p.id = s.player_id
    WHERE g.series_id = %s AND g.status = 'finished'
    GROUP BY s.player_id, p.name
    ORDER BY SUM(s.points) DESC
"""


def best_of(n: int, fn: Callable[[], Any]) -> tuple[float, int, Any]:
    """Fastest of ``n`` runs in seconds, with the queries of the last one."""
    times, result, queries = [], None, 0
    for _ in range(n):
        with CaptureQueriesContext(connection) as ctx:
            t0 = time.perf_counter()
            result = fn()
            times.append(time.perf_counter() - t0)
        queries = len(ctx)
    return min(times), queries, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from tests.factories import bulk_finished_games, make_players, make_series

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        t0 = time.perf_counter()
        series = make_series(name="Benchmark")
        bulk_finished_games(series, make_players(args.players), args.games)
        built = time.perf_counter() - t0

        def raw() -> list[tuple[Any, ...]]:
            with connection.cursor() as cur:
                cur.execute(RAW, [series.pk])
                return cur.fetchall()

        orm_time, orm_queries, standings = best_of(args.repeat, series.standings)
        raw_time, raw_queries, rows = best_of(args.repeat, raw)
        assert len(rows) == len(standings.ranked) + len(standings.unranked)
        assert [r[3] for r in rows] == [r.total for r in standings.ranked]  # same totals, same order

        print(f"database: {connection.vendor}; {args.games:,} games, {4 * args.games:,} seats, "
              f"{args.players} players (built in {built:.1f} s)")
        print(f"Series.standings(): {orm_time * 1000:7.1f} ms, {orm_queries} query, ranks and rows included")
        print(f"raw SQL aggregate:  {raw_time * 1000:7.1f} ms, {raw_queries} query")
        print(f"ratio: {orm_time / raw_time:.2f}x")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
