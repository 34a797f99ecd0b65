"""Every yaku of the Ari-Ari rules (§8.1-8.7) and the situational ones, one
canonical hand each, written the way the rulebook states them.

Unless a case says otherwise the winner sits South in the East round (no
seat or round wind for East/South honours other than 2z and 1z) and wins by
ron; `score` fills the rest of a ``hand`` request.
"""

from __future__ import annotations

import pytest

from scoring.errors import HandError
from scoring.hand_api import hand_request


def score(tiles: str, win: str, *melds: str, rules: str = "ari-ari", **extra) -> dict:
    """``score("123m456p789s234s99m", "2s", "pon:555z", riichi=True)``"""
    req = {"op": "hand", "rules": rules, "tiles": tiles, "win": win, "seat": "S", "round": "E",
           "melds": [{"type": m.split(":")[0], "tiles": m.split(":")[1]} for m in melds]}
    req.update(extra)
    return hand_request(req)


def yaku(out: dict) -> list[tuple[str, int]]:
    return [(y["id"], y["han"]) for y in out["yaku"]]


# (case, tiles, win, melds, flags, yaku listed)
YAKU_CASES = [
    # 8.1 one han
    ("riichi", "123m456p789s234s99m", "2s", (), {"riichi": True}, [("riichi", 1), ("pinfu", 1)]),
    ("double riichi is listed alone at 2 han", "123m456p789s234s99m", "2s", (),
     {"riichi": True, "double_riichi": True}, [("double_riichi", 2), ("pinfu", 1)]),
    ("ippatsu", "123m456p789s234s99m", "2s", (), {"riichi": True, "ippatsu": True},
     [("riichi", 1), ("ippatsu", 1), ("pinfu", 1)]),
    ("menzen tsumo", "123m456p789s234s99m", "2s", (), {"tsumo": True}, [("menzen_tsumo", 1), ("pinfu", 1)]),
    ("pinfu needs the open-ended wait", "123m456p789s234s99m", "2s", (), {}, [("pinfu", 1)]),
    ("iipeikou", "112233m456p789s55s", "1m", (), {}, [("pinfu", 1), ("iipeikou", 1)]),
    ("tanyao closed", "234m456p678s345s88p", "8p", (), {}, [("tanyao", 1)]),
    ("tanyao open (kuitan)", "234m456p88s", "8s", ("chi:678s", "pon:333p"), {}, [("tanyao", 1)]),
    ("haitei", "123m456p88s", "8s", ("chi:789s", "pon:999p"), {"tsumo": True, "haitei": True}, [("haitei", 1)]),
    ("houtei", "123m456p88s", "8s", ("chi:789s", "pon:999p"), {"houtei": True}, [("houtei", 1)]),
    ("rinshan", "123m456p88s", "8s", ("chi:789s", "kan:9999p"), {"tsumo": True, "rinshan": True},
     [("rinshan", 1)]),
    ("chankan", "123m456p88s", "4p", ("chi:789s", "pon:999p"), {"chankan": True}, [("chankan", 1)]),
    ("sangenpai: white", "123m456p789s55566z", "6z", (), {}, [("yakuhai_haku", 1)]),
    ("sangenpai: green", "123m456p789s66677z", "7z", (), {}, [("yakuhai_hatsu", 1)]),
    ("sangenpai: red", "123m456p789s77755z", "5z", (), {}, [("yakuhai_chun", 1)]),
    ("jikaze: seat wind", "123m456p789s22244z", "4z", (), {}, [("yakuhai_seat_wind", 1)]),
    ("bakaze: round wind", "123m456p789s11144z", "4z", (), {}, [("yakuhai_round_wind", 1)]),
    ("sanshoku closed", "123m123p123s789m55p", "5p", (), {}, [("sanshoku", 2)]),
    ("sanshoku open is 1 han", "123m123p789m55p", "5p", ("chi:123s",), {}, [("sanshoku", 1)]),
    ("ittsuu closed", "123456789m234p55s", "5s", (), {}, [("ittsuu", 2)]),
    ("ittsuu open is 1 han", "123456m234p55s", "5s", ("chi:789m",), {}, [("ittsuu", 1)]),
    ("chanta closed", "123m789p11999s444z", "1s", (), {}, [("chanta", 2)]),
    ("chanta open is 1 han", "123m789p11s444z", "1s", ("pon:999s",), {}, [("chanta", 1)]),
    # 8.2 two han
    ("chiitoitsu", "1133m5577p99s1144z", "1z", (), {}, [("chiitoitsu", 2)]),
    ("toitoi", "666s777s99m", "9m", ("pon:222m", "pon:444p"), {}, [("toitoi", 2)]),
    ("sanankou", "222m444p666s567s99m", "5s", (), {}, [("sanankou", 2)]),
    ("sankantsu", "345s99m", "9m", ("kan:2222m", "ankan:4444p", "kan:6666s"), {}, [("sankantsu", 2)]),
    ("sanshoku doukou (with sanankou)", "222m222p222s456m99s", "9s", (), {},
     [("sanankou", 2), ("sanshoku_doukou", 2)]),
    ("honroutou (with toitoi, sanankou)", "999p11199s333z", "9s", ("pon:111m",), {},
     [("toitoi", 2), ("sanankou", 2), ("honroutou", 2)]),
    ("shousangen (with both dragon triplets)", "55566677z123m456p", "3m", (), {},
     [("yakuhai_haku", 1), ("yakuhai_hatsu", 1), ("shousangen", 2)]),
    # 8.3 three han
    ("ryanpeikou beats seven pairs", "112233m445566p55s", "1m", (), {}, [("pinfu", 1), ("ryanpeikou", 3)]),
    ("junchan closed", "123789m11123p999s", "3p", (), {}, [("junchan", 3)]),
    ("junchan open is 2 han", "123789m11123p", "3p", ("pon:999s",), {}, [("junchan", 2)]),
    ("honitsu closed", "123345m789m11z222z", "1z", (), {}, [("yakuhai_seat_wind", 1), ("honitsu", 3)]),
    ("honitsu open is 2 han", "123345m11z222z", "1z", ("chi:789m",), {}, [("yakuhai_seat_wind", 1), ("honitsu", 2)]),
    # 8.4 / 8.5: chinitsu 6 closed, 5 open
    ("chinitsu closed", "11122233345699p", "9p", (), {}, [("sanankou", 2), ("chinitsu", 6)]),
    ("chinitsu open is 5 han", "12345699p", "9p", ("chi:789p", "pon:222p"), {}, [("ittsuu", 1), ("chinitsu", 5)]),
]


@pytest.mark.parametrize("case, tiles, win, melds, flags, expected", YAKU_CASES, ids=[c[0] for c in YAKU_CASES])
def test_yaku_listed_as_the_rules_state(case, tiles, win, melds, flags, expected):
    assert yaku(score(tiles, win, *melds, **flags)) == expected


# (case, tiles, win, melds, flags, rules, yakuman listed as (id, yakuman count))
YAKUMAN_CASES = [
    ("tenhou", "123m456p789s234s55p", "5p", (), {"tsumo": True, "tenhou": True, "seat": "E"}, "ari-ari",
     [("tenhou", 1)]),
    ("chiihou", "123m456p789s234s55p", "5p", (), {"tsumo": True, "chiihou": True}, "ari-ari", [("chiihou", 1)]),
    ("daisangen", "555666777z123m99p", "9p", (), {}, "ari-ari", [("daisangen", 1)]),
    ("shousuushii", "111222333z44z123m", "3m", (), {}, "ari-ari", [("shousuushii", 1)]),
    ("daisuushii is double", "222333444z55m", "5m", ("pon:111z",), {}, "ari-ari", [("daisuushii", 2)]),
    ("daisuushii is single on tenhou", "222333444z55m", "5m", ("pon:111z",), {}, "tenhou", [("daisuushii", 1)]),
    ("tsuuiisou as seven pairs", "11223344556677z", "7z", (), {}, "ari-ari", [("tsuuiisou", 1)]),
    ("chinroutou", "999m111p999p11s", "1s", ("pon:111m",), {}, "ari-ari", [("chinroutou", 1)]),
    ("ryuuiisou without green dragon", "22334444888s", "2s", ("pon:666s",), {}, "ari-ari", [("ryuuiisou", 1)]),
    ("ryuuiisou", "223344666888s66z", "6z", (), {}, "ari-ari", [("ryuuiisou", 1)]),
    ("suuankou by tsumo on a shanpon", "111m333p555s777s99p", "7s", (), {"tsumo": True}, "ari-ari",
     [("suuankou", 1)]),
    ("suuankou tanki is double", "111m333p555s777s99p", "9p", (), {}, "ari-ari", [("suuankou_tanki", 2)]),
    ("suuankou tanki is single on tenhou", "111m333p555s777s99p", "9p", (), {}, "tenhou", [("suuankou_tanki", 1)]),
    ("suukantsu", "55z", "5z", ("kan:2222m", "ankan:4444p", "kan:6666s", "shouminkan:8888s"), {}, "ari-ari",
     [("suukantsu", 1)]),
    ("chuuren", "11123455678999p", "1p", (), {}, "ari-ari", [("chuuren", 1)]),
    ("junsei chuuren: the nine-sided wait", "11123455678999p", "5p", (), {}, "ari-ari", [("junsei_chuuren", 2)]),
    ("kokushi", "119m19p19s1234567z", "9m", (), {}, "ari-ari", [("kokushi", 1)]),
    ("kokushi 13-sided wait", "119m19p19s1234567z", "1m", (), {}, "ari-ari", [("kokushi_13", 2)]),
    ("kokushi robbing a kan: chankan is not listed beside a yakuman", "19m19p19s12345677z", "1m", (),
     {"chankan": True}, "ari-ari", [("kokushi", 1)]),
    ("different yakuman stack", "222333444z55z", "5z", ("pon:111z",), {}, "ari-ari",
     [("daisuushii", 2), ("tsuuiisou", 1)]),
    ("no stacking under EMA: the biggest one only", "222333444z55z", "5z", ("pon:111z",), {}, "ema-2016",
     [("daisuushii", 1)]),
]


@pytest.mark.parametrize("case, tiles, win, melds, flags, rules, expected", YAKUMAN_CASES,
                         ids=[c[0] for c in YAKUMAN_CASES])
def test_yakuman_listed_at_13_han_each(case, tiles, win, melds, flags, rules, expected):
    out = score(tiles, win, *melds, rules=rules, **flags)
    assert yaku(out) == [(name, 13 * n) for name, n in expected]
    count = sum(n for _, n in expected)
    assert (out["yakuman"], out["han"], out["limit"]) == (count, 13 * count, "yakuman")


def test_yakuman_drops_ordinary_yaku_and_dora():
    out = score("555666777z123m99p", "9p", riichi=True, dora=["4z"])
    assert yaku(out) == [("daisangen", 13)]


def test_double_wind_counts_both_wind_entries():
    out = score("123m456p789s11144z", "4z", seat="E")
    assert yaku(out) == [("yakuhai_seat_wind", 1), ("yakuhai_round_wind", 1)]


def test_open_tanyao_switch_off_leaves_no_yaku():
    rules = {"preset": "ari-ari", "overrides": {"open_tanyao": False}}
    with pytest.raises(HandError) as err:
        score("234m456p88s", "8s", "chi:678s", "pon:333p", rules=rules)
    assert err.value.code == "no_yaku"


def test_dora_aka_and_ura_count_from_indicators():
    # 9m shows 1m (wraps), 4z (North) shows East, 7z (Red) shows White.
    out = score("111m456p789s234s55z", "2s", dora=["9m", "7z"], ura=["4z"], riichi=True, rules="tenhou")
    assert [y for y in yaku(out) if "dora" in y[0]] == [("dora", 5)]
    out = score("111m406p789s234s11z", "2s", dora=["9m"], ura=["4z"], riichi=True, rules="tenhou")
    assert [y for y in yaku(out) if "dora" in y[0]] == [("dora", 3), ("aka_dora", 1), ("ura_dora", 2)]


def test_dora_alone_is_not_a_yaku():
    with pytest.raises(HandError) as err:
        score("123m456p789s22s", "2s", "pon:999m", dora=["1s"])
    assert (err.value.code, err.value.field) == ("no_yaku", "tiles")


@pytest.mark.parametrize("mode, expected_yaku, han, limit", [
    ("han5", [("pinfu", 1), ("renhou", 5)], 6, "haneman"),
    ("mangan", [("renhou", 5)], 5, "mangan"),
    ("yakuman", [("renhou", 13)], 13, "yakuman"),
])
def test_renhou_under_each_ruleset_mode(mode, expected_yaku, han, limit):
    rules = {"preset": "ari-ari", "overrides": {"renhou": mode}}
    out = score("123m456p789s234s99m", "2s", rules=rules, renhou=True)
    assert (yaku(out), out["han"], out["limit"]) == (expected_yaku, han, limit)


def test_renhou_as_mangan_gives_way_to_a_bigger_hand():
    rules = {"preset": "ari-ari", "overrides": {"renhou": "mangan"}}
    # pinfu, tanyao, ryanpeikou and two dora: 7 han, more than renhou's mangan
    out = score("22334455m667788p", "8p", rules=rules, renhou=True, dora=["7p"])
    assert (yaku(out), out["limit"]) == ([("pinfu", 1), ("tanyao", 1), ("ryanpeikou", 3), ("dora", 2)], "haneman")
