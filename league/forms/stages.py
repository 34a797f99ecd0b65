"""Staff forms for stages, tie-breaks, teams, playoffs and the EMA details.

Stages are written one per line, the way a director says them::

    Qualifying: rounds 1-4
    Final: round 5, top 4, half, snake
    Grand final: round 6, top 4, fixed +8.0/+4.0/0/-4.0

Each line is a name, then the rounds, then for a cut stage ``top K``, the
carry-over (full, half, none, or fixed with one figure per seed) and the
seating (snake, locked or swiss).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from league.db_bounds import EVENT_NUMBER, EVENT_ROUND, STAGE_NUMBER
from league.models import Registration, Series
from league.models.stages import EventRules, Stage, StageSeed
from league.services.stages import StagePlan
from league.tiebreaks import RULES

ROUNDS = re.compile(r"^rounds?\s+(\d+)(?:\s*-\s*(\d+))?$")


def parse_stages(text: str) -> list[StagePlan]:
    """Stage lines as plans; a bad line is refused with its number and why.

    >>> parse_stages("Qualifying: rounds 1-4\\nFinal: round 5, top 4, half")[1]
    StagePlan(name='Final', first_round=5, last_round=5, entry='top', top=4, carry='half', fixed_points=(), seating='snake')
    """
    plans = []
    for n, line in enumerate((ln.strip() for ln in text.splitlines()), start=1):
        if not line:
            continue
        name, sep, rest = line.partition(":")
        if not sep or not name.strip():
            raise ValidationError(f"line {n}: start with the stage's name and a colon, e.g. 'Final: round 5, top 4'",
                                  code="invalid_stage")
        parts = [p.strip().lower() for p in rest.split(",") if p.strip()]
        if not parts or not (m := ROUNDS.match(parts[0])):
            raise ValidationError(f"line {n}: say its rounds first, e.g. 'rounds 1-4' or 'round 5'", code="invalid_stage")
        first, last = EVENT_ROUND.read(m.group(1)), EVENT_ROUND.read(m.group(2) or m.group(1))
        if first is None or last is None:
            raise ValidationError(f"line {n}: rounds are numbered 1 to {EVENT_ROUND.hi}", code="invalid_stage")
        plan: dict[str, Any] = {"name": name.strip(), "first_round": first, "last_round": last}
        for part in parts[1:]:
            word, _sep, value = part.partition(" ")
            if word == "top" and value.strip().isdigit():
                if (top := EVENT_NUMBER.read(value)) is None:
                    raise ValidationError(f"line {n}: the cut takes 4 to {EVENT_NUMBER.hi:,} players",
                                          code="invalid_stage")
                plan["entry"], plan["top"] = "top", top
            elif part in Stage.Carry.values and part != Stage.Carry.FIXED:
                plan["carry"] = part
            elif word == Stage.Carry.FIXED:
                plan["carry"], plan["fixed_points"] = "fixed", _fixed(n, value)
            elif part in Stage.Seating.values:
                plan["seating"] = part
            else:
                raise ValidationError(f"line {n}: {part!r} is not 'top K', a carry-over (full, half, none, fixed "
                                      "+8.0/+4.0/...) or a seating (snake, locked, swiss)", code="invalid_stage")
        if plan.get("entry") == "top" and "carry" not in plan:
            plan["carry"] = "full"
        plans.append(StagePlan(**plan))
    return plans


def _fixed(line: int, value: str) -> tuple[int, ...]:
    try:
        figures = [Decimal(v.strip()) for v in value.split("/") if v.strip()]
    except InvalidOperation:
        raise ValidationError(f"line {line}: fixed points are figures split by '/', e.g. +8.0/+4.0/0/-4.0",
                              code="invalid_stage") from None
    if any((f * 1000) % 1 for f in figures):
        raise ValidationError(f"line {line}: fixed points have at most three decimals", code="invalid_stage")
    return tuple(int(f * 1000) for f in figures)


def stages_text(stages: list[Stage]) -> str:
    """The stage lines that ``parse_stages`` reads back."""
    lines = []
    for s in stages:
        rounds = f"round {s.first_round}" if s.first_round == s.last_round else f"rounds {s.first_round}-{s.last_round}"
        parts = [rounds]
        if s.is_cut:
            parts += [f"top {s.top}", s.carry if s.carry != Stage.Carry.FIXED else "fixed " + "/".join(
                f"{Decimal(p) / 1000:+}" for p in s.fixed_points), s.seating]
        lines.append(f"{s.name}: {', '.join(parts)}")
    return "\n".join(lines)


class StagesForm(forms.Form):
    template_name = "league/staff_form.html"
    stages = forms.CharField(label=_("Stages"), widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
                             help_text=_("One stage per line, e.g. 'Qualifying: rounds 1-4' and "
                                       "'Final: round 5, top 4, half, snake'."))

    def clean_stages(self) -> list[StagePlan]:
        return parse_stages(self.cleaned_data["stages"])


class EventRulesForm(forms.ModelForm):
    template_name = "league/staff_form.html"

    class Meta:
        model = EventRules
        fields = ["tiebreaks", "team_scoring", "team_best", "teammates_apart", "ema_name", "ema_city", "ema_country",
                  "ema_qualification", "ema_days"]
        widgets = {"team_scoring": forms.RadioSelect}
        labels = {"tiebreaks": _("Tie-breaks"), "team_scoring": _("Team scoring"), "team_best": _("Best K members"),
                  "teammates_apart": _("Teammates apart"), "ema_name": _("Tournament name for the EMA"),
                  "ema_city": _("City"), "ema_country": _("Host country"),
                  "ema_qualification": _("Qualification required"), "ema_days": _("Days")}
        help_texts = {"tiebreaks": format_lazy(_("After points, in order, comma-separated: {}"), ", ".join(RULES))}


class PlayoffForm(forms.Form):
    template_name = "league/staff_form.html"
    # Picked from the event's stages by name (issue 32), never typed as a number.
    stage = forms.TypedChoiceField(label=_("Stage"), coerce=int, empty_value=None,
                                   help_text=_("The stage whose standings the playoff settles."))
    places = forms.CharField(label=_("Places"), help_text=_("Event numbers, winner first, e.g. '6, 4'."))

    def __init__(self, *args: Any, series: Series, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.series = series
        stages = list(Stage.objects.filter(series=series).order_by("number").values_list("number", "name"))
        field = self.fields["stage"]
        if stages:
            field.choices = [(n, name) for n, name in stages if STAGE_NUMBER.lo <= n <= STAGE_NUMBER.hi]
            # The stage a cut is waiting on comes first: the last one with entries, else the first.
            if not self.is_bound:
                self.initial["stage"] = self._cut_stage(stages)
        else:
            field.choices = [("", _("The whole event (no stages)"))]
            field.required = False

    def _cut_stage(self, stages: list[tuple[int, str]]) -> int:
        made = set(StageSeed.objects.filter(stage__series=self.series).values_list("stage__number", flat=True))
        for (number, _name), (following, _next_name) in zip(stages, stages[1:], strict=False):
            if following not in made:
                return number  # the next stage is not cut yet: its cut line is what a playoff settles
        return stages[0][0]

    def clean_places(self) -> list[tuple[Registration, int]]:
        texts = [p.strip() for p in self.cleaned_data["places"].split(",") if p.strip()]
        numbers = [EVENT_NUMBER.read(n) for n in texts]  # never int() of 5,000 digits
        if None in numbers:
            raise ValidationError(_("event numbers split by commas, winner first"), code="invalid_places")
        regs = {r.number: r for r in self.series.registrations.filter(number__in=numbers)}
        unknown = [str(n) for n in numbers if n not in regs]
        if unknown:
            raise ValidationError(_("no player registered as %(numbers)s") % {"numbers": ", ".join(unknown)},
                                  code="not_registered")
        return [(regs[n], i) for i, n in enumerate(numbers, start=1)]
