"""``refresh_planner_statistics``: after a bulk write inside a test's
transaction, PostgreSQL plans for the rows the test wrote, not for what
earlier tests left (issue 22)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection, transaction

from tests.factories import bulk_finished_games, make_players, make_series

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="PostgreSQL's planner statistics; .ci/run runs it with DATABASE_URL set",
    ),
    pytest.mark.django_db,
]


def estimated_rows(sql: str) -> int:
    with connection.cursor() as cur:
        cur.execute("EXPLAIN " + sql)
        return int(re.search(r"rows=(\d+)", cur.fetchone()[0]).group(1))


def test_statistics_count_the_rows_written_in_the_tests_own_transaction() -> None:
    players = make_players(8)
    # What autovacuum can leave after a rolled-back test: pages holding no live row.
    with transaction.atomic():
        bulk_finished_games(make_series(), players, 50)
        transaction.set_rollback(True)
    with connection.cursor() as cur:
        cur.execute("ANALYZE league_seat, league_game")
    assert estimated_rows("SELECT * FROM league_seat") == 1  # the planner takes it for empty

    bulk_finished_games(make_series(), players, 50)  # 200 seats; refreshes the statistics itself

    assert estimated_rows("SELECT * FROM league_seat") == 200
    assert estimated_rows("SELECT * FROM league_game") == 50
