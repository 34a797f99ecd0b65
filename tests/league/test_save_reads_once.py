"""A save uses the hands its request read (issue 28): under the game's lock it
compares the row's ``inputs_version``, which every write of hands or penalties
moves, instead of reading every hand again. Each door that writes hands or
penalties is taken between a read and a save: the save on the old read is
refused as stale as before, or, where the hands it was built on are still the
ones stored, saved against the game as it is now (its penalties, its rows).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league import services
from league.models import Game
from league.services import entry
from league.services.replay import hand_result
from tests.factories import draw, play, ron, tsumo

pytestmark = pytest.mark.django_db

HAND_3 = ron(2, 3, 2, 30)  # what the scorer on the old read saves as hand 3


def played_two(game: Game) -> None:
    play(game, [ron(1, 0, 2, 30), tsumo(1, 3, 30)])


def _correct(game: Game) -> None:
    services.correct_hand(game=game, number=2, hand=draw(1))


def _undo(game: Game) -> None:
    services.undo_last_hand(game=game)


def _record(game: Game) -> None:
    services.record_hand(game=game, number=3, hand=draw(0))


def _record_hands(game: Game) -> None:
    services.record_hands(game=game, first=3, hands=[draw(0), draw(0)])


def _undo_and_the_same_again(game: Game) -> None:
    # The hands end as they were (the same state digest) but are other rows.
    services.undo_last_hand(game=game)
    services.record_hand(game=game, number=2, hand=tsumo(1, 3, 30))


def _penalty(game: Game) -> None:
    services.add_penalty(game=game, seat=0, points=-20000, reason="slow play")


def _cancel_penalty(game: Game) -> None:
    services.cancel_penalty(penalty=game.penalties.get())


def _finish(game: Game) -> None:
    services.finish_game(game=game)


def _finish_and_reopen(game: Game) -> None:
    services.finish_game(game=game)
    services.reopen_game(game=game)


DOORS: dict[str, Callable[[Game], None]] = {
    "record": _record, "record_hands": _record_hands, "correct": _correct, "undo": _undo,
    "undo_and_the_same_again": _undo_and_the_same_again, "penalty": _penalty, "cancel_penalty": _cancel_penalty,
    "finish": _finish, "finish_and_reopen": _finish_and_reopen,
}


def prepared(game: Game, door: str) -> Game:
    played_two(game)
    if door == "cancel_penalty":
        _penalty(game)
    return Game.objects.get(pk=game.pk)


def save_on(now: entry.GameNow) -> entry.Saved:
    return entry.save_entry(game=now.game, number=now.next_number, hand=HAND_3, editing=False, key="k-old-read",
                            state=now.state, players=now.players, now=now)


def assert_in_step(game: Game) -> None:
    """What the save stored is what a fresh replay of the game says."""
    game.refresh_from_db()
    replayed = game.replay().result
    assert [h.result for h in game.hands.order_by("number")] == [hand_result(p) for p in replayed.hands]
    assert services.refresh_snapshots(game=game) is False  # seats' statistics and results already right


@pytest.mark.parametrize("door", sorted(DOORS))
def test_every_write_of_hands_or_penalties_moves_the_inputs_version(game: Game, door: str) -> None:
    game = prepared(game, door)
    before = game.inputs_version
    DOORS[door](Game.objects.get(pk=game.pk))
    game.refresh_from_db()
    assert game.inputs_version > before


@pytest.mark.parametrize("door, refused", [
    ("record", services.Conflict), ("record_hands", services.Conflict), ("correct", services.Conflict),
    ("undo", services.Conflict), ("finish", services.ServiceError),
])
def test_a_save_on_a_read_older_than_a_change_of_hands_is_refused(game: Game, door: str,
                                                                  refused: type[Exception]) -> None:
    game = prepared(game, door)
    now = entry.read_game(game, fresh=True)
    DOORS[door](Game.objects.get(pk=game.pk))
    hands = list(game.hands.order_by("number").values_list("pk", "number", "outcome"))
    with pytest.raises(refused):
        save_on(now)
    assert list(game.hands.order_by("number").values_list("pk", "number", "outcome")) == hands


# Real commits: the save keeps what it holds as the game's next read once its commit has run.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("door", ["undo_and_the_same_again", "penalty", "cancel_penalty", "finish_and_reopen"])
def test_a_save_on_an_older_read_of_the_same_hands_reads_them_again(game: Game, door: str) -> None:
    game = prepared(game, door)
    now = entry.read_game(game, fresh=True)
    DOORS[door](Game.objects.get(pk=game.pk))
    saved = save_on(now)
    assert game.hands.get(number=3).outcome == "ron"
    # What the save kept for the next request is the game as stored: its rows, its penalties.
    fresh = entry.read_game(Game.objects.get(pk=game.pk), fresh=True)
    assert saved.now is not None
    assert [r.pk for r in saved.now.rows] == [r.pk for r in fresh.rows]
    assert (saved.now.record, saved.now.state, saved.now.version) == (fresh.record, fresh.state, fresh.version)
    assert_in_step(game)


def test_a_save_on_the_current_read_reads_no_hand_and_no_penalty(game: Game) -> None:
    played_two(game)
    _penalty(game)
    game = Game.objects.get(pk=game.pk)
    now = entry.read_game(game, fresh=True)
    with CaptureQueriesContext(connection) as queries:
        save_on(now)
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert not [sql for sql in reads if 'FROM "league_hand"' in sql or 'FROM "league_win"' in sql
                or 'FROM "league_penalty"' in sql]
    assert_in_step(game)


def test_a_whole_row_save_does_not_write_back_an_older_inputs_version(game: Game) -> None:
    old = Game.objects.get(pk=game.pk)  # as the admin read it
    played_two(game)
    moved = Game.objects.get(pk=game.pk).inputs_version
    old.table = "7"
    old.save()
    old.refresh_from_db()
    assert (old.table, old.inputs_version) == ("7", moved)
