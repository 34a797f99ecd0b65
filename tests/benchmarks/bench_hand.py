"""Hands per second: our analyser against the `mahjong` package, same hands, one run.

    python tests/benchmarks/bench_hand.py [N] [SEED]

Both analysers get the same N (default 5,000) seeded hands from
tests/scoring/hand_generator.py under Tenhou rules, in the input form each
takes. Timed for mahjong: a fresh HandConfig and estimate_hand_value per hand
(136-format ids and Meld objects built beforehand). Timed for us: the
Situation and analyse_hand per hand (Hand value objects parsed beforehand),
and separately the whole JSON path (hand_request from the request dict,
notation parsing and checks included). The best of 3 runs of each is kept.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules  # noqa: E402
from mahjong.meld import Meld  # noqa: E402

from scoring.errors import HandError  # noqa: E402
from scoring.hand import Situation, analyse_hand  # noqa: E402
from scoring.hand_api import FLAGS, hand_request, parse_request  # noqa: E402
from scoring.rules import get_ruleset  # noqa: E402
from tests.scoring.hand_generator import generate  # noqa: E402
from tests.scoring.test_hand_oracle import WINDS  # noqa: E402

TENHOU = get_ruleset("tenhou")
OPTIONS = OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False)


def _best_of(fn, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(n: int = 5000, seed: int = 7) -> dict[str, float]:
    cases = generate(seed, n)
    requests = [{**c.request, "rules": "tenhou"} for c in cases]

    mj_inputs = []
    for c in cases:
        req = c.request
        flags = {
            "is_tsumo": req["tsumo"], "is_riichi": req.get("riichi", False),
            "is_daburu_riichi": req.get("double_riichi", False), "is_ippatsu": req.get("ippatsu", False),
            "is_rinshan": req.get("rinshan", False), "is_chankan": req.get("chankan", False),
            "is_haitei": req.get("haitei", False), "is_houtei": req.get("houtei", False),
            "is_tenhou": req.get("tenhou", False), "is_chiihou": req.get("chiihou", False),
            "player_wind": WINDS[req["seat"]], "round_wind": WINDS[req["round"]],
        }
        melds = [Meld(t, ids, opened=o) for t, ids, o in c.melds]
        mj_inputs.append((c.ids, c.win_id, melds, c.dora_ids, c.ura_ids, flags))

    parsed = [parse_request(r) for r in requests]
    ours_inputs = [(hand, sit) for _rules, hand, sit, _h, _s in parsed]
    # keyword arguments for a fresh Situation per hand, as mahjong gets its HandConfig flags
    ours_kwargs = [(hand, {"seat": sit.seat, "round": sit.round, "dora": sit.dora, "ura": sit.ura,
                           **{f: getattr(sit, f) for f in FLAGS}}) for hand, sit in ours_inputs]

    def run_mahjong() -> None:
        estimate = HandCalculator.estimate_hand_value
        for ids, win, melds, dora, ura, flags in mj_inputs:
            estimate(ids, win, melds=melds, dora_indicators=dora, ura_dora_indicators=ura,
                     config=HandConfig(options=OPTIONS, **flags))

    def run_ours() -> None:
        for hand, sit in ours_inputs:
            try:
                analyse_hand(TENHOU, hand, sit)
            except HandError:
                pass

    def run_ours_json() -> None:
        for req in requests:
            try:
                hand_request(req)
            except HandError:
                pass

    # Rebuild the Situation per hand in the timed loop too, as mahjong builds its HandConfig.
    def run_ours_fresh() -> None:
        for hand, kwargs in ours_kwargs:
            try:
                analyse_hand(TENHOU, hand, Situation(**kwargs))
            except HandError:
                pass

    run_ours()  # warm the per-suit memo once, as a long-running server would be
    t_mj = _best_of(run_mahjong)
    t_ours = _best_of(run_ours_fresh)
    t_json = _best_of(run_ours_json)
    figures = {"mahjong": n / t_mj, "ours": n / t_ours, "ours_json": n / t_json}
    print(f"{n} hands (seed {seed}), best of 3")
    print(f"  mahjong 2.1.0 estimate_hand_value : {figures['mahjong']:>9,.0f} hands/s")
    print(f"  scoring.analyse_hand               : {figures['ours']:>9,.0f} hands/s"
          f"  ratio {figures['ours'] / figures['mahjong']:.1f}x")
    print(f"  scoring.hand_request (JSON, parse) : {figures['ours_json']:>9,.0f} hands/s"
          f"  ratio {figures['ours_json'] / figures['mahjong']:.1f}x")
    return figures


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
