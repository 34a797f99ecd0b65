"""A hand and its payments in words, as staff read them: the server's preview
and the phone's offline one say the same thing (pure Python)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from league.entry.hand import value_text
from league.entry.translation import abort_reason, ngettext, refusal
from league.entry.translation import gettext as _
from scoring import game as sg
from scoring.rules import RIICHI_STICK


def seat_words(message: str, names: Sequence[str]) -> str:
    """The engine counts seats 0-3; staff know them by wind and name."""
    if not names:
        return message
    return re.sub(r"\bseat ([0-3])\b", lambda m: names[int(m[1])], message)


def stored_refusal(number: int, code: str, message: str, detail: str | None = None) -> str:
    """A stored hand the engine now refuses, named with the engine's reason:
    what the staff page, offline.json and the phone's engine all say."""
    return _("hand %(number)s cannot be replayed: %(reason)s") % {
        "number": number, "reason": refusal(code, message, detail)}


def describe_payments(kyoku: sg.KyokuResult, names: Sequence[str]) -> list[str]:
    """Who pays whom in one hand, in words, from the engine's transfers.

    ``names`` are the four seats as staff call them. A win and its honba read
    as one payment ("East pays South 5,200 + 300"); the pot reads in sticks.
    """
    K = sg.TransferKind
    lines: list[str] = []
    deposits = [str(names[t.payer]) for t in kyoku.transfers if t.kind is K.RIICHI and t.payer is not None]
    if deposits:
        lines.append(ngettext("%(who)s puts a riichi stick on the table", "%(who)s each put a riichi stick on the table",
                              len(deposits)) % {"who": _(" and ").join(deposits)})
    wins: dict[tuple[int, int], list[int]] = {}
    for t in kyoku.transfers:
        if t.kind in (K.HAND, K.HONBA) and t.payer is not None and t.receiver is not None:
            parts = wins.setdefault((t.payer, t.receiver), [0, 0])
            parts[t.kind is K.HONBA] += t.amount
    done: set[tuple[int, int]] = set()
    notes = (K.NOTEN, K.NAGASHI, K.CHOMBO)  # in words only when paid: most hands pay none of them
    for t in kyoku.transfers:
        if t.kind in (K.HAND, K.HONBA) and t.payer is not None and t.receiver is not None:
            key = (t.payer, t.receiver)
            if key in done:
                continue
            done.add(key)
            hand, honba = wins[key]
            amount = f"{hand:,} + {honba:,}" if hand and honba else f"{hand or honba:,}"
            lines.append(_("%(payer)s pays %(receiver)s %(amount)s") % {
                "payer": names[t.payer], "receiver": names[t.receiver], "amount": amount})
        elif t.kind in notes and t.payer is not None and t.receiver is not None:
            lines.append(_("%(payer)s pays %(receiver)s %(amount)s (%(why)s)") % {
                "payer": names[t.payer], "receiver": names[t.receiver], "amount": f"{t.amount:,}",
                "why": _("noten") if t.kind is K.NOTEN else _("nagashi mangan") if t.kind is K.NAGASHI
                else _("chombo")})
        elif t.kind is K.STICKS and t.receiver is not None:
            n = t.amount // RIICHI_STICK
            lines.append(ngettext("%(who)s takes %(n)d riichi stick (%(amount)s)",
                                  "%(who)s takes %(n)d riichi sticks (%(amount)s)", n) % {
                "who": names[t.receiver], "n": n, "amount": f"{t.amount:,}"})
    if len(lines) == (1 if deposits else 0):
        lines.append(_("No other payments") if deposits else _("No payments"))
    return lines


def describe_entry(hand: sg.HandInput, names: Sequence[str]) -> str:
    """An entry in words without replaying it (it may no longer fit the game):
    "ron: West Carol from East Alice, 3 han 40 fu; riichi West Carol"."""

    def value(w: sg.Win | sg.Tsumo) -> str:
        return value_text(han=w.han, fu=w.fu, yakuman=w.yakuman)

    def listed(seats: Sequence[int]) -> str:
        return _(", ").join(str(names[s]) for s in seats)

    o = hand.outcome
    if isinstance(o, sg.Ron):
        text = _("ron: %(wins)s") % {"wins": _(", ").join(
            _("%(winner)s from %(loser)s, %(value)s") % {"winner": names[w.winner], "loser": names[o.loser],
                                                         "value": value(w)} for w in o.wins)}
    elif isinstance(o, sg.Tsumo):
        text = _("tsumo: %(winner)s, %(value)s") % {"winner": names[o.winner], "value": value(o)}
    elif isinstance(o, sg.Draw):
        text = _("draw, tenpai %(who)s") % {"who": listed(o.tenpai) or _("nobody")}
        if o.nagashi:
            text += _("; nagashi %(who)s") % {"who": listed(o.nagashi)}
    elif isinstance(o, sg.Abort):
        text = _("abortive draw (%(reason)s)") % {"reason": abort_reason(str(o.reason))}
    else:
        text = _("chombo by %(who)s") % {"who": names[o.offender]}
    if hand.riichi:
        text += _("; riichi %(who)s") % {"who": listed(hand.riichi)}
    return text
