"""An event day's pages for its staff (the event's directors and scorers,
``league.access``): the dashboard with the clock, settings and roles,
registration and check-in, seating review (swap, substitute, publish,
start), results and printouts. Views are thin: a form validates, one service
in ``league.services.event`` writes, the page redirects.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from league.access import can_direct, event_for_director, event_for_scorer
from league.collation import name_key
from league.db_bounds import EVENT_NUMBER, int_param
from league.forms.event_day import (
    ClockForm,
    EventSettingsForm,
    ExtraTimeForm,
    HideForm,
    ImportForm,
    RegistrationForm,
    SubstituteForm,
    SwapForm,
)
from league.models import WIND_NAMES, Event, Game, Registration, Round, RoundSeat, RoundTable, Series
from league.models.event import table_states
from league.services import ServiceError, event
from league.standings.event import event_standings
from league.views.access import director_post, staff_required
from league.views.refusals import report_refusal
from league.views.signup import signup_board

PAPERS = {"a4": "A4", "letter": _("Letter")}
ROLE_NAMES = {"director": _("director"), "scorer": _("scorer")}
DASHBOARD_REFRESH = 20
PRINTS = {
    "by-name": _("Seating by player"),
    "by-table": _("Seating by table"),
    "score-sheets": _("Score sheets"),
    "standings": _("Standings"),
}


def _round(series: Series, number: int) -> Round:
    return get_object_or_404(Round, series=series, number=number)

# -- staff: the dashboard ---------------------------------------------------------------------


@staff_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The director's page: rounds and their state, the round being played
    table by table with its clock, and the standings after each round."""
    series = event_for_scorer(request, slug)
    event_settings = event.ensure_event(series)
    rounds = list(series.event_rounds.annotate(
        tables_count=Count("tables", distinct=True),
        finished_count=Count("tables", filter=Q(tables__game__status="finished"), distinct=True),
    ))
    shown_number = int_param(request.GET.get("round"))
    started = [r for r in rounds if r.is_started]
    shown = next((r for r in rounds if r.number == shown_number), None) or (started[-1] if started else None)
    now = timezone.now()
    tables = table_states(shown, now=now) if shown and shown.is_started else []
    standings_round = int_param(request.GET.get("standings")) or None
    table = event_standings(series, through_round=standings_round)
    counts = dict(series.registrations.values_list("status").annotate(n=Count("id")))
    ctx = {
        "series": series, "event": event_settings, "rounds": rounds, "shown": shown, "tables": tables,
        # A scorer sees the tables and enters their end scores; the rest is the director's.
        "director": can_direct(request.user, series),
        "directors": list(series.directors.order_by("username")), "scorers": list(series.scorers.order_by("username")),
        "states": {s: sum(1 for t in tables if t.state == s) for s in ("waiting", "playing", "over_time", "finished")},
        "standings": table, "standings_round": standings_round,
        "played_rounds": [r.number for r in started],
        "counts": counts, "registered": sum(counts.values()),
        "quality": event.schedule_quality(series) if rounds else None,
        "hide_form": HideForm(initial={"from_round": (started[-1].number + 1) if started else 1}),
        "history": list(series.event_audit.all()[:15]), "now": now, "refresh": DASHBOARD_REFRESH,
        "prints": PRINTS,
        # Pre-generated seating seats every round at once, refused once one is published: no button then.
        "can_seat": event_settings.seating == Event.Seating.SWISS or all(r.status == Round.Status.DRAFT for r in rounds),
        "rounds_left": max(0, event_settings.rounds - sum(1 for r in rounds if r.is_finished)),
    }
    return render(request, "league/event_dashboard.html", ctx)


@staff_required
def settings_view(request: HttpRequest, slug: str) -> HttpResponse:
    series = event_for_director(request, slug)
    event_settings = event.ensure_event(series)
    form = EventSettingsForm(request.POST or None, instance=event_settings)
    if request.method == "POST" and form.is_valid():
        event_settings.refresh_from_db()
        try:
            event.configure_event(series=series, by=request.user, **form.settings())
        except ServiceError as err:
            report_refusal(request, err)
        else:
            messages.success(request, _("Event settings saved."))
            return redirect("event-dashboard", slug=series.slug)
    return render(request, "league/event_settings.html", {"series": series, "form": form})


@director_post
def roles(request: HttpRequest, series: Series) -> HttpResponse:
    """A director grants or withdraws the director and scorer roles by username."""
    grant = request.POST.get("action") != "remove"
    role = request.POST.get("role", "")
    username = request.POST.get("username", "")
    try:
        event.set_role(series=series, username=username, role=role, grant=grant, by=request.user)
    except ServiceError as err:
        report_refusal(request, err)
    else:
        messages.success(request, (_("%(user)s is now a %(role)s of this event.") if grant
                                   else _("%(user)s is no longer a %(role)s of this event.")) % {
            "user": username.strip(), "role": ROLE_NAMES.get(role, role)})
    return redirect(f"{reverse('event-dashboard', args=[series.slug])}#roles-h")


# -- staff: registration ---------------------------------------------------------------------


@staff_required
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """The registration desk: the list (EMA numbers included: staff only),
    one player at a time, a CSV import, check-in and drops."""
    series = event_for_director(request, slug)
    form = RegistrationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            reg = event.register_player(series=series, by=request.user, **d)
        except ServiceError as err:
            form.add_service_error(err)
        else:
            messages.success(request, _("Registered %(player)s.") % {"player": reg})
            _unplaced(request, series, [reg])
            return redirect("event-players", slug=series.slug)
    return _players_page(request, series, form=form)


def _players_page(request: HttpRequest, series: Series, **extra: Any) -> HttpResponse:
    regs = list(series.registrations.select_related("player").order_by("number"))
    ctx = {
        "series": series, "registrations": regs,
        "form": extra.pop("form", None) or RegistrationForm(),
        "import_form": extra.pop("import_form", None) or ImportForm(),
        "counts": {s: sum(1 for r in regs if r.status == s) for s in Registration.Status.values},
        "players_count": sum(1 for r in regs if not r.is_substitute and not r.is_dropped),
        "subs_count": sum(1 for r in regs if r.is_substitute and not r.is_dropped),
        "signup": signup_board(series),
        **extra,
    }
    return render(request, "league/event_players.html", ctx, status=extra.get("status", 200))


@director_post
def import_players(request: HttpRequest, series: Series) -> HttpResponse:
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            created = event.import_registrations(series=series, text=form.cleaned_data["content"], by=request.user)
        except event.RegistrationImportError as err:
            return _players_page(request, series, import_form=form, import_errors=err.errors, status=400)
        messages.success(request, ngettext("Imported %(n)d player.", "Imported %(n)d players.", len(created)) % {
            "n": len(created)})
        _unplaced(request, series, list(created))
        return redirect("event-players", slug=series.slug)
    return _players_page(request, series, import_form=form, status=400)


@director_post
def check_in(request: HttpRequest, series: Series) -> HttpResponse:
    # Event numbers only: a number of 5,000 digits (or 20, past SQLite's integers) is no registration's.
    numbers = [n for n in map(EVENT_NUMBER.read, request.POST.getlist("number")) if n is not None]
    present = request.POST.get("present", "1") == "1"
    regs = list(series.registrations.filter(number__in=numbers))
    try:
        changed = event.check_in(registrations=regs, present=present, by=request.user)
    except ServiceError as err:
        report_refusal(request, err)
    else:
        messages.success(request, (
            ngettext("Checked in: %(n)d player.", "Checked in: %(n)d players.", changed) if present
            else ngettext("Marked not here: %(n)d player.", "Marked not here: %(n)d players.", changed)) % {"n": changed})
    return redirect("event-players", slug=series.slug)


@director_post
def drop(request: HttpRequest, series: Series, number: int) -> HttpResponse:
    reg = get_object_or_404(Registration, series=series, number=number)
    undo = request.POST.get("undo") == "1"
    playing = None if undo else _seat_in_play(reg)
    if playing is not None and request.POST.get("substitute"):
        form = SubstituteForm(request.POST, round=playing.round)
        if form.is_valid() and form.cleaned_data["seat"] == playing and form.cleaned_data["substitute"]:
            sub = form.cleaned_data["substitute"]
            try:
                event.drop_with_substitute(seat=playing, replacement=sub, by=request.user)
            except ServiceError as err:
                form.add_service_error(err)
            else:
                messages.success(request, _("%(player)s was dropped; %(sub)s plays their seat at table %(table)d.")
                                 % {"player": reg, "sub": sub.name, "table": playing.table.number})
                return redirect(f"{reverse('event-dashboard', args=[series.slug])}?round={playing.round.number}")
        return _drop_warning(request, series, reg, playing, form)
    if playing is not None and request.POST.get("confirm") != "1":
        # Their table is playing: say so, and offer the substitute before the drop.
        return _drop_warning(request, series, reg, playing, SubstituteForm(round=playing.round,
                                                                           initial={"seat": playing.pk}))
    try:
        event.drop_player(registration=reg, undo=undo, by=request.user)
    except ServiceError as err:
        report_refusal(request, err)
    else:
        messages.success(request, (_("%(player)s is back in the event.") if undo else _("%(player)s was dropped."))
                         % {"player": reg})
        waiting = None if undo else reg.round_seats.filter(round__status__in=[Round.Status.DRAFT, Round.Status.PUBLISHED],
                                                     substitute=None).select_related("round").order_by("round__number").first()
        if waiting is not None:
            messages.warning(request, _("%(player)s still has a seat in round %(n)d: put a substitute in it on the "
                                        "round's page.") % {"player": reg, "n": waiting.round.number})
            return redirect("event-round", slug=series.slug, number=waiting.round.number)
    return redirect("event-players", slug=series.slug)


def _drop_warning(request: HttpRequest, series: Series, reg: Registration, seat: RoundSeat,
                  form: SubstituteForm) -> HttpResponse:
    game = seat.table.game
    ctx = {"series": series, "reg": reg, "seat": seat, "round": seat.round, "substitute_form": form,
           "hands": game.hands.count() if game is not None else 0}
    return render(request, "league/event_drop.html", ctx)


def _seat_in_play(reg: Registration) -> RoundSeat | None:
    """The seat ``reg`` plays in a started round whose table's game is not over."""
    seats = RoundSeat.objects.filter(round__series_id=reg.series_id, round__status=Round.Status.STARTED,
                                     table__game__isnull=False, table__game__status=Game.Status.IN_PROGRESS)
    seats = seats.filter(Q(substitute=reg) | Q(registration=reg, substitute=None))
    return seats.select_related("round", "table__game", "registration", "substitute").first()


def _unplaced(request: HttpRequest, series: Series, regs: list[Registration]) -> None:
    """Say so when pre-generated rounds are already seated and a new
    registration has no seat in them, with what the director can do."""
    event_settings = event.ensure_event(series)
    if event_settings.seating != Event.Seating.PREGENERATED or not series.event_rounds.exists():
        return
    seated = set(RoundSeat.objects.filter(round__series=series).values_list("registration_id", flat=True))
    unplaced = [r for r in regs if r.pk not in seated and not r.is_substitute]
    if not unplaced:
        return
    names = ", ".join(str(r) for r in unplaced)
    if series.event_rounds.exclude(status=Round.Status.DRAFT).exists():
        messages.warning(request, _("The pre-generated seating has no seat for %(players)s: its rounds are "
                                    "published. Let them play as a substitute for a no-show or a dropped player "
                                    "(the round's page), or register them as a substitute.") % {"players": names})
    else:
        messages.warning(request, _("The pre-generated seating has no seat for %(players)s yet: seat the rounds "
                                    "again from the dashboard before publishing round 1.") % {"players": names})


# -- staff: seating, review, publish, start ---------------------------------------------------------


@director_post
def seat(request: HttpRequest, series: Series) -> HttpResponse:
    try:
        report = event.seat_rounds(series=series, by=request.user)
    except ServiceError as err:
        report_refusal(request, err)
        return redirect("event-dashboard", slug=series.slug)
    q = report.quality
    fillers = _("; substitutes seated to fill the tables: %(numbers)s") % {
        "numbers": ", ".join(map(str, report.substitutes_seated))} if report.substitutes_seated else ""
    messages.success(request, ngettext("Seated %(n)d round: ", "Seated %(n)d rounds: ", len(report.rounds))
                     % {"n": len(report.rounds)} +
                              _("%(repeats)d repeat meetings (the least possible is %(bound)d), wind spread %(spread)s%(fillers)s. "
                                "Review and publish.") % {"repeats": q.repeat_count, "bound": q.lower_bound,
                                                          "spread": q.wind_spread, "fillers": fillers})
    return redirect("event-round", slug=series.slug, number=report.rounds[0].number)


@staff_required
def round_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's seating to review: tables, the quality, swap, substitute,
    publish, start, the clock."""
    series = event_for_director(request, slug)
    rnd = _round(series, number)
    return _round_page(request, series, rnd)


def _round_page(request: HttpRequest, series: Series, rnd: Round, status: int = 200, **forms: Any) -> HttpResponse:
    now = timezone.now()
    quality = event.schedule_quality(series)
    ctx = {
        "series": series, "round": rnd, "tables": table_states(rnd, now=now), "quality": quality,
        "repeats_here": [r for r in quality.repeats if r.round == rnd.number] if quality else [],
        "names": {r.pk: r.name for r in series.registrations.all()},
        "swap_form": forms.get("swap_form") or SwapForm(round=rnd),
        "substitute_form": forms.get("substitute_form") or SubstituteForm(round=rnd),
        "clock_form": forms.get("clock_form") or ClockForm(initial={"minutes": rnd.time_limit}),
        "rounds": list(series.event_rounds.values_list("number", "status")),
        "now": now, "prints": PRINTS,
    }
    return render(request, "league/event_round.html", ctx, status=status)


@director_post
def swap(request: HttpRequest, series: Series, number: int) -> HttpResponse:
    rnd = _round(series, number)
    form = SwapForm(request.POST, round=rnd)
    if form.is_valid():
        try:
            q = event.swap_players(round=rnd, first=form.cleaned_data["first"], second=form.cleaned_data["second"],
                                   by=request.user)
        except ServiceError as err:
            form.add_service_error(err)
        else:
            messages.success(request, _("Swapped. The seating now has %(repeats)d repeat meetings, wind spread "
                                        "%(spread)s.") % {"repeats": q.repeat_count, "spread": q.wind_spread})
            return redirect("event-round", slug=series.slug, number=rnd.number)
    return _round_page(request, series, rnd, status=400, swap_form=form)


@director_post
def substitute(request: HttpRequest, series: Series, number: int) -> HttpResponse:
    rnd = _round(series, number)
    form = SubstituteForm(request.POST, round=rnd)
    if form.is_valid():
        seat_row, sub = form.cleaned_data["seat"], form.cleaned_data["substitute"]
        try:
            event.substitute(seat=seat_row, substitute=sub, by=request.user)
        except ServiceError as err:
            form.add_service_error(err)
        else:
            messages.success(request, _("%(sub)s plays for %(player)s.") % {
                "sub": sub.name, "player": seat_row.registration.name} if sub
                else _("%(player)s plays their own seat.") % {"player": seat_row.registration.name})
            return redirect("event-round", slug=series.slug, number=rnd.number)
    return _round_page(request, series, rnd, status=400, substitute_form=form)


@director_post
def publish(request: HttpRequest, series: Series, number: int) -> HttpResponse:
    rnd = _round(series, number)
    try:
        event.publish_round(round=rnd, by=request.user)
    except ServiceError as err:
        report_refusal(request, err)
    else:
        messages.success(request, _("Round %(n)d is published: players see their tables.") % {"n": rnd.number})
    return redirect("event-round", slug=series.slug, number=rnd.number)


@director_post
def start(request: HttpRequest, series: Series, number: int) -> HttpResponse:
    rnd = _round(series, number)
    try:
        games = event.start_round(round=rnd, by=request.user)
    except ServiceError as err:
        report_refusal(request, err)
        return redirect("event-round", slug=series.slug, number=rnd.number)
    messages.success(request, _("Round %(n)d started: %(tables)d tables, %(minutes)d minutes on the clock.") % {
        "n": rnd.number, "tables": len(games), "minutes": rnd.time_limit})
    return redirect(f"{reverse('event-dashboard', args=[series.slug])}?round={rnd.number}")


@director_post
def clock(request: HttpRequest, series: Series, number: int) -> HttpResponse:
    rnd = _round(series, number)
    form = ClockForm(request.POST)
    restart = request.POST.get("restart") == "1"
    if restart or form.is_valid():
        try:
            event.set_clock(round=rnd, minutes=None if restart else form.cleaned_data["minutes"],
                            started_at=timezone.now() if restart else None, by=request.user)
        except ServiceError as err:
            report_refusal(request, err)
        else:
            messages.success(request, _("Clock restarted.") if restart else _("Time limit changed."))
        return redirect("event-round", slug=series.slug, number=rnd.number)
    return _round_page(request, series, rnd, status=400, clock_form=form)


@director_post
def extra_time(request: HttpRequest, series: Series, number: int, table: int) -> HttpResponse:
    rnd = _round(series, number)
    row = get_object_or_404(RoundTable, round=rnd, number=table)
    form = ExtraTimeForm(request.POST)
    if form.is_valid():
        try:
            event.set_extra_time(table=row, minutes=form.cleaned_data["minutes"], by=request.user)
        except ServiceError as err:
            report_refusal(request, err)
        else:
            messages.success(request, _("Table %(table)s: %(minutes)s extra minutes.") % {
                "table": table, "minutes": form.cleaned_data["minutes"]})
    else:
        messages.error(request, _("Extra time is 0 to 120 minutes."))
    return redirect(f"{reverse('event-dashboard', args=[series.slug])}?round={rnd.number}")


@director_post
def results(request: HttpRequest, series: Series) -> HttpResponse:
    """Hide the results from a round on, or reveal them all."""
    try:
        if request.POST.get("reveal") == "1":
            event.reveal_results(series=series, by=request.user)
            messages.success(request, _("Every result is public again."))
        else:
            form = HideForm(request.POST)
            if not form.is_valid():
                messages.error(request, " ".join([str(_("Choose the first round to hide.")),
                                                  *form.errors.get("from_round", [])]))
            else:
                n = form.cleaned_data["from_round"]
                event.hide_results(series=series, from_round=n, by=request.user)
                messages.success(request, _("Results from round %(n)d on are hidden from the public.") % {"n": n})
    except ServiceError as err:
        report_refusal(request, err)
    return redirect("event-dashboard", slug=series.slug)


# -- staff: printouts --------------------------------------------------------------------------------


@staff_required
def printout(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """Print pages (A4 or Letter, black and white): the seating by player
    name (every round), by table, a score sheet per table, the standings."""
    series = event_for_director(request, slug)
    if kind not in PRINTS:
        raise Http404("no such printout")
    paper = request.GET.get("paper", "a4")
    paper = paper if paper in PAPERS else "a4"
    rounds = list(series.event_rounds.order_by("number"))
    number = int_param(request.GET.get("round"))
    chosen = next((r for r in rounds if r.number == number), None) or next(
        (r for r in rounds if not r.is_started), rounds[-1] if rounds else None)
    ctx: dict[str, Any] = {"series": series, "kind": kind, "title": PRINTS[kind], "paper": paper,
                           "papers": PAPERS, "rounds": rounds, "round": chosen, "prints": PRINTS}
    if kind == "by-name":
        ctx["rows"] = _seating_by_name(series, rounds)
        ctx["base"] = request.build_absolute_uri("/").rstrip("/")
    elif kind in ("by-table", "score-sheets") and chosen is not None:
        ctx["tables"] = table_states(chosen, now=timezone.now())
        ctx["hand_rows"] = range(1, 21)
        ctx["ruleset"] = series.ruleset()
    elif kind == "standings":
        through = int_param(request.GET.get("through"))
        ctx["standings"] = event_standings(series, through_round=through)
    return render(request, "league/event_print.html", ctx)


def _seating_by_name(series: Series, rounds: list[Round]) -> list[dict[str, Any]]:
    """One row per registration: table and wind per round, by last name."""
    where: dict[int, dict[int, str]] = {}
    for s in RoundSeat.objects.filter(round__series=series).select_related("round", "table"):
        plays = s.substitute_id or s.registration_id
        where.setdefault(plays, {})[s.round.number] = f"{s.table.number} {str(WIND_NAMES[s.wind])[0]}"
        if s.substitute_id:
            where.setdefault(s.registration_id, {})[s.round.number] = str(_("sub"))
    rows = []
    regs = series.registrations.exclude(status=Registration.Status.DROPPED)
    language = get_language()
    for reg in sorted(regs, key=lambda r: (name_key(r.last_name, language), name_key(r.first_name, language), r.number)):
        seats = where.get(reg.pk, {})
        rows.append({"reg": reg, "cells": [seats.get(r.number, "") for r in rounds]})
    return rows


# -- public: the event, a player's next table, short link, QR -------------------------------------------
