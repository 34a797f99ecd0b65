"""The series header line: what an event is beyond its games, so a whole
event round-trips through ``export_games`` / ``import_games``.

An event series' export starts with one JSON line before the game lines::

    {"tenbou_series": 1, "name": ..., "kind": "tournament", "rules": {...}, "min_games": 0, "start_date": ...,
     "tournament": {...settings...}, "event_rules": {...tie-breaks, teams, EMA...},
     "registrations": [...], "rounds": [...], "stages": [...], "playoffs": [...]}

``tenbou_series`` is the format's version: an importer refuses a version it
does not know rather than guess. Rounds name their seats by event number
(registered player, substitute or null) and are tied to the imported games
by round and table. Seeds of a cut stage are exported as the cut froze them.
The event's audit trail stays with the installation, as cancelled penalties do.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, models
from django.db.models import Prefetch

from league.db_bounds import read_moment, shown, text_problem
from league.errors import ServiceError
from league.models import Event, Game, Player, Registration, Round, RoundSeat, RoundTable, Series
from league.models.event import event_of
from league.models.stages import EventRules, Playoff, Stage, StageSeed
from league.services.players import find_player, player_key

VERSION = 1
KEY = "tenbou_series"
TOURNAMENT_FIELDS = ("rounds", "seating", "seed", "time_limit", "ending", "substitute_result", "substitute_score",
                     "substitute_uma", "substitutes_in_standings", "hidden_from_round")
RULES_FIELDS = ("tiebreaks", "team_scoring", "team_best", "teammates_apart", "ema_name", "ema_city", "ema_country",
                "ema_qualification", "ema_days")
REGISTRATION_FIELDS = ("number", "first_name", "last_name", "ema_number", "country", "club", "team", "is_substitute",
                       "status", "code")
STAGE_FIELDS = ("number", "name", "first_round", "last_round", "entry", "top", "carry", "fixed_points", "seating")


class HeaderError(Exception):
    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.field = code, message, field


def _when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def header_line(series: Series) -> str | None:
    """The header for an event series (None for a league: its export stays game lines only)."""
    event = event_of(series)  # no query when the series was read with select_related("event")
    if event is None:
        return None
    rules = EventRules.objects.filter(series=series).first()
    regs = list(Registration.objects.filter(series=series).select_related("player").order_by("number"))
    number = {r.pk: r.number for r in regs}
    rounds = []
    for rnd in series.event_rounds.order_by("number").prefetch_related(
            Prefetch("tables", queryset=RoundTable.objects.order_by("number").prefetch_related("seats"))):
        rounds.append({
            "number": rnd.number, "status": rnd.status, "seated_by": rnd.seated_by, "time_limit": rnd.time_limit,
            "published_at": _when(rnd.published_at), "started_at": _when(rnd.started_at),
            "tables": [{"number": t.number, "extra_minutes": t.extra_minutes, "seats": [
                [number[s.registration_id], number[s.substitute_id] if s.substitute_id else None]
                for s in sorted(t.seats.all(), key=lambda s: s.wind)]} for t in rnd.tables.all()],
        })
    stages = []
    for stage in Stage.objects.filter(series=series).order_by("number"):
        out = {f: getattr(stage, f) for f in STAGE_FIELDS}
        out["cut_at"] = _when(stage.cut_at)
        out["entries"] = [[number[e.registration_id], e.seed, e.previous_total, e.carried]
                          for e in stage.seeds.order_by("seed")]
        stages.append(out)
    header = {
        KEY: VERSION, "name": series.name, "kind": series.kind, "rules": series.rules, "min_games": series.min_games,
        "start_date": series.start_date.isoformat() if series.start_date else None,
        "end_date": series.end_date.isoformat() if series.end_date else None,
        "tournament": {f: getattr(event, f) for f in TOURNAMENT_FIELDS},
        "event_rules": {f: getattr(rules, f) for f in RULES_FIELDS} if rules else None,
        "registrations": [{**{f: getattr(r, f) for f in REGISTRATION_FIELDS}, "player": r.player.name,
                           "checked_in_at": _when(r.checked_in_at), "dropped_at": _when(r.dropped_at)} for r in regs],
        "rounds": rounds, "stages": stages,
        "playoffs": [[p.stage.number if p.stage else None, number[p.registration_id], p.place]
                     for p in Playoff.objects.filter(series=series).select_related("stage")],
    }
    return json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n"


def is_header(data: Any) -> bool:
    return isinstance(data, dict) and KEY in data


def check_header(data: dict[str, Any]) -> dict[str, Any]:
    """The header's shape, refused with the field at fault."""
    if type(data.get(KEY)) is not int or data.get(KEY) != VERSION:  # ``true`` == 1 in Python, not in the format
        raise HeaderError("unsupported_version", f"series header version {data.get(KEY)!r} is not one this Tenbou "
                          f"reads (it reads {VERSION})", KEY)
    for key, kind in (("name", str), ("rules", dict), ("tournament", dict), ("registrations", list),
                      ("rounds", list), ("stages", list), ("playoffs", list)):
        if not isinstance(data.get(key), kind):
            raise HeaderError("invalid_header", f"{key} must be a JSON {'object' if kind is dict else kind.__name__}"
                              if kind is not list else f"{key} must be a list", key)
    return data


def restore_event(series: Series, data: dict[str, Any]) -> None:
    """Rebuild the event of ``series`` from its header, after its games were
    imported. Runs inside the import's transaction: any error and nothing stays."""
    try:
        _restore(series, data)
    except (KeyError, TypeError, ValueError, OverflowError, DatabaseError) as err:
        # A hand-edited header missing a key or holding the wrong type: refused, named as well as we can.
        raise HeaderError("invalid_header", f"the series header is damaged ({type(err).__name__}: {err})", KEY) from None


def _restore(series: Series, data: dict[str, Any]) -> None:
    """Every row is held to its model's bounds (``_clean``: the same checks
    the forms make, on SQLite as on PostgreSQL) before it is saved; what
    spans rows (the stages' plan, the dates) is checked as the services check it."""
    if Registration.objects.filter(series=series).exists() or Stage.objects.filter(series=series).exists():
        raise HeaderError("event_exists", f"{series.slug} already has an event; import into a new series", KEY)
    if data.get("kind", Series.Kind.TOURNAMENT) != Series.Kind.TOURNAMENT:
        raise HeaderError("invalid_value", "kind: a series header describes an event, so its kind is "
                          "'tournament'", "kind")
    series.kind, series.min_games = Series.Kind.TOURNAMENT, data.get("min_games", 0)
    series.start_date, series.end_date = _date(data.get("start_date"), "start_date"), _date(data.get("end_date"),
                                                                                            "end_date")
    if series.start_date and series.end_date and series.end_date < series.start_date:
        raise HeaderError("invalid_value", "end_date: the event cannot end before it starts", "end_date")
    _clean(series, "series", exclude=["slug", "name", "rules"])
    series.save(update_fields=["kind", "min_games", "start_date", "end_date"])
    table_size = series.ruleset().players  # tables and cuts of three for a three-player event
    event = Event(series=series, **_pick(data["tournament"], TOURNAMENT_FIELDS, "tournament"))
    _clean(event, "tournament")
    event.save()
    if data.get("event_rules"):
        rules = EventRules(series=series, **_pick(data["event_rules"], RULES_FIELDS, "event_rules"))
        _clean(rules, "event_rules")
        rules.save()
    regs: dict[int, Registration] = {}
    for i, r in enumerate(data["registrations"]):
        where = f"registrations[{i}]"
        if not isinstance(r, dict) or not isinstance(r.get("player"), str):
            raise HeaderError("invalid_header", "a registration is an object naming its player", where)
        if problem := text_problem(r["player"]):  # before it is looked up: PostgreSQL refuses a NUL in a query too
            raise HeaderError("invalid_value", f"player: {problem}", f"{where}.player")
        ema = r.get("ema_number") if isinstance(r.get("ema_number"), str) else ""
        try:
            player = find_player(name=r["player"], ema_number=ema.strip(), player_id=player_key(r["player"]),
                                 field=f"{where}.player", choose='give the ema_number or write "#id" for the player')
        except ServiceError as err:
            raise HeaderError(err.code, err.message, f"{where}.player") from None
        player = player or Player(name=r["player"])
        if player.pk is None:
            _clean(player, f"{where}.player", prefix=False, exclude=["user"])
            player.save()
        values = _pick(r, REGISTRATION_FIELDS, where)
        code = values.get("code")
        if isinstance(code, str) and (problem := text_problem(code)):
            raise HeaderError("invalid_value", f"code: {problem}", f"{where}.code")
        if Registration.objects.filter(code=code).exists():
            values.pop("code")  # taken here already: the registration gets a new short link
        reg = Registration(series=series, player=player, checked_in_at=_time(r.get("checked_in_at"), f"{where}.checked_in_at"),
                           dropped_at=_time(r.get("dropped_at"), f"{where}.dropped_at"), **values)
        _clean(reg, where, exclude=["series", "player"])
        if reg.number in regs:
            raise HeaderError("invalid_value", f"number: {reg.number} is registered twice", f"{where}.number")
        reg.save()
        regs[reg.number] = reg
    games = {(g.round_number, g.table): g for g in Game.objects.filter(series=series)}
    for i, rd in enumerate(data["rounds"]):
        where = f"rounds[{i}]"
        rd = _pick(rd, ("number", "status", "seated_by", "time_limit", "published_at", "started_at", "tables"), where)
        rnd = Round(series=series, number=rd["number"], status=rd["status"], seated_by=rd["seated_by"],
                    time_limit=rd["time_limit"], published_at=_time(rd.get("published_at"), f"{where}.published_at"),
                    started_at=_time(rd.get("started_at"), f"{where}.started_at"))
        _clean(rnd, where, exclude=["series"])
        rnd.save()
        if not isinstance(rd["tables"], list):
            raise HeaderError("invalid_header", "tables must be a list", f"{where}.tables")
        for j, t in enumerate(rd["tables"]):
            at = f"{where}.tables[{j}]"
            t = _pick(t, ("number", "extra_minutes", "seats"), at)
            game = games.get((rnd.number, str(t["number"])))
            if rnd.status == Round.Status.STARTED and game is None:
                raise HeaderError("missing_game", f"round {rnd.number} table {t['number']} started but no game line "
                                  "has that round and table", where)
            table = RoundTable(round=rnd, number=t["number"], extra_minutes=t["extra_minutes"],
                               game=game if rnd.status == Round.Status.STARTED else None)
            _clean(table, at, exclude=["round", "game"])
            table.save()
            if not isinstance(t["seats"], list) or len(t["seats"]) > table_size:
                raise HeaderError("invalid_header", f"seats must be a list of at most {table_size}", f"{at}.seats")
            for wind, (reg_number, sub_number) in enumerate(t["seats"]):
                if reg_number not in regs or (sub_number is not None and sub_number not in regs):
                    raise HeaderError("unknown_registration", f"round {rnd.number} table {t['number']} names an event "
                                      "number no registration has", where)
                RoundSeat.objects.create(round=rnd, table=table, wind=wind, registration=regs[reg_number],
                                         substitute=regs[sub_number] if sub_number is not None else None)
    _check_stages(data["stages"], table_size)
    stages: dict[int, Stage] = {}
    for i, s in enumerate(data["stages"]):
        where = f"stages[{i}]"
        stage = Stage(series=series, cut_at=_time(s.get("cut_at"), f"{where}.cut_at"), **_pick(s, STAGE_FIELDS, where))
        _clean(stage, where)
        stage.save()
        stages[stage.number] = stage
        entries = s.get("entries", [])
        if not isinstance(entries, list):
            raise HeaderError("invalid_header", "entries must be a list", f"{where}.entries")
        for j, (reg_number, seed, previous, carried) in enumerate(entries):
            if reg_number not in regs:
                raise HeaderError("unknown_registration", "names an event number no registration has",
                                  f"{where}.entries[{j}]")
            entry = StageSeed(stage=stage, registration=regs[reg_number], seed=seed, previous_total=previous,
                               carried=carried)
            _clean(entry, f"{where}.entries[{j}]", exclude=["stage", "registration"])
            entry.save()
    for i, (stage_number, reg_number, place) in enumerate(data["playoffs"]):
        where = f"playoffs[{i}]"
        if reg_number not in regs or (stage_number is not None and stage_number not in stages):
            raise HeaderError("unknown_registration", "names a stage or an event number the header does not have",
                              where)
        playoff = Playoff(series=series, stage=stages.get(stage_number) if stage_number else None,
                          registration=regs[reg_number], place=place)
        _clean(playoff, where, exclude=["series", "stage", "registration"])
        playoff.save()


def _check_stages(stages: list[Any], table_size: int = 4) -> None:
    """The stages as the director's form would have to define them (a cut of
    a multiple of the table size, 3 or 4, rounds in order), by the services' own check."""
    from league.services.stages import StagePlan, check_plan

    if not stages:
        return
    plans = []
    for i, s in enumerate(stages):
        values = _pick(s, STAGE_FIELDS, f"stages[{i}]")
        # Each stage's own fields first (types, choices, bounds), so the plan's check meets no stranger.
        _clean(Stage(**values), f"stages[{i}]", exclude=["series"])
        values.pop("number", None)
        fixed = values.get("fixed_points", ())
        values["fixed_points"] = tuple(fixed) if isinstance(fixed, list) else fixed
        plans.append(StagePlan(**values))
    try:
        check_plan(plans, table_size)
    except ServiceError as err:
        # check_plan counts stages from 1; the header's list from 0.
        raise HeaderError(err.code, err.message, _zero_based(err.field)) from None


def _zero_based(field: str | None) -> str:
    if field and field.startswith("stages[") and "]" in field:
        number, rest = field[len("stages["):].split("]", 1)
        if number.isdigit():
            return f"stages[{int(number) - 1}]{rest}"
    return field or "stages"


def _pick(values: Any, fields: tuple[str, ...], where: str) -> dict[str, Any]:
    if not isinstance(values, dict):
        raise HeaderError("invalid_header", f"{where} must be a JSON object", where)
    return {f: values[f] for f in fields if f in values}


def _date(value: Any, field: str) -> datetime.date | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise HeaderError("invalid_value", f"{shown(value)} is not an ISO 8601 date", field) from None


def _time(value: Any, where: str) -> datetime.datetime | None:
    try:
        return read_moment(value)
    except ValueError as why:
        raise HeaderError("invalid_value", str(why), where) from None


def _clean(obj: models.Model, where: str, exclude: list[str] | None = None, prefix: bool = True) -> None:
    """``obj`` held to its model's bounds before it is saved: each value of
    the type its field stores (JSON's 1.5 or ``true`` is no event number,
    though Django would store 1), no NUL in a text, then ``full_clean`` (the
    fields' validators: league.db_bounds)."""
    skip = set(exclude or ())
    for f in obj._meta.concrete_fields:
        if f.name in skip or f.primary_key or f.is_relation:
            continue
        value = getattr(obj, f.attname)
        name = f"{where}.{f.name}" if prefix else where
        if value is None:
            continue
        if isinstance(f, models.IntegerField) and (isinstance(value, bool) or not isinstance(value, int)):
            raise HeaderError("invalid_value", f"{f.name}: must be a whole number, not {shown(value)}", name)
        if isinstance(f, models.CharField | models.TextField) and not isinstance(value, str):
            raise HeaderError("invalid_value", f"{f.name}: must be text, not {shown(value)}", name)
        if isinstance(f, models.BooleanField) and not isinstance(value, bool):
            raise HeaderError("invalid_value", f"{f.name}: must be true or false, not {shown(value)}", name)
        if isinstance(f, models.CharField | models.TextField | models.JSONField) and (problem := text_problem(value)):
            raise HeaderError("invalid_value", f"{f.name}: {problem}", name)
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as err:
        name, messages = next(iter(err.message_dict.items()))
        raise HeaderError("invalid_value", f"{name}: {messages[0]}", f"{where}.{name}" if prefix else where) from None
