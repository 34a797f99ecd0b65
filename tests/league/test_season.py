"""The season read model (league.standings.season): one pass over the seats
gives what ``Series.standings``, ``standings_and_before`` and the season
chart's running totals give, for every stage a page can ask for; and under a
results stamp it is computed once, and never served after the stamp moves."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league import services
from league.models import Player, Seat
from league.standings.season import CHART_POINTS, cached_season, season, season_if_cached, season_rounds
from league.views.cached import current_standings
from tests.factories import bulk_finished_games, make_players, make_series

pytestmark = pytest.mark.django_db


def kept(series, players, scores, *, round_number, finished_at):  # noqa: ANN001, ANN201
    game = services.start_game(series=series, players=players, round_number=round_number)
    services.record_final_scores(game=game, scores=scores, finished_at=finished_at)
    return game


@pytest.fixture
def league():  # noqa: ANN201
    """Three days, five rounds, eight players, one under the minimum."""
    series = make_series(min_games=2)
    p = make_players(9)
    day = [timezone.make_aware(datetime.datetime(2026, 3, d, 20)) for d in (1, 2, 3)]
    results = [
        (1, day[0], [p[0], p[1], p[2], p[3]], [41300, 24900, 21800, 12000]),
        (1, day[0], [p[4], p[5], p[6], p[7]], [30000, 30000, 20000, 20000]),
        (2, day[0], [p[0], p[2], p[4], p[6]], [42000, 28000, 16000, 14000]),
        (2, day[1], [p[1], p[3], p[5], p[7]], [25000, 25000, 25000, 25000]),
        (3, day[1], [p[0], p[5], p[2], p[7]], [28000, 32000, 17000, 23000]),
        (4, day[2], [p[8], p[1], p[4], p[6]], [35000, 30000, 20000, 15000]),
        (5, day[2], [p[3], p[2], p[1], p[0]], [12000, 21800, 24900, 41300]),
    ]
    for round_number, when, players, scores in results:
        kept(series, players, scores, round_number=round_number, finished_at=when)
    return series


STAGES = [
    # (through round, through date, before round, before date)
    (None, None, 4, None),
    (3, None, 2, None),
    (5, None, None, None),
    (None, datetime.date(2026, 3, 2), None, datetime.date(2026, 3, 1)),
    (None, datetime.date(2026, 3, 1), None, None),
    (4, datetime.date(2026, 3, 3), 3, datetime.date(2026, 3, 3)),
    (1, None, None, None),
]


@pytest.mark.parametrize(("through_round", "through_date", "before_round", "before_date"), STAGES)
def test_season_tables_are_the_standings(league, through_round, through_date, before_round, before_date) -> None:  # noqa: ANN001
    before = before_round is not None or before_date is not None
    got = season(league, through_round=through_round, through_date=through_date,
                 before_round=before_round, before_date=before_date, before=before)
    assert got.standings == league.standings(through_round=through_round, through_date=through_date)
    if before:
        want = league.standings_and_before(through_round=through_round, through_date=through_date,
                                           before_round=before_round, before_date=before_date)
        assert (got.standings, got.before) == want
    else:
        assert got.before is None


def test_season_running_totals_after_each_round(league) -> None:  # noqa: ANN001
    got = season(league)
    assert got.stretch_ends == [1, 2, 3, 4, 5]
    rounds = season_rounds(league).rounds
    assert rounds == [1, 2, 3, 4, 5]
    for player_id, column in got.running.items():
        # Each point is the player's table after that round; None before their first game.
        for k, r in enumerate(rounds):
            row = league.standings(through_round=r).by_player().get(player_id)
            assert column[k] == (row.total if row is not None else None), (player_id, r)


def test_season_running_totals_in_stretches_for_a_long_season() -> None:
    series = make_series(min_games=0)
    players = make_players(8)
    bulk_finished_games(series, players, 8 * 150, seed=3, tables=2)  # 600 rounds of two tables
    got = season(series)
    assert len(got.stretch_ends) == CHART_POINTS
    assert got.stretch_ends[-1] == 600
    # Every stretch ends at a round, and the last point is each player's total.
    totals = {r.player_id: r.total for r in series.standings().ranked}
    assert {pid: column[-1] for pid, column in got.running.items()} == totals
    ten = got.stretch_ends.index(10)
    after_ten = series.standings(through_round=10).by_player()
    assert {pid: column[ten] for pid, column in got.running.items()} == {
        pid: r.total for pid, r in after_ten.items()}


def test_season_is_two_queries_whatever_the_size(league) -> None:  # noqa: ANN001
    rounds = season_rounds(league).rounds
    with CaptureQueriesContext(connection) as queries:
        season(league, rounds=rounds, before_round=4, before=True)
    assert len(queries) == 2  # the seats, and the names
    bulk_finished_games(league, list(Player.objects.filter(seats__game__series=league).distinct()), 40, seed=5)
    rounds = season_rounds(league).rounds
    with CaptureQueriesContext(connection) as queries:
        season(league, rounds=rounds, before_round=rounds[-2], before=True)
    assert len(queries) == 2  # the seats, and the names


def test_cached_season_is_read_once_per_results_stamp_and_never_stale(league) -> None:  # noqa: ANN001
    cache.clear()
    assert season_if_cached(league) is None
    first = cached_season(league)[1]
    assert season_if_cached(league) == first
    with CaptureQueriesContext(connection) as queries:
        assert cached_season(league)[1] == first
        assert current_standings(league) == first.standings  # the player page's table: the same read
    assert len(queries) == 0
    # A result changes: a penalty on a finished game, through the services.
    game = league.games.order_by("-round_number").first()
    services.add_penalty(game=game, seat=0, points=-20000, reason="late")
    assert season_if_cached(league) is None
    again = cached_season(league)[1]
    assert again.standings == league.standings()
    assert again.standings != first.standings
    assert current_standings(league) == league.standings()


def test_a_hand_in_play_keeps_the_cached_season(league) -> None:  # noqa: ANN001
    from tests.factories import draw, make_game, play

    cache.clear()
    first = cached_season(league)[1]
    live = make_game(league, make_players(4), round_number=6)
    play(live, [draw(0)])
    assert season_if_cached(league) == first  # the results stamp did not move
    assert Seat.objects.filter(game=live).count() == 4


def test_league_standing_is_the_players_row_of_the_table(league) -> None:  # noqa: ANN001
    from league.standings.season import league_standing
    from league.stats import finished_by_player

    table = league.standings().by_player()
    assert any(r.rank is None for r in table.values())  # one player under the minimum
    by_player = finished_by_player(league)
    totals = {pid: (p.counted_games, p.counted_total) for pid, p in by_player.items() if p.counted_games}
    for player in Player.objects.all():
        assert league_standing(league, player.pk) == table.get(player.pk), player
        assert league_standing(league, player.pk, totals=totals) == table.get(player.pk), player


def test_league_standing_shares_a_rank() -> None:
    from league.standings.season import league_standing

    series = make_series(min_games=1)
    p = make_players(4)
    day = timezone.make_aware(datetime.datetime(2026, 3, 1, 20))
    kept(series, p, [30000, 30000, 20000, 20000], round_number=1, finished_at=day)  # level in pairs
    table = series.standings()
    assert [(r.rank, r.tied) for r in table.ranked] == [(1, True), (1, True), (3, True), (3, True)]
    for row in table.ranked:
        assert league_standing(series, row.player_id) == row


def test_finished_by_player_is_finished_stats_and_counted_totals() -> None:
    from league.models import Game
    from league.stats import finished_by_player, finished_stats

    series = make_series(min_games=0, requires_signoff=True)
    players = make_players(6)
    bulk_finished_games(series, players, 12, seed=4, tables=2)
    signed = list(Game.objects.filter(series=series).order_by("pk")[:7])
    Game.objects.filter(pk__in=[g.pk for g in signed]).update(signed_off_at=timezone.now())
    by_player = finished_by_player(series)
    from league.stats import total

    assert total(*(p.stats for p in by_player.values())) == finished_stats(series)
    table = series.standings().by_player()  # signed-off games only
    for player in players:
        assert by_player[player.pk].stats == finished_stats(series, player.pk)
        row = table.get(player.pk)
        assert (by_player[player.pk].counted_games, by_player[player.pk].counted_total) == (
            (row.games, row.total) if row else (0, 0))
