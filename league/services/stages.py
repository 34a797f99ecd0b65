"""Stages, cuts, tie-breaks and teams of an event (``league.models.stages``).

Reads: ``event_results`` gathers every counted game of every registered
player once (a substitute's seat counts for the registered player as the
event's substitute rule says, as in ``event_standings``); ``stage_tables``
ranks each stage with the series' tie-breaks and marks the cut line;
``final_result`` is the whole event's order (the last stage's entrants, then
those cut earlier by their stage's standings); ``team_standings`` ranks teams.

Writes (``set_stages``, ``cut_to_stage``, ``seat_stage_round``,
``record_playoff``, ``configure_event_rules``) each open one transaction that
locks the series row first, as the event services do, check everything
before saving, and leave a ``TournamentAudit`` row.

Points are thousandths throughout; half a total is exact for any total in
hundredths of a point (every table score and uma is), and an odd thousandth
rounds half away from zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from league import ema
from league.models import (
    Game,
    Penalty,
    Registration,
    Round,
    RoundSeat,
    Seat,
    Series,
    Tournament,
    TournamentAudit,
    counting,
)
from league.models.games import _div_round
from league.models.stages import EventRules, Playoff, Stage, StageEntry
from league.seating import SeatingError, assess, seat_winds, swiss_round
from league.services.audit import Actor
from league.services.errors import ServiceError
from league.services.tournament import lock_series, log, tournament_of
from league.services.tournament.rounds import round_tables, store_round
from league.tiebreaks import Entry, TiebreakError, check_rules, rank
from league.tiebreaks import Game as TbGame
from league.tournament.results import SubstituteResult, registered_result

Action = TournamentAudit.Action
TABLE = 4


# -- reading the event ------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """One counted game of a registered player."""

    round: int
    game: int
    points: int  # thousandths
    place: int


@dataclass(frozen=True)
class Player:
    id: int  # the registration
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


def event_results(series: Series) -> EventResults:
    """Every registered player's counted games: five queries whatever the size."""
    tournament = Tournament.objects.filter(series=series).first()
    players = {r["id"]: Player(
        id=r["id"], number=r["number"], name=f"{r['first_name']} {r['last_name']}".strip(),
        first_name=r["first_name"], last_name=r["last_name"], team=r["team"], country=r["country"],
        ema_number=r["ema_number"], is_substitute=r["is_substitute"], dropped=r["status"] == Registration.Status.DROPPED,
    ) for r in Registration.objects.filter(series=series).values(
        "id", "number", "first_name", "last_name", "team", "country", "ema_number", "is_substitute", "status")}
    rows = list(RoundSeat.objects.filter(counting(series, prefix="table__game__"), round__series=series).values(
        "registration_id", "substitute_id", "wind", "table__game_id", "round__number"))
    seats = {(s["game_id"], s["seat"]): s for s in Seat.objects.filter(
        counting(series, prefix="game__"), game__round_table__round__series=series).values(
        "game_id", "seat", "points", "place")}
    substituted = [r["table__game_id"] for r in rows if r["substitute_id"] is not None]
    penalties: dict[tuple[int, int], int] = {}
    for p in Penalty.objects.filter(game_id__in=substituted, cancelled_at=None).values("game_id", "seat", "points"):
        key = (p["game_id"], p["seat"])
        penalties[key] = penalties.get(key, 0) + p["points"]
    rule = tournament.substitute_result if tournament else SubstituteResult.REAL
    games: dict[int, list[Played]] = {}
    for r in rows:
        key = (r["table__game_id"], r["wind"])
        seat = seats[key]
        real = Played(round=r["round__number"], game=r["table__game_id"], points=seat["points"], place=seat["place"])
        if r["substitute_id"] is None:
            games.setdefault(r["registration_id"], []).append(real)
            continue
        counted = registered_result(
            rule, seat_points=seat["points"], penalty=penalties.get(key, 0),
            fixed_score=tournament.substitute_score if tournament else 0,
            fixed_uma=tournament.substitute_uma if tournament else 0)
        if counted is not None:
            games.setdefault(r["registration_id"], []).append(
                Played(round=real.round, game=real.game, points=counted, place=real.place))
        games.setdefault(r["substitute_id"], []).append(real)
    for played in games.values():
        played.sort(key=lambda g: g.round)
    return EventResults(players=players, games=games, rounds=max((r["round__number"] for r in rows), default=0))


def rules_of(series: Series) -> EventRules:
    """The series' rules, unsaved defaults when none were set."""
    return EventRules.objects.filter(series=series).first() or EventRules(series=series)


def stages_of(series: Series) -> list[Stage]:
    """The series' stages; a series without any is one stage of every round planned or played."""
    stages = list(Stage.objects.filter(series=series).order_by("number"))
    if stages:
        return stages
    tournament = Tournament.objects.filter(series=series).first()
    last = max(tournament.rounds if tournament else 1,
               series.event_rounds.aggregate(n=Max("number"))["n"] or 0)
    return [Stage(series=series, number=1, name="Standings", first_round=1, last_round=last,
                  entry=Stage.Entry.ALL, carry=Stage.Carry.NONE)]


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
        return _div_round(previous_total, 2)
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


def stage_tables(series: Series, results: EventResults | None = None) -> list[StageTable]:
    """Every stage's standings, first stage first, with the cut lines."""
    results = results or event_results(series)
    stages = stages_of(series)
    rules = rules_of(series).tiebreak_list
    playoffs: dict[int | None, dict[int, int]] = {}
    for p in Playoff.objects.filter(series=series).values("stage_id", "registration_id", "place"):
        playoffs.setdefault(p["stage_id"], {})[p["registration_id"]] = p["place"]
    entries: dict[int, list[StageEntry]] = {}
    for e in StageEntry.objects.filter(stage__series=series).order_by("seed"):
        entries.setdefault(e.stage_id, []).append(e)
    finished = _finished_rounds(series)
    tables: list[StageTable] = []
    for i, stage in enumerate(stages):
        nxt = stages[i + 1] if i + 1 < len(stages) and stages[i + 1].is_cut else None
        preview = False
        if not stage.is_cut:
            seeds = {pid: (None, 0) for pid, p in results.players.items()
                     if (not p.is_substitute or results.games.get(pid)) and not (p.dropped and not results.games.get(pid))}
            # A substitute's own games are listed only where the event lists substitutes.
            tournament = Tournament.objects.filter(series=series).first()
            if not (tournament and tournament.substitutes_in_standings):
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
    signed off where the series asks: a cut waits for the last signature)."""
    done = set()
    for rnd in series.event_rounds.filter(status=Round.Status.STARTED).prefetch_related("tables__game"):
        tables = list(rnd.tables.all())
        if tables and all(t.game is not None and t.game.counts(series) for t in tables):
            done.add(rnd.number)
    return done


def _rank_stage(stage: Stage, seeds: Mapping[int, tuple[int | None, int]], results: EventResults, rules: list[str],
                playoff: Mapping[int, int], *, carry_games: bool) -> list[StageRow]:
    entries = []
    for pid, (seed, carried) in seeds.items():
        games = [g for g in results.games.get(pid, []) if stage.has_round(g.round)]
        # Tie-breaks look at the games whose points the total holds: the earlier stages' too when points carry in whole or half.
        counted = games
        if carry_games and stage.carry in (Stage.Carry.FULL, Stage.Carry.HALF):
            counted = [g for g in results.games.get(pid, []) if g.round <= stage.last_round]
        player = results.players[pid]
        entries.append(Entry(
            id=pid, name=player.name, total=carried + sum(g.points for g in games),
            games=tuple(TbGame(table=g.game, points=g.points, place=g.place) for g in counted),
            data=(player, seed, carried, games)))
    rows = []
    for r in rank(entries, rules, playoff=playoff):
        player, seed, carried, games = r.entry.data
        rows.append(StageRow(
            player=player, seed=seed, carried=carried, stage_points=sum(g.points for g in games), total=r.entry.total,
            games=len(games), places=tuple(sum(1 for g in games if g.place == n) for n in (1, 2, 3, 4)),  # type: ignore[arg-type]
            rank=r.rank, tied=r.tied, separated_by=r.separated_by))
    return rows


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


def final_result(series: Series, tables: list[StageTable] | None = None) -> list[FinalRow]:
    """Everyone's final place: the last stage whose entrants are known first,
    then those cut from each earlier stage in that stage's order. Ties left
    after every rule share a place."""
    tables = tables if tables is not None else stage_tables(series)
    known = [t for t in tables if t.entrants_known]
    out: list[FinalRow] = []
    placed: set[int] = set()
    for table in reversed(known):
        rest = [r for r in table.rows if r.player.id not in placed]
        if not rest:
            continue
        offset, first_rank = len(out), rest[0].rank
        ranks = [offset + r.rank - first_rank + 1 for r in rest]
        for r, place in zip(rest, ranks, strict=True):
            out.append(FinalRow(place=place, tied=ranks.count(place) > 1, player=r.player, total=r.total,
                                stage=table.stage))
            placed.add(r.player.id)
    return out


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
        by_round, counted = {}, {}
        for rnd, scores in sorted(per_round.items()):
            scores.sort(key=lambda s: -s[0])
            if rules.team_scoring == EventRules.TeamScoring.BEST:
                scores = scores[:rules.team_best]
            by_round[rnd] = sum(s[0] for s in scores)
            counted[rnd] = [s[1] for s in scores]
        rows.append(TeamRow(name=name, members=members, by_round=by_round, counted=counted, total=sum(by_round.values())))
    rows.sort(key=lambda r: (-r.total, r.name))
    out = []
    for r in rows:
        first = next(i for i, o in enumerate(rows) if o.total == r.total) + 1
        out.append(TeamRow(**{**r.__dict__, "rank": first, "tied": sum(1 for o in rows if o.total == r.total) > 1}))
    return out


def teams_of(series: Series) -> dict[int, str]:
    """Registration -> team, for the seating engine (registrations without a team left out)."""
    return dict(Registration.objects.filter(series=series).exclude(team="").values_list("id", "team"))


# -- writes ------------------------------------------------------------------------------------


def configure_event_rules(*, series: Series, by: Actor = None, **values: Any) -> EventRules:
    """Change the series' tie-breaks, team scoring or EMA details (``EventRules`` fields by name)."""
    if "tiebreaks" in values:
        rules = values["tiebreaks"]
        if not isinstance(rules, str):
            rules = ",".join(rules)
        try:
            check_rules([r.strip() for r in rules.split(",") if r.strip()])
        except TiebreakError as err:
            raise ServiceError(err.code, err.message, field="tiebreaks") from None
        values["tiebreaks"] = rules
    with transaction.atomic():
        lock_series(series)
        tournament_of(series)
        rules_row, _ = EventRules.objects.get_or_create(series=series)
        changed = {}
        for name, value in values.items():
            EventRules._meta.get_field(name)  # an unknown name is a programming error: FieldDoesNotExist
            if getattr(rules_row, name) != value:
                changed[name] = [str(getattr(rules_row, name)), str(value)]
                setattr(rules_row, name, value)
        try:
            rules_row.full_clean()
        except Exception as err:  # ValidationError: name the first field at fault
            fields = getattr(err, "message_dict", {"rules": [str(err)]})
            name, messages = next(iter(fields.items()))
            raise ServiceError("invalid_rules", f"{name}: {messages[0]}", field=name) from None
        rules_row.save()
        if changed:
            log(series, Action.SETTINGS, by, "event rules: " + ", ".join(f"{k} {a} -> {b}" for k, (a, b) in changed.items()),
                changed=changed)
    return rules_row


@dataclass(frozen=True)
class StagePlan:
    """One stage as the director defines it."""

    name: str
    first_round: int
    last_round: int
    entry: str = "all"  # Stage.Entry
    top: int | None = None
    carry: str = "none"  # Stage.Carry
    fixed_points: tuple[int, ...] = ()
    seating: str = "snake"  # Stage.Seating


def check_plan(plans: Sequence[StagePlan]) -> None:
    """Refuse a stage list that cannot run, naming the stage and field at fault."""
    if not plans:
        raise ServiceError("no_stages", "an event has at least one stage", field="stages")
    for i, p in enumerate(plans, start=1):
        where = f"stage {i} ({p.name or 'unnamed'})"
        if not p.name.strip():
            raise ServiceError("required", f"stage {i} needs a name", field=f"stages[{i}].name")
        if p.first_round < 1 or p.last_round < p.first_round:
            raise ServiceError("invalid_rounds", f"{where}: rounds {p.first_round} to {p.last_round} is not a run of "
                               "rounds", field=f"stages[{i}].last_round")
        expected = 1 if i == 1 else plans[i - 2].last_round + 1
        if p.first_round != expected:
            raise ServiceError("invalid_rounds", f"{where} must start at round {expected}: stages follow each other "
                               "without a gap", field=f"stages[{i}].first_round")
        if p.entry not in Stage.Entry.values:
            raise ServiceError("invalid_entry", f"{where}: entry is one of {', '.join(Stage.Entry.values)}",
                               field=f"stages[{i}].entry")
        if p.carry not in Stage.Carry.values:
            raise ServiceError("invalid_carry", f"{where}: carry-over is one of {', '.join(Stage.Carry.values)}",
                               field=f"stages[{i}].carry")
        if p.seating not in Stage.Seating.values:
            raise ServiceError("invalid_seating", f"{where}: seating is one of {', '.join(Stage.Seating.values)}",
                               field=f"stages[{i}].seating")
        if i == 1 and p.entry != Stage.Entry.ALL:
            raise ServiceError("invalid_entry", "the first stage takes everyone", field="stages[1].entry")
        if p.entry == Stage.Entry.TOP:
            if not isinstance(p.top, int) or p.top < TABLE or p.top % TABLE:
                raise ServiceError("invalid_top", f"{where}: the cut takes a multiple of 4 players (4, 8, 16...)",
                                   field=f"stages[{i}].top")
            previous = plans[i - 2]
            if previous.entry == Stage.Entry.TOP and previous.top is not None and p.top >= previous.top:
                raise ServiceError("invalid_top", f"{where}: the cut takes fewer than the {previous.top} of "
                                   f"{previous.name}", field=f"stages[{i}].top")
            if p.carry == Stage.Carry.FIXED:
                if len(p.fixed_points) != p.top or not all(isinstance(x, int) and not isinstance(x, bool)
                                                          for x in p.fixed_points):
                    raise ServiceError("invalid_fixed_points", f"{where}: fixed carry-over needs one whole number of "
                                       f"thousandths per seed ({p.top})", field=f"stages[{i}].fixed_points")


def set_stages(*, series: Series, plans: Sequence[StagePlan], by: Actor = None) -> list[Stage]:
    """Replace the series' stages. Refused once a cut stage has been seated
    (its seeds and rounds would no longer match). Locks the series row."""
    check_plan(plans)
    with transaction.atomic():
        series = lock_series(series)
        tournament_of(series)
        existing = list(Stage.objects.filter(series=series))
        for stage in existing:
            if stage.is_cut and series.event_rounds.filter(
                    number__gte=stage.first_round, number__lte=stage.last_round).exists():
                raise ServiceError("stage_seated", f"{stage.name} already has seated rounds: stages can no longer "
                                   "change", field="stages")
        Stage.objects.filter(series=series).delete()
        created = [Stage.objects.create(
            series=series, number=i, name=p.name.strip(), first_round=p.first_round, last_round=p.last_round,
            entry=p.entry, top=p.top if p.entry == Stage.Entry.TOP else None,
            carry=p.carry if p.entry == Stage.Entry.TOP else Stage.Carry.NONE,
            fixed_points=list(p.fixed_points) if p.carry == Stage.Carry.FIXED else [], seating=p.seating,
        ) for i, p in enumerate(plans, start=1)]
        log(series, Action.SETTINGS, by, "stages: " + "; ".join(
            f"{s.name} rounds {s.rounds_label}" + (f", top {s.top}, {s.get_carry_display().lower()}" if s.is_cut else "")
            for s in created), stages=[s.pk for s in created])
    return created


def cut_to_stage(*, stage: Stage, by: Actor = None) -> list[StageEntry]:
    """Make the cut into ``stage``: the top K of the previous stage's standings
    become its seeds, carrying points as the stage says. Refused while the
    previous stage has games to play, while players are level across the line
    after every tie-break (record a playoff), or once the stage is seated.
    Locks the series row."""
    with transaction.atomic():
        series = lock_series(stage.series)
        stage = Stage.objects.get(pk=stage.pk)
        if not stage.is_cut:
            raise ServiceError("not_a_cut", f"{stage.name} takes everyone: there is no cut to make", field="stage")
        if series.event_rounds.filter(number__gte=stage.first_round, number__lte=stage.last_round).exclude(
                status=Round.Status.DRAFT).exists():
            raise ServiceError("stage_seated", f"{stage.name} has published rounds: its seeds are fixed", field="stage")
        tables = stage_tables(series)
        previous = next(t for t in tables if t.next_stage is not None and t.next_stage.pk == stage.pk)
        if not previous.complete:
            raise ServiceError("stage_unfinished", f"{previous.stage.name} has {previous.rounds_finished} of "
                               f"{previous.stage.last_round - previous.stage.first_round + 1} rounds finished: the "
                               "cut comes after its last game", field="stage")
        if len(previous.rows) < (stage.top or 0):
            raise ServiceError("too_few_players", f"{previous.stage.name} has {len(previous.rows)} players, fewer "
                               f"than the top {stage.top}", field="stage")
        if previous.cut_tie:
            raise ServiceError("tie_at_cut", f"{', '.join(previous.cut_tie)} are level at the cut after every "
                               "tie-break: record a playoff between them", field="playoff")
        StageEntry.objects.filter(stage=stage).delete()
        entries = StageEntry.objects.bulk_create(StageEntry(
            stage=stage, registration_id=row.player.id, seed=seed, previous_total=row.total,
            carried=carry_points(stage, seed, row.total),
        ) for seed, row in enumerate(previous.rows[:stage.top], start=1))
        stage.cut_at = timezone.now()
        stage.save(update_fields=["cut_at"])
        above, below = previous.rows[stage.top - 1], previous.rows[stage.top] if len(previous.rows) > stage.top else None
        line = (f"; the line between {above.player.name} and {below.player.name} decided by "
                f"{previous.cut_rule or 'points'}") if below else ""
        log(series, Action.SETTINGS, by, f"cut to {stage.name}: top {stage.top} of {previous.stage.name}{line}",
            stage=stage.pk, seeds=[e.registration_id for e in entries])
    return entries


def snake_tables(order: Sequence[Any], teams: Mapping[Any, str] | None = None) -> list[tuple[Any, ...]]:
    """Seeds in order as tables, snake-wise: 16 players sit 1-8-9-16, 2-7-10-15, 3-6-11-14, 4-5-12-13.
    With ``teams``, teammates at one table swap with a player of the same band
    (seeds 5-8, say) at another table, while that seats fewer teammates together.

    >>> snake_tables(range(1, 17))
    [(1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)]
    >>> snake_tables(range(1, 9), teams={1: "Kita", 4: "Kita"})
    [(1, 3, 5, 8), (2, 4, 6, 7)]
    """
    order = list(order)
    tables = len(order) // TABLE
    groups: list[list[Any]] = [[] for _ in range(tables)]
    for i, p in enumerate(order):
        band, pos = divmod(i, tables)
        groups[pos if band % 2 == 0 else tables - 1 - pos].append(p)
    if teams:
        _part_teammates(groups, teams)
    return [tuple(g) for g in groups]


def _together(group: Sequence[Any], teams: Mapping[Any, str]) -> int:
    named = [teams[p] for p in group if p in teams]
    return len(named) - len(set(named))


def _part_teammates(groups: list[list[Any]], teams: Mapping[Any, str]) -> None:
    # Greedy swaps within a band keep every table's seeding shape; the lowest band
    # moves first (a lower seed changes table before a top seed); a few passes settle it.
    for _ in range(2 * TABLE):
        improved = False
        for band in reversed(range(TABLE)):
            for i, j in combinations(range(len(groups)), 2):
                before = _together(groups[i], teams) + _together(groups[j], teams)
                groups[i][band], groups[j][band] = groups[j][band], groups[i][band]
                if _together(groups[i], teams) + _together(groups[j], teams) < before:
                    improved = True
                else:
                    groups[i][band], groups[j][band] = groups[j][band], groups[i][band]
        if not improved:
            return


def seat_stage_round(*, stage: Stage, by: Actor = None) -> Round:
    """Seat the next round of a cut stage as a draft for review (swap and
    publish as any round). The first round follows the seeds (snake or locked
    groups); later ones the stage's standings (locked groups, or Swiss with no
    repeat meeting where the engine can). Teammates are kept apart where the
    series asks and the mode allows. Draft rounds seated earlier for everyone
    in this stage's range are replaced. Locks the series row."""
    with transaction.atomic():
        series = lock_series(stage.series)
        tournament = tournament_of(series)
        stage = Stage.objects.get(pk=stage.pk)
        if not stage.is_cut:
            raise ServiceError("event_seating", f"{stage.name} takes everyone: seat it from the event's seating page",
                               field="stage")
        entries = list(StageEntry.objects.filter(stage=stage).order_by("seed"))
        if not entries:
            raise ServiceError("cut_first", f"make the cut into {stage.name} first", field="stage")
        rounds = list(series.event_rounds.order_by("number"))
        for r in rounds:
            if r.number >= stage.first_round and r.status == Round.Status.DRAFT:
                r.delete()
        rounds = [r for r in rounds if r.number < stage.first_round or r.status != Round.Status.DRAFT]
        number = (rounds[-1].number if rounds else 0) + 1
        if not stage.has_round(number):
            raise ServiceError("stage_full", f"{stage.name} is rounds {stage.rounds_label}; the next round is {number}",
                               field="stage")
        if rounds and Game.objects.filter(round_table__round=rounds[-1]).exclude(counting(series)).exists():
            raise ServiceError("round_playing", f"round {rounds[-1].number} is still being played (or waits for "
                               "its tables' sign-off)", field="stage")
        history = [round_tables(r) for r in rounds if stage.has_round(r.number)]
        everything = [round_tables(r) for r in rounds]
        rules = rules_of(series)
        teams = {k: v for k, v in teams_of(series).items() if k in {e.registration_id for e in entries}}
        teams = teams if rules.teammates_apart and teams else {}
        if not history:
            order = [e.registration_id for e in entries]
        else:
            table = next(t for t in stage_tables(series) if t.stage.pk == stage.pk)
            order = [r.player.id for r in table.rows]
        try:
            if stage.seating == Stage.Seating.LOCKED or (stage.seating == Stage.Seating.SNAKE and not history):
                groups = [tuple(order[i:i + TABLE]) for i in range(0, len(order), TABLE)] \
                    if stage.seating == Stage.Seating.LOCKED else snake_tables(order, teams)
                seated = seat_winds(groups, everything)
            else:
                seated = swiss_round(order, history, teams=teams or None).round
        except SeatingError as err:
            raise ServiceError(err.code, err.message, field=err.field) from None
        rnd = store_round(series, tournament, number, seated, f"stage:{stage.seating}")
        quality = assess([*history, seated], len(order), teams or None)
        log(series, Action.SEAT, by, f"seated round {number} ({stage.name}, {stage.get_seating_display().lower()}): "
            f"{quality.repeat_count} repeat meetings, {quality.teammates_together} teammates together",
            round_number=number, quality=quality.as_dict())
    return rnd


def record_playoff(*, series: Series, stage: Stage | None, places: Iterable[tuple[Registration, int]],
                   by: Actor = None) -> list[Playoff]:
    """Record a playoff's result (1 won) among players level after every
    other rule, in ``stage``'s standings (None: the event's single table).
    Recording it again replaces the places of the players named. Locks the series row."""
    places = list(places)
    if len(places) < 2:
        raise ServiceError("playoff_players", "a playoff is between two or more players", field="places")
    seen = set()
    for reg, place in places:
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise ServiceError("invalid_place", f"{reg.name}: a playoff place is a whole number from 1", field="places")
        if reg.pk in seen:
            raise ServiceError("repeated_player", f"{reg.name} is named twice", field="places")
        seen.add(reg.pk)
    with transaction.atomic():
        lock_series(series)
        for reg, _ in places:
            if reg.series_id != series.pk:
                raise ServiceError("not_registered", f"{reg.name} is not registered in this event", field="places")
        stage_id = stage.pk if stage is not None else None
        Playoff.objects.filter(series=series, stage_id=stage_id, registration_id__in=seen).delete()
        rows = Playoff.objects.bulk_create(Playoff(series=series, stage_id=stage_id, registration=reg, place=place)
                                           for reg, place in places)
        log(series, Action.SETTINGS, by, f"playoff{f' ({stage.name})' if stage else ''}: " + ", ".join(
            f"{place}. {reg.name}" for reg, place in sorted(places, key=lambda x: x[1])), stage=stage_id)
    return rows


def check_tiebreaks(value: Sequence[str]) -> tuple[str, ...]:
    try:
        return check_rules(value)
    except TiebreakError as err:
        raise ServiceError(err.code, err.message, field="tiebreaks") from None


# -- the EMA results file --------------------------------------------------------------------------


@dataclass(frozen=True)
class EmaExport:
    event: ema.EmaEvent
    players: list[ema.EmaPlayer]
    finished: bool  # every round of every stage played
    weight: ema.Weight


def ema_export(series: Series) -> EmaExport:
    """What the EMA results file says about ``series``: everyone in final
    order (substitutes are not ranked; those who played count towards the
    weight, at most 3), the days played and the event's EMA details."""
    results = event_results(series)
    tables = stage_tables(series, results)
    final = final_result(series, tables)
    rules = rules_of(series)
    players = [ema.EmaPlayer(place=r.place, first_name=r.player.first_name, last_name=r.player.last_name,
                             ema_number=r.player.ema_number, country=r.player.country, total=r.total)
               for r in final if not r.player.is_substitute]
    days = sorted({timezone.localtime(t).date() for t in Game.objects.filter(
        round_table__round__series=series).values_list("started_at", flat=True)})
    today = timezone.localdate()
    subs = RoundSeat.objects.filter(round__series=series, substitute__isnull=False,
                                    table__game__status=Game.Status.FINISHED).values("substitute_id").distinct().count()
    event = ema.EmaEvent(
        name=rules.ema_name or series.name, shortname=series.slug,
        first_day=days[0] if days else today, last_day=days[-1] if days else today,
        days=rules.ema_days or max(len(days), 1), city=rules.ema_city, host_country=rules.ema_country,
        substitutes=subs, qualification=rules.ema_qualification,
    )
    return EmaExport(event=event, players=players, finished=bool(tables) and all(t.complete for t in tables),
                     weight=ema.weight(event, players))
