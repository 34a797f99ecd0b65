"""A whole event round-trips through export_games / import_games: the
series header line carries registrations, rounds, stages, seeds, playoffs,
tie-breaks, teams and the EMA details. The event is the 16-player one of
``services/test_stages.py`` after its final."""

from __future__ import annotations

import json

import pytest

from league import game_record_header, game_records
from league.models import Registration, Series
from league.services import stages as st
from tests.league.services.test_stages import P, make_event, play_seated, qualify

pytestmark = pytest.mark.django_db


def finished_event() -> Series:
    series = make_event(slug="open")
    Series.objects.filter(pk=series.pk).update(start_date="2026-05-16", end_date="2026-05-17")
    series.refresh_from_db()
    st.configure_event_rules(series=series, tiebreaks="fewest_fourths,playoff", team_scoring="best", team_best=2,
                             ema_city="Utrecht", ema_country="NL")
    reg = {r.number: r for r in series.registrations.all()}
    # Fewest fourths leaves 4 (one fourth) below 6 (none) at the cut; a playoff orders 1 and 5 (no fourths, level).
    st.record_playoff(series=series, stage=series.stages.get(number=1), places=[(reg[5], 1), (reg[1], 2)])
    qualify(series)
    final = series.stages.get(number=2)
    st.cut_to_stage(stage=final)
    play_seated(series, st.seat_stage_round(stage=final), {1: P}, order={1: [6, 5, 1, 2]})
    return series


def without_codes(lines: list[str]) -> list[str]:
    header = json.loads(lines[0])
    for r in header["registrations"]:
        r.pop("code")
    return [json.dumps(header, sort_keys=True), *lines[1:]]


def test_an_event_round_trips_with_its_stages_seeds_playoffs_and_teams() -> None:
    series = finished_event()
    lines = list(game_records.series_lines(series))
    assert json.loads(lines[0])["tenbou_series"] == 1 and len(lines) == 1 + 16 + 1
    report = game_records.import_lines(lines, slug="open-copy")
    copy = report.series
    assert report.created_series and report.games == 17
    copy.refresh_from_db()
    assert (copy.name, str(copy.start_date), str(copy.end_date), copy.kind) == (
        series.name, "2026-05-16", "2026-05-17", "tournament")
    before, after = st.stage_tables(series), st.stage_tables(copy)
    figures = [[(r.player.number, r.seed, r.carried, r.total, r.rank, r.separated_by) for r in t.rows] for t in before]
    assert figures == [[(r.player.number, r.seed, r.carried, r.total, r.rank, r.separated_by) for r in t.rows]
                       for t in after]
    # Seeds 5, 1, 2, 6 (the playoff put 5 first; fewest fourths put 6 in): 6 won the final.
    assert [r.player.number for r in after[1].rows] == [5, 6, 1, 2]
    assert [(t.name, t.total) for t in st.team_standings(copy)] == [(t.name, t.total) for t in st.team_standings(series)]
    assert st.ema_export(copy).players == st.ema_export(series).players
    assert without_codes(list(game_records.series_lines(copy))) == without_codes(lines)


def test_a_header_of_an_unknown_version_is_refused() -> None:
    series = finished_event()
    lines = list(game_records.series_lines(series))
    header = json.loads(lines[0])
    header["tenbou_series"] = 2
    with pytest.raises(game_records.ImportRefused) as err:
        game_records.import_lines([json.dumps(header), *lines[1:]], slug="later")
    assert [(e.line, e.code, e.field) for e in err.value.errors] == [(1, "unsupported_version", "tenbou_series")]
    assert not Series.objects.filter(slug="later").exists()


def test_a_damaged_header_imports_nothing() -> None:
    series = finished_event()
    lines = list(game_records.series_lines(series))
    header = json.loads(lines[0])
    header["rounds"][0]["tables"][0]["seats"][0][0] = 99  # no registration 99
    with pytest.raises(game_records.ImportRefused) as err:
        game_records.import_lines([json.dumps(header), *lines[1:]], slug="damaged")
    assert err.value.errors[0].code == "unknown_registration"
    assert not Series.objects.filter(slug="damaged").exists()
    assert Registration.objects.filter(series__slug="damaged").count() == 0


def test_a_league_exports_game_lines_only() -> None:
    from tests.factories import make_series

    series = make_series("ari-ari")
    assert game_record_header.header_line(series) is None


def test_the_commands_carry_the_header(tmp_path) -> None:
    from io import StringIO

    from django.core.management import call_command

    finished_event()
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    call_command("export_games", series="open", output=str(first))
    out = StringIO()
    call_command("import_games", str(first), series="open-2", stdout=out)
    assert "Imported 17 games" in out.getvalue()
    call_command("export_games", series="open-2", output=str(second))
    assert without_codes(second.read_text().splitlines(keepends=True)) == without_codes(
        first.read_text().splitlines(keepends=True))
    assert Series.objects.get(slug="open-2").stages.count() == 2
