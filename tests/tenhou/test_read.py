"""Reading Tenhou logs (league.tenhou.read, .mjlog, .tenhou6): ids, formats, the tiles of
hard cases, special lobbies, and every kind of damaged log refused with its code.
"""

from __future__ import annotations

import gzip
import json
import re

import pytest

from league.tenhou import (
    LogError,
    import_log,
    import_log_file,
    log_to_record,
    read_log,
    read_log_file,
)
from scoring.game import replay
from tests.realdata import require_realdata
from tests.tenhou.files import JSON, MJLOG

require_realdata()


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


def test_three_player_log_reads_as_three_seats():
    # Refused as three_player before issue #35; the sanma tests check it hand by hand.
    log = read_log_file(MJLOG / "dnovikoff-tenhou__sanma2.xml")
    assert (log.players, log.rules, len(log.kyoku[0].start_scores)) == (3, "tenhou-sanma", 3)


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



def test_a_gzip_bomb_is_refused_not_unpacked(monkeypatch):
    import gzip

    import league.tenhou as tenhou_module
    import league.tenhou.read as read_module

    monkeypatch.setattr(read_module, "MAX_UNPACKED", 1000)
    bomb = gzip.compress(b"<mjloggm>" + b" " * 5000 + b"</mjloggm>")
    with pytest.raises(tenhou_module.LogError) as err:
        tenhou_module.read_log(bomb)
    assert err.value.code == "broken_log"
    assert "unpacks to more than" in err.value.message


# -- damaged logs: each refused with its code, never a crash (issue 13) ------------------------


def _bug1() -> str:
    return (MJLOG / "dnovikoff-tenhou__bug1.xml").read_text(encoding="utf-8")


def _twin_with(change) -> str:
    """The first JSON twin with ``change`` applied to its first object."""
    lines = _first_twin()
    first = json.loads(lines[0])
    change(first)
    lines[0] = json.dumps(first, ensure_ascii=False)
    return "\n".join(lines)


def _corrupt_gzip() -> bytes:
    data = bytearray((MJLOG / "fastmaj__2014050315gm-0041-0000-7ddece8e_tw=0.mjlog.gz").read_bytes())
    for at in range(40, 60):  # damage inside the deflate stream: zlib.error, not OSError
        data[at] ^= 0x55
    return bytes(data)


def _set(path, value):
    def change(obj):
        target = obj
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


DAMAGED = [
    ("corrupted gzip", _corrupt_gzip, ("broken_log", "truncated_log"), "gzip"),
    ("non-numeric who", lambda: _bug1().replace('who="1" fromWho="0"', 'who="x" fromWho="0"', 1), "broken_log", "who"),
    ("non-numeric fromWho", lambda: _bug1().replace('who="1" fromWho="0"', 'who="1" fromWho=""', 1), "broken_log",
     "fromWho"),
    ("non-numeric oya", lambda: _bug1().replace('oya="0" hai0', 'oya="%00" hai0', 1), "broken_log", "oya"),
    ("non-numeric riichi seat", lambda: _bug1().replace('<REACH who="2" step="2"', '<REACH who="1e400" step="2"', 1),
     "broken_log", "REACH who"),
    ("non-numeric pao", lambda: _bug1().replace('who="1" fromWho="0"', 'who="1" fromWho="0" paoWho="p"', 1),
     "broken_log", "paoWho"),
    ("empty dora hai", lambda: _bug1().replace('<DORA hai="65" />', '<DORA hai="" />', 1), "broken_log", "DORA"),
    ("a name with NUL (mjlog)", lambda: _bug1().replace('n0="%E3', 'n0="%00%E3', 1), "broken_log", "NUL"),
    ("deeply nested JSON", lambda: '{"log": ' + "[" * 100_000 + "]" * 100_000 + "}", "broken_log", "nested"),
    ("1e400 in the start scores", lambda: _twin_with(_set(["log", 0, 1, 0], "START")).replace('"START"', "1e400"),
     "broken_log", "hand 1"),
    ("4,301 digits", lambda: _twin_with(_set(["log", 0, 1, 0], "START")).replace('"START"', "9" * 4301),
     "broken_log", "digits"),
    ("a name with NUL (JSON)", lambda: _twin_with(_set(["name", 2], "C\u0000")), "broken_log", "NUL"),
    ("a yaku with NUL", lambda: _twin_with(_set(["log", 0, 16, 2, 4], "立直\u0000(1飜)")), "broken_log", "NUL"),
]


@pytest.mark.parametrize(("make", "codes", "where"), [d[1:] for d in DAMAGED], ids=[d[0] for d in DAMAGED])
def test_a_damaged_log_is_refused_with_its_code(make, codes, where):
    with pytest.raises(LogError) as err:
        import_log(make())
    assert err.value.code in ((codes,) if isinstance(codes, str) else codes)
    assert where in err.value.message


@pytest.mark.parametrize("ref", ["2009139999gm-00a9-0000-f6eff225", "0001010100gm-00a9-0000-f6eff225"])
def test_a_log_id_that_is_no_real_date_has_no_date(ref):
    """The id still names the log; only a real hour of Tenhou's years dates it."""
    log = read_log(_twin_with(_set(["ref"], ref)))
    assert (log.log_id, log.date) == (ref, None)
