"""``--db-only``: keep the tests that use the database, deselect the rest.

The PostgreSQL pass runs with it (.ci/run): every test that touches the
database runs again on PostgreSQL, and the pure tests and doctests run once,
in the SQLite pass. The selection is complete because pytest-django refuses
the database to any test that did not ask for it ("Database access not
allowed"), and a test asks in one of the ways ``uses_database`` reads: the
``django_db`` marker, a fixture that needs ``_django_db_helper`` (``db``,
``transactional_db``, ``admin_client``, ``django_user_model``, ...),
``live_server``, or a Django ``TransactionTestCase``. A new database test
cannot escape the pass: it fails in the SQLite pass unless it asks, and once
it asks it is selected (tests/test_dbonly.py proves both).

The one exception is a test marked ``fuzz`` (property tests over random or
damaged input): the project brief runs browser and fuzz tests in one pass
only, so ``--db-only`` leaves them to the SQLite pass. The database test that
is not selected is therefore exactly the one marked ``fuzz``; a fuzz test that
could only run on PostgreSQL (marked ``postgres`` too) would run nowhere, and
is refused.
"""

from __future__ import annotations

import pytest

# Fixtures through which a test gets the database (pytest-django 4.x):
# every public database fixture depends on _django_db_helper, and
# live_server asks for transactional_db from an autouse helper.
DATABASE_FIXTURES = frozenset({"_django_db_helper", "live_server"})


def uses_database(item: pytest.Item) -> bool:
    """Whether pytest-django lets ``item`` touch the database."""
    if item.get_closest_marker("django_db") is not None:
        return True
    if DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    cls = getattr(item, "cls", None)
    if cls is not None:
        from django.test import TransactionTestCase

        return issubclass(cls, TransactionTestCase)
    return False


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--db-only", action="store_true", default=False,
                     help="run only the tests that use the database, but the fuzz tests (the PostgreSQL pass)")


def is_fuzz(item: pytest.Item) -> bool:
    """Whether ``item`` is a fuzz test (the SQLite pass runs it, alone)."""
    return item.get_closest_marker("fuzz") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    nowhere = [item.nodeid for item in items if is_fuzz(item) and item.get_closest_marker("postgres") is not None]
    if nowhere:
        raise pytest.UsageError("marked both fuzz and postgres, so no pass would run them "
                                f"(the PostgreSQL pass leaves fuzz tests out): {', '.join(nowhere)}")
    if not config.getoption("db_only"):
        return
    keep, drop = [], []
    for item in items:
        (keep if uses_database(item) and not is_fuzz(item) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
