"""Content-Security-Policy (issue 19): every kind of page carries the one
policy, whether rendered, served whole from the page cache, answered 304,
streamed (CSV), an error or a redirect; and no template holds an inline
script or an inline event handler, which the policy would block."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from league.csp import FRAGMENT_POLICY
from league.models import Game, Registration, Series

pytestmark = pytest.mark.django_db

POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
          "img-src 'self' data:; worker-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
          "object-src 'none'; base-uri 'self'; form-action 'self'")
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def policy_of(response) -> dict[str, str]:
    header = response.headers.get("Content-Security-Policy")
    assert header is not None, f"{response.status_code} without a Content-Security-Policy"
    return {part.split(" ", 1)[0]: part.split(" ", 1)[1] for part in header.split("; ")}


def policy_of_text(text: str) -> dict[str, str]:
    return {part.split(" ", 1)[0]: part.split(" ", 1)[1] for part in text.split("; ")}


def test_the_policy_is_the_documented_one(client: Client) -> None:
    assert policy_of(client.get(reverse("healthz"))) == policy_of_text(POLICY)


@pytest.fixture
def demo(demo_league: None) -> dict[str, object]:
    league = Series.objects.get(slug="demo-league")
    event = Series.objects.get(slug="demo-tournament")
    game = Game.objects.filter(series=league, status=Game.Status.IN_PROGRESS).first()
    finished = Game.objects.filter(series=league, status=Game.Status.FINISHED).first()
    reg = Registration.objects.filter(series=event).order_by("number").first()
    return {"league": league, "event": event, "game": game, "finished": finished, "reg": reg}


def public_pages(d: dict[str, object]) -> list[str]:
    league, event, game, reg = d["league"].slug, d["event"].slug, d["game"], d["reg"]
    player = game.seats.first().player
    return [
        reverse("index"),
        reverse("series-standings", args=[league]),
        reverse("series-standings", args=[league]) + "?partial=1",
        reverse("player-detail", args=[league, player.pk]),
        reverse("game-detail", args=[game.pk]),
        reverse("game-detail", args=[game.pk]) + "?partial=1",
        reverse("series-standings-csv", args=[league]),
        reverse("series-games-csv", args=[league]),
        reverse("series-hands-csv", args=[league]),
        reverse("signoff-tables", args=[league]),
        reverse("event-public", args=[event]),
        reverse("event-player", args=[event, reg.number]),
        reverse("event-qr", args=[event, reg.number]),
        *(reverse("event-screen", args=[event, kind]) for kind in ("clock", "seating", "standings")),
        reverse("event-short", args=[reg.code]),
        reverse("stages-standings", args=["demo-cup"]),
        reverse("stages-teams", args=["demo-cup"]),
        reverse("healthz"),
        reverse("readyz"),
        reverse("login"),
        "/no/such/page/",
        reverse("game-detail", args=[99999]),
    ]


def staff_pages(d: dict[str, object]) -> list[str]:
    league, event, game = d["league"].slug, d["event"].slug, d["game"]
    return [
        reverse("staff-home"),
        reverse("staff-series", args=[league]),
        reverse("staff-game", args=[game.pk]),
        reverse("staff-edit-hand", args=[game.pk, 1]),
        reverse("staff-penalties", args=[game.pk]),
        reverse("staff-final-scores", args=[game.pk]),
        reverse("staff-signoff", args=[game.pk]),
        reverse("staff-pins", args=[league]),
        reverse("staff-import", args=[league]),
        reverse("staff-export-log", args=[d["finished"].pk]),
        reverse("event-dashboard", args=[event]),
        reverse("event-settings", args=[event]),
        reverse("event-players", args=[event]),
        reverse("event-round", args=[event, 1]),
        *(reverse("event-print", args=[event, kind]) for kind in ("by-name", "by-table", "score-sheets", "standings")),
        reverse("stages-manage", args=["demo-cup"]),
        reverse("ema-preview", args=["demo-cup"]),
        reverse("ema-file", args=["demo-cup", "csv"]),
        "/admin/",
        "/admin/league/game/",
    ]


def test_every_page_type_carries_the_policy(client: Client, demo) -> None:
    """One test, so the demo league (a season, a tournament, a cup) is built once."""
    statuses = {}
    rendered = {}
    for url in public_pages(demo):
        response = client.get(url)
        rendered[url] = response
        assert policy_of(response) == policy_of_text(POLICY), url
        statuses[url] = response.status_code
        if response.status_code == 200 and response.headers.get("ETag"):
            # The page again: from the page cache, then a 304 for the ETag it gave.
            again = client.get(url)
            assert policy_of(again) == policy_of_text(POLICY), url
            unchanged = client.get(url, HTTP_IF_NONE_MATCH=response.headers["ETag"])
            assert unchanged.status_code == 304, url
            assert policy_of(unchanged) == policy_of_text(POLICY), url
    assert statuses["/no/such/page/"] == 404
    assert sorted({s for u, s in statuses.items() if u != "/no/such/page/"} - {404}) == [200, 302]
    # Anonymous at a staff page: the login redirect.
    response = client.get(reverse("staff-game", args=[demo["game"].pk]))
    assert response.status_code == 302
    assert policy_of(response) == policy_of_text(POLICY)

    client.force_login(User.objects.create_superuser("director", password="pw-director-42"))
    for url in staff_pages(demo):
        response = client.get(url)
        # The demo's games hold summary-only hands, which a tenhou.net/6 log refuses (409).
        assert response.status_code in ({200, 409} if url.endswith("tenhou6.json") else {200}), url
        assert policy_of(response) == policy_of_text(POLICY), url
        rendered[url] = response
    # style-src has no 'unsafe-inline': no page may carry an inline style, which the browser would drop.
    for url, response in rendered.items():
        if response.headers.get("Content-Type", "").startswith("text/html"):
            html = response.content.decode()
            assert not INLINE_STYLE.search(html), (url, INLINE_STYLE.search(html))
            assert not STYLE_ATTRIBUTE.search(html), (url, STYLE_ATTRIBUTE.search(html))
    # A POST's redirect and a refused form carry it too.
    game = demo["game"]
    response = client.post(reverse("staff-game", args=[game.pk]), {"outcome": "nonsense", "action": "preview"})
    assert response.status_code == 400 and policy_of(response) == policy_of_text(POLICY)  # no number: refused
    # What only the page's script fetches (here the live preview's refusal) carries the fragment's.
    response = client.post(reverse("staff-preview", args=[game.pk]), {"outcome": "nonsense"})
    assert response.headers["Content-Security-Policy"] == FRAGMENT_POLICY


def test_what_only_the_pages_script_fetches_carries_the_fragments_policy(as_scorer: Client, game: Game) -> None:
    """The live preview's fragment, the save's answer in place and a kept batch's
    answer are read by the staff page's script, never shown as documents: they
    carry the strictest policy (league/csp.py), the same whatever the answer;
    the page, the save without the script and a refusal of the CSRF check are
    documents, with the site's policy."""
    url, preview = reverse("staff-game", args=[game.pk]), reverse("staff-preview", args=[game.pk])
    page = as_scorer.get(url)
    assert policy_of(page) == policy_of_text(POLICY)
    form = dict(page.context["form"].initial)
    tsumo = {**form, "outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "30"}
    shown = as_scorer.post(preview, tsumo, HTTP_X_TENBOU_ENTRY="1")
    assert b"data-digest" in shown.content and shown.headers["Content-Security-Policy"] == FRAGMENT_POLICY
    stale = as_scorer.post(preview, {**tsumo, "state": "0" * 64}, HTTP_X_TENBOU_ENTRY="1")
    assert stale.status_code == 200 and stale.headers["Content-Security-Policy"] == FRAGMENT_POLICY
    digest = as_scorer.post(url, {**tsumo, "action": "preview"}).context["digest"]
    saved = as_scorer.post(url, {**tsumo, "action": "save", "checked": digest},
                           HTTP_X_TENBOU_ENTRY="1", HTTP_X_TENBOU_IN_PLACE="1")
    assert saved["X-Tenbou-Saved"] == "in-place" and saved.headers["Content-Security-Policy"] == FRAGMENT_POLICY
    assert policy_of_text(FRAGMENT_POLICY) == {"default-src": "'none'", "base-uri": "'none'",
                                               "form-action": "'none'", "frame-ancestors": "'none'"}
    kept = as_scorer.post(reverse("staff-kept", args=[game.pk]), json.dumps({"entries": []}),
                          content_type="application/json", HTTP_X_TENBOU_ENTRY="1")
    assert kept.status_code == 400 and kept.headers["Content-Security-Policy"] == FRAGMENT_POLICY
    kept = as_scorer.post(reverse("staff-kept", args=[game.pk]), json.dumps({"entries": [{
        "fields": {"outcome": "draw", "tenpai": ["0"]}, "number": "2", "state": saved.json()["state"],
        "key": str(uuid.uuid4()), "checked": "0"}]}), content_type="application/json", HTTP_X_TENBOU_ENTRY="1")
    assert kept.status_code == 200 and kept.headers["Content-Security-Policy"] == FRAGMENT_POLICY
    # Without the script's header the save redirects: a document's answer, the site's policy.
    again = as_scorer.post(url, {**tsumo, "number": "2", "key": str(uuid.uuid4()), "action": "preview"})
    assert policy_of(again) == policy_of_text(POLICY)
    # A post the CSRF check refuses is answered by Django's refusal page: the site's policy.
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(User.objects.get(pk=as_scorer.session["_auth_user_id"]))
    refused = strict.post(preview, tsumo, HTTP_X_TENBOU_ENTRY="1")
    assert refused.status_code == 403 and policy_of(refused) == policy_of_text(POLICY)


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)
JAVASCRIPT_URL = re.compile(r"""(?:href|src|action)\s*=\s*["']?\s*javascript:""", re.IGNORECASE)
INLINE_STYLE = re.compile(r"<style[\s>]", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"<[^>]+\sstyle\s*=", re.IGNORECASE)


@pytest.mark.parametrize("path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_has_an_inline_script_or_handler(path: Path) -> None:
    text = path.read_text()
    assert not INLINE_SCRIPT.search(text), "an inline <script>: move it to league/static/league/ (docs/deploy.md, CSP)"
    assert not INLINE_HANDLER.search(text), "an inline event handler: bind it in a static script"
    assert not JAVASCRIPT_URL.search(text), "a javascript: URL"
    assert not INLINE_STYLE.search(text), "a <style> block: move its rules to a CSS file in league/static/league/"
    assert not STYLE_ATTRIBUTE.search(text), "a style= attribute: give the element a class and the rule a CSS file"
