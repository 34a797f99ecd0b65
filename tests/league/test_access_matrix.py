"""Every route of ``league/urls.py`` × every role × GET and POST (issue 32).

The table below gives each URL name its rule; the test walks the URL patterns
themselves, so a route added without a rule fails here before it can ship
with no gate. Four logins ask each route: nobody (anonymous), a scorer of
another series, a scorer of this event and a director of it. A refusal is
the login page (or the entry script's 401) for nobody and 403 for a login; a
method the route does not take (405) refuses as well. A role the rule lets
in must get past the gate: whatever the view then answers (a page, a
redirect, a form's 400, a 404 for an object the request names that does not
exist), never 401, 403 or the login page.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse

from league import urls
from league.access import can_create_events, can_direct, can_score
from league.models import Series
from league.services import event
from tests.factories import make_director, make_game, make_players, make_scorer, make_series

PUBLIC = "public"  # anyone, logged in or not
LOGIN = "login"  # any login (what it shows depends on the login's series)
SCORE = "score"  # a scorer or a director of the series
DIRECT = "direct"  # a director of the series
CREATE = "create"  # a login with the permission to create events (league.add_series)
DJANGO = "django"  # Django's own (the admin checks is_staff, accounts are the login pages)

RULES: dict[str, str] = {
    "admin/": DJANGO, "accounts/": DJANGO, "logout": PUBLIC, "set_language": PUBLIC,
    # public pages, files and probes
    "index": PUBLIC, "series-standings": PUBLIC, "player-detail": PUBLIC, "player-series": PUBLIC,
    "game-detail": PUBLIC, "healthz": PUBLIC, "readyz": PUBLIC, "server-time": PUBLIC,
    "series-standings-csv": PUBLIC, "series-games-csv": PUBLIC, "series-hands-csv": PUBLIC,
    "signoff-link": PUBLIC, "signoff-player": PUBLIC, "signoff-tables": PUBLIC,
    "event-public": PUBLIC, "event-player": PUBLIC, "event-qr": PUBLIC, "event-screen": PUBLIC,
    "event-short": PUBLIC, "stages-standings": PUBLIC, "stages-teams": PUBLIC,
    # the staff web app's shell and the phone's engine: no data of any series
    "staff-sw": PUBLIC, "staff-manifest": PUBLIC, "script-words": PUBLIC, "engine-words": PUBLIC, "staff-login-again": PUBLIC,
    "offline-engine": PUBLIC, "offline-engine-js": PUBLIC, "offline-engine-zip": PUBLIC, "offline-runtime": PUBLIC,
    "staff-home": LOGIN,
    # scoring: hands and end scores, the table's sign-off, logs
    "staff-series": SCORE, "staff-start": SCORE, "staff-game": SCORE, "staff-preview": SCORE,
    "staff-edit-hand": SCORE, "staff-kept": SCORE, "staff-undo": SCORE, "staff-finish": SCORE, "staff-reopen": SCORE,
    "staff-final-scores": SCORE, "staff-penalties": SCORE, "staff-cancel-penalty": SCORE,
    "staff-offline-game": SCORE, "staff-signoff": SCORE, "staff-signoff-resolve": SCORE,
    "staff-import": SCORE, "staff-export-log": SCORE,
    # the dashboard: a scorer sees the tables and enters their end scores there
    "event-dashboard": SCORE,
    # running the event
    "event-new": CREATE, "event-edit": DIRECT,
    "staff-pins": DIRECT, "event-settings": DIRECT, "event-roles": DIRECT, "event-players": DIRECT,
    "event-import": DIRECT, "event-check-in": DIRECT, "event-drop": DIRECT, "event-seat": DIRECT,
    "event-results": DIRECT, "event-round": DIRECT, "event-swap": DIRECT, "event-substitute": DIRECT,
    "event-publish": DIRECT, "event-start": DIRECT, "event-clock": DIRECT, "event-extra-time": DIRECT,
    "event-print": DIRECT, "stages-manage": DIRECT, "stages-rules": DIRECT, "stages-playoff": DIRECT,
    "stages-cut": DIRECT, "stages-seat": DIRECT, "ema-preview": DIRECT, "ema-file": DIRECT,
    # players register themselves (issue 39); the sign-up desk is the director's
    "signup-form": PUBLIC, "signup-link": PUBLIC,
    # the read API (issue 37): public data only; webhooks are the director's
    "api/v1/": PUBLIC, "webhooks-manage": DIRECT,
    # ratings across series (issue 38): public pages
    "ratings": PUBLIC, "rating": PUBLIC, "rating-csv": PUBLIC, "rating-history": PUBLIC,
    "signup-desk": DIRECT, "signup-erase": DIRECT, "signup-csv": DIRECT, "signup-decide": DIRECT,
}

ROLES = ("anonymous", "other_scorer", "scorer", "director")
ALLOWED = {
    PUBLIC: set(ROLES), LOGIN: {"other_scorer", "scorer", "director"}, SCORE: {"scorer", "director"},
    DIRECT: {"director"}, CREATE: set(),  # none of the four holds the permission; see the test below
}
KINDS = {"event-print": "by-name", "event-screen": "clock", "ema-file": "csv"}


def patterns() -> list[tuple[str, URLPattern | URLResolver]]:
    out: list[tuple[str, URLPattern | URLResolver]] = []
    for p in urls.urlpatterns:
        key = p.name if isinstance(p, URLPattern) and p.name else str(p.pattern)
        out.append((key, p))
    return out


def test_every_route_has_a_rule() -> None:
    keys = [k for k, _p in patterns()]
    assert len(keys) == len(set(keys)), "two routes share a name"
    missing = set(keys) - set(RULES)
    assert not missing, f"give these routes a rule in RULES: {sorted(missing)}"
    assert not set(RULES) - set(keys), "a rule for a route that is gone"


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    cup = make_series("ema-2016", slug="cup", kind=Series.Kind.TOURNAMENT)
    event.ensure_event(cup)
    other = make_series(slug="club")
    players = make_players(4)
    for p in players:
        event.register_player(series=cup, first_name=p.name, last_name="X")
    game = make_game(cup, players, round_number=1, table="1")
    reg = cup.registrations.first()
    return {
        "cup": cup, "game": game, "player": players[0], "reg": reg,
        "users": {
            "anonymous": None,
            "other_scorer": make_scorer(other, "other-scorer"),
            "scorer": make_scorer(cup, "cup-scorer"),
            "director": make_director(cup, "cup-director"),
        },
    }


def _kwargs(name: str, pattern: URLPattern, w: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {
        "slug": w["cup"].slug, "pk": w["game"].pk, "number": 1, "table": 1, "player_id": w["player"].pk,
        "penalty_pk": 1, "signoff_pk": 1, "code": w["reg"].code, "token": "x", "name": "pyodide.js",
        "kind": KINDS.get(name, "csv"), "language": "en", "version": "x",
    }
    return {k: values[k] for k in pattern.pattern.converters}


def _refused(response: Any, role: str) -> bool:
    if role == "anonymous" and response.status_code == 302:
        return "/accounts/login/" in response["Location"]
    return response.status_code in (401, 403, 405)


@pytest.mark.parametrize("name", [k for k, p in patterns() if isinstance(p, URLPattern)])
def test_route_by_role(name: str, world: dict[str, Any]) -> None:
    pattern = dict(patterns())[name]
    assert isinstance(pattern, URLPattern)
    rule = RULES[name]
    url = reverse(name, kwargs=_kwargs(name, pattern, world))
    for role in ROLES:
        client = Client()
        if world["users"][role] is not None:
            client.force_login(world["users"][role])
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            refused = _refused(response, role)
            if role in ALLOWED[rule]:
                assert not refused or response.status_code == 405, (
                    f"{method.upper()} {name} refused {role}: {response.status_code}")
            else:
                assert refused, f"{method.upper()} {name} let {role} in: {response.status_code}"


def test_the_rules_agree_with_league_access(world: dict[str, Any]) -> None:
    cup, users = world["cup"], world["users"]
    assert [can_score(users[r], cup) for r in ROLES[1:]] == [False, True, True]
    assert [can_direct(users[r], cup) for r in ROLES[1:]] == [False, False, True]
    creator = User.objects.create_user("creator")
    assert not can_create_events(creator)
    creator.user_permissions.add(Permission.objects.get(codename="add_series"))
    assert can_create_events(User.objects.get(pk=creator.pk))


def test_the_admin_and_accounts_are_django_s_own(client: Client, world: dict[str, Any]) -> None:
    client.force_login(world["users"]["director"])
    # A director is no admin user: the admin sends them to its own login.
    assert client.get("/admin/").status_code == 302
    assert Client().get(reverse("login")).status_code == 200
