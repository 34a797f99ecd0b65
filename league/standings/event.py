"""The event's standings: every read that ranks the players or teams of an
event, one answer per question.

``event_results`` (every counted game once; a substituted seat per the event's
rule), ``stage_tables`` (each stage, tie-broken, with its cut line),
``final_result`` (the whole event's order), ``event_standings`` (that order as
the rows every surface shows) and ``team_standings``. ``through_round`` and the
hidden rounds limit every read the same way. Points are thousandths; a half is
exact, an odd thousandth rounds half away from zero. docs/standings.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import Count, Max

from league.collation import name_key
from league.event.results import SubstituteResult, registered_result
from league.models import (
    Event,
    Penalty,
    Registration,
    Round,
    RoundSeat,
    Seat,
    Series,
    counting,
)
from league.models.event import RoundTable, event_of
from league.models.stages import EventRules, Playoff, Stage, StageSeed
from league.models.standing_rows import StandingRow, Standings, div_round
from league.tiebreaks import Contender, rank
from league.tiebreaks import Game as TbGame

# -- reading the event ------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """One counted game of a registered player."""

    round: int
    game: int
    points: int  # thousandths
    place: int | None  # None: a substitute played the seat, so the place is not the player's
    end_score: int = 0  # table points at the end (of whoever sat there)


@dataclass(frozen=True)
class Player:
    id: int  # the registration
    player_id: int  # the Player: pages link to it
    number: int
    name: str
    first_name: str
    last_name: str
    team: str
    country: str
    ema_number: str
    is_substitute: bool
    dropped: bool


@dataclass(frozen=True)
class EventResults:
    players: dict[int, Player]
    games: dict[int, list[Played]]  # registration -> counted games, round order
    rounds: int  # the highest round number with a finished game
    event: Event | None = None  # the event's settings, read once for every read after
    substituted: dict[int, int] = field(default_factory=dict)  # registration -> games a substitute played for them


def event_results(series: Series, *, through_round: int | None = None,
                  event: Event | None | bool = False) -> EventResults:
    """Every registered player's counted games (up to ``through_round``): five
    queries whatever the size (four when the caller passes the ``tournament`` it read)."""
    if event is False:
        event = Event.objects.filter(series=series).first()
    assert event is None or isinstance(event, Event)
    players = {r["id"]: Player(
        id=r["id"], player_id=r["player_id"], number=r["number"], name=f"{r['first_name']} {r['last_name']}".strip(),
        first_name=r["first_name"], last_name=r["last_name"], team=r["team"], country=r["country"],
        ema_number=r["ema_number"], is_substitute=r["is_substitute"], dropped=r["status"] == Registration.Status.DROPPED,
    ) for r in Registration.objects.filter(series=series).values(
        "id", "player_id", "number", "first_name", "last_name", "team", "country", "ema_number", "is_substitute",
        "status")}
    seated = RoundSeat.objects.filter(counting(series, prefix="table__game__"), round__series=series)
    counted_seats = Seat.objects.filter(counting(series, prefix="game__"), game__round_table__round__series=series)
    if through_round is not None:
        seated = seated.filter(round__number__lte=through_round)
        counted_seats = counted_seats.filter(game__round_table__round__number__lte=through_round)
    rows = list(seated.values("registration_id", "substitute_id", "wind", "table__game_id", "round__number"))
    seats = {(s["game_id"], s["seat"]): s for s in counted_seats.values("game_id", "seat", "points", "place", "end_score")}
    substituted = [r["table__game_id"] for r in rows if r["substitute_id"] is not None]
    penalties: dict[tuple[int, int], int] = {}
    for p in Penalty.objects.filter(game_id__in=substituted, cancelled_at=None).values("game_id", "seat", "points"):
        key = (p["game_id"], p["seat"])
        penalties[key] = penalties.get(key, 0) + p["points"]
    rule = event.substitute_result if event else SubstituteResult.REAL
    games: dict[int, list[Played]] = {}
    substituted_for: dict[int, int] = {}
    for r in rows:
        key = (r["table__game_id"], r["wind"])
        seat = seats[key]
        real = Played(round=r["round__number"], game=r["table__game_id"], points=seat["points"], place=seat["place"],
                      end_score=seat["end_score"])
        if r["substitute_id"] is None:
            games.setdefault(r["registration_id"], []).append(real)
            continue
        substituted_for[r["registration_id"]] = substituted_for.get(r["registration_id"], 0) + 1
        counted = registered_result(
            rule, seat_points=seat["points"], penalty=penalties.get(key, 0),
            fixed_score=event.substitute_score if event else 0,
            fixed_uma=event.substitute_uma if event else 0)
        if counted is not None:
            # The substitute took that place, not the registered player: no place column or tie-break counts it.
            games.setdefault(r["registration_id"], []).append(
                Played(round=real.round, game=real.game, points=counted, place=None, end_score=real.end_score))
        games.setdefault(r["substitute_id"], []).append(real)
    for played in games.values():
        played.sort(key=lambda g: g.round)
    return EventResults(players=players, games=games, rounds=max((r["round__number"] for r in rows), default=0),
                        event=event, substituted=substituted_for)


def rules_of(series: Series) -> EventRules:
    """The series' rules, unsaved defaults when none were set."""
    return EventRules.objects.filter(series=series).first() or EventRules(series=series)


def stages_of(series: Series, *, through_round: int | None = None) -> list[Stage]:
    """The series' stages (those started by ``through_round``); a series without
    any is one stage of every round planned or played."""
    stages = list(Stage.objects.filter(series=series).order_by("number"))
    if through_round is not None:
        stages = [s for s in stages if s.first_round <= through_round] or stages[:1]
    if stages:
        return stages
    event = Event.objects.filter(series=series).first()
    last = max(event.rounds if event else 1,
               series.event_rounds.aggregate(n=Max("number"))["n"] or 0)
    return [Stage(series=series, number=1, name="Standings", first_round=1, last_round=last,
                  entry=Stage.Qualification.ALL, carry=Stage.Carry.NONE)]


def carry_points(stage: Stage, seed: int, previous_total: int) -> int:
    """What seed ``seed`` (1 first) carries into ``stage`` from a previous total.

    >>> carry_points(Stage(carry="half"), 1, 45300), carry_points(Stage(carry="half"), 2, -12100)
    (22650, -6050)
    >>> carry_points(Stage(carry="fixed", fixed_points=[8000, 4000, 0, -4000]), 4, 51000)
    -4000
    """
    if stage.carry == Stage.Carry.FULL:
        return previous_total
    if stage.carry == Stage.Carry.HALF:
        return div_round(previous_total, 2)
    if stage.carry == Stage.Carry.FIXED:
        return int(stage.fixed_points[seed - 1])
    return 0


# -- a stage's standings ---------------------------------------------------------------------


@dataclass(frozen=True)
class StageRow:
    player: Player
    seed: int | None
    carried: int
    stage_points: int
    total: int
    games: int
    places: tuple[int, int, int, int]
    rank: int
    tied: bool
    separated_by: str | None  # the rule that put this row below the one above
    goes_on: bool = False  # above the cut line into the next stage


@dataclass(frozen=True)
class StageTable:
    stage: Stage
    rows: list[StageRow]
    entrants_known: bool  # everyone (first stage), or the cut was made
    preview: bool  # entrants worked out from the previous stage, the cut not made yet
    rounds_finished: int  # rounds of this stage with every game finished
    next_stage: Stage | None
    cut: int | None  # K: rows above the line go on to the next stage
    cut_rule: str | None = None  # the rule that separated seed K from K + 1
    cut_tie: list[str] = field(default_factory=list)  # names level across the line after every rule

    @property
    def complete(self) -> bool:
        return self.rounds_finished == self.stage.round_count


def stage_tables(series: Series, results: EventResults | None = None, *,
                 through_round: int | None = None) -> list[StageTable]:
    """Every stage's standings, first stage first, with the cut lines.
    ``results`` must have been read with the same ``through_round``."""
    results = results or event_results(series, through_round=through_round)
    stages = stages_of(series, through_round=through_round)
    event = results.event
    rules = rules_of(series).tiebreak_list
    playoffs: dict[int | None, dict[int, int]] = {}
    for p in Playoff.objects.filter(series=series).values("stage_id", "registration_id", "place"):
        playoffs.setdefault(p["stage_id"], {})[p["registration_id"]] = p["place"]
    entries: dict[int, list[StageSeed]] = {}
    for e in StageSeed.objects.filter(stage__series=series).order_by("seed"):
        entries.setdefault(e.stage_id, []).append(e)
    finished = _finished_rounds(series)
    if through_round is not None:
        finished = {n for n in finished if n <= through_round}
    tables: list[StageTable] = []
    for i, stage in enumerate(stages):
        nxt = stages[i + 1] if i + 1 < len(stages) and stages[i + 1].is_cut else None
        preview = False
        if not stage.is_cut:
            # Only players with a counted game: a late registration who has not played is not ranked anywhere.
            seeds = {pid: (None, 0) for pid in results.players if results.games.get(pid)}
            # A substitute's own games are listed only where the event lists substitutes.
            if not (event and event.substitutes_in_standings):
                seeds = {pid: v for pid, v in seeds.items() if not results.players[pid].is_substitute}
        elif stage.pk in entries:
            seeds = {e.registration_id: (e.seed, e.carried) for e in entries[stage.pk]}
        else:
            previous = tables[-1] if tables else None
            preview = True
            seeds = {}
            if previous is not None and previous.cut is not None and not previous.cut_tie:
                for seed, row in enumerate(previous.rows[:previous.cut], start=1):
                    seeds[row.player.id] = (seed, _carry_or_zero(stage, seed, row.total))
        rows = _rank_stage(stage, seeds, results, rules, playoffs.get(stage.pk, {}), carry_games=i > 0)
        rounds_done = sum(1 for n in range(stage.first_round, stage.last_round + 1) if n in finished)
        table = StageTable(stage=stage, rows=rows, entrants_known=not preview, preview=preview,
                           rounds_finished=rounds_done, next_stage=nxt, cut=nxt.top if nxt else None)
        if table.cut is not None:
            table = _with_cut(table)
        tables.append(table)
    return tables


def _carry_or_zero(stage: Stage, seed: int, total: int) -> int:
    try:
        return carry_points(stage, seed, total)
    except (IndexError, ValueError, TypeError):
        return 0


def _finished_rounds(series: Series) -> set[int]:
    """Round numbers started with every table's game counted (finished, and
    signed off where the series asks: a cut waits for the last signature). One query."""
    rounds = RoundTable.objects.filter(round__series=series, round__status=Round.Status.STARTED).values(
        "round__number").annotate(tables=Count("id"), counted=Count("game", filter=counting(series, prefix="game__")))
    return {r["round__number"] for r in rounds.order_by() if r["tables"] and r["counted"] == r["tables"]}


def _rank_stage(stage: Stage, seeds: Mapping[int, tuple[int | None, int]], results: EventResults, rules: list[str],
                playoff: Mapping[int, int], *, carry_games: bool) -> list[StageRow]:
    contenders = []
    for pid, (seed, carried) in seeds.items():
        games = [g for g in results.games.get(pid, []) if stage.has_round(g.round)]
        # Tie-breaks look at the games whose points the total holds: the earlier stages' too when points carry in whole or half.
        counted = games
        if carry_games and stage.carry in (Stage.Carry.FULL, Stage.Carry.HALF):
            counted = [g for g in results.games.get(pid, []) if g.round <= stage.last_round]
        player = results.players[pid]
        contenders.append(Contender(
            id=pid, name=player.name, total=carried + sum(g.points for g in games),
            games=tuple(TbGame(table=g.game, points=g.points, place=g.place) for g in counted),
            data=(player, seed, carried, games)))
    rows = []
    for r in rank(contenders, rules, playoff=playoff):
        player, seed, carried, games = r.contender.data
        rows.append(StageRow(
            player=player, seed=seed, carried=carried, stage_points=sum(g.points for g in games), total=r.contender.total,
            games=len(games), places=places_of(games),
            rank=r.rank, tied=r.tied, separated_by=r.separated_by))
    return rows


def places_of(games: list[Played]) -> tuple[int, int, int, int]:
    """How many 1st, 2nd, 3rd and 4th places: a seat a substitute played is none of them."""
    return (sum(1 for g in games if g.place == 1), sum(1 for g in games if g.place == 2),
            sum(1 for g in games if g.place == 3), sum(1 for g in games if g.place == 4))


def _with_cut(table: StageTable) -> StageTable:
    k = table.cut
    assert k is not None
    rows = [StageRow(**{**r.__dict__, "goes_on": i < k}) for i, r in enumerate(table.rows)]
    rule = None
    tie: list[str] = []
    if len(rows) > k:
        below = rows[k]
        if below.tied and rows[k - 1].rank == below.rank:
            tie = [r.player.name for r in rows if r.rank == below.rank]
        else:
            rule = below.separated_by
    return StageTable(**{**table.__dict__, "rows": rows, "cut_rule": rule, "cut_tie": tie})


# -- the whole event's order --------------------------------------------------------------------


@dataclass(frozen=True)
class FinalRow:
    place: int
    tied: bool
    player: Player
    total: int  # thousandths, in the standings of the stage they ended in
    stage: Stage  # the last stage they played
    row: StageRow | None = field(default=None, compare=False)  # their row in that stage: separated_by, places


def final_result(series: Series, tables: list[StageTable] | None = None, *,
                 results: EventResults | None = None) -> list[FinalRow]:
    """Everyone with a counted game, in final place: the last stage whose
    entrants are known first, then those cut from each earlier stage in that
    stage's order. Ties left after every rule share a place ("=5"); a player
    who has not played (a late registration) is not placed at all.
    Pass ``results`` with ``tables`` read from them, to read nothing twice."""
    if tables is None:
        results = results or event_results(series)
        tables = stage_tables(series, results)
    played = None if results is None else {pid for pid, games in results.games.items() if games}
    known = [t for t in tables if t.entrants_known]
    out: list[FinalRow] = []
    placed: set[int] = set()
    for table in reversed(known):
        rest = [r for r in table.rows if r.player.id not in placed]
        for r in rest:
            placed.add(r.player.id)
        # Entrants of the stage rank even before their first game there; in the first stage, only players with a game.
        if table is known[0]:
            rest = [r for r in rest if (r.games if played is None else r.player.id in played)]
        offset = len(out)
        for r in rest:
            first = next(j for j, o in enumerate(rest) if o.rank == r.rank)
            place = offset + first + 1
            out.append(FinalRow(place=place, tied=sum(1 for o in rest if o.rank == r.rank) > 1, player=r.player,
                                total=r.total, stage=table.stage, row=r))
    return out


STAGE = "stage"  # a row's separated_by when a later stage's players are above it


# -- the standings every page shows --------------------------------------------------------------


@dataclass(frozen=True)
class EventStandings:
    """The event's standings in final order: one row per placed player (and
    substitute, where the event lists them)."""

    standings: Standings  # rows keyed by the registered player's Player id
    registrations: dict[int, int]  # Player id -> Registration id
    substituted: dict[int, int]  # Player id -> games a substitute played in their seat
    through_round: int | None  # the last round counted (None: all)
    hidden_from: int | None  # the public sees nothing from this round on
    staged: bool = False  # the event has a cut: the total is the final stage's, not the sum of every game


def event_standings(series: Series, *, through_round: int | None = None, public: bool = False) -> EventStandings:
    """The event's order after ``through_round`` (None: every round), as
    ``final_result`` places it. ``public`` leaves out the rounds the director
    hides. Each row's ``total`` is what ranks it (carried points plus the
    stage's games, for a player who reached a later stage); ``games_sum`` is
    the plain sum of all their games, for a labelled column that never orders."""
    event = Event.objects.filter(series=series).first()  # fresh: the director may just have hidden rounds
    hidden = event.hidden_from_round if event and public else None
    limit = through_round
    if hidden is not None:
        limit = hidden - 1 if limit is None else min(limit, hidden - 1)
    results = event_results(series, through_round=limit, event=event)
    tables = stage_tables(series, results, through_round=limit)
    final = final_result(series, tables, results=results)
    ranked: list[StandingRow] = []
    unranked: list[StandingRow] = []
    for i, f in enumerate(final):
        games = results.games.get(f.player.id, [])
        why = f.row.separated_by if f.row is not None else None
        if i and f.stage is not final[i - 1].stage:
            why = STAGE  # below everyone who reached a later stage, whatever the points

        pts = [g.points for g in games]
        placed = [g.place for g in games if g.place is not None]
        row = StandingRow(
            player_id=f.player.player_id, name=f.player.name + (" (substitute)" if f.player.is_substitute else ""),
            games=len(games), total=f.total, place_sum=sum(placed), score_sum=sum(g.end_score for g in games),
            best=max(pts, default=0), worst=min(pts, default=0), places=places_of(games),
            rank=f.place, tied=f.tied, separated_by=why,
            games_sum=sum(pts), stage=f.stage.name if len(tables) > 1 else "",
        )
        (ranked if row.games >= series.min_games else unranked).append(row)
    if unranked:
        ranked = _renumbered(ranked)
        unranked = [dataclasses.replace(r, rank=None, tied=False) for r in unranked]
    return EventStandings(
        standings=Standings(ranked=tuple(ranked), unranked=tuple(unranked)),
        registrations={p.player_id: p.id for p in results.players.values()},
        substituted={results.players[k].player_id: v for k, v in results.substituted.items()},
        through_round=limit,
        hidden_from=hidden,
        staged=len(tables) > 1,
    )


def _renumbered(rows: list[StandingRow]) -> list[StandingRow]:
    """Places again after rows were taken out, ties kept: [1, 2, =3, =3] stays so."""
    out = []
    for r in rows:
        first = next(j for j, o in enumerate(rows) if o.rank == r.rank)
        out.append(dataclasses.replace(r, rank=first + 1))
    return out


def series_standings(series: Series) -> Standings:
    """The standings now: an event's final order, or a league's table."""
    if event_of(series) is not None:
        return event_standings(series).standings
    return series.standings()


# -- teams -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamRow:
    name: str
    members: list[Player]
    by_round: dict[int, int]  # round -> the team's points that round (thousandths)
    counted: dict[int, list[int]]  # round -> registrations whose points counted
    total: int
    rank: int = 0
    tied: bool = False


def team_standings(series: Series, results: EventResults | None = None) -> list[TeamRow]:
    """Teams ranked by the sum, over rounds, of their members' points in each
    round: every member's (``sum``) or the best K members' (``best``).
    Teams level share a rank: no tie-break is defined for teams."""
    results = results or event_results(series)
    rules = rules_of(series)
    teams: dict[str, list[Player]] = {}
    for p in sorted(results.players.values(), key=lambda p: p.number):
        if p.team and not p.is_substitute:
            teams.setdefault(p.team, []).append(p)
    rows = []
    for name, members in teams.items():
        per_round: dict[int, list[tuple[int, int]]] = {}
        for m in members:
            for g in results.games.get(m.id, []):
                per_round.setdefault(g.round, []).append((g.points, m.id))
        # A round in which no member played counts 0 for the team (the page says so).
        by_round: dict[int, int] = dict.fromkeys(range(1, results.rounds + 1), 0)
        counted: dict[int, list[int]] = {n: [] for n in by_round}
        for rnd, scores in sorted(per_round.items()):
            scores.sort(key=lambda s: -s[0])
            if rules.team_scoring == EventRules.TeamScoring.BEST:
                scores = scores[:rules.team_best]
            by_round[rnd] = sum(s[0] for s in scores)
            counted[rnd] = [s[1] for s in scores]
        rows.append(TeamRow(name=name, members=members, by_round=by_round, counted=counted, total=sum(by_round.values())))
    rows.sort(key=lambda r: (-r.total, name_key(r.name)))
    out = []
    for r in rows:
        first = next(i for i, o in enumerate(rows) if o.total == r.total) + 1
        out.append(TeamRow(**{**r.__dict__, "rank": first, "tied": sum(1 for o in rows if o.total == r.total) > 1}))
    return out
