"""The 27 real three-player games imported into three-player series (issue #35):
``import_logs --create-series`` picks the sanma preset from each log, and
every game is stored without ``--force`` with the log's own end scores,
places and points on its three seats. A sanma log never goes into a
four-player series (tests/league/services/test_logs.py, "three-player log").
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from league import services, tenhou
from league.models import Game, Series
from tests.factories import make_series
from tests.realdata import REALDATA, require_realdata
from tests.tenhou.test_sanma import GAMES, TWIN

require_realdata()
pytestmark = pytest.mark.django_db
SANMA = REALDATA / "sanma"


def test_import_logs_creates_the_three_sanma_series_and_stores_every_game():
    out = StringIO()
    files = sorted(str(p) for p in SANMA.iterdir() if p.suffix != ".md")  # not SOURCES.md
    call_command("import_logs", *files, "--series", "sanma", "--series", "sanma-east", "--series", "mjs",
                 "--create-series", stdout=out)
    text = out.getvalue()
    assert text.rstrip().endswith("27 imported, 1 already there, 0 refused"), text
    assert f"already   {TWIN.replace('.json', '.txt')}" in text  # the kobalab copy came first
    assert {s.slug: s.ruleset().name for s in Series.objects.all()} == {
        "sanma": "tenhou-sanma", "sanma-east": "tenhou-sanma-east", "mjs": "mahjong-soul-sanma"}
    assert {s.slug: s.games.count() for s in Series.objects.all()} == {"sanma": 20, "sanma-east": 1, "mjs": 6}
    assert Game.objects.get(source_id="2023010100gm-00f1-0000-caffca62").source == Game.Source.KOBALAB
    # Two Mahjong Soul games end after the E3 dealer's win while first (optional agari-yame).
    assert sorted(g.series.slug for g in Game.objects.filter(end=Game.End.AGARI_YAME)) == ["mjs", "mjs"]
    for name, _fmt, _preset, variant, hands, _w, _d, _k, scores, points in GAMES:
        if name.endswith(".txt"):
            continue  # stored from its kobalab copy
        log_id = tenhou.read_log_file(SANMA / name).log_id
        game = Game.objects.get(source_id=log_id)
        assert game.is_finished and game.discrepancies is None and tuple(game.variant) == variant, name
        assert game.hands.count() == hands
        seats = list(game.seats.order_by("seat"))
        assert [s.seat for s in seats] == [0, 1, 2]
        assert [s.end_score for s in seats] == scores, name
        assert [s.points for s in seats] == points, name
        assert sorted(s.place for s in seats) == [1, 2, 3]


def test_a_mapping_names_the_three_seats():
    series = make_series("tenhou-sanma")
    path = SANMA / "Mortal_Sanma__template.json"
    log_id = tenhou.read_log_file(path).log_id
    done = services.import_tenhou_log(series=series, data=path.read_bytes(), filename=path.name,
                                      names={log_id: ["Ann", "Bo", None]})
    assert [s.player.name for s in done.game.seats.order_by("seat")][:2] == ["Ann", "Bo"]
    with pytest.raises(services.LogRefused) as err:
        services.import_tenhou_log(series=make_series("tenhou-sanma"), data=path.read_bytes(),
                                   names={log_id: ["Ann", "Bo", "Cy", "Di"]})
    assert err.value.code == "invalid_names" and "three names" in err.value.message


def test_a_four_player_log_is_refused_by_a_three_player_series():
    series = make_series("tenhou-sanma")
    path = REALDATA / "tenhou" / "mjlog" / "dnovikoff-tenhou__bug1.xml"
    with pytest.raises(services.LogRefused) as err:
        services.import_tenhou_log(series=series, data=path.read_bytes(), filename=path.name)
    assert err.value.code == "rules_differ" and "plays tenhou-sanma" in err.value.message
