"""The EMA results file and the MERS preview of a finished tournament.

The file follows the column order mahjong-portal's "Export to EMA" writes
(reference tournaments.md section 3.1): last names upper-cased, dates
``dd.mm.YYYY``, ``rules`` "Riichi", ``Extra`` "NO", and ``Table points`` "1"
as mahjong-portal writes it (riichi has no table points). Where the
reference names a column but not its value, Tenbou writes: ``EMA member``
YES or NO, ``Country`` the ISO code, ``Countrycourt`` the host country,
``mers`` the tournament weight below, ``shortname`` the series' slug,
``period`` first and last day, ``NbDays`` the days counted for the weight.
``Number of participants`` is the N of the MERS base rank: the players
placed (those with a counted game; a late registration who never played is
not one) plus the substitutes who played, at most 3 ("Substitute players
(maximum 3) are accounted in the calculation of participating players", EMA
"Basics for ranking system", reference tournaments.md section 3.2).
Substitutes themselves are not placed: mahjong-portal leaves them out of the
ratings too (section 5).

MERS (EMA "Basics for ranking system", the newer page): a player's base rank
is 1000 * (N - place) / (N - 1), rounded to a whole number (half up, as
mahjong-portal rounds it for EMA); players sharing a place share the average
of the places they cover (two tied for 3rd of 10 both get place 3.5). The
tournament's weight is days (1, 2, 3 and no more) + players (over 40: 0.5,
over 80: 1; at most 3 substitutes counted) + countries (6 to 9: 0.5, 10 or
more: 1) + 1 when qualification is required. The older 2018 page counts
countries differently (6 to 10: 0.5, over 10: 1): the two disagree for
exactly 10 countries, and the preview says so.

Computations here are plain Python; the CSV goes through ``league.exports``
(UTF-8 BOM, formula-safe text) and the Excel file through openpyxl.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from league.exports import csv_chunks, points

HEADER = [
    "Tournament name", "Number of participants", "Place", "Player's first name", "Player's last name",
    "EMA number", "Table points", "Score", "EMA member", "Country", "Date", "Countrycourt", "city", "mers",
    "shortname", "rules", "period", "NbDays", "Extra",
]
MAX_SUBSTITUTES_COUNTED = 3


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


def countries_part(count: int) -> Fraction:
    """The newer page: 5 or fewer 0, 6-9 0.5, 10 or more 1.

    >>> [str(countries_part(n)) for n in (5, 6, 9, 10, 11)]
    ['0', '1/2', '1/2', '1', '1']
    """
    return Fraction(0) if count <= 5 else Fraction(1, 2) if count <= 9 else Fraction(1)


def countries_part_2018(count: int) -> Fraction:
    """The older 2018 page: 6 <= X <= 10 0.5, X > 10 1.

    >>> [str(countries_part_2018(n)) for n in (5, 6, 10, 11)]
    ['0', '1/2', '1/2', '1']
    """
    return Fraction(0) if count <= 5 else Fraction(1, 2) if count <= 10 else Fraction(1)


def players_part(count: int) -> Fraction:
    """40 or fewer 0, 41-80 0.5, over 80 1.

    >>> [str(players_part(n)) for n in (40, 41, 80, 81)]
    ['0', '1/2', '1/2', '1']
    """
    return Fraction(0) if count <= 40 else Fraction(1, 2) if count <= 80 else Fraction(1)


def weight(event: EmaEvent, players: Sequence[EmaPlayer]) -> Weight:
    count = len(players) + min(event.substitutes, MAX_SUBSTITUTES_COUNTED)
    countries = len({p.country for p in players if p.country})
    return Weight(
        days=Fraction(min(max(event.days, 1), 3)), players=players_part(count), countries=countries_part(countries),
        qualification=Fraction(1 if event.qualification else 0), player_count=count, country_count=countries,
        countries_2018=countries_part_2018(countries),
    )


def shared_places(places: Sequence[int]) -> list[Fraction]:
    """Each player's place for the base rank: tied players share the average of the places they cover.

    >>> [str(p) for p in shared_places([1, 2, 3, 3, 5])]
    ['1', '2', '7/2', '7/2', '5']
    """
    out = []
    for p in places:
        k = places.count(p)
        out.append(p + Fraction(k - 1, 2))
    return out


def base_ranks(places: Sequence[int], participants: int | None = None) -> list[int]:
    """1000 * (N - place) / (N - 1), rounded half up, for N = ``participants``
    (the players placed plus the substitutes counted; None: len(places)).

    >>> base_ranks([1, 2, 3, 4])
    [1000, 667, 333, 0]
    >>> base_ranks([1, 2, 3, 3, 5])
    [1000, 750, 375, 375, 0]
    >>> base_ranks([1, 2, 3, 4], participants=5)  # a substitute played: N = 5
    [1000, 750, 500, 250]
    """
    n = len(places) if participants is None else participants
    if n < 2:
        return [1000] * n
    out = []
    for place in shared_places(places):
        value = Fraction(1000) * (n - place) / (n - 1)
        out.append(int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2)))
    return out


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
