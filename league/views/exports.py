"""The series' CSV downloads: public, like the standings page they mirror."""

from __future__ import annotations

import datetime

from django.http import HttpRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404

from league import exports
from league.models import Series


def standings_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """``?round=3`` or ``?date=2025-10-02`` export the standings as they stood then."""
    series = get_object_or_404(Series, slug=slug)
    rows = exports.standings_rows(
        series, through_round=_int_or_none(request.GET.get("round")), through_date=_date_or_none(request.GET.get("date"))
    )
    return exports.csv_response(rows, f"{series.slug}-standings.csv")


def games_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    series = get_object_or_404(Series, slug=slug)
    return exports.csv_response(exports.game_rows(exports.series_games(series)), f"{series.slug}-games.csv")


def hands_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    series = get_object_or_404(Series, slug=slug)
    return exports.csv_response(exports.hand_rows(exports.series_games(series)), f"{series.slug}-hands.csv")


def _int_or_none(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def _date_or_none(value: str | None) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(value) if value else None
    except ValueError:
        return None
