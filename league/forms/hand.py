"""The hand form: one hand as the scorer saw it, turned into a ``scoring``
``HandInput`` (``HandForm.hand``), with service errors put back on the field
they name. Its fields are built in ``hand_fields``; a winner's value is read
by ``hand_value``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from league.forms.base import SEATS, StaffForm, seat_set
from league.forms.hand_fields import SHOWN, hand_fields, initial_from_hand
from league.forms.hand_value import WinValueMixin
from league.models import Game, Hand
from scoring import game as sg


class HandForm(WinValueMixin, StaffForm):
    """One hand, as the scorer saw it. ``state`` is where the game stood
    before it (for the tile analysis' winds); ``hand`` is the result."""

    template_name = "league/staff_hand_form.html"

    def __init__(self, *args: Any, game: Game, names: Sequence[str], state: sg.TableState, number: int,
                 **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("number", number)
        super().__init__(*args, **kwargs)
        self.game, self.names, self.state, self.rules = game, list(names), state, game.ruleset()
        self.fields.update(hand_fields(self.rules, self.names))
        self.win_seats: tuple[int, ...] = ()
        self.hand: sg.HandInput | None = None

    @classmethod
    def initial_for(cls, hand: Hand) -> dict[str, Any]:
        """The stored hand as the form's initial data (for a correction)."""
        return initial_from_hand(hand)

    # -- validation ------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        outcome = data.get("outcome")
        if not outcome:
            return data
        riichi = seat_set(data.get("riichi", []))
        self.tiles: list[dict[str, Any]] = []
        self.yaku: list[dict[str, Any]] = []
        self.counted: dict[int, str] = {}
        result: sg.Outcome | None = None
        if outcome == Hand.Outcome.RON:
            result = self._clean_ron(data)
        elif outcome == Hand.Outcome.TSUMO:
            result = self._clean_tsumo(data)
        elif outcome == Hand.Outcome.DRAW:
            tenpai, nagashi = seat_set(data.get("tenpai", [])), seat_set(data.get("nagashi", []))
            if not tenpai and not nagashi and not data.get("all_noten"):
                # An untouched draw is more often a forgotten tap than four noten hands.
                self.add_error("tenpai", _("Tick who was tenpai, or confirm nobody was."))
            elif data.get("all_noten") and tenpai:
                self.add_error("all_noten", _("Some seats are ticked tenpai: untick them or this box."))
            else:
                result = sg.Draw(tenpai=tenpai, nagashi=nagashi)
        elif outcome == Hand.Outcome.ABORT:
            if not data.get("abort_reason"):
                self.add_error("abort_reason", _("Choose why the hand was aborted."))
            elif data["abort_reason"] == "suucha_riichi" and riichi != SEATS:
                # Four sticks go on the table before the abort; without them 4,000 would vanish.
                self.add_error("riichi", _("Suucha riichi means all four declared riichi: tick all four sticks."))
            else:
                result = sg.Abort(reason=sg.AbortReason(data["abort_reason"]))
        elif outcome == Hand.Outcome.CHOMBO:
            if not data.get("offender"):
                self.add_error("offender", _("Choose who made the chombo."))
            else:
                result = sg.Chombo(offender=int(data["offender"]))
            riichi = ()  # a chombo voids the hand: no stick from it is paid
        if result is not None and not self.errors:
            self.hand = sg.HandInput(
                outcome=result, riichi=riichi, tiles=self.tiles or None, yaku=self.yaku or None,
                note=data.get("note") or None,
            )
        return data

    def _clean_ron(self, data: dict[str, Any]) -> sg.Ron | None:
        winners = seat_set(data.get("winners", []))
        loser = data.get("loser")
        if not winners:
            self.add_error("winners", _("Tick who won."))
        elif len(winners) == 3 and "sanchahou" in self.rules.abortive_draws:
            # Said here, before han and fu are asked for three winners.
            self.add_error("winners", _("Under these rules a triple ron is an abortive draw: choose Abortive draw, "
                                        "then Sanchahou."))
            return None
        elif len(winners) > 1 and self.rules.multiple_ron == "head_bump":
            self.add_error("winners", _("Under these rules only the winner nearest the discarder wins (head bump): "
                                        "tick one."))
            return None
        if not loser:
            self.add_error("loser", _("Choose who dealt in."))
        elif int(loser) in winners:
            self.add_error("loser", _("%(who)s cannot both win and deal in.") % {"who": self.names[int(loser)]})
        # Winners are listed from the discarder's right, as the engine reads them.
        if loser:
            winners = tuple(sorted(winners, key=lambda w: (w - int(loser)) % 4))
        self.win_seats = winners
        wins = [self._win(data, s, tsumo=False) for s in winners]
        if self.errors or not loser:
            return None
        return sg.Ron(loser=int(loser), wins=tuple(w for w in wins if w is not None))

    def _clean_tsumo(self, data: dict[str, Any]) -> sg.Tsumo | None:
        if not data.get("winner"):
            self.add_error("winner", _("Choose who won."))
            return None
        s = int(data["winner"])
        self.win_seats = (s,)
        win = self._win(data, s, tsumo=True)
        if win is None:
            return None
        return sg.Tsumo(winner=s, han=win.han, fu=win.fu, yakuman=win.yakuman, pao=win.pao)

    # -- errors from the services ---------------------------------------------------

    def service_field(self, field: str | None) -> str | None:
        if not field:
            return None
        m = re.fullmatch(r"outcome\.wins\[(\d+)\](?:\.(\w+))?", field)
        if m and int(m[1]) < len(self.win_seats):
            part = m[2] if m[2] in ("han", "fu", "yakuman", "pao") else None
            return f"{part}_{self.win_seats[int(m[1])]}" if part else "winners"
        m = re.fullmatch(r"outcome\.(han|fu|yakuman|pao)", field)
        if m and self.win_seats:
            return f"{m[1]}_{self.win_seats[0]}"
        if field.startswith("riichi"):
            return "riichi"
        simple = {
            "outcome.loser": "loser", "outcome.wins": "winners", "outcome.winner": "winner",
            "outcome.tenpai": "tenpai", "outcome.nagashi": "nagashi", "outcome.reason": "abort_reason",
            "outcome.offender": "offender", "outcome.type": "outcome", "outcome": "outcome",
        }
        key = re.sub(r"\[\d+\]$", "", field)
        name = simple.get(key)
        return name if name in self.fields else None

    # -- display helpers ------------------------------------------------------------

    def error_items(self) -> list[tuple[str, str, str]]:
        """Every error as (field, line naming the field with its seat, message):
        the preview lists the lines, and the page's script puts each message
        next to its field."""
        items = []
        for name, errors in self.errors.items():
            label = ""
            if name != "__all__":
                label = str(self.fields[name].label)
                m = re.fullmatch(r"\w+_([0-3])", name)
                if m and name not in ("abort_reason",):
                    label = f"{self.names[int(m[1])]}, {label.lower()}"
            label = label.rstrip("?？")
            items.extend((name, f"{label}: {e}" if label else str(e), str(e)) for e in errors)
        return items

    def error_lines(self) -> list[str]:
        """Every error in one list, each field named with its seat (for the preview)."""
        return [line for _name, line, _message in self.error_items()]

    def seat_rows(self) -> list[dict[str, Any]]:
        """Per seat, the bound fields of its hand value, for the template."""
        rows = []
        for s in SEATS:
            row = {"seat": s, "name": self.names[s]}
            for key in ("han", "fu", "yakuman", "pao", "yaku", "dora", "open", "tiles", "win_tile", "melds", "flags"):
                if f"{key}_{s}" in self.fields:
                    row[key] = self[f"{key}_{s}"]
            for key, n in SHOWN.items():
                # The common choices as tap targets, the rare ones behind "more" (open when one is chosen).
                chips = list(row[key])
                more = chips[n:]
                row[f"{key}_taps"] = {"shown": chips[:n], "more": more,
                                      "open": any(c.data["selected"] for c in more)}
            row["pao_yakuman"] = sorted(self.rules.pao)
            rows.append(row)
        return rows

    def counted_lines(self) -> list[str]:
        """Per winner, the han, fu and yaku the hand is paid on, with the name."""
        return [f"{self.names[s]}: {text}" for s, text in getattr(self, "counted", {}).items()]

    def chosen_outcome(self) -> str:
        value = self["outcome"].value()
        return value if value in dict(self.fields["outcome"].choices) else ""

