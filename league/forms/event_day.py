"""Staff forms of an event day: its settings, one registration, a player
list to import, a swap of two players, a substitute, the clock."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from league.db_bounds import EVENT_NUMBER, EVENT_ROUND, EXTRA_MINUTES, TIME_LIMIT
from league.forms.base import StaffForm
from league.models import WIND_NAMES, Event, Registration, Round, RoundSeat

MAX_UPLOAD = 1_000_000  # bytes: a player list of a few thousand lines


class EventSettingsForm(forms.ModelForm):
    template_name = "league/staff_form.html"
    substitute_score = forms.DecimalField(
        label=_("Fixed score of a substituted seat"), max_digits=6, decimal_places=1,
        help_text=_("Points in place of (end score - return), e.g. -15.0 (EMA as Pantheon applies it)."),
    )
    substitute_uma = forms.DecimalField(label=_("Fixed uma of a substituted seat"), max_digits=6, decimal_places=1,
                                        help_text=_("e.g. -15.0"))

    class Meta:
        model = Event
        fields = ["rounds", "seating", "seed", "time_limit", "ending", "substitute_result", "substitute_score",
                  "substitute_uma", "substitutes_in_standings"]
        widgets = {"seating": forms.RadioSelect, "ending": forms.RadioSelect, "substitute_result": forms.RadioSelect}
        # Labels here, not as the model fields' verbose names (a migration each).
        labels = {"rounds": _("Rounds planned"), "seating": _("Seating"), "seed": _("Seed"),
                  "time_limit": _("Time limit (minutes)"), "ending": _("When time is up"),
                  "substitute_result": _("A substituted player scores"),
                  "substitutes_in_standings": _("Substitutes in standings")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance and not self.is_bound:
            self.initial["substitute_score"] = self.instance.substitute_score / 1000
            self.initial["substitute_uma"] = self.instance.substitute_uma / 1000

    def clean_substitute_score(self) -> int:
        return int(self.cleaned_data["substitute_score"] * 1000)  # thousandths

    def clean_substitute_uma(self) -> int:
        return int(self.cleaned_data["substitute_uma"] * 1000)

    def settings(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class RegistrationForm(StaffForm):
    number = forms.IntegerField(label=_("Event number"), min_value=EVENT_NUMBER.lo, max_value=EVENT_NUMBER.hi,
                                required=False,
                                help_text=_("Left empty: the next free number."))
    first_name = forms.CharField(label=_("First name"), max_length=100)
    last_name = forms.CharField(label=_("Last name"), max_length=100)
    ema_number = forms.CharField(label=_("EMA number"), max_length=20, required=False)
    country = forms.CharField(label=_("Country"), max_length=2, required=False, help_text=_("ISO 3166 code: NL, JP, DE..."))
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    team = forms.CharField(label=_("Team"), max_length=100, required=False)
    is_substitute = forms.BooleanField(label=_("Substitute"), required=False)
    player_id = forms.IntegerField(label=_("Player id"), min_value=1, required=False,
                                   help_text=_("Only when two players share the name: the number after # that "
                                               "tells them apart."))


class ImportForm(StaffForm):
    file = forms.FileField(label=_("Player list (CSV)"), required=False,
                           help_text=_("Columns: number, first name, last name, EMA number, country, club, team, "
                                     "substitute. Line 1 names them."))
    text = forms.CharField(label=_("…or paste it here"), required=False, widget=forms.Textarea(attrs={"rows": 6}))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_UPLOAD:
                raise ValidationError(_("The file is over %(kb)d kB.") % {"kb": MAX_UPLOAD // 1000}, code="too_big")
            try:
                data["content"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ValidationError(_("The file is not UTF-8 text: save it as CSV UTF-8."), code="not_utf8") from None
        elif data.get("text", "").strip():
            data["content"] = data["text"]
        else:
            raise ValidationError(_("Choose a file or paste the list."), code="required")
        return data


def _seat_label(seat: RoundSeat) -> str:
    return _("%(player)s (table %(table)s %(wind)s)") % {
        "player": seat.registration, "table": seat.table.number, "wind": WIND_NAMES[seat.wind]}


class SwapForm(StaffForm):
    first = forms.ModelChoiceField(Registration.objects.none(), label=_("Swap"))
    second = forms.ModelChoiceField(Registration.objects.none(), label=_("with"))

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = list(round.seats.select_related("table", "registration").order_by("registration__number"))
        regs = Registration.objects.filter(pk__in=[s.registration_id for s in seats]).order_by("number")
        label = {s.registration_id: _seat_label(s) for s in seats}
        for name in ("first", "second"):
            self.fields[name].queryset = regs
            self.fields[name].label_from_instance = lambda r: label[r.pk]


class SubstituteForm(StaffForm):
    seat = forms.ModelChoiceField(RoundSeat.objects.none(), label=_("Seat of"))
    substitute = forms.ModelChoiceField(Registration.objects.none(), label=_("played by"), required=False,
                                        empty_label=_("(the registered player)"))

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = round.seats.select_related("table", "registration").order_by(
            "registration__number")
        self.fields["seat"].label_from_instance = _seat_label
        playing = set(round.seats.filter(substitute=None).values_list("registration_id", flat=True))
        self.fields["substitute"].queryset = (
            round.series.registrations.exclude(status=Registration.Status.DROPPED).exclude(pk__in=playing)
            .order_by("-is_substitute", "number")
        )
        self.fields["substitute"].label_from_instance = lambda r: _("%(player)s (substitute)") % {"player": r} if r.is_substitute else str(r)


class ClockForm(StaffForm):
    minutes = forms.IntegerField(label=_("Time limit (minutes)"), min_value=TIME_LIMIT.lo, max_value=TIME_LIMIT.hi)


class ExtraTimeForm(StaffForm):
    minutes = forms.IntegerField(label=_("Extra minutes for this table"), min_value=EXTRA_MINUTES.lo,
                                 max_value=EXTRA_MINUTES.hi)


class HideForm(StaffForm):
    from_round = forms.IntegerField(label=_("Hide results from round"), min_value=EVENT_ROUND.lo,
                                    max_value=EVENT_ROUND.hi)
