"""The read paths of a three-player series (issue 36): the six real Mahjong
Soul three-player games imported, then every page, chart, export and API
answer that shows them says three places, never a fourth, and adds up to the
logs' own points."""

from __future__ import annotations

import csv
import io
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Game, Player, Series
from tests.factories import make_game, make_players, make_series, play, ron
from tests.realdata import REALDATA, require_realdata
from tests.tenhou.test_sanma import GAMES

require_realdata()
pytestmark = pytest.mark.django_db
SANMA = REALDATA / "sanma"


@pytest.fixture
def mjs() -> Series:
    files = [str(SANMA / g[0]) for g in GAMES if g[2] == "mahjong-soul-sanma"]
    assert len(files) == 6
    call_command("import_logs", *files, "--series", "mjs", "--create-series", stdout=StringIO())
    return Series.objects.get(slug="mjs")


def busiest(series: Series) -> Player:
    """A player with the most games in the series."""
    return max(Player.objects.filter(seats__game__series=series).distinct(),
               key=lambda p: p.seats.filter(game__series=series).count())


def text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def test_the_player_page_shows_three_places_and_no_fourth_avoidance(mjs: Series, client: Client) -> None:
    player = busiest(mjs)
    response = client.get(reverse("player-detail", args=[mjs.slug, player.pk]))
    assert response.status_code == 200
    places = [s.place for s in player.seats.filter(game__series=mjs)]
    assert response.context["places"] == [places.count(n) for n in (1, 2, 3)]
    assert response.context["place_labels"] == ["1st", "2nd", "3rd"]
    page = text(response.content)
    assert "4th" not in page and "Fourth" not in page and "fourth" not in page
    assert "Games finished 1st, 2nd and 3rd" in page
    assert "Fourth-avoidance rate" not in [row[0] for row in response.context["stat_rows"]]
    hands = sum(g.hands.count() for g in Game.objects.filter(series=mjs))
    series_hands = next(row[3] for row in response.context["stat_rows"] if row[0] == "Hands played")
    assert series_hands == f"{hands:,}"  # every hand of the series once, not three quarters of them


def test_a_four_player_player_page_keeps_four_places() -> None:
    series = make_series(slug="four")
    game = make_game(series)
    play(game, [ron(1, 0, 3, 40)])
    client = Client()
    response = client.get(reverse("player-detail", args=[series.slug, game.seats.get(seat=1).player_id]))
    assert response.context["place_labels"] == ["1st", "2nd", "3rd", "4th"]
    assert "Fourth-avoidance rate" in [row[0] for row in response.context["stat_rows"]]


def test_the_across_series_page_shows_a_dash_for_a_three_player_fourth(mjs: Series, client: Client) -> None:
    player = busiest(mjs)
    four = make_series(slug="four")
    game = make_game(four, [player, *make_players(3)])
    play(game, [ron(1, 0, 3, 40)])
    services.finish_game(game=game)
    response = client.get(reverse("player-series", args=[player.pk]))
    assert response.status_code == 200
    rows = {r["slug"]: r for r in response.context["rows"]}
    assert rows["mjs"]["places_shown"][3] == "\u2013"
    assert rows["four"]["places_shown"] == [str(n) for n in rows["four"]["places"]]
    mine = [s.place for s in player.seats.filter(game__series=mjs)]
    assert rows["mjs"]["places_shown"][:3] == [str(mine.count(n)) for n in (1, 2, 3)]


def test_every_game_page_of_a_three_player_series_has_three_seats(mjs: Series, client: Client) -> None:
    for game in Game.objects.filter(series=mjs):
        response = client.get(reverse("game-detail", args=[game.pk]))
        assert response.status_code == 200, game.pk
        log = response.context["log"]
        assert log and all(len(row.cells) == 3 for row in log)
        assert len(response.context["settlement"]) == 3
        assert "the three scores after each hand" in response.content.decode()
        assert [r.points for r in sorted(response.context["settlement"], key=lambda r: r.seat.seat)] == [
            s.points for s in game.seats.order_by("seat")]
        api = client.get(f"/api/v1/games/{game.pk}")
        assert api.status_code == 200, api.content
        assert len(api.json()["seats"]) == 3


def test_series_statistics_and_hand_csv_of_a_three_player_series(mjs: Series, client: Client) -> None:
    response = client.get(reverse("series-standings", args=[mjs.slug]) + "?stats=1")
    assert response.status_code == 200
    page = text(response.content)
    assert "No-4th" not in page and "4th" not in page
    hands = client.get(reverse("series-hands-csv", args=[mjs.slug]))
    rows = list(csv.DictReader(io.StringIO(b"".join(hands.streaming_content).decode("utf-8-sig"))))
    assert len(rows) == sum(g.hands.count() for g in Game.objects.filter(series=mjs))


def test_the_player_page_of_a_three_player_series_in_japanese(mjs: Series, client: Client) -> None:
    player = busiest(mjs)
    page = client.get(reverse("player-detail", args=[mjs.slug, player.pk]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "1着・2着・3着で終えた対局数" in page and "4着" not in page
