"""Nothing a user holds breaks (issue 33): every URL path the site answered
before the renames still answers the same page, or a permanent redirect to it.

``old_urls.json`` is a snapshot taken once from main's URLconf (8c30fcd):
every named pattern (the admin's aside), each with sample arguments from the
demo, and what the path answered: the status, then, after following any
redirect, the final status, content type, download name and HTML title.
Values that differ between two builds of the demo (row ids, a registration's
short-link code, signed tokens) are written as ``{placeholders}`` that
``samples()`` fills from the demo in this test's database. Printed QR codes
and short links (``/n/<code>``), bookmarks of public and staff pages and the
read API are all in it.

A path passes when its first answer that is not a permanent redirect (301,
308) has the recorded status, and the page it leads to has the recorded
status, type, download name and title (the word "tournament" in a title may
have become "event", the founders' one word). Staff paths are asked as a
superuser, the others as a visitor, in English.

``TENBOU_WRITE_OLD_URLS=1 pytest tests/league/test_old_urls.py`` rewrites the
snapshot from the URLconf it runs on: only ever from main's.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from league import offline_assets
from league.management.demo.stages import CUP_SLUG
from league.models import Game, Penalty, Rating, Round, Series

pytestmark = pytest.mark.django_db

SNAPSHOT = Path(__file__).with_name("old_urls.json")
PERMANENT = (301, 308)
TITLE = re.compile(r"<title>(.*?)</title>", re.S)

# Each URL name's sample arguments: "$key" is a value of samples(), anything else as it is.
ARGS: dict[str, list[dict[str, Any]]] = {
    "logout": [{}], "login": [{}], "password_change": [{}], "password_change_done": [{}], "password_reset": [{}],
    "password_reset_done": [{}], "password_reset_complete": [{}],
    "password_reset_confirm": [{"uidb64": "MQ", "token": "set-password"}],
    "set_language": [{}],
    "index": [{}],
    "series-standings": [{"slug": "$league"}, {"slug": "$event"}, {"slug": "$cup"}],
    "player-detail": [{"slug": "$league", "player_id": "$player"}],
    "player-series": [{"player_id": "$player"}],
    "game-detail": [{"pk": "$live"}, {"pk": "$finished"}, {"pk": "$event_game"}],
    "openapi-json": [{}], "api-root": [{}], "series_list": [{}],
    "series_standings": [{"slug": "$league"}], "series_games": [{"slug": "$league"}],
    "game_detail": [{"game_id": "$finished"}], "player_detail": [{"player_id": "$player"}],
    "event_detail": [{"slug": "$event"}], "event_stages": [{"slug": "$cup"}], "event_teams": [{"slug": "$cup"}],
    "ratings": [{}],
    "rating": [{"slug": "demo-tenhou"}, {"slug": "demo-mers"}],
    "rating-csv": [{"slug": "demo-tenhou"}],
    "rating-history": [{"slug": "demo-tenhou", "player_id": "$player"}],
    "script-words": [{"language": "en", "version": "$words_version"}, {"language": "ja", "version": "old"}],
    "healthz": [{}], "readyz": [{}], "server-time": [{}],
    "series-standings-csv": [{"slug": "$league"}], "series-games-csv": [{"slug": "$league"}],
    "series-hands-csv": [{"slug": "$league"}],
    "staff-home": [{}], "staff-sw": [{}], "staff-manifest": [{}], "staff-login-again": [{}],
    "staff-series": [{"slug": "$league"}, {"slug": "$event"}],
    "staff-start": [{"slug": "$league"}],
    "staff-game": [{"pk": "$live"}, {"pk": "$finished"}],
    "staff-preview": [{"pk": "$live"}],
    "staff-edit-hand": [{"pk": "$live", "number": 1}],
    "staff-kept": [{"pk": "$live"}],
    "staff-undo": [{"pk": "$live"}], "staff-finish": [{"pk": "$live"}], "staff-reopen": [{"pk": "$finished"}],
    "staff-final-scores": [{"pk": "$finished"}],
    "staff-penalties": [{"pk": "$penalty_game"}],
    "staff-cancel-penalty": [{"pk": "$penalty_game", "penalty_pk": "$penalty"}],
    "offline-engine": [{}], "offline-engine-js": [{}], "offline-engine-zip": [{}],
    "offline-runtime": [{"name": "pyodide.js"}],
    "staff-offline-game": [{"pk": "$live"}],
    "staff-signoff": [{"pk": "$event_game"}],
    "staff-signoff-resolve": [{"pk": "$event_game", "signoff_pk": 1}],
    "staff-pins": [{"slug": "$event"}],
    "webhooks-manage": [{"slug": "$league"}],
    "signoff-link": [{"token": "$seat_token"}],
    "signoff-player": [{"code": "$code"}],
    "signoff-tables": [{"slug": "$event"}],
    "staff-import": [{"slug": "$league"}],
    "staff-export-log": [{"pk": "$finished"}],
    "event-new": [{}],
    "event-edit": [{"slug": "$event"}, {"slug": "$cup"}],
    "event-dashboard": [{"slug": "$event"}, {"slug": "$cup"}],
    **{name: [{"slug": "$event"}] for name in (
        "event-settings", "event-roles", "event-players", "event-import", "event-check-in", "event-seat",
        "event-results", "event-public", "signup-form", "signup-desk", "signup-erase", "signup-csv")},
    "event-drop": [{"slug": "$event", "number": "$registration"}],
    "event-round": [{"slug": "$event", "number": "$started"}, {"slug": "$event", "number": "$draft"}],
    **{name: [{"slug": "$event", "number": "$started"}] for name in (
        "event-swap", "event-substitute", "event-publish", "event-start", "event-clock")},
    "event-extra-time": [{"slug": "$event", "number": "$started", "table": 1}],
    "event-print": [{"slug": "$event", "kind": k} for k in ("by-name", "by-table", "score-sheets", "standings")],
    "event-player": [{"slug": "$event", "number": "$registration"}],
    "event-qr": [{"slug": "$event", "number": "$registration"}],
    "event-screen": [{"slug": "$event", "kind": k} for k in ("clock", "seating", "standings")],
    "event-short": [{"code": "$code"}, {"code": "$code_lower"}],
    "signup-link": [{"token": "$signup_token"}],
    "signup-decide": [{"slug": "$event", "pk": "$signup"}],
    "stages-standings": [{"slug": "$cup"}], "stages-teams": [{"slug": "$cup"}],
    **{name: [{"slug": "$cup"}] for name in ("stages-manage", "stages-rules", "stages-playoff", "ema-preview")},
    "stages-cut": [{"slug": "$cup", "number": 2}], "stages-seat": [{"slug": "$cup", "number": 2}],
    "ema-file": [{"slug": "$cup", "kind": "csv"}, {"slug": "$cup", "kind": "xlsx"}],
}


def samples() -> dict[str, str]:
    """The demo's values the paths name, read from this test's database."""
    from league.script_words import words_script
    from league.services import signoff as signoff_services
    from league.services import signup as desk

    league = Series.objects.get(slug="demo-league")
    cup = Series.objects.get(slug=CUP_SLUG)  # the other event, whatever the demo calls it
    event = Series.objects.exclude(pk__in=[league.pk, cup.pk]).get()
    live = league.games.filter(status=Game.Status.IN_PROGRESS).order_by("pk").first()
    finished = league.games.filter(status=Game.Status.FINISHED).exclude(final_scores=None).order_by("pk").first()
    penalty = Penalty.objects.filter(game__series=league).order_by("pk").first()
    event_game = event.games.order_by("pk").first()
    registration = event.registrations.filter(is_substitute=False).order_by("number").first()
    for engine, counted in (("tenhou", [league]), ("mers", [event, cup])):
        rating, made = Rating.objects.get_or_create(slug=f"demo-{engine}", defaults={"name": "Demo", "engine": engine})
        if made:
            rating.series.set(counted)
    desk.configure_signup(series=event, is_open=True, closes_at=None, cap=None, moderated=True)
    signup = desk.sign_up(series=event, first_name="Aiko", last_name="Sato", email="aiko@example.org", country="JP")
    values = {
        "league": league.slug, "event": event.slug, "cup": cup.slug,
        "live": live.pk, "finished": finished.pk, "event_game": event_game.pk,
        "player": live.seats.order_by("seat").first().player_id,
        "penalty": penalty.pk, "penalty_game": penalty.game_id,
        "registration": registration.number, "code": registration.code, "code_lower": registration.code.lower(),
        "started": event.event_rounds.filter(status=Round.Status.STARTED).order_by("number").last().number,
        "draft": event.event_rounds.filter(status=Round.Status.DRAFT).order_by("number").first().number,
        "seat_token": signoff_services.seat_link_token(event_game, 0),
        "signup_token": desk.link_token(signup), "signup": signup.pk,
        "words_version": words_script("en")[0],
    }
    return {k: str(v) for k, v in values.items()}


def url_patterns() -> Iterator[tuple[str, str]]:
    """(name, route) of every named pattern but the admin's, routes as written."""
    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> Iterator[tuple[str, str]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace != "admin":
                    yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif p.name:
                yield p.name, prefix + str(p.pattern)

    yield from walk(get_resolver().url_patterns, "/")


def fill(route: str, args: dict[str, Any]) -> str:
    """The route with each <converter:name> replaced by its sample ("$key" as "{key}")."""
    def value(match: re.Match[str]) -> str:
        given = args[match[1]]
        return "{" + given[1:] + "}" if isinstance(given, str) and given.startswith("$") else str(given)

    return re.sub(r"<(?:\w+:)?(\w+)>", value, route)


def answer(client: Client, path: str) -> dict[str, Any]:
    """The first status not a permanent redirect, and the page the path ends at."""
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    while response.status_code in PERMANENT:
        response = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
    first = response.status_code
    hops = 0
    while response.status_code in (301, 302, 303, 307, 308) and hops < 5:
        response = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
        hops += 1
    content_type = response.get("Content-Type", "")
    title = None
    if content_type.startswith("text/html") and not getattr(response, "streaming", False):
        found = TITLE.search(response.content.decode())
        title = " ".join(found[1].split()) if found else None
    return {"first": first, "status": response.status_code, "type": content_type,
            "download": response.get("Content-Disposition"), "title": title}


def clients() -> tuple[Client, Client]:
    staff = Client()
    staff.force_login(User.objects.create_superuser("old-urls", "old-urls@example.org", "pw"))
    return Client(), staff


def same_page(recorded: dict[str, Any], now: dict[str, Any]) -> bool:
    def title(value: str | None) -> str | None:
        return None if value is None else value.lower().replace("tournament", "event")

    return ({k: now[k] for k in ("first", "status", "type", "download")}
            == {k: recorded[k] for k in ("first", "status", "type", "download")}
            and title(now["title"]) == title(recorded["title"]))


@pytest.fixture
def no_runtime(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The same answer with or without the Pyodide runtime fetched on this machine."""
    monkeypatch.setattr(offline_assets, "ASSETS", tmp_path / "no-runtime")


def test_every_old_path_answers_the_same_page_or_redirects_to_it(demo_league: None, no_runtime: None) -> None:
    values = samples()
    visitor, staff = clients()
    if os.environ.get("TENBOU_WRITE_OLD_URLS"):
        routes = list(url_patterns())
        assert sorted({n for n, _ in routes} - set(ARGS)) == []  # every named pattern has its samples
        snapshot = []
        for name, route in routes:
            for args in ARGS[name]:
                path = fill(route, args)
                client = staff if path.startswith("/staff/") else visitor
                snapshot.append({"name": name, "path": path, **answer(client, path.format(**values))})
        SNAPSHOT.write_text(json.dumps(snapshot, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    snapshot = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert len({e["name"] for e in snapshot}) >= 100 and any(e["path"] == "/n/{code}" for e in snapshot)
    broken = []
    for entry in snapshot:
        client = staff if entry["path"].startswith("/staff/") else visitor
        now = answer(client, entry["path"].format(**values))
        if not same_page(entry, now):
            broken.append((entry["name"], entry["path"], {k: now[k] for k in entry if k in now}))
    assert broken == []
