"""The director's side of players registering themselves: the desk on the
players page (open or close, the cap, moderation, erasing the e-mails) and
the sign-ups' CSV. The public form and the mailed link's page are
``views/signup_public.py``.

The e-mail of a sign-up is shown on the director's players page only: the
public pages, the link's page and the exports never carry it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from league.access import can_direct, event_for_anyone
from league.csv_cells import Row, cell
from league.db_bounds import ROW_ID
from league.exports import csv_response
from league.forms.signup import DeskForm, signup_refusal
from league.models import Series, SignUp, SignUpDesk
from league.services import ServiceError
from league.services import signup as desk_service
from league.views.access import staff_required
from league.views.params import site_root

Status = SignUp.Status


def signup_board(series: Series) -> dict[str, Any]:
    """What the players page shows of the sign-ups: the desk and its form,
    the sign-ups by status (the waiting list in order), e-mails included."""
    desk = SignUpDesk.objects.filter(series=series).first()
    signups = list(series.signups.select_related("registration").order_by("created_at", "pk"))
    waiting = sorted((s for s in signups if s.status == Status.WAITING), key=lambda s: (s.queued_at, s.pk))
    initial = {"is_open": desk.is_open, "closes_at": desk.closes_at, "cap": desk.cap,
               "moderated": desk.moderated} if desk else {}
    return {
        "desk": desk, "desk_form": DeskForm(initial=initial), "signups": signups, "waiting": waiting,
        "pending": [s for s in signups if s.status == Status.PENDING],
        "others": [s for s in signups if s.status not in (Status.WAITING, Status.PENDING)],
        "unerased": sum(1 for s in signups if s.erased_at is None),
        "public_url": reverse("signup-form", args=[series.slug]),
    }


def _desk_series(request: HttpRequest, slug: str) -> Series:
    series = event_for_anyone(slug)[0]
    if not can_direct(request.user, series):
        raise PermissionDenied("You do not direct this event.")
    return series


@staff_required
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    series = _desk_series(request, slug)
    if request.method != "POST":  # who may ask first: an outsider learns nothing, not even the method
        return HttpResponseNotAllowed(["POST"])
    form = DeskForm(request.POST)
    if form.is_valid():
        d = form.cleaned_data
        try:
            desk_service.configure_signup(series=series, is_open=d["is_open"], closes_at=d["closes_at"], cap=d["cap"],
                                          moderated=d["moderated"], by=request.user, site=site_root(request))
        except ServiceError as err:
            messages.error(request, signup_refusal(err))
        else:
            messages.success(request, _("Sign-up settings saved."))
    else:
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
    return redirect(reverse("event-players", args=[series.slug]) + "#signup-h")


@staff_required
def decide(request: HttpRequest, slug: str, pk: str) -> HttpResponse:
    series = _desk_series(request, slug)
    if request.method != "POST":  # who may ask first: an outsider learns nothing, not even the method
        return HttpResponseNotAllowed(["POST"])
    signup_pk = ROW_ID.read(pk)
    signup = get_object_or_404(SignUp, series=series, pk=signup_pk) if signup_pk else None
    if signup is None:
        raise Http404("no such sign-up")
    action = request.POST.get("action")
    try:
        if action in ("approve", "refuse"):
            desk_service.decide_signup(signup=signup, approve=action == "approve", by=request.user,
                                       site=site_root(request))
        elif action == "withdraw":
            desk_service.withdraw_signup(signup=signup, by=request.user, site=site_root(request))
        else:
            raise Http404("no such action")
    except ServiceError as err:
        messages.error(request, signup_refusal(err))
    else:
        messages.success(request, _("Saved: %(player)s.") % {"player": signup.name})
    return redirect(reverse("event-players", args=[series.slug]) + "#signup-h")


@staff_required
def erase(request: HttpRequest, slug: str) -> HttpResponse:
    series = _desk_series(request, slug)
    if request.method != "POST":  # who may ask first: an outsider learns nothing, not even the method
        return HttpResponseNotAllowed(["POST"])
    try:
        n = desk_service.erase_personal_data(series=series, by=request.user, now=timezone.now())
    except ServiceError as err:
        messages.error(request, signup_refusal(err))
    else:
        messages.success(request, _("Erased the e-mails of %(n)d sign-ups.") % {"n": n})
    return redirect(reverse("event-players", args=[series.slug]) + "#signup-h")


SIGNUPS_HEADER = ["signed_up", "first_name", "last_name", "email", "ema_number", "country", "club", "team", "status",
                  "waiting", "number"]


def _signup_rows(series: Series) -> Iterator[Row]:
    """The director's list of sign-ups, e-mails included (the only export that has them)."""
    yield SIGNUPS_HEADER
    waiting = 0
    for s in series.signups.select_related("registration").order_by("created_at", "pk"):
        waiting += s.status == Status.WAITING
        yield [s.created_at.strftime("%Y-%m-%d %H:%M"), *map(cell, (s.first_name, s.last_name, s.email,
               s.ema_number, s.country, s.club, s.team, s.status)),
               waiting if s.status == Status.WAITING else "", s.registration.number if s.registration else ""]


@staff_required
def signups_csv(request: HttpRequest, slug: str) -> HttpResponse:
    series = event_for_anyone(slug)[0]
    if not can_direct(request.user, series):
        raise PermissionDenied("You do not direct this event.")
    response = csv_response(_signup_rows(series), f"{series.slug}-signups.csv")
    response["Cache-Control"] = "private, no-store"
    return response
