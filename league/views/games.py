"""The public game page: hand-by-hand log, a chart of the four scores, the settlement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league import charts, stats
from league.engine_words import unreplayable_text
from league.models import WIND_NAMES, Game, Seat
from league.models.event import hidden_from
from league.round_names import round_short
from league.views.cached import (
    FLAG,
    LIVE_POLL_SECONDS,
    PAGE_CACHE_SECONDS,
    is_fragment,
    public_page,
    render_cached,
    series_for_game,
)


@dataclass(frozen=True)
class SettlementRow:
    seat: Seat
    end_score: int
    place: int
    base: int  # (end score - return score) in thousandths of a point
    uma: int
    oka: int
    penalty: int
    points: int


@public_page(lambda pk: series_for_game(pk), {"partial": FLAG}, fragment=is_fragment)
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """``?partial=1`` returns only the part that the live poll swaps in.

    Served whole from the cache (views/cached.py) under the stamp of the
    game's series, which every change to the game moves. Results hidden by the
    director redirect (a redirect is never cached)."""
    game = get_object_or_404(Game.objects.select_related("series__event"), pk=pk)
    hidden = hidden_from(game.series)
    if hidden is not None and game.round_number >= hidden:  # results hidden by the director
        return redirect("event-public", slug=game.series.slug)

    def context() -> dict[str, Any]:
        key = f"game-page:{game.pk}:{game.series.version}:{get_language()}"
        return {**cache.get_or_set(key, lambda: _game_page(game), PAGE_CACHE_SECONDS), "poll_seconds": LIVE_POLL_SECONDS}

    html, _live = render_cached(request, f"game-html:{game.pk}:{game.series.version}", "league/_game_live.html", context)
    if request.GET.get("partial"):
        return HttpResponse(html)
    ctx = {"game": game, "series": game.series, "live": not game.is_finished, "live_html": html,
           "poll_seconds": LIVE_POLL_SECONDS}
    return render(request, "league/game_detail.html", ctx)


def _game_page(game: Game) -> dict[str, Any]:
    prefetch_related_objects([game], *stats.replay_prefetches())
    seats = list(game.seats.all())
    result, unreplayable = game.replay()
    log = stats.hand_log(result)
    settlement = []
    if result.settlement is not None:
        s, rules = result.settlement, result.rules
        settlement = sorted(
            (
                SettlementRow(
                    seat=seat, end_score=s.final_scores[i], place=s.places[i],
                    base=s.final_scores[i] - rules.return_points, uma=s.uma[i], oka=s.oka[i],
                    penalty=s.penalties[i], points=s.points[i],
                )
                for i, seat in enumerate(seats)
            ),
            key=lambda row: (row.place, row.seat.seat),
        )
    return {
        "game": game,
        "series": game.series,
        "seats": seats,
        "result": result,
        "log": log,
        "settlement": settlement,
        "penalties": [p for p in result.penalties if p.points],
        "chart": _score_chart(game, seats, result) if log else "",
        "live": not game.is_finished,
        # A stored hand the engine now refuses: the hands before it are shown, and why no more.
        "unreplayable": unreplayable_text(unreplayable) if unreplayable else "",
        "refused": unreplayable,
        # What the standings count of a finished game they cannot settle again: its last settlement.
        "last_settled": sorted(seats, key=lambda s: (s.place or 0, s.seat)) if unreplayable and game.is_finished else [],
    }


def hand_labels(result: stats.sg.GameResult) -> list[str]:
    """Each hand's name on the chart, once: round and honba ("E2-1"); a hand
    played again under the same name (a chombo replays it, honba unchanged)
    gets its count after it ("E2-0 (2)")."""
    seen: dict[str, int] = {}
    labels = []
    for h in result.hands:
        label = f"{round_short(h.round_label)}-{h.honba}"
        seen[label] = seen.get(label, 0) + 1
        labels.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return labels


def _score_chart(game: Game, seats: list[Seat], result: stats.sg.GameResult) -> str:
    start = result.rules.start_points
    labels = [_("start"), *hand_labels(result)]
    lines = [
        charts.Line(
            label=f"{WIND_NAMES[seat.seat]}: {seat.player.name}",
            values=[start / 1000, *(h.scores[seat.seat] / 1000 for h in result.hands)],
        )
        for seat in seats
    ]
    return charts.line_chart(
        title=(_("%(game)s: the three scores after each hand") if len(seats) == 3
               else _("%(game)s: the four scores after each hand")) % {"game": game},
        description=_("Scores in thousands of points after every hand; the hand log table gives each number."),
        x_labels=labels,
        lines=lines,
        zero_line=start / 1000,
        y_format=lambda v: _("%(n)sk") % {"n": f"{v:g}"},
        height=260,
    )
