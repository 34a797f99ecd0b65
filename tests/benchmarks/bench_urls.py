"""The benchmark's URLs: the project's, plus a static response of the series
page's own bytes (the yardstick for "a cached page costs what a static file
costs"). Served only by bench_pages.py's gunicorn, never by the project."""

from __future__ import annotations

import os
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.urls import path

from league.urls import urlpatterns as project_urls

_body: bytes | None = None


def static_page(request: HttpRequest) -> HttpResponse:
    # The bench writes the file after the server started (it needs the
    # series page's bytes first), so it is read on the first request.
    global _body
    if _body is None:
        _body = Path(os.environ["BENCH_STATIC_FILE"]).read_bytes()
    return HttpResponse(_body, content_type="text/html; charset=utf-8")


urlpatterns = [*project_urls, path("bench/static", static_page)]
