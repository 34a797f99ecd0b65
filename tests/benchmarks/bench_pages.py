"""Public pages under load: a 10,000-game series served by gunicorn, measured with wrk.

    python tests/benchmarks/bench_pages.py [--games 10000] [--seconds 10]

Not collected by pytest. Builds a throwaway SQLite database (or uses
DATABASE_URL if set, e.g. a PostgreSQL scratch database), fills one series
with 10,000 finished games (a few played hand by hand through the services,
the rest bulk-written with settled snapshots), starts gunicorn with two
workers on 127.0.0.1 only, and runs wrk against the series page, a game page,
a player page and /healthz (a trivial Django view) in the same run. Absolute
figures on a shared two-core machine are noise; read the ratios to /healthz.

"cold ms" is the first request for a page after a change (the bench moves the
series' version, as every service call does, and the page cache misses) on
warm workers: what a reader waits during an event. wrk then measures the
steady state, where pages come from the cache.
CACHE_URL=dummy:// measures the pages with caching off.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build(games: int) -> tuple[str, int, int]:
    """Fill the database; returns the series slug, a game played hand by hand and one of its players."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.factories import bulk_finished_games, hanchan_passing_deal, make_game, make_players, make_series, play

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
    return series.slug, sample.pk, players[0].pk


def cold_request(url: str, slug: str, tries: int = 3) -> float:
    """The best of a few first requests after a change (the series' version
    moved, as every service call moves it), on warm workers."""
    from django.db.models import F

    from league.models import Series

    best = float("inf")
    for _ in range(tries):
        Series.objects.filter(slug=slug).update(version=F("version") + 1)
        started = time.perf_counter()
        urllib.request.urlopen(url, timeout=60).read()
        best = min(best, time.perf_counter() - started)
    return best


def wrk(url: str, seconds: int, connections: int) -> tuple[float, str]:
    out = subprocess.run(
        ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "10s", url],
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
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install -y wrk)")

    tmp = Path(tempfile.mkdtemp(prefix="tenbou-bench-"))
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{tmp / 'bench.sqlite3'}")
    env.update(DJANGO_SETTINGS_MODULE="league.settings", DEBUG="0", SECRET_KEY="bench-only", ALLOWED_HOSTS="127.0.0.1")
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))

    started = time.perf_counter()
    slug, game_pk, player_pk = build(args.games)
    print(f"built {args.games:,} games in {time.perf_counter() - started:.1f} s ({env['DATABASE_URL'].split(':')[0]})")

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "league.wsgi", "-w", "2", "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        pages = {
            "trivial view (/healthz)": "/healthz",
            "game page": f"/games/{game_pk}/",
            "series page": f"/series/{slug}/",
            "player page": f"/series/{slug}/players/{player_pk}/",
        }
        for path in pages.values():  # warm both workers (imports, template cache, page cache)
            for _ in range(4):
                urllib.request.urlopen(base + path, timeout=30).read()
        cold = {name: cold_request(base + path, slug) for name, path in pages.items()}
        sizes = {name: len(urllib.request.urlopen(base + path, timeout=30).read()) for name, path in pages.items()}
        results = {}
        for name, path in pages.items():
            results[name] = wrk(base + path, args.seconds, args.connections)
            time.sleep(2)  # let the workers drain what wrk left queued before the next page
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)

    trivial = results["trivial view (/healthz)"][0]
    caching = os.environ.get("CACHE_URL", "locmem://")
    print(f"gunicorn 2 workers, wrk {args.connections} connections x {args.seconds} s each, 127.0.0.1, cache {caching}")
    print(f"{'page':26} {'cold ms':>8} {'req/s':>9} {'latency':>9} {'bytes':>9} {'vs trivial':>11}")
    for name, (rps, latency) in results.items():
        print(f"{name:26} {cold[name] * 1000:8.1f} {rps:9.1f} {latency:>9} {sizes[name]:9,} {rps / trivial:10.1%}")


if __name__ == "__main__":
    main()
