"""The Content-Security-Policy in a real browser (issue 19): the main pages
load, their scripts run (the countdown ticks, the live refresh polls, the
staff page previews and saves a hand, "select all" ticks the boxes, the
projector moves on) and Chromium reports no violation: no
``securitypolicyviolation`` event and no "Content Security Policy" console
error. A control first shows that a blocked inline script is caught."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from league.models import Game, Registration, Series
from league.services import event
from league.views.event_public import SCREEN_SECONDS
from tests.browser.conftest import WAIT_MS, screenshot
from tests.browser.test_staff_entry import enter_hand, log_in

pytestmark = pytest.mark.django_db(transaction=True)

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


class Watched:
    """A page whose CSP violations (events and console errors) are kept."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        page.on("console", lambda msg: self.console.append(msg.text)
                if "Content Security Policy" in msg.text else None)

    def violations(self) -> list[str]:
        return list(self.page.evaluate("window.__csp || []")) + self.console


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 360, "height": 800})
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(LISTEN)
    page = context.new_page()
    yield Watched(page)
    context.close()


@pytest.fixture
def demo(demo_league: None) -> dict[str, Any]:
    """The demo league (a copy of the command's rows, tests/demo.py), with round 4 running."""
    random.seed(0)
    tournament = Series.objects.get(slug="demo-tournament")
    event.check_in(registrations=tournament.registrations.all())  # the round-3 no-show is back
    event.start_round(round=tournament.event_rounds.get(number=4))  # its clock runs now
    User.objects.create_superuser("director", password="runs-the-day-42")
    league = Series.objects.get(slug="demo-league")
    return {"league": league, "tournament": tournament,
            "game": Game.objects.filter(series=league, status=Game.Status.IN_PROGRESS).first()}


def test_a_blocked_inline_script_is_caught(watched: Watched, live_server: Any, demo: dict[str, Any]) -> None:
    """The control: an inline script added to a page is refused and reported,
    so the zero counts below mean something."""
    page = watched.page
    page.goto(live_server.url + reverse("index"))
    page.evaluate("""() => { const s = document.createElement("script");
                             s.textContent = "window.ran = true"; document.body.appendChild(s); }""")
    page.wait_for_timeout(200)
    assert page.evaluate("window.ran === undefined")
    assert any("script-src" in v for v in watched.violations())


def test_the_main_pages_run_their_scripts_without_a_violation(watched: Watched, live_server: Any,
                                                             demo: dict[str, Any]) -> None:
    page, base = watched.page, live_server.url
    league, game = demo["league"], demo["game"]
    player = game.seats.first().player
    page.clock.install()

    # Public: standings, player, game; the game page's live refresh polls (a 304: nothing changed).
    page.goto(base + reverse("series-standings", args=[league.slug]))
    expect(page.locator("h1")).to_contain_text(league.name)
    page.goto(base + reverse("player-detail", args=[league.slug, player.pk]))
    page.goto(base + reverse("game-detail", args=[game.pk]))
    with page.expect_response(lambda r: "partial=1" in r.url) as refresh:
        page.clock.run_for(31_000)
    assert refresh.value.status == 304
    assert watched.violations() == []

    # The tournament: public page and projector clock count down; the screen moves to the next one.
    page.goto(base + reverse("event-public", args=["demo-tournament"]))
    expect(page.locator(".countdown").first).to_have_text(re.compile(r"^\d+:\d\d"))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(base + reverse("event-screen", args=["demo-tournament", "clock"]) + "?cycle=1")
    expect(page.locator(".countdown").first).to_have_text(re.compile(r"^\d+:\d\d"))
    page.clock.run_for(2_000)
    assert page.evaluate("document.getElementById('progress').style.width") not in ("", "0%")
    screenshot(page, "csp-projector-clock")
    page.clock.run_for(SCREEN_SECONDS * 1000)
    expect(page).to_have_url(re.compile(r"/event/screen/seating/\?cycle=1$"))
    assert watched.violations() == []

    # Staff: the dashboard's clocks, the players page's "select all", a printout, the game page.
    page.set_viewport_size({"width": 360, "height": 800})
    log_in(page, base, "director", "runs-the-day-42")
    page.goto(base + reverse("event-dashboard", args=["demo-tournament"]))
    expect(page.locator(".countdown").first).to_have_text(re.compile(r"^\d+:\d\d|over time"))
    page.goto(base + reverse("event-players", args=["demo-tournament"]))
    page.check("#select-all")
    boxes = page.locator("#check-in-form input[name=number]")
    assert boxes.count() == Registration.objects.filter(series=demo["tournament"]).count()
    assert all(boxes.nth(i).is_checked() for i in range(boxes.count()))
    page.goto(base + reverse("event-print", args=["demo-tournament", "by-table"]))
    expect(page.locator("button[data-print]")).to_be_visible()
    assert watched.violations() == []

    page.goto(base + reverse("staff-game", args=[game.pk]))
    number = game.hands.count() + 1
    # The live preview (fetched as the boxes are ticked), then the one-tap save.
    enter_hand(page, number, "draw", checks=("#id_tenpai_0", "#id_tenpai_1", "#id_tenpai_2", "#id_tenpai_3"),
               says=(f"Hand {number} pays",))
    screenshot(page, "csp-staff-game")
    assert game.hands.count() == number
    assert watched.violations() == []


# Every stylesheet of the page loaded and readable: a <link> the policy refused,
# or a 404, leaves a sheet without rules.
SHEETS = """() => Array.from(document.querySelectorAll("link[rel=stylesheet]")).map(function (l) {
  try { return [l.getAttribute("href"), l.sheet ? l.sheet.cssRules.length : -1]; }
  catch (e) { return [l.getAttribute("href"), -2]; } })"""


def styled(page: Page, url: str) -> list[str]:
    """Open ``url`` and return its stylesheets' addresses, each one loaded with rules."""
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    sheets = page.evaluate(SHEETS)
    assert sheets and all(rules > 0 for _href, rules in sheets), (url, sheets)
    return [href for href, _rules in sheets]


def test_every_kind_of_page_is_styled_by_static_files_without_a_violation(
        watched: Watched, live_server: Any, demo: dict[str, Any]) -> None:
    """style-src without 'unsafe-inline': the event, stages, sign-off, import,
    ratings, projector and print pages take their rules from static files, the
    rules apply, and nothing is refused."""
    page, base = watched.page, live_server.url
    league, game = demo["league"], demo["game"]
    reg = demo["tournament"].registrations.order_by("number").first()
    public = [
        reverse("ratings"),
        reverse("signoff-tables", args=[league.slug]),
        reverse("event-public", args=["demo-tournament"]),
        reverse("event-player", args=["demo-tournament", reg.number]),
        reverse("stages-standings", args=["demo-cup"]),
        reverse("stages-teams", args=["demo-cup"]),
        *(reverse("event-screen", args=["demo-tournament", kind]) for kind in ("clock", "seating", "standings")),
    ]
    for url in public:
        styled(page, base + url)
    # The player's page: event.css's rules reach the next-table box and its heading.
    page.goto(base + reverse("event-player", args=["demo-tournament", reg.number]))
    assert page.evaluate("getComputedStyle(document.querySelector('.next')).borderTopWidth") == "3px"
    # The projector: screen.css's dark hall colours.
    page.goto(base + reverse("event-screen", args=["demo-tournament", "seating"]))
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(13, 27, 42)"
    assert watched.violations() == []

    log_in(page, base, "director", "runs-the-day-42")
    staff = [
        reverse("event-dashboard", args=["demo-tournament"]),
        reverse("event-settings", args=["demo-tournament"]),
        reverse("event-players", args=["demo-tournament"]),
        reverse("event-round", args=["demo-tournament", 4]),
        reverse("stages-manage", args=["demo-cup"]),
        reverse("ema-preview", args=["demo-cup"]),
        reverse("staff-pins", args=[league.slug]),
        reverse("staff-import", args=[league.slug]),
        reverse("staff-signoff", args=[game.pk]),
        reverse("staff-penalties", args=[game.pk]),
        *(reverse("event-print", args=["demo-tournament", kind]) for kind in ("by-name", "by-table", "score-sheets",
                                                                              "standings")),
    ]
    for url in staff:
        styled(page, base + url)
    hrefs = styled(page, base + reverse("staff-game", args=[game.pk]))
    assert any("offline" in h for h in hrefs), hrefs  # the game page's offline.css, kept by the service worker
    assert watched.violations() == []


@pytest.mark.parametrize(("paper", "size"), [("a4", (595.3, 841.9)), ("letter", (612, 792))])
def test_a_printout_is_printed_on_the_paper_chosen(watched: Watched, live_server: Any, demo: dict[str, Any],
                                                   paper: str, size: tuple[float, float]) -> None:
    """The paper is a class on the body that picks a named @page in print.css:
    every page of the PDF Chromium prints has that size, in points (Chromium
    rounds A4's 210 x 297 mm to whole pixels: within a point)."""
    page, base = watched.page, live_server.url
    log_in(page, base, "director", "runs-the-day-42")
    page.goto(base + reverse("event-print", args=["demo-tournament", "by-name"]) + f"?paper={paper}")
    pdf = page.pdf(prefer_css_page_size=True)
    boxes = [(float(w), float(h)) for w, h in re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)]
    assert boxes and all(abs(w - size[0]) < 1 and abs(h - size[1]) < 1 for w, h in boxes), boxes
    assert watched.violations() == []


def test_the_pao_question_appears_on_a_pao_yakuman_only(watched: Watched, live_server: Any,
                                                         demo: dict[str, Any]) -> None:
    """The rule that was written per ruleset into the page is a class now
    (pao-daisangen on the seat) that staff.css matches."""
    page, base = watched.page, live_server.url
    game = demo["game"]
    log_in(page, base, "director", "runs-the-day-42")
    page.goto(base + reverse("staff-game", args=[game.pk]))
    page.check("#id_outcome_0")  # ron
    page.check("#id_winners_1")
    page.check("#id_loser_0")
    seat = page.locator('.seat-value[data-seat="1"]')
    expect(seat).to_be_visible()
    pao = seat.locator(".pao-part")
    expect(pao).to_be_hidden()
    seat.locator("details.seat-more > summary").click()  # the seat's rarer values (issue 30)
    seat.locator('input[name=yakuman_1][value=kokushi]').check()
    expect(pao).to_be_hidden()
    seat.locator('input[name=yakuman_1][value=kokushi]').uncheck()
    seat.locator('input[name=yakuman_1][value=daisangen]').check()
    expect(pao).to_be_visible()
    assert watched.violations() == []
