"""The hand form and what its preview shows, shared by the staff game page
(``views.staff``) and the live preview (``views.staff_preview``): one place
that builds the form from the game as read and prices a valid form's hand
(``services.entry.preview_entry``, the one pricer), so the page and the
fragment say the same thing.

The live preview renders no form, only what is paid or what is wrong: it
reads the posted hand as the phone's engine does (``PostedHand``: the one
field table's ``clean_fields``, then ``HandEntry``), which gives the Django
form's values and errors (tests/league/test_posted_hand.py holds the
fragments equal) without building sixty bound fields per tap."""

from __future__ import annotations

import functools
from typing import Any

from django.utils.translation import gettext_lazy

from league import services
from league.entry.fields import clean_fields
from league.entry.hand import HandEntry, form_field
from league.entry.translation import refusal_of
from league.entry.words import seat_words
from league.forms import HandForm
from league.forms.hand import error_items
from league.forms.hand_fields import hand_fields
from league.services import entry
from scoring import game as sg

ENDED_BY = {
    sg.EndReason.ALL_LAST: gettext_lazy("the last hand passed the deal"),
    sg.EndReason.BUST: gettext_lazy("a score went below zero"),
    sg.EndReason.AGARI_YAME: gettext_lazy("the all-last dealer won in the lead (agari-yame)"),
    sg.EndReason.TENPAI_YAME: gettext_lazy("the all-last dealer was tenpai in the lead (tenpai-yame)"),
    sg.EndReason.TARGET: gettext_lazy("a player reached the target score"),
    sg.EndReason.EXTENSION_CAP: gettext_lazy("the last extension hand passed the deal"),
    sg.EndReason.EARLY: gettext_lazy("staff ended it early"),
    sg.EndReason.FINAL_SCORES: gettext_lazy("it was kept by end scores"),
}


def hand_form(now: entry.GameNow, number: int, **kwargs: Any) -> HandForm:
    """The form for hand ``number`` of the game as read."""
    # A finished game's form still shows what a late scorer typed.
    return HandForm(kwargs.pop("data", None), game=now.game, names=now.names, state=now.table_state(number),
                    number=number, **kwargs)


class PostedHand:
    """A posted hand read as the phone's engine reads it, with the face of a
    bound ``HandForm`` that ``priced`` and the preview's fragment use: its
    errors (by field, in the form's order, then the checks across fields),
    ``hand``, ``cleaned_data``, ``error_items``, ``counted_lines`` and
    ``add_service_error``."""

    is_bound = True

    def __init__(self, now: entry.GameNow, number: int, data: Any) -> None:
        self.game, self.names = now.game, now.names
        # The read's rules, the row's as built (the read is kept under the row's rules):
        # not built again from the row's JSON on every tap.
        rules = self.rules = now.record.rules
        values, field_errors = clean_fields(rules, dict(data.lists()), bookkeeping=True)
        read = HandEntry(rules, now.names, now.table_state(number), values, has_errors=bool(field_errors))
        self.errors: dict[str, list[str]] = {name: [m for m, _code in items] for name, items in field_errors.items()}
        for name, items in read.errors.items():
            self.errors.setdefault(name or "__all__", []).extend(m for m, _code in items)
        self.cleaned_data = values
        self.win_seats, self.hand, self.counted = read.win_seats, read.hand, read.counted

    @functools.cached_property
    def fields(self) -> dict[str, Any]:
        """The Django fields, only for the labels of error lines (built once per
        rules, names and language): a hand that prices asks none."""
        return hand_fields(self.rules, self.names)

    def is_valid(self) -> bool:
        return not self.errors

    def error_items(self) -> list[tuple[str, str, str]]:
        return error_items(self.errors.items(), self.fields, self.names)

    def counted_lines(self) -> list[str]:
        return [f"{self.names[s]}: {text}" for s, text in self.counted.items()]

    def add_service_error(self, err: services.ServiceError) -> None:
        """As ``StaffForm.add_service_error``: the refusal in the reader's words,
        on the field it names, else on the whole form."""
        name = form_field(err.field, self.win_seats, self.fields) or "__all__"
        self.errors.setdefault(name, []).append(seat_words(refusal_of(err), self.names))


def priced(now: entry.GameNow, form: HandForm | PostedHand, editing: int | None) -> dict[str, Any]:
    """The preview's context for a valid form's hand (empty for an invalid one),
    or the service's reason put on the form."""
    if not form.is_valid():
        return {}
    assert form.hand is not None
    number = editing or form.cleaned_data["number"]
    try:
        shown = entry.preview_entry(now, number, form.hand)
    except services.ServiceError as err:
        form.add_service_error(err)
        return {}
    names = form.names
    later = [
        {"number": n, "round": old.round_label, "honba": old.honba,
         "moved": new is not None and (new.round_label, new.honba) != (old.round_label, old.honba),
         "new_round": new.round_label if new else "", "new_honba": new.honba if new else 0,
         "seats": [{"name": names[i], "before": old.deltas[i], "after": None if new is None else new.deltas[i]}
                   for i in range(len(names)) if new is None or new.deltas[i] != old.deltas[i]]}
        for n, old, new in shown.later_changes()
    ]
    return {
        "later_changes": later,
        "counted": form.counted_lines(),
        "preview": shown,
        "payments": services.describe_payments(shown.played.result, names),
        "preview_rows": [
            {"name": names[s], "before": shown.played.start.scores[s], "delta": shown.played.deltas[s],
             "after": shown.played.scores[s]}
            for s in range(len(names))
        ],
        "final_rows": [{"name": names[i], "score": shown.game.scores[i]} for i in range(len(names))],
        "preview_ended": ENDED_BY.get(shown.game.ended_by) if shown.game.finished else "",
        "preview_dealer": names[shown.game.next.dealer] if shown.game.next else "",
        "digest": entry.digest(form.hand),
    }
