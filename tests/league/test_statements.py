"""Statements built from a model's names (``league.models.statements``): built
once per database alias, each with the quoting of the connection it runs on."""

from __future__ import annotations

from django.db import connections
from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQL
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLite

from league.models import GameAudit, SaveKey, Series
from league.models.statements import Names, for_read, for_write, statement


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
