"""Nothing the scorer enters is dropped, doubled or silently re-priced, on a
touch phone (360 x 740): the first tap after typing saves, Save never moves
while a preview loads, and the Back button, two scorers at once, a double
tap, a stale correction and a moment offline neither lose nor double a hand.

Seats: East Alice (0), South Bob (1), West Carol (2), North Dave (3); ari-ari.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from league.models import Game, SaveKey
from tests.browser.conftest import ARTIFACTS, screenshot
from tests.browser.phone import PHONE, club_night, open_game, phone_page, tap
from tests.factories import draw, play, ron, tsumo

pytestmark = pytest.mark.django_db(transaction=True)

E, S, W, N = "East Alice", "South Bob", "West Carol", "North Dave"


@pytest.fixture
def game() -> Game:
    return club_night("referee", "second")  # two scorers: a second phone


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)


@pytest.fixture
def other_phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)




def tsumo_2_30(page: Page, seat: int = 1) -> None:
    tap(page, "outcome", "tsumo")
    tap(page, "winner", seat)
    tap(page, "han_" + str(seat), 2)
    tap(page, "fu_" + str(seat), 30)


def test_first_tap_on_save_after_typing_saves_and_save_never_moves(phone: Page, live_server: Any,
                                                                   game: Game) -> None:
    page = phone
    open_game(page, live_server.url, game)
    save = page.locator("#save-button")
    where = save.bounding_box()
    tsumo_2_30(page)
    assert save.bounding_box() == where  # a preview on its way moves nothing
    expect(page.locator("#preview")).to_contain_text(f"{E} pays {S} 1,000")
    assert save.bounding_box() == where  # nor one that arrived
    # Finding 2: type in a text field, then one tap on Save, with no pause: it saves.
    page.locator("details.more", has_text="Add a note").locator("summary").tap()
    page.locator("#id_note").tap()
    page.locator("#id_note").press_sequentially("typed then saved")
    save.tap()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    hand = game.hands.get()
    assert (hand.number, hand.note, hand.wins.get().han) == (1, "typed then saved", 2)


def test_dora_typed_for_any_winner_reaches_the_engine(phone: Page, live_server: Any, game: Game) -> None:
    # Finding 1 in the browser: the South dealer ron at East 2 with 3 honba.
    play(game, [ron(0, 1, 1, 30), draw(1), draw(1), draw(1)])
    page = phone
    open_game(page, live_server.url, game)
    expect(page.locator(".state .where")).to_have_text("East 2, 3 honba, no sticks on the table")
    tap(page, "outcome", "ron")
    tap(page, "winners", 1)
    tap(page, "loser", 0)
    tap(page, "riichi", 1)
    seat = page.locator(".seat-value[data-seat='1']")
    seat.locator("details.seat-more > summary").tap()  # the seat's rarer values
    seat.locator("details.more", has_text="Enter the tiles").locator("summary").tap()
    page.locator("#id_tiles_1").fill("234m567m678p789s11s")
    page.locator("#id_win_tile_1").fill("1s")
    page.locator("details.indicators summary").tap()
    page.locator("#id_dora_indicators").fill("1m")
    page.locator("#id_ura_indicators").fill("1m")
    expect(page.locator("#preview")).to_contain_text(f"{S}: 3 han 40 fu")
    expect(page.locator("#preview")).to_contain_text(f"{E} pays {S} 7,700 + 900")
    screenshot(page, "phone-hand-tiles-dora")
    page.locator("#save-button").tap()
    expect(page.locator(".messages")).to_contain_text("Hand 5 saved.")
    assert (game.hands.get(number=5).wins.get().han, game.hands.get(number=5).wins.get().fu) == (3, 40)


def test_back_button_neither_doubles_nor_loses_a_hand(phone: Page, live_server: Any, game: Game) -> None:
    page = phone
    open_game(page, live_server.url, game)
    tsumo_2_30(page)
    expect(page.locator("#preview")).to_contain_text(f"{E} pays {S} 1,000")
    page.locator("#save-button").tap()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    page.go_back()
    title = page.locator("h2.entry-title")
    if page.locator("input[name=outcome]:checked").count():
        # The old page came back with hand 1's choices (and its key): Save finds hand 1 saved.
        expect(title).to_have_text("Hand 1")
        page.locator("#save-button").tap()
        expect(page.locator("body")).to_contain_text("already saved from this very entry")
    else:
        # A fresh page: the next hand, with nothing refilled.
        expect(title).to_have_text("Hand 2")
    assert game.hands.count() == 1
    screenshot(page, "phone-after-back")
    # The next hand still goes in as usual.
    page.goto(live_server.url + reverse("staff-game", args=[game.pk]))
    tsumo_2_30(page, seat=1)
    page.locator("#save-button").tap()
    expect(page.locator(".messages")).to_contain_text("Hand 2 saved.")
    assert game.hands.count() == 2


def test_two_scorers_at_once_the_second_sees_the_conflict_and_chooses(phone: Page, other_phone: Page,
                                                                      live_server: Any, game: Game) -> None:
    first, second = phone, other_phone
    open_game(first, live_server.url, game)
    open_game(second, live_server.url, game, user="second")
    tsumo_2_30(first)
    tap(second, "outcome", "ron")
    tap(second, "winners", 2)
    tap(second, "loser", 0)
    tap(second, "han_2", 3)
    tap(second, "fu_2", 40)
    expect(second.locator("#preview")).to_contain_text(f"{E} pays {W} 5,200")
    first.locator("#save-button").tap()
    expect(first.locator(".messages")).to_contain_text("Hand 1 saved.")
    second.locator("#save-button").tap()
    expect(second.locator("h1")).to_have_text("Your entry was not saved")
    expect(second.locator(".mine")).to_contain_text(f"Ron: {W} from {E}, 3 han 40 fu")
    expect(second.locator(".now")).to_contain_text("Hand 1 was saved by referee")
    expect(second.locator(".notice .same")).to_have_count(0)  # another hand than the one saved
    screenshot(second, "staff-conflict")
    assert game.hands.count() == 1
    # It was the next hand after all: taken on deliberately, checked against the game now, then saved.
    second.get_by_role("button", name="Check mine as hand 2").tap()
    expect(second.locator("h2.entry-title")).to_have_text("Hand 2")
    expect(second.locator("#preview")).to_contain_text("Hand 2 pays")
    second.locator("#save-button").tap()
    expect(second.locator(".messages")).to_contain_text("Hand 2 saved.")
    assert [h.outcome for h in game.hands.order_by("number")] == ["tsumo", "ron"]


def test_a_double_tap_saves_once(phone: Page, live_server: Any, game: Game) -> None:
    page = phone
    open_game(page, live_server.url, game)
    tsumo_2_30(page)
    expect(page.locator("#preview")).to_contain_text(f"{E} pays {S} 1,000")
    # Two taps in the same instant: the page sends once...
    page.evaluate("() => { const b = document.getElementById('save-button'); b.click(); b.click(); }")
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    assert game.hands.count() == 1
    # ...and the server, sent the same entry again right after (a retry after a lost answer),
    # saves it once. (Two sends in the same instant are the PostgreSQL race test's: the
    # test server's in-memory SQLite cannot take two writers at once.)
    page.goto(live_server.url + reverse("staff-game", args=[game.pk]))
    tsumo_2_30(page, seat=1)
    expect(page.locator("#preview")).to_contain_text("Hand 2 pays")
    statuses = page.evaluate("""async () => {
        const form = document.querySelector('form.hand-form');
        const body = () => { const b = new FormData(form); b.set('action', 'save'); return b; };
        const send = () => fetch(form.getAttribute('action'), {method: 'POST', body: body(),
                                 headers: {'X-Tenbou-Entry': '1'}}).then(r => r.status);
        return [await send(), await send()];
    }""")
    assert statuses == [200, 200]
    assert game.hands.count() == 2 and SaveKey.objects.filter(game=game).count() == 2


def test_a_stale_correction_gets_the_conflict_page_not_a_404(phone: Page, other_phone: Page,
                                                             live_server: Any, game: Game) -> None:
    play(game, [ron(0, 1, 3, 40), tsumo(2, 2, 30)])
    base = live_server.url
    open_game(phone, base, game)
    phone.goto(base + reverse("staff-edit-hand", args=[game.pk, 2]))
    expect(phone.locator("h2").first).to_have_text("Correct hand 2")
    open_game(other_phone, base, game, user="second")
    other_phone.goto(base + reverse("staff-undo", args=[game.pk]))
    other_phone.get_by_role("button", name="Undo hand 2").tap()
    expect(other_phone.locator(".messages")).to_contain_text("Hand 2 undone.")
    tap(phone, "fu_2", 40)
    expect(phone.locator("#preview")).to_contain_text("made before the game last changed")
    phone.locator("#save-button").tap()
    expect(phone.locator("h1")).to_have_text("Your entry was not saved")
    expect(phone.locator(".now")).to_contain_text("Hand 2 is no longer in this game")
    screenshot(phone, "staff-conflict-correction")
    assert game.hands.count() == 1


@pytest.fixture
def phone_keeping_nothing(browser: Browser) -> Iterator[Page]:
    """A phone without the offline engine (no service worker to keep its files, and
    no engine.json: online the page would otherwise load the engine to price taps)."""
    for page in phone_page(browser, service_workers="block"):
        page.route("**/staff/offline/engine.json", lambda route: route.abort())
        yield page


def test_offline_save_keeps_the_entry_and_sends_it_once_when_back(phone_keeping_nothing: Page, live_server: Any,
                                                                  game: Game) -> None:
    # Without the engine the hand stays on screen and goes when the network is back;
    # with it, the hand is queued on the phone instead (test_offline_queue.py).
    page = phone_keeping_nothing
    open_game(page, live_server.url, game)
    tsumo_2_30(page)
    expect(page.locator("#preview")).to_contain_text(f"{E} pays {S} 1,000")
    page.context.set_offline(True)
    save = page.locator("#save-button")
    save.tap()
    expect(page.locator("#save-status")).to_contain_text("Not sent")
    save.tap()  # impatient: tapped again while still offline
    expect(page.locator("input[name=han_1][value='2']")).to_be_checked()  # the entry is still on screen
    page.screenshot(path=str(ARTIFACTS / "phone-offline-not-sent-screen-360.png"))
    assert game.hands.count() == 0
    page.context.set_offline(False)
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    assert game.hands.count() == 1 and SaveKey.objects.filter(game=game).count() == 1
    assert page.viewport_size == PHONE



def test_the_same_hand_saved_from_a_second_phone_is_said_to_be_in_the_game(phone: Page, other_phone: Page,
                                                                           live_server: Any, game: Game) -> None:
    # Both phones were open on hand 1; the hand is saved from the first, then entered again
    # on the second (its scorer did not know, or forgot): its key is another, so only the
    # content says it is the hand already saved.
    first, second = phone, other_phone
    open_game(first, live_server.url, game)
    open_game(second, live_server.url, game, user="second")
    tsumo_2_30(first)
    first.locator("#save-button").tap()
    expect(first.locator(".messages")).to_contain_text("Hand 1 saved.")
    tsumo_2_30(second)
    expect(second.locator("#preview")).to_contain_text("made before the game last changed")
    second.locator("#save-button").tap()
    expect(second.locator("h1")).to_have_text("Your entry was not saved")
    expect(second.locator(".notice .same")).to_have_text(
        "Hand 1 as saved is exactly your entry: if it is the hand you saved before (from this page or another), "
        "it is already in the game and nothing more is needed. Check yours as hand 2 only if the table played "
        "the same hand again.")
    screenshot(second, "staff-conflict-same-entry")
    assert game.hands.count() == 1


def test_a_save_with_a_field_removed_in_the_devtools_is_refused_naming_it(phone: Page, live_server: Any,
                                                                         game: Game) -> None:
    page = phone
    open_game(page, live_server.url, game)
    tsumo_2_30(page)
    expect(page.locator("#preview")).to_contain_text(f"{E} pays {S} 1,000")
    page.evaluate("() => document.querySelector('form.hand-form input[name=state]').remove()")  # the devtools
    page.locator("#save-button").tap()
    # Above the form, where the live preview the page's script asks for on load does not write.
    expect(page.locator(".notice")).to_have_text(
        "Nothing was saved. Game state: This field is required. Load the game again to enter the hand.")
    expect(page.locator("h1")).not_to_have_text("Your entry was not saved")  # the game did not change
    expect(page.locator("input[name=han_1][value='2']")).to_be_checked()  # the entry is kept on screen
    screenshot(page, "phone-save-tampered")
    assert not game.hands.exists()
