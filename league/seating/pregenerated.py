"""Pre-generated seating: every round at once, with the fewest repeat meetings.

``pregenerate`` owns the whole path from a player list to a finished seating:
a repeat-free design (``designs``, repeated in order beyond its rounds) or a
greedy start, tabu search (``tabu``) down to the lower bound, physical tables
(``physical``) and winds (``winds``). The seed and the iteration budget fix the
result; ``seconds`` is only a wall-clock cap (the best so far, which may then
differ between machines). It always returns its best with its quality. The
steps: docs/seating.md, "Seating".

>>> seating = pregenerate(16, 5, seed=1)
>>> seating.quality.repeat_count, seating.quality.wind_spread
(0, 1)
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from league.seating import tabu
from league.seating.designs import perfect_rounds
from league.seating.physical import place_tables
from league.seating.schedule import (
    TABLE_SIZE,
    Round,
    Seating,
    SeatingError,
    assess,
    check_players,
    check_table_size,
    lower_bound,
)
from league.seating.winds import balance_winds

DEFAULT_ITERATIONS = 12_000
MAX_ROUNDS = 100


def player_list(players: int | Sequence[Any], table_size: int = TABLE_SIZE) -> list[Any]:
    """Players as given, or 1..N for a count, checked to fill tables of ``table_size``."""
    if isinstance(players, bool):
        raise SeatingError("invalid_player_count", "players must be a count or a list of players", field="players")
    if isinstance(players, int):
        out: list[Any] = list(range(1, players + 1))
    else:
        out = list(players)
    check_players(out, table_size=table_size)
    return out


def check_budget(rounds: int, iterations: int | None, seconds: float | None) -> None:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise SeatingError("invalid_rounds", f"rounds must be a whole number from 1 to {MAX_ROUNDS}", field="rounds")
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0):
        raise SeatingError("invalid_iterations", "iterations must be a whole number, 0 or more", field="iterations")
    if seconds is not None and not seconds > 0:
        raise SeatingError("invalid_seconds", "seconds must be more than 0", field="seconds")


def team_indices(order: Sequence[Any], teams: Mapping[Any, Hashable] | None) -> list[int] | None:
    """Each player's team as a small integer (-1: no team), or None without teams."""
    if not teams:
        return None
    known = set(order)
    for p in teams:
        if p not in known:
            raise SeatingError("unknown_player", f"teams names {p!r}, who is not among the players", field="teams")
    numbers: dict[Hashable, int] = {}
    return [numbers.setdefault(teams[p], len(numbers)) if p in teams else -1 for p in order]


def pregenerate(players: int | Sequence[Any], rounds: int, *, seed: int = 0, iterations: int | None = None,
                seconds: float | None = None, avoid_same_table: bool = True,
                teams: Mapping[Any, Hashable] | None = None, table_size: int = TABLE_SIZE) -> Seating:
    """All ``rounds`` rounds for ``players`` (a count, numbered from 1, or a list of ids).

    ``table_size`` is 4, or 3 for three-player mahjong (tables East, South, West).
    ``iterations`` is the search's work budget (default ``DEFAULT_ITERATIONS``);
    ``teams`` maps a player to their team, and teammates are kept apart where
    the search can; ``avoid_same_table`` keeps players off last round's table.
    """
    size = check_table_size(table_size)
    order = player_list(players, size)
    check_budget(rounds, iterations, seconds)
    deadline = None if seconds is None else time.monotonic() + seconds
    n = len(order)
    # A seeded relabelling: designs are symmetric, so this gives each seed its own seating.
    random.Random(seed).shuffle(order)
    team_of = team_indices(order, teams)
    budget = DEFAULT_ITERATIONS if iterations is None else iterations
    key = (n, rounds, seed, size, None if team_of is None else tuple(team_of), budget)
    # Without a clock the groups depend on the key alone: kept, not searched again.
    groups, done = _groups(*key) if deadline is None else _search(*key, deadline=deadline)
    seated = finish(groups, order, avoid_same_table)
    return Seating(rounds=seated, quality=assess(seated, n, teams, size), iterations=done)


Groups = tuple[tuple[tuple[int, ...], ...], ...]


def _search(n: int, rounds: int, seed: int, size: int, team_of: tuple[int, ...] | None, budget: int, *,
            deadline: float | None = None) -> tuple[Groups, int]:
    """Players 0..n-1 grouped into ``rounds`` rounds (in the relabelled order), and the iterations it took.

    The generator is the one ``pregenerate`` relabelled the players with, drawn
    past that shuffle (which draws by position only), so the search sees the
    same numbers as it would in line."""
    rng = random.Random(seed)
    rng.shuffle(list(range(n)))
    teams = None if team_of is None else list(team_of)
    design = perfect_rounds(n, size)
    if design:
        start = [[list(t) for t in design[r % len(design)]] for r in range(rounds)]
    else:
        start = tabu.greedy_rounds(n, rounds, rng, team_of=teams, table_size=size)
    target = lower_bound(n, rounds, size)
    outcome = tabu.search(n, start, rng=rng, iterations=budget, target=target, deadline=deadline, team_of=teams)
    return tuple(tuple(tuple(t) for t in r) for r in outcome.rounds), outcome.iterations


# The same event seated again (a director re-seating with the same seed, the
# demo built again) costs no search: up to 12,000 moves of pure Python each.
_groups = functools.lru_cache(maxsize=64)(_search)


def finish(groups: Sequence[Sequence[Sequence[int]]], order: Sequence[Any], avoid_same_table: bool) -> tuple[Round, ...]:
    """Index groups as player rounds at physical tables, winds balanced."""
    placed: list[list[Any]] = []
    for rnd in groups:
        named = [tuple(order[i] for i in table) for table in rnd]
        placed.append(place_tables(named, placed[-1] if placed else None) if avoid_same_table else named)
    return balance_winds(placed)
