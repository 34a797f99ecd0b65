"""The event's standings on a throwaway test database: 128 players, 8
qualifying rounds, a cut to a top 16 carrying half over 2 rounds, all played
(264 games), teams of 4. Each read next to ``Series.standings()`` (one
aggregate query over the same games) as the baseline, measured in the same
run, best of 9:

- ``event_standings`` (what the dashboard, public page, printout, projector,
  series page, standings.csv and Swiss seating read);
- ``stage_tables`` (the stages page, the cut), ``team_standings``,
  ``ema_export``.

The script uses only names older trees have too, so it can be run on the
commit before a change to compare the ratios:

    python tests/benchmarks/bench_event_standings.py [--players 128] [--rounds 8]
"""

from __future__ import annotations

import argparse
import os
import sys
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
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()

    from league import services
    from league.services import event
    from league.services import stages as st
    from league.services.stages import StagePlan
    from league.standings.event import event_standings
    from tests.benchmarks.events import new_event, roster, throwaway_database, timed

    def play(rnd: object) -> None:
        event.publish_round(round=rnd)
        for i, game in enumerate(event.start_round(round=rnd)):
            services.record_final_scores(game=game, scores=PATTERNS[(i + rnd.number) % len(PATTERNS)])

    with throwaway_database():
        series = new_event(args.rounds + 2)
        event.import_registrations(series=series, text=roster(args.players, teams=True))
        st.set_stages(series=series, plans=[
            StagePlan("Qualifying", 1, args.rounds),
            StagePlan("Top 16", args.rounds + 1, args.rounds + 2, entry="top", top=16, carry="half"),
        ])
        event.check_in(registrations=series.registrations.all())
        for rnd in event.seat_rounds(series=series).rounds:
            play(rnd)
        final = series.stages.get(number=2)
        try:
            st.cut_to_stage(stage=final)
        except services.ServiceError:  # level at the line after every rule: the lower numbers win the playoff
            table = st.stage_tables(series)[0]
            level = sorted((r.player for r in table.rows if r.player.name in table.cut_tie), key=lambda p: p.number)
            regs = {r.pk: r for r in series.registrations.all()}
            st.record_playoff(series=series, stage=table.stage, places=[(regs[p.id], i) for i, p in enumerate(level, 1)])
            st.cut_to_stage(stage=final)
        for _ in range(2):
            play(st.seat_stage_round(stage=final))

        n = args.repeat
        base_time, base_queries, _ = timed(series.standings, n)
        rows = [
            ("event_standings()", *timed(lambda: event_standings(series), n)),
            ("stage_tables()", *timed(lambda: st.stage_tables(series), n)),
            ("team_standings()", *timed(lambda: st.team_standings(series), n)),
            ("ema_export()", *timed(lambda: st.ema_export(series), n)),
        ]
        first = rows[0][3].standings.ranked[0]
        print(f"database: {connection.vendor}; {args.players} players, {args.rounds} qualifying rounds and a top 16 "
              f"over 2 rounds; first: {first.name} {first.total / 1000:+.1f}")
        print(f"Series.standings() (baseline): {base_time * 1000:7.1f} ms, {base_queries} query")
        for name, t, q, _result in rows:
            print(f"{name:<30} {t * 1000:7.1f} ms, {q:2d} queries   ratio {t / base_time:5.2f}x")


if __name__ == "__main__":
    main()
