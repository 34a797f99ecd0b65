"""Tenbou's middleware, one module, in the order of ``settings.MIDDLEWARE``:
``CSPMiddleware`` (django-csp's, which leaves a fragment's policy as it is:
league/csp.py), ``ApiCorsMiddleware`` (the read API for any origin), ``CachedPageMiddleware``
(a public page from the cache before the rest of the chain),
``FormPostMiddleware`` (a URL-encoded POST's form read in one step),
``AnonymousLimitMiddleware``, ``SlidingSessionMiddleware`` (a login that lasts
the event; it also gives the session store the request's path) and
``DeliveryThreadMiddleware`` (the webhooks' thread).

``AnonymousLimitMiddleware`` holds each address to ``PUBLIC_RATE_LIMIT`` for the
anonymous requests the page cache did not answer (``429`` with ``Retry-After``);
a cached page and a logged-in request are never counted; the API counts apart
(``API_RATE_LIMIT``). The sizing: docs/caching.md, "The per-address limit".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from csp.middleware import CSPMiddleware as SitePolicyMiddleware
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, QueryDict, UnreadablePostError
from django.utils import translation
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from league import webhooks
from league.csp import is_fragment
from league.views.cached import from_cache

View = Callable[..., HttpResponseBase]


class CSPMiddleware(SitePolicyMiddleware):
    """django-csp's middleware: the site's policy on every response but a
    fragment's (``league.csp.as_fragment``), which keeps its own."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if is_fragment(response):
            return response
        return super().process_response(request, response)


class AnonymousLimitMiddleware:
    """After AuthenticationMiddleware: counts per client address (``key="ip"``,
    ``RATELIMIT_IP_META_KEY``) the anonymous requests that reach a view, save
    a view marked ``limit_exempt`` (``league.views.access``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: View, args: Any, kwargs: Any) -> HttpResponseBase | None:
        api = request.path_info.startswith(API_PREFIX)
        rate = settings.API_RATE_LIMIT if api else settings.PUBLIC_RATE_LIMIT
        if not rate or getattr(view, "limit_exempt", False):
            return None
        # Without a session cookie this reads nothing: no query for the anonymous.
        if request.user.is_authenticated:
            return None
        usage = get_usage(request, group="api" if api else "public", key="ip", rate=rate, increment=True)
        if usage is None or not usage["should_limit"]:
            return None
        retry = max(1, usage["time_left"])
        if api:
            message = f"too many requests from this address: try again in {retry} seconds"
            response: HttpResponseBase = JsonResponse(
                {"error": {"code": "too_many_requests", "message": message, "field": None}}, status=429)
        else:
            response = HttpResponse(
                _("Too many requests from your address. Please try again in %(seconds)d seconds.") % {"seconds": retry}
                + "\n", status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(retry)
        response["Cache-Control"] = "no-store"
        return response


API_PREFIX = "/api/"
# What a browser may send and read across origins: reads only, and the
# conditional request that makes a poll cheap.
_CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "ETag, Last-Modified, Retry-After",
}
_PREFLIGHT = {
    **_CORS,
    "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
    "Access-Control-Allow-Headers": "If-None-Match, If-Modified-Since",
    "Access-Control-Max-Age": "86400",
}


class ApiCorsMiddleware:
    """The read API may be read from any page (a stream overlay, a results
    site): ``Access-Control-Allow-Origin: *`` on GET and HEAD under ``/api/``,
    and a preflight OPTIONS answered here. Nothing else gets CORS headers, and
    no credentials are allowed: a cross-origin request is an anonymous read.
    Before ``CachedPageMiddleware``, so an answer from the cache has them too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        if request.method == "OPTIONS":
            response = HttpResponse(status=204, headers=_PREFLIGHT)
            del response["Content-Type"]
            return response
        head = request.method == "HEAD"
        if head:
            # The API's views answer GET; a HEAD is that answer's headers (django-ninja has no HEAD of its own).
            request.method = "GET"
        response = self.get_response(request)
        if head and not response.streaming:
            response.content = b""
        if request.method == "GET":
            for name, value in _CORS.items():
                response[name] = value
        return response


class CachedPageMiddleware:
    """Serve a public page found in the cache before the rest of the
    middleware runs, as WhiteNoise serves a static file: it goes right after
    SecurityMiddleware and WhiteNoise (whose headers it keeps), with
    XFrameOptionsMiddleware before it.

    What the middleware it skips would do to such a request is nothing: an
    anonymous GET of a page that holds no CSRF token and no message, whose
    session is never read (a full page is served here only without a session
    or messages cookie, as in ``public_page``), on a URL that resolved
    (CommonMiddleware's slash redirect is for 404s); the host is checked
    here as CommonMiddleware checks it. Anything else, and any page not in
    the cache, goes on to the view. The page key holds the language, which
    LocaleMiddleware sets later in the chain: this middleware reads it the
    same way first (the switch's cookie, else Accept-Language; the URLs carry
    no language prefix), and answers with the headers LocaleMiddleware adds.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.locale = "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method in ("GET", "HEAD"):
            if self.locale:
                request.LANGUAGE_CODE = translation.get_language_from_request(request)
            response = from_cache(request)
            if response is not None:
                if self.locale:
                    response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
                return response
        return self.get_response(request)


FORM = "application/x-www-form-urlencoded"


class FormPostMiddleware:
    """Before ``CsrfViewMiddleware``, which reads ``request.POST`` on every
    POST (its token): a URL-encoded form (every staff form, the live
    preview's taps) is read here by ``read_form``, the same ``QueryDict``
    Django's own parse gives, built in one step. Django's builds it field by
    field through ``appendlist`` (a dozen Python calls a field, each value
    passed through ``bytes_to_text`` twice): in a loop, 40-70 µs for a
    tap's nine fields and 90-140 for the twenty the page's script posts,
    against 20-40 and 30 here (issue 28)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method == "POST" and request.content_type == FORM:
            read_form(request)
        return self.get_response(request)


def read_form(request: HttpRequest) -> None:
    """Set ``request.POST`` (and the empty ``request.FILES``) of a URL-encoded
    POST as Django's ``HttpRequest._load_post_and_files`` would: the body
    decoded as UTF-8 (ISO-8859-1 when it is not), ``parse_qsl`` with blank
    values kept and ``DATA_UPLOAD_MAX_NUMBER_FIELDS``, the values of a name
    in the order sent, immutable. Whatever Django answers otherwise is left
    to Django, on first reading as before: a form already read, a body read
    as a stream, a charset other than UTF-8 (``BadRequest``), a body over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``RequestDataTooBig``, raised before
    anything is read) or over the number of fields (``TooManyFieldsSent``).
    A body that fails to arrive (``UnreadablePostError``) reads as no form,
    Django's own answer to a form read after its body failed; the CSRF check
    then refuses the POST as it refused one whose body failed."""
    started = getattr(request, "_read_started", True)  # a request with no stream of its own: left as it is
    if "_post" in request.__dict__ or (started and "_body" not in request.__dict__):
        return
    if request.encoding is not None and request.encoding.lower() != "utf-8":
        return
    try:
        body = request.body
    except (RequestDataTooBig, UnreadablePostError):
        return
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = body.decode("iso-8859-1")  # as QueryDict reads a misbehaving agent's bytes
    try:
        pairs = parse_qsl(text, keep_blank_values=True, encoding="utf-8",
                          max_num_fields=settings.DATA_UPLOAD_MAX_NUMBER_FIELDS)
    except ValueError:
        return  # too many fields: Django's parse raises TooManyFieldsSent where it always did
    lists: dict[str, list[str]] = {}
    for key, value in pairs:
        if key in lists:
            lists[key].append(value)
        else:
            lists[key] = [value]
    post = QueryDict(encoding="utf-8")
    dict.update(post, lists)  # a QueryDict is a dict of lists; its own setters check mutability per field
    request._post, request._files = post, MultiValueDict()  # type: ignore[attr-defined]


REFRESH_SECONDS = 3600


class SlidingSessionMiddleware:
    """A login that lasts the event: each request of a logged-in user moves the
    session's expiry on, but the session is written at most once an hour.

    Django's own ``SESSION_SAVE_EVERY_REQUEST`` would write the session row on
    every request: a write per page for each scorer, which on SQLite takes the
    database's one write lock (and the live pages poll)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The request's path for the session store, before the line below reads
        # the session: its one statement then also reads the game a scorer is
        # scoring on that game's URLs (league/sessions.py, issue 28). Here and
        # not in a middleware of its own: one more layer, doing nothing else,
        # made the staff game page's GET 0.7-0.8 ms slower (same queries, same
        # bytes; most likely the deeper stack under the page's rendering).
        session = getattr(request, "session", None)
        if session is not None:
            session.for_path = request.path_info
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            now = int(time.time())
            if now - int(request.session.get("seen", 0)) >= REFRESH_SECONDS:
                request.session["seen"] = now  # modified: saved with a new expiry, SESSION_COOKIE_AGE from now
        return self.get_response(request)


class DeliveryThreadMiddleware:
    """Starts the delivery thread with the process's first request that
    reaches the view layer, so deliveries left waiting by a restart go out
    without waiting for the series' next event."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.started = False

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not self.started:
            self.started = True
            webhooks.wake()
        return self.get_response(request)
