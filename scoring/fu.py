"""Fu: the minipoints of a four-groups-and-a-pair hand, with their reasons.

Base 20, +10 closed ron, +2 tsumo (a pinfu tsumo is 20 flat); triplets 2, doubled
concealed, doubled again for terminals and honours, a kan four times its triplet; a
valued pair 2 (double wind: ``double_wind_fu``); kanchan, penchan, tanki 2; an open
hand with only the base +2. Rounded up to 10; seven pairs 25. docs/scoring.md.

>>> from scoring.tiles import tile_index
>>> fu, details = standard_fu([SET_FU[tile_index("1z"), False, True]], tile_index("5p"), KANCHAN,
...                           False, True, False, 27, 27, 4)  # ron, closed, not pinfu, winds, double-wind fu
>>> fu, details
(40, (('base', 20), ('menzen_ron', 10), ('closed_terminal_triplet', 8), ('kanchan', 2)))
>>> standard_fu([], tile_index("2m"), RYANMEN, False, False, False, 27, 27, 4)[0]  # open pinfu: 20 + 2, rounded up
30
"""

from __future__ import annotations

from .tiles import DRAGONS, YAOCHUU

RYANMEN = "ryanmen"
KANCHAN = "kanchan"
PENCHAN = "penchan"
TANKI = "tanki"
SHANPON = "shanpon"
WAIT_FU = {RYANMEN: 0, KANCHAN: 2, PENCHAN: 2, TANKI: 2, SHANPON: 0}

CHIITOITSU_FU = 25


def _set_entry(kind: int, kan: bool, concealed: bool) -> tuple[str, int]:
    yaochuu = kind in YAOCHUU
    fu = 2 * (2 if concealed else 1) * (2 if yaochuu else 1) * (4 if kan else 1)
    reason = f"{'closed' if concealed else 'open'}_{'terminal_' if yaochuu else ''}{'kan' if kan else 'triplet'}"
    return reason, fu


# (kind, kan, concealed) -> (reason, fu), built once: 34 x 2 x 2 entries.
SET_FU: dict[tuple[int, bool, bool], tuple[str, int]] = {
    (k, kan, c): _set_entry(k, kan, c) for k in range(34) for kan in (False, True) for c in (False, True)
}


def pair_fu(pair: int, *, seat: int, round_: int, double_wind_fu: int) -> tuple[str, int] | None:
    """The fu entry of a valued pair, or None.

    >>> pair_fu(27, seat=27, round_=27, double_wind_fu=4)
    ('double_wind_pair', 4)
    >>> pair_fu(27, seat=27, round_=27, double_wind_fu=2)
    ('double_wind_pair', 2)
    >>> pair_fu(32, seat=28, round_=27, double_wind_fu=4)
    ('yakuhai_pair', 2)
    """
    if pair in DRAGONS:
        return ("yakuhai_pair", 2)
    if pair == seat and pair == round_:
        return ("double_wind_pair", double_wind_fu)
    if pair == seat or pair == round_:
        return ("yakuhai_pair", 2)
    return None


def standard_fu(
    sets: tuple[tuple[str, int], ...] | list[tuple[str, int]],
    pair: int,
    wait: str,
    tsumo: bool,
    closed: bool,
    pinfu: bool,
    seat: int,
    round_: int,
    double_wind_fu: int,
    pinfu_tsumo_fu: int = 0,
    open_pinfu_fu: int = 30,
) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Fu and breakdown. ``sets`` are the entries of the triplets and kans
    (``SET_FU[kind, kan, concealed]``), a ron-completed triplet already taken
    as not concealed. ``pinfu_tsumo_fu`` 2 gives a pinfu tsumo its tsumo fu
    (30 fu); ``open_pinfu_fu`` 20 leaves an open pinfu shape at 20 fu.

    >>> standard_fu([], 5, RYANMEN, True, True, True, 27, 27, 4)
    (20, (('base', 20),))
    >>> standard_fu([], 5, RYANMEN, True, True, True, 27, 27, 4, pinfu_tsumo_fu=2)
    (30, (('base', 20), ('tsumo', 2)))
    >>> standard_fu([], 5, RYANMEN, False, False, False, 27, 27, 4, open_pinfu_fu=20)
    (20, (('base', 20),))
    """
    if pinfu and tsumo and not pinfu_tsumo_fu:
        return 20, _PINFU_TSUMO
    details: list[tuple[str, int]] = [_BASE, _TSUMO if tsumo else _MENZEN_RON] if tsumo or closed else [_BASE]
    total = 20 + (2 if tsumo else 10 if closed else 0)
    for entry in sets:
        details.append(entry)
        total += entry[1]
    if pair >= 27:
        entry = pair_fu(pair, seat=seat, round_=round_, double_wind_fu=double_wind_fu)
        if entry is not None:
            details.append(entry)
            total += entry[1]
    wfu = WAIT_FU[wait]
    if wfu:
        details.append((wait, wfu))
        total += wfu
    if total == 20 and open_pinfu_fu == 30:
        # Only an open ron can get here: "kuipinfu" is rounded to 30.
        details.append(("open_pinfu", 2))
        total = 22
    return -(-total // 10) * 10, tuple(details)


_BASE = ("base", 20)
_TSUMO = ("tsumo", 2)
_MENZEN_RON = ("menzen_ron", 10)
_PINFU_TSUMO = (_BASE,)
