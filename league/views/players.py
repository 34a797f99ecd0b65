"""The public player pages: within one series (games, placements, points
over time, and hand statistics next to the whole series'), and across
series (every series played, totals per series and overall)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league import charts, stamps, stats
from league.models import WIND_NAMES, Game, Player, Seat, Series
from league.models.event import hidden_from, is_event
from league.models.standing_rows import StandingRow
from league.services.players import namesakes
from league.standings.season import league_standing, season_if_cached
from league.stats import across_series_rows
from league.tables import PlayerGamesTable
from league.templatetags.league import average, percent
from league.views.cached import PAGE_CACHE_SECONDS, SORT, current_standings, public_page, render_cached, series_for_slug
from league.views.params import configure_table, whole

GAMES_PER_PAGE = 25


@public_page(lambda slug, player_id: series_for_slug(slug), {"sort": SORT, "page": whole})
def detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Served whole from the cache (views/cached.py). Computed, the part that
    finished games decide is cached under the series' results stamp, and
    sorting and pagination of the games run over cached rows."""
    series = get_object_or_404(Series.objects.select_related("event"), slug=slug)
    player = get_object_or_404(Player, pk=player_id)
    if hidden_from(series) is not None:  # results hidden by the director
        return redirect("event-public", slug=series.slug)

    def context() -> dict[str, Any]:
        key = f"player-page:{series.pk}:{series.version}:{player.pk}:{get_language()}"
        page = cache.get_or_set(key, lambda: _player_page(series, player), PAGE_CACHE_SECONDS)
        table = PlayerGamesTable(page["rows"])
        configure_table(request, table, per_page=GAMES_PER_PAGE)
        return {**page, "series": series, "player": player, "games_table": table}

    html, _live = render_cached(
        request, f"player-html:{series.pk}:{series.version}:{player.pk}", "league/_player_body.html", context
    )
    return render(request, "league/player_detail.html", {"series": series, "player": player, "body_html": html})


def _player_page(series: Series, player: Player) -> dict[str, Any]:
    """What the player page shows: the part finished games decide comes from
    the cache unless a result changed, so a hand costs the games being played."""
    token = stamps.results_token(series.pk)  # read before anything it covers
    # Every player's finished statistics and counted totals: one read per
    # results stamp, shared by every player page (league.stats.finished_by_player).
    by_player = cache.get_or_set(
        f"finished-by-player:{series.pk}:{token}", lambda: stats.finished_by_player_from_last(series), PAGE_CACHE_SECONDS
    )
    done = cache.get_or_set(
        f"player-results:{series.pk}:{token}:{player.pk}:{get_language()}",
        lambda: _player_results(series, player, by_player), PAGE_CACHE_SECONDS,
    )
    series_done = stats.total(*(p.stats for p in by_player.values()))
    live_rows = _game_rows(Seat.objects.filter(
        player=player, game__series=series, game__status=Game.Status.IN_PROGRESS
    ))
    if not done["rows"] and not live_rows:
        raise Http404(f"{player.name} has no games in {series.name}")
    # Oldest first as the query gave them, a game being played before the
    # finished games of its round; then in the table's first order (newest
    # round first, a stable sort like the table's): the table sorts again,
    # and a sorted list costs it n steps.
    rows = sorted([*done["rows"], *live_rows], key=lambda r: (r["round"], not r["in_progress"]))
    numbers = stats.PlayerStats(
        player=stats.total(done["stats"], stats.live_stats(series, player.pk)),
        series=stats.total(series_done, stats.live_stats(series)),
    )
    return {
        **done,
        "rows": sorted(rows, key=lambda r: -r["round"]),
        "stats": numbers,
        "stat_rows": _stat_rows(numbers, series.ruleset().players),
    }


def _player_results(series: Series, player: Player, by_player: dict[int, stats.PlayerFinished]) -> dict[str, Any]:
    """The player's finished games: rows, placements, charts, standing, statistics."""
    rows = _game_rows(Seat.objects.filter(player=player, game__series=series, game__status=Game.Status.FINISHED))
    seats = series.ruleset().players  # three places for a three-player series
    places = [sum(1 for r in rows if r["place"] == n) for n in range(1, seats + 1)]
    return {
        "rows": rows,
        "standing": _standing(series, player, by_player),
        "places": places,
        "place_labels": _places(seats),
        "place_chart": charts.bar_chart(
            title=_("%(player)s: placements in %(series)s") % {"player": player.name, "series": series.name},
            description=", ".join(f"{n} {label}" for n, label in zip(places, _places(seats), strict=True)),
            labels=_places(seats),
            values=places,
        ) if rows else "",
        "points_chart": _points_chart(player, series, rows),
        "stats": by_player[player.pk].stats if player.pk in by_player else stats.HandStats(),
    }


def _standing(series: Series, player: Player, by_player: dict[int, stats.PlayerFinished]) -> StandingRow | None:
    """The player's row of the table: from the series page's read when it
    came first under this results stamp, else (a league) the player's row
    alone, a third of the whole table's cost."""
    found = season_if_cached(series)
    if found is not None:
        return found.standings.by_player().get(player.pk)
    if is_event(series):
        return current_standings(series).by_player().get(player.pk)
    totals = {pid: (p.counted_games, p.counted_total) for pid, p in by_player.items() if p.counted_games}
    return league_standing(series, player.pk, totals=totals)


def _places(seats: int = 4) -> list[str]:
    return [_("1st"), _("2nd"), _("3rd"), _("4th")][:seats]


def _game_rows(seats: QuerySet[Seat]) -> list[dict[str, Any]]:
    """Plain rows, not models: a thousand games' Game objects (their JSON
    fields decoded) were most of what this page cost after a change."""
    found = seats.order_by("game__round_number", "game__finished_at", "game__pk").values_list(
        # One date per row, not two: reading datetimes is much of this query's cost on SQLite.
        "game__round_number", "game__table", Coalesce("game__finished_at", "game__started_at"), "seat", "place",
        "end_score", "points", "game_id", "game__status",
    )
    return [
        {
            "round": round_number, "table": table, "date": date,
            "seat": WIND_NAMES[seat], "place": place, "end_score": end_score,
            "points": points, "game": game_id, "in_progress": status != Game.Status.FINISHED,
        }
        for round_number, table, date, seat, place, end_score, points, game_id, status in found
    ]


def _points_chart(player: Player, series: Series, finished: list[dict[str, Any]]) -> str:
    if not finished:
        return ""
    running, values = 0, [0.0]
    for row in finished:
        running += row["points"]
        values.append(running / 1000)
    keep = charts.sample_positions(len(values))
    return charts.line_chart(
        title=_("%(player)s: total points after each game in %(series)s") % {"player": player.name, "series": series.name},
        description=_("From 0 to %(total)s over %(games)d games; the games table gives each game.") % {
            "total": f"{values[-1]:+.1f}", "games": len(finished)},
        x_labels=[str(i) for i in keep],
        lines=[charts.Line(label=player.name, values=[values[i] for i in keep])],
        zero_line=0,
        height=220,
    )


def _stat_rows(numbers: stats.PlayerStats, seats: int = 4) -> list[tuple[str, str, str, str]]:
    """(statistic, what it counts, the player's, the series') for the statistics table.
    A three-player series has no fourth place, so no fourth-avoidance row."""
    p, s = numbers.player, numbers.series

    def avg(v: float | None) -> str:
        return "\u2013" if v is None else f"{round(v):,}"

    return [
        (_("Hands played"), _("hands of the games played (series: every hand)"), f"{p.hands:,}", f"{s.hands // seats:,}"),
        (_("Win rate"), _("of hands played"), percent(p.win_rate), percent(s.win_rate)),
        (_("Deal-in rate"), _("of hands played, discarding the winning tile"), percent(p.deal_in_rate),
         percent(s.deal_in_rate)),
        (_("Riichi rate"), _("of hands played"), percent(p.riichi_rate), percent(s.riichi_rate)),
        (_("Tsumo rate"), _("of wins"), percent(p.tsumo_rate), percent(s.tsumo_rate)),
        (_("Open wins"), _("wins with an open meld (chi, pon or open kan), of the wins whose tiles were kept "
                           "(%(n)s); calls in hands not won are not recorded") % {"n": p.wins_with_tiles},
         percent(p.open_win_rate), percent(s.open_win_rate)),
        (_("Average win"), _("the hand's value, without honba and riichi sticks"), avg(p.average_win),
         avg(s.average_win)),
        (_("Average deal-in"), _("the hand's value paid, without honba"), avg(p.average_deal_in),
         avg(s.average_deal_in)),
        (_("Average place"), _("finished games"), average(p.average_place), average(s.average_place)),
        (_("Top-two rate"), _("finished games ended 1st or 2nd"), percent(p.top_two_rate), percent(s.top_two_rate)),
        (_("Fourth-avoidance rate"), _("finished games not ended 4th"), percent(p.fourth_avoidance_rate),
         percent(s.fourth_avoidance_rate)),
    ][: None if seats == 4 else -1]


@public_page(lambda player_id: stamps.EVERYTHING, {})
def across_series(request: HttpRequest, player_id: int) -> HttpResponse:
    """Every series the player has a counted game in, newest first, with
    their totals there and overall, from one aggregate query over the seats'
    result snapshots. Cached under the stamp every series change moves.
    Rounds a director hides are left out, as the event page leaves them out."""
    player = get_object_or_404(Player, pk=player_id)
    found = across_series_rows(player)
    if found is None:
        raise Http404(f"{player.name} has no counted game yet")
    series_rows, overall = found
    # Two people of one name: the heading says which one this is.
    name = player.label() if namesakes([player.name]) else player.name
    return render(request, "league/player_series.html", {
        "player": player, "name": name, "rows": series_rows, "overall": overall,
    })


