"""Staff entry forms. Each validates what a scorer typed and hands the views a
``scoring`` value object (``HandForm.hand``); the services then check it
against the game. A refused input comes back on the form: ``add_service_error``
puts a ``ServiceError`` next to the field its ``field`` names.

Seats are named the way staff know them: the wind a player started in, then
the player ("South Bob"), whoever deals now.

One module per form or part: ``base`` (what every staff form shares),
``games`` (start a game, finish it, end scores, penalties), ``hand`` (the hand
form) with ``hand_fields`` (its fields, from the ruleset) and ``hand_value``
(a winner's han, fu and yakuman, from numbers, picked yaku or tiles). Callers
import from this package.
"""

from league.forms.base import SEATS, StaffForm, seat_names
from league.forms.games import FinalScoresForm, FinishForm, PenaltyForm, StartGameForm
from league.forms.hand import HandForm
from league.forms.hand_fields import FLAG_CHOICES, FU_CHOICES, YAKU, yaku_table

__all__ = [
    "FLAG_CHOICES", "FU_CHOICES", "SEATS", "YAKU", "FinalScoresForm", "FinishForm", "HandForm", "PenaltyForm",
    "StaffForm", "StartGameForm", "seat_names", "yaku_table",
]
