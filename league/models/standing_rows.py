"""The standings as values: a player's row (totals, places, rank, tie) and
the ranked and unranked rows of a table. Pure values, no query: the seats
build them (``SeatQuerySet.standings``) and ``league.standings`` reads them.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from league.collation import name_key
from scoring.standings import rank_with_ties


@dataclass(frozen=True)
class StandingRow:
    player_id: int
    name: str
    games: int
    total: int  # thousandths of a point
    place_sum: int
    score_sum: int
    best: int
    worst: int
    places: tuple[int, int, int, int]  # how many 1st, 2nd, 3rd, 4th
    rank: int | None = None  # None for players under the series' minimum
    tied: bool = False  # the rank is shared ("=2")
    separated_by: str | None = None  # the tie-break that put this row below the one above (league.tiebreaks)
    games_sum: int | None = None  # an event with a cut: the plain sum of every game, shown apart, never ranking
    stage: str = ""  # an event with a cut: the stage whose standings placed the row

    @classmethod
    def from_values(cls, r: dict[str, Any]) -> StandingRow:
        return cls(
            player_id=r["player_id"], name=r["player__name"], games=r["games"], total=r["total"],
            place_sum=r["place_sum"], score_sum=r["score_sum"], best=r["best"], worst=r["worst"],
            places=(r["places_1"], r["places_2"], r["places_3"], r["places_4"]),
        )

    @property
    def average_points(self) -> int:
        """Thousandths, rounded half away from zero."""
        return div_round(self.total, self.games)

    @property
    def average_place(self) -> float:
        # Over the games with a place of their own (a substituted seat has none).
        placed = sum(self.places)
        return self.place_sum / placed if placed else 0.0

    @property
    def average_score(self) -> int:
        return div_round(self.score_sum, self.games)


def div_round(n: int, d: int) -> int:
    """``n / d`` rounded to an integer, halves away from zero: ``div_round(-5, 2) == -3``."""
    q, r = divmod(abs(n), d)
    q += 2 * r >= d
    return q if n >= 0 else -q


@dataclass(frozen=True)
class Standings:
    ranked: tuple[StandingRow, ...]
    unranked: tuple[StandingRow, ...]  # under the minimum number of games, listed apart

    @classmethod
    def build(cls, rows: Iterable[StandingRow], *, min_games: int = 0) -> Standings:
        # Total points decide; equal totals share a rank. The name only fixes
        # the display order of a tie.
        ordered = sorted(rows, key=lambda r: (-r.total, name_key(r.name)))
        above = [r for r in ordered if r.games >= min_games]
        below = [r for r in ordered if r.games < min_games]
        ranks = rank_with_ties([r.total for r in above])
        shared = {k for k, n in Counter(ranks).items() if n > 1}
        ranked = tuple(_with_rank(r, k, k in shared) for r, k in zip(above, ranks, strict=True))
        return cls(ranked=ranked, unranked=tuple(below))

    def by_player(self) -> dict[int, StandingRow]:
        return {r.player_id: r for r in (*self.ranked, *self.unranked)}


def _with_rank(row: StandingRow, rank: int, tied: bool) -> StandingRow:
    return dataclasses.replace(row, rank=rank, tied=tied)
