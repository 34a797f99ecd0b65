"""Every four-player win of a standard Tenhou game, re-scored from its tiles.

Source: ../shared/realdata/derived/tenhou_mjlog_agari.csv, one row per win,
decoded from Tenhou's mjlog. Games whose end result we could not reproduce
(`check` other than `reproduced` in results/tenhou_owari_results.csv) and
sanma are left out. The situational flags come from Tenhou's own yaku list,
the rest (yaku, han or yakuman count, fu, points) must come out of the tiles.
"""

from __future__ import annotations

import pytest

from scoring.hand import WIND_LETTERS, Hand, Situation, analyse_hand
from scoring.rules import get_ruleset
from scoring.tiles import parse_tile
from tests.realdata import read_csv, reproduced_tenhou_files, require_realdata

require_realdata()

TENHOU = get_ruleset("tenhou")

MELD_TYPES = {"chi": "chi", "pon": "pon", "kakan": "shouminkan", "minkan": "kan", "ankan": "ankan"}
FLAGS = {
    "立直": "riichi", "両立直": "double_riichi", "一発": "ippatsu", "海底摸月": "haitei", "河底撈魚": "houtei",
    "嶺上開花": "rinshan", "槍槓": "chankan", "天和": "tenhou", "地和": "chiihou",
}
YAKU_IDS = {
    "門前清自摸和": "menzen_tsumo", "立直": "riichi", "一発": "ippatsu", "槍槓": "chankan", "嶺上開花": "rinshan",
    "海底摸月": "haitei", "河底撈魚": "houtei", "平和": "pinfu", "断幺九": "tanyao", "一盃口": "iipeikou",
    "自風 東": "yakuhai_seat_wind", "自風 南": "yakuhai_seat_wind", "自風 西": "yakuhai_seat_wind",
    "自風 北": "yakuhai_seat_wind", "場風 東": "yakuhai_round_wind", "場風 南": "yakuhai_round_wind",
    "場風 西": "yakuhai_round_wind", "場風 北": "yakuhai_round_wind", "役牌 白": "yakuhai_haku",
    "役牌 發": "yakuhai_hatsu", "役牌 中": "yakuhai_chun", "両立直": "double_riichi", "七対子": "chiitoitsu",
    "混全帯幺九": "chanta", "一気通貫": "ittsuu", "三色同順": "sanshoku", "三色同刻": "sanshoku_doukou",
    "三槓子": "sankantsu", "対々和": "toitoi", "三暗刻": "sanankou", "小三元": "shousangen", "混老頭": "honroutou",
    "二盃口": "ryanpeikou", "純全帯幺九": "junchan", "混一色": "honitsu", "清一色": "chinitsu", "天和": "tenhou",
    "地和": "chiihou", "大三元": "daisangen", "四暗刻": "suuankou", "四暗刻単騎": "suuankou_tanki",
    "字一色": "tsuuiisou", "緑一色": "ryuuiisou", "清老頭": "chinroutou", "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "junsei_chuuren", "国士無双": "kokushi", "国士無双１３面": "kokushi_13", "大四喜": "daisuushii",
    "小四喜": "shousuushii", "四槓子": "suukantsu", "ドラ": "dora", "裏ドラ": "ura_dora", "赤ドラ": "aka_dora",
}


def _wins():
    standard = reproduced_tenhou_files()
    rows = read_csv("derived/tenhou_mjlog_agari.csv")
    return [r for r in rows if r["sanma"] == "0" and r["file"] in standard]


WINS = _wins()


def _tenhou_yaku(row):
    """[(id, han)] from Tenhou's list; a yakuman is 13, a zero ura dora is dropped."""
    out = []
    for item in row["yaku"].split(";"):
        name, _, rest = item.partition("(")
        han = 13 if rest.startswith("役満") else int(rest.split("飜")[0])
        if han:
            out.append((YAKU_IDS[name], han))
    return sorted(out)


def _score(row):
    names = {item.partition("(")[0] for item in row["yaku"].split(";")}
    flags = {flag: True for name, flag in FLAGS.items() if name in names}
    melds = []
    for m in row["melds"].split():
        kind, tiles, _called, _from = m.split(":")
        melds.append((MELD_TYPES[kind], tiles))
    hand = Hand.parse(row["closed_hand"], win=row["winning_tile"], melds=melds)
    riichi = flags.get("riichi") or flags.get("double_riichi")
    sit = Situation(
        tsumo=row["tsumo"] == "1",
        seat=WIND_LETTERS[row["seat_wind"]],
        round=WIND_LETTERS[row["round_wind"]],
        dora=tuple(parse_tile(t, "dora")[0] for t in row["dora_indicators"].split()),
        ura=tuple(parse_tile(t, "ura")[0] for t in row["ura_indicators"].split()) if riichi else (),
        **flags,
    )
    return analyse_hand(TENHOU, hand, sit)


def test_realdata_covers_the_standard_games():
    assert len(WINS) >= 900


@pytest.mark.realdata
@pytest.mark.parametrize("row", WINS, ids=[f"{r['file'].rsplit('/', 1)[-1]}#{r['hand_index']}-{r['winner']}" for r in WINS])
def test_tenhou_win_rescored_from_tiles(row):
    result = _score(row)
    got_yaku = sorted((name, han) for name, han in result.yaku)
    yakuman = int(row["yakuman_count"])
    assert (result.yakuman, result.total) == (yakuman, int(row["points"]))
    if not yakuman:
        assert (result.han, result.fu) == (int(row["han"]), int(row["fu"]))
    assert got_yaku == _tenhou_yaku(row)
