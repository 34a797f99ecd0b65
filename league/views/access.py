"""The views' gates: the staff views' login check and method gate, shared by
every staff view module (staff, sign-off, offline entry, stages, events), and
the mark that exempts a view from the per-address limit; who may do what to a
series is ``league.access``. The page's
script (it sends ``X-Tenbou-Entry``) gets a 401 it can read when the login
has expired, so it asks for the password in place and sends the entry again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotAllowed, JsonResponse

from league.access import event_for_director

_to_login = login_required(login_url="login")


def staff_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A login, or the login page; the game page's script (it sends
    ``X-Tenbou-Entry``) gets a 401 it can read instead of a redirect, so it asks
    for the password in place and sends the entry again: nothing typed is lost."""
    redirecting = _to_login(view)

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated and request.headers.get("X-Tenbou-Entry"):
            body = {"error": {"code": "login_required", "message": "Your login has expired: enter your password."}}
            return JsonResponse(body, status=401)
        return redirecting(request, *args, **kwargs)

    return wrapped


def post_only(request: HttpRequest) -> HttpResponse | None:
    """405 for anything but a POST, else None: ``if (refused := post_only(request)) is not None``."""
    return None if request.method == "POST" else HttpResponseNotAllowed(["POST"])


def director_post(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A director's action on an event (``POST /events/<slug>/...``): a staff
    login, the event for its directors (404 for a series that is no event, 403
    for anyone else), then POST only (405), in that order; the view gets the
    series in place of the slug."""

    @staff_required
    @functools.wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        series = event_for_director(request, slug)
        if (refused := post_only(request)) is not None:
            return refused
        return view(request, series, *args, **kwargs)

    return wrapped


def limit_exempt(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Mark a view that costs nothing worth limiting (no database, no
    template): the health probes, the clock's time source. The per-address
    limit (``league.middleware.AnonymousLimitMiddleware``) lets it through."""
    view.limit_exempt = True  # type: ignore[attr-defined]
    return view
