"""Shared by every test directory.

Test-only settings are made here, never in league/settings.py: a fast
password hasher (PBKDF2's million iterations cost a third of a second per
``create_user``), no webhook delivery thread, and under pytest-xdist a page-stamp directory of each
worker's own (pytest-django gives each worker its own test database already).
``--db-only`` (tests/dbonly.py) selects the tests that use the database, for
the PostgreSQL pass.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["tests.dbonly"]

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    settings.PASSWORD_HASHERS = FAST_HASHERS
    # No webhook thread polling a test database that goes away: the webhook
    # tests drain the outbox themselves, or turn the thread on for the one test of it.
    settings.WEBHOOK_THREAD = False
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker and getattr(settings, "VERSIONS_DIR", None):
        # The stamps live in a directory named after the database, and every
        # worker's test database has the same settings name: one each, also
        # for a subprocess a test starts (it reads VERSIONS_DIR).
        settings.VERSIONS_DIR = os.environ["VERSIONS_DIR"] = f"{settings.VERSIONS_DIR}-{worker}"


@pytest.fixture(autouse=True)
def _default_language() -> None:
    # Django's LocaleMiddleware activates a request's language in the thread and
    # leaves it there: after a Japanese page through the test client, a service
    # called directly in the next test would answer in Japanese. Each test starts
    # in the default language, whatever ran before it in this worker.
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_page_cache() -> None:
    # A rolled-back test can leave a page or a stamp for a series whose pk
    # the next test's series reuses (its creation publishes nothing when
    # rolled back), and the stamps outlive the process.
    from django.core.cache import caches

    from league import stamps

    for cache in caches.all():
        cache.clear()
    stamps.store().clear()
    # What a process keeps to start its next standings read from: checked
    # against the notes of changes anyway, dropped so a test starts from nothing.
    from league import stats
    from league.standings import season

    season.forget_bases()
    stats.forget_bases()


@pytest.fixture(scope="session")
def _demo_rows(django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory,
               worker_id: str) -> Any:
    """The demo league's rows, built once per pytest run: under pytest-xdist the
    first worker that needs them builds them and leaves them (pickled) in the
    run's shared temporary directory, under a file lock; the others read them
    (the pattern pytest-xdist's documentation gives for a session fixture run once).

    ``TENBOU_DEMO_ROWS`` names that file for several runs of one checkout:
    .ci/run sets it to a fresh directory of its own, so the SQLite pass builds
    the rows and the PostgreSQL and browser passes read them (each still builds
    the demo once through the command: test_demo_league.py holds the copy to it)."""
    from filelock import FileLock

    from tests import demo

    named = os.environ.get("TENBOU_DEMO_ROWS")
    with django_db_blocker.unblock():
        if worker_id == "master" and not named:
            return demo.build()
        shared = Path(named) if named else tmp_path_factory.getbasetemp().parent / "demo-rows.pickle"
        with FileLock(f"{shared}.lock"):
            if shared.exists():
                return demo.loads(shared.read_bytes())
            rows = demo.build()
            shared.write_bytes(demo.dumps(rows))
            return rows


@pytest.fixture
def demo_league(db: None, _demo_rows: Any) -> None:
    """The demo league and tournament in this test's database, as ``manage.py demo_league`` builds them."""
    from tests import demo

    demo.load(_demo_rows)
