"""The real three-player games in three-player series (issue 36): the series
standings, the standings CSV and the games CSV give every player exactly the
points the logs themselves give (the `points` column of tests/tenhou/test_sanma.py),
and the standings CSV shows three places, not four."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from league import services, tenhou
from league.exports import game_rows, standings_rows
from league.models import Game, Series
from tests.factories import make_game, make_series
from tests.realdata import REALDATA, require_realdata
from tests.tenhou.test_sanma import GAMES

require_realdata()
pytestmark = pytest.mark.django_db
SANMA = REALDATA / "sanma"


@pytest.fixture
def imported() -> dict[str, Series]:
    files = sorted(str(p) for p in SANMA.iterdir() if p.suffix != ".md")
    call_command("import_logs", *files, "--series", "sanma", "--series", "sanma-east", "--series", "mjs",
                 "--create-series", stdout=StringIO())
    return {s.slug: s for s in Series.objects.all()}


def logs_points() -> dict[str, list[int]]:
    """log id -> the points (thousandths) the log gives its seats, East first."""
    out = {}
    for name, *_rest, points in GAMES:
        out[tenhou.read_log_file(SANMA / name).log_id] = points
    return out


def test_standings_and_csvs_equal_the_logs_own_points(imported):
    theirs = logs_points()
    checked = 0
    for series in imported.values():
        games = Game.objects.filter(series=series)
        expected: dict[str, int] = defaultdict(int)
        places: dict[str, Counter[int]] = defaultdict(Counter)
        by_id = {g.pk: g.source_id for g in games}
        for game in games:
            for seat in game.seats.select_related("player"):
                expected[seat.player.name] += theirs[game.source_id][seat.seat]
                places[seat.player.name][seat.place] += 1
                checked += 1
        table = series.standings()
        assert {r.name: r.total for r in (*table.ranked, *table.unranked)} == expected, series.slug
        rows = list(standings_rows(series))
        header = rows[0]
        assert header[6:9] == ["first", "second", "third"] and "fourth" not in header
        for row in rows[1:]:
            named = dict(zip(header, row, strict=True))
            assert named["points"] == Decimal(expected[named["player"]]).scaleb(-3)
            assert [named["first"], named["second"], named["third"]] == [places[named["player"]][k] for k in (1, 2, 3)]
        game_csv = list(game_rows(games))
        seats = [dict(zip(game_csv[0], row, strict=True)) for row in game_csv[1:]]
        assert len(seats) == 3 * games.count()
        for s in seats:
            assert s["points"] == Decimal(theirs[by_id[s["game"]]][s["seat"]]).scaleb(-3)
    assert checked == 3 * 27


def test_a_four_player_series_keeps_four_places_in_its_csv():
    assert list(standings_rows(make_series()))[0][6:10] == ["first", "second", "third", "fourth"]


def test_three_player_game_records_round_trip(imported, tmp_path):
    # The Mahjong Soul games share one ruleset; the Tenhou series mixes games
    # whose logs round end scores (a per-game variant), which a records file
    # cannot import into one series whatever the seat count.
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    call_command("export_games", series="mjs", output=str(first))
    records = [json.loads(t) for t in first.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 6 and all(len(r["players"]) == 3 for r in records)
    out = StringIO()
    call_command("import_games", str(first), series="mjs-copy", stdout=out)
    assert "Imported 6 games" in out.getvalue()
    call_command("export_games", series="mjs-copy", output=str(second))
    assert first.read_bytes() == second.read_bytes()
    copy, original = Series.objects.get(slug="mjs-copy"), imported["mjs"]
    assert copy.standings() == original.standings()
    assert list(standings_rows(copy)) == list(standings_rows(original))


def test_a_record_with_the_wrong_number_of_players_for_its_rules_is_refused(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"players": ["A", "B", "C", "D"], "rules": "tenhou-sanma"}) + "\n"
                    + json.dumps({"players": ["A", "B", "C"], "rules": "ari-ari"}) + "\n", encoding="utf-8")
    with pytest.raises(CommandError) as err:
        call_command("import_games", str(path), series="x", stdout=StringIO())
    assert "line 1, players: players must be three names in seat order for tenhou-sanma, not 4" in str(err.value)
    assert "line 2, players: players must be four names in seat order for ari-ari, not 3" in str(err.value)


def test_the_series_page_shows_three_places(imported, client):
    html = client.get(reverse("series-standings", args=["sanma"])).content.decode()
    assert ">3rd<" in html and ">4th<" not in html
    four = make_series(slug="four")
    services.record_final_scores(game=make_game(four), scores=[40_000, 30_000, 20_000, 10_000])
    html = client.get(reverse("series-standings", args=["four"])).content.decode()
    assert ">3rd<" in html and ">4th<" in html
