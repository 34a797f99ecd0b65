"""The staff side of the table's sign-off: the scorer's phone (each player
types a PIN), the referee's resolution of a dispute and the page that sets
PINs. The players' side (the per-seat link's page, a player's way to it from
their own card, the public "tables" view) is ``views/signoff_public.py``.

A seat's link reaches only its player: through the short-link code of their
player card (printed, or its QR code: ``player_signoff``), never on the
scorer's screen or a public page, so no one person can sign for the table.
Views are thin: one service call each (``league.services.signoff``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from league import services
from league.access import game_for_scorer, series_for_director
from league.db_bounds import Whole
from league.models import WIND_NAMES, Player, SignOff
from league.views.access import staff_required

SIGNOFF_ROUND = Whole(0, 2**31 - 1)  # Game.signoff_round, as the PIN form carries it


def _seat_cards(state: services.signoff.GameSignOff, errors: dict[int, str]) -> list[dict[str, Any]]:
    # No seat's link here: whoever holds the scorer's phone could confirm for
    # the whole table. A player reaches their own link from their card (player_signoff).
    return [{"seat": s, "wind": WIND_NAMES[s.seat], "error": errors.get(s.seat, "")} for s in state.seats]


@staff_required
@never_cache
def staff_signoff(request: HttpRequest, pk: int) -> HttpResponse:
    """The scorer's phone after the last hand: the result, each seat's answer,
    a PIN form per seat still to answer, and the seat's QR code."""
    game = game_for_scorer(request, pk)
    errors: dict[int, str] = {}
    status = 200
    if request.method == "POST":
        seat = _seat_param(request.POST.get("seat"))
        dispute = request.POST.get("action") == "dispute"
        try:
            services.sign_off(game=game, seat=seat, result=request.POST.get("result", ""), dispute=dispute,
                              note=request.POST.get("note", ""), pin=request.POST.get("pin", ""),
                              shown_round=_round_param(request.POST.get("round")), by=request.user)
        except services.ServiceError as err:
            errors[seat if seat in range(4) else -1] = err.message
            status = 409 if isinstance(err, services.Conflict) else 400
        else:
            who = game.seats.get(seat=seat).player
            messages.success(request, (_("%(player)s disputed the result: the referee is called.") if dispute
                                       else _("%(player)s confirmed the result.")) % {"player": who.name})
            return redirect("staff-signoff", pk=game.pk)
    game.refresh_from_db()
    state = services.game_signoff(game)
    ctx = {"series": game.series, "game": game, "state": state, "cards": _seat_cards(state, errors),
           "general_error": errors.get(-1, ""), "disputes": state.disputes,
           "history": game.audit.filter(action__in=_SIGNOFF_ACTIONS)[:20]}
    return render(request, "league/signoff_staff.html", ctx, status=status)


_SIGNOFF_ACTIONS = ("sign_off", "dispute", "resolve_dispute", "signoffs_withdrawn")


def _round_param(value: str | None) -> int:
    """The sign-off round the PIN form was made in; -1 (no round) for a form without one."""
    shown = SIGNOFF_ROUND.read(value or "")
    return -1 if shown is None else shown


def _seat_param(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        return -1


@staff_required
def resolve(request: HttpRequest, pk: int, signoff_pk: int) -> HttpResponse:
    """The referee accepts the result over a dispute (POST only)."""
    game = game_for_scorer(request, pk)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    row = get_object_or_404(SignOff, pk=signoff_pk, game=game)
    try:
        services.resolve_dispute(signoff=row, by=request.user)
    except services.ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("The result stands; %(player)s's dispute is resolved.") % {"player": row.player.name})
    return redirect("staff-signoff", pk=game.pk)


@staff_required
def pins(request: HttpRequest, slug: str) -> HttpResponse:
    """Staff give players their sign-off PIN, many at once (registration
    desk): a blank box leaves that player's PIN as it is."""
    series = series_for_director(request, slug)
    players = list(Player.objects.filter(Q(seats__game__series=series) | Q(registrations__series=series))
                   .distinct().order_by("name"))
    errors: dict[int, str] = {}
    if request.method == "POST":
        given = {p: request.POST.get(f"pin-{p.pk}", "").strip() for p in players}
        given = {p: pin for p, pin in given.items() if pin}
        try:
            count = services.set_pins(pins=given, by=request.user)
        except services.ServiceError as err:
            errors[int((err.field or "pin-0").split("-")[1])] = err.message
        else:
            messages.success(request, _("PINs set for %(count)d players.") % {"count": count})
            return redirect("staff-pins", slug=series.slug)
    rows = [{"player": p, "has_pin": bool(p.signoff_pin), "error": errors.get(p.pk, "")} for p in players]
    return render(request, "league/signoff_pins.html", {"series": series, "rows": rows},
                  status=400 if errors else 200)

