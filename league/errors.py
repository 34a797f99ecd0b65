"""The refusals every service raises, and a read model that refuses a question
(the EMA results of a three-player event): ``ServiceError`` names the input at
fault, ``Conflict`` says the caller's view of the game is out of date."""

from __future__ import annotations

from league.entry.hand import caller_field
from scoring.errors import CodedError, ScoringError


class ServiceError(CodedError):
    """A change refused; nothing was saved. ``field`` names the input at fault."""

    @classmethod
    def from_scoring(cls, err: ScoringError, *, hand_index: int | None = None) -> ServiceError:
        """Name the field from the caller's side: a hand being entered is
        ``outcome.loser``, any other hand of the game ``hands[5].outcome``."""
        field, message = caller_field(err, hand_index)
        return cls(err.code, message, field=field)


class Conflict(ServiceError):
    """The game moved on since the caller looked (say, another scorer entered the hand)."""


class AlreadySaved(ServiceError):
    """This very entry (same key, same content) was saved before: nothing was
    saved again. ``number`` is the hand it saved (or undid)."""

    def __init__(self, message: str, *, number: int | None) -> None:
        super().__init__("already_saved", message, field="key")
        self.number = number


class PriceDiffers(ServiceError):
    """A save that carried the payments the scorer saw (``seen``) prices
    otherwise on the server: nothing was saved. ``theirs`` is the server's
    deltas, seat by seat."""

    def __init__(self, theirs: list[int]) -> None:
        super().__init__("price_differs", "the server prices this hand differently", field="seen")
        self.theirs = theirs
