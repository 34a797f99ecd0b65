"""Tenhou's tile codes and yaku names, turned into the project's notation
(``123m0p``, ``0`` a red five) and into han."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from league.tenhou.values import LogError

_SUIT_LETTERS = "mpsz"
_VALID_CODES = frozenset([*range(11, 20), *range(21, 30), *range(31, 40), *range(41, 48), 51, 52, 53])
_RED_IDS = {16: 51, 52: 52, 88: 53}


def _check_code(code: Any, where: str) -> int:
    if isinstance(code, bool) or not isinstance(code, int) or code not in _VALID_CODES:
        raise LogError("invalid_tiles", f"{code!r} is not a tile code ({where})")
    return code


def _plain(code: int) -> int:
    """51/52/53 (red fives) as 15/25/35."""
    return (code - 50) * 10 + 5 if code > 50 else code


def _sort_key(code: int) -> tuple[int, int]:
    return (_plain(code), code > 50)


def _notation(codes: Sequence[int]) -> str:
    """Tile codes to ``123m0p`` notation, in order.

    >>> _notation([15, 51, 16, 21, 41, 47])
    '506m1p17z'
    """
    groups: dict[int, list[str]] = {}
    for code in sorted(codes, key=_sort_key):
        suit = code // 10 - 1 if code < 50 else code - 51
        groups.setdefault(suit, []).append("0" if code > 50 else str(code % 10))
    return "".join("".join(digits) + _SUIT_LETTERS[suit] for suit, digits in sorted(groups.items()))


def _codes(notation: str) -> list[int]:
    """``123m0p`` notation back to tile codes; refuses nonsense with ``invalid_tiles``."""
    out: list[int] = []
    pending: list[int] = []
    if not isinstance(notation, str):
        raise LogError("invalid_tiles", f"tiles must be text like '123m', not {notation!r}")
    for ch in notation:
        if ch.isdigit():
            pending.append(int(ch))
            continue
        suit = _SUIT_LETTERS.find(ch)
        if suit < 0 or not pending:
            raise LogError("invalid_tiles", f"{notation!r} is not tile notation")
        for d in pending:
            if suit == 3 and not 1 <= d <= 7:
                raise LogError("invalid_tiles", f"'{d}z' in {notation!r} is not a tile")
            out.append(51 + suit if d == 0 and suit < 3 else (suit + 1) * 10 + d)
        pending = []
    if pending:
        raise LogError("invalid_tiles", f"{notation!r} has digits with no suit letter")
    for code in out:
        _check_code(code, notation)
    return out


def _mjlog_code(tile_id: int, aka: bool) -> int:
    if not 0 <= tile_id < 136:
        raise LogError("invalid_tiles", f"{tile_id} is not an mjlog tile id (0-135)")
    if aka and tile_id in _RED_IDS:
        return _RED_IDS[tile_id]
    kind = tile_id // 4
    if kind < 27:
        return (kind // 9 + 1) * 10 + kind % 9 + 1
    return 41 + kind - 27



YAKU_NAMES = (
    "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九", "一盃口",
    "自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南", "場風 西", "場風 北",
    "役牌 白", "役牌 發", "役牌 中", "両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順", "三色同刻",
    "三槓子", "対々和", "三暗刻", "小三元", "混老頭", "二盃口", "純全帯幺九", "混一色", "清一色", "人和",
    "天和", "地和", "大三元", "四暗刻", "四暗刻単騎", "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈",
    "国士無双", "国士無双１３面", "大四喜", "小四喜", "四槓子", "ドラ", "裏ドラ", "赤ドラ",
)
_YAKU_RE = re.compile(r"^(.*)\((\d+)飜\)$|^(.*)\(役満\)$")
_SCORE_RE = re.compile(
    r"^(?:(?P<fu>\d+)符)?(?:(?P<han>\d+)飜)?(?P<limit>満貫|跳満|倍満|三倍満|数え役満|役満|[A-Za-z ]+?)?\s*"
    r"(?P<a>\d+)(?:-(?P<b>\d+))?点(?P<all>∀)?$"
)
_LIMIT_HAN = {"満貫": 5, "跳満": 6, "倍満": 8, "三倍満": 11, "役満": 13}


def _yaku_han(yaku: Sequence[str]) -> tuple[int, int]:
    """(han, yakuman count) of a tenhou.net/6 yaku list."""
    han = yakuman = 0
    for text in yaku:
        m = _YAKU_RE.match(text)
        if not m:
            raise LogError("broken_log", f"yaku {text!r} is not 'name(N飜)' or 'name(役満)'")
        if m.group(2) is not None:
            han += int(m.group(2))
        else:
            yakuman += 1
    return han, yakuman



def _meld_key(meld: tuple[str, str]) -> tuple[list[int], str]:
    """Melds in tile order: the mjlog lists them last call first, the JSON first call first."""
    return sorted(_codes(meld[1]), key=_sort_key), meld[0]
