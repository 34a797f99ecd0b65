"""Scoring through a dead network, on a 360 x 740 touch phone.

The phone reaches the server through a plug (a socket relay, tests/browser/plug.py)
that is pulled out while the phone is offline, as well as the browser's own
offline switch: Chromium's switch does not stop a service worker's own
fetches, the pulled plug does, and the server counts every request it gets,
so "nothing reached the server while offline" is a measured fact, not the
switch's word.

Seats: East Alice (0), South Bob (1), West Carol (2), North Dave (3); ari-ari.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.core.signals import request_started
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from league.models import Game, SaveKey
from scoring.game import Draw, Ron, Tsumo
from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS
from tests.browser.phone import PHONE, club_night, open_game, phone_page, tap
from tests.browser.plug import Plug
from tests.factories import play, ron, tsumo

pytestmark = pytest.mark.django_db(transaction=True)


class Counter:
    """Every request the server starts, by path."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        request_started.connect(self.seen)

    def seen(self, sender: Any, environ: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self.paths.append((environ or {}).get("PATH_INFO", "?"))

    def close(self) -> None:
        request_started.disconnect(self.seen)


@pytest.fixture
def game() -> Game:
    return club_night("referee", "second")  # two scorers: a second phone


@pytest.fixture
def counter() -> Iterator[Counter]:
    c = Counter()
    yield c
    c.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    for page in phone_page(browser):
        # What the page's scripts say shows in a failing test's output.
        page.on("console", lambda m: print("console:", m.type, m.text))
        page.on("pageerror", lambda e: print("page error:", e))
        yield page


@pytest.fixture
def other_phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)




def ready_for_offline(page: Page) -> None:
    """Wait until the worker controls the page and keeps the page and the engine."""
    info = page.evaluate("fetch('/staff/offline/engine.json').then(r => r.json())")
    assert info["available"], f"no offline engine: {info['notice']} (python manage.py fetch_offline_assets)"
    deadline = time.monotonic() + 60
    # Every file engine.json lists (pyodide.js too: the last one kept may still be on its way).
    script = """async (files) => {
      if (!navigator.serviceWorker.controller) return false;
      const cache = await caches.open((await caches.keys()).find(n => n.startsWith("tenbou-")) || "none");
      const kept = (await cache.keys()).map(r => new URL(r.url).pathname);
      return files.every(f => kept.includes(f)) && kept.some(p => p.endsWith("offline.json"))
        && kept.some(p => p.endsWith("engine.json"))
        && kept.some(p => /^\\/staff\\/games\\/\\d+\\/$/.test(p));
    }"""
    while not page.evaluate(script, info["files"]):
        assert time.monotonic() < deadline, "the service worker did not keep the page and the engine"
        page.wait_for_timeout(250)


def go_offline(page: Page, plug: Plug) -> None:
    plug.pull()
    page.context.set_offline(True)
    # The engine starts as the network goes; the banner says when the phone prices hands.
    expect(page.locator(".offline-banner")).to_contain_text("Go on entering hands", timeout=60_000)


def go_online(page: Page, plug: Plug) -> None:
    plug.push()
    page.context.set_offline(False)


def queued(page: Page) -> Any:
    return page.locator("#queued li")


def save(page: Page, count: int) -> None:
    page.locator("#save-button").tap()
    expect(queued(page)).to_have_count(count, timeout=60_000)  # the first waits for the engine to start


def enter_tsumo(page: Page, seat: int, han: int, fu: int) -> None:
    tap(page, "outcome", "tsumo")
    tap(page, "winner", seat)
    tap(page, f"han_{seat}", han)
    tap(page, f"fu_{seat}", fu)


def enter_ron(page: Page, winner: int, loser: int, han: int, fu: int) -> None:
    tap(page, "outcome", "ron")
    tap(page, "winners", winner)
    tap(page, "loser", loser)
    tap(page, f"han_{winner}", han)
    tap(page, f"fu_{winner}", fu)


def enter_draw(page: Page, *tenpai: int) -> None:
    tap(page, "outcome", "draw")
    for seat in tenpai:
        tap(page, "tenpai", seat)


def phone_prices(page: Page, game: Game) -> dict[int, list[int]]:
    store = page.evaluate(f"localStorage.getItem('tenbou.queue.{reverse('staff-game', args=[game.pk])}')")
    return {int(n): p for n, p in json.loads(store)["priced"].items()}


def server_prices(game: Game) -> dict[int, list[int]]:
    return {i + 1: list(h.deltas) for i, h in enumerate(game.replay().result.hands)}


def shot(page: Page, name: str) -> None:
    """The whole page, and the screen as the scorer sees it."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-screen-360.png"))  # first: a full-page shot scrolls
    page.screenshot(path=str(ARTIFACTS / f"{name}-360.png"), full_page=True)


def test_five_hands_offline_with_a_correction_survive_a_reload_and_land_once(
        phone: Page, live_server: Any, plug: Plug, counter: Counter, game: Game) -> None:
    page = phone
    open_game(page, plug.url, game)
    ready_for_offline(page)
    # Chromium's own check that the page installs as an app (manifest, icons, service worker);
    # a test browser's context is incognito, where nothing installs, so that one reason is expected.
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    cdp.detach()  # a session left open keeps the page from hearing the network come back
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    go_offline(page, plug)
    before = len(counter.paths)

    enter_tsumo(page, 1, 2, 30)
    save(page, 1)
    expect(page.locator(".offline-banner")).to_contain_text("No network")
    expect(page.locator("h2.entry-title")).to_have_text("Hand 2")
    enter_ron(page, 2, 0, 3, 40)
    save(page, 2)
    enter_draw(page, 0, 3)
    save(page, 3)
    enter_tsumo(page, 3, 4, 30)
    save(page, 4)
    shot(page, "offline-banner")
    # The correction: hand 2 was 3 han 40 fu, it is 3 han 30 fu.
    page.get_by_role("button", name="Correct hand 2").tap()
    expect(page.locator("h2.entry-title")).to_have_text("Correct hand 2")
    expect(page.locator("input[name=han_2][value='3']")).to_be_checked()
    tap(page, "fu_2", 30)
    save(page, 5)
    expect(page.locator("h2.entry-title")).to_have_text("Hand 5")
    enter_ron(page, 1, 3, 1, 30)
    save(page, 6)
    expect(page.locator(".offline-banner")).to_contain_text("6 entries are on this phone, not yet saved")
    shot(page, "offline-queue")
    assert_accessible(page, "the queue offline")

    page.reload()  # a closed tab, a restarted phone: the page comes from the worker, the queue from storage
    expect(queued(page)).to_have_count(6)
    expect(page.locator("#queued")).to_contain_text("On this phone, not yet saved")
    expect(page.locator("h2.entry-title")).to_have_text("Hand 6")
    phone = phone_prices(page, game)
    assert sorted(phone) == [1, 2, 3, 4, 5]
    while_offline = counter.paths[before:]
    assert while_offline == []  # nothing reached the server while the phone was offline
    assert game.hands.count() == 0

    started = time.monotonic()
    go_online(page, plug)
    expect(page.locator(".messages")).to_contain_text("Hand 5 saved.", timeout=60_000)
    took = time.monotonic() - started
    assert game.hands.count() == 5
    assert SaveKey.objects.filter(game=game).count() == 6  # five hands and one correction, each once
    assert server_prices(game) == phone
    hand2 = game.hands.get(number=2).to_input()
    assert hand2.outcome.wins[0].fu == 30  # the correction landed
    expect(queued(page)).to_have_count(0)
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tenbou.queue.')).length") == 0
    # The baseline of the same run: one hand saved online, from the tap to the page after it.
    enter_draw(page, 1)
    expect(page.locator("#preview")).to_contain_text("Hand 6 pays")
    tapped = time.monotonic()
    page.locator("#save-button").tap()
    expect(page.locator(".messages")).to_contain_text("Hand 6 saved.")
    online = time.monotonic() - tapped
    (ARTIFACTS / "offline-sync.json").write_text(json.dumps(
        {"entries": 6, "hands": 5, "reconnect_to_saved_s": round(took, 2), "one_online_save_s": round(online, 2),
         "ratio": round(took / online, 1), "requests_while_offline": len(while_offline)}) + "\n")
    assert page.viewport_size == PHONE


def test_a_hand_entered_by_another_scorer_stops_the_queue_and_nothing_is_lost(
        phone: Page, other_phone: Page, live_server: Any, plug: Plug, game: Game) -> None:
    play(game, [ron(0, 1, 3, 40), tsumo(2, 2, 30)])
    page = phone
    open_game(page, plug.url, game)
    ready_for_offline(page)
    fix = page.locator(".state .fix")  # "Correct hand 2…" and the chooser of earlier hands
    expect(fix.locator("details.fix-other")).to_be_visible()
    go_offline(page, plug)
    enter_tsumo(page, 3, 3, 30)
    save(page, 1)
    expect(fix).to_be_hidden()  # the server's hands wait for the network; the phone's come first
    enter_ron(page, 0, 1, 2, 30)
    save(page, 2)

    # Meanwhile, at the same table, a second scorer online saves hand 3.
    open_game(other_phone, live_server.url, game, user="second")
    enter_draw(other_phone, 1)
    other_phone.locator("#save-button").tap()
    expect(other_phone.locator(".messages")).to_contain_text("Hand 3 saved.")

    go_online(page, plug)
    stop = page.locator("#stopped")
    expect(stop).to_contain_text("Not saved: the game changed on the server", timeout=30_000)
    expect(stop.locator(".mine")).to_contain_text("Hand 3")
    expect(stop.locator(".now")).to_contain_text("Hand 3 was saved by second")
    expect(queued(page)).to_have_count(2)  # both still on the phone
    shot(page, "offline-conflict")
    assert_accessible(page, "the conflict view")
    assert game.hands.count() == 3

    page.get_by_role("button", name="Keep mine as the next hand").tap()
    expect(stop).to_contain_text("Check the new numbers, then send")
    expect(queued(page).first).to_contain_text("Hand 4")
    phone = phone_prices(page, game)
    page.get_by_role("button", name="Send 2 entries").tap()
    expect(page.locator(".messages")).to_contain_text("Hand 5 saved.", timeout=30_000)
    assert game.hands.count() == 5
    hands = {h.number: h.to_input() for h in game.hands.all()}
    assert isinstance(hands[3].outcome, Draw)  # the other scorer's hand, kept
    assert isinstance(hands[4].outcome, Tsumo) and hands[4].outcome.winner == 3  # mine, after it
    assert isinstance(hands[5].outcome, Ron) and hands[5].outcome.wins[0].winner == 0
    prices = server_prices(game)
    assert {n: prices[n] for n in phone} == phone


def test_an_expired_login_asks_for_the_password_in_place_and_the_hand_is_kept(
        phone: Page, live_server: Any, game: Game) -> None:
    page = phone
    open_game(page, live_server.url, game)
    enter_tsumo(page, 1, 2, 30)
    expect(page.locator("#preview")).to_contain_text("East Alice pays South Bob 1,000")
    Session.objects.all().delete()  # the login expired while the hand was being entered
    page.locator("#save-button").tap()
    prompt = page.locator("form.login-again")
    expect(prompt).to_contain_text("Your login has expired. Enter the password for referee")
    expect(page.locator("input[name=han_1][value='2']")).to_be_checked()  # nothing typed is lost
    shot(page, "session-expired")
    assert game.hands.count() == 0
    prompt.locator("input[type=password]").fill("not it")
    prompt.get_by_role("button", name="Log in again").tap()
    expect(prompt).to_contain_text("That password is not right.")
    prompt.locator("input[type=password]").fill("table-side-42")
    prompt.get_by_role("button", name="Log in again").tap()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    assert game.hands.count() == 1 and SaveKey.objects.filter(game=game).count() == 1


def test_removing_the_phones_hand_takes_two_taps_and_keeps_the_other_scorers(
        phone: Page, other_phone: Page, live_server: Any, plug: Plug, game: Game) -> None:
    play(game, [ron(0, 1, 3, 40), tsumo(2, 2, 30)])
    page = phone
    open_game(page, plug.url, game)
    ready_for_offline(page)
    go_offline(page, plug)
    enter_draw(page, 1)
    save(page, 1)
    open_game(other_phone, live_server.url, game, user="second")  # the same hand, entered twice
    enter_draw(other_phone, 1)
    other_phone.locator("#save-button").tap()
    expect(other_phone.locator(".messages")).to_contain_text("Hand 3 saved.")

    go_online(page, plug)
    stop = page.locator("#stopped")
    expect(stop).to_contain_text("Not saved: the game changed on the server", timeout=30_000)
    remove = page.get_by_role("button", name="Remove mine from this phone…")
    remove.tap()
    expect(stop.get_by_role("button", name="Tap again: remove hand 3 for good")).to_be_visible()
    expect(queued(page)).to_have_count(1)  # one tap removes nothing
    stop.get_by_role("button", name="Tap again: remove hand 3 for good").tap()
    expect(page.locator("h2.entry-title")).to_have_text("Hand 4")  # the game as the server has it
    expect(queued(page)).to_have_count(0)
    assert game.hands.count() == 3 and game.hands.get(number=3).entered_by.username == "second"


def test_a_server_out_of_reach_while_the_phone_says_online_queues_and_retries(
        phone: Page, live_server: Any, plug: Plug, game: Game) -> None:
    # The club's Wi-Fi is up but the server is not: the browser never says "offline".
    page = phone
    open_game(page, plug.url, game)
    ready_for_offline(page)
    plug.pull()
    # The first failed request starts the engine, on the page's own thread: the
    # page takes the next taps only once it has loaded (seconds on a busy machine).
    page.set_default_timeout(60_000)
    enter_tsumo(page, 1, 2, 30)  # the preview's request fails: the phone prices it
    expect(page.locator(".offline-banner")).to_contain_text("No network", timeout=60_000)
    save(page, 1)
    assert game.hands.count() == 0
    plug.push()  # no "online" event: the page looks again on its own (every second)
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.", timeout=60_000)
    assert game.hands.count() == 1 and SaveKey.objects.filter(game=game).count() == 1


def test_an_answer_cut_after_its_headers_is_never_read_as_a_whole_one(
        phone: Page, live_server: Any, plug: Plug, game: Game) -> None:
    """The network dropping in the middle of an answer: the page gets the kept copy,
    not the first bytes of the new one (an engine.json cut short once left a phone
    with no engine, "Unexpected end of JSON input")."""
    page = phone
    open_game(page, plug.url, game)
    ready_for_offline(page)
    read = """(path) => fetch(path).then(r => r.text()).then(
        t => { try { return JSON.parse(t); } catch (e) { return "cut: " + t.length + " bytes"; } },
        e => "failed: " + e)"""
    kept = page.evaluate(read, "/staff/offline/engine.json")
    assert kept["available"]
    # Cut in the body, then in the headers (what the browser reads as a 200 with no body).
    for cut in ({"body_bytes": 12}, {"body_bytes": None, "in_headers": True}):
        plug.cut_answers(**cut)
        try:
            assert page.evaluate(read, "/staff/offline/engine.json") == kept, cut
            # The game page too: a cut page is not shown, nor kept in place of the whole one.
            page.reload()
            expect(page.locator("#save-button")).to_be_visible()
        finally:
            plug.cut_answers(None)
    page.reload()
    expect(page.locator("#save-button")).to_be_visible()

