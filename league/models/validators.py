"""The validators the models' fields share: a seat, a value within its
bounds (league.db_bounds), a storable moment, a ruleset ``scoring`` accepts
and a list of seats. Forms and ``full_clean`` check the same numbers."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator

from league.db_bounds import Whole, time_problem
from scoring.errors import ScoringError
from scoring.game import SEATS  # league.models.SEATS: one definition, the engine's
from scoring.rules import get_ruleset

SEAT = MaxValueValidator(3, "A seat is 0 (first East) to 3.")


def within(bound: Whole) -> list[Any]:
    """A field's validators from its bounds (league.db_bounds), so that forms and
    ``full_clean`` hold it to the same numbers on SQLite as on PostgreSQL."""
    return [MinValueValidator(bound.lo), MaxValueValidator(bound.hi)]


def validate_moment(value: datetime.datetime) -> None:
    """A time both databases store (league.db_bounds.time_problem)."""
    if isinstance(value, datetime.datetime) and (problem := time_problem(value)):
        raise ValidationError(problem, code="out_of_range")


def validate_rules(value: Any) -> None:
    """Model validator: a ``{"preset", "overrides"}`` that ``scoring`` accepts."""
    try:
        get_ruleset(value)
    except ScoringError as err:
        raise ValidationError(err.message, code=err.code) from None


def seat_list(value: Any) -> None:
    if not isinstance(value, list) or any(not isinstance(s, int) or s not in SEATS for s in value):
        raise ValidationError("must be a list of seats 0-3", code="invalid_seat")
