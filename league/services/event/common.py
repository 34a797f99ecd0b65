"""What every event service shares: the series lock, the event's settings, its
log, and hiding the results from the public."""


from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from league.errors import ServiceError
from league.event.roster import RowError
from league.models import (
    Event,
    EventAudit,
    Series,
)
from league.services.audit import Actor, bump_version, user_of

Action = EventAudit.Action
TABLE = 4


class RegistrationImportError(ServiceError):
    """A registration file refused whole; ``errors`` lists every bad line."""

    def __init__(self, errors: list[RowError]) -> None:
        super().__init__("invalid_registrations", "; ".join(str(e) for e in errors), field="file")
        self.errors = errors


def lock_series(series: Series) -> Series:
    # One event write at a time: seating, swapping and starting read the
    # whole event, so they serialise on its series row.
    return Series.objects.select_for_update().get(pk=series.pk)


def ensure_event(series: Series) -> Event:
    event, _ = Event.objects.get_or_create(series=series)
    return event


def log(series: Series, action: EventAudit.Action, by: Actor, text: str, *, round_number: int | None = None,
        **detail: Any) -> EventAudit:
    bump_version(series.pk)
    user = user_of(by)
    return EventAudit.objects.create(
        series=series, action=action, round_number=round_number, user=user,
        username=user.get_username() if user else "", detail={"text": text, **detail},
    )


def configure_event(*, series: Series, by: Actor = None, **settings: Any) -> Event:
    """Change the event's settings (``Event`` fields by name)."""
    with transaction.atomic():
        lock_series(series)
        event = ensure_event(series)
        changed = {}
        for name, value in settings.items():
            Event._meta.get_field(name)  # an unknown setting raises FieldDoesNotExist
            old = getattr(event, name)
            if old != value:
                changed[name] = [old, value]
                setattr(event, name, value)
        if series.kind != Series.Kind.TOURNAMENT:
            Series.objects.filter(pk=series.pk).update(kind=Series.Kind.TOURNAMENT)
        event.full_clean()
        event.save()
        if changed:
            log(series, Action.SETTINGS, by, "settings: " + ", ".join(f"{k} {v[0]} -> {v[1]}" for k, v in changed.items()),
                changed={k: [str(a), str(b)] for k, (a, b) in changed.items()})
    return event




ROLES = ("director", "scorer")


def set_role(*, series: Series, username: str, role: str, grant: bool, by: Actor = None) -> Any:
    """Grant or withdraw a role (``director`` or ``scorer``) on ``series`` for
    the login ``username``. Locks the series row; an event keeps one director
    at least, so the last cannot be withdrawn. Returns the user."""
    if role not in ROLES:
        raise ServiceError("invalid_role", "a role is director or scorer", field="role")
    name = (username or "").strip()
    if not name or "\x00" in name or len(name) > 150:
        raise ServiceError("invalid_username", "type the login's username", field="username")
    user = get_user_model().objects.filter(username=name).first()
    if user is None:
        raise ServiceError("unknown_username", f"no login is called {name!r}", field="username")
    with transaction.atomic():
        lock_series(series)
        members = series.directors if role == "director" else series.scorers
        present = members.filter(pk=user.pk).exists()
        if grant == present:
            return user
        if not grant and role == "director" and series.directors.count() == 1:
            raise ServiceError("last_director", "the event keeps one director at least: add another first",
                               field="username")
        (members.add if grant else members.remove)(user)
        verb = "granted" if grant else "withdrawn"
        log(series, Action.ROLES, by, f"{role} {verb}: {name}", role=role, username=name, grant=grant)
    return user


def hide_results(*, series: Series, from_round: int, by: Actor = None) -> Event:
    """Hide standings and results from round ``from_round`` on from the public
    (Pantheon's hide_results) until ``reveal_results``. Locks the series row."""
    if isinstance(from_round, bool) or not isinstance(from_round, int) or from_round < 1:
        raise ServiceError("invalid_round", "a round is a whole number from 1", field="from_round")
    with transaction.atomic():
        lock_series(series)
        event = ensure_event(series)
        event.hidden_from_round = from_round
        event.save(update_fields=["hidden_from_round"])
        log(series, Action.HIDE, by, f"results hidden from round {from_round} on", round_number=from_round)
    return event


def reveal_results(*, series: Series, by: Actor = None) -> Event:
    """Show every result again, at once. Locks the series row."""
    with transaction.atomic():
        lock_series(series)
        event = ensure_event(series)
        if event.hidden_from_round is None:
            raise ServiceError("not_hidden", "no result is hidden", field="series")
        event.hidden_from_round = None
        event.save(update_fields=["hidden_from_round"])
        log(series, Action.REVEAL, by, "results revealed")
    return event
