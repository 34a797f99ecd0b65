"""What a process remembers between requests, always bounded: ``BoundedMap``
(a dict that holds at most so many keys) and ``per_language`` (a value made
once per active language).

A worker runs for days and meets an unbounded number of sessions, stored
rows and games, so every memo has a bound; what a memo holds is a hint or a
copy, never the only record, so forgetting it costs only the next request's
slower path.

The bound is kept by clearing the map when a new key would pass it, not by
evicting the least recently used key. A read is then ``dict.get`` itself, at
C speed and safe under threads; an LRU reorders on every hit, on the path
every request takes (the session's read), and needs a lock to do it. The
bounds are far above a day's working set (thousands of sessions against an
event's few hundred scorers and spectators' logins), so a clear is rare and
the maps fill again in a few requests.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from django.utils.translation import get_language

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

# Languages a process may be asked for: settings.LANGUAGES and their variants.
LANGUAGES_BOUND = 16


class BoundedMap(dict[K, V]):
    """A dict of at most ``bound`` keys: adding a new key to a full map first
    empties it; replacing a key's value never does. Reads are ``dict``'s own.

    >>> m = BoundedMap(2)
    >>> m["a"] = 1; m["b"] = 2; m["b"] = 3; dict(m)
    {'a': 1, 'b': 3}
    >>> m["c"] = 4; dict(m)
    {'c': 4}
    """

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


def per_language(make: Callable[[], T]) -> Callable[[], T]:
    """``make()`` in the active language, made the first time a language asks
    and kept for that language (at most ``LANGUAGES_BOUND`` languages). For
    words that do not change with the request: each catalogue lookup reads
    the language through asgiref's ``Local``, which costs more than the
    rest of a small answer's work when done per request.

    ``make`` must return the same value, never None, whenever it runs in one
    language; two threads asking at once may both make it, and either is kept."""
    made: BoundedMap[str | None, T] = BoundedMap(LANGUAGES_BOUND)

    @functools.wraps(make)
    def in_language() -> T:
        language = get_language()
        value = made.get(language)
        if value is None:
            value = made[language] = make()
        return value

    in_language.made = made  # type: ignore[attr-defined]
    return in_language


def per_language_lookup(lookup: Callable[..., str], bound: int = 4096) -> Callable[..., str]:
    """``lookup(*args)`` (a catalogue lookup: ``gettext``, ``ngettext``) kept
    per active language and arguments, at most ``bound`` of them: the same
    text, with one read of the language and a ``dict.get`` instead of the
    catalogue's chain. The catalogues do not change while a process runs.

    >>> calls = []
    >>> shout = per_language_lookup(lambda m: calls.append(m) or m.upper())
    >>> shout("pays"), shout("pays"), calls
    ('PAYS', 'PAYS', ['pays'])
    """
    seen: BoundedMap[tuple[Any, ...], str] = BoundedMap(bound)

    @functools.wraps(lookup)
    def in_language(*args: Any) -> str:
        key = (get_language(), *args)
        text = seen.get(key)
        if text is None:
            text = seen[key] = lookup(*args)
        return text

    in_language.seen = seen  # type: ignore[attr-defined]
    return in_language
