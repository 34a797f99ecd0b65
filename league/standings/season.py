"""A league's season from one pass over its counted seats: the table as it
stands (or after a round or day), the table at the stage before (the movement
arrows) and every player's running totals (the season chart).

One query groups the seats; Python adds the groups up. ``Series.standings`` and
``Series.standings_and_before`` stay the definition (tests/league/test_season.py
compares them row for row). Cached under the series' results stamp
(``cached_season``). An event is ranked by ``league.standings.event``.
docs/standings.md, "A league's season".
"""

from __future__ import annotations

import dataclasses
import datetime
import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Case, Count, ExpressionWrapper, F, IntegerField, Max, Min, Q, Sum, Value, When
from django.utils import timezone

from league import stamps
from league.models import Game, Player, Seat, Series, counting
from league.models.changes import rounds_since
from league.models.event import is_event
from league.models.games import seats_through
from league.models.standing_rows import StandingRow, Standings

CHART_POINTS = 60  # stretches of rounds a season chart draws at most
SEASON_CACHE_SECONDS = 600  # the stamp is in the key: the timeout only bounds memory


@dataclass(frozen=True)
class Rounds:
    """The rounds with counted games and the days they were played on."""

    rounds: list[int]
    dates: list[datetime.date]


@dataclass(frozen=True)
class Season:
    """What one pass over the counted seats gives (see the module's docstring)."""

    standings: Standings  # through the round or day asked for
    before: Standings | None  # at the earlier stage asked for; None when none was
    stretch_ends: list[int]  # the last round of each stretch of the chart, in order
    running: dict[int, list[int | None]]  # player -> total after each stretch; None before their first game


def season_rounds(series: Series) -> Rounds:
    """One query: per round, when its counted games finished. Days are taken in
    Python from these few timestamps: a date cast per game row in SQL is what
    made this query slow on SQLite."""
    return _rounds_of(_round_times(series))


_Times = dict[int, tuple[datetime.datetime | None, datetime.datetime | None]]


def _round_times(series: Series, *, only: Iterable[int] | None = None) -> _Times:
    """Per round with counted games (of the rounds ``only``, if given): its first and last finish."""
    games = Game.objects.filter(counting(series), series=series)
    if only is not None:
        games = games.filter(round_number__in=sorted(only))
    found = games.values("round_number").annotate(first=Min("finished_at"), last=Max("finished_at")).order_by()
    return {st["round_number"]: (st["first"], st["last"]) for st in found}


def _rounds_of(times: _Times) -> Rounds:
    stamps = {t for pair in times.values() for t in pair if t is not None}
    return Rounds(sorted(times), sorted({timezone.localdate(t) for t in stamps}))


def _flag(q: Q) -> Any:
    # An empty Q is "every seat": a constant, not a CASE the database evaluates per row.
    return Value(1) if not q else Case(When(q, then=Value(1)), default=Value(0), output_field=IntegerField())


_SUMS = {
    "games": Count("id"), "total": Sum("points"), "place_sum": Sum("place"), "score_sum": Sum("end_score"),
    "best": Max("points"), "worst": Min("points"), "last": Max("game__round_number"),
    **{f"places_{n}": Count("id", filter=Q(place=n)) for n in (1, 2, 3, 4)},
}


# A group's fields, in order: what it is grouped by, then _SUMS' sums.
_GROUP = ("player_id", "stretch", "now", "was", *_SUMS)
PLAYER, STRETCH, NOW, WAS, TOTAL, LAST = 0, 1, 2, 3, 5, 10
assert _GROUP[TOTAL] == "total" and _GROUP[LAST] == "last" and _GROUP[11:] == tuple(f"places_{n}" for n in (1, 2, 3, 4))


class _Row:
    """A standings row being added up from groups."""

    __slots__ = ("best", "games", "name", "place_sum", "places", "player_id", "score_sum", "total", "worst")

    def __init__(self, player_id: int, name: str) -> None:
        self.player_id, self.name = player_id, name
        self.games = self.total = self.place_sum = self.score_sum = 0
        self.best: int | None = None
        self.worst: int | None = None
        self.places = [0, 0, 0, 0]

    def add(self, group: tuple[Any, ...]) -> None:
        """Add a group of ``_groups`` (a tuple in the order of ``_GROUP``)."""
        _, _, _, _, games, total, place_sum, score_sum, best, worst, _, p1, p2, p3, p4 = group
        self.games += games
        self.total += total or 0
        self.place_sum += place_sum or 0
        self.score_sum += score_sum or 0
        if best is not None:
            self.best = best if self.best is None or best > self.best else self.best
        if worst is not None:
            self.worst = worst if self.worst is None or worst < self.worst else self.worst
        places = self.places
        places[0] += p1
        places[1] += p2
        places[2] += p3
        places[3] += p4

    def row(self) -> StandingRow:
        return StandingRow(
            player_id=self.player_id, name=self.name, games=self.games, total=self.total,
            place_sum=self.place_sum, score_sum=self.score_sum, best=self.best,  # type: ignore[arg-type]
            worst=self.worst, places=tuple(self.places),  # type: ignore[arg-type]
        )


def _standings(rows: Iterable[_Row], min_games: int) -> Standings:
    return Standings.build((r.row() for r in rows), min_games=min_games)


def season(
    series: Series, *, rounds: list[int] | None = None,
    through_round: int | None = None, through_date: datetime.date | None = None,
    before_round: int | None = None, before_date: datetime.date | None = None, before: bool = False,
) -> Season:
    """The standings through ``through_round``/``through_date``, those at the
    earlier stage (``before_round``/``before_date``, when ``before``) and the
    running totals over every counted round (``rounds``, from
    ``season_rounds``), in one query over the seats (and one for the names).

    ``standings`` equals ``series.standings(through_round=, through_date=)``
    and ``before`` the second half of ``series.standings_and_before``.
    """
    if rounds is None:
        rounds = season_rounds(series).rounds
    stage = _Stage(rounds, through_round, through_date, before_round, before_date, before)
    groups = _groups(series, stage)
    names = dict(Player.objects.filter(pk__in={g[PLAYER] for g in groups}).values_list("pk", "name"))
    return _assemble(groups, names, stage, series.min_games)


@dataclass(frozen=True)
class _Stage:
    """What decides how the seats are grouped: the rounds (the chart's
    stretches) and the stage shown and the one before (the flags)."""

    rounds: list[int]
    through_round: int | None
    through_date: datetime.date | None
    before_round: int | None
    before_date: datetime.date | None
    before: bool

    def stretch(self, round_number: int) -> int:
        """The stretch of the chart a round falls in, as the query computes it."""
        first, span = self.rounds[0], self.rounds[-1] - self.rounds[0] + 1
        return (round_number - first) * min(span, CHART_POINTS) // span


def _groups(series: Series, stage: _Stage, *, only: Iterable[int] | None = None) -> list[tuple[Any, ...]]:
    """The counted seats (of the rounds ``only``, if given) summed per player,
    stretch of the chart and flags: seated in the stage shown, and in the one before."""
    now_q = seats_through(stage.through_round, stage.through_date)
    was_q = now_q & seats_through(stage.before_round, stage.before_date) if stage.before else None
    annotations: dict[str, Any] = {"now": _flag(now_q), "was": _flag(was_q) if was_q is not None else Value(0)}
    rounds = stage.rounds
    if rounds:
        first, span = rounds[0], rounds[-1] - rounds[0] + 1
        # Integer division in SQL on both SQLite and PostgreSQL: rounds to stretches.
        annotations["stretch"] = ExpressionWrapper(
            (F("game__round_number") - first) * min(span, CHART_POINTS) / span, output_field=IntegerField()
        )
    else:
        annotations["stretch"] = Value(0)
    seats = Seat.objects.counted(series)
    if only is not None:
        seats = seats.filter(game__round_number__in=sorted(only))
    # The names in a query of their own: joining the players to every seat
    # and grouping by the name was a third of this query's time.
    return list(
        seats.annotate(**annotations).values("player_id", "stretch", "now", "was").annotate(**_SUMS)
        .values_list(*_GROUP).order_by()
    )


def _assemble(groups: Iterable[tuple[Any, ...]], names: Mapping[int, str], stage: _Stage, min_games: int) -> Season:
    """The Season from the groups: the rows added up and the running totals."""
    now: dict[int, _Row] = {}
    was: dict[int, _Row] = {}
    per_stretch: dict[int, dict[int, int]] = defaultdict(dict)
    stretch_end: dict[int, int] = {}
    for g in groups:
        pid = g[PLAYER]
        if g[NOW]:
            (now.get(pid) or now.setdefault(pid, _Row(pid, names[pid]))).add(g)
        if g[WAS]:
            (was.get(pid) or was.setdefault(pid, _Row(pid, names[pid]))).add(g)
        if stage.rounds:
            stretch = per_stretch[g[STRETCH]]
            stretch[pid] = stretch.get(pid, 0) + (g[TOTAL] or 0)
            stretch_end[g[STRETCH]] = max(stretch_end.get(g[STRETCH], 0), g[LAST])
    order = sorted(per_stretch)
    running: dict[int, list[int | None]] = {}
    totals: dict[int, int] = {}
    for k, stretch in enumerate(order):
        for pid, p in per_stretch[stretch].items():
            if pid not in running:
                running[pid] = [None] * k
            totals[pid] = totals.get(pid, 0) + p
        for pid, column in running.items():
            column.append(totals[pid])
    return Season(
        standings=_standings(now.values(), min_games),
        before=_standings(was.values(), min_games) if stage.before else None,
        stretch_ends=[stretch_end[s] for s in order],
        running=running,
    )


def cached_season(
    series: Series, *, through_round: int | None = None, through_date: datetime.date | None = None,
) -> tuple[Rounds, Season | None, tuple[int | None, datetime.date | None] | None]:
    """``season_rounds`` and ``season`` for the stage shown, with the stage
    before it (``previous_stage``), cached under the series' results stamp:
    one computation per results change for every page that reads it. The
    stamp is read before anything it covers, so what is cached under it is
    at least as new as the stamp. The Season is None for an event.

    The computation itself starts from the last one for this stage
    (``_Base``) and recomputes only the rounds the changes since touched
    (``ResultsChange``); see ``_computed``."""
    token = stamps.results_token(series.pk)
    return cache.get_or_set(
        _key(series, token, through_round, through_date),
        lambda: _computed(series, through_round, through_date),
        SEASON_CACHE_SECONDS,
    )




@dataclass(frozen=True)
class _Base:
    """What one computation of a stage read, to start the next from:
    ``change`` is the last ``ResultsChange`` (id, nonce) noted before it read
    the data, so the data is at least as new as that note."""

    change: tuple[int, str] | None
    times: _Times
    stage: _Stage | None  # None for an event
    groups: dict[int, list[tuple[Any, ...]]]  # stretch -> its groups
    names: dict[int, str]


# The last computation of each stage, in this process: kept as objects, not
# pickled in the shared cache (thousands of groups: a third of the read's
# time). Each process starts from its own; each is checked against the notes.
_BASES: dict[str, _Base] = {}
BASES_KEPT = 64


def _computed(
    series: Series, through_round: int | None, through_date: datetime.date | None,
) -> tuple[Rounds, Season | None, tuple[int | None, datetime.date | None] | None]:
    """What ``cached_season`` caches. With the last computation of this
    stage kept by this process and every change since noted with its rounds, only
    those rounds are read again: their finishing times, and the seats of the
    chart's stretches they fall in; the other stretches' groups are the
    base's, which no change since has touched. Anything else (a change not
    described, a round first played or gone, a new day, a base missing)
    reads everything, as ``season`` does. A writer that moves results says
    which rounds it touched or nothing (``series_changed``: everything);
    tests/league/test_season_changes.py holds every writer to the full pass."""
    key = f"{series.pk}:{through_round}:{through_date}"
    base = _BASES.get(key)
    dirty, change = rounds_since(series.pk, base.change if base is not None else None)
    if dirty is not None and base is not None:
        times = {r: t for r, t in base.times.items() if r not in dirty}
        times.update(_round_times(series, only=dirty) if dirty else {})
    else:
        times = _round_times(series)
    found = _rounds_of(times)
    previous = previous_stage(found.rounds, found.dates, through_round, through_date)
    if is_event(series):  # ranked by league.standings.event
        _keep(key, _Base(change, times, None, {}, {}))
        return found, None, previous
    stage = _Stage(
        found.rounds, through_round, through_date,
        previous[0] if previous else None, previous[1] if previous else None, previous is not None,
    )
    groups: dict[int, list[tuple[Any, ...]]] | None = None
    if dirty is not None and base is not None and base.stage == stage:
        stretches = {stage.stretch(r) for r in dirty if found.rounds and found.rounds[0] <= r <= found.rounds[-1]}
        groups = {k: v for k, v in base.groups.items() if k not in stretches}
        if stretches:
            again = [r for r in range(found.rounds[0], found.rounds[-1] + 1) if stage.stretch(r) in stretches]
            for g in _groups(series, stage, only=again):
                groups.setdefault(g[STRETCH], []).append(g)
    if groups is None:
        groups = defaultdict(list)
        for g in _groups(series, stage):
            groups[g[STRETCH]].append(g)
        groups = dict(groups)
        names: dict[int, str] = {}
    else:
        names = dict(base.names) if base is not None else {}
    every = [g for k in sorted(groups) for g in groups[k]]
    missing = {g[PLAYER] for g in every} - names.keys()
    if missing:
        names.update(Player.objects.filter(pk__in=missing).values_list("pk", "name"))
    _keep(key, _Base(change, times, stage, groups, names))
    return found, _assemble(every, names, stage, series.min_games), previous


def forget_bases() -> None:
    """Drop this process's last computations: the next read starts from nothing
    (a test that counts what a computation from nothing costs)."""
    _BASES.clear()


_KEEPING = threading.Lock()  # a threaded server: one change of _BASES' size at a time


def _keep(key: str, base: _Base) -> None:
    with _KEEPING:
        _BASES.pop(key, None)
        _BASES[key] = base
        while len(_BASES) > BASES_KEPT:  # the oldest first: a dict keeps its order
            _BASES.pop(next(iter(_BASES)), None)


def season_if_cached(series: Series) -> Season | None:
    """The season now (no round or day asked for) if a page has read it under
    the current results stamp, else None: a page that needs only the table
    reads it from here when the series page came first, and otherwise asks
    for what it needs alone, cheaper than the whole season."""
    found = cache.get(_key(series, stamps.results_token(series.pk), None, None))
    return found[1] if found is not None else None


def _key(series: Series, token: str, through_round: int | None, through_date: datetime.date | None) -> str:
    return f"season:{series.pk}:{token}:{through_round}:{through_date}"


def previous_stage(
    rounds: list[int], dates: list[datetime.date], through_round: int | None, through_date: datetime.date | None
) -> tuple[int | None, datetime.date | None] | None:
    """The round (or day) before the one shown, to measure movement against:
    ``(round, date)``, one of them None for a stage by day or by round alone.

    >>> previous_stage([1, 2, 3], [], None, None)
    (2, None)
    >>> previous_stage([1], [], None, None) is None
    True
    """
    if through_date is not None and through_round is None:
        earlier = [d for d in dates if d < through_date]
        return (None, earlier[-1]) if earlier else None
    current = through_round if through_round is not None else (rounds[-1] if rounds else None)
    earlier_rounds = [r for r in rounds if current is not None and r < current]
    if not earlier_rounds:
        return None
    return earlier_rounds[-1], through_date


def league_standing(
    series: Series, player_id: int, *, totals: Mapping[int, tuple[int, int]] | None = None,
) -> StandingRow | None:
    """One player's row of a league's table now, as ``series.standings()``
    has it (rank, a shared rank, under the minimum), without building the
    whole table: the games and totals of everyone (two sums per player, the
    rank needs no more), then the player's own row over their seats alone.
    None for a player with no counted game. ``totals`` (player -> counted
    games and total, every player with a counted game), when the caller has
    them, saves the first query. An event: ``series_standings``."""
    seats = Seat.objects.counted(series)
    if totals is None:
        totals = {
            r["player_id"]: (r["games"], r["total"])
            for r in seats.values("player_id").annotate(games=Count("id"), total=Sum("points")).order_by()
        }
    if player_id not in totals:
        return None
    own = seats.filter(player_id=player_id).values("player_id", "player__name").annotate(
        **{k: v for k, v in _SUMS.items() if k != "last"}).order_by()
    row = StandingRow.from_values(own[0])
    if row.games < series.min_games:
        return row  # listed apart, unranked
    mine = totals[player_id][1]
    ranked = [total for games, total in totals.values() if games >= series.min_games]
    rank = 1 + sum(1 for total in ranked if total > mine)
    return dataclasses.replace(row, rank=rank, tied=sum(1 for total in ranked if total == mine) > 1)
