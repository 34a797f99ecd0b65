"""Ranking with ties, for standings tables.

>>> rank_with_ties([50, 30, 30, 10])
[1, 2, 2, 4]
>>> rank_with_ties([10, 50, 30, 30])  # any order: each value's own rank
[4, 1, 2, 2]
"""

from __future__ import annotations

from collections.abc import Sequence


def rank_with_ties(values: Sequence[int]) -> list[int]:
    """Competition ranks ("1224") for higher-is-better values: equal values share a rank."""
    ordered = sorted(values, reverse=True)
    first_at: dict[int, int] = {}
    for i, v in enumerate(ordered):
        first_at.setdefault(v, i + 1)
    return [first_at[v] for v in values]


def shared(ranks: Sequence[int]) -> list[bool]:
    """Which ranks are shared with another entry (shown as "=2").

    >>> shared([1, 2, 2, 4])
    [False, True, True, False]
    """
    return [ranks.count(r) > 1 for r in ranks]
