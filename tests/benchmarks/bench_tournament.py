"""An event of 200 players over 10 rounds on a throwaway test database:

- starting a round of 50 tables (``start_round``: checks, 50 games, the
  clock) next to 50 bare ``services.start_game`` calls for the same seats;
- the event standings (``event_standings``: registrations, substitutes' rule)
  next to ``Series.standings()`` over the same 2,000 finished games.

Ratios are measured in the same run.

    python tests/benchmarks/bench_tournament.py [--players 200] [--rounds 10]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

END_SCORES = [45000, 35000, 25000, 15000]  # EMA: 30,000 each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()

    from league import services
    from league.models import Game, Round
    from league.services import event
    from league.standings.event import event_standings
    from tests.benchmarks.events import new_event, roster, throwaway_database, timed
    from tests.factories import make_series

    with throwaway_database():
        series = new_event(args.rounds)
        text = roster(args.players)
        t0 = time.perf_counter()
        event.import_registrations(series=series, text=text)
        imported = time.perf_counter() - t0
        t0 = time.perf_counter()
        report = event.seat_rounds(series=series)
        seated = time.perf_counter() - t0
        event.check_in(registrations=series.registrations.all())

        starts, bare = [], []
        for rnd in report.rounds:
            event.publish_round(round=rnd)
            t0 = time.perf_counter()
            games = event.start_round(round=Round.objects.get(pk=rnd.pk))
            starts.append(time.perf_counter() - t0)
            # The baseline: the same seats started one game at a time, no event checks
            # (a second series, so nobody is in two unfinished games), then dropped.
            other = make_series("ema-2016", name=f"Baseline {rnd.number}")
            seats = [[s.player for s in g.seats.select_related("player").order_by("seat")] for g in games]
            t0 = time.perf_counter()
            plain = [services.start_game(series=other, players=players, round_number=rnd.number, table=g.table)
                     for g, players in zip(games, seats, strict=True)]
            bare.append(time.perf_counter() - t0)
            for g in plain:
                services.record_final_scores(game=g, scores=END_SCORES)
            for g in games:
                services.record_final_scores(game=g, scores=END_SCORES)

        ev_time, ev_queries, ev = timed(lambda: event_standings(series))
        st_time, st_queries, st = timed(series.standings)
        assert [r.total for r in ev.standings.ranked] == [r.total for r in st.ranked]  # same totals, same order
        games = Game.objects.filter(series=series).count()
        print(f"database: {connection.vendor}; {args.players} players x {args.rounds} rounds = {games:,} games")
        print(f"import {args.players} registrations: {imported * 1000:.0f} ms; seat {args.rounds} rounds: "
              f"{seated:.2f} s ({report.quality.repeat_count} repeats, wind spread {report.quality.wind_spread})")
        best_start, best_bare = min(starts), min(bare)
        print(f"start_round ({args.players // 4} tables): {best_start * 1000:7.1f} ms (best of {len(starts)})")
        print(f"bare start_game x {args.players // 4}:   {best_bare * 1000:7.1f} ms   ratio {best_start / best_bare:.2f}x")
        print(f"event_standings():  {ev_time * 1000:7.1f} ms, {ev_queries} queries")
        print(f"Series.standings(): {st_time * 1000:7.1f} ms, {st_queries} query   ratio {ev_time / st_time:.2f}x")


if __name__ == "__main__":
    main()
