"""PostgreSQL's plans for what every save, replay and page reads: ``EXPLAIN
(ANALYZE)`` of ``Game.record()``'s queries and of the public pages' queries
on a series of 10,000 finished games played hand by hand.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tenbou python tests/benchmarks/explain_record.py [--keep]

Builds the games in a throwaway test database (``test_<name>``) with the
bulk builder of ``bench_exports.py``, plus one game played through the
services with a penalty. ``--keep`` keeps that database and reuses it on the
next run (migrations are applied to it first), so the plans before and after
a schema change are taken over the same rows.

Each query is printed with its plan, then a summary line per query: the
nodes that matter (sorts, joins, sequential scans) and the execution time.
The baseline is ``SELECT 1`` explained in the same run.
"""

from __future__ import annotations

import argparse
import os
import re
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

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

SLUG = "explain"
# A plan line is a node when it carries its cost: "->  Index Scan using ... on league_win  (cost=...".
NODE = re.compile(r"^\s*(?:->\s+)?(.+?)\s+\(cost=")


def build(games: int) -> None:
    from league import services
    from league.models import Series
    from tests.benchmarks.bench_exports import build as bulk_hands
    from tests.factories import hanchan_passing_deal, make_game, make_players, make_series, play

    started = time.perf_counter()
    series = make_series(name="Explain", slug=SLUG, min_games=10)
    players = make_players(64)
    game = make_game(series, players[:4], round_number=1, table="0")
    play(game, hanchan_passing_deal())
    services.add_penalty(game=game, seat=2, points=-20000, reason="late arrival")
    hands = bulk_hands(series, players, games - 1)
    Series.objects.filter(pk=series.pk).update(version=series.version + 1)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    print(f"built {games:,} games, {hands:,} bulk hands in {time.perf_counter() - started:.0f} s")


def selects(fn: Callable[[], Any]) -> list[str]:
    """The SELECTs ``fn`` runs, in order, each once."""
    with CaptureQueriesContext(connection) as ctx:
        fn()
    seen: dict[str, None] = {}
    for q in ctx.captured_queries:
        if q["sql"].lstrip().upper().startswith("SELECT"):
            seen.setdefault(q["sql"], None)
    return list(seen)


def explain(sql: str) -> tuple[list[str], float]:
    with connection.cursor() as cur:
        cur.execute("EXPLAIN (ANALYZE, BUFFERS OFF) " + sql)
        lines = [r[0] for r in cur.fetchall()]
    ms = next(float(m.group(1)) for line in lines if (m := re.search(r"Execution Time: ([\d.]+) ms", line)))
    return lines, ms


def report(title: str, fn: Callable[[], Any], summary: list[str]) -> None:
    print(f"\n===== {title}")
    for i, sql in enumerate(selects(fn), start=1):
        lines, ms = explain(sql)
        shown = sql if len(sql) < 1500 else sql[:1500] + " ..."
        print(f"\n--- {title} query {i}: {shown}")
        print("\n".join(lines))
        nodes = [m.group(1) for line in lines if (m := NODE.match(line))]
        summary.append(f"{title} q{i}: {ms:8.3f} ms  " + " / ".join(nodes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--keep", action="store_true", help="keep the database and reuse it on the next run")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("explain_record.py reads PostgreSQL's plans: set DATABASE_URL=postgres://...")

    from league import stats
    from league.models import Game, Seat, Series

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=args.keep)
    try:
        if not Series.objects.filter(slug=SLUG).exists():
            build(args.games)
        series = Series.objects.get(slug=SLUG)
        played = Game.objects.filter(series=series).order_by("pk").first()
        bulk = Game.objects.filter(series=series).order_by("pk")[args.games // 2]
        player = Seat.objects.filter(game=bulk).order_by("seat").first().player
        print(f"database: {connection.vendor} {connection.pg_version}; {Game.objects.count():,} games; "
              f"game {played.pk} played through the services, game {bulk.pk} written in bulk")

        summary: list[str] = []
        report("baseline SELECT 1", lambda: connection.cursor().execute("SELECT 1"), summary)
        for game in (played, bulk):
            report(f"Game.record() of game {game.pk}", Game.objects.get(pk=game.pk).record, summary)
        report(f"replay prefetches of game {bulk.pk}", lambda: (
            Game.objects.prefetch_related(*stats.replay_prefetches()).get(pk=bulk.pk).replay()), summary)

        client = Client()
        pages = {
            "series page": f"/series/{SLUG}/",
            "game page": f"/games/{bulk.pk}/",
            "player page": f"/series/{SLUG}/players/{player.pk}/",
        }
        for name, url in pages.items():
            def get(url: str = url) -> None:
                cache.clear()  # every page read from the database, not the page cache
                assert client.get(url).status_code == 200, url
            report(name, get, summary)

        print("\n===== summary: execution time and plan nodes per query")
        print("\n".join(summary))
    finally:
        if not args.keep:
            connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
