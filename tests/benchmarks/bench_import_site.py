"""Does the site go on during a large import? (issue 19)

On a SQLite file, as a club runs Tenbou: gunicorn (2 workers) serves a series
page while a separate process saves hands as a scorer would, first with
nothing else happening (idle), then while ``import_games`` reads a file of
GAMES random games into another series. Reports p50/p99 of the page and of a
save in both phases, their ratio, and every failed request or save.

    python tests/benchmarks/bench_import_site.py [--games 6000] [--seconds 20]

Only 127.0.0.1 is contacted; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from scoring.game import record_to_dict  # noqa: E402
from scoring.rules import get_ruleset  # noqa: E402
from tests.benchmarks.bench_games import random_game  # noqa: E402

PY = sys.executable
SETUP = """
import datetime
from league import services
from league.models import Player, Series
series = Series.objects.create(name="Live", slug="live", rules={"preset": "tenhou", "overrides": {}},
                               start_date=datetime.date(2026, 11, 24))
players = [Player.objects.create(name=f"Live {i}") for i in range(4)]
print(services.start_game(series=series, players=players).pk)
"""
# A scorer: one save, then a pause, as at a table; every save timed, every failure kept.
SAVER = """
import json, random, sys, time
from league import services
from league.models import Game, Player, Series
from league.management.commands.demo_league import random_hand
rng = random.Random(5)
series = Series.objects.get(slug="live")
times, errors = [], []
stop_at = time.monotonic() + float(sys.argv[1])
while time.monotonic() < stop_at:
    game = series.games.filter(status=Game.Status.IN_PROGRESS).first()
    if game is None:
        game = services.start_game(series=series, players=list(Player.objects.filter(name__startswith="Live ")))
    state = game.replay().result
    began = time.monotonic()
    try:
        for _ in range(20):
            try:
                services.record_hand(game=game, number=len(state.hands) + 1, hand=random_hand(rng, state))
                break
            except services.ServiceError:
                continue
        times.append(time.monotonic() - began)
    except Exception as err:  # a 500 for the scorer: what this benchmark is looking for
        errors.append(f"{type(err).__name__}: {err}")
    time.sleep(0.2)
print(json.dumps({"times": times, "errors": errors}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def load_page(url: str, stop: threading.Event, out: list[float], errors: list[str]) -> None:
    while not stop.is_set():
        began = time.monotonic()
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                r.read()
            out.append(time.monotonic() - began)
        except Exception as err:  # noqa: BLE001
            errors.append(str(err))
        time.sleep(0.05)


def phase(name: str, base: str, env: dict[str, str], seconds: float, during: subprocess.Popen | None) -> dict:
    stop, page, page_errors = threading.Event(), [], []
    threads = [threading.Thread(target=load_page, args=(f"{base}/series/live/?n={i}", stop, page, page_errors))
               for i in range(2)]
    for t in threads:
        t.start()
    saver = subprocess.run([PY, "-c", "import django; django.setup()\n" + SAVER, str(seconds)], cwd=REPO, env=env,
                           capture_output=True, text=True)
    if during is not None:
        during.wait(timeout=3600)
    stop.set()
    for t in threads:
        t.join()
    saved = json.loads(saver.stdout.strip().splitlines()[-1]) if saver.returncode == 0 else {"times": [],
                                                                                                "errors": [saver.stderr]}
    return {"name": name, "page": page, "page_errors": page_errors, "save": saved["times"],
            "save_errors": saved["errors"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tenbou-import-"))
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "DJANGO_SETTINGS_MODULE": "league.settings",
           "DEBUG": "1", "CACHE_URL": "locmem://"}
    subprocess.run([PY, "manage.py", "migrate", "-v", "0"], cwd=REPO, env=env, check=True)
    subprocess.run([PY, "manage.py", "shell", "--no-imports", "-c", SETUP], cwd=REPO, env=env, check=True,
                   capture_output=True)
    rng, rules = random.Random(1), get_ruleset("tenhou")
    file = tmp / "games.jsonl"
    hands = 0
    with file.open("w") as f:
        for i in range(args.games):
            record = random_game(rng, rules)
            hands += len(record.hands)
            line = {"players": [f"P{(i * 4 + s) % 64}" if s else f"Q{i % 64}" for s in range(4)],
                    "round": i // 16 + 1, "table": str(i % 16 + 1), **record_to_dict(record)}
            f.write(json.dumps(line) + "\n")
    print(f"{args.games:,} games, {hands:,} hands in {file} ({file.stat().st_size / 1e6:.1f} MB)")
    port = free_port()
    server = subprocess.Popen([PY, "-m", "gunicorn", "league.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2",
                               "--log-level", "warning"], cwd=REPO, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        idle = phase("idle", base, env, args.seconds, None)
        began = time.monotonic()
        importing = subprocess.Popen([PY, "manage.py", "import_games", str(file), "--series", "imported"], cwd=REPO,
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        busy = phase("import", base, env, args.seconds, importing)
        took = time.monotonic() - began
        out, err = importing.communicate()
        print(f"import: exit {importing.returncode} in {took:.1f} s; {out.strip().splitlines()[-1] if out else err}")
    finally:
        server.terminate()
        server.wait()
    print(f"{'phase':<8}{'page n':>8}{'p50 ms':>9}{'p99 ms':>9}{'fail':>6}{'save n':>8}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'fail':>6}")
    for ph in (idle, busy):
        print(f"{ph['name']:<8}{len(ph['page']):>8}{percentile(ph['page'], 50) * 1000:>9.1f}"
              f"{percentile(ph['page'], 99) * 1000:>9.1f}{len(ph['page_errors']):>6}{len(ph['save']):>8}"
              f"{percentile(ph['save'], 50) * 1000:>9.1f}{percentile(ph['save'], 99) * 1000:>9.1f}"
              f"{len(ph['save_errors']):>6}")
    for ph in (idle, busy):
        for e in (ph["page_errors"] + ph["save_errors"])[:5]:
            print(f"  {ph['name']} failure: {e[:200]}")
    ratio = percentile(busy["page"], 99) / percentile(idle["page"], 99)
    save_ratio = percentile(busy["save"], 99) / percentile(idle["save"], 99)
    print(f"page p99 during the import / idle: {ratio:.2f}x; save p99: {save_ratio:.2f}x "
          f"(medians {statistics.median(busy['page']) / statistics.median(idle['page']):.2f}x)")


if __name__ == "__main__":
    main()
