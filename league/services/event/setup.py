"""A new event, made and edited from Tenbou's own pages (issue 32).

``create_event`` makes the series (of kind "tournament"), its event settings, its
stages and EMA details in one transaction, and makes its creator the first
director. ``edit_event`` changes them until round 1 starts; after that, only
what may still change during the day (``LATER``): the name, the end date,
the rounds planned, the clock and its policy, the EMA details. Both check
every value against ``league.db_bounds`` and refuse with the field at fault:
end before start, a duplicate name or slug, rules the engine refuses (uma
that does not sum to zero names ``uma``).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from league.db_bounds import SERIES_NAME, SLUG_LENGTH, date_order_problem, text_problem
from league.errors import ServiceError
from league.models import Event, Round, Series
from league.models.stages import EventRules, Stage
from league.services.audit import Actor, user_of
from league.services.event.common import Action, configure_event, lock_series, log
from league.services.stages import StagePlan, configure_event_rules, set_stages
from scoring.errors import ScoringError
from scoring.rules import get_ruleset

# What the director may still change once round 1 has started.
LATER = frozenset({"name", "end_date", "rounds", "time_limit", "ending", "ema_name", "ema_city", "ema_country",
                   "ema_qualification", "ema_days"})
EMA_FIELDS = ("ema_name", "ema_city", "ema_country", "ema_qualification", "ema_days")
# The engine names an override as rules.overrides.<name>; the form has one field per override.
RULE_FIELDS = {"start_points", "return_points", "uma", "oka", "aka_dora", "kiriage", "bust"}


@dataclass(frozen=True)
class EventPlan:
    """Everything the New event page asks, as the service takes it."""

    name: str
    slug: str
    start_date: datetime.date | None
    end_date: datetime.date | None
    rules: dict[str, Any]  # {"preset": name, "overrides": {...}}
    settings: dict[str, Any]  # Event fields by name
    ema: dict[str, Any] = field(default_factory=dict)  # EventRules' EMA fields by name
    stages: Sequence[StagePlan] = ()


def check_plan(plan: EventPlan, *, series: Series | None = None) -> None:
    """Refuse a plan that cannot be kept, naming the field at fault."""
    name = plan.name.strip()
    if not name or len(name) > SERIES_NAME or text_problem(name):
        raise ServiceError("invalid_name", f"name: give the event a name of 1 to {SERIES_NAME} characters", field="name")
    if not plan.slug or len(plan.slug) > SLUG_LENGTH:
        raise ServiceError("invalid_slug", f"slug: 1 to {SLUG_LENGTH} letters, digits or hyphens", field="slug")
    others = Series.objects.exclude(pk=series.pk) if series is not None else Series.objects.all()
    if others.filter(name__iexact=name).exists():
        raise ServiceError("duplicate_name", f"name: another series is already called {name!r}", field="name")
    if others.filter(slug=plan.slug).exists():
        raise ServiceError("duplicate_slug", f"slug: another series already has the address {plan.slug!r}",
                           field="slug")
    if plan.start_date is None:
        raise ServiceError("invalid_date", "start date: the day the event starts", field="start_date")
    if problem := date_order_problem(plan.start_date, plan.end_date):
        if plan.end_date is not None and plan.end_date < plan.start_date:
            raise ServiceError("end_before_start", f"end date: the event {problem}", field="end_date")
        where = "start_date" if date_order_problem(plan.start_date, None) else "end_date"
        raise ServiceError("invalid_date", f"{where.replace('_', ' ')}: {problem}", field=where)
    try:
        get_ruleset(plan.rules)
    except ScoringError as err:
        # rules.overrides.uma -> uma: the field the director typed it in.
        at = (err.field or "").rsplit(".", 1)[-1]
        raise ServiceError(err.code, f"{at.replace('_', ' ') if at in RULE_FIELDS else 'rules'}: {err.message}",
                           field=at if at in RULE_FIELDS else "preset") from None


def create_event(*, plan: EventPlan, by: Actor) -> Series:
    """Make the event of ``plan``; ``by`` becomes its first director. One
    transaction: nothing is kept unless all of it is."""
    check_plan(plan)
    try:
        with transaction.atomic():
            series = Series.objects.create(
                name=plan.name.strip(), slug=plan.slug, kind=Series.Kind.TOURNAMENT, start_date=plan.start_date,
                end_date=plan.end_date, rules=plan.rules,
            )
            lock_series(series)
            if (user := user_of(by)) is not None:
                series.directors.add(user)
            configure_event(series=series, by=by, **plan.settings)
            if any(plan.ema.values()):
                configure_event_rules(series=series, by=by, **plan.ema)
            if plan.stages:
                set_stages(series=series, plans=plan.stages, by=by)
            log(series, Action.SETTINGS, by, f"event created: {series.name}", created=True)
    except IntegrityError:
        # Another director took the slug between the check and the insert.
        raise ServiceError("duplicate_slug", f"slug: another series already has the address {plan.slug!r}",
                           field="slug") from None
    return series


def started(series: Series) -> bool:
    return series.event_rounds.filter(status=Round.Status.STARTED).exists()


def edit_event(*, series: Series, plan: EventPlan, by: Actor) -> Series:
    """Change the event to ``plan``: everything until round 1 starts, then
    only ``LATER``'s fields (the others must be as they are). One
    transaction that locks the series row."""
    check_plan(plan, series=series)
    with transaction.atomic():
        locked = lock_series(series)
        if started(locked):
            now = current_plan(locked)
            frozen = [n for n in ("slug", "start_date") if getattr(plan, n) != getattr(now, n)]
            if get_ruleset(plan.rules) != get_ruleset(now.rules or None):
                frozen.append("preset")
            frozen += [n for n, v in plan.settings.items() if n not in LATER and now.settings.get(n) != v]
            if plan.stages:
                frozen.append("stages")
            if frozen:
                raise ServiceError("event_started", f"{frozen[0].replace('_', ' ')}: round 1 has started, so this "
                                   "can no longer change", field=frozen[0])
        wanted = {"name": plan.name.strip(), "slug": plan.slug, "start_date": plan.start_date,
                  "end_date": plan.end_date, "rules": plan.rules}
        if get_ruleset(plan.rules) == get_ruleset(locked.rules or None):
            wanted["rules"] = locked.rules  # the same rules, perhaps written another way: no change
        changed = {n: [str(getattr(locked, n)), str(v)] for n, v in wanted.items() if getattr(locked, n) != v}
        if changed:
            for n in changed:
                setattr(locked, n, wanted[n])
            locked.save()
            log(locked, Action.SETTINGS, by, "event: " + ", ".join(changed), changed=changed)
        configure_event(series=locked, by=by, **plan.settings)
        configure_event_rules(series=locked, by=by, **plan.ema)
        if plan.stages and not started(locked):
            set_stages(series=locked, plans=plan.stages, by=by)
    return locked


def current_plan(series: Series) -> EventPlan:
    """The event as it stands, as a plan (what the edit page starts from)."""
    event = Event.objects.filter(series=series).first() or Event(series=series)
    ema = EventRules.objects.filter(series=series).first() or EventRules(series=series)
    stages = [StagePlan(s.name, s.first_round, s.last_round, s.entry, s.top, s.carry, tuple(s.fixed_points or ()),
                        s.seating) for s in Stage.objects.filter(series=series).order_by("number")]
    settings = {n: getattr(event, n) for n in ("rounds", "seating", "time_limit", "ending", "substitute_result",
                                                    "substitute_score", "substitute_uma")}
    return EventPlan(name=series.name, slug=series.slug, start_date=series.start_date, end_date=series.end_date,
                     rules=series.rules or {}, settings=settings, ema={n: getattr(ema, n) for n in EMA_FIELDS},
                     stages=stages)
