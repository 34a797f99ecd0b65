"""The shape of a seating and how good it is.

Owns the data types every seating mode returns (a round is a tuple of tables,
a table its players in wind order: East, South, West, North, or East, South,
West at tables of three), the checks that a seating is well formed, and the
quality figures beside every seating (``Quality``: docs/seating.md, "Seating").
Players are any hashable values; a seating never renumbers them.

>>> rounds = (((1, 2, 3, 4), (5, 6, 7, 8)), ((1, 5, 2, 6), (3, 7, 4, 8)))
>>> repeats(rounds)
4
>>> lower_bound(8, 2)
0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

Player = Hashable
Table = tuple[Any, Any, Any, Any]
Round = tuple[Table, ...]

WINDS = ("east", "south", "west", "north")
TABLE_SIZE = 4
# Three-player mahjong (sanma) seats East, South and West; four-player adds North.
TABLE_SIZES = (3, 4)
_SIZE_WORDS = {3: "three", 4: "four"}


def winds_for(table_size: int) -> tuple[str, ...]:
    """The seats of a table of ``table_size``, in order: East, South, West (and North for four)."""
    return WINDS[:table_size]


def check_table_size(table_size: object) -> int:
    """``table_size`` if it is 3 or 4, else a ``SeatingError`` naming the field."""
    if isinstance(table_size, bool) or table_size not in TABLE_SIZES:
        raise SeatingError("invalid_table_size", f"table size must be 3 or 4, not {table_size!r}", field="table_size")
    return table_size  # type: ignore[return-value]


class SeatingError(ValueError):
    """A seating request that cannot be honoured; ``field`` names the input at fault.

    ``line`` is set for errors in a prescripted CSV (1-based, the header is line 1).
    """

    def __init__(self, code: str, message: str, *, field: str | None = None, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.code = code
        self.message = message
        self.field = field
        self.line = line

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        if self.line is not None:
            out["line"] = self.line
        return out


@dataclass(frozen=True)
class Repeat:
    """Two players seated together again: ``round`` (1-based) repeats the meetings in ``earlier``."""

    pair: tuple[Any, Any]
    round: int
    earlier: tuple[int, ...]


@dataclass(frozen=True)
class Quality:
    """What a seating achieves; every mode returns one beside its rounds.

    ``meetings`` maps k to the number of pairs of players who share a table k
    times (k = 0 included). ``repeats`` lists every meeting beyond a pair's
    first, in round order.
    """

    players: int
    rounds: int
    repeat_count: int
    lower_bound: int
    meetings: dict[int, int]
    wind_spread: int
    same_table_consecutive: int
    teammates_together: int
    repeats: tuple[Repeat, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rounds": self.rounds,
            "repeats": self.repeat_count,
            "lower_bound": self.lower_bound,
            "meetings": {str(k): v for k, v in sorted(self.meetings.items())},
            "wind_spread": self.wind_spread,
            "same_table_consecutive": self.same_table_consecutive,
            "teammates_together": self.teammates_together,
        }


@dataclass(frozen=True)
class Seating:
    """Rounds of tables (each table East, South, West, North) and their quality.

    ``iterations`` is the search work spent (0 when a design or the start was already best).
    """

    rounds: tuple[Round, ...]
    quality: Quality
    iterations: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"rounds": [[list(t) for t in r] for r in self.rounds], **self.quality.as_dict()}


def lower_bound(players: int, rounds: int, table_size: int = TABLE_SIZE) -> int:
    """The fewest repeats any seating can have: each player has (k - 1)R
    opponent slots at tables of k for N - 1 opponents, and every surplus slot
    is half of a repeat.

    >>> [lower_bound(16, 5), lower_bound(16, 8), lower_bound(20, 8), lower_bound(24, 8)]
    [0, 72, 50, 12]
    >>> [lower_bound(12, 5, 3), lower_bound(12, 8, 3), lower_bound(9, 5, 3)]
    [0, 30, 9]
    """
    return players * max(0, (table_size - 1) * rounds - players + 1) // 2


def pair(a: Any, b: Any) -> frozenset[Any]:
    return frozenset((a, b))


def meetings(rounds: Iterable[Iterable[Sequence[Any]]]) -> Counter[frozenset[Any]]:
    """How often each pair shares a table (pairs that never met are absent)."""
    met: Counter[frozenset[Any]] = Counter()
    for rnd in rounds:
        for table in rnd:
            for a, b in combinations(table, 2):
                met[pair(a, b)] += 1
    return met


def repeats(rounds: Iterable[Iterable[Sequence[Any]]]) -> int:
    """Excess meetings: the sum over pairs of max(0, meetings - 1)."""
    return sum(k - 1 for k in meetings(rounds).values() if k > 1)


def meeting_histogram(rounds: Sequence[Iterable[Sequence[Any]]], players: int) -> dict[int, int]:
    """Number of pairs meeting k times, for every k from 0 to the most seen."""
    met = meetings(rounds)
    hist = Counter(met.values())
    hist[0] = players * (players - 1) // 2 - len(met)
    return {k: hist.get(k, 0) for k in range(max(hist) + 1)}


def repeat_list(rounds: Sequence[Iterable[Sequence[Any]]]) -> tuple[Repeat, ...]:
    """Every meeting beyond a pair's first, with the rounds (1-based) it repeats."""
    seen: dict[frozenset[Any], list[int]] = {}
    out = []
    for number, rnd in enumerate(rounds, start=1):
        for table in rnd:
            for a, b in combinations(table, 2):
                earlier = seen.setdefault(pair(a, b), [])
                if earlier:
                    out.append(Repeat(pair=_ordered(a, b), round=number, earlier=tuple(earlier)))
                earlier.append(number)
    return tuple(out)


def _ordered(a: Any, b: Any) -> tuple[Any, Any]:
    try:
        return (a, b) if a <= b else (b, a)
    except TypeError:
        return (a, b)


def wind_counts(rounds: Iterable[Iterable[Sequence[Any]]]) -> dict[Any, list[int]]:
    """Per player, how often they sat East, South, West (and North at tables of four).

    A player's list is as long as the tables they sat at, so a three-player
    seating is judged over three winds, never against an empty North.
    """
    counts: dict[Any, list[int]] = {}
    for rnd in rounds:
        for table in rnd:
            for wind, player in enumerate(table):
                counts.setdefault(player, [0] * len(table))[wind] += 1
    return counts


def wind_spread(rounds: Iterable[Iterable[Sequence[Any]]]) -> int:
    """The largest difference between a player's most and least frequent wind."""
    return max((max(c) - min(c) for c in wind_counts(rounds).values()), default=0)


def same_table_consecutive(rounds: Sequence[Sequence[Sequence[Any]]]) -> int:
    """Players kept at the same physical table (same table index) as in the round before."""
    count = 0
    for before, after in zip(rounds, rounds[1:], strict=False):
        where = {p: i for i, table in enumerate(before) for p in table}
        count += sum(1 for i, table in enumerate(after) for p in table if where.get(p) == i)
    return count


def teammates_together(rounds: Iterable[Iterable[Sequence[Any]]], teams: Mapping[Any, Any] | None) -> int:
    """Pairs of teammates sharing a table, summed over rounds."""
    if not teams:
        return 0
    return sum(
        1
        for rnd in rounds
        for table in rnd
        for a, b in combinations(table, 2)
        if a in teams and b in teams and teams[a] == teams[b]
    )


def assess(rounds: Sequence[Round], players: int, teams: Mapping[Any, Any] | None = None,
           table_size: int | None = None) -> Quality:
    """Every quality figure of a seating of ``players`` players (the table size read from the first table)."""
    listed = repeat_list(rounds)
    if table_size is None:
        table_size = len(rounds[0][0]) if rounds and rounds[0] else TABLE_SIZE
    return Quality(
        players=players,
        rounds=len(rounds),
        repeat_count=len(listed),
        lower_bound=lower_bound(players, len(rounds), table_size),
        meetings=meeting_histogram(rounds, players),
        wind_spread=wind_spread(rounds),
        same_table_consecutive=same_table_consecutive(rounds),
        teammates_together=teammates_together(rounds, teams),
        repeats=listed,
    )


def check_players(players: Sequence[Any], field_name: str = "players", table_size: int = TABLE_SIZE) -> None:
    """A player list the engine can seat: a positive multiple of the table size, no one twice.

    >>> check_players(list(range(10)), table_size=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    league.seating.schedule.SeatingError: 10 players cannot sit at tables of three: ... (2 substitutes are needed, ...)
    """
    k = check_table_size(table_size)
    n = len(players)
    if n == 0:
        raise SeatingError("invalid_player_count", f"0 players cannot sit at tables of {_SIZE_WORDS[k]}: the number "
                           f"must be a positive multiple of {k}", field=field_name)
    if n % k:
        short, extra = -n % k, n % k
        raise SeatingError(
            "invalid_player_count",
            f"{n} players cannot sit at tables of {_SIZE_WORDS[k]}: the number must be a positive multiple of {k} "
            f"({short} substitute{'s are' if short > 1 else ' is'} needed, or {extra} player{'s' if extra > 1 else ''}"
            " fewer)",
            field=field_name,
        )
    seen: set[Any] = set()
    for p in players:
        if p in seen:
            raise SeatingError("duplicate_player", f"player {p!r} is listed twice", field=field_name)
        seen.add(p)


def check_rounds(rounds: Sequence[Sequence[Sequence[Any]]], players: Sequence[Any],
                 table_size: int = TABLE_SIZE) -> None:
    """Every round seats every player exactly once at tables of ``table_size``.

    >>> check_rounds((((1, 2, 3, 4),), ((1, 2, 3, 3),)), [1, 2, 3, 4])
    Traceback (most recent call last):
    ...
    league.seating.schedule.SeatingError: round 2 seats player 3 twice
    """
    everyone = set(players)
    for number, rnd in enumerate(rounds, start=1):
        here: set[Any] = set()
        for t, table in enumerate(rnd, start=1):
            if len(table) != table_size:
                raise SeatingError(
                    "wrong_table_size", f"round {number} table {t} has {len(table)} players, not {table_size}",
                    field=f"rounds[{number - 1}]"
                )
            for p in table:
                if p not in everyone:
                    raise SeatingError("unknown_player", f"round {number} seats unknown player {p!r}",
                                       field=f"rounds[{number - 1}]")
                if p in here:
                    raise SeatingError("duplicate_player", f"round {number} seats player {p!r} twice",
                                       field=f"rounds[{number - 1}]")
                here.add(p)
        if here != everyone:
            missing = sorted(map(repr, everyone - here))
            raise SeatingError("missing_player", f"round {number} leaves out {', '.join(missing)}",
                               field=f"rounds[{number - 1}]")
