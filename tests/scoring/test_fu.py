"""Fu (Ari-Ari §10) component by component, and the hard readings: ambiguous
waits, pinfu against sanankou, a ron-completed triplet, closed kans, and hands
above 110 fu.

The winner sits South in the East round and wins by ron unless a case says
otherwise.
"""

from __future__ import annotations

import pytest

from scoring.fu import KANCHAN, PENCHAN, RYANMEN, SET_FU, TANKI, pair_fu
from scoring.tiles import tile_index
from tests.scoring.test_yaku import score, yaku


def details(out: dict) -> list[tuple[str, int]]:
    return [(d["reason"], d["fu"]) for d in out["fu_details"]]


# (rule, kind, kan, concealed, reason, fu): §10.1-10.8 for triplets and kans
SET_CASES = [
    ("2 fu: open simples triplet (pon)", "5m", False, False, "open_triplet", 2),
    ("4 fu: open orphan triplet", "9p", False, False, "open_terminal_triplet", 4),
    ("4 fu: closed simples triplet", "5m", False, True, "closed_triplet", 4),
    ("8 fu: closed orphan triplet", "1z", False, True, "closed_terminal_triplet", 8),
    ("8 fu: open simples kan", "5m", True, False, "open_kan", 8),
    ("16 fu: open orphan kan", "1s", True, False, "open_terminal_kan", 16),
    ("16 fu: closed simples kan", "5m", True, True, "closed_kan", 16),
    ("32 fu: closed orphan kan", "7z", True, True, "closed_terminal_kan", 32),
]


@pytest.mark.parametrize("rule, tile, kan, concealed, reason, fu", SET_CASES, ids=[c[0] for c in SET_CASES])
def test_fu_of_each_triplet_and_kan(rule, tile, kan, concealed, reason, fu):
    assert SET_FU[tile_index(tile), kan, concealed] == (reason, fu)


@pytest.mark.parametrize("pair, seat, round_, double_wind_fu, expected", [
    ("5z", "2z", "1z", 4, ("yakuhai_pair", 2)),  # dragon
    ("2z", "2z", "1z", 4, ("yakuhai_pair", 2)),  # seat wind
    ("1z", "2z", "1z", 4, ("yakuhai_pair", 2)),  # round wind
    ("1z", "1z", "1z", 4, ("double_wind_pair", 4)),  # §10.2 renfuu jantou
    ("1z", "1z", "1z", 2, ("double_wind_pair", 2)),  # WRC, M-League
    ("3z", "2z", "1z", 4, None),
    ("5m", "2z", "1z", 4, None),
])
def test_fu_of_the_pair(pair, seat, round_, double_wind_fu, expected):
    got = pair_fu(tile_index(pair), seat=tile_index(seat), round_=tile_index(round_), double_wind_fu=double_wind_fu)
    assert got == expected


# (case, tiles, win, melds, flags, rules, fu, fu_details)
HAND_CASES = [
    ("pinfu tsumo: 20 fu flat, no tsumo fu", "123m456p789s234s99m", "2s", (), {"tsumo": True}, "ari-ari", 20,
     [("base", 20)]),
    ("pinfu ron: base and closed ron", "123m456p789s234s99m", "2s", (), {}, "ari-ari", 30,
     [("base", 20), ("menzen_ron", 10)]),
    ("open pinfu (kuipinfu): 2 fu, rounded to 30", "234m456p88m", "4p", ("chi:234s", "chi:567s"), {},
     "ari-ari", 30, [("base", 20), ("open_pinfu", 2)]),
    ("open hand tsumo: 2 fu for tsumo, no open pinfu", "123m456p99m", "1m", ("chi:234s", "pon:555z"),
     {"tsumo": True}, "ari-ari", 30, [("base", 20), ("tsumo", 2), ("open_terminal_triplet", 4)]),
    ("chiitoitsu: 25 fu flat", "1133m5577p99s1144z", "1z", (), {}, "ari-ari", 25, [("chiitoitsu", 25)]),
    ("kanchan wait", "123m456p789s234s99m", "3s", (), {"riichi": True}, "ari-ari", 40,
     [("base", 20), ("menzen_ron", 10), ("kanchan", 2)]),
    ("penchan wait", "123m456p789s123s99m", "3s", (), {"riichi": True}, "ari-ari", 40,
     [("base", 20), ("menzen_ron", 10), ("penchan", 2)]),
    ("tanki wait", "123m456p789s234s99m", "9m", (), {"riichi": True}, "ari-ari", 40,
     [("base", 20), ("menzen_ron", 10), ("tanki", 2)]),
    ("double-wind pair: 4 fu (Ari-Ari §10.2)", "123m456p789s234s11z", "2s", (), {"seat": "E", "riichi": True},
     "ari-ari", 40, [("base", 20), ("menzen_ron", 10), ("double_wind_pair", 4)]),
    ("double-wind pair: 2 fu under M-League", "123m456p789s234s11z", "2s", (), {"seat": "E", "riichi": True},
     "m-league", 40, [("base", 20), ("menzen_ron", 10), ("double_wind_pair", 2)]),
    ("closed kan of simples: 16 fu", "123m456p789s99m", "9m", ("ankan:5555s",), {"riichi": True}, "ari-ari", 50,
     [("base", 20), ("menzen_ron", 10), ("closed_kan", 16), ("tanki", 2)]),
    ("closed kan of honours: 32 fu", "123m456p789s99m", "9m", ("ankan:4444z",), {"riichi": True}, "ari-ari", 70,
     [("base", 20), ("menzen_ron", 10), ("closed_terminal_kan", 32), ("tanki", 2)]),
]


@pytest.mark.parametrize("case, tiles, win, melds, flags, rules, fu, expected", HAND_CASES,
                         ids=[c[0] for c in HAND_CASES])
def test_fu_breakdown_of_canonical_hands(case, tiles, win, melds, flags, rules, fu, expected):
    out = score(tiles, win, *melds, rules=rules, **flags)
    assert (out["fu"], details(out)) == (fu, expected)


def test_ambiguous_wait_34556_on_4_takes_the_open_ended_reading_for_pinfu():
    # 345 + 456 with 4 drawn: kanchan 3_5 or ryanmen 56. Pinfu (ryanmen) pays more.
    out = score("344556m789p123s55s", "4m", riichi=True)
    assert yaku(out) == [("riichi", 1), ("pinfu", 1)]
    assert (out["fu"], out["payment"]) == (30, {"ron": 2000})


def test_ambiguous_wait_34556_on_4_takes_the_kanchan_when_fu_pay_more():
    # No pinfu (111p is a triplet): the kanchan's 2 fu lift 30 to 40 on a tsumo.
    out = score("344556m111p789s55s", "4m", tsumo=True)
    assert (out["fu"], details(out)) == (40, [("base", 20), ("tsumo", 2), ("closed_terminal_triplet", 8),
                                              ("kanchan", 2)])


def test_ambiguous_wait_3445_on_4_is_kanchan_or_tanki_at_2_fu():
    out = score("34445m111p789s123s", "4m", riichi=True)
    waits = [d for d in details(out) if d[0] in (KANCHAN, TANKI, PENCHAN, RYANMEN)]
    assert out["fu"] == 40 and len(waits) == 1 and waits[0][1] == 2


@pytest.mark.parametrize("tsumo, expected_yaku, fu", [
    # ron on 1m: 123 x3 reads pinfu + iipeikou; the triplet reading has no yaku (the 111 is open)
    (False, [("pinfu", 1), ("iipeikou", 1)], 30),
    # tsumo: sanankou (40 fu) beats pinfu tsumo + iipeikou (20 fu) at the same han
    (True, [("menzen_tsumo", 1), ("sanankou", 2)], 40),
])
def test_pinfu_against_sanankou_reading(tsumo, expected_yaku, fu):
    out = score("111222333m456p55s", "1m", tsumo=tsumo)
    assert (yaku(out), out["fu"]) == (expected_yaku, fu)


def test_ron_completed_triplet_counts_open_for_fu_and_sanankou():
    out = score("111m222p333s44466z", "4z", rules="tenhou")
    assert yaku(out) == [("toitoi", 2), ("sanankou", 2)]
    assert details(out) == [("base", 20), ("menzen_ron", 10), ("closed_terminal_triplet", 8), ("closed_triplet", 4),
                            ("closed_triplet", 4), ("open_terminal_triplet", 4), ("yakuhai_pair", 2)]
    assert out["fu"] == 60


def test_four_han_above_110_fu_pays_mangan():
    out = score("234s55s", "5s", "ankan:4444z", "ankan:9999m", "ankan:1111p")
    assert yaku(out) == [("sanankou", 2), ("sankantsu", 2)]
    assert (out["han"], out["fu"], out["limit"], out["payment"]) == (4, 130, "mangan", {"ron": 8000})


def test_kiriage_rounds_4_han_30_fu_up_to_mangan():
    hand = ("123m456p789s234s99m", "2s")
    flags = {"riichi": True, "ippatsu": True, "dora": ["1s"]}  # riichi ippatsu pinfu dora: 4 han 30 fu
    assert score(*hand, rules="ari-ari", **flags)["payment"] == {"ron": 7700}
    kiriage = {"preset": "ari-ari", "overrides": {"kiriage": True}}
    assert score(*hand, rules=kiriage, **flags)["payment"] == {"ron": 8000}
