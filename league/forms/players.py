"""A player select that tells two people of one name apart: an option shows
the name alone, or with club, country and id where another row shares it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Count, OuterRef, QuerySet, Subquery

from league.models import Player


def players_with_namesakes() -> QuerySet[Player]:
    """Every player, each with ``namesakes``: how many rows carry its name (itself included)."""
    same = Player.objects.filter(name=OuterRef("name")).values("name").annotate(n=Count("pk")).values("n")
    return Player.objects.annotate(namesakes=Subquery(same))


class PlayerChoiceField(forms.ModelChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(players_with_namesakes(), **kwargs)

    def label_from_instance(self, obj: Player) -> str:
        return obj.label() if getattr(obj, "namesakes", 1) > 1 else obj.name
