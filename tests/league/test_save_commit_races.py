"""A second look at issue 28's save, with real commits (``on_commit`` runs):
each case here failed before its fix."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import transaction

from league.models import Game
from league.services import entry
from tests.factories import make_game, ron, tsumo

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_save_published_after_a_later_one_does_not_serve_its_older_read() -> None:
    """Two saves of one game, the second committing between the first's
    commit and the first's keeping of its read (another worker, taking the
    lock the moment the first commits): the first's read (version 1, one
    hand) is then kept last, under the key the second's read was kept under
    (a hand moves no key). A page reading the game by the row
    (``inputs_version`` 2) must not be given it: it showed hand 2 as next and
    sent the scorer to the conflict page."""
    game = make_game()
    first = entry.read_game(game)

    def second_save() -> None:
        # Runs after the first save's COMMIT and before its publication: the
        # callbacks run in the order registered, and this one came first.
        row = Game.objects.get(pk=game.pk)
        now = entry.read_game(row, fresh=True)
        assert now.next_number == 2
        entry.save_entry(game=row, number=2, hand=tsumo(1, 3, 30), editing=False, key="k-second",
                         state=now.state, players=now.players, now=now)

    with transaction.atomic():
        transaction.on_commit(second_save)
        entry.save_entry(game=game, number=1, hand=ron(1, 0, 2, 30), editing=False, key="k-first",
                         state=first.state, players=first.players, now=first)
    row = Game.objects.get(pk=game.pk)
    assert row.hands.count() == 2 and row.inputs_version == 2
    now = entry.read_game(row)
    assert now.next_number == 3 and len(now.rows) == 2
    assert now.state == entry.read_game(row, fresh=True).state


def _at_once(*saves) -> list[object]:  # noqa: ANN002
    """Run each save from its own connection, all released at once."""
    import threading

    from django.db import connection

    barrier = threading.Barrier(len(saves))
    outcomes: list[object] = [None] * len(saves)

    def run(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = saves[i]()
        except Exception as err:  # noqa: BLE001 - the test inspects what each save got
            outcomes[i] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(saves))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


def needs_postgres(test: Callable[..., None]) -> Callable[..., None]:
    """Marked ``postgres`` as the project's other races are, and skipped on SQLite."""
    skip = pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                              reason="needs PostgreSQL row locks (SQLite serialises all writers)")
    return pytest.mark.postgres(skip(test))


@needs_postgres
@pytest.mark.parametrize("attempt", range(3))
@pytest.mark.parametrize("same", [True, False], ids=["one-key-one-hand", "one-key-two-hands"])
def test_two_saves_on_one_read_with_one_key_at_once(attempt: int, same: bool) -> None:
    """The save's fast path (the request's read, ``now=``; the key claimed
    by ``INSERT ... ON CONFLICT DO NOTHING``) raced from two connections:
    one hand stored, the other told it was saved already (the same entry)
    or refused (another entry under the key), the version moved once."""
    from league.errors import AlreadySaved, Conflict
    from league.models import Hand, SaveKey

    game = make_game()
    entry.save_entry(game=game, number=1, hand=ron(1, 0, 2, 30), editing=False, key="k-0",
                     state=entry.read_game(game).state, players=entry.read_game(game).players,
                     now=entry.read_game(game))
    hands = [tsumo(1, 3, 30), tsumo(1, 3, 30) if same else ron(2, 3, 2, 30)]

    def save(hand) -> Callable[[], object]:  # noqa: ANN001
        row = Game.objects.get(pk=game.pk)
        now = entry.read_game(row, fresh=True)
        return lambda: entry.save_entry(game=row, number=2, hand=hand, editing=False, key="k-race",
                                        state=now.state, players=now.players, now=now)

    outcomes = _at_once(*(save(h) for h in hands))
    saved = [o for o in outcomes if isinstance(o, entry.Saved)]
    refused = [o for o in outcomes if isinstance(o, AlreadySaved if same else Conflict)]
    assert (len(saved), len(refused)) == (1, 1), outcomes
    row = Game.objects.get(pk=game.pk)
    assert row.inputs_version == 2 and row.hands.count() == 2
    assert SaveKey.objects.filter(game=game, key="k-race").count() == 1
    assert Hand.objects.get(game=game, number=2).result == entry.read_game(row, fresh=True).rows[1].result


def test_a_substitute_seated_after_the_read_is_named_after_the_first_save() -> None:
    """A director seats a substitute (allowed until the first hand) while the
    scorer's page holds a read naming the registered player; the scorer then
    saves hand 1 on that read. The save kept its request's names as the
    game's next read, under the stamp it published: every page after it
    named the player who is not there, and each later save kept those names
    again (``players`` from its request's read)."""
    from league.models import Seat
    from league.services import event
    from tests.league.services.test_event import make_event, ready, reg

    series = make_event(8, subs=1)
    rnd = ready(series)[0]
    game = event.start_round(round=rnd)[1]
    row = Game.objects.get(pk=game.pk)
    read = entry.read_game(row)  # the scorer's page
    event.substitute(seat=rnd.seats.get(table__number=2, wind=3), substitute=reg(series, 9))
    sub = reg(series, 9).player.name
    assert Seat.objects.get(game=game, seat=3).player.name == sub
    entry.save_entry(game=row, number=1, hand=ron(1, 0, 2, 30), editing=False, key="k-sub",
                     state=read.state, players=read.players, now=read)
    after = entry.read_game(Game.objects.get(pk=game.pk))
    assert after.players[3] == sub
    assert after.players == entry.read_game(Game.objects.get(pk=game.pk), fresh=True).players


@pytest.mark.parametrize("change", ["rename", "merge"])
def test_a_player_renamed_after_the_read_is_named_after_the_save(change: str) -> None:
    """As a substitute: a player's name corrected (or the row merged into
    another person's) while the scorer's page holds a read of the game, then
    a save on that read. The save kept the request's old names under its
    new stamp, and each later save kept them again."""
    from league.models import Player, Seat
    from league.services import merge_players

    game = make_game()
    row = Game.objects.get(pk=game.pk)
    read = entry.read_game(row)
    player = Seat.objects.get(game=game, seat=2).player
    if change == "rename":
        player.name = "Corrected Name"
        player.save()
        shown = "Corrected Name"
    else:
        keep = Player.objects.create(name="Kept Row")
        merge_players(keep=keep, merge=player, reason="one person")
        shown = "Kept Row"
    entry.save_entry(game=row, number=1, hand=ron(1, 0, 2, 30), editing=False, key="k-rename",
                     state=read.state, players=read.players, now=read)
    after = entry.read_game(Game.objects.get(pk=game.pk))
    assert after.players[2] == shown
    assert after.players == entry.read_game(Game.objects.get(pk=game.pk), fresh=True).players


# -- stamps: what a reader inside a transaction sees ------------------------------------------


def _token(series_id: int) -> str:
    from league import stamps

    return stamps.stamp(series_id).token


def test_djangos_pending_callbacks_have_the_shape_stamps_reads() -> None:
    """``stamps._publish_pending`` reads the connection's ``run_on_commit``
    (Django's internal list of ``(savepoint ids, callback, robust)``): if a
    Django upgrade changes it, this fails by name, where a reader inside a
    transaction would silently stop seeing its own change."""
    from django.db import connection

    def callback() -> None:
        pass

    with transaction.atomic():
        transaction.on_commit(callback)
        transaction.on_commit(callback, robust=True)
        plain, robust = connection.run_on_commit[-2:]
        assert isinstance(plain, tuple) and plain[1] is callback and robust[1] is callback, (
            "Django's run_on_commit changed shape: league.stamps._publish_pending must follow it")
        transaction.set_rollback(True)


@pytest.mark.parametrize("how", ["robust", "durable", "savepoint"])
def test_a_reader_inside_sees_the_change_and_the_commit_publishes_again(how: str) -> None:
    """Among other ``on_commit`` callbacks (a robust one), in a durable
    block, or from inside a savepoint that is kept: a reader inside the
    transaction sees the change's stamp, and the commit publishes another."""
    from league import stamps

    sid = make_game().series_id
    before = _token(sid)
    ran: list[str] = []
    with transaction.atomic(durable=how == "durable"):
        transaction.on_commit(lambda: ran.append("robust"), robust=True)
        if how == "savepoint":
            with transaction.atomic():
                stamps.publish_on_commit([sid])
        else:
            stamps.publish_on_commit([sid])
        transaction.on_commit(lambda: ran.append("after"), robust=how == "robust")
        early = _token(sid)
        assert early != before
    assert ran == ["robust", "after"]
    assert _token(sid) not in (before, early)


def test_a_savepoint_rolled_back_after_a_reader_asked_publishes_nothing_more() -> None:
    """A reader inside published the savepoint's change early; the savepoint
    is rolled back: the commit publishes nothing more for it (the early
    stamp stays: pages under it were computed from committed data), and a
    change kept beside it is published at the commit."""
    from league import stamps

    sid, other = make_game().series_id, make_game().series_id
    before_other = _token(other)
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            stamps.publish_on_commit([sid], results=False)
            early = _token(sid)
            raise RuntimeError("rolled back")
        assert _token(sid) == early
        stamps.publish_on_commit([other], results=False)
    assert _token(sid) == early
    assert _token(other) != before_other


def test_a_change_in_autocommit_is_published_at_once() -> None:
    from league import stamps

    sid = make_game().series_id
    before = _token(sid)
    stamps.publish_on_commit([sid])
    assert stamps.store().get(f"stamp-{sid}").split(":")[0] != before


def test_one_key_in_two_games_saves_in_each() -> None:
    """An entry key is the game's (the constraint is per game): the same
    key sent for another game is that game's new entry, claimed there, and
    sent again to the first it is known there."""
    from league.errors import AlreadySaved
    from league.models import SaveKey

    games = [make_game(), make_game()]
    for game in games:
        now = entry.read_game(game)
        saved = entry.save_entry(game=game, number=1, hand=ron(1, 0, 2, 30), editing=False, key="k-shared-key",
                                 state=now.state, players=now.players, now=now)
        assert saved.number == 1
    assert SaveKey.objects.filter(key="k-shared-key").count() == 2
    assert [g.hands.count() for g in games] == [1, 1]
    row = Game.objects.get(pk=games[0].pk)
    with pytest.raises(AlreadySaved):
        entry.save_entry(game=row, number=1, hand=ron(1, 0, 2, 30), editing=False, key="k-shared-key",
                         state=entry.read_game(Game.objects.get(pk=games[1].pk)).state, players=None)
    assert Game.objects.get(pk=games[0].pk).inputs_version == 1  # the refusal moved nothing


@needs_postgres
def test_a_substitute_and_a_first_hands_save_at_once_do_not_deadlock() -> None:
    """A save takes the game's lock, then the series' row (its version); a
    substitute took the series' first, then the game's: a save of hand 1
    and a substitute at the same table at once deadlocked, and PostgreSQL
    broke it by failing one of them. The save here holds the game's lock
    until the substitute is seen waiting, then moves the series' version."""
    import threading

    from django.db import connection

    from league.models import Seat, series_changed
    from league.services import event
    from league.services.replay import lock_game_moving
    from tests.league.services.test_event import make_event, ready, reg

    series = make_event(8, subs=1)
    rnd = ready(series)[0]
    game = event.start_round(round=rnd)[1]
    seat = rnd.seats.get(table__number=2, wind=3)
    sub = reg(series, 9)
    locked, pids = threading.Event(), []
    outcomes: list[object] = [None, None]

    def waiting(pid: int) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
            row = cursor.fetchone()
        return row is not None and row[0] == "Lock"

    def save() -> None:
        try:
            with transaction.atomic():
                lock_game_moving(game)
                locked.set()
                for _ in range(2000):  # until the substitute waits on a lock (at most 20 s)
                    if pids and waiting(pids[0]):
                        break
                    threading.Event().wait(0.01)
                series_changed([series.pk])
            outcomes[0] = "saved"
        except Exception as err:  # noqa: BLE001 - the test inspects it
            outcomes[0] = err
        finally:
            connection.close()

    def substitute() -> None:
        try:
            locked.wait(20)
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pids.append(cursor.fetchone()[0])
            event.substitute(seat=seat, substitute=sub)
            outcomes[1] = "seated"
        except Exception as err:  # noqa: BLE001 - the test inspects it
            outcomes[1] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=save), threading.Thread(target=substitute)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert outcomes == ["saved", "seated"]
    assert Seat.objects.get(game=game, seat=3).player == sub.player
