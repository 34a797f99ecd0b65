"""Who sits East, South, West and North at each table.

- ``balance_winds`` seats a whole seating so every player's wind counts differ
  by at most 1, and are exactly R/4 each when 4 divides R (R/3 at tables of
  three): König's edge-colouring made constructive, deterministic, no search.
- ``seat_winds`` seats one new round given the rounds played: each table takes
  the order that leaves its players' spread smallest, so the round is optimal
  for the largest spread after it.

How the colouring works: docs/seating.md, "Winds".

>>> rounds = balance_winds([[(1, 2, 3, 4)]] * 8)
>>> sorted(wind_counts(rounds).values())
[[2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2]]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Any

from league.seating.schedule import TABLE_SIZE, TABLE_SIZES, Round, SeatingError, wind_counts

_PERMUTATIONS = {k: tuple(permutations(range(k))) for k in TABLE_SIZES}


def balance_winds(rounds: Sequence[Sequence[Sequence[Any]]]) -> tuple[Round, ...]:
    """The same groups with winds seated so each player's counts differ by at most 1.

    Every table must have as many players as the first (three or four).
    """
    tables = [tuple(table) for rnd in rounds for table in rnd]
    size = len(tables[0]) if tables else TABLE_SIZE
    for i, table in enumerate(tables):
        if len(table) != size or size not in TABLE_SIZES:
            raise SeatingError("wrong_table_size", f"table {i + 1} has {len(table)} players", field="rounds")
    # Right-hand nodes: (player, chunk), chunk = the player's game count // table size.
    games: dict[Any, int] = {}
    chunk_id: dict[tuple[Any, int], int] = {}
    edges: list[tuple[int, int]] = []
    for left, table in enumerate(tables):
        for player in table:
            n = games.get(player, 0)
            games[player] = n + 1
            right = chunk_id.setdefault((player, n // size), len(chunk_id))
            edges.append((left, right))
    colour_of = _edge_colour(len(tables), len(chunk_id), edges, size)
    seated: list[list[Any]] = [[None] * size for _ in tables]
    # Edges were made table by table, one per seat, in seat order.
    for i, ((left, _), colour) in enumerate(zip(edges, colour_of, strict=True)):
        seated[left][colour] = tables[left][i % size]
    out: list[Round] = []
    k = 0
    for rnd in rounds:
        out.append(tuple(tuple(seated[k + t]) for t in range(len(rnd))))  # type: ignore[misc]
        k += len(rnd)
    return tuple(out)


def _edge_colour(n_left: int, n_right: int, edges: list[tuple[int, int]], colours: int) -> list[int]:
    """A proper edge-colouring with ``colours`` colours of a bipartite graph of that maximum degree."""
    at_left: list[list[int | None]] = [[None] * colours for _ in range(n_left)]
    at_right: list[list[int | None]] = [[None] * colours for _ in range(n_right)]
    colour_of = [-1] * len(edges)
    for e, (u, v) in enumerate(edges):
        a = at_left[u].index(None)
        if at_right[v][a] is not None:
            b = at_right[v].index(None)
            if at_left[u][b] is None:
                a = b
            else:
                _flip(v, a, b, edges, at_left, at_right, colour_of)
        at_left[u][a] = e
        at_right[v][a] = e
        colour_of[e] = a
    return colour_of


def _flip(v: int, a: int, b: int, edges: list[tuple[int, int]], at_left: list[list[int | None]],
          at_right: list[list[int | None]], colour_of: list[int]) -> None:
    """Swap colours a and b along the alternating path from right node v (which has a, lacks b).

    The path cannot reach the left node that lacks a, because the graph is
    bipartite: afterwards a is free at v.
    """
    path: list[int] = []
    node, on_right, want = v, True, a
    while True:
        e = (at_right if on_right else at_left)[node][want]
        if e is None:
            break
        path.append(e)
        u, w = edges[e]
        node, on_right = (u, False) if on_right else (w, True)
        want = b if want == a else a
    for e in path:
        u, w = edges[e]
        at_left[u][colour_of[e]] = None
        at_right[w][colour_of[e]] = None
    for e in path:
        u, w = edges[e]
        colour_of[e] = b if colour_of[e] == a else a
        at_left[u][colour_of[e]] = e
        at_right[w][colour_of[e]] = e


def seat_winds(groups: Sequence[Sequence[Any]], history: Sequence[Sequence[Sequence[Any]]] = ()) -> Round:
    """One round's groups with winds seated to keep the spread over ``history`` + this round smallest.

    >>> seat_winds([(1, 2, 3, 4)], history=[[(1, 2, 3, 4)]])
    ((2, 1, 4, 3),)
    """
    counts = wind_counts(history)
    out = []
    size = len(groups[0]) if groups else TABLE_SIZE
    for group in groups:
        if len(group) != size or size not in TABLE_SIZES:
            raise SeatingError("wrong_table_size", f"a table has {len(group)} players", field="groups")
        out.append(_best_order(tuple(group), counts))
    return tuple(out)  # type: ignore[return-value]


def _best_order(group: tuple[Any, ...], counts: dict[Any, list[int]]) -> tuple[Any, ...]:
    best: tuple[int, int, int] | None = None
    chosen = group
    for perm in _PERMUTATIONS[len(group)]:
        order = tuple(group[i] for i in perm)
        worst = total = squares = 0
        for wind, player in enumerate(order):
            c = list(counts.get(player, [0] * len(group)))
            c[wind] += 1
            spread = max(c) - min(c)
            worst = max(worst, spread)
            total += spread
            squares += sum(x * x for x in c)
        key = (worst, total, squares)
        if best is None or key < best:
            best, chosen = key, order
    return chosen


def rebalance_winds(rounds: Sequence[Sequence[Sequence[Any]]], played: int) -> tuple[Round, ...]:
    """Keep the first ``played`` rounds as they were and reseat the winds of the
    rest one round at a time (for a seating edited after it started)."""
    if not 0 <= played <= len(rounds):
        raise SeatingError("invalid_played", f"played must be between 0 and {len(rounds)}", field="played")
    out: list[Round] = [tuple(tuple(t) for t in r) for r in rounds[:played]]  # type: ignore[misc]
    for rnd in rounds[played:]:
        out.append(seat_winds(rnd, out))
    return tuple(out)
