"""Three-player hands per second: our analyser against the `mahjong` package's
three-player mode, next to the four-player ratio of bench_hand.py, one run.

    python tests/benchmarks/bench_hand_sanma.py [N]

The three-player hands are the 174 real winning hands of the 27 sanma games
in ../shared/realdata/sanma (the mjlog twin of a kobalab file left out),
repeated to N (default 5,000), each
with its log's flags, winds, indicators and kita. mahjong 2.1.0 gets them in
its own form: 136-format ids and Meld objects built beforehand, and per hand
a fresh ``HandConfig(options=OptionalRules(is_three_player=True, ...),
num_nuki_dora=kita)`` and ``estimate_hand_value``. Ours: a fresh
``Situation(kita=...)`` and ``analyse_hand`` under the log's sanma preset.
Best of 3 runs each. The four-player figures are bench_hand.main(N) run
first in the same process, so both ratios share the machine's state.

Also printed: on how many of the hands the two analysers agree on han and
fu (and yakuman), a check that both scored the same thing.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules  # noqa: E402
from mahjong.meld import Meld  # noqa: E402

from league import tenhou  # noqa: E402
from scoring.hand import EAST, Hand, Situation, analyse_hand  # noqa: E402
from scoring.rules import get_ruleset  # noqa: E402
from scoring.tiles import parse_tile, parse_tiles  # noqa: E402
from tests.benchmarks import bench_hand  # noqa: E402
from tests.benchmarks.bench_hand import _best_of  # noqa: E402
from tests.realdata import REALDATA  # noqa: E402

SANMA = REALDATA / "sanma"
FLAGS = {"立直": "riichi", "両立直": "double_riichi", "一発": "ippatsu", "海底摸月": "haitei", "河底撈魚": "houtei",
         "嶺上開花": "rinshan", "槍槓": "chankan", "天和": "tenhou", "地和": "chiihou"}
MJ_FLAGS = {"riichi": "is_riichi", "double_riichi": "is_daburu_riichi", "ippatsu": "is_ippatsu",
            "haitei": "is_haitei", "houtei": "is_houtei", "rinshan": "is_rinshan", "chankan": "is_chankan",
            "tenhou": "is_tenhou", "chiihou": "is_chiihou"}
MELD_TYPES = {"pon": Meld.PON, "kan": Meld.KAN, "ankan": Meld.KAN, "shouminkan": Meld.SHOUMINKAN}


class _Ids:
    """136-format ids for one hand: each copy once, a red five as copy 0."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, kind: int, red: bool) -> int:
        for copy in ((0,) if red else (1, 2, 3, 0)):
            tile_id = kind * 4 + copy
            if tile_id not in self.used:
                self.used.add(tile_id)
                return tile_id
        raise ValueError(f"a fifth copy of kind {kind}")

    def of(self, notation: str) -> list[int]:
        t = parse_tiles(notation)
        reds = list(t.reds)
        out = []
        for kind in t.kinds:
            red = kind in (4, 13, 22) and reds[kind // 9] > 0
            if red:
                reds[kind // 9] -= 1
            out.append(self.take(kind, red))
        return out


def _is_red(tile_id: int) -> bool:
    return tile_id % 4 == 0 and tile_id // 4 in (4, 13, 22)


def real_sanma_hands():
    """(rules, Hand, Situation kwargs, mahjong inputs) for every kept winning hand."""
    out = []
    for path in sorted(SANMA.iterdir()):
        if path.suffix in (".md", ".txt"):
            continue  # SOURCES.md, and the mjlog copy of a kobalab game
        log = tenhou.read_log_file(path)
        rules = get_ruleset(log.rules)
        for k in log.kyoku:
            for w in k.wins:
                if not w.tiles:
                    continue
                names = {y.split("(")[0] for y in w.yaku}
                flags = {flag: True for jp, flag in FLAGS.items() if jp in names}
                riichi = flags.get("riichi") or flags.get("double_riichi")
                seat, round_ = EAST + (w.winner - k.dealer) % 3, EAST + k.round // 4
                dora = tuple(parse_tile(t, "dora")[0] for t in k.dora)
                ura = tuple(parse_tile(t, "ura")[0] for t in k.ura) if riichi else ()
                kwargs = {"tsumo": w.tsumo, "seat": seat, "round": round_, "dora": dora, "ura": ura,
                          "kita": w.kita, **flags}
                hand = Hand.parse(w.tiles, win=w.win_tile, melds=list(w.melds))
                ids = _Ids()
                concealed = ids.of(w.tiles)
                win_kind, win_red = parse_tile(w.win_tile, "win")
                win_id = next(i for i in concealed if i // 4 == win_kind and _is_red(i) == win_red)
                melds, tiles = [], list(concealed)
                for kind, notation in w.melds:
                    meld_ids = ids.of(notation)
                    tiles += meld_ids
                    melds.append(Meld(MELD_TYPES[kind], meld_ids, opened=kind != "ankan"))
                dora_ids = [ids.take(kd, False) for kd in dora]
                ura_ids = [ids.take(kd, False) for kd in ura]
                config = {MJ_FLAGS[f]: True for f in flags} | {
                    "is_tsumo": w.tsumo, "player_wind": seat, "round_wind": round_, "num_nuki_dora": w.kita}
                out.append((rules, hand, kwargs, (tiles, win_id, melds, dora_ids, ura_ids, config)))
    return out


def main(n: int = 5000) -> dict[str, float]:
    four = bench_hand.main(n)
    base = real_sanma_hands()
    cases = (base * (n // len(base) + 1))[:n]
    options = OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False, is_three_player=True)

    agree = 0
    for rules, hand, kwargs, (tiles, win, melds, dora, ura, config) in base:
        ours = analyse_hand(rules, hand, Situation(**kwargs))
        theirs = HandCalculator.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora,
                                                    ura_dora_indicators=ura,
                                                    config=HandConfig(options=options, **config))
        if theirs.error is None and (ours.han, ours.fu) == (theirs.han, theirs.fu):
            agree += 1

    def run_mahjong() -> None:
        estimate = HandCalculator.estimate_hand_value
        for _r, _h, _k, (tiles, win, melds, dora, ura, config) in cases:
            estimate(tiles, win, melds=melds, dora_indicators=dora, ura_dora_indicators=ura,
                     config=HandConfig(options=options, **config))

    def run_ours() -> None:
        for rules, hand, kwargs, _m in cases:
            analyse_hand(rules, hand, Situation(**kwargs))

    run_ours()
    t_mj, t_ours = _best_of(run_mahjong), _best_of(run_ours)
    figures = {"four_ratio": four["ours"] / four["mahjong"], "mahjong_3p": n / t_mj, "ours_3p": n / t_ours}
    print(f"{n} three-player hands ({len(base)} real sanma wins repeated), best of 3")
    print(f"  mahjong 2.1.0 is_three_player      : {figures['mahjong_3p']:>9,.0f} hands/s")
    print(f"  scoring.analyse_hand (sanma preset): {figures['ours_3p']:>9,.0f} hands/s"
          f"  ratio {figures['ours_3p'] / figures['mahjong_3p']:.1f}x"
          f"  (four players, same run: {figures['four_ratio']:.1f}x)")
    print(f"  same han and fu from both analysers: {agree} of {len(base)} hands")
    return figures


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:2]])
