"""What ties a save to the price the scorer saw: the hand's digest.

The server's preview and the phone's offline engine (``league.entry.phone``)
compute it with this one function, so a hand kept on the phone is saved with
one request: its ``checked`` is the phone's own digest (docs/entry.md).
"""

from __future__ import annotations

import hashlib
import json
import re

from scoring import game as sg


def hand_digest(hand: sg.HandInput) -> str:
    """The first 16 hex digits of the sha256 of the hand as ``scoring`` writes it
    (keys sorted): a changed hand has another digest, so it needs a new look."""
    text = json.dumps(sg.hand_to_dict(hand), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# One seat's payment as the preview's ``data-deltas`` and the queue write it: an
# integer of JavaScript's ``String(n)`` for a payment (no sign but minus, no
# exponent; no payment comes near a billion).
_PAYMENT = re.compile(r"-?[0-9]{1,9}")
SEATS = (3, 4)  # the games there are: sanma and four seats


class BadSeen(ValueError):
    """``seen`` is not the seats' payments: the request is malformed (a
    well-formed ``seen`` that differs from the server's price is not this).
    ``reason`` says why, after the field's name."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"seen {reason}")
        self.reason = reason


def read_seen(value: str | None) -> tuple[int, ...] | None:
    """The payments a phone says the scorer saw (``seen``: the seats' deltas as
    whole points, space-separated, as the preview's ``data-deltas``), or None
    when not posted. Raises ``BadSeen`` when posted in another shape: empty,
    not whole points, or not three or four of them. Another game's number of
    seats is well-formed: a price that differs.

    >>> read_seen("-1000 2000 -500 -500"), read_seen(None)
    ((-1000, 2000, -500, -500), None)
    >>> read_seen("1 x 2 3")
    Traceback (most recent call last):
    ...
    league.entry.digest.BadSeen: seen must be the seats' payments in whole points, separated by spaces
    """
    if value is None:
        return None
    parts = value.split()
    if not parts:
        raise BadSeen("is empty: it must be the seats' payments in whole points, separated by spaces")
    if not all(_PAYMENT.fullmatch(p) for p in parts):
        raise BadSeen("must be the seats' payments in whole points, separated by spaces")
    if len(parts) not in SEATS:
        raise BadSeen(f"must give {SEATS[0]} or {SEATS[1]} payments, one a seat, not {len(parts)}")
    return tuple(int(p) for p in parts)
