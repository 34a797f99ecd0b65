"""The routes a scorer's phone asks on every hand and tap come first in
``league/urls.py`` (Django tries them in order; issue 28), and putting them
first changes what no path resolves to: no other route matches their paths."""

from __future__ import annotations

import pytest
from django.urls import Resolver404, URLPattern, resolve

from league import urls

FIRST = ["staff-game", "staff-preview"]


def test_the_entry_routes_come_first() -> None:
    assert [getattr(p, "name", None) for p in urls.urlpatterns[:len(FIRST)]] == FIRST


@pytest.mark.parametrize("pk", [0, 7, 12, 2**31 - 1, 10**20])
@pytest.mark.parametrize("tail, name", [("", "staff-game"), ("preview/", "staff-preview")])
def test_no_other_route_takes_their_paths(pk: int, tail: str, name: str) -> None:
    path = f"staff/games/{pk}/{tail}"
    assert resolve(f"/{path}").url_name == name
    takers = []
    for pattern in urls.urlpatterns[len(FIRST):]:
        try:
            if pattern.resolve(path):
                takers.append(pattern)
        except Resolver404:
            pass
    assert takers == []


def test_every_route_still_resolves_to_itself() -> None:
    seen = 0
    for pattern in urls.urlpatterns:
        if isinstance(pattern, URLPattern) and pattern.name and not pattern.pattern.converters:
            assert resolve("/" + str(pattern.pattern)).url_name == pattern.name
            seen += 1
    assert seen > 10
