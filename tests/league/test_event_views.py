"""The event-day pages: who may use them, the registration import by line,
seating to starting a round, the clock on the hand form, hidden results,
the player's page with its short link and QR code, printouts and projector
pages. Rules are ari-ari; 8 players, so two tables a round."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Game, Registration, Round, Series
from league.services import event, record_final_scores
from tests.factories import EVENT_ROSTER, make_director, make_open_event, make_scorer, make_series
from tests.league.test_staff_views import save

pytestmark = pytest.mark.django_db

ROSTER = EVENT_ROSTER


@pytest.fixture
def series() -> Series:
    return make_open_event()


@pytest.fixture
def director(client: Client, series: Series) -> Client:
    client.force_login(make_director(series, "director"))
    return client


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def started(series: Series) -> list[Game]:
    event.import_registrations(series=series, text=ROSTER)
    rounds = event.seat_rounds(series=series).rounds
    event.publish_round(round=rounds[0])
    event.check_in(registrations=series.registrations.all())
    return event.start_round(round=rounds[0])


def test_staff_pages_need_a_scorer_of_the_series(client: Client, series: Series) -> None:
    pages = [url("event-dashboard", "open"), url("event-players", "open"), url("event-settings", "open"),
             url("event-print", "open", "by-name")]
    for page in pages:
        assert client.get(page).status_code == 302  # to the login
    client.force_login(User.objects.create_user("visitor"))
    for page in pages:
        assert client.get(page).status_code == 403
    for post in (url("event-seat", "open"), url("event-import", "open"), url("event-results", "open")):
        assert client.post(post).status_code == 403


def test_import_view_lists_every_bad_line_and_imports_nothing(director: Client, series: Series) -> None:
    bad = ROSTER + "9,Ninth,,,NL\n10,Tenth,Player,,Holland\n3,Third,Again,,\n"
    response = director.post(url("event-import", "open"), {"text": bad})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Nothing was imported." in html
    assert "line 10: last name: is empty" in html
    assert "line 11: country: &#x27;Holland&#x27; is not an ISO 3166 country code" in html
    assert "line 12: number: 3 is already on line 4" in html
    assert not series.registrations.exists()
    response = director.post(url("event-import", "open"), {"text": ROSTER})
    assert response.status_code == 302
    assert series.registrations.count() == 8


def test_seat_publish_start_through_the_pages(director: Client, series: Series) -> None:
    event.import_registrations(series=series, text=ROSTER)
    assert director.post(url("event-seat", "open")).status_code == 302
    assert series.event_rounds.count() == 2
    page = director.get(url("event-round", "open", 1)).content.decode()
    assert "Publish round 1" in page and "repeat meeting" in page
    director.post(url("event-publish", "open", 1))
    refused = director.post(url("event-start", "open", 1), follow=True).content.decode()
    assert "is not checked in" in refused
    assert not Game.objects.exists()
    numbers = [str(n) for n in range(1, 9)]
    director.post(url("event-check-in", "open"), {"number": numbers, "present": "1"})
    assert series.registrations.filter(status=Registration.Status.CHECKED_IN).count() == 8
    response = director.post(url("event-start", "open", 1))
    assert response.status_code == 302 and Game.objects.filter(series=series).count() == 2
    dashboard = director.get(response["Location"]).content.decode()
    assert dashboard.count('class="state state-waiting"') == 2  # no hand yet at either table


def test_swap_and_substitute_through_the_round_page(director: Client, series: Series) -> None:
    event.import_registrations(series=series, text=ROSTER)
    spare = event.register_player(series=series, first_name="Stand", last_name="In", is_substitute=True)  # number 9
    rnd = event.seat_rounds(series=series).rounds[0]
    east1 = rnd.seats.get(table__number=1, wind=0)
    west2 = rnd.seats.get(table__number=2, wind=2)
    r = director.post(url("event-swap", "open", 1), {"first": east1.registration_id, "second": west2.registration_id})
    assert r.status_code == 302
    assert rnd.seats.get(table__number=1, wind=0).registration_id == west2.registration_id
    seat = rnd.seats.get(table__number=1, wind=0)
    r = director.post(url("event-substitute", "open", 1), {"seat": seat.pk, "substitute": spare.pk})
    assert r.status_code == 302
    assert rnd.seats.get(pk=seat.pk).substitute.number == 9


def test_the_hand_form_says_time_is_up_and_the_policy_ends_the_game(director: Client, series: Series) -> None:
    game = started(series)[0]
    rnd = Round.objects.get(series=series, number=1)
    event.set_clock(round=rnd, started_at=timezone.now() - datetime.timedelta(minutes=91))  # 90 minutes
    page = director.get(url("staff-game", game.pk)).content.decode()
    assert "Time is up: finish the current hand. The game ends after it." in page
    response = save(director, game, {"number": 1, "outcome": "draw", "tenpai": ["0"]})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.end) == (Game.Status.FINISHED, Game.End.EARLY)


def test_hidden_results_close_the_public_pages_until_revealed(director: Client, client: Client,
                                                              series: Series) -> None:
    games = started(series)
    for game in games:
        record_final_scores(game=game, scores=[40000, 30000, 20000, 10000])
    director.post(url("event-results", "open"), {"from_round": 1})
    public = Client()
    assert public.get(url("series-standings", "open"))["Location"] == url("event-public", "open")
    assert public.get(url("game-detail", games[0].pk))["Location"] == url("event-public", "open")
    assert public.get(url("series-standings-csv", "open")).status_code == 403
    page = public.get(url("event-public", "open")).content.decode()
    assert "Results from round 1 on are hidden" in page and "+60.0" not in page
    director.post(url("event-results", "open"), {"reveal": "1"})
    assert public.get(url("series-standings", "open")).status_code == 200
    assert "+60.0" in public.get(url("event-public", "open")).content.decode()


def test_player_page_short_link_and_qr(series: Series, client: Client) -> None:
    games = started(series)
    reg = series.registrations.get(number=1)
    seat = Round.objects.get(number=1).seats.get(registration=reg)
    page = client.get(url("event-player", "open", 1)).content.decode()
    wind = ("East", "South", "West", "North")[seat.wind]
    assert f"Table {seat.table.number} · {wind}" in page
    assert "10990001" not in page  # EMA numbers are for staff only
    assert client.get(f"/n/{reg.code.lower()}")["Location"] == url("event-player", "open", 1)
    svg = client.get(url("event-qr", "open", 1))
    assert svg["Content-Type"] == "image/svg+xml" and b'xmlns="http://www.w3.org/2000/svg"' in svg.content
    assert games


@pytest.mark.parametrize("kind", ["by-name", "by-table", "score-sheets", "standings"])
def test_printouts_name_every_player(director: Client, series: Series, kind: str) -> None:
    started(series)
    page = director.get(url("event-print", "open", kind) + "?paper=letter").content.decode()
    assert re.search(r'<body class="[^"]*\bpaper-letter\b', page)  # print.css: @page letter
    if kind != "standings":  # before any finished game the standings are empty
        assert all(f"First{i}" in page for i in range(1, 9))


def test_projector_pages_page_by_themselves(client: Client, series: Series) -> None:
    started(series)
    seating = client.get(url("event-screen", "open", "seating") + "?cycle=1")
    assert seating.status_code == 200
    assert seating.context["next_url"] == url("event-screen", "open", "standings") + "?cycle=1"
    clock = client.get(url("event-screen", "open", "clock")).content.decode()
    assert "data-ends=" in clock
    assert client.get(url("event-screen", "open", "nothing")).status_code == 404


def test_a_league_has_no_event_pages(client: Client) -> None:
    league = make_series("ari-ari", slug="club", kind="league")
    client.force_login(make_scorer(league, "club-scorer"))
    assert client.get(url("event-dashboard", "club")).status_code == 404
    assert client.get(url("event-public", "club")).status_code == 404


def test_settings_store_the_substitute_rule_in_thousandths(director: Client, series: Series) -> None:
    data = {"rounds": 6, "seating": "swiss", "seed": 3, "time_limit": 75, "ending": "one_more_hand",
            "substitute_result": "fixed", "substitute_score": "-15.0", "substitute_uma": "-12.5",
            "substitutes_in_standings": "on"}
    assert director.post(url("event-settings", "open"), data).status_code == 302
    t = series.event
    t.refresh_from_db()
    assert (t.rounds, t.seating, t.time_limit, t.ending, t.substitute_score, t.substitute_uma,
            t.substitutes_in_standings) == (6, "swiss", 75, "one_more_hand", -15000, -12500, True)
    assert series.event_audit.filter(action="settings").exists()


def test_hidden_results_stay_off_the_player_across_series(director: Client, series: Series) -> None:
    games = started(series)
    for game in games:
        record_final_scores(game=game, scores=[40000, 30000, 20000, 10000])
    winner = games[0].seats.get(seat=0).player  # 1st: +60.0
    public = Client()
    across = url("player-series", winner.pk)
    assert "+60.0" in public.get(across).content.decode()
    director.post(url("event-results", "open"), {"from_round": 1})
    # The event was this player's only series, and every round of it is hidden now.
    assert public.get(across).status_code == 404
    director.post(url("event-results", "open"), {"reveal": "1"})
    assert "+60.0" in public.get(across).content.decode()
