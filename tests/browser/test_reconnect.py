"""How soon six hands kept on a phone reach the server once it answers again
(issue 30), on a 360 x 740 touch phone, two ways the network goes:

- ``switch``: the browser's own offline switch (Playwright's
  ``context.set_offline``); coming back, the browser says "online" and the page
  sends at once.
- ``relay``: the server out of reach while the browser still says online (the
  socket relay of ``tests/browser/plug.py`` pulled out, then pushed back); no
  "online" event comes, so the page must look again on its own, soon.

What is asserted: the six kept hands go in ONE request (the batch, ``kept/``:
each entry carrying the phone's digest and the payments it showed), answered in
place, with no page load (the requests the server sees, and a mark on the page
that a load would wipe), and each lands once (six hands, six keys). That fails
the old queue, one request per hand, on any machine.

What is measured, not asserted: from the network's return to the sixth hand
saved, against the same run's baseline, one hand saved online from the tap on
Save to the page after it (the median of three); issue 30's bound is six of
those. Figures: ``artifacts/reconnect-<way>.json`` and the test's output. A
time is never a test's verdict here (the project's rule: these machines are
shared and noisy): a CI run at load 6 measured 6.4x with the relay, 0.91 s
against saves of 0.14 s, where other runs of the same tree gave 1.8-3.0x.

And a fresh tab with the server gone: served by the service worker alone, its
hands kept and sent once when the server is back.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.signals import request_started
from playwright.sync_api import Browser, Page, expect

from league.models import Game, SaveKey
from tests.browser.conftest import ARTIFACTS
from tests.browser.phone import open_game, phone_page
from tests.browser.plug import Plug
from tests.browser.test_offline_queue import Counter, enter_draw, enter_tsumo, queued, ready_for_offline, save

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    for page in phone_page(browser):
        page.on("pageerror", lambda e: print("page error:", e))
        yield page


@pytest.mark.parametrize("way", ["switch", "relay"])
def test_six_kept_hands_land_in_one_request_and_their_time_is_measured(way: str, phone: Page, live_server: Any,
                                                                       plug: Plug, game: Game) -> None:
    page = phone
    page.set_default_timeout(60_000)  # the first entry offline waits for the engine to load
    open_game(page, plug.url if way == "relay" else live_server.url, game)
    ready_for_offline(page)
    if way == "switch":
        page.context.set_offline(True)
        expect(page.locator(".offline-banner")).to_contain_text("Go on entering hands", timeout=60_000)
    else:
        plug.pull()  # the first preview's request fails: the page knows, the browser does not

    # Six hands kept on the phone: tsumo, then draws with one seat tenpai.
    enter_tsumo(page, 1, 2, 30)
    expect(page.locator(".offline-banner")).to_contain_text("No network", timeout=60_000)
    save(page, 1)
    for n, seat in enumerate((0, 2, 3, 1, 2), start=2):
        expect(page.locator("h2.entry-title")).to_have_text(f"Hand {n}")
        enter_draw(page, seat)
        save(page, n)
    expect(queued(page)).to_have_count(6)
    assert game.hands.count() == 0

    posts: list[str] = []

    def seen(sender: Any, environ: dict[str, Any] | None = None, **kwargs: Any) -> None:
        if (environ or {}).get("REQUEST_METHOD") == "POST":
            posts.append(environ["PATH_INFO"] if environ else "?")

    page.evaluate("window.tenbouNotReloaded = true")
    request_started.connect(seen)
    started = time.monotonic()
    if way == "switch":
        page.context.set_offline(False)
    else:
        plug.push()
    expect(page.locator(".messages")).to_contain_text("Hand 6 saved.", timeout=60_000)
    took = time.monotonic() - started
    request_started.disconnect(seen)
    game_url = f"/staff/games/{game.pk}/"
    # ONE request for the six kept hands (the batch); no preview, and no page load after it.
    assert [p for p in posts if p.startswith(game_url)] == [game_url + "kept/"], posts
    assert page.evaluate("window.tenbouNotReloaded === true")
    assert game.hands.count() == 6
    assert SaveKey.objects.filter(game=game).count() == 6  # each entry once
    expect(queued(page)).to_have_count(0)

    # The same run's baseline: one hand saved online, from the tap to the page after it; the
    # median of three, as one save on a loaded machine varies by a factor of three.
    saves = []
    for n, seat in ((7, 1), (8, 2), (9, 3)):
        enter_draw(page, seat)
        expect(page.locator("#preview")).to_contain_text(f"Hand {n} pays")
        tapped = time.monotonic()
        page.locator("#save-button").tap()
        expect(page.locator(".messages")).to_contain_text(f"Hand {n} saved.")
        saves.append(time.monotonic() - tapped)
    online = statistics.median(saves)

    figures = {"way": way, "entries": 6, "reconnect_to_saved_s": round(took, 2), "one_online_save_s": round(online, 2),
               "online_saves_s": [round(t, 2) for t in saves], "ratio": round(took / online, 1),
               "load_average": round(os.getloadavg()[0], 1)}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"reconnect-{way}.json").write_text(json.dumps(figures) + "\n")
    print("\n", figures)


def test_a_fresh_tab_with_the_server_gone_is_served_by_the_worker_and_sends_once(
        phone: Page, live_server: Any, plug: Plug, game: Game) -> None:
    """The server process down (every connection refused), the scorer closes the tab and
    opens the game page in a new one of the same browser: the service worker alone serves
    the page, hands are kept on the phone, and they reach the server once when it is back."""
    page = phone
    page.set_default_timeout(60_000)
    seen = Counter()
    try:
        open_game(page, plug.url, game)
        ready_for_offline(page)
        url = page.url
        context = page.context
        plug.pull()  # from now on nothing reaches the server
        before = len(seen.paths)
        page.close()

        tab = context.new_page()
        tab.on("pageerror", lambda e: print("page error:", e))
        served = tab.goto(url)
        assert served is not None and served.from_service_worker, "the page did not come from the worker"
        expect(tab.locator("h2.entry-title")).to_have_text("Hand 1")
        enter_tsumo(tab, 1, 2, 30)
        expect(tab.locator(".offline-banner")).to_contain_text("No network", timeout=60_000)
        save(tab, 1)
        expect(tab.locator("h2.entry-title")).to_have_text("Hand 2")
        enter_draw(tab, 0)
        save(tab, 2)
        ARTIFACTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "fresh-tab-kept-screen-360.png"))
        assert seen.paths[before:] == [] and game.hands.count() == 0

        plug.push()  # the server back: no "online" event, the page looks again on its own
        expect(tab.locator(".messages")).to_contain_text("Hand 2 saved.", timeout=60_000)
        assert game.hands.count() == 2 and SaveKey.objects.filter(game=game).count() == 2
        expect(queued(tab)).to_have_count(0)
        # Once: a reload, and a second tab of the same profile, send nothing again.
        tab.reload()
        other = context.new_page()
        other.goto(url)
        expect(other.locator("h2.entry-title")).to_have_text("Hand 3")
        tab.wait_for_timeout(2500)  # two of the page's looks at the queue
        assert game.hands.count() == 2 and SaveKey.objects.filter(game=game).count() == 2
        assert tab.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tenbou.queue.')).length") == 0
    finally:
        seen.close()


def test_a_kept_hand_the_server_prices_otherwise_stops_the_queue_unsaved(phone: Page, plug: Plug,
                                                                         game: Game) -> None:
    """The one request's price check: the phone showed other payments than the server's
    (here its kept copy altered), so the save is refused, nothing saved, and the queue
    stops with both prices; the scorer's "send it as the server prices it" saves it once.
    The server is out of reach through the relay, not the browser's offline switch:
    Chromium lets a service worker's requests through that switch, so the page's probe
    could reach the server and send the hand before its copy is altered."""
    page = phone
    page.set_default_timeout(60_000)
    open_game(page, plug.url, game)
    ready_for_offline(page)
    plug.pull()
    enter_tsumo(page, 1, 2, 30)
    expect(page.locator(".offline-banner")).to_contain_text("No network", timeout=60_000)
    save(page, 1)
    path = f"/staff/games/{game.pk}/"
    page.evaluate("""(key) => {
        const store = JSON.parse(localStorage.getItem(key));
        store.ops[0].payments = [-1300, 2600, -700, -700];
        localStorage.setItem(key, JSON.stringify(store));
    }""", f"tenbou.queue.{path}")
    page.reload()  # the altered copy read from storage, the page from the worker
    expect(queued(page)).to_have_count(1)

    plug.push()  # the server back: the page's probe finds it and sends the altered entry
    stopped = page.locator("#stopped")
    expect(stopped).to_contain_text("the server prices this hand differently")
    expect(stopped.locator(".side.now")).to_contain_text("+2,000")
    expect(stopped.locator(".side.mine")).to_contain_text("Hand 1")
    assert game.hands.count() == 0 and not SaveKey.objects.filter(game=game).exists()

    page.get_by_role("button", name="Send it as the server prices it").tap()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    assert game.hands.count() == 1 and SaveKey.objects.filter(game=game).count() == 1
    assert game.hands.get(number=1).result["deltas"] == [-1000, 2000, -500, -500]
    expect(queued(page)).to_have_count(0)
