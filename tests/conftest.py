"""Shared by every test directory."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _empty_page_cache() -> None:
    # The public pages cache under (series pk, version); a rolled-back test
    # can leave an entry whose pk and version the next test's series reuses.
    from django.core.cache import cache

    cache.clear()
