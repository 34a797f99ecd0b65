"""Writing a game back as tenhou.net/6 JSON (league.tenhou.export) and reading it again."""

from __future__ import annotations

import json

import pytest

from league.tenhou import (
    LogError,
    export_tenhou6,
    import_log,
    import_log_file,
)
from scoring.game import Draw, record_to_dict, replay
from tests.realdata import REALDATA, require_realdata, thousandths
from tests.tenhou.files import MJLOG, STANDARD, TWINS

require_realdata()


# -- export -------------------------------------------------------------------------------------


def _normalised(record):
    """A record as JSON, nagashi hands keeping only the tenpai the format can carry."""
    d = record_to_dict(record)
    for hand, played in zip(d["hands"], replay(record).hands, strict=True):
        outcome = played.input.outcome
        if isinstance(outcome, Draw) and outcome.nagashi:
            keep = set(played.input.riichi) | ({played.dealer} if played.result.dealer_keeps else set())
            hand["outcome"]["tenpai"] = sorted(keep)
    return d


@pytest.mark.parametrize("file", sorted(STANDARD) + [f"tenhou/json/{n}" for n in TWINS],
                         ids=[STANDARD[f]["log_id"] for f in sorted(STANDARD)] + TWINS)
def test_export_then_import_round_trips(file):
    game = import_log_file(REALDATA / file)
    text = export_tenhou6(game.record, game.names, log_id=game.log.log_id)
    back = import_log(text)
    assert back.report.ok
    assert back.report.variant == game.report.variant
    assert back.names == game.names
    assert _normalised(back.record) == _normalised(game.record)
    assert export_tenhou6(back.record, back.names, log_id=back.log.log_id) == text


def test_export_keeps_the_tenhou_id_and_the_end_result():
    game = import_log_file(MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog")
    out = json.loads(export_tenhou6(game.record, game.names, log_id=game.log.log_id))
    assert out["ref"] == "2011020401gm-00a9-0000-f6eff225"
    assert out["sc"][0::2] == list(game.log.owari.scores)
    assert [thousandths(str(p)) for p in out["sc"][1::2]] == list(game.log.owari.points)


def test_export_refuses_rules_tenhou_cannot_say():
    game = import_log_file(MJLOG / "dnovikoff-tenhou__newattr2023.xml")
    with pytest.raises(LogError) as err:
        export_tenhou6(game.record, game.names)
    assert err.value.code == "not_exportable"




# -- three players (issue 36) -------------------------------------------------------------------


def _tiles_as_sets(d):
    """A record's JSON with each kept hand's tiles as a sorted list: kobalab's paipu
    keeps the winning tile where it was drawn, the export writes hands sorted."""
    import re

    d = json.loads(json.dumps(d))  # the record's own dicts stay as they are
    for hand in d["hands"]:
        for entry in hand.get("tiles") or []:
            if isinstance(entry, dict) and isinstance(entry.get("tiles"), str):
                entry["tiles"] = sorted(f"{n}{suit}" for digits, suit in re.findall(r"(\d+)([mpsz])", entry["tiles"])
                                        for n in digits)
    return d


@pytest.mark.parametrize("name", sorted(p.name for p in (REALDATA / "sanma").iterdir() if p.suffix != ".md"))
def test_a_three_player_game_exports_and_reads_back_as_the_same_game(name):
    """Every real three-player game: four seats in the file, the fourth empty;
    each kita in the winner's tile flow (``f44``); read back, the same record,
    variants (rounded points) and end points."""
    game = import_log_file(REALDATA / "sanma" / name)
    text = export_tenhou6(game.record, game.names, log_id=game.log.log_id)
    out = json.loads(text)
    assert out["rule"]["disp"].startswith("三") and out["name"][3] == "" and out["sc"][6:] == [0, 0]
    assert all(k[1][3] == 0 and k[13:16] == [[], [], []] for k in out["log"])
    back = import_log(text)
    assert back.report.ok, back.report.discrepancies
    assert back.report.variant == tuple(v for v in game.report.variant if v != "sticks_left_out")
    assert back.names == game.names
    assert _tiles_as_sets(_normalised(back.record)) == _tiles_as_sets(_normalised(game.record))
    assert sum(w.kita for k in back.log.kyoku for w in k.wins) == sum(w.kita for k in game.log.kyoku for w in k.wins)
    assert replay(back.record).settlement.points == replay(game.record).settlement.points
    assert export_tenhou6(back.record, back.names, log_id=back.log.log_id) == text
