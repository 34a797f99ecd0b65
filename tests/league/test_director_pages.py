"""The director's role and the shorter ways through an event day (issue 32):
roles granted on the event's own page, a table's end scores typed on the
dashboard, each game page's way back to its round, the playoff's stage from
a list, a drop while the player's table plays, a late registration the
pre-generated seating cannot place. Ari-ari, 8 players: two tables a round."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from league.models import EventAudit, Game, Registration, Round, Series
from league.models.stages import Playoff
from league.services import ServiceError, event
from league.services import stages as st
from tests.factories import EVENT_ROSTER, make_director, make_game, make_open_event, make_scorer, make_series

pytestmark = pytest.mark.django_db

ROSTER = EVENT_ROSTER


@pytest.fixture
def series() -> Series:
    return make_open_event()


@pytest.fixture
def boss(series: Series) -> User:
    return make_director(series, "boss")


@pytest.fixture
def director(client: Client, boss: User) -> Client:
    client.force_login(boss)
    return client


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def started(series: Series, *, with_substitute: bool = False) -> list[Game]:
    event.import_registrations(series=series, text=ROSTER)
    if with_substitute:
        event.register_player(series=series, first_name="Sub", last_name="Stitute", is_substitute=True)
    rounds = event.seat_rounds(series=series).rounds
    event.publish_round(round=rounds[0])
    event.check_in(registrations=series.registrations.all())
    return event.start_round(round=rounds[0])


# -- roles ---------------------------------------------------------------------------------------


def test_a_director_grants_and_withdraws_roles_on_the_event_page(director: Client, series: Series) -> None:
    User.objects.create_user("tablehand")
    User.objects.create_user("deputy")
    assert director.post(url("event-roles", "open"), {"username": "tablehand", "role": "scorer"}).status_code == 302
    assert director.post(url("event-roles", "open"), {"username": " deputy ", "role": "director"}).status_code == 302
    assert list(series.scorers.values_list("username", flat=True)) == ["tablehand"]
    assert sorted(series.directors.values_list("username", flat=True)) == ["boss", "deputy"]
    page = director.get(url("event-dashboard", "open")).content.decode()
    assert '<span data-role="scorer">tablehand</span>' in page and '<span data-role="director">deputy</span>' in page
    director.post(url("event-roles", "open"), {"username": "deputy", "role": "director", "action": "remove"})
    assert list(series.directors.values_list("username", flat=True)) == ["boss"]
    texts = [a.describe() for a in series.event_audit.filter(action=EventAudit.Action.ROLES).order_by("pk")]
    assert texts == ["scorer granted: tablehand", "director granted: deputy", "director withdrawn: deputy"]
    assert all(a.username == "boss" for a in series.event_audit.filter(action=EventAudit.Action.ROLES))


@pytest.mark.parametrize(("username", "role", "code"), [
    ("nobody", "scorer", "unknown_username"),
    ("", "scorer", "invalid_username"),
    ("boss", "referee", "invalid_role"),
])
def test_a_role_for_no_login_or_no_role_is_refused(series: Series, boss: User, username: str, role: str,
                                                   code: str) -> None:
    with pytest.raises(ServiceError) as refused:
        event.set_role(series=series, username=username, role=role, grant=True, by=boss)
    assert refused.value.code == code


def test_the_last_director_cannot_be_withdrawn(series: Series, boss: User) -> None:
    with pytest.raises(ServiceError) as refused:
        event.set_role(series=series, username="boss", role="director", grant=False, by=boss)
    assert refused.value.code == "last_director" and refused.value.field == "username"
    assert list(series.directors.all()) == [boss]


def test_a_scorer_is_refused_the_role_form(client: Client, series: Series) -> None:
    client.force_login(make_scorer(series, "tablehand"))
    User.objects.create_user("friend")
    assert client.post(url("event-roles", "open"), {"username": "friend", "role": "director"}).status_code == 403
    assert not series.directors.filter(username="friend").exists()


# -- a table's end scores from the dashboard ---------------------------------------------------------


def test_a_scorer_enters_end_scores_on_the_dashboard_and_comes_back_to_it(client: Client, series: Series) -> None:
    games = started(series)
    client.force_login(make_scorer(series, "tablehand"))
    page = client.get(url("event-dashboard", "open")).content.decode()
    # The tables with their end-score forms, and none of the director's controls.
    assert page.count('class="end-scores"') == 2
    assert url("event-seat", "open") not in page and url("event-round", "open", 1) not in page
    assert url("event-extra-time", "open", 1, 1) not in page and url("event-roles", "open") not in page
    game = games[0]
    response = client.post(url("staff-final-scores", game.pk), {
        "back": "dashboard", "score_0": 40000, "score_1": 30000, "score_2": 20000, "score_3": 10000,
        "riichi_sticks": 0})
    assert response.status_code == 302
    assert response["Location"] == f"{url('event-dashboard', 'open')}?round=1#table-{game.table}"
    game.refresh_from_db()
    assert game.is_finished and [s.end_score for s in game.seats.order_by("seat")] == [40000, 30000, 20000, 10000]


def test_end_scores_that_do_not_add_up_stay_on_the_form_with_the_way_back(client: Client, series: Series) -> None:
    game = started(series)[0]
    client.force_login(make_scorer(series, "tablehand"))
    response = client.post(url("staff-final-scores", game.pk), {
        "back": "dashboard", "score_0": 40000, "score_1": 30000, "score_2": 20000, "score_3": 20000,
        "riichi_sticks": 0})
    assert response.status_code == 200
    html = response.content.decode()
    assert '<input type="hidden" name="back" value="dashboard">' in html
    assert f'href="{url("event-dashboard", "open")}?round=1#table-{game.table}"' in html
    game.refresh_from_db()
    assert not game.is_finished


def test_every_game_page_of_an_event_links_back_to_its_round(director: Client, series: Series) -> None:
    for game in started(series):
        html = director.get(url("staff-game", game.pk)).content.decode()
        assert f'href="{url("event-dashboard", "open")}?round=1#table-{game.table}" data-back="dashboard"' in html


def test_a_league_game_page_has_no_dashboard_link(client: Client) -> None:
    league = make_series("ari-ari", slug="club")
    client.force_login(make_scorer(league, "club-scorer"))
    game = make_game(league)
    assert 'data-back="dashboard"' not in client.get(url("staff-game", game.pk)).content.decode()


# -- the playoff's stage from a list ------------------------------------------------------------------


def test_the_playoff_stage_is_chosen_from_the_stages_by_name(director: Client, series: Series) -> None:
    started(series)
    st.set_stages(series=series, plans=[st.StagePlan("Qualifying", 1, 1), st.StagePlan("Final", 2, 2, entry="top", top=4)])
    html = director.get(url("stages-manage", "open")).content.decode()
    assert '<option value="1" selected>Qualifying</option>' in html and '<option value="2">Final</option>' in html
    response = director.post(url("stages-playoff", "open"), {"stage": 7, "places": "1, 2"})
    assert response.status_code == 400 and "Select a valid choice." in response.content.decode()
    assert not Playoff.objects.exists()


# -- a drop while the player's table plays ------------------------------------------------------------


def test_dropping_a_player_whose_table_plays_warns_and_offers_the_substitute(director: Client, series: Series) -> None:
    started(series, with_substitute=True)
    seat = Round.objects.get(series=series, number=1).seats.select_related("table").get(registration__number=3)
    response = director.post(url("event-drop", "open", 3))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"table is playing: table {seat.table.number} of round 1." in html
    assert 'name="substitute"' in html and "Sub Stitute" in html
    assert not Registration.objects.get(series=series, number=3).is_dropped  # nothing done yet
    sub = Registration.objects.get(series=series, number=9)
    response = director.post(url("event-drop", "open", 3), {"confirm": "1", "seat": seat.pk, "substitute": sub.pk})
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.substitute == sub and Registration.objects.get(series=series, number=3).is_dropped
    game_seat = seat.table.game.seats.get(seat=seat.wind)
    assert game_seat.player_id == sub.player_id


def test_dropping_without_a_substitute_after_the_warning(director: Client, series: Series) -> None:
    started(series)
    assert 'data-drop-warning="4"' in director.post(url("event-drop", "open", 4)).content.decode()
    response = director.post(url("event-drop", "open", 4), {"confirm": "1"})
    assert response.status_code == 302 and Registration.objects.get(series=series, number=4).is_dropped


def test_a_drop_between_rounds_needs_no_warning(director: Client, series: Series) -> None:
    event.import_registrations(series=series, text=ROSTER)
    response = director.post(url("event-drop", "open", 2))
    assert response.status_code == 302 and Registration.objects.get(series=series, number=2).is_dropped


# -- a late registration ---------------------------------------------------------------------------------


def test_a_late_registration_the_published_seating_cannot_place_is_said(director: Client, series: Series) -> None:
    started(series)
    response = director.post(url("event-players", "open"), {"first_name": "Late", "last_name": "Comer"}, follow=True)
    html = response.content.decode()
    assert "The pre-generated seating has no seat for 9 Late Comer: its rounds are published." in html
    assert "as a substitute for a no-show or a dropped player" in html


def test_a_late_registration_before_round_1_is_published_says_to_seat_again(director: Client,
                                                                            series: Series) -> None:
    event.import_registrations(series=series, text=ROSTER)
    event.seat_rounds(series=series)
    html = director.post(url("event-players", "open"), {"first_name": "Late", "last_name": "Comer"},
                         follow=True).content.decode()
    assert "seat the rounds again from the dashboard" in html
