"""Each hand keeps where it left the game (``Hand.result``), written with every
replay, so ``hands.csv`` reads it instead of replaying the series. The stored
rows must be exactly the replayed rows, after every kind of change."""

from __future__ import annotations

import pytest

from league import exports, services
from league.models import Game, Hand, Series
from league.services.replay import hand_result
from scoring import game as sg
from scoring.game import Win
from tests.factories import double_ron, draw, make_game, play, ron, tsumo

pytestmark = pytest.mark.django_db


def replayed_rows(games) -> list:  # noqa: ANN001
    """The rows as the export wrote them before results were stored: a replay of every game."""
    rows = []
    for game in games.order_by("round_number", "table", "pk"):
        for played in sg.replay(game.record()).hands:
            rows.append(exports.hand_row(game.pk, played))
    return rows


def stored(game: Game) -> list:
    return [h.result for h in game.hands.order_by("number")]


def test_the_demo_league_exports_the_replayed_rows_from_stored_results(demo_league: None) -> None:
    series = Series.objects.get(slug="demo-league")
    assert not Hand.objects.filter(result=None).exists()
    rows = list(exports.hand_rows(exports.series_games(series)))
    assert rows[0] == exports.HANDS_HEADER
    assert rows[1:] == replayed_rows(series.games.all())
    assert len(rows) == 1 + 430


def test_stored_results_follow_every_change() -> None:
    game = make_game()
    play(game, [ron(1, 0, 3, 30, riichi=[2]), draw(0, 2), tsumo(3, 2, 30)])
    first = stored(game)
    # East (the dealer) rons South for 3 han 30 fu, 5,800, and takes West's riichi stick.
    assert first[0] == {"round": "E1", "dealer": 0, "honba": 0, "sticks": 0,
                        "deltas": [6800, -5800, -1000, 0], "scores": [31800, 19200, 24000, 25000]}
    # A correction of hand 1 moves every later hand's scores.
    services.correct_hand(game=game, number=1, hand=double_ron(1, Win(0, han=3, fu=30), Win(2, han=1, fu=30),
                                                               riichi=[2]))
    after = stored(game)
    # Now West wins too (1,000) and, nearest to the discarder, takes back its own stick.
    assert after[0]["deltas"] == [5800, -6800, 1000, 0] and after[1:] != first[1:]
    assert after == [hand_result(p) for p in game.replay().result.hands]
    services.undo_last_hand(game=game)
    assert stored(game) == [hand_result(p) for p in game.replay().result.hands]
    assert list(exports.hand_rows(Game.objects.filter(pk=game.pk)))[1:] == replayed_rows(Game.objects.filter(pk=game.pk))


def test_hands_saved_before_results_were_stored_are_replayed_then_refreshed() -> None:
    game = make_game()
    play(game, [ron(1, 0, 3, 30), tsumo(3, 2, 30)])
    Hand.objects.filter(game=game).update(result=None)  # a database from before the field
    games = Game.objects.filter(pk=game.pk)
    assert list(exports.hand_rows(games))[1:] == replayed_rows(games)
    services.refresh_snapshots(game=game)
    assert stored(game) == [hand_result(p) for p in game.replay().result.hands]
