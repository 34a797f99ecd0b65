"""engine.js in the staff game page, in Chromium: Pyodide loads from
/staff/offline/, and the hand the scorer filled in is priced on the phone
exactly as the server's live preview prices it and as the server then saves it.

Seats: East Alice (0), South Bob (1), West Carol (2), North Dave (3); ari-ari.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from league import services
from league.models import Game
from scoring import game as sg
from tests.browser.conftest import screenshot
from tests.browser.test_offline_engine import _need_engine
from tests.browser.test_staff_entry import log_in
from tests.factories import draw, make_player, make_series, ron

pytestmark = pytest.mark.django_db(transaction=True)

PRICE = """async () => {
  if (!window.TenbouEngine) {
    await new Promise((ok, fail) => {
      const s = document.createElement("script");
      s.src = "/staff/offline/engine.js"; s.onload = ok; s.onerror = fail;
      document.head.appendChild(s);
    });
  }
  const game = await (await fetch(location.pathname + "offline.json")).json();
  const form = document.querySelector("input[name=outcome]").form;
  const started = performance.now();
  await TenbouEngine.ready();
  const loaded = performance.now();
  const answer = await TenbouEngine.price(game, TenbouEngine.fieldsOf(form));
  return {game, answer, load_ms: loaded - started, price_ms: performance.now() - loaded};
}"""


def test_the_page_prices_a_hand_as_the_server_previews_and_saves_it(page: Page, live_server: Any) -> None:
    _need_engine()
    series = make_series("ari-ari", slug="club-night", name="Club night")
    scorer = User.objects.create_user("referee", password="table-side-42")
    series.scorers.add(scorer)
    players = [make_player(n) for n in ("Alice", "Bob", "Carol", "Dave")]
    game = services.start_game(series=series, players=players)
    # A draw with two tenpai and a riichi stick left on the table: hand 3 starts at 1 honba, 1 stick.
    for hand in (ron(0, 2, 2, 30), draw(1, 3, riichi=[1])):
        services.record_hand(game=game, number=game.next_hand_number(), hand=hand)
    base = live_server.url
    log_in(page, base, "referee", "table-side-42")
    page.goto(base + reverse("staff-game", args=[game.pk]))
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url.removeprefix(base)))
    # Hand 3: West Carol (riichi) rons South Bob for 3 han 40 fu.
    page.check('input[name="outcome"][value="ron"]')
    page.check('input[name="winners"][value="2"]')
    page.check('input[name="loser"][value="1"]')
    page.check('input[name="riichi"][value="2"]')
    page.check('input[name="han_2"][value="3"]')
    page.check('input[name="fu_2"][value="40"]')
    preview = page.locator("#preview")
    expect(preview).to_contain_text("South Bob pays West Carol 5,200 + 300")
    result = page.evaluate(PRICE)
    answer = result["answer"]
    assert answer["ok"] is True, answer
    # 5,200 + 300 honba from Bob; Carol takes both sticks (2,000), one of them her own riichi (-1,000).
    assert answer["payments"] == [0, -5500, 6500, 0]
    for line in answer["lines"]:
        expect(preview).to_contain_text(line)  # the server's live preview says the same words
    # Everything the engine fetched is in the list the service worker keeps for offline use.
    kept = set(page.evaluate("async () => (await (await fetch('/staff/offline/engine.json')).json()).files"))
    engine_files = {url for url in fetched if url.startswith("/staff/offline/")}
    assert {"/staff/offline/pyodide/pyodide.asm.wasm", "/staff/offline/engine.zip"} <= engine_files
    assert engine_files <= kept
    screenshot(page, "offline-engine-priced")
    page.locator("#save-button").click()
    expect(page.locator(".messages")).to_contain_text("Hand 3 saved.")
    game = Game.objects.get(pk=game.pk)
    row = game.hands.get(number=3)
    assert answer["hand"] == sg.hand_to_dict(row.to_input())
    assert answer["payments"] == row.result["deltas"]
    assert answer["after"]["scores"] == row.result["scores"]
    assert answer["digest"] == services.entry_state(game)[1]
    print(f"\nPyodide ready in {result['load_ms']:.0f} ms, one hand priced in {result['price_ms']:.0f} ms")
