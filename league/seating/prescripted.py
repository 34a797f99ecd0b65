"""Prescripted seating: rounds and tables read from a CSV the director wrote.

Header ``round,table,east,south,west,north`` (no ``north`` with ``table_size=3``),
one table per line, lines in any order. Every round seats every player once at
tables 1 to N/k; a cell is matched through a ``{cell text: id}`` mapping or
against ``str(id)``. Every problem is raised at once in one ``PrescriptedError``
(each naming line and column; the header is line 1). Winds stay as written
unless ``balance`` asks for ``winds``' König assignment. docs/seating.md.

>>> text = "round,table,east,south,west,north\\n1,1,1,2,3,4\\n2,1,1,2,3,5\\n"
>>> read_prescripted(text, [1, 2, 3, 4])
Traceback (most recent call last):
...
league.seating.prescripted.PrescriptedError: line 3, north: unknown player '5'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from league.seating.schedule import (
    TABLE_SIZE,
    WINDS,
    Seating,
    SeatingError,
    assess,
    check_players,
    check_table_size,
    winds_for,
)
from league.seating.winds import balance_winds

HEADER = ("round", "table", *WINDS)


class PrescriptedError(SeatingError):
    """Every problem found in a prescripted CSV, in line order."""

    def __init__(self, errors: Sequence[SeatingError]) -> None:
        self.errors = tuple(errors)
        text = "; ".join(_describe(e) for e in self.errors)
        super().__init__("invalid_prescripted_seating", text, field="csv")


def _describe(e: SeatingError) -> str:
    where = ", ".join(x for x in (f"line {e.line}" if e.line else "", e.field or "") if x)
    return f"{where}: {e.message}" if e.line else e.message


def read_prescripted(text: str, players: Sequence[Any] | Mapping[str, Any], *, balance: bool = False,
                     table_size: int = TABLE_SIZE) -> Seating:
    """The seating a CSV describes, checked; ``balance`` reseats the winds.

    ``table_size`` 3 reads tables of three (header ``round,table,east,south,west``).
    """
    size = check_table_size(table_size)
    winds = winds_for(size)
    header = ("round", "table", *winds)
    lookup = dict(players) if isinstance(players, Mapping) else {str(p): p for p in players}
    everyone = list(lookup.values())
    check_players(everyone, table_size=size)
    errors: list[SeatingError] = []
    rows: dict[int, dict[int, tuple[int, tuple[Any, ...]]]] = {}  # round -> table -> (line, players)
    seen: dict[tuple[int, Any], int] = {}  # (round, player) -> line
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    header_done = False
    broken: set[int] = set()
    for line_no, row in enumerate(reader, start=1):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if not header_done:
            header_done = True
            if tuple(c.lower() for c in cells) != header:
                errors.append(SeatingError("invalid_header", f"the header must be {','.join(header)}", line=line_no,
                                           field="header"))
                break
            continue
        parsed = _read_row(line_no, cells, lookup, errors, winds)
        if parsed is None:
            # Its round is not checked for completeness: the line's own error says it all.
            if cells[0].isdigit():
                broken.add(int(cells[0]))
            continue
        number, table, seated = parsed
        tables = rows.setdefault(number, {})
        if table in tables:
            errors.append(SeatingError("duplicate_table", f"round {number} table {table} is already on line "
                                       f"{tables[table][0]}", line=line_no, field="table"))
            continue
        for wind, p in zip(winds, seated, strict=True):
            if (number, p) in seen:
                errors.append(SeatingError("duplicate_player", f"player {_cell(p)} already sits in round {number} "
                                           f"(line {seen[number, p]})", line=line_no, field=wind))
            seen[number, p] = line_no
        tables[table] = (line_no, seated)
    if not header_done:
        errors.append(SeatingError("empty_file", "the file has no header and no tables", line=1, field="header"))
    if errors and (errors[0].code in ("invalid_header", "empty_file")):
        raise PrescriptedError(errors)
    errors.extend(_check_complete(rows, everyone, broken, size))
    if errors:
        raise PrescriptedError(sorted(errors, key=lambda e: (e.line or 10**9)))
    groups = [[rows[r][t][1] for t in sorted(rows[r])] for r in sorted(rows)]
    rounds = balance_winds(groups) if balance else tuple(tuple(r) for r in groups)
    return Seating(rounds=rounds, quality=assess(rounds, len(everyone), None, size))  # type: ignore[arg-type]


def _read_row(line_no: int, cells: list[str], lookup: dict[str, Any],
              errors: list[SeatingError], winds: tuple[str, ...] = WINDS) -> tuple[int, int, tuple[Any, ...]] | None:
    """(round, table, players) of one line, or None after recording what is wrong with it."""
    if len(cells) != 2 + len(winds):
        errors.append(SeatingError("wrong_table_size", f"a table needs {len(winds)} players ({', '.join(winds)}), "
                                   f"this line has {max(0, len(cells) - 2)}", line=line_no, field="table"))
        return None
    ok = True
    numbers = []
    for name, cell in zip(("round", "table"), cells, strict=False):
        if not cell.isdigit() or int(cell) < 1:
            errors.append(SeatingError(f"invalid_{name}", f"{name} must be a whole number from 1, not {cell!r}",
                                       line=line_no, field=name))
            ok = False
        else:
            numbers.append(int(cell))
    seated = []
    for wind, cell in zip(winds, cells[2:], strict=True):
        if not cell:
            errors.append(SeatingError("missing_player", f"no player in the {wind} seat", line=line_no, field=wind))
            ok = False
        elif cell not in lookup:
            errors.append(SeatingError("unknown_player", f"unknown player {cell!r}", line=line_no, field=wind))
            ok = False
        else:
            seated.append(lookup[cell])
    if not ok:
        return None
    return numbers[0], numbers[1], tuple(seated)


def _check_complete(rows: dict[int, dict[int, tuple[int, tuple[Any, ...]]]], everyone: list[Any],
                    broken: set[int], size: int = TABLE_SIZE) -> list[SeatingError]:
    """Rounds 1..R each with tables 1..N/k seating everyone (``broken`` rounds, with a bad line, aside)."""
    errors = []
    n_tables = len(everyone) // size
    for number in range(1, max(rows.keys() | broken, default=0) + 1):
        if number in broken:
            continue
        if number not in rows:
            errors.append(SeatingError("missing_round", f"round {number} has no tables", field="round"))
            continue
        tables = rows[number]
        first_line = min(line for line, _ in tables.values())
        extra = sorted(t for t in tables if t > n_tables)
        if extra:
            for t in extra:
                errors.append(SeatingError("too_many_tables", f"round {number} has table {t}, but {len(everyone)} "
                                           f"players sit at {n_tables} tables", line=tables[t][0], field="table"))
        seated = {p for _, ps in tables.values() for p in ps}
        missing = [p for p in everyone if p not in seated]
        if missing:
            errors.append(SeatingError("missing_player", f"round {number} leaves out "
                                       f"{', '.join(_cell(p) for p in missing)}", line=first_line, field="round"))
    if not rows and not broken:
        errors.append(SeatingError("empty_file", "the file has a header but no tables", line=1, field="round"))
    return errors


def _cell(p: Any) -> str:
    return str(p)
