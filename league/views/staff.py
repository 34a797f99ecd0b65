"""Staff entry: start a game, enter and fix its hands, finish it, penalties.

Every view first asks ``series_for_scorer`` or ``game_for_scorer`` (``league.access``:
its scorers and directors, or a superuser) whether the login may score the series: anyone else gets 403,
never a form. Views are thin: a form validates, one service writes, and the
page redirects; what a hand pays is always computed by ``scoring`` through
``services.preview_hand``.
"""

from __future__ import annotations

import copy
import json
import uuid
from functools import cached_property
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league import services, stats
from league.access import can_create_events, can_direct, game_for_scorer, series_for_scorer, staffed_series
from league.engine_words import refusal
from league.entry.kept import BadKept, read_kept
from league.errors import PriceDiffers
from league.forms import FinalScoresForm, FinishForm, HandForm, PenaltyForm, StartGameForm, seat_names
from league.models import Game, GameAudit, Hand, Penalty, Series
from league.services import entry
from league.templatetags.event import clock_notice
from league.views.access import post_only, staff_required
from league.views.entry_form import ENDED_BY, hand_form, priced
from league.views.params import int_param
from scoring import game as sg

ENDED_BY_CLOCK = gettext_lazy("time was up and the event's time policy ended it")


def ended_by(game: Game, reason: sg.EndReason | None) -> str:
    """Why a finished game ended, in the reader's words: a game the event's
    clock ended is ended "early" to the engine, but not by staff."""
    if reason == sg.EndReason.EARLY and game.ended_by_clock:
        return str(ENDED_BY_CLOCK)
    return str(ENDED_BY.get(reason, "")) if reason is not None else ""


LAST_HANDS = 4  # the hands the game page lists; "All N hands" shows the rest
CHANGES = 12  # the entries of the change history the page lists

# -- who may score: league.access ------------------------------------------------------

def dashboard_url(game: Game) -> str:
    """The event dashboard at this game's round and table (a table of an
    event's round is its number), where the director came from."""
    return f"{reverse('event-dashboard', args=[game.series.slug])}?round={game.round_number}#table-{game.table}"



@staff_required
def home(request: HttpRequest) -> HttpResponse:
    series_list = list(staffed_series(request.user).order_by("-start_date", "name"))
    creator = can_create_events(request.user)
    if not series_list and not creator and not request.user.is_superuser:
        raise PermissionDenied("You do not score any series.")
    directed = {s.pk for s in series_list if can_direct(request.user, s)}
    return render(request, "league/staff_home.html",
                  {"series_list": series_list, "can_create": creator, "directed": directed})


@staff_required
def series_games(request: HttpRequest, slug: str) -> HttpResponse:
    series = series_for_scorer(request, slug)
    games = list(series.games.prefetch_related("seats__player"))
    playing = [g for g in games if not g.is_finished]
    finished = sorted((g for g in games if g.is_finished), key=lambda g: g.finished_at or g.started_at, reverse=True)
    ctx = {"series": series, "playing": playing, "finished": finished[:20]}
    return render(request, "league/staff_series.html", ctx)


# -- start a game ---------------------------------------------------------------------


@staff_required
def start_game(request: HttpRequest, slug: str) -> HttpResponse:
    series = series_for_scorer(request, slug)
    if request.method == "POST":
        form = StartGameForm(request.POST, seats=series.ruleset().players)
        if form.is_valid():
            try:
                game = services.start_game(
                    series=series, players=form.players(), round_number=form.cleaned_data["round_number"],
                    table=form.cleaned_data["table"], by=request.user, at_the_table=True,
                )
            except services.ServiceError as err:
                form.add_service_error(err)
            else:
                messages.success(request, _("Game started: %(game)s.") % {"game": game})
                return redirect("staff-game", pk=game.pk)
    else:
        last = series.games.order_by("-round_number").values_list("round_number", flat=True).first()
        form = StartGameForm(initial={"round_number": last or 1}, seats=series.ruleset().players)
    return render(request, "league/staff_start.html", {"series": series, "form": form})


# -- hands ----------------------------------------------------------------------------


@staff_required
def game(request: HttpRequest, pk: int) -> HttpResponse:
    """The game as it stands, its hands, and the form for the next hand."""
    return _hand_entry(request, game_for_scorer(request, pk))


@staff_required
def edit_hand(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct hand ``number``; the rest of the game is replayed. A hand that
    is gone (another scorer undid it) gets the conflict page, not a 404."""
    return _hand_entry(request, game_for_scorer(request, pk), editing=number)


def _hand_entry(request: HttpRequest, game: Game, *, editing: int | None = None) -> HttpResponse:
    now = entry.read_game(game)
    number = editing or now.next_number
    notice = ""
    checked: dict[str, Any] = {}
    if request.method == "POST":
        data = entry.claimed(request.POST, now)
        if data.get("action") == "reuse" and not entry.is_gone(now, editing):
            entry.reuse(data, now, number)
        form = hand_form(now, number, data=data)
        valid = form.is_valid()
        step = entry.decide(data, now, number=number, editing=editing, valid=valid, hand=form.hand)
        if step is entry.Step.CONFLICT:
            return _conflict(request, game, form, editing=editing)
        if step is entry.Step.RECHECK:
            notice = "The hand changed since its payments were shown: check them, then save."
        elif step is entry.Step.SAVE:
            try:
                return _save(request, now, form, editing)
            except PriceDiffers as err:
                return _price_stop(err.theirs)
            except services.AlreadySaved as err:
                messages.info(request, capfirst(refusal(err.code, err.message)) + ".")
                return _to_game(request, game, now.next_number)
            except services.Conflict as err:
                return _conflict(request, game, form, editing=editing, reason=err.message)
            except services.ServiceError as err:
                if err.code == "game_over" and not editing:
                    return _conflict(request, game, form, editing=editing)  # another scorer's hand ended it
                form.add_service_error(err)
                valid = False
        if valid:
            checked = priced(now, form, editing)
    else:
        if entry.is_gone(now, editing):
            return _conflict(request, game, None, editing=editing)
        came_for = int_param(request.GET.get("hand"))
        if not editing and came_for and came_for != number:
            notice = (f"This page was for hand {came_for}; the game is now at hand {number}. "
                      "Nothing was filled in from before.")
        initial = HandForm.initial_for(now.rows[editing - 1]) if editing else {}
        if request.GET.get("outcome") in Hand.Outcome.values:
            initial["outcome"] = request.GET["outcome"]
        # A key for this entry: the page's script replaces it with one made on the
        # phone (crypto.randomUUID); without JavaScript this one is used.
        initial.update({"number": number, "state": now.state, "key": str(uuid.uuid4())})
        form = hand_form(now, number, initial=initial)
        form.light = True  # the rare chips once, as data (staff_chips.js); a POST's page has them all
    ctx = _game_context(now, form=form, editing=editing, notice=notice, **checked)
    # The last hands, what a scorer checks between hands; all of them on request.
    ctx["last_rows"] = ctx["rows"] if request.GET.get("all") else ctx["rows"][-LAST_HANDS:]
    return render(request, "league/staff_game.html", ctx)


def _save(request: HttpRequest, now: entry.GameNow, form: HandForm, editing: int | None) -> HttpResponse:
    game, hand = now.game, form.hand
    assert hand is not None
    key, state = form.cleaned_data.get("key") or None, form.cleaned_data.get("state") or ""
    number = editing or form.cleaned_data["number"]
    # A phone's price (``seen``) is checked by the save's own replay, under the lock.
    saved = entry.save_entry(game=game, number=number, hand=hand, editing=bool(editing), by=request.user,
                             key=key, state=state, players=now.players, seen=request.POST.get("seen"), now=now)
    if editing:
        messages.success(request, _("Hand %(number)s corrected; the rest of the game was replayed.") % {"number": editing})
    else:
        said = _("Hand %(number)s saved.") % {"number": number}
        if not saved.time_up and request.headers.get("X-Tenbou-In-Place"):
            answer = _in_place(request, saved.now or entry.read_game(game), saved.next_number, said,
                               change=saved.change)
            if answer is not None:
                return answer
        messages.success(request, said)
        if saved.time_up:
            messages.success(request, _("Time was up and the policy's last hand is played: the game is over."))
    return _to_game(request, game, saved.next_number)


def _price_stop(theirs: list[int]) -> JsonResponse:
    """A kept hand's save refused because the server prices it otherwise than the
    phone showed (``seen``): nothing saved; the server's payments, for the queue's
    "price" stop (queue.js), where the scorer chooses."""
    response = JsonResponse({"stop": "price", "theirs": theirs}, status=409)
    response["X-Tenbou-Stop"] = "price"
    return response


def _in_place(request: HttpRequest, now: entry.GameNow, next_number: int, said: str, *,
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
    the one hand that list gains (``fix``): the script keeps the page's own. The parts use no request
    (no form, no login): rendered without its context processors."""
    game = now.game
    if now.replayed.next is None or now.next_number != next_number:
        return None
    changes_only = change is not None and next_number > 2
    ctx = _game_context(now, history=[change] if changes_only else CHANGES)
    ctx["last_rows"] = ctx["rows"][-LAST_HANDS:]
    # From the third hand on the page's list of earlier hands to correct has all but
    # the one before the new hand: that one alone (``fix``), into the list it holds.
    fix = ctx["rows"][-2] if changes_only and next_number > 3 else None
    if fix is not None:
        ctx["fix_rows"] = []
    # Only a game of an event has a clock (a table of a round): no query for the others.
    clock = clock_notice(game) if game.series.kind == Series.Kind.TOURNAMENT else {}
    parts = {
        # No verdict, no notice: the partial renders nothing then, so it is not rendered.
        "clock": render_to_string("league/_event_clock_notice.html", clock) if clock.get("verdict") else "",
        "state": render_to_string("league/_staff_state.html", ctx),
    }
    if fix is not None:
        parts["fix"] = render_to_string("league/_staff_fix_link.html", {**ctx, "r": fix})
    if changes_only:
        parts["hand"] = render_to_string("league/_staff_hand_row.html", {**ctx, "r": ctx["rows"][-1]})
        parts["below"] = render_to_string("league/_staff_hands_below.html", ctx)
        parts["change"] = render_to_string("league/_staff_change.html", {"e": change})
    else:
        parts["hands"] = render_to_string("league/_staff_hands.html", ctx)
    url = reverse("staff-game", args=[game.pk]) + f"?hand={next_number}"
    # The key is the script's fallback where the browser makes none (crypto.randomUUID).
    response = JsonResponse({"url": url, "number": next_number, "state": now.state, "key": str(uuid.uuid4()),
                             "message": said, "parts": parts, "game": entry.phone_state(now)})
    response["X-Tenbou-Saved"] = "in-place"
    return response


def _to_game(request: HttpRequest, game: Game, next_number: int) -> HttpResponse:
    """After a save: a redirect to the game, or for the page's script (which
    sent the entry with fetch) the address to go to, so the message shows there.
    The address names the hand it is for, so each hand's page is its own step
    in the browser's history (Back goes to the previous hand's page)."""
    url = reverse("staff-game", args=[game.pk]) + f"?hand={next_number}"
    if request.headers.get("X-Tenbou-Entry"):
        response = HttpResponse(url, content_type="text/plain")
        response["X-Tenbou-Saved"] = "1"
        return response
    return redirect(url)


# What the conflict page passes on when the scorer takes their entry to the
# game as it is now: everything typed, nothing that tied it to the old state.
_NOT_CARRIED = {"csrfmiddlewaretoken", "action", "checked", "number", "state", "key", "editing"}


def _conflict(request: HttpRequest, game: Game, form: HandForm | None, *, editing: int | None = None,
              reason: str = "", undo: bool = False) -> HttpResponse:
    """The entry was built on another state of the game than the one stored
    (another scorer saved, corrected or undid a hand; a Back button; a second
    tap). Nothing was saved. The scorer's input and the game as it is now,
    side by side; taking the entry on is a deliberate step, never a ready Save."""
    game.refresh_from_db()
    now = entry.read_game(game, fresh=True)  # a refused save may have met a newer game than the form's
    names = now.names
    posted = int_param(request.POST.get("number")) if request.method == "POST" else None
    mine = ""
    if form is not None and form.is_valid() and form.hand is not None:
        mine = services.describe_entry(form.hand, names)
    since_from = editing or posted or now.next_number
    shown = _game_context(now)
    since = [r for r in shown["rows"] if r.hand.number >= since_from]
    carried = [(k, v) for k, values in request.POST.lists() if k not in _NOT_CARRIED for v in values]
    ctx = {
        "game": game, "series": game.series, "names": names, "mine": mine, "editing": editing, "undo": undo,
        "posted": posted, "reason": reason, "since": since, "carried": carried,
        "counted": form.counted_lines() if form is not None and form.is_valid() else [],
        "errors": form.error_lines() if form is not None and form.is_bound and not form.is_valid() else [],
        "state": now.replayed.next, "next_number": now.next_number, "replayed": now.replayed,
        "seats": shown["seats"],
        "hand_there": bool(editing and editing < now.next_number),
    }
    return render(request, "league/staff_conflict.html", ctx, status=409)


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


def _game_context(now: entry.GameNow, *, history: int | list[GameAudit] = CHANGES,
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
        "results": _results(game, replayed, names),
        "any_penalty": bool(replayed.settlement and any(replayed.settlement.penalties)),
        "ended_by": ended_by(game, replayed.ended_by) if replayed.finished else "",
        "penalties": list(now.record.penalties),  # those in force, as read: the page shows their count
        "history": GameAudit.latest(game.pk, history) if isinstance(history, int) else history,
        "keep_rows": LAST_HANDS,
        "keep_changes": CHANGES,
        "phone_pricing": settings.PHONE_PRICING,
        **extra,
    }


def _results(game: Game, replayed: sg.GameResult, names: list[str]) -> list[dict[str, Any]]:
    s = replayed.settlement
    if s is None:
        return []
    rows = [
        {"name": names[i], "score": s.final_scores[i], "place": s.places[i], "uma": s.uma[i], "oka": s.oka[i],
         "penalty": s.penalties[i], "points": s.points[i]}
        for i in range(len(names))
    ]
    return sorted(rows, key=lambda r: r["place"])


# -- undo, finish, end scores ---------------------------------------------------------


@staff_required
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_scorer(request, pk)
    last = game.hands.order_by("-number").prefetch_related("wins").first()
    _number, state = services.entry_state(game)
    if request.method == "POST":
        try:
            # The number and state again under the lock: a hand saved since is not undone,
            # and a second tap of the same page finds its own undo (its key).
            number = services.undo_last_hand(
                game=game, number=int_param(request.POST.get("number")), by=request.user,
                key=request.POST.get("key") or None, state=request.POST.get("state") or "",
            )
        except services.AlreadySaved as err:
            messages.info(request, _("Hand %(number)s was already undone by this very tap; nothing more was undone.") % {
                "number": err.number})
        except services.Conflict as err:
            return _conflict(request, game, None, reason=_("%(reason)s: nothing was undone") % {"reason": refusal(err.code, err.message)}, undo=True)
        except services.ServiceError as err:
            messages.error(request, refusal(err.code, err.message))
        else:
            messages.success(request, _("Hand %(number)s undone.") % {"number": number})
        return redirect("staff-game", pk=game.pk)
    ctx = {"game": game, "series": game.series, "last": last, "state": state, "key": str(uuid.uuid4()),
           "text": services.describe_entry(last.to_input(), seat_names(game)) if last else ""}
    return render(request, "league/staff_undo.html", ctx)


@staff_required
def reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back a staff end (early or agari-yame): its own audited action,
    never the undo of a hand that was really played."""
    game = game_for_scorer(request, pk)
    _number, state = services.entry_state(game)
    if request.method == "POST":
        try:
            services.reopen_game(game=game, by=request.user, key=request.POST.get("key") or None,
                                 state=request.POST.get("state") or "")
        except services.AlreadySaved:
            messages.info(request, _("The game was already reopened by this very tap."))
        except services.Conflict as err:
            return _conflict(request, game, None, reason=_("%(reason)s: the game was not reopened") % {"reason": refusal(err.code, err.message)}, undo=True)
        except services.ServiceError as err:
            messages.error(request, capfirst(refusal(err.code, err.message)) + ".")
        else:
            messages.success(request, _("Game reopened: enter the next hand."))
        return redirect("staff-game", pk=game.pk)
    ctx = {"game": game, "series": game.series, "state": state, "key": str(uuid.uuid4())}
    return render(request, "league/staff_reopen.html", ctx)


@staff_required
def finish(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_scorer(request, pk)
    form = FinishForm(request.POST or None, rules=game.ruleset())
    if request.method == "POST" and form.is_valid():
        try:
            services.finish_game(game=game, end=Game.End(form.cleaned_data["end"]), by=request.user)
        except services.ServiceError as err:
            form.add_error("end" if err.field == "end" else None, err.message)
        else:
            messages.success(request, _("Game finished."))
            return redirect("staff-game", pk=game.pk)
    ctx: dict[str, Any] = {"game": game, "series": game.series, "form": form}
    if not game.is_finished:
        try:
            ctx["results"] = _results(game, services.preview_finish(game=game), seat_names(game))
        except services.ServiceError as err:
            ctx["cannot"] = err.message
    return render(request, "league/staff_finish.html", ctx)


@staff_required
def final_scores(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_scorer(request, pk)
    names = seat_names(game)
    form = FinalScoresForm(request.POST or None, names=names)
    if request.method == "POST" and form.is_valid():
        try:
            services.record_final_scores(
                game=game, scores=form.scores(), riichi_sticks=form.cleaned_data["riichi_sticks"], by=request.user
            )
        except services.ServiceError as err:
            form.add_service_error(err)
        else:
            messages.success(request, _("End scores recorded; the game is finished."))
            if request.POST.get("back") == "dashboard":
                return redirect(dashboard_url(game))
            return redirect("staff-game", pk=game.pk)
    ctx = {"game": game, "series": game.series, "form": form, "start": game.ruleset().start_points,
           "back": request.POST.get("back") == "dashboard",
           "dashboard": dashboard_url(game) if game.series.kind == Series.Kind.TOURNAMENT else ""}
    return render(request, "league/staff_final_scores.html", ctx)


# -- penalties ---------------------------------------------------------------------------


@staff_required
def penalties(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_scorer(request, pk)
    names = seat_names(game)
    form = PenaltyForm(request.POST or None, names=names)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.add_penalty(game=game, seat=d["seat"], points=d["points"], reason=d["reason"], by=request.user)
        except services.ServiceError as err:
            form.add_service_error(err)
        else:
            messages.success(request, _("Penalty given to %(who)s.") % {"who": names[d["seat"]]})
            return redirect("staff-penalties", pk=game.pk)
    rows = [{"penalty": p, "name": names[p.seat]} for p in game.penalties.select_related("given_by", "cancelled_by")]
    ctx = {"game": game, "series": game.series, "form": form, "rows": rows}
    return render(request, "league/staff_penalties.html", ctx)


@staff_required
def cancel_penalty(request: HttpRequest, pk: int, penalty_pk: int) -> HttpResponse:
    game = game_for_scorer(request, pk)
    penalty = get_object_or_404(Penalty, pk=penalty_pk, game=game)
    if request.method == "POST":
        try:
            services.cancel_penalty(penalty=penalty, by=request.user)
        except services.ServiceError as err:
            messages.error(request, refusal(err.code, err.message))
        else:
            messages.success(request, _("Penalty cancelled."))
        return redirect("staff-penalties", pk=game.pk)
    ctx = {"game": game, "series": game.series, "penalty": penalty, "name": seat_names(game)[penalty.seat]}
    return render(request, "league/staff_cancel_penalty.html", ctx)



# -- hands kept on the phone, in one request (issue 30) -------------------------------------

# Why a batch's body was refused (``league.entry.kept``): a page's script sent it, so
# the answer names the part at fault for whoever reads the network log.
_BAD_KEPT = {
    "not_json": gettext_lazy("is not JSON"),
    "not_object": gettext_lazy("must be an object"),
    "not_list": gettext_lazy("must be a list of entries"),
    "empty": gettext_lazy("lists no entry"),
    "too_many": gettext_lazy("lists more entries than one request takes"),
    "not_text": gettext_lazy("must be text"),
    "missing": gettext_lazy("is missing"),
}


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
        return JsonResponse({"error": {"code": bad.code, "field": bad.field, "message": message}}, status=400)
    taken: list[dict[str, Any]] = []
    stop: dict[str, Any] | None = None
    last: tuple[entry.Saved, str] | None = None
    for i, posted in enumerate(entries):
        data = QueryDict(mutable=True)
        for name, value in posted.items():
            data.setlist(name, value if isinstance(value, list) else [value])
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
                continue
            except services.Conflict as err:
                stop = {"kind": "conflict", "reason": err.message}
            except services.ServiceError as err:
                if err.code == "game_over":
                    stop = {"kind": "conflict", "reason": ""}
                else:
                    form.add_service_error(err)
                    stop = {"kind": "refused"}
            else:
                taken.append({"key": key, "saved": "saved", "number": saved.number})
                last = (saved, _("Hand %(number)s saved.") % {"number": saved.number})
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
            single = copy.copy(request)
            single.POST = data
            stop["html"] = _conflict(single, game, form, reason=stop.pop("reason")).content.decode()
        elif stop["kind"] == "refused" and "errors" not in stop:
            stop["errors"] = [{"field": name, "message": line} for name, line, _m in form.error_items()]
        break
    return JsonResponse({"entries": taken, "stop": stop, "then": _kept_then(request, game, last)})


_KEPT_RECHECK = gettext_lazy("The hand changed since its payments were shown: check them, then save.")


def _kept_then(request: HttpRequest, game: Game,
               last: tuple[entry.Saved, str] | None) -> dict[str, Any] | None:
    """After a batch: the page's parts after its last hand saved, as an online save
    answered in place has them, or (the game ended, or its clock) only the address."""
    if last is None:
        return None
    saved, said = last
    if not saved.time_up:
        answer = _in_place(request, saved.now or entry.read_game(game), saved.next_number, said)
        if answer is not None:
            return json.loads(answer.content)
    messages.success(request, said)
    if saved.time_up:
        messages.success(request, _("Time was up and the policy's last hand is played: the game is over."))
    return {"url": reverse("staff-game", args=[game.pk]) + f"?hand={saved.next_number}"}
