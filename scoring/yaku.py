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

from .tiles import CHUN, DRAGONS, GREENS, HAKU, HATSU, TERMINALS, WINDS, YAOCHUU

# -- per-hand facts ------------------------------------------------------


class Facts:
    """Tile-level facts about a whole hand (concealed tiles and melds)."""

    __slots__ = ("full", "closed", "n_kans", "seat", "round", "suits", "honours", "yaochuu_only", "simples_only",
                 "terminals_only", "green_only", "dragons", "winds")

    def __init__(self, full: list[int], *, closed: bool, n_kans: int, seat: int, round_: int) -> None:
        self.full = full
        self.closed = closed
        self.n_kans = n_kans
        self.seat = seat
        self.round = round_
        present = [k for k in range(34) if full[k]]
        self.suits = {k // 9 for k in present if k < 27}
        self.honours = any(k >= 27 for k in present)
        self.yaochuu_only = all(k in YAOCHUU for k in present)
        self.simples_only = not any(k in YAOCHUU for k in present)
        self.terminals_only = all(k in TERMINALS for k in present)
        self.green_only = all(k in GREENS for k in present)
        self.dragons = [full[d] for d in DRAGONS]
        self.winds = [full[w] for w in WINDS]


def _chuuren_counts(f: Facts) -> bool:
    if not f.closed or f.n_kans or f.honours or len(f.suits) != 1:
        return False
    b = 9 * next(iter(f.suits))
    c = f.full[b:b + 9]
    return c[0] >= 3 and c[8] >= 3 and all(c[1:8])


# Rows: (id, closed han, open han, predicate). The open han of tanyao is set
# from the ruleset (open tanyao) by the caller, so the table holds 1.
TILE_YAKU: tuple[tuple[str, int, int, Callable[[Facts], bool]], ...] = (
    ("tanyao", 1, 1, lambda f: f.simples_only),
    ("yakuhai_haku", 1, 1, lambda f: f.full[HAKU] >= 3),
    ("yakuhai_hatsu", 1, 1, lambda f: f.full[HATSU] >= 3),
    ("yakuhai_chun", 1, 1, lambda f: f.full[CHUN] >= 3),
    ("yakuhai_seat_wind", 1, 1, lambda f: f.full[f.seat] >= 3),
    ("yakuhai_round_wind", 1, 1, lambda f: f.full[f.round] >= 3),
    ("sankantsu", 2, 2, lambda f: f.n_kans == 3),
    ("honroutou", 2, 2, lambda f: f.yaochuu_only and f.honours and bool(f.suits)),
    ("shousangen", 2, 2, lambda f: sorted(f.dragons) in ([2, 3, 3], [2, 3, 4], [2, 4, 4])),
    ("honitsu", 3, 2, lambda f: f.honours and len(f.suits) == 1),
    ("chinitsu", 6, 5, lambda f: not f.honours and len(f.suits) == 1),
)

# Rows: (id, yakuman under a double-yakuman ruleset, predicate).
TILE_YAKUMAN: tuple[tuple[str, int, Callable[[Facts], bool]], ...] = (
    ("daisangen", 1, lambda f: min(f.dragons) >= 3),
    ("shousuushii", 1, lambda f: sorted(f.winds)[0] == 2 and sorted(f.winds)[1] >= 3),
    ("daisuushii", 2, lambda f: min(f.winds) >= 3),
    ("tsuuiisou", 1, lambda f: not f.suits),
    ("chinroutou", 1, lambda f: f.terminals_only),
    ("ryuuiisou", 1, lambda f: f.green_only),
    ("suukantsu", 1, lambda f: f.n_kans == 4),
    ("chuuren", 1, _chuuren_counts),
)


# -- per-reading facts --------------------------------------------------


class Reading:
    """One split of a standard hand: every sequence (by its lowest kind) and
    triplet or kan (by kind), melds included, and the pair."""

    __slots__ = ("pair", "seqs", "trips")

    def __init__(self, pair: int, seqs: tuple[int, ...], trips: tuple[int, ...]) -> None:
        self.pair = pair
        self.seqs = seqs
        self.trips = trips


def _peikou(r: Reading) -> int:
    s = r.seqs
    if len(s) < 2:
        return 0
    seen: dict[int, int] = {}
    for x in s:
        seen[x] = seen.get(x, 0) + 1
    return sum(n // 2 for n in seen.values())


def _sanshoku(r: Reading) -> bool:
    s = r.seqs
    return len(s) >= 3 and any(n in s and n + 9 in s and n + 18 in s for n in range(7))


def _ittsuu(r: Reading) -> bool:
    s = r.seqs
    return len(s) >= 3 and any(b in s and b + 3 in s and b + 6 in s for b in (0, 9, 18))


def _outside(r: Reading, allowed: frozenset[int]) -> bool:
    # Chanta and junchan need at least one sequence; without one the hand is
    # honroutou or chinroutou instead.
    return (bool(r.seqs) and r.pair in allowed and all(s % 9 in (0, 6) for s in r.seqs)
            and all(t in allowed for t in r.trips))


def _sanshoku_doukou(r: Reading) -> bool:
    t = r.trips
    return len(t) >= 3 and any(n in t and n + 9 in t and n + 18 in t for n in range(9))


_ORPHANS_NO_HONOURS = frozenset(TERMINALS)
_ORPHANS = frozenset(YAOCHUU)

# Rows as TILE_YAKU, over one reading. Iipeikou/ryanpeikou and
# chanta/junchan exclude each other here; pinfu and sanankou depend on the
# wait too and are decided by the caller.
READING_YAKU: tuple[tuple[str, int, int, Callable[[Reading], bool]], ...] = (
    ("iipeikou", 1, 0, lambda r: _peikou(r) == 1),
    ("sanshoku", 2, 1, _sanshoku),
    ("ittsuu", 2, 1, _ittsuu),
    ("chanta", 2, 1, lambda r: _outside(r, _ORPHANS) and not _outside(r, _ORPHANS_NO_HONOURS)),
    ("toitoi", 2, 2, lambda r: not r.seqs),
    ("sanshoku_doukou", 2, 2, _sanshoku_doukou),
    ("ryanpeikou", 3, 0, lambda r: _peikou(r) == 2),
    ("junchan", 3, 2, lambda r: _outside(r, _ORPHANS_NO_HONOURS)),
)

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
