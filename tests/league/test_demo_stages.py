"""The demo's stages: a finished cup with a cut to a final table, two teams and an EMA file."""

from __future__ import annotations

import random

import pytest

from league import ema
from league.management.commands.demo_league import COUNTRIES, event_names, whole_game
from league.management.demo import stages as demo_stages
from league.services import stages as st

pytestmark = pytest.mark.django_db


def test_the_demo_cup_is_cut_to_a_final_table_and_played() -> None:
    cup = demo_stages.build_cup(random.Random(2027), event_names(), COUNTRIES, whole_game)
    qualifying, final = st.stage_tables(cup)
    assert qualifying.complete and final.complete and final.entrants_known
    assert [r.seed for r in sorted(final.rows, key=lambda r: r.seed)] == [1, 2, 3, 4]
    # Seeds are the top 4 of the qualifying standings, carrying half their points.
    assert [r.player.id for r in sorted(final.rows, key=lambda r: r.seed)] == [r.player.id for r in qualifying.rows[:4]]
    assert all(r.carried * 2 - q.total in (-1, 0, 1) for r in final.rows for q in qualifying.rows
               if q.player.id == r.player.id)
    result = st.final_result(cup)
    assert [r.place for r in result] == sorted(r.place for r in result) and len(result) == 16
    teams = st.team_standings(cup)
    assert sorted(t.name for t in teams) == ["Kita", "Minami"] and all(len(t.members) == 4 for t in teams)
    export = st.ema_export(cup)
    assert export.finished and export.event.days == 2
    assert [p.last_name for p, _ in ema.missing(export.players)] == [event_names()[11][1]]
