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

Whole rows read this way (``Columns``: a model's concrete columns under a
table alias, and the instance the ORM would build from them, through the
ORM compiler's own converters) are built once per connection (``built``):
the converters are bound to the connection's own operations.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
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

    def row(self, model: type[models.Model]) -> str:
        """Every concrete column of ``model``, in the order ``Model.objects.raw``
        builds the instance from (a whole row read or returned)."""
        return ", ".join(self.q(f.column) for f in model._meta.concrete_fields)


class Statement(Generic[SQL]):
    """A builder's SQL, built at most once per database alias (and per the
    further arguments a builder takes, such as a model: hashable values that
    name what is built, never a value the statement runs with)."""

    def __init__(self, build: Callable[..., SQL]) -> None:
        self.build = build
        self.built: dict[tuple[Any, ...], SQL] = {}
        functools.update_wrapper(self, build)

    def __call__(self, db: BaseDatabaseWrapper, *names: Any) -> SQL:
        key = (db.alias, *names)
        try:
            return self.built[key]
        except KeyError:
            sql = self.built[key] = self.build(Names(db), *names)
            return sql


def statement(build: Callable[..., SQL]) -> Statement[SQL]:
    """Decorate a builder of SQL from ``Names``: see the module's docstring."""
    return Statement(build)


def returns_rows_from_update(db: BaseDatabaseWrapper) -> bool:
    """Whether ``UPDATE ... RETURNING`` gives rows back on ``db``. Django 5.2
    names no feature for it: ``can_return_columns_from_insert`` is about
    inserts (MariaDB returns rows from an insert and a delete, not from an
    update; Oracle's ``RETURNING ... INTO`` fills variables, no rows).
    PostgreSQL has it since 8.2; SQLite since 3.35.0, whose RETURNING came to
    INSERT, UPDATE and DELETE at once (the version Django's own insert test
    reads). Anything else: no."""
    if db.vendor == "postgresql":
        return True
    if db.vendor == "sqlite":
        return db.Database.sqlite_version_info >= (3, 35)
    return False


def writes_in_with(db: BaseDatabaseWrapper) -> bool:
    """Whether ``db`` runs data-modifying statements in ``WITH`` (an
    ``INSERT``, ``UPDATE`` or ``DELETE`` as a common table expression, with
    ``RETURNING`` read by the others), so that several writes decided
    beforehand go as one statement. PostgreSQL has it since 9.1; SQLite's
    ``WITH`` takes a ``SELECT`` only, as MySQL's and MariaDB's do. Django
    names no feature for it."""
    return db.vendor == "postgresql"


def int_array(values: Sequence[int | None]) -> str:
    """Whole numbers (None: NULL) as PostgreSQL's text form of an array,
    ``{1,NULL,3}``, bound as text and cast by the statement
    (``%s::integer[]``): psycopg's dumper of a Python list, which looks up
    a dumper per element, cost several times the statement's other
    parameters together (a new hand's wins and seats, ``save_new_hand``).
    Only integers: anything else is refused, never written into the text."""
    return "{" + ",".join("NULL" if v is None else str(int(v)) if type(v) is int else _not_int(v) for v in values) + "}"


def _not_int(value: Any) -> str:
    raise TypeError(f"an array of integers holds no {type(value).__name__}: {value!r}")


def for_read(model: type[models.Model], **hints: Any) -> BaseDatabaseWrapper:
    """The connection the router reads ``model`` from."""
    return connections[router.db_for_read(model, **hints)]


def for_write(model: type[models.Model], **hints: Any) -> BaseDatabaseWrapper:
    """The connection the router writes ``model`` to."""
    return connections[router.db_for_write(model, **hints)]


def fits(field: models.Field[Any, Any], value: Any, db: BaseDatabaseWrapper) -> bool:
    """Whether an integer ``value`` fits ``field``'s column on ``db``. The
    ORM's lookups find nothing for a value out of the column's range (Django
    5.0 on); a statement's parameter out of range raises instead (SQLite's
    ``OverflowError``, PostgreSQL's ``DataError``), so a number from a URL
    (``<int:pk>`` takes any length) is checked before it is run."""
    low, high = db.ops.integer_field_range(field.get_internal_type())
    return (low is None or value >= low) and (high is None or value <= high)


def inserted(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The columns an insert writes: every concrete field but a database-made key."""
    return [f for f in model._meta.concrete_fields if not (f.primary_key and f.db_returning)]


def insert_values(obj: models.Model, fields: Sequence[models.Field[Any, Any]], db: BaseDatabaseWrapper) -> list[Any]:
    """``obj``'s values for an insert of ``fields``, as ``bulk_create`` takes
    them: each field's ``pre_save`` for an insert (``auto_now_add`` is set),
    prepared for ``db`` (``get_db_prep_save``: a JSON column adapted as the
    ORM adapts it, a datetime as the backend takes it)."""
    return [f.get_db_prep_save(f.pre_save(obj, True), db) for f in fields]


def inserted_as(obj: models.Model, key: Any, db: BaseDatabaseWrapper) -> None:
    """``obj`` as the ORM leaves a row it inserted: its key set, no longer adding."""
    obj.pk = key
    obj._state.adding, obj._state.db = False, db.alias


@statement
def _insert_sql(n: Names, model: type[models.Model], rows: int) -> str:
    cols = ", ".join(n.q(f.column) for f in inserted(model))
    one = "(" + ", ".join(["%s"] * len(inserted(model))) + ")"
    returning = f" RETURNING {n.col(model, 'pk')}" if n.db.features.can_return_rows_from_bulk_insert else ""
    return f"INSERT INTO {n.table(model)} ({cols}) VALUES {', '.join([one] * rows)}{returning}"


def insert(objs: Sequence[models.Model]) -> None:
    """Insert new rows of one model, one statement, as ``bulk_create`` would
    (its values: each field's ``pre_save`` for an insert, so ``auto_now_add``
    is set, prepared for the database as the ORM prepares them) and give each
    its key (the order the database returns them in, as ``bulk_create``
    takes it). Sends no signal, as ``bulk_create`` sends none; a constraint's
    ``IntegrityError`` is raised as the ORM's insert raises it. For the few
    rows every save writes (a statement is built per number of rows), where
    the ORM's building of the insert cost several times its run (issue 28)."""
    if not objs:
        return
    model = type(objs[0])
    db = for_write(model)
    if not db.features.can_return_rows_from_bulk_insert and len(objs) > 1:
        for obj in objs:  # no keys back from a multi-row insert (SQLite before 3.35): one row a statement
            insert([obj])
        return
    fields = inserted(model)
    params = [v for obj in objs for v in insert_values(obj, fields, db)]
    with db.cursor() as cursor:
        cursor.execute(_insert_sql(db, model, len(objs)), params)
        keys = [row[0] for row in cursor.fetchall()] if db.features.can_return_rows_from_bulk_insert else [
            db.ops.last_insert_id(cursor, model._meta.db_table, model._meta.pk.column)]
    for obj, key in zip(objs, keys, strict=True):
        inserted_as(obj, key, db)


class Columns:
    """A model's concrete columns in a hand-built ``SELECT`` under a table
    ``alias``, and how to build the instance from their values."""

    def __init__(self, db: Any, model: type[models.Model], alias: str) -> None:
        q = db.ops.quote_name
        meta = model._meta
        fields = meta.concrete_fields
        self.model = model
        self.sql = ", ".join(f"{alias}.{q(f.column)}" for f in fields)
        self.width = len(fields)
        self.names = [f.attname for f in fields]
        # Only the columns with converters are visited per row (on PostgreSQL
        # the JSON ones, of some forty a staff request reads): by position.
        self.converters: list[tuple[int, list[Any], Any]] = []
        for i, f in enumerate(fields):
            col = f.get_col(meta.db_table)
            convs = db.ops.get_db_converters(col) + col.get_db_converters(db)
            if convs:
                self.converters.append((i, convs, col))

    def build(self, db: Any, values: Sequence[Any]) -> Any:
        """The instance, as the ORM builds it from the same row."""
        if len(values) != self.width:
            raise ValueError(f"{self.width} columns of {self.model.__name__} expected, {len(values)} given")
        out = list(values)
        for i, convs, col in self.converters:
            value = out[i]
            for conv in convs:
                value = conv(value, col, db)
            out[i] = value
        return self.model.from_db(db.alias, self.names, out)


def fetch_one(db: BaseDatabaseWrapper, sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """Run a statement built once and return its first row (or None), through
    Django's cursor wrapper (its errors, its debug log: a test's count of
    statements counts it). On PostgreSQL the connection's one held client
    cursor runs it: psycopg builds a cursor's loaders for each column anew on
    its first result (the staff requests' one statement reads some forty
    columns of five types), which cost more client CPU than the statement's
    run (issue 28); a held cursor keeps them. Its results are all on the
    client (no server-side cursor, nothing left open between statements), so
    holding it holds no lock nor snapshot. SQLite's cursor is not held: a
    statement not stepped to its end would keep its read open.

    The held cursor binds its parameters on the server (psycopg's ``Cursor``,
    the extended protocol; Django's default ``ClientCursor`` writes them into
    the text of the statement in Python): 20-30 µs less client CPU on the
    session's statement, measured side by side. Every other query keeps
    Django's binding. A statement run as often as the connection's
    ``prepare_threshold`` (``DATABASE_PREPARE_THRESHOLD``, league/settings.py)
    is prepared on the server by psycopg, so that the server no longer plans
    it on each request; with ``None`` nothing is, for a transaction pooler
    that keeps no prepared statements.
    Once prepared, Django's SQL log (``connection.queries``) shows such a
    statement's text as None: psycopg keeps no query text for a prepared
    run; counts of statements stay right."""
    if db.vendor != "postgresql":
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()  # type: ignore[no-any-return]
    # What ``db.cursor()`` does first: a failed health check closes, then (re)connect.
    db.close_if_health_check_failed()
    db.ensure_connection()
    # On the database wrapper (one per thread and alias; a ``ConnectionProxy``
    # sets it on its wrapper): the connection the cursor belongs to, kept so
    # that a closed one is never mistaken for its successor, and the cursor.
    held = getattr(db, HELD_CURSOR, None)
    if held is None or held[0] is not db.connection:  # a new connection: a new cursor
        with db.wrap_database_errors:
            held = (db.connection, _server_bound_cursor(db))
        setattr(db, HELD_CURSOR, held)
    cursor = db._prepare_cursor(held[1])  # Django's wrapper, as db.cursor() gives it (the debug one when logging)
    cursor.execute(sql, params)
    with db.wrap_database_errors:
        return held[1].fetchone()  # type: ignore[no-any-return]


def _server_bound_cursor(db: BaseDatabaseWrapper) -> Any:
    """A psycopg cursor that binds on the server, with the time zone Django's
    own ``create_cursor`` gives a cursor (its loader for timestamps).

    Django's loader parses each timestamp in Python (psycopg's pure-Python
    loader) and then sets Django's zone on it; the session's statement reads
    five such columns, which cost a quarter of its client CPU (side by side:
    0.100 ms with them, 0.075 with psycopg's own loader, 0.072 without the
    columns). When the connection's zone, which psycopg's loader gives, is
    Django's zone itself (the same object: UTC, as Django sets the session
    up), psycopg's own loader (its C one where installed) gives the very
    datetimes Django's would, and loads this cursor's; otherwise Django's."""
    import psycopg
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format
    from psycopg.types.datetime import get_tzinfo

    cursor = psycopg.Cursor(db.connection)
    if db.timezone != db.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT).timezone:
        register_tzloader(db.timezone, cursor)
    elif get_tzinfo(db.connection.pgconn) is db.timezone:
        cursor.adapters.register_loader("timestamptz", psycopg.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT))
    return cursor


# The attribute of a database wrapper that holds ``fetch_one``'s cursor.
HELD_CURSOR = "_league_held_cursor"


# Per connection (one per thread): the converters are bound to the
# connection's own operations, as the ORM's compiler takes them.
_BUILT: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def built(db: Any, name: str, make: Callable[[Any], Any]) -> Any:
    """``make(db)``, once per connection and ``name``."""
    per_db = _BUILT.get(db)
    if per_db is None:
        per_db = _BUILT[db] = {}
    value = per_db.get(name)
    if value is None:
        value = per_db[name] = make(db)
    return value
