"""The live preview's read of the game held in this process
(``services.entry.read_game_held``, issue 28): a second preview of the same
game finds the first one's read without unpickling it, and any change of the
game's hands or penalties, through any door, in this process or (its
``inputs_version`` moved) in another, makes the next preview read anew what
a fresh read gives."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from league.errors import PriceDiffers
from league.models import Game
from league.services import entry
from tests.factories import make_game, play, ron, tsumo
from tests.league.test_save_reads_once import DOORS, HAND_3, prepared, save_on

pytestmark = pytest.mark.django_db


def _row(game: Game) -> Game:
    """The game's row as a request reads it: with its series
    (``league.access.game_for_scorer``), whose lineup version keys the read."""
    return Game.objects.select_related("series").get(pk=game.pk)


def _read(game: Game) -> tuple[Any, ...]:
    now = entry.read_game(Game.objects.get(pk=game.pk), fresh=True)
    return now.state, now.version, now.record, now.names, [(r.number, r.result) for r in now.rows]


def _held(game: Game) -> entry.GameNow:
    return entry.read_game_held(Game.objects.get(pk=game.pk))


def _parts(now: entry.GameNow) -> tuple[Any, ...]:
    return now.state, now.version, now.record, now.names, [(r.number, r.result) for r in now.rows]


def test_a_second_preview_shares_the_first_ones_read(game: Game) -> None:
    play(game, [ron(1, 0, 2, 30), tsumo(1, 3, 30)])
    first, second = _held(game), _held(game)
    assert second.record is first.record and second.replayed is first.replayed  # held, not unpickled
    assert _parts(second) == _read(game)
    assert second.game is not first.game  # each request's own row


@pytest.mark.parametrize("door", sorted(DOORS))
def test_every_change_of_hands_is_seen_by_the_next_preview(game: Game, door: str) -> None:
    game = prepared(game, door)
    before = _held(game)
    DOORS[door](Game.objects.get(pk=game.pk))
    after = _held(game)
    assert after.record is not before.record
    assert _parts(after) == _read(game)
    assert after.version > before.version


def test_a_change_made_in_another_worker_is_seen_by_its_inputs_version(game: Game) -> None:
    play(game, [ron(1, 0, 2, 30)])
    before = _held(game)
    # What this process sees of a write in another worker whose new stamp it has
    # not read (a per-process cache): the row's version, read with the row.
    Game.objects.filter(pk=game.pk).update(inputs_version=F("inputs_version") + 1)
    after = _held(game)
    assert after.record is not before.record and after.version == before.version + 1


def test_the_held_reads_are_bounded(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entry._HELD, "bound", 2)
    entry._HELD.clear()
    for each in (game, make_game(game.series), make_game(game.series)):
        _held(each)
    assert len(entry._HELD) <= 2


# One rule for both kept reads (``entry.is_current``): the cache's and the process's.
READERS = {"read_game": entry.read_game, "read_game_held": entry.read_game_held}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_read_older_than_the_row_is_read_again(game: Game, reader: str) -> None:
    play(game, [ron(1, 0, 2, 30)])
    entry._HELD.clear()
    before = READERS[reader](_row(game))
    # A write of another worker: only the row says so (a hand moves no key).
    Game.objects.filter(pk=game.pk).update(inputs_version=F("inputs_version") + 1)
    row = _row(game)
    with CaptureQueriesContext(connection) as again:
        after = READERS[reader](row)
    assert len(again.captured_queries) == 4  # hands, wins, penalties, seats: read again
    assert after.version == before.version + 1 == row.inputs_version
    assert entry.is_current(after.version, row) and not entry.is_current(before.version, row)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_read_newer_than_the_row_stands(game: Game, reader: str) -> None:
    # The row was read before another worker's write whose read is kept: its
    # hands are at least the row's, and a save checks again under the lock.
    play(game, [ron(1, 0, 2, 30)])
    entry._HELD.clear()
    older = _row(game)
    Game.objects.filter(pk=game.pk).update(inputs_version=F("inputs_version") + 1)
    newer = READERS[reader](_row(game))
    with CaptureQueriesContext(connection) as again:
        now = READERS[reader](older)
    assert again.captured_queries == []
    assert now.version == newer.version == older.inputs_version + 1


# Real commits: a save hands its read to the held reads only once its commit has run.
@pytest.mark.django_db(transaction=True)
def test_the_next_hands_first_preview_takes_the_saves_read(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    play(game, [ron(1, 0, 2, 30), tsumo(1, 3, 30)])
    entry._HELD.clear()
    saved = save_on(entry.read_game(Game.objects.get(pk=game.pk), fresh=True))
    assert saved.now is not None
    # Neither the cache nor the database is asked: the save's own read, not a copy.
    monkeypatch.setattr(entry.cache, "get", lambda *a, **k: pytest.fail("the cache was asked"))
    monkeypatch.setattr(entry, "_read", lambda *a, **k: pytest.fail("the hands were read"))
    first = _held(game)
    assert first.record is saved.now.record and first.replayed is saved.now.replayed
    monkeypatch.undo()
    assert _parts(first) == _read(game)
    assert first.next_number == 4 and first.version == Game.objects.get(pk=game.pk).inputs_version


@pytest.mark.django_db(transaction=True)
def test_a_refused_save_hands_nothing_on(game: Game) -> None:
    play(game, [ron(1, 0, 2, 30), tsumo(1, 3, 30)])
    now = entry.read_game(Game.objects.get(pk=game.pk), fresh=True)
    entry._HELD.clear()
    play(game, [ron(2, 1, 3, 30)])  # another scorer's hand 3 first
    with pytest.raises(Exception):  # noqa: B017, PT011 (the refusal's kind is test_save_reads_once's)
        save_on(now)
    assert not entry._HELD
    assert _parts(_held(game)) == _read(game)


@pytest.mark.django_db(transaction=True)
def test_a_save_that_fails_lets_go_of_the_read_it_held(game: Game) -> None:
    """A save reads the game as held (views.staff): one that fails may have set
    a held row's ``result`` that its rollback undid in the database, so the
    next request reads the game again rather than take that read."""
    play(game, [ron(1, 0, 2, 30), tsumo(1, 3, 30)])
    entry._HELD.clear()
    held = _held(game)
    assert any(parts[0] is held.rows for parts in entry._HELD.values())
    with pytest.raises(PriceDiffers):  # the phone showed other payments: nothing saved
        entry.save_entry(game=held.game, number=held.next_number, hand=HAND_3, editing=False, key="k-held",
                         state=held.state, players=held.players, now=held, seen="0 0 0 0")
    assert not any(parts[0] is held.rows for parts in entry._HELD.values())
    again = _held(game)
    assert again.rows is not held.rows and _parts(again) == _read(game)


def _rows_as_held(now: entry.GameNow) -> list[dict[str, Any]]:
    # A row's attributes and its related rows' cache: what a reader could change.
    return [{**row.__dict__, "_state": dict(row._state.fields_cache)} for row in now.rows]


def test_the_page_of_the_next_hand_holds_its_read_for_the_first_tap(as_scorer: Any, game: Game) -> None:
    # The page's GET holds what it read; the first tap after it shares that read
    # (nothing unpickled) and finds it as a fresh read gives it: the page changed
    # nothing it was given, a second page neither.
    from django.urls import reverse

    play(game, [ron(1, 0, 2, 30), tsumo(1, 3, 30)])
    entry._HELD.clear()
    assert as_scorer.get(reverse("staff-game", args=[game.pk])).status_code == 200
    assert len(entry._HELD) == 1
    (held,) = entry._HELD.values()
    rows_before = _rows_as_held(entry.read_game_held(Game.objects.get(pk=game.pk)))
    assert as_scorer.get(reverse("staff-game", args=[game.pk])).status_code == 200
    tap = _held(game)
    assert tap.record is held[3] and tap.rows is held[0]
    assert _parts(tap) == _read(game)
    assert _rows_as_held(tap) == rows_before


def test_a_correction_page_holds_nothing(as_scorer: Any, game: Game) -> None:
    # A correction's form reads its hand's wins again: its read stays its own.
    from django.urls import reverse

    play(game, [ron(1, 0, 2, 30), tsumo(1, 3, 30)])
    entry._HELD.clear()
    assert as_scorer.get(reverse("staff-edit-hand", args=[game.pk, 1])).status_code == 200
    assert not entry._HELD


def _override(value: Any) -> Any:
    return lambda g: {**g.rules, "overrides": {"x": value}}


@pytest.mark.parametrize(("column", "first", "then"), [
    ("rules", _override(1), _override(2)),
    # Equal in Python, or in a looser reading, and yet other documents: never one key.
    ("rules", _override(1), _override(1.0)),
    ("rules", _override(1), _override(True)),
    ("rules", _override(1), _override("1")),
    ("rules", _override("a"), _override("a ")),
    ("rules", _override([1, [2]]), _override([[1], 2])),
    ("rules", _override({"a": None}), _override({"a": "None"})),
    ("end", lambda g: "", lambda g: "agreed"),
    ("final_scores", lambda g: None, lambda g: [25000, 25000, 25000, 25000]),
    ("final_riichi_sticks", lambda g: 0, lambda g: 1),
    ("status", lambda g: Game.Status.IN_PROGRESS, lambda g: Game.Status.FINISHED),
])
def test_a_changed_record_column_changes_the_read_key(game: Game, column: str, first: Any, then: Any) -> None:
    # The admin's raw change of a column the record is built from moves neither
    # the game's inputs_version nor the series' stamp: the key alone must miss.
    Game.objects.filter(pk=game.pk).update(**{column: first(game)})
    before = entry.row_digest(Game.objects.get(pk=game.pk))
    Game.objects.filter(pk=game.pk).update(**{column: then(game)})
    assert entry.row_digest(Game.objects.get(pk=game.pk)) != before

def test_the_read_key_is_one_for_one_stored_row(game: Game) -> None:
    # The same stored row read twice, by the ORM and by the save's locked read
    # (league.services.replay.lock_game), gives one key: a read kept by a save
    # is found by the next request.
    from league.services.replay import lock_game

    Game.objects.filter(pk=game.pk).update(rules={**game.rules, "zeta": {"b": 1, "a": [1.5, None, True]}})
    read = Game.objects.get(pk=game.pk)
    assert entry.row_digest(read) == entry.row_digest(Game.objects.get(pk=game.pk))
    assert entry.row_digest(lock_game(read)) == entry.row_digest(read)


def test_a_raw_change_of_rules_is_not_served_from_the_held_read(game: Game) -> None:
    play(game, [ron(1, 0, 2, 30)])
    before = _held(game)
    Game.objects.filter(pk=game.pk).update(rules={"preset": "m-league", "overrides": {}})
    after = _held(game)
    assert after.record is not before.record and after.record.rules is not before.record.rules
    assert _parts(after) == _read(game)


def test_a_read_kept_in_another_form_is_read_again(game: Game) -> None:
    """The shared cache outlives a deploy: an entry kept by code whose read had
    other parts (one fewer, as before the refused hand was kept) is read
    again, not unpacked into a crash."""
    from django.core.cache import cache

    play(game, [ron(0, 1, 3, 40)])
    row = Game.objects.get(pk=game.pk)
    entry.read_game(row, fresh=True)
    key = entry._read_key(row)
    kept = cache.get(key)
    assert len(kept) == entry.READ_PARTS and entry.READ_FORM in key
    cache.set(key, kept[:6] + kept[7:], entry.READ_SECONDS)  # the form before: no refused hand
    assert _parts(entry.read_game(Game.objects.get(pk=game.pk))) == _read(game)
    assert len(cache.get(key)) == entry.READ_PARTS


# At an event every table saves into one series: a hand of another game moves
# the series' version and stamp, not what this game's read holds.


def test_another_tables_hand_leaves_this_games_read_held(game: Game) -> None:
    """Before, the read was kept under the series' stamp, which every table's
    hand moves: at an event nearly every preview read its game again (four
    statements and a replay) and asked the shared cache for the stamp."""
    other = make_game(game.series)  # a game's start moves the lineup: before the read
    play(game, [ron(1, 0, 2, 30)])
    before = _held(game)
    play(other, [tsumo(2, 3, 30), ron(0, 1, 1, 30)])
    row = _row(game)
    with CaptureQueriesContext(connection) as again:
        after = entry.read_game_held(row)
    assert again.captured_queries == []
    assert after.record is before.record and _parts(after) == _read(game)


def test_a_renamed_player_is_read_again(game: Game) -> None:
    # A change of the seats' names moves the lineup's version: the read is keyed by it.
    play(game, [ron(1, 0, 2, 30)])
    before = _held(game)
    seat = game.seats.select_related("player").get(seat=2)
    seat.player.name = "Renamed West"
    seat.player.save()
    after = _held(game)
    assert after.names[2].endswith("Renamed West") and not before.names[2].endswith("Renamed West")
    assert _parts(after) == _read(game)


def test_a_deleted_game_moves_the_lineup_and_its_key_is_not_another_games(game: Game) -> None:
    """SQLite may give a deleted game's key to the next game: the delete moves
    the lineup's version, and the key names the game's start too."""
    import datetime

    from league.models import GameAudit, Series

    other = make_game(game.series)
    lineup = Series.objects.get(pk=game.series_id).lineup_version
    GameAudit.objects.filter(game=other).delete()  # what the admin's delete of a game asks first
    other.delete()
    assert Series.objects.get(pk=game.series_id).lineup_version == lineup + 1
    row = _row(game)
    again = _row(game)
    again.started_at = row.started_at + datetime.timedelta(microseconds=1)
    assert entry._read_key(again) != entry._read_key(row)


def test_a_correction_answered_in_place_is_read_as_corrected(game: Game) -> None:
    """A correction keeps no read (a new hand does): the same request's read
    after it (the answer in place) is of the row the save brought in step,
    not the read kept before it under the same key."""
    play(game, [ron(1, 0, 2, 30), tsumo(1, 3, 30)])
    row = _row(game)
    now = entry.read_game_held(row)
    entry.save_entry(game=row, number=1, hand=ron(2, 0, 3, 40), editing=True, key="k-correct-held",
                     state=now.state, now=now)
    after = entry.read_game(row)
    assert after.version > now.version
    assert _parts(after) == _read(game) and after.rows[0].result != now.rows[0].result
