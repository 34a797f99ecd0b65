"""A scorer's hand while one client holds 64 connections on a public page (issue 31).

    python tests/benchmarks/bench_starvation.py [--hands 8] [--workers 4] [--pg-port 25431] [--redis-port 26431]

The production set-up on this machine: PostgreSQL (a throwaway cluster, as
bench_event_load.py makes it), Redis, gunicorn with 4 workers. An event of 96
players, two rounds played and the third being played. One scorer enters
hands at a table of the third round (the game page, the preview, the save:
what the staff page's script sends) while wrk holds 64 connections on:

- nothing (idle),
- the public event page, the projector's standings, the stages page,
- the series page (cached since issue 17: the yardstick the event pages must meet),
- player pages by number, most of them not there: one client walking uncached
  pages, what the per-address limit (PUBLIC_RATE_LIMIT) is for,

each run twice, with the limit on (the default) and off (the cache alone).
Reported per run: the median of a scorer's hand (the three requests
together) and of ``/healthz`` asked once a second, wrk's pages per second
and its status counts, and the load average (the machine is shared: the
processes using the most CPU besides are listed at the start).
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.benchmarks.bench_event_load import PY, gunicorn, hand, postgres, redis  # noqa: E402
from tests.smoke.production_smoke import fields_of  # noqa: E402

PASSWORD = "starvation passphrase 7"
DIGEST = re.compile(r'data-digest="([^"]+)"')
CONNECTIONS = 64

SETUP = """
from league import services
from league.services import event
from tests.benchmarks.events import new_event, roster
from tests.factories import make_scorer
series = new_event(rounds=4)
event.import_registrations(series=series, text=roster(96, teams=True))
event.check_in(registrations=series.registrations.all())
rounds = event.seat_rounds(series=series).rounds
scores = [[45000, 35000, 25000, 15000], [38000, 32000, 17000, 33000], [52000, 28000, 21000, 19000]]
for rnd in rounds[:2]:
    event.publish_round(round=rnd)
    for i, game in enumerate(event.start_round(round=rnd)):
        services.record_final_scores(game=game, scores=scores[(i + rnd.number) % len(scores)])
event.publish_round(round=rounds[2])
games = event.start_round(round=rounds[2])
make_scorer(series, "scorer", {password!r})
print("made", series.slug, *[g.pk for g in games])
"""

# wrk walks player numbers 1 to 5,000: the event has 96, so nearly every
# request is a page the cache cannot hold (a 404 read from the database).
WALK = """
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "/series/{slug}/event/players/" .. (counter % 5000 + 1) .. "/")
end
"""


def log_in(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=120)
    page = client.get("/accounts/login/").text
    login = dict(fields_of(page, "username")["fields"])
    login.update({"username": "scorer", "password": PASSWORD, "next": "/staff/"})
    response = client.post("/accounts/login/", data=login)
    if response.status_code != 302:
        raise SystemExit(f"the scorer could not log in: {response.status_code}")
    return client


def one_hand(client: httpx.Client, game: int) -> float:
    """The game page, the preview, the save: seconds for the three."""
    started = time.perf_counter()
    response = client.get(f"/staff/games/{game}/")
    response.raise_for_status()
    data: dict[str, list[str]] = defaultdict(list)
    for name, value in fields_of(response.text, "outcome")["fields"]:
        data[name].append(value)
    data.update(hand(int(data["number"][0])))
    response = client.post(f"/staff/games/{game}/preview/", data=data)
    digest = DIGEST.search(response.text)
    if digest is None:
        raise SystemExit(f"preview failed: {response.status_code}")
    data["checked"] = [digest.group(1)]
    data["action"] = ["save"]
    response = client.post(f"/staff/games/{game}/", data=data, headers={"X-Tenbou-Entry": "1"})
    if response.headers.get("X-Tenbou-Saved") != "1":
        raise SystemExit(f"save failed: {response.status_code}")
    return time.perf_counter() - started


def wrk(url: str, seconds: float, script: str | None, out: dict[str, str]) -> None:
    args = ["wrk", "-t", "2", "-c", str(CONNECTIONS), "-d", f"{int(seconds)}s", "--timeout", "30s"]
    if script:
        args += ["-s", script]
    out["text"] = subprocess.run([*args, url], capture_output=True, text=True, timeout=seconds + 60).stdout


def health_probe(base: str, stop: threading.Event, times: list[float]) -> None:
    with httpx.Client(base_url=base, timeout=120) as client:
        while not stop.is_set():
            started = time.perf_counter()
            client.get("/healthz")
            times.append(time.perf_counter() - started)
            stop.wait(1.0)


def phase(base: str, client: httpx.Client, game: int, hands: int, target: str | None, script: str | None) -> dict:
    """``hands`` hands at ``game`` while wrk holds ``target`` (None: nothing)."""
    out: dict[str, str] = {}
    loader = None
    load_before = os.getloadavg()[0]
    if target is not None:
        # Long enough for every hand; wrk is stopped with the phase.
        loader = threading.Thread(target=wrk, args=(base + target, 20 + 6 * hands, script, out))
        loader.start()
        time.sleep(3)  # wrk's connections open and the workers busy before the first hand
    stop, health = threading.Event(), []
    probe = threading.Thread(target=health_probe, args=(base, stop, health))
    probe.start()
    times = [one_hand(client, game) for _ in range(hands)]
    stop.set()
    probe.join()
    load_after = os.getloadavg()[0]
    if loader is not None:
        loader.join()
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out.get("text", ""))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out.get("text", ""))
    total = re.search(r"(\d+) requests in", out.get("text", ""))
    return {"hand": statistics.median(times), "worst": max(times), "health": statistics.median(health or [0.0]),
            "rate": float(rate.group(1)) if rate else 0.0, "requests": int(total.group(1)) if total else 0,
            "non2xx": int(bad.group(1)) if bad else 0, "load": (load_before, load_after)}


def busiest(n: int = 6) -> str:
    ps = subprocess.run(["ps", "-eo", "pcpu,comm", "--sort=-pcpu", "--no-headers"], capture_output=True, text=True)
    return "; ".join(" ".join(line.split()) for line in ps.stdout.splitlines()[:n])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8, help="hands per run (the median is reported)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--pg-port", type=int, default=None)
    parser.add_argument("--redis-port", type=int, default=None)
    args = parser.parse_args()

    print(f"load average at the start: {os.getloadavg()}; busiest processes: {busiest()}")
    with postgres(args.pg_port) as database_url, redis(args.redis_port) as cache_url:
        env = {**os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
               "DATABASE_URL": database_url, "CACHE_URL": cache_url, "DJANGO_SETTINGS_MODULE": "league.settings",
               # A warning per 404 and 429 would be thousands of lines, written by the workers being measured.
               "LOG_LEVEL": "ERROR"}
        subprocess.run([PY, "manage.py", "migrate", "-v", "0"], cwd=REPO, env=env, check=True)
        made = subprocess.run([PY, "manage.py", "shell", "--no-imports", "-c", SETUP.format(password=PASSWORD)],
                              cwd=REPO, env=env, check=True, capture_output=True, text=True)
        line = next(x for x in made.stdout.splitlines() if x.startswith("made "))
        slug, *games = line.split()[1:]
        script = Path(f"/tmp/tenbou-walk-{os.getpid()}.lua")
        script.write_text(WALK.replace("{slug}", slug))
        targets = {
            "idle": (None, None),
            "event page": (f"/series/{slug}/event/", None),
            "projector standings": (f"/series/{slug}/event/screen/standings/", None),
            "stages page": (f"/series/{slug}/event/stages/", None),
            "series page": (f"/series/{slug}/", None),
            "player pages walked (uncached)": (f"/series/{slug}/event/players/1/", str(script)),
        }
        rows = []
        try:
            for limit in ("on", "off"):
                run_env = {**env, "PUBLIC_RATE_LIMIT": os.environ.get("PUBLIC_RATE_LIMIT", "600/30s")
                           if limit == "on" else ""}
                with gunicorn(run_env, args.workers) as base:
                    client = log_in(base)
                    game = int(games[0 if limit == "on" else 1])
                    for name, (target, lua) in targets.items():
                        rows.append((limit, name, phase(base, client, game, args.hands, target, lua)))
                        time.sleep(2)
                    client.close()
        finally:
            script.unlink(missing_ok=True)

    print(f"gunicorn {args.workers} workers, PostgreSQL, Redis, 127.0.0.1; wrk {CONNECTIONS} connections from one "
          f"address; a scorer's hand = game page + preview + save, median of {args.hands}")
    idle = {limit: r["hand"] for limit, name, r in rows if name == "idle"}
    print(f"{'limit':5} {'wrk holds':32} {'hand s':>7} {'worst':>7} {'x idle':>7} {'healthz s':>9} {'pages/s':>9} "
          f"{'non-2xx':>8} {'load avg':>12}")
    for limit, name, r in rows:
        print(f"{limit:5} {name:32} {r['hand']:7.2f} {r['worst']:7.2f} {r['hand'] / idle[limit]:7.1f} "
              f"{r['health']:9.3f} {r['rate']:9.1f} {r['non2xx']:>8} {r['load'][0]:5.1f}-{r['load'][1]:<5.1f}")
    print(f"load average at the end: {os.getloadavg()}; busiest processes: {busiest()}")


if __name__ == "__main__":
    main()
