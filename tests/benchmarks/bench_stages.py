"""Stages on a throwaway test database: an event of 128 players over 8
qualifying rounds (256 games), teams of 4, a cut to a top 16:

- every stage's standings with tie-breaks and the cut line (``stage_tables``)
  next to the flat event standings (``event_standings``) over the same games;
- the team standings and the EMA export next to the same baseline.

Scores repeat by table, so many players are level on points and the
tie-breaks do real work. Ratios are measured in the same run.

    python tests/benchmarks/bench_stages.py [--players 128] [--rounds 8]
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

PATTERNS = [[45000, 35000, 25000, 15000], [38000, 32000, 17000, 33000], [30000, 30000, 30000, 30000],
            [52000, 28000, 21000, 19000]]  # EMA: 30,000 each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()

    from league import services
    from league.services import event
    from league.services import stages as st
    from league.services.stages import StagePlan
    from league.standings.event import event_standings
    from tests.benchmarks.events import new_event, roster, throwaway_database, timed

    with throwaway_database():
        series = new_event(args.rounds)
        event.import_registrations(series=series, text=roster(args.players, teams=True))
        st.set_stages(series=series, plans=[
            StagePlan("Qualifying", 1, args.rounds),
            StagePlan("Top 16", args.rounds + 1, args.rounds + 2, entry="top", top=16, carry="half"),
        ])
        event.check_in(registrations=series.registrations.all())
        t0 = time.perf_counter()
        report = event.seat_rounds(series=series)
        seated = time.perf_counter() - t0
        for rnd in report.rounds:
            event.publish_round(round=rnd)
            for i, game in enumerate(event.start_round(round=rnd)):
                services.record_final_scores(game=game, scores=PATTERNS[(i + rnd.number) % len(PATTERNS)])

        base_time, base_queries, base = timed(lambda: event_standings(series))
        stage_time, stage_queries, tables = timed(lambda: st.stage_tables(series))
        team_time, team_queries, teams = timed(lambda: st.team_standings(series))
        ema_time, ema_queries, export = timed(lambda: st.ema_export(series))
        level = sum(1 for r in tables[0].rows if r.separated_by not in (None, "points"))
        shared = sum(1 for r in tables[0].rows if r.tied)
        print(f"database: {connection.vendor}; {args.players} players x {args.rounds} rounds; "
              f"seated in {seated:.2f} s with teams apart ({report.quality.teammates_together} teammates together)")
        print(f"qualifying: {level} rows placed by a tie-break, {shared} level after every rule; "
              f"the cut drawn by {tables[0].cut_rule or 'points'}")
        print(f"event_standings() (baseline): {base_time * 1000:7.1f} ms, {base_queries} queries")
        print(f"stage_tables():               {stage_time * 1000:7.1f} ms, {stage_queries} queries   "
              f"ratio {stage_time / base_time:.2f}x")
        print(f"team_standings():             {team_time * 1000:7.1f} ms, {team_queries} queries   "
              f"ratio {team_time / base_time:.2f}x ({len(teams)} teams)")
        print(f"ema_export():                 {ema_time * 1000:7.1f} ms, {ema_queries} queries   "
              f"ratio {ema_time / base_time:.2f}x ({len(export.players)} players)")
        assert len(base.standings.ranked) == len(tables[0].rows) == args.players


if __name__ == "__main__":
    main()
