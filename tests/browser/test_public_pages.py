"""A visitor with a phone (360 x 800) on the demo league: the standings with
the points of every row in view, a search, sorting the way a player reads,
the game cards, a game, a player in a series and across series; no page
scrolls sideways, no table of a game or player page is clipped, and axe-core
finds no serious or critical violation at 360 and 1280 px.

Screenshots of every page at 360 and 1280 px land in ``artifacts/``. The
demo league is a copy of the command's rows, built once per test process
(tests/demo.py), not played again for each test.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from league.models import Game, Hand, Seat, Series
from tests.browser.axe import assert_accessible_at
from tests.browser.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = 360


def points_column(page: Page) -> list[float]:
    cells = page.locator("table.standings tbody tr td:nth-child(5)").all_inner_texts()
    return [float(c) for c in cells]


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= (page.viewport_size or {}).get("width", PHONE), f"{page.url} is {width}px wide"


def nothing_clipped(page: Page) -> None:
    """No table box shown on the page hides part of its table sideways (the
    totals-after-each-round table, folded away under the chart, may scroll)."""
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.table-wrap')]
             .filter(w => w.checkVisibility() && w.scrollWidth > w.clientWidth + 1)
             .map(w => (w.querySelector('table') || w).className + ' ' + w.scrollWidth + '>' + w.clientWidth)"""
    )
    assert clipped == [], f"{page.url}: {clipped}"


def points_in_view(page: Page) -> int:
    """Every visible standings row's points cell lies within the viewport
    sideways (measured with element boxes); returns the rows checked."""
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('table.standings tbody tr')]
             .filter(tr => tr.offsetParent !== null)
             .map(tr => { const c = tr.querySelector('td:nth-child(5)').getBoundingClientRect();
                          return [c.left, c.right, c.width]; })"""
    )
    assert boxes, "no standings rows"
    for left, right, width in boxes:
        assert width > 0 and left >= 0 and right <= PHONE, (left, right)
    return len(boxes)


def test_visitor_reads_series_game_and_player(live_server, page: Page, demo_league: None) -> None:
    series = Series.objects.get(slug="demo-league")
    page.goto(live_server.url + "/")
    no_sideways_scroll(page)
    assert_accessible_at(page, where="series list")
    screenshot(page, "public-series-list")
    page.get_by_role("link", name=series.name).click()

    expect(page.get_by_role("heading", level=1)).to_have_text(series.name)
    expect(page.locator("table.standings")).to_be_visible()
    totals = points_column(page)
    assert totals == sorted(totals, reverse=True)  # ranked by total points
    # All 32 players on one page (the series' page size), the points of each in view.
    assert points_in_view(page) == Seat.objects.filter(game__series=series).values("player").distinct().count()
    expect(page.locator("table.standings thead th", has_text="Games")).to_be_hidden()  # on demand on a phone
    assert page.locator("figure.chart svg").count() == 1
    no_sideways_scroll(page)
    assert_accessible_at(page, where="standings")
    screenshot(page, "public-series")

    # Every column on demand: the table scrolls in its box, the page does not.
    page.get_by_label("Show every column").check()
    expect(page.locator("table.standings thead th", has_text="Games")).to_be_visible()
    no_sideways_scroll(page)
    screenshot(page, "public-series-all-columns")
    page.get_by_label("Show every column").uncheck()

    # A first click on Points sorts the best first.
    page.locator("table.standings thead").get_by_role("link", name="Points").click()
    page.wait_for_url("**s-sort=-total**")
    assert points_column(page) == sorted(points_column(page), reverse=True)
    page.locator("table.standings thead").get_by_role("link", name="Points").click()
    page.wait_for_url("**s-sort=total**")
    assert points_column(page) == sorted(points_column(page))

    # The search finds a player.
    page.goto(live_server.url + series.get_absolute_url())
    page.get_by_role("searchbox", name="Find a player").fill("mei")
    page.get_by_role("button", name="Find").click()
    page.wait_for_url("**q=mei**")
    names = page.locator("table.standings tbody td.name").all_inner_texts()
    assert names and all("mei" in n.casefold() for n in names), names
    points_in_view(page)
    no_sideways_scroll(page)
    screenshot(page, "public-series-search")

    # The rates, with their legend.
    page.goto(live_server.url + series.get_absolute_url())
    page.get_by_role("link", name="Show the rates").click()
    page.wait_for_url("**stats=1**")
    expect(page.locator("table.standings thead th", has_text="Win %")).to_be_visible()
    expect(page.locator("dl.legend")).to_contain_text("finished games not ended 4th")
    points_in_view(page)
    no_sideways_scroll(page)
    assert_accessible_at(page, where="standings with rates")
    screenshot(page, "public-series-rates")

    # The game cards of the round with a game still at the table: the page polls while it lasts.
    live = Game.objects.get(series=series, status=Game.Status.IN_PROGRESS)
    page.goto(f"{live_server.url}{series.get_absolute_url()}?games=1#games-h")
    assert page.locator("#live").get_attribute("data-live") == "1"
    nothing_clipped(page)
    page.locator("ul.games").get_by_role("link").first.click()
    expect(page.get_by_role("heading", name="Hand by hand")).to_be_visible()
    expect(page.locator("table.hand-log tbody tr").nth(1)).to_contain_text("E1")
    expect(page.get_by_role("heading", name="Settlement")).to_be_visible()
    no_sideways_scroll(page)
    nothing_clipped(page)
    assert_accessible_at(page, where="game")
    screenshot(page, "public-game")
    game_url = page.url

    chombo_game = Hand.objects.filter(game__series=series, outcome=Hand.Outcome.CHOMBO).first().game
    page.goto(f"{live_server.url}/games/{chombo_game.pk}/")
    labels = page.locator("#chart-h ~ figure svg text[fill='#555']").all_text_contents()
    hand_labels = [t for t in labels if not t.endswith("k")]
    assert len(hand_labels) == len(set(hand_labels)), hand_labels
    last = page.locator("#chart-h ~ figure svg text[fill='#555']").last.bounding_box()
    svg = page.locator("#chart-h ~ figure svg").bounding_box()
    assert last and svg and last["x"] + last["width"] <= svg["x"] + svg["width"] + 0.5  # drawn whole
    no_sideways_scroll(page)
    nothing_clipped(page)
    screenshot(page, "public-game-chombo")

    page.goto(f"{live_server.url}/games/{live.pk}/")
    expect(page.get_by_text("Next hand:")).to_be_visible()
    assert page.locator("#live").get_attribute("data-live") == "1"
    no_sideways_scroll(page)
    assert_accessible_at(page, where="game in progress")
    screenshot(page, "public-game-live")

    page.goto(f"{live_server.url}/games/{Game.objects.filter(series=series, final_scores__isnull=False).first().pk}/")
    expect(page.get_by_text("kept by its end scores only")).to_be_visible()
    no_sideways_scroll(page)
    assert_accessible_at(page, where="game kept by end scores")

    page.goto(game_url)
    page.locator("table.settlement tbody th a").first.click()
    expect(page.get_by_role("heading", name="Statistics from the hands")).to_be_visible()
    expect(page.locator("table.stats")).to_contain_text("Win rate")
    expect(page.locator("table.stats")).to_contain_text("Top-two rate")
    assert page.locator("figure.chart svg").count() == 2
    no_sideways_scroll(page)
    nothing_clipped(page)
    assert_accessible_at(page, where="player in a series")
    screenshot(page, "public-player")

    page.get_by_role("link", name="All series of").click()
    expect(page.get_by_role("heading", name="Every series together")).to_be_visible()
    expect(page.locator("table.player-series")).to_contain_text(series.name)
    no_sideways_scroll(page)
    nothing_clipped(page)
    assert_accessible_at(page, where="player across series")
    screenshot(page, "public-player-series")
    page.locator("table.player-series").get_by_role("link", name=series.name).click()
    expect(page.get_by_role("heading", name="Statistics from the hands")).to_be_visible()

    # After a round: the three CSV links carry it.
    page.goto(f"{live_server.url}{series.get_absolute_url()}?round=3")
    for name in ("standings", "games", "hands"):
        href = page.get_by_role("link", name=name, exact=True).get_attribute("href")
        assert href == reverse(f"series-{name}-csv", args=[series.slug]) + "?round=3"
    no_sideways_scroll(page)
    assert_accessible_at(page, where="standings after a round")


def test_event_public_pages_on_a_phone_and_a_desktop(live_server, page: Page, demo_league: None) -> None:
    """The demo tournament's public pages: no page wider than the phone, axe
    clean at 360 and 1280 px."""
    event = Series.objects.get(slug="demo-tournament")
    player = Seat.objects.filter(game__series=event).first().player
    paths = {
        "event series": event.get_absolute_url(),
        "event page": reverse("event-public", args=[event.slug]),
        "event player": reverse("event-player", args=[event.slug, 1]),
        "event player in the series": reverse("player-detail", args=[event.slug, player.pk]),
        "event player across series": reverse("player-series", args=[player.pk]),
        **{f"screen {kind}": reverse("event-screen", args=[event.slug, kind]) for kind in ("seating", "standings")},
    }
    for name, path in paths.items():
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, (name, path)
        no_sideways_scroll(page)
        assert_accessible_at(page, where=name)
    screenshot(page, "public-event-standings-screen")
