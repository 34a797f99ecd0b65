"""Both languages in a real browser at 360 x 800 (issue 18).

The demo league in Japanese: the switch in the header changes the language
and the choice is remembered across pages; the standings fit the phone (no
sideways scroll of the page, the points of every row in view); every public
page is shot in English and in Japanese (``artifacts/lang-<en|ja>-<page>-360.png``)
for a person to look at.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page

from league.models import Game, Round, Series
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_public_pages import points_in_view

pytestmark = pytest.mark.django_db(transaction=True)


def public_pages() -> dict[str, str]:
    league = Series.objects.get(slug="demo-league")
    event = Series.objects.get(slug="demo-tournament")
    live = league.games.filter(status=Game.Status.IN_PROGRESS).first()
    finished = league.games.filter(status=Game.Status.FINISHED).exclude(final_scores=None).first()
    player = live.seats.order_by("seat").first().player
    reg = event.registrations.filter(is_substitute=False).order_by("number").first()
    started = event.event_rounds.filter(status=Round.Status.STARTED).exists()
    assert started
    return {
        "index": reverse("index"),
        "standings": reverse("series-standings", args=[league.slug]),
        "game-live": reverse("game-detail", args=[live.pk]),
        "game-finished": reverse("game-detail", args=[finished.pk]),
        "player": reverse("player-detail", args=[league.slug, player.pk]),
        "event": reverse("event-public", args=[event.slug]),
        "event-player": reverse("event-player", args=[event.slug, reg.number]),
        "event-standings": reverse("series-standings", args=[event.slug]),
        "tables": reverse("signoff-tables", args=[event.slug]),
    }


def no_sideways_scroll(page: Page) -> None:  # at 360 px, the page itself never scrolls sideways
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} is {width} px wide at 360"


def test_demo_league_in_japanese_on_a_phone(page: Page, live_server, demo_league) -> None:  # type: ignore[no-untyped-def]
    urls = public_pages()
    ARTIFACTS.mkdir(exist_ok=True)

    # English first (the browser asks for nothing in particular), then the switch.
    page.goto(live_server.url + urls["standings"])
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("button", name="日本語").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.url.endswith(urls["standings"])  # back on the same page

    # The choice is remembered: every other page comes in Japanese.
    for name, url in urls.items():
        page.goto(live_server.url + url)
        assert page.locator("html").get_attribute("lang") == "ja", name
        no_sideways_scroll(page)
        page.screenshot(path=str(ARTIFACTS / f"lang-ja-{name}-360.png"), full_page=True)
        page.screenshot(path=str(ARTIFACTS / f"lang-ja-{name}-360-top.png"))  # the first screen

    # The standings: the points of every row in view at 360 px, with Japanese headings.
    page.goto(live_server.url + urls["standings"])
    assert page.get_by_role("heading", name="順位表").first.is_visible()
    assert page.locator("table.standings thead th").nth(4).inner_text().strip().startswith("ポイント")
    assert points_in_view(page) > 0

    # And back to English, remembered too.
    page.get_by_role("button", name="English").click()
    page.wait_for_load_state()
    for name, url in urls.items():
        page.goto(live_server.url + url)
        assert page.locator("html").get_attribute("lang") == "en", name
        no_sideways_scroll(page)
        page.screenshot(path=str(ARTIFACTS / f"lang-en-{name}-360.png"), full_page=True)
        page.screenshot(path=str(ARTIFACTS / f"lang-en-{name}-360-top.png"))  # the first screen
