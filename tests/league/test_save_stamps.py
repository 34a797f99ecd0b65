"""A hand's save in its own transaction publishes the series' new stamps once,
at the commit (issue 28): the publication inside the transaction is for
readers inside it, and the save has none. Inside a caller's transaction (a
test's, a batch's) the save publishes at once as well, as every change does.
Real commits here (``transaction=True``): ``on_commit`` runs."""

from __future__ import annotations

import pytest
from django.db import transaction

from league import stamps
from league.models import Hand
from league.services import entry
from tests.factories import make_game, ron

pytestmark = pytest.mark.django_db(transaction=True)


def _token(series_id: int) -> str:
    return stamps.stamp(series_id).token


def test_at_commit_only_publishes_at_the_commit_alone() -> None:
    game = make_game()
    sid = game.series_id
    before = _token(sid)
    with transaction.atomic():
        stamps.publish_on_commit([sid], results=False)
        assert _token(sid) != before  # at once, for readers inside
    middle = _token(sid)
    assert middle != before
    with stamps.at_commit_only(), transaction.atomic():
        stamps.publish_on_commit([sid], results=False)
        assert _token(sid) == middle  # not inside
    assert _token(sid) != middle  # at the commit


def test_at_commit_only_rolled_back_publishes_nothing() -> None:
    game = make_game()
    sid = game.series_id
    before = _token(sid)
    with pytest.raises(RuntimeError), stamps.at_commit_only(), transaction.atomic():
        stamps.publish_on_commit([sid], results=False)
        raise RuntimeError("rolled back")
    assert _token(sid) == before
    # The flag is this block's alone: a later change publishes at once again.
    with transaction.atomic():
        stamps.publish_on_commit([sid], results=False)
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
