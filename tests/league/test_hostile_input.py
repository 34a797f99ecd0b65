"""No input crashes a page (issue 13): odd query strings on the public pages,
odd POST values on the staff pages, imported hand detail of any shape, the
admin's penalty form and the login form. Each answers with a page, a form
error or a redirect, never a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from league import services
from league.db_bounds import MAX_PENALTY, MAX_PENALTY_TOTAL
from league.models import Hand, Penalty
from tests.factories import hanchan_passing_deal, make_game, make_scorer, make_series, play, ron

pytestmark = pytest.mark.django_db

HUGE = "9" * 4301  # one digit past what int() takes from text


@pytest.fixture
def finished():
    series = make_series(slug="club")
    game = make_game(series)
    play(game, hanchan_passing_deal())
    return game


@pytest.mark.parametrize("query", [
    {"s-per_page": "-1"}, {"s-per_page": "0"}, {"s-per_page": HUGE}, {"s-page": "-1"}, {"s-page": "99999"},
    {"s-page": HUGE}, {"s-sort": "nonsense"}, {"round": HUGE}, {"round": "2147483648"}, {"round": "-3"},
    {"games": HUGE}, {"date": "9999-99-99"}, {"date": HUGE}, {"round": "²"},
])
def test_the_series_page_answers_any_query_string(client: Client, finished, query) -> None:
    response = client.get(reverse("series-standings", args=["club"]), query)
    assert response.status_code == 200
    assert finished.seats.first().player.name in response.content.decode()


@pytest.mark.parametrize("query", [{"per_page": "-1"}, {"per_page": HUGE}, {"page": "-5"}, {"page": "2147483648"}])
def test_the_player_page_answers_any_query_string(client: Client, finished, query) -> None:
    player = finished.seats.first().player
    response = client.get(reverse("player-detail", args=["club", player.pk]), query)
    assert response.status_code == 200
    assert player.name in response.content.decode()


@pytest.mark.parametrize("round_", [HUGE, "2147483648", "99999999999999999999"])
def test_standings_csv_past_every_round_is_the_whole_series(client: Client, finished, round_) -> None:
    whole = b"".join(client.get(reverse("series-standings-csv", args=["club"])).streaming_content)
    response = client.get(reverse("series-standings-csv", args=["club"]), {"round": round_})
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == whole


@pytest.fixture
def scorer_client(client: Client):
    series = make_series(slug="live")
    game = make_game(series)
    play(game, [ron(1, 0, 3, 40)])
    client.force_login(make_scorer(series))
    return client, game


@pytest.mark.parametrize("number", [HUGE, "2147483648", "-1", "x"])
def test_undo_with_a_number_no_hand_has_undoes_nothing(scorer_client, number) -> None:
    client, game = scorer_client
    response = client.post(reverse("staff-undo", args=[game.pk]), {"number": number})
    # Not the last hand the scorer could have seen: the conflict page (issue 12), nothing undone.
    assert response.status_code == 409
    assert game.hands.count() == 1


@pytest.mark.parametrize("editing", [HUGE, "2147483648", "99999"])
def test_the_preview_of_a_hand_no_game_has_says_so(scorer_client, editing) -> None:
    client, game = scorer_client
    data = {"number": "2", "outcome": "ron", "winners": ["2"], "loser": "3", "han_2": "2", "fu_2": "30",
            "editing": editing}
    response = client.post(reverse("staff-preview", args=[game.pk]), data)
    assert response.status_code == 200


# -- imported detail of any shape opens for correction (finding 5) -----------------------------


@pytest.mark.parametrize(("tiles", "yaku"), [
    (None, [1, 2]),
    (None, [{"winner": 0, "yaku": 5, "dora": "x"}]),
    (None, {"winner": 0}),
    (None, "riichi"),
    ({"tiles": "x", "melds": [1]}, None),
    ([{"winner": 0, "tiles": 7, "melds": [1, {"type": "pon"}], "dora": 3, "ura": [None]}], None),
    ([{"winner": 0, "melds": "pon 555z", "win": ["1m"]}], None),
    (5, 5),
    ([[["deep"]]], [[["deep"]]]),
])
def test_a_hand_with_unexpected_detail_opens_for_correction(scorer_client, tiles, yaku) -> None:
    client, game = scorer_client
    Hand.objects.filter(game=game, number=1).update(tiles=tiles, yaku=yaku)
    response = client.get(reverse("staff-edit-hand", args=[game.pk, 1]))
    assert response.status_code == 200
    assert 'name="outcome"' in response.content.decode()


# -- the admin's penalty form and the login form (finding 6) ---------------------------------------


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw"))
    return client


def test_an_admin_penalty_past_the_limit_is_a_form_error(admin_client: Client, finished) -> None:
    url = reverse("admin:league_penalty_add")
    data = {"game": finished.pk, "seat": 0, "reason": "slow"}
    response = admin_client.post(url, {**data, "points": -(MAX_PENALTY + 1)})
    assert response.status_code == 200
    assert "1,000" in response.content.decode()
    for _ in range(MAX_PENALTY_TOTAL // MAX_PENALTY):
        services.add_penalty(game=finished, seat=0, points=-MAX_PENALTY, reason="again")
    response = admin_client.post(url, {**data, "points": -1000})
    assert response.status_code == 200
    assert "at most 10,000 points together" in response.content.decode()
    assert Penalty.objects.count() == MAX_PENALTY_TOTAL // MAX_PENALTY


@pytest.mark.parametrize("next_", [None, "", "https://evil.example/", "//evil.example/"])
def test_a_login_without_a_safe_next_lands_on_the_staff_home(client: Client, next_) -> None:
    series = make_series(slug="mine")
    make_scorer(series, "keeper", "pw")
    data = {"username": "keeper", "password": "pw"}
    if next_ is not None:
        data["next"] = next_
    response = client.post(reverse("login"), data, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("staff-home")
    assert series.name in response.content.decode()
