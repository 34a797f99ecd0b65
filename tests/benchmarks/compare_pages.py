"""The cached public pages of two checkouts, measured in one run: "before"
(another checkout, e.g. main) and "after" (this one), on one database.

    git worktree add /tmp/tenbou-main main   (or: git archive main | tar -x -C DIR)
    python tests/benchmarks/compare_pages.py --before /tmp/tenbou-main [--games 2000] [--rounds 3]

Both checkouts must have the same migrations. Each serves the database with
its own gunicorn (2 workers, its own stamps directory). A round runs, for
each checkout in turn (the order alternating between rounds), the trivial
view, then each page followed by the trivial view again, under wrk; a page's
ratio is its req/s over the mean of the two trivial runs beside it, and the
table gives the median over the rounds (the machine is shared: the load
drifts within minutes, so only ratios taken side by side mean anything).
Then the CPU per request in each checkout's own process, through Django's
WSGI handler (bench_pages.in_process), which hardly moves with the load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a script: tests.* is found from the repository's root

from tests.benchmarks.bench_pages import build, fetch, wrk  # noqa: E402
from tests.serve import serve  # noqa: E402

CPU = """
import json, os, sys
sys.path.insert(0, os.getcwd())
import django
django.setup()
from tests.benchmarks.bench_pages import in_process
paths = json.loads(sys.argv[1])
print(json.dumps(in_process({k: (v, {}) for k, v in paths.items()}, int(sys.argv[2]))))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=1000, help="requests per batch of the in-process run")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install -y wrk)")
    # Stopped with kill: the servers stop too (serve's cleanup runs on SystemExit).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(f"stopped by signal {signum}"))

    tmp = Path(tempfile.mkdtemp(prefix="tenbou-compare-"))
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{tmp / 'bench.sqlite3'}")
    env.update(DJANGO_SETTINGS_MODULE="tests.benchmarks.bench_settings", DEBUG="0", SECRET_KEY="bench-only",
               ALLOWED_HOSTS="127.0.0.1", BENCH_STATIC_FILE=str(tmp / "static.html"), VERSIONS_DIR=str(tmp / "v"))
    os.environ.update(env)
    slug, game_pk, player_pk, _ = build(args.games)
    pages = {
        "static, series page size": "/bench/static",
        "game page": f"/games/{game_pk}/",
        "series page": f"/series/{slug}/",
        "series live fragment": f"/series/{slug}/?partial=1",
        "player page": f"/series/{slug}/players/{player_pk}/",
    }
    trivial = "/healthz"
    checkouts = {"before": args.before.resolve(), "after": ROOT}
    envs = {name: {**env, "VERSIONS_DIR": str(tmp / f"versions-{name}")} for name in checkouts}
    ratios: dict[str, dict[str, list[float]]] = {name: {page: [] for page in pages} for name in checkouts}
    rates: dict[str, dict[str, list[float]]] = {name: {page: [] for page in [trivial, *pages]} for name in checkouts}
    try:
        with ExitStack() as servers:
            bases = {name: servers.enter_context(serve(envs[name], workers=2, cwd=path))
                     for name, path in checkouts.items()}
            Path(env["BENCH_STATIC_FILE"]).write_bytes(fetch(bases["after"] + pages["series page"])[2])
            for base in bases.values():
                for path in [trivial, *pages.values()]:
                    for _ in range(4):  # both workers warm
                        fetch(base + path)

            def run(base: str, path: str) -> float:
                rps = wrk(base + path, args.seconds, args.connections)[0]
                time.sleep(1)  # let the workers drain what wrk left queued
                return rps

            for round_ in range(args.rounds):
                order = list(checkouts) if round_ % 2 == 0 else list(reversed(checkouts))
                for name in order:
                    base = bases[name]
                    yardstick = run(base, trivial)
                    rates[name][trivial].append(yardstick)
                    for page, path in pages.items():
                        rps = run(base, path)
                        after = run(base, trivial)
                        rates[name][page].append(rps)
                        rates[name][trivial].append(after)
                        ratios[name][page].append(rps / ((yardstick + after) / 2))
                        yardstick = after
                print(f"round {round_ + 1} of {args.rounds} done", flush=True)
        cpu = {}
        for name, path in checkouts.items():
            done = subprocess.run([sys.executable, "-c", CPU, json.dumps({"trivial": trivial, **pages}), str(args.calls)],
                                  cwd=path, env=envs[name], capture_output=True, text=True, check=True)
            cpu[name] = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"{args.games:,} games; gunicorn 2 workers each; wrk {args.connections} connections x {args.seconds} s; "
          f"{args.rounds} rounds; cache {os.environ.get('CACHE_URL', 'locmem://')}")
    print(f"{'':26} {'CPU us/request':>16} {'CPU vs trivial':>16} {'median req/s':>16} {'req/s vs trivial':>18}")
    print(f"{'page':26} {'before':>7} {'after':>8} {'before':>7} {'after':>8} {'before':>7} {'after':>8} "
          f"{'before':>8} {'after':>9}")
    for page in ["trivial view (/healthz)", *pages]:
        key = "trivial" if page.startswith("trivial") else page
        path = trivial if key == "trivial" else page
        us = [cpu[n][key] for n in checkouts]
        vs = [cpu[n]["trivial"] / cpu[n][key] for n in checkouts]
        rps = [statistics.median(rates[n][path]) for n in checkouts]
        ratio = [statistics.median(ratios[n][page]) if key != "trivial" else 1.0 for n in checkouts]
        print(f"{page:26} {us[0]:7.1f} {us[1]:8.1f} {vs[0]:7.0%} {vs[1]:8.0%} {rps[0]:7.0f} {rps[1]:8.0f} "
              f"{ratio[0]:8.0%} {ratio[1]:9.0%}")
    print("req/s vs trivial: median over the rounds of the page's req/s over the mean of the trivial runs beside it")
    for name in checkouts:
        print(f"  {name}: " + "; ".join(f"{page} " + ", ".join(f"{r:.0%}" for r in ratios[name][page])
                                       for page in pages))


if __name__ == "__main__":
    main()
