"""Tiles as integers, the mpsz notation, dora indicators and decompositions.

A tile kind is an index 0-33: 1m-9m are 0-8, 1p-9p 9-17, 1s-9s 18-26 and the
honours 1z-7z (East, South, West, North, White, Green, Red) are 27-33. A hand
is a list of 34 counts. A red five is an ordinary five whose colour is
tracked apart, as a count per suit.

>>> parse_tiles("123m406p11z")
Tiles(kinds=(0, 1, 2, 12, 13, 14, 27, 27), reds=(0, 1, 0))
>>> tile_name(DORA_AFTER[tile_index("9p")]), tile_name(DORA_AFTER[tile_index("4z")])
('1p', '1z')
>>> [[tile_name(s) for s in r.seqs] for r in suit_readings(0, (1, 1, 2, 1, 1, 0, 0, 0, 0))]
[['1m', '3m']]
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .errors import HandError

SUITS = "mpsz"
N_KINDS = 34
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (HAKU, HATSU, CHUN)
FIVES = (4, 13, 22)

TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
HONOURS = frozenset(range(27, 34))
YAOCHUU = TERMINALS | HONOURS  # "orphans": terminals and honours
# 2s 3s 4s 6s 8s and Green dragon: the tiles of ryuuiisou.
GREENS = frozenset((19, 20, 21, 23, 25, HATSU))


def _next_kind(kind: int) -> int:
    # Indicators wrap inside their family: 9 -> 1, North -> East, Red -> White.
    if kind < 27:
        return kind - 8 if kind % 9 == 8 else kind + 1
    if kind < 31:
        return EAST if kind == NORTH else kind + 1
    return HAKU if kind == CHUN else kind + 1


DORA_AFTER: tuple[int, ...] = tuple(_next_kind(k) for k in range(N_KINDS))
# Three players play without 2m-8m, so a 1m indicator makes 9m the dora
# (9m still makes 1m): sanma.md §1 [MJST][RW][MJSW].
SANMA_MISSING = frozenset(range(1, 8))
DORA_AFTER_SANMA: tuple[int, ...] = (8, *DORA_AFTER[1:])


def tile_name(kind: int) -> str:
    """``tile_name(27) == '1z'``."""
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def format_counts(counts: list[int] | tuple[int, ...], reds: tuple[int, int, int] = (0, 0, 0)) -> str:
    """Counts back to notation, red fives written as 0.

    >>> format_counts(parse_tiles("0556m77z").counts(), (1, 0, 0))
    '0556m77z'
    """
    out = []
    for suit in range(4):
        digits = []
        for i in range(9 if suit < 3 else 7):
            n = counts[suit * 9 + i]
            if suit < 3 and i == 4 and reds[suit]:
                digits.append("0" * min(reds[suit], n) + "5" * max(0, n - reds[suit]))
            else:
                digits.append(str(i + 1) * n)
        text = "".join(digits)
        if text:
            out.append(text + SUITS[suit])
    return "".join(out)


class Tiles(NamedTuple):
    """Parsed tiles: kinds in notation order and the red fives per suit."""

    kinds: tuple[int, ...]
    reds: tuple[int, int, int]

    def counts(self) -> list[int]:
        counts = [0] * N_KINDS
        for k in self.kinds:
            counts[k] += 1
        return counts


def parse_tiles(text: object, field: str = "tiles") -> Tiles:
    """Parse ``123m406p789s1122z``; ``0`` is a red five, honours are 1z-7z.

    >>> parse_tiles("7z 0s").kinds
    (33, 22)
    >>> parse_tiles("18z")
    Traceback (most recent call last):
    ...
    scoring.errors.HandError: '8z' is not a tile: honours are 1z-7z
    >>> parse_tiles("123")
    Traceback (most recent call last):
    ...
    scoring.errors.HandError: '123' has digits with no suit letter after them (m, p, s or z)
    """
    if type(text) is str:
        fast = _parse_runs(text)
        if fast is not None:
            return fast
    return _parse_slowly(text, field)


def _parse_runs(text: str) -> Tiles | None:
    # The common case: runs of digits, each closed by a lower-case suit
    # letter. Each run is read through a memo (runs like "234" + "m" recur
    # from hand to hand); anything else (spaces, capitals, a bad digit) is
    # left to _parse_slowly, which also words the errors.
    runs = _RUNS.findall(text)
    kinds: list[int] = []
    reds = [0, 0, 0]
    for digits, suit in runs:
        run = _run(digits, suit)
        if run is None:
            return None
        kinds += run[0]
        if run[1]:
            reds[_SUIT_BASE[suit] // 9] += run[1]
    # One kind per digit and one letter per run: equal to the length only
    # when the runs cover the whole text.
    if len(kinds) + len(runs) != len(text):
        return None
    return Tiles(tuple(kinds), (reds[0], reds[1], reds[2]))


_RUNS = re.compile(r"([0-9]*)([mpsz])")
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}


@lru_cache(maxsize=4096)
def _run(digits: str, suit: str) -> tuple[tuple[int, ...], int] | None:
    # The kinds and red fives of one run of digits in one suit, or None.
    if not digits or not digits.isdigit() or not digits.isascii():
        return None
    base = _SUIT_BASE[suit]
    if base == 27:
        if "0" in digits or "8" in digits or "9" in digits:
            return None
        return tuple(base + int(d) - 1 for d in digits), 0
    return tuple(base + (4 if d == "0" else int(d) - 1) for d in digits), digits.count("0")


def _parse_slowly(text: object, field: str) -> Tiles:
    if not isinstance(text, str):
        raise HandError("invalid_tile", f"tiles must be a string like '123m55z', not {text!r}", field=field)
    kinds: list[int] = []
    reds = [0, 0, 0]
    pending: list[int] = []
    for ch in text:
        if ch.isspace():
            continue
        if "0" <= ch <= "9":
            pending.append(ord(ch) - 48)
            continue
        suit = SUITS.find(ch.lower()) if ch.isascii() and ch.isalpha() else -1
        if suit < 0:
            raise HandError("invalid_tile", f"{ch!r} in {text!r} is not a digit or a suit letter (m, p, s, z)", field=field)
        if not pending:
            raise HandError("invalid_tile", f"suit letter {ch!r} in {text!r} has no digits before it", field=field)
        for d in pending:
            if suit == 3:
                if not 1 <= d <= 7:
                    raise HandError("invalid_tile", f"'{d}z' is not a tile: honours are 1z-7z", field=field)
                kinds.append(27 + d - 1)
            elif d == 0:
                reds[suit] += 1
                kinds.append(suit * 9 + 4)
            else:
                kinds.append(suit * 9 + d - 1)
        pending = []
    if pending:
        raise HandError("invalid_tile", f"{text!r} has digits with no suit letter after them (m, p, s or z)", field=field)
    return Tiles(tuple(kinds), (reds[0], reds[1], reds[2]))


def parse_tile(text: object, field: str) -> tuple[int, bool]:
    """One tile: its kind and whether it is a red five.

    >>> parse_tile("0p", "win")
    (13, True)
    """
    if type(text) is str:
        hit = _ONE_TILE.get(text)
        if hit is not None:
            return hit
    tiles = parse_tiles(text, field)
    if len(tiles.kinds) != 1:
        raise HandError("invalid_tile", f"{field} must be exactly one tile, not {text!r}", field=field)
    return tiles.kinds[0], any(tiles.reds)


# Every tile written the usual way ("1m", "0p", "7z") -> (kind, red).
_ONE_TILE: dict[str, tuple[int, bool]] = {
    **{tile_name(k): (k, False) for k in range(N_KINDS)},
    **{f"0{SUITS[five // 9]}": (five, True) for five in FIVES},
}


def tile_index(text: str) -> int:
    """``tile_index("5z") == 31`` (White)."""
    return parse_tile(text, "tile")[0]


# -- decompositions -----------------------------------------------------


class SuitReading(NamedTuple):
    pair: int  # kind of the pair, or -1
    seqs: tuple[int, ...]  # lowest kind of each sequence
    trips: tuple[int, ...]  # kind of each triplet


def _split(c: list[int], start: int, pair: int, seqs: list[int], trips: list[int], out: list[SuitReading],
           need_pair: bool) -> None:
    i = start
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        if (pair >= 0) == need_pair:
            out.append(SuitReading(pair, tuple(seqs), tuple(trips)))
        return
    if c[i] >= 3:
        c[i] -= 3
        trips.append(i)
        _split(c, i, pair, seqs, trips, out, need_pair)
        trips.pop()
        c[i] += 3
    if need_pair and pair < 0 and c[i] >= 2:
        c[i] -= 2
        _split(c, i, i, seqs, trips, out, need_pair)
        c[i] += 2
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        seqs.append(i)
        _split(c, i, pair, seqs, trips, out, need_pair)
        seqs.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


@lru_cache(maxsize=65536)
def suit_readings(suit: int, counts: tuple[int, ...]) -> tuple[SuitReading, ...]:
    """Every way to split one suit's 9 counts into sets (and one pair when the
    count is 2 mod 3); kinds are absolute. Memoised on the count tuple, which
    is what makes whole-hand analysis cheap: most suits recur.

    >>> suit_readings(2, (3, 1, 1, 1, 1, 1, 1, 1, 3))  # 13 tiles: never complete
    ()
    >>> len(suit_readings(0, (3, 3, 3, 0, 0, 0, 0, 0, 0)))  # 111222333m: triplets or sequences
    2
    """
    total = sum(counts)
    if total % 3 == 1:
        return ()
    raw: list[SuitReading] = []
    _split(list(counts), 0, -1, [], [], raw, total % 3 == 2)
    base = suit * 9
    out = {
        SuitReading(r.pair + base if r.pair >= 0 else -1, tuple(sorted(s + base for s in r.seqs)),
                    tuple(sorted(t + base for t in r.trips)))
        for r in raw
    }
    return tuple(sorted(out))


@lru_cache(maxsize=1024)
def honour_reading(key: tuple[int, ...]) -> SuitReading | None:
    # Honours make no sequences: each kind is a triplet, the pair, or nothing.
    pair = -1
    trips = []
    for i, n in enumerate(key):
        if n == 3:
            trips.append(27 + i)
        elif n == 2 and pair < 0:
            pair = 27 + i
        elif n:
            return None
    return SuitReading(pair, (), tuple(trips))


def standard_readings(counts: tuple[int, ...] | list[int]) -> list[SuitReading]:
    """Every four-groups-and-a-pair reading of the concealed counts (whatever
    the number of sets, so open hands work), as (pair, seqs, trips).

    >>> len(standard_readings(parse_tiles("111222333m789p55s").counts()))
    2
    >>> standard_readings(parse_tiles("1112345678999m").counts())
    []
    """
    return [SuitReading(*r) for r in readings(tuple(counts))]


def readings(counts: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """:func:`standard_readings` as plain ``(pair, seqs, trips)`` tuples;
    groups come out in tile order. (The analyser reads the same splits per
    suit, in the same order, from its own memo: see ``hand._suit``.)

    >>> readings(tuple(parse_tiles("123m456p789s11555z").counts()))
    [(27, (0, 12, 24), (31,))]
    """
    honour_counts = counts[27:34]
    if honour_counts == _NO_HONOUR_COUNTS:
        pair, seqs, trips = -1, (), ()
    else:
        honours = honour_reading(honour_counts)
        if honours is None:
            return []
        pair, seqs, trips = honours
    found: list[tuple[int, tuple[int, ...], tuple[int, ...]]] | None = None
    # Suits from s down to m, each put in front, so groups come out in tile order.
    for suit in (2, 1, 0):
        b = suit * 9
        key = counts[b:b + 9]
        if key == _EMPTY_SUIT:
            continue
        rs = suit_readings(suit, key)
        if not rs:
            return []
        if found is None and len(rs) == 1:
            # The usual case: one way to read each suit so far.
            r_pair, r_seqs, r_trips = rs[0]
            if r_pair >= 0:
                if pair >= 0:
                    return []
                pair = r_pair
            seqs = r_seqs + seqs
            trips = r_trips + trips
            continue
        if found is None:
            found = [(pair, seqs, trips)]
        nxt = []
        for acc_pair, acc_seqs, acc_trips in found:
            for r_pair, r_seqs, r_trips in rs:
                if r_pair >= 0 and acc_pair >= 0:
                    continue
                nxt.append((acc_pair if acc_pair >= 0 else r_pair, r_seqs + acc_seqs, r_trips + acc_trips))
        found = nxt
    if found is None:
        return [(pair, seqs, trips)] if pair >= 0 else []
    return [r for r in found if r[0] >= 0]


_EMPTY_SUIT = (0,) * 9
_NO_HONOUR_COUNTS = (0,) * 7
_NO_HONOURS = SuitReading(-1, (), ())
