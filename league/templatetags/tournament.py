"""Template helpers of the event pages: a dict lookup, and the clock's notice
on the staff game page (what the round's time and ending policy say)."""

from __future__ import annotations

from typing import Any

from django import template

from league.models import Game

register = template.Library()


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    return mapping.get(key, "") if mapping else ""


@register.inclusion_tag("league/_tournament_clock_notice.html")
def clock_notice(game: Game) -> dict[str, Any]:
    """The event clock for a table's game: time left, or that time is up and
    what the policy says; nothing for a game outside an event round."""
    from league.services.tournament import clock_verdict

    if game.is_finished:
        return {"verdict": None}
    verdict = clock_verdict(game)
    table = getattr(game, "round_table", None) if verdict is not None else None
    return {"verdict": verdict, "ends_at": table.ends_at() if table is not None else None}
