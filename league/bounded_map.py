"""``BoundedMap``: a dict that holds at most so many keys, the one shape of a
memo kept between requests or between calls (the session store's hints,
the held reads, the words per language, the field table's plans).

Pure Python, no Django: the pure packages (``league.entry``, which the
phone's engine runs too) and the app share it.

A worker runs for days and meets an unbounded number of sessions, stored
rows, games and rulesets, so every memo has a bound; what a memo holds is a
hint or a copy, never the only record, so forgetting it costs only the next
call's slower path.

The bound is kept by clearing the map when a new key would pass it, not by
evicting the least recently used key. A read is then ``dict.get`` itself, at
C speed and safe under threads; an LRU reorders on every hit, on the path
every request takes (the session's read), and needs a lock to do it. The
bounds are far above a day's working set (thousands of sessions against an
event's few hundred scorers and spectators' logins), so a clear is rare and
the maps fill again in a few requests.

>>> m = BoundedMap(2)
>>> m["a"] = 1; m["b"] = 2; m["b"] = 3; dict(m)
{'a': 1, 'b': 3}
>>> m["c"] = 4; dict(m)
{'c': 4}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedMap(dict[K, V]):
    """A dict of at most ``bound`` keys: adding a new key to a full map first
    empties it; replacing a key's value never does. Reads are ``dict``'s own."""

    __slots__ = ("bound",)

    def __init__(self, bound: int) -> None:
        if bound < 1:
            raise ValueError(f"bound: a map must hold at least one key, not {bound}")
        super().__init__()
        self.bound = bound

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.bound and key not in self:
            self.clear()
        super().__setitem__(key, value)

    # dict's own update and setdefault would add keys without passing here.
    def setdefault(self, key: K, default: V = None) -> V:  # type: ignore[assignment]
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, other: Mapping[K, V] | Iterable[tuple[K, V]] = (), /, **more: V) -> None:  # type: ignore[override]
        pairs = other.items() if isinstance(other, Mapping) else other
        for key, value in pairs:
            self[key] = value
        for name, value in more.items():
            self[name] = value  # type: ignore[index]

    def __ior__(self, other: Any) -> BoundedMap[K, V]:  # type: ignore[override,misc]
        self.update(other)
        return self
