"""A login that lasts the event: each request of a logged-in user moves the
session's expiry on, but the session is written at most once an hour.

Django's own ``SESSION_SAVE_EVERY_REQUEST`` would write the session row on
every request: a write per page for each scorer, which on SQLite takes the
database's one write lock (and the live pages poll).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

REFRESH_SECONDS = 3600


class SlidingSessionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            now = int(time.time())
            if now - int(request.session.get("seen", 0)) >= REFRESH_SECONDS:
                request.session["seen"] = now  # modified: saved with a new expiry, SESSION_COOKIE_AGE from now
        return self.get_response(request)
