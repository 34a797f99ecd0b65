"""The 10-hand ari-ari game of ``test_staff_entry`` entered on a 360 x 740
touch phone, every tap counted: each hand saved once, with the right
payments, and the taps, typed characters and screens per hand written to
``artifacts/entry-metrics.json`` (the table in issue 12's closing note).

Seats: East Alice (0), South Bob (1), West Carol (2), North Dave (3).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from league.models import Game, GameAudit, SaveKey
from tests.browser.conftest import ARTIFACTS, screenshot
from tests.browser.phone import Meter, phone_page
from tests.factories import make_game, make_player, make_series

pytestmark = pytest.mark.django_db(transaction=True)

E, S, W, N = "East Alice", "South Bob", "West Carol", "North Dave"


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)


@pytest.fixture
def club() -> dict[str, Any]:
    series = make_series("ari-ari", slug="club-night", name="Club night")
    User.objects.create_user("referee", password="table-side-42")
    series.scorers.add(User.objects.get(username="referee"))
    players = [make_player(n) for n in ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Gus", "Hana")]
    return {"series": series, "players": players}


def log_in(page: Page, base: str) -> None:
    page.goto(base + reverse("login"))
    page.fill("#id_username", "referee")
    page.fill("#id_password", "table-side-42")
    page.click("button[type=submit]")


def chip(page: Page, name: str, value: str | int | None) -> Any:
    """The tap target of one choice (a radio button or checkbox styled as a button)."""
    if value is None:  # a lone checkbox
        return page.locator(f'label.chip:has(input[name="{name}"])')
    return page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])')


class Scorer:
    """The scorer's hand: taps on the hand form, through the meter."""

    def __init__(self, page: Page, meter: Meter) -> None:
        self.page, self.meter = page, meter

    def hand(self, number: int, kind: str, taps: list[tuple[str, str | int | None]], *, says: tuple[str, ...] = (),
             shot: str | None = None, corrected: bool = False) -> None:
        page = self.page
        self.meter.start(str(number), kind)
        for name, value in taps:
            self.meter.tap(chip(page, name, value))
        for line in says:
            expect(page.locator("#preview")).to_contain_text(line)
        if shot:
            screenshot(page, shot)
            # What the scorer sees: the phone's one screen, before Save.
            page.screenshot(path=str(ARTIFACTS / f"{shot}-screen-360.png"))
        self.meter.tap(page.locator("#save-button"))
        message = f"Hand {number} corrected" if corrected else f"Hand {number} saved."
        expect(page.locator(".messages")).to_contain_text(message)


def scores(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".state .scores .pts").all_inner_texts()]


def test_ten_hands_on_a_phone_each_saved_once_with_taps_counted(phone: Page, live_server: Any,
                                                                 club: dict[str, Any]) -> None:
    page, base = phone, live_server.url
    log_in(page, base)
    a, b, c, d, *_ = club["players"]
    game = make_game(club["series"], players=[a, b, c, d], table="3")
    page.goto(base + reverse("staff-game", args=[game.pk]))
    meter = Meter(page)
    me = Scorer(page, meter)
    screenshot(page, "phone-hand-empty")

    # 1. E1-0 draw: Bob in riichi; Bob and Carol tenpai: 750 each from Alice and Dave.
    me.hand(1, "draw, 2 tenpai, riichi", [("outcome", "draw"), ("tenpai", 1), ("tenpai", 2), ("riichi", 1)],
            says=(f"{E} pays {S} 750 (noten)",), shot="phone-hand-draw")
    assert scores(page) == ["23,500", "25,500", "26,500", "23,500"]
    # 2. E2-1 Bob (dealer) tsumo 2 han 30 fu: 1,000 all + 100 each, and the stick.
    me.hand(2, "tsumo", [("outcome", "tsumo"), ("winner", 1), ("han_1", 2), ("fu_1", 30)],
            says=(f"{E} pays {S} 1,000 + 100", f"{S}: 2 han 30 fu"), shot="phone-hand-tsumo")
    assert scores(page) == ["22,400", "29,800", "25,400", "22,400"]
    # 3. E2-2 chombo by Carol: a reverse mangan, 4,000 to Bob, 2,000 to the others.
    me.hand(3, "chombo", [("outcome", "chombo"), ("offender", 2)], shot="phone-hand-chombo")
    assert scores(page) == ["24,400", "33,800", "17,400", "24,400"]
    # 4. E2-2 double ron on Carol: Dave (riichi) 3 han 40 fu 5,200 + 600 and the stick; Alice 2 han 30 fu 2,000.
    me.hand(4, "double ron, riichi", [("outcome", "ron"), ("winners", 3), ("winners", 0), ("loser", 2),
                                      ("riichi", 3), ("han_3", 3), ("fu_3", 40), ("han_0", 2), ("fu_0", 30)],
            says=(f"{W} pays {N} 5,200 + 600", f"{W} pays {E} 2,000"), shot="phone-hand-double-ron")
    assert scores(page) == ["26,400", "33,800", "9,600", "30,200"]
    # 5. E3-0 draw: Alice in riichi and alone tenpai, 1,000 from each.
    me.hand(5, "draw, 1 tenpai, riichi", [("outcome", "draw"), ("tenpai", 0), ("riichi", 0)])
    assert scores(page) == ["28,400", "32,800", "8,600", "29,200"]
    # 6. E4-1 Bob rons Alice 4 han 30 fu: 7,700 + 300 and the carried stick.
    me.hand(6, "ron", [("outcome", "ron"), ("winners", 1), ("loser", 0), ("han_1", 4), ("fu_1", 30)],
            says=(f"{E} pays {S} 7,700 + 300",), shot="phone-hand-ron")
    assert scores(page) == ["20,400", "41,800", "8,600", "29,200"]
    # 7. S1-0 Carol tsumo 3 han 30 fu: 2,000 from the dealer, 1,000 from the others.
    me.hand(7, "tsumo", [("outcome", "tsumo"), ("winner", 2), ("han_2", 3), ("fu_2", 30)])
    assert scores(page) == ["18,400", "40,800", "12,600", "28,200"]
    # 8. S2-0 Alice rons Dave, entered first as 2 han 30 fu...
    me.hand(8, "ron", [("outcome", "ron"), ("winners", 0), ("loser", 3), ("han_0", 2), ("fu_0", 30)])
    # 9. S3-0 draw, nobody tenpai: one explicit tap says so.
    me.hand(9, "draw, all noten", [("outcome", "draw"), ("all_noten", None)], says=("No payments",),
            shot="phone-hand-all-noten")
    assert scores(page) == ["20,400", "40,800", "12,600", "26,200"]
    # ...then hand 8 corrected to 40 fu (2,600); the rest replayed.
    meter.start("8 again", "correction (fu)")
    # From the top of the page: the chooser of earlier hands beside "Correct hand 9…" (an
    # older tree, for the before figures: the hands list's link).
    chooser = page.locator(".state details.fix-other > summary")
    if chooser.count():
        meter.tap(chooser)
        page.screenshot(path=str(ARTIFACTS / "phone-hand-chooser-screen-360.png"))
        meter.tap(page.locator(".state .fix-other a[href$='/hands/8/']"))
    else:
        meter.tap(page.locator("a[aria-label='Correct hand 8']"))
    expect(page.locator("h2").first).to_have_text("Correct hand 8")
    meter.tap(chip(page, "fu_0", 40))
    expect(page.locator("#preview")).to_contain_text(f"{N} pays {E} 2,600")
    screenshot(page, "phone-hand-correct")
    meter.tap(page.locator("#save-button"))
    expect(page.locator(".messages")).to_contain_text("Hand 8 corrected")
    assert scores(page) == ["21,000", "40,800", "12,600", "25,600"]
    # 10. S4-1 Alice tsumo 1 han 30 fu: the deal passes in all-last and the game ends.
    me.hand(10, "tsumo", [("outcome", "tsumo"), ("winner", 0), ("han_0", 1), ("fu_0", 30)],
            says=("This ends the game",))
    expect(page.locator(".state .where")).to_have_text("The game is over")
    screenshot(page, "phone-game-finished")

    # Every hand saved once, with the right payments: 10 hands, 10 records, 1 correction, 11 keys.
    game.refresh_from_db()
    assert game.is_finished and game.hands.count() == 10
    assert game.audit.filter(action=GameAudit.Action.RECORD_HAND).count() == 10
    assert game.audit.filter(action=GameAudit.Action.CORRECT_HAND).count() == 1
    assert SaveKey.objects.filter(game=game).count() == 11
    assert [(s.end_score, s.place, s.points) for s in game.seats.order_by("seat")] == [
        (22400, 3, -17600), (40400, 1, 60400), (12200, 4, -47800), (25000, 2, 5000),
    ]

    # The reference hand, in a new game: a single ron with riichi.
    other = make_game(club["series"], players=club["players"][4:], round_number=2)
    page.goto(base + reverse("staff-game", args=[other.pk]))
    names = ["East Erin", "South Frank", "West Gus", "North Hana"]
    me.hand(1, "ron, riichi", [("outcome", "ron"), ("winners", 1), ("loser", 0), ("riichi", 1), ("han_1", 3),
                               ("fu_1", 40)], says=(f"{names[0]} pays {names[1]} 5,200",), shot="phone-hand-ron-riichi")
    assert Game.objects.get(pk=other.pk).hands.count() == 1

    meter.write(ARTIFACTS / "entry-metrics.json")
    print("\n" + "\n".join(f"{r['hand']:>7} {r['kind']:<24} taps {r['taps']:>2} typed {r['typed']:>2} "
                           f"screens {r['screens']:.2f} page {r['page']:.2f}" for r in meter.table()))
    # One screen per ordinary hand (single ron, tsumo, draw, chombo): nothing tapped below the first screen.
    ordinary = [r for r in meter.table() if str(r["kind"]).split(",")[0] in ("ron", "tsumo", "draw", "chombo")]
    assert len(ordinary) == 10
    for row in ordinary:
        assert row["screens"] <= 1.0, row
    # The correction of hand 8 after hand 9 too: the chooser and the corrected hand on one screen.
    correction = next(r for r in meter.table() if r["hand"] == "8 again")
    assert correction["screens"] <= 1.0, correction
