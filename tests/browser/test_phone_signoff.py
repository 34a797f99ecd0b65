"""Sign-off's dispute path walked on a 360 x 740 touch phone, in English and
Japanese (issue 30): three seats have confirmed; North disputes on his own
phone from his player card's link, the referee opens the game on the
scorer's phone, reads the note and rules "the result stands", and the game
counts. At each step the page is no wider than the screen and the button the
step needs is a 44 x 44 target wholly on screen; in Japanese no step shows
its English words. Shots: ``artifacts/phone-signoff-<lang>-<step>.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import Browser, Locator, Page, expect

from league import services
from league.models import Game, Registration, SignOff
from tests.browser.conftest import ARTIFACTS
from tests.browser.phone import PHONE, open_game, phone_page
from tests.factories import make_game, make_player, make_series

pytestmark = pytest.mark.django_db(transaction=True)

PINS = {"Alice": "1357", "Bob": "2468", "Carol": "1111", "Dave": "9090"}
NOTE = "North's riichi stick was never paid"


@pytest.fixture(params=["en", "ja"])
def lang(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def scorer_phone(browser: Browser, lang: str) -> Iterator[Page]:
    yield from phone_page(browser, locale=lang)


@pytest.fixture
def own_phone(browser: Browser, lang: str) -> Iterator[Page]:
    yield from phone_page(browser, locale=lang)


@pytest.fixture
def game() -> Game:
    series = make_series("ari-ari", slug="club-night", name="Club night", requires_signoff=True)
    series.scorers.add(User.objects.create_user("referee", password="table-side-42"))
    players = [make_player(n) for n in PINS]
    services.set_pins(pins={p: PINS[p.name] for p in players})
    game = make_game(series, players=players, table="3")
    services.record_final_scores(game=game, scores=[41000, 29000, 20000, 10000])
    for number, player in enumerate(players, start=1):
        Registration.objects.create(series=series, player=player, number=number, first_name=player.name,
                                    last_name="Player")
    digest = services.result_digest(game)
    for seat, name in enumerate(("Alice", "Bob", "Carol")):
        services.sign_off(game=game, seat=seat, result=digest, pin=PINS[name])
    return game


def words(lang: str, *messages: str) -> list[str]:
    with translation.override(lang):
        return [translation.gettext(m) for m in messages]


def step(page: Page, lang: str, name: str, button: Locator, english: list[str]) -> None:
    """The page fits the phone, ``button`` is a whole 44 x 44 target on the screen, and in
    Japanese none of ``english`` is shown; then the shot."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, (name, box)
    assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"], (name, box)
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], (name, box)
    if lang == "ja":
        shown = " ".join(page.locator("main").inner_text().split())
        assert [e for e in english if e in shown] == [], (name, shown)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phone-signoff-{lang}-{name}.png"), full_page=True)


def test_a_dispute_and_the_referees_ruling_on_a_phone(scorer_phone: Page, own_phone: Page, live_server: Any,
                                                       game: Game, lang: str) -> None:
    base = live_server.url
    dispute_open, dispute, disputed, sign_off, stands = words(
        lang, "Something is wrong: dispute…", "Dispute the result", "You disputed this result; the referee has your note.",
        "Sign-off", "Referee: the result stands")
    english = ["Something is wrong", "Dispute the result", "You disputed this result", "Referee: the result stands",
               "disputes this result", "Sign-off"]

    # North disputes on his own phone, from his player card.
    phone = own_phone
    code = Registration.objects.get(player__name="Dave").code
    phone.goto(base + reverse("event-short", args=[code]))
    summary = phone.locator("summary", has_text=dispute_open)
    step(phone, lang, "1-own-phone", summary, english)
    summary.tap()
    phone.locator("#note").tap()
    phone.locator("#note").press_sequentially(NOTE)
    button = phone.get_by_role("button", name=dispute)
    step(phone, lang, "2-note", button, english)
    button.tap()
    expect(phone.locator("[role=status]")).to_have_text(disputed)
    step(phone, lang, "3-disputed", phone.locator("[role=status]"), english)

    # The referee, on the scorer's phone: the game page flags the dispute, one tap to rule.
    page = scorer_phone
    open_game(page, base, game)
    expect(page.locator(".flag")).to_contain_text(NOTE)
    link = page.locator("#signoff a", has_text=sign_off)
    step(page, lang, "4-game-flag", link, english)
    link.tap()
    expect(page.locator(".dispute-note")).to_have_text(NOTE)
    ruling = page.get_by_role("button", name=stands)
    step(page, lang, "5-referee", ruling, english)
    ruling.tap()
    expect(page.locator(".signed").first).to_be_visible()
    step(page, lang, "6-stands", page.locator(".signed").first, english)

    game.refresh_from_db()
    assert game.signed_off_at is not None and game.counts()
    assert SignOff.objects.get(game=game, seat=3).resolution == "accepted"
