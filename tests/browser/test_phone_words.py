"""In Japanese, what the page's scripts write is Japanese (issue 30).

One phone with its language set to Japanese goes through every state the
scripts write words in: the save bar's line (a hand not ready, a hand priced),
a login that expired, the network gone (the banner), hands kept on the phone
(the list, the state line), a conflict when the network is back, and a live
page's "updated" stamp. After each, no visible text holds an English message
of the words block (league/script_words.py, rendered in English here).
Shots: ``artifacts/words-ja-<state>-360.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from league.models import Game
from league.script_words import script_words
from tests.browser.conftest import ARTIFACTS
from tests.browser.phone import open_game, phone_page, tap
from tests.browser.plug import Plug
from tests.browser.test_offline_queue import enter_draw, queued, ready_for_offline
from tests.factories import draw, play

pytestmark = pytest.mark.django_db(transaction=True)


def english_messages() -> list[str]:
    """Each English message of the words block, cut at its {slots}: the parts long enough to be words."""
    with translation.override("en"):
        words = script_words()
    texts = [v for k, v in words.items() if isinstance(v, str)]
    parts = {p.strip(" .,:;·") for t in texts for p in re.split(r"\{\w+\}", t)}
    return sorted(p for p in parts if len(p) >= 5 and re.search("[A-Za-z]{3}", p))


ENGLISH = english_messages()


def ja(key: str, **values: object) -> str:
    with translation.override("ja"):
        text = str(script_words()[key])
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    for page in phone_page(browser, locale="ja"):
        # What the page's scripts say shows in a failing test's output.
        page.on("console", lambda m: print("console:", m.type, m.text))
        page.on("pageerror", lambda e: print("page error:", e))
        yield page


def no_english(page: Page, state: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"words-ja-{state}-360.png"))
    assert page.locator("html").get_attribute("lang") == "ja"
    shown = page.evaluate("document.body.innerText")
    left = [m for m in ENGLISH if m in shown]
    assert left == [], (state, left)


def test_every_script_state_speaks_japanese(phone: Page, live_server: Any, plug: Plug, game: Game) -> None:
    page = phone
    open_game(page, plug.url, game)
    status = page.locator("#save-status")

    # The save bar: a hand not ready names the field to look at; a priced hand, what each seat pays.
    tap(page, "outcome", "tsumo")
    tap(page, "winner", 1)
    expect(status).to_contain_text(ja("not_ready_field", field="翻"))
    no_english(page, "not-ready")
    tap(page, "han_1", 2)
    tap(page, "fu_1", 30)
    expect(status).to_have_text("東 Alice -1,000 南 Bob +2,000 西 Carol -500 北 Dave -500")
    no_english(page, "priced")

    page.locator("#save-button").tap()
    expect(page.locator(".messages")).to_contain_text("第1局")

    # The network gone: the banner, then a hand kept on the phone, the state line the server's.
    ready_for_offline(page)
    plug.pull()
    page.context.set_offline(True)
    expect(page.locator(".offline-banner")).to_contain_text(ja("banner_offline_empty"), timeout=60_000)
    no_english(page, "offline")
    enter_draw(page, 2)
    # The phone prices the kept hand in the page's language (the engine's catalogue, issue 30).
    lines = page.locator("#preview ul.payments li")
    expect(lines.first).to_be_visible(timeout=60_000)
    shown = lines.all_text_contents()
    assert shown and all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line) for line in shown), shown
    no_english(page, "kept-price")
    page.locator("#save-button").tap()
    expect(queued(page)).to_have_count(1, timeout=60_000)
    expect(page.locator(".offline-banner")).to_contain_text(ja("banner_offline_one", n=1))
    # The server's own state line: 東2局、1本場、供託なし, not "東2局, 1本場, 供託なし".
    expect(page.locator(".state .where")).to_have_text(re.compile(r"^東\d局、\d本場、供託"))
    # Its three payment lines in the list, joined as the server's hands list joins them.
    joined = "；".join(shown)
    expect(page.locator("#queued li .pay")).to_have_text(joined)
    expect(page.locator("#queued li")).to_contain_text("第2局：流局")  # named as the server's page names a hand
    no_english(page, "queued")

    # Another scorer saved hand 2 meanwhile: back online, the queue stops, in Japanese.
    play(game, [draw(0)])
    plug.push()
    page.context.set_offline(False)
    expect(page.locator("#stopped")).to_contain_text(ja("stop_conflict"), timeout=30_000)
    expect(page.locator("#stopped .mine")).to_contain_text(joined)
    expect(page.locator("#stopped .mine p").first).to_have_text(re.compile(r"^第2局：流局、.*。$"))
    no_english(page, "conflict")
    page.locator("#stopped button.primary").tap()  # keep mine as the next hand
    expect(page.locator("#stopped")).to_contain_text(ja("review_title"))
    no_english(page, "review")

    page.locator("#stopped button.primary").tap()  # send it
    expect(page.locator(".messages")).to_contain_text("第3局", timeout=30_000)
    assert game.hands.count() == 3

    enter_draw(page, 1)
    expect(status).to_contain_text("+3,000")
    # The login expired while the hand was entered: the password asked for in Japanese.
    Session.objects.all().delete()
    page.locator("#save-button").tap()
    prompt = page.locator("form.login-again")
    expect(prompt).to_contain_text(ja("login_text", user="referee"))
    no_english(page, "login")
    prompt.locator("input[type=password]").fill("table-side-42")
    prompt.locator("button").tap()
    expect(page.locator(".messages")).to_contain_text("第4局", timeout=15_000)
    assert game.hands.count() == 4

    # A live page's stamp, after one poll (the page's clock, not 30 seconds of the test's).
    page.clock.install()
    page.goto(plug.url + reverse("game-detail", args=[game.pk]))
    play(game, [draw(0, 1, 2, 3)])  # a new hand: the poll brings it, and the stamp
    with page.expect_response(lambda r: "partial=1" in r.url):
        page.clock.run_for(31_000)
    expect(page.locator("#live-updated")).to_contain_text("に更新")
    no_english(page, "updated")
