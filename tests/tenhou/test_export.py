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


