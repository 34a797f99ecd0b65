"""Public pages under load: a 10,000-game series served by gunicorn, measured with wrk.

    python tests/benchmarks/bench_pages.py [--games 10000] [--seconds 10]

Not collected by pytest. Builds a throwaway SQLite database (or uses
DATABASE_URL if set, e.g. a PostgreSQL scratch database), fills one series
with 10,000 finished games (a few played hand by hand through the services,
the rest bulk-written with settled snapshots), starts gunicorn with two
workers on 127.0.0.1 only, and runs wrk against the series page, a game page,
a player page, the series page's live fragment, the public pages of an
event (96 players, two rounds played, the third being played: the event
page, the stages and teams pages, the projector's standings and a player's
next table), /healthz (a trivial Django view) and a static response of the
series page's own bytes (a Django view returning a constant) in the same run. Absolute figures on a shared two-core
machine are noise; read the ratios to /healthz, which runs before and after
every page (each page is compared with the two runs beside it).

Then every page is requested again in the bench's own process, through
Django's WSGI handler, and its CPU time per request is set beside the
trivial view's: on a shared machine throughput moves with the neighbours'
load, CPU time much less.

The conditional run repeats each page with the ``If-None-Match`` its last
response carried (a phone's live refresh when nothing changed): a page that
sends ETags answers 304 with no body. "refresh bytes/h" is what one phone's
30-second refresh of the series fragment moves per hour on an unchanged
page, request and response on the wire, as the page's script sends it.

"cold ms" is the first request for a page on warm workers after a hand is
saved (through the services, in a game being played: what happens every
minute of an event) and after a change of results (a penalty given to a
finished game of the latest round through the services, a new amount each
time: what a finished game, a correction or a penalty costs the next page). wrk then measures the steady state, where pages come from the cache.
For an event page, "after a hand" is a hand saved in one of the event's own
games being played, and "after any change" moves the event's stamps.
The same first requests are then made in the bench's own process, through
Django's WSGI handler, and their CPU time is printed beside (the median of
``--cpu-tries``, with the ratio of after-a-change to after-a-hand): on a
loaded machine a request's wall time moves with the neighbours, CPU time
hardly. To compare two versions of the code, run this script from each
(the older one's checkout with this file copied in) one after the other.
CACHE_URL=dummy:// measures the pages with caching off. ``--cold-only`` stops
after the cold figures (a quick before and after of a change to the code).

The per-address limit on anonymous requests (PUBLIC_RATE_LIMIT) is off
here unless the environment sets it: wrk's one address would meet it on the
static view, which is not a cached page.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a script: tests.* is found from the repository's root

from tests.serve import serve  # noqa: E402


def build(games: int) -> tuple[str, int, int, int, int]:
    """Fill the database; returns the series slug, a game played hand by hand,
    one of its players, a game being played (where the bench enters hands)
    and a finished game of the latest round (where it gives penalties)."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.factories import (
        bulk_finished_games,
        draw,
        hanchan_passing_deal,
        make_game,
        make_players,
        make_series,
        play,
    )

    series = make_series(name="Benchmark League", slug="bench", min_games=10)
    players = make_players(32)
    played = 8
    sample = None
    for i in range(played):
        game = make_game(series, players[4 * (i % 8) : 4 * (i % 8) + 4], round_number=1, table=str(i + 1))
        play(game, hanchan_passing_deal())
        sample = sample or game
    bulk_finished_games(series, players, games - played, seed=7)
    assert sample is not None
    # The latest round played: one game kept by end scores, where the bench's
    # change of results gives (and takes back) a penalty.
    from league import services

    latest = (games - played) // 8 + 2
    kept = make_game(series, players[4:8], round_number=latest, table="1")
    services.record_final_scores(game=kept, scores=[41000, 29000, 18000, 12000])
    # Being played, with the sample game's players: the dealer keeps the deal
    # on every tenpai draw, so it takes as many hands as the bench enters.
    live = make_game(series, players[:4], round_number=latest + 1, table="1")
    play(live, [draw(0)])
    return series.slug, sample.pk, players[0].pk, live.pk, kept.pk


def build_event(players: int = 96) -> tuple[str, int]:
    """An event of ``players`` players in teams of four: rounds 1 and 2
    finished, round 3 being played (a hand at its first table); returns its
    slug and that game (where the bench enters hands)."""
    from league import services
    from league.services import event
    from tests.benchmarks.events import new_event, roster
    from tests.factories import draw, play

    series = new_event(rounds=4)  # EMA rules: 30,000 each
    event.import_registrations(series=series, text=roster(players, teams=True))
    event.check_in(registrations=series.registrations.all())
    rounds = event.seat_rounds(series=series).rounds
    scores = [[45000, 35000, 25000, 15000], [38000, 32000, 17000, 33000], [52000, 28000, 21000, 19000]]
    for rnd in rounds[:2]:
        event.publish_round(round=rnd)
        for i, game in enumerate(event.start_round(round=rnd)):
            services.record_final_scores(game=game, scores=scores[(i + rnd.number) % len(scores)])
    event.publish_round(round=rounds[2])
    live = event.start_round(round=rounds[2])[0]
    play(live, [draw(0)])
    return series.slug, live.pk


_penalties = [0]


def penalty_given(game_pk: int) -> None:
    """A change of results as staff make it, through the services: a penalty
    (or a bonus, every other time, so the total stays small) given to a
    finished game, a new amount each time: no standings seen before come back."""
    from league import services
    from league.models import Game

    _penalties[0] += 1
    n = _penalties[0]
    points = (1 if n % 2 else -1) * 100 * n  # +0.1, -0.2, +0.3, ... points
    services.add_penalty(game=Game.objects.get(pk=game_pk), seat=n % 4, points=points, reason="bench")


def enter_hand(game_pk: int) -> None:
    """A hand saved at a table, through the services, as a scorer saves it."""
    from league import services
    from league.models import Game
    from tests.factories import draw

    game = Game.objects.get(pk=game_pk)
    services.record_hand(game=game, number=game.hands.count() + 1, hand=draw(0))


def cold_request(url: str, change: Callable[[], object], tries: int = 3) -> float:
    """The best of a few first requests after ``change()``, on warm workers."""
    best = float("inf")
    for _ in range(tries):
        change()
        started = time.perf_counter()
        urllib.request.urlopen(url, timeout=60).read()
        best = min(best, time.perf_counter() - started)
    return best


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body, a 304 included (urllib raises on it)."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=60) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def wire_bytes(port: int, path: str, headers: dict[str, str]) -> tuple[int, int, int]:
    """(status, request bytes, response bytes) of one request as sent on the wire."""
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", *(f"{k}: {v}" for k, v in headers.items()),
             "Connection: close", "", ""]
    request = "\r\n".join(lines).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    response = b"".join(chunks)
    return int(response.split(b" ", 2)[1]), len(request), len(response)


# What a phone's browser sends with the page script's fetch, beside our own headers.
BROWSER_HEADERS = {
    "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/130.0.0.0 Mobile Safari/537.36",
    "Accept": "*/*", "Accept-Encoding": "gzip, deflate, br, zstd", "Accept-Language": "en-GB,en;q=0.9",
    "X-Requested-With": "fetch",
}


def refresh_bytes_per_hour(port: int, path: str, poll_seconds: int = 30) -> tuple[int, int, int]:
    """One phone refreshing ``path`` every ``poll_seconds`` on an unchanged
    page: (status of a refresh, bytes up per hour, bytes down per hour). The
    page's script sends If-None-Match with the ETag of its last response."""
    status, headers, _ = fetch(f"http://127.0.0.1:{port}{path}", {"Accept-Encoding": BROWSER_HEADERS["Accept-Encoding"]})
    extra = {"If-None-Match": headers["ETag"]} if "ETag" in headers else {}
    status, up, down = wire_bytes(port, path, {**BROWSER_HEADERS, **extra})
    per_hour = 3600 // poll_seconds
    return status, up * per_hour, down * per_hour


def in_process(paths: dict[str, tuple[str, dict[str, str]]], calls: int) -> dict[str, float]:
    """CPU microseconds per request through Django's WSGI handler in this
    process (no server, no network, no wrk): the best of three batches. CPU
    time, unlike throughput, hardly moves with what else the machine runs."""
    import io

    from django.core.wsgi import get_wsgi_application

    app = get_wsgi_application()

    def call(path: str, headers: dict[str, str]) -> None:
        route, _, query = path.partition("?")
        environ = {
            "REQUEST_METHOD": "GET", "PATH_INFO": route, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1", "wsgi.input": io.BytesIO(), "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr, **{"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()},
        }
        body = app(environ, lambda status, headers, *exc: None)
        b"".join(body)
        body.close()

    out = {}
    for name, (path, headers) in paths.items():
        for _ in range(5):
            call(path, headers)  # this process's caches, warm
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            for _ in range(calls):
                call(path, headers)
            best = min(best, (time.process_time() - started) / calls)
        out[name] = best * 1e6
    return out


def cold_cpu(paths: dict[str, str], changes: Callable[[str], tuple[Callable[[], object], Callable[[], object]]],
             tries: int) -> dict[str, tuple[float, float]]:
    """The cold figures again in this process, through Django's WSGI handler:
    CPU milliseconds of the first request after a hand and after a change of
    results, the median of ``tries`` (the query's own time included: SQLite
    runs in this process). CPU time, unlike a request's wall time, hardly
    moves with what else the machine runs, so before and after compare on a
    loaded machine. The change itself is not timed."""
    import io
    import statistics

    from django.core.wsgi import get_wsgi_application

    app = get_wsgi_application()

    def call(path: str) -> float:
        route, _, query = path.partition("?")
        environ = {
            "REQUEST_METHOD": "GET", "PATH_INFO": route, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1", "wsgi.input": io.BytesIO(), "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
        }
        started = time.process_time()
        body = app(environ, lambda status, headers, *exc: None)
        b"".join(body)
        body.close()
        return (time.process_time() - started) * 1000

    out = {}
    for name, path in paths.items():
        hand, results = changes(name)
        for _ in range(2):
            call(path)  # this process's imports and templates, warm
        after = []
        for change in (hand, results):
            times = []
            for _ in range(tries):
                change()
                times.append(call(path))
            after.append(statistics.median(times))
        out[name] = (after[0], after[1])
    return out


def wrk(url: str, seconds: int, connections: int, headers: dict[str, str] | None = None) -> tuple[float, str]:
    extra = [arg for k, v in (headers or {}).items() for arg in ("-H", f"{k}: {v}")]
    out = subprocess.run(
        ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "10s", *extra, url],
        capture_output=True, text=True, timeout=seconds + 30, check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    latency = re.search(r"Latency\s+(\S+)", out).group(1)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"{url}: {errors.group(1)} error responses\n{out}")
    return rps, latency


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--calls", type=int, default=500, help="requests per batch of the in-process run")
    parser.add_argument("--tries", type=int, default=3, help="cold requests per page and change (the best is kept)")
    parser.add_argument("--cpu-tries", type=int, default=7, help="cold requests per page and change, in process")
    parser.add_argument("--cold-only", action="store_true", help="stop after the cold figures")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install -y wrk)")

    tmp = Path(tempfile.mkdtemp(prefix="tenbou-bench-"))
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{tmp / 'bench.sqlite3'}")
    env.update(DJANGO_SETTINGS_MODULE="tests.benchmarks.bench_settings", DEBUG="0", SECRET_KEY="bench-only",
               ALLOWED_HOSTS="127.0.0.1", BENCH_STATIC_FILE=str(tmp / "static.html"))
    env.setdefault("PUBLIC_RATE_LIMIT", "")
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))

    started = time.perf_counter()
    slug, game_pk, player_pk, live_pk, kept_pk = build(args.games)
    event_slug, event_live_pk = build_event()
    print(f"built {args.games:,} games and an event in {time.perf_counter() - started:.1f} s ({env['DATABASE_URL'].split(':')[0]})")

    try:
        with serve(env, workers=2) as base:
            port = int(base.rsplit(":", 1)[1])
            pages = {
                "trivial view (/healthz)": "/healthz",
                "static, series page size": "/bench/static",
                "game page": f"/games/{game_pk}/",
                "series page": f"/series/{slug}/",
                "series live fragment": f"/series/{slug}/?partial=1",
                "player page": f"/series/{slug}/players/{player_pk}/",
                "event page": f"/series/{event_slug}/event/",
                "event stages page": f"/series/{event_slug}/event/stages/",
                "event teams page": f"/series/{event_slug}/event/teams/",
                "event projector standings": f"/series/{event_slug}/event/screen/standings/",
                "event player's next table": f"/series/{event_slug}/event/players/1/",
            }
            # The static response is the series page's own bytes.
            Path(env["BENCH_STATIC_FILE"]).write_bytes(fetch(base + pages["series page"])[2])
            for path in pages.values():  # warm both workers (imports, template cache, page cache)
                for _ in range(4):
                    fetch(base + path)
            from league.models import Series
            from league.services.audit import bump_version

            event_id = Series.objects.get(slug=event_slug).pk
            measured = [name for name in pages if name.startswith(("game", "series", "player", "event"))]

            def changes(name: str) -> tuple[Callable[[], object], Callable[[], object]]:
                if name.startswith("event"):
                    return lambda: enter_hand(event_live_pk), lambda: bump_version(event_id)
                return lambda: enter_hand(live_pk), lambda: penalty_given(kept_pk)

            # After a hand in a game being played: what happens every minute of an event.
            cold_hand = {name: cold_request(base + pages[name], changes(name)[0], args.tries) for name in measured}
            # After a change of results: a penalty given to a finished game of
            # the latest round; the event's stamps moved.
            cold = {name: cold_request(base + pages[name], changes(name)[1], args.tries) for name in measured}
            cpu_cold = cold_cpu({name: pages[name] for name in measured}, changes, args.cpu_tries)
            print(f"cold: the first request after a hand is saved / after a change of results; load average "
                  f"{os.getloadavg()[0]:.1f}")
            print(f"{'page':28} {'wall ms, best of ' + str(args.tries):>22} {'CPU ms, median of ' + str(args.cpu_tries):>24}"
                  f" {'ratio':>6}")
            for name in measured:
                hand_cpu, results_cpu = cpu_cold[name]
                print(f"{name:28} {cold_hand[name] * 1000:10.1f} {cold[name] * 1000:10.1f} "
                      f"{hand_cpu:11.1f} {results_cpu:11.1f} {results_cpu / hand_cpu:5.1f}x")
            if args.cold_only:
                return
            sizes = {name: len(fetch(base + path)[2]) for name, path in pages.items()}
            gzipped = {name: len(fetch(base + path, {"Accept-Encoding": "gzip"})[2]) for name, path in pages.items()}
            etags = {name: fetch(base + path)[1].get("ETag") for name, path in pages.items()}
            refresh = refresh_bytes_per_hour(port, pages["series live fragment"])
            # Every page runs between two runs of the trivial view, and is
            # compared with their mean: on a shared machine the load drifts
            # within minutes, and a single yardstick at the start misleads.
            trivial_path = pages["trivial view (/healthz)"]

            def run(path: str, headers: dict[str, str] | None = None) -> tuple[float, str]:
                out = wrk(base + path, args.seconds, args.connections, headers)
                time.sleep(2)  # let the workers drain what wrk left queued before the next run
                return out

            yardsticks = [run(trivial_path)[0]]
            results, beside = {}, {}
            for name, path in pages.items():
                if path == trivial_path:
                    continue
                results[name] = run(path)
                yardsticks.append(run(trivial_path)[0])
                beside[name] = (yardsticks[-2] + yardsticks[-1]) / 2
            conditional = {}
            for name, path in pages.items():
                if name in measured:
                    # Without an ETag the page answers 200 in full: sent anyway, to show it.
                    headers = {"If-None-Match": etags[name] or '"none"'}
                    status = fetch(base + path, headers)[0]
                    conditional[name] = (*run(path, headers), status)
                    yardsticks.append(run(trivial_path)[0])
                    beside[f"{name} (conditional)"] = (yardsticks[-2] + yardsticks[-1]) / 2
            # The same pages once more, in this process: CPU per request.
            cpu_paths = {name: (path, {}) for name, path in pages.items()}
            cpu_paths.update({f"{name}, If-None-Match": (pages[name], {"If-None-Match": etags[name] or '"none"'})
                              for name in conditional})
            cpu = in_process(cpu_paths, args.calls)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    caching = os.environ.get("CACHE_URL", "locmem://")
    print(f"gunicorn 2 workers, wrk {args.connections} connections x {args.seconds} s each, 127.0.0.1, cache {caching}")
    print(f"trivial view (/healthz): {len(yardsticks)} runs, one before and after each page, "
          f"{min(yardsticks):.1f} to {max(yardsticks):.1f} req/s; 'vs trivial' is against the two beside it")
    print("cold ms: the first request after a hand is saved / after any change (all recomputed), wall time")
    print(f"{'page':28} {'cold ms':>13} {'req/s':>9} {'latency':>9} {'bytes':>9} {'gzip bytes':>10} {'vs trivial':>11}")
    for name, (rps, latency) in results.items():
        cold_ms = f"{cold_hand[name] * 1000:6.1f}/{cold[name] * 1000:6.1f}" if name in cold else ""
        print(f"{name:28} {cold_ms:>13} {rps:9.1f} {latency:>9} {sizes[name]:9,} {gzipped[name]:10,} "
              f"{rps / beside[name]:10.1%}")
    print("conditional requests (If-None-Match: the page's last ETag), same run")
    print(f"{'page':28} {'status':>8} {'req/s':>9} {'latency':>9} {'vs trivial':>11}")
    for name, (rps, latency, status) in conditional.items():
        print(f"{name:28} {status:8} {rps:9.1f} {latency:>9} {rps / beside[f'{name} (conditional)']:10.1%}")
    trivial_cpu = cpu["trivial view (/healthz)"]
    print(f"in this process, through Django's WSGI handler: CPU per request (best of 3 x {args.calls})")
    print(f"{'request':40} {'CPU us':>8} {'vs trivial':>11}")
    for name, us in cpu.items():
        print(f"{name:40} {us:8.1f} {trivial_cpu / us:10.1%}")
    status, up, down = refresh
    print(f"live refresh, one phone, unchanged series page, every 30 s: answered {status}, "
          f"{up / 1000:,.1f} KB/h up, {down / 1000:,.1f} KB/h down")


if __name__ == "__main__":
    main()
