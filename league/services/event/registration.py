"""Registration: players one by one or from a CSV roster (nothing half-imported),
check-in on the day, and dropping a player mid-event."""


from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from league.errors import ServiceError
from league.event.countries import COUNTRIES
from league.event.roster import RosterError, RosterRow, RowError, read_roster
from league.models import (
    Player,
    Registration,
    Series,
)
from league.models.event import validate_country
from league.services.audit import Actor
from league.services.event.common import Action, RegistrationImportError, ensure_event, lock_series, log
from league.services.players import find_player


def register_player(
    *, series: Series, first_name: str, last_name: str, number: int | None = None, ema_number: str = "",
    country: str = "", club: str = "", team: str = "", is_substitute: bool = False, player_id: int | None = None,
    by: Actor = None,
) -> Registration:
    """Register one player under ``number`` (the next free one if None).

    The player is the row ``player_id`` names, else found by EMA number, else
    by a name only one row carries (a shared name is refused, naming the
    candidates: ``services.players.find_player``), else created. Locks the series row.
    """
    first_name, last_name = first_name.strip(), last_name.strip()
    country = country.strip().upper()
    if not first_name:
        raise ServiceError("required", "a player needs a first name", field="first_name")
    if not last_name:
        raise ServiceError("required", "a player needs a last name", field="last_name")
    if country and country not in COUNTRIES:
        raise ServiceError("invalid_country", f"{country!r} is not an ISO 3166 country code (two letters, e.g. NL, JP)",
                           field="country")
    ema_number = ema_number.strip()
    if ema_number and not (ema_number.isascii() and ema_number.isdigit()):
        raise ServiceError("invalid_ema_number", "an EMA number is digits only", field="ema_number")
    with transaction.atomic():
        lock_series(series)
        ensure_event(series)
        if number is None:
            number = (series.registrations.aggregate(n=Max("number"))["n"] or 0) + 1
        row = RosterRow(line=0, number=number, first_name=first_name, last_name=last_name, ema_number=ema_number,
                        country=country, club=club.strip(), team=team.strip(), is_substitute=is_substitute)
        problems = _conflicts(series, [row], player_id=player_id)
        if problems:
            err = problems[0]
            raise ServiceError("registration_conflict", err.message, field=_FIELD_OF.get(err.field or "", None))
        registration = _create_registration(series, row, player_id=player_id)
        log(series, Action.REGISTER, by, f"registered {registration}", registration=registration.pk)
    return registration


_FIELD_OF = {"number": "number", "EMA number": "ema_number", "first name": "first_name", "last name": "last_name",
             "player": "player_id"}


def import_registrations(*, series: Series, text: str, by: Actor = None) -> list[Registration]:
    """Register every player of a CSV player list (``league.event.roster``).

    All or nothing: a file with any bad line (its own errors, or a number,
    player or EMA number already registered) registers no one, and
    ``RegistrationImportError`` lists every bad line. Locks the series row.
    """
    try:
        rows = read_roster(text)
    except RosterError as err:
        raise RegistrationImportError(err.errors) from None
    with transaction.atomic():
        lock_series(series)
        ensure_event(series)
        problems = _conflicts(series, rows)
        if problems:
            raise RegistrationImportError(problems)
        created = [_create_registration(series, row) for row in rows]
        log(series, Action.IMPORT, by, f"imported {len(created)} registrations", count=len(created))
    return created


def _conflicts(series: Series, rows: Sequence[RosterRow], *, player_id: int | None = None) -> list[RowError]:
    """What the database refuses in ``rows``: numbers or players already
    registered, an EMA number of another player, a name two players share."""
    errors = []
    taken_numbers = dict(series.registrations.values_list("number", "first_name"))
    registered = set(series.registrations.values_list("player_id", flat=True))
    players_in_file: dict[int, int] = {}
    names_in_file: dict[str, RosterRow] = {}
    for row in rows:
        if row.number in taken_numbers:
            errors.append(RowError(row.line, "number", f"{row.number} is already registered"))
        earlier_row = names_in_file.setdefault(row.name, row)
        if earlier_row is not row and not (row.ema_number and earlier_row.ema_number):
            # Two lines of one name are two people only when EMA numbers tell them apart.
            errors.append(RowError(row.line, None, f"{row.name} is on line {earlier_row.line} too: give both "
                                                   "EMA numbers if they are two people, else remove one line"))
            continue
        field = "player" if player_id is not None else "EMA number" if row.ema_number else "last name"
        try:
            # One query per line: a player list is at most a few hundred lines.
            player = find_player(name=row.name, ema_number=row.ema_number, player_id=player_id, field=field)
        except ServiceError as err:
            errors.append(RowError(row.line, field, err.message.removeprefix(f"{field}: ")))
            continue
        if player is not None and player_id is not None and row.ema_number and player.ema_number \
                and player.ema_number != row.ema_number:
            errors.append(RowError(row.line, "EMA number",
                                   f"{player.label()} has EMA number {player.ema_number}, not {row.ema_number}"))
        if player is not None and player.pk in registered:
            errors.append(RowError(row.line, None, f"{row.name} is already registered"))
        if player is not None:
            earlier = players_in_file.setdefault(player.pk, row.line)
            if earlier != row.line:
                errors.append(RowError(row.line, None, f"{row.name} is already on line {earlier}"))
    return errors


def _create_registration(series: Series, row: RosterRow, *, player_id: int | None = None) -> Registration:
    # _conflicts refused what find_player refuses: here it names a row or none.
    player = find_player(name=row.name, ema_number=row.ema_number, player_id=player_id)
    if player is None:
        player = Player.objects.create(name=row.name)
    fill = {k: v for k, v in (("ema_number", row.ema_number), ("club", row.club), ("country", row.country))
            if v and not getattr(player, k)}
    if fill:
        for k, v in fill.items():
            setattr(player, k, v)
        player.save(update_fields=list(fill))
    registration = Registration(
        series=series, player=player, number=row.number, first_name=row.first_name, last_name=row.last_name,
        ema_number=row.ema_number, country=row.country, club=row.club, team=row.team, is_substitute=row.is_substitute,
    )
    validate_country(registration.country)
    for _ in range(5):  # a short code that clashes is drawn again
        try:
            with transaction.atomic():
                registration.save()
            return registration
        except IntegrityError:
            if Registration.objects.filter(code=registration.code).exists():
                registration.code = Registration._meta.get_field("code").default()
                continue
            raise
    raise ServiceError("code_clash", "no free short code; try again")


def check_in(*, registrations: Iterable[Registration], present: bool = True, by: Actor = None) -> int:
    """Mark players as here (or not here after all); returns how many changed.

    A dropped player is refused: undrop first. Locks the series row.
    """
    regs = list(registrations)
    if not regs:
        return 0
    series = regs[0].series
    with transaction.atomic():
        lock_series(series)
        fresh = list(Registration.objects.filter(pk__in=[r.pk for r in regs], series=series))
        dropped = [r for r in fresh if r.is_dropped]
        if dropped:
            raise ServiceError("dropped", f"{dropped[0]} was dropped from the event", field="registrations")
        status = Registration.Status.CHECKED_IN if present else Registration.Status.REGISTERED
        changed = [r for r in fresh if r.status != status]
        now = timezone.now()
        for r in changed:
            r.status, r.checked_in_at = status, now if present else None
        Registration.objects.bulk_update(changed, ["status", "checked_in_at"])
        if changed:
            names = ", ".join(str(r) for r in changed[:6]) + (f" and {len(changed) - 6} more" if len(changed) > 6 else "")
            log(series, Action.CHECK_IN, by, ("checked in " if present else "not here: ") + names,
                registrations=[r.pk for r in changed], present=present)
    return len(changed)


def drop_player(*, registration: Registration, by: Actor = None, undo: bool = False) -> Registration:
    """Drop a player mid-event (or take them back). Their seats in rounds not
    yet started stay, marked: a substitute must play them, or the rounds be
    seated again. Locks the series row."""
    with transaction.atomic():
        lock_series(registration.series)
        registration = Registration.objects.get(pk=registration.pk)
        if undo:
            if not registration.is_dropped:
                raise ServiceError("not_dropped", f"{registration} is not dropped", field="registration")
            registration.status, registration.dropped_at = Registration.Status.REGISTERED, None
        else:
            if registration.is_dropped:
                raise ServiceError("dropped", f"{registration} is already dropped", field="registration")
            registration.status, registration.dropped_at = Registration.Status.DROPPED, timezone.now()
        registration.save(update_fields=["status", "dropped_at"])
        log(registration.series, Action.DROP, by, ("taken back: " if undo else "dropped: ") + str(registration),
            registration=registration.pk, undo=undo)
    return registration
