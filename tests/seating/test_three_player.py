"""Seating at tables of three (three-player mahjong, issue 36): every mode with
``table_size=3``, the sizes of the issue, designs, winds over three seats, and
a field that does not divide by three refused with the substitutes needed."""

from __future__ import annotations

import json
from io import StringIO
from itertools import combinations

import pytest
from django.core.management import CommandError, call_command

from league.seating import (
    PrescriptedError,
    SeatingError,
    check_rounds,
    lower_bound,
    meeting_histogram,
    perfect_rounds,
    pregenerate,
    read_prescripted,
    repeats,
    same_table_consecutive,
    seat_winds,
    swiss_round,
    wind_counts,
)


@pytest.mark.parametrize(
    ("players", "rounds", "expected"),
    [(9, 4, 0), (12, 4, 0), (12, 8, 30), (9, 5, 9), (24, 8, 0), (30, 10, 0), (30, 14, 0), (30, 15, 15), (30, 16, 45)],
)
def test_lower_bound_counts_two_opponents_a_round(players, rounds, expected):
    assert lower_bound(players, rounds, 3) == expected


@pytest.mark.parametrize(("players", "rounds", "at_most"), [(9, 4, 0), (9, 6, 18), (24, 8, 0), (27, 13, 0), (30, 10, 0)])
def test_three_player_seating_meets_its_target(players, rounds, at_most):
    seating = pregenerate(players, rounds, seed=7, iterations=2_000, table_size=3)
    check_rounds(seating.rounds, list(range(1, players + 1)), table_size=3)
    assert all(len(table) == 3 for rnd in seating.rounds for table in rnd)
    assert seating.quality.repeat_count == repeats(seating.rounds) <= at_most
    assert seating.quality.repeat_count >= seating.quality.lower_bound == lower_bound(players, rounds, 3)


def test_repeats_it_cannot_avoid_are_listed_against_the_bound():
    # No nearly Kirkman triple system of order 12 exists, so 12 players cannot
    # play 5 repeat-free rounds although the counting bound is 0.
    seating = pregenerate(12, 5, seed=1, iterations=3_000, table_size=3)
    q = seating.quality
    assert q.lower_bound == 0 and q.repeat_count >= 1
    assert len(q.repeats) == q.repeat_count
    for rep in q.repeats:
        assert any(set(rep.pair) <= set(t) for t in seating.rounds[rep.round - 1])
        assert all(any(set(rep.pair) <= set(t) for t in seating.rounds[e - 1]) for e in rep.earlier)


@pytest.mark.parametrize("players", [9, 27, 81])
def test_ternary_designs_seat_everyone_once_and_no_pair_twice(players):
    rounds = perfect_rounds(players, 3)
    assert len(rounds) == (players - 1) // 2
    check_rounds(rounds, list(range(players)), table_size=3)
    assert repeats(rounds) == 0


@pytest.mark.parametrize(("players", "rounds", "unmet"), [(21, 10, 0), (18, 8, 9)])
def test_kirkman_designs_of_18_and_21_are_resolvable_with_no_pair_twice(players, rounds, unmet):
    design = perfect_rounds(players, 3)
    assert len(design) == rounds
    check_rounds(design, list(range(players)), table_size=3)
    assert repeats(design) == 0
    # KTS(21): every pair meets once; NKTS(18): all but a perfect matching.
    assert meeting_histogram(design, players) == {0: unmet, 1: players * (players - 1) // 2 - unmet}
    if unmet:
        met = {frozenset(pq) for rnd in design for t in rnd for pq in combinations(t, 2)}
        left = [pq for pq in combinations(range(players), 2) if frozenset(pq) not in met]
        assert sorted(p for pq in left for p in pq) == list(range(players))


@pytest.mark.parametrize(("players", "rounds"), [(18, 8), (21, 10), (21, 7), (18, 5)])
def test_18_and_21_players_seat_repeat_free_with_balanced_winds(players, rounds):
    seating = pregenerate(players, rounds, seed=1, table_size=3)
    check_rounds(seating.rounds, list(range(1, players + 1)), table_size=3)
    assert seating.quality.repeat_count == repeats(seating.rounds) == 0 == seating.iterations
    counts = wind_counts(seating.rounds)
    assert all(max(c) - min(c) <= 1 and sum(c) == rounds for c in counts.values())
    assert seating.quality.wind_spread <= 1
    assert seating.quality.same_table_consecutive == 0


def test_four_player_designs_are_not_offered_for_tables_of_three():
    assert perfect_rounds(16, 3) == [] and perfect_rounds(12, 3) == []


@pytest.mark.parametrize(("players", "rounds"), [(9, 4), (12, 6), (24, 8), (30, 9), (15, 7)])
def test_winds_over_three_seats_differ_by_at_most_one_and_are_exact_when_three_divides_rounds(players, rounds):
    seating = pregenerate(players, rounds, seed=1, iterations=300, table_size=3)
    counts = wind_counts(seating.rounds)
    assert len(counts) == players
    for c in counts.values():
        assert len(c) == 3 and sum(c) == rounds
        assert max(c) - min(c) <= 1
        if rounds % 3 == 0:
            assert c == [rounds // 3] * 3
    assert seating.quality.wind_spread == max(max(c) - min(c) for c in counts.values())


def test_nobody_keeps_last_rounds_table_from_six_tables():
    seating = pregenerate(18, 6, seed=2, iterations=500, table_size=3)
    assert same_table_consecutive(seating.rounds) == seating.quality.same_table_consecutive == 0


def test_same_seed_same_three_player_seating():
    a = pregenerate(21, 6, seed=5, iterations=400, table_size=3)
    assert a == pregenerate(21, 6, seed=5, iterations=400, table_size=3)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (10, "10 players cannot sit at tables of three: the number must be a positive multiple of 3 "
             "(2 substitutes are needed, or 1 player fewer)"),
        (11, "11 players cannot sit at tables of three: the number must be a positive multiple of 3 "
             "(1 substitute is needed, or 2 players fewer)"),
        (0, "0 players cannot sit at tables of three: the number must be a positive multiple of 3"),
    ],
)
def test_a_field_not_divisible_by_three_is_refused_with_the_substitutes_needed(players, message):
    with pytest.raises(SeatingError) as err:
        pregenerate(players, 3, table_size=3)
    assert (err.value.code, err.value.field, err.value.message) == ("invalid_player_count", "players", message)


def test_a_field_of_nine_is_refused_at_tables_of_four_with_the_substitutes_needed():
    with pytest.raises(SeatingError) as err:
        pregenerate(9, 3)
    assert err.value.message.endswith("multiple of 4 (3 substitutes are needed, or 1 player fewer)")


@pytest.mark.parametrize("size", [2, 5, "3", True])
def test_table_size_other_than_three_or_four_is_refused(size):
    with pytest.raises(SeatingError) as err:
        pregenerate(12, 2, table_size=size)
    assert (err.value.code, err.value.field) == ("invalid_table_size", "table_size")


# --- Swiss -----------------------------------------------------------------------

def test_swiss_locks_the_standings_in_threes():
    nxt = swiss_round(list(range(1, 10)), table_size=3)
    assert [sorted(t) for t in nxt.round] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert nxt.repeats == () and nxt.quality.lower_bound == 0


def test_swiss_moves_players_to_avoid_a_repeat_at_tables_of_three():
    history = [((1, 2, 3), (4, 5, 6), (7, 8, 9))]
    nxt = swiss_round(list(range(1, 10)), history, table_size=3)
    check_rounds([*history, nxt.round], list(range(1, 10)), table_size=3)
    assert nxt.repeats == ()
    # the leader's table holds the best ranks the rule allows: one of each former table
    assert sorted(min(t) for t in nxt.round) == [1, 2, 3]
    # The standings put 1, 4 and 7 (all East last round) together, and likewise
    # the South and West players, so at each of these tables exactly one player
    # must sit the same wind again: the fewest possible.
    counts = wind_counts([*history, nxt.round])
    assert sorted(max(c) - min(c) for c in counts.values()) == [1] * 6 + [2] * 3


def test_swiss_refuses_a_history_of_tables_of_four_for_tables_of_three():
    with pytest.raises(SeatingError) as err:
        swiss_round(list(range(1, 13)), [((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))], table_size=3)
    assert err.value.code == "wrong_table_size"


def test_seat_winds_for_a_table_of_three_keeps_the_spread_smallest():
    assert seat_winds([(1, 2, 3)], history=[[(1, 2, 3)]]) in {((2, 3, 1),), ((3, 1, 2),)}


# --- prescripted -----------------------------------------------------------------

THREE = "round,table,east,south,west\n1,1,1,2,3\n1,2,4,5,6\n2,1,1,4,2\n2,2,3,5,6\n"


def test_prescripted_csv_with_three_seats():
    seating = read_prescripted(THREE, range(1, 7), table_size=3)
    assert seating.rounds == (((1, 2, 3), (4, 5, 6)), ((1, 4, 2), (3, 5, 6)))
    assert seating.quality.repeat_count == 2 and seating.quality.lower_bound == lower_bound(6, 2, 3) == 0
    balanced = read_prescripted(THREE, range(1, 7), table_size=3, balance=True)
    assert balanced.quality.wind_spread <= 1


def test_prescripted_three_seat_file_names_every_problem():
    text = "round,table,east,south,west\n1,1,1,2,3\n1,2,4,5,6,7\n2,1,1,2,9\n"
    with pytest.raises(PrescriptedError) as err:
        read_prescripted(text, range(1, 7), table_size=3)
    assert [(e.line, e.field, e.code) for e in err.value.errors] == [
        (3, "table", "wrong_table_size"), (4, "west", "unknown_player")]
    assert "a table needs 3 players (east, south, west), this line has 4" in str(err.value)


def test_prescripted_four_seat_header_is_refused_for_tables_of_three():
    with pytest.raises(PrescriptedError) as err:
        read_prescripted("round,table,east,south,west,north\n1,1,1,2,3,4\n", range(1, 7), table_size=3)
    assert [(e.code, e.message) for e in err.value.errors] == [
        ("invalid_header", "the header must be round,table,east,south,west")]


# --- the command -----------------------------------------------------------------

def run(*args: str) -> str:
    out = StringIO()
    call_command("seating", *args, stdout=out)
    return out.getvalue()


def test_command_seats_tables_of_three():
    data = json.loads(run("--players", "24", "--rounds", "8", "--table-size", "3", "--format", "json"))
    assert data["table_size"] == 3 and data["repeats"] == 0 == data["lower_bound"] and data["wind_spread"] <= 1
    check_rounds(data["rounds"], list(range(1, 25)), table_size=3)
    data = json.loads(run("--players", "21", "--rounds", "10", "--table-size", "3", "--format", "json"))
    assert data["repeats"] == 0 == data["lower_bound"] and data["wind_spread"] <= 1
    check_rounds(data["rounds"], list(range(1, 22)), table_size=3)
    text = run("--players", "9", "--rounds", "4", "--table-size", "3", "--format", "text")
    assert "9 players, 4 rounds, tables of 3" in text and "  table  1:  E " in text and " N " not in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "10", "--rounds", "2", "--table-size", "3"], "--players: 10 players cannot sit at tables of "
         "three: the number must be a positive multiple of 3 (2 substitutes are needed, or 1 player fewer)"),
        (["--players", "12", "--rounds", "2", "--table-size", "5"], "--table-size: table size must be 3 or 4, not 5"),
    ],
)
def test_command_errors_name_the_option_for_tables_of_three(args, message):
    with pytest.raises(CommandError) as err:
        run(*args)
    assert str(err.value) == message
