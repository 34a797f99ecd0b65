"""A phone keeps a game being played open: every 30 seconds the page asks for
its live part with the ETag it holds, gets 304 while nothing changes, and the
new hand as soon as one is saved. The page's clock is Playwright's, so the
test does not wait the 30 seconds. The game is the demo league's game still
at the table (a copy of the command's rows, tests/demo.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from league import services
from league.models import Game, Series
from tests.factories import draw

pytestmark = pytest.mark.django_db(transaction=True)

POLL_MS = 30_000


def poll(page: Page) -> int:
    """Let the page's 30 seconds pass; the status of the refresh it sent."""
    with page.expect_response(lambda r: "partial=1" in r.url) as refresh:
        page.clock.run_for(POLL_MS + 1000)
    return refresh.value.status


def test_live_refresh_sends_a_304_until_a_hand_is_saved(live_server, page: Page, demo_league: None) -> None:
    series = Series.objects.get(slug="demo-league")
    game = Game.objects.filter(series=series, status=Game.Status.IN_PROGRESS).first()
    assert game is not None
    page.clock.install()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    hands = page.locator("#live table.hand-log tbody tr")
    shown = hands.count()
    assert shown > 0

    assert poll(page) == 304
    assert hands.count() == shown

    # Everyone tenpai: the dealer keeps the deal and the game goes on.
    services.record_hand(game=game, number=game.hands.count() + 1, hand=draw(0, 1, 2, 3))
    assert poll(page) == 200
    expect(hands).to_have_count(shown + 1)  # the script swaps the part in after the response

    assert poll(page) == 304  # with the ETag of what it now holds
    assert hands.count() == shown + 1


def test_live_refresh_keeps_what_the_reader_set_in_the_standings(live_server, page: Page, demo_league: None) -> None:
    """A search being typed and "Show every column" survive the swap of the series page's live part.
    The swap follows a game's end: a hand in a game being played leaves the series page as it was
    (its lineup stamp, league/stamps.py), and the refresh gets 304."""
    series = Series.objects.get(slug="demo-league")
    game = Game.objects.filter(series=series, status=Game.Status.IN_PROGRESS).first()
    assert game is not None
    page.clock.install()
    page.goto(f"{live_server.url}{series.get_absolute_url()}")
    page.get_by_label("Show every column").check()
    search = page.get_by_role("searchbox", name="Find a player")
    search.fill("Mei")
    services.record_hand(game=game, number=game.hands.count() + 1, hand=draw(0, 1, 2, 3))
    assert poll(page) == 304
    services.finish_game(game=game)
    assert poll(page) == 200
    assert page.get_by_label("Show every column").is_checked()
    assert search.input_value() == "Mei"
    assert page.evaluate("document.activeElement.id") == "standings-q"
