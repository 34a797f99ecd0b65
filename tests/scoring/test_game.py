"""A game: dealer rotation, honba, sticks, and when it ends."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from scoring.errors import ScoringError
from scoring.game import (
    Abort,
    AbortReason,
    Chombo,
    Draw,
    EndReason,
    FinalScores,
    GameRecord,
    GameResult,
    HandInput,
    KyokuResult,
    PlayedHand,
    Ron,
    TableState,
    Transfer,
    Tsumo,
    Win,
    play,
    record_from_dict,
    record_to_dict,
    replay,
)
from scoring.rules import get_ruleset
from scoring.settlement import Penalty

ARI = get_ruleset("ari-ari")
TENHOU = get_ruleset("tenhou")


def ron(loser, winner, han=1, fu=30, **kw):
    return HandInput(Ron(loser=loser, wins=(Win(winner, han=han, fu=fu),)), **kw)


def tsumo(winner, han=1, fu=30, **kw):
    return HandInput(Tsumo(winner=winner, han=han, fu=fu), **kw)


def noten_draw(**kw):
    return HandInput(Draw(tenpai=()), **kw)


def eight_passes():
    """Eight hands in which the deal always passes: E1 to S4."""
    return [ron((d + 1) % 4, (d + 2) % 4) for d in range(4)] * 2


def test_hanchan_ends_when_south_4_passes_the_deal():
    g = play(ARI, eight_passes())
    assert [h.round_label for h in g.hands] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    assert g.finished and g.ended_by is EndReason.ALL_LAST
    assert sum(g.settlement.points) == 0


def test_hand_after_the_end_is_game_over():
    with pytest.raises(ScoringError) as err:
        play(ARI, [*eight_passes(), noten_draw()])
    assert (err.value.code, err.value.field) == ("game_over", "hands[8]")


def test_dealer_repeats_count_honba_and_sticks_carry_over():
    g = play(
        ARI,
        [
            tsumo(0),  # E1 dealer wins: E1 1 honba
            HandInput(Draw(tenpai=(0, 1)), riichi=(1,)),  # E1-1 draw, dealer tenpai: E1 2 honba, 1 stick
            ron(0, 1),  # E1-2 seat 1 wins 1,000 + 600, takes the stick: E2 0 honba
            HandInput(Abort(AbortReason.KYUUSHU_KYUUHAI)),  # E2 abort: E2 1 honba
            HandInput(Chombo(offender=3)),  # E2-1 chombo: same dealer, same honba
        ],
    )
    assert [(h.round_label, h.dealer, h.honba, h.riichi_sticks) for h in g.hands] == [
        ("E1", 0, 0, 0),
        ("E1", 0, 1, 0),
        ("E1", 0, 2, 1),
        ("E2", 1, 0, 0),
        ("E2", 1, 1, 0),
    ]
    assert (g.next.round_label, g.next.dealer, g.next.honba, g.next.riichi_sticks) == ("E2", 1, 1, 0)
    assert not g.finished


def test_east_only_game_ends_after_east_4():
    g = play(get_ruleset({"preset": "ari-ari", "overrides": {"length": "east"}}), eight_passes()[:4])
    assert g.finished and g.ended_by is EndReason.ALL_LAST


def test_tenhou_bust_ends_the_game_at_once_but_zero_plays_on():
    hands = [HandInput(Ron(loser=1, wins=(Win(0, yakuman=1),)))]  # dealer ron 48,000: seat 1 at -23,000
    g = play(TENHOU, hands)
    assert g.finished and g.ended_by is EndReason.BUST
    assert play(ARI, hands).finished is False  # ari-ari plays on below zero
    # 25,000 exactly lost: seat 1 at 0 plays on
    g = play(TENHOU, [ron(1, 2, han=6), ron(1, 3, han=6), HandInput(Draw(tenpai=(0, 1, 2, 3)), riichi=(1,))])
    assert g.scores[1] == 0 and not g.finished


def _tenhou_to_all_last():
    # Seven hands that pass the deal and leave everyone near 25,000.
    return [ron((d + 1) % 4, (d + 2) % 4) for d in range(4)] + [ron((d + 1) % 4, (d + 2) % 4) for d in range(3)]


def test_tenhou_agari_yame_dealer_first_with_30000_ends_it():
    # S4 dealer is seat 3; a big win leaves seat 3 first with >= 30,000.
    g = play(TENHOU, [*_tenhou_to_all_last(), HandInput(Tsumo(winner=3, han=4, fu=30))])
    assert g.finished and g.ended_by is EndReason.AGARI_YAME
    # The same under ari-ari: no agari-yame, the dealer plays on.
    assert not play(ARI, [*_tenhou_to_all_last(), HandInput(Tsumo(winner=3, han=4, fu=30))]).finished


def test_tenhou_tenpai_yame_needs_the_dealer_first():
    base = [*_tenhou_to_all_last(), HandInput(Tsumo(winner=3, han=4, fu=30)) ]
    # dealer tenpai alone while first: the game ends on the draw as well
    g = play(TENHOU, [*_tenhou_to_all_last(), HandInput(Tsumo(winner=3, han=1, fu=30)), HandInput(Draw(tenpai=(3,)))])
    assert g.hands[-1].round_label == "S4" and g.scores[3] < 30000
    assert not g.finished  # dealer below 30,000 plays on
    assert play(TENHOU, base).ended_by is EndReason.AGARI_YAME


def test_tenhou_goes_into_the_west_round_when_nobody_has_30000():
    hands = [noten_draw() for _ in range(8)]  # every hand passes the deal, nobody gains
    g = play(TENHOU, hands)
    assert not g.finished and g.next.round_label == "W1"
    g = play(TENHOU, hands + [noten_draw() for _ in range(4)])
    assert g.finished and g.ended_by is EndReason.EXTENSION_CAP and g.hands[-1].round_label == "W4"


def test_tenhou_extension_ends_when_someone_reaches_30000():
    hands = [noten_draw() for _ in range(8)] + [ron(2, 1, han=3, fu=40)]
    g = play(TENHOU, hands)
    assert g.finished and g.ended_by is EndReason.TARGET and g.hands[-1].round_label == "W1"


def test_all_last_passing_with_someone_at_30000_ends_tenhou():
    g = play(TENHOU, [noten_draw() for _ in range(7)] + [ron(2, 1, han=3, fu=40)])
    assert g.finished and g.ended_by is EndReason.ALL_LAST


def test_early_end_settles_the_scores_so_far():
    g = play(ARI, [tsumo(1, han=3, fu=30)], end=EndReason.EARLY)
    assert g.finished and g.ended_by is EndReason.EARLY
    # 23,000 / 29,000 / 24,000 / 24,000: seats 2 and 3 share 2nd, +10 and -10
    assert g.settlement.places == (4, 1, 2, 2)
    assert g.settlement.points == (-37000, 49000, -6000, -6000)


def test_optional_agari_yame_is_checked():
    soul = get_ruleset("mahjong-soul")
    hands = [*_tenhou_to_all_last(), HandInput(Tsumo(winner=3, han=4, fu=30))]
    g = play(soul, hands, end=EndReason.AGARI_YAME)
    assert g.ended_by is EndReason.AGARI_YAME
    assert not play(soul, hands).finished
    with pytest.raises(ScoringError) as err:
        play(soul, hands[:-1], end=EndReason.AGARI_YAME)
    assert err.value.code == "end_not_possible"


def test_leftover_sticks_go_to_first_at_the_end():
    hands = [*eight_passes()[:7], HandInput(Draw(tenpai=(0,)), riichi=(0,))]
    g = play(ARI, hands)
    assert g.finished and g.riichi_sticks == 1
    first = g.settlement.order[0]
    assert g.settlement.final_scores[first] == g.scores[first] + 1000
    assert sum(g.settlement.final_scores) == 100000


def test_wrc_loses_leftover_sticks():
    wrc = get_ruleset("wrc-2022")
    g = play(wrc, [HandInput(Draw(tenpai=(0,)), riichi=(0,))], end=EndReason.EARLY)
    assert sum(g.settlement.final_scores) == 4 * 30000 - 1000 and g.settlement.lost_sticks == 1000


def test_penalty_chombo_lands_after_uma():
    ema = get_ruleset("ema-2016")
    g = play(ema, [HandInput(Chombo(offender=2))], end=EndReason.EARLY, penalties=(Penalty(1, -5000, "slow play"),))
    assert g.settlement.penalties == (0, -5000, -20000, 0)
    assert sum(g.settlement.points) == -25000


def test_final_scores_only_game():
    rec = GameRecord(ARI, final=FinalScores((41300, 24900, 21800, 11000), riichi_sticks=1))
    g = replay(rec)
    assert g.ended_by is EndReason.FINAL_SCORES
    assert g.settlement.points == (62300, 4900, -18200, -49000)
    with pytest.raises(ScoringError) as err:
        replay(GameRecord(ARI, final=FinalScores((41300, 24900, 21800, 12000), riichi_sticks=1)))
    assert (err.value.code, err.value.field) == ("scores_do_not_add_up", "final.scores")


def test_errors_inside_a_game_name_the_hand():
    with pytest.raises(ScoringError) as err:
        play(ARI, [tsumo(0), ron(1, 2, han=1, fu=20)])
    assert (err.value.code, err.value.field) == ("fu_not_possible", "hands[1].outcome.wins[0].fu")


def test_errors_inside_a_game_keep_the_rule_they_name():
    with pytest.raises(ScoringError) as err:
        play(ARI, [tsumo(0), ron(1, 2, han=1, fu=20)])
    assert err.value.detail == "fu_20_ron"
    with pytest.raises(ScoringError) as err:
        replay(record_from_dict({"rules": "ari-ari", "hands": [{"outcome": {"type": "tsumo", "winner": 0}}]}))
    assert (err.value.code, err.value.detail, err.value.field) == ("fu_not_possible", "han_missing",
                                                                   "hands[0].outcome.han")


def _broke_seat_1():
    # Seat 1 declares riichi and deals the dealer a baiman: 25,000 - 1,000 - 24,000 = 0 (0 plays on under bust).
    return [ron(1, 0, han=8, fu=None, riichi=(1,))]


@pytest.mark.parametrize(("preset", "allowed"), [("tenhou", False), ("tenhou-east", False), ("mahjong-soul", True),
                                                  ("m-league", True), ("ari-ari", True)])
def test_riichi_under_1000_points_is_refused_only_where_the_ruleset_says_so(preset, allowed):
    rules = get_ruleset(preset)
    hands = [*_broke_seat_1(), HandInput(Draw(tenpai=(2, 1)), riichi=(2, 1))]
    assert replay(GameRecord(rules, tuple(hands[:1]))).scores[1] == 0
    if allowed:
        assert replay(GameRecord(rules, tuple(hands))).hands[1].result.deltas[1] == -1000 + 1500
        return
    with pytest.raises(ScoringError) as err:
        replay(GameRecord(rules, tuple(hands)))
    assert (err.value.code, err.value.field) == ("riichi_below_1000", "hands[1].riichi[1]")
    assert "seat 1 had 0 points" in err.value.message


def test_riichi_with_exactly_1000_points_is_allowed_under_tenhou():
    # Seat 1 deals the dealer a baiman without riichi: 25,000 - 24,000 = 1,000 left.
    hands = [ron(1, 0, han=8, fu=None), HandInput(Draw(tenpai=(1,)), riichi=(1,))]
    g = replay(GameRecord(TENHOU, tuple(hands)))
    assert (g.hands[1].start.scores[1], g.scores[1]) == (1000, 1000 - 1000 + 3000)


def test_game_record_round_trips_through_json():
    d = {
        "rules": {"preset": "tenhou", "overrides": {"uma": [10000, 5000, -5000, -10000]}},
        "hands": [
            {"riichi": [1], "outcome": {"type": "ron", "loser": 0, "wins": [{"winner": 1, "han": 2, "fu": 40}, {"winner": 2, "yakuman": 1, "pao": 3}]}},
            {"riichi": [], "outcome": {"type": "draw", "tenpai": [0, 2], "nagashi": [1]}, "note": "x"},
            {"riichi": [], "outcome": {"type": "abort", "reason": "suufon_renda"}},
            {"riichi": [], "outcome": {"type": "chombo", "offender": 3}},
        ],
        "end": "early",
        "penalties": [{"seat": 2, "points": -20000, "reason": "late"}],
    }
    assert record_to_dict(record_from_dict(d)) == d


@pytest.mark.parametrize(
    ("record", "code", "field"),
    [
        ({"rules": "ari-ari", "hands": [{"outcome": {"type": "win"}}]}, "invalid_outcome", "hands[0].outcome.type"),
        ({"rules": "ari-ari", "hands": [{"outcome": {"type": []}}]}, "invalid_outcome", "hands[0].outcome.type"),
        ({"rules": "ari-ari", "hands": [{"outcome": {"type": "tsumo", "winner": 0, "han": 1, "fu": 30}, "bonus": 1}]}, "unknown_key", "hands[0].bonus"),
        ({"rules": "ari-ari", "hands": [{"outcome": {"type": "ron", "wins": [{"winner": 0, "han": 1, "fu": 30}]}}]}, "no_loser", "hands[0].outcome.loser"),
        ({"rules": "nope"}, "unknown_preset", "rules"),
        ({"rules": {"preset": "ari-ari", "overrides": {"honba_ron": -300}}}, "invalid_rules", "rules.overrides.honba_ron"),
        ({"rules": {"preset": "ari-ari", "overrides": {"colour": "red"}}}, "unknown_rule", "rules.overrides.colour"),
        ({"rules": "ari-ari", "end": "tea"}, "invalid_end", "end"),
    ],
)
def test_bad_records_are_refused_naming_the_field(record, code, field):
    with pytest.raises(ScoringError) as err:
        replay(record_from_dict(record))
    assert (err.value.code, err.value.field) == (code, field)


@pytest.mark.parametrize("cls", [Win, Ron, Tsumo, HandInput, GameRecord, Transfer, KyokuResult, TableState, PlayedHand,
                                 GameResult])
def test_replay_value_objects_with_a_hand_written_init_keep_their_dataclass_fields(cls):
    # Built for every hand of every replay, they fill __dict__ in one step
    # instead of the dataclass __init__: the same names, order and defaults,
    # and still frozen, comparable and hashable as before.
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [(p.name, p.default) for p in params] == [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(cls)
    ]
    ron = Ron(loser=1, wins=(Win(winner=0, han=2, fu=40),))
    record = GameRecord(get_ruleset("ari-ari"), hands=(HandInput(Tsumo(winner=0, han=3, fu=30)),
                                                       HandInput(ron, riichi=(0,), note="n")))
    game = replay(record)
    value = {Win: ron.wins[0], Ron: ron, Tsumo: game.hands[0].input.outcome, HandInput: game.hands[1].input,
             GameRecord: record,
             Transfer: game.hands[0].result.transfers[0], KyokuResult: game.hands[0].result,
             TableState: game.next, PlayedHand: game.hands[0], GameResult: game}[cls]
    again = dataclasses.replace(value)
    assert again == value and again is not value
    assert hash(again) == hash(value)
    assert dataclasses.astuple(again) == dataclasses.astuple(value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, dataclasses.fields(cls)[0].name, None)
