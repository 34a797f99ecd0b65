"""The end of a game fits a 360 x 740 phone in English and Japanese (issue 28).

Once a game has ended, the staff game page shows its result table (place,
player, points, score, uma, oka, and a penalty column when one was given);
the page that ends a game early shows the same table as it would end now
(one partial, ``_staff_results.html``). In English at 360 px it scrolled
sideways, the Oka column past the screen's edge. The sign-off's table (place,
score, points by seat; the staff's page and a player's own link) did too
with a long name. Element boxes, not screenshots: neither the page nor the table's own
box scrolls sideways, at the browser's own text size and at 130% (the
reader's text size setting: the root font size, which every rem follows);
every figure is shown whole on one line, each player's name whole. The seats
are named to be hard (a 20-plus-character name). Shots:
``artifacts/results-<en|ja>-<100|130>-<page>-360.png``.
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


def _played(series: Any, table: str, *, penalty: bool, hands: int = 8) -> Game:
    game = make_game(series, players=[make_player(f"{n} {table}" if n == "Bo" else n) for n in NAMES], table=table)
    if penalty:  # the widest table: a fifth figure column
        services.add_penalty(game=game, seat=0, points=-20000, reason="slow play")
    play(game, hanchan_passing_deal()[:hands])
    game.refresh_from_db()
    assert game.is_finished == (hands == 8)
    return game


@pytest.fixture
def pages(db: None) -> dict[str, tuple[str, str, int, tuple[str, ...]]]:
    """Each page with a result table: the table, its columns, and the names it shows."""
    series = make_series("ari-ari", slug="fit-end", name="Club night")
    series.scorers.add(User.objects.create_user("referee", password="table-side-42"))
    ended, fined = _played(series, "1", penalty=False), _played(series, "2", penalty=True)
    live, live_fined = _played(series, "3", penalty=False, hands=5), _played(series, "4", penalty=True, hands=5)
    four = NAMES[:3]
    return {"ended": (reverse("staff-game", args=[ended.pk]), "table.results", 6, four),
            "ended-penalty": (reverse("staff-game", args=[fined.pk]), "table.results", 7, four),
            "finish": (reverse("staff-finish", args=[live.pk]), "table.results", 6, four),
            "finish-penalty": (reverse("staff-finish", args=[live_fined.pk]), "table.results", 7, four),
            # The sign-off's result table: the staff's page, and a seat's own link on a player's phone.
            "signoff": (reverse("staff-signoff", args=[ended.pk]), "table.result-table", 5, four),
            "signoff-link": (reverse("signoff-link", args=[services.seat_link_token(ended, 0)]), "table.result-table", 5,
                             four),
            # Not a result, but the same fault: the penalties given, the cancel link cut off at 130%.
            "penalties": (reverse("staff-penalties", args=[live_fined.pk]), "main table", 4, NAMES[:1])}


NOT_WHOLE = """([table, firstIsFigure]) => [...document.querySelectorAll(`${table} td, ${table} th`)].filter(c => {
      const r = document.createRange(); r.selectNodeContents(c);
      const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top))).size;
      const figure = c.classList.contains('num')
        || (firstIsFigure && c.cellIndex === 0 && !c.classList.contains('player-cell'));
      return c.scrollWidth > c.clientWidth + 1 || (figure && lines > 1);
    }).map(c => c.textContent.trim())"""


# Each figure's label on one line: the figure's text starts less than two of the label's
# font sizes below the top of its cell's content (the label comes first, a block).
LABEL_BROKEN = """(table) => [...document.querySelectorAll(`${table} td[data-label]`)].filter(c => {
      const r = document.createRange(); r.selectNodeContents(c);
      const style = getComputedStyle(c), label = getComputedStyle(c, '::before');
      const top = c.getBoundingClientRect().top + parseFloat(style.paddingTop) + parseFloat(style.borderTopWidth);
      return label.display === 'block' && r.getBoundingClientRect().top - top >= 2 * parseFloat(label.fontSize);
    }).map(c => c.dataset.label)"""


def table_fits(page: Page, table: str, names: tuple[str, ...], state: str, *, first_is_figure: bool) -> Any:
    """The page no wider than the phone, ``table``'s scrolling box inside the
    screen with nothing to scroll sideways, every figure whole (``NOT_WHOLE``;
    ``first_is_figure``: the first cell is a figure too) and every name
    shown; the box, for further checks."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{state}: the page is {width} px wide"
    wrap = page.locator(table).locator("xpath=ancestor::div[contains(@class, 'table-wrap')][1]")
    scroll, client = wrap.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert scroll <= client, f"{state}: the table {table} is {scroll} px in a {client} px box: it scrolls sideways"
    box = wrap.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (state, box)
    assert page.evaluate(NOT_WHOLE, [table, first_is_figure]) == [], state
    shown = " ".join(page.locator(f"{table} tbody").inner_text().split())
    for name in names:
        assert name in shown, (state, name)
    return wrap


def results_fit(page: Page, table: str, names: tuple[str, ...], state: str) -> None:
    table_fits(page, table, names, state, first_is_figure=True)
    assert page.evaluate(LABEL_BROKEN, table) == [], state


def _log_in(page: Page, base: str) -> str | None:
    """Log the scorer in; the page's language."""
    page.goto(base + reverse("login"))
    page.fill("#id_username", "referee")
    page.fill("#id_password", "table-side-42")
    page.click("button[type=submit]")
    return page.locator("html").get_attribute("lang")


def test_the_result_table_fits_a_phone(phone: Page, live_server: Any,
                                       pages: dict[str, tuple[str, str, int, tuple[str, ...]]]) -> None:
    page, base = phone, live_server.url
    lang = _log_in(page, base)
    for kind, (url, table, columns, names) in pages.items():
        page.goto(base + url)
        assert page.locator(f"{table} thead th").count() == columns
        for zoom in ("100", "130"):
            page.evaluate(f"document.documentElement.style.fontSize = '{zoom}%'")
            if SCREENSHOTS:
                ARTIFACTS.mkdir(exist_ok=True)
                page.locator(table).scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / f"results-{lang}-{zoom}-{kind}-360.png"))
            results_fit(page, table, names, f"{lang} {zoom}% {kind}")
        # On a wide screen it is a table as before: a header row, one line per player.
        page.set_viewport_size({"width": 1280, "height": 800})
        page.evaluate("document.documentElement.style.fontSize = ''")
        assert page.locator(f"{table} thead th").first.is_visible()
        tops = page.evaluate("""(table) => [...document.querySelectorAll(`${table} tbody tr`)].map(
            tr => new Set([...tr.cells].map(c => Math.round(c.getBoundingClientRect().top))).size)""", table)
        assert tops and set(tops) == {1}, (lang, kind, tops)
        page.set_viewport_size(PHONE)


# A correction's preview names every seat: a 16-character name that cannot break
# between words, beside the long one that can.
PREVIEW_NAMES = ("Tomás Ó Súilleabháin", "Aleksandrovskaya", "Aiko Takahashi", "Bo")


def test_the_corrections_preview_fits_a_phone(phone: Page, live_server: Any, db: None) -> None:
    """A correction's preview (what the hand pays, before and after) on the
    page that corrects an earlier hand: its table of the seats' scores fitted
    a wide screen only (316 px in a 308 px box at the browser's text size,
    411 at 130%, in English with the long name). At the browser's text size
    and at 130%, with a 16-character name that cannot break, the table fits
    its box (no sideways scroll), every figure whole on one line, every name
    whole; its region stays focusable and labelled."""
    series = make_series("ari-ari", slug="fit-fix", name="Club night")
    series.scorers.add(User.objects.create_user("referee", password="table-side-42"))
    game = make_game(series, players=[make_player(n) for n in PREVIEW_NAMES], table="5")
    play(game, hanchan_passing_deal()[:5])
    page, base = phone, live_server.url
    lang = _log_in(page, base)
    page.goto(base + reverse("staff-edit-hand", args=[game.pk, 1]))
    table = ".preview table"
    page.locator(table).wait_for()
    for zoom in ("100", "130"):
        state = f"{lang} {zoom}%"
        page.evaluate(f"document.documentElement.style.fontSize = '{zoom}%'")
        if SCREENSHOTS:
            ARTIFACTS.mkdir(exist_ok=True)
            page.locator(table).scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"results-{lang}-{zoom}-correction-preview-360.png"))
        # Every figure whole on one line, no cell's text past its box; a name may wrap between words.
        wrap = table_fits(page, table, PREVIEW_NAMES, state, first_is_figure=False)
        assert wrap.get_attribute("tabindex") == "0" and wrap.get_attribute("role") == "region"
        assert wrap.get_attribute("aria-label")
