"""A visitor with a phone: opens the series, sorts the standings, opens a game and a player.

Screenshots of every page at 360 and 1280 px land in ``artifacts/``.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from league.management.commands.demo_league import build
from league.models import Game
from tests.browser.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def points_column(page: Page) -> list[float]:
    cells = page.locator("table.standings tbody tr td:nth-child(5)").all_inner_texts()
    return [float(c) for c in cells]


def test_visitor_reads_series_game_and_player(live_server, page: Page) -> None:
    series = build(random.Random(2025))
    page.goto(live_server.url + "/")
    screenshot(page, "public-series-list")
    page.get_by_role("link", name=series.name).click()

    expect(page.get_by_role("heading", level=1)).to_have_text(series.name)
    expect(page.locator("table.standings")).to_be_visible()
    totals = points_column(page)
    assert totals == sorted(totals, reverse=True)  # ranked by total points
    assert page.locator("figure.chart svg").count() == 1
    # No page is wider than the phone: wide tables scroll inside their own box.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "public-series")

    page.locator("table.standings thead").get_by_role("link", name="Points").click()
    page.wait_for_url("**s-sort=total**")
    ascending = points_column(page)
    assert ascending == sorted(ascending)
    page.locator("table.standings thead").get_by_role("link", name="Points").click()
    page.wait_for_url("**s-sort=-total**")
    assert points_column(page) == sorted(points_column(page), reverse=True)
    screenshot(page, "public-series-sorted")

    # The round with a game still at the table: the page polls while it lasts.
    live = Game.objects.get(series=series, status=Game.Status.IN_PROGRESS)
    assert page.locator("#live").get_attribute("data-live") == "1"
    page.goto(f"{live_server.url}{series.get_absolute_url()}?games=1#games-h")
    page.locator("ul.games").get_by_role("link").first.click()
    expect(page.get_by_role("heading", name="Hand by hand")).to_be_visible()
    expect(page.locator("table.hand-log tbody tr").nth(1)).to_contain_text("E1")
    expect(page.get_by_role("heading", name="Settlement")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "public-game")
    game_url = page.url

    page.goto(f"{live_server.url}/games/{live.pk}/")
    expect(page.get_by_text("Next hand:")).to_be_visible()
    assert page.locator("#live").get_attribute("data-live") == "1"
    screenshot(page, "public-game-live")

    page.goto(f"{live_server.url}/games/{Game.objects.filter(series=series, final_scores__isnull=False).first().pk}/")
    expect(page.get_by_text("kept by its end scores only")).to_be_visible()

    page.goto(game_url)
    page.locator("table.settlement tbody th a").first.click()
    expect(page.get_by_role("heading", name="Statistics from the hands")).to_be_visible()
    expect(page.locator("table.stats")).to_contain_text("Win rate")
    assert page.locator("figure.chart svg").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "public-player")
