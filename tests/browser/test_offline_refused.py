"""A stored hand the engine now refuses, on a 360 px phone with no network.

The phone holds a page made while the game was fine (a form for the next
hand) and a fresher offline.json that names the refused hand: offline, the
page says what the staff page says (the hand, the engine's reason, no hand
after it until it is corrected or undone) and offers no form for a new hand,
in English and in Japanese.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db.models import F
from django.urls import reverse
from playwright.sync_api import Browser, expect

from league.models import Game, Win
from tests.browser.axe import assert_accessible
from tests.browser.phone import PHONE, club_night, open_game, phone_page
from tests.browser.test_offline_queue import Plug, go_online, ready_for_offline, shot
from tests.factories import play, ron, tsumo

pytestmark = pytest.mark.django_db(transaction=True)

# 1 han 25 fu is no hand (seven pairs are 2 han or more).
SAID = {
    "en-GB": ("Hand 2 cannot be replayed: 25 fu (seven pairs) needs at least 2 han.",
              "No hand can be entered after it until it is corrected or undone."),
    "ja-JP": ("第2局を再計算できません：符：25符（七対子）は2翻以上です。",
              "この局を訂正するか取り消すまで、次の局は入力できません。"),
}


@pytest.fixture
def plug(live_server: Any) -> Iterator[Plug]:
    p = Plug(live_server.url)
    yield p
    p.close()


@pytest.mark.parametrize("locale", sorted(SAID))
def test_offline_the_phone_says_which_stored_hand_is_refused_and_offers_no_new_hand(
        browser: Browser, live_server: Any, plug: Plug, locale: str) -> None:
    game = club_night("referee")
    play(game, [ron(0, 1, 3, 30), tsumo(2, 2, 30), ron(1, 3, 1, 30)])
    for page in phone_page(browser, locale=locale):
        open_game(page, plug.url, game)
        expect(page.locator("form.hand-form")).to_be_visible()
        ready_for_offline(page)
        # A row changed behind the services' back (the version moved, so the next read is fresh);
        # the phone then fetches the game once more: its copy of offline.json names the hand.
        Win.objects.filter(hand__game=game, hand__number=2).update(han=1, fu=25)
        Game.objects.filter(pk=game.pk).update(inputs_version=F("inputs_version") + 1)
        url = reverse("staff-offline-game", args=[game.pk])
        refused = page.evaluate(f"fetch('{url}', {{headers: {{'X-Tenbou-Entry': '1'}}}}).then(r => r.json())")
        assert refused["refused"]["number"] == 2
        plug.pull()
        page.context.set_offline(True)
        page.reload()  # the page from the worker's copy: made before, with a form for hand 4
        notice = page.locator("#phone-refused")
        expect(notice).to_be_visible()
        expect(notice.locator("p").nth(0)).to_have_text(SAID[locale][0])
        expect(notice.locator("p").nth(1)).to_have_text(SAID[locale][1])
        expect(page.locator("form.hand-form")).to_be_hidden()
        expect(page.locator("h2.entry-title")).to_be_hidden()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide"
        box = notice.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        shot(page, f"offline-refused-{locale}")
        assert_accessible(page, f"the refused hand offline ({locale})")
        go_online(page, plug)
