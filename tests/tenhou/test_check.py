"""Real Tenhou logs replayed through ``scoring`` and compared hand by hand (league.tenhou.check).

No database: league.tenhou imports no Django. The logs and the results they
must give are in ../shared/realdata (SOURCES.md, FORMATS.md there).
"""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from league.tenhou import (
    OLD_UMA,
    check_log,
    import_log_file,
    read_log_file,
)
from scoring.game import record_to_dict, replay
from tests.realdata import REALDATA, read_csv, require_realdata, thousandths
from tests.tenhou.files import JSON, MJLOG, NO_TENPAI_YAME_LOGS, OLD_UMA_LOGS, STANDARD, TWINS, _theirs, _tiles

require_realdata()


# -- the 125 standard games ---------------------------------------------------------


def test_all_125_standard_games_are_here():
    assert len(STANDARD) == 125
    assert len(OLD_UMA_LOGS) == 6


@pytest.mark.parametrize("file", sorted(STANDARD), ids=[STANDARD[f]["log_id"] for f in sorted(STANDARD)])
def test_standard_game_replays_exactly(file):
    row = STANDARD[file]
    game = import_log_file(REALDATA / file)
    assert game.report.discrepancies == ()
    result = replay(game.record)
    assert result.finished
    assert len(result.hands) == len(game.log.kyoku) == int(row["hands"])
    for played, kyoku in zip(result.hands, game.log.kyoku, strict=True):
        assert (played.round, played.honba, played.riichi_sticks) == (kyoku.round, kyoku.honba, kyoku.sticks)
        assert played.start.scores == kyoku.start_scores
        assert _theirs(played.deltas, played.input.riichi) == list(kyoku.deltas)
    settlement = result.settlement
    assert list(settlement.final_scores) == [int(row[f"final_score_{i}"]) for i in range(4)]
    assert list(settlement.points) == [thousandths(row[f"points_{i}"]) for i in range(4)]
    assert list(settlement.places) == [int(row[f"rank_{i}"]) for i in range(4)]


@pytest.mark.parametrize("file", sorted(STANDARD), ids=[STANDARD[f]["log_id"] for f in sorted(STANDARD)])
def test_standard_game_takes_the_historical_variant_its_log_needs(file):
    report = check_log(read_log_file(REALDATA / file))
    expected = tuple(v for v, logs in (("no_tenpai_yame", NO_TENPAI_YAME_LOGS), ("old_uma", OLD_UMA_LOGS))
                     if file in logs)
    assert report.variant == expected
    overrides = report.rules["overrides"] if isinstance(report.rules, dict) else {}
    assert ("uma" in overrides) == (file in OLD_UMA_LOGS)
    if "uma" in overrides:
        assert tuple(overrides["uma"]) == OLD_UMA


def test_variants_follow_the_dates_of_the_rule_changes():
    """Old uma only before August 2009, no tenpai-yame only before mid-2010 (undated logs: by evidence)."""
    for file in OLD_UMA_LOGS | NO_TENPAI_YAME_LOGS:
        log = read_log_file(REALDATA / file)
        if log.date is not None:
            assert log.date < ("2009080100" if file in OLD_UMA_LOGS else "2010080100"), file


def test_every_standard_hand_matches_the_derived_hand_table():
    rows = defaultdict(dict)
    for row in read_csv("derived/tenhou_mjlog_hands.csv"):
        rows[row["file"]][int(row["hand_index"])] = row
    checked = 0
    for file in STANDARD:
        log = read_log_file(REALDATA / file)
        assert len(log.kyoku) == len(rows[file])
        for i, kyoku in enumerate(log.kyoku):
            row = rows[file][i]
            assert (kyoku.round, kyoku.honba, kyoku.sticks, kyoku.dealer) == (
                int(row["round"]), int(row["honba"]), int(row["riichi_sticks"]), int(row["dealer"]))
            assert list(kyoku.start_scores) == [int(x) for x in row["start_scores"].split()]
            parts = [[int(x) for x in part.split()] for part in row["deltas"].split(";")]
            assert list(kyoku.deltas) == [sum(column) for column in zip(*parts, strict=True)]
            if kyoku.wins:  # one part per win of a double ron
                assert [list(w.deltas) for w in kyoku.wins] == parts
            assert kyoku.dora[0] == row["dora_indicator"]
            kind = {"AGARI": "win", "AGARI;AGARI": "win", "RYUUKYOKU": "draw", "RYUUKYOKU:nm": "draw"}
            assert kyoku.kind == kind.get(row["results"], "abort"), (file, i)
            checked += 1
    assert checked == sum(int(row["hands"]) for row in STANDARD.values())


_MELD_TYPES = {"chi": "chi", "pon": "pon", "kakan": "shouminkan", "minkan": "kan", "ankan": "ankan"}


def test_every_standard_win_keeps_the_tiles_of_the_derived_win_table():
    wins = defaultdict(list)
    for row in read_csv("derived/tenhou_mjlog_agari.csv"):
        if row["file"] in STANDARD:
            wins[row["file"], int(row["hand_index"])].append(row)
    checked = 0
    for file in STANDARD:
        log = read_log_file(REALDATA / file)
        for i, kyoku in enumerate(log.kyoku):
            for win, row in zip(kyoku.wins, wins.get((file, i), []), strict=True):
                assert win.winner == int(row["winner"])
                assert _tiles(win.tiles) == _tiles(row["closed_hand"])
                assert win.win_tile == row["winning_tile"]
                melds = sorted((_MELD_TYPES[m.split(":")[0]], _tiles(m.split(":")[1])) for m in row["melds"].split())
                assert sorted((kind, _tiles(tiles)) for kind, tiles in win.melds) == melds
                assert list(kyoku.dora) == row["dora_indicators"].split()
                assert (list(kyoku.ura) if win.riichi else []) == row["ura_indicators"].split()
                assert list(win.yaku) == [y for y in row["yaku"].split(";") if y != "裏ドラ(0飜)"]
                if int(row["yakuman_count"]):
                    assert (win.han, win.fu, win.yakuman) == (0, None, int(row["yakuman_count"]))
                else:
                    assert win.han == int(row["han"])
                    assert win.fu == (int(row["fu"]) if win.han < 5 else None)
                checked += 1
    assert checked == sum(len(rows) for rows in wins.values()) >= 900


def test_the_record_carries_tiles_and_yaku_per_win():
    game = import_log_file(MJLOG / "mjx__double-ron.mjlog")
    double = [h for h in game.record.hands if h.outcome.type == "ron" and len(h.outcome.wins) == 2]
    assert double
    hand = double[0]
    assert len(hand.tiles) == len(hand.yaku) == 2
    assert set(hand.tiles[0]) == {"tiles", "melds", "win", "dora", "ura"}
    json.dumps(record_to_dict(game.record))  # plain JSON all the way down


def test_pao_comes_through():
    game = import_log_file(MJLOG / "mjx__pao-tsumo.mjlog")
    pao = [h.outcome for h in game.record.hands if getattr(h.outcome, "pao", None) is not None]
    assert len(pao) == 1 and pao[0].yakuman == 1
    assert game.report.ok


# -- JSON and XML copies of one game -------------------------------------------------


def test_thirty_one_json_twins():
    assert len(TWINS) == 31


@pytest.mark.parametrize("name", TWINS)
def test_json_twin_gives_the_same_hands_as_the_mjlog(name):
    from_json = read_log_file(JSON / name)
    from_xml = read_log_file(MJLOG / name.replace(".json", ".mjlog"))
    assert from_json.log_id == from_xml.log_id
    assert from_json.rules == from_xml.rules == "tenhou"
    assert len(from_json.kyoku) == len(from_xml.kyoku)
    for a, b in zip(from_json.kyoku, from_xml.kyoku, strict=True):
        if a.nagashi:
            # tenhou.net/6 hides who was tenpai under a nagashi: we keep the
            # riichi seats and the dealer if the deal stayed, the XML says all.
            assert set(a.tenpai) <= set(b.tenpai)
            assert (a.dealer in a.tenpai) == (a.dealer in b.tenpai)
            b = type(b)(**{**b.__dict__, "tenpai": a.tenpai})
        assert a == b
    game = import_log_file(JSON / name)
    assert game.report.ok


