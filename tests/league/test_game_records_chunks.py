"""A large import writes in short transactions of whole games, after checking
every line, so the site goes on during it; a write that fails midway leaves the
games before it, each whole, and says where to resume."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection

from league import game_records
from league.models import Game, GameAudit, Hand, Series
from tests.league.test_game_records import counts, hands_json, import_text, line

pytestmark = pytest.mark.django_db


def five_games(boom_at: int | None = None) -> str:
    return "".join(line(round=1, table="boom" if i == boom_at else str(i), hands=hands_json()) for i in range(1, 6))


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_records, "CHUNK_GAMES", 2)
    # Chunks by count only: on a loaded machine two games can take longer than
    # CHUNK_SECONDS, and a fourth chunk failed the count of transactions below.
    monkeypatch.setattr(game_records, "CHUNK_SECONDS", 3600.0)


@pytest.fixture
def failing_table() -> None:
    """The database itself refuses a game at table 'boom', as a full disk or a
    lost connection would refuse a write: a trigger, no code of ours replaced."""
    with connection.cursor() as c:
        if connection.vendor == "sqlite":
            c.execute("CREATE TRIGGER boom BEFORE INSERT ON league_game WHEN NEW.\"table\" = 'boom' "
                      "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END")
        else:
            c.execute("CREATE FUNCTION boom() RETURNS trigger AS $$ BEGIN IF NEW.\"table\" = 'boom' THEN "
                      "RAISE EXCEPTION 'the disk is full'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql")
            c.execute("CREATE TRIGGER boom BEFORE INSERT ON league_game FOR EACH ROW EXECUTE FUNCTION boom()")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's BEGIN IMMEDIATE is visible as a statement; "
                    "PostgreSQL begins implicitly (and never blocks readers, which is what the chunks are for)")
def test_a_file_is_written_in_short_transactions_of_whole_games(tmp_path: Path, small_chunks: None) -> None:
    begun: list[str] = []

    def watch(execute, sql, params, many, context):  # noqa: ANN001
        if sql.startswith("BEGIN"):
            begun.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        out = import_text(tmp_path, five_games())
    assert "5 games" in out
    # Chunks of at most two games: three write transactions, each holding SQLite's lock briefly.
    assert begun == ["BEGIN IMMEDIATE"] * 3
    assert Game.objects.filter(series__slug="copy").count() == 5
    assert Hand.objects.filter(game__series__slug="copy").count() == 40


def test_a_write_that_fails_midway_keeps_the_whole_games_before_it(
        tmp_path: Path, small_chunks: None, failing_table: None) -> None:
    with pytest.raises(game_records.ImportRefused) as refused:
        game_records.import_lines(five_games(boom_at=4).splitlines(), slug="copy")
    errors = refused.value.errors
    assert [(e.line, e.code) for e in errors] == [(4, "database_error"), (3, "partly_imported")]
    assert "the disk is full" in errors[0].message
    assert "the 2 game(s) before line 3 were imported" in errors[1].message
    # Chunks of two: games 1-2 were committed; the chunk of games 3-4 rolled back whole.
    games = Game.objects.filter(series__slug="copy").order_by("table")
    assert [g.table for g in games] == ["1", "2"]
    assert all(g.status == Game.Status.FINISHED and g.hands.count() == 8 for g in games)
    assert GameAudit.objects.filter(game__table="3").count() == 0


def test_a_bad_line_anywhere_writes_nothing_even_in_a_large_file(tmp_path: Path, small_chunks: None) -> None:
    before = counts()
    text = five_games() + line(hands=[*hands_json(), {"outcome": {"type": "draw", "tenpai": [9]}}])
    with pytest.raises(game_records.ImportRefused) as refused:
        game_records.import_lines(text.splitlines(), slug="copy")
    assert [e.line for e in refused.value.errors] == [6]
    assert counts() == before
    assert not Series.objects.filter(slug="copy").exists()
