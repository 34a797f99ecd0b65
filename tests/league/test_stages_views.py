"""The stage, team and EMA pages, over the 16-player event of
``services/test_stages.py`` (the cut of a top 4 falls between players 4 and 6,
level on 85.0, drawn by head-to-head)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from league.forms.stages import parse_stages, stages_text
from league.models import Round, Series, Stage
from league.services import stages as st
from tests.factories import make_director
from tests.league.services.test_stages import P, make_event, play_seated, qualify

pytestmark = pytest.mark.django_db


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


@pytest.fixture
def series() -> Series:
    s = make_event(slug="open")
    qualify(s)
    return s


@pytest.fixture
def director(client: Client, series: Series) -> Client:
    client.force_login(make_director(series, "director"))
    return client


def test_staff_pages_need_a_scorer_of_the_series(client: Client, series: Series) -> None:
    pages = [url("stages-manage", "open"), url("ema-preview", "open"), url("ema-file", "open", "csv")]
    for page in pages:
        assert client.get(page).status_code == 302
    client.force_login(User.objects.create_user("visitor"))
    for page in pages:
        assert client.get(page).status_code == 403
    assert client.post(url("stages-cut", "open", 2)).status_code == 403


def test_public_stage_page_shows_the_cut_line_and_the_rule_that_drew_it(client: Client, series: Series) -> None:
    page = client.get(url("stages-standings", "open")).content.decode()
    assert "Top 4 go on to Final." in page
    assert "The line was drawn by <strong>head-to-head</strong>" in page
    assert page.count('class="cut-line ') == 1
    assert "below on head-to-head" in page
    assert "the cut is not made yet" in page


def test_the_director_cuts_seats_and_the_final_counts_half(director: Client, series: Series) -> None:
    response = director.post(url("stages-cut", "open", 2))
    assert response.status_code == 302
    response = director.post(url("stages-seat", "open", 2))
    assert response["Location"] == url("event-round", "open", 5)
    rnd = Round.objects.get(series=series, number=5)
    play_seated(series, rnd, {1: P}, order={1: [4, 1, 5, 2]})
    page = director.get(url("stages-standings", "open")).content.decode()
    assert "Overall result" in page and "+105.0" in page and "+102.5" in page and "+42.5" in page


def test_stages_are_saved_from_their_lines_and_a_bad_line_is_refused(director: Client, series: Series) -> None:
    bad = director.post(url("stages-manage", "open"), {"stages": "Qualifying: rounds 1-4\nFinal: round 5, top 6"})
    assert bad.status_code == 400 and "multiple of 4" in bad.content.decode()
    ok = director.post(url("stages-manage", "open"),
                       {"stages": "Qualifying: rounds 1-4\nFinal: round 5, top 4, fixed +8.0/+4.0/0/-4.0, locked"})
    assert ok.status_code == 302
    final = Stage.objects.get(series=series, number=2)
    assert (final.carry, final.fixed_points, final.seating) == ("fixed", [8000, 4000, 0, -4000], "locked")


def test_stage_lines_read_back_what_they_write() -> None:
    text = "Qualifying: rounds 1-4\nSemifinal: rounds 5-6, top 8, half, swiss\nFinal: round 7, top 4, fixed +8/+4/+0/-4, snake"
    plans = parse_stages(text)
    stages = [Stage(name=p.name, first_round=p.first_round, last_round=p.last_round, entry=p.entry, top=p.top,
                    carry=p.carry, fixed_points=list(p.fixed_points), seating=p.seating) for p in plans]
    assert parse_stages(stages_text(stages)) == plans
    assert plans[2].fixed_points == (8000, 4000, 0, -4000)


def test_a_playoff_recorded_on_the_page_settles_a_tie_at_the_cut(director: Client, series: Series) -> None:
    st.configure_event_rules(series=series, tiebreaks="playoff")
    page = director.get(url("stages-manage", "open")).content.decode()
    assert "level at the cut</strong> after every tie-break: First4 Last4, First6 Last6" in page
    assert director.post(url("stages-playoff", "open"), {"stage": 1, "places": "6, 4"}).status_code == 302
    assert director.post(url("stages-cut", "open", 2)).status_code == 302
    assert [e.registration.number for e in Stage.objects.get(series=series, number=2).seeds.all()] == [1, 5, 2, 6]


def test_team_page(client: Client, series: Series) -> None:
    page = client.get(url("stages-teams", "open")).content.decode()
    # After the qualifying rounds: Red 0 + 50 + 0 - 55 = -5.0, Green 0 - 50 + 0 + 46 = -4.0.
    assert page.index("Green") < page.index("Red")
    assert "−5.0" in page or "-5.0" in page


def test_ema_page_lists_players_lacking_a_number_and_the_files_download(director: Client, series: Series) -> None:
    page = director.get(url("ema-preview", "open")).content.decode()
    assert "16 players the EMA will ask about" in page  # no one in this event has an EMA number
    assert "The event is not finished" in page
    csv = director.get(url("ema-file", "open", "csv"))
    assert csv["Content-Disposition"] == 'attachment; filename="open-ema.csv"'
    assert csv.content.startswith("\ufeffTournament name,Number of participants,Place,".encode())
    xlsx = director.get(url("ema-file", "open", "xlsx"))
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet["A1"].value == "Tournament name" and sheet.max_row == 17
    assert director.get(url("ema-file", "open", "pdf")).status_code == 404


def test_hidden_results_close_the_stage_and_team_pages(client: Client, series: Series) -> None:
    from league.services import event

    event.hide_results(series=series, from_round=4)
    for name in ("stages-standings", "stages-teams"):
        page = client.get(url(name, "open")).content.decode()
        assert "The director hides the results for now." in page and "First1 Last1" not in page


def test_the_admin_shows_stages_and_their_seeds(client: Client, series: Series) -> None:
    st.cut_to_stage(stage=series.stages.get(number=2))
    client.force_login(User.objects.create_superuser("admin", password="pw"))
    assert "Final" in client.get("/admin/league/stage/").content.decode()
    page = client.get(f"/admin/league/stage/{series.stages.get(number=2).pk}/change/").content.decode()
    assert "First4 Last4" in page and "42500" in page
