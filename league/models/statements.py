"""Statements built once from a model's own table and column names, cached
per database alias (issue 28).

On this project's small queries Django's building of a query costs several
times its running, so the few statements every save or staff request runs
are written out once and run with parameters. ``@statement`` makes a builder
of SQL into a lookup by connection: the builder is given a ``Names`` for that
connection (its own quoting) and runs once per alias; a statement is always
run on the connection it was built for.

    @statement
    def _bump(n: Names) -> str:
        version, pk = n.col(Series, "version"), n.col(Series, "id")
        return f"UPDATE {n.table(Series)} SET {version} = {version} + 1 WHERE {pk} = %s"

    db = for_write(Series)
    with db.cursor() as cursor:
        cursor.execute(_bump(db), [series_id])

A statement holds names, never values: every value is a parameter.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper

SQL = TypeVar("SQL")


class Names:
    """A model's table and column names, quoted for one connection."""

    def __init__(self, db: BaseDatabaseWrapper) -> None:
        self.db = db
        self.q: Callable[[str], str] = db.ops.quote_name

    def table(self, model: type[models.Model]) -> str:
        return self.q(model._meta.db_table)

    def col(self, model: type[models.Model], field: str) -> str:
        """The column of ``field`` (a name as the model spells it; ``pk`` too)."""
        meta = model._meta
        return self.q((meta.pk if field == "pk" else meta.get_field(field)).column)

    def cols(self, model: type[models.Model], *fields: str) -> list[str]:
        return [self.col(model, f) for f in fields]


class Statement(Generic[SQL]):
    """A builder's SQL, built at most once per database alias."""

    def __init__(self, build: Callable[[Names], SQL]) -> None:
        self.build = build
        self.built: dict[str, SQL] = {}
        functools.update_wrapper(self, build)

    def __call__(self, db: BaseDatabaseWrapper) -> SQL:
        try:
            return self.built[db.alias]
        except KeyError:
            sql = self.built[db.alias] = self.build(Names(db))
            return sql


def statement(build: Callable[[Names], SQL]) -> Statement[SQL]:
    """Decorate a builder of SQL from ``Names``: see the module's docstring."""
    return Statement(build)


def for_read(model: type[models.Model], **hints: Any) -> BaseDatabaseWrapper:
    """The connection the router reads ``model`` from."""
    return connections[router.db_for_read(model, **hints)]


def for_write(model: type[models.Model], **hints: Any) -> BaseDatabaseWrapper:
    """The connection the router writes ``model`` to."""
    return connections[router.db_for_write(model, **hints)]
