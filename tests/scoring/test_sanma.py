"""Three-player mahjong (sanma) in the engine: the payments, flow and
settlement of ../shared/reference/sanma.md, worked by hand. The real games
(tests/tenhou/test_sanma.py) cover what they hold; these cover what they do
not (a West round, a Mahjong Soul draw, nagashi, pao, kazoe yakuman, chombo,
leftover sticks at the end) and the refusals.
"""

from __future__ import annotations

import json

import pytest

from scoring.__main__ import answer
from scoring.errors import GameError, HandError, RulesError
from scoring.game import (
    Abort,
    AbortReason,
    Chombo,
    Draw,
    EndReason,
    FinalScores,
    GameRecord,
    HandInput,
    Ron,
    Tsumo,
    Win,
    replay,
    settle_kyoku,
)
from scoring.hand import SOUTH, WEST, Hand, Situation, analyse_hand, tile_index
from scoring.payment import hand_payment
from scoring.rules import PRESET_SOURCES, get_ruleset
from scoring.settlement import settle

TENHOU = get_ruleset("tenhou-sanma")
MJS = get_ruleset("mahjong-soul-sanma")
SANMA_PRESETS = ("tenhou-sanma", "tenhou-sanma-east", "mahjong-soul-sanma")


@pytest.mark.parametrize("name", SANMA_PRESETS)
def test_sanma_presets_are_three_players_with_every_value_sourced(name):
    rules = get_ruleset(name)
    assert (rules.players, rules.start_points, rules.honba_ron, rules.noten_total, rules.aka_dora) == \
        (3, 35000, 200, 2000, 2)
    assert len(rules.uma) == 3 and sum(rules.uma) == 0
    assert set(PRESET_SOURCES[name]) == set(rules.to_dict()) - {"name"}
    assert all(PRESET_SOURCES[name].values())


@pytest.mark.parametrize(("name", "uma", "return_points", "oka"), [
    ("tenhou-sanma", (20000, 0, -20000), 40000, 15000),  # sanma.md §7.1: not +15/0/-15
    ("mahjong-soul-sanma", (15000, 0, -15000), 35000, 0),
])
def test_uma_and_return_follow_each_platform(name, uma, return_points, oka):
    rules = get_ruleset(name)
    assert (rules.uma, rules.return_points, rules.oka) == (uma, return_points, oka)


# (han, fu or None, dealer, tsumo) -> what each payer pays and the total (sanma.md §3)
PAYMENTS = [
    ((5, None, False, False), {"ron": 8000}, 8000),
    ((5, None, False, True), {"tsumo_dealer": 4000, "tsumo_non_dealer": 2000}, 6000),  # ron 8,000
    ((1, 30, False, True), {"tsumo_dealer": 500, "tsumo_non_dealer": 300}, 800),
    ((5, None, True, True), {"tsumo_all": 4000}, 8000),  # ron 12,000
    ((6, None, True, True), {"tsumo_all": 6000}, 12000),
    ((4, 30, True, False), {"ron": 11600}, 11600),
    ((11, None, False, True), {"tsumo_dealer": 12000, "tsumo_non_dealer": 6000}, 18000),
    ((13, None, False, True), {"tsumo_dealer": 16000, "tsumo_non_dealer": 8000}, 24000),  # kazoe yakuman
]


@pytest.mark.parametrize(("hand", "pays", "total"), PAYMENTS)
def test_tsumo_loss_payments(hand, pays, total):
    han, fu, dealer, tsumo = hand
    p = hand_payment(TENHOU, han=han, fu=fu, dealer=dealer, tsumo=tsumo)
    assert (p.as_dict(), p.total) == (pays, total)


def test_a_dealer_yakuman_tsumo_is_16000_from_each_of_two():
    p = hand_payment(TENHOU, yakuman=1, dealer=True, tsumo=True)
    assert (p.tsumo_all, p.total) == (16000, 32000)


def test_north_bisection_splits_the_absent_share():
    split = TENHOU.replace(tsumo_loss=False)
    p = hand_payment(split, han=5, dealer=False, tsumo=True)
    assert (p.tsumo_dealer, p.tsumo_non_dealer, p.total) == (5000, 3000, 8000)
    assert hand_payment(split, han=5, dealer=True, tsumo=True).total == 12000


# One hand: (dealer, honba, sticks, riichi, outcome) -> deltas, next honba, sticks, dealer keeps
KYOKU = [
    # non-dealer mangan ron with 2 honba: 8,000 + 400 (200 per honba) [D]
    ((0, 2, 0, (), Ron(1, (Win(2, han=5),))), (0, -8400, 8400), 0, 0, False),
    # 32,000 ron + 2 honba = 32,400 [D auto-white-reimu 2018]
    ((0, 2, 0, (), Ron(1, (Win(2, yakuman=1),))), (0, -32400, 32400), 0, 0, False),
    # non-dealer tsumo 2000-4000 with 1 honba: 100 from each of the 2 payers
    ((0, 1, 0, (), Tsumo(1, han=5)), (-4100, 6200, -2100), 0, 0, False),
    # 8 honba on a dealer tsumo: 800 from each
    ((0, 8, 0, (), Tsumo(0, han=1, fu=30)), (2600, -1300, -1300), 9, 0, True),
    # sticks on the table and this hand's riichi go to the winner
    ((0, 0, 2, (0,), Ron(2, (Win(1, han=1, fu=30),))), (-1000, 1000 + 3000, -1000), 0, 0, False),
    # exhaustive draws: 2,000 in all (+2000/-1000/-1000 and +1000/+1000/-2000) [D]
    ((0, 0, 0, (), Draw(tenpai=(1,))), (-1000, 2000, -1000), 1, 0, False),
    ((0, 0, 0, (), Draw(tenpai=(0, 2))), (1000, -2000, 1000), 1, 0, True),
    ((2, 0, 0, (), Draw(tenpai=(0, 1, 2))), (0, 0, 0), 1, 0, True),
    ((2, 0, 0, (), Draw(tenpai=())), (0, 0, 0), 1, 0, False),
    # nine terminals: the dealer keeps, +1 honba [D]
    ((1, 0, 0, (), Abort(AbortReason.KYUUSHU_KYUUHAI)), (0, 0, 0), 1, 0, True),
    # double ron: honba and sticks to the winner nearest the discarder (seat 0's right is 1)
    ((0, 1, 1, (), Ron(0, (Win(2, han=2, fu=30), Win(1, han=1, fu=30)))), (-3200, 1000 + 200 + 1000, 2000), 0, 0, False),
    # nagashi mangan by a non-dealer: paid as a mangan tsumo with tsumo loss (choice, sanma.md §7.5)
    ((0, 0, 0, (), Draw(tenpai=(), nagashi=(1,))), (-4000, 6000, -2000), 1, 0, False),
    # pao on a daisangen tsumo: the liable seat pays the whole tsumo (2 x 8000 + 16000) and 2 x honba
    ((0, 1, 0, (), Tsumo(1, yakuman=1, pao=2)), (0, 24200, -24200), 0, 0, False),
    # pao on a ron: half each, honba from the liable seat
    ((0, 0, 0, (), Ron(0, (Win(1, yakuman=1, pao=2),))), (-16000, 32000, -16000), 0, 0, False),
    # chombo (reverse mangan): paid like a mangan tsumo under tsumo loss, the hand is replayed
    ((0, 0, 0, (), Chombo(1)), (4000, -6000, 2000), 0, 0, True),
]


@pytest.mark.parametrize(("state", "deltas", "honba", "sticks", "keeps"), KYOKU)
def test_one_hand_with_three_players(state, deltas, honba, sticks, keeps):
    dealer, h, s, riichi, outcome = state
    r = settle_kyoku(TENHOU, dealer=dealer, honba=h, riichi_sticks=s, riichi=riichi, outcome=outcome)
    assert (r.deltas, r.honba, r.riichi_sticks, r.dealer_keeps) == (deltas, honba, sticks, keeps)


def test_a_mahjong_soul_draw_pays_2000():
    r = settle_kyoku(MJS, dealer=0, honba=0, riichi_sticks=0, outcome=Draw(tenpai=(2,)))
    assert r.deltas == (-1000, -1000, 2000)


@pytest.mark.parametrize(("outcome", "field"), [
    (Ron(3, (Win(0, han=1, fu=30),)), "outcome.loser"),
    (Tsumo(3, han=1, fu=30), "outcome.winner"),
    (Draw(tenpai=(3,)), "outcome.tenpai[0]"),
    (Abort(AbortReason.SUUFON_RENDA), "outcome.reason"),
])
def test_a_fourth_seat_or_a_four_player_abort_is_refused(outcome, field):
    with pytest.raises(HandError) as err:
        settle_kyoku(TENHOU, dealer=0, honba=0, riichi_sticks=0, outcome=outcome)
    assert err.value.field == field


def test_four_player_only_aborts_cannot_be_given_to_a_sanma_ruleset():
    with pytest.raises(RulesError, match="suucha_riichi cannot happen with three players"):
        TENHOU.replace(abortive_draws=["kyuushu_kyuuhai", "suucha_riichi"])
    with pytest.raises(RulesError, match="one value per place"):
        TENHOU.replace(uma=[20000, 10000, -10000, -20000])


def _ron(loser, winner, han=1, fu=30):
    return HandInput(Ron(loser, (Win(winner, han=han, fu=fu),)))


def test_the_deal_passes_over_three_seats_and_s1_follows_e3():
    hands = [_ron(2, 1), _ron(0, 2), _ron(1, 0), _ron(2, 1)]  # never the dealer: the deal passes
    g = replay(GameRecord(TENHOU, tuple(hands)))
    assert [(h.round_label, h.dealer) for h in g.hands] == [("E1", 0), ("E2", 1), ("E3", 2), ("S1", 0)]
    assert g.next.round_label == "S2" and g.next.dealer == 1


def test_a_hanchan_ends_after_s3_when_someone_has_40000():
    hands = [_ron(0, 1, han=5), _ron(0, 2), _ron(1, 0), _ron(0, 1), _ron(0, 2), _ron(1, 0)]
    g = replay(GameRecord(TENHOU, tuple(hands)))
    assert g.hands[-1].round_label == "S3" and g.finished and g.ended_by is EndReason.ALL_LAST
    assert max(g.scores) >= 40000


def test_without_40000_after_s3_the_game_goes_into_west_and_ends_there():
    # Six cheap rons keep everyone under 40,000: sudden death in the West round (sanma.md §1).
    small = [_ron(0, 1), _ron(1, 2), _ron(2, 0)] * 2
    g = replay(GameRecord(TENHOU, tuple(small)))
    assert not g.finished and g.next.round_label == "W1"
    g = replay(GameRecord(TENHOU, tuple([*small, _ron(1, 0, han=5)])))
    assert g.hands[-1].round_label == "W1" and g.finished and g.ended_by is EndReason.TARGET


def test_a_bust_ends_the_game_below_zero():
    hands = [HandInput(Ron(1, (Win(0, yakuman=1),)))]  # dealer yakuman ron: 48,000 [D kokushi_ankan]
    g = replay(GameRecord(TENHOU, tuple(hands)))
    assert g.scores == (83000, -13000, 35000) and g.ended_by is EndReason.BUST
    assert g.settlement.points == (43000 + 20000 + 15000, -53000 - 20000, -5000)


def test_agari_yame_when_the_all_last_dealer_wins_first_with_40000():
    east = get_ruleset("tenhou-sanma-east")
    hands = (_ron(0, 1), _ron(0, 2), _ron(0, 2, han=5))  # the E3 dealer's mangan: 48,000 and first
    g = replay(GameRecord(east, hands))
    assert g.hands[-1].round_label == "E3" and g.ended_by is EndReason.AGARI_YAME
    assert g.settlement.final_scores == (21000, 36000, 48000)


def test_mahjong_soul_agari_yame_is_the_dealers_choice():
    hands = (_ron(0, 1), _ron(0, 2), _ron(0, 2, han=5))
    g = replay(GameRecord(MJS, hands))
    assert not g.finished and g.next.round_label == "E3" and g.next.honba == 1
    stopped = replay(GameRecord(MJS, hands, end=EndReason.AGARI_YAME))
    assert stopped.finished and stopped.settlement.places == (3, 2, 1)


def test_leftover_sticks_at_the_end_go_to_first():
    s = settle(TENHOU, [60000, 30000, 13000], riichi_sticks=2)
    assert s.final_scores == (62000, 30000, 13000)
    assert s.points == (22000 + 20000 + 15000, -10000, -27000 - 20000)


# Settlement worked from the real games (sanma.md §4)
SETTLEMENTS = [
    ("tenhou-sanma", None, [83300, 11900, 9800], (78300, -28100, -50200)),
    ("tenhou-sanma", None, [22500, 75700, 6800], (-17500, 70700, -53200)),
    ("tenhou-sanma", "tenhou", [27400, 83100, -5500], (-13000, 79000, -66000)),  # sanma2.xml: 1st takes the rest
    ("mahjong-soul-sanma", None, [83200, -58100, 79900], (63200, -108100, 44900)),
]


@pytest.mark.parametrize(("preset", "rounding", "scores", "points"), SETTLEMENTS)
def test_settlement_with_three_places(preset, rounding, scores, points):
    rules = get_ruleset(preset)
    if rounding:
        rules = rules.replace(end_rounding=rounding)
    s = settle(rules, scores)
    assert s.points == points and sum(s.points) == 0
    assert sorted(s.places) == [1, 2, 3]


def test_tied_places_split_or_go_by_seat():
    assert settle(TENHOU, [40000, 40000, 25000]).points == (0 + 20000 + 15000, 0, -15000 - 20000)
    split = TENHOU.replace(tie_policy="split")
    assert settle(split, [40000, 40000, 25000]).points == (10000 + 7500, 10000 + 7500, -15000 - 20000)


def test_final_scores_of_a_sanma_game_sum_to_three_starts():
    with pytest.raises(GameError, match="3 x 35,000"):
        replay(GameRecord(TENHOU, final=FinalScores((40000, 40000, 40000))))


# -- hand analysis ---------------------------------------------------------------

def _analyse(tiles, win, rules=TENHOU, melds=(), **sit):
    return analyse_hand(rules, Hand.parse(tiles, win=win, melds=list(melds)), Situation(seat=SOUTH, **sit))


def test_each_kita_is_a_dora_and_west_doubles_it():
    plain = _analyse("123456789p11s777z", "1p")
    assert plain.han == 3
    assert _analyse("123456789p11s777z", "1p", kita=1).yaku[-1] == ("dora", 1)
    assert _analyse("123456789p11s777z", "1p", kita=2, dora=(tile_index("3z"),)).yaku[-1] == ("dora", 4)
    ura = _analyse("123456789p11s789s", "1p", kita=1, riichi=True, ura=(tile_index("3z"),))
    assert ("ura_dora", 1) in ura.yaku and ("dora", 1) in ura.yaku


def test_1m_indicates_9m_with_three_players_and_2m_with_four():
    hand = "99m456p234789s777z"
    sanma = _analyse(hand, "4p", round=SOUTH, dora=(tile_index("1m"),))
    assert ("dora", 2) in sanma.yaku
    four = analyse_hand(get_ruleset("tenhou"), Hand.parse(hand, win="4p"),
                        Situation(seat=SOUTH, round=SOUTH, dora=(tile_index("1m"),)))
    assert all(name != "dora" for name, _ in four.yaku)


@pytest.mark.parametrize(("tiles", "melds", "sit", "code", "field"), [
    ("55m456p234789s777z", (), {}, "not_in_sanma", "tiles"),
    ("99m456p234789s777z", (), {"dora": (tile_index("5m"),)}, "not_in_sanma", "dora"),
    ("99m456p789s777z", (("chi", "234s"),), {}, "chii_not_allowed", "melds[0]"),
    ("99m456p234789s444z", (), {"kita": 2}, "too_many_copies", "kita"),
    ("99m456p234789s777z", (), {"seat": 30}, "invalid_wind", "seat"),
])
def test_what_three_players_cannot_have_is_refused(tiles, melds, sit, code, field):
    sit = {"seat": SOUTH, **sit}
    with pytest.raises(HandError) as err:
        analyse_hand(TENHOU, Hand.parse(tiles, win="4p", melds=list(melds)), Situation(**sit))
    assert (err.value.code, err.value.field) == (code, field)


def test_kita_is_refused_with_four_players():
    with pytest.raises(HandError) as err:
        _analyse("123456789p11s777z", "1p", rules=get_ruleset("tenhou"), kita=1)
    assert err.value.code == "kita_not_allowed"


def test_a_north_triplet_is_a_guest_wind_with_three_players():
    # No seat is North, so 444z scores nothing of its own (sanma.md §2).
    r = _analyse("123456789p11s444z", "1p", round=WEST)
    assert [name for name, _ in r.yaku] == ["ittsuu"]


# -- python -m scoring with three players -----------------------------------------

INTERFACE = [
    ({"op": "kyoku", "rules": "tenhou-sanma", "dealer": 0, "honba": 2,
      "outcome": {"type": "tsumo", "winner": 1, "han": 5}},
     {"deltas": [-4200, 6400, -2200], "honba": 0, "riichi_sticks": 0, "dealer_keeps": False}),
    ({"op": "settle", "rules": "tenhou-sanma", "scores": [83300, 11900, 9800]},
     {"places": [1, 2, 3], "points": [78300, -28100, -50200], "final_scores": [83300, 11900, 9800]}),
    ({"op": "settle", "rules": "mahjong-soul-sanma", "scores": [83200, -58100, 79900]},
     {"places": [1, 3, 2], "points": [63200, -108100, 44900], "final_scores": [83200, -58100, 79900]}),
]


@pytest.mark.parametrize(("request_", "answer_"), INTERFACE)
def test_the_json_ops_take_three_player_requests(request_, answer_):
    assert answer(json.dumps(request_)) == answer_


def test_the_game_op_replays_a_three_player_game():
    out = answer(json.dumps({"op": "game", "rules": "mahjong-soul-sanma", "players": ["A", "B", "C"], "hands": [
        {"outcome": {"type": "draw", "tenpai": [2]}},
        {"riichi": [0], "outcome": {"type": "ron", "loser": 1, "wins": [{"winner": 0, "yakuman": 1}]}},
    ]}))
    # A Mahjong Soul draw pays 2,000 in all; the dealer was noten, so E2 follows with 1 honba (200 on a ron).
    assert [(h["round"], h["honba"], h["deltas"]) for h in out["hands"]] == [
        ("E1", 0, [-1000, -1000, 2000]), ("E2", 1, [32200, -32200, 0])]
    assert out["scores"] == [66200, 1800, 37000]
    assert not out["finished"] and out["next"] == {"round": "E3", "dealer": 2, "honba": 0, "riichi_sticks": 0}


def test_the_hand_op_counts_kita_and_refuses_four_scores():
    out = answer(json.dumps({"op": "hand", "rules": "tenhou-sanma", "tiles": "123456789p11s777z", "win": "1p",
                             "seat": "S", "round": "E", "dora": ["3z"], "kita": 2}))
    assert out["yaku"][-1] == {"id": "dora", "han": 4} and out["payment"] == {"ron": 12000}
    err = answer(json.dumps({"op": "settle", "rules": "tenhou-sanma", "scores": [35000, 35000, 35000, 0]}))
    assert err["error"]["code"] == "invalid_scores" and err["error"]["field"] == "scores"
    err = answer(json.dumps({"op": "game", "rules": "tenhou-sanma", "players": ["A", "B", "C", "D"], "hands": []}))
    assert err["error"]["code"] == "invalid_players"
