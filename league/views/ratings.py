"""The public rating pages: every rating, one rating's table (and its CSV),
and a player's history in a rating with its chart and how each step was
computed. Cached whole under the stamp every change moves (as the page of a
player across series); the table itself is computed once per results stamp
(league/standings/ratings.py), so a new page after a hand is a render only."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from league import charts, exports, stamps
from league.models import Player, Rating
from league.ratings.common import Step, milli
from league.standings.ratings import rating_steps, rating_table
from league.views.cached import public_page


def _everything(**kwargs: Any) -> str:
    return stamps.EVERYTHING


@public_page(_everything, {})
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "league/rating_list.html", {"ratings": Rating.objects.prefetch_related("series")})


@public_page(_everything, {})
def table(request: HttpRequest, slug: str) -> HttpResponse:
    rating = get_object_or_404(Rating, slug=slug)
    found = rating_table(rating)
    return render(request, "league/rating_table.html", {
        "rating": rating, "table": found, "series": rating.series.order_by("start_date", "name"),
        "unit": _unit(rating),
    })


def table_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    rating = get_object_or_404(Rating, slug=slug)
    return exports.csv_response(exports.rating_rows(rating_table(rating)), f"{rating.slug}-v{rating.version}.csv")


@public_page(_everything, {})
def history(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    rating = get_object_or_404(Rating, slug=slug)
    player = get_object_or_404(Player, pk=player_id)
    found = rating_table(rating)
    steps = rating_steps(rating, player.pk)
    if not steps:
        raise Http404(f"{player.name} has no result in {rating.name}")
    row = found.row(player.pk)  # its name says which of two namesakes this is
    return render(request, "league/rating_history.html", {
        "rating": rating, "player": player, "table": found, "row": row,
        "steps": [_step(s) for s in reversed(steps)], "chart": _chart(rating, row.name, steps),
        "unit": _unit(rating),
    })


def _unit(rating: Rating) -> str:
    return {Rating.Engine.TENHOU: pgettext("rating", "R"), Rating.Engine.SKILL: _("Skill"),
            Rating.Engine.MERS: _("Ranking")}[
        Rating.Engine(rating.engine)]


def _step(step: Step) -> dict[str, Any]:
    change = None if step.before is None or step.after is None else step.after - step.before
    return {"key": step.key, "day": step.day, "before": step.before, "after": step.after, "change": change,
            "line": _(step.template).format(**dict(step.numbers))}


def _chart(rating: Rating, name: str, steps: tuple[Step, ...]) -> str:
    points = [(s.key, s.after) for s in steps if s.after is not None]
    if not points:
        return ""
    if steps[0].before is not None:  # where the first step started: 1500, or 0 for the skill estimate
        points.insert(0, ("", steps[0].before))
    keep = charts.sample_positions(len(points))
    values = [points[i][1] / 1000 for i in keep]
    return charts.line_chart(
        title=_("%(player)s: %(rating)s after each result") % {"player": name, "rating": rating.name},
        description=_("From %(first)s to %(last)s over %(count)d results; the table below gives each step.") % {
            "first": milli(points[0][1]), "last": milli(points[-1][1]), "count": len(steps)},
        x_labels=[str(i) for i in keep],
        lines=[charts.Line(label=name, values=values)],
        height=220,
    )
