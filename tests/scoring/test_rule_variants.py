"""Rules real tables play that issue #17 added, hand by hand and game by game:
a riichi found noten at the draw, each winner's own stick on a multiple ron,
a chombo paid both ways, leftover sticks with odd hundreds dropped, and
replacement players."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.game import (
    Chombo,
    Draw,
    EndReason,
    HandInput,
    Ron,
    Win,
    play,
    settle_kyoku,
)
from scoring.rules import get_ruleset

ARI = get_ruleset("ari-ari")


def kyoku(outcome, rules=ARI, dealer=0, honba=0, sticks=0, riichi=()):
    return settle_kyoku(rules, dealer=dealer, honba=honba, riichi_sticks=sticks, riichi=riichi, outcome=outcome)


def ron(loser, winner, han=1, fu=30, **kw):
    return HandInput(Ron(loser=loser, wins=(Win(winner, han=han, fu=fu),)), **kw)


def seven_passes():
    """E1 to S3, the deal passing every hand: the next hand is all-last, seat 3 deals."""
    return [ron((d + 1) % 4, (d + 2) % 4) for d in range(4)] + [ron((d + 1) % 4, (d + 2) % 4) for d in range(3)]


# -- a riichi found noten at an exhaustive draw -------------------------------


def test_noten_riichi_is_refused_by_default_as_online_logs_need():
    with pytest.raises(ScoringError) as err:
        kyoku(Draw(tenpai=(0,)), riichi=(0, 2))
    assert (err.value.code, err.value.field) == ("riichi_not_tenpai", "riichi[1]")
    assert ARI.noten_riichi == "refused" and get_ruleset("tenhou").noten_riichi == "refused"


def test_noten_riichi_paying_noten_leaves_its_stick_on_the_table():
    rules = ARI.replace(noten_riichi="noten_payment")
    # Seat 0 (dealer) tenpai; seat 2 declared riichi but is noten: it pays
    # its stick and 1,000 noten like seats 1 and 3.
    r = kyoku(Draw(tenpai=(0,)), rules=rules, riichi=(0, 2), honba=1, sticks=1)
    assert r.deltas == (3000 - 1000, -1000, -1000 - 1000, -1000)
    assert (r.riichi_sticks, r.honba, r.dealer_keeps) == (3, 2, True)
    assert r.chombo == ()


def test_noten_riichi_as_chombo_voids_the_hand_with_a_reverse_mangan():
    rules = ARI.replace(noten_riichi="chombo")
    r = kyoku(Draw(tenpai=(0,)), rules=rules, dealer=0, honba=1, sticks=1, riichi=(2,))
    # No stick and no noten payment from a void hand; seat 2 pays 4,000 to
    # the dealer and 2,000 to each other seat.
    assert r.deltas == (4000, 2000, -8000, 2000)
    assert (r.riichi_sticks, r.honba, r.dealer_keeps, r.chombo) == (1, 1, True, (2,))


def test_noten_riichi_as_chombo_under_a_penalty_ruleset_lands_after_uma():
    rules = get_ruleset("ema-2016").replace(noten_riichi="chombo")
    r = kyoku(Draw(tenpai=(1,)), rules=rules, riichi=(3,))
    assert r.deltas == (0, 0, 0, 0)
    assert [(p.seat, p.points, p.reason) for p in r.penalties] == [(3, -20000, "chombo")]


def test_two_noten_riichi_are_two_chombo():
    rules = ARI.replace(noten_riichi="chombo")
    r = kyoku(Draw(tenpai=()), rules=rules, dealer=0, riichi=(1, 2))
    # Each pays as if alone: seat 1 (+4000, -8000, +2000, +2000), seat 2 (+4000, +2000, -8000, +2000).
    assert r.deltas == (8000, -6000, -6000, 4000)
    assert r.chombo == (1, 2)


@pytest.mark.parametrize(
    ("noten_riichi", "finished", "next_round"),
    [
        # seat 3 (the S4 dealer) noten: the deal passes and the game ends
        ("noten_payment", True, None),
        # the chombo voids the hand: seat 3 deals S4 again
        ("chombo", False, "S4"),
    ],
)
def test_a_false_riichi_at_all_last_ends_the_game_only_if_the_draw_stands(noten_riichi, finished, next_round):
    rules = ARI.replace(noten_riichi=noten_riichi)
    g = play(rules, [*seven_passes(), HandInput(Draw(tenpai=(1,)), riichi=(2,))])
    assert g.finished is finished
    assert (g.next.round_label if g.next else None) == next_round


def test_a_false_riichi_chombo_never_ends_the_game_by_tenpai_yame():
    # Tenhou's automatic tenpai-yame: the S4 dealer (seat 3) tenpai and first.
    rules = get_ruleset("tenhou").replace(noten_riichi="chombo")
    big = [*seven_passes()[:6], ron(1, 3, han=5, fu=None)]  # seat 3 deals S4 in the lead
    assert play(rules, [*big, HandInput(Draw(tenpai=(3,)))]).ended_by is EndReason.TENPAI_YAME
    g = play(rules, [*big, HandInput(Draw(tenpai=(3,)), riichi=(0,))])
    assert not g.finished and g.next.round_label == "S4"
    with pytest.raises(ScoringError) as err:
        play(get_ruleset("mahjong-soul").replace(noten_riichi="chombo"),
             [*big, HandInput(Draw(tenpai=(3,)), riichi=(0,))], end=EndReason.AGARI_YAME)
    assert err.value.code == "end_not_possible"


def test_noten_riichi_reaches_the_json_interface():
    from scoring.__main__ import answer

    req = ('{"op": "kyoku", "rules": {"preset": "ari-ari", "overrides": {"noten_riichi": "noten_payment"}}, '
           '"riichi": [1], "outcome": {"type": "draw", "tenpai": [0]}}')
    assert answer(req) == {"deltas": [3000, -2000, -1000, -1000], "honba": 1, "riichi_sticks": 1,
                           "dealer_keeps": True}
    bad = '{"op": "rules", "rules": {"preset": "ari-ari", "overrides": {"noten_riichi": "forgiven"}}}'
    assert answer(bad)["error"]["field"] == "rules.overrides.noten_riichi"


def test_chombo_outcome_reports_its_offender():
    assert kyoku(Chombo(offender=3)).chombo == (3,)


# -- multiple ron: each winner's own stick ---------------------------------------


DOUBLE = Ron(loser=3, wins=(Win(1, han=1, fu=30), Win(0, han=2, fu=30)))  # seat 0 sits next after 3: nearest


@pytest.mark.parametrize(
    ("multi_ron_sticks", "deltas"),
    [
        # 1 stick on the table and seats 1 and 2 in riichi: 3,000 in the pot.
        # Seat 0 (nearest) 2,000 + 300 honba; seat 1 1,000, less its stick.
        ("nearest", (2000 + 300 + 3000, 1000 - 1000, -1000, -3000 - 300)),
        # Seat 1 takes its own stick back; the table's and seat 2's go to seat 0.
        ("own_back", (2000 + 300 + 2000, 1000 - 1000 + 1000, -1000, -3000 - 300)),
    ],
)
def test_double_ron_sticks_all_to_the_nearest_or_each_winner_its_own(multi_ron_sticks, deltas):
    rules = ARI.replace(multi_ron_sticks=multi_ron_sticks)
    r = kyoku(DOUBLE, rules=rules, dealer=2, honba=1, sticks=1, riichi=(1, 2))
    assert r.deltas == deltas
    assert r.riichi_sticks == 0


def test_own_back_with_the_nearest_winner_in_riichi_changes_nothing():
    rules = ARI.replace(multi_ron_sticks="own_back")
    args = {"dealer": 2, "honba": 0, "sticks": 2, "riichi": (0, 2)}
    assert kyoku(DOUBLE, rules=rules, **args).deltas == kyoku(DOUBLE, **args).deltas == (2000 + 3000, 1000, -1000, -3000)


def test_own_back_on_a_triple_ron_returns_every_winners_stick():
    rules = get_ruleset("mahjong-soul").replace(multi_ron_sticks="own_back")
    triple = Ron(loser=0, wins=(Win(3, han=1, fu=30), Win(2, han=1, fu=30), Win(1, han=1, fu=30)))
    r = kyoku(triple, rules=rules, dealer=0, sticks=1, riichi=(2, 3))
    # Seat 1 is nearest after seat 0: it takes the table's stick; seats 2 and 3 their own.
    assert r.deltas == (-3000, 1000 + 1000, 1000, 1000)


def test_own_back_with_honba_each_pays_every_winner_the_honba():
    rules = get_ruleset("ema-2016").replace(multi_ron_sticks="own_back")
    r = kyoku(DOUBLE, rules=rules, dealer=2, honba=1, sticks=1, riichi=(1,))
    assert r.deltas == (2000 + 300 + 1000, 1000 + 300, 0, -3000 - 600)


# -- a chombo paid both ways ----------------------------------------------------


@pytest.mark.parametrize(
    ("chombo", "penalty", "deltas", "penalties"),
    [
        ("reverse_mangan", 0, (4000, 2000, -8000, 2000), []),
        ("penalty", 20000, (0, 0, 0, 0), [(2, -20000)]),
        ("both", 20000, (4000, 2000, -8000, 2000), [(2, -20000)]),
        ("both", 10000, (4000, 2000, -8000, 2000), [(2, -10000)]),
    ],
)
def test_chombo_at_the_table_after_uma_or_both(chombo, penalty, deltas, penalties):
    rules = ARI.replace(chombo=chombo, chombo_penalty=penalty)
    r = kyoku(Chombo(offender=2), rules=rules, dealer=0)
    assert r.deltas == deltas
    assert [(p.seat, p.points) for p in r.penalties] == penalties


def test_a_chombo_paid_both_ways_settles_table_points_and_then_the_penalty():
    rules = get_ruleset("ema-2016").replace(chombo="both")
    g = play(rules, [HandInput(Chombo(offender=1))], end=EndReason.EARLY)
    s = g.settlement
    # Seat 1 pays 4,000 to the dealer (seat 0) and 2,000 each: 22,000 is
    # last (-8.0 - 15); the 20,000 penalty comes after uma.
    assert s.final_scores == (34000, 22000, 32000, 32000)
    assert s.penalties == (0, -20000, 0, 0)
    assert s.points[1] == -8000 - 15000 - 20000
    assert sum(s.points) == -20000


def test_a_both_chombo_needs_a_penalty():
    with pytest.raises(ScoringError) as err:
        ARI.replace(chombo="both")
    assert (err.value.code, err.value.field) == ("invalid_rules", "chombo_penalty")


# -- replacement players in a game ----------------------------------------------


def test_a_game_record_marks_replacement_seats_and_settles_them_fixed():
    from scoring.game import record_from_dict, record_to_dict, replay

    d = {
        "rules": {"preset": "ema-2016", "overrides": {"replacement_result": "fixed"}},
        "hands": [{"riichi": [], "outcome": {"type": "tsumo", "winner": 2, "han": 3, "fu": 30}}],
        "end": "early",
        "replacements": [2],
    }
    rec = record_from_dict(d)
    assert record_to_dict(rec) == d
    s = replay(rec).settlement
    # Seat 2 won 4,000 by tsumo and is first, but a fixed replacement gets -15 - 15.
    assert s.final_scores == (28000, 29000, 34000, 29000)
    assert s.points[2] == -30000 and s.uma[2] == -15000
    assert s.points[0] == -2000 - 15000  # seat 0 is last, as the table had it


def test_a_final_scores_game_takes_replacements_too():
    from scoring.game import FinalScores, GameRecord, replay

    rules = get_ruleset("ema-2016").replace(replacement_result="fixed")
    g = replay(GameRecord(rules, final=FinalScores((40000, 32000, 25000, 23000)), replacements=(1,)))
    assert g.settlement.points == (25000, -30000, -10000, -22000)


def test_bad_replacements_in_a_record_name_the_field():
    from scoring.game import record_from_dict, replay

    with pytest.raises(ScoringError) as err:
        replay(record_from_dict({"rules": "ema-2016", "replacements": [0, 9]}))
    assert (err.value.code, err.value.field) == ("invalid_seat", "replacements[1]")
