"""Taps, typed characters and screens per entry on a 360 x 740 phone, in English
and Japanese (issue 30): a double ron, a correction of the last hand, and a
hand entered from its tiles with dora and ura. ``screens`` is the lowest point
reached (each tap, and the price the scorer reads before Save) over the screen
height. Figures: ``artifacts/screens-<en|ja>.json``. Each entry is checked
saved, and the issue's targets hold: one screen for the double ron and both
corrections (the last hand, and an earlier one from the chooser beside it), two
for the tiles hand. The same file runs on an older tree (it
falls back to the hands list's link and the preview box where the page has no
top link or save-bar line, and opens the tiles directly where a seat has no
"More") for the before figures.

Seats: East Tomás Ó Súilleabháin (0), South Aiko Tanaka (1), West Aiko
Takahashi (2), North Bo (3).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Locator, Page, expect

from league.models import Game
from tests.browser.conftest import ARTIFACTS
from tests.browser.phone import Meter, phone_page
from tests.factories import make_game, make_player, make_series

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Tomás Ó Súilleabháin", "Aiko Tanaka", "Aiko Takahashi", "Bo")


@pytest.fixture(params=["en", "ja"])
def phone(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser, locale=request.param)


def chip(page: Page, name: str, value: str | int) -> Locator:
    return page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])')


def price(page: Page) -> Locator:
    """Where the scorer reads what the hand pays: the save bar's line, or (before it) the preview box."""
    # The bar's line is rebuilt with each preview: measure its box, which stays.
    return page.locator("#save-status") if page.locator("#tenbou-words").count() else page.locator("#preview .payments")


def save(page: Page, meter: Meter, number: int) -> None:
    expect(page.locator("#preview [data-digest]")).to_be_attached()
    if page.locator("#tenbou-words").count():
        expect(page.locator("#save-status")).to_contain_text("+")  # the payments, not "Not ready"
    meter._reach(price(page))
    meter.tap(page.locator("#save-button"))
    expect(page.locator(".messages")).to_be_visible()
    expect(page.locator(".state .who")).to_contain_text(str(number + 1))


def test_screens_per_entry(phone: Page, live_server: Any) -> None:
    page, base = phone, live_server.url
    series = make_series("ari-ari", slug="screens", name="Club night")
    series.scorers.add(User.objects.create_user("referee", password="table-side-42"))
    game: Game = make_game(series, players=[make_player(n) for n in NAMES], table="3")
    page.goto(base + reverse("login"))
    page.fill("#id_username", "referee")
    page.fill("#id_password", "table-side-42")
    page.click("button[type=submit]")
    page.goto(base + reverse("staff-game", args=[game.pk]))
    lang = page.locator("html").get_attribute("lang")
    meter = Meter(page)

    # 1. A double ron on West: North (riichi) 3 han 40 fu, East 2 han 30 fu.
    meter.start("1", "double ron, riichi")
    for name, value in (("outcome", "ron"), ("winners", 3), ("winners", 0), ("loser", 2), ("riichi", 3),
                        ("han_3", 3), ("fu_3", 40), ("han_0", 2), ("fu_0", 30)):
        meter.tap(chip(page, name, value))
    save(page, meter, 1)

    # 2. The last hand corrected: East's 30 fu was 40. From the top of the page where it offers it.
    meter.start("1 again", "correction (fu)")
    top = page.locator(".state a.fix-last")
    meter.tap(top if top.count() else page.locator("table.hands a[href$='/hands/1/']"))
    meter.tap(chip(page, "fu_0", 40))
    save(page, meter, 1)

    # 3. East (riichi) rons South, entered from the tiles, with a dora and an ura indicator.
    meter.start("2", "tiles, dora and ura")
    for name, value in (("outcome", "ron"), ("winners", 0), ("loser", 1), ("riichi", 0)):
        meter.tap(chip(page, name, value))
    more = page.locator('.seat-value[data-seat="0"] details.seat-more > summary')
    if more.count():  # the seat's rare values behind one "More"
        meter.tap(more)
    meter.tap(page.locator('.seat-value[data-seat="0"] details.more:has(input[name=tiles_0]) > summary'))
    meter.type(page.locator("input[name=tiles_0]"), "234m567m678p789s11s")
    meter.type(page.locator("input[name=win_tile_0]"), "1s")
    meter.tap(page.locator("details.indicators > summary"))
    meter.type(page.locator("input[name=dora_indicators]"), "1m")
    meter.type(page.locator("input[name=ura_indicators]"), "1m")
    save(page, meter, 2)
    assert game.hands.count() == 2

    # 4. An earlier hand corrected (hand 1 after hand 2): North's 40 fu was 50. From the chooser
    # beside "Correct hand 2…" where the page has one, else from the hands list.
    meter.start("1 once more", "correction, earlier hand")
    other = page.locator(".state details.fix-other > summary")
    if other.count():
        meter.tap(other)
        page.screenshot(path=str(ARTIFACTS / f"screens-chooser-{lang}-360.png"))
        meter.tap(page.locator(".state .fix-other a[href$='/hands/1/']"))
    else:
        meter.tap(page.locator("table.hands a[href$='/hands/1/']"))
    meter.tap(chip(page, "fu_3", 50))
    expect(page.locator("#save-status")).to_contain_text("+")
    page.screenshot(path=str(ARTIFACTS / f"screens-earlier-correction-{lang}-360.png"))
    save(page, meter, 2)
    assert game.hands.get(number=1).wins.get(winner=3).fu == 50

    meter.write(ARTIFACTS / f"screens-{lang}.json")
    rows = meter.table()
    screens = {r["kind"]: r["screens"] for r in rows}
    print("\n" + "\n".join(f"{lang} {r['kind']:<22} taps {r['taps']:>2} typed {r['typed']:>2} "
                           f"screens {r['screens']:.2f} page {r['page']:.2f}" for r in rows))
    assert screens["double ron, riichi"] <= 1.0, rows
    assert screens["correction (fu)"] <= 1.0, rows
    assert screens["correction, earlier hand"] <= 1.0, rows
    assert screens["tiles, dora and ura"] <= 2.0, rows
