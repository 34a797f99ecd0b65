"""A second look at issue 28's statements built once, sessions and stamps:
each case here failed before its fix (the note of each test says how)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from league.models import Game
from league.statements import fits

pytestmark = pytest.mark.django_db

# ``<int:pk>`` takes any run of digits; SQLite's driver cannot bind an
# integer past 64 bits (OverflowError), so a statement given one raised a
# server error where the ORM's lookup had found nothing (a 404).
HUGE = [2**63, 2**64 + 5, 10**30]
STAFF_GAME_ROUTES = ["", "preview/", "kept/", "undo/", "finish/", "reopen/", "hands/1/", "offline.json",
                     "penalties/", "end-scores/"]


@pytest.mark.parametrize("number", HUGE)
@pytest.mark.parametrize("tail", STAFF_GAME_ROUTES)
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_game_number_past_the_column_is_not_found(as_scorer: Client, game: Game, number: int, tail: str,
                                                     method: str) -> None:
    response = getattr(as_scorer, method)(f"/staff/games/{number}/{tail}")
    assert response.status_code in (404, 405)


def test_fits_is_the_columns_range() -> None:
    pk = Game._meta.pk
    low, high = connection.ops.integer_field_range(pk.get_internal_type())
    assert fits(pk, high, connection) and fits(pk, low, connection) and fits(pk, 0, connection)
    assert not fits(pk, high + 1, connection) and not fits(pk, low - 1, connection)
