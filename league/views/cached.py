"""Public pages served whole from the cache, with ETags, 304s and gzip.

A public page is a function of its series' stamp (``league.stamps``), path,
canonical parameters and language, never of who looks, so its whole response is
cached under those and answered by ``CachedPageMiddleware`` with no database
query: a strong ETag and Last-Modified from the stamp, 304 on a current
``If-None-Match``, gzip stored once per page under an ETag of its own. A full
page comes from the cache only for a request without a session or messages
cookie; a logged-in one is rendered from the cached fragments and sent
``private``. Why compressing is safe here and nowhere else (BREACH):
docs/architecture.md, "Cache layers"; the stamps: docs/caching.md.
"""

from __future__ import annotations

import datetime
import functools
import gzip
import hashlib
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, NamedTuple
from urllib.parse import unquote_plus

from django.conf import settings
from django.core.cache import cache
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_sequence
from django.utils.translation import get_language

from league import stamps
from league.db_bounds import ROW_ID, SLUG_LENGTH
from league.models import Game, Series, Standings
from league.standings.event import series_standings
from league.standings.season import season_if_cached

PAGE_CACHE_SECONDS = 600
# The pages this process served last, unpickled: a hit costs a dict lookup,
# where the cache (even locmem) unpickles a copy of the bytes each time.
# Keys carry the stamp, so a response is never stale, only unused.
LOCAL_PAGES = 64
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_SORT = re.compile(r"-?[A-Za-z0-9_.]{1,40}")
_VISITOR_COOKIES = (settings.SESSION_COOKIE_NAME, "messages")


def canonical(value: object) -> str | None:
    """A parsed parameter (by the view's own parsers, ``int_param`` and
    ``date_param``) as the one string the cache key holds; None drops it."""
    if value is None:
        return None
    return value.isoformat() if isinstance(value, datetime.date) else str(value)


def _flag(value: str) -> str | None:
    return "1" if value else None


def _sort(value: str) -> str | None:
    return value if _SORT.fullmatch(value) else None


# What a sort or a flag may hold, in its canonical form; None drops it.
FLAG, SORT = _flag, _sort
Params = Mapping[str, Callable[[str], str | None]]


def canonical_query(request: HttpRequest, params: Params) -> dict[str, str]:
    """The parameters a page understands, each once, in canonical form and
    order: ``?round=3&x=1&round=04`` is ``round=4`` (the last, as ``GET.get``).
    Anything else would not change the page and only multiply the cache's
    entries. Read from the raw query string: building ``request.GET`` was a
    tenth of what a cached page cost."""
    query: dict[str, str] = {}
    raw_query = request.META.get("QUERY_STRING")
    if not raw_query:
        return query
    raw: dict[str, str] = {}
    for part in raw_query.split("&"):
        name, _, value = part.partition("=")
        if "%" in name or "+" in name:
            name = unquote_plus(name, errors="replace")
        if name in params:
            raw[name] = unquote_plus(value, errors="replace") if "%" in value or "+" in value else value
    for name in sorted(raw):
        canonical = params[name](raw[name])
        if canonical is not None:
            query[name] = canonical
    return query


def _page_key(request: HttpRequest, query: Mapping[str, str]) -> str:
    # Canonical values are digits, dates and sort names: nothing to quote.
    pairs = "&".join(f"{k}={v}" for k, v in sorted(query.items()))
    return f"{request.path}?{pairs}|{_language(request)}"


def _language(request: HttpRequest) -> str:
    # LocaleMiddleware, when there is one, sets the request's language;
    # without it every page is in the project's language.
    return getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE


def _as_get(query: Mapping[str, str]) -> QueryDict:
    get = QueryDict(mutable=True)
    for k, v in query.items():
        get[k] = v
    get._mutable = False
    return get


class CachedResponse(NamedTuple):
    """A cached response: its bytes plain and gzipped, with their ETags."""

    content_type: str
    body: bytes
    gzipped: bytes | None
    etag: str
    gzip_etag: str
    changed: int


def _etags(stamp: stamps.Stamp, key: str) -> tuple[str, str]:
    digest = hashlib.sha1(key.encode()).hexdigest()[:12]
    return f'"{stamp.token}-{digest}"', f'"{stamp.token}-{digest}-gz"'


def _gzip(body: bytes) -> bytes | None:
    if len(body) < 512:
        return None
    # mtime=0: the same page gives the same bytes in every worker.
    packed = gzip.compress(body, compresslevel=6, mtime=0)
    return packed if len(packed) < len(body) else None


def _not_modified(request: HttpRequest, cached: CachedResponse) -> bool:
    match = request.META.get("HTTP_IF_NONE_MATCH")
    if match is not None:
        # A client holding either encoding of the current page holds the current page.
        tags = {t.strip().removeprefix("W/") for t in match.split(",")}
        return "*" in tags or cached.etag in tags or cached.gzip_etag in tags
    # Dates have whole seconds, and two changes can fall in one: only a copy
    # from a later second is known current (the ETag is exact).
    since = request.META.get("HTTP_IF_MODIFIED_SINCE")
    if since is None:
        return False  # parsing an absent date took 9 us, a sixteenth of a cached page
    since_seconds = parse_http_date_safe(since)
    return since_seconds is not None and cached.changed < since_seconds


def _respond(request: HttpRequest, cached: CachedResponse) -> HttpResponse:
    # Headers given whole to the constructor: setting them one by one was a
    # tenth of what a cached page cost.
    use_gzip = cached.gzipped is not None and bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
    headers = {
        "ETag": cached.gzip_etag if use_gzip else cached.etag,
        "Last-Modified": _http_date(cached.changed),
        # Kept, but asked again each time: a 304 when nothing changed.
        "Cache-Control": "no-cache",
        # The language comes from the switch's cookie or from Accept-Language.
        "Vary": "Accept-Encoding, Accept-Language, Cookie",
    }
    if _not_modified(request, cached):
        response = HttpResponse(status=304, headers=headers)
        del response["Content-Type"]
        return response
    if use_gzip:
        headers["Content-Encoding"] = "gzip"
    body = cached.gzipped if use_gzip else cached.body
    headers["Content-Type"] = cached.content_type
    # What CommonMiddleware adds, which a page served by CachedPageMiddleware
    # never reaches: without it the server sends the page in chunks.
    headers["Content-Length"] = str(len(body))
    return HttpResponse(body, headers=headers)


@functools.lru_cache(maxsize=256)
def _http_date(seconds: int) -> str:
    return http_date(seconds)


_local: dict[str, CachedResponse] = {}
_local_lock = threading.Lock()


def _visitor_specific(request: HttpRequest) -> bool:
    return any(name in request.COOKIES for name in _VISITOR_COOKIES)


class Page(NamedTuple):
    """What ``public_page`` knows of a view: how to find its series and its parameters."""

    series_of: Callable[..., int | str | None]
    params: Params
    fragment: Callable[[Mapping[str, str]], bool]
    kind: str  # the stamp it is cached under: "stamp", "results" or "lineup" (stamps.stamp)


class Lookup(NamedTuple):
    """One request's place in the cache, and the response found there if any."""

    stamp: stamps.Stamp
    query: dict[str, str]
    key: str
    fragment: bool
    cache_key: str
    visitor_specific: bool
    cached: CachedResponse | None


# The views public_page wrapped, by the function the URL resolver returns.
_pages: dict[Callable[..., HttpResponseBase], Page] = {}


def _look_up(request: HttpRequest, page: Page, series: int | str) -> Lookup:
    query = canonical_query(request, page.params)
    # The stamp is read before the view reads anything: what it renders
    # is at least as new as the stamp it is cached under.
    stamp = stamps.stamp(series, kind=page.kind)
    key = _page_key(request, query)
    is_fragment = page.fragment(query)
    # The prefix names the stored class: pickles of another class are never read.
    cache_key = f"cached-response:{stamp.token}:{hashlib.sha1(key.encode()).hexdigest()}"
    visitor_specific = not is_fragment and _visitor_specific(request)
    cached = None if visitor_specific else _local.get(cache_key) or cache.get(cache_key)
    return Lookup(stamp, query, key, is_fragment, cache_key, visitor_specific, cached)


def _remember(cache_key: str, cached: CachedResponse) -> None:
    if cache_key not in _local:
        with _local_lock:  # a threaded server: one eviction at a time
            if len(_local) >= LOCAL_PAGES:
                _local.pop(next(iter(_local)), None)  # the oldest
            _local[cache_key] = cached


def _remembered(key: str, rows: QuerySet) -> int | None:
    """The first value of ``rows`` (a series pk), kept under ``key`` in the
    stamps' store (``league.stamps``) once found; None if there is none."""
    found = stamps.store().get(key)
    if found is not None:
        return int(found)
    pk = rows.first()
    if pk is not None:
        stamps.store().add(key, str(pk))
    return pk


def series_for_slug(slug: str) -> int | None:
    """The pk of the series with this slug, remembered; None if there is none."""
    if len(slug) > SLUG_LENGTH:  # no series has it, and it would make a file name too long for the stamps
        return None
    return _remembered(f"slug-{slug}", Series.objects.filter(slug=slug).values_list("pk", flat=True))


def series_for_game(game_id: int) -> int | None:
    """The pk of a game's series, remembered (a game never changes series)."""
    if ROW_ID.problem(game_id):  # no game has it (a key of 251 digits is also too long a file name)
        return None
    return _remembered(f"game-{game_id}", Game.objects.filter(pk=game_id).values_list("series_id", flat=True))


def public_page(
    series_of: Callable[..., int | str | None], params: Params, *,
    fragment: Callable[[Mapping[str, str]], bool] = lambda query: False, results: bool = False,
    lineup: bool = False,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponseBase]]:
    """Serve a public view whole from the cache.

    ``series_of(**kwargs)`` names the series whose stamp the page is cached
    under (``stamps.EVERYTHING`` for the series list), without a database
    query once known; None means there is no such page and the view answers.
    ``params`` are the query parameters the view reads: it sees only those,
    canonical. ``fragment(query)`` says whether the request is for a
    fragment, which shows nothing about the visitor and so is cached for
    everyone. ``results=True`` caches the page under the series' results
    stamp: for a page that shows nothing a hand in a game still being played
    changes (the event pages: seats, rounds, the clock's end, finished
    results), so a hand entered at any table leaves it cached. ``lineup=True``
    caches it under the series' lineup stamp: for a page that shows of a
    game being played only what no hand changes (the series page: its
    table and seats), which a game's start moves too. A page found
    in the cache is usually served before it gets here, by
    ``CachedPageMiddleware``; the view runs when it is not there.
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponseBase]:
        page = Page(series_of, params, fragment, "results" if results else "lineup" if lineup else "stamp")

        @wraps(view)
        def wrapper(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
            series = series_of(**kwargs)
            if series is None or request.method not in ("GET", "HEAD"):
                return view(request, **kwargs)
            found = _look_up(request, page, series)
            cached = found.cached
            if cached is None:
                request.GET = _as_get(found.query)
                live = found.key if found.fragment else _page_key(request, {**found.query, "partial": "1"})
                request.live_etag = _etags(found.stamp, live)[0]  # type: ignore[attr-defined]
                if found.visitor_specific:
                    response = view(request, **kwargs)
                    response["Cache-Control"] = "private, no-cache"
                    patch_vary_headers(response, ("Cookie",))
                    return response

                def compute() -> CachedResponse | HttpResponseBase:
                    response = view(request, **kwargs)
                    if response.status_code != 200 or response.streaming:
                        return response
                    etag, gzip_etag = _etags(found.stamp, found.key)
                    body = response.content
                    made = CachedResponse(response["Content-Type"], body, _gzip(body), etag, gzip_etag,
                                          found.stamp.changed)
                    cache.set(found.cache_key, made, PAGE_CACHE_SECONDS)
                    return made

                filled = fill_once(found.cache_key, compute)
                if not isinstance(filled, CachedResponse):
                    return filled
                cached = filled
            _remember(found.cache_key, cached)
            return _respond(request, cached)

        _pages[wrapper] = page
        return wrapper

    return decorate


# A page missing from the cache is computed by one request while the others
# asking for it wait (``fill_once``): how long a computation holds the page
# (a worker killed in the middle frees it then), and how long another
# request waits for its copy before computing the page itself.
FILL_LOCK_SECONDS = 10
FILL_WAIT_SECONDS = 2.0


def fill_once(cache_key: str, compute: Callable[[], CachedResponse | HttpResponseBase]) -> CachedResponse | HttpResponseBase:
    """``compute()`` for the page under ``cache_key``, run by one request at a
    time however many miss it at once (when a page goes out of the cache
    under a thousand spectators, every worker that missed it computed it).

    The first request takes the page's fill lock, ``cache.add`` (atomic in
    Redis and in the per-process cache, so it holds across workers when the
    cache is shared, across a worker's threads otherwise) and computes; the
    others poll the cache for its copy, for at most ``FILL_WAIT_SECONDS``,
    and compute the page themselves if none comes: the first answered
    something not cached (a 404, an error) or is too slow. The lock holds a
    token of its own: a computation that outlived it (``FILL_LOCK_SECONDS``)
    frees only its own lock, never a later request's, which would let a
    third compute beside that one.

    Never a stale copy: a page is only ever served under the stamp it was
    computed for, and a stamp is published after its commit, so a copy
    computed after its stamp was read holds that change (league/stamps.py).
    Computed twice on purpose, as before the lock: an answer nothing keeps
    (a 404, an error: each request needs its own, and none is dearer than
    the page), and a page whose first computation takes longer than
    ``FILL_WAIT_SECONDS``, which also bounds the wait when a worker died
    holding the lock (the series page's full read is about 120 ms;
    docs/caching.md)."""
    lock = f"filling:{cache_key}"
    token = secrets.token_hex(8)
    if cache.add(lock, token, FILL_LOCK_SECONDS):
        try:
            return compute()
        finally:
            # Past FILL_LOCK_SECONDS the lock expired and may be another request's now. Between
            # this read and the delete it could only change if it expired in those microseconds.
            if cache.get(lock) == token:
                cache.delete(lock)
    deadline = time.monotonic() + FILL_WAIT_SECONDS
    pause = 0.005
    while time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(2 * pause, 0.05)
        # One round trip; the page is stored before the lock goes, so neither there means no copy is coming.
        now = cache.get_many([cache_key, lock])
        if cache_key in now:
            return now[cache_key]  # type: ignore[no-any-return]
        if lock not in now:
            break
    return compute()


def also_serve(callback: Callable[..., HttpResponseBase], view: Callable[..., HttpResponseBase]) -> None:
    """Let ``CachedPageMiddleware`` answer for ``callback``, the function the
    URL resolver returns for a view ``public_page`` wrapped inside another
    dispatcher (the API's: django-ninja routes every path through a view
    of its own, so the resolver never returns the wrapped function)."""
    _pages[callback] = _pages[view]


def event_page(params: Params | None = None) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponseBase]]:
    """``public_page`` for a public page of an event (``/series/<slug>/event/...``):
    cached under the series' results stamp, which every event service moves
    (league/services/event/common.py ``log``) as a finished game does.
    Results the director hides are left out of what the view renders, and
    hiding them moves the stamp: a page showing them is never served after."""
    return public_page(lambda slug, **kwargs: series_for_slug(slug), params or {}, results=True)


@functools.lru_cache(maxsize=1024)
def _route(urlconf: str, path: str) -> tuple[Page, dict[str, Any]] | None:
    """The public page at ``path`` and its URL's arguments, or None. Kept:
    the handler resolves the path again for any request not answered here,
    and resolving it twice made every other request (``/healthz`` too) pay."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    page = _pages.get(match.func)  # a view wrapped again by another decorator is not here: it runs
    if page is None or match.args:
        return None
    return page, match.kwargs


def from_cache(request: HttpRequest) -> HttpResponse | None:
    """The cached response to ``request`` if its page is in the cache, else None
    (``league.middleware.CachedPageMiddleware`` asks before the rest of the chain)."""
    route = _route(settings.ROOT_URLCONF, request.path_info)
    if route is None:
        return None
    page, kwargs = route
    series = page.series_of(**kwargs)
    if series is None:
        return None
    found = _look_up(request, page, series)
    if found.cached is None:
        return None
    request.get_host()  # DisallowedHost (a 400) for a host not in ALLOWED_HOSTS
    _remember(found.cache_key, found.cached)
    return _respond(request, found.cached)


def _sorted(query: QueryDict) -> QueryDict:
    out = QueryDict(mutable=True)
    for name in sorted(query):
        out.setlist(name, query.getlist(name))
    return out


def conditional(request: HttpRequest, series: int, make: Callable[[], HttpResponseBase]) -> HttpResponseBase:
    """ETag and Last-Modified for a response not worth caching whole (a CSV
    export, streamed): ``make()`` runs only when the client's copy is stale.
    A client that accepts gzip gets the stream compressed as it goes, under
    an ETag of its own (a strong ETag names exact bytes); a CSV holds nothing
    secret, so BREACH has nothing to read in it either."""
    stamp = stamps.stamp(series)
    key = f"{request.path}?{_sorted(request.GET).urlencode()}"
    etag, gzip_etag = _etags(stamp, key)
    cached = CachedResponse("", b"", None, etag, gzip_etag, stamp.changed)
    use_gzip = bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
    if _not_modified(request, cached):
        response: HttpResponseBase = HttpResponse(status=304)
        del response["Content-Type"]
    else:
        response = make()
        if use_gzip and response.streaming and response.status_code == 200:
            # mtime 0 and no random file name: the same rows give the same bytes.
            response.streaming_content = compress_sequence(response.streaming_content)  # type: ignore[attr-defined]
            response["Content-Encoding"] = "gzip"
        else:
            use_gzip = False
    response["ETag"] = gzip_etag if use_gzip else etag
    response["Last-Modified"] = http_date(stamp.changed)
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


# -- parts of a page, cached under the series' version --------------------------------


LIVE_POLL_SECONDS = 30


# Pages are cached under the series' version, which every change moves; the
# timeout only bounds what the version does not cover (a renamed player).
def is_fragment(query: Mapping[str, str]) -> bool:
    """Whether a request is the live refresh's, for the part of a page it swaps in."""
    return "partial" in query


def render_cached(
    request: HttpRequest, key: str, template: str, context: Callable[[], dict[str, Any]]
) -> tuple[SafeString, bool]:
    """``template`` rendered with ``context()`` and whether its games are live,
    cached under ``key`` and the query string. Keys carry the series'
    version, so a change shows at once; the fragments hold nothing that
    depends on who is looking."""
    # Rendered text is in the request's language: one entry per language.
    full_key = f"{key}:{get_language()}:{query_key(request)}"
    cached = cache.get(full_key)
    if cached is None:
        ctx = context()
        cached = (render_to_string(template, ctx, request), bool(ctx.get("live")))
        cache.set(full_key, cached, PAGE_CACHE_SECONDS)
    return mark_safe(cached[0]), cached[1]  # our own rendered template


def query_key(request: HttpRequest) -> str:
    """A short, order-independent key for the query string of ``request``."""
    items = sorted((k, v) for k in request.GET for v in request.GET.getlist(k))
    return hashlib.sha1(repr(items).encode()).hexdigest()[:16]


def current_standings(series: Series) -> Standings:
    """The series' standings now, cached under its results stamp."""
    league_season = season_if_cached(series)
    if league_season is not None:  # the series page's own read, when it came first
        return league_season.standings
    token = stamps.results_token(series.pk)
    return cache.get_or_set(f"standings:{series.pk}:{token}", lambda: series_standings(series), PAGE_CACHE_SECONDS)
