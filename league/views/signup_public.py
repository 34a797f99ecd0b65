"""Players registering themselves for an event: the public form and the
link each sign-up is mailed (confirm or withdraw). The director's desk is
``views/signup.py``. Views are thin: one call to ``league.services.signup``.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from league.access import event_for_anyone
from league.forms.signup import SignUpForm, signup_refusal
from league.models import SignUp, SignUpDesk
from league.services import ServiceError
from league.services import signup as desk_service
from league.views.params import site_root

Status = SignUp.Status


def signup_form(request: HttpRequest, slug: str) -> HttpResponse:
    """The public form; a POST is one sign-up, a burst from one address is held back."""
    series = event_for_anyone(slug)[0]
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
                signup = desk_service.sign_up(series=series, language=get_language() or "en", site=site_root(request),
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
                desk_service.confirm_signup(token=token, site=site_root(request))
            elif action == "withdraw":
                desk_service.withdraw_signup(token=token, site=site_root(request))
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
