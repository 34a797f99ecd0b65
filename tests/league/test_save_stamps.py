"""A change publishes the series' new stamps at its commit, and inside its
transaction only when a reader there asks for one (``stamps.stamp``), so a
hand's save, which reads none, writes them once (issue 28). Nothing is
published for a rolled-back block, a savepoint's included. Real commits here
(``transaction=True``): ``on_commit`` runs."""

from __future__ import annotations

import pytest
from django.db import transaction

from league import stamps
from league.models import Hand
from league.services import entry
from tests.factories import make_game, make_series, ron

pytestmark = pytest.mark.django_db(transaction=True)


def _token(series_id: int) -> str:
    """The token as a reader asks for it (which publishes a pending change first)."""
    return stamps.stamp(series_id).token


def _stored(series_id: int, kind: str = "stamp") -> str | None:
    """What the store holds, read without asking: no publication."""
    return stamps.store().get(f"{kind}-{series_id}")


def test_a_change_is_published_at_its_commit_and_not_before_unless_asked() -> None:
    sid = make_game().series_id
    before = _token(sid)
    with transaction.atomic():
        stamps.publish_on_commit([sid])
        assert _stored(sid).split(":")[0] == before  # nothing written yet
    assert _token(sid) != before  # the commit published it


def test_a_reader_inside_the_transaction_publishes_it_once() -> None:
    sid, other = make_game().series_id, make_series(slug="stamps-other").pk
    before, before_other, results = _token(sid), _token(other), _stored(sid, "results")
    with transaction.atomic():
        stamps.publish_on_commit([sid])
        assert _token(other) == before_other and _stored(sid).split(":")[0] == before  # another series: no
        early = _token(sid)
        assert early != before and _stored(sid, "results") != results  # the change's stamps, all of them
        assert _token(sid) == early  # asked again: already published
        stamps.publish_on_commit([sid], results=False)  # a second change: a reader sees it too
        second = _token(sid)
        assert second != early
    assert _token(sid) not in (before, early, second)  # and the commit's


def test_the_series_list_stamp_asks_for_every_change() -> None:
    sid = make_game().series_id
    before, everything = _token(sid), _token(stamps.EVERYTHING)
    with transaction.atomic():
        stamps.publish_on_commit([sid], results=False)
        assert _token(stamps.EVERYTHING) != everything
        assert _stored(sid).split(":")[0] != before


def test_a_rolled_back_change_publishes_nothing() -> None:
    sid = make_game().series_id
    before = _token(sid)
    with pytest.raises(RuntimeError), transaction.atomic():
        stamps.publish_on_commit([sid], results=False)
        raise RuntimeError("rolled back")
    assert _token(sid) == before
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():  # a savepoint, rolled back
            stamps.publish_on_commit([sid], results=False)
            raise RuntimeError("rolled back")
        assert _token(sid) == before  # its publication went with it: nothing to ask for
    assert _token(sid) == before  # nor at the commit


def test_a_save_in_a_callers_transaction_writes_no_stamp_until_asked() -> None:
    """The save reads no stamp inside its transaction: nothing is published
    before the commit unless the caller asks (as a test or a batch may)."""
    game = make_game()
    sid = game.series_id
    now = entry.read_game(game)
    before = _token(sid)
    with transaction.atomic():
        entry.save_entry(game=game, number=1, hand=ron(1, 0, 2, 30), editing=False, key="k-stamps-0",
                         state=now.state, players=now.players, now=now)
        assert _stored(sid).split(":")[0] == before  # the save itself published nothing early
        assert _token(sid) != before  # a reader inside sees the change
        assert entry.read_game(game).next_number == 2
    assert _token(sid) != before


def test_a_save_publishes_once_at_its_commit_and_keeps_its_read() -> None:
    game = make_game()
    sid = game.series_id
    now = entry.read_game(game)
    before = _token(sid)
    saved = entry.save_entry(game=game, number=1, hand=ron(1, 0, 2, 30), editing=False, key="k-stamps",
                             state=now.state, players=now.players, now=now)
    assert Hand.objects.filter(game=game, number=1).exists()
    assert _token(sid) != before  # the commit published the new stamp
    # What the save held was kept under that stamp: the next read is the saved game.
    assert saved.now is not None and saved.now.next_number == 2
    assert entry.read_game(game).next_number == 2


def test_a_save_inside_a_callers_transaction_publishes_at_once() -> None:
    game = make_game()
    sid = game.series_id
    now = entry.read_game(game)
    before = _token(sid)
    with transaction.atomic():
        entry.save_entry(game=game, number=1, hand=ron(1, 0, 2, 30), editing=False, key="k-stamps-2",
                         state=now.state, players=now.players, now=now)
        assert _token(sid) != before  # readers inside the caller's transaction see the change
        assert entry.read_game(game).next_number == 2


def test_series_changed_moves_each_named_version_by_one() -> None:
    """The version bump every change makes (a pre-built UPDATE): each series
    named moves by one, once even when named twice; no other moves."""
    from league.models import Series
    from league.models.people import series_changed
    from tests.factories import make_series

    a, b, c = make_series(slug="bump-a"), make_series(slug="bump-b"), make_series(slug="bump-c")
    before = dict(Series.objects.values_list("pk", "version"))
    with transaction.atomic():
        series_changed([a.pk, b.pk, a.pk], results=False)
    after = dict(Series.objects.values_list("pk", "version"))
    assert (after[a.pk], after[b.pk], after[c.pk]) == (before[a.pk] + 1, before[b.pk] + 1, before[c.pk])
