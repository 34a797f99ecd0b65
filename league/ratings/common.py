"""The inputs and outputs every rating engine shares, and the one rounding rule.

A game is a ``GameResult`` (its seats with their places, ties sharing the best
place they cover), an event an ``EventResult`` (its placed players, N and what
its weight is made of); an engine returns an ``Outcome``: the steps in order and
each player's final ``PlayerRating``. Values are thousandths. ``SubstituteRule``
says whose rating a substitute's seat moves, as ``Event.substitute_result``
says whose standing (docs/ratings.md, "Substitutes").
"""

from __future__ import annotations

import datetime
import enum
from dataclasses import dataclass, field
from fractions import Fraction


class SubstituteRule(enum.StrEnum):
    REAL = "real"
    NOT_COUNTED = "not_counted"
    FIXED = "fixed"


@dataclass(frozen=True)
class SeatResult:
    player: int
    place: int  # 1 = first; tied seats share the best place they cover
    substitute_for: int | None = None  # the registered player this seat was played for


@dataclass(frozen=True)
class GameResult:
    key: str  # what names the game in a step's line ("game 12")
    day: datetime.date
    seats: tuple[SeatResult, ...]
    substitutes: SubstituteRule | None = None  # this game's rule (its event's); None: the engine's argument


@dataclass(frozen=True)
class EventPlace:
    player: int
    place: int  # tied players share the best place they cover


@dataclass(frozen=True)
class EventResult:
    """A finished event as the EMA ranks it (reference tournaments.md section 3)."""

    key: str
    day: datetime.date  # the last day: its age is counted from it
    participants: int  # N of the base rank: the players placed and the substitutes counted (at most 3)
    days: int
    countries: int
    qualification: bool
    places: tuple[EventPlace, ...]


@dataclass(frozen=True)
class Step:
    """One result's effect on one player's rating, and how it was computed."""

    player: int
    key: str  # the game or event
    day: datetime.date
    before: int | None  # thousandths; None: not rated before
    after: int | None  # None: not yet rated (an EMA ranking needs two events)
    template: str  # the how-line with {names}: translated at the edge, then filled
    numbers: tuple[tuple[str, str], ...] = field(default=())  # the numbers, already formatted

    @property
    def line(self) -> str:
        """The how-line in English.

        >>> Step(1, "game 3", datetime.date(2025, 1, 1), 0, 1, "{game}: +{n}", (("game", "game 3"), ("n", "1"))).line
        'game 3: +1'
        """
        return self.template.format(**dict(self.numbers))


@dataclass(frozen=True)
class PlayerRating:
    player: int
    value: int | None  # thousandths; None: not rated (too few results)
    results: int  # games or events counted
    last_day: datetime.date


@dataclass(frozen=True)
class Outcome:
    steps: tuple[Step, ...]
    players: tuple[PlayerRating, ...]  # best first; the unrated last, by player id

    def history(self, player: int) -> list[Step]:
        return [s for s in self.steps if s.player == player]


def gettext_noop(message: str) -> str:
    """Mark a how-line template for the translators' catalogue and return it
    unchanged: ``makemessages`` (xgettext) finds calls by this name, Django's
    own, without this pure package importing Django; a page translates the
    template (``gettext``) before filling in the numbers.

    >>> gettext_noop("{game}: place {place}")
    '{game}: place {place}'
    """
    return message


def round_half_away(value: Fraction) -> int:
    """The one rounding rule of the engines: to the nearest integer, halves away from zero.

    >>> [round_half_away(Fraction(n, 2)) for n in (-3, -1, 1, 3, 5)]
    [-2, -1, 1, 2, 3]
    """
    q, r = divmod(abs(value.numerator), value.denominator)
    q += 2 * r >= value.denominator
    return q if value >= 0 else -q


def milli(value: int | None) -> str:
    """Thousandths as a number, without trailing zeros.

    >>> milli(1512345), milli(-12250), milli(1500000), milli(-500), milli(None)
    ('1512.345', '-12.25', '1500', '-0.5', '')
    """
    if value is None:
        return ""
    sign = "-" if value < 0 else ""
    whole, frac = divmod(abs(value), 1000)
    return f"{sign}{whole}" + (f".{frac:03d}".rstrip("0") if frac else "")


def signed(value: int) -> str:
    """With its sign, in thousandths.

    >>> signed(6000), signed(-6625), signed(0)
    ('+6', '-6.625', '0')
    """
    return ("+" if value > 0 else "") + milli(value)


def final_table(last: dict[int, tuple[int | None, int, datetime.date]]) -> tuple[PlayerRating, ...]:
    """Each player's last value, best first (equal values by player id); the unrated after."""
    rows = [PlayerRating(p, v, n, d) for p, (v, n, d) in last.items()]
    return tuple(sorted(rows, key=lambda r: (r.value is None, -(r.value or 0), r.player)))


def rated_seats(game: GameResult, rule: SubstituteRule) -> list[tuple[int, int]]:
    """(player, place) of the seats the game rates, under the substitute rule.

    >>> g = GameResult("g", datetime.date(2025, 1, 1), (SeatResult(1, 1), SeatResult(9, 2, substitute_for=2),
    ...                                                SeatResult(3, 3), SeatResult(4, 4)))
    >>> rated_seats(g, SubstituteRule.REAL), rated_seats(g, SubstituteRule.FIXED)
    ([(1, 1), (2, 2), (3, 3), (4, 4)], [(1, 1), (2, 4), (3, 3), (4, 4)])
    >>> rated_seats(g, SubstituteRule.NOT_COUNTED)
    [(1, 1), (3, 3), (4, 4)]
    >>> import dataclasses
    >>> rated_seats(dataclasses.replace(g, substitutes=SubstituteRule.FIXED), SubstituteRule.REAL)[1]
    (2, 4)
    """
    out = []
    n = len(game.seats)
    rule = game.substitutes or rule
    for s in game.seats:
        if s.substitute_for is None:
            out.append((s.player, s.place))
        elif rule is SubstituteRule.REAL:
            out.append((s.substitute_for, s.place))
        elif rule is SubstituteRule.FIXED:
            out.append((s.substitute_for, n))
    return out
