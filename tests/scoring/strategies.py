"""Hypothesis strategies: random hands and games of every outcome."""

from __future__ import annotations

from hypothesis import strategies as st

from scoring.errors import HandError
from scoring.game import Abort, AbortReason, Chombo, Draw, HandInput, Ron, Tsumo, Win
from scoring.payment import check_han_fu
from scoring.rules import PRESETS, MultipleRon, NotenRiichi, Ruleset

# (han, fu) pairs some hand can have, by ron and by tsumo, under the standard fu rules
RON_VALUES = [(h, f) for h in range(1, 5) for f in (30, 40, 50, 60, 70, 80, 90, 100, 110) if not (h < 4 and f > 110)]
RON_VALUES += [(h, 25) for h in (2, 3, 4)] + [(h, None) for h in (*range(5, 14), 26, 39)]
TSUMO_VALUES = [(h, 20) for h in (2, 3, 4)] + [v for v in RON_VALUES if v != (2, 25)]
# ... and under the fu rules issue #17 added (open pinfu at 20 fu)
RON_VALUES_20 = [(h, 20) for h in range(1, 5)]


def _possible(rules: Ruleset, tsumo: bool) -> list[tuple[int, int | None]]:
    out = []
    for han, fu in TSUMO_VALUES if tsumo else RON_VALUES + RON_VALUES_20:
        try:
            check_han_fu(han, fu, tsumo=tsumo, rules=rules)
        except HandError:
            continue
        out.append((han, fu))
    return out


def values(tsumo: bool, rules: Ruleset):
    han_fu = st.sampled_from(_possible(rules, tsumo)).map(lambda hf: {"han": hf[0], "fu": hf[1]})
    return st.one_of(han_fu, han_fu, han_fu, st.just({"yakuman": 1}))


def seats_of(rules: Ruleset):
    """A seat of the ruleset's table (0-3, or 0-2 with three players)."""
    return st.integers(0, rules.players - 1)


@st.composite
def outcomes(draw, rules: Ruleset):
    kind = draw(st.sampled_from(["ron", "ron", "ron", "tsumo", "tsumo", "draw", "draw", "abort", "chombo"]))
    seats = seats_of(rules)
    if kind == "ron":
        loser = draw(seats)
        others = [s for s in rules.seats if s != loser]
        top = 1 if rules.multiple_ron is MultipleRon.HEAD_BUMP else (2 if rules.triple_ron_aborts else 3)
        top = min(top, len(others))
        count = draw(st.integers(1, top))
        winners = draw(st.permutations(others))[:count]
        wins = []
        for w in winners:
            v = draw(values(False, rules))
            pao = None
            if "yakuman" in v and rules.pao and draw(st.booleans()):
                pao = draw(st.sampled_from([s for s in rules.seats if s != w]))
            wins.append(Win(winner=w, pao=pao, **v))
        return Ron(loser=loser, wins=tuple(wins))
    if kind == "tsumo":
        w = draw(seats)
        v = draw(values(True, rules))
        pao = None
        if "yakuman" in v and rules.pao and draw(st.booleans()):
            pao = draw(st.sampled_from([s for s in rules.seats if s != w]))
        return Tsumo(winner=w, pao=pao, **v)
    if kind == "draw":
        tenpai = tuple(sorted(draw(st.sets(seats))))
        nagashi = tuple(sorted(draw(st.sets(seats, max_size=1)))) if rules.nagashi_mangan else ()
        return Draw(tenpai=tenpai, nagashi=nagashi)
    if kind == "abort" and rules.abortive_draws:
        reasons = sorted(r for r in rules.abortive_draws if r != AbortReason.SANCHAHOU) or sorted(rules.abortive_draws)
        return Abort(AbortReason(draw(st.sampled_from(reasons))))
    return Chombo(offender=draw(seats))


@st.composite
def hands(draw, rules: Ruleset):
    outcome = draw(outcomes(rules))
    riichi = tuple(sorted(draw(st.sets(seats_of(rules), max_size=2))))
    if isinstance(outcome, Draw) and (rules.noten_riichi is NotenRiichi.REFUSED or draw(st.booleans())):
        outcome = Draw(tenpai=tuple(sorted(set(outcome.tenpai) | set(riichi))), nagashi=outcome.nagashi)
    if isinstance(outcome, Ron):
        riichi = tuple(s for s in riichi if s != outcome.loser)
    return HandInput(outcome, riichi=riichi)


presets = st.sampled_from(sorted(PRESETS.values(), key=lambda r: r.name))

# The fields issue #17 added, each drawn over its values on top of a preset:
# the conservation properties must hold for every one of them. Each entry
# draws the overrides of one rule.
VARIANTS = {
    "noten_riichi": st.sampled_from(list(NotenRiichi)).map(lambda v: {"noten_riichi": v}),
    "multi_ron_sticks": st.sampled_from(["nearest", "own_back"]).map(lambda v: {"multi_ron_sticks": v}),
    "leftover_sticks": st.sampled_from(["first", "split_first", "split_first_floor", "lost"]).map(
        lambda v: {"leftover_sticks": v}),
    "chombo": st.sampled_from([("reverse_mangan", 0), ("penalty", 20000), ("both", 30000)]).map(
        lambda v: {"chombo": v[0], "chombo_penalty": v[1]}),
    "uma_by_below": st.sampled_from([{}, {"1": [8000, 3000, 1000, -12000], "3": [12000, -1000, -3000, -8000]}]).map(
        lambda v: {"uma_by_below": v}),
    "uma_at_threshold": st.sampled_from(["not_below", "below"]).map(lambda v: {"uma_at_threshold": v}),
    "kazoe": st.sampled_from(["yakuman", "sanbaiman", "no_limit"]).map(lambda v: {"kazoe": v}),
    "pinfu_tsumo_fu": st.sampled_from([0, 2]).map(lambda v: {"pinfu_tsumo_fu": v}),
    "open_pinfu_fu": st.sampled_from([20, 30]).map(lambda v: {"open_pinfu_fu": v}),
    "replacement_result": st.tuples(st.sampled_from(["real", "fixed"]), st.integers(-30, 0), st.integers(-30, 0)).map(
        lambda v: {"replacement_result": v[0], "replacement_score": 1000 * v[1], "replacement_uma": 1000 * v[2]}),
}


# Three-player rules (issue #35) drawn on top of a sanma preset.
SANMA_VARIANTS = {
    "tsumo_loss": st.booleans().map(lambda v: {"tsumo_loss": v}),
    "end_rounding": st.sampled_from(["none", "tenhou"]).map(lambda v: {"end_rounding": v}),
    "uma_by_below": st.sampled_from([{}, {"1": [20000, 5000, -25000], "2": [25000, -5000, -20000]}]).map(
        lambda v: {"uma_by_below": v}),
}


@st.composite
def _rulesets(draw):
    base = draw(presets)
    if draw(st.booleans()):
        return base
    changes: dict = {}
    variants = VARIANTS if base.players == 4 else {**SANMA_VARIANTS, **{
        k: v for k, v in VARIANTS.items() if k != "uma_by_below"}}
    for fragment in draw(st.fixed_dictionaries({}, optional=variants)).values():
        changes.update(fragment)
    return base.replace(**changes)


rulesets = _rulesets()
