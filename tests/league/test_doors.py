"""No input crashes anything, round two (issue 29): the findings of the
adversarial run that are not about one form or file each, one test per finding.
Each fails on the code before the fix."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse

from league.db_bounds import MAX_EVENT_ROUNDS
from league.models import Event, Player, Registration, Series
from league.services import event
from tests.factories import hanchan_passing_deal, make_director, make_game, make_series, play
from tests.league.test_event_records import finished_event
from tests.league.test_production import PRODUCTION, run_django

pytestmark = pytest.mark.django_db


# -- 1. EMA numbers are for staff only ------------------------------------------------


def test_ema_numbers_are_on_no_public_page(client: Client) -> None:
    series = finished_event()
    player = series.registrations.get(number=1).player
    Player.objects.filter(pk=player.pk).update(ema_number="04170042")
    for url in (reverse("player-series", args=[player.pk]), reverse("player-detail", args=[series.slug, player.pk])):
        response = client.get(url)
        assert response.status_code == 200 and player.name in response.content.decode()
        assert "04170042" not in response.content.decode(), url


# -- 3, 4. the registration CSV and form -------------------------------------------------

ROSTER = "number,first name,last name\n1,Aiko,Sato\n2,Bram,de Vries\n3,Chen,Wang\n4,Dana,Novak\n"


@pytest.fixture
def director(client: Client) -> Client:
    series = make_series("ari-ari", slug="open", name="Open", kind="tournament")
    event.configure_event(series=series, rounds=2)
    client.force_login(make_director(series, "director"))
    return client


@pytest.mark.parametrize(("text", "message"), [
    (ROSTER + "5,Ei\x00ko,Abe\n", "line 6: first name: holds a NUL character"),
    (ROSTER + "5,Eiko,A\rbe\n", "cannot be read as CSV"),
    (ROSTER + "5,Eiko," + "A" * 131_073 + "\n", "cannot be read as CSV"),
    (ROSTER + "9" * 4_301 + ",Eiko,Abe\n", "line 6: number: is longer than 1000 characters"),
    (ROSTER + "99999999999999999999,Eiko,Abe\n", "is not a whole number from 1 to 9,999"),
])
def test_a_player_list_beyond_the_bounds_is_refused_whole(director: Client, text: str, message: str) -> None:
    # A file, as a spreadsheet saves it (the paste box refuses a NUL as every text field does).
    upload = SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")
    response = director.post(reverse("event-import", args=["open"]), {"file": upload})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Registration.objects.exists()


def test_the_registration_form_refuses_an_event_number_past_the_bounds(director: Client) -> None:
    response = director.post(reverse("event-players", args=["open"]),
                             {"number": "99999999999999999999", "first_name": "Aiko", "last_name": "Sato"})
    assert response.status_code == 200  # the desk again, with the form's error
    assert "Ensure this value is less than or equal to 9999." in response.content.decode()
    assert not Registration.objects.exists()


# -- 5. huge integers in the event's forms -------------------------------------------------


@pytest.mark.parametrize("number", ["9" * 5_000, "99999999999999999999", "²"])
def test_a_check_in_of_a_number_no_one_has_checks_in_nobody(director: Client, number: str) -> None:
    director.post(reverse("event-import", args=["open"]), {"text": ROSTER})
    response = director.post(reverse("event-check-in", args=["open"]), {"number": [number, "2"]})
    assert response.status_code == 302
    assert list(Registration.objects.filter(status="checked_in").values_list("number", flat=True)) == [2]


@pytest.mark.parametrize("places", ["9" * 5_000 + ", 1", "99999999999999999999, 1", "², 1"])
def test_a_playoff_of_numbers_no_one_has_is_refused(director: Client, places: str) -> None:
    director.post(reverse("event-import", args=["open"]), {"text": ROSTER})
    response = director.post(reverse("stages-playoff", args=["open"]), {"stage": "1", "places": places})
    assert response.status_code == 400
    assert "event numbers split by commas, winner first" in response.content.decode()


@pytest.mark.parametrize("stage", ["9" * 5_000, "99999999999999999999"])
def test_a_playoff_of_a_stage_past_the_bounds_is_refused(director: Client, stage: str) -> None:
    director.post(reverse("event-import", args=["open"]), {"text": ROSTER})
    response = director.post(reverse("stages-playoff", args=["open"]), {"stage": stage, "places": "1, 2"})
    assert response.status_code == 400


@pytest.mark.parametrize("from_round", ["99999999999", "40000", str(MAX_EVENT_ROUNDS + 1), "9" * 5_000])
def test_hiding_results_from_a_round_past_the_bounds_is_refused(director: Client, from_round: str) -> None:
    response = director.post(reverse("event-results", args=["open"]), {"from_round": from_round}, follow=True)
    assert response.status_code == 200
    assert "Choose the first round to hide." in response.content.decode()
    assert Event.objects.get(series__slug="open").hidden_from_round is None


@pytest.mark.parametrize("text", ["Final: rounds 1-" + "9" * 5_000, "Final: round 99999999999", "Final: round 1, top 9" * 30])
def test_stages_past_the_bounds_are_refused(director: Client, text: str) -> None:
    response = director.post(reverse("stages-manage", args=["open"]), {"stages": text})
    assert response.status_code == 400


# -- 6. path values ----------------------------------------------------------------------


@pytest.mark.parametrize("path", [
    "/n/%00", "/n/AB%00CD", "/n/" + "A" * 300, "/games/" + "9" * 251 + "/", "/games/" + "9" * 25 + "/",
    "/series/" + "a" * 300 + "/", "/series/club/players/" + "9" * 251 + "/", "/players/" + "9" * 251 + "/",
])
def test_a_path_value_no_row_can_have_is_not_found(client: Client, path: str) -> None:
    play(make_game(make_series(slug="club")), hanchan_passing_deal())
    assert client.get(path).status_code == 404


# -- 9. probes, error mail, logout ----------------------------------------------------


@override_settings(SECURE_SSL_REDIRECT=True)
def test_the_probes_answer_plain_http_while_the_rest_redirects() -> None:
    client = Client()  # made after the override: its middleware reads the redirect setting
    assert client.get("/healthz").status_code == 200
    Series.objects.create(slug="club", name="Club", rules="ari-ari")
    assert client.get("/readyz").status_code == 200
    assert client.get("/").status_code == 301
    assert client.get("/series/club/").status_code == 301


def test_an_error_mail_that_cannot_be_sent_is_logged(tmp_path) -> None:
    # Port 9 of this machine (discard) answers nothing: the SMTP connection is refused.
    out = run_django("import logging; logging.getLogger('django.request').error('the page broke')", **PRODUCTION,
                     ADMINS="Ada <ada@example.org>", EMAIL_HOST="127.0.0.1", EMAIL_PORT="9",
                     DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert out.returncode == 0, out.stderr
    assert "the page broke" in out.stderr
    assert "could not mail the error to ADMINS" in out.stderr and "ConnectionRefusedError" in out.stderr


def test_a_logout_tells_the_browser_to_forget_the_staff_pages_it_kept(as_scorer: Client) -> None:
    response = as_scorer.post(reverse("logout"), {"next": "/"})  # as the staff menu posts it
    assert response.status_code == 302
    # "storage" clears the service worker's Cache API copies and the page's
    # offline state (localStorage); "cache" the HTTP cache.
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    assert "_auth_user_id" not in as_scorer.session
