"""No input crashes anything, round two (issue 29): the findings of the
adversarial run that are not about one form or file each, one test per finding.
Each fails on the code before the fix."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from league.models import Player, Series
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
