"""What the staff pages show before a save: a hand replayed in place without
saving (no lock: the save checks everything again), and its payments in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.models import Game
from league.services.replay import check_open, hands_of, not_next, parse_hand, replay_game, state_digest
from league.terms import abort_reason_text
from scoring import game as sg
from scoring.rules import RIICHI_STICK


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
    notes = {K.NOTEN: _("noten"), K.NAGASHI: _("nagashi mangan"), K.CHOMBO: _("chombo")}
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
                "payer": names[t.payer], "receiver": names[t.receiver], "amount": f"{t.amount:,}", "why": notes[t.kind]})
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
        if w.yakuman:
            return _("yakuman") if w.yakuman == 1 else _("%(n)dx yakuman") % {"n": w.yakuman}
        if w.fu is not None:
            return _("%(han)d han %(fu)d fu") % {"han": w.han, "fu": w.fu}
        return _("%(han)d han") % {"han": w.han}

    def listed(seats: Sequence[int]) -> str:
        return _(", ").join(str(names[s]) for s in seats)

    o = hand.outcome
    if isinstance(o, sg.Ron):
        text = _("ron: %(wins)s") % {"wins": ", ".join(
            _("%(winner)s from %(loser)s, %(value)s") % {"winner": names[w.winner], "loser": names[o.loser],
                                                         "value": value(w)} for w in o.wins)}
    elif isinstance(o, sg.Tsumo):
        text = _("tsumo: %(winner)s, %(value)s") % {"winner": names[o.winner], "value": value(o)}
    elif isinstance(o, sg.Draw):
        text = _("draw, tenpai %(who)s") % {"who": listed(o.tenpai) or _("nobody")}
        if o.nagashi:
            text += _("; nagashi %(who)s") % {"who": listed(o.nagashi)}
    elif isinstance(o, sg.Abort):
        text = _("abortive draw (%(reason)s)") % {"reason": abort_reason_text(str(o.reason))}
    else:
        text = _("chombo by %(who)s") % {"who": names[o.offender]}
    if hand.riichi:
        text += _("; riichi %(who)s") % {"who": listed(hand.riichi)}
    return text
