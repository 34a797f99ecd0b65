"""Template helpers of the event pages: a dict lookup, and the clock's notice
on the staff game page (what the round's time and ending policy say)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _

from league import engine_words
from league.models import Game
from league.models.stages import Stage
from league.tiebreaks import RULES

register = template.Library()

# How a round was seated (Round.seated_by: "pregenerated", "swiss",
# "stage:snake", "manual+swap"...), part by part.
SEATED_BY = {"pregenerated": _("pre-generated"), "swiss": _("Swiss"), "manual": _("by hand"), "swap": _("swapped")}


@register.filter
def roster_error(error: Any) -> str:
    return engine_words.roster_error(error)


@register.filter
def seated_by(value: str) -> str:
    parts = []
    for part in (value or "").split("+"):
        kind, _sep, how = part.partition(":")
        if kind == "stage" and how in Stage.Seating.values:
            parts.append(str(Stage.Seating(how).label))
        else:
            parts.append(str(SEATED_BY.get(part, part)))
    return " + ".join(parts)


# The tie-break rules by id (league.tiebreaks), in the reader's language.
TIEBREAK_NAMES = {
    "head_to_head": _("head-to-head"), "firsts": _("most firsts"), "best_game": _("best single game"),
    "fewest_fourths": _("fewest fourths"), "playoff": _("playoff"), "points": _("points"),
    "stage": _("the stage reached"),
}


def rule_names() -> dict[str, str]:
    """Every rule a table names, by id: the tie-breaks' own words where the
    reader's language has none (``league.tiebreaks.RULES``)."""
    return {**RULES, **TIEBREAK_NAMES}


@register.filter
def tiebreak(rule: str) -> str:
    """A tie-break rule's name: "below on {{ r.separated_by|tiebreak }}"."""
    return str(TIEBREAK_NAMES.get(rule, rule))


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    return mapping.get(key, "") if mapping else ""


@register.inclusion_tag("league/_event_clock_notice.html")
def clock_notice(game: Game) -> dict[str, Any]:
    """The event clock for a table's game: time left, or that time is up and
    what the policy says; nothing for a game outside an event round."""
    from league.services.event import clock_verdict

    if game.is_finished:
        return {"verdict": None}
    verdict = clock_verdict(game)
    table = getattr(game, "round_table", None) if verdict is not None else None
    return {"verdict": verdict, "ends_at": table.ends_at() if table is not None else None}
