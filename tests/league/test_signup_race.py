"""Four players confirm at once for the last place under the cap on
PostgreSQL: the series row lock lets exactly one get it, the others go on the
waiting list, and a withdrawal moves the first of them up. Modelled on the
race of two scorers (test_race_postgres.py); on SQLite the test database is
in memory with shared-cache table locks, which refuse a second writer at once
instead of waiting, so the race runs on PostgreSQL only (.ci/run's pass)."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import connection

from league.models import SignUp
from league.services import signup as desk
from league.services import tournament as event
from tests.factories import make_series

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                       reason="needs PostgreSQL row locks; .ci/run runs it with DATABASE_URL set"),
    pytest.mark.django_db(transaction=True),
]


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


@pytest.mark.parametrize("attempt", range(3))
def test_two_players_race_for_the_last_place(attempt: int) -> None:
    series = make_series("ari-ari", slug=f"race-{attempt}", kind="tournament")
    event.configure_tournament(series=series)
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
