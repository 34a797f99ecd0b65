"""The stage pages in a real browser: the demo cup (16 players, a cut to a
final table with half carry-over, two teams). Screenshots at 360 and 1280 px
of the stage standings, the cut line, the team page and the EMA preview."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from league.management.commands.demo_league import COUNTRIES, event_names, whole_game
from league.management.demo import stages as demo_stages
from league.services import stages as st
from tests.browser.conftest import ARTIFACTS, screenshot
from tests.browser.test_staff_entry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_stage_standings_cut_line_team_page_and_ema(page: Page, live_server: Any) -> None:
    cup = demo_stages.build_cup(random.Random(2027), event_names(), COUNTRIES, whole_game)
    qualifying, final = st.stage_tables(cup)
    base = live_server.url

    page.goto(base + reverse("stages-standings", args=[cup.slug]))
    expect(page.locator("h1")).to_have_text("Tenbou Cup 2025: stages and result")
    expect(page.locator("p.cut-note")).to_contain_text(f"Top 4 go on to {final.stage.name}")
    line = page.locator("tr.cut-line")
    expect(line).to_have_count(1)
    # The first row under the line is the qualifying's fifth.
    expect(line.locator("td.name")).to_have_text(qualifying.rows[4].player.name)
    expect(page.locator("#final-h")).to_have_text("Overall result")
    winner = st.final_result(cup)[0].player.name
    expect(page.locator("section.stage").last.locator("tbody tr").first).to_contain_text(winner)
    # Nothing wider than a phone: the tables scroll in their own box.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "stages-standings")
    page.locator("tr.cut-line").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "stages-cut-line-360.png"))

    page.goto(base + reverse("stages-teams", args=[cup.slug]))
    teams = st.team_standings(cup)
    expect(page.locator("table.standings tbody tr").first).to_contain_text(teams[0].name)
    expect(page.locator("section.team")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "stages-teams")

    cup.directors.add(User.objects.create_user("director", password="runs-the-cup-42"))
    log_in(page, base, "director", "runs-the-cup-42")
    page.goto(base + reverse("stages-manage", args=[cup.slug]))
    expect(page.locator("h1")).to_have_text("Tenbou Cup 2025: stages")
    screenshot(page, "stages-manage")
    page.goto(base + reverse("ema-preview", args=[cup.slug]))
    expect(page.locator(".missing")).to_contain_text("1 player the EMA will ask about")
    # Two days (+2), 16 players (+0), 12 countries (+1 on both EMA pages): 3.
    expect(page.locator("#weight-h")).to_have_text("Tournament weight (MERS): 3")
    screenshot(page, "ema-preview")
