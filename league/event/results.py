"""The result a registered player gets for a seat a substitute played.

The one place this rule lives (the engine's ``Ruleset.replacement_result`` gives
the same figure, and a test checks it); the game keeps the seat's real result.
``real``: it counts as the registered player's; ``not_counted``: the game is
left out of their record; ``fixed``: a fixed score and uma plus the seat's
penalty (EMA, as Pantheon applies it: -15.0 and -15.0, so -30.0 a game).
Thousandths. docs/ratings.md, "The engines (`league/ratings/`, pure)".

>>> registered_result("fixed", seat_points=41300, penalty=0, fixed_score=-15000, fixed_uma=-15000)
-30000
>>> registered_result("not_counted", seat_points=41300, penalty=0, fixed_score=0, fixed_uma=0) is None
True
"""

from __future__ import annotations

import enum


class SubstituteResult(enum.StrEnum):
    REAL = "real"
    NOT_COUNTED = "not_counted"
    FIXED = "fixed"


def registered_result(
    rule: SubstituteResult | str, *, seat_points: int, penalty: int, fixed_score: int, fixed_uma: int
) -> int | None:
    """The registered player's points for a seat a substitute played; None: not counted."""
    rule = SubstituteResult(rule)
    if rule is SubstituteResult.REAL:
        return seat_points
    if rule is SubstituteResult.NOT_COUNTED:
        return None
    return fixed_score + fixed_uma + penalty
