"""What webhooks cost a save when the receiver hangs (issue 37).

    python tests/benchmarks/bench_webhooks.py [--saves 60] [--hooks 3]

Not collected by pytest. A throwaway SQLite file, two league series: one with
no webhook, one with ``--hooks`` webhooks (every event) to a receiver on
127.0.0.1 that accepts each POST and never answers, each asking for the
events a league has (game finished, standings changed). Every save finishes
a game, so every hook gets two deliveries written in the save's transaction,
and the delivery thread, woken after each commit, spends its time waiting
on the hanging receiver (cut off after ``READ_SECONDS``). Two saves:

- the service alone (``record_final_scores``): the strictest measure, as
  the outbox's two INSERTs are all it adds;
- the staff page's save over HTTP (Django's test client, logged in: the end
  scores form posted, its redirect not followed), what a scorer waits for.

Saves alternate between the two series, each on a fresh game; the figures
are the median and 90th percentile wall times and the ratio of each median
to the plain save's, with the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a script: tests.* is found from the repository's root


def _setup(db_dir: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db_dir}/bench-webhooks.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
    os.environ.setdefault("VERSIONS_DIR", db_dir)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS = True  # the benchmark's own receiver
    settings.WEBHOOK_THREAD = True
    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--saves", type=int, default=60)
    parser.add_argument("--hooks", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as db_dir:
        _setup(db_dir)
        from django.test import Client
        from django.urls import reverse

        from league import webhooks
        from league.models import Delivery
        from league.services import record_final_scores
        from league.services import webhooks as hooks
        from tests.factories import make_game, make_players, make_scorer, make_series
        from tests.league.webhook_receiver import receiver

        plain = make_series("ari-ari", slug="plain")
        hooked = make_series("ari-ari", slug="hooked")
        players = {s.pk: make_players(4) for s in (plain, hooked)}
        for i, s in enumerate((plain, hooked)):
            for j, p in enumerate(players[s.pk]):
                p.name = f"S{i}P{j}"
                p.save()
        scores = [40000, 30000, 20000, 10000]
        form = {f"score_{i}": str(v) for i, v in enumerate(scores)} | {"riichi_sticks": "0"}
        client = Client()
        client.force_login(make_scorer(plain))
        hooked.scorers.add(*plain.scorers.all())
        times: dict[str, list[float]] = {}

        def service(s: Any) -> None:
            record_final_scores(game=make_game(s, players[s.pk]), scores=scores)

        def http(s: Any) -> None:
            game = make_game(s, players[s.pk])
            response = client.post(reverse("staff-final-scores", args=[game.pk]), form)
            assert response.status_code == 302, response.status_code

        with receiver() as r:
            for _ in range(args.hooks):
                hooks.register_hook(series=hooked, url=f"{r.base}/hang",
                                    events=[hooks.HookEvent.GAME_FINISHED, hooks.HookEvent.STANDINGS_CHANGED])
            for kind, save in (("service", service), ("HTTP", http)):
                for s in (plain, hooked):  # a warm-up save of each, not counted
                    save(s)
                for _ in range(args.saves):
                    for name, s in (("no hooks", plain), ("hanging hooks", hooked)):
                        t0 = time.perf_counter()
                        save(s)
                        times.setdefault(f"{kind}: {name}", []).append((time.perf_counter() - t0) * 1000)
            hung = len(r.received)
            written = Delivery.objects.count()
            r.release.set()
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.saves} saves each, "
              f"{args.hooks} hooks to a receiver that never answers (cut off after {webhooks.READ_SECONDS:g} s)")
        for name, values in times.items():
            base = statistics.median(times[name.split(":")[0] + ": no hooks"])
            p50 = statistics.median(values)
            p90 = sorted(values)[int(len(values) * 0.9) - 1]
            print(f"  {name:24} p50 {p50:7.2f} ms  p90 {p90:7.2f} ms  ratio {p50 / base:5.2f}")
        print(f"  deliveries written {written}; POSTs the receiver held open meanwhile: {hung}")


if __name__ == "__main__":
    main()
