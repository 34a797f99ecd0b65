"""The table's sign-off of a finished game: one row per seat that confirmed
(or disputed) the result, bound to the digest of the result it saw.

A change of the result withdraws every row in force (``withdrawn_at``), so a
confirmation never carries over to a result nobody confirmed; the rows stay
as history beside the audit trail. The writes live in
``league.services.signoff``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.models.games import Game
from league.models.people import Player
from league.models.validators import SEAT


class SignOff(models.Model):
    class Kind(models.TextChoices):
        CONFIRM = "confirm", _("Confirmed")
        DISPUTE = "dispute", _("Disputed")

    class Via(models.TextChoices):
        PIN = "pin", _("PIN on the scorer's phone")
        LINK = "link", _("Own phone, per-seat link")

    class Resolution(models.TextChoices):
        ACCEPTED = "accepted", _("Result accepted by the referee")
        CORRECTED = "corrected", _("Result corrected")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="signoffs")
    seat = models.PositiveSmallIntegerField(validators=[SEAT])
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    via = models.CharField(max_length=10, choices=Via.choices)
    result = models.CharField(max_length=64, help_text=_("SHA-256 of the result confirmed (seats, end scores, places, points)."))
    note = models.TextField(blank=True, help_text=_("The player's reason for a dispute."))
    at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True, help_text=_("The result changed after this row."))
    resolution = models.CharField(max_length=10, choices=Resolution.choices, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")

    class Meta:
        ordering = ["game_id", "seat", "at", "pk"]
        constraints = [
            # One row in force per seat: a second tap, or a second phone, cannot sign twice.
            models.UniqueConstraint(fields=["game", "seat"], condition=Q(withdrawn_at__isnull=True),
                                    name="signoff_one_in_force_per_seat"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="signoff_seat_0_to_3"),
        ]
        indexes = [models.Index(fields=["game", "withdrawn_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.player} in {self.game}"

    @property
    def open_dispute(self) -> bool:
        return self.kind == self.Kind.DISPUTE and self.withdrawn_at is None and not self.resolution

    @property
    def accepts(self) -> bool:
        """Does this row stand for the seat's agreement (its own, or the referee's)?"""
        return self.withdrawn_at is None and (
            self.kind == self.Kind.CONFIRM or self.resolution == self.Resolution.ACCEPTED
        )
