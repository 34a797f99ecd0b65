"""End of a game under the rules issue #17 added: floating uma (JPML-A),
leftover sticks split with the odd hundreds dropped, replacement players."""

from __future__ import annotations

import pytest

from scoring.errors import RulesError
from scoring.rules import get_ruleset
from scoring.settlement import settle

JPML = get_ruleset("jpml-a-2024")

# Every uma vector of Pantheon's own JPML-A test, as it prints them
# (MahjongPantheon/pantheon Mimir/tests/rulesets/jpmlATest.php @ 4787015,
# `testUma`): scores in seat order, uma by place in hundreds (120 = +12.0).
# Its ruleset splits tied places' uma (equalize_uma), counts "below" with a
# strict < against 30,000, and orders tied places by seat, as we do.
PANTHEON_JPML_A = [
    # no tie
    ([28000, 29000, 37000, 27000], [120, -10, -30, -80], "1 leader"),
    ([31000, 33000, 24000, 32000], [80, 30, 10, -120], "1 loser"),
    ([26000, 27000, 24000, 28000], [80, 40, -40, -80], "all losers"),
    ([32000, 29000, 24000, 37000], [80, 40, -40, -80], "2x2"),
    # ties
    ([30000, 30000, 30000, 30000], [0, 0, 0, 0], "all initial score"),
    ([28000, 28000, 37000, 27000], [120, -20, -20, -80], "1 leader, 2 === 3"),
    ([27000, 28000, 37000, 27000], [120, -10, -55, -55], "1 leader, 3 === 4"),
    ([33000, 33000, 24000, 32000], [55, 55, 10, -120], "1 loser, 1 === 2"),
    ([33000, 32000, 24000, 32000], [80, 20, 20, -120], "1 loser, 2 === 3"),
    ([26000, 28000, 24000, 28000], [60, 60, -40, -80], "all losers, 1 === 2"),
    ([24000, 29000, 24000, 28000], [80, 40, -60, -60], "all losers, 3 === 4"),
    ([28000, 29000, 24000, 28000], [80, 0, 0, -80], "all losers, 2 === 3"),
    ([32000, 29000, 24000, 32000], [60, 60, -40, -80], "2x2, 1 === 2"),
    ([36000, 24000, 24000, 32000], [80, 40, -60, -60], "2x2, 3 === 4"),
]


@pytest.mark.parametrize(("scores", "uma", "case"), PANTHEON_JPML_A, ids=[c for _, _, c in PANTHEON_JPML_A])
def test_jpml_a_uma_matches_pantheons_worked_vectors(scores, uma, case):
    s = settle(JPML, scores)
    assert [s.uma[seat] for seat in s.order] == [u * 100 for u in uma]


def test_jpml_a_uma_lands_on_the_right_seats():
    # Pantheon's "1 leader" by seat: seat 2 leads with 37,000, seat 1 is 2nd,
    # seat 0 3rd and seat 3 last.
    assert settle(JPML, [28000, 29000, 37000, 27000]).uma == (-3000, -1000, 12000, -8000)


@pytest.mark.parametrize(
    ("scores", "below", "uma_by_place"),
    [
        # one player below 30,000: +8/+3/+1/-12
        ([40000, 31000, 30000, 19000], 1, (8000, 3000, 1000, -12000)),
        # three below: +12/-1/-3/-8
        ([45000, 26000, 25000, 24000], 3, (12000, -1000, -3000, -8000)),
        # two below: +8/+4/-4/-8
        ([40000, 35000, 25000, 20000], 2, (8000, 4000, -4000, -8000)),
        # nobody below (four at 30,000 is a tie; here all above)
        ([30000, 30000, 30000, 30000], 0, (0, 0, 0, 0)),
        # four below: possible when sticks stay on the table; uses the 2-2 row
        ([29000, 29000, 29000, 29000], 4, (0, 0, 0, 0)),
        ([29900, 29800, 29300, 28000], 4, (8000, 4000, -4000, -8000)),
    ],
)
def test_jpml_a_uma_row_by_count_below(scores, below, uma_by_place):
    s = settle(JPML, scores)
    assert sum(1 for x in s.final_scores if x < 30000) == below
    assert tuple(s.uma[seat] for seat in s.order) == uma_by_place


def test_a_score_exactly_at_the_threshold_follows_the_stated_rule():
    # Seat 1 ends on 30,000 exactly: "not below" by default (Pantheon's
    # strict <), so only seat 3 is below (+8/+3/+1/-12); counted as below,
    # two are (+8/+4/-4/-8). Seat 1 is third either way.
    scores = [42000, 30000, 31000, 17000]
    assert settle(JPML, scores).uma == (8000, 1000, 3000, -12000)
    at_below = JPML.replace(uma_at_threshold="below")
    assert settle(at_below, scores).uma == (8000, -4000, 4000, -8000)


def test_jpml_a_points_are_score_part_plus_uma_and_sticks_are_lost():
    # 1,000 in sticks left on the table: nobody gets them (kyoutaku).
    s = settle(JPML, [45300, 26000, 25700, 22000], riichi_sticks=1)
    assert s.final_scores == (45300, 26000, 25700, 22000) and s.lost_sticks == 1000
    # 3 below: +12/-1/-3/-8
    assert s.points == (15300 + 12000, -4000 - 1000, -4300 - 3000, -8000 - 8000)
    assert sum(s.points) == -1000


def test_jpml_a_ties_by_seat_order_when_the_series_says_so():
    seat_order = JPML.replace(tie_policy="seat_order")
    # 1 loser, 1 === 2: seat 0 (nearer the first dealer) takes +8, seat 1 +3.
    assert settle(seat_order, [33000, 33000, 24000, 32000]).uma == (8000, 3000, -12000, 1000)


def test_floating_uma_is_a_general_table_any_ruleset_can_use():
    rules = get_ruleset({"preset": "m-league", "overrides": {"uma_by_below": {"0": [20000, 10000, -10000, -20000]}}})
    # Nobody below 30,000 cannot happen with 25,000 starts and no lost sticks,
    # so the row for 0 never applies and the +30/+10 of the preset stands.
    assert settle(rules, [37000, 27300, 23800, 11900]).points == settle(get_ruleset("m-league"), [37000, 27300, 23800, 11900]).points
    low = rules.replace(uma_threshold=10000)
    assert settle(low, [37000, 27300, 23800, 11900]).uma == (20000, 10000, -10000, -20000)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"uma_by_below": {"1": [8000, 3000, 1000, -11000]}}, "rules.overrides.uma_by_below.1"),
        ({"uma_by_below": {"2": [8000, 9000, -9000, -8000]}}, "rules.overrides.uma_by_below.2"),
        ({"uma_by_below": {"5": [0, 0, 0, 0]}}, "rules.overrides.uma_by_below.5"),
        ({"uma_by_below": {"1": [0, 0, 0]}}, "rules.overrides.uma_by_below.1"),
        ({"uma_by_below": [1, 2]}, "rules.overrides.uma_by_below"),
        ({"uma_threshold": 29950}, "rules.overrides.uma_threshold"),
        ({"uma_at_threshold": "above"}, "rules.overrides.uma_at_threshold"),
    ],
)
def test_impossible_floating_uma_is_refused_naming_the_key(overrides, field):
    with pytest.raises(RulesError) as err:
        get_ruleset({"preset": "jpml-a-2024", "overrides": overrides})
    assert (err.value.code, err.value.field) == ("invalid_rules", field)


# -- leftover sticks shared by tied firsts ------------------------------------------


@pytest.mark.parametrize(
    ("leftover_sticks", "scores", "sticks", "final", "lost"),
    [
        # Scores plus sticks make 4 x 30,000 (EMA).
        # one stick, three tied at 30,000: seat order takes the odd 100, or it is lost
        ("split_first", [30000, 30000, 30000, 29000], 1, (30400, 30300, 30300, 29000), 0),
        ("split_first_floor", [30000, 30000, 30000, 29000], 1, (30300, 30300, 30300, 29000), 100),
        # two tied firsts share 3,000 evenly either way
        ("split_first", [35000, 20000, 35000, 27000], 3, (36500, 20000, 36500, 27000), 0),
        ("split_first_floor", [35000, 20000, 35000, 27000], 3, (36500, 20000, 36500, 27000), 0),
        # a lone first takes it all
        ("split_first_floor", [40000, 30000, 20000, 28000], 2, (42000, 30000, 20000, 28000), 0),
        # first (under split ties: the tied seat nearest seat 0) and lost, for comparison
        ("first", [30000, 30000, 30000, 29000], 1, (31000, 30000, 30000, 29000), 0),
        ("lost", [30000, 30000, 30000, 29000], 1, (30000, 30000, 30000, 29000), 1000),
    ],
)
def test_leftover_sticks_among_tied_firsts(leftover_sticks, scores, sticks, final, lost):
    rules = get_ruleset("ema-2016").replace(leftover_sticks=leftover_sticks)
    s = settle(rules, scores, riichi_sticks=sticks)
    assert (s.final_scores, s.lost_sticks) == (final, lost)
    assert sum(s.final_scores) + s.lost_sticks == sum(scores) + 1000 * sticks
    assert sum(s.points) == -lost


def test_a_floored_split_keeps_the_tie_it_shares():
    rules = get_ruleset("ema-2016").replace(leftover_sticks="split_first_floor")
    s = settle(rules, [30000, 30000, 30000, 29000], riichi_sticks=1)
    # Three tied firsts share the uma of places 1-3: (15 + 5 - 5) / 3 each.
    assert s.places == (1, 1, 1, 4) and s.uma == (5000, 5000, 5000, -15000)


# -- replacement players ----------------------------------------------------------

EMA_FIXED = get_ruleset("ema-2016").replace(replacement_result="fixed")


def test_a_replacement_counts_as_played_under_the_real_rule():
    ema = get_ruleset("ema-2016")
    scores = [40000, 32000, 25000, 23000]
    assert settle(ema, scores, replacements=[1]).points == settle(ema, scores).points == (25000, 7000, -10000, -22000)


def test_a_fixed_replacement_gets_minus_15_and_minus_15_as_pantheon_applies_the_ema_rule():
    s = settle(EMA_FIXED, [40000, 32000, 25000, 23000], replacements=[1])
    # Seat 1 was second (+2.0 +5); its result is fixed at -15 - 15. The
    # others keep the places and uma the table gave them.
    assert s.points == (25000, -30000, -10000, -22000)
    assert (s.places, s.uma, s.replacements) == ((1, 2, 3, 4), (15000, -15000, -5000, -15000), (1,))


def test_a_fixed_replacement_in_first_gets_no_oka_and_keeps_its_penalties():
    from scoring.settlement import Penalty

    ml = get_ruleset("m-league").replace(replacement_result="fixed", replacement_score=-15000, replacement_uma=-15000)
    s = settle(ml, [37000, 27300, 23800, 11900], penalties=[Penalty(0, -10000, "late")], replacements=[0])
    assert s.oka == (0, 0, 0, 0)
    assert s.points == (-15000 - 15000 - 10000, -2700 + 10000, -6200 - 10000, -18100 - 30000)


def test_two_replacements_and_the_json_interface():
    from scoring.__main__ import answer

    req = ('{"op": "settle", "rules": {"preset": "ema-2016", "overrides": {"replacement_result": "fixed"}}, '
           '"scores": [40000, 32000, 25000, 23000], "replacements": [3, 0]}')
    assert answer(req)["points"] == [-30000, 7000, -10000, -30000]


@pytest.mark.parametrize(
    ("replacements", "code", "field"),
    [
        ([4], "invalid_seat", "replacements[0]"),
        ([1, 1], "duplicate_seat", "replacements[1]"),
        ("1", "invalid_replacements", "replacements"),
        ([True], "invalid_seat", "replacements[0]"),
    ],
)
def test_bad_replacements_are_refused_naming_the_field(replacements, code, field):
    from scoring.errors import GameError

    with pytest.raises(GameError) as err:
        settle(EMA_FIXED, [40000, 32000, 25000, 23000], replacements=replacements)
    assert (err.value.code, err.value.field) == (code, field)
