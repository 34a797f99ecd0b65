"""The hand form: one hand as the scorer saw it, turned into a ``scoring``
``HandInput`` (``HandForm.hand``), with service errors put back on the field
they name. Its fields are built in ``hand_fields``; the checks across fields
are ``league.entry.hand``'s, shared with the phone's offline engine."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from league.entry.fields import field_kinds
from league.entry.hand import HandEntry, form_field
from league.forms.base import StaffForm
from league.forms.hand_fields import SHOWN, hand_fields, initial_from_hand
from league.models import Game, Hand
from scoring import game as sg

# The cached parts' templates as this process read them: a deploy that changes
# them changes the cache keys of their markup (HandForm.seats_cache_key,
# HandForm.fields_cache_key).
_TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "league"
_SEAT_TEMPLATES = hashlib.sha256(b"".join(
    (_TEMPLATES / name).read_bytes() for name in ("staff_seats.html", "staff_field.html", "staff_taps.html")
)).hexdigest()
_FIELD_TEMPLATES = hashlib.sha256(b"".join(
    (_TEMPLATES / name).read_bytes() for name in ("staff_hand_fields.html", "staff_field.html")
)).hexdigest()


# The rare chips' JSON block by (rules, names, language): HandForm.rare_chips_script.
_RARE_CHIPS: dict[tuple[Any, ...], str] = {}


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
        return error_items(self.errors.items(), self.fields, self.names)

    def error_lines(self) -> list[str]:
        """Every error in one list, each field named with its seat (for the preview)."""
        return [line for _, line, _ in self.error_items()]

    # The help under each seat's yaku and tiles, sent once on a light page.
    seat_help = {
        "yaku": _("Picked yaku and dora fill in the han; chiitoitsu gives 25 fu, pinfu 20 (tsumo) or 30 (ron)."),
        "tiles": _("Riichi comes from the riichi seats above, the winds from the game; the dora indicators are "
                   "asked once, below the winners."),
    }

    # A light page (``light``, the first look at a hand) sends the rare chips
    # once, in ``rare_chips``, and the page's script puts them in each seat;
    # a seat where one is chosen (a correction) gets its chips in full.
    light = False

    def seat_rows(self) -> list[dict[str, Any]]:
        """Per seat, the bound fields of its hand value, for the template."""
        rows = []
        # A fresh light form's seats differ only in their fields' names: the rare
        # values' markup once, in the first seat, copied to the others by the page's script.
        copy = bool(self.seats_cache_key)
        for s in self.rules.seats:
            row: dict[str, Any] = {"seat": s, "name": self.names[s]}
            for key in ("han", "fu", "yakuman", "pao", "yaku", "dora", "kita", "open", "tiles", "win_tile", "melds", "flags"):
                if f"{key}_{s}" in self.fields:
                    row[key] = self[f"{key}_{s}"]
            fill = {}
            for key, n in SHOWN.items():
                # The common choices as tap targets, the rare ones behind "more" (open when one is chosen).
                chips = list(row[key])
                more = chips[n:]
                opened = any(c.data["selected"] for c in more)
                row[f"{key}_taps"] = {"shown": chips[:n], "more": more, "open": opened}
                fill[key] = self.light and not opened and not row[key].errors
            for key in ("yaku", "flags", "pao"):
                fill[key] = self.light and key in row and not row[key].value() and not row[key].errors
            row["fill"] = fill
            row["copy"] = copy and s != self.rules.seats[0]
            rows.append(row)
        return rows

    @property
    def seats_cache_key(self) -> str:
        """The key of the seats' markup for a fresh light form (the first look at
        a hand: nothing chosen, no error), which is the same for every hand of a
        game in one language: the rules, the names, the language and the
        templates' text; "" for any other form, rendered afresh."""
        if not self.light or self.is_bound or not set(self.initial) <= {"number", "state", "key", "outcome"}:
            return ""
        text = json.dumps([self.game.rules, self.names, get_language(), _SEAT_TEMPLATES], default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    @property
    def fields_cache_key(self) -> str:
        """The key of the whole fields' markup (staff_hand_fields.html: what
        happened, who, riichi, the seats' values, the indicators, the note)
        for a fresh light form, the same for every hand of a game in one
        language: the seats' key (``seats_cache_key``), the outcome chosen
        beforehand if any, and the templates' text; "" for any other form.
        Its thirteen fields' chips were half of the page's render (7.6 of
        14.4 ms, issue 28), the same markup for every hand."""
        seats = self.seats_cache_key
        if not seats:
            return ""
        text = json.dumps([seats, self.initial.get("outcome"), _FIELD_TEMPLATES], default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    @property
    def pao_yakuman(self) -> list[str]:
        """The yakuman whose pao the form asks about (none when the rules have no pao field)."""
        return sorted(self.rules.pao) if "pao_0" in self.fields else []

    def rare_chips(self) -> dict[str, dict[str, Any]]:
        """The chips a light page leaves out, once for every seat: per kind
        (the rare han, fu and yakuman, the yaku, the tile situations, pao) the
        input type, the index of the first (ids are ``id_<kind>_<seat>_<index>``)
        and each (value, label). The page's script builds the markup
        staff_field.html would."""
        out = {}
        for key, n in {**SHOWN, "yaku": 0, "flags": 0, "pao": 0}.items():
            name = f"{key}_0"
            if name not in self.fields:
                continue
            chips = list(self[name])[n:]
            out[key] = {"type": chips[0].data["type"] if chips else "checkbox", "first": n,
                        "choices": [[str(c.data["value"]), str(c.choice_label)] for c in chips]}
        if "pao" in out:
            out["pao"]["checked"] = ""  # "nobody", as the server's page has it
        out["texts"] = {k: str(v) for k, v in self.seat_help.items()}
        return out

    def rare_chips_script(self) -> str:
        """``rare_chips`` as the page's JSON block: the same for every form of
        one ruleset, seats' names and language, so made once for them."""
        key = (self.rules, tuple(self.names), get_language())
        if key not in _RARE_CHIPS:
            if len(_RARE_CHIPS) >= 256:
                _RARE_CHIPS.clear()
            _RARE_CHIPS[key] = _json_block("rare-chips", self.rare_chips())
        return _RARE_CHIPS[key]

    def fields_script(self) -> str:
        """The field table as the page's script reads it (``#hand-fields``):
        the names of the fields that post several values, from
        ``league.entry.fields``, so ``engine.js`` keeps no list of its own."""
        return _json_block("hand-fields", {"multi": field_kinds(self.rules).get("multi", [])})

    def counted_lines(self) -> list[str]:
        """Per winner, the han, fu and yaku the hand is paid on, with the name."""
        return [f"{self.names[s]}: {text}" for s, text in getattr(self, "counted", {}).items()]

    def chosen_outcome(self) -> str:
        value = self["outcome"].value()
        return value if value in dict(self.fields["outcome"].choices) else ""


def error_items(errors: Iterable[tuple[str, Iterable[Any]]], fields: Mapping[str, Any],
                names: Sequence[str]) -> list[tuple[str, str, str]]:
    """``HandForm.error_items`` for any errors by field name ("__all__": the
    whole form): the live preview's reading of a posted hand lists them too."""
    items = []
    for name, messages in errors:
        label = ""
        if name != "__all__":
            label = str(fields[name].label)
            m = re.fullmatch(r"\w+_([0-3])", name)
            if m and name not in ("abort_reason",):
                label = f"{names[int(m[1])]}, {label.lower()}"
        label = label.rstrip("?？")
        items.extend((name, f"{label}: {e}" if label else str(e), str(e)) for e in messages)
    return items


def _json_block(element_id: str, data: Any) -> str:
    """Django's ``json_script``, but Japanese as UTF-8 (3 bytes a character)
    rather than \\u escapes (6)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003C").replace(">", "\\u003E").replace("&", "\\u0026")
    return format_html('<script id="{}" type="application/json">{}</script>', element_id, mark_safe(text))
