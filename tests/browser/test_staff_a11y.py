"""Every staff page, in each of its states, checked by axe-core at 360 and
1280 px (no serious or critical violation) and photographed for a person to
look at: ``artifacts/a11y-<state>-360.png`` and ``-1280.png``."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from league import services
from tests.browser.axe import assert_accessible_at
from tests.browser.conftest import screenshot
from tests.browser.phone import IN_FLIGHT
from tests.factories import make_game, make_player, make_series, play, ron, tsumo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def setup() -> dict[str, Any]:
    series = make_series("ari-ari", slug="club-night", name="Club night")
    series.scorers.add(User.objects.create_user("referee", password="table-side-42"))
    players = [make_player(n) for n in ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Gus", "Hana")]
    game = make_game(series, players=players[:4], table="3")
    play(game, [ron(0, 1, 3, 40, riichi=(1,)), tsumo(2, 2, 30)])
    ended = make_game(series, players=players[4:], table="4")
    play(ended, [ron(0, 1, 3, 40)])
    services.finish_game(game=ended)
    services.add_penalty(game=game, seat=2, points=-5000, reason="slow play")
    return {"series": series, "game": game, "ended": ended}


def check(page: Page, name: str) -> None:
    assert_accessible_at(page, where=name)
    screenshot(page, f"a11y-{name}")


def test_every_staff_page_passes_axe_at_phone_and_desktop_width(page: Page, live_server: Any,
                                                                 setup: dict[str, Any]) -> None:
    base, game, ended = live_server.url, setup["game"], setup["ended"]
    page.goto(base + reverse("login"))
    check(page, "login")
    page.fill("#id_username", "referee")
    page.fill("#id_password", "table-side-42")
    page.click("button[type=submit]")
    for name, url in [
        ("home", reverse("staff-home")),
        ("series", reverse("staff-series", args=["club-night"])),
        ("start", reverse("staff-start", args=["club-night"])),
        ("undo", reverse("staff-undo", args=[game.pk])),
        ("finish", reverse("staff-finish", args=[game.pk])),
        ("reopen", reverse("staff-reopen", args=[ended.pk])),
        ("finished-game", reverse("staff-game", args=[ended.pk])),
        ("final-scores", reverse("staff-final-scores", args=[game.pk])),
        ("penalties", reverse("staff-penalties", args=[game.pk])),
        ("cancel-penalty", reverse("staff-cancel-penalty", args=[game.pk, game.penalties.get().pk])),
        ("import", reverse("staff-import", args=["club-night"])),
    ]:
        page.goto(base + url)
        check(page, name)

    # The start form refusing a table that cannot be.
    page.goto(base + reverse("staff-start", args=["club-night"]))
    page.fill("#id_table", "3")
    for seat, who in zip(("east", "south", "west", "north"), ("Alice", "Bob", "Carol", "Alice"), strict=True):
        page.select_option(f"#id_{seat}", label=who)
    page.click("text=Start the game")
    expect(page.locator(".has-error").first).to_be_visible()
    check(page, "start-refused")

    # The hand form: empty, each outcome, a ron with its preview, errors, a correction.
    page.goto(base + reverse("staff-game", args=[game.pk]))
    check(page, "hand-empty")
    for outcome in ("tsumo", "draw", "abort", "chombo"):
        page.locator(f'label.chip:has(input[name="outcome"][value="{outcome}"])').click()
        check(page, f"hand-{outcome}")
    for name, value in (("outcome", "ron"), ("winners", 0), ("loser", 2), ("riichi", 0), ("han_0", 3), ("fu_0", 40)):
        page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').click()
    expect(page.locator("#preview")).to_contain_text("Hand 3 pays")
    page.locator(".seat-value[data-seat='0'] details.seat-more > summary").click()  # the seat's rarer values
    page.locator(".seat-value[data-seat='0'] details.more").first.locator("summary").click()
    check(page, "hand-ron-preview")
    page.locator('label.chip:has(input[name="fu_0"][value="20"])').click()
    page.locator("#save-button").click()
    expect(page.locator(".has-error").first).to_be_visible()
    check(page, "hand-error")
    page.goto(base + reverse("staff-edit-hand", args=[game.pk, 1]))
    # Hand 1 was a draw after all, East and South tenpai: East keeps the deal, so hand 2 pays otherwise.
    for name, value in (("outcome", "draw"), ("tenpai", 0), ("tenpai", 1)):
        page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').click()
    expect(page.locator("#preview")).to_contain_text("Later hands whose payments change")
    expect(page.locator("#preview .later")).to_contain_text("Hand 2 (East 2, 0 honba → East 1, 1 honba): East Alice -500 → -1,100")
    check(page, "hand-correction")

    # The conflict page (a form whose state is gone).
    page.goto(base + reverse("staff-edit-hand", args=[game.pk, 1]))
    # The page asks for its preview at once: let the server finish it before this
    # thread writes (the in-memory test database is one connection for both).
    page.wait_for_load_state("networkidle")
    IN_FLIGHT.wait()
    services.undo_last_hand(game=game)
    services.undo_last_hand(game=game)
    page.locator('label.chip:has(input[name="han_1"][value="4"])').click()
    page.locator("#save-button").click()
    expect(page.locator("h1")).to_have_text("Your entry was not saved")
    check(page, "conflict")
