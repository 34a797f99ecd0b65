"""The hand form's fields as data, the one table of them: names, kinds,
choices, bounds, labels and help (English msgids, marked for the catalogue
with ``gettext_noop``) and widgets. Each consumer reads this table:

- the server's Django form is built from it by a small adapter
  (``league.forms.hand_fields``), which names the choices in the reader's
  language;
- the phone's engine (Pyodide) checks and converts each posted value as the
  Django field does (``clean_one`` below), with Django's own messages;
- the page's script learns which fields post several values from the
  table's JSON in the page (``field_kinds``; ``league/static/league/engine.js``).

The checks across fields are shared too (``league.entry.hand``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from league.bounded_map import BoundedMap
from league.entry.tables import FLAG_CHOICES, FU_CHOICES, HAN_CHOICES, yaku_table, yakuman_table
from league.entry.translation import gettext, gettext_noop, ngettext
from scoring.rules import ABORT_REASONS, Ruleset

# Django's own messages for the fields' errors (its msgids: translated by Django's
# catalogue on the server, by the engine's catalogue on the phone).
INVALID_CHOICE = gettext_noop("Select a valid choice. %(value)s is not one of the available choices.")
REQUIRED = gettext_noop("This field is required.")
# Fields the phone does not read: the shell's bookkeeping (number, state, key), checked by the server.
BOOKKEEPING = ("number", "state", "key")

# The widget each kind gets unless the table names another.
WIDGETS = {"choice": "radio", "int_choice": "radio", "multi": "checkboxes", "int": "number", "bool": "checkbox",
           "text": "text"}


@dataclass(frozen=True)
class Spec:
    """One field. ``kind`` is choice, multi, int_choice, int, bool or text;
    ``widget`` radio, checkboxes, number, checkbox, text or hidden.
    ``names`` says how the choices are named: ``seats`` (the players),
    ``han`` (13 is "13+"), ``yakuman``, ``yaku``, ``flags`` (the tile situations), ``abort`` (the
    reasons), ``same`` (the value itself), or a tuple of msgids, one a choice.
    ``label``, ``help`` and ``required_message`` are English msgids."""

    name: str
    kind: str
    choices: tuple[str, ...] = ()
    required: bool = False
    required_message: str = REQUIRED
    max_length: int | None = None
    min_value: int | None = None
    max_value: int | None = None
    label: str = ""
    help: str = ""
    widget: str = ""
    names: str | tuple[str, ...] = "same"
    pattern: str = ""  # a text field's whole value must match it (the entry key)

    def __post_init__(self) -> None:
        if not self.widget:
            object.__setattr__(self, "widget", WIDGETS[self.kind])


@functools.lru_cache(maxsize=16)
def field_specs(rules: Ruleset, *, bookkeeping: bool = False) -> tuple[Spec, ...]:
    """The hand form's fields under ``rules``, in the form's order; the
    bookkeeping fields (number, state, key) first when asked for."""
    # The table's seats: 0-3, or 0-2 for three players (no North seat).
    seats = tuple(str(s) for s in rules.seats)
    outcomes = [("ron", gettext_noop("Ron")), ("tsumo", gettext_noop("Tsumo")), ("draw", gettext_noop("Draw"))]
    if rules.abortive_draws:
        outcomes.append(("abort", gettext_noop("Abort")))
    outcomes.append(("chombo", gettext_noop("Chombo")))
    specs = [
        # Hidden, but labelled all the same: a hand-made post's refusal names the field.
        Spec("number", "int", required=True, min_value=1, widget="hidden", label=gettext_noop("Hand number")),
        # The state the entry was built on (scoring.digest) and the client's key for it.
        Spec("state", "text", max_length=64, widget="hidden", label=gettext_noop("Game state")),
        Spec("key", "text", widget="hidden", pattern=r"^[A-Za-z0-9-]{8,64}$", label=gettext_noop("Entry key")),
    ] if bookkeeping else []
    specs += [
        Spec("outcome", "choice", tuple(v for v, _ in outcomes), required=True,
             required_message=gettext_noop("Choose what happened."), label=gettext_noop("What happened?"),
             names=tuple(n for _, n in outcomes)),
        Spec("winners", "multi", seats, label=gettext_noop("Who won?"), help=gettext_noop("Tick two for a double ron."),
             names="seats"),
        Spec("loser", "choice", seats, label=gettext_noop("Who dealt in?"), names="seats"),
        Spec("winner", "choice", seats, label=gettext_noop("Who won?"), names="seats"),
    ]
    fu = tuple(str(x) for x in FU_CHOICES)
    for s in rules.seats:
        # Han and fu as tap targets (radio buttons), not 13-item dropdowns.
        specs += [
            Spec(f"han_{s}", "int_choice", tuple(v for v, _ in HAN_CHOICES), label=gettext_noop("Han"), names="han"),
            Spec(f"fu_{s}", "int_choice", fu, label=gettext_noop("Fu")),
            Spec(f"yakuman_{s}", "multi", tuple(yakuman_table(rules)), label=gettext_noop("Yakuman"),
                 names="yakuman"),
        ]
        if rules.pao:
            specs.append(Spec(f"pao_{s}", "choice", ("", *seats), label=gettext_noop("Pao: who fed the last set?"),
                              names="seats"))
        specs += [
            Spec(f"yaku_{s}", "multi", tuple(yaku_table(rules)), label=gettext_noop("Yaku"), names="yaku"),
            Spec(f"dora_{s}", "int", min_value=0, max_value=30, label=gettext_noop("Dora (with aka and ura)")),
        ]
        if rules.players == 3:
            # Three players set Norths aside (kita), each one dora on top of the
            # han given (sanma.md section 2); a North the indicators make dora counts as dora.
            # Tap chips 0-4 (a set has four Norths): one tap, and 0 undoes a wrong one.
            specs.append(Spec(f"kita_{s}", "int_choice", ("0", "1", "2", "3", "4"),
                              label=gettext_noop("Kita"),
                              help=gettext_noop("Norths set aside (nuki dora): each adds one han to the han above.")))
        specs += [
            Spec(f"open_{s}", "bool", label=gettext_noop("Open hand (called tiles)")),
            Spec(f"tiles_{s}", "text", max_length=60, label=gettext_noop("Closed tiles with the winning tile"),
                 help=gettext_noop("e.g. 234m678p11s55z; 0 is a red five")),
            Spec(f"win_tile_{s}", "text", max_length=3, label=gettext_noop("Winning tile")),
            Spec(f"melds_{s}", "text", max_length=80, label=gettext_noop("Calls"),
                 help=gettext_noop("e.g. pon 555z, chi 123m, ankan 0555p")),
            Spec(f"flags_{s}", "multi", tuple(k for k, _ in FLAG_CHOICES), label=gettext_noop("Also"), names="flags"),
        ]
    specs += [
        Spec("dora_indicators", "text", max_length=40, label=gettext_noop("Dora indicators"),
             help=gettext_noop("e.g. 4m 7z")),
        Spec("ura_indicators", "text", max_length=40, label=gettext_noop("Ura dora indicators")),
        Spec("tenpai", "multi", seats, label=gettext_noop("Who was tenpai?"), names="seats"),
        Spec("all_noten", "bool", label=gettext_noop("Nobody was tenpai")),
    ]
    if rules.nagashi_mangan:
        specs.append(Spec("nagashi", "multi", seats, label=gettext_noop("Nagashi mangan"), names="seats"))
    if rules.abortive_draws:
        specs.append(Spec("abort_reason", "choice", tuple(r for r in ABORT_REASONS if r in rules.abortive_draws),
                          label=gettext_noop("Why?"), names="abort"))
    specs += [
        Spec("offender", "choice", seats, label=gettext_noop("Who made the chombo?"), names="seats"),
        Spec("riichi", "multi", seats, label=gettext_noop("Who declared riichi?"),
             help=gettext_noop("Each puts a 1,000 stick on the table."), names="seats"),
        Spec("note", "text", max_length=500, label=gettext_noop("Note")),
    ]
    return tuple(specs)


def field_kinds(rules: Ruleset) -> dict[str, list[str]]:
    """The table as the page's script reads it (the JSON block ``#hand-fields``):
    the fields' names by kind. The script needs to know which post several
    values; the phone's Python reads the whole table itself."""
    out: dict[str, list[str]] = {}
    for spec in field_specs(rules):
        out.setdefault(spec.kind, []).append(spec.name)
    return out


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


def _required(spec: Spec) -> str:
    """The field's "required" message as the Django form gives it: its own
    msgid in the reader's language, or Django's default (hand_fields.py)."""
    return gettext(spec.required_message)


def clean_one(spec: Spec, raw: Mapping[str, Any]) -> Any:
    """The field's value as the Django field cleans it, or FieldError."""
    if spec.kind == "bool":
        # CheckboxInput, then BooleanField: absent, empty and "false" (any case)
        # are False. The widget reads the text first, so "0" is True: the
        # field's own "0" rule never sees a string.
        if spec.name not in raw:
            return False
        value = _last(raw[spec.name])
        if isinstance(value, str):
            return value.lower() != "false" and bool(value)
        return bool(value)
    value = raw.get(spec.name)
    if spec.kind == "multi":
        if _empty(value):
            value = []
        elif isinstance(value, str):
            value = [value]  # one checkbox ticked: the phone may send it bare
        elif not isinstance(value, (list, tuple)):
            raise FieldError((gettext("Enter a list of values."), "invalid_list"))
        value = [str(v) for v in value]
        if spec.required and not value:
            raise FieldError((_required(spec), "required"))
        for v in value:
            if v not in spec.choices:
                raise FieldError((gettext(INVALID_CHOICE) % {"value": v}, "invalid_choice"))
        return value
    value = _last(value)
    if spec.kind in ("choice", "int_choice"):
        value = "" if _empty(value) else str(value)
        if spec.required and not value:
            raise FieldError((_required(spec), "required"))
        if value and value not in spec.choices:
            raise FieldError((gettext(INVALID_CHOICE) % {"value": value}, "invalid_choice"))
        if spec.kind == "int_choice":
            return None if value == "" else int(value)
        return value
    if spec.kind == "int":
        if _empty(value):
            if spec.required:
                raise FieldError((_required(spec), "required"))
            return None
        text = str(value).strip()
        if not text.isdigit():  # digits alone need no trimming (most values: the hand's number)
            text = re.sub(r"\.0*\s*$", "", text)
        try:
            number = int(text)
        except ValueError:
            raise FieldError((gettext("Enter a whole number."), "invalid")) from None
        if spec.min_value is not None and number < spec.min_value:
            raise FieldError((gettext("Ensure this value is greater than or equal to %(limit_value)s.")
                              % {"limit_value": spec.min_value}, "min_value"))
        if spec.max_value is not None and number > spec.max_value:
            raise FieldError((gettext("Ensure this value is less than or equal to %(limit_value)s.")
                              % {"limit_value": spec.max_value}, "max_value"))
        return number
    # text: stripped (but by a pattern: Django's RegexField keeps the spaces, so
    # " " is refused); every validator's message, as Django runs them all
    text = "" if _empty(value) else str(value) if spec.pattern else str(value).strip()
    problems = []
    if spec.max_length is not None and len(text) > spec.max_length:
        problems.append((ngettext("Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
                                  "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
                                  spec.max_length) % {"limit_value": spec.max_length, "show_value": len(text)},
                         "max_length"))
    if "\x00" in text:
        problems.append((gettext("Null characters are not allowed."), "null_characters_not_allowed"))
    if spec.pattern and text and not re.search(spec.pattern, text):
        problems.append((gettext("Enter a valid value."), "invalid"))
    if problems:
        raise FieldError(*problems)
    return text


def clean_fields(rules: Ruleset, raw: Mapping[str, Any], *,
                 bookkeeping: bool = False) -> tuple[dict[str, Any], dict[str, list[tuple[str, str]]]]:
    """Every field of the hand form read from ``raw`` (name -> text or list
    of texts, as posted): the cleaned values, and the errors per field; the
    bookkeeping fields too when asked for (the server's live preview)."""
    plan = _plan(rules, bookkeeping)
    # Most fields are not sent: each gets its kind's empty value (a new list
    # for each list), in the form's order, and only the fields sent or
    # required are cleaned one by one, in that order too.
    data = plan.empty.copy()
    for name in plan.lists:
        data[name] = []
    errors: dict[str, list[tuple[str, str]]] = {}
    for spec in plan.checked(raw):
        try:
            data[spec.name] = clean_one(spec, raw)
        except FieldError as err:
            del data[spec.name]  # a refused field leaves the data, as a Django form's does
            errors[spec.name] = err.messages
    return data, errors


@dataclass(frozen=True)
class _Plan:
    """``clean_fields``' reading of one table: the empty values of the fields
    that are not lists, the names of those that are, and each field's place."""

    specs: tuple[Spec, ...]
    empty: dict[str, Any]
    lists: tuple[str, ...]
    place: dict[str, int]
    required: tuple[int, ...]

    def checked(self, raw: Mapping[str, Any]) -> list[Spec]:
        """The fields to clean one by one: those sent and those required, in the form's order."""
        place = self.place
        found = {place[name] for name in raw if name in place}
        found.update(self.required)
        return [self.specs[i] for i in sorted(found)]


# The plans by the rules' identity: a game's read holds its ``Ruleset`` for
# every tap, and an equal one built again (another read) would cost a hash
# of some forty fields and a comparison of them in ``lru_cache`` each time.
# Each entry holds its rules, so their id is not reused while it is kept.
PLANS = 64
_PLANS: BoundedMap[tuple[int, bool], tuple[Ruleset, _Plan]] = BoundedMap(PLANS)


def _plan(rules: Ruleset, bookkeeping: bool) -> _Plan:
    held = _PLANS.get((id(rules), bookkeeping))
    if held is not None and held[0] is rules:
        return held[1]
    plan = _plan_of(rules, bookkeeping)
    _PLANS[id(rules), bookkeeping] = (rules, plan)
    return plan


@functools.lru_cache(maxsize=16)
def _plan_of(rules: Ruleset, bookkeeping: bool) -> _Plan:
    specs = field_specs(rules, bookkeeping=bookkeeping)
    return _Plan(
        specs=specs,
        empty={s.name: None if s.kind == "multi" else EMPTY[s.kind]() for s in specs},
        lists=tuple(s.name for s in specs if s.kind == "multi"),
        place={s.name: i for i, s in enumerate(specs)},
        required=tuple(i for i, s in enumerate(specs) if s.required),
    )
