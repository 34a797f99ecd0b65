"""What an event's EMA results file says: everyone in final order, the days
played and the event's EMA details (``ema_export``), read from the event's
standings (``league.standings.event``); the EMA ranking of ratings reads it
too. Written out by ``league.ema`` (CSV and Excel). docs/director.md, "Stages,
tie-breaks, teams and the EMA results".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from league import ema
from league.errors import ServiceError
from league.models import Game, RoundSeat, Series
from league.standings.event import event_results, final_result, rules_of, stage_tables


@dataclass(frozen=True)
class EmaExport:
    event: ema.EmaEvent
    players: list[ema.EmaPlayer]
    finished: bool  # every round of every stage played
    weight: ema.Weight


def ema_export(series: Series) -> EmaExport:
    """What the EMA results file says about ``series``: everyone in final
    order (substitutes are not ranked; those who played count towards the
    weight, at most 3), the days played and the event's EMA details.

    Refused for a three-player event: the EMA ranks four-player riichi only
    (its Riichi Competition Rules and MERS have no three-player table)."""
    if series.ruleset().players != 4:
        raise ServiceError("three_player_event", _("The EMA ranks four-player riichi only: a three-player event has "
                                                   "no EMA results file and no MERS weight."), field="series")
    results = event_results(series)
    tables = stage_tables(series, results)
    final = final_result(series, tables, results=results)  # placed: those with a counted game
    rules = rules_of(series)
    # Substitutes are not ranked (an event may list them in its own standings): places close up without them.
    ranked = [r for r in final if not r.player.is_substitute]
    players = [ema.EmaPlayer(place=1 + next(i for i, o in enumerate(ranked) if o.place == r.place),
                             first_name=r.player.first_name, last_name=r.player.last_name,
                             ema_number=r.player.ema_number, country=r.player.country, total=r.total,
                             player_id=r.player.player_id)
               for r in ranked]
    days = sorted({timezone.localtime(t).date() for t in Game.objects.filter(
        round_table__round__series=series).values_list("started_at", flat=True)})
    today = timezone.localdate()
    subs = RoundSeat.objects.filter(round__series=series, substitute__isnull=False,
                                    table__game__status=Game.Status.FINISHED).values("substitute_id").distinct().count()
    event = ema.EmaEvent(
        name=rules.ema_name or series.name, shortname=series.slug,
        first_day=days[0] if days else today, last_day=days[-1] if days else today,
        days=rules.ema_days or max(len(days), 1), city=rules.ema_city, host_country=rules.ema_country,
        substitutes=subs, qualification=rules.ema_qualification,
    )
    return EmaExport(event=event, players=players, finished=bool(tables) and all(t.complete for t in tables),
                     weight=ema.weight(event, players))
