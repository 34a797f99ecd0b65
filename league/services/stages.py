"""Stages, cuts, tie-breaks and teams of an event (``league.models.stages``): the writes.

The reads (each stage's standings, the cut line, the final order, teams)
live in ``league.standings.event``, the one home of every ranking; they are
named here too for the callers that read and write stages together.

Writes (``set_stages``, ``cut_to_stage``, ``seat_stage_round``,
``record_playoff``, ``configure_event_rules``) each open one transaction that
locks the series row first, as the event services do, check everything
before saving, and leave a ``EventAudit`` row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.db import transaction
from django.utils import timezone

from league.errors import ServiceError
from league.models import (
    EventAudit,
    Game,
    Registration,
    Round,
    Series,
    counting,
)
from league.models.stages import EventRules, Playoff, Stage, StageSeed
from league.seating import SeatingError, assess, seat_winds, swiss_round
from league.services.audit import Actor
from league.services.event import ensure_event, lock_series, log
from league.services.event.rounds import store_round, tables_as_ids
from league.standings.ema import EmaExport, ema_export  # noqa: F401 (named here for the stage pages)
from league.standings.event import (  # noqa: F401 (named here for the stage pages and older callers)
    EventResults,
    FinalRow,
    Played,
    Player,
    StageRow,
    StageTable,
    TeamRow,
    carry_points,
    event_results,
    final_result,
    rules_of,
    stage_tables,
    stages_of,
    team_standings,
)
from league.tiebreaks import TiebreakError, check_rules

Action = EventAudit.Action
TABLE = 4


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
        ensure_event(series)
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
    entry: str = "all"  # Stage.Qualification
    top: int | None = None
    carry: str = "none"  # Stage.Carry
    fixed_points: tuple[int, ...] = ()
    seating: str = "snake"  # Stage.Seating


def check_plan(plans: Sequence[StagePlan], table_size: int = TABLE) -> None:
    """Refuse a stage list that cannot run, naming the stage and field at fault;
    a cut takes whole tables of ``table_size`` (3 in a three-player event)."""
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
        if p.entry not in Stage.Qualification.values:
            raise ServiceError("invalid_entry", f"{where}: entry is one of {', '.join(Stage.Qualification.values)}",
                               field=f"stages[{i}].entry")
        if p.carry not in Stage.Carry.values:
            raise ServiceError("invalid_carry", f"{where}: carry-over is one of {', '.join(Stage.Carry.values)}",
                               field=f"stages[{i}].carry")
        if p.seating not in Stage.Seating.values:
            raise ServiceError("invalid_seating", f"{where}: seating is one of {', '.join(Stage.Seating.values)}",
                               field=f"stages[{i}].seating")
        if i == 1 and p.entry != Stage.Qualification.ALL:
            raise ServiceError("invalid_entry", "the first stage takes everyone", field="stages[1].entry")
        if p.entry == Stage.Qualification.TOP:
            if not isinstance(p.top, int) or p.top < table_size or p.top % table_size:
                examples = "4, 8, 16..." if table_size == TABLE else "3, 6, 12..."
                raise ServiceError("invalid_top", f"{where}: the cut takes a multiple of {table_size} players "
                                   f"({examples})", field=f"stages[{i}].top")
            previous = plans[i - 2]
            if previous.entry == Stage.Qualification.TOP and previous.top is not None and p.top >= previous.top:
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
    check_plan(plans, series.ruleset().players)
    with transaction.atomic():
        series = lock_series(series)
        ensure_event(series)
        existing = list(Stage.objects.filter(series=series))
        for stage in existing:
            if stage.is_cut and series.event_rounds.filter(
                    number__gte=stage.first_round, number__lte=stage.last_round).exists():
                raise ServiceError("stage_seated", f"{stage.name} already has seated rounds: stages can no longer "
                                   "change", field="stages")
        Stage.objects.filter(series=series).delete()
        created = [Stage.objects.create(
            series=series, number=i, name=p.name.strip(), first_round=p.first_round, last_round=p.last_round,
            entry=p.entry, top=p.top if p.entry == Stage.Qualification.TOP else None,
            carry=p.carry if p.entry == Stage.Qualification.TOP else Stage.Carry.NONE,
            fixed_points=list(p.fixed_points) if p.carry == Stage.Carry.FIXED else [], seating=p.seating,
        ) for i, p in enumerate(plans, start=1)]
        log(series, Action.SETTINGS, by, "stages: " + "; ".join(
            f"{s.name} rounds {s.rounds_label}" + (f", top {s.top}, {s.get_carry_display().lower()}" if s.is_cut else "")
            for s in created), stages=[s.pk for s in created])
    return created


def cut_to_stage(*, stage: Stage, by: Actor = None) -> list[StageSeed]:
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
        StageSeed.objects.filter(stage=stage).delete()
        entries = StageSeed.objects.bulk_create(StageSeed(
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


def snake_tables(order: Sequence[Any], teams: Mapping[Any, str] | None = None,
                 table_size: int = TABLE) -> list[tuple[Any, ...]]:
    """Seeds in order as tables, snake-wise: 16 players sit 1-8-9-16, 2-7-10-15, 3-6-11-14, 4-5-12-13.
    With ``teams``, teammates at one table swap with a player of the same band
    (seeds 5-8, say) at another table, while that seats fewer teammates together.

    >>> snake_tables(range(1, 17))
    [(1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)]
    >>> snake_tables(range(1, 9), teams={1: "Kita", 4: "Kita"})
    [(1, 3, 5, 8), (2, 4, 6, 7)]
    >>> snake_tables(range(1, 10), table_size=3)
    [(1, 6, 7), (2, 5, 8), (3, 4, 9)]
    """
    order = list(order)
    tables = len(order) // table_size
    groups: list[list[Any]] = [[] for _ in range(tables)]
    for i, p in enumerate(order):
        band, pos = divmod(i, tables)
        groups[pos if band % 2 == 0 else tables - 1 - pos].append(p)
    if teams:
        _part_teammates(groups, teams, table_size)
    return [tuple(g) for g in groups]


def _together(group: Sequence[Any], teams: Mapping[Any, str]) -> int:
    named = [teams[p] for p in group if p in teams]
    return len(named) - len(set(named))


def _part_teammates(groups: list[list[Any]], teams: Mapping[Any, str], table_size: int = TABLE) -> None:
    # Greedy swaps within a band keep every table's seeding shape; the lowest band
    # moves first (a lower seed changes table before a top seed); a few passes settle it.
    for _pass in range(2 * table_size):
        improved = False
        for band in reversed(range(table_size)):
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
        event = ensure_event(series)
        stage = Stage.objects.get(pk=stage.pk)
        if not stage.is_cut:
            raise ServiceError("event_seating", f"{stage.name} takes everyone: seat it from the event's seating page",
                               field="stage")
        entries = list(StageSeed.objects.filter(stage=stage).order_by("seed"))
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
        history = [tables_as_ids(r) for r in rounds if stage.has_round(r.number)]
        everything = [tables_as_ids(r) for r in rounds]
        rules = rules_of(series)
        size = series.ruleset().players  # tables of three in a three-player event
        teams = {k: v for k, v in teams_of(series).items() if k in {e.registration_id for e in entries}}
        teams = teams if rules.teammates_apart and teams else {}
        if not history:
            order = [e.registration_id for e in entries]
        else:
            table = next(t for t in stage_tables(series) if t.stage.pk == stage.pk)
            order = [r.player.id for r in table.rows]
        try:
            if stage.seating == Stage.Seating.LOCKED or (stage.seating == Stage.Seating.SNAKE and not history):
                groups = [tuple(order[i:i + size]) for i in range(0, len(order), size)] \
                    if stage.seating == Stage.Seating.LOCKED else snake_tables(order, teams, size)
                seated = seat_winds(groups, everything)
            else:
                seated = swiss_round(order, history, teams=teams or None, table_size=size).round
        except SeatingError as err:
            raise ServiceError(err.code, err.message, field=err.field) from None
        rnd = store_round(series, event, number, seated, f"stage:{stage.seating}")
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
