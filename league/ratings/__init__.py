"""Ratings across series and events: pure engines over an ordered list of results.

No Django here (tests/test_import_graph.py holds it to that). Each engine is
a function from results in the order they were played to a ``Outcome``: every
step a player took (before, after, and the line that says how it was
computed, with its numbers) and every player's final value. Values are
integers in thousandths (a Tenhou R of 1512.345 is 1512345), formatted only
at the edge, as points are.

- ``tenhou.tenhou_r``: Tenhou's R, per game (tenhou.net/man, "Rating").
- ``skill.plackett_luce``: a skill estimate, openskill's Plackett-Luce model.
- ``mers.mers_ranking``: the EMA's player ranking over events (MERS).

The league reads stored results into these inputs (league/standings/ratings.py)
and caches what they return; nothing here is stored or edited by hand.
"""

from league.ratings.common import (
    EventPlace,
    EventResult,
    GameResult,
    Outcome,
    PlayerRating,
    SeatResult,
    Step,
    SubstituteRule,
    milli,
)

__all__ = [
    "EventPlace", "EventResult", "GameResult", "Outcome", "PlayerRating", "SeatResult", "Step", "SubstituteRule",
    "milli",
]
