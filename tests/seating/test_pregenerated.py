"""Pre-generated seating: every round seats everyone, the targets of issue 14
for the sizes that search fast, designs at the maximum, winds, determinism."""

from __future__ import annotations

import subprocess
import sys
from itertools import combinations, permutations
from pathlib import Path

import pytest

from league.seating import (
    SeatingError,
    check_rounds,
    lower_bound,
    perfect_rounds,
    pregenerate,
    repeats,
    same_table_consecutive,
    wind_counts,
    wind_spread,
)

REPO = Path(__file__).resolve().parents[2]


# players, rounds, repeats at most (issue 14's targets; the lower bound where it is reachable)
@pytest.mark.parametrize(
    ("players", "rounds", "at_most"),
    [
        (16, 5, 0),
        (16, 8, 72),
        (20, 8, 50),
        (28, 8, 0),  # the unital: MTE's template has 19, the issue asks for 9
        (28, 9, 0),
        (36, 8, 0),
        (40, 8, 0),
        (40, 13, 0),  # PG(3, 3) packed
        (48, 10, 0),
        (64, 10, 0),
        (64, 21, 0),  # AG(3, 4)
        (100, 10, 0),
    ],
)
def test_pregenerated_meets_its_target(players, rounds, at_most):
    seating = pregenerate(players, rounds, seed=7, iterations=2_000)
    check_rounds(seating.rounds, list(range(1, players + 1)))
    assert len(seating.rounds) == rounds
    assert seating.quality.repeat_count == repeats(seating.rounds) <= at_most
    assert seating.quality.repeat_count >= lower_bound(players, rounds)


def test_32_players_8_rounds_reach_at_most_one_repeat():
    seating = pregenerate(32, 8, seed=3, iterations=20_000)
    assert seating.quality.repeat_count <= 1


@pytest.mark.parametrize("players", [16, 28, 40, 64, 256])
def test_designs_seat_everyone_once_and_no_pair_twice(players):
    rounds = perfect_rounds(players)
    assert len(rounds) == (players - 1) // 3
    check_rounds(rounds, list(range(players)))
    assert repeats(rounds) == 0


@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (16, 8), (24, 6), (28, 9), (36, 7), (40, 10), (52, 12)])
def test_winds_differ_by_at_most_one_and_are_exact_when_four_divides_rounds(players, rounds):
    seating = pregenerate(players, rounds, seed=1, iterations=500)
    counts = wind_counts(seating.rounds)
    assert len(counts) == players
    for c in counts.values():
        assert sum(c) == rounds
        assert max(c) - min(c) <= 1
        if rounds % 4 == 0:
            assert c == [rounds // 4] * 4
    assert seating.quality.wind_spread == wind_spread(seating.rounds) == (0 if rounds % 4 == 0 else 1)


def test_the_same_seed_gives_the_same_seating_and_another_seed_another():
    first = pregenerate(24, 6, seed=11, iterations=300)
    again = pregenerate(24, 6, seed=11, iterations=300)
    other = pregenerate(24, 6, seed=12, iterations=300)
    assert first.rounds == again.rounds
    assert first.rounds != other.rounds


def test_a_seating_asked_again_is_kept_and_is_what_a_search_finds():
    """The same count, rounds, seed, teams and budget are not searched twice in a
    process (the demo and an event seated again): what is kept equals a search in
    line (a clock, never kept, runs one), for other player ids too; other teams,
    another seed or another budget are searched."""
    from league.seating import pregenerated

    pregenerated._groups.cache_clear()
    players = list(range(101, 125))
    teams = {p: (p - 101) % 3 for p in players[:12]}
    first = pregenerate(players, 6, seed=4, iterations=800, teams=teams)
    again = pregenerate(players, 6, seed=4, iterations=800, teams=teams)
    assert pregenerated._groups.cache_info()[:2] == (1, 1)  # hits, misses
    in_line = pregenerate(players, 6, seed=4, iterations=800, teams=teams, seconds=3600)
    assert again == first == in_line
    shifted = pregenerate([p + 100 for p in players], 6, seed=4, iterations=800,
                          teams={p + 100: t for p, t in teams.items()})
    assert shifted.rounds == tuple(tuple(tuple(p + 100 for p in t) for t in r) for r in first.rounds)
    assert pregenerated._groups.cache_info()[:2] == (2, 1)
    others = [
        pregenerate(players, 6, seed=4, iterations=800, teams={p: (p - 101) % 2 for p in players[:12]}),
        pregenerate(players, 6, seed=5, iterations=800, teams=teams),
        pregenerate(players, 6, seed=4, iterations=801, teams=teams),
    ]
    assert pregenerated._groups.cache_info()[:2] == (2, 4)
    assert others[0] == pregenerate(players, 6, seed=4, iterations=800, seconds=3600,
                                    teams={p: (p - 101) % 2 for p in players[:12]})
    assert others[0].rounds != first.rounds and others[1].rounds != first.rounds


def test_no_one_keeps_their_table_when_there_are_eight_tables_or_more():
    seating = pregenerate(32, 8, seed=2, iterations=500)
    assert same_table_consecutive(seating.rounds) == seating.quality.same_table_consecutive == 0


def test_with_fewer_tables_the_fewest_players_keep_their_table():
    seating = pregenerate(20, 6, seed=2, iterations=500)
    for before, after in zip(seating.rounds, seating.rounds[1:], strict=False):
        fewest = min(same_table_consecutive([before, order]) for order in permutations(after))
        assert same_table_consecutive([before, after]) == fewest
    kept = pregenerate(20, 6, seed=2, iterations=500, avoid_same_table=False)
    # the option only reorders tables: the same groups either way
    assert [sorted(map(sorted, r)) for r in kept.rounds] == [sorted(map(sorted, r)) for r in seating.rounds]


def test_teammates_never_share_a_table():
    players = list(range(101, 133))
    teams = {p: (p - 101) // 4 for p in players}  # eight teams of four
    seating = pregenerate(players, 8, seed=5, iterations=3_000, teams=teams)
    check_rounds(seating.rounds, players)
    for rnd in seating.rounds:
        for table in rnd:
            assert len({teams[p] for p in table}) == 4
    assert seating.quality.teammates_together == 0


def test_player_ids_are_kept_as_given():
    ids = [1000 + 7 * k for k in range(16)]
    seating = pregenerate(ids, 5, seed=0)
    assert {p for rnd in seating.rounds for t in rnd for p in t} == set(ids)
    assert seating.quality.repeat_count == 0


def test_meeting_histogram_counts_every_pair():
    seating = pregenerate(16, 8, seed=0)
    hist = seating.quality.meetings
    assert sum(hist.values()) == 16 * 15 // 2
    assert sum(k * v for k, v in hist.items()) == 8 * 4 * 6  # every table is six meetings
    assert sum((k - 1) * v for k, v in hist.items() if k > 1) == seating.quality.repeat_count


def test_a_wall_clock_cap_returns_the_best_so_far():
    seating = pregenerate(24, 8, seed=1, iterations=10**9, seconds=0.5)
    check_rounds(seating.rounds, list(range(1, 25)))
    assert seating.iterations < 10**9
    assert seating.quality.repeat_count == repeats(seating.rounds)


@pytest.mark.parametrize(
    ("kwargs", "field", "code"),
    [
        ({"players": 18, "rounds": 4}, "players", "invalid_player_count"),
        ({"players": 0, "rounds": 4}, "players", "invalid_player_count"),
        ({"players": [1, 2, 3, 3], "rounds": 4}, "players", "duplicate_player"),
        ({"players": 8, "rounds": 0}, "rounds", "invalid_rounds"),
        ({"players": 8, "rounds": 2, "iterations": -1}, "iterations", "invalid_iterations"),
        ({"players": 8, "rounds": 2, "seconds": 0}, "seconds", "invalid_seconds"),
        ({"players": 8, "rounds": 2, "teams": {99: "a"}}, "teams", "unknown_player"),
    ],
)
def test_bad_requests_name_the_field(kwargs, field, code):
    with pytest.raises(SeatingError) as err:
        pregenerate(**kwargs)
    assert (err.value.field, err.value.code) == (field, code)


def test_lower_bound_counts_surplus_opponent_slots():
    for players, rounds in [(16, 8), (20, 8), (24, 8), (32, 8)]:
        slots = 3 * rounds
        assert lower_bound(players, rounds) == players * max(0, slots - (players - 1)) // 2
    # 16 x 8 at the bound: after the 5 perfect rounds every pair has met, so each later meeting repeats
    seating = pregenerate(16, 8, seed=0)
    pairs = {frozenset(p) for rnd in seating.rounds for t in rnd for p in combinations(t, 2)}
    assert len(pairs) == 120


def test_seating_never_imports_django():
    code = ("import sys, league.seating, league.seating.swiss, league.seating.prescripted; "
            "print([m for m in sys.modules if m.split('.')[0] == 'django'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "[]"
