"""Consistent copies of the database while scorers keep saving, and putting one back.

SQLite: the online backup API copies the live database page by page inside one
read transaction, so the copy is the database as it stood at one instant (in
WAL mode writers go on meanwhile); the copy is then checked with
``PRAGMA integrity_check``. PostgreSQL: ``pg_dump`` takes the same kind of
snapshot (one repeatable-read transaction) into its custom format, and
``pg_restore`` puts it back.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.db import DatabaseError, connection


class BackupError(Exception):
    """A backup or restore refused or failed; what is on disk is unchanged."""


def backup(out: Path, *, replace: bool = False) -> str:
    """Write a consistent copy of the default database to ``out``; returns its kind."""
    if out.exists() and not replace:
        raise BackupError(f"{out} exists; choose a new file or pass --replace")
    if connection.vendor == "sqlite":
        _sqlite_backup(out)
        return "sqlite"
    if connection.vendor == "postgresql":
        _run([_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(out)], connection.settings_dict)
        return "postgresql"
    raise BackupError(f"no backup for a {connection.vendor} database")


def restore(source: Path, *, replace: bool = False) -> None:
    """Put a backup made by :func:`backup` into the default database.

    Refused when the database already holds games, unless ``replace``: a
    restore over live data is never an accident.
    """
    if not source.is_file():
        raise BackupError(f"{source} is not a file")
    if not replace and _has_games():
        raise BackupError("the database already holds games; restore into a fresh database or pass --replace")
    if connection.vendor == "sqlite":
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            _check(src, str(source))
            connection.ensure_connection()
            src.backup(connection.connection)
        finally:
            src.close()
        return
    if connection.vendor == "postgresql":
        connection.close()  # pg_restore --clean drops tables this connection may hold open
        _run([_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction",
              "--dbname", connection.settings_dict["NAME"], str(source)], connection.settings_dict)
        return
    raise BackupError(f"no restore for a {connection.vendor} database")


def _sqlite_backup(out: Path) -> None:
    connection.ensure_connection()
    tmp = out.with_name(out.name + ".partial")
    tmp.unlink(missing_ok=True)
    dst = sqlite3.connect(tmp)
    try:
        # pages=-1: the whole database in one step, under one read lock, so
        # the copy cannot mix pages from before and after a scorer's save.
        connection.connection.backup(dst, pages=-1)
        _check(dst, str(out))
    finally:
        dst.close()
    os.replace(tmp, out)  # a failed backup never leaves a file that looks whole


def _check(db: sqlite3.Connection, name: str) -> None:
    try:
        result = db.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{name} is not a SQLite database: {err}") from None
    if result != "ok":
        raise BackupError(f"{name} fails SQLite's integrity check: {result}")


def _has_games() -> bool:
    from league.models import Game

    try:
        return Game.objects.exists()
    except DatabaseError:  # no tables yet: a fresh database
        return False


def _tool(name: str) -> str:
    found = os.environ.get(name.upper().replace("_", "")) or shutil.which(name)
    if not found:
        raise BackupError(f"{name} is not installed (Debian: postgresql-client); it is needed for PostgreSQL")
    return found


def _run(cmd: list[str], db: dict[str, Any]) -> None:
    env = {**os.environ, "PGHOST": str(db.get("HOST") or ""), "PGPORT": str(db.get("PORT") or ""),
           "PGUSER": str(db.get("USER") or ""), "PGDATABASE": str(db.get("NAME") or "")}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    done = subprocess.run(cmd, env={k: v for k, v in env.items() if v}, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{Path(cmd[0]).name} failed: {done.stderr.strip()}")
