"""Shared by every test directory."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _empty_page_cache() -> None:
    # A rolled-back test can leave a page or a stamp for a series whose pk
    # the next test's series reuses (its creation publishes nothing when
    # rolled back), and the stamps outlive the process.
    from django.core.cache import caches

    from league import versions

    for cache in caches.all():
        cache.clear()
    versions.store().clear()
