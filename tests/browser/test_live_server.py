"""The browser pass's server and database as tests/browser/conftest.py sets
them: the test database is a file in WAL mode, and the live server is
Django's threaded one, each request on a thread (and a connection) of its
own, as a real server. A burst of page requests at once while the test
thread writes all succeed: no "database table is locked", which the shared
in-memory database met whenever a service worker fetched beside a page."""

from __future__ import annotations

import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connection
from django.urls import reverse

from tests.factories import make_game, make_player, make_series

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_browser_tests_database_is_a_file_in_wal_mode() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the browser pass runs on SQLite")
    assert not connection.is_in_memory_db()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=30) as response:
        response.read()
        return response.status


def test_the_live_server_answers_requests_side_by_side_while_the_test_writes(live_server) -> None:
    assert isinstance(live_server.thread.httpd, ThreadedWSGIServer)
    assert live_server.thread.connections_override == {}  # every request thread opens its own
    series = make_series(slug="club")
    make_game(series)
    url = live_server.url + reverse("series-standings", args=["club"])
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = [pool.submit(_get, url) for _ in range(32)]
        for n in range(20):
            make_player(f"Writer {n}")
        statuses = [a.result() for a in answers]
    assert statuses == [200] * 32
