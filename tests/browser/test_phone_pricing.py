"""Online, the phone prices each tap with its own engine (issue 28).

Once the engine is ready in its worker, the staff game page prices a change of
the form with ``league.entry.pricing`` in Pyodide: no preview request, and the
hand's save is one POST carrying the phone's digest and the payments shown
(``seen``). The server checks that price in the save: a phone whose copy of the
game prices otherwise (its ``offline.json`` altered on the way) is refused,
nothing saved, and the server's own preview is shown, which Save then saves.
Until the engine is ready the server's preview answers, as before.

The phone here keeps no service worker (``service_workers="block"``): the online
path needs none, and the page's requests are then all the server's to count.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from league.models import Game, SaveKey
from tests.browser.phone import open_game, phone_page, tap
from tests.browser.test_offline_engine import _need_engine
from tests.browser.test_offline_queue import Counter, enter_draw, enter_tsumo

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_pricing]

ENGINE_MS = 90_000  # Pyodide boots in seconds on a loaded machine
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    for page in phone_page(browser, service_workers="block"):
        page.on("pageerror", lambda e: print("page error:", e))
        yield page


@pytest.fixture
def counter() -> Iterator[Counter]:
    c = Counter()
    yield c
    c.close()


def engine_ready(page: Page) -> None:
    expect(page.locator("form.hand-form[data-pricing=phone]")).to_have_count(1, timeout=ENGINE_MS)


def server_preview(page: Page, live_server: Any, game: Game) -> dict[str, str]:
    """What the server's preview says of the form as it stands (one request, from the page)."""
    return page.evaluate("""async (url) => {
        const body = new URLSearchParams(new FormData(document.querySelector("form.hand-form")));
        const html = await (await fetch(url, {method: "POST", body, credentials: "same-origin"})).text();
        const ok = new DOMParser().parseFromString(html, "text/html").querySelector("[data-digest]");
        return ok ? {digest: ok.dataset.digest, deltas: ok.dataset.deltas, summary: ok.dataset.summary} : {};
    }""", f"{live_server.url}/staff/games/{game.pk}/preview/")


def shown(page: Page) -> dict[str, str]:
    ok = page.locator("#preview [data-digest]")
    return {"digest": ok.get_attribute("data-digest") or "", "deltas": ok.get_attribute("data-deltas") or "",
            "summary": ok.get_attribute("data-summary") or ""}


def test_taps_make_no_preview_request_and_the_save_is_one_post(phone: Page, live_server: Any, game: Game,
                                                               counter: Counter) -> None:
    _need_engine()
    page = phone
    open_game(page, live_server.url, game)
    engine_ready(page)
    for number, enter in ((1, lambda: enter_tsumo(page, 1, 2, 30)), (2, lambda: enter_draw(page, 0, 2))):
        counter.paths.clear()
        enter()
        # The server's price of the form as it stands (the test's own request, the only
        # preview the server sees), then the phone's, once it has priced the last tap.
        theirs = server_preview(page, live_server, game)
        expect(page.locator("#preview [data-priced=phone]")).to_have_attribute("data-digest", theirs["digest"])
        mine = shown(page)
        assert mine == theirs  # the same payments, the same words in the save bar
        # Each seat's change and score after on a line of its own, whole (issue 28's walk:
        # laid out as the four score boxes, "North / Dave / +2,000 / → / 27,000" took five).
        lines = page.locator("#preview [data-priced=phone] ul.scores").evaluate("""ul => [...ul.children].map(li => {
            const r = document.createRange(); r.selectNodeContents(li);
            return [li.getBoundingClientRect().top, new Set([...r.getClientRects()].map(q => Math.round(q.top))).size];
        })""")
        assert len(lines) == 4 and all(n == 1 for _, n in lines), lines
        assert all(b[0] > a[0] for a, b in zip(lines, lines[1:], strict=False)), lines
        assert [p for p in counter.paths if p.endswith("/preview/")] == [f"/staff/games/{game.pk}/preview/"]
        expect(page.locator("#save-status")).to_contain_text(mine["summary"].split(" · ")[0])
        counter.paths.clear()
        page.locator("#save-button").tap()
        expect(page.locator(".messages")).to_contain_text(f"Hand {number} saved.")
        assert counter.paths == [f"/staff/games/{game.pk}/"], counter.paths
        assert game.hands.get(number=number).result["deltas"] == [int(d) for d in mine["deltas"].split()]
    assert game.hands.count() == 2


def test_a_hand_the_server_prices_otherwise_is_refused_and_its_price_shown(phone: Page, live_server: Any,
                                                                           game: Game, counter: Counter) -> None:
    def altered(route: Route) -> None:
        # The phone's copy of the game, on other rules (kiriage mangan: 4 han 30 fu
        # pays 8,000, where the server's 7,700): same hands, same state.
        kept = json.loads(route.fetch().text())
        kept["record"]["rules"] = {"preset": "ari-ari", "overrides": {"kiriage": True}}
        route.fulfill(json=kept)

    _need_engine()
    page = phone
    page.route("**/offline.json", altered)
    open_game(page, live_server.url, game)
    engine_ready(page)
    enter_tsumo(page, 1, 4, 30)
    expect(page.locator("#preview [data-priced=phone]")).to_contain_text("+8,000")
    page.locator("#save-button").tap()
    expect(page.locator("#preview [data-stop=price]")).to_contain_text("the server prices this hand differently")
    expect(page.locator("#preview [data-digest]")).to_contain_text("+7,900")
    assert game.hands.count() == 0 and not SaveKey.objects.filter(game=game).exists()

    counter.paths.clear()
    page.locator("#save-button").tap()  # Save again: the server's price
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    assert counter.paths == [f"/staff/games/{game.pk}/"], counter.paths
    assert game.hands.get(number=1).result["deltas"] == [-3900, 7900, -2000, -2000]


def test_until_the_engine_is_ready_the_server_prices(phone: Page, live_server: Any, game: Game,
                                                     counter: Counter) -> None:
    page = phone
    page.route("**/staff/offline/engine.json", lambda route: route.abort())  # an engine that never loads
    open_game(page, live_server.url, game)
    enter_tsumo(page, 1, 2, 30)
    expect(page.locator("#preview [data-digest]")).to_have_count(1)
    assert page.locator("#preview [data-priced=phone]").count() == 0
    assert [p for p in counter.paths if p.endswith("/preview/")]
    page.locator("#save-button").tap()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    assert game.hands.get(number=1).result["deltas"] == [-1000, 2000, -500, -500]


@pytest.fixture
def japanese_phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser, service_workers="block", locale="ja")


def texts(page: Page, live_server: Any, game: Game) -> dict[str, dict[str, Any]]:
    """The words of the phone's preview box and of the server's preview of the form as
    it stands (one request, from the page, in its language): heading, counted and
    payment lines, the save bar's summary, each error's message."""
    return page.evaluate("""async (url) => {
        const read = (root) => ({
            heading: (root.querySelector(".preview h3") || {}).textContent || "",
            counted: [...root.querySelectorAll("ul.counted li")].map((li) => li.textContent),
            payments: [...root.querySelectorAll("ul.payments li")].map((li) => li.textContent),
            summary: (root.querySelector("[data-summary]") || {dataset: {}}).dataset.summary || "",
            digest: (root.querySelector("[data-digest]") || {dataset: {}}).dataset.digest || "",
            errors: [...root.querySelectorAll("ul.errorlist li[data-message]")].map((li) => li.dataset.message),
        });
        const body = new URLSearchParams(new FormData(document.querySelector("form.hand-form")));
        const html = await (await fetch(url, {method: "POST", body, credentials: "same-origin"})).text();
        return {mine: read(document.getElementById("preview")),
                theirs: read(new DOMParser().parseFromString(html, "text/html"))};
    }""", f"{live_server.url}/staff/games/{game.pk}/preview/")


def test_a_page_in_japanese_prices_on_the_phone_in_its_words(japanese_phone: Page, live_server: Any,
                                                             game: Game, counter: Counter) -> None:
    """The engine speaks the page's language (league/engine_catalogue.py, installed in
    its worker): a Japanese page prices each tap on the phone, no preview request,
    and the preview's words are Japanese and the server's own, errors too."""
    _need_engine()
    page = japanese_phone
    open_game(page, live_server.url, game)
    assert page.locator("html").get_attribute("lang") == "ja"
    engine_ready(page)
    counter.paths.clear()
    tap(page, "outcome", "tsumo")  # nobody ticked as the winner yet: the form's errors
    expect(page.locator("#preview [data-errors]")).to_have_count(1)
    both = texts(page, live_server, game)
    assert both["mine"]["errors"] and both["mine"]["errors"] == both["theirs"]["errors"]
    assert all(JAPANESE.search(m) for m in both["mine"]["errors"]), both
    tap(page, "riichi", 1)
    tap(page, "winner", 1)
    tap(page, "han_1", 2)
    tap(page, "fu_1", 30)
    expect(page.locator("#preview [data-priced=phone]")).to_have_count(1)
    both = texts(page, live_server, game)
    expect(page.locator("#preview [data-priced=phone]")).to_have_attribute("data-digest", both["theirs"]["digest"])
    both = texts(page, live_server, game)
    assert both["mine"] == both["theirs"]
    lines = both["mine"]["payments"] + both["mine"]["counted"] + [both["mine"]["heading"]]
    assert both["mine"]["payments"] and all(JAPANESE.search(line) for line in lines), lines
    # The only previews the server saw are this test's own; the page asked for none.
    assert [p for p in counter.paths if p.endswith("/preview/")] == [f"/staff/games/{game.pk}/preview/"] * 3
    page.locator("#save-button").tap()
    expect(page.locator(".messages")).to_have_count(1)
    assert game.hands.get(number=1).result["deltas"] == [-1000, 2000, -500, -500]  # its own stick back
