"""The hand form: one hand as the scorer saw it, turned into a ``scoring``
``HandInput`` (``HandForm.hand``), with service errors put back on the field
they name. Its fields are built in ``hand_fields``; the checks across fields
are ``league.entry.hand``'s, shared with the phone's offline engine."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError

from league.entry.hand import HandEntry, form_field
from league.forms.base import SEATS, StaffForm
from league.forms.hand_fields import SHOWN, hand_fields, initial_from_hand
from league.models import Game, Hand
from scoring import game as sg


class HandForm(StaffForm):
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
        # The checks across fields are league.entry's, which the phone runs too.
        entry = HandEntry(self.rules, self.names, self.state, data, has_errors=bool(self.errors))
        for field, errors in entry.errors.items():
            for message, code in errors:
                self.add_error(field, ValidationError(message, code=code))
        self.win_seats, self.hand = entry.win_seats, entry.hand
        self.tiles, self.yaku, self.counted = entry.tiles, entry.yaku, entry.counted
        return data

    # -- errors from the services ---------------------------------------------------

    def service_field(self, field: str | None) -> str | None:
        return form_field(field, self.win_seats, self.fields)

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
        return [line for _, line, _ in self.error_items()]

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

