"""The games of a series: games, seats, hands as entered at the table, their
wins, penalties and a per-seat result snapshot.

Hands are stored as input. Scores, dealer, honba and sticks are never stored;
they come from replaying the game's record through ``scoring.game.replay``
(``Game.replay()``). Finished games keep ``Seat.end_score/place/points`` so
that standings are aggregates over one table (``Series.standings()``).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Count, F, Max, Min, Q, Sum
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league import stamps
from league.db_bounds import EARLIEST, LATEST, MAX_HAN, MAX_INTEGER, MAX_PENALTY, MAX_ROUND, MAX_SEAT_POINTS
from league.entry.pricing import Replayed, replay_stored
from league.models.people import Player, Series, series_changed
from league.models.standing_rows import StandingRow, Standings
from league.models.validators import SEAT, seat_list, validate_rules
from scoring import game as sg
from scoring.payment import MAX_FU
from scoring.rules import Ruleset, get_ruleset
from scoring.settlement import MAX_SCORE
from scoring.settlement import Penalty as ScoringPenalty

# The winds as data (audit texts, imported players' names): English always.
WINDS = ("East", "South", "West", "North")
# The winds as a reader sees them, in the page's language.
WIND_NAMES = (_("East"), _("South"), _("West"), _("North"))


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    class End(models.TextChoices):
        # mirrors GameRecord.end in scoring.game; blank = the ruleset ended it
        EARLY = "early", _("Ended early by staff")
        AGARI_YAME = "agari_yame", _("Agari-yame")

    class Source(models.TextChoices):
        MJLOG = "mjlog", _("Tenhou mjlog XML")
        TENHOU6 = "tenhou6", _("tenhou.net/6 JSON")
        KOBALAB = "kobalab", _("kobalab paipu JSON")

    series = models.ForeignKey(Series, on_delete=models.PROTECT, related_name="games")
    round_number = models.PositiveIntegerField(_("round"), default=1, help_text=_("Round or session number in the series."))
    table = models.CharField(max_length=20, blank=True)
    # A copy of the series' rules at the start, so editing the series later
    # cannot rewrite games already played.
    rules = models.JSONField(validators=[validate_rules])
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True)
    end = models.CharField(max_length=20, choices=End.choices, blank=True)
    # Games kept by end scores only: the four scores and the sticks left over.
    final_scores = models.JSONField(null=True, blank=True)
    final_riichi_sticks = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Games imported from a real log (issue 8); blank for games entered at the table.
    source = models.CharField(max_length=10, choices=Source.choices, blank=True)
    source_id = models.CharField(
        _("log id"), max_length=100, blank=True,
        help_text=_("Tenhou's ref, else the Tenhou id in the file name, else a hash of the content."),
    )
    variant = models.JSONField(
        default=list, blank=True, help_text=_("Historical Tenhou rules applied: no_tenpai_yame, old_uma, special_start.")
    )
    discrepancies = models.JSONField(
        null=True, blank=True, help_text=_("Where the log and our replay differ; kept when staff imported it anyway.")
    )
    # When the fourth seat confirmed the result as it stands (league.services.signoff);
    # cleared when a change of the result withdraws the sign-offs, which also
    # moves ``signoff_round`` so every per-seat link handed out before is dead.
    signed_off_at = models.DateTimeField(null=True, blank=True, editable=False)
    signoff_round = models.PositiveIntegerField(default=0, editable=False)
    # Moved by every write of the game's hands or penalties, under the game's
    # lock (``services.replay.sync_result``): a save that read the game before
    # it locked the row compares this instead of reading every hand again.
    inputs_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        # Default orderings name a foreign key by its column ("series_id"):
        # by its name Django sorts by the related model's ordering, joining
        # its table on every read (tests/league/test_orderings.py).
        ordering = ["series_id", "round_number", "table", "pk"]
        indexes = [models.Index(fields=["series", "status", "round_number"])]
        constraints = [
            # The same log twice in one series is one game (a JSON and an XML copy share the id).
            models.UniqueConstraint(
                fields=["series", "source_id"], condition=~Q(source_id=""), name="game_unique_source_per_series"
            ),
            # league.db_bounds: what SQLite would take and PostgreSQL refuse.
            models.CheckConstraint(condition=Q(round_number__gte=1, round_number__lte=MAX_ROUND),
                                   name="game_round_1_to_max",
                                   violation_error_message=f"A round is 1 to {MAX_ROUND:,}."),
            models.CheckConstraint(condition=Q(started_at__gte=EARLIEST, started_at__lt=LATEST),
                                   name="game_started_at_in_years"),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True) | Q(finished_at__gte=EARLIEST, finished_at__lt=LATEST),
                name="game_finished_at_in_years",
            ),
        ]

    def __str__(self) -> str:
        if self.table:
            return gettext("%(series)s round %(round)s table %(table)s") % {
                "series": self.series, "round": self.round_number, "table": self.table}
        return gettext("%(series)s round %(round)s") % {"series": self.series, "round": self.round_number}

    def save(self, *args: Any, **kwargs: Any) -> None:
        # An edit of the whole row (the admin) must not write back the inputs'
        # version it read: a scorer may have moved it since, and a version
        # going back could match a save's older read of the hands.
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [f.name for f in self._meta.concrete_fields
                                       if not f.primary_key and f.name != "inputs_version"]
        super().save(*args, **kwargs)

    @classmethod
    def players_changed(cls, player_ids: Iterable[int]) -> None:
        """Move the inputs' version of every unfinished game these players
        sit in: a read of a game holds its players' names
        (``services.entry.read_game``), so a save on a read from before a
        rename, a merge or a substitute reads them again rather than keep
        the old ones as the game's next read. Call it before changing the
        seats: it takes the games' row locks first, as a save does."""
        cls.objects.filter(seats__player__in=list(player_ids)).exclude(status=cls.Status.FINISHED).update(
            inputs_version=F("inputs_version") + 1)

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def ended_by_clock(self) -> bool:
        """Ended early by the event's time policy, not by staff: the engine knows
        both as EARLY; the event's log says which (``apply_time_policy``)."""
        return self.end == self.End.EARLY and self.series.event_audit.filter(
            action="time_policy", detail__game=self.pk).exists()

    @property
    def end_label(self) -> str:
        return str(_("Ended by the clock (the event's time policy)")) if self.ended_by_clock else self.get_end_display()

    def counts(self, series: Series | None = None) -> bool:
        """Does this game count in the standings, Swiss seating and cuts?
        The Python twin of :func:`counting`, for a game already in hand."""
        series = series or self.series
        return self.is_finished and (not series.requires_signoff or self.signed_off_at is not None)

    @property
    def kept_by_end_scores(self) -> bool:
        return self.final_scores is not None

    def ruleset(self) -> Ruleset:
        return get_ruleset(self.rules)

    def record(self, *, hands: Sequence[sg.HandInput] | None = None) -> sg.GameRecord:
        """The game as ``scoring`` sees it; ``hands`` replaces the stored ones.
        Reads the hands and penalties prefetched on the row when they were
        (``league.stats.replay_prefetches``), else queries them."""
        fetched = getattr(self, "_prefetched_objects_cache", {})
        if hands is None:
            rows = self.hands.all() if "hands" in fetched else self.hands.prefetch_related("wins")
            hands = [h.to_input() for h in rows]
        if "penalties" in fetched:
            penalties: Iterable[tuple[int, int, str]] = [
                (p.seat, p.points, p.reason) for p in self.penalties.all() if p.cancelled_at is None]
        else:
            penalties = self.penalties.filter(cancelled_at=None).values_list("seat", "points", "reason")
        return build_record(
            self.ruleset(),
            end=self.end,
            final_scores=self.final_scores,
            final_riichi_sticks=self.final_riichi_sticks,
            hands=hands,
            penalties=penalties,
        )

    def replay(self) -> Replayed:
        """The stored game as every page, export and read shows it: scores,
        dealer, honba and sticks after every hand, derived now, and the hand
        the engine now refuses, if one is (a preset's rules changed in code, a
        row changed in the database): then ``result`` holds the hands before
        it (``league.entry.pricing.replay_stored``). Raises ``ScoringError``
        only for a fault in the game's own columns.

        Memoised on the row when its hands were prefetched (what it reads is
        then fixed); otherwise each call reads the hands again.
        """
        memo: Replayed | None = getattr(self, "_replayed", None)
        if memo is not None:
            return memo
        replayed = replay_stored(self.record())
        if "hands" in getattr(self, "_prefetched_objects_cache", {}):
            self._replayed = replayed
        return replayed

    def next_hand_number(self) -> int:
        return (self.hands.aggregate(n=Max("number"))["n"] or 0) + 1


def columns_digest(values: tuple[Any, ...]) -> str:
    """A short digest of a game row's columns, as parsed from the stored JSON
    (``services.entry.row_digest``, ``stats.refused_games``' kept checks): one
    canonical form for every read of the row.

    The form is ``repr`` of the values, which is exact: for the types JSON
    gives (dict, list, str, int, float, bool, None) ``repr`` tells every two
    different values apart (a float's is the shortest that reads back as it,
    ``True`` is not ``1``, a string is quoted and escaped), so a changed
    document always changes the digest. Two equal documents whose keys come
    in another order give two digests: that costs a miss, never a wrong hit,
    and the same stored text always parses in the same order (PostgreSQL's
    ``jsonb`` keeps its keys in one order; SQLite gives back the text
    written). Measured in a tight loop: 0.8 µs against 2.3 for
    ``json.dumps`` with sorted keys."""
    return hashlib.sha256(repr(values).encode()).hexdigest()[:16]


def counting(series: Series | None = None, *, prefix: str = "") -> Q:
    """The games that count in the standings, Swiss seating and the cuts:
    finished, and signed off by the table where the series asks for it.

    The one place that decides (``Game.counts`` is its twin for a row in
    hand). ``prefix`` reaches the game from another model (``"game__"`` from
    a seat); given the series, no join to it is needed.
    """
    finished = Q(**{f"{prefix}status": Game.Status.FINISHED})
    signed = Q(**{f"{prefix}signed_off_at__isnull": False})
    if series is None:
        return finished & (Q(**{f"{prefix}series__requires_signoff": False}) | signed)
    return finished & signed if series.requires_signoff else finished


def build_record(
    rules: Ruleset,
    *,
    end: str,
    final_scores: Sequence[int] | None,
    final_riichi_sticks: int,
    hands: Iterable[sg.HandInput],
    penalties: Iterable[tuple[int, int, str]],
) -> sg.GameRecord:
    """A game's stored columns, its hands as input and its penalties in force
    (seat, points, reason) as one ``scoring`` GameRecord. ``Game.record``,
    the public pages (from prefetched rows) and the record export (from plain
    rows in batches) all build it here."""
    final = None
    if final_scores is not None:
        final = sg.FinalScores(scores=tuple(final_scores), riichi_sticks=final_riichi_sticks)  # type: ignore[arg-type]
    return sg.GameRecord(
        rules=rules,
        hands=tuple(hands),
        end=sg.EndReason(end) if end else None,
        penalties=tuple(ScoringPenalty(seat=seat, points=points, reason=reason) for seat, points, reason in penalties),
        final=final,
    )


class SeatQuerySet(models.QuerySet["Seat"]):
    def finished(self) -> SeatQuerySet:
        return self.filter(game__status=Game.Status.FINISHED)

    def counted(self, series: Series) -> SeatQuerySet:
        """The seats of ``series``' games that count (see :func:`counting`)."""
        return self.filter(counting(series, prefix="game__"), game__series=series)

    def for_series(self, series: Series) -> SeatQuerySet:
        return self.filter(game__series=series)

    def through(self, *, round: int | None = None, date: datetime.date | None = None) -> SeatQuerySet:
        return self.filter(seats_through(round, date))

    def standings(self, *, min_games: int = 0) -> Standings:
        """Aggregate the result snapshots per player in one query, then rank."""
        rows = self.values("player_id", "player__name").annotate(**_standing_sums()).order_by()
        return Standings.build((StandingRow.from_values(r) for r in rows), min_games=min_games)

    def standings_and_before(
        self, *, round: int | None = None, date: datetime.date | None = None, min_games: int = 0
    ) -> tuple[Standings, Standings]:
        """The standings over these seats, and as they stood after an earlier
        ``round`` or ``date`` (a subset of them), from one pass over the rows."""
        earlier = seats_through(round, date) or None
        rows = list(
            self.values("player_id", "player__name")
            .annotate(**_standing_sums(), **_standing_sums(prefix="before_", when=earlier))
            .order_by()
        )
        before = [
            StandingRow.from_values({k.removeprefix("before_"): v for k, v in r.items() if k.startswith("before_")}
                                    | {"player_id": r["player_id"], "player__name": r["player__name"]})
            for r in rows if r["before_games"]
        ]
        return (
            Standings.build((StandingRow.from_values(r) for r in rows), min_games=min_games),
            Standings.build(before, min_games=min_games),
        )


def seats_through(round: int | None, date: datetime.date | None) -> Q:
    """The seats of games played by the end of ``round`` and of ``date``
    (either None: no bound), as a filter on ``Seat``."""
    q = Q()
    if round is not None:
        q &= Q(game__round_number__lte=round)
    if date is not None and date < datetime.date.max:  # the last date has no next day: no bound
        # Before the next day began here, rather than __date__lte: a date cast
        # per row is slow on SQLite and keeps the finished_at index unused.
        next_day = datetime.datetime.combine(date + datetime.timedelta(days=1), datetime.time())
        q &= Q(game__finished_at__lt=timezone.make_aware(next_day) if settings.USE_TZ else next_day)
    return q


def _standing_sums(*, prefix: str = "", when: Q | None = None) -> dict[str, Any]:
    """What a standings row sums, over the rows matching ``when`` (all if None)."""

    def only(q: Q | None = None) -> Q | None:
        return q & when if q is not None and when is not None else q or when

    sums: dict[str, Any] = {
        "games": Count("id", filter=only()),
        "total": Sum("points", filter=only()),
        "place_sum": Sum("place", filter=only()),
        "score_sum": Sum("end_score", filter=only()),
        "best": Max("points", filter=only()),
        "worst": Min("points", filter=only()),
        **{f"places_{n}": Count("id", filter=only(Q(place=n))) for n in (1, 2, 3, 4)},
    }
    return {prefix + k: v for k, v in sums.items()}


class Seat(models.Model):
    # No index of its own: the unique (game, seat) index leads with game_id.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField(validators=[SEAT], help_text=_("0 = East at the start of the game."))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # Snapshot written when the game finishes, cleared when it reopens.
    end_score = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.IntegerField(null=True, blank=True, help_text=_("Thousandths of a point: +45.3 is 45300."))
    # Hand statistics snapshot (league.stats.HandStats), rewritten from the
    # replay on every change to the game, finished or not, so a player page
    # sums columns instead of replaying the series.
    hands = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    tsumo_wins = models.PositiveIntegerField(default=0)
    deal_ins = models.PositiveIntegerField(default=0)
    riichi = models.PositiveIntegerField(default=0)
    win_value = models.PositiveIntegerField(default=0, help_text=_("Table points won, without honba and sticks."))
    deal_in_value = models.PositiveIntegerField(default=0, help_text=_("Table points dealt in, without honba."))
    wins_with_tiles = models.PositiveIntegerField(default=0)
    open_wins = models.PositiveIntegerField(default=0)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["game_id", "seat"]  # read in the order of the unique (game, seat) index
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_seat_per_game"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_unique_player_per_game"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="seat_seat_0_to_3"),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1, place__lte=4), name="seat_place_1_to_4"
            ),
            models.CheckConstraint(
                condition=Q(end_score__isnull=True) | Q(end_score__gte=-MAX_SCORE, end_score__lte=MAX_SCORE),
                name="seat_end_score_in_bounds",
            ),
            models.CheckConstraint(
                condition=Q(points__isnull=True) | Q(points__gte=-MAX_SEAT_POINTS, points__lte=MAX_SEAT_POINTS),
                name="seat_points_in_bounds",
            ),
            models.CheckConstraint(
                condition=Q(**{f"{name}__lte": MAX_INTEGER for name in (
                    "hands", "wins", "tsumo_wins", "deal_ins", "riichi", "win_value", "deal_in_value",
                    "wins_with_tiles", "open_wins",
                )}),
                name="seat_stats_fit_integer",
            ),
        ]

    def __str__(self) -> str:
        return f"{WIND_NAMES[self.seat]}: {self.player}"


class Hand(models.Model):
    """One hand (kyoku) as it happened at the table; see ``to_input``."""

    class Outcome(models.TextChoices):
        RON = "ron", _("Ron")
        TSUMO = "tsumo", _("Tsumo")
        DRAW = "draw", _("Ryuukyoku")
        ABORT = "abort", _("Abortive draw")
        CHOMBO = "chombo", _("Chombo")

    class AbortReason(models.TextChoices):
        # scoring.rules.ABORT_REASONS; a test keeps the two in step
        KYUUSHU_KYUUHAI = "kyuushu_kyuuhai", _("Kyuushu kyuuhai")
        SUUFON_RENDA = "suufon_renda", _("Suufon renda")
        SUUCHA_RIICHI = "suucha_riichi", _("Suucha riichi")
        SUUKAIKAN = "suukaikan", _("Suukaikan")
        SANCHAHOU = "sanchahou", _("Sanchahou")

    # No index of its own: the unique (game, number) index leads with game_id.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="hands", db_index=False)
    number = models.PositiveIntegerField(help_text=_("1 for the first hand of the game."))
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    loser = models.PositiveSmallIntegerField(null=True, blank=True, validators=[SEAT], help_text=_("Ron: the seat that dealt in."))
    riichi = models.JSONField(default=list, blank=True, validators=[seat_list], help_text=_("Seats whose stick was paid."))
    tenpai = models.JSONField(default=list, blank=True, validators=[seat_list])
    nagashi = models.JSONField(default=list, blank=True, validators=[seat_list])
    abort_reason = models.CharField(max_length=20, choices=AbortReason.choices, blank=True)
    chombo_offender = models.PositiveSmallIntegerField(null=True, blank=True, validators=[SEAT])
    # Optional detail the scoring ignores, kept as given (GAME RECORD keys).
    tiles = models.JSONField(null=True, blank=True)
    yaku = models.JSONField(null=True, blank=True)
    note = models.TextField(blank=True)
    # Where the hand left the game, written by the services with every replay
    # (like the seats' statistics), so exports read it instead of replaying:
    # {"round", "dealer", "honba", "sticks", "deltas", "scores"}. Null for a
    # hand saved before it existed, until ``refresh_snapshots``.
    result = models.JSONField(null=True, blank=True, editable=False)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game_id", "number"]  # read in the order of the unique (game, number) index
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_unique_number_per_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.game} hand {self.number}"

    def to_input(self) -> sg.HandInput:
        """The stored input as ``scoring`` value objects (wins prefetched or not)."""
        wins = [w.to_win() for w in sorted(self.wins.all(), key=lambda w: w.order)]
        return stored_hand_input(
            wins, self.outcome, self.loser, self.riichi, self.tenpai, self.nagashi, self.abort_reason,
            self.chombo_offender, self.tiles, self.yaku, self.note,
        )

    def set_input(self, hand: sg.HandInput) -> list[Win]:
        """Copy ``hand`` onto this row; returns the (unsaved) wins to store."""
        o = hand.outcome
        self.riichi = list(hand.riichi)
        self.tiles, self.yaku, self.note = hand.tiles, hand.yaku, hand.note or ""
        self.loser = self.chombo_offender = None
        self.tenpai, self.nagashi, self.abort_reason = [], [], ""
        wins: list[Win] = []
        if isinstance(o, sg.Ron):
            self.outcome, self.loser = self.Outcome.RON, o.loser
            wins = [Win.from_win(w, order=i) for i, w in enumerate(o.wins)]
        elif isinstance(o, sg.Tsumo):
            self.outcome = self.Outcome.TSUMO
            wins = [Win(order=0, winner=o.winner, han=o.han, fu=o.fu, yakuman=o.yakuman, pao=o.pao)]
        elif isinstance(o, sg.Draw):
            self.outcome, self.tenpai, self.nagashi = self.Outcome.DRAW, list(o.tenpai), list(o.nagashi)
        elif isinstance(o, sg.Abort):
            self.outcome, self.abort_reason = self.Outcome.ABORT, o.reason
        elif isinstance(o, sg.Chombo):
            self.outcome, self.chombo_offender = self.Outcome.CHOMBO, o.offender
        else:
            raise TypeError(f"not an outcome: {o!r}")
        return wins

    def summary(self) -> str:
        """One line for lists: "ron S <- W 3 han 40 fu", "draw, tenpai E W"."""
        wins = ", ".join(str(w) for w in sorted(self.wins.all(), key=lambda w: w.order))
        if self.outcome == self.Outcome.RON:
            text = f"ron from {WINDS[self.loser]}: {wins}" if self.loser is not None else f"ron: {wins}"
        elif self.outcome == self.Outcome.TSUMO:
            text = f"tsumo {wins}"
        elif self.outcome == self.Outcome.DRAW:
            text = "draw, tenpai " + (" ".join(WINDS[s] for s in self.tenpai) or "none")
            if self.nagashi:
                text += ", nagashi " + " ".join(WINDS[s] for s in self.nagashi)
        elif self.outcome == self.Outcome.ABORT:
            text = f"abortive draw ({self.get_abort_reason_display()})"
        else:
            text = f"chombo by {WINDS[self.chombo_offender]}" if self.chombo_offender is not None else "chombo"
        if self.riichi:
            text += "; riichi " + " ".join(WINDS[s] for s in self.riichi)
        return text

    def as_dict(self) -> dict[str, Any]:
        """The hand in GAME RECORD form, detail included (for the audit trail)."""
        return sg.hand_to_dict(self.to_input())


def stored_hand_input(
    wins: Sequence[sg.Win], outcome: str, loser: int | None, riichi: list[int], tenpai: list[int],
    nagashi: list[int], abort_reason: str, offender: int | None, tiles: Any, yaku: Any, note: str,
) -> sg.HandInput:
    """A hand's stored columns (and its wins, in order) as ``scoring`` input:
    ``Hand.to_input`` from a row, ``exports.hand_inputs`` from plain values."""
    o: sg.Outcome
    if outcome == Hand.Outcome.RON:
        o = sg.Ron(loser=loser, wins=tuple(wins))  # type: ignore[arg-type]
    elif outcome == Hand.Outcome.TSUMO:
        w = wins[0]
        o = sg.Tsumo(winner=w.winner, han=w.han, fu=w.fu, yakuman=w.yakuman, pao=w.pao)
    elif outcome == Hand.Outcome.DRAW:
        o = sg.Draw(tenpai=tuple(tenpai), nagashi=tuple(nagashi))
    elif outcome == Hand.Outcome.ABORT:
        o = sg.Abort(reason=sg.AbortReason(abort_reason))
    else:
        o = sg.Chombo(offender=offender)  # type: ignore[arg-type]
    return sg.HandInput(outcome=o, riichi=tuple(riichi), tiles=tiles, yaku=yaku, note=note or None)


class Win(models.Model):
    """One winner of a hand: a tsumo has one, a ron one to three."""

    # No index of its own: the unique (hand, order) index leads with hand_id.
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="wins", db_index=False)
    order = models.PositiveSmallIntegerField(default=0)
    winner = models.PositiveSmallIntegerField(validators=[SEAT])
    han = models.PositiveSmallIntegerField(default=0)
    fu = models.PositiveSmallIntegerField(null=True, blank=True)
    yakuman = models.PositiveSmallIntegerField(default=0)
    pao = models.PositiveSmallIntegerField(null=True, blank=True, validators=[SEAT], help_text=_("Seat liable for the yakuman."))

    class Meta:
        # Every replay reads a game's wins by hand_id IN (...); both unique
        # indexes lead with hand_id, so they come grouped by hand from an index
        # scan, at most a sort of each hand's one to three wins.
        ordering = ["hand_id", "order"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "winner"], name="win_unique_winner_per_hand"),
            # A ron's winners keep the order they were given in: one win per position.
            models.UniqueConstraint(fields=["hand", "order"], name="win_unique_order_per_hand"),
            models.CheckConstraint(condition=Q(han__lte=MAX_HAN), name="win_han_in_bounds"),
            models.CheckConstraint(condition=Q(fu__isnull=True) | Q(fu__lte=MAX_FU), name="win_fu_in_bounds"),
        ]

    def __str__(self) -> str:
        if self.yakuman:
            value = f"{self.yakuman}x yakuman" if self.yakuman > 1 else "yakuman"
        else:
            value = f"{self.han} han" + (f" {self.fu} fu" if self.fu else "")
        pao = f" (pao {WINDS[self.pao]})" if self.pao is not None else ""
        return f"{WINDS[self.winner]} {value}{pao}"

    @classmethod
    def from_win(cls, w: sg.Win, *, order: int) -> Win:
        return cls(order=order, winner=w.winner, han=w.han, fu=w.fu, yakuman=w.yakuman, pao=w.pao)

    def to_win(self) -> sg.Win:
        return sg.Win(winner=self.winner, han=self.han, fu=self.fu, yakuman=self.yakuman, pao=self.pao)


class Penalty(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="penalties")
    seat = models.PositiveSmallIntegerField(validators=[SEAT])
    points = models.IntegerField(help_text=_("Thousandths of a point, negative for a penalty: -20.0 is -20000."))
    reason = models.CharField(max_length=200)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField(auto_now_add=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["game_id", "given_at", "pk"]
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(condition=Q(seat__lte=3), name="penalty_seat_0_to_3"),
            models.CheckConstraint(
                condition=Q(points__gte=-MAX_PENALTY, points__lte=MAX_PENALTY) & ~Q(points=0),
                name="penalty_points_in_bounds",
                violation_error_message=f"A penalty is at most {MAX_PENALTY // 1000:,} points, and not 0.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.points / 1000:+.1f} to {WINDS[self.seat]} in {self.game}"

    @property
    def is_cancelled(self) -> bool:
        return self.cancelled_at is not None

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "points": self.points, "reason": self.reason, "cancelled": self.is_cancelled}


@receiver(post_delete, sender=Series)
@receiver(post_delete, sender=Game)
def _deleted(sender: type[models.Model], instance: Series | Game, **kwargs: Any) -> None:
    # A deleted game or series must not be served from a cached page.
    if isinstance(instance, Series):
        stamps.publish_on_commit([instance.pk], slugs=[instance.slug])
    elif getattr(kwargs.get("origin"), "model", type(kwargs.get("origin"))) is not Series:
        # A change of the series as any (series_changed): its versions move (the
        # lineup's too: a game's key may come back on SQLite, and the reads kept
        # for hand entry are keyed by it), its round's results are noted again,
        # and its stamps are published at the commit. Not when its series goes
        # too (a note would name a series about to be gone).
        series_changed([instance.series_id], rounds=[instance.round_number])
