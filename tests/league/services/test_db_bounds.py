"""Bounds both databases hold (league.db_bounds, issue 13): what SQLite would take and
PostgreSQL refuse is refused by the services with a code and a field, the same on
both, and the models' CheckConstraints refuse it even from a bare ``update()``.
CI runs this file on SQLite and on PostgreSQL."""

from __future__ import annotations

import datetime

import pytest
from django.db import DataError, IntegrityError, transaction

from league import services
from league.db_bounds import MAX_HAN, MAX_PENALTY, MAX_PENALTY_TOTAL, MAX_ROUND, MAX_SEAT_POINTS
from league.models import Game, Penalty, Seat, Win
from tests.factories import make_game, make_players, make_series, play, ron, snapshot, tsumo

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("round_number", [0, MAX_ROUND + 1, 2**31, 10**20])
def test_a_round_past_the_bound_starts_no_game(round_number) -> None:
    with pytest.raises(services.ServiceError) as err:
        make_game(round_number=round_number)
    assert (err.value.code, err.value.field) == ("invalid_round", "round_number")
    assert not Game.objects.exists()


def test_the_last_round_starts_a_game() -> None:
    assert make_game(round_number=MAX_ROUND).round_number == MAX_ROUND


@pytest.mark.parametrize("moment", [
    "0001-01-01T00:00:00+05:00", "0001-01-01T00:00:00-05:00", "9999-12-31T23:00:00-05:00",
    "9999-12-31T23:59:59+14:00", "1899-12-31T12:00:00+00:00", "3000-01-01T00:00:00+00:00",
])
def test_a_start_outside_the_years_the_databases_hold_is_refused(moment) -> None:
    with pytest.raises(services.ServiceError) as err:
        make_game(started_at=datetime.datetime.fromisoformat(moment))
    assert (err.value.code, err.value.field) == ("invalid_time", "started_at")
    assert not Game.objects.exists()


@pytest.mark.parametrize("table", ["A\x00", "x" * 21])
def test_a_table_postgresql_cannot_store_is_refused(table) -> None:
    with pytest.raises(services.ServiceError) as err:
        make_game(table=table)
    assert err.value.code == "invalid_table"


@pytest.mark.parametrize(("hand", "field"), [
    (ron(1, 0, 10**30, None), "outcome.wins[0].han"),
    (ron(1, 0, MAX_HAN + 1, None), "outcome.wins[0].han"),
    (tsumo(2, 10**20, None), "outcome.han"),
])
def test_han_past_the_bound_is_refused(hand, field) -> None:
    game = make_game()
    before = snapshot(game)
    with pytest.raises(services.ServiceError) as err:
        services.record_hand(game=game, number=1, hand=hand)
    assert (err.value.code, err.value.field) == ("out_of_range", field)
    assert snapshot(game) == before


def test_the_most_han_is_stored() -> None:
    game = make_game()
    play(game, [ron(1, 0, MAX_HAN, None)])
    assert Win.objects.get().han == MAX_HAN


@pytest.mark.parametrize(("key", "value"), [
    ("note", "late\x00"),
    ("tiles", [{"winner": 0, "tiles": "123m\x00"}]),
    ("yaku", [{"winner": 0, "yaku": ["riichi"], "x\x00": 1}]),
    ("tiles", [[[[[[[[[[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]]]]]]]]]),
])
def test_text_postgresql_cannot_store_is_refused(key, value) -> None:
    game = make_game()
    hand = {"riichi": [], "outcome": {"type": "ron", "loser": 1, "wins": [{"winner": 0, "han": 3, "fu": 30}]},
            key: value}
    with pytest.raises(services.ServiceError) as err:
        services.record_hand(game=game, number=1, hand=hand)
    assert (err.value.code, err.value.field) == ("invalid_text", key)
    assert not game.hands.exists()


def test_penalties_of_one_seat_stop_at_their_total() -> None:
    """3,000 penalties of the most once overflowed Seat.points; now the eleventh is refused."""
    game = make_game()
    services.record_final_scores(game=game, scores=[41300, 24900, 21800, 12000])
    for _ in range(MAX_PENALTY_TOTAL // MAX_PENALTY):
        services.add_penalty(game=game, seat=3, points=-MAX_PENALTY, reason="again")
    with pytest.raises(services.ServiceError) as err:
        services.add_penalty(game=game, seat=3, points=-1000, reason="once more")
    assert (err.value.code, err.value.field) == ("invalid_penalty", "points")
    services.add_penalty(game=game, seat=3, points=+1000, reason="a bonus back")  # the total moves back in
    assert game.seats.get(seat=3).points == -48000 - MAX_PENALTY_TOTAL + 1000


def test_a_ruleset_whose_points_the_database_cannot_hold_ends_no_game() -> None:
    uma = [10**12, 0, 0, -(10**12)]
    game = make_game(make_series({"preset": "ari-ari", "overrides": {"uma": uma}}))
    with pytest.raises(services.ServiceError) as err:
        services.record_final_scores(game=game, scores=[41300, 24900, 21800, 12000])
    assert err.value.code == "out_of_range"
    assert Game.objects.get().status == Game.Status.IN_PROGRESS
    assert set(Seat.objects.values_list("points", flat=True)) == {None}


# -- the constraints: what skips the services still cannot store it --------------------------


def _refused(queryset, **values) -> None:
    # A CheckConstraint raises IntegrityError; PostgreSQL refuses a number past
    # its ``integer`` before any constraint, with DataError.
    with pytest.raises((IntegrityError, DataError)), transaction.atomic():
        queryset.update(**values)


def test_constraints_refuse_what_the_services_would() -> None:
    game = make_game(players=make_players())
    play(game, [ron(1, 0, 3, 30)])
    services.record_final_scores(game=make_game(), scores=[41300, 24900, 21800, 12000])
    services.add_penalty(game=game, seat=0, points=-1000, reason="slow")
    games = Game.objects.filter(pk=game.pk)
    _refused(games, round_number=MAX_ROUND + 1)
    _refused(games, round_number=0)
    _refused(games, started_at=datetime.datetime(1899, 12, 31, tzinfo=datetime.UTC))
    _refused(games, finished_at=datetime.datetime(3000, 1, 1, tzinfo=datetime.UTC))
    _refused(Win.objects.all(), han=MAX_HAN + 1)
    _refused(Win.objects.all(), fu=150)
    _refused(Penalty.objects.all(), points=0)
    _refused(Penalty.objects.all(), points=-MAX_PENALTY - 1)
    finished = Seat.objects.exclude(points=None)
    _refused(finished, points=MAX_SEAT_POINTS + 1)
    _refused(finished, end_score=-10_000_001)
    _refused(Seat.objects.all(), win_value=2**31)
    games.update(round_number=MAX_ROUND)  # the bound itself is stored
    assert games.get().round_number == MAX_ROUND
