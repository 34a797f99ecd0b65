"""Which physical table each group of a round sits at.

WRC 2015 section 8.1 forbids keeping players at one physical table for several
hanchan (marked tiles can be memorised). The groups of a round can be put at
the tables in any order, so ``place_tables`` solves an assignment problem: a
group at table j costs one for each of its players who sat at table j the
round before, and (far below that) the distance from its place in the given
order, so Swiss leaders stay near table 1. The Hungarian algorithm gives the
cheapest order exactly and deterministically. From eight tables up no one
ever stays (a group shuts out at most four tables and a table at most four
groups, so Hall's condition holds); with fewer, the fewest possible stay.

>>> place_tables([(1, 2, 3, 4), (5, 6, 7, 8)], previous=[(1, 2, 9, 10), (5, 11, 6, 12)])
[(5, 6, 7, 8), (1, 2, 3, 4)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def place_tables(groups: Sequence[Sequence[Any]], previous: Sequence[Sequence[Any]] | None) -> list[Any]:
    """``groups`` reordered so the fewest players keep last round's table."""
    groups = list(groups)
    if not previous:
        return groups
    where = {p: j for j, table in enumerate(previous) for p in table}
    n = len(groups)
    weight = n * n + 1  # one player kept outweighs any reordering
    cost = [[weight * sum(1 for p in g if where.get(p) == j) + abs(i - j) for j in range(n)] for i, g in enumerate(groups)]
    table_of = _assignment(cost)
    out: list[Any] = [None] * n
    for i, j in enumerate(table_of):
        out[j] = groups[i]
    return out


def _assignment(cost: list[list[int]]) -> list[int]:
    """Column for each row of a square matrix, minimising the total (Hungarian, O(n^3))."""
    n = len(cost)
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    row_of = [0] * (n + 1)  # row_of[j]: row matched to column j (1-based; 0 = none)
    for i in range(1, n + 1):
        row_of[0] = i
        j0 = 0
        least = [inf] * (n + 1)
        via = [0] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = row_of[j0], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if reduced < least[j]:
                        least[j], via[j] = reduced, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[row_of[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if row_of[j0] == 0:
                break
        while j0:
            j1 = via[j0]
            row_of[j0] = row_of[j1]
            j0 = j1
    table_of = [0] * n
    for j in range(1, n + 1):
        table_of[row_of[j] - 1] = j - 1
    return table_of
