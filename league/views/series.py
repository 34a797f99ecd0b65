from __future__ import annotations

import datetime

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.models import Game, Series


def index(request: HttpRequest) -> HttpResponse:
    series = Series.objects.annotate(
        finished_games=Count("games", filter=Q(games__status=Game.Status.FINISHED))
    ).order_by("-start_date", "name")
    return render(request, "league/series_list.html", {"series_list": series})


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    through_round = _int_or_none(request.GET.get("round"))
    through_date = _date_or_none(request.GET.get("date"))
    table = series.standings(through_round=through_round, through_date=through_date)
    ctx = {"series": series, "standings": table, "through_round": through_round, "through_date": through_date}
    return render(request, "league/series_standings.html", ctx)


def _int_or_none(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def _date_or_none(value: str | None) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(value) if value else None
    except ValueError:
        return None
