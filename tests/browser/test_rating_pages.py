"""The rating pages in a real browser (issue 38), at 360 and 1280 px, in
English and in Japanese: the list of ratings, a rating's table (every player
of the demo league with rank, rating, games and last played; two people of
one name told apart), its CSV link, and a player's history with the chart
and the how-line of every step, as the server computes them.

No page scrolls sideways on a phone, no table is clipped, axe-core finds no
serious or critical violation. Screenshots land in ``artifacts/``
(``rating-table-<en|ja>-<width>.png``, ``rating-history-<en|ja>-<width>.png``)
for a person to look at.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import Page, expect

from league.models import Player, Rating, Seat, Series
from league.standings.ratings import rating_steps
from tests.browser.axe import assert_accessible_at
from tests.browser.conftest import screenshot
from tests.browser.test_public_pages import no_sideways_scroll, nothing_clipped

pytestmark = pytest.mark.django_db(transaction=True)


def club_rating() -> tuple[Rating, Player, Player]:
    """A Tenhou R over the demo league, and two of its players renamed to one name (two people)."""
    league = Series.objects.get(slug="demo-league")
    rating = Rating.objects.create(name="Club R", slug="club-r", engine=Rating.Engine.TENHOU)
    rating.series.set([league])
    first, second = (Player.objects.get(pk=pk) for pk in
                     Seat.objects.filter(game__series=league).values_list("player", flat=True).distinct()
                     .order_by("player")[:2])
    for p, club in ((first, "Tokyo"), (second, "Osaka")):
        p.name, p.club = "Aiko Sato", club
        p.save()
    return rating, first, second


def how_lines(rating: Rating, player: Player, language: str) -> list[str]:
    """The how-lines the history page should show, newest first, in ``language``."""
    with translation.override(language):
        return [translation.gettext(s.template).format(**dict(s.numbers))
                for s in reversed(rating_steps(rating, player.pk))]


def test_rating_table_and_history_in_both_languages(live_server, page: Page, demo_league: None) -> None:
    rating, tokyo, osaka = club_rating()
    league = Series.objects.get(slug="demo-league")
    players = Seat.objects.filter(game__series=league).values("player").distinct().count()

    page.goto(live_server.url + reverse("ratings"))
    page.get_by_role("link", name="Club R").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Club R")
    rows = page.locator("table.rating-table tbody tr")
    expect(rows).to_have_count(players)
    ranks = rows.locator("td:nth-child(1)").all_inner_texts()
    assert ranks[0] in ("1", "=1")
    values = [float(v) for v in rows.locator("td:nth-child(3)").all_inner_texts()]
    assert values == sorted(values, reverse=True)
    # Two people of one name: each row says which, and links to its own history.
    expect(page.get_by_role("link", name=f"Aiko Sato (Tokyo, #{tokyo.pk})")).to_have_count(1)
    expect(page.get_by_role("link", name=f"Aiko Sato (Osaka, #{osaka.pk})")).to_have_count(1)
    # On a phone each row is a card: the last-played date on one line, as tall as the rating beside it.
    heights = page.evaluate("""() => [...document.querySelectorAll('table.rating-table tbody tr')].map(tr =>
        [tr.querySelector('td:nth-child(3)').getBoundingClientRect().height,
         tr.querySelector('td.rating-last').getBoundingClientRect().height])""")
    assert all(last == value for value, last in heights), heights[:3]
    no_sideways_scroll(page)
    nothing_clipped(page)
    assert_accessible_at(page, where="rating table")
    screenshot(page, "rating-table-en")

    # The CSV link: a UTF-8 file with a BOM, one row per player, the same order.
    href = page.get_by_role("link", name="Download CSV").get_attribute("href")
    answer = page.request.get(live_server.url + href)
    assert answer.ok and answer.headers["content-type"].startswith("text/csv")
    body = answer.body().decode("utf-8")
    assert body.startswith("\ufeff")
    table = list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))
    assert len(table) == 1 + players
    ids = {row[6]: row[1] for row in table[1:]}  # the player id column keys the two namesakes
    assert ids[str(tokyo.pk)] == f"Aiko Sato (Tokyo, #{tokyo.pk})" and ids[str(osaka.pk)].startswith("Aiko Sato (Osaka")

    page.get_by_role("link", name=f"Aiko Sato (Osaka, #{osaka.pk})").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Aiko Sato (Osaka, #{osaka.pk})")
    expect(page.locator("figure.chart svg")).to_have_count(1)
    assert page.locator("td.rating-step-how").all_inner_texts() == how_lines(rating, osaka, "en")
    no_sideways_scroll(page)
    nothing_clipped(page)
    assert_accessible_at(page, where="rating history")
    screenshot(page, "rating-history-en")

    # Japanese: the switch in the header, then the same two pages.
    page.get_by_role("button", name="日本語").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ja"
    expect(page.locator("figure.chart svg")).to_have_count(1)
    assert page.locator("td.rating-step-how").all_inner_texts() == how_lines(rating, osaka, "ja")
    no_sideways_scroll(page)
    nothing_clipped(page)
    screenshot(page, "rating-history-ja")

    page.goto(live_server.url + reverse("rating", args=[rating.slug]))
    assert page.locator("html").get_attribute("lang") == "ja"
    expect(page.locator("table.rating-table tbody tr")).to_have_count(players)
    expect(page.get_by_role("link", name="CSVをダウンロード")).to_have_count(1)
    no_sideways_scroll(page)
    nothing_clipped(page)
    assert_accessible_at(page, where="rating table (ja)")
    screenshot(page, "rating-table-ja")
