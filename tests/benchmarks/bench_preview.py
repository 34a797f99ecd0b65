"""What a live preview tap and the logged-in request's fixed cost spend
(issue 28), beside ``bench_entry.py``, which times one preview per hand (the
first tap after the page or the save).

    python tests/benchmarks/bench_preview.py [--hands 20] [--taps 5] [--before DIR] [--clock thread]

Not collected by pytest. In process through Django's test client, on a
throwaway SQLite file or DATABASE_URL, as ``bench_entry.py`` sets up (its
helpers are imported from the tree measured): with production's DEBUG=0
unless the environment sets DEBUG, both trees under ``--before``. Per hand of a game played as
the page's script plays it: the staff page's GET, then ``--taps`` live
previews of the same posted hand (the first tap of the hand, then the later
ones, what a scorer's taps cost while the phone's engine is not pricing),
then the save. Between them, the yardsticks: a bare ``/healthz``, the same
with the scorer's session (GET), and a logged-in POST of the preview's body
to ``/healthz`` (the session, the user and the body, no view work): the floor
under any preview. Each figure is the median CPU ms over the hands, the best
of ``--rounds``; ratios are to the bare ``/healthz`` of the same run.

``--clock thread`` times with ``time.thread_time`` (the request's own
thread) instead of ``process_time`` (every thread of the process: the
webhooks' delivery thread too, bare requests included; the default, and the
yardstick of docs/entry.md's figures); both trees of ``--before`` with the
same clock, this script's own.

Each body is what the page's script posts, built by ``form_body.py`` from
the page served (the whole form, CSRF token and empty fields included, the
hand's choices tapped on top), through a client that checks CSRF as
production does; for both trees of ``--before`` alike.

``--after save``: each hand's first tap follows the save of the hand before,
answered in place (``X-Tenbou-In-Place``), as the page's script goes on
from one hand to the next: the page's form reset, the answer's number and
state, a new key; the page is fetched only when a game starts (or a save was not
answered in place). The default, ``--after page``, fetches the page before
every hand (what ``bench_entry.py`` times too).

``--others N``: the series has N other tables, and one of them saves a hand
(through the service, untimed) between each hand's page (or save) and its
first tap, as at an event, where every table saves into one series: the
first tap then meets a series changed by another table since the scorer's
last request. 0 (the default): the game is the series' only one.

``--before DIR`` runs the same in a copy of the code before (``git archive
<rev> | tar -x -C DIR``), each round in fresh processes one after the other;
``--before-db URL`` gives that copy its own PostgreSQL database.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("TENBOU_BENCH_CODE") or Path(__file__).resolve().parents[2])
sys.path.insert(0, str(ROOT))
# The bodies come from this folder's builder whatever tree is measured (one
# without it too): each tree is sent what its own page's script would send.
sys.path.append(str(Path(__file__).resolve().parent))
import form_body  # noqa: E402

KEYS = ("healthz", "healthz_in", "post_in", "first_tap", "later_tap")
NAMES = {"healthz": "/healthz", "healthz_in": "/healthz logged in", "post_in": "POST /healthz logged in",
         "first_tap": "preview, first tap", "later_tap": "preview, later taps"}


CLOCKS = {"process": time.process_time, "thread": time.thread_time}


def measure(hands: int, taps: int, rounds: int, clock: str = "process", after: str = "page",
            others: int = 0) -> dict[str, Any]:
    from tests.benchmarks import bench_entry as be

    now = CLOCKS[clock]

    def cpu(fn: Any) -> tuple[float, Any]:
        t0 = now()
        out = fn()
        return (now() - t0) * 1000, out

    with tempfile.TemporaryDirectory(prefix="bench-preview-") as tmp:
        be._setup(tmp)
        from django.db import connection
        from django.urls import reverse

        bench = be.Bench()
        # CSRF checked as in production (a tree's own Bench may not check it).
        bench.client = form_body.csrf_client(bench.client)
        best: dict[str, float] = {}
        held: list[form_body.EntryPage] = []  # the page's form, as its script goes on from a save in place
        headers = {**form_body.HEADERS, "HTTP_X_TENBOU_ENTRY": "1"}
        tables: list[Any] = []  # the other tables of the series (``--others``)
        played = [0]

        def another_tables_hand() -> None:
            from league.models import Game, Player
            from tests.factories import make_game, play
            from tests.factories import ron as a_ron

            if not tables:
                for t in range(others):
                    seated = [Player.objects.create(name=f"Other {bench.series.pk} {t} {i}") for i in range(4)]
                    tables.append(make_game(bench.series, seated))
            i = played[0] % len(tables)
            played[0] += 1
            table = tables[i] = Game.objects.get(pk=tables[i].pk)
            if table.is_finished:
                tables[i] = table = make_game(bench.series, [s.player for s in table.seats.order_by("seat")])
            w = played[0] % 4
            play(table, [a_ron(w, (w + 1) % 4, 1 + played[0] % 3, 30)])

        def hand() -> dict[str, float]:
            bench.game.refresh_from_db()
            if bench.game.is_finished:
                bench.game = bench._new_game()
                held.clear()
            url = reverse("staff-game", args=[bench.game.pk])
            if after == "save" and held:
                form = held[0]  # the form of the page, reset, with the next hand's number and state
            else:
                form = form_body.EntryPage(bench.client.get(url).content.decode())
            form.tap(form_body.hand_choices(bench.step))
            bench.step += 1
            body = form.preview_body()
            preview_url = reverse("staff-preview", args=[bench.game.pk])
            if others:
                another_tables_hand()
            times = []
            for _ in range(taps):
                ms, shown = cpu(lambda: bench.client.post(preview_url, body, **headers))
                assert shown.status_code == 200 and b"data-digest" in shown.content, shown.content[:500]
                times.append(ms)
            import re

            form.shown(re.search(rb'data-digest="([^"]+)"', shown.content).group(1).decode())
            saved = bench.client.post(url, form.save_body(), **headers, HTTP_X_TENBOU_IN_PLACE="1")
            assert saved.status_code in (200, 302), saved.status_code
            held.clear()
            if saved.headers.get("X-Tenbou-Saved") == "in-place":
                form.saved_in_place(saved.json())
                held.append(form)
            out = {"first_tap": times[0], "later_tap": statistics.median(times[1:]) if taps > 1 else times[0]}
            out["healthz"] = cpu(lambda: bench.trivial.get("/healthz"))[0]
            out["healthz_in"] = cpu(lambda: bench.client.get("/healthz"))[0]
            out["post_in"] = cpu(lambda: bench.client.post("/healthz", body, **headers))[0]
            return out

        form_body.check_csrf(bench.client, reverse("staff-game", args=[bench.game.pk]),
                             reverse("staff-preview", args=[bench.game.pk]))
        for _ in range(5):  # warm
            hand()
        for _ in range(rounds):
            runs = [hand() for _ in range(hands)]
            for k in KEYS:
                best[k] = min(best.get(k, float("inf")), statistics.median(r[k] for r in runs))
        return {"vendor": connection.vendor, "cpu": best, "clock": clock, "after": after, "others": others}


def _table(label: str, m: dict[str, Any]) -> None:
    """The best medians and their ratio; with ``--before``, beside them each
    round's own ratio (its median to its bare ``/healthz``, one process): the
    median of the rounds and their range."""
    cpu, rounds = m["cpu"], m.get("rounds", [])
    others = f"; {m['others']} other tables saving" if m.get("others") else ""
    print(f"-- {label} ({m['vendor']}; first tap after the {m.get('after', 'page')}{others})")
    print(f"{'request':<26}{m.get('clock', 'process') + ' ms':>12}{'x bare':>8}"
          + (f"{'x bare, rounds: median (range)':>34}" if len(rounds) > 1 else ""))
    for k in KEYS:
        line = f"{NAMES[k]:<26}{cpu[k]:>12.2f}{cpu[k] / cpu['healthz']:>8.1f}"
        if len(rounds) > 1:
            ratios = sorted(r[k] / r["healthz"] for r in rounds)
            line += f"{statistics.median(ratios):>20.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--taps", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--before", type=Path)
    parser.add_argument("--before-db", metavar="URL")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="process")
    parser.add_argument("--after", choices=("page", "save"), default="page")
    parser.add_argument("--others", type=int, default=0)
    args = parser.parse_args()
    load = "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    if args.before:
        # The script is run from this tree in both; each imports the measured tree's helpers.
        from tests.benchmarks.bench_entry import before_and_after

        both = before_and_after(__file__, ["--hands", str(args.hands), "--taps", str(args.taps),
                                           "--clock", args.clock, "--after", args.after,
                                           *(["--others", str(args.others)] if args.others else [])], args.before,
                                args.before_db, args.rounds)
        print(f"{args.hands} hands x {args.taps} taps x {args.rounds} rounds, best median CPU ms; {load}")
        for label, m in both.items():
            _table(label, m)
        return
    m = measure(args.hands, args.taps, args.rounds, args.clock, args.after, args.others)
    if args.json:
        print(json.dumps(m))
        return
    print(f"{args.hands} hands x {args.taps} taps x {args.rounds} rounds, best median CPU ms; {load}")
    _table("this tree", m)


if __name__ == "__main__":
    main()
