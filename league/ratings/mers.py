"""The EMA's player ranking over events (MERS), and its parts: base ranks, an
event's weight, a result's age, the ranking on a day.

Source: EMA "Basics for ranking system" (mahjong-europe.org/ranking/Basicsranking.html,
the newer page) and mahjong-portal's ``rating/calculation/ema.py`` and ``rr.py``,
as reference tournaments.md section 3 quotes them. The one place these rules
live (``league.ema`` uses them too); each rule, the ties and the 2018 page's
difference: docs/ratings.md, "EMA ranking".

Worked (the issue's figures): 2nd of 32 is 1000 * 30 / 31 = 967.7 -> 968;
5th of 32 is 1000 * 27 / 31 = 870.97 -> 871.

>>> base_ranks([2, 5], participants=32)
[968, 871]
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

from league.ratings.common import EventResult, Outcome, Step, final_table, gettext_noop, milli, round_half_away

MAX_SUBSTITUTES_COUNTED = 3
PART_A_MIN = 5  # results, zero-filled
PART_B = 4  # best results
FILLER_WEIGHT = Fraction(1)

HOW = gettext_noop("{event}: place {place} of {participants}, base rank {base}; weight {weight} x age {age}; "
                   "part A (best {part_a_count}, filled to 5) = {part_a}, part B (best 4) = {part_b}; "
                   "ranking (A + B) / 2 = {after}")
HOW_UNRANKED = gettext_noop("{event}: place {place} of {participants}, base rank {base}; weight {weight} x age {age}; "
                            "not ranked yet: two results of non-zero weight are needed")


def shared_places(places: Sequence[int]) -> list[Fraction]:
    """Each player's place under ``ties="average"``: the average of the places the tie covers.

    >>> [str(p) for p in shared_places([1, 2, 3, 3, 5])]
    ['1', '2', '7/2', '7/2', '5']
    """
    return [p + Fraction(places.count(p) - 1, 2) for p in places]


def base_rank(place: Fraction | int, participants: int) -> int:
    """1000 * (N - place) / (N - 1), rounded half away from zero.

    >>> base_rank(1, 32), base_rank(2, 32), base_rank(5, 32), base_rank(32, 32)
    (1000, 968, 871, 0)
    """
    if participants < 2:
        return 1000
    return round_half_away(Fraction(1000) * (participants - Fraction(place)) / (participants - 1))


def base_ranks(places: Sequence[int], participants: int | None = None, *, ties: str = "best") -> list[int]:
    """The base rank of each place, for N = ``participants`` (None: len(places)).

    >>> base_ranks([1, 2, 3, 4])
    [1000, 667, 333, 0]
    >>> base_ranks([1, 2, 3, 3, 5])               # the EMA: a tie takes the best place
    [1000, 750, 500, 500, 0]
    >>> base_ranks([1, 2, 3, 3, 5], ties="average")
    [1000, 750, 375, 375, 0]
    >>> base_ranks([1, 2, 3, 4], participants=5)  # a substitute played: N = 5
    [1000, 750, 500, 250]
    """
    if ties not in ("best", "average"):
        raise ValueError(f"ties: {ties!r} is not 'best' or 'average'")
    n = len(places) if participants is None else participants
    shown = shared_places(places) if ties == "average" else list(places)
    return [base_rank(p, n) for p in shown]


def days_part(days: int) -> Fraction:
    """1, 2 or 3 days; more count as 3.

    >>> [str(days_part(n)) for n in (0, 1, 2, 3, 4)]
    ['1', '1', '2', '3', '3']
    """
    return Fraction(min(max(days, 1), 3))


def players_part(count: int) -> Fraction:
    """40 or fewer 0, 41-80 0.5, over 80 1.

    >>> [str(players_part(n)) for n in (40, 41, 80, 81)]
    ['0', '1/2', '1/2', '1']
    """
    return Fraction(0) if count <= 40 else Fraction(1, 2) if count <= 80 else Fraction(1)


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


def event_weight(*, days: int, participants: int, countries: int, qualification: bool) -> Fraction:
    """TOTAL_MERS = days + players + countries + qualification (the newer page).

    >>> str(event_weight(days=3, participants=90, countries=12, qualification=True))
    '6'
    """
    return days_part(days) + players_part(participants) + countries_part(countries) + int(qualification)


def one_year_before(day: datetime.date, years: int = 1) -> datetime.date:
    """The same day ``years`` earlier; 29 February goes to the 28th.

    >>> one_year_before(datetime.date(2024, 2, 29))
    datetime.date(2023, 2, 28)
    """
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)


def age_factor(event_day: datetime.date, on: datetime.date) -> Fraction:
    """1 within 12 months of ``on``, 1/2 within 24, then 0.

    >>> d = datetime.date(2025, 6, 1)
    >>> [str(age_factor(e, d)) for e in (datetime.date(2024, 6, 1), datetime.date(2024, 5, 31),
    ...                                  datetime.date(2023, 6, 1), datetime.date(2023, 5, 31))]
    ['1', '1/2', '1/2', '0']
    """
    if event_day >= one_year_before(on):
        return Fraction(1)
    if event_day >= one_year_before(on, 2):
        return Fraction(1, 2)
    return Fraction(0)


def part_a_count(results: int) -> int:
    """How many results part A averages: 5 + ceil(0.8 * (results - 5)).

    >>> [part_a_count(n) for n in (1, 5, 6, 10, 11)]
    [5, 5, 6, 9, 10]
    """
    return PART_A_MIN + math.ceil(Fraction(4, 5) * max(results - PART_A_MIN, 0))


def _weighted(pairs: Sequence[tuple[int, Fraction]]) -> Fraction:
    return sum((Fraction(b) * w for b, w in pairs), Fraction(0)) / sum(w for _, w in pairs)


def ranking(results: Iterable[tuple[int, Fraction]]) -> tuple[Fraction, Fraction, int] | None:
    """(part A, part B, results in part A) of (base rank, aged weight) pairs; None under two results.

    Two results, 968 and 871 at weight 1: filled with three zeros,
    A = (968 + 871) / 5 = 367.8, B = (968 + 871) / 4 = 459.75.

    >>> a, b, n = ranking([(968, Fraction(1)), (871, Fraction(1))])
    >>> str(a), str(b), n, str((a + b) / 2)
    ('1839/5', '1839/4', 5, '16551/40')
    """
    real = [(b, w) for b, w in results if w > 0]
    if len(real) < 2:
        return None
    count = part_a_count(len(real))
    best = sorted(real, key=lambda bw: (-bw[0], -bw[1]))
    best += [(0, FILLER_WEIGHT)] * max(PART_A_MIN - len(best), 0)
    return _weighted(best[:count]), _weighted(best[:PART_B]), count


def _number(value: Fraction) -> str:
    return milli(round_half_away(value * 1000))


def mers_ranking(events: Iterable[EventResult], *, ties: str = "best", on: datetime.date | None = None) -> Outcome:
    """Each placed player's ranking after each event (reckoned on its last day), in the order given;
    a step's ``before`` is the player's ranking after their previous event. The final values are
    reckoned ``on`` that day (default: the last event's)."""
    seen: dict[int, list[tuple[EventResult, Fraction, int]]] = {}
    previous: dict[int, int | None] = {}
    steps = []
    events = list(events)
    for event in events:
        weight = event_weight(days=event.days, participants=event.participants, countries=event.countries,
                              qualification=event.qualification)
        places = [p.place for p in event.places]
        for entry, base in zip(event.places, base_ranks(places, event.participants, ties=ties), strict=True):
            history = seen.setdefault(entry.player, [])
            history.append((event, weight, base))
            found = _ranking(history, event.day)
            numbers = [("event", event.key), ("place", str(entry.place)), ("participants", str(event.participants)),
                       ("base", str(base)), ("weight", _number(weight)), ("age", "1")]
            before = previous.get(entry.player)
            if found is None:
                previous[entry.player] = None
                steps.append(Step(entry.player, event.key, event.day, before, None, HOW_UNRANKED, tuple(numbers)))
                continue
            a, b, count = found
            after = round_half_away((a + b) / 2 * 1000)
            previous[entry.player] = after
            numbers += [("part_a_count", str(count)), ("part_a", _number(a)), ("part_b", _number(b)),
                        ("after", milli(after))]
            steps.append(Step(entry.player, event.key, event.day, before, after, HOW, tuple(numbers)))
    day = on or (max(e.day for e in events) if events else datetime.date.min)
    last = {p: (_value(h, day), len(h), max(e.day for e, _, _ in h)) for p, h in seen.items()}
    return Outcome(steps=tuple(steps), players=final_table(last))


def _ranking(history: list[tuple[EventResult, Fraction, int]], on: datetime.date
             ) -> tuple[Fraction, Fraction, int] | None:
    return ranking((base, weight * age_factor(e.day, on)) for e, weight, base in history if e.day <= on)


def _value(history: list[tuple[EventResult, Fraction, int]], on: datetime.date) -> int | None:
    found = _ranking(history, on)
    return None if found is None else round_half_away((found[0] + found[1]) / 2 * 1000)
