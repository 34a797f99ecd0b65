"""Statements built from a model's names (``league.statements``): built
once per database alias, each with the quoting of the connection it runs on;
the rows every save inserts (``insert``) and the row it locks (``lock_game``)
are the ORM's."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, connections, transaction
from django.db.backends.dummy.base import DatabaseWrapper as Unknown
from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQL
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLite
from django.test.utils import CaptureQueriesContext, override_settings

from league import statements
from league.models import Game, GameAudit, Hand, SaveKey, Seat, Series, Win
from league.services.audit import new_game_audit
from league.services.replay import lock_game, lock_game_moving
from league.statements import (
    Columns,
    Names,
    fetch_one,
    for_read,
    for_write,
    insert,
    returns_rows_from_update,
    statement,
    writes_in_with,
)
from scoring import game as sg
from tests.factories import draw, hanchan_passing_deal, make_game, make_scorer, play, ron


def _wrapper(cls: type, alias: str) -> object:
    # A backend's wrapper quotes without connecting: nothing here touches a database.
    return cls({"NAME": "x", "USER": "", "PASSWORD": "", "HOST": "", "PORT": "", "OPTIONS": {},
                "TIME_ZONE": None, "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": False, "AUTOCOMMIT": True,
                "ATOMIC_REQUESTS": False, "TEST": {}, "ENGINE": ""}, alias=alias)


class _Quoted:
    """The connection's own quoting, told apart from every other's."""

    def __init__(self, alias: str, mark: str) -> None:
        self.alias, self.mark = alias, mark

        class Ops:
            @staticmethod
            def quote_name(name: str) -> str:
                return f"{mark}{name}{mark}"

        self.ops = Ops()


def test_a_statement_is_built_once_per_alias() -> None:
    built: list[str] = []

    @statement
    def bump(n: Names) -> str:
        built.append(n.db.alias)
        return f"UPDATE {n.table(Series)} SET {n.col(Series, 'version')} = 0 WHERE {n.col(Series, 'pk')} = %s"

    one, other = _wrapper(SQLite, "one"), _wrapper(PostgreSQL, "other")
    assert bump(one) == bump(one) == 'UPDATE "league_series" SET "version" = 0 WHERE "id" = %s'
    assert bump(other) == 'UPDATE "league_series" SET "version" = 0 WHERE "id" = %s'
    assert built == ["one", "other"]


def test_a_statement_quotes_with_the_connection_it_runs_on() -> None:
    @statement
    def find(n: Names) -> str:
        return f"SELECT {', '.join(n.cols(SaveKey, 'pk', 'game', 'key'))} FROM {n.table(SaveKey)}"

    assert find(_Quoted("a", "`")) == "SELECT `id`, `game_id`, `key` FROM `league_savekey`"
    assert find(_Quoted("b", '"')) == 'SELECT "id", "game_id", "key" FROM "league_savekey"'
    # Each alias keeps its own: the first is not handed to the second.
    assert find(_Quoted("a", "!")) == "SELECT `id`, `game_id`, `key` FROM `league_savekey`"


def test_the_connections_are_the_routers() -> None:
    assert for_read(GameAudit) is connections["default"]
    assert for_write(SaveKey) is connections["default"]


# -- the rows every save writes and reads through statements ----------------------------------

# Columns each insert sets itself (keys; the time of the insert).
MADE = {"id", "entered_at", "updated_at", "at"}


def _row(obj: object) -> dict:
    """The row as stored, read back through the ORM, less what each insert makes."""
    fresh = type(obj).objects.get(pk=obj.pk)
    return {f.attname: getattr(fresh, f.attname) for f in fresh._meta.concrete_fields if f.attname not in MADE}


@pytest.mark.django_db
def test_insert_writes_the_rows_the_orm_writes() -> None:
    """A hand with two wins (JSON columns, nulls, a key) and its audit entry:
    the same rows as ``save()`` and ``bulk_create`` write, each given its key
    and its ``auto_now_add`` time, and a duplicate refused by the constraint."""
    game = make_game()
    user = make_scorer(game.series, username="inserter")
    hand = sg.HandInput(outcome=sg.Ron(loser=2, wins=(sg.Win(winner=0, han=3, fu=40), sg.Win(winner=3, han=13))),
                        riichi=(0, 2), yaku={"0": ["riichi"]}, note="double ron, %s and 'quotes'")
    rows = []
    for number, way in ((1, "orm"), (2, "statement")):
        row = Hand(game=game, number=number, entered_by=user, result={"deltas": [1, -1, 0, 0]})
        wins = row.set_input(hand)
        if way == "orm":
            row.save()
        else:
            insert([row])
        for w in wins:
            w.hand = row
        Win.objects.bulk_create(wins) if way == "orm" else insert(wins)
        assert row.pk is not None and not row._state.adding and row.entered_at is not None
        assert all(w.pk is not None for w in wins)
        rows.append((row, wins))
    (orm, orm_wins), (mine, my_wins) = rows
    assert {**_row(orm), "number": 2} == _row(mine)
    assert [{**_row(w), "hand_id": mine.pk} for w in orm_wins] == [_row(w) for w in my_wins]
    assert [w.pk for w in my_wins] == list(mine.wins.order_by("pk").values_list("pk", flat=True))
    entries = [new_game_audit(game, "record_hand", user, hand_number=n, after={"hand": n, "x": [1, None]})
               for n in (1, 2)]
    entries[0].save()
    insert([entries[1]])
    assert {**_row(entries[0]), "hand_number": 2, "after": {"hand": 2, "x": [1, None]}} == _row(entries[1])
    assert entries[1].at is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        insert([Hand(game=game, number=2, outcome="draw")])
    assert game.hands.count() == 2
    insert([])  # nothing to insert: no statement


@pytest.mark.django_db(transaction=True)
def test_the_lock_reads_the_row_the_orm_reads() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30), draw(0)])
    with transaction.atomic():
        locked = lock_game(game)
        orm = Game.objects.select_for_update().get(pk=game.pk)
        assert {f.attname: getattr(locked, f.attname) for f in Game._meta.concrete_fields} == {
            f.attname: getattr(orm, f.attname) for f in Game._meta.concrete_fields}
        assert not locked._state.adding
        with pytest.raises(Game.DoesNotExist):
            lock_game(Game(pk=game.pk + 1000))


@pytest.mark.django_db(transaction=True)
def test_the_lock_that_moves_the_version_reads_the_moved_row() -> None:
    """A new hand's lock moves the inputs' version in the same statement: the
    row the ORM reads after it, the version one on; a refusal after it (the
    transaction rolled back) leaves the version where it was."""
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    before = Game.objects.get(pk=game.pk).inputs_version
    with transaction.atomic():
        moved = lock_game_moving(game)
        orm = Game.objects.get(pk=game.pk)
        assert {f.attname: getattr(moved, f.attname) for f in Game._meta.concrete_fields} == {
            f.attname: getattr(orm, f.attname) for f in Game._meta.concrete_fields}
        assert moved.inputs_version == before + 1
    with pytest.raises(RuntimeError), transaction.atomic():
        lock_game_moving(game)
        raise RuntimeError("refused")
    assert Game.objects.get(pk=game.pk).inputs_version == before + 1
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        lock_game_moving(Game(pk=game.pk + 1000))


def test_update_returning_is_known_per_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """Django 5.2 names no feature for ``UPDATE ... RETURNING``; its insert's
    (``can_return_columns_from_insert``) is true of MariaDB, which returns no
    rows from an update. PostgreSQL always, SQLite from 3.35.0, else never."""
    sqlite = _wrapper(SQLite, "sqlite")
    assert returns_rows_from_update(_wrapper(PostgreSQL, "pg")) is True
    assert returns_rows_from_update(sqlite) is (sqlite.Database.sqlite_version_info >= (3, 35))
    assert returns_rows_from_update(_wrapper(Unknown, "unknown")) is False
    monkeypatch.setattr(sqlite.Database, "sqlite_version_info", (3, 34, 1))
    assert returns_rows_from_update(sqlite) is False
    monkeypatch.setattr(sqlite.Database, "sqlite_version_info", (3, 35, 0))
    assert returns_rows_from_update(sqlite) is True


def test_data_modifying_statements_in_with_are_known_per_database() -> None:
    """PostgreSQL runs an ``INSERT`` or ``UPDATE`` as a ``WITH``'s part; SQLite's
    ``WITH`` takes a ``SELECT`` only, and nothing else is assumed to."""
    assert writes_in_with(_wrapper(PostgreSQL, "pg")) is True
    assert writes_in_with(_wrapper(SQLite, "sqlite")) is False
    assert writes_in_with(_wrapper(Unknown, "unknown")) is False


def _moved_with_statements(game: Game) -> tuple[Game, Game, list[str]]:
    with transaction.atomic(), CaptureQueriesContext(connection) as ran:
        moved = lock_game_moving(game)
    # SQLite logs its BEGIN IMMEDIATE (and COMMIT); PostgreSQL's are implicit.
    ran_here = [q["sql"] for q in ran.captured_queries if q["sql"].split()[0] not in ("BEGIN", "COMMIT")]
    return moved, Game.objects.get(pk=game.pk), ran_here


def _columns(game: Game) -> dict[str, object]:
    return {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_lock_that_moves_the_version_is_one_statement_on_both_databases() -> None:
    # On this project's databases (PostgreSQL; SQLite 3.35 or later, as every
    # supported Python ships) the move, the lock and the row are one UPDATE ... RETURNING.
    assert returns_rows_from_update(connection), f"{connection.vendor} returns no rows from an update here"
    game = make_game()
    before = Game.objects.get(pk=game.pk).inputs_version
    moved, orm, statements = _moved_with_statements(game)
    assert [sql.split()[0] for sql in statements] == ["UPDATE"] and " RETURNING " in statements[0]
    assert _columns(moved) == _columns(orm) and moved.inputs_version == before + 1
    assert not moved.in_round and moved.in_round is not None  # read: not a table of a round (SQLite says 0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("sqlite" not in settings.DATABASES["default"]["ENGINE"], reason="an older SQLite, told as such")
def test_the_lock_that_moves_the_version_without_update_returning(monkeypatch: pytest.MonkeyPatch) -> None:
    # What SQLite before 3.35 gets: the lock, then the move, two statements, the same row.
    monkeypatch.setattr(connection.Database, "sqlite_version_info", (3, 34, 1))
    game = make_game()
    before = Game.objects.get(pk=game.pk).inputs_version
    moved, orm, statements = _moved_with_statements(game)
    assert [sql.split()[0] for sql in statements] == ["SELECT", "UPDATE"]
    assert not any(" RETURNING " in sql for sql in statements)
    assert _columns(moved) == _columns(orm) and moved.inputs_version == before + 1
    assert moved.in_round is None  # not read: the clock asks


def _game_sql(db: object) -> tuple[str, Columns]:
    cols = Columns(db, Game, "g")
    q = db.ops.quote_name  # type: ignore[attr-defined]
    return f"SELECT {cols.sql} FROM {q(Game._meta.db_table)} g WHERE g.{q(Game._meta.pk.column)} = %s", cols


@pytest.mark.django_db
def test_a_row_built_from_columns_is_the_orms() -> None:
    # Only the columns with converters are converted (the JSON ones): the rest as read.
    game = make_game()
    Game.objects.filter(pk=game.pk).update(final_scores=[25000, 25000, 25000, 25000], variant=["old_uma"])
    sql, cols = _game_sql(connection)
    row = fetch_one(connection, sql, [game.pk])
    assert row is not None
    assert _columns(cols.build(connection, row)) == _columns(Game.objects.get(pk=game.pk))
    with pytest.raises(ValueError, match="columns of Game expected"):
        cols.build(connection, row[:-1])  # never a shifted row silently


@pytest.mark.django_db
def test_a_statement_run_by_fetch_one_is_counted_and_fails_as_djangos() -> None:
    game = make_game()
    sql, _cols = _game_sql(connection)
    with CaptureQueriesContext(connection) as seen:
        assert fetch_one(connection, sql, [game.pk])[0] == game.pk  # type: ignore[index]
        assert fetch_one(connection, sql, [game.pk + 1000]) is None
    assert len(seen) == 2
    with pytest.raises(DatabaseError), transaction.atomic():
        fetch_one(connection, "SELECT no_such_column FROM league_game", [])
    assert fetch_one(connection, sql, [game.pk])[0] == game.pk  # type: ignore[index]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"], reason="PostgreSQL's cursors")
def test_fetch_one_holds_one_cursor_per_connection_on_postgresql() -> None:
    # The held cursor keeps psycopg's loaders between statements; a new
    # connection (closed, CONN_MAX_AGE, a failed health check) gets a new one.
    game = make_game()
    sql, _cols = _game_sql(connection)
    fetch_one(connection, sql, [game.pk])
    first = getattr(connection, statements.HELD_CURSOR)[1]
    fetch_one(connection, sql, [game.pk])
    assert getattr(connection, statements.HELD_CURSOR)[1] is first
    connection.close()
    assert fetch_one(connection, sql, [game.pk])[0] == game.pk  # type: ignore[index]
    assert getattr(connection, statements.HELD_CURSOR)[1] is not first
    assert getattr(connection, statements.HELD_CURSOR)[0] is connection.connection
    # Bound on the server (psycopg's Cursor, not Django's ClientCursor); prepared
    # once run as often as the settings say (test_fetch_ones_statements_are_prepared...).
    import psycopg

    held = getattr(connection, statements.HELD_CURSOR)[1]
    assert type(held) is psycopg.Cursor
    assert connection.connection.prepare_threshold == settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    # What it reads is what the ORM reads, timestamps with their time zone too.
    sql, cols = _game_sql(connection)
    assert _columns(cols.build(connection, fetch_one(connection, sql, [game.pk]))) == _columns(
        Game.objects.get(pk=game.pk))


@pytest.mark.django_db
@pytest.mark.skipif("sqlite" not in settings.DATABASES["default"]["ENGINE"], reason="SQLite's cursors")
def test_fetch_one_holds_no_cursor_on_sqlite() -> None:
    # A SQLite statement not stepped to its end keeps its read open: closed at once.
    game = make_game()
    sql, _cols = _game_sql(connection)
    fetch_one(connection, sql, [game.pk])
    assert getattr(connection, statements.HELD_CURSOR, None) is None


def _timestamps(values: dict[str, Any]) -> dict[str, Any]:
    return {k: (v, v.tzinfo) for k, v in values.items() if hasattr(v, "tzinfo")}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"], reason="PostgreSQL's cursors")
def test_fetch_one_reads_timestamps_as_the_orm_on_postgresql() -> None:
    # psycopg's own loader when the connection's zone is Django's (the same
    # datetimes, the same tzinfo object); Django's when they differ, so the held
    # cursor still reads what the ORM reads on that connection.
    game = make_game()
    Game.objects.filter(pk=game.pk).update(finished_at=game.started_at)
    sql, cols = _game_sql(connection)
    connection.close()
    read = _columns(cols.build(connection, fetch_one(connection, sql, [game.pk])))
    assert _timestamps(read) == _timestamps(_columns(Game.objects.get(pk=game.pk)))
    assert {tz for _v, tz in _timestamps(read).values()} == {connection.timezone}
    connection.close()
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SET TIME ZONE 'Asia/Tokyo'")
    read = _columns(cols.build(connection, fetch_one(connection, sql, [game.pk])))
    assert _timestamps(read) == _timestamps(_columns(Game.objects.get(pk=game.pk)))
    connection.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"], reason="PostgreSQL's cursors")
def test_fetch_ones_statements_are_prepared_and_djangos_queries_never() -> None:
    # The settings' threshold (DATABASE_PREPARE_THRESHOLD, 5 by default): the held
    # cursor's statement is prepared on the server once run that many times on a
    # connection; Django's own queries (its ClientCursor) are never prepared.
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    assert threshold == 5
    game = make_game()
    connection.close()  # a new connection: nothing prepared on it yet
    sql, _cols = _game_sql(connection)

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return [row[0] for row in cursor.fetchall()]

    for _ in range(threshold - 1):
        assert fetch_one(connection, sql, [game.pk])[0] == game.pk  # type: ignore[index]
        Game.objects.get(pk=game.pk)
    assert prepared() == []
    for _ in range(3):
        assert fetch_one(connection, sql, [game.pk])[0] == game.pk  # type: ignore[index]
        Game.objects.get(pk=game.pk)
    assert [p.replace("$1", "%s") for p in prepared()] == [sql]



@pytest.mark.parametrize(("value", "expected"), [(None, 5), ("none", None), ("", None), ("3", 3)])
def test_the_prepare_threshold_is_the_settings(value: str | None, expected: int | None) -> None:
    # "none": nothing prepared, Django's default, behind a transaction pooler that
    # does not keep prepared statements (docs/deploy.md).
    from tests.league.test_production import run_django

    env = {"DATABASE_URL": "postgres://nobody@127.0.0.1:9/tenbou"}
    if value is not None:
        env["DATABASE_PREPARE_THRESHOLD"] = value
    out = run_django("from django.conf import settings\n"
                     "print(settings.DATABASES['default']['OPTIONS']['prepare_threshold'])", **env)
    assert out.stdout.strip() == str(expected), out.stderr


class _AskedForSeats:
    """A router that routes as the default does and counts the connections
    asked for to write the seats."""

    def __init__(self) -> None:
        self.asked = 0

    def db_for_write(self, model: type, **hints: object) -> None:
        self.asked += model is Seat
        return None


@pytest.mark.django_db
def test_every_write_of_the_seats_asks_the_router() -> None:
    """A game finished (the seats' result snapshot) and a hand saved (their
    statistics): every statement that writes the seats runs on the
    connection the router gives for them (``for_write``), as every other
    statement does; a statement on the default connection would not ask."""
    game = make_game()
    play(game, hanchan_passing_deal()[:-1])
    asked = _AskedForSeats()
    table = f'"{Seat._meta.db_table}"'
    with override_settings(DATABASE_ROUTERS=[asked]), CaptureQueriesContext(connection) as queries:
        play(game, hanchan_passing_deal()[-1:])  # the last hand: the game ends, its snapshot is written
    assert Game.objects.get(pk=game.pk).is_finished
    writes = [q["sql"] for q in queries.captured_queries if f"UPDATE {table}" in q["sql"]]  # executemany: "4 times: UPDATE"
    assert len(writes) >= 2 and asked.asked >= len(writes)
