"""Closed-form seatings with no repeat meeting, from finite geometry.

Blocks (tables) of k points, any two points in exactly one block, falling into
parallel classes (rounds): (N - 1)/(k - 1) repeat-free rounds for N players,
the most any seating can have. Tables of four: AG(n, 4) (16, 64, 256 players),
the Hermitian unital in PG(2, 9) (28), a packing of PG(3, 3) (40); of three:
AG(n, 3) (9, 27, 81, 243). The unital and packing come from a small
deterministic exact-cover search under a node cap. Players are 0..N-1.
docs/seating.md, "The designs".

>>> [len(perfect_rounds(n)) for n in (16, 20, 28, 40, 64)]
[5, 0, 9, 13, 21]
>>> [len(perfect_rounds(n, 3)) for n in (9, 12, 27, 81)]
[4, 0, 13, 40]
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


@cache
def perfect_rounds(players: int, table_size: int = 4) -> list[list[list[int]]]:
    """The longest repeat-free seating this module can build for ``players`` at tables of ``table_size``, or [].

    Cached: the result is read-only for callers (they copy what they use).
    """
    if table_size == 3:
        return ternary_rounds(players)
    if table_size != 4:
        return []
    if players == 28:
        return unital_rounds()
    if players == 40:
        return packing_rounds()
    return affine_rounds(players)
