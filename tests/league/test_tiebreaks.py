"""Tie-break rules, each worked by hand (no database)."""

import pytest

from league.tiebreaks import DEFAULT_RULES, Contender, Game, TiebreakError, check_rules, head_to_head, rank


def names(ranked):
    return [(r.contender.name, r.rank, r.tied, r.separated_by) for r in ranked]


def test_points_decide_before_any_rule():
    a = Contender(1, "A", 30000, (Game("t1", 30000, 4),))
    b = Contender(2, "B", 10000, (Game("t2", 10000, 1),))
    assert names(rank([b, a], DEFAULT_RULES)) == [("A", 1, False, None), ("B", 2, False, "points")]


def test_head_to_head_who_placed_above_more_often():
    # A and B both on +20.0. They met twice: round 1 A 1st, B 3rd; round 3 A 2nd, B 4th.
    # A placed above B twice, B above A never: A first, by head-to-head (B has more firsts, unused).
    a = Contender(1, "A", 20000, (Game("r1", 25000, 1), Game("r2", 5000, 2), Game("r3", -10000, 2)))
    b = Contender(2, "B", 20000, (Game("r1", -5000, 3), Game("x", 40000, 1), Game("y", 30000, 1), Game("r3", -45000, 4)))
    assert names(rank([b, a], ["head_to_head", "firsts"])) == [("A", 1, False, None), ("B", 2, False, "head_to_head")]


def test_head_to_head_then_their_points_in_the_shared_games():
    # Met twice, one placing above each: 1-1. Points in the two shared games:
    # A 12.0 + (-8.0) = 4.0; B -2.0 + 15.0 = 13.0. B ahead.
    a = Contender(1, "A", 9000, (Game("m1", 12000, 1), Game("m2", -8000, 3), Game("a", 5000, 2)))
    b = Contender(2, "B", 9000, (Game("m1", -2000, 2), Game("m2", 15000, 1), Game("b", -4000, 3)))
    assert head_to_head([a, b]) == {1: (1, 1, 4000), 2: (1, 1, 13000)}
    assert names(rank([a, b], ["head_to_head"])) == [("B", 1, False, None), ("A", 2, False, "head_to_head")]


def test_head_to_head_never_met_falls_to_the_next_rule():
    a = Contender(1, "A", 0, (Game("t1", 0, 1), Game("t2", 0, 4)))
    b = Contender(2, "B", 0, (Game("t3", 0, 1), Game("t4", 0, 1)))
    assert names(rank([a, b], ["head_to_head", "firsts"])) == [("B", 1, False, None), ("A", 2, False, "firsts")]


@pytest.mark.parametrize("rule, a_games, b_games, first", [
    # most firsts: A two firsts, B one
    ("firsts", [(1, 0, 1), (2, 0, 1)], [(3, 0, 1), (4, 0, 2)], "A"),
    # best single game: A's best +40.0, B's best +41.0
    ("best_game", [(1, 40000, 1), (2, -40000, 4)], [(3, 41000, 1), (4, -41000, 4)], "B"),
    # fewest fourths: A one fourth, B none
    ("fewest_fourths", [(1, 0, 4), (2, 0, 1)], [(3, 0, 2), (4, 0, 3)], "B"),
])
def test_each_rule_alone(rule, a_games, b_games, first):
    a = Contender(1, "A", 0, tuple(Game(*g) for g in a_games))
    b = Contender(2, "B", 0, tuple(Game(*g) for g in b_games))
    ranked = rank([a, b], [rule])
    assert [r.contender.name for r in ranked][0] == first
    assert ranked[1].separated_by == rule and ranked[1].rank == 2


def test_level_after_every_rule_share_a_rank():
    a = Contender(1, "A", 5000, (Game("t1", 5000, 2),))
    b = Contender(2, "B", 5000, (Game("t2", 5000, 2),))
    c = Contender(3, "C", 1000, (Game("t3", 1000, 2),))
    assert names(rank([c, b, a], DEFAULT_RULES)) == [
        ("A", 1, True, None), ("B", 1, True, None), ("C", 3, False, "points")]


def test_playoff_recorded_by_staff_separates_the_rest():
    a = Contender(1, "A", 5000, (Game("t1", 5000, 2),))
    b = Contender(2, "B", 5000, (Game("t2", 5000, 2),))
    assert names(rank([a, b], DEFAULT_RULES, playoff={2: 1, 1: 2})) == [
        ("B", 1, False, None), ("A", 2, False, "playoff")]


def test_three_level_head_to_head_then_again_among_the_two_left():
    # A, B, C on 0. Shared table "m" (A 1st, B 2nd, C 3rd) and table "n" (C 1st, B 2nd, A 4th)...
    # A: above B, C at m; below both at n -> 2 above, 2 below, points 30.0 - 30.0 = 0
    # B: above C at m, above A at n; below A at m, below C at n -> 2 - 2, points 10.0 + 10.0 = 20.0
    # C: above A, B at n; below both at m -> 2 - 2, points -10.0 + 30.0 = 20.0
    # All 2-2: B and C lead A on shared points (20.0 against 0). B and C again between the two of them:
    # m: B above C; n: C above B -> 1-1; points B 10.0+10.0 = 20.0, C -10.0+30.0 = 20.0: level;
    # firsts: B none, C one (n) -> C.
    a = Contender(1, "A", 0, (Game("m", 30000, 1), Game("n", -30000, 4)))
    b = Contender(2, "B", 0, (Game("m", 10000, 2), Game("n", 10000, 2)))
    c = Contender(3, "C", 0, (Game("m", -10000, 3), Game("n", 30000, 1)))
    assert names(rank([a, b, c], ["head_to_head", "firsts"])) == [
        ("C", 1, False, None), ("B", 2, False, "firsts"), ("A", 3, False, "head_to_head")]


@pytest.mark.parametrize("rules, code", [(["coin_toss"], "unknown_tiebreak"), (["firsts", "firsts"], "repeated_tiebreak")])
def test_bad_rules_refused_with_a_code(rules, code):
    with pytest.raises(TiebreakError) as err:
        check_rules(rules)
    assert err.value.code == code and err.value.field == "tiebreaks"


def test_a_substituted_seat_is_no_place_of_the_absent_player():
    # A and B level on -10.0. At table m1 a substitute played A's seat and came 2nd, B 3rd: A's record
    # holds that game (the substitute rule's points) with no place. It is no meeting for head-to-head
    # and no 2nd for A; the firsts decide: B won a game, A none.
    a = Contender(1, "A", -10000, (Game("m1", -30000, None), Game("a", 20000, 2)))
    b = Contender(2, "B", -10000, (Game("m1", -20000, 3), Game("b", 10000, 1)))
    assert head_to_head([a, b]) == {1: (0, 0, 0), 2: (0, 0, 0)}
    assert names(rank([a, b], ["head_to_head", "firsts"])) == [("B", 1, False, None), ("A", 2, False, "firsts")]
