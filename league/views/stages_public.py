"""The public pages of an event's stages: the stage standings (each stage,
its cut line and the rule that drew it, the overall result) and the team
page, cached as event pages. The director's side is ``views/stages.py``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.access import event_for_anyone
from league.models.stages import Stage
from league.services import stages as st
from league.standings import event as standings
from league.templatetags.event import rule_names
from league.views.cached import event_page


@event_page()
def stages_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Every stage's standings with its cut line, and the overall result.
    Closed while the director hides results (a cut shows who scored what)."""
    series, event = event_for_anyone(slug)
    hidden = event.results_hidden
    results = None if hidden else standings.event_results(series)
    tables = [] if results is None else standings.stage_tables(series, results)
    ctx: dict[str, Any] = {
        "series": series, "event": event, "hidden": hidden, "tables": tables,
        "final": [] if results is None else standings.final_result(series, tables, results=results),
        "rules": standings.rules_of(series).tiebreak_list,
        "rule_names": rule_names(), "staged": Stage.objects.filter(series=series).exists(),
    }
    return render(request, "league/stages_standings.html", ctx)


@event_page()
def stages_teams(request: HttpRequest, slug: str) -> HttpResponse:
    """The team page: team standings, each round's team points, the members."""
    series, event = event_for_anyone(slug)
    hidden = event.results_hidden
    results = None if hidden else standings.event_results(series)
    teams = [] if results is None else standings.team_standings(series, results)
    rounds = sorted({r for t in teams for r in t.by_round})
    ctx = {"series": series, "hidden": hidden, "teams": teams, "rounds": rounds, "rules": st.rules_of(series),
           "totals": {p.id: sum(g.points for g in results.games.get(p.id, [])) for t in teams for p in t.members}
           if results else {}}
    return render(request, "league/stages_teams.html", ctx)
