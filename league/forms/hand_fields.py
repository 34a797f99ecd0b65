"""The fields of the hand form, built from the ruleset: what happened, each
seat's hand value (han and fu, yakuman, picked yaku, or the tiles), and the
shared draw, abort, chombo and riichi fields. Also the stored hand as the
form's initial data, for a correction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from league.entry import tables
from league.entry.tables import (  # noqa: F401  (re-exported: the form's vocabulary lives in league.entry)
    FU_CHOICES,
    HAN_CHOICES,
    SHOWN,
    YAKU,
    YAKUMAN,
    yaku_table,
    yakuman_table,
    yakuman_worth,
)
from league.forms.base import SEATS, seat_choices
from league.models import Hand
from league.terms import yaku_name
from scoring.rules import Ruleset

# The situations a tile hand may add, named in the reader's language.
FLAG_CHOICES = tuple((y, yaku_name(y)) for y, _english in tables.FLAG_CHOICES)


def hand_fields(rules: Ruleset, names: Sequence[str]) -> dict[str, forms.Field]:
    """Every field of the hand form under ``rules``, in the order the page shows them."""
    seats = seat_choices(names)
    outcomes = [
        (Hand.Outcome.RON, _("Ron")),
        (Hand.Outcome.TSUMO, _("Tsumo")),
        (Hand.Outcome.DRAW, _("Draw")),
    ]
    if rules.abortive_draws:
        outcomes.append((Hand.Outcome.ABORT, _("Abort")))
    outcomes.append((Hand.Outcome.CHOMBO, _("Chombo")))
    f: dict[str, forms.Field] = {}
    f["number"] = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    # The state the entry was built on (scoring.digest) and the client's key for it.
    f["state"] = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    f["key"] = forms.RegexField(r"^[A-Za-z0-9-]{8,64}$", widget=forms.HiddenInput, required=False)
    f["outcome"] = forms.ChoiceField(label=_("What happened?"), choices=outcomes, widget=forms.RadioSelect,
                                     error_messages={"required": _("Choose what happened.")})
    f["winners"] = forms.MultipleChoiceField(label=_("Who won?"), choices=seats, required=False,
                                             widget=forms.CheckboxSelectMultiple,
                                             help_text=_("Tick two for a double ron."))
    f["loser"] = forms.ChoiceField(label=_("Who dealt in?"), choices=seats, required=False, widget=forms.RadioSelect)
    f["winner"] = forms.ChoiceField(label=_("Who won?"), choices=seats, required=False, widget=forms.RadioSelect)
    fu = [(str(x), str(x)) for x in FU_CHOICES]
    yakuman = [(y, format_lazy(_("{} (double)"), name) if worth > 1 else name)
               for y, (name, worth) in yakuman_table(rules).items()]
    yaku = [(y, format_lazy("{} ({})", name, closed if open_ == closed else f"{closed}/{open_}" if open_
                            else format_lazy(_("{} closed"), closed)))
            for y, (name, closed, open_) in yaku_table(rules).items()]
    for s in SEATS:
        # Radio buttons shown as tap targets, not 13-item dropdowns.
        f[f"han_{s}"] = forms.TypedChoiceField(label=_("Han"), choices=HAN_CHOICES, coerce=int, empty_value=None,
                                               required=False, widget=forms.RadioSelect)
        f[f"fu_{s}"] = forms.TypedChoiceField(label=_("Fu"), choices=fu, coerce=int, empty_value=None,
                                              required=False, widget=forms.RadioSelect)
        f[f"yakuman_{s}"] = forms.MultipleChoiceField(label=_("Yakuman"), choices=yakuman, required=False,
                                                      widget=forms.CheckboxSelectMultiple)
        if rules.pao:
            f[f"pao_{s}"] = forms.ChoiceField(label=_("Pao: who fed the last set?"), required=False,
                                              choices=[("", _("nobody")), *seats], widget=forms.RadioSelect)
        f[f"yaku_{s}"] = forms.MultipleChoiceField(label=_("Yaku"), choices=yaku, required=False,
                                                   widget=forms.CheckboxSelectMultiple)
        f[f"dora_{s}"] = forms.IntegerField(label=_("Dora (with aka and ura)"), min_value=0, max_value=30,
                                            required=False)
        f[f"open_{s}"] = forms.BooleanField(label=_("Open hand (called tiles)"), required=False)
        f[f"tiles_{s}"] = forms.CharField(label=_("Closed tiles with the winning tile"), required=False,
                                          max_length=60, help_text=_("e.g. 234m678p11s55z; 0 is a red five"))
        f[f"win_tile_{s}"] = forms.CharField(label=_("Winning tile"), required=False, max_length=3)
        f[f"melds_{s}"] = forms.CharField(label=_("Calls"), required=False, max_length=80,
                                          help_text=_("e.g. pon 555z, chi 123m, ankan 0555p"))
        f[f"flags_{s}"] = forms.MultipleChoiceField(label=_("Also"), choices=FLAG_CHOICES, required=False,
                                                    widget=forms.CheckboxSelectMultiple)
    f["dora_indicators"] = forms.CharField(label=_("Dora indicators"), required=False, max_length=40,
                                           help_text=_("e.g. 4m 7z"))
    f["ura_indicators"] = forms.CharField(label=_("Ura dora indicators"), required=False, max_length=40)
    f["tenpai"] = forms.MultipleChoiceField(label=_("Who was tenpai?"), choices=seats, required=False,
                                            widget=forms.CheckboxSelectMultiple)
    f["all_noten"] = forms.BooleanField(label=_("Nobody was tenpai"), required=False)
    if rules.nagashi_mangan:
        f["nagashi"] = forms.MultipleChoiceField(label=_("Nagashi mangan"), choices=seats, required=False,
                                                 widget=forms.CheckboxSelectMultiple)
    if rules.abortive_draws:
        reasons = [(r.value, r.label) for r in Hand.AbortReason if r.value in rules.abortive_draws]
        f["abort_reason"] = forms.ChoiceField(label=_("Why?"), choices=reasons, required=False,
                                              widget=forms.RadioSelect)
    f["offender"] = forms.ChoiceField(label=_("Who made the chombo?"), choices=seats, required=False,
                                      widget=forms.RadioSelect)
    f["riichi"] = forms.MultipleChoiceField(label=_("Who declared riichi?"), choices=seats, required=False,
                                            widget=forms.CheckboxSelectMultiple,
                                            help_text=_("Each puts a 1,000 stick on the table."))
    f["note"] = forms.CharField(label=_("Note"), required=False, max_length=500)
    return f


def initial_from_hand(hand: Hand) -> dict[str, Any]:
    """The stored hand as the form's initial data (for a correction)."""
    data: dict[str, Any] = {"number": hand.number, "outcome": hand.outcome, "riichi": [str(s) for s in hand.riichi],
                            "note": hand.note}
    wins = sorted(hand.wins.all(), key=lambda w: w.order)
    if hand.outcome == Hand.Outcome.RON:
        data["loser"] = str(hand.loser)
        data["winners"] = [str(w.winner) for w in wins]
    elif hand.outcome == Hand.Outcome.TSUMO:
        data["winner"] = str(wins[0].winner)
    named = {e["winner"]: _texts(e["yakuman"]) for e in _entries(hand.yaku) if isinstance(e.get("yakuman"), list)}
    for w in wins:
        s = w.winner
        if w.yakuman:
            # A count stored without names (an import) reads back as unnamed yakuman.
            data[f"yakuman_{s}"] = named.get(s) or {1: ["other"], 2: ["other_double"]}.get(
                w.yakuman, ["other", "other_double"])
        else:
            data[f"han_{s}"] = str(w.han)
            data[f"fu_{s}"] = "" if w.fu is None else str(w.fu)
        if w.pao is not None:
            data[f"pao_{s}"] = str(w.pao)
    data["tenpai"] = [str(s) for s in hand.tenpai]
    data["all_noten"] = hand.outcome == Hand.Outcome.DRAW and not hand.tenpai and not hand.nagashi
    data["nagashi"] = [str(s) for s in hand.nagashi]
    data["abort_reason"] = hand.abort_reason
    if hand.chombo_offender is not None:
        data["offender"] = str(hand.chombo_offender)
    # Detail the scoring ignores, kept as given (an import may hold any JSON):
    # what has the expected shape fills the form, anything else is left out.
    for entry in _entries(hand.yaku):
        if "yaku" not in entry:
            continue  # a yakuman named by the staff form, read above
        s = entry["winner"]
        data[f"yaku_{s}"] = _texts(entry.get("yaku"))
        dora = entry.get("dora")
        data[f"dora_{s}"] = dora if isinstance(dora, int) and not isinstance(dora, bool) else None
        data[f"open_{s}"] = bool(entry.get("open"))
    for entry in _entries(hand.tiles):
        s = entry["winner"]
        data[f"tiles_{s}"] = _text(entry.get("tiles"))
        data[f"win_tile_{s}"] = _text(entry.get("win"))
        melds = entry.get("melds")
        data[f"melds_{s}"] = ", ".join(
            f"{m['type']} {m['tiles']}" for m in (melds if isinstance(melds, list) else [])
            if isinstance(m, dict) and isinstance(m.get("type"), str) and isinstance(m.get("tiles"), str)
        )
        data[f"flags_{s}"] = [k for k, _label in FLAG_CHOICES if entry.get(k)]
        data["dora_indicators"] = " ".join(_texts(entry.get("dora")))
        data["ura_indicators"] = " ".join(_texts(entry.get("ura")))
    return data


def _entries(detail: Any) -> list[dict[str, Any]]:
    """The per-winner entries of a hand's ``tiles`` or ``yaku``: objects naming a seat."""
    if not isinstance(detail, list):
        return []
    return [e for e in detail if isinstance(e, dict) and type(e.get("winner")) is int and e["winner"] in SEATS]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _texts(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
