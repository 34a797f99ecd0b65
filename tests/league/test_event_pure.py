"""The event day's pure rules, without a database: reading a player list,
the clock's two ending policies, and a substituted player's result."""

from __future__ import annotations

import pytest

from league.event.clock import Ending, verdict
from league.event.results import registered_result
from league.event.roster import RosterError, read_roster
from scoring.rules import get_ruleset
from scoring.settlement import Penalty, settle

HEADER = "Number;First name;Last name;EMA number;Country;Club;Team;Substitute\n"


def test_roster_reads_every_column_in_any_order_and_case() -> None:
    text = "\ufeffTEAM,last_name,First Name,number,ema,country,substitute\nKoi,Sato,Aiko,7,10990001,jp,yes\n"
    (row,) = read_roster(text)
    assert (row.line, row.number, row.first_name, row.last_name, row.ema_number, row.country, row.team,
            row.is_substitute) == (2, 7, "Aiko", "Sato", "10990001", "JP", "Koi", True)


def test_roster_reads_semicolons_and_skips_blank_lines() -> None:
    rows = read_roster(HEADER + "1;Aiko;Sato;;NL;Club A;;\n\n2;Bram;de Vries;;;;;no\n")
    assert [(r.line, r.number, r.name, r.country, r.club) for r in rows] == [
        (2, 1, "Aiko Sato", "NL", "Club A"), (4, 2, "Bram de Vries", "", ""),
    ]


def test_roster_reports_every_bad_line_at_once() -> None:
    text = HEADER + "\n".join([
        "1;Aiko;Sato;10990001;JP;;;",   # line 2: fine
        "x;Bram;de Vries;;NL;;;",        # line 3: number not a number
        "3;;Wang;;CN;;;",                # line 4: first name empty
        "4;Dana;Novak;12ab;XX;;;maybe",  # line 5: EMA number, country, substitute
        "1;Emil;Lindqvist;;SE;;;",       # line 6: number 1 again
        "6;Fumiko;Tanaka;10990001;JP;;;",  # line 7: EMA number of line 2 again
        "7;Gael;Moreau;;FR;;;;extra",    # line 8: a cell too many
    ]) + "\n"
    with pytest.raises(RosterError) as caught:
        read_roster(text)
    assert [str(e) for e in caught.value.errors] == [
        "line 3: number: 'x' is not a whole number from 1 to 9,999",
        "line 4: first name: is empty",
        "line 5: EMA number: '12ab' is not an EMA number (digits only)",
        "line 5: country: 'XX' is not an ISO 3166 country code (two letters, e.g. NL, JP)",
        "line 5: substitute: 'maybe' is not yes or no",
        "line 6: number: 1 is already on line 2",
        "line 7: EMA number: 10990001 is already on line 2",
        "line 8: 9 cells, but the header names 8 columns",
    ]


@pytest.mark.parametrize(("text", "message"), [
    ("", "line 1: the file is empty; line 1 must name the columns"),
    ("number,first name\n", "line 1: the header lacks the 'last name' column"),
    ("number,first name,last name,nickname\n", "line 1: unknown column 'nickname' (known: number, first name, "
                                                "last name, EMA number, country, club, team, substitute)"),
    ("number,first name,last name\n", "line 2: the file has a header but no players"),
])
def test_roster_refuses_a_file_without_players(text: str, message: str) -> None:
    with pytest.raises(RosterError) as caught:
        read_roster(text)
    assert str(caught.value) == message


# The clock. Pantheon's policies: end_after_hand ends the game after the first
# hand recorded once time is up; one_more_hand after the second; a chombo is
# no hand played and never counts.
@pytest.mark.parametrize(("ending", "hands_after", "hands_left", "over"), [
    (Ending.END_AFTER_HAND, [], 1, False),
    (Ending.END_AFTER_HAND, [True], 1, False),         # a chombo after time: the hand is dealt again
    (Ending.END_AFTER_HAND, [False], 0, True),
    (Ending.ONE_MORE_HAND, [], 2, False),
    (Ending.ONE_MORE_HAND, [False], 1, False),
    (Ending.ONE_MORE_HAND, [False, True], 1, False),
    (Ending.ONE_MORE_HAND, [False, False], 0, True),
    (Ending.NONE, [False, False, False], None, False),
])
def test_clock_policy_after_time(ending: Ending, hands_after: list[bool], hands_left: int | None, over: bool) -> None:
    v = verdict(ending, remaining=-30, hands_after=hands_after)
    assert (v.time_up, v.hands_left, v.game_over) == (True, hands_left, over)


def test_clock_before_time_shows_what_is_left() -> None:
    v = verdict(Ending.ONE_MORE_HAND, remaining=754.6, hands_after=[])
    assert (v.time_up, v.remaining, v.game_over, v.notice) == (False, 754, False, "12:34 left in this round.")


def test_clock_tells_the_scorer_what_the_policy_says() -> None:
    assert verdict("one_more_hand", remaining=0, hands_after=[]).notice == (
        "Time is up: finish the current hand, then play one more. The game ends after that one.")
    assert verdict("end_after_hand", remaining=0, hands_after=[]).notice.startswith(
        "Time is up: finish the current hand. The game ends after it.")


# A substitute played the seat: +41.3 at the table, a -5.0 penalty included.
@pytest.mark.parametrize(("rule", "expected"), [
    ("real", 41300),
    ("not_counted", None),
    ("fixed", -15000 - 15000 - 5000),  # EMA as Pantheon applies it, and the seat's penalty
])
def test_registered_player_result_for_a_substituted_seat(rule: str, expected: int | None) -> None:
    assert registered_result(rule, seat_points=41300, penalty=-5000, fixed_score=-15000, fixed_uma=-15000) == expected


def test_fixed_result_is_the_engines_replacement_result() -> None:
    # The scoring engine's replacement_result=fixed (issue #17) settles a
    # replacement's seat as replacement_score + replacement_uma + its penalty;
    # the league's rule for a substituted seat gives the same figure, so moving
    # to the engine field changes no standing.
    rules = get_ruleset("ema-2016").replace(replacement_result="fixed", replacement_score=-15000,
                                            replacement_uma=-15000)
    penalty = Penalty(seat=1, points=-5000, reason="late")
    engine = settle(rules, [45000, 35000, 25000, 15000], penalties=[penalty], replacements=[1]).points[1]
    league = registered_result("fixed", seat_points=0, penalty=-5000, fixed_score=-15000, fixed_uma=-15000)
    assert engine == league == -35000


# -- issue 29: what once stored a NUL or answered 500 -----------------------------------

CLUB_HEADER = "number,first name,last name,club\n"


@pytest.mark.parametrize(("row", "message"), [
    ("1,Ai\x00ko,Sato,\n", "line 2: first name: holds a NUL character"),
    ("1,Aiko,Sato,Ky\x00to\n", "line 2: club: holds a NUL character"),
    ("1,Aiko,Sato," + "x" * 1_001 + "\n", "line 2: club: is longer than 1000 characters"),
    ("9" * 4_301 + ",Aiko,Sato,\n", "line 2: number: is longer than 1000 characters"),
    ("9" * 999 + ",Aiko,Sato,\n", "line 2: number: '99999999999999999...' is not a whole number from 1 to 9,999"),
    ("10000,Aiko,Sato,\n", "line 2: number: '10000' is not a whole number from 1 to 9,999"),
    ("²,Aiko,Sato,\n", "line 2: number: '²' is not a whole number from 1 to 9,999"),
])
def test_a_cell_beyond_the_bounds_is_refused_by_line_and_column(row: str, message: str) -> None:
    with pytest.raises(RosterError) as caught:
        read_roster(CLUB_HEADER + row)
    assert [str(e) for e in caught.value.errors] == [message]


@pytest.mark.parametrize("text", [
    CLUB_HEADER + "1,Ai\rko,Sato,\n",  # a bare CR inside a cell
    CLUB_HEADER + "1,Aiko,Sato," + "x" * 131_073 + "\n",  # past the csv module's own limit
    CLUB_HEADER + '1,Aiko,Sato,"' + "x" * 131_073 + '"\n',  # quoted too
])
def test_a_file_the_csv_module_cannot_read_is_refused(text: str) -> None:
    with pytest.raises(RosterError) as caught:
        read_roster(text)
    [error] = caught.value.errors
    assert error.code == "not_csv" and error.line == 2 and "cannot be read as CSV" in str(error)
