"""Running ``import_games`` again adds only what is missing (issue 29): the
natural recovery after an interrupted import, and harmless by mistake. A game
the series already holds (the same record) is skipped and reported, as
``import_logs`` does for a Tenhou log id."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from league import game_records
from league.models import Game, Registration, Series
from tests.factories import hanchan_passing_deal, make_game, make_players, make_series, play
from tests.league.test_event_records import finished_event

pytestmark = pytest.mark.django_db


def league_lines(n: int = 5) -> list[str]:
    series = make_series(slug="source")
    people = make_players(5)
    for i in range(n):
        game = make_game(series, players=[people[(i + k) % 5] for k in range(4)], round_number=i + 1, table="1")
        play(game, hanchan_passing_deal())
    return list(game_records.export_lines(Game.objects.filter(series=series).order_by("round_number")))


def run(path, slug: str) -> str:
    out = io.StringIO()
    call_command("import_games", str(path), "--series", slug, stdout=out)
    return out.getvalue()


def test_the_same_file_imported_twice_adds_nothing_and_says_so(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(league_lines()), encoding="utf-8")
    assert "Imported 5 games" in run(path, "copy")
    standings = Series.objects.get(slug="copy").standings()
    second = run(path, "copy")
    assert "Imported 0 games" in second and "5 game(s) already in copy, skipped (line 1, 2, 3, 4, 5)" in second
    assert Game.objects.filter(series__slug="copy").count() == 5
    assert Series.objects.get(slug="copy").standings() == standings


def test_an_interrupted_import_resumes_by_running_it_again(tmp_path) -> None:
    lines = league_lines()
    first = tmp_path / "first.jsonl"
    first.write_text("".join(lines[:2]), encoding="utf-8")  # what got in before the import stopped
    run(first, "copy")
    whole = tmp_path / "whole.jsonl"
    whole.write_text("".join(lines), encoding="utf-8")
    out = run(whole, "copy")
    assert "Imported 3 games" in out and "2 game(s) already in copy, skipped (line 1, 2)" in out
    assert list(game_records.export_lines(Game.objects.filter(series__slug="copy").order_by("round_number"))) == lines


def test_the_same_game_twice_in_one_file_imports_the_second_once_the_first_is_in() -> None:
    line = league_lines(1)[0]
    game_records.import_lines([line], slug="copy")
    report = game_records.import_lines([line, line], slug="copy")
    assert (report.games, report.already) == (1, [1])
    assert Game.objects.filter(series__slug="copy").count() == 2


def test_a_game_at_another_start_time_is_another_game() -> None:
    line = league_lines(1)[0]
    game_records.import_lines([line], slug="copy")
    later = json.loads(line)
    later["started_at"] = "2031-01-01T10:00:00+00:00"
    report = game_records.import_lines([json.dumps(later)], slug="copy")
    assert (report.games, report.already) == (1, [])


def test_an_event_file_imported_twice_adds_nothing_and_says_so(tmp_path) -> None:
    path = tmp_path / "event.jsonl"
    path.write_text("".join(game_records.series_lines(finished_event())), encoding="utf-8")
    run(path, "copy")
    counts = (Game.objects.filter(series__slug="copy").count(), Registration.objects.filter(series__slug="copy").count())
    out = run(path, "copy")
    assert "the event of copy: nothing to import" in out and "Imported 0 games" in out
    assert (Game.objects.filter(series__slug="copy").count(),
            Registration.objects.filter(series__slug="copy").count()) == counts == (17, 16)
