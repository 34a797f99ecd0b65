"""The EMA results file and the MERS preview of a finished tournament.

The file follows the column order mahjong-portal's "Export to EMA" writes
(reference tournaments.md section 3.1); the values Tenbou writes where the
reference names none, and who counts in "Number of participants": docs/director.md,
"The EMA results file, column by column". Every MERS rule comes from
``league.ratings.mers``. Computations here are plain Python; the CSV goes
through ``league.exports`` (UTF-8 BOM, formula-safe text) and the Excel file
through openpyxl.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from league.csv_cells import csv_chunks, points
from league.ratings import mers
from league.ratings.mers import countries_part, countries_part_2018, players_part, shared_places

__all__ = ["countries_part", "countries_part_2018", "players_part", "shared_places"]  # the preview reads them here

HEADER = [
    "Tournament name", "Number of participants", "Place", "Player's first name", "Player's last name",
    "EMA number", "Table points", "Score", "EMA member", "Country", "Date", "Countrycourt", "city", "mers",
    "shortname", "rules", "period", "NbDays", "Extra",
]
MAX_SUBSTITUTES_COUNTED = mers.MAX_SUBSTITUTES_COUNTED


@dataclass(frozen=True)
class EmaPlayer:
    place: int
    first_name: str
    last_name: str
    ema_number: str
    country: str
    total: int  # thousandths
    player_id: int = 0  # the Player, for pages that mark rows with it


@dataclass(frozen=True)
class EmaEvent:
    name: str
    shortname: str
    first_day: datetime.date
    last_day: datetime.date
    days: int
    city: str
    host_country: str
    substitutes: int  # substitutes who played
    qualification: bool


@dataclass(frozen=True)
class Weight:
    """The MERS tournament weight and its parts, in halves of a point."""

    days: Fraction
    players: Fraction
    countries: Fraction
    qualification: Fraction
    player_count: int  # ranked players + substitutes counted (at most 3)
    country_count: int
    countries_2018: Fraction  # the older page's country part

    @property
    def total(self) -> Fraction:
        return self.days + self.players + self.countries + self.qualification

    @property
    def pages_disagree(self) -> bool:
        return self.countries != self.countries_2018


def half(value: Fraction) -> str:
    """A weight as the EMA writes it.

    >>> half(Fraction(5, 2)), half(Fraction(3))
    ('2.5', '3')
    """
    return str(value.numerator // value.denominator) if value.denominator == 1 else f"{float(value):g}"


def weight(event: EmaEvent, players: Sequence[EmaPlayer]) -> Weight:
    count = len(players) + min(event.substitutes, MAX_SUBSTITUTES_COUNTED)
    countries = len({p.country for p in players if p.country})
    return Weight(
        days=mers.days_part(event.days), players=players_part(count), countries=countries_part(countries),
        qualification=Fraction(1 if event.qualification else 0), player_count=count, country_count=countries,
        countries_2018=countries_part_2018(countries),
    )


def base_ranks(places: Sequence[int], participants: int | None = None) -> list[int]:
    """The preview's base ranks: ``league.ratings.mers.base_ranks`` with tied
    players sharing the average of the places they cover (the EMA's own
    ranking gives them the best place; the ratings use that).

    >>> base_ranks([1, 2, 3, 4])
    [1000, 667, 333, 0]
    >>> base_ranks([1, 2, 3, 3, 5])
    [1000, 750, 375, 375, 0]
    >>> base_ranks([1, 2, 3, 4], participants=5)  # a substitute played: N = 5
    [1000, 750, 500, 250]
    """
    return mers.base_ranks(places, participants, ties="average")


def missing(players: Sequence[EmaPlayer]) -> list[tuple[EmaPlayer, list[str]]]:
    """Players the EMA will ask about: no EMA number, or no country."""
    out = []
    for p in players:
        lacks = [what for what, value in (("EMA number", p.ema_number), ("country", p.country)) if not value]
        if lacks:
            out.append((p, lacks))
    return out


def rows(event: EmaEvent, players: Sequence[EmaPlayer]) -> Iterator[list[object]]:
    """The header, then one row per player in place order."""
    w = weight(event, players)
    period = f"{event.first_day:%d.%m.%Y}-{event.last_day:%d.%m.%Y}"
    yield list(HEADER)
    for p in players:
        yield [
            event.name, w.player_count, p.place, p.first_name, p.last_name.upper(), p.ema_number, 1, points(p.total),
            "YES" if p.ema_number else "NO", p.country, f"{event.first_day:%d.%m.%Y}", event.host_country, event.city,
            half(w.total), event.shortname, "Riichi", period, w.days.numerator, "NO",
        ]


def csv_bytes(event: EmaEvent, players: Sequence[EmaPlayer]) -> bytes:
    return "".join(csv_chunks(rows(event, players))).encode("utf-8")


def xlsx_bytes(event: EmaEvent, players: Sequence[EmaPlayer]) -> bytes:
    """The same rows as an Excel sheet: numbers as numbers, text as text (never a formula)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "EMA results"
    for row in rows(event, players):
        cells = []
        for value in row:
            if hasattr(value, "as_integer_ratio") and not isinstance(value, (int, float)):  # a Decimal score
                value = int(value) if value == value.to_integral_value() else float(value)
            cells.append(value)
        sheet.append(cells)
        for c in sheet[sheet.max_row]:
            if isinstance(c.value, str):
                c.data_type = "s"  # a name starting with "=" stays a name
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
