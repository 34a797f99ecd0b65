"""Sorting people's names as a reader expects, not by code point.

Pure Python, no Django. With PyICU installed, ICU's collation for the language
asked; without it, a documented standard-library fallback for Latin names and
kana (accents with their base letter, Ł as L, ß as ss, case never first,
katakana as hiragana, kana before kanji). The fallback's rules:
docs/standings.md, "Names in order".

>>> sorted(["Ó Súilleabháin", "Lindqvist", "Łukasz", "Ohara", "Zawadzki", "Nakamura"], key=name_key)
['Lindqvist', 'Łukasz', 'Nakamura', 'Ó Súilleabháin', 'Ohara', 'Zawadzki']
>>> sorted(["さとう", "サイトウ", "佐藤"], key=name_key)
['サイトウ', 'さとう', '佐藤']
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

# Letters that do not decompose, spelled as the alphabet they are read in.
_SPELLED = str.maketrans({
    "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "ß": "ss", "Æ": "AE", "æ": "ae",
    "Œ": "OE", "œ": "oe", "Þ": "TH", "þ": "th", "ı": "i", "Ħ": "H", "ħ": "h",
})
_KATAKANA = {chr(k): chr(k - 0x60) for k in range(0x30A1, 0x30F7)}


def _primary(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.translate(_SPELLED))
    base = "".join(c for c in text if not unicodedata.combining(c))
    return "".join(_KATAKANA.get(c, c) for c in base).casefold()


@functools.lru_cache(maxsize=4)
def _icu_collator(language: str) -> Any:
    try:
        import icu  # type: ignore[import-not-found]
    except ImportError:
        return None
    return icu.Collator.createInstance(icu.Locale(language or "root"))


def name_key(text: str, language: str = "en") -> tuple[Any, ...]:
    """A sort key for ``text`` in ``language``: ICU's when PyICU is installed, else the fallback above."""
    collator = _icu_collator(language)
    if collator is not None:
        return (collator.getSortKey(text), text)
    return (_primary(text), text.casefold(), text)


def using_icu() -> bool:
    """Whether names sort by ICU here (the printouts say which, for a director who wonders)."""
    return _icu_collator("en") is not None
