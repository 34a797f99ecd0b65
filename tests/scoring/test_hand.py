"""The ``hand`` op as a whole: response shape, payments with honba and sticks,
the refusals with their codes and fields, the ruleset switches the `mahjong`
package cannot express, and the human CLI."""

from __future__ import annotations

import dataclasses
import inspect
import json
import subprocess
import sys

import pytest

from scoring.errors import HandError, ScoringError
from scoring.hand import EAST, HandResult, Situation, check_situation
from scoring.hand_api import hand_cli, hand_request
from scoring.rules import get_ruleset
from tests.scoring.test_yaku import score, yaku

ISSUE_EXAMPLE = {
    "op": "hand", "rules": "tenhou", "tiles": "234m678p11s",
    "melds": [{"type": "pon", "tiles": "555z"}, {"type": "ankan", "tiles": "0555p"}],
    "win": "1s", "tsumo": False, "seat": "E", "round": "E", "dora": ["4m"], "ura": [], "riichi": False,
    "double_riichi": False, "ippatsu": False, "haitei": False, "houtei": False, "rinshan": False, "chankan": False,
    "tenhou": False, "chiihou": False, "renhou": False, "honba": 0, "riichi_sticks": 0,
}


def test_hand_request_answers_the_issue_example():
    # The issue writes 567p beside an ankan of 5p: five 5p. With 678p the hand exists.
    out = hand_request(ISSUE_EXAMPLE)
    assert out == {
        "han": 2, "fu": 50, "yakuman": 0, "limit": None,
        "yaku": [{"id": "yakuhai_haku", "han": 1}, {"id": "aka_dora", "han": 1}],
        "fu_details": [{"reason": "base", "fu": 20}, {"reason": "open_terminal_triplet", "fu": 4},
                       {"reason": "closed_kan", "fu": 16}, {"reason": "tanki", "fu": 2}],
        "payment": {"ron": 4800}, "total": 4800, "with_bonus": 4800,
    }


def test_hand_request_refuses_the_fifth_copy_in_the_issue_example_as_written():
    with pytest.raises(HandError) as err:
        hand_request({**ISSUE_EXAMPLE, "tiles": "234m567p11s"})
    assert (err.value.code, err.value.field) == ("too_many_copies", "tiles")


@pytest.mark.parametrize("tsumo, seat, honba, sticks, payment, total, with_bonus", [
    (False, "S", 2, 1, {"ron": 2000}, 2000, 2000 + 600 + 1000),
    (True, "S", 2, 1, {"tsumo_dealer": 1300, "tsumo_non_dealer": 700}, 2700, 2700 + 600 + 1000),
    (True, "E", 1, 0, {"tsumo_all": 1300}, 3900, 3900 + 300),
])
def test_payment_parts_sum_to_total_and_bonus_adds_honba_and_sticks(tsumo, seat, honba, sticks, payment, total,
                                                                      with_bonus):
    # riichi + pinfu (+ menzen tsumo): 2 han 30 fu ron, 3 han 20 fu tsumo
    out = score("123m456p789s234s99m", "2s", riichi=True, tsumo=tsumo, seat=seat, honba=honba,
                riichi_sticks=sticks)
    assert (out["payment"], out["total"], out["with_bonus"]) == (payment, total, with_bonus)


def test_yakuman_response_counts_yakuman_and_han_13_each():
    out = score("111m333p555s777s99p", "9p")  # suuankou tanki, double under Ari-Ari
    assert (out["han"], out["yakuman"], out["limit"], out["payment"]) == (26, 2, "yakuman", {"ron": 64000})


@pytest.mark.parametrize("rules, limit, ron", [("ari-ari", "yakuman", 32000), ("ema-2016", "sanbaiman", 24000)])
def test_counted_yakuman_keeps_its_han(rules, limit, ron):
    # riichi 1, ippatsu 1, pinfu 1, tanyao 1, ryanpeikou 3, chinitsu 6: 13 han
    out = score("22334455667788p", "8p", riichi=True, ippatsu=True, rules=rules)
    assert (out["han"], out["yakuman"], out["limit"], out["payment"]) == (13, 0, limit, {"ron": ron})


def test_real_yakuman_beats_counted_yakuman_at_equal_pay():
    # 222 333 444 555 66p by tsumo is suuankou tanki; read as 234 x3 + 555 + 66 it is
    # riichi, tsumo, tanyao, iipeikou, chinitsu and 3 dora: 13 han, a counted yakuman
    # that pays the same on Tenhou (no double yakuman). The real one is kept.
    out = score("22233344455566p", "6p", tsumo=True, riichi=True, dora=["1p"], rules="tenhou")
    assert (yaku(out), out["yakuman"], out["han"]) == ([("suuankou_tanki", 13)], 1, 13)


def test_four_red_fives_under_a_four_aka_ruleset():
    four = {"preset": "ari-ari", "overrides": {"aka_dora": 4}}
    out = score("123m456p789s234s00p", "2s", rules=four, riichi=True)
    assert ("aka_dora", 2) in yaku(out)
    with pytest.raises(HandError) as err:
        score("123m456p789s234s00p", "2s", riichi=True)
    assert err.value.code == "too_many_red_fives"


def test_no_red_fives_under_ema():
    with pytest.raises(HandError) as err:
        score("123m406p789s234s99m", "2s", rules="ema-2016", riichi=True)
    assert (err.value.code, err.value.field) == ("too_many_red_fives", "tiles")


# (case, request changes, code, field)
REFUSALS = [
    ("a fifth copy", {"tiles": "11111m456p789s234s", "win": "1m"}, "too_many_copies", "tiles"),
    ("a fifth copy with the indicators", {"tiles": "111m456p789s234s99m", "dora": ["1m", "1m"]},
     "too_many_copies", "tiles"),
    ("a fifth copy: a pair and three indicators", {"tiles": "123m456p789s234s99m", "win": "9m", "dora": ["9m", "9m"],
     "riichi": True, "ura": ["9m"]}, "too_many_copies", "tiles"),
    ("wrong tile count", {"tiles": "123m456p789s234s9m", "win": "9m"}, "wrong_tile_count", "tiles"),
    ("winning tile not in the hand", {"win": "7z"}, "win_not_in_hand", "win"),
    ("red winning tile not in the hand", {"win": "0p"}, "win_not_in_hand", "win"),
    ("chi of scattered tiles", {"tiles": "123m456p789s99m", "win": "9m", "melds": [{"type": "chi", "tiles": "135s"}]},
     "invalid_meld", "melds[0].tiles"),
    ("chi of honours", {"tiles": "123m456p789s99m", "win": "9m", "melds": [{"type": "chi", "tiles": "123z"}]},
     "invalid_meld", "melds[0].tiles"),
    ("kan of three", {"tiles": "123m456p789s99m", "win": "9m", "melds": [{"type": "kan", "tiles": "555s"}]},
     "invalid_meld", "melds[0].tiles"),
    ("unknown meld type", {"tiles": "123m456p789s99m", "win": "9m", "melds": [{"type": "minkan", "tiles": "555s"}]},
     "invalid_meld", "melds[0].type"),
    ("riichi with an open hand", {"tiles": "123m456p789s99m", "win": "9m", "riichi": True,
                                  "melds": [{"type": "pon", "tiles": "555z"}]}, "riichi_open_hand", "riichi"),
    ("ippatsu without riichi", {"ippatsu": True}, "ippatsu_without_riichi", "ippatsu"),
    ("ura without riichi", {"ura": ["1m"]}, "ura_without_riichi", "ura"),
    ("renhou where the rules have none", {"renhou": True}, "renhou_not_allowed", "renhou"),
    ("haitei by ron", {"haitei": True}, "situation_conflict", "haitei"),
    ("houtei by tsumo", {"houtei": True, "tsumo": True}, "situation_conflict", "houtei"),
    ("rinshan without a kan", {"rinshan": True, "tsumo": True}, "situation_conflict", "rinshan"),
    ("chankan on a tile we hold twice", {"tiles": "123m456p789s234s99m", "win": "9m", "chankan": True},
     "situation_conflict", "chankan"),
    ("tenhou for a non-dealer", {"tenhou": True, "tsumo": True}, "situation_conflict", "tenhou"),
    ("chiihou by ron", {"chiihou": True}, "situation_conflict", "chiihou"),
    ("not a winning hand", {"tiles": "123m456p789s235s99m", "win": "2s"}, "not_winning", "tiles"),
    ("no yaku", {"tiles": "123m456p789s234s11z", "win": "1z"}, "no_yaku", "tiles"),
    ("bad notation", {"tiles": "123m456p789s234s99x"}, "invalid_tile", "tiles"),
    ("honour 8z", {"dora": ["8z"]}, "invalid_tile", "dora[0]"),
    ("digits with no suit", {"tiles": "123m456p789s234s99"}, "invalid_tile", "tiles"),
    ("two winning tiles", {"win": "2s3s"}, "invalid_tile", "win"),
    ("unknown key", {"colour": "red"}, "unknown_key", "colour"),
    ("unknown meld key", {"melds": [{"type": "pon", "tiles": "555z", "from": 1}]}, "unknown_key", "melds[0].from"),
    ("bad seat", {"seat": "X"}, "invalid_wind", "seat"),
    ("flag not a boolean", {"riichi": 1}, "invalid_flag", "riichi"),
    ("negative honba", {"honba": -1}, "invalid_honba", "honba"),
]


@pytest.mark.parametrize("case, change, code, field", REFUSALS, ids=[c[0] for c in REFUSALS])
def test_hand_request_refuses_with_code_and_field(case, change, code, field):
    req = {"op": "hand", "tiles": "123m456p789s234s99m", "win": "2s", "seat": "S", "round": "E", **change}
    with pytest.raises(HandError) as err:
        hand_request(req)
    assert (err.value.code, err.value.field) == (code, field), err.value.message


@pytest.mark.parametrize("missing", ["tiles", "win", "seat", "round"])
def test_hand_request_needs_tiles_win_and_winds(missing):
    req = {"op": "hand", "tiles": "123m456p789s234s99m", "win": "2s", "seat": "S", "round": "E"}
    del req[missing]
    with pytest.raises(HandError) as err:
        hand_request(req)
    assert (err.value.code, err.value.field) == ("missing_key", missing)


def test_hand_request_unknown_preset_is_a_rules_error():
    with pytest.raises(ScoringError) as err:
        score("123m456p789s234s99m", "2s", rules="nope")
    assert (err.value.code, err.value.field) == ("unknown_preset", "rules")


def test_hand_cli_prints_a_breakdown(capsys):
    code = hand_cli(["234m678p11s", "--pon", "555z", "--ankan", "0555p", "--win", "1s", "--dora", "4m",
                     "--seat", "E", "--round", "E", "--rules", "tenhou"])
    out = capsys.readouterr().out
    assert code == 0
    assert "yakuhai_haku" in out and "closed_kan" in out and "2 han 50 fu: ron 4800" in out


def test_hand_cli_errors_go_to_stderr_with_exit_2(capsys):
    code = hand_cli(["234m567p11s", "--pon", "555z", "--ankan", "0555p", "--win", "1s", "--seat", "E",
                     "--round", "E"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and "too_many_copies" in captured.err


def test_hand_cli_usage_error_exits_2(capsys):
    assert hand_cli(["123m"]) == 2  # --win, --seat and --round are required


def test_hand_op_runs_through_python_m_scoring():
    line = json.dumps({**ISSUE_EXAMPLE})
    run = subprocess.run([sys.executable, "-m", "scoring"], input=line + "\n", capture_output=True, text=True,
                         check=True)
    assert json.loads(run.stdout)["payment"] == {"ron": 4800}


@pytest.mark.parametrize("cls", [Situation, HandResult])
def test_value_objects_with_a_hand_written_init_keep_their_dataclass_fields(cls):
    # Situation and HandResult fill __dict__ in one step instead of the
    # dataclass __init__ (they are built per hand): the same names, order and
    # defaults, and still frozen and comparable.
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [(p.name, p.default) for p in params] == [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(cls)
    ]
    sit = Situation(tsumo=True, seat=EAST, dora=(3,))
    assert sit == dataclasses.replace(Situation(), tsumo=True, dora=(3,))
    assert hash(sit) == hash(Situation(True, dora=(3,)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        sit.tsumo = False  # type: ignore[misc]


ARI = get_ruleset("ari-ari")


# A win given by han and fu: the situation's flags held to the same rules without the tiles.
@pytest.mark.parametrize(
    ("why", "situation", "opened", "code", "field"),
    [
        ("ippatsu without riichi", {"ippatsu": True}, False, "ippatsu_without_riichi", "ippatsu"),
        ("ippatsu without riichi, by tsumo", {"ippatsu": True, "tsumo": True}, False, "ippatsu_without_riichi",
         "ippatsu"),
        ("riichi on an open hand", {"riichi": True}, True, "riichi_open_hand", "riichi"),
        ("double riichi on an open hand", {"double_riichi": True}, True, "riichi_open_hand", "double_riichi"),
        ("haitei by ron", {"haitei": True}, False, "situation_conflict", "haitei"),
        ("houtei by tsumo", {"houtei": True, "tsumo": True}, False, "situation_conflict", "houtei"),
        ("rinshan by ron", {"rinshan": True}, False, "situation_conflict", "rinshan"),
        ("chankan by tsumo", {"chankan": True, "tsumo": True}, False, "situation_conflict", "chankan"),
        ("renhou where the rules have none", {"renhou": True}, False, "renhou_not_allowed", "renhou"),
    ],
)
def test_a_situation_without_tiles_is_refused_where_the_rules_say_it_cannot_be(why, situation, opened, code, field):
    with pytest.raises(HandError) as err:
        check_situation(ARI, Situation(**situation), opened=opened)
    assert (err.value.code, err.value.field) == (code, field), why


@pytest.mark.parametrize(
    ("situation", "opened"),
    [
        ({"riichi": True, "ippatsu": True}, False),
        ({"double_riichi": True, "ippatsu": True, "tsumo": True}, False),
        ({"rinshan": True, "tsumo": True}, True),  # the kan is not known: not refused without the tiles
        ({"haitei": True, "tsumo": True}, True),
        ({"houtei": True}, True),
        ({}, True),
    ],
)
def test_a_possible_situation_without_tiles_passes(situation, opened):
    check_situation(ARI, Situation(**situation), opened=opened)


def test_a_ruleset_without_ippatsu_refuses_it_with_tiles_or_without():
    jpml = get_ruleset("jpml-a-2024")
    with pytest.raises(HandError) as err:
        check_situation(jpml, Situation(riichi=True, ippatsu=True))
    assert (err.value.code, err.value.field) == ("ippatsu_not_allowed", "ippatsu")
    request = {"rules": "jpml-a-2024", "tiles": "234m678p234s55s678m", "win": "8m", "seat": "S", "round": "E",
               "riichi": True, "ippatsu": True}
    with pytest.raises(HandError) as err:
        hand_request(request)
    assert (err.value.code, err.value.field) == ("ippatsu_not_allowed", "ippatsu")
    assert hand_request({**request, "rules": "ari-ari"})["han"] == hand_request({**request, "ippatsu": False})["han"] + 1
