"""The staff pages as a web app: the service worker under /staff/, the
manifest, a login that lasts the event, and an expired one renewed in place
without losing what the page holds."""

from __future__ import annotations

import json
import time

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from league.models import Game

pytestmark = pytest.mark.django_db


def test_service_worker_is_served_under_staff_so_its_scope_covers_the_staff_pages(client: Client) -> None:
    url = reverse("staff-sw")
    assert url == "/staff/sw.js"
    response = client.get(url)  # no login: the worker is fetched before any page asks for one
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    text = response.content.decode()
    assert text.startswith("const ASSETS = [") and '"/static/league/queue/main.js"' in text
    assert 'self.addEventListener("fetch"' in text


def test_manifest_opens_the_staff_pages_as_an_app(client: Client) -> None:
    response = client.get(reverse("staff-manifest"))
    assert response["Content-Type"] == "application/manifest+json"
    body = json.loads(response.content)
    assert body["scope"] == "/staff/" and body["start_url"] == "/staff/" and body["display"] == "standalone"
    assert [i["sizes"] for i in body["icons"]] == ["192x192", "512x512", "any"]  # what an install asks for


def test_game_page_links_the_manifest_and_loads_its_scripts_from_static_files(as_scorer: Client, game: Game) -> None:
    html = as_scorer.get(reverse("staff-game", args=[game.pk])).content.decode()
    assert '<link rel="manifest" href="/staff/manifest.webmanifest">' in html
    for name in ("engine.js", "staff_game.js"):
        assert f'<script src="/static/league/{name}" defer></script>' in html
    # The queue's modules run deferred, in document order with the deferred scripts: before
    # staff_game.js, so window.TenbouQueue is there when the page's script starts.
    assert '<script type="module" src="/static/league/queue/main.js"></script>' in html
    assert html.index("queue/main.js") < html.index("staff_game.js")
    assert "<script>" not in html  # no inline script (Content-Security-Policy)


def test_a_login_lasts_an_event_and_requests_move_its_expiry_on(client: Client, scorer: User,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings.SESSION_COOKIE_AGE >= 3 * 24 * 3600
    client.force_login(scorer)
    client.get(reverse("staff-home"))
    first = Session.objects.get().expire_date
    client.get(reverse("staff-home"))
    assert Session.objects.get().expire_date == first  # within the hour: no write
    later = time.time() + 2 * 3600
    monkeypatch.setattr(time, "time", lambda: later)
    client.get(reverse("staff-home"))
    assert Session.objects.get().expire_date > first  # an hour on: written, expiring SESSION_COOKIE_AGE from now


def test_expired_login_gets_a_401_the_page_script_reads_not_a_redirect(client: Client, game: Game) -> None:
    data = {"number": 1, "outcome": "tsumo", "winner": 1, "han_1": 2, "fu_1": 30, "action": "save"}
    for url in (reverse("staff-game", args=[game.pk]), reverse("staff-preview", args=[game.pk])):
        response = client.post(url, data, HTTP_X_TENBOU_ENTRY="1")
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "login_required"
        assert client.post(url, data).status_code == 302  # a page without the script goes to the login
    assert game.hands.count() == 0


def test_login_again_answers_in_json_with_the_new_csrf_token(scorer: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("login"))
    token = client.cookies["csrftoken"].value
    url = reverse("staff-login-again")
    wrong = client.post(url, {"username": scorer.username, "password": "nope", "csrfmiddlewaretoken": token})
    assert wrong.status_code == 400 and wrong.json()["error"]["field"] == "password"
    right = client.post(url, {"username": scorer.username, "password": "pw", "csrfmiddlewaretoken": token})
    assert right.status_code == 200 and right.json()["user"] == scorer.username
    assert right.json()["csrf"]  # the rotated token, for the forms already on the page
    assert client.get(reverse("staff-home")).status_code == 200
    assert client.get(url).status_code == 405
