"""Browser tests: Playwright driving Debian's Chromium against live_server.

Run as their own pytest invocation (``.ci/run`` does), with
``DJANGO_ALLOW_ASYNC_UNSAFE=true`` set for that run only: Playwright's sync
API keeps an event loop running, which Django's async-safety check would
otherwise refuse. Screenshots land in ``artifacts/`` (git-ignored), unless
``TENBOU_SCREENSHOTS=0`` (.ci/run: its clone is thrown away, so nobody sees them).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("TENBOU_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
WIDTHS = {"phone": 360, "desktop": 1280}
# screenshot() below writes the pictures a person looks at after a local run; no
# test reads them. CI throws its clone away with them, so it sets
# TENBOU_SCREENSHOTS=0 and saves their cost (two full-page shots and two resizes each).
SCREENSHOTS = os.environ.get("TENBOU_SCREENSHOTS", "1") != "0"
# How long Playwright waits for an element, a navigation or an expect(): a
# stall still fails, with its call log. It is a limit, not a measure of speed:
# two workers on a two-core machine that others load too saw a page that seats
# eight rounds take more than 10 s to answer.
WAIT_MS = 30_000

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

from tests.browser.plug import Plug  # noqa: E402

expect.set_options(timeout=WAIT_MS)


def _why_not() -> str | None:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE") != "true":
        return "browser tests run in their own pass with DJANGO_ALLOW_ASYNC_UNSAFE=true (see .ci/run)"
    return None


# The longest files first (their tests took 15-41 s each in CI's --durations,
# 2026-11-26), the rest in their usual order. pytest-xdist hands tests out in
# collection order, so a long test begun last kept one worker busy while the
# other had nothing left: started first, the short ones fill in beside it.
LONG_FIRST = ("test_event_day.py", "test_director_day.py", "test_staff_a11y.py", "test_public_pages.py",
              "test_phone_entry.py", "test_phone_sanma.py", "test_staff_entry.py", "test_engine_worker.py",
              "test_offline_engine.py", "test_csp.py")


def _long_first(item: pytest.Item) -> int:
    name = Path(str(item.fspath)).name
    return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_long_first)  # stable: each file's tests keep their order
    reason = _why_not()
    if reason is None:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(f"browser tests cannot run: {reason}")
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def _phone_pricing(request: pytest.FixtureRequest, settings: Any) -> None:
    """Online phone pricing boots Pyodide on every staff game page a test opens (2-5
    CPU-s each): measured in CI, the browser pass took 447 s with it everywhere
    against 308 s before, and the PostgreSQL pass beside it 515 s against 367. So
    it is off unless a test asks for it (``@pytest.mark.phone_pricing``): the tests
    of the phone's price online, and the logout's, which an engine still loading
    once broke. Every other test enters hands as a phone whose engine is not ready
    yet does, through the server's preview."""
    settings.PHONE_PRICING = request.node.get_closest_marker("phone_pricing") is not None


@pytest.fixture
def game() -> Any:
    """The phone tests' game (``tests.browser.phone.club_night``), scored by "referee";
    a test file that needs another game defines its own ``game``."""
    from tests.browser.phone import club_night

    return club_night("referee")


@pytest.fixture
def plug(live_server: Any) -> Iterator[Plug]:
    """The way to the live server, to be pulled out (``tests/browser/plug.py``): a
    phone opened at ``plug.url`` loses the server for real, its service worker too."""
    p = Plug(live_server.url)
    yield p
    p.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh context (no cookies) at phone width; resize for desktop shots."""
    context = browser.new_context(viewport={"width": WIDTHS["phone"], "height": 800})
    context.set_default_timeout(WAIT_MS)
    pg = context.new_page()
    yield pg
    context.close()


def screenshot(page: Page, name: str) -> None:
    """Save ``artifacts/<name>-360.png`` and ``-1280.png`` (full page); nothing
    with ``TENBOU_SCREENSHOTS=0``."""
    if not SCREENSHOTS:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    size = page.viewport_size or {"width": 360, "height": 800}
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 800})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
        del label
    page.set_viewport_size(size)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The browser tests' SQLite database in a file, never in memory:
    ``TENBOU_TEST_DB`` when set (CI names one), else a temporary file. The
    live server is threaded, as a real server is (Django's default), and each
    of its request threads opens its own connection to the file; the settings'
    WAL mode and busy timeout make a writer wait for the lock. (The in-memory
    database is one connection shared by every thread: two requests at once,
    a service worker's fetches beside the page, met "database table is
    locked".)"""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        name = os.environ.get("TENBOU_TEST_DB") or str(tmp_path_factory.mktemp("browser-db") / "test.sqlite3")
        db.setdefault("TEST", {})["NAME"] = name
    request.getfixturevalue("django_db_modify_db_settings_parallel_suffix")
