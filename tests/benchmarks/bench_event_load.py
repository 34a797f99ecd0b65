"""An event day's load on the production set-up: PostgreSQL, Redis, gunicorn.

Scorers each save a hand as the staff page's script does while spectators poll
the series page's live part every 30 s with the ETag they hold
(If-None-Match), as the page's live refresh does. Three phases, in one run:

1. warm-up, not counted: twice as many scorers as gunicorn has workers, at
   once, each the game page, offline.json and five saves, beside as many
   spectators polling 60 times, so every worker has served every kind of
   request (imports, templates, connections), and more than the 100 after
   which it freezes what it keeps (league/wsgi.py), before anything is timed;
2. no load, the baseline: one scorer at a time, game after game (20 hands a
   game, which busts no one), a hand every 0.5-1.5 s, ``--idle-saves`` saves
   in all (120: enough for a p99 to be a percentile and not the slowest
   save), beside one spectator polling every 0.5 s;
3. under load: every scorer starts together, as at a round's start (its first
   hand, with the game page and offline.json, after ``--pause`` seconds, as
   each later one), while the spectators arrive over 30 s and then poll every
   30 s.

Reported for phases 2 and 3: p50, p99 and max of each kind of request and the
errors; the save's loaded p99 over its unloaded p99; the slowest saves, each
with the requests started while it waited; the CPU of each part. PostgreSQL
logs its lock waits over 50 ms and statements over 100 ms: counted at the end.

With ``--access-log``, every request carries a number (``X-Bench-Id``) that
gunicorn's log notes beside the worker's pid and its time in the worker
(``%(D)s``), and each worker notes for each request its CPU (the main
thread's), its time in SQL (a Django execute wrapper) and in Redis's answers:
a request's time is split into the worker's and the wait before it (a busy
worker, the network), and the worker's into CPU, SQL, Redis and the rest
(waiting for a core, or for anything else); the slowest saves are shown with
what their worker served while they waited.

    python tests/benchmarks/bench_event_load.py [--seconds 90] [--scorers 50] [--spectators 500] [--workers 4]
        [--pause 2 6] [--idle-saves 120] [--timeline CSV] [--access-log FILE]

How a scorer's phone enters a hand (``--phone``):

- ``engine`` (the default; the phone with its engine, issue 28): the game page
  and ``offline.json`` once, then for each hand the price made on the client
  by ``league.entry.phone.price`` (the phone's engine, here in this process:
  its CPU counts as the clients'), and one POST, the save with ``checked`` and
  ``seen``, answered in place; the next hand starts from that answer.
- ``server`` (a phone without the engine, and how every phone did it before):
  the game page, the live preview, the save with the preview's digest.

A real table's pace (issue 28): ``--scorers 64 --spectators 1000 --pause 20 60``
(a hand per table every 20-60 s). Beside the figures: the save's p99 against
its unloaded p99, the CPU each part used during the loaded phase (the clients
in this process, gunicorn's workers, PostgreSQL, Redis) as a share of the
machine's cores, and the load average.

The script starts its own throwaway PostgreSQL cluster and Redis on random
loopback ports (as .ci/run does; PostgreSQL's tools need root, run as the
postgres user) and stops them, and gunicorn, when it ends. Everything is on
127.0.0.1; the clients share the machine's cores with the server, so read the
loaded figures against the unloaded ones, not as absolutes.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.smoke.production_smoke import fields_of  # noqa: E402

PY = sys.executable
PIDS: dict[str, int] = {}  # the servers' main processes, for their CPU (cpu_of)
CLOCK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_of(pid: int) -> float:
    """CPU seconds of a server: its process, the children it has reaped, and
    those still running (gunicorn's workers, PostgreSQL's backends)."""
    try:
        st = _stat(pid)
    except OSError:
        return 0.0
    total = sum(int(x) for x in st[11:15])  # utime, stime, cutime, cstime
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                child = _stat(int(entry))
            except OSError:
                continue
            if int(child[1]) == pid:
                total += int(child[11]) + int(child[12])
    return total / CLOCK
PASSWORD = "load-test passphrase 7"
_ids = iter(range(1, 1 << 62))


async def tag(request: httpx.Request) -> None:
    """Every request numbered (X-Bench-Id), as gunicorn's access log notes it:
    the client's time of a request joined with the server's (--access-log)."""
    request.headers["X-Bench-Id"] = str(next(_ids))


HOOKS = {"request": [tag]}
DIGEST = re.compile(r'data-digest="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def postgres(port: int | None = None) -> Iterator[str]:
    """A throwaway cluster (on ``port``, else a free one); yields its DATABASE_URL."""
    pgbin = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: [int(x) for x in re.findall(r"\d+", p)])[-1]
    tmp = tempfile.mkdtemp(prefix="tenbou-load-pg-")
    shutil.chown(tmp, "postgres")
    port = port or free_port()
    data = f"{tmp}/data"

    def as_postgres(*args: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True, stdout=subprocess.DEVNULL)

    try:
        as_postgres(f"{pgbin}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                    "--locale=C.UTF-8", "--no-sync")
        as_postgres(f"{pgbin}/pg_ctl", "-D", data, "-l", f"{tmp}/log", "-w", "-o",
                    f"-c listen_addresses=127.0.0.1 -p {port} -k {tmp} -c fsync=off -c max_connections=200"
                    # What a statement waits for: a lock held over 50 ms, a statement over 100 ms.
                    " -c log_lock_waits=on -c deadlock_timeout=50ms -c log_min_duration_statement=100", "start")
        as_postgres(f"{pgbin}/createdb", "-h", "127.0.0.1", "-p", str(port), "tenbou_load")
        with open(f"{data}/postmaster.pid") as f:
            PIDS["PostgreSQL"] = int(f.readline())
        yield f"postgres://postgres@127.0.0.1:{port}/tenbou_load"
    finally:
        subprocess.run(["runuser", "-u", "postgres", "--", f"{pgbin}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report_postgres_log(f"{tmp}/log")
        shutil.rmtree(tmp, ignore_errors=True)


def report_postgres_log(path: str) -> None:
    """The whole run's lock waits over 50 ms and statements over 100 ms, as PostgreSQL logged them."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return
    waits = re.findall(r"still waiting for (\w+Lock) on ([^\n]+?) after", text)
    slow = re.findall(r"duration: ([\d.]+) ms\s+statement: ([^\n]{0,60})", text)
    print(f"PostgreSQL, the whole run: {len(waits)} lock waits over 50 ms"
          + (f" ({', '.join(sorted({f'{k} on {w}' for k, w in waits})[:4])})" if waits else "")
          + f"; {len(slow)} statements over 100 ms"
          + (f", the slowest {max(float(ms) for ms, _ in slow):.0f} ms" if slow else ""))
    for ms, statement in sorted(slow, key=lambda row: -float(row[0]))[:5]:
        print(f"    {float(ms):6.0f} ms  {statement}")


@contextmanager
def redis(port: int | None = None) -> Iterator[str]:
    port = port or free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no"], stdout=subprocess.DEVNULL)
    PIDS["Redis"] = server.pid
    try:
        for _ in range(50):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def gunicorn(env: dict[str, str], workers: int, access_log: str | None = None) -> Iterator[str]:
    """gunicorn on a free loopback port; yields its base URL once /healthz answers.
    Each worker notes its full garbage collections (gen 2) in GC_DIR (``collections``)."""
    port = free_port()
    logging = ["--access-logfile", access_log, "--access-logformat",
               "%(p)s %(m)s %(U)s %(s)s %(D)s %({x-bench-id}i)s %(B)s"] if access_log else []
    config = Path(GC_DIR) / "gunicorn_conf.py"
    config.write_text(GC_HOOK.format(dir=GC_DIR))
    server = subprocess.Popen([PY, "-m", "gunicorn", "league.wsgi", "--bind", f"127.0.0.1:{port}", "-c", str(config),
                               "--workers", str(workers), "--log-level", "warning", *logging], cwd=REPO, env=env)
    PIDS["gunicorn"] = server.pid
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit("gunicorn did not answer /healthz")
        yield base
    finally:
        server.terminate()
        server.wait(timeout=20)


GC_DIR = tempfile.mkdtemp(prefix="tenbou-load-gc-")
# A gunicorn config: each worker appends "wall-clock end, ms" of every full collection to a file of its own.
GC_HOOK = """
import gc, os, time

def post_fork(server, worker):
    log = open(os.path.join({dir!r}, f"gc-{{os.getpid()}}.log"), "a", buffering=1)
    began = [0.0]

    def noted(phase, info):
        if phase == "start":
            began[0] = time.perf_counter()
        elif info["generation"] == 2:
            log.write(f"{{time.time():.3f}} {{1000 * (time.perf_counter() - began[0]):.1f}}\\n")

    gc.callbacks.append(noted)


# Each request's own account (--access-log): its wall time in the worker, the
# worker's CPU for it (the main thread's), and the time it spent in SQL and in
# Redis's answers; what is left is waiting for a core, or anything else.
ACCOUNT = [0.0, 0, 0.0, 0.0, 0.0]  # SQL s, statements, Redis s, wall start, CPU start


def post_worker_init(worker):
    from django.db import connections
    import redis.connection

    def sql(execute, *args):
        t0 = time.perf_counter()
        try:
            return execute(*args)
        finally:
            ACCOUNT[0] += time.perf_counter() - t0
            ACCOUNT[1] += 1

    connections["default"].execute_wrappers.append(sql)
    read = redis.connection.AbstractConnection.read_response

    def timed_read(self, *args, **kwargs):
        t0 = time.perf_counter()
        try:
            return read(self, *args, **kwargs)
        finally:
            ACCOUNT[2] += time.perf_counter() - t0

    redis.connection.AbstractConnection.read_response = timed_read
    worker.account = open(os.path.join({dir!r}, f"req-{{os.getpid()}}.log"), "a", buffering=1)


def pre_request(worker, req):
    ACCOUNT[:] = [0.0, 0, 0.0, time.perf_counter(), time.thread_time()]


def post_request(worker, req, environ, resp):
    rid = environ.get("HTTP_X_BENCH_ID")
    if rid and hasattr(worker, "account"):
        worker.account.write(f"{{rid}} {{1000 * (time.perf_counter() - ACCOUNT[3]):.1f}} "
                             f"{{1000 * (time.thread_time() - ACCOUNT[4]):.1f}} {{1000 * ACCOUNT[0]:.1f}} "
                             f"{{ACCOUNT[1]}} {{1000 * ACCOUNT[2]:.1f}}\\n")
"""


def accounts() -> dict[str, tuple[float, float, float, int, float]]:
    """Each request's account by its X-Bench-Id: wall, CPU, SQL ms, statements, Redis ms."""
    found = {}
    for name in glob.glob(os.path.join(GC_DIR, "req-*.log")):
        with open(name) as f:
            for line in f:
                rid, wall, cpu, sql, n, red = line.split()
                found[rid] = (float(wall), float(cpu), float(sql), int(n), float(red))
    return found


def collections(since: float, until: float) -> list[float]:
    """The workers' full collections between two wall-clock times, in ms."""
    found = []
    for name in glob.glob(os.path.join(GC_DIR, "gc-*.log")):
        with open(name) as f:
            for line in f:
                at, ms = line.split()
                if since <= float(at) <= until:
                    found.append(float(ms))
    return found


def report_collections(since: float, until: float) -> None:
    found = collections(since, until)
    print(f"  gunicorn workers' full garbage collections: {len(found)}"
          + (f", p50 {percentile(found, 50):.0f} ms, max {max(found):.0f} ms, {sum(found):.0f} ms in all"
             if found else ""))


SETUP = """
import datetime
from django.contrib.auth.models import User
from league import services
from league.models import Player, Series
series = Series.objects.create(name="Load test open", slug="load", rules={{"preset": "ari-ari", "overrides": {{}}}},
                               start_date=datetime.date(2026, 11, 25))
players = [Player.objects.create(name=f"Player {{i:03d}}") for i in range(4 * {tables})]
for t in range({tables}):
    user = User.objects.create_user(f"scorer{{t}}", password={password!r})
    series.scorers.add(user)
    game = services.start_game(series=series, players=players[4 * t:4 * t + 4], table=str(t + 1))
    print("game", t, game.pk)
"""


def hand(number: int) -> dict[str, list[str]]:
    """Odd hands: everyone tenpai (the dealer keeps the deal); even ones: the
    dealer's 1 han 30 fu ron, the discarder going round the three others, so no
    one goes bust in a few dozen hands."""
    if number % 2:
        return {"outcome": ["draw"], "tenpai": ["0", "1", "2", "3"]}
    return {"outcome": ["ron"], "winners": ["0"], "loser": [str(1 + (number // 2) % 3)], "han_0": ["1"], "fu_0": ["30"]}


class Stats:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        # Every request as (start, seconds, kind, status), start counted from the
        # phase's clock: where the slow ones fall against the rest (--timeline).
        self.started, self.wall = time.perf_counter(), time.time()
        self.timeline: list[tuple[float, float, str, int]] = []
        self.ids: dict[int, str] = {}  # the timeline's row: the request's X-Bench-Id
        # The clients' own event loop, late by this much (start, seconds): a
        # lag is counted in every request then in flight, whatever the server did.
        self.lags: list[tuple[float, float]] = []

    def timed(self, kind: str, started: float, response: httpx.Response, ok: bool) -> None:
        took = time.perf_counter() - started
        status = response.status_code
        self.times[kind].append(took)
        self.timeline.append((started - self.started, took, kind, status))
        self.ids[len(self.timeline) - 1] = response.request.headers.get("X-Bench-Id", "")
        self.statuses[kind][status] += 1
        if not ok:
            self.errors[kind] += 1


async def watch_loop(stats: Stats) -> None:
    """How late this process's event loop wakes from a 50 ms sleep, all phase long."""
    while True:
        t0 = time.perf_counter()
        await asyncio.sleep(0.05)
        stats.lags.append((t0 - stats.started, time.perf_counter() - t0 - 0.05))


def report_lag(stats: Stats) -> None:
    lags = [lag for _, lag in stats.lags]
    if lags:
        at = max(stats.lags, key=lambda row: row[1])[0]
        print(f"  the clients' event loop late: p50 {percentile(lags, 50) * 1000:.0f} ms, p99 "
              f"{percentile(lags, 99) * 1000:.0f} ms, max {max(lags) * 1000:.0f} ms (at {at:.0f} s)")


async def log_in(base: str, n: int) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=60, event_hooks=HOOKS)
    page = (await client.get("/accounts/login/")).text
    login = {name: value for name, value in fields_of(page, "username")["fields"]}
    login.update({"username": f"scorer{n}", "password": PASSWORD, "next": "/staff/"})
    response = await client.post("/accounts/login/", data=login)
    if response.status_code != 302:
        raise SystemExit(f"scorer{n} could not log in: {response.status_code}")
    return client


async def scorer(client: httpx.AsyncClient, n: int, game: int, stats: Stats, until: float,
                 pause: tuple[float, float], hands: int | None = None, phone: str = "engine") -> None:
    try:
        done = 0
        rng = random.Random(n)
        page: Phone | None = None
        while time.monotonic() < until and (hands is None or done < hands):
            await asyncio.sleep(rng.uniform(*pause))
            try:
                if phone == "server":
                    done += await one_hand(client, game, stats)
                    continue
                if page is None:
                    page = await Phone.open(client, game, stats)
                    if page is None:
                        continue
                saved = await page.one_hand(stats)
                done += saved
                if not saved:
                    page = None  # the page again, as the script loads it after a refusal
            except httpx.HTTPError as err:  # no answer at all (a timeout, a refused connection)
                stats.errors[f"scorer: {type(err).__name__}"] += 1
    finally:
        await client.aclose()


async def one_hand(client: httpx.AsyncClient, game: int, stats: Stats) -> bool:
    """The game page, the preview, the save with the preview's digest; saved or not."""
    t0 = time.perf_counter()
    response = await client.get(f"/staff/games/{game}/")
    stats.timed("game page (scorer)", t0, response, response.status_code == 200)
    if response.status_code != 200:
        return False
    form = fields_of(response.text, "outcome")
    data: dict[str, list[str]] = defaultdict(list)
    for name, value in form["fields"]:
        data[name].append(value)
    number = int(data["number"][0])
    data.update(hand(number))
    t0 = time.perf_counter()
    response = await client.post(f"/staff/games/{game}/preview/", data=data)
    digest = DIGEST.search(response.text) if response.status_code == 200 else None
    stats.timed("preview", t0, response, digest is not None)
    if digest is None:
        return False
    data["checked"] = [digest.group(1)]
    data["action"] = ["save"]
    t0 = time.perf_counter()
    response = await client.post(f"/staff/games/{game}/", data=data, headers={"X-Tenbou-Entry": "1"})
    saved = response.status_code == 200 and response.headers.get("X-Tenbou-Saved") == "1"
    stats.timed("save", t0, response, saved)
    return saved


class Phone:
    """A staff page with its engine: the form's hidden fields, and the game as
    the phone's engine reads it (offline.json, then each in-place answer)."""

    def __init__(self, client: httpx.AsyncClient, game: int, form: dict[str, list[str]],
                 state: dict[str, object]) -> None:
        self.client, self.game, self.form, self.state = client, game, form, state

    @classmethod
    async def open(cls, client: httpx.AsyncClient, game: int, stats: Stats) -> Phone | None:
        t0 = time.perf_counter()
        response = await client.get(f"/staff/games/{game}/")
        stats.timed("game page (scorer)", t0, response, response.status_code == 200)
        if response.status_code != 200:
            return None
        form: dict[str, list[str]] = defaultdict(list)
        for name, value in fields_of(response.text, "outcome")["fields"]:
            form[name].append(value)
        t0 = time.perf_counter()
        response = await client.get(f"/staff/games/{game}/offline.json")
        stats.timed("offline.json (scorer)", t0, response, response.status_code == 200)
        if response.status_code != 200:
            return None
        return cls(client, game, {k: form[k] for k in ("csrfmiddlewaretoken", "number", "state", "key")},
                   response.json())

    async def one_hand(self, stats: Stats) -> bool:
        """Priced here, as the phone's engine prices it; then the one save."""
        from league.entry import phone

        number = int(self.form["number"][0])
        fields = hand(number)
        priced = phone.price(self.state, {k: v if len(v) > 1 else v[0] for k, v in fields.items()}, number)
        if not priced.get("ok"):
            stats.errors["save"] += 1
            return False
        data = {**self.form, **fields, "action": ["save"], "checked": [priced["checked"]],
                "seen": [" ".join(str(d) for d in priced["payments"])]}
        t0 = time.perf_counter()
        response = await self.client.post(f"/staff/games/{self.game}/", data=data,
                                          headers={"X-Tenbou-Entry": "1", "X-Tenbou-In-Place": "1"})
        saved = response.status_code == 200 and response.headers.get("X-Tenbou-Saved") == "in-place"
        stats.timed("save", t0, response, saved)
        if saved:
            answer = response.json()
            self.form.update(number=[str(answer["number"])], state=[answer["state"]], key=[answer["key"]])
            self.state = answer["game"]
        return saved


async def spectator(client: httpx.AsyncClient, path: str, stats: Stats, until: float, every: float,
                    first_wait: float, polls: int | None = None) -> None:
    await asyncio.sleep(first_wait)
    etag = ""
    done = 0
    while time.monotonic() < until and (polls is None or done < polls):
        started = time.monotonic()
        headers = {"X-Requested-With": "fetch", **({"If-None-Match": etag} if etag else {})}
        t0 = time.perf_counter()
        try:
            response = await client.get(path, headers=headers)
        except httpx.HTTPError:
            stats.errors["series page 200 (spectator)"] += 1
            continue
        # A 304 (nothing changed since the ETag) and a 200 (the fragment made or
        # taken from the cache) are different work: timed apart.
        kind = "series page 304 (spectator)" if response.status_code == 304 else "series page 200 (spectator)"
        stats.timed(kind, t0, response, response.status_code in (200, 304))
        if response.status_code == 200:
            etag = response.headers.get("ETag", "")
        done += 1
        await asyncio.sleep(max(0.0, every - (time.monotonic() - started)))


async def run_phase(base: str, games: list[int], scorers: int, spectators: int, seconds: float,
                    pause: tuple[float, float], hands: int | None = None, polls: int | None = None,
                    phone: str = "engine") -> Stats:
    stats = Stats()
    # Log every scorer in first, then start the clock: a password hash each, so
    # a few at a time (50 at once would queue past any timeout on two cores).
    gate = asyncio.Semaphore(4)

    async def gated(n: int) -> httpx.AsyncClient:
        async with gate:
            return await log_in(base, n)

    clients = await asyncio.gather(*(gated(n) for n in range(scorers)))
    stats.started, stats.wall = time.perf_counter(), time.time()  # the timeline's zero: every scorer logged in
    watcher = asyncio.create_task(watch_loop(stats))
    until = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=spectators + 10, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits, event_hooks=HOOKS) as crowd:
        rng = random.Random(1)
        tasks = [scorer(clients[n], n, games[n], stats, until, pause, hands, phone) for n in range(scorers)]
        # Spectators spread over the first 30 s, as people arrive; each then polls every 30 s.
        every = 30.0 if polls is None else 0.5
        tasks += [spectator(crowd, "/series/load/?partial=1", stats, until, every,
                            rng.uniform(0, every) if polls is None else 0, polls) for _ in range(spectators)]
        await asyncio.gather(*tasks)
    watcher.cancel()
    return stats


KINDS = ("save", "preview", "game page (scorer)", "offline.json (scorer)", "series page 200 (spectator)",
         "series page 304 (spectator)")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def report(title: str, stats: Stats) -> None:
    print(title)
    print(f"  {'request':<26} {'count':>6} {'p50':>9} {'p99':>9} {'max':>9} {'errors':>7}  statuses")
    for kind in KINDS:
        times = stats.times.get(kind, [])
        statuses = ", ".join(f"{code}: {count}" for code, count in sorted(stats.statuses[kind].items()))
        print(f"  {kind:<26} {len(times):>6} {percentile(times, 50) * 1000:>7.0f}ms {percentile(times, 99) * 1000:>7.0f}ms "
              f"{(max(times) if times else float('nan')) * 1000:>7.0f}ms {stats.errors.get(kind, 0):>7}  {statuses}")
    other = {k: v for k, v in stats.errors.items() if k not in stats.times}
    if other:
        print(f"  other errors: {dict(other)}")


async def warm_up(base: str, games: list[int], spectators: int) -> Stats:
    """Every worker made to serve each kind of request before anything is timed:
    as many scorers as games, each the game page, offline.json and five saves
    in quick succession, beside as many spectators polling every 0.5 s, 60
    times each: past a worker's first 100 requests, after which it freezes
    what it keeps out of the garbage collector (league/wsgi.py)."""
    return await run_phase(base, games, len(games), spectators, 120, (0.05, 0.2), hands=5, polls=60)


async def idle_phase(base: str, games: list[int], hands_per_game: int, pause: tuple[float, float]) -> Stats:
    """One scorer at a time, game after game (a game of ``hands_per_game`` hands
    ends no one), a hand every ``pause`` seconds, and one spectator polling the
    live part every 0.5 s: no two saves at once, so the save's own time."""
    stats = Stats()
    watcher = asyncio.create_task(_watch(base, stats))
    loop_watcher = asyncio.create_task(watch_loop(stats))
    try:
        for n, game in enumerate(games):
            client = await log_in(base, n)
            await scorer(client, n, game, stats, time.monotonic() + 3600, pause, hands_per_game)
    finally:
        watcher.cancel()
        loop_watcher.cancel()
        await asyncio.gather(watcher, loop_watcher, return_exceptions=True)
    return stats


async def _watch(base: str, stats: Stats) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60, event_hooks=HOOKS) as client:
        await spectator(client, "/series/load/?partial=1", stats, time.monotonic() + 3600, 0.5, 0)


def slowest(stats: Stats, kind: str, share: float = 0.01, shown: int = 12) -> None:
    """The slowest ``share`` of ``kind`` (at least one), each with what the
    clients had started while it was waiting: where a tail comes from."""
    mine = sorted((row for row in stats.timeline if row[2] == kind), key=lambda row: -row[1])
    if not mine:
        return
    slow = mine[:max(1, min(shown, round(len(mine) * share)))]
    print(f"  the slowest {len(slow)} of {len(mine)} {kind}s: at (s into the phase), took; the requests "
          "started while each waited; the workers' full collections")
    for start, took, _, status in sorted(slow):
        during: dict[str, int] = defaultdict(int)
        for other_start, _, other_kind, _ in stats.timeline:
            if start - 0.05 <= other_start <= start + took:
                during[other_kind] += 1
        during[kind] -= 1
        beside = ", ".join(f"{k} {v}" for k, v in sorted(during.items()) if v)
        late = max((lag for at, lag in stats.lags if start <= at <= start + took), default=0.0)
        if late > 0.02:
            beside += f"; the clients' loop late by up to {late * 1000:.0f} ms"
        gc_ms = collections(stats.wall + start, stats.wall + start + took)
        if gc_ms:
            beside += f"; full collections ending meanwhile: {' '.join(f'{ms:.0f} ms' for ms in gc_ms)}"
        print(f"    {start:7.1f} s {took * 1000:6.0f} ms ({status})  {beside}")


def served(access_log: str | None) -> dict[str, tuple[int, float]]:
    """gunicorn's access log read back: a request's X-Bench-Id -> (worker pid, ms in the worker)."""
    found: dict[str, tuple[int, float]] = {}
    if access_log and os.path.exists(access_log):
        with open(access_log) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 6 and parts[5] != "-":
                    found[parts[5]] = (int(parts[0].strip("<>")), int(parts[4]) / 1000)
    return found


def attribute(stats: Stats, server: dict[str, tuple[int, float]], kind: str = "save", shown: int = 12,
              acct: dict[str, tuple[float, float, float, int, float]] | None = None) -> None:
    """Each request's time split into the worker's own (gunicorn's %(D)s) and the
    rest (waiting for a free worker, the network, the clients' loop); and for the
    slowest, what its worker served while it waited, estimating each request's
    stay in its worker as the ``ms`` before the client had its answer."""
    rows = []  # (start, took, kind, worker pid, in the worker, began in the worker) in seconds
    for i, (start, took, k, _) in enumerate(stats.timeline):
        if stats.ids.get(i) in server:
            pid, ms = server[stats.ids[i]]
            rows.append((start, took, k, pid, ms / 1000, start + took - ms / 1000))
    mine = [r for r in rows if r[2] == kind]
    if not mine:
        return
    inside, waited = [r[4] for r in mine], [r[1] - r[4] for r in mine]
    print(f"  {kind}, joined with gunicorn's log ({len(mine)}): in the worker p50 {percentile(inside, 50) * 1000:.0f}"
          f" / p99 {percentile(inside, 99) * 1000:.0f} / max {max(inside) * 1000:.0f} ms; before or around it p50 "
          f"{percentile(waited, 50) * 1000:.0f} / p99 {percentile(waited, 99) * 1000:.0f} / max "
          f"{max(waited) * 1000:.0f} ms")
    for other in sorted({r[2] for r in rows}):
        ms = [r[4] for r in rows if r[2] == other]
        print(f"    {other:<28} in the worker: {len(ms):>6} requests, p50 {percentile(ms, 50) * 1000:5.0f} ms, "
              f"p99 {percentile(ms, 99) * 1000:5.0f} ms, {sum(ms):6.1f} s in all")
    print(f"  the slowest {min(shown, len(mine))} {kind}s: at, took = in the worker + before; what its worker "
          "served from the request's start to its own turn")
    acct = acct or {}
    ids = {(r[0], r[2]): stats.ids.get(i) for i, r in enumerate(stats.timeline)}
    for other in sorted({r[2] for r in rows}):
        split = [acct[ids[r[0], r[2]]] for r in rows if r[2] == other and ids.get((r[0], r[2])) in acct]
        slow = [a for a in split if a[0] > 150]
        for label, group in (("over 150 ms", slow), ("all", split)):
            if group:
                n = len(group)
                print(f"    {other:<28} {label:>11} ({n:>5}): wall {sum(a[0] for a in group) / n:6.1f} ms = CPU "
                      f"{sum(a[1] for a in group) / n:6.1f} + SQL {sum(a[2] for a in group) / n:6.1f} "
                      f"({sum(a[3] for a in group) / n:.1f} statements) + Redis {sum(a[4] for a in group) / n:5.1f}"
                      f" + the rest {sum(a[0] - a[1] - a[2] - a[4] for a in group) / n:6.1f} ms, on average")
    for start, took, _, pid, ms, began in sorted(sorted(mine, key=lambda r: -r[1])[:shown]):
        ahead: dict[str, list[float]] = defaultdict(list)
        for r in rows:
            if r[3] == pid and r[5] < began and r[5] + r[4] > start:
                ahead[r[2]].append(r[4])
        what = ", ".join(f"{k} {len(v)} ({sum(v) * 1000:.0f} ms)" for k, v in sorted(ahead.items()))
        a = acct.get(ids.get((start, kind)) or "")
        split = f" (CPU {a[1]:.0f}, SQL {a[2]:.0f} in {a[3]}, Redis {a[4]:.0f})" if a else ""
        print(f"    {start:7.1f} s {took * 1000:6.0f} ms = {ms * 1000:5.0f}{split} + {(took - ms) * 1000:5.0f} ms  "
              f"worker {pid}: {what or 'nothing'}")


def write_timeline(path: str, phases: dict[str, Stats], server: dict[str, tuple[int, float]]) -> None:
    with open(path, "w") as f:
        f.write("phase,start_s,ms,kind,status,id,worker,worker_ms\n")
        for name, stats in phases.items():
            for i, (start, took, kind, status) in sorted(enumerate(stats.timeline), key=lambda row: row[1]):
                rid = stats.ids.get(i, "")
                pid, ms = server.get(rid, ("", float("nan")))
                f.write(f"{name},{start:.3f},{took * 1000:.1f},{kind},{status},{rid},{pid},{ms:.1f}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--scorers", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (README's production command: 4)")
    parser.add_argument("--pause", type=float, nargs=2, default=(2.0, 6.0), metavar=("MIN", "MAX"),
                        help="seconds between a scorer's hands (a real table: 20 60)")
    parser.add_argument("--phone", choices=("engine", "server"), default="engine",
                        help="engine: priced on the phone, one save per hand; server: page, preview, save")
    parser.add_argument("--idle-saves", type=int, default=120,
                        help="saves of the unloaded phase, one at a time, 20 to a game (at least 100 for a p99)")
    parser.add_argument("--idle-pause", type=float, nargs=2, default=(0.5, 1.5), metavar=("MIN", "MAX"),
                        help="seconds between two saves of the unloaded phase")
    parser.add_argument("--timeline", metavar="CSV", help="write every timed request (phase, start, ms, kind, status)")
    parser.add_argument("--access-log", metavar="FILE", help="gunicorn's access log (worker pid, request, status, us, X-Bench-Id, bytes), joined with "
                             "the clients' times and each request's CPU, SQL and Redis in its worker")
    args = parser.parse_args()

    hands_per_game = 20  # hand(): 20 hands bust no one
    idle_games = -(-args.idle_saves // hands_per_game)
    warm_games = 2 * args.workers
    with postgres() as database_url, redis() as cache_url:
        env = {**os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
               "DATABASE_URL": database_url, "CACHE_URL": cache_url, "DJANGO_SETTINGS_MODULE": "league.settings"}
        manage = [PY, "manage.py"]
        subprocess.run(manage + ["migrate", "-v", "0"], cwd=REPO, env=env, check=True)
        made = subprocess.run(manage + ["shell", "--no-imports", "-c",
                                        SETUP.format(tables=args.scorers + idle_games + warm_games,
                                                     password=PASSWORD)],
                              cwd=REPO, env=env, check=True, capture_output=True, text=True)
        games = [int(line.split()[2]) for line in made.stdout.splitlines() if line.startswith("game ")]
        loaded_games, idle_at = games[:args.scorers], games[args.scorers:args.scorers + idle_games]
        warm_at = games[args.scorers + idle_games:]
        with gunicorn(env, args.workers, args.access_log) as base:
            print(f"gunicorn {args.workers} workers on 127.0.0.1, PostgreSQL {database_url.rsplit(':', 1)[0]}:*, "
                  f"Redis cache; {os.cpu_count()} cores shared with the clients; scorers' phones: {args.phone}")
            warm = asyncio.run(warm_up(base, warm_at, warm_games))
            print(f"warm-up (not counted): {warm_games} scorers at once, each the game page, offline.json and "
                  f"5 saves, beside {warm_games} spectators polling 60 times: "
                  f"{sum(len(t) for t in warm.times.values())} requests, every worker served each kind")
            idle_began = time.time()
            idle = asyncio.run(idle_phase(base, idle_at, hands_per_game, tuple(args.idle_pause)))
            idle_ended = time.time()
            report(f"no load: one scorer at a time ({idle_games} games of {hands_per_game} hands, a hand every "
                   f"{args.idle_pause[0]:g}-{args.idle_pause[1]:g} s), one spectator (a poll every 0.5 s)", idle)
            report_collections(idle_began, idle_ended)
            report_lag(idle)
            slowest(idle, "save", shown=3)
            print("  load average (1, 5, 15 min) at its end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
            loaded_began = time.time()
            started = time.monotonic()
            cpu_before = {name: cpu_of(pid) for name, pid in PIDS.items()}
            clients_before = time.process_time()
            loaded = asyncio.run(run_phase(base, loaded_games, args.scorers, args.spectators, args.seconds,
                                           tuple(args.pause), phone=args.phone))
            took = time.monotonic() - started
            used = {"clients (this process)": time.process_time() - clients_before,
                    **{name: cpu_of(pid) - cpu_before[name] for name, pid in PIDS.items()}}
            load = os.getloadavg()
            loaded_ended = time.time()
            saves = len(loaded.times["save"]) - loaded.errors.get("save", 0)
            report(f"under load: {args.scorers} scorers starting together (a hand every "
                   f"{args.pause[0]:g}-{args.pause[1]:g} s, the first too), {args.spectators} spectators "
                   f"(arriving over 30 s, then a poll every 30 s), {took:.0f} s: {saves} hands saved", loaded)
            cores = os.cpu_count() or 1
            print("  CPU during the loaded phase, share of the machine's {} cores: {}".format(
                cores, ", ".join(f"{name} {100 * sec / (took * cores):.0f}%" for name, sec in used.items())))
            report_collections(loaded_began, loaded_ended)
            report_lag(loaded)
            print("  load average (1, 5, 15 min) at its end: " + " ".join(f"{x:.2f}" for x in load))
            if idle.times["save"] and loaded.times["save"]:
                ratio = percentile(loaded.times["save"], 99) / percentile(idle.times["save"], 99)
                print(f"  save: p99 {ratio:.1f}x the unloaded p99")
            for kind in KINDS:
                if idle.times[kind] and loaded.times[kind]:
                    ratio = percentile(loaded.times[kind], 50) / percentile(idle.times[kind], 50)
                    print(f"  {kind}: p50 {ratio:.1f}x the unloaded p50")
            slowest(loaded, "save")
        # gunicorn stopped: its access log is complete.
        server, acct = served(args.access_log), accounts()
        if server:
            print("no load, joined with gunicorn's access log:")
            attribute(idle, server, shown=3, acct=acct)
            print("under load, joined with gunicorn's access log:")
            attribute(loaded, server, acct=acct)
        if args.timeline:
            write_timeline(args.timeline, {"idle": idle, "loaded": loaded}, server)


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(GC_DIR, ignore_errors=True)
