"""Who may score what: the staff views' login and permission checks, shared
by every staff view module (staff, sign-off, offline entry, stages, events).

A login that may not score the series gets 403, never a form; the page's
script (it sends ``X-Tenbou-Entry``) gets a 401 it can read when the login
has expired, so it asks for the password in place and sends the entry again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404

from league.models import Game, Series

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


def can_score(user: Any, series: Series) -> bool:
    return bool(user.is_superuser or series.scorers.filter(pk=user.pk).exists())


def series_for_scorer(request: HttpRequest, slug: str) -> Series:
    """The series, if the login may score it; else 404 or 403."""
    series = get_object_or_404(Series, slug=slug)
    if not can_score(request.user, series):
        raise PermissionDenied("You do not score this series.")
    return series


def game_for(request: HttpRequest, pk: int) -> Game:
    """The game with its series, if the login may score it; else 404 or 403."""
    game = get_object_or_404(Game.objects.select_related("series"), pk=pk)
    if not can_score(request.user, game.series):
        raise PermissionDenied("You do not score this series.")
    return game
