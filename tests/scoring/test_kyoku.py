"""One hand: who pays whom, and what the next hand starts with."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.game import Abort, AbortReason, Chombo, Draw, Ron, Tsumo, Win, settle_kyoku
from scoring.rules import get_ruleset

ARI = get_ruleset("ari-ari")
TENHOU = get_ruleset("tenhou")


def kyoku(outcome, rules=ARI, dealer=0, honba=0, sticks=0, riichi=()):
    return settle_kyoku(rules, dealer=dealer, honba=honba, riichi_sticks=sticks, riichi=riichi, outcome=outcome)


def test_non_dealer_ron_passes_the_deal_and_clears_honba():
    r = kyoku(Ron(loser=3, wins=(Win(1, han=2, fu=30),)), honba=2)
    assert r.deltas == (0, 2600, 0, -2600)
    assert (r.honba, r.riichi_sticks, r.dealer_keeps) == (0, 0, False)


def test_dealer_ron_keeps_the_deal_and_adds_a_honba():
    r = kyoku(Ron(loser=2, wins=(Win(0, han=1, fu=30),)), honba=1)
    assert r.deltas == (1800, 0, -1800, 0)
    assert (r.honba, r.dealer_keeps) == (2, True)


def test_tsumo_with_honba_collects_100_per_payer_per_honba():
    r = kyoku(Tsumo(winner=2, han=4, fu=30), dealer=1, honba=3)
    assert r.deltas == (-2300, -4200, 8800, -2300)


def test_winner_takes_table_sticks_and_this_hands_riichi():
    r = kyoku(Tsumo(winner=1, han=1, fu=30), sticks=2, riichi=(1, 3))
    # 500 + 300 + 300; seat 1 paid its stick and takes 4 sticks
    assert r.deltas == (-500, 1100 - 1000 + 4000, -300, -300 - 1000)
    assert r.riichi_sticks == 0


def test_double_ron_honba_and_sticks_go_to_the_winner_nearest_the_discarder():
    # Discarder 3; winners 1 and 0: seat 0 is next after 3, so nearest.
    r = kyoku(Ron(loser=3, wins=(Win(1, han=1, fu=30), Win(0, han=2, fu=30))), dealer=2, honba=1, sticks=1)
    assert r.deltas == (2000 + 300 + 1000, 1000, 0, -3000 - 300)
    assert r.riichi_sticks == 0 and not r.dealer_keeps


def test_double_ron_including_the_dealer_keeps_the_deal():
    r = kyoku(Ron(loser=1, wins=(Win(2, han=1, fu=30), Win(0, han=1, fu=30))), dealer=0)
    assert r.dealer_keeps and r.honba == 1


def test_honba_each_gives_every_ron_winner_the_honba():
    ema = get_ruleset("ema-2016")
    r = kyoku(Ron(loser=0, wins=(Win(1, han=1, fu=30), Win(2, han=1, fu=30))), rules=ema, dealer=3, honba=1)
    assert r.deltas == (-2600, 1300, 1300, 0)


def test_head_bump_refuses_a_double_ron():
    with pytest.raises(ScoringError) as err:
        kyoku(Ron(loser=0, wins=(Win(1, han=1, fu=30), Win(2, han=1, fu=30))), rules=get_ruleset("m-league"))
    assert err.value.code == "multiple_ron_not_allowed"
    assert err.value.field == "outcome.wins"


def test_triple_ron_is_an_abortive_draw_where_the_ruleset_says_so():
    wins = (Win(1, han=1, fu=30), Win(2, han=1, fu=30), Win(3, han=1, fu=30))
    with pytest.raises(ScoringError) as err:
        kyoku(Ron(loser=0, wins=wins), rules=TENHOU)
    assert err.value.code == "triple_ron_aborts"
    r = kyoku(Ron(loser=0, wins=wins), rules=get_ruleset("mahjong-soul"), dealer=0)
    assert r.deltas == (-3000, 1000, 1000, 1000)


def test_exhaustive_draw_noten_payments():
    assert kyoku(Draw(tenpai=(0,))).deltas == (3000, -1000, -1000, -1000)
    assert kyoku(Draw(tenpai=(0, 2))).deltas == (1500, -1500, 1500, -1500)
    assert kyoku(Draw(tenpai=(0, 1, 2))).deltas == (1000, 1000, 1000, -3000)
    assert kyoku(Draw(tenpai=())).deltas == (0, 0, 0, 0)
    assert kyoku(Draw(tenpai=(0, 1, 2, 3))).deltas == (0, 0, 0, 0)


def test_draw_keeps_sticks_on_the_table_and_the_dealer_only_if_tenpai():
    r = kyoku(Draw(tenpai=(1,)), sticks=1, riichi=(1,), honba=2)
    assert (r.riichi_sticks, r.honba, r.dealer_keeps) == (2, 3, False)
    assert kyoku(Draw(tenpai=(0,))).dealer_keeps


def test_riichi_seat_must_be_tenpai_at_a_draw():
    with pytest.raises(ScoringError) as err:
        kyoku(Draw(tenpai=(0,)), riichi=(0, 2))
    assert (err.value.code, err.value.field) == ("riichi_not_tenpai", "riichi[1]")


def test_nagashi_mangan_is_paid_like_a_mangan_tsumo_instead_of_noten():
    r = kyoku(Draw(tenpai=(1,), nagashi=(2,)), dealer=0, sticks=1)
    assert r.deltas == (-4000, -2000, 8000, -2000)
    assert (r.riichi_sticks, r.honba, r.dealer_keeps) == (1, 1, False)
    with pytest.raises(ScoringError) as err:
        kyoku(Draw(nagashi=(2,)), rules=get_ruleset("ema-2016"))
    assert err.value.code == "nagashi_not_allowed"


def test_abortive_draw_adds_a_honba_and_keeps_the_dealer():
    r = kyoku(Abort(AbortReason.SUUCHA_RIICHI), dealer=2, honba=1, riichi=(0, 1, 2, 3))
    assert r.deltas == (-1000, -1000, -1000, -1000)
    assert (r.riichi_sticks, r.honba, r.dealer_keeps) == (4, 2, True)
    with pytest.raises(ScoringError) as err:
        kyoku(Abort(AbortReason.KYUUSHU_KYUUHAI), rules=get_ruleset("wrc-2022"))
    assert err.value.code == "abort_not_allowed"


def test_chombo_reverse_mangan_voids_the_hand():
    r = kyoku(Chombo(offender=2), dealer=0, honba=1, sticks=2, riichi=(1,))
    assert r.deltas == (4000, 2000, -8000, 2000)  # the riichi of a void hand is not paid
    assert (r.honba, r.riichi_sticks, r.dealer_keeps) == (1, 2, True)
    assert kyoku(Chombo(offender=0), dealer=0).deltas == (-12000, 4000, 4000, 4000)


def test_chombo_as_penalty_changes_no_table_points():
    r = kyoku(Chombo(offender=1), rules=get_ruleset("ema-2016"))
    assert r.deltas == (0, 0, 0, 0)
    assert [(p.seat, p.points) for p in r.penalties] == [(1, -20000)]


def test_pao_tsumo_liable_seat_pays_everything():
    r = kyoku(Tsumo(winner=1, yakuman=1, pao=3), dealer=0, honba=1, rules=TENHOU)
    assert r.deltas == (0, 32300, 0, -32300)


def test_pao_ron_is_split_and_the_liable_seat_pays_the_honba():
    r = kyoku(Ron(loser=2, wins=(Win(1, yakuman=1, pao=3),)), dealer=0, honba=1, rules=TENHOU)
    assert r.deltas == (0, 32300, -16000, -16300)
    ml = get_ruleset("m-league")
    r = kyoku(Ron(loser=2, wins=(Win(1, yakuman=1, pao=3),)), dealer=0, honba=1, rules=ml)
    assert r.deltas == (0, 32300, -16300, -16000)


@pytest.mark.parametrize(
    ("outcome", "riichi", "code", "field"),
    [
        (Ron(loser=1, wins=(Win(1, han=1, fu=30),)), (), "loser_is_winner", "outcome.wins[0].winner"),
        (Ron(loser=4, wins=(Win(1, han=1, fu=30),)), (), "invalid_seat", "outcome.loser"),
        (Ron(loser=0, wins=(Win(1, han=1, fu=30), Win(1, han=2, fu=30))), (), "duplicate_seat", "outcome.wins"),
        (Ron(loser=0, wins=()), (), "no_winner", "outcome.wins"),
        (Ron(loser=0, wins=(Win(1, han=1, fu=20),)), (), "fu_not_possible", "outcome.wins[0].fu"),
        (Tsumo(winner=1, yakuman=1, pao=1), (), "invalid_pao", "outcome.pao"),
        (Tsumo(winner=1, han=3, fu=30, pao=2), (), "invalid_pao", "outcome.pao"),
        (Tsumo(winner=1, han=1, fu=30), (2, 2), "duplicate_seat", "riichi"),
        (Tsumo(winner=1, han=1, fu=30), (5,), "invalid_seat", "riichi[0]"),
        (Draw(tenpai=(0, 0)), (), "duplicate_seat", "outcome.tenpai"),
    ],
)
def test_bad_hands_are_refused_naming_the_field(outcome, riichi, code, field):
    with pytest.raises(ScoringError) as err:
        kyoku(outcome, riichi=riichi, rules=TENHOU)
    assert (err.value.code, err.value.field) == (code, field)
