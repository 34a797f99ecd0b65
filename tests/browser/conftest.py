"""Browser tests: Playwright driving Debian's Chromium against live_server.

Run as their own pytest invocation (``.ci/run`` does), with
``DJANGO_ALLOW_ASYNC_UNSAFE=true`` set for that run only: Playwright's sync
API keeps an event loop running, which Django's async-safety check would
otherwise refuse. Screenshots land in ``artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.servers.basehttp import WSGIServer
from django.test.testcases import LiveServerThread

CHROMIUM = os.environ.get("TENBOU_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
WIDTHS = {"phone": 360, "desktop": 1280}

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402


def _why_not() -> str | None:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE") != "true":
        return "browser tests run in their own pass with DJANGO_ALLOW_ASYNC_UNSAFE=true (see .ci/run)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _why_not()
    if reason is None:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(f"browser tests cannot run: {reason}")
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.skip(reason=reason))


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
    context.set_default_timeout(10_000)
    pg = context.new_page()
    yield pg
    context.close()


def screenshot(page: Page, name: str) -> None:
    """Save ``artifacts/<name>-360.png`` and ``-1280.png`` (full page)."""
    ARTIFACTS.mkdir(exist_ok=True)
    size = page.viewport_size or {"width": 360, "height": 800}
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 800})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
        del label
    page.set_viewport_size(size)


class _OneRequestAtATime(WSGIServer):
    """The live server, answering one request at a time. The tests' SQLite
    database lives in memory, shared by every thread through one connection:
    two requests at once (a service worker fetching its files beside the page)
    met as "database table is locked". Django's server closes each connection
    when it is not threaded, so the browser's parallel connections just wait."""

    def __init__(self, *args: object, connections_override: object = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]


LiveServerThread.server_class = _OneRequestAtATime
