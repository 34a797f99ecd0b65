"""Webhooks: the URLs a director registers on a series for its events, and
the outbox of deliveries. A delivery row is written in the same transaction
as the change it announces, so a change committed is a delivery kept, and a
restart loses none; ``league.webhooks`` sends them after the commit."""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.people import Series


class HookEvent(models.TextChoices):
    GAME_FINISHED = "game_finished", _("A game finished")
    ROUND_PUBLISHED = "round_published", _("A round's seating published")
    ROUND_STARTED = "round_started", _("A round started")
    STANDINGS_CHANGED = "standings_changed", _("The standings may have changed")
    EVENT_FINISHED = "event_finished", _("The event finished")


def new_secret() -> str:
    return secrets.token_hex(32)


class WebHook(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    events = models.JSONField(default=list, help_text=_("The events sent to this URL."))
    # Shown to the director, who gives it to the receiver; never in a public page or the API.
    secret = models.CharField(max_length=64, default=new_secret, editable=False)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ["series_id", "pk"]

    def __str__(self) -> str:
        return f"{self.series}: {self.url}"


class Delivery(models.Model):
    """One POST to one hook: the outbox row, then its log."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Given up")

    hook = models.ForeignKey(WebHook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=30, choices=HookEvent.choices)
    delivery_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    body = models.TextField(help_text=_("The JSON sent, byte for byte (the signature is over it)."))
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    next_attempt_at = models.DateTimeField()
    delivered_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["state", "next_attempt_at"], name="delivery_due")]

    def __str__(self) -> str:
        return f"{self.event} to {self.hook.url} ({self.state})"
