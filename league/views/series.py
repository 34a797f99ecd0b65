"""Public series pages: the list, and one series' standings, games by round,
running standings and the season chart. No login."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.cache import cache
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league import charts, stamps, stats
from league.db_bounds import int_param
from league.models import Game, Seat, Series, Standings
from league.models.event import hidden_from
from league.standings.event import event_standings
from league.standings.season import CHART_POINTS, cached_season, season
from league.tables import StandingsTable, WithStats
from league.templatetags.league import points
from league.views.cached import (
    FLAG,
    LIVE_POLL_SECONDS,
    PAGE_CACHE_SECONDS,
    SORT,
    canonical,
    is_fragment,
    public_page,
    query_key,
    render_cached,
    series_for_slug,
)
from league.views.params import configure_table, date_param, search_param, whole

CHART_HIGHLIGHT = 6  # the leaders drawn in colour; the others grey


@public_page(lambda: stamps.EVERYTHING, {})
def index(request: HttpRequest) -> HttpResponse:
    series = Series.objects.annotate(
        finished_games=Count("games", filter=Q(games__status=Game.Status.FINISHED)),
        live_games=Count("games", filter=Q(games__status=Game.Status.IN_PROGRESS)),
    ).order_by("-start_date", "name")
    return render(request, "league/series_list.html", {"series_list": series})


@dataclass(frozen=True)
class Stage:
    """A point the running standings can be shown at: after a round, or at the end of a day."""

    round: int | None
    date: datetime.date | None

    @property
    def label(self) -> str:
        if self.round is not None:
            return _("round %(number)s") % {"number": self.round}
        return date_format(self.date, "SHORT_DATE_FORMAT")


@dataclass(frozen=True)
class SeriesResults:
    """What finished games decide on the series page, cached under the
    series' results stamp: a hand in a game being played leaves it be."""

    standings: Standings
    movements: dict[int, int | None] | None
    previous: Stage | None
    rounds: list[int | None]  # the navigation bars (round_links)
    dates: list[datetime.date]
    finished_rounds: list[int]
    chart: str
    chart_table: dict[str, object]


@public_page(
    lambda slug: series_for_slug(slug),
    {"round": lambda v: whole(v), "date": lambda v: canonical(date_param(v)), "games": lambda v: whole(v),
     "partial": FLAG, "s-sort": SORT, "s-page": lambda v: whole(v), "s-per_page": lambda v: whole(v),
     "q": lambda v: search_param(v), "stats": FLAG},
    fragment=is_fragment, lineup=True,
)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The series page. ``?round=N`` or ``?date=YYYY-MM-DD`` show the standings
    as they stood then, with movement against the round or date before;
    ``?games=N`` picks the round whose games are listed; ``?q=`` lists the
    players whose name holds it; ``?stats=1`` adds the rate columns;
    ``?partial=1`` returns only the part that the live poll swaps in.

    Served whole from the cache (views/cached.py); computed, its part about
    finished games comes from the cache too unless a result changed."""
    series = get_object_or_404(Series.objects.select_related("event"), slug=slug)
    if hidden_from(series) is not None:  # the director hides results: only the event page shows what may be seen
        return redirect("event-public", slug=series.slug)  # never cached: only 200s are
    partial = bool(request.GET.get("partial"))
    if partial:
        # The fragment is the page's own part: its links must not ask for fragments.
        request.GET = request.GET.copy()
        del request.GET["partial"]
    fragment, live = render_cached(
        request, f"series-html:{series.pk}:{series.version}", "league/_series_live.html",
        lambda: _series_context(request, series),
    )
    if partial:
        return HttpResponse(fragment)
    ctx = {"series": series, "live": live, "live_html": fragment, "poll_seconds": LIVE_POLL_SECONDS,
           "csv_query": csv_query(request)}
    return render(request, "league/series_detail.html", ctx)


def csv_query(request: HttpRequest) -> str:
    """The query string that gives the CSV files the stage the page shows:
    ``?round=3`` after round 3, ``?date=...`` as of a day, else nothing."""
    stage = {}
    if (through_round := int_param(request.GET.get("round"))) is not None:
        stage["round"] = through_round
    if (through_date := date_param(request.GET.get("date"))) is not None:
        stage["date"] = through_date.isoformat()
    return "?" + urlencode(stage) if stage else ""


def _series_context(request: HttpRequest, series: Series) -> dict[str, object]:
    """The live part: the games of the shown round, around the results part."""
    through_round = int_param(request.GET.get("round"))
    through_date = date_param(request.GET.get("date"))
    games_round = int_param(request.GET.get("games"))
    results_html, finished_rounds = _results_html(request, series, through_round, through_date)
    # Rounds with a game being played: few rows, through the status index.
    live_rounds = set(
        Game.objects.filter(series=series, status=Game.Status.IN_PROGRESS).values_list("round_number", flat=True)
    )
    all_rounds = sorted(set(finished_rounds) | live_rounds)
    if games_round not in all_rounds:
        games_round = all_rounds[-1] if all_rounds else None
    games = list(
        Game.objects.filter(series=series, round_number=games_round)
        .prefetch_related("seats__player")
        .order_by("table", "pk")
    ) if games_round is not None else []
    return {
        "series": series,
        "results_html": results_html,
        "all_rounds": round_links(all_rounds, games_round),
        "games_round": games_round,
        "games": games,
        "live": bool(live_rounds),
        "poll_seconds": LIVE_POLL_SECONDS,
    }


def _results_html(
    request: HttpRequest, series: Series, through_round: int | None, through_date: datetime.date | None
) -> tuple[SafeString, list[int]]:
    """The standings, running standings and season chart, rendered, and the
    rounds with finished games; cached under the results stamp (read before
    anything it shows) and the query string, whose links the tables keep."""
    token = stamps.results_token(series.pk)
    key = f"series-results-html:{series.pk}:{token}:{get_language()}:{query_key(request)}"
    cached = cache.get(key)
    if cached is None:
        page: SeriesResults = cache.get_or_set(
            f"series-results:{series.pk}:{token}:{through_round}:{through_date}:{get_language()}",
            lambda: _series_results(series, through_round, through_date), PAGE_CACHE_SECONDS,
        )
        search = search_param(request.GET.get("q", "")) or ""
        with_stats = bool(request.GET.get("stats"))
        ranked_rows, unranked_rows = page.standings.ranked, page.standings.unranked
        if search:
            needle = search.casefold()
            ranked_rows = tuple(r for r in ranked_rows if needle in r.name.casefold())
            unranked_rows = tuple(r for r in unranked_rows if needle in r.name.casefold())
        if with_stats:
            per_player = cache.get_or_set(
                f"series-stats:{series.pk}:{token}:{through_round}:{through_date}",
                lambda: stats.stats_by_player(Seat.objects.counted(series).through(round=through_round,
                                                                                  date=through_date)),
                PAGE_CACHE_SECONDS,
            )
            ranked_rows = tuple(WithStats(r, per_player.get(r.player_id)) for r in ranked_rows)
            unranked_rows = tuple(WithStats(r, per_player.get(r.player_id)) for r in unranked_rows)
        ranked = StandingsTable(
            ranked_rows, series_slug=series.slug, movements=page.movements, prefix="s-", with_stats=with_stats,
            seats=series.ruleset().players,
        )
        configure_table(request, ranked, per_page=series.standings_per_page)
        unranked = StandingsTable(
            unranked_rows, series_slug=series.slug, prefix="u-", exclude=("rank",), orderable=False,
            with_stats=with_stats, seats=series.ruleset().players,
        )
        ctx = {
            "series": series,
            "standings": page.standings,
            "search": search,
            "with_stats": with_stats,
            # A three-player series has no fourth place to avoid.
            "stat_columns": [c for c in stats.STANDINGS_STATS
                             if series.ruleset().players == 4 or c.name != "fourth_avoidance_rate"],
            "ranked_table": ranked,
            "unranked_table": unranked,
            "found": len(ranked_rows) + len(unranked_rows),
            "through_round": through_round,
            "through_date": through_date,
            "previous": page.previous,
            "rounds": page.rounds,
            "dates": page.dates,
            "chart": page.chart,
            "chart_table": page.chart_table,
        }
        cached = (render_to_string("league/_series_results.html", ctx, request), page.finished_rounds)
        cache.set(key, cached, PAGE_CACHE_SECONDS)
    return mark_safe(cached[0]), cached[1]  # our own rendered template


def _series_results(series: Series, through_round: int | None, through_date: datetime.date | None) -> SeriesResults:
    # The rounds, the stage before and (a league) both tables and the chart's
    # running totals: one read under the results stamp (league.standings.season).
    found, league_season, before = cached_season(series, through_round=through_round, through_date=through_date)
    rounds, dates = found.rounds, found.dates
    previous = Stage(*before) if before is not None else None
    movements = None
    if league_season is None:
        # An event ranks its registered players, a substitute's seat counting as its rule says.
        table_now = event_standings(series, through_round=through_round).standings
        if previous is not None and previous.round is not None:
            movements = _movements(table_now, event_standings(series, through_round=previous.round).standings)
        stretch_ends, running = _event_running(series, rounds)
    else:
        table_now = league_season.standings
        if league_season.before is not None:
            movements = _movements(table_now, league_season.before)
        stretch_ends, running = league_season.stretch_ends, league_season.running

    chart, chart_table = _season_chart(series, table_now, rounds, stretch_ends, running)
    return SeriesResults(
        standings=table_now,
        movements=movements,
        previous=previous,
        rounds=round_links(rounds, through_round),
        dates=dates[-12:],  # the last dozen days; older ones through their rounds
        finished_rounds=rounds,
        chart=chart,
        chart_table=chart_table,
    )


def _movements(now: Standings, before: Standings) -> dict[int, int | None]:
    """Places gained per ranked player; None for a player who was not ranked before."""
    was = {r.player_id: r.rank for r in before.ranked}
    return {r.player_id: (was[r.player_id] - r.rank) if r.player_id in was else None for r in now.ranked}


def _event_running(series: Series, rounds: list[int]) -> tuple[list[int], dict[int, list[int | None]]]:
    """An event's total after each round is its standings then (carry-over,
    substitutes' rule): the read model per round, so the chart's last point is
    the table's points. An event longer than the chart draws is drawn from
    the plain running totals of its seats."""
    if len(rounds) > CHART_POINTS:
        plain = season(series, rounds=rounds)
        return plain.stretch_ends, plain.running
    running: dict[int, list[int | None]] = {}
    for k, r in enumerate(rounds):
        after = event_standings(series, through_round=r).standings
        for row in (*after.ranked, *after.unranked):
            running.setdefault(row.player_id, [None] * k).append(row.total)
        for column in running.values():
            if len(column) == k:  # not in the standings after this round: the last total stands
                column.append(column[-1] if column else None)
    return list(rounds), running


def _season_chart(
    series: Series, table: Standings, rounds: list[int], stretch_ends: list[int],
    running: dict[int, list[int | None]],
) -> tuple[str, dict[str, object]]:
    """Every player's total after each stretch of rounds (at most
    CHART_POINTS, however long the season), as a line chart and as a table."""
    if not rounds:
        return "", {}
    labels = stretch_ends  # each stretch ends after this round
    players = [*table.ranked, *table.unranked]
    empty: list[int | None] = [None] * len(labels)
    totals = {p.player_id: running.get(p.player_id, empty) for p in players}
    lines = [
        charts.Line(
            label=p.name,
            values=[None if v is None else v / 1000 for v in totals[p.player_id]],
            highlight=k < CHART_HIGHLIGHT,
        )
        for k, p in enumerate(players)
    ]
    leaders = ", ".join(p.name for p in players[:CHART_HIGHLIGHT])
    svg = charts.line_chart(
        title=_("%(series)s: every player's total points after each round") % {"series": series.name},
        description=_("Running totals of %(players)d players over %(rounds)d rounds; the current leaders in colour: "
                      "%(leaders)s. The table below gives the numbers.") % {
            "players": len(players), "rounds": len(rounds), "leaders": leaders},
        x_labels=[_("R%(number)s") % {"number": r} for r in labels],
        lines=lines,
        zero_line=0,
    )
    # The text alternative: the last few stages, so a phone can still read it.
    shown = range(max(0, len(labels) - 8), len(labels))
    chart_table = {
        "rounds": [labels[i] for i in shown],
        "rows": [(p, [points(totals[p.player_id][i]) for i in shown]) for p in players],
    }
    return svg, chart_table


def round_links(rounds: list[int], current: int | None, *, around: int = 3) -> list[int | None]:
    """The rounds a navigation lists: first, last and a few around ``current``;
    None marks a gap. A thousand-round season keeps a short bar.

    >>> round_links(list(range(1, 101)), 50)
    [1, None, 47, 48, 49, 50, 51, 52, 53, None, 100]
    >>> round_links([1, 2, 3], None)
    [1, 2, 3]
    """
    if current is None and rounds:
        current = rounds[-1]
    if len(rounds) <= 2 * around + 3:
        return list(rounds)
    at = rounds.index(current) if current in rounds else len(rounds) - 1
    keep = sorted({0, len(rounds) - 1, *range(max(0, at - around), min(len(rounds), at + around + 1))})
    out: list[int | None] = []
    for k, i in enumerate(keep):
        if k and i != keep[k - 1] + 1:
            out.append(None)
        out.append(rounds[i])
    return out


