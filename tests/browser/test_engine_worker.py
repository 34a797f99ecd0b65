"""The phone's engine loads in a Web Worker, never on the page's thread (issue 30).

Structural: once the engine is ready and has priced a hand, the page has no
``loadPyodide``, no Pyodide script and fetched no Pyodide file itself (the
worker did). Measured: a timer on the page beats every 20 ms and records its
largest gap, idle (the baseline of the same run), while the worker loads the
engine, and while Pyodide loads on the page's own thread as engine.js did
before; the figures go to ``artifacts/engine-heartbeat.json`` and the test's
output. Issue 30's bound, the gap while the worker loads at most 480 ms (a
tenth of the 4.8 s the page was held before), is measured there and not
asserted: a time is never a test's verdict on these shared machines (the
project's rule); the structural assertions fail an engine loaded on the
page's thread on any machine. Measured 54-100 ms at load averages 5-10.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page

from league import services
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_offline_engine import _need_engine
from tests.browser.test_staff_entry import log_in
from tests.factories import make_player, make_series

pytestmark = pytest.mark.django_db(transaction=True)

BEAT = """() => {
  window.beats = {max: 0, last: performance.now()};
  window.beatTimer = setInterval(() => {
    const now = performance.now();
    beats.max = Math.max(beats.max, now - beats.last);
    beats.last = now;
  }, 20);
}"""
GAP = "() => { clearInterval(window.beatTimer); return window.beats.max; }"


def test_the_engine_loads_off_the_page_thread(page: Page, live_server: Any) -> None:
    _need_engine()
    series = make_series("ari-ari", slug="club-night", name="Club night")
    series.scorers.add(User.objects.create_user("referee", password="table-side-42"))
    game = services.start_game(series=series, players=[make_player(n) for n in ("Alice", "Bob", "Carol", "Dave")])
    log_in(page, live_server.url, "referee", "table-side-42")
    page.goto(live_server.url + reverse("staff-game", args=[game.pk]))
    page.check('input[name="outcome"][value="draw"]')
    page.check('input[name="tenpai"][value="1"]')

    page.evaluate(BEAT)
    page.wait_for_timeout(3000)
    idle = page.evaluate(GAP)

    page.evaluate(BEAT)
    answer = page.evaluate("""async () => {
      const game = await (await fetch(location.pathname + "offline.json")).json();
      const started = performance.now();
      await TenbouEngine.ready();
      const loaded = performance.now();
      const form = document.querySelector("form.hand-form");
      const answer = await TenbouEngine.price(game, TenbouEngine.fieldsOf(form));
      return {answer, load_ms: loaded - started};
    }""")
    worker = page.evaluate(GAP)
    assert answer["answer"]["ok"] is True and answer["answer"]["payments"] == [-1000, 3000, -1000, -1000]

    # Structural: the page's thread never loaded Pyodide; the worker did.
    assert page.evaluate("typeof window.loadPyodide") == "undefined"
    assert page.locator("script[src*=pyodide]").count() == 0
    fetched = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in fetched if "/pyodide/" in u or u.endswith("engine.zip")], fetched

    # The same run's "before": Pyodide loaded on the page's own thread, as engine.js did.
    page.evaluate(BEAT)
    before_ms = page.evaluate("""async () => {
      const started = performance.now();
      await new Promise((ok, fail) => {
        const s = document.createElement("script");
        s.src = "/staff/offline/pyodide/pyodide.js"; s.onload = ok; s.onerror = fail;
        document.head.appendChild(s);
      });
      await loadPyodide({indexURL: "/staff/offline/pyodide/", fullStdLib: false});
      return performance.now() - started;
    }""")
    on_page = page.evaluate(GAP)

    figures = {"idle_gap_ms": round(idle), "worker_load_gap_ms": round(worker), "worker_load_ms": round(answer["load_ms"]),
               "page_thread_load_gap_ms": round(on_page), "page_thread_load_ms": round(before_ms),
               "load_average": os.getloadavg()[0]}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "engine-heartbeat.json").write_text(json.dumps(figures, indent=1) + "\n")
    print("\n", figures)
