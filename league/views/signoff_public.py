"""The players' side of the table's sign-off: a player's way to their seat's
link from their own card (``player_signoff``), the per-seat link's page and
the public "tables" view of who still has to sign. The staff side (the
scorer's phone, PINs, disputes resolved) is ``views/signoff.py``.

A seat's link reaches only its player: through the short-link code of their
player card (printed, or its QR code), never on the scorer's screen or a
public page, so no one person can sign for the table.
Views are thin: one service call each (``league.services.signoff``).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from league import services
from league.models import WIND_NAMES, Registration, Series
from league.models.event import CODE_ALPHABET, CODE_LENGTH, hidden_from
from league.views.cached import public_page, series_for_slug


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
    ctx = {"game": link.game, "series": link.game.series, "state": state, "mine": mine, "wind": WIND_NAMES[link.seat],
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
             "seats": [(WIND_NAMES[s.seat], s) for s in g.seats]} for g in services.tables_waiting(series)]
    return render(request, "league/signoff_tables.html", {"series": series, "rows": rows})
