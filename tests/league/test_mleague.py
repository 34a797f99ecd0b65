"""The seven real M-League games of ../shared/realdata, kept by end scores in an
``m-league`` series, give the published points and the standings they add up to."""

from __future__ import annotations

import csv
import datetime
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone

from league import services
from league.models import Player
from scoring.standings import rank_with_ties
from tests.factories import make_series

pytestmark = [pytest.mark.django_db, pytest.mark.realdata]

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO.parent / "shared" / "realdata" / "results" / "mleague_published_results.csv"
if not RESULTS.exists():
    pytest.skip(f"real data not found at {RESULTS}", allow_module_level=True)


def published_games() -> list[list[dict[str, str]]]:
    """Rows grouped by game (article and game of the day), in file order."""
    games: dict[tuple[str, str], list[dict[str, str]]] = {}
    with RESULTS.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            games.setdefault((row["source_url"], row["game_of_day"]), []).append(row)
    return list(games.values())


def name(row: dict[str, str], index: int) -> str:
    # The fan page's worked example names nobody: one placeholder per place.
    return row["player"] or f"Unnamed {index}.{row['rank']}"


def thousandths(points: str) -> int:
    return int(Decimal(points) * 1000)


def load_series():  # noqa: ANN201
    series = make_series("m-league", slug="m-league", name="M-League (published games)")
    for index, rows in enumerate(published_games(), start=1):
        players = [Player.objects.get_or_create(name=name(r, index), defaults={"club": r["team"]})[0] for r in rows]
        game = services.start_game(series=series, players=players, round_number=index)
        finished = None
        if rows[0]["date"][:4].isdigit():
            finished = timezone.make_aware(datetime.datetime.fromisoformat(rows[0]["date"]).replace(hour=23))
        services.record_final_scores(game=game, scores=[int(r["final_score"]) for r in rows], finished_at=finished)
    return series


def test_mleague_games_give_the_published_points() -> None:
    games = published_games()
    assert len(games) == 7
    series = load_series()
    for game, rows in zip(series.games.order_by("round_number"), games, strict=True):
        got = list(game.seats.order_by("seat").values_list("player__name", "end_score", "place", "points"))
        want = [(name(r, game.round_number), int(r["final_score"]), int(r["rank"]), thousandths(r["points"])) for r in rows]
        assert got == want


def test_mleague_standings_add_up_the_published_points() -> None:
    series = load_series()
    totals: dict[str, int] = defaultdict(int)
    games: dict[str, int] = defaultdict(int)
    for index, rows in enumerate(published_games(), start=1):
        for r in rows:
            totals[name(r, index)] += thousandths(r["points"])
            games[name(r, index)] += 1
    want = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    standings = series.standings()
    assert [(r.name, r.total, r.games) for r in standings.ranked] == [(n, t, games[n]) for n, t in want]
    assert [r.rank for r in standings.ranked] == rank_with_ties([t for _, t in want])
    top = standings.ranked[0]
    # 瀬戸熊直樹: +79.9, +77.4 and -43.6 over three games
    assert (top.name, top.total, top.games, top.places) == ("瀬戸熊直樹", 113700, 3, (2, 0, 0, 1))


def test_mleague_standings_as_of_a_date() -> None:
    series = load_series()
    # Only the 2018 game is dated that early; undated games finish when entered.
    early = series.standings(through_date=datetime.date(2018, 12, 31))
    assert [(r.name, r.total) for r in early.ranked] == [
        ("園田賢", 62900), ("小林剛", 18400), ("萩原聖人", -23300), ("魚谷侑未", -58000)
    ]
