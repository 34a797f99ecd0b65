"""Standings: aggregates over the result snapshots, ties shared, a constant
number of queries."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league import services
from league.models import StandingRow, Standings
from scoring.standings import rank_with_ties
from tests.factories import bulk_finished_games, hanchan_passing_deal, make_game, make_players, make_series, play

pytestmark = pytest.mark.django_db


def kept(series, players, scores, *, round_number=1, finished_at=None):  # noqa: ANN001, ANN201
    game = services.start_game(series=series, players=players, round_number=round_number)
    services.record_final_scores(game=game, scores=scores, finished_at=finished_at)
    return game


def test_rank_with_ties() -> None:
    assert rank_with_ties([50, 30, 30, 10]) == [1, 2, 2, 4]
    assert rank_with_ties([5, 5, 5]) == [1, 1, 1]
    assert rank_with_ties([]) == []


def test_standings_totals_averages_and_places() -> None:
    series = make_series()
    a, b, c, d = make_players()
    kept(series, [a, b, c, d], [41300, 24900, 21800, 12000])  # +61.3 +4.9 -18.2 -48.0
    kept(series, [b, a, d, c], [41300, 24900, 21800, 12000])
    rows = {r.name: r for r in series.standings().ranked}
    ra = rows[a.name]
    assert (ra.games, ra.total, ra.average_points, ra.average_place) == (2, 66200, 33100, 1.5)
    assert ra.places == (1, 1, 0, 0)
    assert (ra.best, ra.worst, ra.average_score) == (61300, 4900, 33100)
    rd = rows[d.name]
    assert (rd.total, rd.places, rd.average_score) == (-66200, (0, 0, 1, 1), 16900)
    assert [r.rank for r in series.standings().ranked] == [1, 1, 3, 3]
    assert all(r.tied for r in series.standings().ranked)


def test_standings_ties_share_the_rank() -> None:
    series = make_series()
    a, b, c, d = make_players()
    # all four tied: split uma and oka, everyone 0.0 and first
    kept(series, [a, b, c, d], [25000] * 4)
    standings = series.standings()
    assert [r.rank for r in standings.ranked] == [1, 1, 1, 1]
    assert [r.total for r in standings.ranked] == [0, 0, 0, 0]


def test_standings_list_players_under_the_minimum_apart() -> None:
    series = make_series(min_games=2)
    a, b, c, d, e = make_players(5)
    kept(series, [a, b, c, d], [41300, 24900, 21800, 12000])
    kept(series, [a, b, c, e], [30000, 30000, 20000, 20000])
    standings = series.standings()
    assert [r.name for r in standings.ranked] == [a.name, b.name, c.name]
    assert [r.rank for r in standings.ranked] == [1, 2, 3]
    assert {r.name for r in standings.unranked} == {d.name, e.name}
    assert all(r.rank is None for r in standings.unranked)


def test_standings_skip_games_in_progress() -> None:
    series = make_series()
    players = make_players()
    make_game(series, players)
    play(make_game(series, players), hanchan_passing_deal()[:3])
    assert series.standings() == Standings(ranked=(), unranked=())


def test_standings_through_a_round_and_a_date() -> None:
    series = make_series()
    a, b, c, d = make_players()
    day1 = timezone.make_aware(datetime.datetime(2025, 10, 10, 21, 0))
    day2 = timezone.make_aware(datetime.datetime(2025, 10, 17, 21, 0))
    kept(series, [a, b, c, d], [41300, 24900, 21800, 12000], round_number=1, finished_at=day1)
    kept(series, [d, c, b, a], [41300, 24900, 21800, 12000], round_number=2, finished_at=day2)
    first = series.standings(through_round=1)
    assert [r.name for r in first.ranked] == [a.name, b.name, c.name, d.name]
    assert series.standings(through_date=datetime.date(2025, 10, 10)) == first
    assert series.standings(through_date=datetime.date(2025, 10, 9)).ranked == ()
    after = series.standings()
    assert [r.total for r in after.ranked] == [13300, 13300, -13300, -13300]


def test_standings_row_average_rounds_half_away_from_zero() -> None:
    row = StandingRow(1, "x", games=3, total=-1000, place_sum=7, score_sum=75100,
                      best=0, worst=-1000, places=(0, 1, 1, 1))
    assert row.average_points == -333
    assert StandingRow(1, "x", 2, 1001, 3, 1, 0, 0, (1, 1, 0, 0)).average_points == 501
    assert StandingRow(1, "x", 2, -1001, 3, 1, 0, 0, (1, 1, 0, 0)).average_points == -501


@pytest.mark.parametrize("n", [10, 200])
def test_standings_query_count_is_constant(n: int) -> None:
    series = make_series()
    players = make_players(24)
    bulk_finished_games(series, players, n)
    with CaptureQueriesContext(connection) as queries:
        standings = series.standings()
    assert len(queries) == 1
    assert sum(r.games for r in standings.ranked) == 4 * n
    assert sum(r.total for r in standings.ranked) == 0  # points sum to zero in every game


def test_standings_and_before_in_one_query_match_two() -> None:
    series = make_series(min_games=2)
    players = make_players(6)
    day1 = timezone.make_aware(datetime.datetime(2025, 10, 10, 23, 30))  # late: the day boundary matters
    day2 = timezone.make_aware(datetime.datetime(2025, 10, 11, 0, 30))
    kept(series, players[:4], [41300, 24900, 21800, 12000], round_number=1, finished_at=day1)
    kept(series, players[2:], [30000, 30000, 20000, 20000], round_number=1, finished_at=day1)
    kept(series, players[1:5], [12000, 21800, 24900, 41300], round_number=2, finished_at=day2)
    kept(series, [players[5], *players[:3]], [25000, 25000, 25000, 25000], round_number=3, finished_at=day2)
    stages = [
        ({}, {"before_round": 2}),
        ({"through_round": 2}, {"before_round": 1}),
        ({"through_date": day2.date()}, {"before_date": day1.date()}),
        ({"through_round": 3, "through_date": day2.date()}, {"before_round": 1, "before_date": day2.date()}),
    ]
    for now, before in stages:
        with CaptureQueriesContext(connection) as queries:
            pair = series.standings_and_before(**now, **before)
        assert len(queries) == 1
        earlier = {k.removeprefix("before_"): v for k, v in before.items()}
        assert pair == (series.standings(**now), series.standings(**{f"through_{k}": v for k, v in earlier.items()}))
    on_day1 = series.standings(through_date=timezone.localdate(day1))  # 23:30 counts, 00:30 the next day not
    assert sum(r.games for r in (*on_day1.ranked, *on_day1.unranked)) == 8
    after_round_1 = series.standings_and_before(before_round=1)[1]
    assert [r.games for r in after_round_1.ranked] == [2, 2] and [r.games for r in after_round_1.unranked] == [1] * 4
