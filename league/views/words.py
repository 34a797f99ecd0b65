"""The words of the page's scripts as a script per language (league/script_words.py).

Public: the words are the same for everyone and hold nothing of the league's.
The address carries the words' version, so the answer is kept for a year; an
address with an old version (a page kept from before a deploy) gets today's
words, not kept, so the page still reads.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from league.engine_catalogue import catalogue_json
from league.script_words import words_script

YEAR = 365 * 24 * 3600


@require_GET
def script(request: HttpRequest, language: str, version: str) -> HttpResponse:
    """``window.TenbouWordsData = {...}`` in ``language``; 404 for a language the site does not have."""
    if language not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    current, body = words_script(language)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    if version == current:
        response["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    else:
        response["Cache-Control"] = "no-cache"
    return response


@require_GET
def engine(request: HttpRequest, language: str, version: str) -> HttpResponse:
    """The offline engine's words in ``language`` (league/engine_catalogue.py) as
    JSON, cached as the script words are; 404 for a language the site does not have."""
    if language not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    current, body = catalogue_json(language)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable" if version == current else "no-cache"
    return response
