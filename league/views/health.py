"""Probes for a load balancer or an orchestrator. ``/healthz``
says the process answers and touches nothing, so it stays the page benchmark's
yardstick; ``/readyz`` says the process can serve pages: its database answers.
``/time`` is the countdown's clock: the server's time, never cached."""

from __future__ import annotations

import logging
import time

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache

from league.views.access import limit_exempt

log = logging.getLogger(__name__)


@limit_exempt
def healthz(request: HttpRequest) -> HttpResponse:
    """A trivial view: the benchmark's yardstick for Django's own cost."""
    return HttpResponse("ok", content_type="text/plain")


@limit_exempt
@never_cache
def readyz(request: HttpRequest) -> HttpResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as err:
        log.error("readyz: the database does not answer: %s", err)
        return HttpResponse(f"database unavailable: {type(err).__name__}", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


@limit_exempt
@never_cache
def server_time(request: HttpRequest) -> JsonResponse:
    """The server's time, milliseconds since the epoch: the countdown's
    reference (league/static/league/countdown.js). A page may come from the
    cache minutes after it was made, so the time is never read from a page;
    this answer is never cached (``never_cache``: no-store)."""
    return JsonResponse({"now": time.time_ns() // 1_000_000})
