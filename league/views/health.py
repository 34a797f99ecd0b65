"""Probes for a load balancer or an orchestrator. ``/healthz`` (in series.py)
says the process answers and touches nothing, so it stays the page benchmark's
yardstick; ``/readyz`` says the process can serve pages: its database answers."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache

log = logging.getLogger(__name__)


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
