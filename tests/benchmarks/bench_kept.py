"""What a batch of kept hands costs the server (issue 28): the offline queue's
one POST of several hands (``staff-kept``, queue/sending.js).

    python tests/benchmarks/bench_kept.py [--batches 10] [--size 6] [--rounds 3]
    python tests/benchmarks/bench_kept.py --before DIR   # DIR: git archive of the tree before

Not collected by pytest. In-process through Django's test client, as
``bench_entry.py``: a throwaway SQLite file (or DATABASE_URL, a PostgreSQL
scratch database), with production's DEBUG=0 unless the environment sets
DEBUG, one series, one scorer. Each batch is ``--size`` hands of
a fresh game, kept as the phone keeps them (each priced by the offline
engine's own code, ``league.entry.phone``, on the game as the hands before it
left it, with its key, digest and the payments shown), then sent in one
request. Only the POST is timed; making the batch is the phone's work.

``/healthz`` (no database) is timed in the same run, between the batches, so
the ratios hold on a loaded machine. Each figure is the median CPU ms
(``process_time``) over ``--batches`` batches, the best median of
``--rounds`` rounds; beside it the median wall ms. ``--before DIR`` measures
another copy of the code with this same script in fresh processes, one
after the other each round: before and after in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("TENBOU_BENCH_CODE") or Path(__file__).resolve().parents[2])
sys.path.insert(0, str(ROOT))



def _timed(fn: Any) -> tuple[float, float, Any]:
    t0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return (time.process_time() - t0) * 1000, (time.perf_counter() - w0) * 1000, out


class Bench:
    def __init__(self, size: int) -> None:
        from django.test import Client

        from league.models import Player
        from tests.factories import make_scorer, make_series

        run = uuid.uuid4().hex[:8]  # a PostgreSQL scratch database may hold earlier runs
        self.series = make_series(slug=f"bench-kept-{run}")
        self.players = [Player.objects.create(name=f"Kept {run} {i}") for i in range(4)]
        self.client = Client()
        self.client.force_login(make_scorer(self.series, username=f"bench-kept-{run}"))
        self.trivial = Client()
        self.size = size

    def batch(self) -> dict[str, float]:
        """One batch of kept hands on a fresh game; CPU and wall ms of its POST and of a bare /healthz."""
        from django.urls import reverse

        from league.entry.phone import apply, price
        from tests.factories import make_game
        from tests.league.test_kept_batch import SIX as HANDS  # six hands of an East game, none ending it

        game = make_game(self.series, self.players)
        state = self.client.get(reverse("staff-offline-game", args=[game.pk])).json()
        entries = []
        for i in range(self.size):
            priced = price(state, HANDS[i % len(HANDS)], None)
            assert priced["ok"], priced
            entries.append({"fields": HANDS[i % len(HANDS)], "number": str(priced["number"]),
                            "state": priced["state"], "key": str(uuid.uuid4()), "checked": priced["checked"],
                            "seen": " ".join(map(str, priced["payments"]))})
            state = apply(state, priced)
        body = json.dumps({"entries": entries})
        url = reverse("staff-kept", args=[game.pk])
        cpu, wall, response = _timed(lambda: self.client.post(url, body, content_type="application/json",
                                                              HTTP_X_TENBOU_ENTRY="1"))
        answer = response.json()
        assert response.status_code == 200 and answer["stop"] is None, answer
        assert [e["saved"] for e in answer["entries"]] == ["saved"] * self.size, answer
        hz_cpu, hz_wall, ok = _timed(lambda: self.trivial.get("/healthz"))
        assert ok.status_code == 200
        return {"batch": cpu, "batch_wall": wall, "healthz": hz_cpu, "healthz_wall": hz_wall}


def measure(batches: int, rounds: int, size: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-kept-") as tmp:
        from tests.benchmarks.bench_entry import _setup

        _setup(tmp)
        from django.db import connection

        bench = Bench(size)
        for _ in range(3):  # warm: templates compiled, caches filled
            bench.batch()
        best: dict[str, float] = {}
        walls: dict[str, list[float]] = {}
        for _ in range(rounds):
            runs = [bench.batch() for _ in range(batches)]
            for k in ("batch", "healthz"):
                best[k] = min(best.get(k, float("inf")), statistics.median(r[k] for r in runs))
                walls.setdefault(k, []).extend(r[f"{k}_wall"] for r in runs)
        return {"vendor": connection.vendor, "size": size, "cpu": best,
                "wall": {k: statistics.median(v) for k, v in walls.items()}}


def _line(label: str, m: dict[str, Any]) -> None:
    cpu, wall, n = m["cpu"], m["wall"], m["size"]
    print(f"{label:<8} ({m['vendor']}): /healthz {cpu['healthz']:.2f} ms; batch of {n} {cpu['batch']:.2f} ms "
          f"({cpu['batch'] / cpu['healthz']:.1f}x), per hand {cpu['batch'] / n:.2f} ms "
          f"({cpu['batch'] / n / cpu['healthz']:.1f}x); wall: batch {wall['batch']:.2f} ms, "
          f"per hand {wall['batch'] / n:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", type=int, default=6, help="hands a batch (at most 6 here: none ends the game)")
    parser.add_argument("--json", action="store_true", help="one line of JSON (what --before reads)")
    parser.add_argument("--before", type=Path, help="a copy of the code before: each round measures it and this "
                        "tree one after the other, in fresh processes")
    parser.add_argument("--before-db", metavar="URL", help="DATABASE_URL for the copy before, when the two trees' "
                        "migrations differ")
    args = parser.parse_args()
    if args.before:
        from tests.benchmarks.bench_entry import before_and_after

        both = before_and_after(__file__, ["--batches", str(args.batches), "--size", str(args.size)], args.before,
                                args.before_db, args.rounds)
        print(f"{args.batches} batches x {args.rounds} rounds, best median CPU ms; load average "
              + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        for label, m in both.items():
            _line(label, m)
        print(json.dumps(both))
        return
    m = measure(args.batches, args.rounds, args.size)
    if args.json:
        print(json.dumps(m))
        return
    print(f"{args.batches} batches x {args.rounds} rounds, best median CPU ms; load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    _line("this tree", m)


if __name__ == "__main__":
    main()
