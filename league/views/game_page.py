"""The staff game page's parts that more than one staff page answers with: the
game's context (its seats, hands, results and history), the answer in place
after a save, and the conflict page. The game page and its saves
(``views.staff``) and the kept hands' batch (``views.staff_kept``) render them
from a game read once (``services.entry.GameNow``)."""

from __future__ import annotations

import uuid
from functools import cached_property
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_lazy

from league import services, stats
from league.csp import as_fragment
from league.db_bounds import int_param
from league.forms import HandForm
from league.models import Game, GameAudit, Hand, Series
from league.services import entry
from league.templatetags import staff_parts
from league.templatetags.event import clock_notice
from league.views.entry_form import ENDED_BY
from scoring import game as sg

# The change history's entries the conflict page shows when no hand it lists tells what changed.
CONFLICT_CHANGES = 3
ENDED_BY_CLOCK = gettext_lazy("time was up and the event's time policy ended it")


def ended_by(game: Game, reason: sg.EndReason | None) -> str:
    """Why a finished game ended, in the reader's words: a game the event's
    clock ended is ended "early" to the engine, but not by staff."""
    if reason == sg.EndReason.EARLY and game.ended_by_clock:
        return str(ENDED_BY_CLOCK)
    return str(ENDED_BY.get(reason, "")) if reason is not None else ""


LAST_HANDS = 4  # the hands the game page lists; "All N hands" shows the rest
CHANGES = 12  # the entries of the change history the page lists


def dashboard_url(game: Game) -> str:
    """The event dashboard at this game's round and table (a table of an
    event's round is its number), where the director came from."""
    return f"{reverse('event-dashboard', args=[game.series.slug])}?round={game.round_number}#table-{game.table}"


def in_place(request: HttpRequest, now: entry.GameNow, next_number: int, said: str, *,
             change: GameAudit | None = None) -> JsonResponse | None:
    """The page's script asked for the save's answer in place: what changed on the
    page (the clock, where the game stands, the hands), the next hand's number and
    state, and the game as the phone's engine reads it (offline.json), instead of a
    redirect and the whole page again. ``now`` is what the save held (or, when it
    kept nothing, the game read again). None when the game is over: the page
    changes shape, and the script goes to the address as before.

    ``change``: the history's entry of the one hand just saved, on the page's
    own state (the save checked it), so the page already lists every hand
    before it; past the first hand the hands column is answered by its
    changes alone (``hand``, the new row; ``below``, the links and buttons
    under the list; ``change``, that entry), which the script puts in place
    of the whole column (``hands``) the rest get; past the second, where the
    game stands comes with an empty list of earlier hands to correct, and
    the one hand that list gains (``fix``): the script keeps the page's own.
    The parts use no request (no form, no login): rendered without its
    context processors."""
    answer = in_place_answer(request, now, next_number, said, change=change)
    if answer is None:
        return None
    response = as_fragment(JsonResponse(answer))  # only the page's script reads it (league.csp)
    response["X-Tenbou-Saved"] = "in-place"
    return response


def in_place_answer(request: HttpRequest, now: entry.GameNow, next_number: int, said: str, *,
                    change: GameAudit | None = None) -> dict[str, Any] | None:
    """The answer in place (``in_place``) as data: the kept batch's ``then``
    (which passes no ``change``: the whole column)."""
    game = now.game
    if now.replayed.next is None or now.next_number != next_number:
        return None
    changes_only = change is not None and next_number > 2
    ctx = game_context(now, history=[change] if changes_only else CHANGES)
    ctx["last_rows"] = ctx["rows"][-LAST_HANDS:]
    # From the third hand on the page's list of earlier hands to correct has all but
    # the one before the new hand: that one alone (``fix``), into the list it holds.
    fix = ctx["rows"][-2] if changes_only and next_number > 3 else None
    if fix is not None:
        ctx["fix_rows"] = []
    # Only a game of an event has a clock (a table of a round): no query for the others.
    clock = clock_notice(game) if game.series.kind == Series.Kind.TOURNAMENT else {}
    # The parts the page places with the same builders (league.templatetags.staff_parts).
    parts = {
        # No verdict, no notice: the partial renders nothing then, so it is not rendered.
        "clock": render_to_string("league/_event_clock_notice.html", clock) if clock.get("verdict") else "",
        "state": staff_parts.state_html(ctx),
    }
    if fix is not None:
        parts["fix"] = staff_parts.fix_link_html(game.pk, fix)
    if changes_only:
        parts["hand"] = staff_parts.hand_row_html(game.pk, ctx["rows"][-1])
        parts["below"] = staff_parts.hands_below_html(ctx)
        parts["change"] = staff_parts.change_html(change)
    else:
        parts["hands"] = render_to_string("league/_staff_hands.html", ctx)
    url = reverse("staff-game", args=[game.pk]) + f"?hand={next_number}"
    # The key is the script's fallback where the browser makes none (crypto.randomUUID).
    return {"url": url, "number": next_number, "state": now.state, "key": str(uuid.uuid4()),
            "message": said, "parts": parts, "game": entry.phone_state(now)}


# What the conflict page passes on when the scorer takes their entry to the
# game as it is now: everything typed, nothing that tied it to the old state.
_NOT_CARRIED = {"csrfmiddlewaretoken", "action", "checked", "number", "state", "key", "editing"}
CONFLICT_TEMPLATE = "league/staff_conflict.html"


def conflict_page(request: HttpRequest, game: Game, form: HandForm | None, *, editing: int | None = None,
                  reason: str = "", undo: bool = False) -> HttpResponse:
    """The conflict page (409) for the request's own entry (its POST)."""
    posted = request.POST if request.method == "POST" else None
    ctx = conflict_context(game, form, posted, editing=editing, reason=reason, undo=undo)
    return render(request, CONFLICT_TEMPLATE, ctx, status=409)


def conflict_context(game: Game, form: HandForm | None, posted: QueryDict | None, *, editing: int | None = None,
                     reason: str = "", undo: bool = False) -> dict[str, Any]:
    """The entry was built on another state of the game than the one stored
    (another scorer saved, corrected or undid a hand; a Back button; a second
    tap). Nothing was saved. The scorer's input and the game as it is now,
    side by side; taking the entry on is a deliberate step, never a ready Save.
    ``posted``: the entry as posted (one of a kept batch's, or the request's
    POST), None for a page that posted none."""
    game.refresh_from_db()
    now = entry.read_game(game, fresh=True)  # a refused save may have met a newer game than the form's
    names = now.names
    number = int_param(posted.get("number")) if posted is not None else None
    mine, same = "", False
    if form is not None and form.is_valid() and form.hand is not None:
        mine = services.describe_entry(form.hand, names)
        # The hand stored at the entry's number is this very hand: most likely the
        # entry saved before from a page the browser kept (Back to a page that came
        # from a POST, a second tab), whose key the page's script renewed, so the
        # save could not know it. Said, lest the scorer take it on as the next hand too.
        aimed = editing or number or 0
        same = 0 < aimed <= len(now.inputs) and entry.digest(now.inputs[aimed - 1]) == entry.digest(form.hand)
    since_from = editing or number or now.next_number
    shown = game_context(now)
    since = [r for r in shown["rows"] if r.hand.number >= since_from]
    carried = ([(k, v) for k, values in posted.lists() if k not in _NOT_CARRIED for v in values]
               if posted is not None else [])
    return {
        "game": game, "series": game.series, "names": names, "mine": mine, "editing": editing, "undo": undo,
        "posted": number, "reason": reason, "since": since, "carried": carried,
        "counted": form.counted_lines() if form is not None and form.is_valid() else [],
        "errors": form.error_lines() if form is not None and form.is_bound and not form.is_valid() else [],
        "state": now.replayed.next, "next_number": now.next_number, "replayed": now.replayed,
        "seats": shown["seats"],
        "hand_there": bool(editing and editing < now.next_number), "same": same,
        # No hand at or after the entry's to show, yet the game changed (an earlier hand
        # corrected, a penalty, an undo): its latest changes say what happened.
        "changes": [] if since else shown["history"][:CONFLICT_CHANGES],
    }


class HandRow:
    """One hand of the game's list: its row, how it played, and (read only for the
    hands a page shows, the last few) its words and the scores after it."""

    def __init__(self, hand: Hand, played: sg.PlayedHand, names: list[str]) -> None:
        self.hand, self.played, self.names = hand, played, names
        self.dealer = names[played.dealer]

    @cached_property
    def text(self) -> str:
        return stats.describe_hand(self.played, self.names)

    @cached_property
    def after(self) -> list[dict[str, Any]]:
        return [{"name": name, "score": self.played.scores[s]} for s, name in enumerate(self.names)]


def game_context(now: entry.GameNow, *, history: int | list[GameAudit] = CHANGES,
                 **extra: Any) -> dict[str, Any]:
    """What the game page and its parts show; ``history``, how many entries of
    the change history to read, or the entries themselves."""
    game, replayed, names = now.game, now.replayed, now.names
    rows = [HandRow(h, p, names) for h, p in zip(now.rows, replayed.hands, strict=False)]
    state = replayed.next
    seats = []
    players = len(names)  # three or four seats, as the ruleset has
    for s in range(players):
        seats.append({
            "name": names[s],
            "score": (state.scores if state else replayed.scores)[s],
            "dealer": state is not None and state.dealer == s,
            "wind": "ESWN"[(s - state.dealer) % players] if state else "",
        })
    return {
        "game": game,
        "series": game.series,
        # Every game of an event leads back to its round on the director's dashboard.
        "dashboard": dashboard_url(game) if game.series.kind == Series.Kind.TOURNAMENT else "",
        "names": names,
        "replayed": replayed,
        "state": state,
        "dealer": names[state.dealer] if state else "",
        "seats": seats,
        "rows": rows,
        "fix_rows": rows[:-1],  # the earlier hands to correct from the top (the last has its own link)
        "results": results(game, replayed, names),
        "any_penalty": bool(replayed.settlement and any(replayed.settlement.penalties)),
        "ended_by": ended_by(game, replayed.ended_by) if replayed.finished else "",
        "penalties": list(now.record.penalties),  # those in force, as read: the page shows their count
        "history": GameAudit.latest(game.pk, history) if isinstance(history, int) else history,
        "keep_rows": LAST_HANDS,
        "keep_changes": CHANGES,
        "phone_pricing": settings.PHONE_PRICING,
        "unreplayable": entry.refused_hand(now),
        **extra,
    }


def results(game: Game, replayed: sg.GameResult, names: list[str]) -> list[dict[str, Any]]:
    s = replayed.settlement
    if s is None:
        return []
    rows = [
        {"name": names[i], "score": s.final_scores[i], "place": s.places[i], "uma": s.uma[i], "oka": s.oka[i],
         "penalty": s.penalties[i], "points": s.points[i]}
        for i in range(len(names))
    ]
    return sorted(rows, key=lambda r: r["place"])
