"""A second look at issue 28's save, with real commits (``on_commit`` runs):
each case here failed before its fix."""

from __future__ import annotations

import pytest
from django.db import transaction

from league.models import Game
from league.services import entry
from tests.factories import make_game, ron, tsumo

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_save_published_after_a_later_one_does_not_serve_its_older_read() -> None:
    """Two saves of one game, the second committing between the first's
    commit and the first's publication (another worker, taking the lock the
    moment the first commits): the first's publication then lands last, so
    the series' stamp is the first's while the stored hands are the
    second's. The first keeps its read under its stamp (``_keep_saved``,
    ``stamps.published`` says that stamp is current); a page reading the
    game by the row (``inputs_version`` 2) must not be given that read
    (version 1, one hand), which showed hand 2 as next and sent the scorer
    to the conflict page."""
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
