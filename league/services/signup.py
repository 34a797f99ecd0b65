"""Players registering themselves: the public form, confirmation and
withdrawal by a signed link, the cap and its waiting list, moderation, and
erasing the contact e-mails after the event.

Each function locks the series row first, so the count under the cap has one
writer at a time; a withdrawal gives its place to the first on the waiting list
in the same transaction. Links are ``django.core.signing`` over the sign-up's
id and a nonce; mails go after the commit. Every step leaves a
``EventAudit`` row naming the player, never the e-mail. Refusals are
``ServiceError``. docs/director.md, "Players registering themselves".
"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass, field

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from league.db_bounds import person_text_problem, text_problem
from league.errors import ServiceError
from league.event.countries import COUNTRIES
from league.models import Registration, Series, SignUp, SignUpDesk
from league.services.audit import Actor
from league.services.event.common import Action, ensure_event, lock_series, log
from league.services.event.registration import drop_player, register_player
from league.services.players import find_player

LINK_SALT = "league.signup.link"
Status = SignUp.Status
LIMITS = {"first_name": 100, "last_name": 100, "club": 100, "team": 100}


@dataclass
class _Outbox:
    """Mails to send once the transaction has committed."""

    mails: list[tuple[SignUp, str]] = field(default_factory=list)

    def send(self, site: str) -> None:
        for signup, kind in self.mails:
            send_signup_mail(signup, kind, site=site)


def link_hours() -> int:
    return int(getattr(settings, "SIGNUP_LINK_HOURS", 72))


def link_token(signup: SignUp) -> str:
    """The signed token of ``signup``'s link (timestamped: confirming checks its age)."""
    return signing.dumps([signup.pk, signup.nonce], salt=LINK_SALT, compress=True)


def signup_of_link(token: str, *, max_age: datetime.timedelta | None = None) -> SignUp:
    """The sign-up a link names, or ``ServiceError`` (``link_expired``, ``bad_link``)."""
    try:
        pk, nonce = signing.loads(token, salt=LINK_SALT, max_age=max_age)
    except signing.SignatureExpired:
        raise ServiceError("link_expired", "this link has expired; sign up again", field="link") from None
    except (signing.BadSignature, ValueError, TypeError):
        raise ServiceError("bad_link", "this link is not valid", field="link") from None
    signup = SignUp.objects.select_related("series").filter(pk=pk).first() if isinstance(pk, int) else None
    if signup is None or not signup.nonce or not isinstance(nonce, str) or not secrets.compare_digest(signup.nonce, nonce):
        raise ServiceError("bad_link", "this link is not valid", field="link")
    return signup


def send_signup_mail(signup: SignUp, kind: str, *, site: str) -> None:
    """Mail ``signup`` about ``kind`` (confirm, registered, waiting, pending,
    promoted, refused) in the language they used on the form."""
    if not signup.email:
        return
    with translation.override(signup.language):
        link = site + reverse("signup-link", args=[link_token(signup)])
        context = {"signup": signup, "series": signup.series, "link": link, "kind": kind, "hours": link_hours()}
        subject = render_to_string("league/signup_mail_subject.txt", context).strip()
        body = render_to_string("league/signup_mail.txt", context)
    send_mail(subject, body, None, [signup.email])


# -- checks ------------------------------------------------------------------------------------


def _clean(first_name: str, last_name: str, ema_number: str, country: str, club: str, team: str,
           email: str) -> dict[str, str]:
    """Every field through its bound (league.db_bounds); the first problem is raised."""
    values = {"first_name": first_name, "last_name": last_name, "club": club, "team": team}
    for name, value in values.items():
        if problem := person_text_problem(value, limit=LIMITS[name]):
            raise ServiceError("invalid_text", f"{name.replace('_', ' ')} {problem}", field=name)
    values = {k: v.strip() for k, v in values.items()}
    for name in ("first_name", "last_name"):
        if not values[name]:
            raise ServiceError("required", f"{name.replace('_', ' ')} is required", field=name)
    for name, value in (("ema_number", ema_number), ("country", country), ("email", email)):
        if not isinstance(value, str) or text_problem(value) or len(value) > 254:
            raise ServiceError("invalid_text", f"{name.replace('_', ' ')} holds a NUL character or is too long",
                               field=name)
    ema_number, country, email = ema_number.strip(), country.strip().upper(), email.strip()
    if ema_number and not (ema_number.isascii() and ema_number.isdigit() and len(ema_number) <= 20):
        raise ServiceError("invalid_ema_number", "an EMA number is 1 to 20 digits", field="ema_number")
    if country and country not in COUNTRIES:
        raise ServiceError("invalid_country", f"{country!r} is not an ISO 3166 country code (two letters, e.g. NL, JP)",
                           field="country")
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError("invalid_email", "enter a valid e-mail address", field="email") from None
    return {**values, "ema_number": ema_number, "country": country, "email": email}


def _duplicate(series: Series, data: dict[str, str], now: datetime.datetime) -> None:
    """Refuse a second sign-up of one e-mail, EMA number or person. An
    unconfirmed sign-up whose link has expired no longer counts."""
    lapsed = Q(status=Status.UNCONFIRMED, created_at__lt=now - datetime.timedelta(hours=link_hours()))
    active = series.signups.filter(status__in=SignUp.ACTIVE).exclude(lapsed)
    if active.annotate(e=Lower("email")).filter(e=data["email"].lower()).exists():
        raise ServiceError("duplicate_email", "this e-mail address has already signed up for this event",
                           field="email")
    registered = series.registrations.exclude(status=Registration.Status.DROPPED)
    if data["ema_number"] and (active.filter(ema_number=data["ema_number"]).exists()
                               or registered.filter(ema_number=data["ema_number"]).exists()):
        raise ServiceError("duplicate_ema_number", f"EMA number {data['ema_number']} is already registered for "
                           "this event", field="ema_number")
    same = Q(first_name__iexact=data["first_name"], last_name__iexact=data["last_name"])
    if data["ema_number"]:
        same &= Q(ema_number="")  # two EMA numbers tell two people of one name apart
    if active.filter(same).exists() or registered.filter(same).exists():
        raise ServiceError("already_registered", f"{data['first_name']} {data['last_name']} is already registered "
                           "for this event", field="last_name")
    # The player list's rules (services.players.find_player): an EMA number
    # names one player, and a name two players share needs the EMA number.
    # Checked here, so that a place given later (a confirmation, the waiting
    # list moving up) is not refused.
    name = f"{data['first_name']} {data['last_name']}"
    where = "ema_number" if data["ema_number"] else "last_name"
    try:
        find_player(name=name, ema_number=data["ema_number"], field=where)
    except ServiceError as err:
        # A stranger is told neither the owner of a number nor the clubs of namesakes.
        message = (f"EMA number {data['ema_number']} belongs to another player" if err.code == "ema_number_of_another"
                   else f"{err.message.split(': ')[1]}: give your EMA number, or ask the event's director")
        raise ServiceError(err.code, message, field=where) from None


def _desk(series: Series) -> SignUpDesk:
    desk, _ = SignUpDesk.objects.get_or_create(series=series)
    return desk


def _locked(signup: SignUp, *related: str) -> SignUp:
    """``signup`` read again under its series' lock (inside the caller's
    transaction), so what another request decided just before is seen."""
    lock_series(signup.series)
    return SignUp.objects.select_related("series", *related).get(pk=signup.pk)


def _taken(series: Series) -> int:
    """Places taken under the cap: registered players, not substitutes, not dropped."""
    return series.registrations.filter(is_substitute=False).exclude(status=Registration.Status.DROPPED).count()


# -- the public side ------------------------------------------------------------------------------


def sign_up(*, series: Series, first_name: str, last_name: str, email: str, ema_number: str = "",
            country: str = "", club: str = "", team: str = "", language: str = "en", site: str = "",
            now: datetime.datetime | None = None) -> SignUp:
    """Take a sign-up from the public form and mail its confirmation link.
    Locks the series row."""
    data = _clean(first_name, last_name, ema_number, country, club, team, email)
    now = now or timezone.now()
    language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    with transaction.atomic():
        lock_series(series)
        ensure_event(series)
        if not _desk(series).accepting(now):
            raise ServiceError("signup_closed", "registration for this event is closed", field="series")
        _duplicate(series, data, now)
        signup = SignUp.objects.create(series=series, language=language, nonce=secrets.token_hex(16),
                                       created_at=now, **data)
        log(series, Action.SIGN_UP, None, f"sign-up: {signup.name}, waiting for confirmation", signup=signup.pk,
            step="signed_up")
    send_signup_mail(signup, "confirm", site=site)
    return signup


def confirm_signup(*, token: str, site: str = "", now: datetime.datetime | None = None) -> SignUp:
    """Confirm by the mailed link: a place under the cap, the waiting list, or
    the director's decision when the event is moderated. Confirming twice
    changes nothing. Locks the series row."""
    signup = signup_of_link(token, max_age=datetime.timedelta(hours=link_hours()))
    now = now or timezone.now()
    outbox = _Outbox()
    with transaction.atomic():
        signup = _locked(signup)
        if signup.status != Status.UNCONFIRMED:
            return signup
        desk = _desk(signup.series)
        if desk.moderated:
            signup.status = Status.PENDING
            signup.save(update_fields=["status"])
            log(signup.series, Action.SIGN_UP, None, f"sign-up confirmed: {signup.name}, awaiting the director",
                signup=signup.pk, step="pending")
            outbox.mails.append((signup, "pending"))
        else:
            _place(signup, desk, now, None, outbox, step="confirmed")
    outbox.send(site)
    return signup


def withdraw_signup(*, signup: SignUp | None = None, token: str = "", by: Actor = None, site: str = "",
                    now: datetime.datetime | None = None) -> SignUp:
    """Withdraw by the mailed link (``token``) or by the director (``signup``).
    A place freed goes to the first on the waiting list. A registration not
    yet seated in any round is removed; one already seated is dropped, as the
    director's drop does. Locks the series row."""
    if signup is None:
        signup = signup_of_link(token)
    now = now or timezone.now()
    outbox = _Outbox()
    with transaction.atomic():
        signup = _locked(signup, "registration")
        if signup.status in (Status.WITHDRAWN, Status.REFUSED):
            raise ServiceError("not_active", f"{signup.name} is no longer signed up", field="signup")
        was = signup.status
        reg = signup.registration
        signup.status, signup.decided_at, signup.registration = Status.WITHDRAWN, now, None
        signup.save(update_fields=["status", "decided_at", "registration"])
        if reg is not None:
            if reg.round_seats.exists() or reg.substituted_seats.exists():
                if not reg.is_dropped:
                    drop_player(registration=reg, by=by)
            else:
                reg.delete()
        log(signup.series, Action.SIGN_UP, by, f"withdrawn: {signup.name} (was {was})", signup=signup.pk,
            step="withdrawn")
        _promote(signup.series, _desk(signup.series), now, by, outbox)
    outbox.send(site)
    return signup


# -- the director's side --------------------------------------------------------------------------


def configure_signup(*, series: Series, is_open: bool, closes_at: datetime.datetime | None, cap: int | None,
                     moderated: bool, by: Actor = None, site: str = "",
                     now: datetime.datetime | None = None) -> SignUpDesk:
    """Open or close the form, set its closing time, the cap and moderation.
    A cap raised (or removed) gives the new places to the waiting list. Locks the series row."""
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= 9_999):
        raise ServiceError("invalid_cap", "the cap is a whole number from 1 to 9,999", field="cap")
    now = now or timezone.now()
    outbox = _Outbox()
    with transaction.atomic():
        lock_series(series)
        ensure_event(series)
        desk = _desk(series)
        before = (desk.is_open, desk.closes_at, desk.cap, desk.moderated)
        desk.is_open, desk.closes_at, desk.cap, desk.moderated = is_open, closes_at, cap, moderated
        desk.full_clean()
        desk.save()
        if before != (is_open, closes_at, cap, moderated):
            log(series, Action.SIGN_UP, by, "sign-up form " + ("open" if is_open else "closed")
                + (f" until {closes_at:%Y-%m-%d %H:%M} UTC" if closes_at else "")
                + (f", cap {cap}" if cap else ", no cap") + (", moderated" if moderated else ""), step="desk")
        _promote(series, desk, now, by, outbox)
    outbox.send(site)
    return desk


def decide_signup(*, signup: SignUp, approve: bool, by: Actor = None, site: str = "",
                  now: datetime.datetime | None = None) -> SignUp:
    """The director approves (a place or the waiting list) or refuses a
    sign-up awaiting moderation. Locks the series row."""
    now = now or timezone.now()
    outbox = _Outbox()
    with transaction.atomic():
        signup = _locked(signup)
        if signup.status != Status.PENDING:
            raise ServiceError("not_pending", f"{signup.name} is not awaiting a decision", field="signup")
        if approve:
            _place(signup, _desk(signup.series), now, by, outbox, step="approved")
        else:
            signup.status, signup.decided_at = Status.REFUSED, now
            signup.save(update_fields=["status", "decided_at"])
            log(signup.series, Action.SIGN_UP, by, f"refused: {signup.name}", signup=signup.pk, step="refused")
            outbox.mails.append((signup, "refused"))
    outbox.send(site)
    return signup


def erase_personal_data(*, series: Series, by: Actor = None, now: datetime.datetime | None = None) -> int:
    """Blank every sign-up's e-mail and link once the form no longer takes
    sign-ups; returns how many were erased. Names stay: they are the
    registrations every page shows. Locks the series row."""
    now = now or timezone.now()
    with transaction.atomic():
        lock_series(series)
        if _desk(series).accepting(now):
            raise ServiceError("signup_open", "close the sign-up form before erasing its e-mails", field="series")
        n = series.signups.filter(erased_at=None).update(email="", nonce="", erased_at=now)
        log(series, Action.SIGN_UP, by, f"erased the e-mails of {n} sign-ups", step="erased", count=n)
    return n


# -- places -------------------------------------------------------------------------------------


def _place(signup: SignUp, desk: SignUpDesk, now: datetime.datetime, by: Actor, outbox: _Outbox, *,
           step: str) -> None:
    """A place under the cap, if one is free and nobody waits ahead; else the waiting list."""
    signup.queued_at = now
    ahead = signup.series.signups.filter(status=Status.WAITING).exists()
    if not ahead and (desk.cap is None or _taken(signup.series) < desk.cap):
        _register(signup, now, by)
        log(signup.series, Action.SIGN_UP, by, f"{step}: {signup.name}, registered as number "
            f"{signup.registration.number}", signup=signup.pk, step=step, placed="registered")
        outbox.mails.append((signup, "registered"))
    else:
        signup.status = Status.WAITING
        signup.save(update_fields=["status", "queued_at"])
        position = signup.series.signups.filter(status=Status.WAITING).count()
        log(signup.series, Action.SIGN_UP, by, f"{step}: {signup.name}, on the waiting list ({position})",
            signup=signup.pk, step=step, placed="waiting")
        outbox.mails.append((signup, "waiting"))
        # A place may be free behind someone who cannot move up (see _promote).
        _promote(signup.series, desk, now, by, outbox)


def _promote(series: Series, desk: SignUpDesk, now: datetime.datetime, by: Actor, outbox: _Outbox) -> None:
    """Give every free place to the waiting list, first come first served."""
    skipped: list[int] = []
    while desk.cap is None or _taken(series) < desk.cap:
        waiting = series.signups.filter(status=Status.WAITING).order_by("queued_at", "pk")
        first = waiting.exclude(pk__in=skipped).first()
        if first is None:
            return
        try:
            with transaction.atomic():  # a savepoint: a refused registration leaves the rest as it was
                _register(first, now, by)
        except ServiceError as err:
            # The player list changed since the sign-up (say, a player registered by
            # hand under this EMA number): the director decides; the next one moves up.
            skipped.append(first.pk)
            log(series, Action.SIGN_UP, by, f"cannot move up: {first.name}: {err.message}", signup=first.pk,
                step="not_promoted")
            continue
        log(series, Action.SIGN_UP, by, f"moved up from the waiting list: {first.name}, registered as number "
            f"{first.registration.number}", signup=first.pk, step="promoted")
        outbox.mails.append((first, "promoted"))


def _register(signup: SignUp, now: datetime.datetime, by: Actor) -> None:
    reg = register_player(series=signup.series, first_name=signup.first_name, last_name=signup.last_name,
                          ema_number=signup.ema_number, country=signup.country, club=signup.club, team=signup.team,
                          by=by)
    signup.status, signup.registration, signup.decided_at = Status.REGISTERED, reg, now
    signup.save(update_fields=["status", "registration", "decided_at", "queued_at"])
