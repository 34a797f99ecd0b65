"""The hand form's Django fields, built from the one table of them
(``league.entry.fields.field_specs``) by a small adapter: each kind becomes
its Django field, each widget its widget, and the table's msgids and choice
names are put in the reader's language. Also the stored hand as the form's
initial data, for a correction."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league.engine_words import yaku_name
from league.entry import tables
from league.entry.fields import Spec, field_specs
from league.entry.tables import (  # noqa: F401  (re-exported: the form's vocabulary lives in league.entry)
    FU_CHOICES,
    HAN_CHOICES,
    SHOWN,
    YAKU,
    yaku_table,
    yakuman_table,
    yakuman_worth,
)
from league.forms.base import SEATS
from league.models import Hand
from scoring.rules import Ruleset

# The situations a tile hand may add, named in the reader's language.
FLAG_CHOICES = tuple((y, yaku_name(y)) for y, _english in tables.FLAG_CHOICES)

WIDGETS: dict[str, type[forms.Widget]] = {
    "radio": forms.RadioSelect, "checkboxes": forms.CheckboxSelectMultiple, "number": forms.NumberInput,
    "checkbox": forms.CheckboxInput, "text": forms.TextInput, "hidden": forms.HiddenInput,
}


def hand_fields(rules: Ruleset, names: Sequence[str]) -> dict[str, forms.Field]:
    """Every field of the hand form under ``rules``, in the order the page shows them.

    Built once per ruleset, seats' names and language, and shared by the
    forms that ask (a fresh dict each time): a form reads its fields, never
    changes them, and building them cost every request of the page 2 ms."""
    return dict(_built(rules, tuple(names), get_language()))


@functools.lru_cache(maxsize=256)
def _built(rules: Ruleset, names: tuple[str, ...], language: str | None) -> tuple[tuple[str, forms.Field], ...]:
    choice_names = _choice_names(rules, names)
    return tuple((spec.name, _field(spec, choice_names)) for spec in field_specs(rules, bookkeeping=True))


def _choice_names(rules: Ruleset, names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The choices' names in the reader's language, by the table's ``names``."""
    yakuman = {y: _("{} (double)").format(name) if worth > 1 else name
               for y, (name, worth) in yakuman_table(rules).items()}
    yaku = {y: "{} ({})".format(name, closed if open_ == closed else f"{closed}/{open_}" if open_
                                else _("{} closed").format(closed))
            for y, (name, closed, open_) in yaku_table(rules).items()}
    return {
        "han": dict(HAN_CHOICES),  # "13+": a number, not a word to translate
        "seats": {"": _("nobody"), **{str(i): name for i, name in enumerate(names)}},
        "yakuman": yakuman, "yaku": yaku,
        "flags": {y: yaku_name(y) for y, _english in tables.FLAG_CHOICES},
        "abort": {r.value: str(r.label) for r in Hand.AbortReason},
    }


def _field(spec: Spec, choice_names: dict[str, dict[str, Any]]) -> forms.Field:
    kw: dict[str, Any] = {"required": spec.required, "widget": WIDGETS[spec.widget]}
    if spec.label:
        kw["label"] = _(spec.label)
    if spec.help:
        kw["help_text"] = _(spec.help)
    if spec.required_message != Spec.required_message:
        kw["error_messages"] = {"required": _(spec.required_message)}
    if spec.choices:
        if isinstance(spec.names, tuple):
            named = dict(zip(spec.choices, (_(n) for n in spec.names), strict=True))
        elif spec.names == "same":
            named = {c: c for c in spec.choices}
        else:
            named = choice_names[spec.names]
        kw["choices"] = [(c, named[c]) for c in spec.choices]
    if spec.kind == "choice":
        return forms.ChoiceField(**kw)
    if spec.kind == "int_choice":
        return forms.TypedChoiceField(coerce=int, empty_value=None, **kw)
    if spec.kind == "multi":
        return forms.MultipleChoiceField(**kw)
    if spec.kind == "int":
        return forms.IntegerField(min_value=spec.min_value, max_value=spec.max_value, **kw)
    if spec.kind == "bool":
        return forms.BooleanField(**kw)
    if spec.pattern:
        return forms.RegexField(spec.pattern, max_length=spec.max_length, **kw)
    return forms.CharField(max_length=spec.max_length, **kw)


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
    # Three players: the kita a winner set aside, kept in the tiles or the
    # yaku entry; the form's han leaves them out (league.entry.hand).
    kita = {e["winner"]: e["kita"] for e in (*_entries(hand.tiles), *_entries(hand.yaku))
            if type(e.get("kita")) is int and e["kita"] > 0}
    for w in wins:
        s = w.winner
        if w.yakuman:
            # A count stored without names (an import) reads back as unnamed yakuman.
            data[f"yakuman_{s}"] = named.get(s) or {1: ["other"], 2: ["other_double"]}.get(
                w.yakuman, ["other", "other_double"])
        else:
            data[f"han_{s}"] = str(w.han - kita.get(s, 0))
            data[f"fu_{s}"] = "" if w.fu is None else str(w.fu)
        if s in kita:
            data[f"kita_{s}"] = kita[s]
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
