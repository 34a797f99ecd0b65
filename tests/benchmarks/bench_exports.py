"""CSV exports and game-record import on a generated series of 10,000 games,
measured in one run on a throwaway test database:

- time and peak Python memory (tracemalloc) of each CSV export, streamed to a
  sink, next to a plain ``csv.writer`` loop over the same query;
- peak memory of the same exports over a tenth of the games, to show it
  stays flat as the series grows;
- import speed of ``import_games`` (through the services) in games per second.

    python tests/benchmarks/bench_exports.py [--games 10000] [--import-games 300]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tenbou python tests/benchmarks/bench_exports.py

The games are built fast: a few hundred distinct random hanchan are replayed
through ``scoring`` once, then written in bulk (with their result snapshots)
as many times as needed, under shuffled players, with the per-hand results the
services store. Real games go through the services; the import
measurement does.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django  # noqa: E402

django.setup()

from django.core.management.color import no_style  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from league import exports, game_records  # noqa: E402
from league.management.commands.demo_league import random_hand  # noqa: E402
from league.models import Game, Hand, Seat, Series, Win  # noqa: E402
from league.services.replay import hand_result  # noqa: E402
from scoring import game as sg  # noqa: E402
from scoring.errors import ScoringError  # noqa: E402
from scoring.rules import Ruleset  # noqa: E402

CHUNK = exports.CHUNK_SIZE


class Sink:
    """Counts what is written, keeps nothing: the cost of the export alone."""

    def __init__(self) -> None:
        self.bytes = 0

    def write(self, text: str) -> int:
        self.bytes += len(text)
        return len(text)


def random_game(rng: random.Random, rules: Ruleset) -> tuple[list[sg.HandInput], sg.GameResult]:
    hands: list[sg.HandInput] = []
    state = sg.replay(sg.GameRecord(rules))
    while not state.finished:
        for _ in range(50):
            hand = random_hand(rng, state)
            try:
                state = sg.replay(sg.GameRecord(rules, tuple([*hands, hand])))
            except ScoringError:
                continue
            hands.append(hand)
            break
    return hands, state


def build(series: Series, players: list[Any], n: int, *, seed: int = 7, distinct: int = 300) -> int:
    """``n`` finished games hand by hand, in bulk; returns the number of hands.

    Hands and wins go in by ``executemany`` with explicit ids: ``bulk_create``
    spends most of a minute preparing 100,000 rows of JSON fields.
    """
    rng = random.Random(seed)
    rules = series.ruleset()
    spec = rules.to_spec()
    templates = []
    for _ in range(distinct):
        hands, result = random_game(rng, rules)
        rows = []
        for number, hand in enumerate(hands, start=1):
            row = Hand(number=number)
            wins = row.set_input(hand)
            rows.append((
                (number, row.outcome, row.loser, json.dumps(row.riichi), json.dumps(row.tenpai),
                 json.dumps(row.nagashi), row.abort_reason, row.chombo_offender, row.note,
                 json.dumps(hand_result(result.hands[number - 1]))),
                [(w.order, w.winner, w.han, w.fu, w.yakuman, w.pao) for w in wins],
            ))
        templates.append((rows, result.settlement))
    now = timezone.now()
    hand_id = (Hand.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    win_id = (Win.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    total_hands = 0
    for start in range(0, n, 1000):
        games = Game.objects.bulk_create(
            Game(series=series, round_number=1 + i // 16, table=str(i % 16 + 1), rules=spec,
                 status=Game.Status.FINISHED, started_at=now, finished_at=now)
            for i in range(start, min(n, start + 1000))
        )
        seats, hand_rows, win_rows = [], [], []
        for game in games:
            rows, s = templates[rng.randrange(distinct)]
            for seat, player in enumerate(rng.sample(players, 4)):
                seats.append(Seat(game=game, seat=seat, player=player, end_score=s.final_scores[seat],
                                  place=s.places[seat], points=s.points[seat]))
            for hand, wins in rows:
                hand_rows.append((hand_id, game.pk, *hand, now, now))
                win_rows.extend((win_id + i, hand_id, *w) for i, w in enumerate(wins))
                win_id += len(wins)
                hand_id += 1
        Seat.objects.bulk_create(seats, batch_size=4000)
        _insert(Hand, ["id", "game_id", "number", "outcome", "loser", "riichi", "tenpai", "nagashi", "abort_reason",
                       "chombo_offender", "note", "result", "entered_at", "updated_at"], hand_rows)
        _insert(Win, ["id", "hand_id", "order", "winner", "han", "fu", "yakuman", "pao"], win_rows)
        total_hands += len(hand_rows)
    # Explicit ids leave PostgreSQL's sequences behind; the import needs them right.
    with connection.cursor() as cur:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Hand, Win]):
            cur.execute(sql)
    return total_hands


def _insert(model: Any, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(c) for c in columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    with connection.cursor() as cur:
        cur.executemany(sql, rows)


def measure(fn: Callable[[], int], repeat: int) -> tuple[float, int, int]:
    """Best time of ``repeat`` runs, then the tracemalloc peak of one more."""
    times, rows = [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        rows = fn()
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return min(times), peak, rows


def ours(rows: Iterable[Any]) -> Callable[[], int]:
    def run() -> int:
        sink = Sink()
        n = 0
        for chunk in exports.csv_chunks(rows() if callable(rows) else rows):
            sink.write(chunk)
            n += chunk.count("\r\n")  # a chunk holds many lines (no note here spans lines)
        return n

    return run


def plain_games(games: Any) -> Callable[[], int]:
    """csv.writer over the same seat query, numbers as the database has them."""
    def run() -> int:
        writer = csv.writer(Sink())
        qs = (
            Seat.objects.filter(game__in=games.values("pk"))
            .order_by("game__round_number", "game__table", "game_id", "seat")
            .values_list("game_id", "game__round_number", "game__table", "game__status", "seat", "player__name",
                         "end_score", "place", "points")
        )
        n = 0
        writer.writerow(exports.GAMES_HEADER)
        for row in qs.iterator(chunk_size=4 * CHUNK):
            writer.writerow(row)
            n += 1
        return n + 1

    return run


def plain_hands(games: Any) -> Callable[[], int]:
    """csv.writer over the stored hands, their wins and their stored results: the same rows, no care taken."""
    def run() -> int:
        writer = csv.writer(Sink())
        qs = (
            Win.objects.filter(hand__game__in=games.values("pk"))
            .order_by("hand__game__round_number", "hand__game__table", "hand__game_id", "hand__number", "order")
            .values_list("hand__game_id", "hand__number", "hand__outcome", "winner", "hand__loser", "han", "fu",
                         "yakuman", "hand__riichi", "hand__note", "hand__result")
        )
        n = 0
        writer.writerow(exports.HANDS_HEADER)
        for row in qs.iterator(chunk_size=4 * CHUNK):
            writer.writerow(row)
            n += 1
        return n + 1

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--import-games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from tests.factories import make_players, make_series

    setup_test_environment(debug=False)
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        t0 = time.perf_counter()
        series = make_series(name="Benchmark", slug="bench")
        players = make_players(args.players)
        hands = build(series, players, args.games)
        print(f"database: {connection.vendor}; {args.games:,} games, {4 * args.games:,} seats, {hands:,} hands, "
              f"{args.players} players (built in {time.perf_counter() - t0:.1f} s)")

        games = exports.series_games(series)
        tenth = games.filter(round_number__lte=(args.games // 10 + 15) // 16)
        cases = [
            ("standings", lambda g: ours(lambda: exports.standings_rows(series)), None),
            ("games", lambda g: ours(lambda: exports.game_rows(g)), plain_games),
            ("hands", lambda g: ours(lambda: exports.hand_rows(g)), plain_hands),
        ]
        print(f"{'export':<10} {'rows':>8} {'time':>9} {'peak':>9} {'peak/10':>9} | "
              f"{'plain csv.writer':>16} {'peak':>9}")
        for name, make, plain in cases:
            t, peak, rows = measure(make(games), args.repeat)
            _, small_peak, _ = measure(make(tenth), 1)
            line = f"{name:<10} {rows:>8,} {t:>8.2f}s {peak / 2**20:>7.1f}MB {small_peak / 2**20:>7.1f}MB | "
            if plain is not None:
                pt, ppeak, _ = measure(plain(games), args.repeat)
                line += f"{pt:>15.2f}s {ppeak / 2**20:>7.1f}MB  ({t / pt:.1f}x the time)"
            else:
                line += f"{'(one aggregate query; no plain loop)':>16}"
            print(line)
        # The same hands CSV as before results were stored: every game replayed.
        Hand.objects.filter(game__series=series).update(result=None)
        t, _, rows = measure(ours(lambda: exports.hand_rows(games)), 1)
        pt, _, _ = measure(plain_hands(games), 1)
        print(f"{'hands, replayed (before stored results)':<40} {rows:>8,} {t:>8.2f}s | plain {pt:.2f}s "
              f"({t / pt:.1f}x the time)")

        # Import: export some games, import them into a fresh series through the services.
        sample = games.filter(round_number__lte=(args.import_games + 15) // 16)
        text = list(game_records.export_lines(sample))[: args.import_games]
        t0 = time.perf_counter()
        report = game_records.import_lines(text, slug="bench-import")
        took = time.perf_counter() - t0
        print(f"import_games: {report.games} games, {report.hands:,} hands in {took:.1f} s = "
              f"{report.games / took:.0f} games/s ({report.hands / took:.0f} hands/s), checked first, written in chunks")
        assert list(game_records.export_lines(exports.series_games(report.series))) == text
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
