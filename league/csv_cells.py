"""How Tenbou writes CSV, for every export (``league.exports``, the EMA results
file): a UTF-8 BOM, numbers written as plain numbers (points as decimals: 61300
is ``61.3``), free text made inert in a spreadsheet, CRLF lines a few hundred
to a chunk. Standard library only: it reads no model.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any

BOM = "\ufeff"
# A cell starting with one of these is a formula (or a DDE payload) to
# Excel, LibreOffice and Google Sheets; OWASP's CSV injection advice.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

Row = Sequence[Any]


def points(thousandths: int | None) -> Decimal | None:
    """Settlement points as a plain decimal with at least one place.

    >>> points(61300), points(-18200), points(0), points(3333)
    (Decimal('61.3'), Decimal('-18.2'), Decimal('0.0'), Decimal('3.333'))
    """
    if thousandths is None:
        return None
    if thousandths % 100 == 0:
        return Decimal(thousandths // 100).scaleb(-1)
    return Decimal(thousandths).scaleb(-3).normalize()


def safe_text(value: str) -> str:
    """Free text a spreadsheet shows and never runs.

    >>> safe_text('=HYPERLINK("http://x","y")'), safe_text("-18.2"), safe_text("Aiko Sato")
    ('\\'=HYPERLINK("http://x","y")', "'-18.2", 'Aiko Sato')
    """
    if value.startswith(FORMULA_START):
        return "'" + value
    return value


def cell(value: Any) -> Any:
    """What goes into the csv module: numbers as they are, text made safe."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, Decimal)):
        return value
    return safe_text(str(value))


class _Echo:
    """A write() that hands back the line, so csv.writer can feed a generator."""

    def write(self, value: str) -> str:
        return value


# What csv.writer writes as cell() would, with no call: numbers as they are,
# None as an empty cell. Text always goes through cell() (safe_text).
_AS_THEY_ARE = frozenset({int, Decimal, type(None)})


class Cells(list):
    """A row already as the csv module should write it: numbers, None for an
    empty cell, words of our own ("E1", "ron", "0;2") and free text that went
    through ``safe_text``. ``csv_chunks`` writes it without looking at each
    cell; a generator of 100,000 rows that knows its columns says so with it."""

    __slots__ = ()


LINES_PER_CHUNK = 200  # a chunk of the stream: tens of kB, not one socket write per row


def csv_chunks(rows: Iterable[Row]) -> Iterator[str]:
    """The BOM, then the CSV lines (CRLF, as RFC 4180 has it), a few hundred rows to a chunk."""
    writerow = csv.writer(_Echo()).writerow
    yield BOM
    lines: list[str] = []
    for row in rows:
        if type(row) is Cells:
            lines.append(writerow(row))
        else:
            # Most cells are numbers or empty: no call for them.
            lines.append(writerow([v if type(v) in _AS_THEY_ARE else cell(v) for v in row]))
        if len(lines) == LINES_PER_CHUNK:
            yield "".join(lines)
            lines.clear()
    if lines:
        yield "".join(lines)
