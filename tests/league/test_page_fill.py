"""A public page missing from the cache is computed once however many ask
for it at the same moment (league/views/cached.py ``fill_once``, issue 28:
the miss herd when a page expires under a thousand spectators): the others
wait for its copy; a request whose page cannot come (the first answered a
404, or its worker died holding the page) computes it itself; a logged-in
visitor's page, never shared, never waits.

Each page here is a view of the test's own, wrapped by the real
``public_page`` and cached under a series id no other test uses; threads
stand for the workers that share one cache."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable

import pytest
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.test import RequestFactory

from league.views import cached

_series = itertools.count(7_000_001)


def counted_page(status: int = 200, pause: float = 0.0) -> tuple[Callable[..., HttpResponseBase], list[int], int]:
    """A public page that counts its computations, and its series; ``pause``
    keeps the first computation running while the others arrive."""
    calls: list[int] = []
    series = next(_series)

    def view(request: HttpRequest) -> HttpResponse:
        calls.append(1)
        time.sleep(pause)
        return HttpResponse(f"series {series}: the page", status=status)

    return cached.public_page(lambda: series, {})(view), calls, series


def at_once(page: Callable[..., HttpResponseBase], clients: int, *, cookie: bool = False,
            limit: float = 60) -> list[HttpResponseBase]:
    """``clients`` requests for ``page`` released together; each one's answer."""
    barrier = threading.Barrier(clients)
    answers: list[HttpResponseBase] = []

    def ask() -> None:
        request = RequestFactory().get("/fill/")
        if cookie:
            request.COOKIES[settings.SESSION_COOKIE_NAME] = "a-visitor"
        barrier.wait()
        answers.append(page(request))

    threads = [threading.Thread(target=ask) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(limit)
    assert not any(thread.is_alive() for thread in threads), "a request still waits"
    return answers


def test_a_page_missed_by_many_at_once_is_computed_once() -> None:
    page, calls, _ = counted_page(pause=0.3)
    answers = at_once(page, 8)
    assert len(calls) == 1
    assert [a.status_code for a in answers] == [200] * 8
    assert {a.content for a in answers} == {answers[0].content}


def test_a_page_not_cached_is_computed_by_each_without_waiting_out_the_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first answered a 404, which is never cached: the others stop
    waiting when its lock goes, and each computes its own answer."""
    monkeypatch.setattr(cached, "FILL_WAIT_SECONDS", 600.0)
    page, calls, _ = counted_page(status=404, pause=0.2)
    answers = at_once(page, 6, limit=30)
    assert [a.status_code for a in answers] == [404] * 6
    assert len(calls) == 6


def test_a_page_whose_computation_died_is_computed_after_the_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed while computing leaves the page's lock until it
    expires; a request meanwhile waits at most ``FILL_WAIT_SECONDS``, then
    computes the page itself, which the next request finds."""
    monkeypatch.setattr(cached, "FILL_WAIT_SECONDS", 0.05)
    page, calls, series = counted_page()
    held = cached._look_up(RequestFactory().get("/fill/"), cached._pages[page], series)  # the page's own key
    assert cache.add(f"filling:{held.cache_key}", 1, 60)
    try:
        assert page(RequestFactory().get("/fill/")).status_code == 200
        assert page(RequestFactory().get("/fill/")).status_code == 200
    finally:
        cache.delete(f"filling:{held.cache_key}")
    assert len(calls) == 1


def test_a_visitors_own_page_never_waits_for_the_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cached, "FILL_WAIT_SECONDS", 600.0)
    page, calls, _ = counted_page(pause=0.1)
    answers = at_once(page, 4, cookie=True, limit=30)
    assert [a.status_code for a in answers] == [200] * 4 and len(calls) == 4
    assert all(a["Cache-Control"] == "private, no-cache" for a in answers)


def test_a_computation_that_outlived_its_lock_leaves_the_next_one_s_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A computation slower than ``FILL_LOCK_SECONDS`` finds its lock expired
    and the page's lock taken by a later request, which computes the page
    too. Ending, it must not free that request's lock: a request arriving
    then waits for the later one's copy instead of computing a third time."""
    monkeypatch.setattr(cached, "FILL_LOCK_SECONDS", 1)
    monkeypatch.setattr(cached, "FILL_WAIT_SECONDS", 30.0)
    key = f"fill-test:{next(_series)}"
    lock = f"filling:{key}"
    computed: list[str] = []
    page = cached.CachedResponse("text/plain", b"the page", b"", '"e"', '"g"', 0.0)
    later_is_computing = threading.Event()
    later_may_end = threading.Event()

    def slow() -> HttpResponseBase:
        computed.append("first")
        time.sleep(1.2)  # its lock expires meanwhile
        later.start()
        assert later_is_computing.wait(10)
        return HttpResponse(status=503)  # nothing to keep: an error, say

    def later_compute() -> cached.CachedResponse:
        computed.append("later")
        later_is_computing.set()
        assert later_may_end.wait(10)
        cache.set(key, page, 60)
        return page

    later = threading.Thread(target=lambda: cached.fill_once(key, later_compute))
    try:
        assert cached.fill_once(key, slow).status_code == 503
        assert cache.get(lock) is not None  # the later request's lock stands
        threading.Timer(0.2, later_may_end.set).start()
        assert cached.fill_once(key, lambda: computed.append("third") or page) == page
    finally:
        later_may_end.set()
        later.join(10)
        cache.delete_many([key, lock])
    assert computed == ["first", "later"]
