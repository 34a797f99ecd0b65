"""The New event page's form (issue 32): name, dates, a ruleset preset by
name with overrides as fields (never JSON), rounds, seating, the clock, the
substitute rule, stages and EMA details. Every number is read through its
bound in ``league.db_bounds``, and every refusal names its field."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from league.db_bounds import (
    EMA_DAYS,
    EVENT_ROUNDS,
    RULE_BONUS,
    RULE_POINTS,
    SERIES_NAME,
    SLUG_LENGTH,
    TIME_LIMIT,
    Whole,
)
from league.forms.base import StaffForm
from league.forms.stages import parse_stages, stages_text
from league.models import Event
from league.models.stages import Stage
from league.services.event.setup import EventPlan, current_plan
from league.services.stages import StagePlan
from scoring.rules import PRESETS, Ruleset

PLACES = (_("1st"), _("2nd"), _("3rd"), _("4th"))
DEFAULT_PRESET = "ema-2016"


def presets() -> dict[str, Ruleset]:
    """The four-player presets an event can use, by name (events seat four a table)."""
    return {name: r for name, r in PRESETS.items() if r.players == 4}


class PresetSelect(forms.Select):
    """The presets by their names, which are identifiers (``ema-2016``) in every language."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        option["attrs"]["lang"] = "en"
        return option


class WholeField(forms.CharField):
    """A whole number held to one bound of ``league.db_bounds``; the refusal
    names the field ("Rounds planned: must be a whole number from 1 to 100")."""

    def __init__(self, bound: Whole, *args: Any, **kwargs: Any) -> None:
        self.bound = bound
        kwargs.setdefault("widget", forms.NumberInput(attrs={"inputmode": "numeric", "min": bound.lo, "max": bound.hi}))
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> int | None:
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        number = self.bound.read(str(text))
        if number is None:
            raise ValidationError(_("%(field)s: must be a whole number from %(lo)s to %(hi)s, not %(value)s") % {
                "field": self.label, "lo": f"{self.bound.lo:,}", "hi": f"{self.bound.hi:,}",
                "value": str(text)[:20]}, code="out_of_bounds")
        return number


class PointsField(forms.CharField):
    """Points with at most one decimal (+30.0, -15.0) as thousandths, within ``bound``."""

    def __init__(self, bound: Whole, *args: Any, **kwargs: Any) -> None:
        self.bound = bound
        kwargs.setdefault("widget", forms.NumberInput(attrs={"step": "0.1", "inputmode": "decimal"}))
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> int | None:
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        try:
            number = Decimal(str(text).strip()[:20])
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite() or number != number.quantize(Decimal("0.1")) or \
                self.bound.problem(int(number * 1000)):
            raise ValidationError(_("%(field)s: points with at most one decimal, from %(lo)s to %(hi)s") % {
                "field": self.label, "lo": self.bound.lo // 1000, "hi": self.bound.hi // 1000}, code="out_of_bounds")
        return int(number * 1000)


class EventForm(StaffForm):
    name = forms.CharField(label=_("Name"), max_length=SERIES_NAME)
    slug = forms.SlugField(label=_("Address"), max_length=SLUG_LENGTH, required=False,
                           help_text=_("Letters, digits and hyphens, in the event's web address. Blank: made from "
                                       "the name."))
    start_date = forms.DateField(label=_("Start date"), widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    preset = forms.ChoiceField(label=_("Ruleset"), widget=PresetSelect, help_text=_("Its values are in the table below; a box left "
                                                              "blank keeps the preset's value."))
    start_points = WholeField(RULE_POINTS, label=_("Start points"), required=False)
    return_points = WholeField(RULE_POINTS, label=_("Return points"), required=False)
    uma_1 = PointsField(RULE_BONUS, label=_("Uma, 1st"), required=False)
    uma_2 = PointsField(RULE_BONUS, label=_("Uma, 2nd"), required=False)
    uma_3 = PointsField(RULE_BONUS, label=_("Uma, 3rd"), required=False)
    uma_4 = PointsField(RULE_BONUS, label=_("Uma, 4th"), required=False)
    oka = PointsField(RULE_BONUS, label=_("Oka"), required=False)
    aka_dora = WholeField(Whole(0, 4), label=_("Red fives"), required=False)
    rounds = WholeField(EVENT_ROUNDS, label=_("Rounds planned"))
    seating = forms.ChoiceField(label=_("Seating"), choices=Event.Seating.choices, widget=forms.RadioSelect)
    time_limit = WholeField(TIME_LIMIT, label=_("Time limit (minutes)"))
    ending = forms.ChoiceField(label=_("When time is up"), choices=Event.Ending.choices, widget=forms.RadioSelect)
    substitute_result = forms.ChoiceField(label=_("A substituted player scores"),
                                          choices=Event.SubstituteResult.choices, widget=forms.RadioSelect)
    substitute_score = PointsField(RULE_BONUS, label=_("Fixed score of a substituted seat"), required=False)
    substitute_uma = PointsField(RULE_BONUS, label=_("Fixed uma of a substituted seat"), required=False)
    stages = forms.CharField(label=_("Stages"), required=False, widget=forms.Textarea(attrs={"rows": 3}),
                             help_text=_("One stage per line, e.g. 'Qualifying: rounds 1-4' and "
                                         "'Final: round 5, top 4, half, snake'. Blank: one stage."))
    ema_name = forms.CharField(label=_("Tournament name for the EMA"), max_length=200, required=False)
    ema_city = forms.CharField(label=_("City"), max_length=100, required=False)
    ema_country = forms.CharField(label=_("Host country"), max_length=2, required=False,
                                  help_text=_("ISO 3166 code: NL, JP, DE..."))
    ema_qualification = forms.BooleanField(label=_("Qualification required"), required=False)
    ema_days = WholeField(EMA_DAYS, label=_("Days"), required=False)

    RULES = ("preset", "start_points", "return_points", "uma_1", "uma_2", "uma_3", "uma_4", "oka", "aka_dora")

    def __init__(self, *args: Any, frozen: frozenset[str] = frozenset(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [(n, n) for n in presets()]
        for name in frozen:
            self.fields[name].disabled = True

    @classmethod
    def initial_for(cls, series: Any = None) -> dict[str, Any]:
        if series is None:
            return {"preset": DEFAULT_PRESET, "rounds": 8, "seating": Event.Seating.PREGENERATED,
                    "time_limit": 90, "ending": Event.Ending.ONE_MORE_HAND,
                    "substitute_result": Event.SubstituteResult.FIXED, "substitute_score": "-15.0",
                    "substitute_uma": "-15.0"}
        plan = current_plan(series)
        overrides = plan.rules.get("overrides", {}) if isinstance(plan.rules, dict) else {}
        initial: dict[str, Any] = {
            "name": plan.name, "slug": plan.slug, "start_date": plan.start_date, "end_date": plan.end_date,
            "preset": plan.rules.get("preset", DEFAULT_PRESET) if isinstance(plan.rules, dict) else plan.rules,
            **{n: overrides[n] for n in ("start_points", "return_points", "aka_dora") if n in overrides},
            **plan.settings, **plan.ema,
            "substitute_score": f"{plan.settings['substitute_score'] / 1000:.1f}",
            "substitute_uma": f"{plan.settings['substitute_uma'] / 1000:.1f}",
            "stages": stages_text(list(Stage.objects.filter(series=series).order_by("number"))),
        }
        if "uma" in overrides:
            initial.update({f"uma_{i + 1}": f"{u / 1000:.1f}" for i, u in enumerate(overrides["uma"])})
        if "oka" in overrides:
            initial["oka"] = f"{overrides['oka'] / 1000:.1f}"
        return initial

    def clean_slug(self) -> str:
        return self.cleaned_data.get("slug") or ""

    def clean_stages(self) -> list[StagePlan]:
        text = self.cleaned_data.get("stages") or ""
        return parse_stages(text) if text.strip() else []

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name"):
            data["slug"] = slugify(data["name"])[:SLUG_LENGTH].strip("-")
            if not data["slug"] and "slug" not in self.errors:
                self.add_error("slug", _("Address: the name has no letters a web address can use; type one."))
        umas = [data.get(f"uma_{i}") for i in range(1, 5)]
        if any(u is not None for u in umas) and any(u is None for u in umas):
            self.add_error("uma_1", _("Uma: give all four places, or none to keep the preset's."))
        return data

    def rules(self) -> dict[str, Any]:
        d = self.cleaned_data
        overrides: dict[str, Any] = {n: d[n] for n in ("start_points", "return_points", "aka_dora") if d.get(n) is not None}
        if all(d.get(f"uma_{i}") is not None for i in range(1, 5)):
            overrides["uma"] = [d[f"uma_{i}"] for i in range(1, 5)]
        if d.get("oka") is not None:
            overrides["oka"] = d["oka"]
        return {"preset": d["preset"], "overrides": overrides} if overrides else {"preset": d["preset"]}

    def plan(self) -> EventPlan:
        d = self.cleaned_data
        settings = {n: d[n] for n in ("rounds", "seating", "time_limit", "ending", "substitute_result")}
        settings["substitute_score"] = d["substitute_score"] if d.get("substitute_score") is not None else -15000
        settings["substitute_uma"] = d["substitute_uma"] if d.get("substitute_uma") is not None else -15000
        ema = {n: d[n] for n in ("ema_name", "ema_city", "ema_qualification", "ema_days")}
        ema["ema_country"] = (d.get("ema_country") or "").upper()
        return EventPlan(name=d["name"], slug=d["slug"], start_date=d["start_date"], end_date=d.get("end_date"),
                         rules=self.rules(), settings=settings, ema=ema,
                         stages=[] if self.fields["stages"].disabled else d.get("stages") or [])

    def service_field(self, field: str | None) -> str | None:
        if field == "uma":
            return "uma_1"
        return field if field in self.fields else None


def preset_rows() -> list[dict[str, Any]]:
    """Each preset's values as the table under the form shows them."""
    return [{"name": n, "start": r.start_points, "return": r.return_points, "uma": [u / 1000 for u in r.uma],
             "oka": r.oka / 1000, "aka": r.aka_dora, "length": r.length.value, "kiriage": r.kiriage}
            for n, r in presets().items()]
