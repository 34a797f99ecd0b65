"""Stages, tie-breaks and teams of an event: what a federation's results need
beyond one flat table.

A ``Stage`` is a run of consecutive rounds; a later one takes the top K of the
stage before, frozen as ``StageSeed`` rows at the cut with the points each seed
carries in. Games always start from the ruleset's start score. ``EventRules``
holds the tie-break order, team scoring and the EMA details; ``Playoff`` rows
separate players level after every other rule. Writes go through
``league.services.stages``, audited. docs/director.md, "Stages, tie-breaks,
teams and the EMA results".
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.db_bounds import EMA_DAYS, EVENT_ROUND, PLACE, SEED, STAGE_NUMBER, STAGE_TOTAL, TEAM_BEST
from league.models.event import Registration
from league.models.people import Series
from league.models.validators import validate_moment, within
from league.tiebreaks import DEFAULT_RULES, RULES, TiebreakError, check_rules


def validate_tiebreaks(value: str) -> None:
    try:
        check_rules(split_rules(value))
    except TiebreakError as err:
        raise ValidationError(err.message, code=err.code) from None


def split_rules(value: str) -> list[str]:
    return [r.strip() for r in value.split(",") if r.strip()]


class EventRules(models.Model):
    """The series' tie-breaks, team scoring and EMA details. One per event series."""

    class TeamScoring(models.TextChoices):
        SUM = "sum", _("Sum of every member's points")
        BEST = "best", _("Sum of the best K members' points in each round")

    series = models.OneToOneField(Series, on_delete=models.CASCADE, related_name="event_rules")
    tiebreaks = models.CharField(
        max_length=200, default=",".join(DEFAULT_RULES), validators=[validate_tiebreaks],
        help_text="After points, in order, comma-separated: " + ", ".join(RULES),
    )
    team_scoring = models.CharField(max_length=10, choices=TeamScoring.choices, default=TeamScoring.SUM)
    team_best = models.PositiveSmallIntegerField(_("best K members"), default=2, validators=within(TEAM_BEST))
    teammates_apart = models.BooleanField(default=True, help_text=_("Seat teammates at different tables where possible."))
    # The EMA results file (league.ema): what the event's records cannot say.
    ema_name = models.CharField(_("tournament name for the EMA"), max_length=200, blank=True,
                                help_text=_("Blank: the series' name."))
    ema_city = models.CharField(_("city"), max_length=100, blank=True)
    ema_country = models.CharField(_("host country"), max_length=2, blank=True, help_text=_("ISO 3166 code"))
    ema_qualification = models.BooleanField(_("qualification required"), default=False,
                                            help_text=_("A championship with qualification: +1 MERS weight."))
    ema_days = models.PositiveSmallIntegerField(_("days"), null=True, blank=True, validators=within(EMA_DAYS),
                                                help_text=_("Blank: the days on which the event's games were played."))

    def __str__(self) -> str:
        return f"{self.series} (event rules)"

    @property
    def tiebreak_list(self) -> list[str]:
        return split_rules(self.tiebreaks)


class Stage(models.Model):
    class Qualification(models.TextChoices):
        ALL = "all", _("Everyone")
        TOP = "top", _("The top K of the previous stage")

    class Carry(models.TextChoices):
        FULL = "full", _("Full points carried over")
        HALF = "half", _("Half the points carried over")
        NONE = "none", _("Points reset to zero")
        FIXED = "fixed", _("Fixed points per seed")

    class Seating(models.TextChoices):
        SNAKE = "snake", _("Seeded: 1, 8, 9, 16 at one table (snake), then Swiss")
        LOCKED = "locked", _("Locked groups by standings: 1-4, 5-8, ...")
        SWISS = "swiss", _("Swiss by the stage's standings, no repeats where possible")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField(validators=within(STAGE_NUMBER))
    name = models.CharField(max_length=60)
    first_round = models.PositiveSmallIntegerField(validators=within(EVENT_ROUND))
    last_round = models.PositiveSmallIntegerField(validators=within(EVENT_ROUND))
    entry = models.CharField(max_length=10, choices=Qualification.choices, default=Qualification.ALL)
    top = models.PositiveSmallIntegerField(_("K"), null=True, blank=True, validators=within(SEED))
    carry = models.CharField(max_length=10, choices=Carry.choices, default=Carry.FULL)
    fixed_points = models.JSONField(default=list, blank=True,
                                    help_text=_("Thousandths per seed, seed 1 first: +8.0 is 8000."))
    seating = models.CharField(max_length=10, choices=Seating.choices, default=Seating.SNAKE)
    cut_at = models.DateTimeField(null=True, blank=True, validators=[validate_moment], help_text=_("When the director made the cut into this stage."))

    class Meta:
        ordering = ["series_id", "number"]
        constraints = [models.UniqueConstraint(fields=["series", "number"], name="stage_unique_number")]

    def __str__(self) -> str:
        return f"{self.name} (rounds {self.rounds_label})"

    @property
    def rounds_label(self) -> str:
        return str(self.first_round) if self.first_round == self.last_round else f"{self.first_round}-{self.last_round}"

    @property
    def round_count(self) -> int:
        return self.last_round - self.first_round + 1

    def has_round(self, number: int) -> bool:
        return self.first_round <= number <= self.last_round

    @property
    def is_cut(self) -> bool:
        return self.entry == self.Qualification.TOP


class StageSeed(models.Model):
    """A seed of a cut stage, as the cut froze it."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="seeds")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="stage_seeds")
    seed = models.PositiveSmallIntegerField(validators=within(SEED))
    previous_total = models.IntegerField(validators=within(STAGE_TOTAL), help_text=_("Thousandths: the total in the previous stage's standings."))
    carried = models.IntegerField(validators=within(STAGE_TOTAL), help_text=_("Thousandths carried into this stage."))

    class Meta:
        ordering = ["stage_id", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "seed"], name="stageentry_unique_seed"),
            models.UniqueConstraint(fields=["stage", "registration"], name="stageentry_unique_player"),
        ]

    def __str__(self) -> str:
        return f"seed {self.seed}: {self.registration.name}"


class Playoff(models.Model):
    """A playoff staff recorded between players level after every other rule
    (in a stage's standings; no stage: the event's single table)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="playoffs")
    stage = models.ForeignKey(Stage, null=True, blank=True, on_delete=models.CASCADE, related_name="playoffs")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="playoffs")
    place = models.PositiveSmallIntegerField(validators=within(PLACE), help_text=_("1 won the playoff."))

    class Meta:
        ordering = ["series_id", "stage_id", "place"]
        constraints = [models.UniqueConstraint(fields=["series", "stage", "registration"], name="playoff_unique_player")]

    def __str__(self) -> str:
        return f"playoff place {self.place}: {self.registration.name}"


def seating_teams(series: Series, players: list[int]) -> dict[int, str] | None:
    """Registration -> team for the seating engine, among ``players``, when the
    series keeps teammates apart (the default) and anyone has a team; else None."""
    rules = EventRules.objects.filter(series=series).first()
    if rules is not None and not rules.teammates_apart:
        return None
    teams = dict(Registration.objects.filter(series=series, pk__in=players).exclude(team="").values_list("id", "team"))
    return teams or None


def first_cut_round(series: Series) -> int | None:
    """The first round of the series' first cut stage (None: no cut): the
    event's own seating stops before it, the stages page seats from it."""
    return Stage.objects.filter(series=series, entry=Stage.Qualification.TOP).order_by("number").values_list(
        "first_round", flat=True).first()
