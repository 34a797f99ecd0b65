"""The hand-entry protocol as a service (issue 28): one read of the game per
request, the protocol's decisions on a posted entry, the preview from what was
read, and the save with the event clock's policy in one transaction."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from league import services
from league.forms import seat_names
from league.models import Game
from league.services import entry, event
from scoring import game as sg
from tests.factories import draw, make_game, play, ron, tsumo
from tests.league.services.test_event import make_event, ready

pytestmark = pytest.mark.django_db


def _row(game: Game) -> Game:
    """The game's row as the next request reads it (``game_for_scorer``: with
    its series, whose lineup version keys the kept read). A write's own
    request brings its row in step (``entry._in_step``); a read is judged by
    the row it is given (``entry.is_current``)."""
    return Game.objects.select_related("series").get(pk=game.pk)


def _post(**fields: str) -> QueryDict:
    q = QueryDict(mutable=True)
    q.update(fields)
    return q


def test_read_game_reads_the_hands_once_and_replays_them() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30), draw(0, 1)])
    game = Game.objects.select_related("series").get(pk=game.pk)
    with CaptureQueriesContext(connection) as read:
        now = entry.read_game(game)
    # hands, their wins, the penalties in force, the seats with their players
    assert len(read.captured_queries) == 4
    assert (now.next_number, now.state) == services.entry_state(game)
    assert now.replayed == game.replay().result
    assert now.names == seat_names(game)
    assert now.table_state(3) == now.replayed.next
    assert now.table_state(2) == now.replayed.hands[1].start


def test_a_second_read_of_an_unchanged_game_runs_no_query() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    first = entry.read_game(game)
    with CaptureQueriesContext(connection) as again:
        second = entry.read_game(game)
    assert again.captured_queries == []
    assert (second.state, second.replayed, second.names) == (first.state, first.replayed, first.names)
    assert second.game is game  # the request's own row, not a copy from the cache


def test_a_game_read_in_english_is_named_in_japanese_for_a_japanese_reader() -> None:
    game = make_game()
    with translation.override("en"):
        english = entry.read_game(game).names
    with translation.override("ja"):
        japanese = entry.read_game(game).names
        assert japanese == seat_names(game)
    assert english[0].startswith("East ") and japanese[0].startswith("東 ")


def test_a_change_through_any_service_is_read_at_once() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    entry.read_game(_row(game))
    services.add_penalty(game=game, seat=2, points=-20000, reason="late")
    assert entry.read_game(_row(game)).record.penalties == game.record().penalties
    services.record_hand(game=game, number=2, hand=draw(0, 1))
    now = entry.read_game(_row(game))
    assert (now.next_number, now.state) == services.entry_state(game)


def test_a_change_of_the_game_row_outside_the_services_is_read_at_once() -> None:
    # The admin may change a game's columns without a service (and so without
    # moving the series' stamp): the columns the record is built from are in the key.
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    before = entry.read_game(game)
    game.rules = {"preset": game.ruleset().to_spec()["preset"], "overrides": {"uma": [20000, 10000, -10000, -20000]}}
    game.save(update_fields=["rules"])
    after = entry.read_game(game)
    assert after.record.rules.uma == (20000, 10000, -10000, -20000) != before.record.rules.uma


def test_the_page_after_a_save_reads_what_the_save_held(django_capture_on_commit_callbacks) -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    game = _row(game)
    now = entry.read_game(game)
    with django_capture_on_commit_callbacks(execute=True):
        entry.save_entry(game=game, number=2, hand=tsumo(2, 3, 30), editing=False, players=now.players)
    game = _row(game)
    with CaptureQueriesContext(connection) as after:
        kept = entry.read_game(game)
    assert after.captured_queries == []
    fresh = entry.read_game(game, fresh=True)
    assert (kept.state, kept.inputs, kept.record, kept.replayed, kept.names) == (
        fresh.state, fresh.inputs, fresh.record, fresh.replayed, fresh.names)
    assert [r.number for r in kept.rows] == [1, 2]


def test_a_save_followed_by_a_change_of_the_lineup_is_read_again(django_capture_on_commit_callbacks) -> None:
    # A player renamed after the save (another process): what the save kept
    # holds the old name, under the lineup version before the rename, which the
    # next request's row no longer names.
    game = _row(make_game())
    now = entry.read_game(game)
    with django_capture_on_commit_callbacks(execute=True):
        entry.save_entry(game=game, number=1, hand=tsumo(2, 3, 30), editing=False, players=now.players)
    with CaptureQueriesContext(connection) as kept:
        entry.read_game(_row(game))
    assert len(kept.captured_queries) == 1  # the row: the save's read is kept
    player = game.seats.get(seat=1).player
    player.name = "Renamed South"
    player.save()
    with CaptureQueriesContext(connection) as after:
        again = entry.read_game(_row(game))
    assert len(after.captured_queries) == 5  # the game row, then the hands, wins, penalties and seats
    assert again.players[1] == "Renamed South"


def test_the_conflict_page_reads_the_database_whatever_the_cache_holds() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    entry.read_game(game)
    with CaptureQueriesContext(connection) as fresh:
        entry.read_game(game, fresh=True)
    assert len(fresh.captured_queries) == 4


def test_the_preview_runs_no_query_and_prices_as_the_save() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    now = entry.read_game(game)
    hand = tsumo(2, 3, 30)
    with CaptureQueriesContext(connection) as priced:
        shown = entry.preview_entry(now, 2, hand)
    assert priced.captured_queries == []
    # E1 1 honba (the dealer won hand 1): 3 han 30 fu tsumo, 1,000/2,000 and 100 a seat.
    assert shown.played.deltas == (-2100, -1100, 4300, -1100)
    services.record_hand(game=game, number=2, hand=hand)
    assert game.replay().result.hands[1].deltas == shown.played.deltas


def test_a_correction_preview_compares_with_the_game_as_read() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30), ron(2, 3, 1, 30)])  # the dealer wins hand 1: hand 2 is at 1 honba
    now = entry.read_game(game)
    shown = entry.preview_entry(now, 1, ron(1, 2, 2, 30))  # South won it: no honba, East 2 deals
    assert shown.before is now.replayed
    assert [(n, old.deltas[3], new.deltas[3]) for n, old, new in shown.later_changes()] == [(2, 1300, 1000)]


@pytest.mark.parametrize(("posted", "expected"), [
    ({"action": "preview"}, entry.Step.SHOW),
    ({"action": "save", "checked": "wrong"}, entry.Step.RECHECK),
    ({"action": "save", "checked": "right"}, entry.Step.SAVE),
    ({"action": "preview", "state": "0" * 64}, entry.Step.CONFLICT),
    ({"action": "preview", "number": "3"}, entry.Step.CONFLICT),
    ({"action": "save", "checked": "right", "state": "0" * 64}, entry.Step.SAVE),  # the service decides
])
def test_the_protocol_decides_what_a_posted_entry_gets(posted: dict[str, str], expected: entry.Step) -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    now = entry.read_game(game)
    hand = draw(0)
    fields = {"number": "2", "state": now.state, **posted}
    if fields.get("checked") == "right":
        fields["checked"] = entry.digest(hand)
    data = entry.claimed(_post(**fields), now)
    assert entry.decide(data, now, number=2, editing=None, valid=True, hand=hand) is expected


def test_an_entry_without_a_state_is_taken_as_built_on_the_state_now_unless_it_is_a_save() -> None:
    game = make_game()
    now = entry.read_game(game)
    assert entry.claimed(_post(number="1"), now)["state"] == now.state
    assert entry.claimed(_post(number="1", action="save"), now).get("state") is None
    # A save claiming no state goes to the service, which refuses it as built on no state.
    data = entry.claimed(_post(number="1", action="save", checked="x"), now)
    assert entry.decide(data, now, number=1, editing=None, valid=True, hand=draw(0)) is entry.Step.SAVE
    with pytest.raises(services.Conflict):
        entry.save_entry(game=game, number=1, hand=draw(0), editing=False, state="")
    assert game.hands.count() == 0


def test_a_correction_of_a_hand_undone_is_gone() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    now = entry.read_game(game)
    data = entry.claimed(_post(number="1", state=now.state, action="preview"), now)
    assert entry.decide(data, now, number=1, editing=1, valid=True, hand=draw(0)) is entry.Step.SHOW
    services.undo_last_hand(game=game)
    now = entry.read_game(_row(game))
    assert entry.is_gone(now, 1)
    assert entry.decide(data, now, number=1, editing=1, valid=True, hand=draw(0)) is entry.Step.CONFLICT


def test_reuse_aims_the_entry_at_the_game_as_it_is() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    now = entry.read_game(game)
    data = _post(number="1", state="old", key="old-key-1", checked="x", outcome="draw")
    entry.reuse(data, now, 2)
    assert (data["number"], data["state"], data["outcome"]) == ("2", now.state, "draw")
    assert data["key"] != "old-key-1" and "checked" not in data


def test_saving_twice_with_one_key_saves_once() -> None:
    game = make_game()
    now = entry.read_game(game)
    saved = entry.save_entry(game=game, number=1, hand=draw(0), editing=False, key="key-00000001", state=now.state)
    assert (saved.number, saved.next_number, saved.time_up) == (1, 2, False)
    with pytest.raises(services.AlreadySaved):
        entry.save_entry(game=game, number=1, hand=draw(0), editing=False, key="key-00000001", state=now.state)
    assert game.hands.count() == 1


def test_a_correction_saved_says_the_next_hand() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30), draw(0, 1)])
    now = entry.read_game(game)
    saved = entry.save_entry(game=game, number=1, hand=ron(2, 0, 3, 30), editing=True, state=now.state)
    assert (saved.number, saved.next_number) == (1, 3)
    assert game.replay().result.hands[0].deltas[0] == 5800  # the dealer's 3 han 30 fu ron


def test_the_hand_that_ends_the_game_by_the_clock_ends_it_in_the_save() -> None:
    series = make_event(8, ending="end_after_hand")
    rnd = ready(series)[0]
    event.set_clock(round=rnd, minutes=60)
    game = event.start_round(round=rnd, now=timezone.now() - datetime.timedelta(minutes=61))[0]
    now = entry.read_game(game)
    saved = entry.save_entry(game=game, number=1, hand=tsumo(1, 2, 30), editing=False, state=now.state)
    assert saved.time_up is True
    game.refresh_from_db()
    assert (game.status, game.end) == (Game.Status.FINISHED, Game.End.EARLY)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite logs its BEGIN; PostgreSQL's is implicit")
def test_the_save_and_the_clock_policy_are_one_transaction() -> None:
    series = make_event(8, ending="end_after_hand")
    rnd = ready(series)[0]
    event.set_clock(round=rnd, minutes=60)
    game = event.start_round(round=rnd, now=timezone.now() - datetime.timedelta(minutes=61))[0]
    now = entry.read_game(game)
    with CaptureQueriesContext(connection) as saving:
        saved = entry.save_entry(game=game, number=1, hand=tsumo(1, 2, 30), editing=False, state=now.state)
    assert saved.time_up
    begins = [q["sql"] for q in saving.captured_queries if q["sql"].startswith("BEGIN")]
    assert begins == ["BEGIN IMMEDIATE"]


def test_a_stale_save_is_a_conflict_and_saves_nothing() -> None:
    game = make_game()
    now = entry.read_game(game)
    services.record_hand(game=game, number=1, hand=draw(0))
    with pytest.raises(services.Conflict):
        entry.save_entry(game=game, number=2, hand=draw(1), editing=False, state=now.state)
    assert game.hands.count() == 1


def test_the_digest_ties_a_save_to_the_hand_shown() -> None:
    a, b = sg.HandInput(sg.Draw(tenpai=(0,))), sg.HandInput(sg.Draw(tenpai=(1,)))
    assert entry.digest(a) == entry.digest(sg.HandInput(sg.Draw(tenpai=(0,))))
    assert entry.digest(a) != entry.digest(b)
    assert len(entry.digest(a)) == 16


def test_a_save_hands_on_what_it_holds_by_name() -> None:
    # record_hand's ``then`` gets one named record of what the save holds (issue 28's
    # leftover: it was a positional tuple read as held[0], held[:4], held[4]).
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    held: list[services.HandSaved] = []
    row = services.record_hand(game=game, number=2, hand=tsumo(1, 3, 30), then=held.append)
    [saved] = held
    stored = Game.objects.get(pk=game.pk)
    assert saved.game.pk == game.pk and saved.game.inputs_version == stored.inputs_version
    assert [r.number for r in saved.rows] == [1, 2] and saved.rows[-1] is row
    assert saved.record.hands == tuple(stored.record().hands)
    assert saved.replayed == stored.replay().result
    assert (saved.change.action, saved.change.hand_number) == ("record_hand", 2)
    assert saved.change == stored.audit.order_by("-pk").first()
    with pytest.raises(AttributeError):
        saved.replayed = None  # type: ignore[misc]  # frozen: the save's own record


def test_save_entry_answers_with_the_change_the_save_wrote(django_capture_on_commit_callbacks) -> None:
    game = make_game()
    now = entry.read_game(Game.objects.select_related("series").get(pk=game.pk))
    with django_capture_on_commit_callbacks(execute=True):
        done = entry.save_entry(game=now.game, number=1, hand=ron(1, 0, 2, 30), editing=False,
                                state=now.state, players=now.players, now=now)
    assert done.change is not None and done.change == game.audit.order_by("-pk").first()
    assert (done.number, done.next_number, done.time_up) == (1, 2, False)
