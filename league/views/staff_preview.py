"""The live preview (``staff-preview``): what the staff game page's script
posts on every tap when the phone does not price the hand itself (its engine
loading or failed, a correction, ``PHONE_PRICING`` off). It writes nothing and
answers an HTML fragment: what the posted hand pays, why it cannot be saved
yet, or that the form was built on an older state of the game.

Issue 28 keeps it cheap: the game and whether the login may score it in one
statement built once (``league.access.game_for_scorer``), the game as read
held in this process under the cache's key (``services.entry.read_game_held``),
one pricing, and the preview's markup built by the function the page calls
(``league.templatetags.hand_preview``), no template rendered.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

from league.access import game_for_scorer
from league.csp import as_fragment
from league.db_bounds import int_param
from league.services import entry
from league.templatetags.hand_preview import preview_html
from league.views.access import staff_required
from league.views.entry_form import PostedHand, priced


@staff_required
def preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The live preview: an HTML fragment saying what the posted hand pays,
    or that the form was built on an older state of the game."""
    game = game_for_scorer(request, pk)  # permission first: an outsider learns nothing, not even the method
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    editing = int_param(request.POST.get("editing"))
    now = entry.read_game_held(game)
    number = editing or now.next_number
    data = entry.claimed(request.POST, now, mutable=False)
    if entry.is_stale(data, now, number, editing) or entry.is_gone(now, editing):
        # The stale notice links the game as it is now: all it reads is ``form.game``.
        return _fragment({"form": now, "stale": True})
    form = PostedHand(now, number, data)
    return _fragment({"form": form, "names": form.names, **priced(now, form, number if editing else None)})


def _fragment(context: dict[str, Any]) -> HttpResponse:
    # The page's own markup (``{% hand_preview %}``), with no template: it
    # reads nothing the context processors add (user, messages, language info).
    # Only the page's script fetches it: the fragment's policy (league.csp).
    return as_fragment(HttpResponse(preview_html(context)))
