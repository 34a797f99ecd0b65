"""Backups while scorers save, and restoring one into a fresh database.

Everything runs as a server would: separate processes on a SQLite file, one
saving hands in a loop while ``manage.py backup`` copies the database. A backup
is consistent when it passes SQLite's integrity check, every game in it
replays to the snapshots stored on its seats (no half-saved hand), and its
audit trail is a prefix of the live one. A restore into a fresh database must
then hold exactly what the backup holds.

The live database is migrated and set up once per module and copied into each
test; one reader process dumps every database a test compares, one after the
other (a reader, not one of the processes under test).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.league.test_production import REPO, manage, run_django

SETUP = """
from league import services
from league.models import Player, Series
import datetime
series = Series.objects.create(name="Backup night", slug="backup-night", rules={"preset": "ari-ari", "overrides": {}},
                               start_date=datetime.date(2026, 1, 1))
players = [Player.objects.create(name=f"Player {i}") for i in range(16)]
for table in range(4):
    services.start_game(series=series, players=players[4 * table:4 * table + 4], table=str(table + 1))
"""

# Four scorers' worth of saves, at a scorer's pace: hand after hand at every table until each game ends.
WRITER = """
import random, sys, time
from league import services
from league.management.commands.demo_league import random_hand
from league.models import Game
rng = random.Random(7)
for turn in range(60):
    if turn == 1:
        print("started", flush=True)
    time.sleep(0.1)
    for game in Game.objects.filter(status=Game.Status.IN_PROGRESS):
        state = game.replay().result
        for _ in range(20):
            try:
                services.record_hand(game=game, number=len(state.hands) + 1, hand=random_hand(rng, state))
                break
            except services.ServiceError:
                continue
print("wrote", sum(g.hands.count() for g in Game.objects.all()))
"""

# What each database holds, as JSON, one line each: every game checked against its own replay, and the audit trail.
DUMP = """
import json
from django.core.cache import caches
from django.db import connection, connections
from league.models import Game, GameAudit
from league.stats import SEAT_STAT_FIELDS, seat_hand_stats

def dump():
    games = []
    for game in Game.objects.order_by("pk"):
        result = game.replay().result
        seats = list(game.seats.order_by("seat").values_list("end_score", "place", "points", *SEAT_STAT_FIELDS))
        expected = [[getattr(seat_hand_stats(result, s), f) for f in SEAT_STAT_FIELDS] for s in range(4)]
        consistent = ([list(row[3:]) for row in seats] == expected
                      and (game.status == Game.Status.FINISHED) == result.finished)
        games.append({"pk": game.pk, "hands": game.hands.count(), "status": game.status, "consistent": consistent,
                      "scores": list(result.scores), "seats": seats})
    audit = [[a.pk, a.action, a.hand_number, a.before, a.after] for a in GameAudit.objects.order_by("pk")]
    with connection.cursor() as cursor:
        opened = cursor.execute("PRAGMA database_list").fetchone()[2]
    return {"file": opened, "games": games, "audit": audit}

for path in PATHS:
    connections.close_all()
    connection.settings_dict["NAME"] = path  # the next query opens this file
    for each in caches.all():
        each.clear()
    print(json.dumps(dump()))
"""


def url(path: Path) -> str:
    return f"sqlite:///{path}"


def dump(*paths: Path) -> list[dict]:
    """What each database holds, read by one process that opens each file in turn."""
    out = run_django(f"PATHS = {[str(p) for p in paths]!r}\n" + DUMP, DATABASE_URL=url(paths[0]))
    assert out.returncode == 0, out.stderr
    held = [json.loads(line) for line in out.stdout.splitlines()]
    assert [h.pop("file") for h in held] == [str(p) for p in paths]  # each read from its own file
    return held


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file as ``migrate`` and SETUP leave it: four games started, no hand."""
    path = tmp_path_factory.mktemp("backup") / "template.sqlite3"
    assert manage("migrate", "-v", "0", DATABASE_URL=url(path)).returncode == 0
    assert run_django(SETUP, DATABASE_URL=url(path)).returncode == 0
    return path


def live_copy(migrated: Path, tmp_path: Path) -> Path:
    live = tmp_path / "live.sqlite3"
    shutil.copyfile(migrated, live)  # both processes have exited: the file is whole, with no journal beside it
    return live


def test_backups_taken_while_scorers_save_are_consistent_and_restore_whole(migrated: Path, tmp_path: Path) -> None:
    live = live_copy(migrated, tmp_path)
    env = {"DATABASE_URL": url(live), "DJANGO_SETTINGS_MODULE": "league.settings", "PATH": "/usr/bin:/bin"}
    writer = subprocess.Popen([sys.executable, "-c", "import django; django.setup()\n" + WRITER], cwd=REPO, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    backups = []
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "started"
        for i in range(3):
            path = tmp_path / f"backup-{i}.sqlite3"
            out = manage("backup", str(path), DATABASE_URL=url(live))
            assert out.returncode == 0, out.stderr
            backups.append(path)
    finally:
        _, stderr = writer.communicate(timeout=300)
    assert writer.returncode == 0, stderr
    restored = []
    for path in backups:
        fresh = tmp_path / f"restored-{path.stem}.sqlite3"
        out = manage("restore", str(path), DATABASE_URL=url(fresh))
        assert out.returncode == 0, out.stderr
        restored.append(fresh)
    final, *held = dump(live, *backups, *restored)
    assert all(g["consistent"] for g in final["games"])
    sizes = []
    for taken, again in zip(held[:3], held[3:], strict=True):
        assert all(g["consistent"] for g in taken["games"]), taken["games"]
        assert taken["audit"] == final["audit"][: len(taken["audit"])]  # a moment of the live trail, whole
        sizes.append(len(taken["audit"]))
        assert again == taken
    # Taken after the saves began (4 game starts, then hands), in order.
    assert sizes == sorted(sizes) and sizes[0] > 4 and sizes[-1] <= len(final["audit"])


def test_backup_and_restore_refuse_what_would_lose_data(migrated: Path, tmp_path: Path) -> None:
    live = live_copy(migrated, tmp_path)
    taken = tmp_path / "taken.sqlite3"
    assert manage("backup", str(taken), DATABASE_URL=url(live)).returncode == 0
    again = manage("backup", str(taken), DATABASE_URL=url(live))
    assert again.returncode != 0 and "exists; choose a new file or pass --replace" in again.stderr
    over = manage("restore", str(taken), DATABASE_URL=url(live))
    assert over.returncode != 0 and "already holds games" in over.stderr
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    refused = manage("restore", str(junk), DATABASE_URL=url(tmp_path / "fresh.sqlite3"))
    assert refused.returncode != 0 and "is not a SQLite database" in refused.stderr
