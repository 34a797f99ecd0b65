"""The refusals every service raises, and a read model that refuses a question
(the EMA results of a three-player event): ``ServiceError`` names the input at
fault, ``Conflict`` says the caller's view of the game is out of date."""

from __future__ import annotations

from league.entry.hand import caller_field
from league.entry.translation import refusal_of
from league.entry.words import stored_refusal
from scoring.errors import CodedError, ScoringError


class ServiceError(CodedError):
    """A change refused; nothing was saved. ``field`` names the input at fault."""

    @classmethod
    def from_scoring(cls, err: ScoringError, *, hand_index: int | None = None) -> ServiceError:
        """Name the field from the caller's side: a hand being entered is
        ``outcome.loser``, any other hand of the game ``hands[5].outcome``."""
        field, message = caller_field(err, hand_index)
        return cls(err.code, message, field=field, detail=err.detail)


class StoredHandRefused(ServiceError):
    """A stored hand the engine now refuses (its rules changed in code, its row
    in the database): nothing can be played on from it until it is corrected
    or undone. ``number`` is that hand; ``reason_code``, ``reason`` and
    ``reason_detail`` the engine's refusal of it."""

    def __init__(self, number: int, reason_code: str, reason: str, reason_detail: str | None = None) -> None:
        super().__init__("stored_hand_refused", f"hand {number} cannot be replayed: {reason}",
                         field=f"hands[{number - 1}]")
        self.number, self.reason_code, self.reason = number, reason_code, reason
        self.reason_detail = reason_detail


@refusal_of.register(StoredHandRefused)
def _stored_hand_words(err: StoredHandRefused) -> str:
    # Not its own code and message: the hand, with the engine's reason in the reader's words.
    return stored_refusal(err.number, err.reason_code, err.reason, err.reason_detail)


class BadInput(ServiceError):
    """The request itself is malformed (a field no form of ours sends in that
    shape), not a refusal of the hand: the caller answers 400."""


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
