"""Swiss seating: the next round from the standings, leaders together.

Players are locked in fours by rank, as in EMA practice (threes at tables of
three), and moved only to avoid a repeat meeting or teammates at one table,
the smallest move along the standings first. Deterministic and bounded (a
fixed number of iterations); every repeat it could not avoid is reported with
the rounds it repeats. No one can promise a repeat-free Swiss round: a greedy
is only sure of floor(N/12) (Schmand, Schroeder and Vargas Koch, 2020). The
cost and the search: docs/seating.md, "Swiss rounds".

>>> history = [((1, 2, 3, 4), (5, 6, 7, 8))]
>>> nxt = swiss_round([1, 2, 3, 4, 5, 6, 7, 8], history)
>>> len(nxt.repeats), sorted(map(sorted, nxt.round))
(4, [[1, 2, 5, 6], [3, 4, 7, 8]])
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from league.seating.physical import place_tables
from league.seating.pregenerated import player_list, team_indices
from league.seating.schedule import TABLE_SIZE, Quality, Repeat, Round, SeatingError, assess, check_rounds
from league.seating.winds import seat_winds

DEFAULT_ITERATIONS = 2_000
TABU_TENURE = 5


@dataclass(frozen=True)
class SwissRound:
    """The new round (tables in physical order, East first), its number, the
    repeats it had to make, and the quality of all rounds so far with it."""

    round: Round
    number: int
    repeats: tuple[Repeat, ...]
    quality: Quality


def swiss_round(standings: Sequence[Any], history: Sequence[Sequence[Sequence[Any]]] = (), *,
                teams: Mapping[Any, Hashable] | None = None, avoid_same_table: bool = True,
                iterations: int = DEFAULT_ITERATIONS, table_size: int = TABLE_SIZE) -> SwissRound:
    """Seat the next round at tables of ``table_size`` (4, or 3 for three-player
    mahjong); ``standings`` lists every player, leader first."""
    order = player_list(standings, table_size)
    check_rounds(history, order, table_size)
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise SeatingError("invalid_iterations", "iterations must be a whole number, 0 or more", field="iterations")
    n = len(order)
    index = {p: i for i, p in enumerate(order)}
    met = [[0] * n for _ in range(n)]
    for rnd in history:
        for table in rnd:
            for a, b in combinations(table, 2):
                met[index[a]][index[b]] += 1
                met[index[b]][index[a]] += 1
    team_of = team_indices(order, teams)
    groups = _improve(n, met, team_of, iterations, table_size)
    named = [tuple(order[i] for i in g) for g in groups]
    if avoid_same_table and history:
        named = place_tables(named, history[-1])
    new_round = seat_winds(named, history)
    rounds = [tuple(tuple(t) for t in r) for r in history] + [new_round]
    quality = assess(rounds, n, teams, table_size)  # type: ignore[arg-type]
    number = len(rounds)
    return SwissRound(round=new_round, number=number, repeats=tuple(r for r in quality.repeats if r.round == number),
                      quality=quality)


def _improve(n: int, met: list[list[int]], team_of: list[int] | None, iterations: int,
             size: int = TABLE_SIZE) -> list[list[int]]:
    """Groups of indices (0 = leader) after the bounded descent from rank order."""
    tables = n // size
    group = [[size * t + k for k in range(size)] for t in range(tables)]
    table_of = [i // size for i in range(n)]
    big = 4 * n**3 + 1  # one repeat outweighs any amount of moving along the standings

    # price[p][q]: what p and q pay for sharing a table; at[p][t]: what p pays
    # for table t's players. Kept current on each swap, so a move costs O(1) to price.
    price = [[big * met[p][q] for q in range(n)] for p in range(n)]
    if team_of is not None:
        for p in range(n):
            for q in range(n):
                if p != q and team_of[p] >= 0 and team_of[p] == team_of[q]:
                    price[p][q] += big * big
    at = [[sum(price[p][x] for x in g if x != p) for g in group] for p in range(n)]

    # away[p][t]: (twice the distance from rank p (0 = leader) to the middle rank of table t) squared
    away = [[(2 * size * t + size - 1 - 2 * p) ** 2 for t in range(tables)] for p in range(n)]

    def _displacement(table_of: list[int]) -> int:
        return sum(away[p][t] for p, t in enumerate(table_of))

    def total() -> int:
        return sum(at[p][table_of[p]] for p in range(n)) // 2 + _displacement(table_of)

    best_cost = current = total()
    best = [list(g) for g in group]
    tabu: dict[int, int] = {}
    for step in range(1, iterations + 1):
        # Tabu only while a conflict is left: without one, plain descent on the standings.
        escaping = current != _displacement(table_of)
        move: tuple[int, int, int] | None = None
        for p in range(n):
            tp = table_of[p]
            at_p, price_p = at[p], price[p]
            away_p = away[p]
            here_p = at_p[tp] + away_p[tp]
            if p // size == tp and at_p[tp] == 0:
                continue  # at their locked table with no one they have met: nothing to gain by moving p
            for q in range(n):
                tq = table_of[q]
                if tq == tp or (escaping and (tabu.get(p, 0) >= step or tabu.get(q, 0) >= step)):
                    continue
                at_q = at[q]
                away_q = away[q]
                delta = (at_p[tq] - price_p[q] + away_p[tq] + at_q[tp] - price_p[q] + away_q[tp]
                         - here_p - at_q[tq] - away_q[tq])
                if move is None or delta < move[0]:
                    move = (delta, p, q)
        if move is None or (move[0] >= 0 and not escaping):
            break  # nothing left but moves away from the locked tables
        delta, p, q = move
        tp, tq = table_of[p], table_of[q]
        group[tp][group[tp].index(p)] = q
        group[tq][group[tq].index(q)] = p
        table_of[p], table_of[q] = tq, tp
        for x in range(n):
            px, qx = price[x][p], price[x][q]
            at[x][tp] += qx - px
            at[x][tq] += px - qx
        tabu[p] = tabu[q] = step + TABU_TENURE
        current = total()
        if current < best_cost:
            best_cost, best = current, [list(g) for g in group]
    return best

