"""Ratings across series: which series count, which engine, its parameters.

A ``Rating`` is a named, versioned choice, never a stored table of values:
the values are recomputed from the stored results (league/standings/ratings.py)
and cached under the rating's version and the results stamps of its series,
so nobody edits a rating by hand, and a save pays nothing for it. Every edit
of the choice (the admin) moves ``version``. ``PlayerMerge`` is the audit of
two player rows found to be one person (league/services/players.py).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F
from django.db.models.signals import m2m_changed, post_delete
from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from league import stamps
from league.models.people import Player, Series
from league.ratings import SubstituteRule

# Each engine's parameters: name -> (type, lowest, highest, default).
PARAMETERS: dict[str, dict[str, tuple[type, object, object, object]]] = {
    "tenhou": {"initial": (int, 0, 10000, 1500)},
    "skill": {"mu": (float, 1.0, 1000.0, 25.0), "sigma": (float, 0.1, 1000.0, 25 / 3)},
    "mers": {"ties": (str, None, None, "best")},
}
TIES = ("best", "average")


def check_parameters(engine: str, value: Any) -> dict[str, Any]:
    """The parameters with their defaults filled in; ValidationError naming the parameter and the reason."""
    if not isinstance(value, dict):
        raise ValidationError(_("parameters: must be a JSON object"), code="invalid_parameters")
    known = PARAMETERS.get(engine, {})
    unknown = sorted(set(value) - set(known))
    if unknown:
        raise ValidationError(_("parameters: %(name)s is not a parameter of this engine"),
                              code="unknown_parameter", params={"name": unknown[0]})
    out = {}
    for name, (kind, low, high, default) in known.items():
        v = value.get(name, default)
        if kind is str:
            if v not in TIES:
                raise ValidationError(_("parameters: %(name)s must be \"best\" or \"average\""),
                                      code="invalid_parameter", params={"name": name})
        elif isinstance(v, bool) or not isinstance(v, (int, float)) or (kind is int and not isinstance(v, int)):
            raise ValidationError(_("parameters: %(name)s must be a number"), code="invalid_parameter",
                                  params={"name": name})
        elif not low <= v <= high:  # type: ignore[operator]
            raise ValidationError(_("parameters: %(name)s must be between %(low)s and %(high)s"),
                                  code="parameter_out_of_range", params={"name": name, "low": low, "high": high})
        out[name] = kind(v)
    return out


class Rating(models.Model):
    class Engine(models.TextChoices):
        TENHOU = "tenhou", _("Tenhou-style R")
        SKILL = "skill", _("Skill estimate (Plackett-Luce)")
        MERS = "mers", _("EMA-style ranking (MERS)")

    class Substitutes(models.TextChoices):
        EVENT = "event", _("as each event's rule says")
        REAL = SubstituteRule.REAL.value, _("the seat's result counts for the registered player")
        NOT_COUNTED = SubstituteRule.NOT_COUNTED.value, _("not counted")
        FIXED = SubstituteRule.FIXED.value, _("the registered player counts as last")

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(unique=True)
    engine = models.CharField(_("engine"), max_length=10, choices=Engine.choices)
    parameters = models.JSONField(_("parameters"), default=dict, blank=True,
                                  help_text=_("Tenhou: initial. Skill: mu, sigma. EMA: ties (best or average)."))
    series = models.ManyToManyField(Series, related_name="ratings", blank=True, verbose_name=_("series counted"))
    substitutes = models.CharField(_("a substitute's game"), max_length=20, choices=Substitutes.choices,
                                   default=Substitutes.EVENT)
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)
    changed_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} (v{self.version})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk:  # every edit is a new version; the values are recomputed under it
            self.version = (Rating.objects.filter(pk=self.pk).values_list("version", flat=True).first() or 0) + 1
        super().save(*args, **kwargs)
        stamps.publish_on_commit([])  # the rating pages are cached under the stamp of everything

    def get_absolute_url(self) -> str:
        return reverse("rating", args=[self.slug])

    def clean(self) -> None:
        try:
            self.parameters = check_parameters(self.engine, self.parameters)
        except ValidationError as err:
            raise ValidationError({"parameters": err}) from None

    def settings(self) -> dict[str, Any]:
        return check_parameters(self.engine, self.parameters)


@receiver(post_delete, sender=Rating)
def _deleted(sender: type, instance: Rating, **kwargs: Any) -> None:
    stamps.publish_on_commit([])  # its pages must not be served from the cache


@receiver(m2m_changed, sender=Rating.series.through)
def _series_changed(sender: type, instance: Rating | Series, action: str, **kwargs: Any) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        if isinstance(instance, Rating):
            Rating.objects.filter(pk=instance.pk).update(version=F("version") + 1)
        else:
            instance.ratings.update(version=F("version") + 1)
        stamps.publish_on_commit([])


class PlayerMerge(models.Model):
    """Two player rows found to be one person: what the merged row was and what moved."""

    into = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merged_from")
    merged_id = models.PositiveIntegerField(_("merged player's id"))
    merged_name = models.CharField(_("merged player's name"), max_length=100)
    merged_ema_number = models.CharField(max_length=20, blank=True)
    moved = models.JSONField(_("moved"), default=dict, help_text=_("Rows moved, by kind."))
    reason = models.CharField(_("reason"), max_length=200)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    username = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.merged_name} -> {self.into}"
