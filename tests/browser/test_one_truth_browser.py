"""One event, one truth, in a real browser: the hand-checked event of
tests/league/test_one_truth.py (a cut to a half-carry final, a substitute,
a late registration, a team with nobody in the final), every standings
surface read from its rows' data attributes, the teams page in both
languages, no round "being played" after the last table. Screenshots of the
finished event: dashboard, printouts and projector at 1280 and 1920 px,
public pages at 360 px in English and Japanese (``artifacts/truth-*``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Page

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_staff_entry import log_in
from tests.league.test_one_truth import build_event, expected_ids

pytestmark = pytest.mark.django_db(transaction=True)

ROWS = "els => els.map(e => [Number(e.dataset.player), Number(e.dataset.points)])"


def rows(page: Page, scope: str = "") -> list[tuple[int, int]]:
    return [tuple(r) for r in page.eval_on_selector_all(f"{scope} tr[data-player]".strip(), ROWS)]


def shot(page: Page, name: str, *, full: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    width = (page.viewport_size or {"width": 0})["width"]
    page.screenshot(path=str(ARTIFACTS / f"truth-{name}-{width}.png"), full_page=full)


def test_every_surface_in_the_browser_names_the_same_winner(browser: Browser, live_server: Any) -> None:
    series = build_event("truth")
    truth = expected_ids(series)
    base = live_server.url
    slug = series.slug

    for lang in ("en", "ja"):
        context = browser.new_context(viewport={"width": 360, "height": 800}, locale=lang,
                                      extra_http_headers={"Accept-Language": lang})
        page = context.new_page()
        page.goto(base + reverse("event-public", args=[slug]))
        assert rows(page) == truth, lang
        assert page.locator("[data-round-state=finished]").count() == 1
        assert "being played" not in page.content() and "対局中" not in page.content()
        shot(page, f"event-{lang}")
        page.goto(base + reverse("series-standings", args=[slug]))
        assert rows(page) == truth, lang
        shot(page, f"series-{lang}")
        page.goto(base + reverse("stages-standings", args=[slug]))
        assert rows(page, "#final-h ~ div") == truth, lang
        shot(page, f"stages-{lang}")
        response = page.goto(base + reverse("stages-teams", args=[slug]))
        assert response is not None and response.status == 200, lang
        shot(page, f"teams-{lang}")
        context.close()

    series.directors.add(User.objects.create_user("director", password="runs-the-day-27"))
    for width, height in ((1280, 800), (1920, 1080)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(base + reverse("event-screen", args=[slug, "standings"]))
        assert rows(page) == truth
        shot(page, "projector-standings", full=False)
        page.goto(base + reverse("event-screen", args=[slug, "clock"]))
        assert page.locator("[data-round-state=finished]").count() == 1 and page.locator("[data-ends]").count() == 0
        shot(page, "projector-clock", full=False)
        log_in(page, base, "director", "runs-the-day-27")
        page.goto(base + reverse("event-dashboard", args=[slug]))
        assert rows(page) == truth
        assert page.locator("td[data-round-state=finished]").count() == 5
        shot(page, "dashboard")
        for kind in ("standings", "by-name"):
            page.goto(base + reverse("event-print", args=[slug, kind]))
            if kind == "standings":
                assert rows(page) == truth
            shot(page, f"print-{kind}")
        page.goto(base + reverse("ema-preview", args=[slug]))
        assert rows(page, "#ranks-h ~ div") == truth
        shot(page, "ema")
        context.close()
