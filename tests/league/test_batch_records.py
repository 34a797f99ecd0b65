"""One record per game for a batch of games (``league.exports.records_of``):
the record export and the check of refused games (``stats.refused_games``)
build each game's record there, the same as ``Game.record``, penalties in
force included in the order they were given (the model's order, which
``Game.record``, every page and the entry's replay read)."""

from __future__ import annotations

import datetime
import json

import pytest

from league import game_records, services, stats
from league.exports import RECORD_ROW, records_of
from league.models import Game, Penalty, Series, Win
from scoring import game as sg
from tests.factories import make_game, make_players, play, ron, tsumo

pytestmark = pytest.mark.django_db


def _finished_with_penalties(series: Series) -> Game:
    """A finished game with three penalties given and one of them cancelled,
    the first given moved after the others: the order given is not the rows'."""
    game = make_game(series, make_players(4))
    play(game, [ron(0, 1, 3, 30), tsumo(2, 2, 30), ron(1, 3, 1, 30)])
    first = services.add_penalty(game=game, seat=0, points=-10000, reason="slow play")
    services.add_penalty(game=game, seat=2, points=-20000, reason="chombo after the game")
    cancelled = services.add_penalty(game=game, seat=1, points=-5000, reason="a mistake")
    services.cancel_penalty(penalty=cancelled)
    services.add_penalty(game=game, seat=3, points=-3000, reason="phone at the table")
    Penalty.objects.filter(pk=first.pk).update(given_at=first.given_at + datetime.timedelta(hours=1))
    services.finish_game(game=game, end=Game.End.EARLY)
    return Game.objects.get(pk=game.pk)


def test_a_batch_s_records_are_each_game_s_own_penalties_in_the_order_given(series: Series) -> None:
    game = _finished_with_penalties(series)
    other = make_game(series, make_players(4))
    play(other, [ron(2, 3, 2, 40)])
    rows = Game.objects.filter(pk__in=[game.pk, other.pk]).values_list(*RECORD_ROW)
    records = records_of(rows)
    assert [(p.seat, p.points, p.reason) for p in records[game.pk].penalties] == [
        (2, -20000, "chombo after the game"), (3, -3000, "phone at the table"), (0, -10000, "slow play")]
    for each in (game, other):
        assert sg.record_to_dict(records[each.pk]) == sg.record_to_dict(each.record())
    # The engine goes on from a replay kept with the record's penalties only in their order.
    assert records[game.pk].penalties == game.record().penalties


def test_the_record_export_and_the_refused_games_check_see_the_game_s_own_record(series: Series) -> None:
    game = _finished_with_penalties(series)
    broken = _finished_with_penalties(series)
    Win.objects.filter(hand__game=broken, hand__number=2).update(han=1, fu=25)  # changed behind the services' back
    broken = Game.objects.get(pk=broken.pk)
    lines = [json.loads(line) for line in game_records.export_lines(series.games.all())]
    for line, each in zip(lines, [game, broken], strict=True):
        assert line["penalties"] == sg.record_to_dict(each.record())["penalties"]
        assert {k: v for k, v in line.items() if k in sg.record_to_dict(each.record())} == sg.record_to_dict(
            each.record())
    assert [(g.game_id, g.refused) for g in stats.refused_games(series)] == [(broken.pk, broken.replay().refused)]
    assert broken.replay().refused is not None and broken.replay().refused.number == 2


def test_a_batch_reads_its_hands_and_penalties_in_three_queries(series: Series, django_assert_num_queries) -> None:
    games = [_finished_with_penalties(series) for _ in range(3)]
    rows = list(Game.objects.filter(pk__in=[g.pk for g in games]).values_list(*RECORD_ROW))
    with django_assert_num_queries(3):
        records = records_of(rows)
    assert sorted(records) == sorted(g.pk for g in games)
