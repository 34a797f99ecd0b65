"""Hand-value variants issue #17 added: kazoe with no limit, pinfu tsumo at
30 fu, the open pinfu shape at 20 fu, ura dora ignored without riichi."""

from __future__ import annotations

import pytest

from scoring.errors import HandError, ScoringError
from scoring.game import Ron, Tsumo, Win, settle_kyoku
from scoring.hand_api import hand_request
from scoring.payment import check_han_fu, hand_payment
from scoring.rules import get_ruleset

ARI = get_ruleset("ari-ari")


def hand(rules, **req):
    return hand_request({"op": "hand", "rules": rules.to_spec(), "seat": "S", "round": "E", **req})


# -- kazoe with no limit ---------------------------------------------------------


@pytest.mark.parametrize(
    ("kazoe", "han", "ron"),
    [
        ("yakuman", 13, 32000),
        ("yakuman", 26, 32000),
        ("sanbaiman", 26, 24000),
        ("no_limit", 13, 32000),
        ("no_limit", 25, 32000),
        ("no_limit", 26, 64000),
        ("no_limit", 39, 96000),
    ],
)
def test_kazoe_no_limit_counts_a_yakuman_per_13_han(kazoe, han, ron):
    rules = ARI.replace(kazoe=kazoe)
    assert hand_payment(rules, han=han, fu=30, dealer=False, tsumo=False).ron == ron


def test_kazoe_no_limit_stops_at_the_most_one_hand_may_be_worth():
    # Without stacking or double yakuman a hand is worth one yakuman at most.
    ema = get_ruleset("ema-2016").replace(kazoe="no_limit")
    assert hand_payment(ema, han=26, fu=30, dealer=False, tsumo=False).ron == 32000


# Riichi, ippatsu, menzen tsumo, pinfu, tanyao, ryanpeikou (3), chinitsu (6):
# 14 han; dora indicators 1m 4m 7m make 2m 5m 8m dora, two of each (6), and
# the same ura indicators six more: 26 han.
TWENTY_SIX = {"tiles": "22334455667788m", "win": "2m", "tsumo": True, "riichi": True, "ippatsu": True,
              "dora": ["1m", "4m", "7m"], "ura": ["1m", "4m", "7m"]}


def test_a_26_han_hand_is_a_double_counted_yakuman_with_no_limit():
    out = hand(ARI.replace(kazoe="no_limit"), **TWENTY_SIX)
    assert (out["han"], out["yakuman"], out["limit"]) == (26, 0, "yakuman")
    assert out["payment"] == {"tsumo_dealer": 32000, "tsumo_non_dealer": 16000}
    # the same hand under a single counted yakuman
    assert hand(ARI, **TWENTY_SIX)["payment"] == {"tsumo_dealer": 16000, "tsumo_non_dealer": 8000}


# -- pinfu tsumo worth 2 fu ---------------------------------------------------------

PINFU_TSUMO = {"tiles": "123456m78999p234s", "win": "4s", "tsumo": True}


@pytest.mark.parametrize(
    ("pinfu_tsumo_fu", "fu", "details", "payment"),
    [
        (0, 20, [{"reason": "base", "fu": 20}], {"tsumo_dealer": 700, "tsumo_non_dealer": 400}),
        (2, 30, [{"reason": "base", "fu": 20}, {"reason": "tsumo", "fu": 2}],
         {"tsumo_dealer": 1000, "tsumo_non_dealer": 500}),
    ],
)
def test_pinfu_tsumo_is_20_fu_flat_or_takes_its_tsumo_fu(pinfu_tsumo_fu, fu, details, payment):
    out = hand(ARI.replace(pinfu_tsumo_fu=pinfu_tsumo_fu), **PINFU_TSUMO)
    assert [y["id"] for y in out["yaku"]] == ["menzen_tsumo", "pinfu"]
    assert (out["han"], out["fu"], out["fu_details"], out["payment"]) == (2, fu, details, payment)


def test_no_tsumo_has_20_fu_when_pinfu_tsumo_takes_its_fu():
    rules = ARI.replace(pinfu_tsumo_fu=2)
    with pytest.raises(HandError) as err:
        hand_payment(rules, han=2, fu=20, dealer=False, tsumo=True)
    assert (err.value.code, err.value.field) == ("fu_not_possible", "fu")
    with pytest.raises(ScoringError) as err:
        settle_kyoku(rules, dealer=0, honba=0, riichi_sticks=0, outcome=Tsumo(winner=1, han=2, fu=20))
    assert (err.value.code, err.value.field) == ("fu_not_possible", "outcome.fu")


# -- the open pinfu shape at 20 fu ---------------------------------------------------

OPEN_PINFU = {"tiles": "567p345s78m55s6m", "win": "6m", "melds": [{"type": "chi", "tiles": "234m"}]}


@pytest.mark.parametrize(
    ("open_pinfu_fu", "fu", "details", "ron"),
    [
        (30, 30, [{"reason": "base", "fu": 20}, {"reason": "open_pinfu", "fu": 2}], 1000),
        (20, 20, [{"reason": "base", "fu": 20}], 700),  # 20 x 2^3 x 4 = 640, rounded up
    ],
)
def test_open_pinfu_shape_is_30_or_20_fu(open_pinfu_fu, fu, details, ron):
    out = hand(ARI.replace(open_pinfu_fu=open_pinfu_fu), **OPEN_PINFU)
    assert out["yaku"] == [{"id": "tanyao", "han": 1}]
    assert (out["fu"], out["fu_details"], out["payment"]) == (fu, details, {"ron": ron})


def test_the_han_fu_check_follows_the_open_pinfu_rule():
    twenty = ARI.replace(open_pinfu_fu=20)
    check_han_fu(1, 20, tsumo=False, rules=twenty)
    r = settle_kyoku(twenty, dealer=0, honba=0, riichi_sticks=0, outcome=Ron(loser=2, wins=(Win(1, han=1, fu=20),)))
    assert r.deltas == (0, 700, -700, 0)
    for rules in (None, ARI):
        with pytest.raises(HandError) as err:
            check_han_fu(1, 20, tsumo=False, rules=rules)
        assert err.value.code == "fu_not_possible"
    # an open hand's tsumo is still 22 -> 30 fu, so 1 han 20 fu tsumo stays impossible
    with pytest.raises(HandError):
        check_han_fu(1, 20, tsumo=True, rules=twenty)


# -- ura dora without riichi ----------------------------------------------------------

NO_RIICHI = {"tiles": "123456m78999p234s", "win": "4s", "tsumo": True, "ura": ["3s"]}


def test_ura_dora_without_riichi_are_refused_or_ignored():
    with pytest.raises(HandError) as err:
        hand(ARI, **NO_RIICHI)
    assert (err.value.code, err.value.field) == ("ura_without_riichi", "ura")
    out = hand(ARI.replace(ura_without_riichi="ignored"), **NO_RIICHI)
    # 3s points at 4s, which the hand holds, but nobody declared riichi: no ura dora.
    assert [y["id"] for y in out["yaku"]] == ["menzen_tsumo", "pinfu"] and out["han"] == 2
    # with riichi they count again
    assert hand(ARI.replace(ura_without_riichi="ignored"), riichi=True, **NO_RIICHI)["yaku"][-1] == {
        "id": "ura_dora", "han": 1}


def test_ignored_ura_indicators_still_count_as_tiles():
    # Four 4s in the hand and an ura indicator of 4s would be a fifth copy.
    rules = ARI.replace(ura_without_riichi="ignored")
    with pytest.raises(HandError) as err:
        hand(rules, tiles="123m456p444456s22z", win="2z", tsumo=True, ura=["4s"])
    assert err.value.code == "too_many_copies"


# -- local yakuman ------------------------------------------------------------------

LOCAL = ARI.replace(local_yakuman=["daisharin", "paarenchan", "sashikomi"])
DAISHARIN = {"tiles": "22334455667788p", "win": "5p"}


def test_daisharin_is_a_yakuman_only_where_the_ruleset_lists_it():
    out = hand(LOCAL, **DAISHARIN)
    assert (out["yakuman"], out["yaku"], out["payment"]) == (1, [{"id": "daisharin", "han": 13}], {"ron": 32000})
    # Otherwise pinfu, tanyao, ryanpeikou and chinitsu: 11 han, sanbaiman.
    plain = hand(ARI, **DAISHARIN)
    assert (plain["han"], plain["yakuman"], plain["payment"]) == (11, 0, {"ron": 24000})
    # the same shape in another suit is no daisharin
    assert hand(LOCAL, tiles="22334455667788m", win="5m")["yakuman"] == 0


def test_paarenchan_adds_a_yakuman_to_a_dealer_hand_with_a_yaku():
    out = hand(LOCAL, seat="E", paarenchan=True, **PINFU_TSUMO)
    assert (out["yakuman"], out["yaku"]) == (1, [{"id": "paarenchan", "han": 13}])
    assert out["payment"] == {"tsumo_all": 16000}
    # stacked with daisharin under a stacking ruleset: two yakuman
    assert hand(LOCAL, seat="E", paarenchan=True, **DAISHARIN)["yakuman"] == 2


def test_paarenchan_needs_a_yaku_of_its_own():
    with pytest.raises(HandError) as err:
        hand(LOCAL, seat="E", paarenchan=True, tiles="123m456p789s11222z", win="2z")
    assert err.value.code == "no_yaku"


def test_sashikomi_is_a_yakuman_for_a_ron_on_a_riichi_hand():
    out = hand(LOCAL, riichi=True, sashikomi=True, tiles="123456m78999p234s", win="4s")
    assert (out["yakuman"], out["yaku"], out["payment"]) == (1, [{"id": "sashikomi", "han": 13}], {"ron": 32000})


@pytest.mark.parametrize(
    ("rules", "req", "code", "field"),
    [
        (ARI, {"seat": "E", "paarenchan": True, **PINFU_TSUMO}, "yakuman_not_allowed", "paarenchan"),
        (ARI, {"riichi": True, "sashikomi": True, "tiles": "123456m78999p234s", "win": "4s"},
         "yakuman_not_allowed", "sashikomi"),
        (LOCAL, {"paarenchan": True, **PINFU_TSUMO}, "situation_conflict", "paarenchan"),
        (LOCAL, {"sashikomi": True, "tiles": "123456m78999p234s", "win": "4s"}, "situation_conflict", "sashikomi"),
        (LOCAL, {"riichi": True, "sashikomi": True, **PINFU_TSUMO}, "situation_conflict", "sashikomi"),
    ],
)
def test_local_yakuman_flags_are_refused_where_they_cannot_apply(rules, req, code, field):
    with pytest.raises(HandError) as err:
        hand(rules, **req)
    assert (err.value.code, err.value.field) == (code, field)


def test_local_yakuman_must_be_known():
    with pytest.raises(ScoringError) as err:
        get_ruleset({"preset": "ari-ari", "overrides": {"local_yakuman": ["daichisei"]}})
    assert (err.value.code, err.value.field) == ("invalid_rules", "rules.overrides.local_yakuman")


# -- the fu shown when two readings pay the same -------------------------------------


@pytest.mark.parametrize(
    ("req", "fu", "details"),
    [
        # A 33p pair and 456p twice (4p a ryanmen wait: 22 fu), or a 66p pair
        # and 345p twice (4p a kanchan: 24 fu): both 30 fu, tanyao and aka dora.
        ({"tiles": "456m33445066p", "melds": [{"type": "pon", "tiles": "888p"}], "win": "4p", "seat": "E"},
         30, [("base", 20), ("open_triplet", 2), ("kanchan", 2)]),
        # 111p 234p 567p and a 77p pair (7p a tanki: 22 + 8 + 8 + 2 = 40), or an
        # 11p pair with 123p 456p 777p (a shanpon: 22 + 4 + 8 = 34): both 40 fu.
        ({"tiles": "11123456777p666z", "win": "7p", "tsumo": True, "seat": "N"},
         40, [("base", 20), ("tsumo", 2), ("closed_terminal_triplet", 8), ("closed_terminal_triplet", 8),
              ("tanki", 2)]),
    ],
)
def test_of_two_readings_paying_the_same_the_one_with_more_unrounded_fu_is_shown(req, fu, details):
    # The `mahjong` package breaks the same tie by the raw fu sum
    # (calculators.md, "How it picks among parses"); the oracle test compares it.
    out = hand(get_ruleset("tenhou"), **req)
    assert out["fu"] == fu
    assert [(d["reason"], d["fu"]) for d in out["fu_details"]] == details
