"""Ordering players with equal points: the series' tie-break rules, in its order.

Pure Python, never imports Django. A ``Contender`` is a player's id, total
(thousandths) and counted games (table, points, place). Points decide first,
then the series' rules in order (``head_to_head``, ``firsts``, ``best_game``,
``fewest_fourths``, ``playoff``); a smaller group still level starts again from
the first rule. Players level after every rule share a rank ("=5"), and each
row names the rule that put it below the row above (``separated_by``). What
each rule asks: docs/director.md, "Stages, tie-breaks, teams and the EMA results".

>>> a = Contender(1, "A", 20000, (Game(1, 30000, 1), Game(2, -10000, 3)))
>>> b = Contender(2, "B", 20000, (Game(1, 0, 2), Game(3, 20000, 1)))
>>> [(r.contender.name, r.rank, r.separated_by) for r in rank([b, a], ["head_to_head"])]
[('A', 1, None), ('B', 2, 'head_to_head')]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from league.collation import name_key

RULES = {
    "head_to_head": "head-to-head",
    "firsts": "most firsts",
    "best_game": "best single game",
    "fewest_fourths": "fewest fourths",
    "playoff": "playoff",
}
POINTS = "points"
DEFAULT_RULES = ("head_to_head", "firsts", "best_game", "fewest_fourths", "playoff")


class TiebreakError(ValueError):
    def __init__(self, code: str, message: str, field: str = "tiebreaks") -> None:
        super().__init__(message)
        self.code, self.message, self.field = code, message, field


@dataclass(frozen=True)
class Game:
    """One game of a player: its table (any id shared by the four seats), points and place
    (None: a substitute played the seat, so no place of the player's counts)."""

    table: Hashable
    points: int
    place: int | None


@dataclass(frozen=True)
class Contender:
    id: Hashable
    name: str
    total: int
    games: tuple[Game, ...] = ()
    data: Any = field(default=None, compare=False)  # the caller's own row, carried through


@dataclass(frozen=True)
class Ranked:
    contender: Contender
    rank: int
    tied: bool  # the rank is shared: level after every rule
    separated_by: str | None  # the rule that put this row below the one above; None for the first row or a tie


def check_rules(rules: Sequence[str]) -> tuple[str, ...]:
    """The rules as given, refused when one is unknown or repeated."""
    seen: list[str] = []
    for rule in rules:
        if rule not in RULES:
            raise TiebreakError("unknown_tiebreak", f"{rule!r} is not a tie-break rule (one of {', '.join(RULES)})")
        if rule in seen:
            raise TiebreakError("repeated_tiebreak", f"{rule!r} is named twice")
        seen.append(rule)
    return tuple(seen)


def rank(contenders: Sequence[Contender], rules: Sequence[str], *, playoff: Mapping[Hashable, int] | None = None) -> list[Ranked]:
    """Entries best first, with ranks, ties and the rule that separated each row."""
    rules = check_rules(rules)
    playoff = playoff or {}
    groups = _split(list(contenders), lambda e: -e.total)
    ordered: list[tuple[list[Contender], str | None]] = []  # (level group, rule that separated it from the previous)
    for i, group in enumerate(groups):
        for j, (sub, why) in enumerate(_order(group, rules, playoff)):
            ordered.append((sub, why if j else (POINTS if i else None)))
    out: list[Ranked] = []
    position = 1
    for group, why in ordered:
        tied = len(group) > 1
        for k, contender in enumerate(sorted(group, key=lambda e: name_key(e.name))):
            out.append(Ranked(contender=contender, rank=position, tied=tied, separated_by=why if k == 0 else None))
        position += len(group)
    return out


def _order(group: list[Contender], rules: tuple[str, ...], playoff: Mapping[Hashable, int]) -> list[tuple[list[Contender], str | None]]:
    """A level group as sub-groups, best first, each with the rule that put it below the previous."""
    if len(group) == 1:
        return [(group, None)]
    for rule in rules:
        parts = _split(group, _key(rule, group, playoff))
        if len(parts) == 1:
            continue
        out: list[tuple[list[Contender], str | None]] = []
        for i, part in enumerate(parts):
            # A smaller level group is asked again from the first rule (head-to-head among fewer players).
            for j, (sub, why) in enumerate(_order(part, rules, playoff)):
                out.append((sub, why if j else (rule if i else None)))
        return out
    return [(group, None)]


def _split(group: list[Contender], key: Callable[[Contender], Any]) -> list[list[Contender]]:
    """``group`` cut into runs of equal key, smallest key first."""
    parts: dict[Any, list[Contender]] = {}
    for e in sorted(group, key=key):
        parts.setdefault(key(e), []).append(e)
    return list(parts.values())


def _key(rule: str, group: list[Contender], playoff: Mapping[Hashable, int]) -> Callable[[Contender], Any]:
    if rule == "head_to_head":
        return _head_to_head(group)
    if rule == "firsts":
        return lambda e: -sum(1 for g in e.games if g.place == 1)
    if rule == "best_game":
        return lambda e: -max((g.points for g in e.games), default=0)
    if rule == "fewest_fourths":
        return lambda e: sum(1 for g in e.games if g.place == 4)
    assert rule == "playoff"
    unplayed = 1 + max(playoff.values(), default=0)
    return lambda e: playoff.get(e.id, unplayed)


def head_to_head(group: Sequence[Contender]) -> dict[Hashable, tuple[int, int, int]]:
    """Per player of ``group``: (times placed above a level opponent, times
    placed below, points summed over the games shared with one) — over the
    games where they sat at a table with another player of the group.

    >>> a = Contender(1, "A", 0, (Game("r1t1", 12000, 1), Game("r2t3", -8000, 3)))
    >>> b = Contender(2, "B", 0, (Game("r1t1", -2000, 2), Game("r2t3", 15000, 1), Game("r3t2", 5000, 2)))
    >>> head_to_head([a, b])
    {1: (1, 1, 4000), 2: (1, 1, 13000)}
    """
    at: dict[Hashable, dict[Hashable, Game]] = {}
    for e in group:
        for g in e.games:
            at.setdefault(g.table, {})[e.id] = g
    out: dict[Hashable, tuple[int, int, int]] = {}
    for e in group:
        above = below = points = 0
        for g in e.games:
            others = [o for pid, o in at[g.table].items() if pid != e.id and o.place is not None]
            if not others or g.place is None:
                continue
            points += g.points
            above += sum(1 for o in others if g.place < o.place)
            below += sum(1 for o in others if g.place > o.place)
        out[e.id] = (above, below, points)
    return out


def _head_to_head(group: list[Contender]) -> Callable[[Contender], Any]:
    table = head_to_head(group)
    # More placings above level opponents than below first, then the points of the shared games.
    return lambda e: (-(table[e.id][0] - table[e.id][1]), -table[e.id][2])


def describe(rule: str | None) -> str:
    """The rule's name as the standings print it."""
    if rule is None:
        return ""
    return POINTS if rule == POINTS else RULES[rule]
