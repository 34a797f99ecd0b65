"""Where a logged-in request's CPU goes, phase by phase (issue 28).

    python tests/benchmarks/bench_phases.py [--requests 400] [--clock thread]
    python tests/benchmarks/bench_phases.py --taps [--requests 300]   # the live preview's phases
    python tests/benchmarks/bench_phases.py --saves [--requests 300]  # the save's phases

Not collected by pytest. In process through Django's test client, set up as
``bench_entry.py`` sets up (a throwaway SQLite file, or DATABASE_URL), after
the scorer has opened a game's page. For each kind of request (a bare GET
``/healthz``, the same logged in, a logged-in POST of the preview's body to
``/healthz``, a live preview tap) it prints the median CPU of the request and,
per request on average:

- each middleware's own time: a marker between every two middleware of
  ``settings.MIDDLEWARE`` takes ``time.process_time_ns()`` on the way in and
  out; a middleware's share is its time in both directions less the inner
  chain's (the innermost segment is URL resolving, ``process_view`` and the
  view; the outermost the test client and the handler);
- the inclusive time of a few named functions (the session's load and
  decode, every cursor's ``execute``, Django's ``get_user``, the backend's,
  the session hash, the CSRF and CSP hooks, the body's parsing, Django's
  or ``read_form``'s, the game's read): wrapped with a timer.

``--taps``: games played hand after hand as bench_preview.py plays them
(the page's GET, a first and a later live preview tap of the hand, the save
answered in place), ``--requests`` hands; only the taps and a bare
``/healthz`` between them are timed, with the preview view's own steps
(the game's read, the parse, the pricing, the wording, the markup) timed
beside the functions above: what a first tap spends, step by step.

``--clock thread``: ``time.thread_time`` instead of ``process_time``, which
also counts other threads of the process (the webhooks' delivery thread,
about 0.04 ms a request on average, bare requests too); the benchmarks'
yardstick stays ``process_time``, this says how much of it is not the
request's own thread.

``--saves``: the same games, each hand saved as the page's script saves it
with the phone's engine (``seen``, answered in place); only the saves and a
bare ``/healthz`` between them are timed, with the save's steps (the form,
the protocol's decision, the service and its commit hooks, the answer in
place and its parts) timed beside the functions above.

cProfile misattributes at this scale (its own cost per call is of the order
of the calls measured); these timers cost about a microsecond each. The
session's read is lazy: it runs where ``request.user`` is first read
(``SlidingSessionMiddleware``), so its time shows in that middleware's share.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.append(str(Path(__file__).resolve().parent))
import form_body  # noqa: E402  (the bodies the page's script posts)

_now = time.process_time_ns
MARKS: list[tuple[int, str, int]] = []
TIMED: dict[str, int] = {}


class Marker:
    """Put between every two middleware; the handler builds the chain from
    the innermost out, so the first one built is the innermost."""

    built = 0
    count = 1

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response
        self.depth = Marker.count - 1 - Marker.built % Marker.count  # 0: the outermost
        Marker.built += 1

    def __call__(self, request: Any) -> Any:
        MARKS.append((self.depth, "in", _now()))
        response = self.get_response(request)
        MARKS.append((self.depth, "out", _now()))
        return response


def _timed(owner: Any, name: str, label: str) -> None:
    original = getattr(owner, name)

    @functools.wraps(original)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = _now()
        try:
            return original(*args, **kwargs)
        finally:
            TIMED[label] = TIMED.get(label, 0) + _now() - start

    setattr(owner, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--taps", action="store_true",
                        help="the live preview's first and later taps of hands saved as the page saves them, "
                             "with the view's own functions timed")
    parser.add_argument("--clock", choices=("process", "thread"), default="process",
                        help="process_time (default: every thread's CPU, the webhooks' delivery thread's too) "
                             "or thread_time (the request's thread only)")
    parser.add_argument("--saves", action="store_true",
                        help="the saves (with seen, answered in place) of hands entered as the page enters them, "
                             "with the save's own steps timed")
    args = parser.parse_args()
    global _now
    _now = time.thread_time_ns if args.clock == "thread" else time.process_time_ns
    if args.taps or args.saves:
        _taps(args.requests, args.clock, saves=args.saves)
        return
    from tests.benchmarks import bench_entry as be

    with tempfile.TemporaryDirectory(prefix="bench-phases-") as tmp:
        be._setup(tmp)
        from django.conf import settings

        chain = list(settings.MIDDLEWARE)
        # The module as the handler imports the markers by name (run as a
        # script, this file is also __main__: its counters are not those).
        import tests.benchmarks.bench_phases as me

        me._now = _now  # the clock chosen, for the markers and timers of that module
        marker = "tests.benchmarks.bench_phases.Marker"
        settings.MIDDLEWARE = [m for name in chain for m in (marker, name)] + [marker]
        me.Marker.count = len(chain) + 1
        me._wrap_functions()
        from django.db import connection
        from django.urls import reverse

        bench = be.Bench()
        url = reverse("staff-game", args=[bench.game.pk])
        form = form_body.EntryPage(bench.client.get(url).content.decode())
        form.tap(form_body.hand_choices(0))
        body = form.preview_body()
        headers = {**form_body.HEADERS, "HTTP_X_TENBOU_ENTRY": "1"}
        preview = reverse("staff-preview", args=[bench.game.pk])
        kinds = {
            "bare GET /healthz": lambda: bench.trivial.get("/healthz"),
            "logged-in GET /healthz": lambda: bench.client.get("/healthz"),
            "logged-in POST /healthz (preview's body)": lambda: bench.client.post("/healthz", body, **headers),
            "preview tap": lambda: bench.client.post(preview, body, **headers),
        }
        names = ["(test client and handler)", *chain, "(resolve, process_view, view)"]
        print(f"{connection.vendor}, {args.requests} requests each; load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for kind, request in kinds.items():
            for _ in range(50):
                request()
            me.TIMED.clear()
            totals: list[float] = []
            shares: dict[int, list[int]] = {}
            for _ in range(args.requests):
                me.MARKS.clear()
                start = _now()
                request()
                end = _now()
                totals.append((end - start) / 1e6)
                into = {d: t for d, way, t in me.MARKS if way == "in"}
                out = {d: t for d, way, t in me.MARKS if way == "out"}
                last = len(into) - 1
                shares.setdefault(0, []).append(into[0] - start + end - out[0])
                for d in range(last):
                    shares.setdefault(d + 1, []).append(into[d + 1] - into[d] + out[d] - out[d + 1])
                shares.setdefault(last + 1, []).append(out[last] - into[last])
            print(f"\n== {kind}: median {statistics.median(totals):.3f} ms")
            print("   ms/request (mean)  middleware's own share")
            for d, spent in sorted(shares.items()):
                print(f"   {statistics.mean(spent) / 1e6:8.4f}  {names[d]}")
            print("   ms/request (mean)  function, inclusive")
            for label, spent_ns in me.TIMED.items():
                print(f"   {spent_ns / args.requests / 1e6:8.4f}  {label}")


def _taps(requests: int, clock: str, *, saves: bool = False) -> None:
    """Per hand of games played as bench_preview.py plays them (the page's
    GET, the first tap, a later tap, the save in place; only the taps timed):
    each tap's median CPU and the inclusive time of the preview's phases.
    ``saves``: the saves timed instead (with the phone's ``seen``), and the
    save's phases."""
    from tests.benchmarks import bench_entry as be

    with tempfile.TemporaryDirectory(prefix="bench-phases-") as tmp:
        be._setup(tmp)
        import re

        import tests.benchmarks.bench_phases as me

        me._now = _now
        me._wrap_functions()
        me._wrap_save() if saves else me._wrap_preview()
        from django.db import connection
        from django.urls import reverse

        bench = be.Bench()
        kinds = ("save with seen", "/healthz") if saves else ("first tap", "later tap", "/healthz")
        totals: dict[str, list[float]] = {k: [] for k in kinds}
        timed: dict[str, dict[str, int]] = {k: {} for k in totals}

        def tap(kind: str, fn: Callable[[], Any]) -> Any:
            me.TIMED.clear()
            start = _now()
            out = fn()
            totals[kind].append((_now() - start) / 1e6)
            for label, ns in me.TIMED.items():
                timed[kind][label] = timed[kind].get(label, 0) + ns
            return out

        def hand(step: int, count: bool) -> None:
            bench.game.refresh_from_db()
            if bench.game.is_finished:
                bench.game = bench._new_game()
            url = reverse("staff-game", args=[bench.game.pk])
            form = form_body.EntryPage(bench.client.get(url).content.decode())
            form.tap(form_body.hand_choices(step))
            body = form.preview_body()
            headers = {**form_body.HEADERS, "HTTP_X_TENBOU_ENTRY": "1"}
            preview = reverse("staff-preview", args=[bench.game.pk])
            post = lambda: bench.client.post(preview, body, **headers)  # noqa: E731
            shown = post() if saves else tap("first tap", post)
            shown = post() if saves else tap("later tap", post)
            tap("/healthz", lambda: bench.trivial.get("/healthz"))
            form.shown(re.search(rb'data-digest="([^"]+)"', shown.content).group(1).decode())
            seen = re.search(rb'data-deltas="([^"]+)"', shown.content).group(1).decode()
            saved_body = form.save_body(seen if saves else None)
            save = lambda: bench.client.post(url, saved_body, **headers, HTTP_X_TENBOU_IN_PLACE="1")  # noqa: E731
            saved = tap("save with seen", save) if saves else save()
            assert saved.status_code in (200, 302), saved.status_code
            if not count:
                for k in totals:
                    totals[k].clear()
                    timed[k].clear()

        for i in range(20):
            hand(i, count=False)
        for i in range(requests):
            hand(20 + i, count=True)
        print(f"{connection.vendor}, {requests} hands, clock {clock}; load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for kind, spent in totals.items():
            print(f"\n== {kind}: median {statistics.median(spent):.3f} ms, mean {statistics.mean(spent):.3f}")
            for label, ns in sorted(timed[kind].items(), key=lambda kv: -kv[1]):
                print(f"   {ns / requests / 1e6:8.4f}  {label}")


def _wrap_preview() -> None:
    from django.core.cache import caches

    from league import statements
    from league.services import entry
    from league.views import entry_form, staff_preview

    for owner, name, label in (
        (staff_preview, "game_for_scorer", "view: game_for_scorer"),
        (statements.Columns, "build", "Columns.build (every row built: user, game, series)"),
        (entry, "read_game_held", "view: read_game_held"),
        (entry, "read_game", "  read_game (held missed)"),
        (entry, "_read_key", "  _read_key"),
        (entry, "row_digest", "    row_digest"),
        (type(caches["default"]), "get", "  cache.get"),
        (entry, "_now", "  entry._now"),
        (entry, "claimed", "view: claimed"),
        (entry, "is_stale", "view: is_stale"),
        (staff_preview, "PostedHand", "view: PostedHand (parse)"),
        (staff_preview, "priced", "view: priced"),
        (entry, "preview_entry", "  preview_entry"),
        (entry, "price_hand", "    price_hand"),
        (staff_preview, "preview_html", "view: preview_html"),
        (entry_form, "clean_fields", "    clean_fields"),
        (entry_form, "HandEntry", "    HandEntry"),
        (entry_form.services, "describe_payments", "    describe_payments"),
        (entry, "digest", "    entry.digest"),
    ):
        _timed(owner, name, label)


def _wrap_save() -> None:
    from django.core.cache import caches
    from django.db.backends.base import base as db_base

    from league import stamps
    from league.forms import HandForm
    from league.services import entry
    from league.views import game_page, staff

    for owner, name, label in (
        (staff, "game_for_scorer", "view: game_for_scorer"),
        (entry, "read_game_held", "view: read_game_held"),
        (entry, "read_game", "  read_game (held missed)"),
        (entry, "claimed", "view: claimed"),
        (staff, "PostedHand", "view: PostedHand (parse)"),
        (staff, "hand_form", "view: hand_form (built: a page instead of the save)"),
        (HandForm, "full_clean", "view: form full_clean"),
        (entry, "decide", "view: decide"),
        (entry, "save_entry", "view: save_entry"),
        (entry, "record_hand", "  record_hand"),
        (entry, "apply_time_policy", "  apply_time_policy"),
        (db_base.BaseDatabaseWrapper, "run_and_clear_commit_hooks", "  commit hooks"),
        (entry, "_keep_saved", "    _keep_saved"),
        (type(caches["default"]), "set", "      cache.set"),
        (stamps._Publication, "__call__", "    stamps' publication"),
        (staff, "in_place", "view: in_place"),
        (game_page, "in_place_answer", "  in_place_answer"),
        (game_page, "game_context", "  game_context"),
        (game_page, "render_to_string", "  render_to_string (each part)"),
        (game_page, "clock_notice", "  clock_notice"),
        (entry, "phone_state", "  phone_state"),
        (game_page, "JsonResponse", "  JsonResponse"),
    ):
        _timed(owner, name, label)


def _wrap_functions() -> None:
    import csp.middleware
    from django.contrib import auth as django_auth
    from django.contrib.auth import models as auth_models
    from django.db.backends import utils as db_utils
    from django.http import request as http_request
    from django.middleware import csrf

    from league import access, auth, sessions
    from league import middleware as league_middleware

    for owner, name, label in (
        (sessions.SessionStore, "load", "session: load (statement included)"),
        (sessions.SessionStore, "decode", "session: decode"),
        (sessions, "fetch_one", "session: its statement (fetch_one)"),
        (sessions.SessionStore, "_hinted_id", "session: the hinted user's id"),
        (db_utils.CursorWrapper, "execute", "cursor.execute, every statement"),
        (django_auth, "get_user", "auth.get_user (the session's load included)"),
        (auth.NoDemoLoginBackend, "get_user", "backend.get_user"),
        (auth_models.AbstractBaseUser, "get_session_auth_hash", "user.get_session_auth_hash"),
        (csrf.CsrfViewMiddleware, "process_view", "CSRF process_view"),
        (league_middleware.CSPMiddleware, "process_response", "CSP process_response (a fragment passed)"),
        (csp.middleware.CSPMiddleware, "process_response", "  django-csp's process_response (the policy built)"),
        (http_request.HttpRequest, "_load_post_and_files", "request body parsed"),
        (access, "game_for_scorer", "access.game_for_scorer"),
    ):
        _timed(owner, name, label)
    from league import middleware

    if hasattr(middleware, "read_form"):  # a URL-encoded form, read before the CSRF check
        _timed(middleware, "read_form", "request body parsed (read_form)")


if __name__ == "__main__":
    main()
