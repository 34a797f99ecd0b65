"""The series' CSV downloads: public, like the standings page they mirror."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404

from league import exports
from league.models import Series
from league.views.cached import conditional
from league.views.series import date_param, int_param

# Streamed, and each export of a big series is large: not cached whole, but a
# client whose copy is current gets 304 without the rows being read at all.


def standings_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    """``?round=3`` or ``?date=2025-10-02`` export the standings as they stood then."""
    series = get_object_or_404(Series, slug=slug)

    def make() -> HttpResponseBase:
        rows = exports.standings_rows(
            series, through_round=int_param(request.GET.get("round")), through_date=date_param(request.GET.get("date"))
        )
        return exports.csv_response(rows, f"{series.slug}-standings.csv")

    return conditional(request, series.pk, make)


def games_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    series = get_object_or_404(Series, slug=slug)
    return conditional(
        request, series.pk,
        lambda: exports.csv_response(exports.game_rows(exports.series_games(series)), f"{series.slug}-games.csv"),
    )


def hands_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    series = get_object_or_404(Series, slug=slug)
    return conditional(
        request, series.pk,
        lambda: exports.csv_response(exports.hand_rows(exports.series_games(series)), f"{series.slug}-hands.csv"),
    )
