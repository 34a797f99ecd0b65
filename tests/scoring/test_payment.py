"""Every reachable cell of the Ari-Ari payment table and its refusals.

Figure 2 of rules/000_32e8db49e7672f42.txt; Figure 1 of 001_d44e690ea9ed8e83.txt
holds the same values.
"""

from __future__ import annotations

import pytest

from scoring.errors import HandError
from scoring.payment import HAN_FU_DETAILS, Limit, check_han_fu, check_yakuman, hand_payment
from scoring.rules import get_ruleset

ARI = get_ruleset("ari-ari")

# Figure 2, row by row: the (han, fu) cells that share a row, then
# non-dealer ron, non-dealer tsumo (each non-dealer pays), dealer tsumo
# (the dealer pays on a non-dealer tsumo; each pays on a dealer tsumo), dealer ron.
FIGURE_2 = [
    ([(1, 30)], 1000, 300, 500, 1500),
    ([(1, 40), (2, 20)], 1300, 400, 700, 2000),
    ([(1, 50), (2, 25)], 1600, 400, 800, 2400),
    ([(1, 60), (2, 30)], 2000, 500, 1000, 2900),
    ([(1, 70)], 2300, 600, 1200, 3400),
    ([(1, 80), (2, 40), (3, 20)], 2600, 700, 1300, 3900),
    ([(1, 90)], 2900, 800, 1500, 4400),
    ([(1, 100), (2, 50), (3, 25)], 3200, 800, 1600, 4800),
    ([(1, 110)], 3600, 900, 1800, 5300),
    ([(2, 60), (3, 30)], 3900, 1000, 2000, 5800),
    ([(2, 70)], 4500, 1200, 2300, 6800),
    ([(2, 80), (3, 40), (4, 20)], 5200, 1300, 2600, 7700),
    ([(2, 90)], 5800, 1500, 2900, 8700),
    ([(2, 100), (3, 50), (4, 25)], 6400, 1600, 3200, 9600),
    ([(2, 110)], 7100, 1800, 3600, 10600),
    ([(3, 60), (4, 30)], 7700, 2000, 3900, 11600),
    ([(3, 70), (3, 110), (4, 40), (4, 140), (5, 30), (5, None)], 8000, 2000, 4000, 12000),
    ([(6, None), (7, 40)], 12000, 3000, 6000, 18000),
    ([(8, None), (9, 30), (10, None)], 16000, 4000, 8000, 24000),
    ([(11, None), (12, 50)], 24000, 6000, 12000, 36000),
    ([(13, None), (14, 40), (20, None)], 32000, 8000, 16000, 48000),
]

# Cells of the table that describe no possible hand.
IMPOSSIBLE_RON = {(2, 20), (3, 20), (4, 20)}  # 20 fu is pinfu tsumo only
IMPOSSIBLE_TSUMO = {(2, 25)}  # seven pairs by tsumo is at least 3 han

CELLS = [(han, fu, row) for cells, *row in FIGURE_2 for han, fu in cells]


@pytest.mark.parametrize(("han", "fu", "row"), CELLS, ids=[f"{h}han-{f}fu" for h, f, _ in CELLS])
def test_figure_2_cell_pays_all_four_columns(han, fu, row):
    ron, tsumo_child, tsumo_dealer, dealer_ron = row
    if (han, fu) in IMPOSSIBLE_RON:
        for dealer in (False, True):
            with pytest.raises(HandError) as err:
                hand_payment(ARI, han=han, fu=fu, dealer=dealer, tsumo=False)
            assert err.value.code == "fu_not_possible"
    else:
        assert hand_payment(ARI, han=han, fu=fu, dealer=False, tsumo=False).ron == ron
        assert hand_payment(ARI, han=han, fu=fu, dealer=True, tsumo=False).ron == dealer_ron
    if (han, fu) in IMPOSSIBLE_TSUMO:
        for dealer in (False, True):
            with pytest.raises(HandError) as err:
                hand_payment(ARI, han=han, fu=fu, dealer=dealer, tsumo=True)
            assert err.value.code == "fu_not_possible"
    else:
        child = hand_payment(ARI, han=han, fu=fu, dealer=False, tsumo=True)
        assert (child.tsumo_non_dealer, child.tsumo_dealer) == (tsumo_child, tsumo_dealer)
        assert hand_payment(ARI, han=han, fu=fu, dealer=True, tsumo=True).tsumo_all == tsumo_dealer


@pytest.mark.parametrize(
    ("han", "fu", "tsumo", "detail"),
    [
        (0, 30, False, "han_not_whole"),
        (-1, 30, True, "han_not_whole"),
        (2.0, 30, True, "han_not_whole"),
        (1, 20, True, "fu_20_one_han"),
        (1, 20, False, "fu_20_ron"),
        (5, 20, False, "fu_20_ron"),
        (1, 25, False, "fu_25_one_han"),
        (2, 25, True, "fu_25_tsumo_two_han"),
        (1, 35, False, "fu_not_a_step"),
        (2, 10, True, "fu_not_a_step"),
        (3, 0, False, "fu_not_a_step"),
        (3, 30.0, False, "fu_not_whole"),
        (1, 120, False, "fu_over_110"),
        (3, 130, True, "fu_over_110"),
        (4, 150, False, "fu_over_140"),
        (7, 150, False, "fu_over_140"),
        (2, None, False, "fu_missing"),
    ],
)
def test_impossible_han_fu_is_refused_naming_its_rule_and_field(han, fu, tsumo, detail):
    with pytest.raises(HandError) as err:
        check_han_fu(han, fu, tsumo=tsumo)
    assert (err.value.code, err.value.detail, err.value.field) == ("fu_not_possible", detail, HAN_FU_DETAILS[detail])


def test_a_pinfu_tsumo_of_30_fu_leaves_no_tsumo_at_20_fu():
    with pytest.raises(HandError) as err:
        check_han_fu(2, 20, tsumo=True, rules=ARI.replace(pinfu_tsumo_fu=2))
    assert (err.value.code, err.value.detail) == ("fu_not_possible", "fu_20_tsumo_30")


@pytest.mark.parametrize(("yakuman", "detail"), [(0, "yakuman_not_whole"), (True, "yakuman_not_whole"),
                                                  (7, "yakuman_over_limit")])
def test_an_impossible_yakuman_count_names_its_rule(yakuman, detail):
    with pytest.raises(HandError) as err:
        check_yakuman(ARI, yakuman)
    assert (err.value.code, err.value.detail, err.value.field) == ("yakuman_not_possible", detail, "yakuman")


def test_limits_are_named():
    assert hand_payment(ARI, han=4, fu=40, dealer=False, tsumo=False).limit is Limit.MANGAN
    assert hand_payment(ARI, han=4, fu=30, dealer=False, tsumo=False).limit is None
    assert hand_payment(ARI, han=13, fu=30, dealer=False, tsumo=False).limit is Limit.YAKUMAN


def test_kiriage_rounds_4_30_and_3_60_up_to_mangan():
    kiri = ARI.replace(kiriage=True)
    assert hand_payment(kiri, han=4, fu=30, dealer=False, tsumo=False).ron == 8000
    assert hand_payment(kiri, han=3, fu=60, dealer=True, tsumo=False).ron == 12000
    assert hand_payment(kiri, han=3, fu=50, dealer=False, tsumo=False).ron == 6400


def test_thirteen_han_is_counted_yakuman_or_sanbaiman_by_ruleset():
    assert hand_payment(ARI, han=13, fu=30, dealer=False, tsumo=False).ron == 32000
    ema = get_ruleset("ema-2016")
    assert hand_payment(ema, han=13, fu=30, dealer=False, tsumo=False).ron == 24000
    assert hand_payment(ema, han=13, fu=30, dealer=False, tsumo=False).limit is Limit.SANBAIMAN


@pytest.mark.parametrize(
    ("preset", "yakuman", "allowed"),
    [("ari-ari", 2, True), ("ari-ari", 3, True), ("ema-2016", 2, False), ("tenhou", 2, True), ("m-league", 2, False)],
)
def test_multiple_yakuman_follow_stacking_and_double_rules(preset, yakuman, allowed):
    rules = get_ruleset(preset)
    if allowed:
        assert hand_payment(rules, yakuman=yakuman, dealer=False, tsumo=False).ron == 32000 * yakuman
    else:
        with pytest.raises(HandError) as err:
            hand_payment(rules, yakuman=yakuman, dealer=False, tsumo=False)
        assert err.value.code == "yakuman_not_possible"


def test_payment_is_monotone_in_han_and_fu():
    fus = (30, 40, 50, 60, 70, 80, 90, 100, 110)
    for dealer in (False, True):
        for tsumo in (False, True):
            table = {
                (han, fu): hand_payment(ARI, han=han, fu=fu, dealer=dealer, tsumo=tsumo).total
                for han in range(1, 16)
                for fu in fus
            }
            for (han, fu), total in table.items():
                if fu != fus[-1]:
                    assert table[han, fu + 10] >= total
                if han < 15:
                    assert table[han + 1, fu] >= total
