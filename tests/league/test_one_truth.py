"""One event, one truth: every surface that ranks the players of an event
gives the same order and points as the read model (``league.standings``).

The event is the 16-player one of ``tests/league/services/test_stages.py``
(ari-ari: 40,000 / 30,000 / 20,000 / 10,000 settle as +60.0 / +10.0 / -20.0 /
-50.0), four qualifying rounds and a final of the top 4 carrying half their
points, with three changes:

- round 4, table 2 ([2 8 10 16] in finishing order): 17, a substitute, plays
  8's seat and finishes 2nd. Under the fixed rule (-15.0 score, -15.0 uma) 8
  gets -30.0 there instead of +10.0, and that 2nd is not 8's: 8 has one 2nd
  (round 2), one 3rd (round 3), one 4th (round 1);
- 18 registers late, after round 4, and plays nothing: never placed;
- teams Red (1 6 11 16), Green (2 7 12 13) and Blue (3 8 10 14): Blue has
  nobody in the final (round 5).

Qualifying totals (the stages test's, 8 changed):
    1 +190.0, 5 +190.0 (1 above 5 head-to-head), 2 +140.0, 4 +85.0, 6 +85.0
    (4 above 6 head-to-head: the cut line), 9 +80.0, 3 +60.0, 7 +60.0 (3 above
    7 head-to-head), 10 -50.0, 11 -80.0, 13 -90.0, 8 -50 + 10 - 20 - 30 = -90.0
    (13 and 8 never met; 13 has a first, 8 none: 13 above on most firsts),
    12 -114.0, 14 -136.0, 15 -170.0, 16 -200.0.
Final (seeds 1 5 2 4 at one table; 4 wins, 1 2nd, 5 3rd, 2 4th):
    1: 95.0 + 10.0 = +105.0   4: 42.5 + 60.0 = +102.5
    5: 95.0 - 20.0 = +75.0    2: 70.0 - 50.0 = +20.0
The sum of every game would put 5 (+170.0) second and 4 (+145.0) third:
every surface must rank by the final stage instead.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Registration, Series
from league.services import event, record_final_scores
from league.services import stages as st
from league.services.event.rounds import store_round
from league.standings.event import event_standings, final_result, stage_tables, team_standings
from tests.factories import make_director
from tests.league.services.test_stages import QUALIFYING, SCORES, P, make_event, number_of, play_round, play_seated

pytestmark = pytest.mark.django_db

# (event number, thousandths), the hand-checked final order above.
EXPECTED = [
    (1, 105000), (4, 102500), (5, 75000), (2, 20000),
    (6, 85000), (9, 80000), (3, 60000), (7, 60000), (10, -50000), (11, -80000), (13, -90000), (8, -90000),
    (12, -114000), (14, -136000), (15, -170000), (16, -200000),
]
ROW = re.compile(r'data-player="(\d+)" data-points="(-?\d+)"')


def build_event(slug: str = "one-truth") -> Series:
    series = make_event(slug)
    Registration.objects.filter(series=series, number__in=[3, 8, 10, 14]).update(team="Blue")
    sub = event.register_player(series=series, first_name="Sam", last_name="Stand-in", number=17, is_substitute=True)
    event.check_in(registrations=[sub])
    for n, tables in enumerate(QUALIFYING[:3], start=1):
        play_round(series, n, tables)
    regs = {r.number: r.pk for r in series.registrations.all()}
    rnd = store_round(series, event.ensure_event(series), 4, [[regs[n] for n in t] for t in QUALIFYING[3]], "test")
    event.publish_round(round=rnd)
    event.substitute(seat=rnd.seats.get(registration__number=8), substitute=sub)
    event.start_round(round=rnd)
    for table in rnd.tables.select_related("game"):
        record_final_scores(game=table.game, scores=SCORES.get((4, table.number), P))
    event.register_player(series=series, first_name="Late", last_name="Comer", number=18)
    final_stage = series.stages.get(number=2)
    st.cut_to_stage(stage=final_stage)
    play_seated(series, st.seat_stage_round(stage=final_stage), {1: P}, order={1: [4, 1, 5, 2]})
    return series


def expected_ids(series: Series) -> list[tuple[int, int]]:
    player_of = dict(Registration.objects.filter(series=series).values_list("number", "player_id"))
    return [(player_of[n], pts) for n, pts in EXPECTED]


def marked_rows(html: str) -> list[tuple[int, int]]:
    return [(int(p), int(v)) for p, v in ROW.findall(html)]


def section(html: str, heading_id: str) -> str:
    start = html.index(f'id="{heading_id}"')
    return html[start:html.index("</section>", start)]


def test_the_read_model_gives_the_hand_checked_order() -> None:
    series = build_event()
    numbers = number_of(series)
    by_player = {v: k for k, v in dict(Registration.objects.filter(series=series).values_list("number", "player_id")).items()}
    ranked = event_standings(series).standings.ranked
    assert [(by_player[r.player_id], r.total) for r in ranked] == EXPECTED
    assert [r.rank for r in ranked] == list(range(1, 17))
    # The plain sum of every game travels with the rows, labelled, never ranking.
    assert [r.games_sum for r in ranked[:4]] == [200000, 145000, 170000, 90000]
    # Why 13 is above 8, and that the substitute's 2nd is not 8's.
    eight = next(r for r in ranked if by_player[r.player_id] == 8)
    assert (eight.separated_by, eight.places, eight.games) == ("firsts", (0, 1, 1, 1), 4)
    assert [(by_player[r.player_id], r.separated_by) for r in ranked[1:6]] == [
        (4, "points"), (5, "points"), (2, "points"), (6, "stage"), (9, "points")]  # 6 is below the finalists
    # The stages page's overall result is the same list.
    assert [(numbers[r.player.id], r.total) for r in final_result(series)] == EXPECTED


def test_every_surface_gives_the_same_order_and_points(client: Client) -> None:
    series = build_event()
    truth = expected_ids(series)
    slug = series.slug
    public = {
        "series page": client.get(reverse("series-standings", args=[slug])).content.decode(),
        "public event page": client.get(reverse("event-public", args=[slug])).content.decode(),
        "projector": client.get(reverse("event-screen", args=[slug, "standings"])).content.decode(),
        "overall result": section(client.get(reverse("stages-standings", args=[slug])).content.decode(), "final-h"),
    }
    client.force_login(make_director(series, "director"))
    staff = {
        "dashboard": client.get(reverse("event-dashboard", args=[slug])).content.decode(),
        "printout": client.get(reverse("event-print", args=[slug, "standings"])).content.decode(),
        "EMA preview": section(client.get(reverse("ema-preview", args=[slug])).content.decode(), "ranks-h"),
    }
    for name, html in {**public, **staff}.items():
        assert marked_rows(html) == truth, name
    # The read API (issue 37): the same rows, points in the same thousandths.
    client.logout()
    api = client.get(f"/api/v1/series/{slug}/standings").json()
    assert [(r["player_id"], r["points"]) for r in api["ranked"]] == truth, "API"
    client.force_login(make_director(series, "director2"))
    # The series page's chart table: each player's total after the last round is the standings' points.
    chart = re.findall(r'<th scope="row">([^<]+)</th>(?:<td class="num">[^<]*</td>)*<td class="num">([^<]*)</td></tr>',
                       public["series page"])
    full = dict(Registration.objects.filter(series=series).values_list("player_id", "first_name"))
    assert [(name.split()[0], last) for name, last in chart] == [
        (full[p], f"{Decimal(v) / 1000:+.1f}") for p, v in truth]
    # Each player's page: the same points, and the rank from the same order.
    for place, (player_id, pts) in enumerate(truth, start=1):
        page = client.get(reverse("player-detail", args=[slug, player_id])).content.decode()
        assert marked_rows(page) == [(player_id, pts)], player_id
        assert f'data-rank="{place}"' in page, player_id
    # standings.csv: names and points (no ids in a spreadsheet).
    names = dict(Registration.objects.filter(series=series).values_list("player_id", "first_name"))
    body = b"".join(client.get(reverse("series-standings-csv", args=[slug])).streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))[1:]
    assert [(r[1].split()[0], Decimal(r[3])) for r in rows] == [
        (names[p], Decimal(v) / 1000) for p, v in truth]
    # The EMA file: the same places and scores; 16 placed + 1 substitute who played = 17 participants.
    body = client.get(reverse("ema-file", args=[slug, "csv"])).content.decode("utf-8-sig")
    ema_rows = list(csv.reader(io.StringIO(body)))[1:]
    assert [(r[3], Decimal(r[7])) for r in ema_rows] == [(names[p], Decimal(v) / 1000) for p, v in truth]
    assert {r[1] for r in ema_rows} == {"17"}
    assert [int(r[2]) for r in ema_rows] == list(range(1, 17))


def test_swiss_seating_and_the_cut_read_the_same_order() -> None:
    series = build_event()
    numbers = number_of(series)
    qualifying = stage_tables(series)[0]
    standings_after_4 = event_standings(series, through_round=4).standings.ranked
    player_of = {r.player.player_id: numbers[r.player.id] for r in qualifying.rows}
    # Before the cut the event's order is the qualifying stage's, the one the cut and Swiss seating read.
    assert [player_of[r.player_id] for r in standings_after_4] == [numbers[r.player.id] for r in qualifying.rows]
    assert [numbers[e.registration_id] for e in series.stages.get(number=2).seeds.all()] == [1, 5, 2, 4]
    assert [numbers[r.player.id] for r in qualifying.rows[:6]] == [1, 5, 2, 4, 6, 9]


def test_teams_with_nobody_in_a_round_render_with_that_round_at_zero(client: Client) -> None:
    # Blue (3 8 10 14) in round 5: nobody, so 0. Rounds 1-4 (the sum rule):
    #   r1 3: -20, 8: -50, 10: +10, 14: +10 = -50;   r2 3: +60, 8: +10, 10: -20, 14: -50 = 0;
    #   r3 3: +10, 8: -20, 10: -20, 14: -50 = -80;   r4 3: +10, 8: -30 (the fixed substitute result),
    #   10: -20, 14: -46 = -86;  total -216.0.
    series = build_event()
    teams = {t.name: t for t in team_standings(series)}
    assert teams["Blue"].by_round == {1: -50000, 2: 0, 3: -80000, 4: -86000, 5: 0}
    assert teams["Blue"].total == -216000
    for lang in ("en", "ja"):
        response = client.get(reverse("stages-teams", args=[series.slug]), HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 200, lang


def test_hidden_final_shows_the_public_the_qualifying_order(client: Client) -> None:
    # The director hides round 5 (the final): the public sees the standings after round 4, which are
    # the qualifying stage's (the final stage starts after the limit); staff still see the final order.
    series = build_event()
    event.hide_results(series=series, from_round=5)
    player_of = dict(Registration.objects.filter(series=series).values_list("number", "player_id"))
    qualifying = [(player_of[number_of(series)[r.player.id]], r.total) for r in stage_tables(series)[0].rows]
    assert qualifying[:5] == [(player_of[1], 190000), (player_of[5], 190000), (player_of[2], 140000),
                              (player_of[4], 85000), (player_of[6], 85000)]
    slug = series.slug
    for name in ("event-public", "event-screen"):
        args = [slug, "standings"] if name == "event-screen" else [slug]
        assert marked_rows(client.get(reverse(name, args=args)).content.decode()) == qualifying, name
    client.force_login(make_director(series, "director"))
    assert marked_rows(client.get(reverse("event-dashboard", args=[slug])).content.decode()) == expected_ids(series)


def test_players_under_the_minimum_are_listed_apart_in_the_same_order(client: Client) -> None:
    # Five games to be ranked: only the finalists have five. The others follow, unranked, in the final order.
    series = build_event()
    Series.objects.filter(pk=series.pk).update(min_games=5)
    series.refresh_from_db()
    truth = expected_ids(series)
    table = event_standings(series).standings
    assert [(r.player_id, r.total, r.rank) for r in table.ranked] == [(p, v, i) for i, (p, v) in enumerate(truth[:4], 1)]
    assert [(r.player_id, r.total, r.rank) for r in table.unranked] == [(p, v, None) for p, v in truth[4:]]
    page = client.get(reverse("event-public", args=[series.slug])).content.decode()
    assert marked_rows(page) == truth and page.count("data-unranked") == 12
