"""Swiss rounds, prescripted CSVs, winds for rounds seated one at a time, and
the ``seating`` command."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from league.seating import (
    PrescriptedError,
    balance_winds,
    check_rounds,
    read_prescripted,
    rebalance_winds,
    seat_winds,
    swiss_round,
    wind_counts,
    wind_spread,
)

# --- Swiss --------------------------------------------------------------------


def test_swiss_first_round_locks_the_standings_in_fours():
    standings = [f"p{k}" for k in range(16)]
    rnd = swiss_round(standings).round
    assert sorted(map(sorted, rnd)) == sorted(sorted(standings[k:k + 4]) for k in range(0, 16, 4))
    assert swiss_round(standings).repeats == ()


def test_swiss_avoids_repeats_while_it_can_and_reports_each_one_it_makes():
    players = list(range(1, 25))
    history: list = []
    made = []
    for number in range(1, 9):
        # standings shuffled deterministically so leaders change
        standings = sorted(players, key=lambda p: (p * 7919 * number) % 101)
        nxt = swiss_round(standings, history)
        assert nxt.number == number
        check_rounds([*history, nxt.round], players)
        # every reported repeat is real: the pair sits together now and did in the rounds named
        for rep in nxt.repeats:
            a, b = rep.pair
            assert rep.round == number
            assert any({a, b} <= set(t) for t in nxt.round)
            assert all(any({a, b} <= set(t) for t in history[r - 1]) for r in rep.earlier)
        made.append(len(nxt.repeats))
        history.append(nxt.round)
        assert nxt.quality.repeat_count == sum(made)
    # the greedy guarantee: floor(24 / 12) = 2 rounds without a repeat
    assert made[:2] == [0, 0]


def test_swiss_moves_the_fewest_places_to_avoid_a_repeat():
    history = [((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16))]
    nxt = swiss_round(list(range(1, 17)), history)
    assert nxt.repeats == ()
    # the leader's table takes the best player of each earlier table
    top = next(t for t in nxt.round if 1 in t)
    assert sorted(top) == [1, 5, 9, 13]


def test_swiss_keeps_teammates_apart_and_seats_winds_evenly():
    players = list(range(1, 17))
    teams = {p: p % 4 for p in players}
    history: list = []
    for _ in range(4):
        nxt = swiss_round(players, history, teams=teams)
        for table in nxt.round:
            assert len({teams[p] for p in table}) == 4
        history.append(nxt.round)
    assert wind_spread(history) == nxt.quality.wind_spread <= 1


def test_swiss_refuses_a_history_that_misses_a_player():
    with pytest.raises(Exception) as err:
        swiss_round([1, 2, 3, 4, 5, 6, 7, 8], [((1, 2, 3, 4), (5, 6, 7, 9))])
    assert err.value.code == "unknown_player"


# --- winds seated round by round ---------------------------------------------


def test_winds_seated_round_by_round_stay_within_one_for_four_rounds():
    history: list = []
    for rnd in [[(1, 2, 3, 4), (5, 6, 7, 8)]] * 4:
        history.append(seat_winds(rnd, history))
    assert all(c == [1, 1, 1, 1] for c in wind_counts(history).values())


def test_rebalancing_keeps_played_rounds_and_evens_the_rest():
    rounds = [((1, 2, 3, 4), (5, 6, 7, 8))] * 8
    out = rebalance_winds(rounds, played=3)
    assert out[:3] == tuple(rounds[:3])
    # three Easts already played: (3, 2, 2, 1) is the most even an 8-round count can be
    assert all(sorted(c) == [1, 2, 2, 3] for c in wind_counts(out).values())
    assert wind_spread(balance_winds(rounds)) == 0


# --- prescripted ---------------------------------------------------------------

GOOD = """round,table,east,south,west,north
1,1,1,2,3,4
1,2,5,6,7,8
2,2,1,5,2,6
2,1,3,7,4,8
"""


def test_prescripted_csv_reads_rounds_and_tables_in_order_with_winds_as_written():
    seating = read_prescripted(GOOD, range(1, 9))
    assert seating.rounds == (((1, 2, 3, 4), (5, 6, 7, 8)), ((3, 7, 4, 8), (1, 5, 2, 6)))
    assert seating.quality.repeat_count == 4
    balanced = read_prescripted(GOOD, range(1, 9), balance=True)
    assert [sorted(map(sorted, r)) for r in balanced.rounds] == [sorted(map(sorted, r)) for r in seating.rounds]
    assert balanced.quality.wind_spread == 1


def test_prescripted_players_can_be_named():
    names = {"Alice": 11, "Bob": 12, "Chiyo": 13, "Dan": 14}
    seating = read_prescripted("\ufeffRound, Table, East, South, West, North\n1,1,Dan,Chiyo,Bob,Alice\n", names)
    assert seating.rounds == (((14, 13, 12, 11),),)


@pytest.mark.parametrize(
    ("text", "errors"),
    [
        ("round,table,e,s,w,n\n1,1,1,2,3,4\n", [(1, "header", "invalid_header")]),
        ("", [(1, "header", "empty_file")]),
        ("round,table,east,south,west,north\n1,1,1,2,3\n1,2,5,6,7,8\n",
         [(2, "table", "wrong_table_size")]),
        ("round,table,east,south,west,north\n1,1,1,2,3,4\n1,2,5,6,7,9\n",
         [(3, "north", "unknown_player")]),
        ("round,table,east,south,west,north\n1,1,1,2,3,4\n1,2,5,6,7,1\n",
         [(3, "north", "duplicate_player"), (2, "round", "missing_player")]),
        ("round,table,east,south,west,north\nx,1,1,2,3,4\n1,0,5,6,7,8\n",
         [(2, "round", "invalid_round"), (3, "table", "invalid_table")]),
        ("round,table,east,south,west,north\n1,1,1,2,3,4\n1,1,5,6,7,8\n",
         [(3, "table", "duplicate_table"), (2, "round", "missing_player")]),
        ("round,table,east,south,west,north\n1,1,1,2,3,4\n1,3,5,6,7,8\n",
         [(3, "table", "too_many_tables")]),
        ("round,table,east,south,west,north\n1,1,1,2,3,4\n1,2,5,6,7,8\n3,1,1,2,3,4\n3,2,5,6,7,8\n",
         [(None, "round", "missing_round")]),
        ("round,table,east,south,west,north\n1,1,1,2,,4\n", [(2, "west", "missing_player")]),
    ],
)
def test_prescripted_errors_name_the_line_and_the_column(text, errors):
    with pytest.raises(PrescriptedError) as err:
        read_prescripted(text, range(1, 9))
    assert sorted((e.line, e.field, e.code) for e in err.value.errors) == sorted(errors, key=lambda x: (x[0] or 0, x[1]))


def test_prescripted_error_message_lists_every_problem_by_line():
    text = "round,table,east,south,west,north\n1,1,1,2,3,4\n1,2,5,6,7,99\n2,1,1,2,3\n"
    with pytest.raises(PrescriptedError) as err:
        read_prescripted(text, range(1, 9))
    assert str(err.value) == "line 3, north: unknown player '99'; line 4, table: a table needs 4 players " \
        "(east, south, west, north), this line has 3"


# --- the command ----------------------------------------------------------------


def run(*args: str) -> str:
    out = StringIO()
    call_command("seating", *args, stdout=out)
    return out.getvalue()


def test_command_prints_json_for_players_one_to_n():
    data = json.loads(run("--players", "16", "--rounds", "5", "--seed", "3", "--format", "json"))
    assert data["repeats"] == 0 and data["wind_spread"] == 1
    check_rounds(data["rounds"], list(range(1, 17)))
    assert data == json.loads(run("--players", "16", "--rounds", "5", "--seed", "3", "--format", "json"))


def test_command_prints_text_for_people():
    text = run("--players", "8", "--rounds", "2", "--iterations", "50", "--format", "text")
    assert text.startswith("Round 1\n  table  1:  E ")
    assert "repeat meetings: 4 (lower bound 0)" in text


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--players", "10", "--rounds", "2"], "--players"),
        (["--players", "8", "--rounds", "0"], "--rounds"),
        (["--players", "8", "--rounds", "2", "--seconds", "0"], "--seconds"),
        (["--players", "8", "--rounds", "2", "--iterations", "-5"], "--iterations"),
    ],
)
def test_command_errors_name_the_option(args, option):
    with pytest.raises(CommandError) as err:
        run(*args)
    assert str(err.value).startswith(option + ":")
