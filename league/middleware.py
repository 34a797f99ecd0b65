"""A per-address limit on anonymous requests the page cache did not answer.

A public page found in the cache costs a dict lookup (league/views/cached.py)
and is answered before this middleware runs, so it is never counted: a room
of phones refreshing cached pages never meets the limit. What is counted is
an anonymous request that reaches a view: a page computed afresh (the first
after a change, a player page nobody asked for yet), a 404, a form. One
client asking for page after page that is not in the cache (a crawler, a
script walking every player number) is held back with ``429 Too Many
Requests`` and ``Retry-After`` before its requests take the workers a
scorer needs. Logged-in staff are never limited.

``PUBLIC_RATE_LIMIT`` (django-ratelimit's ``count/period`` syntax) is sized
in docs/caching.md: 300 phones behind one address, each refreshing every
30 seconds, could all miss the cache in the worst case (every page recomputed
after each finished game), which is 300 in 30 s; the limit is twice that,
with the projectors. An empty value turns the limit off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

View = Callable[..., HttpResponseBase]


def limit_exempt(view: View) -> View:
    """Mark a view that costs nothing worth limiting (no database, no
    template): the health probes, the clock's time source."""
    view.limit_exempt = True  # type: ignore[attr-defined]
    return view


class AnonymousLimitMiddleware:
    """After AuthenticationMiddleware: counts per client address (``key="ip"``,
    ``RATELIMIT_IP_META_KEY``) the anonymous requests that reach a view."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: View, args: Any, kwargs: Any) -> HttpResponseBase | None:
        rate = settings.PUBLIC_RATE_LIMIT
        if not rate or getattr(view, "limit_exempt", False):
            return None
        # Without a session cookie this reads nothing: no query for the anonymous.
        if request.user.is_authenticated:
            return None
        usage = get_usage(request, group="public", key="ip", rate=rate, increment=True)
        if usage is None or not usage["should_limit"]:
            return None
        retry = max(1, usage["time_left"])
        response = HttpResponse(
            _("Too many requests from your address. Please try again in %(seconds)d seconds.") % {"seconds": retry}
            + "\n", status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(retry)
        response["Cache-Control"] = "no-store"
        return response
