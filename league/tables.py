"""django-tables2 tables of the public pages: one Table class per list,
``render_<column>`` for what the page shows."""

from __future__ import annotations

import datetime
from collections.abc import Hashable
from typing import Any

import django_tables2 as tables
from django.db import models
from django.urls import reverse
from django.utils.formats import date_format, localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django_tables2.columns import ManyToManyColumn
from django_tables2.columns.linkcolumn import BaseLinkColumn
from django_tables2.utils import signature

from league import stats
from league.models import StandingRow
from league.templatetags.league import movement, percent, points, rank, score

NUM = {"th": {"class": "num", "scope": "col"}, "td": {"class": "num"}}
COL = {"th": {"scope": "col"}}
# Columns a phone shows only on demand (the standings' "Show every column"):
# rank, move, name and points always fit at 360 px.
OPT = {"th": {"class": "num opt", "scope": "col"}, "td": {"class": "num opt"}}


def labelled(attrs: dict[str, dict[str, str]], label: str) -> dict[str, dict[str, str]]:
    """Column attrs whose cells carry their heading, for a phone's stacked rows."""
    return {**attrs, "td": {**attrs.get("td", {}), "data-label": label}}


class WithStats:
    """A standings row with its player's hand statistics (``.stats``), for
    the optional rate columns; everything else is the row's."""

    def __init__(self, row: Any, hand_stats: Any) -> None:
        self.row = row
        self.stats = hand_stats

    def __getattr__(self, name: str) -> Any:
        return getattr(self.row, name)


class QuickBody:
    """A Table mixin: the body's rows rendered here rather than by
    django-tables2's template, with the same HTML.

    For every cell django-tables2 computes the column's attributes afresh and
    inspects the render method's signature (``inspect.signature``), and the
    template engine walks the cell's loop: 200 us a cell, 90 ms of the series
    page's 180 ms after a change of results. Here what belongs to a column is
    computed once per table: its ``td`` attributes (ours hold no callable),
    its default and the arguments its render method takes. A record that is
    a model, a link column or a column with ``localize`` set take
    django-tables2's own path. tests/league/test_tables.py compares the two.
    """

    def row_key(self, record: Any) -> Hashable | None:
        """What, besides the columns, the language and the row's attributes,
        decides a row's cells: a row rendered before under the same key is
        taken from ``_ROWS``. None (the default): rendered every time."""
        return None

    def tbody_html(self) -> SafeString:
        columns = [_QuickColumn(self, bound) for bound in self.columns]  # type: ignore[attr-defined]
        quick = all(column.static for column in columns)
        shape = (type(self), tuple(c.bound.name for c in columns), get_language())
        rows = []
        for row in self.paginated_rows:  # type: ignore[attr-defined]
            attrs = row.attrs.as_html()
            known = self.row_key(row.record) if quick else None
            key = (shape, attrs, known) if known is not None else None
            html = _ROWS.get(key) if key is not None else None
            if html is None:
                if quick:
                    cells = "".join(column.td(row) for column in columns)
                else:  # attributes computed from the record: django-tables2's way, cell by cell
                    cells = "".join(_td(bound.attrs["td"].as_html(), cell) for bound, cell in row.items())
                html = f"<tr {attrs}>{cells}</tr>"
                if key is not None:
                    _remember(key, html)
            rows.append(html)
        if not rows and self.empty_text:  # type: ignore[attr-defined]
            rows.append(format_html('<tr><td colspan="{}">{}</td></tr>', len(columns), self.empty_text))  # type: ignore[attr-defined]
        return mark_safe("".join(rows))  # each part escaped on its way in


# Rendered rows by key (``QuickBody.row_key``), in this process: after a change
# of results most rows of a table are what they were, and a row costs 14 cells.
_ROWS: dict[Hashable, str] = {}
ROWS_KEPT = 20_000


def _remember(key: Hashable, html: str) -> None:
    if len(_ROWS) >= ROWS_KEPT:
        _ROWS.clear()  # bounded; the next render fills it again
    _ROWS[key] = html


def _td(attrs: str, cell: Any) -> str:
    # As the template prints a value: local time, localized, escaped.
    shown = localize(template_localtime(cell))
    return f"<td {attrs}>{conditional_escape(shown if isinstance(shown, str) else str(shown))}</td>"


class _QuickColumn:
    """What one column's cells share (see ``QuickBody``)."""

    def __init__(self, table: tables.Table, bound: Any) -> None:
        self.bound = bound
        self.column = bound.column
        attrs = {**table.attrs, **bound.column.attrs}
        td = attrs.get("td", attrs.get("cell", {}))
        # Attributes computed from a record are computed per cell.
        self.static = not any(callable(v) for v in td.values())
        self.td_attrs = bound.attrs["td"].as_html() if self.static else ""
        self.general = bool(bound.link) or bound.localize is not None or isinstance(
            bound.column, (BaseLinkColumn, ManyToManyColumn)
        )
        self.args, self.catch_all = signature(bound.render)
        self.default = bound.default
        self.table = table

    def td(self, row: Any) -> str:
        if self.general or isinstance(row.record, models.Model):
            return _td(self.td_attrs, row.get_cell(self.bound.name))
        return _td(self.td_attrs, self._cell(row))

    def _cell(self, row: Any) -> Any:
        """``BoundRow.get_cell`` for a record that is not a model."""
        try:
            value = self.bound.accessor.resolve(row.record)
        except Exception:  # noqa: BLE001 - django-tables2 shows the default for any failure to resolve
            value = None
        if value in self.column.empty_values:
            return self.default
        given = {"value": value, "record": row.record, "column": self.column, "bound_column": self.bound,
                 "bound_row": row, "table": self.table}
        if not self.catch_all:
            if any(arg not in given for arg in self.args):
                return None
            given = {arg: given[arg] for arg in self.args}
        return self.bound.render(**given)


def _rate_column(col: stats.StatColumn) -> tables.Column:
    return tables.Column(
        col.heading, accessor=f"stats__{col.attr}", attrs=NUM, initial_sort_descending=col.descending,
        default="\u2013",
    )


class StandingsTable(QuickBody, tables.Table):
    """Standings rows (``league.models.StandingRow``): sortable, paginated.

    Sorting reorders the rows; the rank stays the one the totals give ("=3").
    """

    rank = tables.Column(_("Rank"), attrs=NUM, order_by=("rank", "name"))
    # Places gained since the previous round or date; the view passes them.
    move = tables.Column(_("Move"), accessor="player_id", attrs=NUM, orderable=False)
    name = tables.Column(_("Player"), attrs={"th": {"scope": "col", "class": "name"}, "td": {"class": "name"}})
    games = tables.Column(_("Games"), attrs=OPT, initial_sort_descending=True)
    # A first click sorts the way a player reads the column: the best first
    # (most points, firsts, seconds; the lowest average place and fewest fourths).
    total = tables.Column(_("Points"), attrs=NUM, initial_sort_descending=True)
    average_points = tables.Column(_("Avg"), attrs=OPT, initial_sort_descending=True)
    average_place = tables.Column(_("Avg place"), attrs=OPT)
    first = tables.Column(_("1st"), accessor="places__0", attrs=OPT, initial_sort_descending=True)
    second = tables.Column(_("2nd"), accessor="places__1", attrs=OPT, initial_sort_descending=True)
    third = tables.Column(_("3rd"), accessor="places__2", attrs=OPT)
    fourth = tables.Column(_("4th"), accessor="places__3", attrs=OPT)
    average_score = tables.Column(_("Avg score"), attrs=OPT, initial_sort_descending=True)
    best = tables.Column(_("Best"), attrs=OPT, initial_sort_descending=True)
    worst = tables.Column(_("Worst"), attrs=OPT, initial_sort_descending=True)
    # The optional rates (``?stats=1``; stats.STANDINGS_STATS): rows are WithStats then.
    win_rate = _rate_column(stats.STANDINGS_STATS[0])
    deal_in_rate = _rate_column(stats.STANDINGS_STATS[1])
    riichi_rate = _rate_column(stats.STANDINGS_STATS[2])
    top_two_rate = _rate_column(stats.STANDINGS_STATS[3])
    fourth_avoidance_rate = _rate_column(stats.STANDINGS_STATS[4])

    class Meta:
        template_name = "league/_quick_table.html"
        attrs = {"class": "standings"}
        # Every surface that shows standings marks its rows alike, so a test compares data, not text.
        row_attrs = {"data-player": lambda record: record.player_id, "data-points": lambda record: record.total}

    def __init__(
        self, data: Any, *, series_slug: str, movements: dict[int, int | None] | None = None,
        with_stats: bool = False, seats: int = 4, **kwargs: Any,
    ) -> None:
        self.series_slug = series_slug
        self.movements = movements or {}
        exclude = list(kwargs.get("exclude", ()))
        if seats == 3:
            exclude.extend(("fourth", "fourth_avoidance_rate"))  # a three-player series has three places
        if movements is None:
            exclude.append("move")
        if not with_stats:
            exclude.extend(col.name for col in stats.STANDINGS_STATS)
        kwargs["exclude"] = tuple(exclude)
        super().__init__(data, **kwargs)

    def row_key(self, record: Any) -> Hashable | None:
        # A StandingRow is a frozen dataclass of numbers and its name; a row with rates is not kept.
        if not isinstance(record, StandingRow):
            return None
        key = (record, self.movements.get(record.player_id), self.series_slug)
        try:
            hash(key)
        except TypeError:  # a row built with a list of places
            return None
        return key

    def render_rank(self, record: Any) -> str:
        return rank(record.rank, record.tied)

    def render_move(self, value: int) -> str:
        moved = self.movements.get(value)
        css = "up" if moved and moved > 0 else "down" if moved and moved < 0 else "muted"
        if moved is None:
            label = _("new in the ranked standings")
        elif moved:
            label = (_("up %(n)d") if moved > 0 else _("down %(n)d")) % {"n": abs(moved)}
        else:
            label = _("no change")
        return format_html('<span class="{}" title="{}">{}</span>', css, label, movement(moved))

    def render_name(self, record: Any) -> str:
        url = reverse("player-detail", args=[self.series_slug, record.player_id])
        return format_html('<a href="{}">{}</a>', url, record.name)

    def render_total(self, value: int) -> str:
        return points(value)

    def render_average_points(self, value: int) -> str:
        # An average is shown to two places, rounded half away from zero, so
        # the column lines up; totals keep every digit.
        sign = "+" if value > 0 else "-" if value < 0 else ""
        hundredths = (abs(value) + 5) // 10
        return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"

    def render_average_place(self, value: float) -> str:
        return f"{value:.2f}"

    def render_average_score(self, value: int) -> str:
        return score(value)

    def render_best(self, value: int) -> str:
        return points(value)

    def render_win_rate(self, value: float) -> str:
        return percent(value)

    render_deal_in_rate = render_riichi_rate = render_top_two_rate = render_fourth_avoidance_rate = render_win_rate

    def render_worst(self, value: int) -> str:
        return points(value)


class PlayerGamesTable(QuickBody, tables.Table):
    """One player's games in a series, newest first (dicts from the view)."""

    round = tables.Column(_("Round"), attrs=labelled(NUM, _("Round")), initial_sort_descending=True)
    table = tables.Column(_("Table"), attrs=labelled(COL, _("Table")))
    # Not a DateColumn: that compiles a template for every cell, which was a
    # third of this page's first request on a player with a thousand games.
    date = tables.Column(verbose_name=_("Date"), attrs=labelled(COL, _("Date")))
    seat = tables.Column(_("Seat"), attrs=labelled(COL, _("Seat")))
    place = tables.Column(_("Place"), attrs=labelled(NUM, _("Place")))
    end_score = tables.Column(_("End score"), attrs=labelled(NUM, _("End score")), initial_sort_descending=True)
    points = tables.Column(_("Points"), attrs=labelled(NUM, _("Points")), initial_sort_descending=True)
    game = tables.Column(_("Game"), attrs=labelled(COL, _("Game")), orderable=False)

    class Meta:
        template_name = "league/_quick_table.html"
        attrs = {"class": "player-games stacked"}
        order_by = ("-round",)

    def render_date(self, value: datetime.date) -> str:
        return date_format(template_localtime(value), "SHORT_DATE_FORMAT")

    def render_end_score(self, value: int) -> str:
        return score(value)

    def render_points(self, value: int) -> str:
        return points(value)

    def render_game(self, value: Any, record: Any) -> str:
        label = _("in progress") if record["in_progress"] else _("hand log")
        return format_html('<a href="{}">{}</a>', reverse("game-detail", args=[value]), label)

