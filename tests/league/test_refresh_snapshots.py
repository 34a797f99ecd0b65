"""``refresh_snapshots`` rewrites what the services would have stored."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from league import services
from league.models import Game, Seat, Series
from league.stats import SEAT_STAT_FIELDS, seat_hand_stats
from tests.factories import hanchan_passing_deal, make_game, make_players, make_series, play, tsumo

pytestmark = pytest.mark.django_db

SNAPSHOT = ("end_score", "place", "points", *SEAT_STAT_FIELDS)


def seats(series: Series) -> list[tuple[int, ...]]:
    return list(Seat.objects.filter(game__series=series).order_by("game", "seat").values_list(*SNAPSHOT))


def refresh(*args: str) -> str:
    out = io.StringIO()
    call_command("refresh_snapshots", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_refresh_snapshots_rewrites_results_and_statistics() -> None:
    series = make_series(slug="old")
    game = make_game(series, make_players())
    play(game, hanchan_passing_deal())
    live = make_game(series, make_players())
    play(live, hanchan_passing_deal()[:3])
    kept = make_game(series, make_players())
    services.record_final_scores(game=kept, scores=[26100, 40000, 21900, 12000])
    other = make_series(slug="other")
    untouched = make_game(other, make_players())
    play(untouched, hanchan_passing_deal())
    stored = seats(series)
    # South of the hanchan: 8 hands, won E1 (5,200 from East) and S1 (7,900 by tsumo), dealt in E4 (1,000).
    assert stored[1] == (34500, 1, 54500, 8, 2, 1, 1, 0, 13100, 1000, 0, 0)
    assert stored[4][3:6] == (3, 0, 0)  # the game in progress: 3 hands so far

    # A database from before the statistics (or a lost result): zeros everywhere.
    blank = dict.fromkeys(SEAT_STAT_FIELDS, 0)
    Seat.objects.update(end_score=None, place=None, points=None, **blank)
    version = Series.objects.get(pk=series.pk).version

    assert refresh("--series", "old") == "3 games replayed, 3 changed, 0 refused\n"
    assert seats(series) == stored
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert Series.objects.get(pk=series.pk).version > version
    assert set(Seat.objects.filter(game=untouched).values_list("hands", "place")) == {(0, None)}

    assert refresh() == "4 games replayed, 1 changed, 0 refused\n"
    assert refresh() == "4 games replayed, 0 changed, 0 refused\n"


def test_refresh_snapshots_names_an_unknown_series() -> None:
    with pytest.raises(CommandError, match="no series 'nope'"):
        refresh("--series", "nope")


def stats_of(game: Game) -> list[tuple[int, ...]]:
    return list(game.seats.order_by("seat").values_list(*SEAT_STAT_FIELDS))


def replayed_stats(game: Game) -> list[tuple[int, ...]]:
    result = game.replay().result
    return [tuple(getattr(seat_hand_stats(result, s), f) for f in SEAT_STAT_FIELDS) for s in range(4)]


def test_statistics_follow_every_change_to_a_game() -> None:
    game = make_game(make_series(), make_players())
    play(game, hanchan_passing_deal()[:2])
    assert stats_of(game) == replayed_stats(game)
    assert stats_of(game)[1][:2] == (2, 1)  # South: 2 hands, the E1 ron
    services.correct_hand(game=game, number=1, hand=tsumo(2, 1, 30))
    assert stats_of(game)[1][:2] == (2, 0) and stats_of(game)[2][:3] == (2, 2, 2)
    assert stats_of(game) == replayed_stats(game)
    services.undo_last_hand(game=game)
    assert stats_of(game) == replayed_stats(game) and stats_of(game)[2][:3] == (1, 1, 1)
    services.undo_last_hand(game=game)
    assert stats_of(game) == [(0,) * len(SEAT_STAT_FIELDS)] * 4
