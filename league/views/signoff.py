"""The table's sign-off pages: the scorer's phone (each player types a PIN),
the per-seat link's page, a player's way to it from their own card, the
referee's resolution of a dispute, the staff page that sets PINs, and the
public "tables" view of who still has to sign.

A seat's link reaches only its player: through the short-link code of their
player card (printed, or its QR code: ``player_signoff``), never on the
scorer's screen or a public page, so no one person can sign for the table.
Views are thin: one service call each (``league.services.signoff``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from league import services
from league.access import game_for_scorer, series_for_director
from league.db_bounds import Whole
from league.models import Player, Registration, Series, SignOff
from league.models.tournament import CODE_ALPHABET, CODE_LENGTH, hidden_from
from league.views.access import staff_required
from league.views.cached import public_page, series_for_slug

SIGNOFF_ROUND = Whole(0, 2**31 - 1)  # Game.signoff_round, as the PIN form carries it
WINDS = (gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West"), gettext_lazy("North"))


def _seat_cards(state: services.signoff.GameSignOff, errors: dict[int, str]) -> list[dict[str, Any]]:
    # No seat's link here: whoever holds the scorer's phone could confirm for
    # the whole table. A player reaches their own link from their card (player_signoff).
    return [{"seat": s, "wind": WINDS[s.seat], "error": errors.get(s.seat, "")} for s in state.seats]


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


@never_cache
def player_signoff(request: HttpRequest, code: str) -> HttpResponse:
    """A player's own way to their seat's link: the short-link code of their
    event card (printed, or its QR code) is theirs alone, so the link it
    leads to signs for them and no one else. It opens the link of their
    finished game still waiting for their answer; with none, says so."""
    code = code.upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        raise Http404("no such short link")
    reg = get_object_or_404(Registration.objects.select_related("series"), code=code)
    waiting = services.seats_waiting(series=reg.series, player=reg.player)
    if not waiting:
        return render(request, "league/signoff_link.html",
                      {"refused": _("No result of yours is waiting for your answer.")})
    game, seat = waiting[0]
    return redirect("signoff-link", token=services.seat_link_token(game, seat))


@never_cache
def seat_link(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own phone, through the per-seat link the scorer's screen
    showed: the result, and Confirm or Dispute for that seat only."""
    try:
        link = services.read_link(token)
    except services.ServiceError as err:
        status = 409 if isinstance(err, services.Conflict) else 404
        return render(request, "league/signoff_link.html", {"refused": err.message}, status=status)
    error, status = "", 200
    if request.method == "POST":
        dispute = request.POST.get("action") == "dispute"
        try:
            services.sign_off(game=link.game, seat=link.seat, result=link.result, dispute=dispute,
                              note=request.POST.get("note", ""), token=token)
        except services.ServiceError as err:
            error, status = err.message, 409 if isinstance(err, services.Conflict) else 400
        else:
            return redirect("signoff-link", token=token)
    state = services.game_signoff(link.game)
    mine = state.seats[link.seat]
    ctx = {"game": link.game, "series": link.game.series, "state": state, "mine": mine, "wind": WINDS[link.seat],
           "others": [s for s in state.seats if s.seat != link.seat], "error": error,
           "note": request.POST.get("note", "")}
    response = render(request, "league/signoff_link.html", ctx, status=status)
    # The token is in the address: never passed to another site. Not
    # "no-referrer", which makes the browser post with "Origin: null" and
    # Django's CSRF check refuse the player's own confirmation.
    response["Referrer-Policy"] = "same-origin"
    return response


@public_page(lambda slug: series_for_slug(slug), {})
def tables(request: HttpRequest, slug: str) -> HttpResponse:
    """Public: the games whose table still has to sign, seat by seat. No PIN,
    no link: players sign at the scorer's phone or from its QR code."""
    series = get_object_or_404(Series, slug=slug)
    hidden = hidden_from(series)
    rows = [{"state": g, "hide_result": hidden is not None and g.game.round_number >= hidden,
             "seats": [(WINDS[s.seat], s) for s in g.seats]} for g in services.tables_waiting(series)]
    return render(request, "league/signoff_tables.html", {"series": series, "rows": rows})


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

