"""Words a process remembers between requests, per active language:
``per_language`` (a value made once per language) and
``per_language_lookup`` (a catalogue lookup kept per language and
arguments). Both are bounded, in ``league.bounded_map.BoundedMap``s, whose
docstring says why every memo is and how.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from django.utils.translation import get_language

from league.bounded_map import BoundedMap

T = TypeVar("T")

# Languages a process may be asked for: settings.LANGUAGES and their variants.
LANGUAGES_BOUND = 16


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
