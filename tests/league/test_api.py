"""The read API (/api/v1/): every answer equals what its page shows, for the
demo league, the demo tournament and the demo cup; hidden results and
staff-only fields never appear; the schema in the repository is the one
served; caching, CORS, errors and the per-address limit."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from league.management.commands.api_schema import SCHEMA_FILE
from league.management.commands.demo_league import EVENT_SLUG, SLUG
from league.models import Game, Player, Registration, Seat, Series
from league.services import add_penalty, event
from league.standings.event import event_results, event_standings, final_result, stage_tables, team_standings
from league.views import api as api_views
from tests.league.test_one_truth import build_event, expected_ids, marked_rows, section

pytestmark = pytest.mark.django_db

CUP = "demo-cup"
DEMO = (SLUG, EVENT_SLUG, CUP)


def get(client: Client, path: str, **headers: Any) -> Any:
    response = client.get(f"/api/v1/{path}", **headers)
    assert response.status_code == 200, (path, response.content[:300])
    assert response["Content-Type"] == "application/json"
    return response.json()


def pairs(rows: list[dict[str, Any]]) -> list[tuple[int, int]]:
    return [(r["player_id"], r["points"]) for r in rows]


def test_the_schema_in_the_repository_is_the_served_one(client: Client) -> None:
    served = client.get("/api/v1/openapi.json").json()
    assert served == json.loads(SCHEMA_FILE.read_text(encoding="utf-8")), (
        "docs/api/openapi-v1.json is not the served schema: run `python manage.py api_schema` and commit the diff")
    assert sorted(served["paths"]) == [
        "/api/v1/games/{game_id}", "/api/v1/players/{player_id}", "/api/v1/series", "/api/v1/series/{slug}/event",
        "/api/v1/series/{slug}/games", "/api/v1/series/{slug}/stages", "/api/v1/series/{slug}/standings",
        "/api/v1/series/{slug}/teams"]
    call_command("api_schema", "--check")


def test_the_series_list_is_the_index_pages(client: Client, demo_league: None) -> None:
    body = get(client, "series")
    page = client.get(reverse("index")).content.decode()
    assert [s["slug"] for s in body["series"]] == [s.slug for s in Series.objects.order_by("-start_date", "name")]
    for s in body["series"]:
        assert s["page"] in page
        series = Series.objects.get(slug=s["slug"])
        assert s["finished_games"] == series.games.filter(status=Game.Status.FINISHED).count()
    assert {s["slug"]: s["is_event"] for s in body["series"]} == {SLUG: False, EVENT_SLUG: True, CUP: True}


@pytest.mark.parametrize("slug", DEMO)
def test_standings_equal_the_pages_rows(client: Client, demo_league: None, slug: str) -> None:
    body = get(client, f"series/{slug}/standings")
    page = client.get(reverse("series-standings", args=[slug])).content.decode()
    # The series page marks each row with its player and points (thousandths): the API has the same, in order.
    assert pairs(body["ranked"]) + pairs(body["unranked"]) == marked_rows(page)
    assert len(body["ranked"]) >= 8
    series = Series.objects.get(slug=slug)
    if body["is_event"]:
        assert marked_rows(client.get(reverse("event-public", args=[slug])).content.decode()) == pairs(body["ranked"])
        truth = event_standings(series, public=True).standings
        assert [(r["rank"], r["tied"], r["separated_by"], r["stage"], r["games_sum"]) for r in body["ranked"]] == [
            (r.rank, r.tied, r.separated_by, r.stage, r.games_sum) for r in truth.ranked]
    else:
        truth = series.standings()
    assert [(r["player_id"], r["games"], r["points"], r["places"], r["best"], r["worst"], r["place_sum"])
            for r in body["ranked"]] == [
        (r.player_id, r.games, r.total, list(r.places), r.best, r.worst, r.place_sum) for r in truth.ranked]
    # The tie-break reasons travel: some row is below another on a named rule.
    if slug == CUP:
        assert body["staged"] and {r["separated_by"] for r in body["ranked"][1:]} - {None}


@pytest.mark.parametrize("slug", (EVENT_SLUG, CUP))
def test_stages_and_teams_equal_the_read_model_and_the_pages(client: Client, demo_league: None, slug: str) -> None:
    series = Series.objects.get(slug=slug)
    body = get(client, f"series/{slug}/stages")
    results = event_results(series)
    tables = stage_tables(series, results)
    assert [(s["name"], s["cut"], s["cut_rule"], [(r["player_id"], r["total"], r["rank"], r["goes_on"])
                                                  for r in s["rows"]]) for s in body["stages"]] == [
        (t.stage.name, t.cut, t.cut_rule, [(r.player.player_id, r.total, r.rank, r.goes_on) for r in t.rows])
        for t in tables]
    final = final_result(series, tables, results=results)
    assert [(f["player_id"], f["total"], f["place"]) for f in body["final"]] == [
        (f.player.player_id, f.total, f.place) for f in final]
    page = client.get(reverse("stages-standings", args=[slug])).content.decode()
    assert marked_rows(section(page, "final-h")) == [(f["player_id"], f["total"]) for f in body["final"]]
    teams = get(client, f"series/{slug}/teams")
    truth = team_standings(series, results)
    assert [(t["name"], t["total"], t["rank"], {r["round"]: r["points"] for r in t["rounds"]}) for t in teams["teams"]] \
        == [(t.name, t.total, t.rank, t.by_round) for t in truth]
    teams_page = client.get(reverse("stages-teams", args=[slug])).content.decode()
    for t in truth:
        assert t.name in teams_page


@pytest.mark.parametrize("slug", DEMO)
def test_games_are_paged_in_a_stable_order_and_each_game_is_its_page(
        client: Client, demo_league: None, slug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api_views, "GAMES_PER_PAGE", 7)  # the demo's 17 to 40 games on several pages
    first = get(client, f"series/{slug}/games")
    seen, body = [], first
    while True:
        seen += body["games"]
        if body["next"] is None:
            break
        body = get(client, body["next"].removeprefix("/api/v1/"))
    series = Series.objects.get(slug=slug)
    assert first["count"] == len(seen) == series.games.count()
    assert [g["id"] for g in seen] == sorted(g.pk for g in series.games.all())
    assert first["pages"] == -(-first["count"] // 7)
    # Each game: seats, settlement and hands are the game's stored snapshot and its page's numbers.
    for summary in seen[::5]:
        game = get(client, f"games/{summary['id']}")
        seats = {s.seat: s for s in Seat.objects.filter(game_id=summary["id"])}
        assert [(s["player_id"], s["points"], s["end_score"], s["place"]) for s in game["seats"]] == [
            (seats[i].player_id, seats[i].points, seats[i].end_score, seats[i].place) for i in sorted(seats)]
        assert sorted((r["seat"], r["points"]) for r in game["settlement"]) == sorted(
            (i, s.points) for i, s in seats.items())
        assert sum(r["points"] for r in game["settlement"]) == 0  # the settlement conserves points
        html = client.get(reverse("game-detail", args=[summary["id"]])).content.decode()
        assert re.findall(r'<td class="num info no">(\d+)</td>', html) == [str(h["number"]) for h in game["hands"]]


def test_a_player_is_their_across_series_page(client: Client, demo_league: None) -> None:
    player = Player.objects.filter(seats__game__series__slug=CUP).distinct().order_by("pk").first()
    body = get(client, f"players/{player.pk}")
    assert body["name"] == player.name
    for row in body["series"]:
        counted = Seat.objects.filter(player=player, game__series__slug=row["series"], game__status="finished")
        assert row["games"] == counted.count()
        assert row["points"] == sum(counted.values_list("points", flat=True))
    assert body["points"] == sum(r["points"] for r in body["series"])
    page = client.get(reverse("player-series", args=[player.pk])).content.decode()
    for row in body["series"]:
        assert f"/series/{row['series']}/" in page


def test_the_event_shows_its_rounds_tables_and_clock(client: Client, demo_league: None) -> None:
    body = get(client, f"series/{EVENT_SLUG}/event")
    series = Series.objects.get(slug=EVENT_SLUG)
    assert [r["number"] for r in body["rounds"]] == list(
        series.event_rounds.filter(status__in=["published", "started"]).order_by("number").values_list("number",
                                                                                                       flat=True))
    assert body["current_round"] is not None and body["tables"]
    page = client.get(reverse("event-public", args=[EVENT_SLUG])).content.decode()
    for table in body["tables"]:
        assert {s["seat"] for s in table["seats"]} == {0, 1, 2, 3}
        for seat in table["seats"]:
            assert seat["name"] in page  # the event page's seating of the same round
    assert marked_rows(page) == pairs(body["standings"]["ranked"])
    assert get(client, f"series/{SLUG}/standings")["is_event"] is False
    assert client.get(f"/api/v1/series/{SLUG}/event").status_code == 404


def test_staff_only_fields_never_appear(client: Client, demo_league: None) -> None:
    secrets = []
    for reg in Registration.objects.all():
        reg.ema_number = f"EMA{reg.pk:05d}X"
        reg.save(update_fields=["ema_number"])
        secrets += [reg.ema_number, reg.code]
    for p in Player.objects.all():
        Player.objects.filter(pk=p.pk).update(ema_number=f"PEMA{p.pk:04d}", signoff_pin=f"pinhash{p.pk:04d}")
        secrets += [f"PEMA{p.pk:04d}", f"pinhash{p.pk:04d}"]
    bodies = [client.get("/api/v1/series").content]
    for slug in DEMO:
        for tail in ("standings", "games", "event", "stages", "teams"):
            bodies.append(client.get(f"/api/v1/series/{slug}/{tail}").content)
    for game in Game.objects.all()[::4]:
        bodies.append(client.get(f"/api/v1/games/{game.pk}").content)
    for player in Player.objects.all():
        bodies.append(client.get(f"/api/v1/players/{player.pk}").content)
    text = b"\n".join(bodies).decode()
    assert [s for s in secrets if s in text] == []
    assert "ema" not in text.lower().replace("emil", "")  # no field named for it either


def test_hidden_results_never_appear(client: Client) -> None:
    # test_one_truth's event, its final (round 5) hidden: the public sees the qualifying order, and nothing of round 5.
    series = build_event("api-hidden")
    event.hide_results(series=series, from_round=5)
    slug = series.slug
    standings = get(client, f"series/{slug}/standings")
    assert standings["results_hidden_from_round"] == 5 and standings["through_round"] == 4
    assert pairs(standings["ranked"]) == marked_rows(client.get(reverse("event-public", args=[slug])).content.decode())
    assert pairs(standings["ranked"]) != expected_ids(series)  # the final order is staff's only
    final_games = list(Game.objects.filter(series=series, round_number=5).values_list("pk", flat=True))
    games = get(client, f"series/{slug}/games")
    assert final_games and not set(final_games) & {g["id"] for g in games["games"]}
    assert games["count"] == Game.objects.filter(series=series, round_number__lt=5).count()
    for pk in final_games:
        response = client.get(f"/api/v1/games/{pk}")
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert get(client, f"series/{slug}/stages") == {
        "series": slug, "results_hidden": True, "tiebreaks": get(client, f"series/{slug}/stages")["tiebreaks"],
        "stages": [], "final": [], "refused_games": []}
    assert get(client, f"series/{slug}/teams")["teams"] == []
    # A finalist's across-series totals leave round 5 out, as their page does.
    reg = Registration.objects.get(series=series, number=4)
    body = get(client, f"players/{reg.player_id}")
    row = next(r for r in body["series"] if r["series"] == slug)
    shown = Seat.objects.filter(player_id=reg.player_id, game__series=series, game__round_number__lt=5)
    assert row["games"] == shown.count() and row["results_hidden"]
    # The event's tables of the hidden round: who sits where, no score.
    tables = get(client, f"series/{slug}/event")
    assert tables["current_round"] == 5
    assert all(s["score"] is None and s["points"] is None for t in tables["tables"] for s in t["seats"])
    event.reveal_results(series=series)
    assert pairs(get(client, f"series/{slug}/standings")["ranked"]) == expected_ids(series)


def test_answers_are_cached_under_the_pages_stamps_with_etags(client: Client, demo_league: None) -> None:
    path = f"/api/v1/series/{SLUG}/standings"
    first = client.get(path)
    etag = first["ETag"]
    assert first["Cache-Control"] == "no-cache" and etag.startswith('"')
    again = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["Access-Control-Allow-Origin"] == "*"
    # A finished game's correction moves the series' results stamp: a new ETag, new numbers.
    game = Game.objects.filter(series__slug=SLUG, status=Game.Status.FINISHED).first()
    add_penalty(game=game, seat=0, points=-20000, reason="api test")
    changed = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    seat = Seat.objects.get(game=game, seat=0)
    row = next(r for r in changed.json()["ranked"] + changed.json()["unranked"] if r["player_id"] == seat.player_id)
    assert row["points"] == Series.objects.get(slug=SLUG).standings().by_player()[seat.player_id].total


def test_cors_allows_reading_from_any_origin_and_nothing_else(client: Client, demo_league: None) -> None:
    got = client.get("/api/v1/series", HTTP_ORIGIN="https://overlay.example")
    assert got["Access-Control-Allow-Origin"] == "*" and "ETag" in got["Access-Control-Expose-Headers"]
    assert "Access-Control-Allow-Credentials" not in got
    pre = client.options("/api/v1/series", HTTP_ORIGIN="https://overlay.example",
                         HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET")
    assert pre.status_code == 204 and pre["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    head = client.head("/api/v1/players/" + str(Player.objects.first().pk))  # not cached yet: the view's GET
    assert head.status_code == 200 and head.content == b"" and head["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Origin" not in client.get(reverse("index"))
    posted = client.post("/api/v1/series")
    assert posted.status_code == 405 and "Access-Control-Allow-Origin" not in posted


def test_bad_input_names_the_field(client: Client, demo_league: None) -> None:
    for bad in ("x", "0", "-1", "99999999999"):
        response = client.get(f"/api/v1/series/{SLUG}/games?page={bad}")
        assert response.status_code == 400, bad
        assert response.json()["error"]["field"] == "page" and response.json()["error"]["code"] == "invalid"
    assert client.get("/api/v1/series/nope/standings").json() == {
        "error": {"code": "not_found", "message": "No Series matches the given query.", "field": None}}
    assert client.get(f"/api/v1/games/{2**70}").status_code == 404
    past = get(client, f"series/{SLUG}/games?page=9")
    assert past["games"] == [] and past["next"] is None


def test_the_api_has_its_own_per_address_limit(client: Client, demo_league: None, settings: Any) -> None:
    settings.API_RATE_LIMIT = "3/d"  # a day: no window boundary falls inside the test
    settings.PUBLIC_RATE_LIMIT = "100/d"
    codes = [client.get(f"/api/v1/games/{pk}").status_code
             for pk in Game.objects.order_by("pk").values_list("pk", flat=True)[:5]]
    assert codes == [200, 200, 200, 429, 429]
    limited = client.get(f"/api/v1/players/{Player.objects.first().pk}")
    assert limited.json()["error"]["code"] == "too_many_requests" and int(limited["Retry-After"]) >= 1
    # Every request the cache does not answer is counted; the pages keep their own count.
    assert client.get("/api/v1/series/" + SLUG + "/games").status_code == 429
    assert client.get(reverse("series-standings", args=[SLUG])).status_code == 200



def test_a_repeat_is_answered_from_the_cache_before_the_limit(client: Client, demo_league: None,
                                                              settings: Any) -> None:
    # CachedPageMiddleware answers a cached API answer, as it does a page: the limit never sees it.
    settings.API_RATE_LIMIT = "1/d"
    path = f"/api/v1/series/{EVENT_SLUG}/stages"
    first = client.get(path)
    assert [client.get(path).status_code for _ in range(5)] == [200] * 5
    assert client.get(path).content == first.content
    assert client.get(f"/api/v1/series/{EVENT_SLUG}/teams").status_code == 429  # not cached yet: counted
