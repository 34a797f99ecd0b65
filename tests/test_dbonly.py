"""The PostgreSQL pass's selector (tests/dbonly.py), run on a small suite
of its own in a subprocess: ``--db-only`` keeps exactly the tests that may
use the database, by every way pytest-django grants it, and drops pure tests
and doctests; and a test that touches the database without asking fails, so
no database test can stay out of the pass by not being selected. The one
database test left out is a ``fuzz`` one (it runs in the SQLite pass only),
and a fuzz test that only PostgreSQL would run is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

SUITE = '''
import pytest
from django.contrib.auth.models import User
from django.test import TestCase


@pytest.fixture
def member(db):
    return User.objects.create(username="member")


def test_pure():
    assert 1 + 1 == 2


def test_client_without_database(client):
    assert client is not None


@pytest.mark.django_db
def test_marked():
    assert User.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_marked_transaction():
    assert User.objects.count() == 0


def test_db_fixture(db):
    assert User.objects.count() == 0


def test_transactional_db_fixture(transactional_db):
    assert User.objects.count() == 0


def test_through_a_fixture_of_ours(member):
    assert member.pk


def test_admin_client(admin_client):
    assert admin_client


def test_user_model(django_user_model):
    assert django_user_model


def test_live_server(live_server):
    assert live_server.url


@pytest.mark.django_db
class TestMarkedClass:
    def test_in_class(self):
        assert User.objects.count() == 0


class TestDjangoCase(TestCase):
    def test_unittest(self):
        self.assertEqual(User.objects.count(), 0)


def test_unmarked_touches_the_database():
    User.objects.count()


@pytest.mark.fuzz
@pytest.mark.django_db
def test_fuzz_with_the_database():
    assert User.objects.count() == 0
'''

NOWHERE = '''
import pytest


@pytest.mark.fuzz
@pytest.mark.postgres
@pytest.mark.django_db
def test_fuzz_only_on_postgres():
    pass
'''

PURE = '''
def double(n):
    """
    >>> double(2)
    4
    """
    return 2 * n
'''

SELECTED = {
    "test_marked", "test_marked_transaction", "test_db_fixture", "test_transactional_db_fixture",
    "test_through_a_fixture_of_ours", "test_admin_client", "test_user_model", "test_live_server",
    "TestMarkedClass::test_in_class", "TestDjangoCase::test_unittest",
}
NOT_SELECTED = {"test_pure", "test_client_without_database", "test_unmarked_touches_the_database",
                "test_fuzz_with_the_database"}


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\nDJANGO_SETTINGS_MODULE = league.settings\n"
                                         "markers =\n    fuzz: fuzz\n    postgres: postgres\n")
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["tests.dbonly"]\n')
    (tmp_path / "test_suite.py").write_text(SUITE)
    (tmp_path / "pure.py").write_text(PURE)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c",
                           str(tmp_path / "pytest.ini"), "--rootdir", str(tmp_path), "--doctest-modules", *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def _ids(out: str) -> set[str]:
    return {line.split("::", 1)[1] for line in out.splitlines() if "::" in line}


def test_db_only_selects_every_way_a_test_gets_the_database_and_nothing_else(tmp_path: Path) -> None:
    db_only = _pytest(tmp_path, "--collect-only", "--db-only")
    assert db_only.returncode == 0, db_only.stdout + db_only.stderr
    assert _ids(db_only.stdout) == SELECTED
    # Of the 15 collected (the doctest too), the other 5 are deselected: the
    # fuzz test among them, though it uses the database.
    assert f"{len(SELECTED)}/{len(SELECTED | NOT_SELECTED) + 1} tests collected" in db_only.stdout


def test_a_test_that_touches_the_database_without_asking_fails(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "-k", "unmarked or pure")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Database access not allowed" in run.stdout
    assert "1 failed, 2 passed" in run.stdout  # test_pure and the doctest pass


def test_a_fuzz_test_only_postgres_would_run_is_refused(tmp_path: Path) -> None:
    (tmp_path / "test_nowhere.py").write_text(NOWHERE)
    run = _pytest(tmp_path, "--collect-only", "--db-only")
    assert run.returncode != 0, run.stdout + run.stderr
    assert "marked both fuzz and postgres" in run.stdout + run.stderr
    assert "test_nowhere.py::test_fuzz_only_on_postgres" in run.stdout + run.stderr
