"""What every staff form shares: rendering as the staff pages expect, taking a
``ServiceError`` back next to the field it names, and seats named by wind and player."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.core.exceptions import ValidationError

from league.entry.translation import refusal_of
from league.entry.words import seat_words
from league.models import WIND_NAMES, Game
from league.services import ServiceError
from scoring.game import SEATS  # noqa: F401  (league.forms.SEATS)


def seat_names(game: Game) -> list[str]:
    """"East Alice", "South Bob"...: the wind each player started in, then the name."""
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    return [f"{WIND_NAMES[s.seat]} {s.player.name}" for s in seats]


def seat_choices(names: Sequence[str]) -> list[tuple[str, str]]:
    return [(str(i), name) for i, name in enumerate(names)]


def seat_set(values: Sequence[str]) -> tuple[int, ...]:
    return tuple(sorted(int(v) for v in values))


class StaffForm(forms.Form):
    """Renders as staff pages expect and takes ``ServiceError`` back."""

    template_name = "league/staff_form.html"
    names: Sequence[str] = ()

    def service_field(self, field: str | None) -> str | None:
        """The form field a service error's ``field`` names; None = the whole form."""
        if field in self.fields:
            return field
        return None

    def add_service_error(self, err: ServiceError) -> None:
        self.add_error(self.service_field(err.field), ValidationError(self.words(refusal_of(err)), code=err.code))

    def words(self, message: str) -> str:
        """The engine counts seats 0-3; staff know them by wind and name."""
        return seat_words(message, self.names)


