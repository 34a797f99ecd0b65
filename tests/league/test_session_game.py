"""The game a session scores, read in the session's own statement
(``league.sessions``, ``league.access.game_for_scorer``, issue 28): a tap, a
save or a page of the game being scored costs one statement for session,
user and game; the game so read is the one ``game_for_scorer`` reads itself,
field by field; and a changed right, a deleted game, another game's URL, a
logout or a user made inactive take effect on the very next request, since
every row is still read from the database on every request."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db.models import Model
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import sessions
from league.access import game_for_scorer
from league.models import Game, GameAudit, Series
from tests.factories import make_game, make_scorer, make_series, play, ron

pytestmark = pytest.mark.django_db

TAP = {"outcome": "ron", "winners": ["0"], "loser": "1", "han_0": "3", "fu_0": "30"}


@pytest.fixture
def series() -> Series:
    return make_series(slug="carried", name="Carried")


@pytest.fixture
def scorer(series: Series) -> User:
    return make_scorer(series)


@pytest.fixture
def game(series: Series) -> Game:
    game = make_game(series, table="Table carried")
    play(game, [ron(1, 0, 2, 30)])
    return game


@pytest.fixture
def client(scorer: User, game: Game) -> Client:
    """Logged in, with the game's page read once: the session now scores it."""
    client = Client()
    client.force_login(scorer)
    assert client.get(reverse("staff-game", args=[game.pk])).status_code == 200
    return client


def _body(client: Client, game: Game) -> dict[str, str]:
    """The tap's body as the page's script posts it: the hand and the page's hidden fields."""
    page = client.get(reverse("staff-game", args=[game.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    hidden = {}
    for name in ("number", "state", "key"):
        found = re.search(rf'name="{name}" value="([^"]*)"', html) or re.search(rf'value="([^"]*)"[^>]*name="{name}"', html)
        assert found, name
        hidden[name] = found.group(1)
    return {**TAP, **hidden}


def _tap(client: Client, game: Game, body: dict[str, str]) -> Any:
    return client.post(reverse("staff-preview", args=[game.pk]), body, HTTP_X_TENBOU_ENTRY="1")


def _fields(obj: Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _statements(client: Client, game: Game, body: dict[str, str]) -> list[str]:
    from django.db import connection

    with CaptureQueriesContext(connection) as queries:
        shown = client.post(reverse("staff-preview", args=[game.pk]), body, HTTP_X_TENBOU_ENTRY="1")
    assert shown.status_code == 200 and b"data-digest" in shown.content
    return [q["sql"] for q in queries.captured_queries]


def test_a_tap_on_the_game_being_scored_is_one_statement(client: Client, game: Game) -> None:
    body = _body(client, game)
    _statements(client, game, body)  # the game's read is held in this process after the first tap
    sql = _statements(client, game, body)
    assert len(sql) == 1, sql
    game_table = Game._meta.db_table
    assert "django_session" in sql[0] and "auth_user" in sql[0] and game_table in sql[0]


def test_a_request_off_the_games_urls_reads_no_game(client: Client, game: Game) -> None:
    from django.db import connection

    with CaptureQueriesContext(connection) as queries:
        assert client.get("/healthz").status_code == 200
    assert len(queries) == 1 and Game._meta.db_table not in queries[0]["sql"]


def _carried_request(client: Client, path: str) -> Any:
    """A request as the middleware makes it, the session loaded by its user."""
    request = RequestFactory().get(path)
    request.session = sessions.SessionStore(client.cookies["sessionid"].value)
    request.session.for_path = path
    request.user = get_user(request)
    return request


def test_the_carried_game_is_what_game_for_scorer_reads(client: Client, game: Game, scorer: User,
                                                         django_assert_num_queries: Any) -> None:
    own = game_for_scorer(_carried_request(client, "/healthz"), game.pk)  # reads it itself
    request = _carried_request(client, reverse("staff-preview", args=[game.pk]))
    assert request.user.pk == scorer.pk
    with django_assert_num_queries(0):
        carried = game_for_scorer(request, game.pk)
    orm = Game.objects.select_related("series").get(pk=game.pk)
    assert _fields(carried) == _fields(own) == _fields(orm)
    assert _fields(carried.series) == _fields(own.series) == _fields(orm.series)
    assert carried._state.adding is False and carried.series._state.adding is False


def test_the_carried_game_serves_one_call_of_its_request(client: Client, game: Game,
                                                         django_assert_num_queries: Any) -> None:
    request = _carried_request(client, reverse("staff-game", args=[game.pk]))
    game_for_scorer(request, game.pk)
    with django_assert_num_queries(1):  # handed over once, then read again
        game_for_scorer(request, game.pk)


def test_a_right_taken_away_refuses_the_next_tap(client: Client, game: Game, series: Series,
                                                 scorer: User) -> None:
    body = _body(client, game)
    assert _tap(client, game, body).status_code == 200
    series.scorers.remove(scorer)
    assert _tap(client, game, body).status_code == 403
    assert client.get(reverse("staff-game", args=[game.pk])).status_code == 403
    series.directors.add(scorer)  # and given back, as a director: at once too
    assert _tap(client, game, body).status_code == 200


def test_a_deleted_game_is_404_at_once(client: Client, series: Series) -> None:
    game = make_game(series, table="Table gone")  # no hand yet: a game that may be deleted
    body = _body(client, game)
    assert _tap(client, game, body).status_code == 200
    GameAudit.objects.filter(game=game).delete()
    Game.objects.filter(pk=game.pk).delete()
    assert _tap(client, game, body).status_code == 404
    assert client.get(reverse("staff-game", args=[game.pk])).status_code == 404


def test_another_games_url_reads_that_game(client: Client, game: Game, series: Series) -> None:
    other = make_game(series, table="Table other")
    page = client.get(reverse("staff-game", args=[other.pk]))
    assert page.status_code == 200 and b"Table other" in page.content and b"Table carried" not in page.content
    elsewhere = make_game(make_series(slug="not-mine"), table="Table elsewhere")
    assert client.get(reverse("staff-game", args=[elsewhere.pk])).status_code == 403
    missing = client.post(reverse("staff-preview", args=[987654]), TAP, HTTP_X_TENBOU_ENTRY="1")
    assert missing.status_code == 404
    back = client.get(reverse("staff-game", args=[game.pk]))
    assert back.status_code == 200 and b"Table carried" in back.content


def test_a_logout_elsewhere_ends_the_login_at_once(client: Client, game: Game) -> None:
    Session.objects.all().delete()  # what a logout in another worker does to the row
    shown = client.post(reverse("staff-preview", args=[game.pk]), TAP, HTTP_X_TENBOU_ENTRY="1")
    assert shown.status_code == 401


def test_a_user_made_inactive_is_logged_out_at_once(client: Client, game: Game, scorer: User) -> None:
    User.objects.filter(pk=scorer.pk).update(is_active=False)
    shown = client.post(reverse("staff-preview", args=[game.pk]), TAP, HTTP_X_TENBOU_ENTRY="1")
    assert shown.status_code == 401


def test_a_superuser_made_plain_is_refused_at_once(game: Game) -> None:
    root = User.objects.create_superuser("root", password="pw")
    client = Client()
    client.force_login(root)
    body = _body(client, game)
    assert _tap(client, game, body).status_code == 200
    User.objects.filter(pk=root.pk).update(is_superuser=False)
    assert _tap(client, game, body).status_code == 403
