"""What the staff pages show before a save: a hand replayed in place without
saving (no lock: the save checks everything again), and its payments in words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from league.entry.words import describe_entry, describe_payments  # noqa: F401  (the services' names)
from league.models import Game
from league.services.replay import check_open, hands_of, not_next, parse_hand, replay_game, state_digest
from scoring import game as sg


@dataclass(frozen=True)
class HandPreview:
    """What recording or correcting hand ``number`` would do; nothing saved.

    ``played`` is the hand as replayed (its start state, its result with the
    transfers, the scores after it); ``game`` the whole game with the hand in
    place, so ``game.finished`` says whether the hand ends it.
    """

    number: int
    played: sg.PlayedHand
    game: sg.GameResult
    before: sg.GameResult | None = None  # the game as stored, for a correction

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


def preview_hand(*, game: Game, number: int, hand: sg.HandInput | Mapping[str, Any]) -> HandPreview:
    """Replay ``game`` with ``hand`` as hand ``number`` (the next one, or one
    already entered) and return what would happen, saving nothing.

    Takes no lock: it only reads, and the save checks everything again under
    the lock. Raises the same errors ``record_hand`` and ``correct_hand`` would.
    """
    hand = parse_hand(hand)
    game = Game.objects.get(pk=game.pk)
    inputs = [r.to_input() for r in hands_of(game)]
    before = None
    if number == len(inputs) + 1:
        check_open(game)
        inputs.append(hand)
    elif 1 <= number <= len(inputs):
        before = replay_game(game, list(inputs))
        inputs[number - 1] = hand
    else:
        raise not_next(number, len(inputs) + 1)
    result = replay_game(game, inputs, hand_index=number - 1)
    return HandPreview(number, result.hands[number - 1], result, before)


def entry_state(game: Game) -> tuple[int, str]:
    """The next hand's number and the digest of the hands stored now: what
    an entry carries to say which state of the game it was built on."""
    rows = hands_of(game)
    return len(rows) + 1, state_digest(rows)
