"""league.tables.QuickBody renders a table's body with the HTML
django-tables2's own template gives: every cell, its attributes, the row's
attributes, defaults for missing values, sorting and pagination, the
optional columns, the empty table, and the Japanese rendering."""

from __future__ import annotations

import datetime
import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import timezone, translation

from league import stats
from league.models import Seat
from league.tables import PlayerGamesTable, StandingsTable, WithStats
from league.views.params import configure_table
from tests.factories import bulk_finished_games, make_players, make_series

pytestmark = pytest.mark.django_db


def _body(html: str) -> str:
    """The tbody, whitespace between tags dropped (HTML gives it no meaning)."""
    body = re.search(r"<tbody[^>]*>(.*)</tbody>", html, re.S)
    assert body is not None
    return re.sub(r">\s+<", "><", body.group(1).strip())


def _both(make, query: str = "") -> tuple[str, str]:  # noqa: ANN001
    """The table's body by django-tables2's template and by QuickBody."""
    out = []
    for template in ("league/_table.html", "league/_quick_table.html"):
        request = RequestFactory().get("/" + query)
        table = make(template)
        configure_table(request, table, per_page=10)
        out.append(_body(render_to_string(template, {"table": table, "request": request})))
    return out[0], out[1]


@pytest.fixture
def season():  # noqa: ANN201
    series = make_series(min_games=6)
    players = make_players(14)
    bulk_finished_games(series, players, 20, seed=11, tables=3)
    return series


@pytest.mark.parametrize("query", ["", "?s-sort=-games", "?s-sort=name&s-page=2", "?s-page=9", "?s-per_page=3"])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_standings_body_is_django_tables2s(season, query, language) -> None:  # noqa: ANN001
    table_now = season.standings()
    movements = {r.player_id: (k % 3) - 1 or None for k, r in enumerate(table_now.ranked)}
    with translation.override(language):
        stock, quick = _both(lambda t: StandingsTable(
            table_now.ranked, series_slug=season.slug, movements=movements, prefix="s-", template_name=t), query)
    assert stock == quick
    assert quick.count("<tr ") == min(10, len(table_now.ranked)) or "s-p" in query
    assert 'data-player="' in quick and "<td " in quick


def test_standings_body_with_rates_and_missing_values(season) -> None:  # noqa: ANN001
    table_now = season.standings()
    per_player = stats.stats_by_player(Seat.objects.counted(season))
    rows = [WithStats(r, per_player.get(r.player_id) if k % 2 else None) for k, r in enumerate(table_now.ranked)]
    stock, quick = _both(lambda t: StandingsTable(
        rows, series_slug=season.slug, with_stats=True, prefix="s-", template_name=t))
    assert stock == quick
    assert "\u2013" in quick  # the rates' default where a row has no statistics


def test_unranked_and_empty_bodies(season) -> None:  # noqa: ANN001
    table_now = season.standings()
    stock, quick = _both(lambda t: StandingsTable(
        table_now.unranked, series_slug=season.slug, prefix="u-", exclude=("rank",), orderable=False,
        template_name=t))
    assert stock == quick
    stock, quick = _both(lambda t: StandingsTable(
        [], series_slug=season.slug, prefix="u-", template_name=t, empty_text="Nobody yet <3"))
    assert stock == quick == '<tr><td colspan="13">Nobody yet &lt;3</td></tr>'


def test_player_games_body_is_django_tables2s() -> None:
    when = timezone.make_aware(datetime.datetime(2026, 3, 1, 23, 30))
    rows = [
        {"round": n, "table": str(n % 3 or ""), "date": when + datetime.timedelta(days=n), "seat": "East",
         "place": None if n == 2 else 1 + n % 4, "end_score": 31200 - 100 * n, "points": 41200 - 7 * n,
         "game": 100 + n, "in_progress": n == 4}
        for n in range(1, 6)
    ]
    for language in ("en", "ja"):
        with translation.override(language):
            for query in ("", "?sort=points", "?sort=-date&page=1"):
                stock, quick = _both(lambda t: PlayerGamesTable(rows, template_name=t), query)
                assert stock == quick


def test_remembered_rows_are_never_another_tables(season) -> None:  # noqa: ANN001
    """Rows rendered before are taken again only when nothing they show
    moved: after a result changes a row, a movement, the language or the
    series, the body is still django-tables2's own."""
    import dataclasses

    ranked = list(season.standings().ranked)
    movements = {r.player_id: 1 for r in ranked}
    changed = [dataclasses.replace(ranked[0], total=ranked[0].total - 20000, rank=5), *ranked[1:]]
    cases = [
        ("en", ranked, movements, season.slug),
        ("ja", ranked, movements, season.slug),  # the language
        ("en", changed, movements, season.slug),  # a result
        ("en", ranked, {**movements, ranked[1].player_id: -2}, season.slug),  # a movement
        ("en", ranked, movements, "another"),  # the series the links go to
        ("en", ranked, movements, season.slug),  # and back: remembered rows
    ]
    for language, rows, moved, slug in cases:
        with translation.override(language):
            stock, quick = _both(lambda t, rows=rows, moved=moved, slug=slug: StandingsTable(
                rows, series_slug=slug, movements=moved, prefix="s-", template_name=t))
        assert stock == quick, (language, slug)
