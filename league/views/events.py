"""The New event page and its edit page (issue 32): a director's event
made and changed from Tenbou's own pages, never the admin.

The New event page is for logins with the permission to create events
(``league.access.can_create_events``); its creator becomes the event's
first director. The edit page is the directors': everything until round 1
starts, then only what may still change (``setup.LATER``). Views are thin:
the form validates, one service (``league.services.event.setup``)
writes, the page redirects to the dashboard.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from league.access import can_create_events, event_for_director
from league.forms.events import PLACES, EventForm, preset_rows
from league.models import Series
from league.services import ServiceError
from league.services.event import setup
from league.views.access import staff_required


@staff_required
def new_event(request: HttpRequest) -> HttpResponse:
    if not can_create_events(request.user):
        raise PermissionDenied("You may not create events.")
    form = EventForm(request.POST or None, initial=EventForm.initial_for())
    if request.method == "POST" and form.is_valid():
        try:
            series = setup.create_event(plan=form.plan(), by=request.user)
        except ServiceError as err:
            form.add_service_error(err)
        else:
            messages.success(request, _("Event created: %(name)s. Register the players next.") % {"name": series.name})
            return redirect("event-players", slug=series.slug)
    return _page(request, form, None)


@staff_required
def edit_event(request: HttpRequest, slug: str) -> HttpResponse:
    series = event_for_director(request, slug)
    started = setup.started(series)
    frozen = frozenset(EventForm.base_fields) - setup.LATER if started else frozenset()
    form = EventForm(request.POST or None, initial=EventForm.initial_for(series), frozen=frozen)
    if request.method == "POST" and form.is_valid():
        try:
            series = setup.edit_event(series=series, plan=form.plan(), by=request.user)
        except ServiceError as err:
            form.add_service_error(err)
        else:
            messages.success(request, _("Event saved."))
            return redirect("event-dashboard", slug=series.slug)
    return _page(request, form, series, started=started)


def _page(request: HttpRequest, form: EventForm, series: Series | None, *, started: bool = False) -> HttpResponse:
    groups: list[tuple[Any, list[str]]] = [
        (_("The event"), ["name", "slug", "start_date", "end_date"]),
        (_("Rules"), list(EventForm.RULES)),
        (_("Rounds, seating and clock"), ["rounds", "seating", "time_limit", "ending"]),
        (_("Substitutes"), ["substitute_result", "substitute_score", "substitute_uma"]),
        (_("Stages"), ["stages"]),
        (_("EMA details"), ["ema_name", "ema_city", "ema_country", "ema_qualification", "ema_days"]),
    ]
    ctx = {"form": form, "series": series, "started": started, "presets": preset_rows(), "places": PLACES,
           "groups": [(title, [form[n] for n in names]) for title, names in groups]}
    return render(request, "league/event_form.html", ctx, status=400 if form.is_bound and form.errors else 200)
