"""A scorer enters a whole ari-ari hanchan on a phone-sized Chromium, and
people who may not score cannot reach the entry pages.

Seats: East Alice (0), South Bob (1), West Carol (2), North Dave (3); 25,000
each. Ari-ari: a ron pays 300 per honba, each tsumo payer 100; noten payments
3,000 split; a double ron gives honba and sticks to the winner nearest the
discarder; chombo is a reverse mangan; uma 30/10/-10/-30, oka +20 to first.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from league.models import Game, Hand
from tests.browser.conftest import screenshot
from tests.factories import make_player, make_series

pytestmark = pytest.mark.django_db(transaction=True)

OUTCOMES = ("ron", "tsumo", "draw", "abort", "chombo")
E, S, W, N = "East Alice", "South Bob", "West Carol", "North Dave"


@pytest.fixture
def league_setup() -> dict[str, Any]:
    series = make_series("ari-ari", slug="club-night", name="Club night")
    scorer = User.objects.create_user("referee", password="table-side-42")
    series.scorers.add(scorer)
    for name in ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank"):
        make_player(name)
    User.objects.create_user("visitor", password="just-looking-42")
    return {"series": series}


def log_in(page: Page, base: str, username: str, password: str) -> None:
    page.goto(base + reverse("login"))
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")


def enter_hand(page: Page, number: int, outcome: str, *, checks: tuple[str, ...] = (),
               selects: dict[str, str] | None = None, says: tuple[str, ...] = (), shot: str | None = None) -> None:
    """Fill the hand form, wait for the server's words, then save."""
    expect(page.locator("h2").first).to_have_text(f"Hand {number}")
    page.check(f"#id_outcome_{OUTCOMES.index(outcome)}")
    for box in checks:
        page.check(box)
    for name, value in (selects or {}).items():
        page.check(f'input[name="{name.removeprefix("#id_")}"][value="{value}"]')  # han and fu are tap targets
    preview = page.locator("#preview")
    for line in says:
        expect(preview).to_contain_text(line)
    save = page.locator("#save-button")
    expect(save).to_be_visible()
    if shot:
        screenshot(page, shot)
    save.click()
    expect(page.locator(".messages")).to_contain_text(f"Hand {number} saved.")


def scores(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".scores .pts").all_inner_texts()]


def test_scorer_enters_a_full_hanchan(page: Page, live_server: Any, league_setup: dict[str, Any]) -> None:
    base = live_server.url
    page.goto(base + reverse("staff-home"))
    expect(page).to_have_url(base + reverse("login") + "?next=/staff/")
    screenshot(page, "staff-login")
    log_in(page, base, "referee", "table-side-42")
    expect(page.locator("h1")).to_have_text("Enter results")
    screenshot(page, "staff-home")
    page.click("text=Club night")
    screenshot(page, "staff-series")
    page.click("text=Start a game")

    # The same player twice is refused, with the rest kept.
    page.fill("#id_table", "3")
    for seat, name in zip(("east", "south", "west", "north"), ("Alice", "Bob", "Carol", "Alice"), strict=True):
        page.select_option(f"#id_{seat}", label=name)
    page.click("text=Start the game")
    expect(page.locator(".has-error")).to_contain_text("Alice already sits East")
    expect(page.locator("#id_table")).to_have_value("3")
    screenshot(page, "staff-start-refused")
    page.select_option("#id_north", label="Dave")
    page.click("text=Start the game")
    expect(page.locator(".state .where")).to_have_text("East 1, 0 honba, no sticks on the table")
    expect(page.locator(".state .who")).to_contain_text(f"{E} deals")
    game = Game.objects.get()
    assert game.ruleset().name == "ari-ari"

    # 1. E1-0, Alice deals. Draw: Bob in riichi; Bob and Carol tenpai. Alice and Dave
    #    each pay 750 to Bob and to Carol (3,000 split 2 x 2). Alice noten: the deal passes.
    #    23,500 / 25,500 (-1,000 stick +1,500) / 26,500 / 23,500; 1 stick carried over.
    page.check("#id_outcome_2")
    screenshot(page, "staff-hand-draw-form")
    enter_hand(page, 1, "draw", checks=("#id_tenpai_1", "#id_tenpai_2", "#id_riichi_1"),
               says=(f"{S} puts a riichi stick on the table", f"{E} pays {S} 750 (noten)",
                     f"{N} pays {W} 750 (noten)"), shot="staff-hand-preview")
    expect(page.locator(".state .where")).to_have_text("East 2, 1 honba, 1 stick on the table")
    assert scores(page) == ["23,500", "25,500", "26,500", "23,500"]

    # 2. E2-1, Bob deals and tsumo 2 han 30 fu: 1,000 all + 100 honba each, and the stick.
    #    Bob +3,300 +1,000 = 29,800; the others 22,400 / 25,400 / 22,400. Bob keeps the deal.
    enter_hand(page, 2, "tsumo", checks=("#id_winner_1",), selects={"#id_han_1": "2", "#id_fu_1": "30"},
               says=(f"{E} pays {S} 1,000 + 100", f"{W} pays {S} 1,000 + 100", f"{S} takes 1 riichi stick (1,000)"))
    expect(page.locator(".state .where")).to_have_text("East 2, 2 honba, no sticks on the table")
    assert scores(page) == ["22,400", "29,800", "25,400", "22,400"]

    # 3. E2-2: chombo by Carol, a reverse mangan: 4,000 to the dealer Bob, 2,000 to the others.
    #    24,400 / 33,800 / 17,400 / 24,400; same dealer, same honba.
    enter_hand(page, 3, "chombo", checks=("#id_offender_2",),
               says=(f"{W} pays {S} 4,000 (chombo)", f"{W} pays {E} 2,000 (chombo)"))
    expect(page.locator(".state .where")).to_have_text("East 2, 2 honba, no sticks on the table")
    assert scores(page) == ["24,400", "33,800", "17,400", "24,400"]

    # 4. E2-2: double ron on Carol's discard. Dave (riichi) 3 han 40 fu = 5,200, Alice 2 han 30 fu
    #    = 2,000. Dave sits nearest Carol's right, so he takes the 2 x 300 honba and the stick.
    #    Carol -7,800 = 9,600; Dave -1,000 +5,800 +1,000 = 30,200; Alice 26,400. Bob passes the deal.
    enter_hand(page, 4, "ron", checks=("#id_winners_3", "#id_winners_0", "#id_loser_2", "#id_riichi_3"),
               selects={"#id_han_3": "3", "#id_fu_3": "40", "#id_han_0": "2", "#id_fu_0": "30"},
               says=(f"{W} pays {N} 5,200 + 600", f"{W} pays {E} 2,000", f"{N} takes 1 riichi stick (1,000)"),
               shot="staff-hand-double-ron")
    expect(page.locator(".state .where")).to_have_text("East 3, 0 honba, no sticks on the table")
    assert scores(page) == ["26,400", "33,800", "9,600", "30,200"]

    # 5. E3-0, Carol deals. Draw: Alice in riichi and alone tenpai: 1,000 from each of the three.
    #    28,400 / 32,800 / 8,600 / 29,200; the stick stays on the table, Carol passes the deal.
    enter_hand(page, 5, "draw", checks=("#id_tenpai_0", "#id_riichi_0"),
               says=(f"{S} pays {E} 1,000 (noten)",))
    expect(page.locator(".state .where")).to_have_text("East 4, 1 honba, 1 stick on the table")
    assert scores(page) == ["28,400", "32,800", "8,600", "29,200"]

    # 6. E4-1, Dave deals. Bob rons Alice 4 han 30 fu = 7,700 (no kiriage) + 300 and the carried stick.
    #    Alice 20,400; Bob 41,800.
    enter_hand(page, 6, "ron", checks=("#id_winners_1", "#id_loser_0"), selects={"#id_han_1": "4", "#id_fu_1": "30"},
               says=(f"{E} pays {S} 7,700 + 300", f"{S} takes 1 riichi stick (1,000)"))
    expect(page.locator(".state .where")).to_have_text("South 1, 0 honba, no sticks on the table")
    assert scores(page) == ["20,400", "41,800", "8,600", "29,200"]

    # 7. S1-0, Alice deals. Carol tsumo 3 han 30 fu: 2,000 from the dealer, 1,000 from the others.
    enter_hand(page, 7, "tsumo", checks=("#id_winner_2",), selects={"#id_han_2": "3", "#id_fu_2": "30"},
               says=(f"{E} pays {W} 2,000", f"{S} pays {W} 1,000"))
    assert scores(page) == ["18,400", "40,800", "12,600", "28,200"]

    # 8. S2-0, Bob deals. Alice rons Dave, entered at first as 2 han 30 fu (2,000)...
    enter_hand(page, 8, "ron", checks=("#id_winners_0", "#id_loser_3"), selects={"#id_han_0": "2", "#id_fu_0": "30"},
               says=(f"{N} pays {E} 2,000",))
    # 9. S3-0, Carol deals. Draw, nobody tenpai: no payments, the deal passes, 1 honba.
    enter_hand(page, 9, "draw", checks=("#id_all_noten",), says=("No payments",))
    expect(page.locator(".state .where")).to_have_text("South 4, 1 honba, no sticks on the table")
    assert scores(page) == ["20,400", "40,800", "12,600", "26,200"]

    # ...then corrected: hand 8 was 40 fu, 2,600. The rest is replayed: Alice 21,000, Dave 25,600.
    page.click("a[aria-label='Correct hand 8']")
    expect(page.locator("h2").first).to_have_text("Correct hand 8")
    expect(page.locator('input[name="fu_0"][value="30"]')).to_be_checked()
    page.check('input[name="fu_0"][value="40"]')
    expect(page.locator("#preview")).to_contain_text(f"{N} pays {E} 2,600")
    screenshot(page, "staff-hand-correct")
    page.click("#save-button")
    expect(page.locator(".messages")).to_contain_text("Hand 8 corrected")
    assert scores(page) == ["21,000", "40,800", "12,600", "25,600"]

    # 10. S4-1, Dave deals. Alice tsumo 1 han 30 fu: 500 + 100 from the dealer, 300 + 100 from Bob
    #     and Carol. Alice 22,400; Bob 40,400; Carol 12,200; Dave 25,000. The deal passes in
    #     all-last: the ruleset ends the game.
    enter_hand(page, 10, "tsumo", checks=("#id_winner_0",), selects={"#id_han_0": "1", "#id_fu_0": "30"},
               says=(f"{N} pays {E} 500 + 100", f"{S} pays {E} 300 + 100", "This ends the game"))
    expect(page.locator(".state .where")).to_have_text("The game is over")
    expect(page.locator(".state .who")).to_have_text("It ended because the last hand passed the deal.")
    screenshot(page, "staff-game-finished")

    # Points = (end score - 30,000) / 1,000 + uma (+30/+10/-10/-30) + oka (+20 to first):
    #   Bob   40,400 -> +10.4 + 30 + 20 = +60.4
    #   Dave  25,000 ->  -5.0 + 10      =  +5.0
    #   Alice 22,400 ->  -7.6 - 10      = -17.6
    #   Carol 12,200 -> -17.8 - 30      = -47.8      (sum 0)
    # Cell by cell: on a phone the table is one block per player (table.stacked), not a line of tabs.
    rows = page.locator("table.results tbody tr")
    assert [[c.strip() for c in r.locator("td, th").all_inner_texts()] for r in rows.all()] == [
        ["1", S, "+60.4", "40,400", "+30.0", "+20.0"],
        ["2", N, "+5.0", "25,000", "+10.0", "0.0"],
        ["3", E, "-17.6", "22,400", "-10.0", "0.0"],
        ["4", W, "-47.8", "12,200", "-30.0", "0.0"],
    ]
    game.refresh_from_db()
    assert game.is_finished and game.hands.count() == 10
    seats = game.seats.order_by("seat")
    assert [(s.end_score, s.place, s.points) for s in seats] == [
        (22400, 3, -17600), (40400, 1, 60400), (12200, 4, -47800), (25000, 2, 5000),
    ]

    # The other staff pages, for the screenshots.
    page.goto(base + reverse("staff-undo", args=[game.pk]))
    screenshot(page, "staff-undo")
    page.goto(base + reverse("staff-penalties", args=[game.pk]))
    page.check("#id_seat_2")
    page.fill("#id_points", "0")
    page.fill("#id_reason", "slow play")
    page.click("text=Give the penalty")
    expect(page.locator(".has-error")).to_contain_text("A penalty of 0 changes nothing.")
    expect(page.locator("#id_reason")).to_have_value("slow play")
    page.fill("#id_points", "-5")
    page.click("text=Give the penalty")
    expect(page.locator(".messages")).to_contain_text(f"Penalty given to {W}.")
    screenshot(page, "staff-penalties")
    page.click("text=Cancel…")
    screenshot(page, "staff-cancel-penalty")
    page.click("button.danger")
    expect(page.locator(".messages")).to_contain_text("Penalty cancelled.")

    page.goto(base + reverse("staff-start", args=["club-night"]))
    page.fill("#id_round_number", "2")  # Carol and Dave played round 1 already
    for seat, name in zip(("east", "south", "west", "north"), ("Erin", "Frank", "Carol", "Dave"), strict=True):
        page.select_option(f"#id_{seat}", label=name)
    page.click("text=Start the game")
    screenshot(page, "staff-game-new")
    other = Game.objects.exclude(pk=game.pk).get()
    page.goto(base + reverse("staff-finish", args=[other.pk]))
    screenshot(page, "staff-finish")
    page.goto(base + reverse("staff-final-scores", args=[other.pk]))
    for s, value in enumerate(("41000", "30000", "20000", "8000")):
        page.fill(f"#id_score_{s}", value)
    page.click("text=Record the end scores")
    expect(page.locator(".notice")).to_contain_text("end scores must sum to 100,000")
    expect(page.locator("#id_score_3")).to_have_value("8000")
    screenshot(page, "staff-final-scores")
    page.fill("#id_score_3", "9000")
    page.click("text=Record the end scores")
    expect(page.locator(".messages")).to_contain_text("End scores recorded")


def test_entry_works_without_javascript(browser: Any, live_server: Any, league_setup: dict[str, Any]) -> None:
    from tests.factories import make_game

    series = league_setup["series"]
    game = make_game(series, players=[make_player(n) for n in ("Gus", "Hana", "Ivan", "Jun")])
    context = browser.new_context(viewport={"width": 360, "height": 800}, java_script_enabled=False)
    page = context.new_page()
    try:
        base = live_server.url
        log_in(page, base, "referee", "table-side-42")
        page.goto(base + reverse("staff-game", args=[game.pk]))
        expect(page.locator("#save-button")).to_be_hidden()
        page.check("#id_outcome_1")
        page.check("#id_winner_1")
        page.check('input[name="han_1"][value="1"]')
        page.check('input[name="fu_1"][value="20"]')
        page.click("button[value=preview]")
        # 1 han 20 fu cannot be: the reason stands next to the fu, the choices stay.
        expect(page.locator(".has-error").first).to_contain_text("20 fu needs at least 2 han")
        expect(page.locator('input[name="han_1"][value="1"]')).to_be_checked()
        page.check('input[name="fu_1"][value="30"]')
        page.locator(".seat-value[data-seat='1'] details.seat-more > summary").click()  # the seat's rarer values
        page.locator(".seat-value[data-seat='1'] details.more summary").first.click()
        screenshot(page, "staff-hand-yaku-nojs")
        page.click("button[value=preview]")
        expect(page.locator("#preview")).to_contain_text("East Gus pays South Hana 500")
        page.click("#save-button")
        expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
        assert Hand.objects.get(game=game).summary() == "tsumo South 1 han 30 fu"
    finally:
        context.close()


def test_without_javascript_a_copied_more_asks_the_server_for_its_seat(browser: Any, live_server: Any,
                                                                       league_setup: dict[str, Any]) -> None:
    """A fresh page sends seats 2-4's "More" empty (staff_chips.js copies seat 1's);
    without the script the button in it sends the form as it stands, and the page
    that comes back has that seat's rarer choices, the taps kept."""
    from tests.factories import make_game

    game = make_game(league_setup["series"], players=[make_player(n) for n in ("Kai", "Lena", "Mio", "Noor")])
    context = browser.new_context(viewport={"width": 360, "height": 800}, java_script_enabled=False)
    page = context.new_page()
    try:
        base = live_server.url
        log_in(page, base, "referee", "table-side-42")
        page.goto(base + reverse("staff-game", args=[game.pk]))
        seat = page.locator(".seat-value[data-seat='2']")
        page.check("#id_outcome_1")  # tsumo
        page.check("#id_winner_2")
        seat.locator("details.seat-more > summary").click()
        expect(seat.locator('input[name="yakuman_2"]')).to_have_count(0)  # empty: the script fills it
        seat.get_by_role("button", name="Show this seat's rarer choices").click()
        expect(page.locator("#id_winner_2")).to_be_checked()  # the taps so far, kept
        assert Hand.objects.filter(game=game).count() == 0  # a look, not a save
        expect(seat.locator('input[name="yakuman_2"]').first).to_be_attached()
        seat.locator("details.seat-more > summary").click()
        seat.locator("summary", has_text="7+").click()
        page.check('input[name="han_2"][value="8"]')  # baiman: a rarer choice, from the server
        screenshot(page, "staff-hand-rare-nojs")
        page.click("button.look[value=preview]")
        page.click("#save-button")
        expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
        assert Hand.objects.get(game=game).summary().startswith("tsumo West 8 han")
    finally:
        context.close()


def staff_urls(game: Game) -> list[str]:
    return [
        reverse("staff-home"),
        reverse("staff-series", args=[game.series.slug]),
        reverse("staff-start", args=[game.series.slug]),
        reverse("staff-game", args=[game.pk]),
        reverse("staff-preview", args=[game.pk]),
        reverse("staff-edit-hand", args=[game.pk, 1]),
        reverse("staff-undo", args=[game.pk]),
        reverse("staff-finish", args=[game.pk]),
        reverse("staff-final-scores", args=[game.pk]),
        reverse("staff-penalties", args=[game.pk]),
    ]


def test_visitors_and_other_logins_cannot_reach_entry_pages(page: Page, live_server: Any,
                                                          league_setup: dict[str, Any]) -> None:
    from tests.factories import make_game, play, ron

    game = make_game(league_setup["series"])
    play(game, [ron(0, 1, 3, 40)])
    base = live_server.url
    # Anonymous: every page sends to the login; a post changes nothing.
    for url in staff_urls(game):
        page.goto(base + url)
        assert page.url.startswith(base + reverse("login")), url
        expect(page.locator("#id_hand_form, form.hand-form")).to_have_count(0)
        response = page.request.post(base + url, form={"number": "2", "outcome": "draw", "action": "save"},
                                     max_redirects=0)
        assert response.status in (302, 403), url
    # A login that does not score this series: 403 on every page, GET and POST (with a valid CSRF token).
    log_in(page, base, "visitor", "just-looking-42")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    for url in staff_urls(game):
        response = page.goto(base + url)
        assert response is not None and response.status == 403, url
        expect(page.locator("form.hand-form")).to_have_count(0)
        response = page.request.post(base + url, form={"csrfmiddlewaretoken": token, "number": "2",
                                                       "outcome": "draw", "action": "save"}, max_redirects=0)
        assert response.status == 403, url
    assert game.hands.count() == 1


def test_every_seat_has_its_rarer_values_on_a_fresh_page(page: Page, live_server: Any,
                                                          league_setup: dict[str, Any]) -> None:
    """Issue 28: a fresh page sends the first seat's "More" (yakuman, pao, yaku, dora,
    tiles) once; the script gives every other seat its own copy, named for its seat."""
    from tests.factories import make_game

    game = make_game(league_setup["series"], players=[make_player(n) for n in ("Gus", "Hana", "Ivan", "Jun")])
    log_in(page, live_server.url, "referee", "table-side-42")
    page.goto(live_server.url + reverse("staff-game", args=[game.pk]))
    assert page.locator("[data-copy], [data-fill]").count() == 0
    ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids))
    for seat in range(4):
        more = page.locator(f".seat-value[data-seat='{seat}'] details.seat-more")
        for name in (f"yakuman_{seat}", f"yaku_{seat}", f"flags_{seat}", f"pao_{seat}", f"dora_{seat}",
                     f"open_{seat}", f"tiles_{seat}", f"win_tile_{seat}", f"melds_{seat}"):
            assert more.locator(f'input[name="{name}"]').count() >= 1, name
        assert more.locator(f'input[name="yakuman_{seat}"][value="tsuuiisou"]').count() == 1
        assert more.locator(f"#id_tiles_{seat}[aria-describedby='id_tiles_{seat}_helptext']").count() == 1
        expect(more.locator(f"#id_tiles_{seat}_helptext")).to_contain_text("234m678p11s55z")
    # A seat's copy works as the first seat's: the label names its own input.
    page.check("#id_outcome_0")
    page.check('input[name="winners"][value="2"]')
    page.check('input[name="loser"][value="0"]')
    page.locator(".seat-value[data-seat='2'] details.seat-more > summary").click()
    page.locator(".seat-value[data-seat='2'] details.seat-more details.more").nth(1).locator("summary").click()
    page.get_by_label("Closed tiles with the winning tile").nth(2).fill("234m678p11s55z")
    expect(page.locator("#id_tiles_2")).to_have_value("234m678p11s55z")
    expect(page.locator("#id_tiles_0")).to_have_value("")


# A part of the page as a reader meets it: its elements, links, labels and words.
COLUMN = r"""(where) => {
  const col = document.querySelector(where);
  const words = (e) => e.textContent.replace(/\s+/g, " ").trim();
  return {
    elements: Array.from(col.querySelectorAll("*")).map((e) => e.tagName + "." + e.className),
    links: Array.from(col.querySelectorAll("a")).map((a) => [a.getAttribute("href"), a.getAttribute("aria-label"), words(a)]),
    rows: Array.from(col.querySelectorAll("table.hands tbody tr")).map(words),
    changes: Array.from(col.querySelectorAll("details.history li")).map(words),
    // Whitespace between blocks aside (rows, list items): the page's markup breaks lines there.
    text: col.textContent.replace(/\s+/g, ""),
  };
}"""


def test_the_hands_column_after_each_save_is_the_pages_own(page: Page, live_server: Any,
                                                           league_setup: dict[str, Any]) -> None:
    """Past the first hand the save answers with the column's changes (the new
    row, the links and buttons, the newest change), past the second with
    where the game stands less the earlier hands to correct, and the one hand
    that list gains; put in place, the column and where the game stands are
    what the page loaded afresh shows, hand after hand, past the four rows
    and the twelve changes the lists keep."""
    from tests.factories import make_game

    game = make_game(league_setup["series"], players=[make_player(n) for n in ("Gus", "Hana", "Ivan", "Jun")])
    log_in(page, live_server.url, "referee", "table-side-42")
    url = live_server.url + reverse("staff-game", args=[game.pk])
    page.goto(url)
    fresh = page.context.new_page()
    for number in range(1, 15):  # draws, the dealer tenpai: the deal stays, the game goes on
        enter_hand(page, number, "draw", checks=("#id_tenpai_0",))
        assert page.url.endswith(f"?hand={number + 1}")  # answered in place, no page load
        fresh.goto(url)
        for where in (".columns > div:last-child", "section.state"):
            placed = page.evaluate(COLUMN, where)
            assert placed == fresh.evaluate(COLUMN, where), (number, where)
        placed = page.evaluate(COLUMN, ".columns > div:last-child")
    assert len(placed["rows"]) == 4 and len(placed["changes"]) == 12 and placed["rows"][-1].startswith("14")
    expect(page.locator("section.state details.fix-other li")).to_have_count(13)  # hands 1 to 13
