"""What the staff pages show before a save: a hand replayed in place without
saving (no lock: the save checks everything again), and its payments in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from league.entry.pricing import Priced, Refused, price_hand
from league.entry.words import describe_entry, describe_payments  # noqa: F401  (the services' names)
from league.models import Game
from league.services.replay import hands_of, parse_hand, refusal, state_digest
from scoring import game as sg

# What a save would do, as the one pricer (league.entry.pricing) gives it.
HandPreview = Priced


def preview_hand(*, game: Game, number: int, hand: sg.HandInput | Mapping[str, Any]) -> HandPreview:
    """Replay ``game`` with ``hand`` as hand ``number`` (the next one, or one
    already entered) and return what would happen, saving nothing.

    Takes no lock: it only reads, and the save checks everything again under
    the lock. Raises the same errors ``record_hand`` and ``correct_hand`` would.
    """
    hand = parse_hand(hand)
    game = Game.objects.get(pk=game.pk)
    inputs = [r.to_input() for r in hands_of(game)]
    try:
        return price_hand(game.record(hands=inputs), hand, number, title=str(game), is_finished=game.is_finished)
    except Refused as err:
        raise refusal(err) from None


def entry_state(game: Game) -> tuple[int, str]:
    """The next hand's number and the digest of the hands stored now: what
    an entry carries to say which state of the game it was built on."""
    rows = hands_of(game)
    return len(rows) + 1, state_digest(rows)
