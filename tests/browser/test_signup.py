"""A player registers themselves on a 360 px phone, in English and in Japanese
(issue 39): the event page's button, the form, the link read from the mail,
confirmation onto the waiting list past the cap, and moving up when the
player holding the last place withdraws by their own link. The director's
players page (on another phone) shows each step, with the e-mail; the
event's change log names each step. Screenshots in artifacts/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from league.models import Series, SignUp
from league.services import event
from league.services import signup as desk
from tests.browser.axe import assert_accessible
from tests.browser.conftest import screenshot
from tests.browser.phone import phone_page
from tests.factories import make_series

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"register": "Register for this event", "sent": "Check your e-mail", "subject": "Spring Open: confirm your registration",
           "waiting": "number 1 on the waiting list", "registered": "You are registered, with event number 2",
           "promoted": "Spring Open: you are registered"},
    "ja": {"register": "この大会に申し込む", "sent": "メールをご確認ください", "subject": "Spring Open：申し込みの確認",
           "waiting": "キャンセル待ちの1番目", "registered": "大会番号は2です",
           "promoted": "Spring Open：登録されました"},
}


@pytest.fixture
def series() -> Series:
    series = make_series("ari-ari", slug="spring", name="Spring Open", kind="tournament")
    event.configure_event(series=series, rounds=4)
    series.directors.add(User.objects.create_user("director", password="desk-side-42"))
    desk.configure_signup(series=series, is_open=True, closes_at=None, cap=2, moderated=False)
    # The director registered one player; Aiko signed up and took the last place under the cap.
    event.register_player(series=series, first_name="Dora", last_name="Early")
    aiko = desk.sign_up(series=series, first_name="Aiko", last_name="Sato", email="aiko@example.org")
    desk.confirm_signup(token=desk.link_token(aiko))
    return series


@pytest.fixture
def player(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)


@pytest.fixture
def director(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)


def link_in_mail(to: str, base: str) -> tuple[str, Any]:
    """The link of the last mail to ``to``, on the live server (the fixture's mails were sent without a site)."""
    message = [m for m in mail.outbox if m.to == [to]][-1]
    return base + re.search(r"/register/link/\S+/", message.body).group(0), message


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_player_registers_waits_past_the_cap_and_moves_up(player: Page, director: Page, live_server: Any,
                                                            series: Series, lang: str) -> None:
    words, base = WORDS[lang], live_server.url
    for page in (player, director):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    director.goto(base + reverse("login"))
    director.fill("#id_username", "director")
    director.fill("#id_password", "desk-side-42")
    director.click("button[type=submit]")
    players_page = base + reverse("event-players", args=["spring"])

    # The player finds the form from the event page and registers.
    player.goto(base + reverse("event-public", args=["spring"]))
    expect(player.locator("html")).to_have_attribute("lang", lang)
    player.get_by_role("link", name=words["register"]).tap()
    player.fill("#id_first_name", "Bram")
    player.fill("#id_last_name", "de Vries")
    player.fill("#id_ema_number", "10990042")
    player.fill("#id_country", "nl")
    player.fill("#id_club", "Tsumo Club")
    player.fill("#id_email", "bram@example.org")
    screenshot(player, f"signup-form-{lang}")
    assert_accessible(player, "sign-up form")
    player.locator("#signup-form button[type=submit]").tap()
    expect(player.locator("h1")).to_have_text(words["sent"])

    # The director sees the sign-up, not yet confirmed, with its e-mail.
    director.goto(players_page)
    expect(director.locator("#signup-list tr", has_text="Bram de Vries")).to_have_attribute("data-status", "unconfirmed")
    expect(director.locator("#signup-list")).to_contain_text("bram@example.org")

    # The link from the mail, in the player's language: confirming puts Bram on the waiting list.
    link, message = link_in_mail("bram@example.org", base)
    assert message.subject == words["subject"]
    player.goto(link)
    expect(player.locator("#signup-status")).to_have_attribute("data-status", "unconfirmed")
    player.locator("button[value=confirm]").tap()
    expect(player.locator("#signup-status")).to_have_attribute("data-status", "waiting")
    expect(player.locator("#signup-status")).to_contain_text(words["waiting"])
    screenshot(player, f"signup-waiting-{lang}")
    assert_accessible(player, "sign-up link page")
    director.goto(players_page)
    expect(director.locator("#signup-waiting")).to_contain_text("Bram de Vries")
    expect(director.locator("#signup-waiting")).to_contain_text("bram@example.org")
    screenshot(director, f"signup-director-waiting-{lang}")

    # Aiko withdraws by her own link: Bram moves up, and is mailed.
    aiko_link, _ = link_in_mail("aiko@example.org", base)
    player.goto(aiko_link)
    expect(player.locator("#signup-status")).to_have_attribute("data-status", "registered")
    player.locator("button[value=withdraw]").tap()
    expect(player.locator("#signup-status")).to_have_attribute("data-status", "withdrawn")
    player.goto(link)
    expect(player.locator("#signup-status")).to_have_attribute("data-status", "registered")
    expect(player.locator("#signup-status")).to_contain_text(words["registered"])
    assert link_in_mail("bram@example.org", base)[1].subject == words["promoted"]

    # The director sees Bram registered as number 2 (Aiko's number freed), and every step in the log.
    director.goto(players_page)
    expect(director.locator("#signup-waiting")).to_have_count(0)
    expect(director.locator("#signup-list tr", has_text="Bram de Vries")).to_have_attribute("data-status", "registered")
    expect(director.locator("#signup-list tr", has_text="Aiko Sato")).to_have_attribute("data-status", "withdrawn")
    expect(director.locator("table.checkin")).to_contain_text("Bram de Vries")
    expect(director.locator("table.checkin")).not_to_contain_text("Aiko Sato")
    screenshot(director, f"signup-director-moved-up-{lang}")
    director.goto(base + reverse("event-dashboard", args=["spring"]))
    for step in ("sign-up: Bram de Vries, waiting for confirmation", "confirmed: Bram de Vries, on the waiting list (1)",
                 "withdrawn: Aiko Sato (was registered)",
                 "moved up from the waiting list: Bram de Vries, registered as number 2"):
        expect(director.locator("body")).to_contain_text(step)
    # Nothing public shows the e-mail.
    player.goto(base + reverse("event-public", args=["spring"]))
    expect(player.locator("body")).not_to_contain_text("@example.org")
    assert SignUp.objects.get(first_name="Bram").registration.number == 2
