"""Players and the series they play in: a player's row, a series' rules,
roles and version, and ``series_changed``, which moves that version inside
the caller's transaction and publishes the new cache stamps on commit.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from league import stamps
from league.db_bounds import MIN_GAMES
from league.models.validators import validate_rules, within
from league.statements import Names, for_write, statement
from scoring.rules import Ruleset, get_ruleset

if TYPE_CHECKING:
    from league.models.standing_rows import Standings


class Player(models.Model):
    # Not unique: two people may share a name. A player is this row (and the
    # EMA number where there is one); league.services.players.find_player
    # resolves a name and refuses one that names two rows.
    name = models.CharField(max_length=100, db_index=True)
    ema_number = models.CharField(_("EMA number"), max_length=20, blank=True)
    club = models.CharField(max_length=100, blank=True)
    country = models.CharField(max_length=100, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    # The personal PIN a player types on the scorer's phone to sign a game's
    # result (league.services.signoff), as a keyed hash (signoff.hash_pin); blank: none set.
    signoff_pin = models.CharField(_("sign-off PIN"), max_length=128, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["ema_number"], condition=~Q(ema_number=""), name="player_unique_ema_number"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        new = self._state.adding
        super().save(*args, **kwargs)
        if not new:  # a read of an unfinished game holds the names: its inputs' version moves
            self.seats.model._meta.get_field("game").related_model.players_changed([self.pk])
        # Names show on every cached page of the series this player played
        # in: an edit moves their versions, so a rename shows at once.
        played_in = self.seats.values_list("game__series_id", flat=True).distinct()
        series_changed(played_in)

    def label(self) -> str:
        """The name and what tells it from a namesake's: club, country and
        the short id ("Aiko Sato (Tokyo, JP, #12)"); pages use it where
        ``services.players.namesakes`` says another row shares the name."""
        return f"{self.name} ({', '.join([*(v for v in (self.club, self.country) if v), f'#{self.pk}'])})"


class Series(models.Model):
    class Kind(models.TextChoices):
        LEAGUE = "league", _("League")
        TOURNAMENT = "tournament", _("Tournament")

    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.LEAGUE)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    rules = models.JSONField(
        default=dict,
        validators=[validate_rules],
        help_text=_('A preset and overrides, e.g. {"preset": "ema-2016", "overrides": {"uma": [...]}}'),
    )
    min_games = models.PositiveIntegerField(_("minimum games to be ranked"), default=0, validators=within(MIN_GAMES))
    standings_per_page = models.PositiveSmallIntegerField(
        _("standings rows per page"), default=100, validators=[MinValueValidator(1), MaxValueValidator(500)],
        help_text=_("How many players the public standings list before a second page (1 to 500)."),
    )
    requires_signoff = models.BooleanField(
        _("a game counts only after sign-off"), default=False,
        help_text=_("Standings, Swiss seating and cuts count a finished game only once its four players "
                  "(or a referee) confirmed its result."),
    )
    scorers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="scored_series",
        help_text=_("Logins allowed to enter this series' results."),
    )
    # league.access: directors run the event (every event write); scorers only score.
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_series",
        help_text=_("Logins allowed to run this series' event: settings, registration, seating, rounds, "
                    "stages, the EMA details, PINs and these roles. A director may also score."),
    )
    # Moves with every change to the series or one of its games (the services
    # bump it in their transaction, series_changed below); the stamp the public
    # pages are cached under is published with it when that transaction commits.
    version = models.PositiveIntegerField(default=0, editable=False)
    # Moves with ``version`` for every change but a hand of a game in play
    # (``series_changed``'s ``lineup``: the series' lineup stamp moves with
    # it): what a game's read holds beyond its own row and hands (its seats'
    # names) may have changed only when this moves. The hand-entry's kept
    # reads are keyed by it (league.services.entry, issue 28), read with the
    # game's row: another table's hand leaves every other game's read kept,
    # and no cache is asked for a stamp.
    lineup_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self._state.adding or kwargs.get("update_fields") is not None:
            adding = self._state.adding
            super().save(*args, **kwargs)
            if adding:
                # A pk can come back on SQLite after a delete: no stamp of the
                # old series may serve the new one's pages.
                stamps.publish_on_commit([self.pk], slugs=[self.slug])
            return
        # An edit (the admin) must not write back the version it read: a
        # scorer may have moved it since, and a version going back would
        # serve pages cached for the later one. It moves it instead, as the
        # name, rules and minimum show on the cached pages.
        kwargs["update_fields"] = [f.name for f in self._meta.concrete_fields
                                   if not f.primary_key and f.name not in ("version", "lineup_version")]
        old_slug = Series.objects.filter(pk=self.pk).values_list("slug", flat=True).first()
        super().save(*args, **kwargs)
        series_changed([self.pk], slugs=[s for s in (old_slug, self.slug) if s])

    def get_absolute_url(self) -> str:
        return reverse("series-standings", args=[self.slug])

    def ruleset(self) -> Ruleset:
        return get_ruleset(self.rules or None)

    def standings(self, *, through_round: int | None = None, through_date: datetime.date | None = None) -> Standings:
        """Standings over the games that count (finished; signed off where the
        series asks), optionally as they stood after a round or at the end of
        a day. One query whatever the series' size."""
        from league.models.games import Seat  # games.py imports this module

        return Seat.objects.counted(self).through(round=through_round, date=through_date).standings(
            min_games=self.min_games
        )

    def standings_and_before(
        self, *, through_round: int | None = None, through_date: datetime.date | None = None,
        before_round: int | None = None, before_date: datetime.date | None = None,
    ) -> tuple[Standings, Standings]:
        """``standings(through_round, through_date)`` and the standings at an
        earlier stage (``before_round``, ``before_date``), in one query."""
        from league.models.games import Seat

        seats = Seat.objects.counted(self).through(round=through_round, date=through_date)
        return seats.standings_and_before(round=before_round, date=before_date, min_games=self.min_games)


def series_changed(
    series_ids: Iterable[int], *, slugs: Iterable[str] = (), results: bool = True,
    rounds: Iterable[int] | None = None, lineup: bool = True, moved: bool = False,
) -> None:
    """Move the version of these series now, inside the caller's transaction,
    and publish new stamps when it commits (never, if it rolls back;
    ``league.stamps``).

    ``results=False`` says the change cannot touch what finished games
    decide (a game's start, a hand of a game in progress); ``lineup=False``,
    neither what the series page shows of the games (a hand of a game in
    progress: its table and seats stay). ``slugs`` are slugs whose series
    may have changed (a rename): their lookups are forgotten too. ``rounds``
    are the only rounds whose results the change touched (a change to the
    games of these rounds and nothing else); None, anything may have moved.
    ``moved``: the caller's own statement moved the version already (a new
    hand's writes as one statement, ``league.services.replay.save_new_hand``,
    which never moves the lineup); the rest is done here as for any change.
    The lineup's version (``Series.lineup_version``) moves with the lineup's
    stamp: whenever ``lineup`` is true.
    """
    ids = sorted(set(series_ids))
    if ids and (not moved or lineup):
        # One statement built from the model's names, run as it is: the ORM's
        # update() building cost ten times its running on every change (a
        # hand's save among them). An update sends no signal either way.
        db = for_write(Series)
        with db.cursor() as cursor:
            update, pk = _bump_sql(db, not moved, lineup)
            cursor.execute(f"{update} WHERE {pk} IN ({', '.join(['%s'] * len(ids))})", ids)
    if ids and results:
        # In the caller's transaction, after the row update (whose lock orders one
        # series' changes as their commits): the note of the rounds touched
        # (league.models.changes) and a webhook's outbox row (league.services.webhooks).
        touched = sorted(set(rounds)) if rounds is not None else None
        stamps.results_changed.send(sender=None, series_ids=ids, rounds=touched)
    stamps.publish_on_commit(ids, slugs=slugs, results=results, lineup=lineup)


@statement
def _bump_sql(n: Names, version: bool, lineup: bool) -> tuple[str, str]:
    """The bump of the version, of the lineup's version or of both, without
    its ``WHERE`` (whose list of series varies in length), and the primary
    key's column for it."""
    moves = [n.col(Series, f) for f, move in (("version", version), ("lineup_version", lineup)) if move]
    return f"UPDATE {n.table(Series)} SET {', '.join(f'{c} = {c} + 1' for c in moves)}", n.col(Series, "pk")
