"""Read an event's player list from CSV: every bad row reported by its
line, so the director fixes the file once and imports it whole.

Columns by header, any order and case: ``number``, ``first name``, ``last name``
(required), ``EMA number``, ``country`` (ISO 3166), ``club``, ``team``,
``substitute``. Commas, semicolons or tabs; BOM ignored; line 1 is the header.

>>> rows = read_roster("number,first name,last name,country\\n1,Aiko,Sato,jp\\n")
>>> rows[0].number, rows[0].name, rows[0].country
(1, 'Aiko Sato', 'JP')
>>> read_roster("number,first name,last name\\n1,Aiko,\\n1,Bram,de Vries\\n")
Traceback (most recent call last):
...
league.event.roster.RosterError: line 2: last name: is empty; line 3: number: 1 is already on line 2
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any

from league.db_bounds import EVENT_NUMBER, MAX_TEXT_CELL, text_problem
from league.event.countries import COUNTRIES

MAX_ROWS = 2000
LIMITS = {"first_name": 100, "last_name": 100, "club": 100, "team": 100, "ema_number": 20}
COLUMNS = {
    "number": "number", "no": "number", "event number": "number", "first name": "first_name",
    "firstname": "first_name", "last name": "last_name", "lastname": "last_name", "surname": "last_name",
    "ema number": "ema_number", "ema": "ema_number", "ema id": "ema_number", "country": "country",
    "club": "club", "team": "team", "substitute": "substitute",
}
LABELS = {"number": "number", "first_name": "first name", "last_name": "last name", "ema_number": "EMA number",
          "country": "country", "club": "club", "team": "team", "substitute": "substitute"}
REQUIRED = ("number", "first_name", "last_name")
YES = {"yes", "y", "true", "1", "x"}
NO = {"no", "n", "false", "0", ""}


@dataclass(frozen=True)
class RosterRow:
    line: int
    number: int
    first_name: str
    last_name: str
    ema_number: str = ""
    country: str = ""
    club: str = ""
    team: str = ""
    is_substitute: bool = False

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


@dataclass(frozen=True)
class RowError:
    """One problem: the English ``message``, and its ``code`` with the
    ``values`` it names, from which another language words it (league.engine_words)."""

    line: int
    field: str | None  # a column's label, or None for the whole line
    message: str
    code: str = ""
    values: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return where + (f"{self.field}: " if self.field else "") + self.message


class RosterError(ValueError):
    """The file was refused; ``errors`` lists every problem found, by line."""

    def __init__(self, errors: list[RowError]) -> None:
        super().__init__("; ".join(str(e) for e in errors))
        self.errors = errors


def read_roster(text: str) -> list[RosterRow]:
    """Every row of ``text``, or ``RosterError`` listing every bad one."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise RosterError([RowError(1, None, "the file is empty; line 1 must name the columns", "empty")])
    delimiter = max(",;\t", key=lines[0].count)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        return _read(reader)
    except csv.Error:
        # A bare CR inside a cell, or a cell past the csv module's 131,072 characters.
        raise RosterError([RowError(max(reader.line_num, 1), None, "cannot be read as CSV (a line break inside a "
                                    "cell that is not in quotes, or a cell far too long)", "not_csv")]) from None


def _read(reader: Any) -> list[RosterRow]:
    header = next(reader)
    columns, errors = _columns(header)
    if errors:
        raise RosterError(errors)
    rows: list[RosterRow] = []
    first_line: dict[tuple[str, str], int] = {}
    for cells in reader:
        line = reader.line_num
        bad = next((i for i, c in enumerate(cells) if len(c) > MAX_TEXT_CELL or text_problem(c)), None)
        if bad is not None:
            label = LABELS.get(columns.get(bad, ""), None)
            if len(cells[bad]) > MAX_TEXT_CELL:
                errors.append(RowError(line, label, f"is longer than {MAX_TEXT_CELL} characters", "too_long",
                                       (("limit", str(MAX_TEXT_CELL)),)))
            else:
                errors.append(RowError(line, label, "holds a NUL character", "nul"))
            continue
        if not any(c.strip() for c in cells):
            continue  # blank lines are spreadsheet noise
        if len(rows) + len(errors) >= MAX_ROWS:
            errors.append(RowError(line, None, f"a list holds at most {MAX_ROWS} players", "too_many",
                                    (("n", str(MAX_ROWS)),)))
            break
        if len(cells) > len(header):
            errors.append(RowError(line, None, f"{len(cells)} cells, but the header names {len(header)} columns",
                                    "too_many_cells", (("cells", str(len(cells))), ("columns", str(len(header))))))
            continue
        values = {key: cells[i].strip() if i < len(cells) else "" for i, key in columns.items()}
        row, row_errors = _row(line, values)
        for key in ("number", "ema_number"):
            value = str(getattr(row, key)) if row is not None else values.get(key, "")
            if not value:
                continue
            earlier = first_line.setdefault((key, value), line)
            if earlier != line:
                row_errors.append(RowError(line, LABELS[key], f"{value} is already on line {earlier}", "duplicate",
                                           (("value", value), ("earlier", str(earlier)))))
        errors.extend(row_errors)
        if row is not None and not row_errors:
            rows.append(row)
    if errors:
        raise RosterError(errors)
    if not rows:
        raise RosterError([RowError(2, None, "the file has a header but no players", "no_players")])
    return rows


def _columns(header: list[str]) -> tuple[dict[int, str], list[RowError]]:
    columns: dict[int, str] = {}
    errors = []
    for i, cell in enumerate(header):
        name = re.sub(r"[\s_]+", " ", cell.strip().lower())
        key = COLUMNS.get(name)
        if key is None:
            errors.append(RowError(1, None, f"unknown column {cell.strip()!r} (known: {', '.join(LABELS.values())})",
                                   "unknown_column", (("column", cell.strip()), ("known", ", ".join(LABELS.values())))))
        elif key in columns.values():
            errors.append(RowError(1, None, f"column {LABELS[key]!r} appears twice", "column_twice",
                                   (("column", LABELS[key]),)))
        else:
            columns[i] = key
    for key in REQUIRED:
        if key not in columns.values():
            errors.append(RowError(1, None, f"the header lacks the {LABELS[key]!r} column", "missing_column",
                                   (("column", LABELS[key]),)))
    return columns, errors


def _row(line: int, values: dict[str, str]) -> tuple[RosterRow | None, list[RowError]]:
    errors: list[RowError] = []

    def bad(key: str, message: str, code: str, **named: object) -> None:
        errors.append(RowError(line, LABELS[key], message, code, tuple((k, str(v)) for k, v in named.items())))

    raw = values.get("number", "")
    number = EVENT_NUMBER.read(raw)
    if number is None:
        if raw:
            shown = raw if len(raw) <= 20 else raw[:17] + "..."
            bad("number", f"{shown!r} is not a whole number from 1 to {EVENT_NUMBER.hi:,}", "not_event_number",
                value=shown, most=f"{EVENT_NUMBER.hi:,}")
        else:
            bad("number", "is empty", "empty_cell")
    for key in ("first_name", "last_name"):
        if not values.get(key):
            bad(key, "is empty", "empty_cell")
    for key, limit in LIMITS.items():
        if len(values.get(key, "")) > limit:
            bad(key, f"is longer than {limit} characters", "too_long", limit=limit)
    ema = values.get("ema_number", "")
    if ema and not (ema.isascii() and ema.isdigit()):
        bad("ema_number", f"{ema!r} is not an EMA number (digits only)", "not_ema", value=ema)
    country = values.get("country", "").upper()
    if country and country not in COUNTRIES:
        bad("country", f"{values['country']!r} is not an ISO 3166 country code (two letters, e.g. NL, JP)", "not_country",
            value=values["country"])
    sub = values.get("substitute", "").lower()
    if sub not in YES | NO:
        bad("substitute", f"{values['substitute']!r} is not yes or no", "not_yes_no", value=values["substitute"])
    if errors or number is None:
        return None, errors
    return RosterRow(
        line=line, number=number, first_name=values["first_name"], last_name=values["last_name"], ema_number=ema,
        country=country, club=values.get("club", ""), team=values.get("team", ""), is_substitute=sub in YES,
    ), errors
