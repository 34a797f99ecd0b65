"""Players registering themselves: the public form, the page a mailed link
opens (confirm, withdraw), and the director's desk on the players page
(open or close, the cap, moderation, erasing the e-mails).

The e-mail of a sign-up is shown on the director's players page only: the
public pages, the link's page and the exports never carry it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from league.access import can_direct
from league.csv_cells import Row, cell
from league.db_bounds import ROW_ID
from league.exports import csv_response
from league.forms.signup import DeskForm, SignUpForm, signup_refusal
from league.models import Series, SignUp, SignUpDesk, Tournament
from league.services import ServiceError
from league.services import signup as desk_service
from league.views.access import staff_required

Status = SignUp.Status


def _site(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def _event(slug: str) -> Series:
    series = get_object_or_404(Series, slug=slug)
    if not Tournament.objects.filter(series=series).exists():
        raise Http404("this series is not an event")
    return series


# -- the public side ------------------------------------------------------------------------------


def signup_form(request: HttpRequest, slug: str) -> HttpResponse:
    """The public form; a POST is one sign-up, a burst from one address is held back."""
    series = _event(slug)
    desk = SignUpDesk.objects.filter(series=series).first()
    accepting = desk is not None and desk.accepting()
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST":
        rate = settings.SIGNUP_RATE_LIMIT
        usage = get_usage(request, group="signup", key="ip", rate=rate, increment=True) if rate else None
        if usage is not None and usage["should_limit"]:
            form.add_error(None, _("Too many sign-ups from your address. Please try again in %(minutes)d minutes.")
                           % {"minutes": max(1, usage["time_left"] // 60)})
            status = 429
        elif form.is_valid():
            try:
                signup = desk_service.sign_up(series=series, language=get_language() or "en", site=_site(request),
                                              **form.cleaned_data)
            except ServiceError as err:
                form.add_service_error(err)
                status = 400
            else:
                return render(request, "league/signup_sent.html", {"series": series, "signup": signup})
        else:
            status = 400
    response = render(request, "league/signup_form.html",
                      {"series": series, "desk": desk, "accepting": accepting, "form": form}, status=status)
    response["Cache-Control"] = "no-store"
    return response


def signup_link(request: HttpRequest, token: str) -> HttpResponse:
    """The page a mailed link opens: where the sign-up stands, and a button
    to confirm or withdraw (a POST: a mail scanner opening the link changes nothing)."""
    error = None
    try:
        signup = desk_service.signup_of_link(token)
    except ServiceError as err:
        return _link_page(request, None, signup_refusal(err), status=404)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "confirm":
                desk_service.confirm_signup(token=token, site=_site(request))
            elif action == "withdraw":
                desk_service.withdraw_signup(token=token, site=_site(request))
            else:
                return HttpResponseNotAllowed(["GET"])
        except ServiceError as err:
            error = signup_refusal(err)
        else:
            return redirect("signup-link", token=token)
        signup.refresh_from_db()
    return _link_page(request, signup, error, status=400 if error else 200)


def _link_page(request: HttpRequest, signup: SignUp | None, error: str | None, *, status: int) -> HttpResponse:
    position = None
    if signup is not None and signup.status == Status.WAITING:
        position = signup.series.signups.filter(status=Status.WAITING).filter(
            queued_at__lte=signup.queued_at).count()
    response = render(request, "league/signup_link.html",
                      {"signup": signup, "series": signup.series if signup else None, "error": error,
                       "position": position}, status=status)
    # The token in the address is the key to this sign-up: never cached, never sent to another
    # site as a referrer ("no-referrer" would make the browser post Origin: null, which CSRF refuses).
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    return response


# -- the director's side --------------------------------------------------------------------------


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
    series = _event(slug)
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
                                          moderated=d["moderated"], by=request.user, site=_site(request))
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
                                       site=_site(request))
        elif action == "withdraw":
            desk_service.withdraw_signup(signup=signup, by=request.user, site=_site(request))
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
    series = _event(slug)
    if not can_direct(request.user, series):
        raise PermissionDenied("You do not direct this event.")
    response = csv_response(_signup_rows(series), f"{series.slug}-signups.csv")
    response["Cache-Control"] = "private, no-store"
    return response
