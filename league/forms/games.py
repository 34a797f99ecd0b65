"""Staff forms around a game: starting one, finishing it early, its end scores
only, and penalties."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from league.db_bounds import MAX_ROUND
from league.forms.base import StaffForm, seat_choices
from league.forms.players import PlayerChoiceField
from league.models import Game, Player
from scoring.rules import Ruleset


class StartGameForm(StaffForm):
    round_number = forms.IntegerField(label=_("Round"), min_value=1, max_value=MAX_ROUND, initial=1)
    table = forms.CharField(label=_("Table"), max_length=20, required=False)
    east = PlayerChoiceField(label=_("East (first dealer)"))
    south = PlayerChoiceField(label=_("South"))
    west = PlayerChoiceField(label=_("West"))
    north = PlayerChoiceField(label=_("North"))

    SEAT_FIELDS: tuple[str, ...] = ("east", "south", "west", "north")

    def __init__(self, *args: Any, seats: int = 4, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if seats == 3:  # a three-player series: East, South, West
            del self.fields["north"]
            self.SEAT_FIELDS = self.SEAT_FIELDS[:3]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seen: dict[int, str] = {}
        for name in self.SEAT_FIELDS:
            player = data.get(name)
            if player is None:
                continue
            if player.pk in seen:
                self.add_error(name, _("%(player)s already sits %(seat)s; a player sits once.") % {"player": player, "seat": seen[player.pk]})
            else:
                seen[player.pk] = str(self.fields[name].label).split()[0]
        return data

    def players(self) -> list[Player]:
        return [self.cleaned_data[name] for name in self.SEAT_FIELDS]

    def service_field(self, field: str | None) -> str | None:
        m = re.fullmatch(r"players\[(\d)\]", field or "")
        if m:
            return self.SEAT_FIELDS[int(m[1])]
        return super().service_field(field)



class FinishForm(StaffForm):
    end = forms.ChoiceField(label=_("How does the game end?"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, rules: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(Game.End.EARLY.value, _("End it now (time is up)"))]
        if "optional" in (rules.agari_yame.value, rules.tenpai_yame.value):
            choices.append((Game.End.AGARI_YAME.value, _("The all-last dealer stops (agari-yame)")))
        self.fields["end"].choices = choices
        self.fields["end"].initial = Game.End.EARLY.value


class FinalScoresForm(StaffForm):
    """A game kept by its end scores only (four, or three in a three-player game)."""

    riichi_sticks = forms.IntegerField(label=_("Riichi sticks left on the table"), min_value=0, initial=0)

    def __init__(self, *args: Any, names: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = list(names)
        sticks = self.fields.pop("riichi_sticks")
        for s in range(len(self.names)):  # one per seat: three in a three-player game
            self.fields[f"score_{s}"] = forms.IntegerField(
                label=_("%(name)s: end score") % {"name": self.names[s]}, step_size=100,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 100}),
                error_messages={"step_size": _("Table points come in hundreds.")},
            )
        self.fields["riichi_sticks"] = sticks

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{s}"] for s in range(len(self.names))]

    def service_field(self, field: str | None) -> str | None:
        if field == "final.riichi_sticks":
            return "riichi_sticks"
        m = re.fullmatch(r"final\.scores\[(\d)\]", field or "")
        if m:
            return f"score_{m[1]}"
        return None  # the sum concerns all four: shown above them


class PenaltyForm(StaffForm):
    seat = forms.TypedChoiceField(label=_("Who?"), coerce=int, widget=forms.RadioSelect)
    points = forms.DecimalField(label=_("Points"), max_digits=7, decimal_places=1,
                                help_text=_("Negative for a penalty: -20 takes 20.0 points after uma."),
                                widget=forms.NumberInput(attrs={"step": "0.1", "inputmode": "decimal"}))
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args: Any, names: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = list(names)
        self.fields["seat"].choices = seat_choices(self.names)

    def clean_points(self) -> int:
        value: Decimal = self.cleaned_data["points"]
        if value == 0:
            raise ValidationError(_("A penalty of 0 changes nothing."), code="invalid_penalty")
        return int(value * 1000)  # thousandths, as everything after uma is stored
