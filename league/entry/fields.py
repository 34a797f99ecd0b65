"""The hand form's single fields read without Django, for the phone: each
posted value checked and converted as the server's form field does it
(``league.forms.hand_fields``; a test holds the two field lists equal), with
Django's own messages.

The server's form fields stay Django's (they also draw the page); the checks
across fields are shared (``league.entry.hand``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from league.entry.tables import FLAG_CHOICES, FU_CHOICES, HAN_CHOICES, yaku_table, yakuman_table
from scoring.game import SEATS
from scoring.rules import ABORT_REASONS, Ruleset

INVALID_CHOICE = "Select a valid choice. {} is not one of the available choices."
# Fields the phone does not read: the shell's bookkeeping (number, state, key), checked by the server.
BOOKKEEPING = ("number", "state", "key")


@dataclass(frozen=True)
class Spec:
    """One field: ``kind`` is choice, multi, int_choice, int, bool or text."""

    name: str
    kind: str
    choices: tuple[str, ...] = ()
    required: bool = False
    required_message: str = "This field is required."
    max_length: int | None = None
    min_value: int | None = None
    max_value: int | None = None


@functools.lru_cache(maxsize=16)
def field_specs(rules: Ruleset) -> tuple[Spec, ...]:
    """The hand form's fields under ``rules``, in the form's order (bookkeeping left out)."""
    seats = tuple(str(s) for s in SEATS)
    outcomes = ["ron", "tsumo", "draw"] + (["abort"] if rules.abortive_draws else []) + ["chombo"]
    specs = [
        Spec("outcome", "choice", tuple(outcomes), required=True, required_message="Choose what happened."),
        Spec("winners", "multi", seats),
        Spec("loser", "choice", seats),
        Spec("winner", "choice", seats),
    ]
    fu = tuple(str(x) for x in FU_CHOICES)
    han = tuple(v for v, _ in HAN_CHOICES)
    for s in SEATS:
        specs += [
            Spec(f"han_{s}", "int_choice", han),
            Spec(f"fu_{s}", "int_choice", fu),
            Spec(f"yakuman_{s}", "multi", tuple(yakuman_table(rules))),
        ]
        if rules.pao:
            specs.append(Spec(f"pao_{s}", "choice", ("", *seats)))
        specs += [
            Spec(f"yaku_{s}", "multi", tuple(yaku_table(rules))),
            Spec(f"dora_{s}", "int", min_value=0, max_value=30),
            Spec(f"open_{s}", "bool"),
            Spec(f"tiles_{s}", "text", max_length=60),
            Spec(f"win_tile_{s}", "text", max_length=3),
            Spec(f"melds_{s}", "text", max_length=80),
            Spec(f"flags_{s}", "multi", tuple(k for k, _ in FLAG_CHOICES)),
        ]
    specs += [
        Spec("dora_indicators", "text", max_length=40),
        Spec("ura_indicators", "text", max_length=40),
        Spec("tenpai", "multi", seats),
        Spec("all_noten", "bool"),
    ]
    if rules.nagashi_mangan:
        specs.append(Spec("nagashi", "multi", seats))
    if rules.abortive_draws:
        specs.append(Spec("abort_reason", "choice", tuple(r for r in ABORT_REASONS if r in rules.abortive_draws)))
    specs += [
        Spec("offender", "choice", seats),
        Spec("riichi", "multi", seats),
        Spec("note", "text", max_length=500),
    ]
    return tuple(specs)


# What a field not sent at all cleans to, by kind (as ``clean_one`` gives it).
EMPTY: dict[str, Any] = {"bool": lambda: False, "multi": list, "choice": str, "int_choice": lambda: None,
                         "int": lambda: None, "text": str}


class FieldError(Exception):
    def __init__(self, *messages: tuple[str, str]) -> None:
        super().__init__(messages[0][0])
        self.messages = list(messages)  # (message, code)


def _last(value: Any) -> Any:
    """A single field posted twice reads as its last value (QueryDict.get)."""
    if isinstance(value, list):
        return value[-1] if value else None
    return value


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == ()


def clean_one(spec: Spec, raw: Mapping[str, Any]) -> Any:
    """The field's value as the Django field cleans it, or FieldError."""
    if spec.kind == "bool":
        # CheckboxInput, then BooleanField: absent, "false" and "0" are False.
        if spec.name not in raw:
            return False
        value = _last(raw[spec.name])
        if isinstance(value, str):
            return value.lower() not in ("false", "0") and bool(value)
        return bool(value)
    value = raw.get(spec.name)
    if spec.kind == "multi":
        if _empty(value):
            value = []
        elif isinstance(value, str):
            value = [value]  # one checkbox ticked: the phone may send it bare
        elif not isinstance(value, (list, tuple)):
            raise FieldError(("Enter a list of values.", "invalid_list"))
        value = [str(v) for v in value]
        if spec.required and not value:
            raise FieldError((spec.required_message, "required"))
        for v in value:
            if v not in spec.choices:
                raise FieldError((INVALID_CHOICE.format(v), "invalid_choice"))
        return value
    value = _last(value)
    if spec.kind in ("choice", "int_choice"):
        value = "" if _empty(value) else str(value)
        if spec.required and not value:
            raise FieldError((spec.required_message, "required"))
        if value and value not in spec.choices:
            raise FieldError((INVALID_CHOICE.format(value), "invalid_choice"))
        if spec.kind == "int_choice":
            return None if value == "" else int(value)
        return value
    if spec.kind == "int":
        if _empty(value):
            return None
        text = re.sub(r"\.0*\s*$", "", str(value).strip())
        try:
            number = int(text)
        except ValueError:
            raise FieldError(("Enter a whole number.", "invalid")) from None
        if spec.min_value is not None and number < spec.min_value:
            raise FieldError((f"Ensure this value is greater than or equal to {spec.min_value}.", "min_value"))
        if spec.max_value is not None and number > spec.max_value:
            raise FieldError((f"Ensure this value is less than or equal to {spec.max_value}.", "max_value"))
        return number
    # text: stripped; every validator's message, as Django runs them all
    text = "" if _empty(value) else str(value).strip()
    problems = []
    if spec.max_length is not None and len(text) > spec.max_length:
        problems.append((f"Ensure this value has at most {spec.max_length} characters (it has {len(text)}).",
                         "max_length"))
    if "\x00" in text:
        problems.append(("Null characters are not allowed.", "null_characters_not_allowed"))
    if problems:
        raise FieldError(*problems)
    return text


def clean_fields(rules: Ruleset, raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, list[tuple[str, str]]]]:
    """Every field of the hand form read from ``raw`` (name -> text or list
    of texts, as posted): the cleaned values, and the errors per field."""
    data: dict[str, Any] = {}
    errors: dict[str, list[tuple[str, str]]] = {}
    for spec in field_specs(rules):
        if spec.name not in raw and not spec.required:
            data[spec.name] = EMPTY[spec.kind]()  # most fields are not sent: the same value, sooner
            continue
        try:
            data[spec.name] = clean_one(spec, raw)
        except FieldError as err:
            errors[spec.name] = err.messages
    return data, errors
