"""Players registering themselves for an event: the director's desk (open or
closed, the closing time, the cap, moderation) and each sign-up's way from the
public form to a registration or the waiting list.

A ``SignUp`` holds what a player typed and the contact e-mail, which only the
event's directors ever see; it becomes a ``Registration`` (the player list
every other page reads) when it takes a place under the cap. The writes are in
``league.services.signup``.
"""

from __future__ import annotations

import datetime

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.models.event import Registration, ema_number_validator, validate_country
from league.models.people import Series
from league.models.validators import validate_moment


class SignUpDesk(models.Model):
    """How an event takes sign-ups. ``cap`` counts the registered players
    (substitutes and dropped players aside); None is no cap."""

    series = models.OneToOneField(Series, on_delete=models.CASCADE, related_name="signup_desk")
    is_open = models.BooleanField(default=False)
    closes_at = models.DateTimeField(null=True, blank=True, validators=[validate_moment])
    cap = models.PositiveIntegerField(null=True, blank=True)
    moderated = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"sign-up desk of {self.series}"

    def accepting(self, now: datetime.datetime | None = None) -> bool:
        """Whether the public form takes sign-ups at ``now``."""
        now = now or timezone.now()
        return self.is_open and (self.closes_at is None or now < self.closes_at)


class SignUp(models.Model):
    """One player's sign-up, from the form to a place, the waiting list or a refusal."""

    class Status(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("Not yet confirmed")
        PENDING = "pending", _("Awaiting the director")
        WAITING = "waiting", _("On the waiting list")
        REGISTERED = "registered", _("Registered")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        REFUSED = "refused", _("Refused")

    # Statuses that hold a person's place in the queue: a second sign-up of
    # the same e-mail or EMA number is refused while one of these stands.
    ACTIVE = (Status.UNCONFIRMED, Status.PENDING, Status.WAITING, Status.REGISTERED)

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="signups")
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    ema_number = models.CharField(max_length=20, blank=True, validators=[ema_number_validator])
    country = models.CharField(max_length=2, blank=True, validators=[validate_country])
    club = models.CharField(max_length=100, blank=True)
    team = models.CharField(max_length=100, blank=True)
    # Personal data: directors only; blanked by erase_personal_data after the event.
    email = models.EmailField(max_length=254, blank=True)
    language = models.CharField(max_length=10, default="en")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.UNCONFIRMED)
    # The signed link names the sign-up and this nonce: erasing the data or a
    # new link drops it, and every link sent before stops working.
    nonce = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(default=timezone.now, validators=[validate_moment])
    # The waiting list's order: when the sign-up became eligible for a place
    # (confirmed, or approved by the director when the event is moderated).
    queued_at = models.DateTimeField(null=True, blank=True, validators=[validate_moment])
    decided_at = models.DateTimeField(null=True, blank=True, validators=[validate_moment])
    erased_at = models.DateTimeField(null=True, blank=True, validators=[validate_moment])
    registration = models.OneToOneField(Registration, null=True, blank=True, on_delete=models.SET_NULL,
                                        related_name="signup")

    class Meta:
        ordering = ["series_id", "created_at", "pk"]
        indexes = [models.Index(fields=["series", "status", "queued_at"], name="signup_queue")]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()
