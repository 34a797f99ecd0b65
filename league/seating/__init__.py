"""The seating engine: who sits where, round by round. Pure Python, never imports Django.

Three modes, each returning its rounds (tables of four in wind order East,
South, West, North, or with ``table_size=3`` tables of three East, South, West
for three-player mahjong) with their quality:

- ``pregenerate(players, rounds, seed=..., iterations=...)``: all rounds at once,
  the fewest repeat meetings, winds balanced to a spread of at most 1;
- ``swiss_round(standings, history)``: the next round, leaders together;
- ``read_prescripted(csv_text, players)``: a director's own seating, checked.

Players are any hashable ids (a count ``N`` means 1..N). See docs/seating.md.
"""

from league.seating.designs import perfect_rounds
from league.seating.physical import place_tables
from league.seating.pregenerated import DEFAULT_ITERATIONS, pregenerate
from league.seating.prescripted import HEADER, PrescriptedError, read_prescripted
from league.seating.schedule import (
    TABLE_SIZES,
    WINDS,
    Quality,
    Repeat,
    Round,
    Seating,
    SeatingError,
    Table,
    assess,
    check_rounds,
    lower_bound,
    meeting_histogram,
    repeats,
    same_table_consecutive,
    wind_counts,
    wind_spread,
    winds_for,
)
from league.seating.swiss import SwissRound, swiss_round
from league.seating.winds import balance_winds, rebalance_winds, seat_winds

__all__ = [
    "DEFAULT_ITERATIONS",
    "HEADER",
    "TABLE_SIZES",
    "WINDS",
    "PrescriptedError",
    "Quality",
    "Repeat",
    "Round",
    "Seating",
    "SeatingError",
    "SwissRound",
    "Table",
    "assess",
    "balance_winds",
    "check_rounds",
    "lower_bound",
    "meeting_histogram",
    "perfect_rounds",
    "place_tables",
    "pregenerate",
    "read_prescripted",
    "rebalance_winds",
    "repeats",
    "same_table_consecutive",
    "seat_winds",
    "swiss_round",
    "wind_counts",
    "wind_spread",
    "winds_for",
]
