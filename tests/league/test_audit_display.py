"""``GameAudit.get_action_display`` (issue 28: written out for speed) says
what Django's generated display says, for every action, in every language,
and the stored value for one that is no choice."""

from __future__ import annotations

import pytest
from django.db.models import Model
from django.utils import translation

from league.models import GameAudit


def django_display(entry: GameAudit) -> str:
    return Model._get_FIELD_display(entry, GameAudit._meta.get_field("action"))  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("action", [*GameAudit.Action.values, "no_such_action"])
def test_the_action_display_is_djangos(action: str, language: str) -> None:
    entry = GameAudit(action=action)
    with translation.override(language):
        assert entry.get_action_display() == django_display(entry)
        assert type(entry.get_action_display()) is str


def test_a_japanese_label_is_translated() -> None:
    with translation.override("ja"):
        assert GameAudit(action="record_hand").get_action_display() != "Record hand"
