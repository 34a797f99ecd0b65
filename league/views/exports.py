"""The series' CSV downloads: public, like the standings page they mirror."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404

from league import exports
from league.models import Series
from league.models.tournament import hidden_from
from league.views.series import date_param, int_param


def _visible(slug: str) -> Series:
    series = get_object_or_404(Series.objects.select_related("tournament"), slug=slug)
    if hidden_from(series) is not None:
        raise PermissionDenied("The director hides this event's results for now.")
    return series


def standings_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """``?round=3`` or ``?date=2025-10-02`` export the standings as they stood then."""
    series = _visible(slug)
    rows = exports.standings_rows(
        series, through_round=int_param(request.GET.get("round")), through_date=date_param(request.GET.get("date"))
    )
    return exports.csv_response(rows, f"{series.slug}-standings.csv")


def games_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    series = _visible(slug)
    return exports.csv_response(exports.game_rows(exports.series_games(series)), f"{series.slug}-games.csv")


def hands_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    series = _visible(slug)
    return exports.csv_response(exports.hand_rows(exports.series_games(series)), f"{series.slug}-hands.csv")
