"""The service worker's page for a page it did not keep is in the scorer's
language (issue 30): the language of the last game page the worker kept
(the one the scorer chose with the site's switch), not the browser's own.
The phone here is set to English and the scorer picks Japanese.

The phone reaches the server through a plug (tests/browser/plug.py) that is
pulled out with the browser's offline switch: the switch alone let the worker's
fetch of the other game reach the server now and then, and the real page came
back (once in CI, and 3 runs in 145 here at load 9-14)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import Browser, Page

from tests.browser.phone import open_game, phone_page
from tests.browser.plug import Plug
from tests.factories import make_game, make_player, make_series

pytestmark = pytest.mark.django_db(transaction=True)

ENGLISH = "This page was not kept on this phone."


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser, locale="en-GB")


def kept_by_worker(page: Page) -> tuple[str, str]:
    """Wait until the worker controls the page and has kept it, then say what it noted
    for its page of a page not kept: the language and the game page to go back to."""
    deadline = time.monotonic() + 60
    script = """async () => {
      if (!navigator.serviceWorker.controller) return null;
      const noted = await Promise.all(["/staff/sw-language", "/staff/sw-last-page"].map(
        async key => { const hit = await caches.match(key); return hit ? hit.text() : ""; }));
      return noted.every(Boolean) ? noted : null;
    }"""
    while not (noted := page.evaluate(script)):
        assert time.monotonic() < deadline, "the service worker did not keep the game page"
        page.wait_for_timeout(250)
        if page.evaluate("!!navigator.serviceWorker.controller"):
            page.reload()  # controlled now: this load goes through the worker, which keeps it
    return noted[0], noted[1]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_page_not_kept_answers_in_the_scorers_language(phone: Page, plug: Plug, lang: str) -> None:
    page, base = phone, plug.url
    series = make_series("ari-ari", slug="fallback", name="Club night")
    series.scorers.add(User.objects.create_user("referee", password="table-side-42"))
    kept, other = (make_game(series, players=[make_player(f"{t}{n}") for n in "ABCD"], table=t) for t in "12")
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    open_game(page, base, kept)
    assert page.locator("html").get_attribute("lang") == lang
    assert kept_by_worker(page) == (lang, reverse("staff-game", args=[kept.pk]))

    plug.pull()
    page.context.set_offline(True)
    page.goto(base + reverse("staff-game", args=[other.pk]))
    with translation.override(lang):
        title = translation.gettext("No network")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("h1").inner_text() == title
    text = page.locator("body").inner_text()
    assert (ENGLISH in text) == (lang == "en"), text
    back = page.locator("a").bounding_box()
    assert back and back["height"] >= 44, back
    # Back goes to the game page the phone kept, which opens without the network.
    assert page.locator("a").get_attribute("href") == reverse("staff-game", args=[kept.pk])
