"""Yaku as tables of small predicates.

Two kinds of fact decide a yaku. Some depend only on which tiles the hand
holds (tanyao, honitsu, yakuhai, tsuuiisou...): they are read once per hand
from :class:`Facts`. The rest depend on how the hand is split into groups
(pinfu, iipeikou, sanshoku, chanta, sanankou...): they are read from the
:class:`Shape` of each reading. Each table row is ``(id, closed han, open han, predicate)``;
open han 0 means closed hand only. Yakuman rows carry their weight under a
double-yakuman ruleset instead of han.

>>> from scoring.tiles import parse_tiles
>>> f = Facts(parse_tiles("234567m234567p55s").counts(), closed=True, n_kans=0, seat=27, round_=27)
>>> [row[0] for row in TILE_YAKU if row[3](f)]
['tanyao']
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from .tiles import EAST, HATSU, TERMINALS, YAOCHUU

# -- per-hand facts ------------------------------------------------------


_PRESENT, _TERMINAL, _SIMPLE, _NOT_GREEN = 1, 2, 4, 8
_GREEN_SOU = (False, True, True, True, False, True, False, True, False)  # 2s 3s 4s 6s 8s


@lru_cache(maxsize=65536)
def suit_summary(suit: int, key: tuple[int, ...]) -> int:
    """Bit flags for one suit's 9 counts (or the 7 honours): present,
    terminal, simple, not green. Memoised; the flags of two sets of tiles
    together are the or of their flags."""
    if not any(key):
        return 0
    bits = _PRESENT
    if suit == 3:
        if any(n for i, n in enumerate(key) if i != HATSU - 27):
            bits |= _NOT_GREEN
        return bits
    if key[0] or key[8]:
        bits |= _TERMINAL
    if any(key[1:8]):
        bits |= _SIMPLE
    if suit != 2 or any(n for i, n in enumerate(key) if not _GREEN_SOU[i]):
        bits |= _NOT_GREEN
    return bits


def summarise(full: tuple[int, ...] | list[int]) -> tuple[int, int, int, tuple[int, ...]]:
    """The tile-level key of a hand: flags per suit and the honour counts."""
    return (suit_summary(0, tuple(full[0:9])), suit_summary(1, tuple(full[9:18])),
            suit_summary(2, tuple(full[18:27])), tuple(full[27:34]))


class Facts:
    """Tile-level facts about a whole hand (concealed tiles and melds)."""

    __slots__ = ("closed", "n_kans", "seat", "round", "suits", "honours", "yaochuu_only", "simples_only",
                 "terminals_only", "green_only", "honour_counts", "dragons", "winds")

    def __init__(self, full: tuple[int, ...] | list[int], *, closed: bool, n_kans: int, seat: int,
                 round_: int) -> None:
        self._fill(summarise(full), closed, n_kans, seat, round_)

    @classmethod
    def from_summary(cls, summary: tuple[int, int, int, tuple[int, ...]], closed: bool, n_kans: int, seat: int,
                     round_: int) -> Facts:
        f = cls.__new__(cls)
        f._fill(summary, closed, n_kans, seat, round_)
        return f

    def _fill(self, summary: tuple[int, int, int, tuple[int, ...]], closed: bool, n_kans: int, seat: int,
              round_: int) -> None:
        m, p, s, honour_counts = summary
        z = suit_summary(3, honour_counts)
        self.closed = closed
        self.n_kans = n_kans
        self.seat = seat
        self.round = round_
        self.suits = [i for i, b in enumerate((m, p, s)) if b]
        self.honours = honours = bool(z)
        anyof = m | p | s
        self.yaochuu_only = not anyof & _SIMPLE
        self.simples_only = not (anyof & _TERMINAL) and not honours
        self.terminals_only = self.yaochuu_only and not honours
        self.green_only = not ((anyof | z) & _NOT_GREEN)
        self.honour_counts = honour_counts
        self.dragons = honour_counts[4:7]
        self.winds = honour_counts[0:4]


# Rows: (id, closed han, open han, predicate).
TILE_YAKU: tuple[tuple[str, int, int, Callable[[Facts], bool]], ...] = (
    ("tanyao", 1, 1, lambda f: f.simples_only),
    ("yakuhai_haku", 1, 1, lambda f: f.dragons[0] >= 3),
    ("yakuhai_hatsu", 1, 1, lambda f: f.dragons[1] >= 3),
    ("yakuhai_chun", 1, 1, lambda f: f.dragons[2] >= 3),
    ("yakuhai_seat_wind", 1, 1, lambda f: f.winds[f.seat - EAST] >= 3),
    ("yakuhai_round_wind", 1, 1, lambda f: f.winds[f.round - EAST] >= 3),
    ("sankantsu", 2, 2, lambda f: f.n_kans == 3),
    ("honroutou", 2, 2, lambda f: f.yaochuu_only and f.honours and bool(f.suits)),
    ("shousangen", 2, 2, lambda f: (d := sorted(f.dragons))[0] == 2 and d[1] >= 3),
    ("honitsu", 3, 2, lambda f: f.honours and len(f.suits) == 1),
    ("chinitsu", 6, 5, lambda f: not f.honours and len(f.suits) == 1),
)

# Rows: (id, yakuman under a double-yakuman ruleset, predicate). Chuuren
# needs the counts themselves: see :func:`chuuren`.
TILE_YAKUMAN: tuple[tuple[str, int, Callable[[Facts], bool]], ...] = (
    ("daisangen", 1, lambda f: min(f.dragons) >= 3),
    ("shousuushii", 1, lambda f: (w := sorted(f.winds))[0] == 2 and w[1] >= 3),
    ("daisuushii", 2, lambda f: min(f.winds) >= 3),
    ("tsuuiisou", 1, lambda f: not f.suits),
    ("chinroutou", 1, lambda f: f.terminals_only),
    ("ryuuiisou", 1, lambda f: f.green_only),
    ("suukantsu", 1, lambda f: f.n_kans == 4),
)


@lru_cache(maxsize=65536)
def tile_yaku(summary: tuple[int, int, int, tuple[int, ...]], closed: bool, n_kans: int, seat: int, round_: int,
              open_tanyao: bool, double: bool) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """The tile-level yaku (with han) and yakuman (with weight) of a hand, from
    its :func:`summarise` key. Memoised: many hands share a key.

    >>> from scoring.tiles import parse_tiles
    >>> key = summarise(parse_tiles("111222333444z55z").counts())
    >>> yaku, yakuman = tile_yaku(key, True, 0, 28, 27, True, True)
    >>> yakuman  # the caller drops the ordinary yaku when there is a yakuman
    (('daisuushii', 2), ('tsuuiisou', 1))
    """
    f = Facts.from_summary(summary, closed, n_kans, seat, round_)
    yaku = []
    for name, han_closed, han_open, pred in TILE_YAKU:
        han = han_closed if closed else han_open
        if han and pred(f) and (closed or open_tanyao or name != "tanyao"):
            yaku.append((name, han))
    yakuman = tuple((name, weight if double else 1) for name, weight, pred in TILE_YAKUMAN if pred(f))
    return tuple(yaku), yakuman


def chuuren(counts: tuple[int, ...], win: int) -> str | None:
    """``chuuren``, ``junsei_chuuren`` (the nine-sided wait) or None, for
    the concealed counts of a hand without melds.

    >>> from scoring.tiles import parse_tiles, tile_index
    >>> chuuren(tuple(parse_tiles("11123455678999p").counts()), tile_index("1p"))
    'chuuren'
    >>> chuuren(tuple(parse_tiles("11123455678999p").counts()), tile_index("5p"))
    'junsei_chuuren'
    """
    b = win - win % 9
    if b >= 27:
        return None
    c = counts[b:b + 9]
    if sum(c) != 14 or c[0] < 3 or c[8] < 3 or not all(c[1:8]):
        return None
    rest = list(c)
    rest[win - b] -= 1
    return "junsei_chuuren" if rest == [3, 1, 1, 1, 1, 1, 1, 1, 3] else "chuuren"


# -- per-reading facts --------------------------------------------------


class Shape(NamedTuple):
    """What the reading yaku need to know of one reading, melds included."""

    closed: bool
    n_seqs: int  # sequences; the other groups are triplets or kans
    peikou: int  # pairs of identical sequences
    sanshoku: bool  # one sequence in all three suits
    ittsuu: bool  # 123, 456 and 789 of one suit
    outside: int  # 0; 1 every group and the pair hold a terminal or honour, with a sequence; 2 the same, no honour
    doukou: bool  # one number as a triplet in all three suits


# Rows: (id, closed han, open han, predicate), over the Shape of one reading.
# Iipeikou/ryanpeikou and chanta/junchan exclude each other here; pinfu and
# sanankou depend on the wait too and are decided by the caller.
READING_YAKU: tuple[tuple[str, int, int, Callable[[Shape], bool]], ...] = (
    ("iipeikou", 1, 0, lambda s: s.peikou == 1),
    ("sanshoku", 2, 1, lambda s: s.sanshoku),
    ("ittsuu", 2, 1, lambda s: s.ittsuu),
    ("chanta", 2, 1, lambda s: s.outside == 1),
    ("toitoi", 2, 2, lambda s: s.n_seqs == 0),
    ("sanshoku_doukou", 2, 2, lambda s: s.doukou),
    ("ryanpeikou", 3, 0, lambda s: s.peikou == 2),
    ("junchan", 3, 2, lambda s: s.outside == 2),
)


def _shape_yaku(shape: Shape) -> tuple[tuple[str, int], ...]:
    return tuple((name, han_closed if shape.closed else han_open)
                 for name, han_closed, han_open, pred in READING_YAKU
                 if (han_closed if shape.closed else han_open) and pred(shape))


# Every Shape -> its READING_YAKU with their han: 720 shapes, read from the
# table once, so a reading costs one lookup however many rows there are.
_BY_SHAPE: dict[tuple[bool, int, int, bool, bool, int, bool], tuple[tuple[str, int], ...]] = {
    shape: _shape_yaku(shape)
    for shape in (Shape(*fields) for fields in product((False, True), range(5), range(3), (False, True),
                                                        (False, True), range(3), (False, True)))
}

_ITTSUU = 0b1001001  # sequences from 1, 4 and 7 of one suit, as a mask
_MIDDLE_SEQS = sum(1 << k for k in range(27) if k % 9 in (1, 2, 3, 4, 5))  # sequences without a terminal
_SIMPLES = sum(1 << k for k in range(27) if k not in TERMINALS)


def reading_yaku(closed: bool, n_seqs: int, seqs: int, trips: int, peikou: int, pair: int,
                 honours: bool) -> tuple[tuple[str, int], ...]:
    """The READING_YAKU of one reading, with their han. ``seqs`` and
    ``trips`` are masks with bit k set for a sequence starting at kind k or a
    triplet (or kan) of kind k, melds included; ``honours`` whether the hand
    holds any honour.

    >>> seqs = 1 << 0 | 1 << 9 | 1 << 18  # 123m 123p 123s, and 123m again below
    >>> reading_yaku(True, 4, seqs, 0, 1, 27, True)  # ... with 11z as the pair
    (('iipeikou', 1), ('sanshoku', 2), ('chanta', 2))
    >>> reading_yaku(False, 4, seqs, 0, 1, 27, True)
    (('sanshoku', 1), ('chanta', 1))
    """
    sanshoku = ittsuu = doukou = False
    if n_seqs >= 3:
        # Shifting by a suit lines 1p up with 1m, 1s with 1m: a bit left
        # after the and is a sequence present in all three suits.
        sanshoku = bool(seqs & seqs >> 9 & seqs >> 18)
        ittsuu = (seqs & _ITTSUU == _ITTSUU or seqs >> 9 & _ITTSUU == _ITTSUU
                  or seqs >> 18 & _ITTSUU == _ITTSUU)
    elif n_seqs <= 1:
        # The same for triplets; 0x1FF drops the honours lined up with 1p-7p.
        doukou = bool(trips & trips >> 9 & trips >> 18 & 0x1FF)
    outside = 0
    if n_seqs and pair in YAOCHUU and not (seqs & _MIDDLE_SEQS or trips & _SIMPLES):
        outside = 1 if honours else 2
    # A plain tuple looks up the same entry as the equal Shape, cheaper to build.
    return _BY_SHAPE[closed, n_seqs, peikou, sanshoku, ittsuu, outside, doukou]


# The order yaku are listed in, as the issue names them.
YAKU_ORDER: tuple[str, ...] = (
    "riichi", "double_riichi", "ippatsu", "menzen_tsumo", "pinfu", "iipeikou", "tanyao", "haitei", "houtei",
    "rinshan", "chankan", "yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun", "yakuhai_seat_wind",
    "yakuhai_round_wind", "sanshoku", "ittsuu", "chanta", "chiitoitsu", "toitoi", "sanankou", "sankantsu",
    "sanshoku_doukou", "honroutou", "shousangen", "ryanpeikou", "junchan", "honitsu", "chinitsu", "renhou",
    "dora", "aka_dora", "ura_dora",
)
YAKUMAN_ORDER: tuple[str, ...] = (
    "tenhou", "chiihou", "renhou", "daisangen", "shousuushii", "daisuushii", "tsuuiisou", "chinroutou",
    "ryuuiisou", "suuankou", "suuankou_tanki", "suukantsu", "chuuren", "junsei_chuuren", "kokushi", "kokushi_13",
    "daisharin", "paarenchan", "sashikomi",
)
YAKU_RANK = {y: i for i, y in enumerate(YAKU_ORDER)}
YAKUMAN_RANK = {y: i for i, y in enumerate(YAKUMAN_ORDER)}
