"""Real Tenhou logs through league.tenhou: read, replay, compare, refuse, export.

No database: league.tenhou imports no Django. The logs and the results they
must give are in ../shared/realdata (SOURCES.md, FORMATS.md there).
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from collections import defaultdict

import pytest

from league.tenhou import (
    OLD_UMA,
    LogError,
    check_log,
    export_tenhou6,
    import_log,
    import_log_file,
    log_to_record,
    read_log,
    read_log_file,
)
from scoring.game import Draw, record_to_dict, replay
from tests.realdata import REALDATA, REPO, read_csv, reproduced_tenhou_files, require_realdata, thousandths

require_realdata()

STANDARD = reproduced_tenhou_files()
MJLOG = REALDATA / "tenhou" / "mjlog"
JSON = REALDATA / "tenhou" / "json"
TWINS = sorted(p.name for p in JSON.glob("mjx__20*.json"))

# Logs whose end needs Tenhou's older rules (module docstring of league.tenhou).
OLD_UMA_LOGS = {row["file"] for row in STANDARD.values() if row["uma"] == "uma +10/+5/-5/-10"}
NO_TENPAI_YAME_LOGS = {
    "tenhou/mjlog/dnovikoff-tenhou__bug1.xml",
    "tenhou/mjlog/fastmaj__2009082713gm-00e1-0000-8820f355_tw=3.mjlog.gz",
    "tenhou/mjlog/fastmaj__2009082815gm-00e1-0000-b7e41fe8_tw=3.mjlog.gz",
    "tenhou/mjlog/fastmaj__2010030412gm-00e1-0000-4a275c59_tw=0.mjlog.gz",
    "tenhou/mjlog/fastmaj__2010060106gm-00a9-0000-30d6de3b_tw=0.mjlog.gz",
}


def _tiles(notation: str) -> list[str]:
    """'406p11z' -> ['0p', '4p', '6p', '1z', '1z'] sorted: notation compared as a multiset."""
    out = []
    for digits, suit in re.findall(r"(\d+)([mpsz])", notation):
        out += [d + suit for d in digits]
    return sorted(out)


def _theirs(hand_deltas, riichi):
    """Our deltas as the log writes them: without the riichi deposits."""
    return [d + (1000 if seat in riichi else 0) for seat, d in enumerate(hand_deltas)]


def test_the_importer_needs_no_django():
    code = "import sys, league.tenhou; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=REPO).returncode == 0


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


# -- ids, formats, rulesets --------------------------------------------------------------


def test_log_id_is_ref_then_file_name_then_content_hash():
    assert read_log_file(JSON / "mjai-reviewer__ranked_game.json").log_id == "2019050417gm-0029-0000-4f2a8622"
    gz = "fastmaj__2014050315gm-0041-0000-7ddece8e_tw=0.mjlog.gz"
    assert read_log_file(MJLOG / gz).log_id == "2014050315gm-0041-0000-7ddece8e"
    data = (MJLOG / "dnovikoff-tenhou__bug1.xml").read_bytes()
    assert re.fullmatch(r"[0-9a-f]{64}", read_log(data).log_id)
    assert read_log(data).log_id == read_log(gzip.compress(data), "bug1.xml.gz").log_id


def test_gzip_is_told_by_its_magic_bytes_not_its_name():
    gz = (MJLOG / "fastmaj__2014050315gm-0041-0000-7ddece8e_tw=0.mjlog.gz").read_bytes()
    plain = gzip.decompress(gz)
    assert read_log(gz, "game.xml") == read_log(plain, "game.mjlog.gz") == read_log(gz, "game.mjlog.gz")


@pytest.mark.parametrize(("name", "rules"), [
    ("mjai-reviewer__suukantsu_1.json", "tenhou-east"),
    ("mjai-reviewer__ranked_game.json", "tenhou"),
    ("mjai-reviewer__four_reach.json", {"preset": "tenhou-east", "overrides": {"aka_dora": 0}}),
    ("mjai-reviewer__confusing_nakis_7.json", "mahjong-soul"),
])
def test_ruleset_from_rule_disp(name, rules):
    assert read_log_file(JSON / name).rules == rules


def test_ruleset_from_go_type():
    assert read_log_file(MJLOG / "dnovikoff-tenhou__bye.xml").rules == "tenhou-east"  # 161: 鳳東
    assert read_log_file(MJLOG / "dnovikoff-tenhou__bug1.xml").rules == "tenhou"  # 169: 鳳南


def test_two_short_json_games_end_by_bust_and_match_their_sc():
    for name in ("mjai-reviewer__ranked_game.json", "mjai-reviewer__suukantsu_1.json"):
        game = import_log_file(JSON / name)
        assert game.report.ok and replay(game.record).ended_by.value == "bust"


# -- tiles of the hard cases ------------------------------------------------------------------


HARD_CASES = [
    # file, winner, loser, tiles, melds, winning tile
    ("chankan", 2, 3, "55067m406s111z", (("pon", "333m"),), "6s"),
    ("double_kakan_then_chankan", 3, 0, "23467899m345789s", (), "2m"),
    ("rinshan", 3, None, "33m456p123550s", (("ankan", "6666m"),), "6p"),
    ("suukantsu_0", 2, 1, "22s",
     (("ankan", "2222m"), ("shouminkan", "1111s"), ("shouminkan", "7777s"), ("kan", "9999s")), "2s"),
    ("confusing_nakis_4", 0, 3, "33m234p789s", (("pon", "888m"), ("pon", "666z")), "9s"),
    ("complex_nakis_0", 3, None, "23445688m406s", (("pon", "222z"),), "2m"),
    ("complex_nakis_1", 1, 0, "88m456p406789s", (("pon", "555z"),), "4s"),
]


@pytest.mark.parametrize(("name", "winner", "loser", "tiles", "melds", "win"), HARD_CASES,
                         ids=[c[0] for c in HARD_CASES])
def test_hard_calls_give_the_winning_hand(name, winner, loser, tiles, melds, win):
    (w,) = read_log_file(JSON / f"mjai-reviewer__{name}.json").kyoku[0].wins
    assert (w.winner, w.loser, w.tiles, w.melds, w.win_tile) == (winner, loser, tiles, melds, win)


def test_chankan_wins_on_the_added_tile():
    (win,) = read_log_file(JSON / "mjai-reviewer__chankan.json").kyoku[0].wins
    assert "槍槓(1飜)" in win.yaku
    assert (win.han, win.fu) == (5, None)  # 満貫: from 5 han the fu is not kept


def test_double_ron_sticks_and_riichi():
    kyoku = read_log_file(JSON / "mjai-reviewer__double_ron.json").kyoku[0]
    assert [(w.winner, w.loser, w.han, w.fu) for w in kyoku.wins] == [(0, 3, 6, None), (2, 3, 2, 30)]
    assert kyoku.riichi == (0,)
    assert kyoku.deltas == (13000, 0, 2000, -14000)


def test_mahjong_soul_conversion_keeps_english_yaku():
    (win,) = read_log_file(JSON / "mjai-reviewer__confusing_nakis_7.json").kyoku[0].wins
    assert win.yaku == ("Riichi(1飜)", "Dora(1飜)", "Ura Dora(0飜)")
    assert (win.han, win.fu) == (2, 40)


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [p.name for p in sorted((MJLOG / "partial").iterdir())])
def test_truncated_mjlog_is_refused(name):
    with pytest.raises(LogError) as err:
        import_log_file(MJLOG / "partial" / name)
    assert err.value.code == "truncated_log"


def test_three_player_log_is_refused():
    with pytest.raises(LogError) as err:
        read_log_file(MJLOG / "dnovikoff-tenhou__sanma2.xml")
    assert err.value.code == "three_player"
    assert "three-player" in err.value.message


def test_xml_cut_in_the_middle_is_refused():
    data = (MJLOG / "dnovikoff-tenhou__bug1.xml").read_bytes()
    with pytest.raises(LogError) as err:
        read_log(data[: len(data) // 2])
    assert err.value.code == "broken_log"


def test_gzip_cut_in_the_middle_is_refused():
    data = (MJLOG / "fastmaj__2014050315gm-0041-0000-7ddece8e_tw=0.mjlog.gz").read_bytes()
    with pytest.raises(LogError) as err:
        read_log(data[: len(data) // 2])
    assert err.value.code == "truncated_log"


@pytest.mark.parametrize("data", [b"", b"hello", b"{\"log\": [[[0,0,0]", b"<html></html>", b"[1, 2]"])
def test_garbage_is_refused(data):
    with pytest.raises(LogError) as err:
        read_log(data)
    assert err.value.code == "broken_log"


def _first_twin() -> list[str]:
    return (JSON / "mjx__2011020401gm-00a9-0000-f6eff225.json").read_text(encoding="utf-8").splitlines()


def test_nonsense_tile_is_refused():
    lines = _first_twin()
    first = json.loads(lines[0])
    first["log"][0][4][0] = 99  # seat 0's first haipai tile
    lines[0] = json.dumps(first, ensure_ascii=False)
    with pytest.raises(LogError) as err:
        read_log("\n".join(lines))
    assert err.value.code == "invalid_tiles"
    assert "99" in err.value.message


def test_nonsense_tile_in_an_mjlog_is_refused():
    text = (MJLOG / "dnovikoff-tenhou__bug1.xml").read_text(encoding="utf-8")
    text = re.sub(r'hai0="\d+', 'hai0="200', text, count=1)
    text = re.sub(r'(<AGARI[^>]*?hai=")\d+', r"\g<1>999", text, count=1)
    with pytest.raises(LogError) as err:
        read_log(text)
    assert err.value.code == "invalid_tiles"


def test_deltas_that_do_not_add_up_are_refused():
    lines = _first_twin()
    first = json.loads(lines[0])
    first["log"][0][16][1][0] -= 1000  # seat 0 pays 1,000 nobody receives
    lines[0] = json.dumps(first, ensure_ascii=False)
    with pytest.raises(LogError) as err:
        read_log("\n".join(lines))
    assert err.value.code == "deltas_do_not_add_up"
    assert "E1" in err.value.message


def test_scores_that_do_not_follow_are_refused():
    lines = _first_twin()
    second = json.loads(lines[1])
    second["log"][0][1][0] += 1000
    second["log"][0][1][1] -= 1000
    lines[1] = json.dumps(second, ensure_ascii=False)
    with pytest.raises(LogError) as err:
        read_log("\n".join(lines))
    assert err.value.code == "deltas_do_not_add_up"


def test_a_real_kyoku_whose_unpaid_riichi_stick_vanishes_is_refused():
    """confusing_nakis_1: seat 2's riichi discard passed, its next discard was ronned, yet no stick moved."""
    with pytest.raises(LogError) as err:
        read_log_file(JSON / "mjai-reviewer__confusing_nakis_1.json")
    assert err.value.code == "deltas_do_not_add_up"


def test_fragments_read_but_do_not_import():
    log = read_log_file(JSON / "mjai-reviewer__double_ron.json")
    assert len(log.kyoku[0].wins) == 2
    with pytest.raises(LogError) as err:
        log_to_record(log)
    assert err.value.code == "incomplete_log"
    with pytest.raises(LogError) as err:
        import_log_file(JSON / "mjx__first-example.json")
    assert err.value.code == "truncated_log"


# -- special lobbies ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["chip", "newattr2023", "ratio", "ratio1", "sanma"])
def test_special_lobby_imports_with_its_discrepancies_reported(name):
    game = import_log_file(MJLOG / f"dnovikoff-tenhou__{name}.xml")
    assert game.report.special
    assert not game.report.ok
    for d in game.report.discrepancies:
        assert d.log_id == game.log.log_id and d.ours != d.theirs


def test_special_lobby_rounds_30_fu_4_han_up_to_mangan():
    """chip and ratio1 pay 30 fu 4 han as a mangan (kiriage), Tenhou's ranked lobbies do not."""
    for name in ("chip", "ratio1"):
        first = import_log_file(MJLOG / f"dnovikoff-tenhou__{name}.xml").report.discrepancies[0]
        assert first.what == "deltas"
        assert sorted(first.theirs)[-1] - sorted(first.ours)[-1] in (300, 100)


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


def test_a_gzip_bomb_is_refused_not_unpacked(monkeypatch):
    import gzip

    import league.tenhou as tenhou_module

    monkeypatch.setattr(tenhou_module, "MAX_UNPACKED", 1000)
    bomb = gzip.compress(b"<mjloggm>" + b" " * 5000 + b"</mjloggm>")
    with pytest.raises(tenhou_module.LogError) as err:
        tenhou_module.read_log(bomb)
    assert err.value.code == "broken_log"
