"""The sign-off's marks on the staff pages: a game's state below its result,
and a series' open disputes, so the referee sees them where staff look."""

from __future__ import annotations

from typing import Any

from django import template

from league import services
from league.models import Game, Series

register = template.Library()


@register.inclusion_tag("league/_signoff_flag.html")
def signoff_flag(game: Game) -> dict[str, Any]:
    """The link to the sign-off page of a finished game, with who still has to answer."""
    if not game.is_finished:
        return {"game": game, "show": False}
    state = services.game_signoff(game)
    return {"game": game, "show": True, "state": state, "waiting": len(state.waiting_for)}


@register.inclusion_tag("league/_signoff_disputes.html")
def signoff_disputes(series: Series) -> dict[str, Any]:
    return {"series": series, "disputes": services.open_disputes(series)}
