"""Tabu search over groupings of players 0..N-1 into tables of four (or three).

The cost is the repeat count (sum over pairs of max(0, meetings - 1)) plus
``TEAM_WEIGHT`` for every time two teammates share a table. A move swaps two
players of one round who sit at different tables; only players in a costly
pair are moved (the neighbourhood of Dotu & Van Hentenryck). A swap of p and q
in round r is then tabu for a few iterations; a tabu move is still taken when
it beats the best seen (aspiration). After ``STALL`` moves without a new best,
a few random swaps shake the state.

Work is counted in iterations, so a seed and an iteration budget give the same
result on every machine; ``deadline`` (a ``time.monotonic()`` value) is only a
hard cap, checked every 32 iterations. The search stops early at ``target``
(the lower bound: nothing can be better).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

TEAM_WEIGHT = 50
STALL = 300
TENURE = (4, 10)

Grouping = list[list[list[int]]]


@dataclass
class Outcome:
    rounds: Grouping
    cost: int
    iterations: int
    last_improvement: int = 0


def greedy_rounds(n: int, rounds: int, rng: random.Random, start: Grouping | None = None,
                  team_of: list[int] | None = None, table_size: int = 4) -> Grouping:
    """``start`` extended to ``rounds`` rounds, each new table filled with the
    unseated players who have met its members least (ties in a shuffled order)."""
    out = [[list(t) for t in r] for r in (start or [])][:rounds]
    met = [[0] * n for _ in range(n)]
    if team_of is not None:
        for p in range(n):
            for q in range(n):
                if p != q and team_of[p] == team_of[q] and team_of[p] >= 0:
                    met[p][q] = TEAM_WEIGHT
    for rnd in out:
        _count(met, rnd, 1)
    while len(out) < rounds:
        order = list(range(n))
        rng.shuffle(order)
        tables = []
        while order:
            table = [order.pop(0)]
            while len(table) < table_size:
                pick = min(range(len(order)), key=lambda i: sum(met[order[i]][a] for a in table))
                table.append(order.pop(pick))
            tables.append(table)
        _count(met, tables, 1)
        out.append(tables)
    return out


def _count(met: list[list[int]], tables: list[list[int]], step: int) -> None:
    for table in tables:
        for a in table:
            row = met[a]
            for b in table:
                if a != b:
                    row[b] += step


def cost_of(n: int, rounds: Grouping, team_of: list[int] | None = None) -> int:
    met = [[0] * n for _ in range(n)]
    for rnd in rounds:
        _count(met, rnd, 1)
    total = sum(max(0, met[p][q] - 1) for p in range(n) for q in range(p + 1, n))
    if team_of is not None:
        total += TEAM_WEIGHT * sum(
            met[p][q] for p in range(n) for q in range(p + 1, n) if team_of[p] >= 0 and team_of[p] == team_of[q]
        )
    return total


class _Prices:
    """Meeting counts with the price of one more meeting (``one``) and of one
    fewer (``two``) for every pair, kept current on each swap so that pricing
    a move is a few list lookups."""

    def __init__(self, n: int, rounds: Grouping, team_of: list[int] | None) -> None:
        self.met = [[0] * n for _ in range(n)]
        # weight[p][q]: extra cost of every meeting of two teammates
        self.weight = [[0] * n for _ in range(n)]
        if team_of is not None:
            for p in range(n):
                for q in range(n):
                    if p != q and team_of[p] >= 0 and team_of[p] == team_of[q]:
                        self.weight[p][q] = TEAM_WEIGHT
        for rnd in rounds:
            _count(self.met, rnd, 1)
        self.one = [[(m >= 1) + w for m, w in zip(mr, wr, strict=True)] for mr, wr in zip(self.met, self.weight, strict=True)]
        self.two = [[(m >= 2) + w for m, w in zip(mr, wr, strict=True)] for mr, wr in zip(self.met, self.weight, strict=True)]

    def count(self, tables: list[list[int]], step: int) -> None:
        met, weight, one, two = self.met, self.weight, self.one, self.two
        for table in tables:
            for a in table:
                for b in table:
                    if a != b:
                        m = met[a][b] + step
                        met[a][b] = m
                        one[a][b] = (m >= 1) + weight[a][b]
                        two[a][b] = (m >= 2) + weight[a][b]

    def swap(self, tables: list[list[int]], t: int, i: int, u: int, j: int) -> None:
        """Swap seat i of table t with seat j of table u."""
        a, b = tables[t], tables[u]
        self.count([a, b], -1)
        a[i], b[j] = b[j], a[i]
        self.count([a, b], 1)

    def cost(self) -> int:
        met, weight = self.met, self.weight
        n = len(met)
        return sum(max(0, met[p][q] - 1) + weight[p][q] * met[p][q] for p in range(n) for q in range(p + 1, n))


def search(n: int, start: Grouping, *, rng: random.Random, iterations: int, target: int = 0,
           deadline: float | None = None, team_of: list[int] | None = None) -> Outcome:
    """The best grouping found from ``start`` within ``iterations`` moves."""
    rounds = [[list(t) for t in r] for r in start]
    prices = _Prices(n, rounds, team_of)
    cost = prices.cost()
    best_cost, best = cost, [[list(t) for t in r] for r in rounds]
    tabu = [dict[tuple[int, int], int]() for _ in rounds]
    stall = done = improved_at = 0
    lo, hi = TENURE
    while done < iterations and best_cost > target:
        if deadline is not None and done % 32 == 0 and time.monotonic() > deadline:
            break
        done += 1
        move = _best_move(rounds, prices, tabu, done, cost, best_cost, rng)
        if move is None:
            stall = STALL
        else:
            delta, r, t, i, u, j = move
            prices.swap(rounds[r], t, i, u, j)
            p, q = rounds[r][u][j], rounds[r][t][i]
            tabu[r][(min(p, q), max(p, q))] = done + rng.randint(lo, hi)
            cost += delta
            if cost < best_cost:
                best_cost, best, stall = cost, [[list(t) for t in rr] for rr in rounds], 0
                improved_at = done
            else:
                stall += 1
        if stall >= STALL:
            _shake(rounds, prices, rng, max(2, n // 8))
            cost = prices.cost()
            stall = 0
    return Outcome(rounds=best, cost=best_cost, iterations=done, last_improvement=improved_at)


def _best_move(rounds: Grouping, prices: _Prices, tabu: list[dict[tuple[int, int], int]],
               now: int, cost: int, best_cost: int, rng: random.Random) -> tuple[int, int, int, int, int, int] | None:
    """The cheapest allowed swap (delta, round, table, seat, other table, other seat), ties at random.

    Swapping p (table A) with q (table B) changes the cost by
    join(p, B) + join(q, A) - 2 * one(p, q) - leave(p) - leave(q), where join(x, T)
    prices x's meetings with T's players as one more meeting each, leave(x) prices
    the meetings x gives up, and one(p, q) corrects for p and q never sitting together.
    """
    if rounds and rounds[0] and len(rounds[0][0]) != 4:
        return _best_move_any(rounds, prices, tabu, now, cost, best_cost, rng)
    one, two = prices.one, prices.two
    best_delta: int | None = None
    moves: list[tuple[int, int, int, int, int]] = []
    for r, tables in enumerate(rounds):
        leave = {}
        costly = False
        for x0, x1, x2, x3 in tables:
            t0, t1, t2, t3 = two[x0], two[x1], two[x2], two[x3]
            leave[x0] = c0 = t0[x1] + t0[x2] + t0[x3]
            leave[x1] = c1 = t1[x0] + t1[x2] + t1[x3]
            leave[x2] = c2 = t2[x0] + t2[x1] + t2[x3]
            leave[x3] = c3 = t3[x0] + t3[x1] + t3[x2]
            costly = costly or c0 + c1 + c2 + c3 > 0
        if not costly:
            continue
        tab = tabu[r]
        for t, table_a in enumerate(tables):
            movers = [(i, p) for i, p in enumerate(table_a) if leave[p]]
            if not movers:
                continue
            a0, a1, a2, a3 = table_a
            # join_a[q]: what q would pay for sitting with all of table A
            join_a = {}
            for table_b in tables:
                for q in table_b:
                    oq = one[q]
                    join_a[q] = oq[a0] + oq[a1] + oq[a2] + oq[a3]
            for i, p in movers:
                op = one[p]
                base = -leave[p]
                for u, table_b in enumerate(tables):
                    if u == t:
                        continue
                    b0, b1, b2, b3 = table_b
                    join_p = base + op[b0] + op[b1] + op[b2] + op[b3]
                    for j, q in enumerate(table_b):
                        d = join_p + join_a[q] - leave[q] - 2 * op[q]
                        if best_delta is not None and d > best_delta:
                            continue
                        if tab.get((p, q) if p < q else (q, p), 0) > now and cost + d >= best_cost:
                            continue
                        if best_delta is None or d < best_delta:
                            best_delta, moves = d, []
                        moves.append((r, t, i, u, j))
    if best_delta is None:
        return None
    return (best_delta, *rng.choice(moves))


def _best_move_any(rounds: Grouping, prices: _Prices, tabu: list[dict[tuple[int, int], int]],
                   now: int, cost: int, best_cost: int,
                   rng: random.Random) -> tuple[int, int, int, int, int, int] | None:
    """``_best_move`` for any table size (tables of three); the same prices, summed in loops
    where ``_best_move`` spells out the four seats for speed."""
    one, two = prices.one, prices.two
    best_delta: int | None = None
    moves: list[tuple[int, int, int, int, int]] = []
    for r, tables in enumerate(rounds):
        leave = {}
        costly = False
        for table in tables:
            for x in table:
                tx = two[x]
                leave[x] = c = sum(tx[y] for y in table) - tx[x]
                costly = costly or c > 0
        if not costly:
            continue
        tab = tabu[r]
        for t, table_a in enumerate(tables):
            movers = [(i, p) for i, p in enumerate(table_a) if leave[p]]
            if not movers:
                continue
            join_a = {}
            for table_b in tables:
                for q in table_b:
                    oq = one[q]
                    join_a[q] = sum(oq[a] for a in table_a)
            for i, p in movers:
                op = one[p]
                base = -leave[p]
                for u, table_b in enumerate(tables):
                    if u == t:
                        continue
                    join_p = base + sum(op[b] for b in table_b)
                    for j, q in enumerate(table_b):
                        d = join_p + join_a[q] - leave[q] - 2 * op[q]
                        if best_delta is not None and d > best_delta:
                            continue
                        if tab.get((p, q) if p < q else (q, p), 0) > now and cost + d >= best_cost:
                            continue
                        if best_delta is None or d < best_delta:
                            best_delta, moves = d, []
                        moves.append((r, t, i, u, j))
    if best_delta is None:
        return None
    return (best_delta, *rng.choice(moves))


def _shake(rounds: Grouping, prices: _Prices, rng: random.Random, swaps: int) -> None:
    """Random swaps to leave a local minimum."""
    for _ in range(swaps):
        tables = rounds[rng.randrange(len(rounds))]
        if len(tables) < 2:
            continue
        t, u = rng.sample(range(len(tables)), 2)
        prices.swap(tables, t, rng.randrange(len(tables[t])), u, rng.randrange(len(tables[u])))
