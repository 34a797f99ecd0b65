"""Ratings across series and events: pure engines over an ordered list of results.

No Django here (tests/test_import_graph.py holds it to that). Each engine maps
results in the order played to an ``Outcome``: every step a player took (before,
after, and the line saying how it was computed) and every final value, in
integer thousandths (1512.345 is 1512345): ``tenhou.tenhou_r`` (Tenhou's R, per
game), ``skill.plackett_luce`` (openskill's Plackett-Luce), ``mers.mers_ranking``
(the EMA's ranking over events). The league reads stored results into these
(league/standings/ratings.py) and caches what they return; nothing here is
stored or edited by hand. docs/ratings.md.
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
