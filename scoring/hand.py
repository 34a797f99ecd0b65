"""Tile-level hand analysis: tiles in; yaku, han, fu and payment out.

Every reading of the hand is scored and the one that pays most is kept (the
order on equal pay: docs/scoring.md, "Tile analysis: the `hand` op").

>>> from scoring.rules import get_ruleset
>>> hand = Hand.parse("234m678p11s", win="1s", melds=[("pon", "555z"), ("ankan", "0555p")])
>>> result = analyse_hand(get_ruleset("tenhou"), hand, Situation(seat=EAST, round=EAST, dora=(tile_index("4m"),)))
>>> result.han, result.fu, result.payment.ron
(2, 50, 4800)
>>> result.yaku
(('yakuhai_haku', 1), ('aka_dora', 1))

A ron on a shanpon wait counts the completed triplet as open, so this is
toitoi and sanankou, not suuankou:

>>> hand = Hand.parse("111m222p333s44466z", win="4z")
>>> r = analyse_hand(get_ruleset("tenhou"), hand, Situation(seat=SOUTH, round=EAST))
>>> r.yaku, r.han, r.fu
((('toitoi', 2), ('sanankou', 2)), 4, 60)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Any, NamedTuple

from .errors import HandError
from .fu import CHIITOITSU_FU, KANCHAN, PENCHAN, RYANMEN, SET_FU, SHANPON, TANKI, standard_fu
from .payment import Limit, Payment, hand_payment, hand_value, max_yakuman
from .rules import Renhou, Ruleset, UraWithoutRiichi
from .tiles import (
    DORA_AFTER,
    DORA_AFTER_SANMA,
    EAST,
    HAKU,
    NORTH,
    SANMA_MISSING,
    SOUTH,
    WEST,
    YAOCHUU,
    honour_reading,
    parse_tile,
    parse_tiles,
    suit_readings,
    tile_index,
)
from .yaku import YAKU_RANK, YAKUMAN_RANK, chuuren, reading_yaku, suit_summary, tile_yaku

__all__ = [
    "EAST", "SOUTH", "WEST", "NORTH", "MeldKind", "Meld", "Hand", "Situation", "HandResult", "analyse_hand",
    "check_situation", "tile_index",
]

WIND_LETTERS = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
_WIND_KINDS = frozenset(WIND_LETTERS.values())


class MeldKind(enum.StrEnum):
    CHI = "chi"
    PON = "pon"
    KAN = "kan"  # open kan (daiminkan)
    ANKAN = "ankan"  # closed kan
    SHOUMINKAN = "shouminkan"  # added kan: a pon upgraded, open


@dataclass(frozen=True, slots=True)
class Meld:
    """A called or declared group: its kind, its lowest tile and its red fives."""

    kind: MeldKind
    tile: int
    reds: int = 0

    @property
    def opened(self) -> bool:
        return self.kind is not MeldKind.ANKAN

    @property
    def is_kan(self) -> bool:
        return self.kind in (MeldKind.KAN, MeldKind.ANKAN, MeldKind.SHOUMINKAN)

    def kinds(self) -> tuple[int, ...]:
        if self.kind is MeldKind.CHI:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.is_kan else 3)

    @classmethod
    def parse(cls, kind: object, tiles: object, field: str = "melds[0]") -> Meld:
        """``Meld.parse("ankan", "0555p")`` is a closed kan of 5p holding a red five.

        >>> Meld.parse("chi", "546s")
        Meld(kind=<MeldKind.CHI: 'chi'>, tile=21, reds=0)
        >>> Meld.parse("pon", "556m")
        Traceback (most recent call last):
        ...
        scoring.errors.HandError: a pon is three identical tiles, not '556m'
        """
        if type(kind) is str and type(tiles) is str and cls is Meld:
            hit = _known_meld(kind, tiles)
            if hit is not None:
                return hit
        return cls._parse(kind, tiles, field)

    @classmethod
    def _parse(cls, kind: object, tiles: object, field: str) -> Meld:
        try:
            mk = MeldKind(kind)
        except ValueError:
            raise HandError("invalid_meld", f"meld type must be one of chi, pon, kan, ankan, shouminkan, not {kind!r}",
                            field=f"{field}.type") from None
        parsed = parse_tiles(tiles, f"{field}.tiles")
        ks = sorted(parsed.kinds)
        reds = sum(parsed.reds)
        if mk is MeldKind.CHI:
            if len(ks) != 3 or ks[0] >= 27 or ks[0] // 9 != ks[2] // 9 or ks != [ks[0], ks[0] + 1, ks[0] + 2]:
                raise HandError("invalid_meld", f"a chi is three consecutive tiles of one suit, not {tiles!r}",
                                field=f"{field}.tiles")
        elif mk is MeldKind.PON:
            if len(ks) != 3 or ks[0] != ks[2]:
                raise HandError("invalid_meld", f"a pon is three identical tiles, not {tiles!r}", field=f"{field}.tiles")
        elif len(ks) != 4 or ks[0] != ks[3]:
            raise HandError("invalid_meld", f"a {mk} is four identical tiles, not {tiles!r}", field=f"{field}.tiles")
        return cls(mk, ks[0], reds)


_set = object.__setattr__  # how a frozen dataclass sets its own fields

# Reading an enum member off its class costs about 70 ns in Python 3.11, as
# much as the rest of a meld's handling: the analyser uses these names.
_CHI, _PON, _ANKAN = MeldKind.CHI, MeldKind.PON, MeldKind.ANKAN


@lru_cache(maxsize=4096)
def _known_meld(kind: str, tiles: str) -> Meld | None:
    # Meld.parse memoised on its text: the same pons and chis come up hand
    # after hand. None for a bad meld, which Meld.parse then words with its field.
    try:
        return Meld._parse(kind, tiles, "melds[0]")
    except HandError:
        return None


@dataclass(frozen=True, slots=True)
class Hand:
    """The winner's tiles: concealed counts (winning tile included), melds,
    the winning tile, and the red fives among the concealed tiles per suit."""

    counts: tuple[int, ...]
    melds: tuple[Meld, ...]
    win: int
    reds: tuple[int, int, int] = (0, 0, 0)
    win_red: bool = False

    @classmethod
    def parse(cls, tiles: object, *, win: object, melds: Any = ()) -> Hand:
        """Build a hand from notation; melds are ``(type, tiles)`` pairs.
        Checks the tile count and that the winning tile is among the tiles.

        >>> Hand.parse("123m", win="1m")
        Traceback (most recent call last):
        ...
        scoring.errors.HandError: a winning hand has 14 tiles (a kan counts as 3), this one has 3
        >>> Hand.parse("123456789m11222z", win="3z")
        Traceback (most recent call last):
        ...
        scoring.errors.HandError: the winning tile 3z is not among the concealed tiles
        """
        parsed = parse_tiles(tiles, "tiles")
        ms = tuple(Meld.parse(kind, mt, f"melds[{i}]") for i, (kind, mt) in enumerate(melds)) if melds else ()
        win_kind, win_red = parse_tile(win, "win")
        n = len(parsed.kinds) + 3 * len(ms)
        if n != 14 or len(ms) > 4:
            raise HandError("wrong_tile_count",
                            f"a winning hand has 14 tiles (a kan counts as 3), this one has {n}", field="tiles")
        counts = parsed.counts()
        if not counts[win_kind] or (win_red and not parsed.reds[win_kind // 9]):
            raise HandError("win_not_in_hand", f"the winning tile {win} is not among the concealed tiles", field="win")
        return cls(tuple(counts), ms, win_kind, parsed.reds, win_red)


@dataclass(frozen=True, init=False)
class Situation:
    """How the hand was won: tsumo or ron, winds (tile kinds, EAST seat is the
    dealer), the flags of the situational yaku and the dora indicators."""

    tsumo: bool = False
    seat: int = EAST
    round: int = EAST
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora: tuple[int, ...] = ()
    ura: tuple[int, ...] = ()
    indicator_reds: tuple[int, int, int] = (0, 0, 0)
    paarenchan: bool = False  # the dealer's eighth win in a row (a local yakuman)
    sashikomi: bool = False  # a ron on the winner's open riichi by a player not in riichi (a local yakuman)
    kita: int = 0  # North tiles set aside (three players): each a nuki dora

    def __init__(self, tsumo: bool = False, seat: int = EAST, round: int = EAST, riichi: bool = False,
                 double_riichi: bool = False, ippatsu: bool = False, haitei: bool = False, houtei: bool = False,
                 rinshan: bool = False, chankan: bool = False, tenhou: bool = False, chiihou: bool = False,
                 renhou: bool = False, dora: tuple[int, ...] = (), ura: tuple[int, ...] = (),
                 indicator_reds: tuple[int, int, int] = (0, 0, 0), paarenchan: bool = False,
                 sashikomi: bool = False, kita: int = 0) -> None:
        # A frozen dataclass's own __init__ sets each field with a call to
        # object.__setattr__: 2 us for these 16, as much as a seventh of
        # scoring a hand. One new __dict__ costs half. Same fields, defaults
        # and immutability; test_hand checks this signature against the fields.
        _set(self, "__dict__", {
            "tsumo": tsumo, "seat": seat, "round": round, "riichi": riichi, "double_riichi": double_riichi,
            "ippatsu": ippatsu, "haitei": haitei, "houtei": houtei, "rinshan": rinshan, "chankan": chankan,
            "tenhou": tenhou, "chiihou": chiihou, "renhou": renhou, "dora": dora, "ura": ura,
            "indicator_reds": indicator_reds, "paarenchan": paarenchan, "sashikomi": sashikomi, "kita": kita,
        })

    @property
    def dealer(self) -> bool:
        return self.seat == EAST


@dataclass(frozen=True, init=False)
class HandResult:
    """What a hand is worth. ``han`` is 13 x ``yakuman`` for a yakuman hand;
    a counted yakuman keeps its han with ``yakuman`` 0. ``fu`` is the rounded
    sum of ``fu_details`` (25 for seven pairs, 0 for thirteen orphans)."""

    han: int
    fu: int
    yakuman: int
    yaku: tuple[tuple[str, int], ...]
    fu_details: tuple[tuple[str, int], ...]
    payment: Payment = field(repr=False)

    def __init__(self, han: int, fu: int, yakuman: int, yaku: tuple[tuple[str, int], ...],
                 fu_details: tuple[tuple[str, int], ...], payment: Payment) -> None:
        # One __dict__ instead of six object.__setattr__ calls, as for Situation.
        _set(self, "__dict__", {"han": han, "fu": fu, "yakuman": yakuman, "yaku": yaku, "fu_details": fu_details,
                                "payment": payment})

    @property
    def limit(self) -> Limit | None:
        return self.payment.limit

    @property
    def total(self) -> int:
        return self.payment.total


# -- checks ---------------------------------------------------------------


# The rules a situation_conflict breaks, by detail code (docs/scoring.md).
SITUATION_DETAILS = (
    "haitei_on_ron", "houtei_on_tsumo", "rinshan_on_ron", "rinshan_without_kan", "rinshan_not_haitei",
    "chankan_on_tsumo", "chankan_not_houtei", "chankan_tile", "tenhou_not_dealer", "chiihou_dealer",
    "renhou_dealer", "tenhou_on_ron", "chiihou_on_ron", "renhou_on_tsumo", "first_turn_after_call",
    "first_turn_with_others", "paarenchan_not_dealer", "sashikomi_not_riichi_ron",
)


def _conflict(flag: str, message: str, detail: str) -> HandError:
    return HandError("situation_conflict", message, field=flag, detail=detail)


def check_hand(rules: Ruleset, hand: Hand, sit: Situation) -> None:
    """Refuse what cannot happen at a table, with a code and the field at fault.

    >>> from scoring.rules import get_ruleset
    >>> hand = Hand.parse("123m456p789s11z", win="1z", melds=[("pon", "222z")])
    >>> check_hand(get_ruleset("ari-ari"), hand, Situation(riichi=True))
    Traceback (most recent call last):
    ...
    scoring.errors.HandError: riichi needs a closed hand (closed kans are allowed)
    """
    full = list(hand.counts)
    for m in hand.melds:
        for k in m.kinds():
            full[k] += 1
    n_reds = sum(hand.reds) + sum(m.reds for m in hand.melds)
    _check(rules, hand, sit, full, max(full), n_reds, _flagged(sit))


def _reds_by_suit(hand: Hand, sit: Situation) -> list[int]:
    # Red fives per suit: concealed, in melds and showing as indicators.
    reds = list(hand.reds)
    for m in hand.melds:
        if m.reds:
            reds[m.tile // 9] += m.reds
    for i in range(3):
        reds[i] += sit.indicator_reds[i]
    return reds


def _flagged(sit: Situation) -> bool:
    # Whether any situational yaku is claimed: most hands claim none, and
    # then their checks and yaku can all be skipped.
    return (sit.riichi or sit.double_riichi or sit.ippatsu or sit.haitei or sit.houtei or sit.rinshan or sit.chankan
            or sit.renhou or sit.tenhou or sit.chiihou or sit.paarenchan or sit.sashikomi)


def _check(rules: Ruleset, hand: Hand, sit: Situation, full: tuple[int, ...] | list[int], most: int, n_reds: int,
           flagged: bool) -> None:
    # check_hand with the counts of hand and melds already added up, their
    # max(), the red fives of hand and melds counted, and _flagged(sit).
    if sit.kita or rules.players == 3:
        _check_three(rules, hand, sit, full)
    if sit.seat not in _WIND_KINDS:
        raise HandError("invalid_wind", "seat must be a wind", field="seat")
    if sit.round not in _WIND_KINDS:
        raise HandError("invalid_wind", "round must be a wind", field="round")
    if most >= 3 or len(sit.dora) + len(sit.ura) >= 3:
        # A fifth copy, in the hand or with the indicators showing (a hand
        # with two copies needs three indicators of that tile to get there).
        indicators = sit.dora + sit.ura if sit.ura else sit.dora
        fifth = most > 4
        for k in indicators:
            if full[k] + indicators.count(k) > 4:
                fifth = True
        if fifth:
            counts = list(full)
            for k in indicators:
                counts[k] += 1
            k = counts.index(max(counts))
            name = f"{k % 9 + 1}{'mpsz'[k // 9]}"
            raise HandError("too_many_copies", f"{counts[k]} copies of {name}: a set has four", field="tiles")
    indicator_reds = sit.indicator_reds
    n_reds += indicator_reds[0] + indicator_reds[1] + indicator_reds[2]
    if n_reds:
        aka = rules.aka_dora
        if aka == 0:
            raise HandError("too_many_red_fives", "this ruleset plays without red fives", field="tiles")
        per_suit = 2 if aka == 4 else 1
        # One suit can hold too many only when there are more than one suit's share.
        if n_reds > aka or (n_reds > per_suit and max(_reds_by_suit(hand, sit)) > per_suit):
            raise HandError("too_many_red_fives",
                            f"{n_reds} red fives, this ruleset has {aka} ({per_suit} per suit at most)",
                            field="tiles")
    if not (flagged or sit.ura):
        return
    _check_flags(rules, sit, hand, any(m.opened for m in hand.melds))


def check_situation(rules: Ruleset, sit: Situation, *, opened: bool = False) -> None:
    """Refuse what ``sit`` claims that cannot happen, where the tiles are not
    known (a win given by han and fu): riichi on an open hand (``opened``:
    the winner called a tile), ippatsu without riichi, haitei on a ron...
    The same rules ``check_hand`` holds a hand of tiles to, with their codes
    and fields; those that need the tiles (rinshan needs a kan) wait for them.

    >>> from scoring.rules import get_ruleset
    >>> check_situation(get_ruleset("ari-ari"), Situation(ippatsu=True))
    Traceback (most recent call last):
    ...
    scoring.errors.HandError: ippatsu needs riichi or double riichi
    >>> check_situation(get_ruleset("ari-ari"), Situation(riichi=True), opened=True)
    Traceback (most recent call last):
    ...
    scoring.errors.HandError: riichi needs a closed hand (closed kans are allowed)
    >>> check_situation(get_ruleset("ari-ari"), Situation(riichi=True, ippatsu=True, tsumo=True))
    """
    if _flagged(sit) or sit.ura:
        _check_flags(rules, sit, None, opened)


def _check_flags(rules: Ruleset, sit: Situation, hand: Hand | None, opened: bool) -> None:
    # The checks of the situation's flags, for _check and check_situation
    # (``hand`` None: the tiles are not known).
    has_riichi = sit.riichi or sit.double_riichi
    if has_riichi and opened:
        flag = "double_riichi" if sit.double_riichi else "riichi"
        raise HandError("riichi_open_hand", f"{flag.replace('_', ' ')} needs a closed hand (closed kans are allowed)",
                        field=flag)
    if sit.ippatsu and not rules.ippatsu:
        raise HandError("ippatsu_not_allowed", f"the {rules.name} rules have no ippatsu", field="ippatsu")
    if sit.ippatsu and not has_riichi:
        raise HandError("ippatsu_without_riichi", "ippatsu needs riichi or double riichi", field="ippatsu")
    if sit.ura and not has_riichi and rules.ura_without_riichi is UraWithoutRiichi.REFUSED:
        raise HandError("ura_without_riichi", "ura dora count only for a riichi hand", field="ura")
    if sit.renhou and rules.renhou is Renhou.NONE:
        raise HandError("renhou_not_allowed", f"the {rules.name} rules have no renhou", field="renhou")
    if sit.paarenchan or sit.sashikomi:
        _check_local(rules, sit, has_riichi)
    if sit.haitei or sit.houtei or sit.rinshan or sit.chankan:
        _check_last_tile(hand, sit)
    if sit.tenhou or sit.chiihou or sit.renhou:
        for flag, dealer, tsumo in (("tenhou", True, True), ("chiihou", False, True), ("renhou", False, False)):
            if not getattr(sit, flag):
                continue
            if sit.dealer != dealer:
                raise _conflict(flag, f"{flag} is a {'dealer' if dealer else 'non-dealer'} win",
                                "tenhou_not_dealer" if dealer else f"{flag}_dealer")
            if sit.tsumo != tsumo:
                raise _conflict(flag, f"{flag} is won by {'tsumo' if tsumo else 'ron'}",
                                f"{flag}_on_{'ron' if tsumo else 'tsumo'}")
            if hand.melds if hand is not None else opened:
                raise _conflict(flag, f"{flag} is won before any call or kan", "first_turn_after_call")
            if has_riichi or sit.haitei or sit.houtei or sit.rinshan or sit.chankan:
                raise _conflict(flag, f"{flag} is won before any riichi or other situational yaku",
                                "first_turn_with_others")


def _check_three(rules: Ruleset, hand: Hand, sit: Situation, full: tuple[int, ...] | list[int]) -> None:
    # Three players (sanma.md §1, §2): 108 tiles without 2m-8m, no chii, no
    # North seat; kita only there, and never a fifth North with them.
    kita = sit.kita
    if isinstance(kita, bool) or not isinstance(kita, int) or kita < 0:
        raise HandError("invalid_kita", f"kita must be a whole number, 0 or more, not {kita!r}", field="kita")
    if rules.players == 4:
        raise HandError("kita_not_allowed", "kita (North set aside as nuki dora) is three-player mahjong",
                        field="kita")
    if any(full[k] for k in SANMA_MISSING):
        raise HandError("not_in_sanma", "2m-8m are not in the three-player set", field="tiles")
    for key in ("dora", "ura"):
        if any(k in SANMA_MISSING for k in getattr(sit, key)):
            raise HandError("not_in_sanma", "2m-8m are not in the three-player set", field=key)
    for i, m in enumerate(hand.melds):
        if m.kind is MeldKind.CHI:
            raise HandError("chii_not_allowed", "there is no chii with three players", field=f"melds[{i}]")
    if sit.seat == NORTH:
        raise HandError("invalid_wind", "there is no North seat with three players", field="seat")
    if kita and full[NORTH] + kita + (sit.dora + sit.ura).count(NORTH) > 4:
        raise HandError("too_many_copies", f"{full[NORTH] + kita} copies of 4z with {kita} kita: a set has four",
                        field="kita")


def _check_local(rules: Ruleset, sit: Situation, has_riichi: bool) -> None:
    # The checks of the local yakuman flags, for _check.
    for flag in ("paarenchan", "sashikomi"):
        if getattr(sit, flag) and flag not in rules.local_yakuman:
            raise HandError("yakuman_not_allowed", f"the {rules.name} rules have no {flag} (local_yakuman)", field=flag)
    if sit.paarenchan and not sit.dealer:
        raise _conflict("paarenchan", "paarenchan is the dealer's eighth win in a row", "paarenchan_not_dealer")
    if sit.sashikomi and (sit.tsumo or not has_riichi):
        raise _conflict("sashikomi", "sashikomi is a ron on a hand in (open) riichi", "sashikomi_not_riichi_ron")


def _check_last_tile(hand: Hand | None, sit: Situation) -> None:
    # The checks of haitei, houtei, rinshan and chankan, for _check_flags
    # (``hand`` None: those that need the tiles are left out).
    if sit.haitei and not sit.tsumo:
        raise _conflict("haitei", "haitei is a tsumo on the last tile; a ron on the last discard is houtei",
                        "haitei_on_ron")
    if sit.houtei and sit.tsumo:
        raise _conflict("houtei", "houtei is a ron on the last discard; a tsumo on the last tile is haitei",
                        "houtei_on_tsumo")
    if sit.rinshan and not sit.tsumo:
        raise _conflict("rinshan", "rinshan is a tsumo on the replacement tile after a kan", "rinshan_on_ron")
    if sit.rinshan and hand is not None and not sit.kita and not any(m.is_kan for m in hand.melds):
        # A kita (three players) also draws a replacement tile (sanma.md §2).
        raise _conflict("rinshan", "rinshan needs a kan among the melds (or a kita)", "rinshan_without_kan")
    if sit.rinshan and sit.haitei:
        raise _conflict("haitei", "a replacement tile after a kan scores rinshan, never haitei", "rinshan_not_haitei")
    if sit.chankan and sit.tsumo:
        raise _conflict("chankan", "chankan is a ron on a tile added to a kan", "chankan_on_tsumo")
    if sit.chankan and sit.houtei:
        raise _conflict("houtei", "chankan and houtei cannot both happen", "chankan_not_houtei")
    if sit.chankan and hand is not None and (hand.counts[hand.win] != 1
                                             or any(hand.win in m.kinds() for m in hand.melds)):
        raise _conflict("chankan", "on a chankan the other three copies of the winning tile are in the kan",
                        "chankan_tile")


# -- analysis -------------------------------------------------------------


def _kokushi(counts: tuple[int, ...]) -> bool:
    return all(counts[k] for k in YAOCHUU) and sum(counts[k] for k in YAOCHUU) == 14


def _wait(s: int, w: int) -> str:
    if w == s + 1:
        return KANCHAN
    if (w == s + 2 and s % 9 == 0) or (w == s and s % 9 == 6):
        return PENCHAN
    return RYANMEN


class _Part(NamedTuple):
    """One way to read one suit's concealed tiles (or the honours) as sets
    and at most one pair, with what the yaku, the waits and the fu need."""

    pair: int  # kind of the pair, or -1
    n_seqs: int
    n_trips: int
    seqs: int  # mask: bit k for a sequence starting at kind k
    trips: int  # mask: bit k for a triplet of kind k
    peikou: int  # pairs of identical sequences
    trip_kinds: tuple[int, ...]
    sets: tuple[tuple[str, int], ...]  # the fu entries of the triplets, concealed
    waits: tuple[tuple[str, ...], ...]  # by the winning tile's place in the suit: the waits it completes


def _part(base: int, pair: int, seqs: tuple[int, ...], trips: tuple[int, ...]) -> _Part:
    waits = []
    for kind in range(base, base + 9):
        # The order the candidates are tried in: on equal pay the first is kept.
        here = [TANKI] if pair == kind else []
        for s in seqs:
            if s <= kind <= s + 2 and _wait(s, kind) not in here:
                here.append(_wait(s, kind))
        if kind in trips:
            here.append(SHANPON)
        waits.append(tuple(here))
    return _Part(pair, len(seqs), len(trips), sum(1 << s for s in set(seqs)), sum(1 << t for t in trips),
                 sum(seqs.count(s) // 2 for s in set(seqs)), trips, tuple(SET_FU[t, False, True] for t in trips),
                 tuple(waits))


class _Suit(NamedTuple):
    """One suit's concealed tiles (or the honours), read once per count key."""

    bits: int  # yaku.suit_summary of the tiles
    most: int  # most copies of one kind
    pair: bool  # the tiles count 2 mod 3: every reading holds the pair
    parts: tuple[_Part, ...]  # every reading; none when the tiles are not sets (and a pair)


_NO_PART = _part(0, -1, (), ())
# Count key -> _Suit, per suit (man, pin, sou, honours): a hand is four lookups.
_SUITS: tuple[dict[tuple[int, ...], _Suit], ...] = ({}, {}, {}, {})
_MAN, _PIN, _SOU, _HONOUR_SUIT = _SUITS


def _suit(suit: int, key: tuple[int, ...]) -> _Suit:
    # A miss of the _SUITS memo: read the suit and remember it. Bounded: a
    # memo past 20,000 keys (some 12 MB) starts again; the 5,000 benchmark
    # hands hold about 700 per suit.
    if suit == 3:
        reading = honour_reading(key)
        parts = (_part(27, *reading),) if reading else ()
    else:
        parts = tuple(_part(9 * suit, *r) for r in suit_readings(suit, key))
    if not any(key):
        parts = (_NO_PART,)
    memo = _SUITS[suit]
    if len(memo) > 20_000:
        memo.clear()
    memo[key] = entry = _Suit(suit_summary(suit, key), max(key), sum(key) % 3 == 2, parts)
    return entry


# The suit summary bits a called group adds: chi by its lowest kind, pon or kan by its kind.
_CHI_BITS = tuple(suit_summary(k // 9, tuple(int(i - k % 9 in (0, 1, 2)) for i in range(9))) if k < 27 and k % 9 < 7
                  else 0 for k in range(34))
_SET_BITS = tuple(suit_summary(min(k // 9, 3), tuple(int(i == k % 9) for i in range(9 if k < 27 else 7)))
                  for k in range(34))


_PAYMENTS: dict[tuple[int, int, int, int, bool, bool], tuple[Ruleset, Payment]] = {}


def _payment(rules: Ruleset, han: int, fu: int, yakuman: int, dealer: bool, tsumo: bool) -> Payment:
    # hand_payment, memoised: a few hundred distinct answers per ruleset.
    # Keyed on id(rules) because hashing a Ruleset hashes all its fields; the
    # entry keeps the ruleset alive so its id cannot be reused.
    key = (id(rules), han, fu, yakuman, dealer, tsumo)
    hit = _PAYMENTS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    if yakuman:
        payment = hand_payment(rules, yakuman=yakuman, dealer=dealer, tsumo=tsumo)
    else:
        payment = hand_payment(rules, han=han, fu=fu, dealer=dealer, tsumo=tsumo)
    if len(_PAYMENTS) > 100_000:
        _PAYMENTS.clear()
    _PAYMENTS[key] = (rules, payment)
    return payment


_RENHOU_MANGAN = (("renhou", 5),)
_DAISHARIN = (0,) * 9 + (0, 2, 2, 2, 2, 2, 2, 2, 0) + (0,) * 16  # 22334455667788p
_NO_HONOUR_COUNTS = (0,) * 7

# (yaku, han) -> place in the listing; a C-level sort key, cheaper than a lambda.
_RANK = {(name, han): rank for name, rank in YAKU_RANK.items() for han in range(1, 14)}


def _raw_fu(details: tuple[tuple[str, int], ...]) -> int:
    return sum(fu for _, fu in details)


def analyse_hand(rules: Ruleset, hand: Hand, sit: Situation) -> HandResult:
    """Score ``hand`` won in ``sit`` under ``rules``; raises HandError
    (``not_winning``, ``no_yaku`` or a refusal from :func:`check_hand`).

    Seven pairs against ryanpeikou: the ryanpeikou reading pays more.

    >>> from scoring.rules import get_ruleset
    >>> r = analyse_hand(get_ruleset("ari-ari"), Hand.parse("223344m556677p88s", win="7p"), Situation(seat=SOUTH))
    >>> r.yaku, r.fu, r.payment.ron
    ((('pinfu', 1), ('tanyao', 1), ('ryanpeikou', 3)), 30, 8000)
    >>> analyse_hand(get_ruleset("ari-ari"), Hand.parse("123m456p789s11222z", win="2z", melds=()),
    ...              Situation(seat=WEST))
    Traceback (most recent call last):
    ...
    scoring.errors.HandError: the hand is complete but has no yaku (dora are not yaku)

    Three players: two kita with West showing are four dora (each kita is one,
    and a North for the indicator), and a 1m indicator makes 9m the dora.

    >>> sanma = get_ruleset("tenhou-sanma")
    >>> r = analyse_hand(sanma, Hand.parse("123456789p11s777z", win="1p"),
    ...                  Situation(seat=SOUTH, dora=(tile_index("3z"),), kita=2))
    >>> r.yaku, r.payment.ron
    ((('yakuhai_chun', 1), ('ittsuu', 2), ('dora', 4)), 12000)
    >>> analyse_hand(sanma, Hand.parse("99m456p234789s777z", win="4p"),
    ...              Situation(seat=SOUTH, round=SOUTH, dora=(tile_index("1m"),))).yaku
    (('yakuhai_chun', 1), ('dora', 2))
    """
    counts = hand.counts
    melds = hand.melds
    win = hand.win
    tsumo = sit.tsumo
    seat = sit.seat
    round_ = sit.round
    key = counts[0:9]
    man = _MAN.get(key) or _suit(0, key)
    key = counts[9:18]
    pin = _PIN.get(key) or _suit(1, key)
    key = counts[18:27]
    sou = _SOU.get(key) or _suit(2, key)
    honour_counts = counts[27:34]
    hon = _HONOUR_SUIT.get(honour_counts) or _suit(3, honour_counts)
    most = max(man.most, pin.most, sou.most, hon.most)
    closed = True
    n_kans = n_ankan = 0
    reds = hand.reds[0] + hand.reds[1] + hand.reds[2]
    # What the melds add to every reading: sequences and triplets (as masks,
    # as for _Part) and fu sets.
    meld_n_seqs = 0
    meld_seqs = meld_trips = 0
    meld_sets: tuple[tuple[str, int], ...] = ()
    if melds:
        full = list(counts)
        bits = [man.bits, pin.bits, sou.bits, 0]
        sets_l = []
        for meld in melds:
            reds += meld.reds
            t = meld.tile
            kind = meld.kind
            if kind is _CHI:
                meld_n_seqs += 1
                meld_seqs |= 1 << t
                bits[t // 9] |= _CHI_BITS[t]
                full[t] += 1
                full[t + 1] += 1
                full[t + 2] += 1
                most = max(most, full[t], full[t + 1], full[t + 2])
                closed = False
                continue
            kan = kind is not _PON
            meld_trips |= 1 << t
            bits[t // 9] |= _SET_BITS[t]
            sets_l.append(SET_FU[t, kan, kind is _ANKAN])
            full[t] += 4 if kan else 3
            if full[t] > most:
                most = full[t]
            if kan:
                n_kans += 1
            if kind is _ANKAN:
                n_ankan += 1
            else:
                closed = False
        meld_sets = tuple(sets_l)
        if bits[3]:
            honour_counts = tuple(full[27:34])
        summary = (bits[0], bits[1], bits[2], honour_counts)
    else:
        full = counts  # type: ignore[assignment]
        summary = (man.bits, pin.bits, sou.bits, honour_counts)
    flagged = _flagged(sit)
    _check(rules, hand, sit, full, most, reds, flagged)
    double = rules.double_yakuman
    tile_y, tile_ym = tile_yaku(summary, closed, n_kans, seat, round_, rules.open_tanyao, double)

    # Yaku that do not depend on the reading.
    base_yakuman: list[tuple[str, int]] = []
    renhou_mangan = False
    if flagged or (tsumo and closed):
        situational: list[tuple[str, int]] = []
        if sit.double_riichi:
            situational.append(("double_riichi", 2))
        elif sit.riichi:
            situational.append(("riichi", 1))
        if sit.ippatsu:
            situational.append(("ippatsu", 1))
        if sit.haitei:
            situational.append(("haitei", 1))
        if sit.houtei:
            situational.append(("houtei", 1))
        if sit.rinshan:
            situational.append(("rinshan", 1))
        if sit.chankan:
            situational.append(("chankan", 1))
        if sit.renhou:
            if rules.renhou is Renhou.HAN5:
                situational.append(("renhou", 5))
            elif rules.renhou is Renhou.YAKUMAN:
                base_yakuman.append(("renhou", 1))
            renhou_mangan = rules.renhou is Renhou.MANGAN
        if sit.tenhou:
            base_yakuman.append(("tenhou", 1))
        if sit.chiihou:
            base_yakuman.append(("chiihou", 1))
        if sit.sashikomi:
            base_yakuman.append(("sashikomi", 1))
        if tsumo and closed:
            situational.append(("menzen_tsumo", 1))
        base_yaku = (*situational, *tile_y)
    else:
        base_yaku = tile_y
    base_yakuman.extend(tile_ym)
    if not melds and win < 27:
        nine = chuuren(counts, win)
        if nine:
            base_yakuman.append((nine, 2 if double and nine == "junsei_chuuren" else 1))
        elif rules.local_yakuman and counts == _DAISHARIN and "daisharin" in rules.local_yakuman:
            base_yakuman.append(("daisharin", 1))

    # Every complete reading, with the winning tile's place in it:
    # (yaku, yakuman, fu, fu_details). Yaku-less ones are dropped later.
    candidates: list[tuple[tuple[tuple[str, int], ...], list[tuple[str, int]], int, tuple[tuple[str, int], ...]]] = []
    if not melds:
        if 0 not in honour_counts and _kokushi(counts):
            thirteen = counts[win] == 2
            name = "kokushi_13" if thirteen else "kokushi"
            candidates.append(((), base_yakuman + [(name, 2 if thirteen and double else 1)], 0, ()))
        elif counts.count(2) == 7:
            candidates.append((base_yaku + (("chiitoitsu", 2),), base_yakuman, CHIITOITSU_FU,
                               (("chiitoitsu", CHIITOITSU_FU),)))

    complete = False  # a standard reading was found, with or without yaku
    # Four groups and a pair: every suit reads as sets, one of them with the pair.
    if man.parts and pin.parts and sou.parts and hon.parts and man.pair + pin.pair + sou.pair + hon.pair == 1:
        double_wind_fu = rules.double_wind_fu
        pinfu_tsumo_fu = rules.pinfu_tsumo_fu
        open_pinfu_fu = rules.open_pinfu_fu
        honours = summary[3] != _NO_HONOUR_COUNTS
        h = hon.parts[0]  # honours read one way only
        win_suit = win // 9
        win_place = win % 9
        # Sou readings outermost, man innermost: the order readings() lists them in.
        for s, p, m in product(sou.parts, pin.parts, man.parts):
            pair = max(m.pair, p.pair, s.pair, h.pair)  # the one part holding the pair
            n_seqs = m.n_seqs + p.n_seqs + s.n_seqs + meld_n_seqs
            n_trips = m.n_trips + p.n_trips + s.n_trips + h.n_trips
            if base_yakuman:
                r_yaku = ()  # a yakuman hand lists no ordinary yaku
            else:
                r_yaku = base_yaku + reading_yaku(
                    closed, n_seqs, m.seqs | p.seqs | s.seqs | meld_seqs,
                    m.trips | p.trips | s.trips | h.trips | meld_trips, m.peikou + p.peikou + s.peikou, pair, honours)
            for wait in (m, p, s, h)[win_suit].waits[win_place]:
                ron_trip = wait is SHANPON and not tsumo
                ankou = n_trips + n_ankan - ron_trip
                # A pair of dragons, the seat wind or the round wind is worth fu, and so rules out pinfu.
                pinfu = not melds and not n_trips and wait is RYANMEN and pair < HAKU and pair != seat and pair != round_
                yaku = r_yaku
                if pinfu:
                    yaku += (("pinfu", 1),)
                if ankou == 3:
                    yaku += (("sanankou", 2),)
                yakuman = base_yakuman
                if ankou == 4:
                    tanki = wait is TANKI
                    yakuman = base_yakuman + [("suuankou_tanki", 2 if double else 1) if tanki else ("suuankou", 1)]
                complete = True
                if not (yaku or yakuman or renhou_mangan):
                    continue  # scores nothing, so its fu do not matter
                if ron_trip:
                    # A triplet completed by ron counts as open.
                    kinds = m.trip_kinds + p.trip_kinds + s.trip_kinds + h.trip_kinds
                    sets = tuple(SET_FU[t, False, t != win] for t in kinds)
                else:
                    sets = m.sets + p.sets + s.sets + h.sets
                fu, details = standard_fu(sets + meld_sets, pair, wait, tsumo, closed, pinfu, seat, round_,
                                          double_wind_fu, pinfu_tsumo_fu, open_pinfu_fu)
                candidates.append((yaku, yakuman, fu, details))

    if not candidates and not complete:
        raise HandError("not_winning", "the tiles do not make a winning hand", field="tiles")

    dora = 0
    after = DORA_AFTER if rules.players == 4 else DORA_AFTER_SANMA
    kita = sit.kita
    for k in sit.dora:
        dora += full[after[k]]
        if after[k] == NORTH:
            dora += kita  # each kita is a North for the indicators too
    dora += kita  # a kita is one dora by itself (nuki dora), shown with the dora as Tenhou does
    aka = reds if rules.aka_dora else 0
    ura = 0
    if sit.riichi or sit.double_riichi:
        for k in sit.ura:
            ura += full[after[k]]
            if after[k] == NORTH:
                ura += kita
    bonus = dora + aka + ura

    best: tuple[tuple[int, int, int, int], int, int, Sequence[tuple[str, int]], tuple[tuple[str, int], ...]] | None = None
    single = len(candidates) == 1 and not renhou_mangan
    paarenchan = sit.paarenchan
    for yaku, yakuman, fu, details in candidates:
        if paarenchan:
            # A yakuman on top of a hand that has a yaku (or a yakuman) of its own.
            yakuman = [*yakuman, ("paarenchan", 1)]
        if yakuman:
            if rules.yakuman_stacking:
                count = min(max_yakuman(rules), sum(w for _, w in yakuman))
            else:
                chosen = max(yakuman, key=lambda y: y[1])
                yakuman = [chosen]
                count = chosen[1]
            option = ((8000 * count, 1, 13 * count, fu), count, fu, yakuman, details)
            if best is None or option[0] > best[0]:
                best = option
            continue
        if yaku:
            han = bonus
            for _, h in yaku:
                han += h
            key = (0 if single else hand_value(rules, han=han, fu=fu).base, 0, han, fu)
            if best is None or key > best[0] or (key == best[0] and _raw_fu(details) > _raw_fu(best[4])):
                # On the same pay, han and fu, the breakdown with more fu before
                # rounding is the one players (and other calculators) show.
                best = (key, 0, fu, yaku, details)
        if renhou_mangan:
            # Renhou as a mangan that does not add up: it competes with the
            # hand scored without it.
            option = ((2000, 0, 5, fu), 0, fu, _RENHOU_MANGAN, details)
            if best is None or option[0] > best[0]:
                best = option
    if best is None:
        raise HandError("no_yaku", "the hand is complete but has no yaku (dora are not yaku)", field="tiles")

    key, count, fu, yaku, details = best
    if count:
        yaku_out = sorted(((n, 13 * w) for n, w in yaku), key=lambda y: YAKUMAN_RANK[y[0]])
        payment = _payment(rules, 0, 0, count, seat == EAST, tsumo)
        return HandResult(13 * count, fu, count, tuple(yaku_out), details, payment)
    han = key[2]
    yaku_out = sorted(yaku, key=_RANK.__getitem__) if len(yaku) > 1 else list(yaku)
    if not (renhou_mangan and yaku == _RENHOU_MANGAN):
        if dora:
            yaku_out.append(("dora", dora))
        if aka:
            yaku_out.append(("aka_dora", aka))
        if ura:
            yaku_out.append(("ura_dora", ura))
    payment = _payment(rules, han, fu, 0, seat == EAST, tsumo)
    return HandResult(han, fu, 0, tuple(yaku_out), details, payment)
