"""The countdown on a page served from the cache (issue 31): the projector's
clock page, made and cached ten minutes earlier, shows the time the round
has left now, by the server's clock (read from /time), whatever the browser's
clock says. The server's clock is moved with time-machine; nothing sleeps
for the ten minutes."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from league.models import Round
from league.services import event
from tests.factories import make_series
from tests.league.test_event_cache import start

# The page marks the clock with the offset it measured against /time (a number, maybe negative).
OFFSET = re.compile(r"-?\d+(\.\d+)?")

pytestmark = pytest.mark.django_db(transaction=True)


def seconds(shown: str) -> int:
    """'1:19:58' or '19:58' as seconds."""
    parts = [int(p) for p in shown.split(":")]
    return sum(p * 60 ** k for k, p in enumerate(reversed(parts)))


def test_a_clock_page_cached_ten_minutes_ago_counts_down_from_the_servers_time(page: Page, live_server: Any) -> None:
    series = make_series("ari-ari", slug="open", name="Open", kind="tournament")
    event.configure_event(series=series, rounds=2, ending="end_after_hand")
    url = live_server.url + reverse("event-screen", args=["open", "clock"])
    # The server an hour ahead of the browser: a countdown by the browser's
    # own clock would show an hour too much; one by a time in the page, ten
    # minutes too much.
    made = timezone.now() + datetime.timedelta(hours=1)
    with time_machine.travel(made, tick=True):
        start(series)
        rnd = Round.objects.get(series=series, number=1)
        first = page.goto(url)
        assert first is not None and first.ok
        made_page = first.body()
        # Every request of the page answered before the clock moves (the server's threads read it too).
        expect(page.locator("html")).to_have_attribute("data-clock-offset", OFFSET)
        page.wait_for_load_state("networkidle")
    with time_machine.travel(made + datetime.timedelta(minutes=10), tick=True):
        again = page.goto(url)
        assert again is not None and again.body() == made_page  # the page cached ten minutes ago
        expect(page.locator("html")).to_have_attribute("data-clock-offset", OFFSET)
        page.wait_for_timeout(1100)  # the countdown ticks with the offset
        shown = page.locator(".countdown").inner_text()
        left = (rnd.ends_at - timezone.now()).total_seconds()
        page.goto("about:blank")  # nothing of the page's left running when the clock moves back
    assert re.fullmatch(r"(\d+:)?\d{1,2}:\d\d", shown), shown
    # Ten minutes of the round gone (and the seconds the set-up took before the clock moved).
    assert abs(left - (rnd.time_limit * 60 - 600)) < 30
    assert abs(seconds(shown) - left) <= 5, (shown, left)
