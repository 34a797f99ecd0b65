"""Closed-form seatings with no repeat meeting, from finite geometry.

Blocks (tables) of k points, any two points in exactly one block, falling into
parallel classes (rounds): (N - 1)/(k - 1) repeat-free rounds for N players,
the most any seating can have. Tables of four: AG(n, 4) (16, 64, 256 players),
the Hermitian unital in PG(2, 9) (28), a packing of PG(3, 3) (40); of three:
AG(n, 3) (9, 27, 81, 243), and a Kirkman triple system of order 21 and a
nearly Kirkman one of order 18 (every pair at most once, 8 rounds) built from
cyclic base classes. The unital, packing and base classes come from small
deterministic searches. Players are 0..N-1.
docs/seating.md, "The designs".

>>> [len(perfect_rounds(n)) for n in (16, 20, 28, 40, 64)]
[5, 0, 9, 13, 21]
>>> [len(perfect_rounds(n, 3)) for n in (9, 12, 18, 21, 27, 81)]
[4, 0, 8, 10, 13, 40]
"""

from __future__ import annotations

from functools import cache
from itertools import product

# GF(4) = {0, 1, w, w + 1} written 0, 1, 2, 3; addition is XOR, w * w = w + 1.
_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


def affine_rounds(players: int) -> list[list[list[int]]]:
    """Every parallel class of AG(n, 4) when ``players`` is 4^n (n >= 2), else []."""
    n = 0
    size = 1
    while size < players:
        size *= 4
        n += 1
    if size != players or n < 2:
        return []
    points = list(product(range(4), repeat=n))
    index = {p: i for i, p in enumerate(points)}
    rounds = []
    for direction in _directions(n):
        seen: set[int] = set()
        tables = []
        for start in points:
            if index[start] in seen:
                continue
            line = [
                index[tuple(s ^ _MUL[t][d] for s, d in zip(start, direction, strict=True))]
                for t in range(4)
            ]
            seen.update(line)
            tables.append(line)
        rounds.append(tables)
    return rounds


def _directions(n: int) -> list[tuple[int, ...]]:
    """One non-zero vector per direction: the first non-zero coordinate is 1."""
    out = []
    for v in product(range(4), repeat=n):
        nonzero = [x for x in v if x]
        if nonzero and nonzero[0] == 1:
            out.append(v)
    return out


def unital_rounds() -> list[list[list[int]]]:
    """The Hermitian unital of order 3 (28 points), resolved into 9 rounds."""
    # GF(9) = GF(3)[i] / (i^2 + 1); an element a + bi is the pair (a, b).
    field = [(a, b) for a in range(3) for b in range(3)]

    def mul(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
        return ((x[0] * y[0] - x[1] * y[1]) % 3, (x[0] * y[1] + x[1] * y[0]) % 3)

    def total(*xs: tuple[int, int]) -> tuple[int, int]:
        return (sum(x[0] for x in xs) % 3, sum(x[1] for x in xs) % 3)

    def fourth(x: tuple[int, int]) -> tuple[int, int]:
        x2 = mul(x, x)
        return mul(x2, x2)

    projective = [v for v in product(field, repeat=3) if _leading_one(v, (0, 0), (1, 0))]
    curve = [v for v in projective if total(*map(fourth, v)) == (0, 0)]
    blocks = []
    for line in projective:
        on = [k for k, v in enumerate(curve) if total(*(mul(a, b) for a, b in zip(line, v, strict=True))) == (0, 0)]
        if len(on) == 4:
            blocks.append(on)
    return _resolve(len(curve), blocks)


def packing_rounds() -> list[list[list[int]]]:
    """The 130 lines of PG(3, 3) (40 points) packed into 13 spreads."""
    points = [v for v in product(range(3), repeat=4) if _leading_one(v, 0, 1)]
    index = {v: k for k, v in enumerate(points)}

    def normal(v: tuple[int, ...]) -> tuple[int, ...]:
        lead = next(x for x in v if x)
        return tuple(x * lead % 3 for x in v)  # 1 and 2 are their own inverses mod 3

    lines: set[tuple[int, ...]] = set()
    for k, a in enumerate(points):
        for b in points[k + 1:]:
            span = {index[normal(tuple((s * x + t * y) % 3 for x, y in zip(a, b, strict=True)))]
                    for s in range(3) for t in range(3) if s or t}
            lines.add(tuple(sorted(span)))
    return _resolve(len(points), [list(line) for line in sorted(lines)])


def _leading_one(v: tuple, zero: object, one: object) -> bool:
    lead = next((x for x in v if x != zero), None)
    return lead == one


def _resolve(n: int, blocks: list[list[int]], max_nodes: int = 200_000) -> list[list[list[int]]]:
    """Blocks grouped into parallel classes covering every block once, or [] past ``max_nodes``."""
    per_class = n // 4
    by_point: list[list[int]] = [[] for _ in range(n)]
    for k, block in enumerate(blocks):
        for p in block:
            by_point[p].append(k)
    classes: list[tuple[int, ...]] = []

    def parallel(covered: list[bool], chosen: list[int]) -> None:
        if len(chosen) == per_class:
            classes.append(tuple(chosen))
            return
        p = covered.index(False)
        for k in by_point[p]:
            if not any(covered[x] for x in blocks[k]):
                for x in blocks[k]:
                    covered[x] = True
                chosen.append(k)
                parallel(covered, chosen)
                chosen.pop()
                for x in blocks[k]:
                    covered[x] = False

    parallel([False] * n, [])
    # Classes as bit masks over the blocks, so "still open" is one AND.
    masks = [sum(1 << k for k in c) for c in classes]
    by_block: list[list[int]] = [[] for _ in blocks]
    for c, mask in zip(classes, masks, strict=True):
        for k in c:
            by_block[k].append(mask)
    chosen: list[int] = []
    nodes = 0

    def cover(used: int) -> bool:
        nonlocal nodes
        nodes += 1
        if len(chosen) * per_class == len(blocks):
            return True
        if nodes > max_nodes:
            return False
        # the unused block with the fewest classes still open
        options: list[int] | None = None
        for k in range(len(blocks)):
            if not used >> k & 1:
                open_ = [m for m in by_block[k] if not m & used]
                if options is None or len(open_) < len(options):
                    options = open_
                if not open_:
                    return False
        for mask in options or []:
            chosen.append(mask)
            if cover(used | mask):
                return True
            chosen.pop()
        return False

    if not cover(0):
        return []
    return [[list(blocks[k]) for k in range(len(blocks)) if mask >> k & 1] for mask in chosen]


def ternary_rounds(players: int) -> list[list[list[int]]]:
    """Every parallel class of AG(n, 3) when ``players`` is 3^n (n >= 2), else []."""
    n = 0
    size = 1
    while size < players:
        size *= 3
        n += 1
    if size != players or n < 2:
        return []
    points = list(product(range(3), repeat=n))
    index = {p: i for i, p in enumerate(points)}
    # One direction per line through the origin: the nonzero vectors whose first nonzero entry is 1.
    directions = [d for d in points if _leading_one(d, 0, 1)]
    rounds = []
    for direction in directions:
        seen: set[int] = set()
        tables = []
        for start in points:
            if index[start] in seen:
                continue
            line = [index[tuple((s + t * d) % 3 for s, d in zip(start, direction, strict=True))] for t in range(3)]
            seen.update(line)
            tables.append(line)
        rounds.append(tables)
    return rounds


# Players -> (m, levels, fixed points, transversal classes, base classes) for
# ``cyclic_rounds``: KTS(21) on Z_7 x 3 (7 developed rounds + 3 fixed by the
# shift), NKTS(18) on Z_4 x 4 + 2 (two base classes, 4 rounds each; the pairs
# left unmet are the two fixed points and x, x + 2 on each level).
_CYCLIC = {21: (7, 3, 0, 3, 1), 18: (4, 4, 2, 0, 2)}


def cyclic_rounds(players: int) -> list[list[list[int]]]:
    """A Kirkman triple system of 21 (10 rounds) or a nearly Kirkman one of 18 (8 rounds), else [].

    Points are (x, level) with x in Z_m, numbered level * m + x, plus fixed
    points after them; the shift x -> x + 1 fixes the fixed points. A pair's
    orbit under the shift is its "difference". A base class is a partition of
    the points into triples whose pairs have distinct differences, each with a
    full orbit of m pairs, and no difference used by another class: its m
    shifts are then m rounds in which no pair meets twice. A transversal class
    is the orbit of one triple with a point on each of three levels, itself a
    round. A backtracking search (deterministic, a fraction of a second) finds
    the classes.
    """
    if players not in _CYCLIC:
        return []
    m, levels, fixed, transversals, bases = _CYCLIC[players]
    n = m * levels + fixed

    def shift(p: int, s: int) -> int:
        return p if p >= m * levels else p - p % m + (p + s) % m

    difference: dict[tuple[int, int], tuple[int, int]] = {}
    full: set[tuple[int, int]] = set()
    for p in range(n):
        for q in range(p + 1, n):
            images = {(min(shift(p, s), shift(q, s)), max(shift(p, s), shift(q, s))) for s in range(m)}
            difference[p, q] = min(images)
            if len(images) == m:
                full.add(min(images))

    def differences(t: tuple[int, int, int]) -> tuple[tuple[int, int], ...] | None:
        a, b, c = sorted(t)
        out = (difference[a, b], difference[a, c], difference[b, c])
        return out if len(set(out)) == 3 and all(d in full for d in out) else None

    # Per smallest point, the triples through it with distinct full differences.
    triples: list[list[tuple[int, int, tuple[tuple[int, int], ...]]]] = [[] for _ in range(n)]
    for p in range(n):
        for q in range(p + 1, n):
            for r in range(q + 1, n):
                ds = differences((p, q, r))
                if ds is not None:
                    triples[p].append((q, r, ds))
    used: set[tuple[int, int]] = set()
    classes: list[list[tuple[int, int, int]]] = []
    orbits: list[tuple[int, int, int]] = []

    def pick_class(covered: list[bool], tables: list[tuple[int, int, int]]) -> bool:
        if len(tables) * 3 == n:
            classes.append(list(tables))
            if len(classes) == bases or pick_class([False] * n, []):
                return True
            classes.pop()
            return False
        p = covered.index(False)
        covered[p] = True
        for q, r, ds in triples[p]:
            if covered[q] or covered[r] or used.intersection(ds):
                continue
            covered[q] = covered[r] = True
            used.update(ds)
            tables.append((p, q, r))
            if pick_class(covered, tables):
                return True
            tables.pop()
            used.difference_update(ds)
            covered[q] = covered[r] = False
        covered[p] = False
        return False

    def pick_transversal(start: int) -> bool:
        if len(orbits) == transversals:
            return pick_class([False] * n, [])
        for k in range(start, m * m):
            t = (0, m + k // m, 2 * m + k % m)
            ds = differences(t)
            if ds is None or used.intersection(ds):
                continue
            used.update(ds)
            orbits.append(t)
            if pick_transversal(k + 1):
                return True
            orbits.pop()
            used.difference_update(ds)
        return False

    if not pick_transversal(0):
        return []
    rounds = [[[shift(p, s) for p in t] for t in c] for c in classes for s in range(m)]
    rounds += [[[shift(p, s) for p in t] for s in range(m)] for t in orbits]
    return rounds


@cache
def perfect_rounds(players: int, table_size: int = 4) -> list[list[list[int]]]:
    """The longest repeat-free seating this module can build for ``players`` at tables of ``table_size``, or [].

    Cached: the result is read-only for callers (they copy what they use).
    """
    if table_size == 3:
        return cyclic_rounds(players) or ternary_rounds(players)
    if table_size != 4:
        return []
    if players == 28:
        return unital_rounds()
    if players == 40:
        return packing_rounds()
    return affine_rounds(players)
