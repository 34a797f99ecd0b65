"""What one hand entered at the table costs the server (issue 28).

    python tests/benchmarks/bench_entry.py [--hands 40] [--rounds 3]

Not collected by pytest. In-process through Django's test client, as the
issue measured: a throwaway SQLite file (or DATABASE_URL, e.g. a PostgreSQL
scratch database, whose tables are created and left there), one series, one
scorer, and games played hand after hand as the staff page's script does it.
Django runs as in production, DEBUG=0 (its debug cursor otherwise wraps every
statement), unless the environment sets DEBUG (``DEBUG=1``: the development
set-up); with DEBUG off a throwaway SECRET_KEY and ALLOWED_HOSTS=testserver
where the environment has none. ``--before`` runs both trees so. Per hand:

- GET of the staff game page (``staff-game``, after the save's redirect),
- one live preview (``staff-preview``, what the script posts on every tap),
- the save (the script's ``fetch`` with ``X-Tenbou-Entry`` and
  ``X-Tenbou-In-Place``: answered in place, the next hand needs no GET of the
  page; a tree that answers with the next address needs the GET, and the hand
  counts it).

Each body is what the page's script posts (``form_body.py``): the page's whole
form as the browser holds it, the CSRF token and the empty fields too,
URL-encoded, with the hand's choices tapped on top; the client checks CSRF
as production does (``enforce_csrf_checks``, the cookie from the page's GET,
the browser's ``Origin``). ``tests/browser/test_bench_body.py`` holds these
bodies to Chromium's.

Two paths, hand and hand about: without the phone's engine (the page asks the
server's preview, then saves with its digest) and with it (the phone prices
each tap, no preview request; the save carries ``checked`` and ``seen``, the
payments shown, and the server checks them: "save with seen"). The preview is
timed on every hand; on the engine's hands it only supplies what the phone
would have shown, and does not count in the hand.

``/healthz`` (a trivial view, no database) is timed in the same run, between
the hands, so the ratios hold on a shared machine whose absolute speed moves
with the neighbours. Each figure is the median of CPU time (``process_time``;
the test client runs in this one thread) over ``--hands`` hands, the best
median of ``--rounds`` rounds; beside it the median wall time over all
rounds (which includes the PostgreSQL server's work). A new game starts
whenever one ends. "/healthz logged in" is the trivial view with the
scorer's session (one session read); the ratios are to the bare one.

Then the page's weight: the staff game page's bytes in English and in
Japanese (a game at hand 5 and at hand 16), and every response one hand
needs (page, preview, save answer), static files left out as the browser
caches them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

# --code DIR measures another copy of the project (``git archive`` of main into
# a temporary directory) with this same script: before and after in one run.
ROOT = Path(os.environ.get("TENBOU_BENCH_CODE") or Path(__file__).resolve().parents[2])
sys.path.insert(0, str(ROOT))  # run as a script: tests.* is found from the repository's root
# The bodies come from this folder's builder whatever tree is measured (one
# without it too): each tree is sent what its own page's script would send.
sys.path.append(str(Path(__file__).resolve().parent))
import form_body  # noqa: E402

# Production's settings, as far as a process of its own needs them: DEBUG off
# (with DEBUG on Django wraps every statement in its debug cursor, which keeps
# the SQL and its time), a key and the test client's host.
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "bench-only-" + "k" * 40, "ALLOWED_HOSTS": "testserver"}


def production_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` with production's DEBUG=0 unless it sets DEBUG itself; with
    DEBUG off, a SECRET_KEY and ALLOWED_HOSTS (``testserver``) where it has none."""
    env = dict(env)
    env.setdefault("DEBUG", PRODUCTION["DEBUG"])
    if env["DEBUG"].strip().lower() in ("0", "false", "no", "off", ""):
        env.setdefault("SECRET_KEY", PRODUCTION["SECRET_KEY"])
        env.setdefault("ALLOWED_HOSTS", PRODUCTION["ALLOWED_HOSTS"])
    return env


def _setup(db_dir: str) -> None:
    """Django set up as production runs it (``production_env``: DEBUG=0 unless
    the environment sets DEBUG; ``DEBUG=1`` measures the development set-up),
    on a throwaway SQLite file unless DATABASE_URL names a database."""
    os.environ.update(production_env(dict(os.environ)))
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{db_dir}/bench-entry.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
    os.environ.setdefault("VERSIONS_DIR", db_dir)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


WALL: dict[str, list[float]] = {}


def _cpu(fn: Callable[[], Any], name: str = "") -> tuple[float, Any]:
    """CPU ms of ``fn`` in this process; its wall ms go to ``WALL[name]`` (on
    PostgreSQL the database server's share shows only there)."""
    t0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    WALL.setdefault(name, []).append((time.perf_counter() - w0) * 1000)
    return (time.process_time() - t0) * 1000, out


class Bench:
    def __init__(self) -> None:
        from django.test import Client

        from tests.factories import make_scorer, make_series

        run = uuid.uuid4().hex[:8]  # a PostgreSQL scratch database may hold earlier runs
        self.series = make_series(slug=f"bench-entry-{run}")
        from league.models import Player

        self.players = [Player.objects.create(name=f"Bench {run} {i}") for i in range(4)]
        user = make_scorer(self.series, username=f"bench-scorer-{run}")
        # CSRF checked as in production; the token and its cookie come from the page's GET.
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(user)
        self.trivial = Client()
        self.game = self._new_game()
        self.step = 0

    def _new_game(self) -> Any:
        from tests.factories import make_game

        return make_game(self.series, self.players)

    def hand(self) -> dict[str, float]:
        """One hand as the page's script enters it; returns each request's CPU ms."""
        from django.urls import reverse

        self.game.refresh_from_db()
        if self.game.is_finished:
            self.game = self._new_game()
        url = reverse("staff-game", args=[self.game.pk])
        came_for = {"hand": self.game.next_hand_number()}  # the address the save answered: not the server's work
        page_ms, page = _cpu(lambda: self.client.get(url, came_for), "page")
        assert page.status_code == 200, page.status_code
        form = form_body.EntryPage(page.content.decode())
        form.tap(form_body.hand_choices(self.step))
        self.step += 1
        preview_url = reverse("staff-preview", args=[self.game.pk])
        body = form.preview_body()
        preview_ms, shown = _cpu(lambda: self.client.post(preview_url, body, **form_body.HEADERS,
                                                          HTTP_X_TENBOU_ENTRY="1"), "preview")
        assert shown.status_code == 200 and b"data-digest" in shown.content, shown.content[:2000]
        import re

        form.shown(re.search(rb'data-digest="([^"]+)"', shown.content).group(1).decode())
        # Every other hand as a phone with its engine sends it: the payments it showed.
        phone = self.step % 2 == 0
        seen = re.search(rb'data-deltas="([^"]+)"', shown.content).group(1).decode() if phone else None
        body = form.save_body(seen)
        save_key = "save_seen" if phone else "save"
        save_ms, saved = _cpu(lambda: self.client.post(url, body, **form_body.HEADERS, HTTP_X_TENBOU_ENTRY="1",
                                                        HTTP_X_TENBOU_IN_PLACE="1"), save_key)
        assert saved.status_code == 200 and saved.headers.get("X-Tenbou-Saved"), saved.content[:2000]
        # Answered in place (the parts of the page and the next hand's form): the next
        # hand needs no GET of the page; the GET above is then timed for the table only.
        in_place = saved.headers.get("X-Tenbou-Saved") == "in-place"
        healthz_ms, ok = _cpu(lambda: self.trivial.get("/healthz"), "healthz")
        assert ok.status_code == 200
        healthz_in_ms, ok = _cpu(lambda: self.client.get("/healthz"), "healthz_in")
        assert ok.status_code == 200
        return {"page": page_ms, "preview": preview_ms, save_key: save_ms, "healthz": healthz_ms,
                "healthz_in": healthz_in_ms, "page_needed": 0.0 if in_place else page_ms,
                "page_bytes": 0 if in_place else len(page.content), "preview_bytes": len(shown.content),
                "save_bytes": len(saved.content)}


def _weights(bench: Bench) -> dict[str, int]:
    """The staff page's bytes in English and Japanese, at hand 5 of a fresh
    game and at hand 16 (fifteen hands played: draws with the dealer tenpai)."""
    from django.urls import reverse

    from tests.factories import draw, make_game, play, ron

    out = {}
    for label, hands in (("hand 5", [ron(1, 0, 2, 30), ron(2, 1, 3, 30), ron(3, 2, 1, 40), ron(0, 3, 2, 40)]),
                         ("hand 16", [ron(1, 0, 2, 30), ron(2, 1, 3, 30), ron(3, 2, 1, 40)] + [draw(3)] * 12)):
        game = make_game(bench.series, bench.players)
        play(game, hands)
        url = reverse("staff-game", args=[game.pk])
        for lang in ("en", "ja"):
            bench.client.cookies["django_language"] = lang
            out[f"{lang} {label}"] = len(bench.client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content)
    bench.client.cookies["django_language"] = "en"
    return out


def measure(hands: int, rounds: int) -> dict[str, Any]:
    """Best median CPU ms per request, median wall ms, and the bytes."""
    with tempfile.TemporaryDirectory(prefix="bench-entry-") as tmp:
        _setup(tmp)
        from django.db import connection
        from django.urls import reverse

        bench = Bench()
        form_body.check_csrf(bench.client, reverse("staff-game", args=[bench.game.pk]),
                             reverse("staff-preview", args=[bench.game.pk]))
        for _ in range(5):  # warm: templates compiled, caches filled
            bench.hand()
        WALL.clear()
        best: dict[str, float] = {}
        last: dict[str, Any] = {}
        for _ in range(rounds):
            runs = [bench.hand() for _ in range(hands)]
            medians = {k: statistics.median(r[k] for r in runs if k in r) for k in {k for r in runs for k in r}}
            for k in (*REQUESTS, "page_needed"):
                best[k] = min(best.get(k, float("inf")), medians[k])
            last = medians
        weights = _weights(bench)
    return {"vendor": connection.vendor, "cpu": best, "wall": {k: statistics.median(v) for k, v in WALL.items()},
            "weights": weights, "per_hand": int(last["page_bytes"] + last["preview_bytes"] + last["save_bytes"])}


REQUESTS = ("healthz", "healthz_in", "page", "preview", "save", "save_seen")
NAMES = {"healthz": "/healthz", "healthz_in": "/healthz logged in", "page": "staff page GET",
         "preview": "live preview", "save": "save", "save_seen": "save with seen"}


def before_and_after(script: str, flags: list[str], before: Path, before_db: str | None,
                     rounds: int) -> dict[str, dict[str, Any]]:
    """``script`` (a benchmark of this folder) run with ``flags`` once a round
    on the tree ``before`` and then on this one, each in a fresh process
    (``--rounds 1 --json``; ``TENBOU_BENCH_CODE`` names the tree it imports),
    ``before_db`` the DATABASE_URL of the tree before when the two trees'
    migrations differ. Each figure of ``cpu`` is the best median of the
    rounds, on its own; the rest is the first round's, but ``rounds``: each
    round's own ``cpu`` (a ratio within one process is steadier than two
    bests taken apart: one tree's processes gave a bare ``/healthz`` of
    0.46-0.57 ms in one run). The three benchmarks of the entry (this one,
    bench_preview.py, bench_kept.py) share it."""
    import json
    import subprocess

    here = Path(__file__).resolve().parents[2]
    both: dict[str, dict[str, Any]] = {}
    for _ in range(rounds):
        for label, code in (("before", before.resolve()), ("after", here)):
            # Both trees with production's DEBUG=0 (unless DEBUG is set): a tree
            # before this yardstick would otherwise run with DEBUG on.
            env = {**production_env(dict(os.environ)), "TENBOU_BENCH_CODE": str(code)}
            if label == "before" and before_db:
                env["DATABASE_URL"] = before_db
            out = subprocess.run([sys.executable, script, *flags, "--rounds", "1", "--json"],
                                 env=env, check=True, capture_output=True, text=True, cwd=code)
            m = json.loads(out.stdout.splitlines()[-1])
            kept = both.setdefault(label, {**m, "cpu": dict(m["cpu"]), "rounds": []})
            kept["rounds"].append(m["cpu"])
            for k, v in m["cpu"].items():
                kept["cpu"][k] = min(kept["cpu"][k], v)
    return both


def _table(label: str, m: dict[str, Any]) -> None:
    cpu, wall = m["cpu"], m["wall"]
    hz, hz_in = cpu["healthz"], cpu["healthz_in"]
    # With --before, each round's own ratio (one process's request to its own bare
    # /healthz) too: their median and range, steadier than two bests taken apart.
    rounds = m.get("rounds", [])
    print(f"-- {label} ({m['vendor']})")
    print(f"{'request':<22}{'CPU ms':>8}{'x bare':>8}{'x login':>9}{'wall ms':>9}{'x bare':>8}"
          + (f"{'CPU x bare, rounds: median (range)':>38}" if len(rounds) > 1 else ""))
    for key in REQUESTS:
        line = (f"{NAMES[key]:<22}{cpu[key]:>8.2f}{cpu[key] / hz:>8.1f}{cpu[key] / hz_in:>9.1f}"
                f"{wall[key]:>9.2f}{wall[key] / wall['healthz']:>8.1f}")
        if len(rounds) > 1:
            ratios = sorted(r[key] / r["healthz"] for r in rounds)
            line += f"{statistics.median(ratios):>24.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})"
        print(line)
    # The page's GET counts when the hand needs it: not when the save answers in place
    # (the median of the hands, a new game's first GET aside).
    needed = cpu.get("page_needed", cpu["page"])
    print(f"{'page GET needed/hand':<22}{needed:>8.2f}{needed / hz:>8.1f}{needed / hz_in:>9.1f}")
    # One hand: the page if needed, then the preview and the save (no engine), or the
    # save with seen alone (the phone's engine prices the taps).
    for label, parts in (("one hand, no engine", ("preview", "save")), ("one hand, engine", ("save_seen",))):
        total = needed + sum(cpu[p] for p in parts)
        wall_total = (wall["page"] if needed else 0.0) + sum(wall[p] for p in parts)
        print(f"{label:<22}{total:>8.2f}{total / hz:>8.1f}{total / hz_in:>9.1f}"
              f"{wall_total:>9.2f}{wall_total / wall['healthz']:>8.1f}")
    print("staff page bytes: " + ", ".join(f"{k} {v:,}" for k, v in m["weights"].items()))
    print(f"one hand's responses (page if needed + preview + save), static files aside: {m['per_hand']:,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one line of JSON (what --before reads)")
    parser.add_argument("--before", type=Path, help="a copy of the code before (git archive main | tar -x -C DIR): "
                        "each round measures it and this tree one after the other, in fresh processes")
    parser.add_argument("--before-db", metavar="URL", help="DATABASE_URL for the copy before, when the two trees' "
                        "migrations differ (a PostgreSQL scratch database each; SQLite files are per run anyway)")
    args = parser.parse_args()
    if args.before:
        import json

        both = before_and_after(__file__, ["--hands", str(args.hands)], args.before, args.before_db, args.rounds)
        print(f"{args.hands} hands x {args.rounds} rounds, best median CPU ms; load average "
              + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        for label, m in both.items():
            _table(label, m)
        print(json.dumps(both))
        return
    m = measure(args.hands, args.rounds)
    if args.json:
        import json

        print(json.dumps(m))
        return
    print(f"{args.hands} hands x {args.rounds} rounds, best median CPU ms; load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    _table("this tree", m)


if __name__ == "__main__":
    main()
