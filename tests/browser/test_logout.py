"""A logout on a shared phone leaves no staff page behind (issue 29): the
service worker's copies of the staff pages and the page's offline state are
gone once the scorer logs out, because the logout answers
``Clear-Site-Data: "cache", "storage"``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from league.models import Game
from tests.browser.phone import open_game, phone_page

# With the engine booting online, as a phone does: a file still on its way at the
# logout must not bring the worker's cache back (league/static/league/sw.js, kept()).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_pricing]

KEPT = """async () => {
  const names = (await caches.keys()).filter(n => n.startsWith("tenbou-"));
  const kept = [];
  for (const n of names) kept.push(...(await (await caches.open(n)).keys()).map(r => new URL(r.url).pathname));
  return kept;
}"""


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)


def test_a_logout_clears_the_kept_staff_pages_and_the_offline_state(phone: Page, live_server: Any,
                                                                   game: Game) -> None:
    page = phone
    open_game(page, live_server.url, game)
    game_path = f"/staff/games/{game.pk}/"
    deadline = time.monotonic() + 30
    while game_path not in page.evaluate(KEPT):  # the worker keeps the page once it controls it
        assert time.monotonic() < deadline, "the service worker kept no copy of the game page"
        page.wait_for_timeout(250)
        if page.evaluate("!!navigator.serviceWorker.controller") and game_path not in page.evaluate(KEPT):
            page.reload()
    page.evaluate("localStorage.setItem('tenbou.queue.' + location.pathname, '{\"ops\": []}')")

    page.locator("form[action$='/accounts/logout/'] button").click()
    page.wait_for_url(live_server.url + "/")
    assert page.evaluate(KEPT) == []
    assert page.evaluate("localStorage.length") == 0
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
