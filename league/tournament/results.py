"""The result a registered player gets for a seat a substitute played.

The one place this rule lives. The scoring engine has the same rule as
``Ruleset.replacement_result`` with ``replacement_score`` and ``replacement_uma``
(issue #17), settling a seat marked in ``GameRecord.replacements``; a test
checks that both give the same figure. The league keeps the seat's real
result on the game (the substitute's own record) and applies the rule to
the registered player here, which the engine cannot do, and adds a third
option, "not counted":

- ``real``: the seat's real result counts as the registered player's;
- ``not_counted``: the game is left out of the registered player's record;
- ``fixed``: a fixed score and a fixed uma, whatever the table did, plus any
  penalty the seat was given (EMA, as Pantheon applies it: -15.0 and -15.0,
  so -30.0 for each game).

All values are thousandths of a point.

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
