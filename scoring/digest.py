"""A short fingerprint of a game's hands so far, so an entry can say which
state of the game it was built on.

Both the phone and the server compute it from the GAME RECORD hands: SHA-256
over a canonical JSON text (keys sorted, no spaces, UTF-8, integers only), the
same on every Python version and in any language that writes JSON the same
way. docs/entry.md, "The protocol".

>>> from scoring.game import Draw, HandInput
>>> hands_digest([])
'4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945'
>>> hands_digest([HandInput(Draw(tenpai=(0,)))]) == hands_digest([{"riichi": [], "outcome": {"type": "draw", "tenpai": [0]}}])
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .game import HandInput, hand_from_dict, hand_to_dict


def canonical_hands(hands: Sequence[HandInput | Mapping[str, Any]]) -> str:
    """The hands as the canonical JSON text the digest is taken over.

    Dicts are read as GAME RECORD hands first, so a dict and the
    ``HandInput`` it stands for give the same text (defaults filled in,
    winners in the engine's order).

    >>> canonical_hands([{"outcome": {"type": "chombo", "offender": 3}}])
    '[{"outcome":{"offender":3,"type":"chombo"},"riichi":[]}]'
    """
    parsed = [h if isinstance(h, HandInput) else hand_from_dict(h, f"hands[{i}]") for i, h in enumerate(hands)]
    return json.dumps([hand_to_dict(h) for h in parsed], sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def hands_digest(hands: Sequence[HandInput | Mapping[str, Any]]) -> str:
    """SHA-256 (hex) of :func:`canonical_hands`: the state an entry was built on."""
    return hashlib.sha256(canonical_hands(hands).encode("utf-8")).hexdigest()
