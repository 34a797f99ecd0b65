"""Yaku as tables of small predicates.

Two kinds of fact decide a yaku. Some depend only on which tiles the hand
holds (tanyao, honitsu, yakuhai, tsuuiisou...): they are read once per hand
from :class:`Facts`. The rest depend on how the hand is split into groups
(pinfu, iipeikou, sanshoku, chanta, sanankou...): they are read per
:class:`Reading`. Each table row is ``(id, closed han, open han, predicate)``;
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

from .tiles import EAST, HATSU, YAOCHUU

# -- per-hand facts ------------------------------------------------------


_PRESENT, _TERMINAL, _SIMPLE, _NOT_GREEN = 1, 2, 4, 8
_GREEN_SOU = (False, True, True, True, False, True, False, True, False)  # 2s 3s 4s 6s 8s


@lru_cache(maxsize=65536)
def _suit_summary(suit: int, key: tuple[int, ...]) -> int:
    """Bit flags for one suit's 9 counts (or the 7 honours): present,
    terminal, simple, not green. Memoised: a hand is four of these lookups."""
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
    return (_suit_summary(0, tuple(full[0:9])), _suit_summary(1, tuple(full[9:18])),
            _suit_summary(2, tuple(full[18:27])), tuple(full[27:34]))


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
        z = _suit_summary(3, honour_counts)
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


class Reading:
    """One split of a standard hand: every sequence (by its lowest kind) and
    triplet or kan (by kind), melds included, and the pair."""

    __slots__ = ("pair", "seqs", "trips", "_outside")

    def __init__(self, pair: int, seqs: tuple[int, ...], trips: tuple[int, ...]) -> None:
        self.pair = pair
        self.seqs = seqs
        self.trips = trips
        self._outside = -1

    @property
    def outside(self) -> int:
        """0: some group has no terminal or honour; 1: every group has one
        (chanta shape); 2: every group has a terminal (junchan shape). Both
        shapes need a sequence, or the hand is honroutou or chinroutou."""
        if self._outside < 0:
            self._outside = _outside_kind(self)
        return self._outside


def _peikou(r: Reading) -> int:
    s = r.seqs
    if len(s) < 2 or len(set(s)) == len(s):
        return 0
    seen: dict[int, int] = {}
    for x in s:
        seen[x] = seen.get(x, 0) + 1
    return sum(n // 2 for n in seen.values())


def _sanshoku(r: Reading) -> bool:
    s = r.seqs
    if len(s) < 3:
        return False
    for n in s:
        if n < 7 and n + 9 in s and n + 18 in s:
            return True
    return False


def _ittsuu(r: Reading) -> bool:
    s = r.seqs
    if len(s) < 3:
        return False
    for n in s:
        if n % 9 == 0 and n + 3 in s and n + 6 in s:
            return True
    return False


def _outside_kind(r: Reading) -> int:
    if not r.seqs:
        return 0
    for x in r.seqs:
        if x % 9 not in (0, 6):
            return 0
    if r.pair not in YAOCHUU:
        return 0
    for t in r.trips:
        if t not in YAOCHUU:
            return 0
    if r.pair >= 27:
        return 1
    for t in r.trips:
        if t >= 27:
            return 1
    return 2


def _sanshoku_doukou(r: Reading) -> bool:
    t = r.trips
    if len(t) < 3:
        return False
    for n in t:
        if n < 9 and n + 9 in t and n + 18 in t:
            return True
    return False



# Rows: (id, closed han, open han, fewest sequences, most sequences, fewest
# triplets, predicate), over one reading. The sequence and triplet bounds let
# the caller skip a predicate that cannot hold. Iipeikou/ryanpeikou and
# chanta/junchan exclude each other here; pinfu and sanankou depend on the
# wait too and are decided by the caller.
READING_YAKU: tuple[tuple[str, int, int, int, int, int, Callable[[Reading], bool]], ...] = (
    ("iipeikou", 1, 0, 2, 4, 0, lambda r: _peikou(r) == 1),
    ("sanshoku", 2, 1, 3, 4, 0, _sanshoku),
    ("ittsuu", 2, 1, 3, 4, 0, _ittsuu),
    ("chanta", 2, 1, 1, 4, 0, lambda r: r.outside == 1),
    ("toitoi", 2, 2, 0, 0, 0, lambda r: True),
    ("sanshoku_doukou", 2, 2, 0, 1, 3, _sanshoku_doukou),
    ("ryanpeikou", 3, 0, 4, 4, 0, lambda r: _peikou(r) == 2),
    ("junchan", 3, 2, 1, 4, 0, lambda r: r.outside == 2),
)



def _rows_for(closed: bool, n_seqs: int) -> tuple[tuple[str, int, Callable[[Reading], bool]], ...]:
    # A standard reading has four groups, so the triplets are 4 - n_seqs.
    rows = []
    for name, han_closed, han_open, least, most, least_trips, pred in READING_YAKU:
        han = han_closed if closed else han_open
        if han and least <= n_seqs <= most and 4 - n_seqs >= least_trips:
            rows.append((name, han, pred))
    return tuple(rows)


# (closed, number of sequences) -> the READING_YAKU rows that can hold, with their han.
_ROWS = {(closed, n): _rows_for(closed, n) for closed in (False, True) for n in range(5)}


def reading_yaku(pair: int, seqs: tuple[int, ...], trips: tuple[int, ...], closed: bool) -> list[tuple[str, int]]:
    """The READING_YAKU of one reading (melds included), with their han.

    >>> reading_yaku(27, (0, 0, 9, 18), (), True)  # 123m 123m 123p 123s 11z
    [('iipeikou', 1), ('sanshoku', 2), ('chanta', 2)]
    >>> reading_yaku(27, (0, 0, 9, 18), (), False)
    [('sanshoku', 1), ('chanta', 1)]
    """
    rows = _ROWS[closed, len(seqs)]
    if not rows:
        return []
    r = Reading(pair, seqs, trips)
    return [(name, han) for name, han, pred in rows if pred(r)]


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
)
YAKU_RANK = {y: i for i, y in enumerate(YAKU_ORDER)}
YAKUMAN_RANK = {y: i for i, y in enumerate(YAKUMAN_ORDER)}
