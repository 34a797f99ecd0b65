"""The bounds of what Tenbou stores, so that SQLite and PostgreSQL hold the same data.

SQLite keeps any 64-bit integer and any text in any column; PostgreSQL refuses
an ``integer`` past 2**31 - 1, a ``smallint`` past 32,767, text or JSON with a
NUL character, and a time whose UTC moment falls outside years 1-9999. A value
one database takes and the other refuses is data that cannot move between them,
and a 500 on the second. So every value that enters (the services, the forms,
the record and log imports) is held to these bounds, named for what they mean,
and the models repeat the numeric ones as ``CheckConstraint``s (``save()`` and
``bulk_create`` skip validators). Each bound is far beyond any real game.

Pure Python: the log reader and the models both use it.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

MAX_ROUND = 99_999  # a round (session) number: a weekly league for 1,900 years
MAX_HAN = 100  # no real hand comes near (13 is already a counted yakuman)
MAX_SEAT_POINTS = 100_000_000  # a seat's points in thousandths: 100,000 points after uma
MAX_PENALTY = 1_000_000  # one penalty in thousandths: 1,000 points, beyond any real one
MAX_PENALTY_TOTAL = 10_000_000  # the penalties in force on one seat of one game, together
MAX_INTEGER = 2**31 - 1  # PostgreSQL's ``integer``: the hand statistics of a seat
MAX_DETAIL_DEPTH = 20  # nesting of a hand's kept tiles and yaku (the real ones have 4)
# Times are stored in UTC: these leave every UTC offset room on both sides.
EARLIEST = datetime.datetime(1900, 1, 1, tzinfo=datetime.UTC)
LATEST = datetime.datetime(3000, 1, 1, tzinfo=datetime.UTC)  # exclusive


def time_problem(moment: datetime.datetime) -> str | None:
    """Why ``moment`` cannot be stored (outside 1900-2999 UTC), or None.

    >>> time_problem(datetime.datetime.fromisoformat("9999-12-31T23:00:00-05:00"))
    'must be in the years 1900 to 2999, not 9999-12-31T23:00:00-05:00'
    >>> time_problem(datetime.datetime.fromisoformat("2025-09-04T19:00:00+09:00")) is None
    True
    """
    # The bounds moved to the moment's own offset: converting year 1 or 9999
    # with an offset to UTC would itself overflow.
    offset = moment.utcoffset() or datetime.timedelta()
    wall = moment.replace(tzinfo=None)
    if not EARLIEST.replace(tzinfo=None) + offset <= wall < LATEST.replace(tzinfo=None) + offset:
        return f"must be in the years {EARLIEST.year} to {LATEST.year - 1}, not {moment.isoformat()}"
    return None


def text_problem(value: Any, *, depth: int = MAX_DETAIL_DEPTH) -> str | None:
    """Why a text or a JSON value cannot be stored, or None: a NUL character
    anywhere (keys too), a number JSON cannot write (``1e400`` reads as
    infinity, which is no JSON), or nesting deeper than ``depth``.

    Walks the value without recursion, so a value nested past Python's
    recursion limit is refused rather than crashing the check.

    >>> text_problem({"yaku": ["riichi", "tan\\x00yao"]})
    'holds a NUL character'
    >>> text_problem({"dora": float("inf")})
    'holds a number JSON cannot write (inf)'
    >>> text_problem([[[1]]], depth=2)
    'is nested more than 2 deep'
    >>> text_problem([{"tiles": "123m", "melds": [{"type": "pon", "tiles": "555z"}]}]) is None
    True
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return "holds a NUL character"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"holds a number JSON cannot write ({item})"
        elif isinstance(item, dict | list | tuple):
            if level >= depth:
                return f"is nested more than {depth} deep"
            if isinstance(item, dict):
                stack.extend((k, level + 1) for k in item)
                stack.extend((v, level + 1) for v in item.values())
            else:
                stack.extend((v, level + 1) for v in item)
    return None
