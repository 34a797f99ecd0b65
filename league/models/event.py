"""An event day on a series: who registered, the rounds of tables the seating
engine produced, who sits where and in which wind, substitutes and the clock.

The seating of a round lives here (``RoundSeat``: a registration at a table and
wind) until the round starts; starting it creates one ``Game`` per table whose
``Seat`` rows name who actually played. A substitute plays a registered
player's seat: the ``RoundSeat`` keeps the registered player and names the
substitute, the game's seat names the substitute, and the event's rule
(``Event.substitute_result``) decides what the registered player scores
(``league.event.results``).

Writes go through ``league.services.event``; every one of them leaves a
``EventAudit`` row.
"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from league.db_bounds import (
    EVENT_NUMBER,
    EVENT_ROUND,
    EVENT_ROUNDS,
    EXTRA_MINUTES,
    SEATING_SEED,
    SUBSTITUTE_POINTS,
    TABLE_NUMBER,
    TIME_LIMIT,
)
from league.engine_words import unreplayable_text
from league.entry.pricing import Unreplayable
from league.event.countries import COUNTRIES
from league.models.games import WIND_NAMES, Game
from league.models.people import Player, Series
from league.models.validators import SEAT, validate_moment, within

# Short-link codes: no 0/O, 1/I/L, so a code read off paper is typed right.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


code_validator = RegexValidator(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}\\Z", "A short-link code is 6 letters and digits.",
                                code="invalid_code")


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))


def validate_country(value: str) -> None:
    if value and value not in COUNTRIES:
        raise ValidationError(f"{value!r} is not an ISO 3166 country code (two letters, e.g. NL, JP)", code="invalid_country")


# Who seated a round (league.services.event.rounds, services.stages), "+swap" once staff swapped.
seated_by_validator = RegexValidator(r"^(pregenerated|swiss|manual|stage:(snake|locked|swiss))?(\+swap)?\Z",
                                     "Seated by pregenerated, swiss, manual or stage:<seating>, +swap after a swap.",
                                     code="invalid_seated_by")
ema_number_validator = RegexValidator(r"^[0-9]{1,20}$", "An EMA number is digits only.", code="invalid_ema_number")


class Event(models.Model):
    """How a series runs as an event: its rounds, seating, clock, substitutes
    and whether the public sees its results. One per series of kind "tournament" (the stored value)."""

    class Seating(models.TextChoices):
        PREGENERATED = "pregenerated", _("Pre-generated for the whole event")
        SWISS = "swiss", _("Swiss: each round from the standings")

    class Ending(models.TextChoices):
        # Pantheon's EndingPolicy (reference tournaments.md section 6)
        END_AFTER_HAND = "end_after_hand", _("Finish the current hand, then the game ends")
        ONE_MORE_HAND = "one_more_hand", _("Finish the current hand and play one more")
        NONE = "none", _("Do not interrupt: the ruleset ends the game")

    class SubstituteResult(models.TextChoices):
        REAL = "real", _("The real result of the seat")
        NOT_COUNTED = "not_counted", _("Not counted: the game is left out")
        FIXED = "fixed", _("A fixed score and uma")

    series = models.OneToOneField(Series, on_delete=models.CASCADE, related_name="event")
    rounds = models.PositiveSmallIntegerField(_("rounds planned"), default=8, validators=within(EVENT_ROUNDS))
    seating = models.CharField(max_length=20, choices=Seating.choices, default=Seating.PREGENERATED)
    seed = models.PositiveIntegerField(default=0, validators=within(SEATING_SEED), help_text=_("The seating engine's seed: the same seed, the same seating."))
    time_limit = models.PositiveSmallIntegerField(
        _("time limit (minutes)"), default=90, validators=within(TIME_LIMIT), help_text=_("WRC recommends 90 minutes; Pantheon's default is 75.")
    )
    ending = models.CharField(_("when time is up"), max_length=20, choices=Ending.choices, default=Ending.ONE_MORE_HAND)
    substitute_result = models.CharField(
        _("a substituted player scores"), max_length=20, choices=SubstituteResult.choices, default=SubstituteResult.FIXED
    )
    substitute_score = models.IntegerField(
        default=-15000, validators=within(SUBSTITUTE_POINTS), help_text=_("Thousandths, in place of (end score - return): EMA's -15.0 is -15000.")
    )
    substitute_uma = models.IntegerField(default=-15000, validators=within(SUBSTITUTE_POINTS), help_text=_("Thousandths, in place of the place's uma."))
    substitutes_in_standings = models.BooleanField(
        default=False, help_text=_("List substitutes in the standings with the results of the games they played.")
    )
    # Pantheon's hide_results: from this round on, the public sees neither
    # standings nor results until the director reveals them (None: all shown).
    hidden_from_round = models.PositiveSmallIntegerField(null=True, blank=True, validators=within(EVENT_ROUND))

    def __str__(self) -> str:
        return f"{self.series} (event)"

    @property
    def results_hidden(self) -> bool:
        return self.hidden_from_round is not None

    def round_visible(self, number: int) -> bool:
        """Whether the public may see the results of round ``number``."""
        return self.hidden_from_round is None or number < self.hidden_from_round


class Registration(models.Model):
    """A player entered in an event, under their event number."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        DROPPED = "dropped", _("Dropped")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    number = models.PositiveIntegerField(_("event number"), validators=within(EVENT_NUMBER))
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    ema_number = models.CharField(_("EMA number"), max_length=20, blank=True, validators=[ema_number_validator])
    country = models.CharField(max_length=2, blank=True, validators=[validate_country], help_text=_("ISO 3166 code"))
    club = models.CharField(max_length=100, blank=True)
    team = models.CharField(max_length=100, blank=True)
    is_substitute = models.BooleanField(
        _("substitute"), default=False, help_text=_("Plays in place of registered players; ranked only if the event says so.")
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    checked_in_at = models.DateTimeField(null=True, blank=True, validators=[validate_moment])
    dropped_at = models.DateTimeField(null=True, blank=True, validators=[validate_moment])
    # The short link printed on the seating list: /n/<code>.
    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_code, editable=False,
                            validators=[code_validator])

    class Meta:
        ordering = ["series_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="registration_unique_number"),
            models.UniqueConstraint(fields=["series", "player"], name="registration_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("event-player", args=[self.series.slug, self.number])

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def is_dropped(self) -> bool:
        return self.status == self.Status.DROPPED

    @property
    def is_checked_in(self) -> bool:
        return self.status == self.Status.CHECKED_IN

    def short_url(self) -> str:
        return reverse("event-short", args=[self.code])


class Round(models.Model):
    """A round of the event: seated (a draft staff review), published (players
    see it), started (every table's game created and the clock running)."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Seated, not published")
        PUBLISHED = "published", _("Published")
        STARTED = "started", _("Started")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="event_rounds")
    number = models.PositiveSmallIntegerField(validators=within(EVENT_ROUND))
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    seated_by = models.CharField(max_length=20, blank=True, validators=[seated_by_validator],
                                 help_text=_("pregenerated, swiss, or swap after either"))
    published_at = models.DateTimeField(null=True, blank=True, validators=[validate_moment])
    started_at = models.DateTimeField(null=True, blank=True, validators=[validate_moment],
                                      help_text=_("When the clock started."))
    time_limit = models.PositiveSmallIntegerField(_("time limit (minutes)"), default=90, validators=within(TIME_LIMIT))

    class Meta:
        ordering = ["series_id", "number"]
        constraints = [models.UniqueConstraint(fields=["series", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.series} round {self.number}"

    @property
    def is_started(self) -> bool:
        return self.status == self.Status.STARTED

    @property
    def is_published(self) -> bool:
        return self.status in (self.Status.PUBLISHED, self.Status.STARTED)

    @cached_property
    def is_finished(self) -> bool:
        """Started, and every table's game finished: derived, so no status is left to set.
        Uses the ``tables_count``/``finished_count`` annotations when the caller made them."""
        if not self.is_started:
            return False
        tables, finished = getattr(self, "tables_count", None), getattr(self, "finished_count", None)
        if tables is None or finished is None:
            states = list(self.tables.values_list("game__status", flat=True))
            tables, finished = len(states), sum(1 for s in states if s == Game.Status.FINISHED)
        return tables > 0 and finished == tables

    @property
    def clock_running(self) -> bool:
        """The clock counts down while the round is started and not finished."""
        return self.is_started and not self.is_finished

    @property
    def ends_at(self) -> datetime.datetime | None:
        if self.started_at is None:
            return None
        return self.started_at + datetime.timedelta(minutes=self.time_limit)


class RoundTable(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(validators=within(TABLE_NUMBER))
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.PROTECT, related_name="round_table")
    extra_minutes = models.PositiveSmallIntegerField(default=0, validators=within(EXTRA_MINUTES), help_text=_("Extra time this table was given."))

    class Meta:
        ordering = ["round_id", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="roundtable_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    def ends_at(self) -> datetime.datetime | None:
        end = self.round.ends_at
        return None if end is None else end + datetime.timedelta(minutes=self.extra_minutes)


class RoundSeat(models.Model):
    """A registered player's seat in a round; ``substitute`` when someone else plays it."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="seats")
    wind = models.PositiveSmallIntegerField(validators=[SEAT], help_text=_("0 = East, the first dealer."))
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="round_seats")
    substitute = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="substituted_seats"
    )

    class Meta:
        ordering = ["round_id", "table_id", "wind"]  # tables are made in number order
        constraints = [
            models.UniqueConstraint(fields=["table", "wind"], name="roundseat_unique_wind"),
            models.UniqueConstraint(fields=["round", "registration"], name="roundseat_unique_player"),
            models.UniqueConstraint(
                fields=["round", "substitute"], condition=Q(substitute__isnull=False), name="roundseat_unique_substitute"
            ),
            models.CheckConstraint(condition=Q(wind__lte=3), name="roundseat_wind_0_to_3"),
        ]

    def __str__(self) -> str:
        sub = f" (played by {self.substitute.name})" if self.substitute_id else ""
        return f"{WIND_NAMES[self.wind]}: {self.registration.name}{sub}"

    @property
    def plays(self) -> Registration:
        """Who sits at the table: the substitute if there is one."""
        return self.substitute if self.substitute_id else self.registration


class EventAudit(models.Model):
    """One change to an event (registration, seating, a round's start, a
    substitute, the clock, hidden results): who, when and what."""

    class Action(models.TextChoices):
        SETTINGS = "settings", _("Event settings")
        REGISTER = "register", _("Register player")
        IMPORT = "import", _("Import registrations")
        CHECK_IN = "check_in", _("Check in")
        DROP = "drop", _("Drop player")
        SEAT = "seat", _("Seat rounds")
        SWAP = "swap", _("Swap players")
        PUBLISH = "publish", _("Publish round")
        START = "start_round", _("Start round")
        SUBSTITUTE = "substitute", _("Substitute")
        CLOCK = "clock", _("Clock")
        EXTRA_TIME = "extra_time", _("Extra time")
        TIME_POLICY = "time_policy", _("Game ended by the clock")
        HIDE = "hide_results", _("Hide results")
        REVEAL = "reveal_results", _("Reveal results")
        ROLES = "roles", _("Roles")
        SIGN_UP = "sign_up", _("Sign-up")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="event_audit")
    action = models.CharField(max_length=20, choices=Action.choices)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    username = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} by {self.username or 'system'} on {self.series}"

    def describe(self) -> Any:
        return self.detail.get("text", "")


# -- standings of an event ---------------------------------------------------------------


def event_of(series: Series) -> Event | None:
    """The series' event settings, or None for a league. No query when the
    series was read with ``select_related("event")`` (the public pages
    do), and one at most per series object otherwise: Django keeps the answer."""
    try:
        return series.event
    except Event.DoesNotExist:
        return None


def hidden_from(series: Series) -> int | None:
    """The first round whose results the public may not see (None: all shown)."""
    event = event_of(series)
    return event.hidden_from_round if event is not None else None


def is_event(series: Series) -> bool:
    return event_of(series) is not None


# -- the director's dashboard ---------------------------------------------------------------


@dataclass(frozen=True)
class TableSeat:
    wind: str
    name: str
    number: int  # the event number of who plays
    substitute_for: str  # the registered player's name when a substitute plays
    score: int | None  # table points now (a game being played) or at the end
    points: int | None  # settled points, thousandths (a finished game)
    place: int | None


@dataclass(frozen=True)
class TableState:
    """One table of a round as the dashboard shows it."""

    number: int
    table: RoundTable
    game: Game | None
    state: str  # waiting, playing, finished or over_time
    hand: str  # the hand being played, e.g. "S2, 1 honba"; blank when none
    hands: int
    seats: list[TableSeat]
    ends_at: datetime.datetime | None
    extra_minutes: int
    # A stored hand of the game being played that the engine now refuses: the
    # scores are those before it, and the table says which hand and why.
    refused: Unreplayable | None = None

    @property
    def refused_text(self) -> str:
        return unreplayable_text(self.refused) if self.refused is not None else ""

    @property
    def label(self) -> str:
        return str({"waiting": _("Waiting"), "playing": _("Playing"), "finished": _("Finished"),
                    "over_time": _("Over time")}[self.state])


def table_states(rnd: Round, *, now: datetime.datetime) -> list[TableState]:
    """Every table of ``rnd``: who sits where and how its game stands now.
    A game being played is replayed for its current hand and scores."""
    tables = list(rnd.tables.select_related("game").prefetch_related(
        "seats__registration", "seats__substitute", "game__seats").annotate(hand_count=Count("game__hands")))
    out = []
    for table in tables:
        game = table.game
        result = refused = None
        if game is not None and not game.is_finished:
            result, refused = game.replay()
        finished = {s.seat: s for s in game.seats.all()} if game is not None else {}
        seats = []
        for s in sorted(table.seats.all(), key=lambda s: s.wind):
            plays = s.plays
            score = points = place = None
            if result is not None:
                score = (result.next.scores if result.next else result.scores)[s.wind]
            elif game is not None and s.wind in finished:
                score, points, place = finished[s.wind].end_score, finished[s.wind].points, finished[s.wind].place
            seats.append(TableSeat(
                wind=WIND_NAMES[s.wind], name=plays.name, number=plays.number,
                substitute_for=s.registration.name if s.substitute_id else "", score=score, points=points, place=place,
            ))
        ends = table.ends_at()
        hand = ""
        if game is None or (result is not None and not result.hands and refused is None):
            state = "waiting"
        elif game.is_finished:
            state = "finished"
        else:
            state = "over_time" if ends is not None and now > ends else "playing"
        if result is not None and result.next is not None and refused is None:
            nxt = result.next
            hand = nxt.round_label + (f", {nxt.honba} honba" if nxt.honba else "")
        if game is not None and state == "waiting" and ends is not None and now > ends:
            state = "over_time"
        out.append(TableState(
            number=table.number, table=table, game=game, state=state, hand=hand,
            hands=table.hand_count, seats=seats, ends_at=ends,
            extra_minutes=table.extra_minutes, refused=refused,
        ))
    return out


@dataclass(frozen=True)
class TableSeating:
    """One table of a round as the public sees it: who sits where, nothing
    about its game (which a hand in play would change)."""

    number: int
    seats: list[TableSeat]


def round_seating(rnd: Round) -> list[TableSeating]:
    """Every table of ``rnd`` with its seats, in wind order: three queries,
    no game replayed (``table_states`` replays every game being played, for
    the director's dashboard)."""
    tables = rnd.tables.prefetch_related("seats__registration", "seats__substitute").order_by("number")
    return [
        TableSeating(number=table.number, seats=[
            TableSeat(wind=WIND_NAMES[s.wind], name=s.plays.name, number=s.plays.number,
                      substitute_for=s.registration.name if s.substitute_id else "", score=None, points=None,
                      place=None)
            for s in sorted(table.seats.all(), key=lambda s: s.wind)
        ])
        for table in tables
    ]


def next_seats(registration: Registration) -> list[RoundSeat]:
    """The published rounds' seats of ``registration`` (as the registered player
    or as a substitute), in round order."""
    seats = RoundSeat.objects.filter(
        Q(registration=registration, substitute=None) | Q(substitute=registration),
        round__status__in=[Round.Status.PUBLISHED, Round.Status.STARTED],
    ).select_related("round", "table__game").order_by("round__number")
    return list(seats)
