"""What ties a save to the price the scorer saw: the hand's digest.

The server's preview and the phone's offline engine (``league.entry.phone``)
compute it with this one function, so a hand kept on the phone is saved with
one request: its ``checked`` is the phone's own digest (docs/entry.md).
"""

from __future__ import annotations

import hashlib
import json

from scoring import game as sg


def hand_digest(hand: sg.HandInput) -> str:
    """The first 16 hex digits of the sha256 of the hand as ``scoring`` writes it
    (keys sorted): a changed hand has another digest, so it needs a new look."""
    text = json.dumps(sg.hand_to_dict(hand), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read_seen(value: str | None) -> tuple[int, ...] | None:
    """The payments a phone says the scorer saw (``seen``: the seats' deltas as
    whole points, space-separated, as the preview's ``data-deltas``), or None
    when absent or not that shape."""
    if not value:
        return None
    parts = value.split()
    try:
        return tuple(int(p) for p in parts)
    except ValueError:
        return None
