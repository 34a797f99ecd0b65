"""The table signs the result on a 360 px phone (issue 20): Alice and Bob type
their PINs on the scorer's phone (Bob mistypes first), Carol scans her player
card's QR code and confirms on her own phone, Dave disputes on his (the
scorer's screen shows no seat's link: issue 29), the referee
lets the result stand, and the game counts. Screenshots in artifacts/.

Seats: East Alice (0), South Bob (1), West Carol (2), North Dave (3); ari-ari,
a series where a game counts only after sign-off.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from league import services
from league.models import Game, Registration, SignOff
from tests.browser.axe import assert_accessible
from tests.browser.conftest import screenshot
from tests.browser.phone import phone_page
from tests.factories import make_game, make_player, make_series

pytestmark = pytest.mark.django_db(transaction=True)

PINS = {"Alice": "1357", "Bob": "2468", "Carol": "1111", "Dave": "9090"}


@pytest.fixture
def game() -> Game:
    series = make_series("ari-ari", slug="club-night", name="Club night", requires_signoff=True)
    series.scorers.add(User.objects.create_user("referee", password="table-side-42"))
    players = [make_player(n) for n in PINS]
    services.set_pins(pins={p: PINS[p.name] for p in players})
    game = make_game(series, players=players, table="3")
    services.record_final_scores(game=game, scores=[41000, 29000, 20000, 10000])
    for number, player in enumerate(players, start=1):  # their player cards: /n/<code>, printed and as a QR code
        Registration.objects.create(series=series, player=player, number=number, first_name=player.name,
                                    last_name="Player")
    return game


@pytest.fixture
def scorer_phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)


@pytest.fixture
def own_phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)


def card(page: Page, seat: int) -> Any:
    return page.locator(f"#seat-{seat}")


def pin(page: Page, seat: int, value: str) -> None:
    field = card(page, seat).locator("input[name=pin]")
    field.tap()
    field.press_sequentially(value)
    card(page, seat).get_by_role("button", name="Confirm").tap()


def test_the_table_signs_on_the_scorers_phone_and_on_their_own(scorer_phone: Page, own_phone: Page,
                                                               live_server: Any, game: Game) -> None:
    page, base = scorer_phone, live_server.url
    page.goto(base + reverse("login"))
    page.fill("#id_username", "referee")
    page.fill("#id_password", "table-side-42")
    page.click("button[type=submit]")
    page.goto(base + reverse("staff-game", args=[game.pk]))
    expect(page.locator("#signoff")).to_contain_text("4 players still to answer")
    screenshot(page, "signoff-game-page")
    page.locator("#signoff a", has_text="Sign-off").tap()
    expect(page.locator("h1")).to_contain_text("Sign-off: round 1, table 3")
    screenshot(page, "signoff-scorer")
    assert_accessible(page, "sign-off, scorer's phone")
    # The page fits a 360 px phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    pin(page, 0, PINS["Alice"])
    expect(page.locator(".messages")).to_contain_text("Alice confirmed the result.")
    pin(page, 1, PINS["Alice"])  # Bob types Alice's PIN: it signs nothing
    expect(card(page, 1).locator(".errorlist")).to_contain_text("Wrong PIN for Bob.")
    screenshot(page, "signoff-wrong-pin")
    pin(page, 1, PINS["Bob"])
    expect(card(page, 1).locator(".answer")).to_have_text("confirmed")

    # No seat's link on the scorer's screen: Carol and Dave scan their own player cards.
    expect(card(page, 2).locator("svg")).to_have_count(0)
    code = {r.player.name: r.code for r in Registration.objects.select_related("player")}
    carol_link = base + reverse("event-short", args=[code["Carol"]])
    dave_link = base + reverse("event-short", args=[code["Dave"]])

    phone = own_phone
    phone.goto(carol_link)
    expect(phone.locator("main")).to_contain_text("You sit West: Carol.")
    screenshot(phone, "signoff-own-phone")
    assert_accessible(phone, "sign-off, own phone")
    phone.get_by_role("button", name="I confirm this result").tap()
    expect(phone.locator("[role=status]")).to_contain_text("You confirmed this result.")

    phone.goto(dave_link)
    phone.locator("summary", has_text="dispute").tap()
    phone.locator("#note").tap()
    phone.locator("#note").press_sequentially("North's riichi stick was never paid")
    phone.get_by_role("button", name="Dispute the result").tap()
    expect(phone.locator("[role=status]")).to_contain_text("You disputed this result")
    screenshot(phone, "signoff-disputed-own-phone")

    # The public tables view: who still has to sign, no PIN, no link.
    phone.goto(base + reverse("signoff-tables", args=[game.series.slug]))
    expect(phone.locator(".seat-card")).to_contain_text("disputed: the referee is called")
    assert phone.locator("input, svg").count() == 0
    screenshot(phone, "signoff-tables")
    assert_accessible(phone, "tables to sign")

    page.reload()
    expect(page.locator(".flag")).to_contain_text("North's riichi stick was never paid")
    screenshot(page, "signoff-dispute-flag")
    page.get_by_role("button", name="Referee: the result stands").tap()
    expect(page.locator(".signed")).to_contain_text("All four players confirmed this result")
    screenshot(page, "signoff-complete")

    game.refresh_from_db()
    assert game.signed_off_at is not None and game.counts()
    assert sorted(SignOff.objects.filter(game=game).values_list("seat", "via", "kind", "resolution")) == [
        (0, "pin", "confirm", ""), (1, "pin", "confirm", ""), (2, "link", "confirm", ""),
        (3, "link", "dispute", "accepted")]
    assert [r.name for r in game.series.standings().ranked] == ["Alice", "Bob", "Carol", "Dave"]
