"""Settlement against published results nobody here wrote (../shared/realdata)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from scoring.rules import get_ruleset
from scoring.settlement import settle
from tests.realdata import read_csv, require_realdata, thousandths

require_realdata()

TENHOU_ROWS = [row for row in read_csv("results/tenhou_owari_results.csv") if row["check"] == "reproduced"]
OLD_UMA = [10000, 5000, -5000, -10000]


def test_all_125_standard_tenhou_games_are_covered():
    assert len(TENHOU_ROWS) == 125
    assert sum(row["uma"] == "uma +10/+5/-5/-10" for row in TENHOU_ROWS) == 6


@pytest.mark.parametrize("row", TENHOU_ROWS, ids=[row["log_id"] for row in TENHOU_ROWS])
def test_tenhou_owari_points_are_reproduced(row):
    rules = get_ruleset("tenhou")
    if row["uma"] == "uma +10/+5/-5/-10":
        rules = get_ruleset({"preset": "tenhou", "overrides": {"uma": OLD_UMA}})
    scores = [int(row[f"final_score_{i}"]) for i in range(4)]
    # The owari scores already include the leftover sticks given to first.
    result = settle(rules, scores, riichi_sticks=0)
    assert list(result.points) == [thousandths(row[f"points_{i}"]) for i in range(4)]
    assert list(result.places) == [int(row[f"rank_{i}"]) for i in range(4)]


def _mleague_games():
    # One game per article (two rows of the file have no date).
    games = defaultdict(list)
    for row in read_csv("results/mleague_published_results.csv"):
        games[row["source_url"], row["game_of_day"]].append(row)
    return sorted(games.items())


MLEAGUE = _mleague_games()


def test_seven_published_mleague_games():
    assert len(MLEAGUE) == 7


@pytest.mark.parametrize(("key", "rows"), MLEAGUE, ids=[f"{u.rsplit('/', 1)[-1]}-{g}" for (u, g), _ in MLEAGUE])
def test_mleague_published_points_are_reproduced(key, rows):
    rows = sorted(rows, key=lambda r: int(r["rank"]))
    scores = [int(r["final_score"]) for r in rows]
    result = settle(get_ruleset("m-league"), scores)
    assert list(result.points) == [thousandths(r["points"]) for r in rows]
    assert list(result.places) == [int(r["rank"]) for r in rows]


def test_mleague_2018_season_points_including_the_real_tie():
    games = defaultdict(list)
    for row in read_csv("results/mleague_2018_points_only.csv"):
        games[row["date"], row["game_of_day"]].append(row)
    assert len(games) == 106
    seat_order = "東南西北"
    for (date, game), rows in games.items():
        rows.sort(key=lambda r: seat_order.index(r["seat"]))
        result = settle(get_ruleset("m-league"), [int(r["derived_final_score"]) for r in rows])
        assert list(result.points) == [thousandths(r["points"]) for r in rows], (date, game)
        assert list(result.places) == [int(r["rank"]) for r in rows], (date, game)
