"""A rating's table and every player's history: the one read model of ratings.

Reads the stored results of the rating's series (the seats' result snapshots
of counted games, in the order they finished; for the EMA-style ranking, each
event's EMA results, as the EMA file gives them), runs the rating's engine
(``league.ratings``) and caches the answer under the rating's version and the
results stamps of its series: the first read after a finished game computes
it, every other read finds it. Nothing here runs when a hand or a game is
saved, and nothing is stored: the same results give the same table.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import Counter
from dataclasses import dataclass

from django.core.cache import cache
from django.utils import timezone

from league import stamps
from league.models import Game, Player, Rating, RoundSeat, Seat, Series, counting
from league.ratings import EventPlace, EventResult, GameResult, Outcome, SeatResult, Step, SubstituteRule
from league.ratings.mers import mers_ranking
from league.ratings.skill import plackett_luce
from league.ratings.tenhou import tenhou_r
from league.standings.ema import ema_export
from scoring.standings import rank_with_ties

CACHE_SECONDS = 7 * 24 * 3600  # the key changes with every result; this only bounds an unread entry's life


@dataclass(frozen=True)
class RatingRow:
    rank: int | None  # None: not rated yet (the EMA ranking needs two events)
    tied: bool
    player_id: int
    name: str
    value: int | None  # thousandths
    results: int  # games, or events for the EMA ranking
    last_day: datetime.date


@dataclass(frozen=True)
class RatingTable:
    rating_id: int
    version: int
    engine: str
    rows: tuple[RatingRow, ...]
    computed_at: datetime.datetime

    def row(self, player_id: int) -> RatingRow | None:
        return next((r for r in self.rows if r.player_id == player_id), None)


def rating_table(rating: Rating) -> RatingTable:
    """The rating's table, computed on the first read under its version and its series' results stamps."""
    ids = sorted(rating.series.values_list("pk", flat=True))
    key = cache_key(rating, ids)
    found = cache.get(key)
    if found is None:
        found, _ = _compute_and_keep(rating, ids, key)
    return found


def rating_steps(rating: Rating, player_id: int) -> tuple[Step, ...]:
    """One player's steps in order, each with its how-line; () if the rating has none of theirs.

    Kept apart from the table, one entry per player, so a page reads only
    what it shows (a 10,000-game club has 40,000 steps)."""
    ids = sorted(rating.series.values_list("pk", flat=True))
    key = cache_key(rating, ids)
    found = cache.get(f"{key}:p{player_id}")
    if found is None:
        table = cache.get(key)
        if table is not None and table.row(player_id) is None:
            return ()
        _, steps = _compute_and_keep(rating, ids, key)
        found = steps.get(player_id, ())
    return found


def _compute_and_keep(rating: Rating, ids: list[int], key: str) -> tuple[RatingTable, dict[int, tuple[Step, ...]]]:
    table, steps = compute(rating, ids)
    cache.set_many({key: table, **{f"{key}:p{p}": v for p, v in steps.items()}}, CACHE_SECONDS)
    return table, steps


def cache_key(rating: Rating, series_ids: list[int] | None = None) -> str:
    """The rating's version, its engine and the results stamp of each of its series: any change, a new key."""
    ids = sorted(rating.series.values_list("pk", flat=True)) if series_ids is None else series_ids
    tokens = ",".join(f"{i}:{stamps.results_token(i)}" for i in ids)
    return f"rating:{rating.pk}:{rating.version}:{rating.engine}:{hashlib.sha1(tokens.encode()).hexdigest()}"


def compute(rating: Rating, series_ids: list[int] | None = None
            ) -> tuple[RatingTable, dict[int, tuple[Step, ...]]]:
    """The table and each player's steps, from the stored results (nothing cached)."""
    ids = sorted(rating.series.values_list("pk", flat=True)) if series_ids is None else series_ids
    params = rating.settings()
    rule = None if rating.substitutes == Rating.Substitutes.EVENT else SubstituteRule(rating.substitutes)
    if rating.engine == Rating.Engine.MERS:
        outcome = mers_ranking(rating_events(ids), ties=params["ties"], on=timezone.localdate())
    elif rating.engine == Rating.Engine.SKILL:
        outcome = plackett_luce(rating_games(ids, rule), mu=params["mu"], sigma=params["sigma"])
    else:
        outcome = tenhou_r(rating_games(ids, rule), initial=params["initial"])
    return _table(rating, outcome)


def _table(rating: Rating, outcome: Outcome) -> tuple[RatingTable, dict[int, tuple[Step, ...]]]:
    people = Player.objects.filter(pk__in=[p.player for p in outcome.players]).only("name", "club", "country")
    shared = Counter(p.name for p in people)
    # Two people of one name in one table: each row says which (club, country, #id).
    names = {p.pk: p.label() if shared[p.name] > 1 else p.name for p in people}
    rated = [p for p in outcome.players if p.value is not None]
    ranks = rank_with_ties([p.value for p in rated])  # type: ignore[misc]
    rows = [RatingRow(rank=k, tied=ranks.count(k) > 1, player_id=p.player, name=names.get(p.player, "?"),
                      value=p.value, results=p.results, last_day=p.last_day) for p, k in zip(rated, ranks, strict=True)]
    rows += [RatingRow(rank=None, tied=False, player_id=p.player, name=names.get(p.player, "?"), value=None,
                       results=p.results, last_day=p.last_day) for p in outcome.players if p.value is None]
    steps: dict[int, list[Step]] = {}
    for s in outcome.steps:
        steps.setdefault(s.player, []).append(s)
    table = RatingTable(rating_id=rating.pk, version=rating.version, engine=rating.engine, rows=tuple(rows),
                        computed_at=timezone.now())
    return table, {p: tuple(v) for p, v in steps.items()}


def rating_games(series_ids: list[int], rule: SubstituteRule | None = None) -> list[GameResult]:
    """Every counted game of these series in the order they finished, each seat's player and place.

    A seat a substitute played names the registered player it stood in for,
    and the game carries its event's rule for that seat (``rule`` when given:
    the rating's own choice)."""
    names = dict(Series.objects.filter(pk__in=series_ids).values_list("pk", "name"))
    subs: dict[tuple[int, int], int] = {}
    event_rule: dict[int, str] = {}
    for game_id, sub, registered, series_rule in RoundSeat.objects.filter(
            round__series_id__in=series_ids, substitute__isnull=False, table__game__isnull=False).values_list(
            "table__game_id", "substitute__player_id", "registration__player_id",
            "round__series__event__substitute_result"):
        subs[(game_id, sub)] = registered
        event_rule[game_id] = series_rule
    rows = (Seat.objects.filter(counting(prefix="game__"), game__series_id__in=series_ids)
            .order_by("game__finished_at", "game_id", "seat")
            .values_list("game_id", "game__series_id", "game__finished_at", "player_id", "place"))
    games: list[GameResult] = []
    current: list[SeatResult] = []
    last = None
    for game_id, series_id, finished, player, place in rows.iterator(chunk_size=4000):
        if last is not None and last[0] != game_id:
            games.append(_game(last, current, rule, event_rule, names))
            current = []
        last = (game_id, series_id, finished)
        current.append(SeatResult(player, place or len(current) + 1, subs.get((game_id, player))))
    if last is not None:
        games.append(_game(last, current, rule, event_rule, names))
    return games


def _game(last: tuple[int, int, datetime.datetime], seats: list[SeatResult], rule: SubstituteRule | None,
          event_rule: dict[int, str], names: dict[int, str]) -> GameResult:
    game_id, series_id, finished = last
    game_rule = rule or (SubstituteRule(event_rule[game_id]) if game_id in event_rule else None)
    return GameResult(f"{names[series_id]} #{game_id}", timezone.localtime(finished).date(), tuple(seats), game_rule)


def rating_events(series_ids: list[int]) -> list[EventResult]:
    """Each event among these series as the EMA ranks it (its EMA results file), oldest first."""
    out = []
    for series in Series.objects.filter(pk__in=series_ids, event__isnull=False).select_related("event"):
        if not Game.objects.filter(counting(series), series=series).exists():
            continue
        export = ema_export(series)
        if not export.players:
            continue
        w = export.weight
        out.append(EventResult(
            key=series.name, day=export.event.last_day, participants=w.player_count, days=export.event.days,
            countries=w.country_count, qualification=export.event.qualification,
            places=tuple(EventPlace(p.player_id, p.place) for p in export.players),
        ))
    return sorted(out, key=lambda e: (e.day, e.key))
