"""The round's clock and what its ending policy says at a table.

When the time is up, the ending policy (Pantheon's two, reference
tournaments.md section 6) decides: ``end_after_hand`` ends the game after the
first hand recorded once time is up (WRC 2015 section 8.2); ``one_more_hand``
after the second; ``none`` leaves it to the ruleset. A chombo is not a hand
played (as in Pantheon); the policy never makes a game longer than the
ruleset would. docs/director.md, "An event day".

>>> verdict(Ending.ONE_MORE_HAND, remaining=0, hands_after=[False]).notice
'Time is up: this is the last hand. The game ends after it.'
>>> verdict(Ending.END_AFTER_HAND, remaining=0, hands_after=[True]).game_over
False
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass


class Ending(enum.StrEnum):
    END_AFTER_HAND = "end_after_hand"
    ONE_MORE_HAND = "one_more_hand"
    NONE = "none"


# How many hands (chombo not counted) are played after time before the game ends.
HANDS_AFTER_TIME = {Ending.END_AFTER_HAND: 1, Ending.ONE_MORE_HAND: 2}


@dataclass(frozen=True)
class Verdict:
    time_up: bool
    remaining: int  # whole seconds left, 0 once time is up
    hands_left: int | None  # hands still to play under the policy; None: not limited
    game_over: bool  # the policy ends the game now
    notice: str  # what the scorer is told


def verdict(ending: Ending | str, *, remaining: float, hands_after: Sequence[bool]) -> Verdict:
    """What the policy says for a table with ``remaining`` seconds on its clock
    (negative once time is up) and, for each hand recorded after time ran out,
    whether it was a chombo."""
    ending = Ending(ending)
    if remaining > 0:
        minutes, seconds = divmod(int(remaining), 60)
        return Verdict(False, int(remaining), None, False, f"{minutes}:{seconds:02d} left in this round.")
    if ending is Ending.NONE:
        return Verdict(True, 0, None, False, "Time is up. This event lets the ruleset end the game: play on.")
    played = sum(1 for chombo in hands_after if not chombo)
    left = max(0, HANDS_AFTER_TIME[ending] - played)
    if left == 0:
        notice = "Time is up and the policy's last hand is played: the game is over (finish it if it is still open)."
    elif left == 1 and ending is Ending.ONE_MORE_HAND and played == 1:
        notice = "Time is up: this is the last hand. The game ends after it."
    elif ending is Ending.ONE_MORE_HAND:
        notice = "Time is up: finish the current hand, then play one more. The game ends after that one."
    else:
        notice = ("Time is up: finish the current hand. The game ends after it. (If the walls were not built or "
                  "the dice not thrown when time ran out, the game ends now: finish it early.)")
    return Verdict(True, 0, left, left == 0, notice)
