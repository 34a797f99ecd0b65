"""Hands kept on the phone while the network was down, sent in one request
(issue 30; queue/sending.js): each entry taken in order exactly as a single
save with ``seen`` is, each in its own transaction, the first one not saved
stopping the rest. docs/entry.md, "Kept hands in one request".

The game is read once for the batch: a save hands its read of the game after
it (``Saved.now``) to the next entry, as it keeps it for the next request; an
entry reads the game again only when the save kept nothing (the game over,
the clock, another change to the series since) or did not save (a key known
from before).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league import services
from league.access import game_for_scorer
from league.csp import as_fragment
from league.entry.kept import BadKept, read_kept
from league.entry.translation import refusal_of
from league.errors import PriceDiffers
from league.forms import HandForm
from league.models import Game
from league.services import entry
from league.views.access import post_only, staff_required
from league.views.entry_form import hand_form
from league.views.game_page import CONFLICT_TEMPLATE, conflict_context, in_place_answer

# Why a batch's body was refused (``league.entry.kept``): a page's script sent it, so
# the answer names the part at fault for whoever reads the network log.
_BAD_KEPT = {
    "not_json": gettext_lazy("is not JSON"),
    "not_object": gettext_lazy("must be an object"),
    "not_list": gettext_lazy("must be a list of entries"),
    "empty": gettext_lazy("lists no entry"),
    "too_many": gettext_lazy("lists more entries than one request takes"),
    "not_text": gettext_lazy("must be text"),
    "not_payments": gettext_lazy("must be the seats' payments in whole points, separated by spaces"),
    "missing": gettext_lazy("is missing"),
}

_KEPT_RECHECK = gettext_lazy("The hand changed since its payments were shown: check them, then save.")


@staff_required
def kept(request: HttpRequest, pk: int) -> HttpResponse:
    """The hands kept on the phone while the network was down, in one request
    (queue/sending.js): each entry is taken in order exactly as a single save with
    ``seen`` is (stale, gone, key, digest and price checks; its own
    transaction), and the first one not saved stops the rest, nothing of it
    written. JSON: each entry taken (``saved``, or ``known`` for a key saved
    before), the stop (``price`` with the server's payments, ``conflict`` with
    the conflict page, ``refused`` with the errors naming their fields), and
    ``then``: the in-place parts after the last hand saved, or the address to
    load (docs/entry.md, "Kept hands")."""
    game = game_for_scorer(request, pk)
    if (refused := post_only(request)) is not None:
        return refused
    try:
        entries = read_kept(request.body)
    except BadKept as bad:
        message = f"{bad.field} {_BAD_KEPT[bad.code]}"
        return as_fragment(JsonResponse({"error": {"code": bad.code, "field": bad.field, "message": message}},
                                        status=400))
    taken: list[dict[str, Any]] = []
    stop: dict[str, Any] | None = None
    last: tuple[entry.Saved, str] | None = None
    now: entry.GameNow | None = None  # the game as the last save left it, when it kept its read
    for i, posted in enumerate(entries):
        data = QueryDict(mutable=True)
        for name, value in posted.items():
            data.setlist(name, value if isinstance(value, list) else [value])
        if now is None:
            if i:
                game.refresh_from_db()  # as the next request would read it: the save moved the row on
            now = entry.read_game(game)
        number = now.next_number
        data = entry.claimed(data, now)
        form = hand_form(now, number, data=data)
        step = entry.decide(data, now, number=number, editing=None, valid=form.is_valid(), hand=form.hand)
        key = str(posted["key"])
        if step is entry.Step.SAVE and form.hand is not None:
            try:
                # The number it was built for, as the single save takes it: a stale
                # entry's key saved before is known; any other stale one is a conflict.
                # The phone's price (``seen``) is checked by the save's own replay.
                saved = entry.save_entry(game=game, number=form.cleaned_data["number"], hand=form.hand,
                                         editing=False, by=request.user, key=form.cleaned_data["key"],
                                         state=form.cleaned_data["state"], players=now.players,
                                         seen=data.get("seen"), now=now)
            except PriceDiffers as err:
                stop = {"kind": "price", "theirs": err.theirs}
            except services.AlreadySaved:
                taken.append({"key": key, "saved": "known"})
                now = None  # nothing written here: read the game as a new request would
                continue
            except services.Conflict as err:
                stop = {"kind": "conflict", "reason": refusal_of(err)}
            except services.ServiceError as err:
                if err.code == "game_over":
                    stop = {"kind": "conflict", "reason": ""}
                else:
                    form.add_service_error(err)
                    stop = {"kind": "refused"}
            else:
                taken.append({"key": key, "saved": "saved", "number": saved.number})
                last = (saved, _("Hand %(number)s saved.") % {"number": saved.number})
                now = _handed_on(saved)
                continue
        elif step is entry.Step.CONFLICT:
            stop = {"kind": "conflict", "reason": ""}
        elif step is entry.Step.RECHECK:
            stop = {"kind": "refused", "errors": [{"field": "checked", "message": str(_KEPT_RECHECK)}]}
        else:
            stop = {"kind": "refused"}
        stop.update({"index": i, "key": key})
        if stop["kind"] == "conflict":
            # The conflict page as the single save answers it, for the queue's side by side.
            stop["html"] = _conflict_html(request, game, form, data, reason=stop.pop("reason"))
        elif stop["kind"] == "refused" and "errors" not in stop:
            stop["errors"] = [{"field": name, "message": line} for name, line, _m in form.error_items()]
        break
    # Only the page's script reads it: the fragment's policy (league.csp).
    return as_fragment(JsonResponse({"entries": taken, "stop": stop, "then": _kept_then(request, game, last)}))


def _handed_on(saved: entry.Saved) -> entry.GameNow | None:
    """The save's read of the game after it, for the next entry: the hands, the
    record, the replay and the version it wrote, which the next save checks
    under the lock as a single save checks its request's read. Only while the
    game is open: a game the hand ended is read again (its row moved: status,
    results), as a new request would."""
    if saved.now is None or saved.now.replayed.next is None:
        return None
    return saved.now


def _conflict_html(request: HttpRequest, game: Game, form: HandForm, data: QueryDict, *, reason: str) -> str:
    """The conflict page of one kept entry (``data``, as its single save would post it)."""
    return render_to_string(CONFLICT_TEMPLATE, conflict_context(game, form, data, reason=reason), request)


def _kept_then(request: HttpRequest, game: Game,
               last: tuple[entry.Saved, str] | None) -> dict[str, Any] | None:
    """After a batch: the page's parts after its last hand saved, as an online save
    answered in place has them, or (the game ended, or its clock) only the address."""
    if last is None:
        return None
    saved, said = last
    if not saved.time_up:
        answer = in_place_answer(request, saved.now or entry.read_game(game), saved.next_number, said)
        if answer is not None:
            return answer
    messages.success(request, said)
    if saved.time_up:
        messages.success(request, _("Time was up and the policy's last hand is played: the game is over."))
    return {"url": reverse("staff-game", args=[game.pk]) + f"?hand={saved.next_number}"}
