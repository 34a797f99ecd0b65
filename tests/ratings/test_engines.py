"""The rating engines against their sources' own examples, worked by hand,
and the edge cases: a tie for first, a player with one game, a dropped
player, a substitute's game under each substitute rule. No database."""

from __future__ import annotations

import datetime
import math
from fractions import Fraction

import pytest

from league.ratings import EventPlace, EventResult, GameResult, SeatResult, SubstituteRule
from league.ratings.mers import (
    age_factor,
    base_rank,
    base_ranks,
    countries_part_2018,
    event_weight,
    mers_ranking,
    part_a_count,
    ranking,
)
from league.ratings.skill import plackett_luce, shown
from league.ratings.tenhou import tenhou_r

DAY = datetime.date(2025, 3, 1)


def game(key: str, *places: int, day: datetime.date = DAY, subs: dict[int, int] | None = None) -> GameResult:
    """Players 1..n at the given places; ``subs`` maps a seat's player to the registered one it stood in for."""
    subs = subs or {}
    return GameResult(key, day, tuple(SeatResult(p, place, subs.get(p)) for p, place in enumerate(places, 1)))


def values(outcome) -> dict[int, int | None]:
    return {r.player: r.value for r in outcome.players}


# -- Tenhou's R --------------------------------------------------------------------------------------------


def test_tenhou_niigata_example_1_fourth_at_an_even_table_after_400_games():
    """The niigata club's page of Tenhou's formula, example 1: own R 2000, the
    others 2100, 1900, 2000, 400 games or more, fourth: 0.2 * (-30 + 0) = -6.
    (Its examples 2 and 3 print -16 and -12.25, which the formula it quotes
    does not give: 0.2 * (-30 - 400 / 40) = -8 and 0.2 * (-30 - 125 / 40) = -6.625;
    the formula is the manual's, so those two are checked against it below.)"""
    carried = {1: (2000_000, 400), 2: (2100_000, 400), 3: (1900_000, 400), 4: (2000_000, 400)}
    out = tenhou_r([game("g1", 4, 1, 2, 3)], carried=carried)
    mine = out.history(1)[0]
    assert mine.after - mine.before == -6000
    assert mine.line == (
        "g1: place 4 of 4, base -30; table average R 2000, own R 2000: (2000 - 2000) / 40 = 0; "
        "games before 400, adjustment 0.2; change 0.2 x (-30 + 0) = -6"
    )


@pytest.mark.parametrize(("others", "change"), [
    ((1500, 1500, 1400), -8000),   # the page's example 2: average 1600
    ((1500, 1900, 2100), -6625),   # the page's example 3: average 1875
])
def test_tenhou_formula_fourth_against_weaker_tables(others, change):
    carried = {1: (2000_000, 500)} | {p: (r * 1000, 500) for p, r in zip((2, 3, 4), others, strict=True)}
    out = tenhou_r([game("g", 4, 1, 2, 3)], carried=carried)
    assert out.history(1)[0].after == 2000_000 + change


def test_tenhou_new_players_first_game_is_the_placement_base():
    out = tenhou_r([game("g1", 1, 2, 3, 4)])
    assert values(out) == {1: 1530_000, 2: 1510_000, 3: 1490_000, 4: 1470_000}


def test_tenhou_second_game_carries_the_game_count_and_table_average():
    """Game 2, same four, reversed: player 1 (1530, 1 game before) is fourth.
    Average (1530 + 1510 + 1490 + 1470) / 4 = 1500; correction (1500 - 1530) / 40 = -0.75;
    adjustment 1 - 0.002 = 0.998; change 0.998 * (-30 - 0.75) = -30.6885 -> -30.689 (thousandths)."""
    out = tenhou_r([game("g1", 1, 2, 3, 4), game("g2", 4, 3, 2, 1)])
    step = out.history(1)[1]
    assert step.after - step.before == -30_689
    assert "(1500 - 1530) / 40 = -0.75" in step.line and "adjustment 0.998" in step.line
    assert {r.player: r.results for r in out.players} == {1: 2, 2: 2, 3: 2, 4: 2}


def test_tenhou_tie_for_first_shares_the_bases_of_first_and_second():
    out = tenhou_r([game("g1", 1, 1, 3, 4)])
    assert values(out) == {1: 1520_000, 2: 1520_000, 3: 1490_000, 4: 1470_000}


def test_tenhou_three_players_use_the_sanma_bases():
    out = tenhou_r([game("g1", 2, 1, 3)])
    assert values(out) == {1: 1500_000, 2: 1530_000, 3: 1470_000}


def test_tenhou_player_with_one_game_and_dropped_player_keep_their_last_value():
    games = [game("g1", 1, 2, 3, 4), GameResult("g2", DAY + datetime.timedelta(days=7), (
        SeatResult(1, 1), SeatResult(2, 2), SeatResult(3, 3), SeatResult(5, 4)))]
    out = tenhou_r(games)
    by = {r.player: r for r in out.players}
    assert (by[4].value, by[4].results, by[4].last_day) == (1470_000, 1, DAY)  # dropped after one game
    assert (by[5].results, by[5].last_day) == (1, DAY + datetime.timedelta(days=7))


@pytest.mark.parametrize(("rule", "registered", "substitute_rated"), [
    (SubstituteRule.REAL, 1510_000, False),          # the seat's 2nd place is the registered player's
    (SubstituteRule.FIXED, 1470_000, False),         # rated as last: base -30
    (SubstituteRule.NOT_COUNTED, None, False),       # not rated at all
])
def test_tenhou_substitute_game_under_each_rule(rule, registered, substitute_rated):
    # Player 9 sits in for player 2, who is registered; the table: 1st, 2nd (the substitute), 3rd, 4th.
    g = GameResult("g1", DAY, (SeatResult(1, 1), SeatResult(9, 2, substitute_for=2), SeatResult(3, 3),
                               SeatResult(4, 4)))
    out = tenhou_r([g], substitutes=rule)
    got = values(out)
    assert got.get(2) == registered
    assert (9 in got) is substitute_rated
    if rule is SubstituteRule.NOT_COUNTED:  # the three others rated on their places among three rated seats
        assert got == {1: 1530_000, 3: 1490_000, 4: 1470_000}


def test_tenhou_fixed_substitute_beside_the_real_last_both_take_the_last_base():
    g = GameResult("g1", DAY, (SeatResult(1, 1), SeatResult(9, 2, substitute_for=2), SeatResult(3, 3),
                               SeatResult(4, 4)))
    assert values(tenhou_r([g], substitutes=SubstituteRule.FIXED))[4] == 1470_000


def test_tenhou_recomputation_is_deterministic():
    games = [game(f"g{i}", *[(i + k) % 4 + 1 for k in range(4)]) for i in range(50)]
    assert tenhou_r(games) == tenhou_r(list(games))


# -- the skill estimate (openskill's Plackett-Luce) -----------------------------------------------------------


def weng_lin_plackett_luce(ratings: list[tuple[float, float]], ranks: list[int], beta: float, tau: float,
                           kappa: float = 1e-4):
    """Weng and Lin (2011), Algorithm 4, worked here independently of openskill, for one player per team:
    first the dynamics (sigma^2 + tau^2, tau = mu / 300 by openskill's default, as TrueSkill's); then
    c^2 = sum(sigma^2 + beta^2); C_q = sum of exp(mu/c) over those ranked at or below q; A_q = how many share
    q's rank; Omega_i and Delta_i summed over q ranked at or above i; gamma = sigma_i / c."""
    ratings = [(m, math.sqrt(s * s + tau * tau)) for m, s in ratings]
    c = math.sqrt(sum(s * s + beta * beta for _, s in ratings))
    e = [math.exp(m / c) for m, _ in ratings]
    big_c = [sum(e[s] for s in range(len(ratings)) if ranks[s] >= ranks[q]) for q in range(len(ratings))]
    a = [ranks.count(ranks[q]) for q in range(len(ratings))]
    out = []
    for i, (mu, sigma) in enumerate(ratings):
        omega = delta = 0.0
        for q in range(len(ratings)):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / big_c[q]
            omega += ((1.0 if q == i else 0.0) - p) / a[q]
            delta += p * (1 - p) / a[q]
        gamma = sigma / c
        omega *= sigma * sigma / c
        delta *= gamma * sigma * sigma / (c * c)
        out.append((mu + omega, sigma * math.sqrt(max(1 - delta, kappa))))
    return out


def test_skill_first_game_matches_weng_lin_algorithm_4_worked_independently():
    out = plackett_luce([game("g1", 1, 2, 3, 4)])
    expected = weng_lin_plackett_luce([(25.0, 25 / 3)] * 4, [1, 2, 3, 4], beta=25 / 6, tau=25 / 300)
    got = {s.player: s.after for s in out.steps}
    assert got == {p: shown(m, s) for p, (m, s) in enumerate(expected, 1)}
    assert got[1] > got[2] > got[3] > got[4]


def test_skill_tie_for_first_matches_weng_lin_and_gives_equal_values():
    out = plackett_luce([game("g1", 1, 1, 3, 4)])
    expected = weng_lin_plackett_luce([(25.0, 25 / 3)] * 4, [1, 1, 3, 4], beta=25 / 6, tau=25 / 300)
    got = values(out)
    assert got[1] == got[2] == shown(*expected[0])
    assert got[4] == shown(*expected[3])


def test_skill_three_players_and_how_line():
    out = plackett_luce([game("g1", 1, 2, 3)])
    step = out.history(1)[0]
    assert step.line.startswith("g1: place 1 of 3; mu 25.000 -> ")
    assert step.before == 0


@pytest.mark.parametrize(("rule", "rated"), [
    (SubstituteRule.REAL, {1, 2, 3, 4}), (SubstituteRule.FIXED, {1, 2, 3, 4}), (SubstituteRule.NOT_COUNTED, {1, 3, 4}),
])
def test_skill_substitute_game_under_each_rule(rule, rated):
    g = GameResult("g1", DAY, (SeatResult(1, 1), SeatResult(9, 2, substitute_for=2), SeatResult(3, 3),
                               SeatResult(4, 4)))
    got = values(plackett_luce([g], substitutes=rule))
    assert set(got) == rated
    if rule is SubstituteRule.FIXED:  # last beside the real last: a tie for last
        assert got[2] == got[4]


def test_skill_is_deterministic_and_a_player_with_one_game_is_rated():
    games = [game(f"g{i}", *[(i * 3 + k) % 4 + 1 for k in range(4)]) for i in range(30)]
    games.append(GameResult("once", DAY, (SeatResult(1, 2), SeatResult(7, 1), SeatResult(3, 3), SeatResult(4, 4))))
    first, second = plackett_luce(games), plackett_luce(games)
    assert first == second
    assert {r.player: r.results for r in first.players}[7] == 1


# -- the EMA ranking (MERS) ------------------------------------------------------------------------------------


def test_mers_base_rank_2nd_and_5th_of_32_the_issues_worked_figures():
    assert base_rank(2, 32) == 968  # 1000 * 30 / 31 = 967.74
    assert base_rank(5, 32) == 871  # 1000 * 27 / 31 = 870.97
    assert base_ranks([1, 2, 5, 32], participants=32) == [1000, 968, 871, 0]


def test_mers_tie_for_first_best_place_as_the_ema_gives_it_or_average():
    assert base_ranks([1, 1, 3, 4, 5]) == [1000, 1000, 500, 250, 0]
    assert base_ranks([1, 1, 3, 4, 5], ties="average") == [875, 875, 500, 250, 0]
    with pytest.raises(ValueError, match="ties: 'worst'"):
        base_ranks([1, 2], ties="worst")


@pytest.mark.parametrize(("days", "participants", "countries", "qualification", "total"), [
    (1, 30, 3, False, "1"),            # one day, 40 or fewer players, 5 or fewer countries
    (2, 41, 6, False, "3"),            # 2 + 0.5 + 0.5
    (2, 80, 9, False, "3"),            # the upper edges of the halves
    (3, 81, 10, False, "5"),           # 3 + 1 + 1 (the newer page: 10 countries is 1)
    (4, 120, 25, True, "6"),           # days count to 3; + qualification: the largest weight
    (1, 40, 5, True, "2"),
])
def test_mers_event_weight_totals_section_3_2(days, participants, countries, qualification, total):
    weight = event_weight(days=days, participants=participants, countries=countries, qualification=qualification)
    assert str(weight) == total


def test_mers_ten_countries_the_two_pages_disagree():
    assert str(event_weight(days=1, participants=10, countries=10, qualification=False)) == "2"
    assert countries_part_2018(10) == Fraction(1, 2)


def test_mers_age_weighting_whole_half_none():
    on = datetime.date(2025, 6, 1)
    assert [age_factor(datetime.date(y, 6, 1), on) for y in (2025, 2024, 2023)] == [1, 1, Fraction(1, 2)]
    assert age_factor(datetime.date(2024, 5, 31), on) == Fraction(1, 2)
    assert age_factor(datetime.date(2023, 5, 31), on) == 0


def test_mers_part_a_counts_five_and_eighty_percent_of_the_rest():
    assert [part_a_count(n) for n in (2, 5, 6, 7, 10, 15)] == [5, 5, 6, 7, 9, 13]


def test_mers_ranking_worked_by_hand_six_results_with_weights():
    """Six results (base rank, weight): (1000, 3), (968, 2), (871, 1), (500, 2), (250, 1), (0, 1).
    Part A: 5 + ceil(0.8) = 6 results: (3000 + 1936 + 871 + 1000 + 250 + 0) / 10 = 705.7.
    Part B: the best 4: (3000 + 1936 + 871 + 1000) / 8 = 850.875. Ranking (705.7 + 850.875) / 2 = 778.2875."""
    pairs = [(500, Fraction(2)), (1000, Fraction(3)), (0, Fraction(1)), (968, Fraction(2)), (250, Fraction(1)),
             (871, Fraction(1))]
    a, b, count = ranking(pairs)
    assert (a, b, count) == (Fraction(7057, 10), Fraction(6807, 8), 6)
    assert (a + b) / 2 == Fraction(7782875, 10000)


def event(key: str, day: datetime.date, places: list[tuple[int, int]], *, participants: int | None = None,
          days: int = 1, countries: int = 1, qualification: bool = False) -> EventResult:
    return EventResult(key, day, participants or len(places), days, countries, qualification,
                       tuple(EventPlace(p, place) for p, place in places))


def test_mers_one_event_is_not_ranked_two_are_with_the_line():
    e1 = event("Cup 1", DAY, [(1, 2), (2, 1)] + [(p, p) for p in range(3, 33)])
    e2 = event("Cup 2", DAY + datetime.timedelta(days=30), [(1, 5), (2, 1)] + [(p, p) for p in range(3, 33)])
    out = mers_ranking([e1])
    assert values(out)[1] is None
    assert out.history(1)[0].line == ("Cup 1: place 2 of 32, base rank 968; weight 1 x age 1; "
                                      "not ranked yet: two results of non-zero weight are needed")
    out = mers_ranking([e1, e2])
    # 968 and 871, weight 1 each, filled with three zeros: A = 1839 / 5, B = 1839 / 4, ranking 413.775
    assert values(out)[1] == 413_775
    assert out.history(1)[1].line == (
        "Cup 2: place 5 of 32, base rank 871; weight 1 x age 1; part A (best 5, filled to 5) = 367.8, "
        "part B (best 4) = 459.75; ranking (A + B) / 2 = 413.775")


def test_mers_substitutes_count_in_n_and_a_dropped_player_is_placed_last():
    # 8 placed (player 8 dropped out after round 1 and is placed last) and 2 substitutes who played: N = 10.
    e = event("Open", DAY, [(p, p) for p in range(1, 9)], participants=10)
    out = mers_ranking([e, event("Open 2", DAY, [(8, 1), (1, 2)])])
    assert out.history(8)[0].numbers[3] == ("base", "222")  # 1000 * (10 - 8) / 9 = 222.2
    assert values(out)[8] == round((222 + 1000) / 5 / 2 * 1000 + (222 + 1000) / 4 / 2 * 1000)


def test_mers_old_results_age_out_of_the_final_value():
    """Won both events of two players (base rank 1000, weight 1). On 2022-06-01 the 2021-01-01 event counts half:
    A = (1000 + 500) / (1 + 1/2 + 3) = 1000/3, B = 1500 / 3.5 = 3000/7, ranking 16000/42 = 380.952.
    On 2024-01-01 the first weighs 0 and the second half: one result, not ranked."""
    e1 = event("Old", datetime.date(2021, 1, 1), [(1, 1), (2, 2)])
    e2 = event("New", datetime.date(2022, 3, 1), [(1, 1), (2, 2)])
    assert values(mers_ranking([e1, e2], on=datetime.date(2022, 6, 1)))[1] == 380_952
    assert values(mers_ranking([e1, e2], on=datetime.date(2024, 1, 1)))[1] is None
