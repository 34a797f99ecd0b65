"""``league.access.game_for_scorer``, the game with its series and the
login's right to score it in one statement built once (issue 28), gives
what the ORM's ``select_related`` read and ``can_score`` give: the same
fields of the game and of its series, the same 404 and 403."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import Http404
from django.test import RequestFactory

from league.access import can_score, game_for_scorer
from league.models import Game, Series
from league.services.games import record_final_scores
from tests.factories import make_director, make_game, make_scorer, make_series, play, ron

pytestmark = pytest.mark.django_db


def _fields(obj: Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _request(user: Any) -> Any:
    request = RequestFactory().get("/")
    request.user = user
    return request


@pytest.fixture
def series() -> Series:
    return make_series(slug="read-once", name="Read once")


def _orm(pk: int) -> Game:
    return Game.objects.select_related("series").get(pk=pk)


@pytest.mark.parametrize("role", ["scorer", "director", "both", "superuser"])
def test_the_game_and_its_series_equal_the_orms(series: Series, role: str) -> None:
    user: User
    if role == "superuser":
        user = User.objects.create_superuser("root", password="pw")
    else:
        user = make_director(series) if role == "director" else make_scorer(series)
        if role == "both":
            series.directors.add(user)
    game = make_game(series)
    play(game, [ron(0, 1, 3, 30), ron(2, 3, 2, 40)])
    game = _orm(game.pk)
    read = game_for_scorer(_request(user), game.pk)
    assert _fields(read) == _fields(game)
    assert _fields(read.series) == _fields(game.series)
    assert read._state.adding is False and read.series._state.adding is False
    assert can_score(user, read.series)


def test_a_game_kept_by_end_scores_reads_the_same(series: Series) -> None:
    game = make_game(series)
    user = make_scorer(series)
    record_final_scores(game=game, scores=[40000, 30000, 20000, 10000])
    orm = _orm(game.pk)
    read = game_for_scorer(_request(user), game.pk)
    assert _fields(read) == _fields(orm) and read.final_scores == [40000, 30000, 20000, 10000]
    assert read.series.pk == series.pk


def test_the_series_is_held_no_second_query(series: Series, django_assert_num_queries: Any) -> None:
    user = make_scorer(series)
    game = make_game(series)
    with django_assert_num_queries(1):
        read = game_for_scorer(_request(user), game.pk)
        assert read.series.slug == "read-once"


@pytest.mark.parametrize("who", ["outsider", "scorer of another series", "anonymous", "inactive superuser"])
def test_anyone_else_is_refused(series: Series, who: str) -> None:
    game = make_game(series)
    user: Any
    if who == "outsider":
        user = User.objects.create_user("outsider", password="pw")
    elif who == "scorer of another series":
        user = make_scorer(make_series(slug="other"), username="elsewhere")
    elif who == "anonymous":
        user = AnonymousUser()
    else:  # can_score does not look at is_active (the login does): kept as it was
        user = User.objects.create_superuser("root", password="pw", is_active=False)
    if who == "inactive superuser":
        assert game_for_scorer(_request(user), game.pk).pk == game.pk
        return
    with pytest.raises(PermissionDenied):
        game_for_scorer(_request(user), game.pk)
    assert not can_score(user, series)


def test_a_missing_game_is_404_before_any_permission(series: Series) -> None:
    with pytest.raises(Http404):
        game_for_scorer(_request(AnonymousUser()), 987654)
    with pytest.raises(Http404):
        game_for_scorer(_request(make_scorer(series)), 987654)
