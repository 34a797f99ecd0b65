"""Four players confirm at once for the last place under the cap: exactly
one gets it, the others go on the waiting list, and a withdrawal moves the
first of them up. Modelled on the race of two scorers (test_race_postgres.py).

On PostgreSQL (.ci/run's pass) the series row lock serialises them. On SQLite
the race runs in a child process against a database file, as a deployment
has it: the test database is in memory with shared-cache table locks, which
refuse a second writer at once instead of letting it wait."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from league.models import SignUp
from league.services import event
from league.services import signup as desk
from tests.factories import make_series

ROOT = Path(__file__).resolve().parents[2]
ON_POSTGRES = "postgresql" in settings.DATABASES["default"]["ENGINE"]


def race(tokens: list[str]) -> list[object]:
    """Confirm each token from its own thread (its own connection), all released at once."""
    barrier = threading.Barrier(len(tokens))
    outcomes: list[object] = [None] * len(tokens)

    def player(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = desk.confirm_signup(token=tokens[i])
        except Exception as err:  # noqa: BLE001 - the test inspects what each player got
            outcomes[i] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=player, args=(i,)) for i in range(len(tokens))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


@pytest.mark.postgres
@pytest.mark.skipif(not ON_POSTGRES, reason="the PostgreSQL pass of .ci/run runs it with DATABASE_URL set")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_players_race_for_the_last_place(attempt: int) -> None:
    race_for_the_last_place(attempt)


@pytest.mark.skipif(ON_POSTGRES, reason="the SQLite race; PostgreSQL has its own above")
def test_two_players_race_for_the_last_place_on_a_sqlite_file(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'race.sqlite3'}",
           "DJANGO_SETTINGS_MODULE": "league.settings", "VERSIONS_DIR": str(tmp_path / "versions")}
    code = "import django; django.setup(); from tests.league.test_signup_race import race_on_sqlite_file; race_on_sqlite_file()"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"attempts": 3}


def race_on_sqlite_file() -> None:
    """In a child process whose DATABASE_URL names a fresh SQLite file (Django set up
    before this module is imported): migrate, then race three times."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    for attempt in range(3):
        race_for_the_last_place(attempt)
    print(json.dumps({"attempts": 3}))


def race_for_the_last_place(attempt: int) -> None:
    series = make_series("ari-ari", slug=f"race-{attempt}", kind="tournament")
    event.configure_event(series=series)
    desk.configure_signup(series=series, is_open=True, closes_at=None, cap=3, moderated=False)
    event.register_player(series=series, first_name="Already", last_name="In")
    event.register_player(series=series, first_name="Also", last_name="In")
    signups = [desk.sign_up(series=series, first_name=f"Racer{i}", last_name="X", email=f"r{i}@example.org")
               for i in range(4)]
    outcomes = race([desk.link_token(s) for s in signups])
    assert all(isinstance(o, SignUp) for o in outcomes), outcomes
    statuses = sorted(o.status for o in outcomes)
    assert statuses == ["registered", "waiting", "waiting", "waiting"], outcomes
    assert series.registrations.count() == 3
    assert len(set(series.registrations.values_list("number", flat=True))) == 3
    waiting = list(series.signups.filter(status="waiting").order_by("queued_at", "pk"))
    assert len(waiting) == 3
    # the first to withdraw makes room for exactly the first of the waiting list
    winner = next(o for o in outcomes if o.status == "registered")
    desk.withdraw_signup(signup=winner)
    waiting[0].refresh_from_db()
    assert waiting[0].status == "registered"
    assert series.signups.filter(status="waiting").count() == 2
