"""The end of a game fits a 360 x 740 phone in English and Japanese (issue 28).

Once a game has ended, the staff game page shows its result table (place,
player, points, score, uma, oka, and a penalty column when one was given):
in English at 360 px it scrolled sideways, the Oka column past the screen's
edge. Element boxes, not screenshots: neither the page nor the table's own
box scrolls sideways, at the browser's own text size and at 130% (the
reader's text size setting: the root font size, which every rem follows);
every figure is shown whole on one line, each player's name whole. The seats
are named to be hard (a 20-plus-character name). Shots:
``artifacts/results-<en|ja>-<100|130>-<plain|penalty>-360.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Page

from league import services
from league.models import Game
from tests.browser.conftest import ARTIFACTS, SCREENSHOTS
from tests.browser.phone import PHONE, phone_page
from tests.factories import hanchan_passing_deal, make_game, make_player, make_series, play

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Tomás Ó Súilleabháin", "Aiko Tanaka", "Aiko Takahashi", "Bo")


@pytest.fixture(params=["en", "ja"])
def phone(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser, locale=request.param)


def _ended(series: Any, table: str, *, penalty: bool) -> Game:
    game = make_game(series, players=[make_player(f"{n} {table}" if n == "Bo" else n) for n in NAMES], table=table)
    if penalty:  # the widest table: a fifth figure column
        services.add_penalty(game=game, seat=0, points=-20000, reason="slow play")
    play(game, hanchan_passing_deal())
    game.refresh_from_db()
    assert game.is_finished
    return game


@pytest.fixture
def games(db: None) -> dict[str, Game]:
    series = make_series("ari-ari", slug="fit-end", name="Club night")
    series.scorers.add(User.objects.create_user("referee", password="table-side-42"))
    return {"plain": _ended(series, "1", penalty=False), "penalty": _ended(series, "2", penalty=True)}


NOT_WHOLE = """() => [...document.querySelectorAll('table.results td, table.results th')].filter(c => {
      const r = document.createRange(); r.selectNodeContents(c);
      const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top))).size;
      const figure = c.classList.contains('num') || c.cellIndex === 0;
      return c.scrollWidth > c.clientWidth + 1 || (figure && lines > 1);
    }).map(c => c.textContent.trim())"""


def results_fit(page: Page, state: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{state}: the page is {width} px wide"
    wrap = page.locator(".table-wrap:has(table.results)")
    scroll, client = wrap.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert scroll <= client, f"{state}: the result table is {scroll} px in a {client} px box: it scrolls sideways"
    box = wrap.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (state, box)
    assert page.evaluate(NOT_WHOLE) == [], state
    shown = " ".join(page.locator("table.results tbody").inner_text().split())
    for name in NAMES[:3]:
        assert name in shown, (state, name)


def test_the_result_table_fits_a_phone(phone: Page, live_server: Any, games: dict[str, Game]) -> None:
    page, base = phone, live_server.url
    page.goto(base + reverse("login"))
    page.fill("#id_username", "referee")
    page.fill("#id_password", "table-side-42")
    page.click("button[type=submit]")
    lang = page.locator("html").get_attribute("lang")
    for kind, game in games.items():
        page.goto(base + reverse("staff-game", args=[game.pk]))
        assert page.locator("table.results thead th").count() == (7 if kind == "penalty" else 6)
        for zoom in ("100", "130"):
            page.evaluate(f"document.documentElement.style.fontSize = '{zoom}%'")
            if SCREENSHOTS:
                ARTIFACTS.mkdir(exist_ok=True)
                page.locator("section.state").screenshot(path=str(ARTIFACTS / f"results-{lang}-{zoom}-{kind}-360.png"))
            results_fit(page, f"{lang} {zoom}% {kind}")
        # On a wide screen it is a table as before: a header row, one line per player.
        page.set_viewport_size({"width": 1280, "height": 800})
        page.evaluate("document.documentElement.style.fontSize = ''")
        assert page.locator("table.results thead th").first.is_visible()
        tops = page.evaluate("""() => [...document.querySelectorAll('table.results tbody tr')].map(
            tr => new Set([...tr.cells].map(c => Math.round(c.getBoundingClientRect().top))).size)""")
        assert tops == [1, 1, 1, 1], (lang, kind, tops)
        page.set_viewport_size(PHONE)
