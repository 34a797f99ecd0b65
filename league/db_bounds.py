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
from dataclasses import dataclass
from typing import Any

MAX_ROUND = 99_999  # a round (session) number: a weekly league for 1,900 years
MAX_HAN = 100  # no real hand comes near (13 is already a counted yakuman)
MAX_SEAT_POINTS = 100_000_000  # a seat's points in thousandths: 100,000 points after uma
MAX_PENALTY = 1_000_000  # one penalty in thousandths: 1,000 points, beyond any real one
MAX_PENALTY_TOTAL = 10_000_000  # the penalties in force on one seat of one game, together
MAX_INTEGER = 2**31 - 1  # PostgreSQL's ``integer``: the hand statistics of a seat
MAX_DETAIL_DEPTH = 20  # nesting of a hand's kept tiles and yaku (the real ones have 4)
MAX_EVENT_NUMBER = 9_999  # a registration's event number: the largest events seat a few hundred
MAX_EVENT_ROUNDS = 100  # rounds of one event (Event.rounds stops there too)
MAX_EMA_DAYS = 31  # an event of a month; the EMA weight counts days up to 3
MAX_TEXT_CELL = 1_000  # one cell of a player list: the longest column holds 100 characters
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


# A cell starting with one of these is read as a formula by a spreadsheet
# (league.exports escapes it on the way out); a name typed by a stranger on
# the public sign-up form is refused instead.
FORMULA_START = ("=", "+", "-", "@")


def person_text_problem(value: Any, *, limit: int = 100) -> str | None:
    """Why a name, club or team typed by a player cannot be stored, or None:
    not text, a NUL or another control character, longer than ``limit``, or
    starting like a spreadsheet formula.

    >>> person_text_problem("Aiko"), person_text_problem("x" * 10_000)
    (None, 'is longer than 100 characters')
    >>> person_text_problem("=HYPERLINK(1)"), person_text_problem("a\\x00b")
    ('starts like a spreadsheet formula (=, +, - or @)', 'holds a NUL character')
    """
    if not isinstance(value, str):
        return f"must be text, not {shown(value)}"
    if "\x00" in value:
        return "holds a NUL character"
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in value):
        return "holds a control character (a tab or a line break)"
    if len(value) > limit:
        return f"is longer than {limit} characters"
    if value.strip().startswith(FORMULA_START):
        return "starts like a spreadsheet formula (=, +, - or @)"
    return None


@dataclass(frozen=True)
class Whole:
    """The bounds of one whole-number field, for every door that writes it:
    the model's validators (so forms and ``full_clean`` see them), the player
    list's cells, query strings and path values (``read``) and the series
    header (``problem``). One per field, named for what it means, below.

    >>> EVENT_NUMBER.read("12"), EVENT_NUMBER.read("9" * 5000), EVENT_NUMBER.read("²"), EVENT_NUMBER.read("0")
    (12, None, None, None)
    >>> EVENT_NUMBER.problem(1.5)
    'must be a whole number, not 1.5'
    >>> EVENT_NUMBER.problem(10**20)
    'must be a whole number from 1 to 9,999'
    """

    lo: int
    hi: int

    def problem(self, value: Any) -> str | None:
        """Why ``value`` (as JSON gave it) cannot be stored, or None. 1.5 and
        ``true`` are not whole numbers, though Python would store 1 for either."""
        if isinstance(value, bool) or not isinstance(value, int):
            return f"must be a whole number, not {shown(value)}"
        if not self.lo <= value <= self.hi:
            return f"must be a whole number from {self.lo:,} to {self.hi:,}"
        return None

    def read(self, text: str) -> int | None:
        """The number ``text`` writes in ASCII digits (a leading minus when the
        bounds allow one), or None when it is none or out of bounds. Never
        converts more digits than the bounds have: ``int()`` of 5,000 digits
        is refused by Python itself."""
        digits = text.strip()
        negative = digits.startswith("-") and self.lo < 0
        if negative:
            digits = digits[1:]
        if not (digits.isascii() and digits.isdigit()) or len(digits.lstrip("0")) > len(str(max(abs(self.lo), self.hi))):
            return None
        value = -int(digits) if negative else int(digits)
        return value if self.lo <= value <= self.hi else None


def shown(value: Any) -> str:
    """A value for a message, cut short: a name of 10,000 characters or a
    number of 4,000 digits is not repeated back.

    >>> shown("A" * 100)
    "'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA..."
    """
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read_moment(value: Any) -> datetime.datetime | None:
    """``value``, ISO 8601 text with its UTC offset, as an aware moment Tenbou
    can store; None stays None. Otherwise ValueError, saying why in words that
    follow the field's name.

    >>> read_moment("2025-09-04T19:00:00+09:00").isoformat()
    '2025-09-04T19:00:00+09:00'
    >>> read_moment("2025-09-04T19:00:00")
    Traceback (most recent call last):
    ValueError: needs its UTC offset (2025-09-04T19:00:00+00:00), not '2025-09-04T19:00:00'
    >>> read_moment(20250904)
    Traceback (most recent call last):
    ValueError: must be an ISO 8601 date and time, not 20250904
    """
    if value is None:
        return None
    try:
        moment = datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise ValueError(f"must be an ISO 8601 date and time, not {shown(value)}") from None
    if moment.tzinfo is None:
        raise ValueError(f"needs its UTC offset (2025-09-04T19:00:00+00:00), not {shown(value)}")
    problem = time_problem(moment)
    if problem:
        raise ValueError(problem)
    return moment


ROW_ID = Whole(1, 2**63 - 1)  # a row's id in a path (/games/<id>/): what a database key can be
SLUG_LENGTH = 50  # a series' slug (SlugField's length): a longer one names no series
EVENT_NUMBER = Whole(1, MAX_EVENT_NUMBER)  # Registration.number; a check-in, a playoff's places
EVENT_ROUND = Whole(1, MAX_EVENT_ROUNDS)  # Round.number, Event.hidden_from_round, a stage's rounds
TABLE_NUMBER = Whole(1, MAX_EVENT_NUMBER)  # RoundTable.number
TIME_LIMIT = Whole(1, 600)  # minutes of a round (the clock form's bounds)
EXTRA_MINUTES = Whole(0, 120)  # extra minutes of one table (the extra time form's bounds)
STAGE_NUMBER = Whole(1, MAX_EVENT_ROUNDS)  # Stage.number: a stage has a round at least
SEED = Whole(1, MAX_EVENT_NUMBER)  # StageSeed.seed
PLACE = Whole(1, MAX_EVENT_NUMBER)  # Playoff.place
STAGE_TOTAL = Whole(-MAX_INTEGER, MAX_INTEGER)  # StageSeed.previous_total and .carried, thousandths
SUBSTITUTE_POINTS = Whole(-MAX_SEAT_POINTS, MAX_SEAT_POINTS)  # Event.substitute_score/_uma, thousandths
SEATING_SEED = Whole(0, MAX_INTEGER)  # Event.seed
MIN_GAMES = Whole(0, 100_000)  # Series.min_games
TEAM_BEST = Whole(1, 100)  # EventRules.team_best
EMA_DAYS = Whole(1, MAX_EMA_DAYS)  # EventRules.ema_days
EVENT_ROUNDS = Whole(1, MAX_EVENT_ROUNDS)  # Event.rounds: an event plays one round at least
RULE_POINTS = Whole(100, 1_000_000)  # a ruleset's start and return points (table points)
RULE_BONUS = Whole(-MAX_SEAT_POINTS, MAX_SEAT_POINTS)  # one place's uma and the oka, thousandths
SERIES_NAME = 200  # Series.name's length


def date_order_problem(start: datetime.date | None, end: datetime.date | None) -> str | None:
    """Why an event's dates cannot be kept, or None: the end before the start,
    or a date outside the years every database stores.

    >>> date_order_problem(datetime.date(2026, 5, 3), datetime.date(2026, 5, 2))
    'ends on 2026-05-02, before it starts on 2026-05-03'
    >>> date_order_problem(datetime.date(2026, 5, 2), None) is None
    True
    """
    for day in (start, end):
        if day is not None and not EARLIEST.year <= day.year < LATEST.year:
            return f"must be in the years {EARLIEST.year} to {LATEST.year - 1}, not {day.isoformat()}"
    if start is not None and end is not None and end < start:
        return f"ends on {end.isoformat()}, before it starts on {start.isoformat()}"
    return None


def int_param(value: object, *, maximum: int = MAX_INTEGER) -> int | None:
    """A query or POST parameter as a whole number from 0 to ``maximum``, or
    None when absent, not text or not one (a number past every round, hand
    or page means none of them, and the databases hold no more than
    2**31 - 1). The one parser of the views and the entry protocol.

    >>> int_param("12"), int_param("-1"), int_param("²"), int_param("9" * 4301), int_param("2147483648")
    (12, None, None, None, None)
    >>> int_param(None), int_param(12)
    (None, None)
    """
    # isdigit() alone lets "²" through to int(), which refuses it; the length
    # check comes before int(), which refuses more than 4,300 digits.
    if not isinstance(value, str) or not value.isascii() or not value.isdigit() or len(value) > len(str(maximum)):
        return None
    number = int(value)
    return number if number <= maximum else None
