"""The series' CSV downloads: public, like the standings page they mirror.

Anonymous downloads are limited per client address (``EXPORT_RATE_LIMIT``,
django-ratelimit counting in the shared cache): a loop of downloads gets
``429 Too Many Requests`` with ``Retry-After`` instead of taking the site's
workers. Logged-in staff are not limited.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404
from django_ratelimit.core import get_usage

from league import exports
from league.db_bounds import int_param
from league.models import Game, Series
from league.models.event import hidden_from
from league.views.cached import conditional
from league.views.params import date_param

View = Callable[..., HttpResponseBase]


def _visible(slug: str) -> Series:
    series = get_object_or_404(Series.objects.select_related("event"), slug=slug)
    if hidden_from(series) is not None:
        raise PermissionDenied("The director hides this event's results for now.")
    return series


def limited_for_anonymous(view: View) -> View:
    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        if not request.user.is_authenticated:
            usage = get_usage(request, group="csv-exports", key="ip", rate=settings.EXPORT_RATE_LIMIT,
                              method="GET", increment=True)
            if usage is not None and usage["should_limit"]:
                response = HttpResponse(
                    f"Too many downloads from your address: at most {settings.EXPORT_RATE_LIMIT.replace('/', ' per ')}. "
                    "Try again in a minute.\n", status=429, content_type="text/plain")
                response["Retry-After"] = str(max(1, usage["time_left"]))
                return response
        return view(request, *args, **kwargs)

    return wrapper


# Streamed, and each export of a big series is large: not cached whole, but a
# client whose copy is current gets 304 without the rows being read at all.


@limited_for_anonymous
def standings_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    """``?round=3`` or ``?date=2025-10-02`` export the standings as they stood then."""
    series = _visible(slug)

    def make() -> HttpResponseBase:
        rows = exports.standings_rows(
            series, through_round=int_param(request.GET.get("round")), through_date=date_param(request.GET.get("date"))
        )
        return exports.csv_response(rows, f"{series.slug}-standings.csv")

    return conditional(request, series.pk, make)


def _games(request: HttpRequest, series: Series) -> QuerySet[Game]:
    """The games the series page with the same ``?round=`` or ``?date=`` counts."""
    return exports.series_games(
        series, through_round=int_param(request.GET.get("round")), through_date=date_param(request.GET.get("date"))
    )


@limited_for_anonymous
def games_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    """``?round=3`` or ``?date=2025-10-02``: the games through that round or finished by that day."""
    series = _visible(slug)
    return conditional(
        request, series.pk,
        lambda: exports.csv_response(exports.game_rows(_games(request, series)), f"{series.slug}-games.csv"),
    )


@limited_for_anonymous
def hands_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    """``?round=3`` or ``?date=2025-10-02`` as for the games."""
    series = _visible(slug)
    return conditional(
        request, series.pk,
        lambda: exports.csv_response(exports.hand_rows(_games(request, series)), f"{series.slug}-hands.csv"),
    )
