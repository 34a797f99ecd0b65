"""Ratings on a generated club of 10,000 finished games: the whole history
recomputed by each engine, next to a plain loop over the same rows, measured
in the same run on a throwaway test database.

    python tests/benchmarks/bench_ratings.py [--games 10000] [--players 64] [--repeat 3]

- baseline: the same seat rows read by the same query, and a plain Python loop
  that counts each player's games and sums their places (no engine);
- tenhou, skill: ``league.standings.ratings.compute`` for a Tenhou-R and a
  Plackett-Luce rating of the club: the read, the engine, the table;
- mers: the EMA ranking over the same games cut into events of 200 games
  (each event's places from its totals), against a plain loop over those
  events' rows.
Times are the fastest of ``--repeat`` runs; ratios are against the baseline.
"""

from __future__ import annotations

import argparse
import datetime
import os
import pickle
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
from django.test.utils import setup_test_environment  # noqa: E402


def best_of(n: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(n):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--event-size", type=int, default=200)
    args = parser.parse_args()

    from league.models import Rating, Seat, counting
    from league.ratings import EventPlace, EventResult
    from league.ratings.mers import mers_ranking
    from league.standings.ratings import compute, rating_games
    from tests.factories import bulk_finished_games, make_players, make_series

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        series = make_series(name="Benchmark club")
        bulk_finished_games(series, make_players(args.players), args.games)
        ids = [series.pk]

        def rows() -> list[tuple[Any, ...]]:
            return list(Seat.objects.filter(counting(prefix="game__"), game__series_id__in=ids)
                        .order_by("game__finished_at", "game_id", "seat")
                        .values_list("game_id", "game__series_id", "game__finished_at", "player_id", "place"))

        def baseline() -> dict[int, tuple[int, int]]:
            out: dict[int, tuple[int, int]] = {}
            for _game, _series, _at, player, place in rows():
                games, places = out.get(player, (0, 0))
                out[player] = (games + 1, places + place)
            return out

        ratings = {engine: Rating.objects.create(name=engine, slug=f"bench-{engine}", engine=engine)
                   for engine in ("tenhou", "skill")}
        for r in ratings.values():
            r.series.set([series])
            r.refresh_from_db()

        # The EMA ranking: the club's games cut into events of --event-size games, placed by total points.
        seats = list(Seat.objects.filter(game__series=series).order_by("game_id", "seat")
                     .values_list("game_id", "player_id", "points"))
        first_game = seats[0][0]
        by_event: dict[int, dict[int, int]] = {}
        for game_id, player, points in seats:
            totals = by_event.setdefault((game_id - first_game) // args.event_size, {})
            totals[player] = totals.get(player, 0) + points
        day0 = datetime.date(2024, 1, 6)
        events = []
        for k, totals in sorted(by_event.items()):
            order = sorted(totals.items(), key=lambda pt: -pt[1])
            places = [EventPlace(p, 1 + next(i for i, (_, t) in enumerate(order) if t == total))
                      for p, total in order]
            events.append(EventResult(f"Event {k + 1}", day0 + datetime.timedelta(days=7 * k), len(places),
                                      2, 3, False, tuple(places)))

        def events_loop() -> dict[int, int]:
            out: dict[int, int] = {}
            for e in events:
                for p in e.places:
                    out[p.player] = out.get(p.player, 0) + p.place
            return out

        load = os.getloadavg()
        base_time, base = best_of(args.repeat, baseline)
        read_time, games = best_of(args.repeat, lambda: rating_games(ids))
        tenhou_time, tenhou = best_of(args.repeat, lambda: compute(ratings["tenhou"], ids))
        skill_time, skill = best_of(args.repeat, lambda: compute(ratings["skill"], ids))
        loop_time, _ = best_of(args.repeat, events_loop)
        mers_time, mers = best_of(args.repeat, lambda: mers_ranking(events))
        assert len(games) == args.games and sum(g for g, _ in base.values()) == 4 * args.games
        assert sum(r.results for r in tenhou[0].rows) == 4 * args.games == sum(r.results for r in skill[0].rows)
        load_after = os.getloadavg()

        print(f"database: {connection.vendor}; {args.games:,} games, {4 * args.games:,} seats, {args.players} players; "
              f"{len(events)} events of {args.event_size} games for the EMA ranking")
        print(f"load average before {load[0]:.2f} {load[1]:.2f}, after {load_after[0]:.2f} {load_after[1]:.2f} "
              f"({os.cpu_count()} CPUs)")
        print(f"{'':34} {'seconds':>9} {'x baseline':>11}")
        print(f"{'baseline: read + plain loop':34} {base_time:9.3f} {1:11.2f}")
        print(f"{'read into GameResults':34} {read_time:9.3f} {read_time / base_time:11.2f}")
        print(f"{'Tenhou R (read + engine + table)':34} {tenhou_time:9.3f} {tenhou_time / base_time:11.2f}")
        print(f"{'Plackett-Luce (read + engine)':34} {skill_time:9.3f} {skill_time / base_time:11.2f}")
        print(f"{'events: plain loop':34} {loop_time:9.4f} {1:11.2f}")
        print(f"{'EMA ranking (engine)':34} {mers_time:9.3f} {mers_time / loop_time:11.1f}")
        for name, (table, steps) in (("Tenhou R", tenhou), ("Plackett-Luce", skill)):
            sizes = [len(pickle.dumps(v)) for v in steps.values()]
            print(f"cached {name}: table {len(pickle.dumps(table)):,} bytes; steps {sum(sizes):,} bytes in "
                  f"{len(sizes)} entries, the largest {max(sizes):,}")
        print(f"per game: Tenhou R {1e6 * tenhou_time / args.games:.0f} us, "
              f"Plackett-Luce {1e6 * skill_time / args.games:.0f} us; "
              f"EMA ranking {1e3 * mers_time / len(events):.1f} ms per event; "
              f"steps {len(mers.steps):,}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
