"""The one pricer of a hand being entered: the game as stored, the hand as
the scorer gave it, replayed through ``scoring`` with the hand in place.
Pure (no Django, no database): the staff page's preview and save check
(``league.services.entry``) and the phone's offline engine
(``league.entry.phone``) both call :func:`price_hand`.

Refusals are :class:`Refused`, the field named from the caller's side
(``outcome.loser`` for the hand being entered, ``hands[5]`` for another).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from league.entry.hand import caller_field, check_hand_bounds
from league.entry.translation import refusal_of
from league.entry.words import stored_refusal
from scoring import game as sg
from scoring.errors import ScoringError


class Refused(Exception):
    """The hand cannot be priced: ``code``, ``message`` and the ``field`` at fault,
    and the engine's ``detail`` of its code. ``conflict``: the caller's view of
    the game is out of date (not the next hand)."""

    def __init__(self, code: str, message: str, field: str | None = None, *, conflict: bool = False,
                 detail: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.field, self.conflict = code, message, field, conflict
        self.detail = detail


@dataclass(frozen=True)
class Priced:
    """What recording or correcting hand ``number`` would do; nothing saved.

    ``played`` is the hand as replayed (its start state, its result with the
    transfers, the scores after it); ``game`` the whole game with the hand in
    place, so ``game.finished`` says whether the hand ends it; ``before`` the
    game as stored, for a correction.
    """

    number: int
    played: sg.PlayedHand
    game: sg.GameResult
    before: sg.GameResult | None = None

    def later_changes(self) -> list[tuple[int, sg.PlayedHand, sg.PlayedHand | None]]:
        """A correction's later hands whose payments change: (number, as
        stored, as replayed; None when the replay no longer reaches it)."""
        if self.before is None:
            return []
        out = []
        for i, old in enumerate(self.before.hands[self.number :], start=self.number):
            new = self.game.hands[i] if i < len(self.game.hands) else None
            if new is None or new.deltas != old.deltas:
                out.append((i + 1, old, new))
        return out


@dataclass(frozen=True)
class Unreplayable:
    """A stored hand the engine now refuses (a preset's rules changed in code,
    a row changed in the database): its ``number`` and the engine's ``code``,
    ``message`` and ``detail``. What a read of the game shows, and what a new hand's
    preview or save is refused for until the hand is corrected or undone."""

    number: int
    code: str
    message: str
    detail: str | None = None


@refusal_of.register(Unreplayable)
def _unreplayable_words(refused: Unreplayable) -> str:
    return stored_refusal(refused.number, refused.code, refused.message, refused.detail)


class Replayed(NamedTuple):
    """A stored game as replayed: the ``result``, and the hand the engine now
    refuses (``refused``), if any; then ``result`` holds the hands before it."""

    result: sg.GameResult
    refused: Unreplayable | None = None


def replay_stored(record: sg.GameRecord) -> Replayed:
    """The stored game replayed; if the engine refuses one of its hands, the
    hands before that one replayed (without the game's end, which is the
    whole game's) and the refusal. Raises the engine's error when it names
    no hand (the game's own columns)."""
    try:
        return Replayed(sg.replay(record))
    except ScoringError as err:
        field = err.field or ""
        if not field.startswith("hands["):
            raise
        index = int(field[6 : field.index("]")])
        before = sg.GameRecord(record.rules, record.hands[:index], None, record.penalties, None, record.players,
                               record.replacements)
        return Replayed(sg.replay(before), Unreplayable(index + 1, err.code, err.message, err.detail))


def replay_with(record: sg.GameRecord, inputs: Sequence[sg.HandInput], *,
                hand_index: int | None = None, after: sg.GameResult | None = None) -> sg.GameResult:
    """``record`` replayed with ``inputs`` as its hands, each held to the
    database's bounds first; ``after``: the replay of its first hands, gone
    on from (``scoring.game.replay``), whose hands are not held to the
    bounds again (they were stored: they fit). Raises :class:`Refused`."""
    try:
        for i in range(len(after.hands) if after is not None else 0, len(inputs)):
            check_hand_bounds(inputs[i], f"hands[{i}]")
        return sg.replay(dataclasses.replace(record, hands=tuple(inputs)), after=after)
    except ScoringError as err:
        field, message = caller_field(err, hand_index)
        raise Refused(err.code, message, field, detail=err.detail) from None


def not_next(number: int, expected: int) -> Refused:
    return Refused("hand_conflict", f"hand {number} cannot be recorded: the next hand of this game is {expected} "
                   "(has someone else just entered it?)", "number", conflict=True)


def finished(title: str) -> Refused:
    return Refused("game_over", f"{title} is finished; correct or undo a hand to reopen it", "game")


def state_before(replayed: sg.GameResult, number: int) -> sg.TableState:
    """Where the game stood before hand ``number`` (what the hand form reads
    for the tile analysis' winds); past the end, before the last hand, as the
    form still reads what a late scorer typed."""
    if number <= len(replayed.hands):
        return replayed.hands[number - 1].start
    if replayed.next is not None:
        return replayed.next
    return replayed.hands[-1].start if replayed.hands else sg.TableState(0, 0, 0, 0, replayed.scores)


def price_hand(record: sg.GameRecord, hand: sg.HandInput, number: int, *, title: str, is_finished: bool,
               stored: sg.GameResult | None = None) -> Priced:
    """Hand ``number`` (the next one, or one already entered) of the game
    ``record`` (its stored hands in ``record.hands``) given as ``hand``.

    ``is_finished`` is the game's stored status (a finished game takes no new
    hand; ``title`` names it in the refusal); ``stored`` is ``record``
    replayed, when the caller has it (a correction compares with it; a new
    hand is played on from it).
    Raises :class:`Refused`.
    """
    inputs = list(record.hands)
    before = None
    after = None
    if number == len(inputs) + 1:
        if is_finished:
            raise finished(title)
        inputs.append(hand)
        after = stored  # a new hand: the stored hands need not be played again
    elif 1 <= number <= len(inputs):
        before = stored if stored is not None else replay_with(record, list(record.hands))
        inputs[number - 1] = hand
    else:
        raise not_next(number, len(inputs) + 1)
    result = replay_with(record, inputs, hand_index=number - 1, after=after)
    return Priced(number, result.hands[number - 1], result, before)
