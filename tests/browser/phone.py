"""A scorer's phone, measured: a 360 x 740 touch screen that counts taps,
typed characters and how far down the page each tap had to reach.

``screens`` for a hand is the lowest point the scorer had to reach (the
bottom of the lowest element tapped, in page coordinates, or of the Save bar
after scrolling just far enough to see the lowest tap above it) over the
screen height: 1.0 or less means the whole hand was entered without scrolling.
``page`` is the page's full height over the screen height, for comparison.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.urls import reverse
from playwright.sync_api import Browser, Locator, Page

from league.models import Game
from tests.browser.conftest import WAIT_MS
from tests.factories import make_game, make_player, make_series

PHONE = {"width": 360, "height": 740}


NEAREST = """e => {
  const bar = document.querySelector(".savebar");
  if (bar && bar.contains(e)) return;
  const r = e.getBoundingClientRect();
  const fixed = bar && getComputedStyle(bar).position === "fixed";
  const bottom = fixed ? bar.getBoundingClientRect().top : innerHeight;
  if (r.bottom > bottom) scrollBy(0, r.bottom - bottom + 4);
  else if (r.top < 0) scrollBy(0, r.top - 4);
}"""


@dataclass
class HandMetrics:
    hand: str
    kind: str
    taps: int = 0
    typed: int = 0
    reach: float = 0.0  # px, page coordinates
    height: float = 0.0  # px, page height at its largest

    def row(self) -> dict[str, object]:
        return {**asdict(self), "screens": round(self.reach / PHONE["height"], 2),
                "page": round(self.height / PHONE["height"], 2)}


@dataclass
class Meter:
    """Every tap and keystroke goes through here while a hand is being entered."""

    page: Page
    hands: list[HandMetrics] = field(default_factory=list)

    def start(self, hand: str, kind: str) -> None:
        self.hands.append(HandMetrics(hand, kind))

    @property
    def now(self) -> HandMetrics:
        return self.hands[-1]

    def _reach(self, target: Locator) -> None:
        # Scroll as a thumb does, only as far as needed: the target just above the fixed
        # Save bar (or just under the top). Playwright's own scrolling centres the target,
        # which would count half a screen the scorer never had to scroll.
        # After a tap that navigates, measure the new page once its styles apply.
        self.page.wait_for_load_state()
        target.wait_for(state="visible")
        target.evaluate(NEAREST)
        box = target.bounding_box()
        assert box is not None, target
        scroll = self.page.evaluate("window.scrollY")
        self.now.reach = max(self.now.reach, scroll + box["y"] + box["height"])
        self.now.height = max(self.now.height, self.page.evaluate("document.documentElement.scrollHeight"))

    def tap(self, target: Locator) -> None:
        self._reach(target)
        target.tap()
        self.now.taps += 1

    def select(self, target: Locator, value: str) -> None:
        """A dropdown: one tap opens it, one picks (the phone's picker)."""
        self._reach(target)
        target.select_option(value)
        self.now.taps += 2

    def type(self, target: Locator, text: str) -> None:
        self.tap(target)
        target.press_sequentially(text)
        self.now.typed += len(text)

    def table(self) -> list[dict[str, object]]:
        return [h.row() for h in self.hands]

    def write(self, path: Path) -> None:
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(self.table(), indent=1) + "\n")


def phone_page(browser: Browser, **options: object) -> Iterator[Page]:
    """A touch phone, 360 x 740: taps are touch events, the viewport a phone's.
    ``options`` go to the browser context (``service_workers="block"``: a phone
    that keeps nothing for offline use)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2,
                                  **options)  # type: ignore[arg-type]
    context.set_default_timeout(WAIT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()
        IN_FLIGHT.wait()


class InFlight:
    """How many requests the live server is still answering. A closed page may
    leave one running (a queued save, a retry); on SQLite's shared in-memory
    database it holds the tables, and the flush after the test fails with
    "database table is locked", and the tests after it with it. So a phone's
    page is closed, then these are waited for."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()
        request_started.connect(self.started, weak=False)
        request_finished.connect(self.finished, weak=False)

    def started(self, sender: object, **kwargs: object) -> None:
        with self.lock:
            self.count += 1

    def finished(self, sender: object, **kwargs: object) -> None:
        with self.lock:
            self.count -= 1

    def wait(self, seconds: float = 15.0) -> None:
        # Bounded: a request whose response was never closed (the test client's,
        # or one whose socket the relay cut mid-answer) never counts down. After
        # the bound it is taken for dead and forgotten: left counted, it made every
        # later phone test of the worker wait the whole bound again (a CI run's
        # browser pass spent seven teardowns of 15-30 s on one such request).
        end = time.monotonic() + seconds
        while self.count > 0 and time.monotonic() < end:
            time.sleep(0.05)
        with self.lock:
            self.count = 0


IN_FLIGHT = InFlight()


def open_game(page: Page, base: str, game: Game, user: str = "referee") -> None:
    """Log in as a scorer (the tests' password) and open the staff page of ``game``."""
    page.goto(base + reverse("login"))
    page.fill("#id_username", user)
    page.fill("#id_password", "table-side-42")
    page.click("button[type=submit]")
    page.goto(base + reverse("staff-game", args=[game.pk]))


def tap(page: Page, name: str, value: str | int) -> None:
    """Tap the chip of the choice ``value`` of the field ``name``."""
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def club_night(*scorers: str) -> Game:
    """The phone tests' game: Club night's table 3, Alice, Bob, Carol and Dave,
    under the Ari-Ari rules, scored by ``scorers`` (each with the password
    ``table-side-42``). ``tests/browser/conftest.py``'s ``game`` is it with the
    one scorer "referee"."""
    series = make_series("ari-ari", slug="club-night", name="Club night")
    for name in scorers:
        series.scorers.add(User.objects.create_user(name, password="table-side-42"))
    return make_game(series, players=[make_player(n) for n in ("Alice", "Bob", "Carol", "Dave")], table="3")
