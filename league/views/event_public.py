"""An event day's public pages: the event page, each player's "next table"
page with its short link and QR code, and projector pages that page by
themselves. Cached per event like every public page (``event_page``).
"""

from __future__ import annotations

import io
from typing import Any

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language

from league.access import event_for_anyone
from league.collation import name_key
from league.db_bounds import int_param
from league.models import WIND_NAMES, Registration, Round, Series
from league.models.event import CODE_ALPHABET, CODE_LENGTH, next_seats, round_seating
from league.services import seats_waiting
from league.standings.event import event_standings
from league.views.cached import FLAG, event_page
from league.views.params import whole

SCREEN_SECONDS = 15  # how long a projector page stays before the next
SCREEN_ROWS = 12  # rows in one column of a projector page; a page shows two columns


@event_page()
def public_event(request: HttpRequest, slug: str) -> HttpResponse:
    """The public event page: the published round's tables and the standings
    (without the rounds the director hides); names lead to each player's page."""
    series, event = event_for_anyone(slug)
    published = list(series.event_rounds.filter(status__in=[Round.Status.PUBLISHED, Round.Status.STARTED]))
    current = _current_round(published)
    tables = round_seating(current) if current else []  # seats only: a hand in play leaves the page cached
    ctx = {"series": series, "event": event, "round": current, "tables": tables,
           "standings": event_standings(series, public=True),
           "numbers": dict(series.registrations.values_list("player_id", "number"))}
    return render(request, "league/event_public.html", ctx)


def _current_round(published: list[Round]) -> Round | None:
    """The round players care about: the newest published one not yet
    started, else the newest started."""
    waiting = [r for r in published if not r.is_started]
    if waiting:
        return waiting[0]
    return published[-1] if published else None


@event_page()
def player_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """"My next table and wind": the published rounds' seats of one player."""
    series, event = event_for_anyone(slug)
    reg = get_object_or_404(Registration, series=series, number=number)
    seats = next_seats(reg)
    upcoming = next((s for s in seats if s.table.game is None or not s.table.game.is_finished), None)
    mates = []
    if upcoming is not None:
        for other in upcoming.table.seats.select_related("registration", "substitute").order_by("wind"):
            mates.append({"wind": WIND_NAMES[other.wind], "name": other.plays.name, "me": other.plays.pk == reg.pk})
    rows = [{"seat": s, "wind": WIND_NAMES[s.wind]} for s in seats]
    ctx = {"series": series, "event": event, "reg": reg, "rows": rows, "upcoming": upcoming,
           "upcoming_wind": WIND_NAMES[upcoming.wind] if upcoming else "", "mates": mates,
           "short": request.build_absolute_uri(reg.short_url())}
    return render(request, "league/event_player.html", ctx)


def short_link(request: HttpRequest, code: str) -> HttpResponse:
    code = code.upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        # No registration has it; and PostgreSQL would refuse a NUL (/n/%00) in the query itself.
        raise Http404("no such short link")
    reg = get_object_or_404(Registration.objects.select_related("series"), code=code)
    if reg.series.requires_signoff and seats_waiting(series=reg.series, player=reg.player):
        # The card's owner, after a game: their seat's sign-off (only this code leads there).
        return redirect("signoff-player", code=code)
    return redirect(reg.get_absolute_url())


def qr(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The player's short link as a QR code (SVG, black on white, prints sharp)."""
    series, _event_row = event_for_anyone(slug)
    reg = get_object_or_404(Registration, series=series, number=number)
    code = segno.make(request.build_absolute_uri(reg.short_url()), error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=2, dark="#000", light="#fff", title=f"{reg.name}: {series.name}")
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "max-age=86400"
    return response


# -- public: projector pages ------------------------------------------------------------------------------


SCREENS = ("clock", "seating", "standings")


@event_page({"page": whole, "cycle": FLAG})
def screen(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """Projector pages: the countdown, the seating (by player name, paged) and
    the standings (paged). Each pages through itself; ``?cycle=1`` goes on to
    the next kind after its last page, so one screen shows all three."""
    series, event = event_for_anyone(slug)
    if kind not in SCREENS:
        raise Http404("no such screen")
    published = list(series.event_rounds.filter(status__in=[Round.Status.PUBLISHED, Round.Status.STARTED]))
    current = _current_round(published)
    pages: list[list[Any]] = []
    stage_order: list[str] = []
    if kind == "seating" and current is not None:
        rows = []
        for s in current.seats.select_related("table", "registration", "substitute"):
            rows.append({"name": s.plays.name, "last": s.plays.last_name, "number": s.plays.number,
                         "table": s.table.number, "wind": WIND_NAMES[s.wind]})
        language = get_language()
        rows.sort(key=lambda r: (name_key(r["last"], language), name_key(r["name"], language)))
        pages = _screen_pages(rows)
    elif kind == "standings":
        table = event_standings(series, public=True)
        pages = _screen_pages([*table.standings.ranked])
        # With a cut, the header says the order of the stages: "Final › Qualifying".
        stage_order = list(dict.fromkeys(r.stage for r in table.standings.ranked if r.stage))
    page = max(1, min(int_param(request.GET.get("page")) or 1, max(1, len(pages))))
    cycle = request.GET.get("cycle") == "1"
    nxt = _next_screen(series, kind, page, len(pages), cycle)
    started = current if current is not None and current.clock_running else None  # a finished round's clock stops
    ends_at = started.ends_at if started else None
    ctx = {
        "series": series, "event": event, "kind": kind, "round": current, "columns": pages[page - 1] if pages
        else [], "page": page, "pages": len(pages), "next_url": nxt, "seconds": SCREEN_SECONDS,
        "ends_at": ends_at, "standings_public": event_standings(series, public=True) if kind == "standings" else None,
        "stage_order": stage_order,
    }
    return render(request, "league/event_screen.html", ctx)


def _screen_pages(rows: list[Any]) -> list[list[Any]]:
    """Pages of two columns of ``SCREEN_ROWS`` rows each."""
    per_page = 2 * SCREEN_ROWS
    return [[rows[i:i + SCREEN_ROWS], rows[i + SCREEN_ROWS:i + per_page]] for i in range(0, len(rows), per_page)]


def _next_screen(series: Series, kind: str, page: int, pages: int, cycle: bool) -> str | None:
    base = reverse("event-screen", args=[series.slug, kind])
    if page < pages:
        return f"{base}?page={page + 1}" + ("&cycle=1" if cycle else "")
    if cycle:
        following = SCREENS[(SCREENS.index(kind) + 1) % len(SCREENS)]
        return reverse("event-screen", args=[series.slug, following]) + "?cycle=1"
    return f"{base}?page=1" if pages > 1 else None

