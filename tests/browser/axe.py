"""axe-core through Playwright, shared by every browser test that checks a
page's accessibility (the staff pages here; the public pages reuse it).

``axe-playwright-python`` bundles axe-core, so nothing is fetched at run
time. A page passes when axe reports no violation of impact ``serious`` or
``critical``; lesser ones are returned for a test to look at.
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

BLOCKING = ("serious", "critical")
_axe = Axe()


def violations(page: Page, *, impacts: tuple[str, ...] = BLOCKING) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now, of the given impacts:
    each as {id, impact, help, nodes: [css selectors]}."""
    response = _axe.run(page).response
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"],
         "nodes": [" ".join(map(str, n["target"])) for n in v["nodes"]]}
        for v in response["violations"]
        if v.get("impact") in impacts
    ]


def assert_accessible(page: Page, where: str = "") -> None:
    """No serious or critical axe violation on the page, at its current width."""
    found = violations(page)
    width = (page.viewport_size or {}).get("width")
    assert found == [], f"{where or page.url} at {width}px: {found}"


def assert_accessible_at(page: Page, widths: tuple[int, ...] = (360, 1280), where: str = "") -> None:
    """:func:`assert_accessible` at each width (phone and desktop), then back."""
    size = page.viewport_size or {"width": 360, "height": 740}
    try:
        for width in widths:
            page.set_viewport_size({"width": width, "height": size["height"]})
            assert_accessible(page, where)
    finally:
        page.set_viewport_size(size)
