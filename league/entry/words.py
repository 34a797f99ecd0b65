"""A hand and its payments in words, as staff read them: the server's preview
and the phone's offline one say the same thing (pure Python)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from scoring import game as sg
from scoring.rules import RIICHI_STICK


def seat_words(message: str, names: Sequence[str]) -> str:
    """The engine counts seats 0-3; staff know them by wind and name."""
    if not names:
        return message
    return re.sub(r"\bseat ([0-3])\b", lambda m: names[int(m[1])], message)


def describe_payments(kyoku: sg.KyokuResult, names: Sequence[str]) -> list[str]:
    """Who pays whom in one hand, in words, from the engine's transfers.

    ``names`` are the four seats as staff call them. A win and its honba read
    as one payment ("East pays South 5,200 + 300"); the pot reads in sticks.
    """
    K = sg.TransferKind
    lines: list[str] = []
    deposits = [names[t.payer] for t in kyoku.transfers if t.kind is K.RIICHI and t.payer is not None]
    if deposits:
        verb = "puts" if len(deposits) == 1 else "each put"
        lines.append(f"{' and '.join(deposits)} {verb} a riichi stick on the table")
    wins: dict[tuple[int, int], list[int]] = {}
    for t in kyoku.transfers:
        if t.kind in (K.HAND, K.HONBA) and t.payer is not None and t.receiver is not None:
            parts = wins.setdefault((t.payer, t.receiver), [0, 0])
            parts[t.kind is K.HONBA] += t.amount
    done: set[tuple[int, int]] = set()
    notes = {K.NOTEN: "noten", K.NAGASHI: "nagashi mangan", K.CHOMBO: "chombo"}
    for t in kyoku.transfers:
        if t.kind in (K.HAND, K.HONBA) and t.payer is not None and t.receiver is not None:
            key = (t.payer, t.receiver)
            if key in done:
                continue
            done.add(key)
            hand, honba = wins[key]
            amount = f"{hand:,} + {honba:,}" if hand and honba else f"{hand or honba:,}"
            lines.append(f"{names[t.payer]} pays {names[t.receiver]} {amount}")
        elif t.kind in notes and t.payer is not None and t.receiver is not None:
            lines.append(f"{names[t.payer]} pays {names[t.receiver]} {t.amount:,} ({notes[t.kind]})")
        elif t.kind is K.STICKS and t.receiver is not None:
            n = t.amount // RIICHI_STICK
            lines.append(f"{names[t.receiver]} takes {n} riichi stick{'s' if n != 1 else ''} ({t.amount:,})")
    if len(lines) == (1 if deposits else 0):
        lines.append("No other payments" if deposits else "No payments")
    return lines


def describe_entry(hand: sg.HandInput, names: Sequence[str]) -> str:
    """An entry in words without replaying it (it may no longer fit the game):
    "ron: West Carol from East Alice, 3 han 40 fu; riichi West Carol"."""

    def value(w: sg.Win | sg.Tsumo) -> str:
        if w.yakuman:
            return "yakuman" if w.yakuman == 1 else f"{w.yakuman}x yakuman"
        return f"{w.han} han" + (f" {w.fu} fu" if w.fu is not None else "")

    o = hand.outcome
    if isinstance(o, sg.Ron):
        text = "ron: " + ", ".join(f"{names[w.winner]} from {names[o.loser]}, {value(w)}" for w in o.wins)
    elif isinstance(o, sg.Tsumo):
        text = f"tsumo: {names[o.winner]}, {value(o)}"
    elif isinstance(o, sg.Draw):
        text = "draw, tenpai " + (", ".join(names[s] for s in o.tenpai) or "nobody")
        if o.nagashi:
            text += "; nagashi " + ", ".join(names[s] for s in o.nagashi)
    elif isinstance(o, sg.Abort):
        text = f"abortive draw ({str(o.reason).replace('_', ' ')})"
    else:
        text = f"chombo by {names[o.offender]}"
    if hand.riichi:
        text += "; riichi " + ", ".join(names[s] for s in hand.riichi)
    return text
