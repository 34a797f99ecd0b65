"""The public player page, within one series: games, placements, points over
time, and hand statistics next to the whole series'."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from league import charts, stats
from league.models import WINDS, Player, Seat, Series
from league.models.tournament import hidden_from
from league.tables import PlayerGamesTable
from league.templatetags.league import average, percent
from league.views.series import PAGE_CACHE_SECONDS, configure_table, render_cached

GAMES_PER_PAGE = 25


def detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Two queries when cached: the series (for its version) and the player.
    Sorting and pagination of the games stay per request, over cached rows."""
    series = get_object_or_404(Series.objects.select_related("tournament"), slug=slug)
    player = get_object_or_404(Player, pk=player_id)
    if hidden_from(series) is not None:  # results hidden by the director
        return redirect("event-public", slug=series.slug)

    def context() -> dict[str, Any]:
        key = f"player-page:{series.pk}:{series.version}:{player.pk}"
        page = cache.get_or_set(key, lambda: _player_page(series, player), PAGE_CACHE_SECONDS)
        table = PlayerGamesTable(page["rows"])
        configure_table(request, table, per_page=GAMES_PER_PAGE)
        return {**page, "series": series, "player": player, "games_table": table}

    html, _live = render_cached(
        request, f"player-html:{series.pk}:{series.version}:{player.pk}", "league/_player_body.html", context
    )
    return render(request, "league/player_detail.html", {"series": series, "player": player, "body_html": html})


def _player_page(series: Series, player: Player) -> dict[str, Any]:
    seats = list(
        Seat.objects.filter(player=player, game__series=series)
        .select_related("game")
        .order_by("game__round_number", "game__finished_at", "game__pk")
    )
    if not seats:
        raise Http404(f"{player.name} has no games in {series.name}")
    standing = series.standings().by_player().get(player.pk)
    numbers = stats.player_stats(series, player.pk)
    rows = [
        {
            "round": s.game.round_number, "table": s.game.table, "date": s.game.finished_at or s.game.started_at,
            "seat": WINDS[s.seat], "place": s.place, "end_score": s.end_score,
            "points": s.points, "game": s.game.pk, "in_progress": not s.game.is_finished,
        }
        for s in seats
    ]
    finished = [s for s in seats if s.place is not None]
    places = [sum(1 for s in finished if s.place == n) for n in (1, 2, 3, 4)]
    return {
        "rows": rows,
        "standing": standing,
        "places": places,
        "place_chart": charts.bar_chart(
            title=f"{player.name}: placements in {series.name}",
            description=", ".join(f"{n} {label}" for n, label in zip(places, ("1st", "2nd", "3rd", "4th"), strict=True)),
            labels=["1st", "2nd", "3rd", "4th"],
            values=places,
        ) if finished else "",
        "points_chart": _points_chart(player, series, finished),
        "stats": numbers,
        "stat_rows": _stat_rows(numbers),
    }


def _points_chart(player: Player, series: Series, finished: list[Seat]) -> str:
    if not finished:
        return ""
    running, values = 0, [0.0]
    for s in finished:
        running += s.points
        values.append(running / 1000)
    keep = charts.sample_positions(len(values))
    return charts.line_chart(
        title=f"{player.name}: total points after each game in {series.name}",
        description=f"From 0 to {values[-1]:+.1f} over {len(finished)} games; the games table gives each game.",
        x_labels=[str(i) for i in keep],
        lines=[charts.Line(label=player.name, values=[values[i] for i in keep])],
        zero_line=0,
        height=220,
    )


def _stat_rows(numbers: stats.PlayerStats) -> list[tuple[str, str, str, str]]:
    """(statistic, what it counts, the player's, the series') for the statistics table."""
    p, s = numbers.player, numbers.series

    def avg(v: float | None) -> str:
        return "\u2013" if v is None else f"{round(v):,}"

    return [
        ("Hands played", "hands of the games played (series: every hand)", f"{p.hands:,}", f"{s.hands // 4:,}"),
        ("Win rate", "of hands played", percent(p.win_rate), percent(s.win_rate)),
        ("Deal-in rate", "of hands played, discarding the winning tile", percent(p.deal_in_rate),
         percent(s.deal_in_rate)),
        ("Riichi rate", "of hands played", percent(p.riichi_rate), percent(s.riichi_rate)),
        ("Tsumo rate", "of wins", percent(p.tsumo_rate), percent(s.tsumo_rate)),
        ("Call rate", f"wins with an open meld, of the wins whose tiles were kept ({p.wins_with_tiles})",
         percent(p.call_rate), percent(s.call_rate)),
        ("Average win", "the hand's value, without honba and riichi sticks", avg(p.average_win), avg(s.average_win)),
        ("Average deal-in", "the hand's value paid, without honba", avg(p.average_deal_in), avg(s.average_deal_in)),
        ("Average place", "finished games", average(p.average_place), average(s.average_place)),
    ]
