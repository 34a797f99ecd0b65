"""Staff entry: start a game, enter and fix its hands, finish it, penalties.

Every view first asks ``series_for_scorer`` or ``game_for_scorer`` (``league.access``:
its scorers and directors, or a superuser) whether the login may score the series: anyone else gets 403,
never a form. Views are thin: a form validates, one service writes, and the
page redirects; what a hand pays is always computed by ``scoring`` through
``services.preview_hand``.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from league import services
from league.access import can_create_events, can_direct, game_for_scorer, series_for_scorer, staffed_series
from league.db_bounds import int_param
from league.engine_words import refusal
from league.entry.fields import BOOKKEEPING
from league.entry.translation import refusal_of
from league.errors import PriceDiffers
from league.forms import FinalScoresForm, FinishForm, HandForm, PenaltyForm, StartGameForm, seat_names
from league.models import Game, Hand, Penalty, Series
from league.services import entry
from league.views.access import staff_required
from league.views.entry_form import PostedHand, hand_form, priced
from league.views.game_page import (
    LAST_HANDS,
    HandRow,
    conflict_page,
    dashboard_url,
    game_context,
    in_place,
    results,
)


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
    is gone (another scorer undid it) gets the conflict page, not a 404;
    hand 0, which no game has, is a 404 (``editing=0`` would be the next
    hand's page, and its save a new hand)."""
    game = game_for_scorer(request, pk)
    if number < 1:
        raise Http404("Hands are numbered from 1.")
    return _hand_entry(request, game, editing=number)


def _hand_entry(request: HttpRequest, game: Game, *, editing: int | None = None) -> HttpResponse:
    # The page of the next hand and a save change nothing they read (a save builds
    # new lists): they read as the live preview does, from this process when the
    # read is held here (``read_game_held``), so nothing is unpickled, and the
    # page's read is held for the live previews that follow. A correction's
    # page reads its own.
    saving = request.method == "POST" and request.POST.get("action") == "save"
    held = saving or (request.method == "GET" and not editing)
    now = entry.read_game_held(game) if held else entry.read_game(game)
    number = editing or now.next_number
    notice = ""
    status = 200
    checked: dict[str, Any] = {}
    if request.method == "POST":
        # A save changes nothing in its post: no copy of it when it claims a state.
        data = entry.claimed(request.POST, now, mutable=not saving)
        if data.get("action") == "reuse" and not entry.is_gone(now, editing):
            entry.reuse(data, now, number)
        # A save reads the hand as the live preview does (the one field table, no
        # sixty bound Django fields): the same values and errors, byte for byte
        # (tests/league/test_posted_hand.py). Any page shown instead of the save
        # (a conflict, a recheck, a refusal) has the Django form, as before.
        form: HandForm | PostedHand = PostedHand(now, number, data) if saving else hand_form(now, number, data=data)
        valid = form.is_valid()
        # A save no page of ours makes (a field removed or changed with the devtools, a
        # script): its number, state or key missing or malformed. Its refusal names the
        # field, as a 400; the conflict page would say the game had changed. (The state is
        # not a required field: a first look without JavaScript is taken as built on the
        # state now, ``entry.claimed``; a save never is.)
        stateless = saving and not data.get("state")
        if stateless or not valid and any(name in form.errors for name in BOOKKEEPING):
            form = hand_form(now, number, data=data)
            form.is_valid()
            if stateless:
                form.add_error("state", form.fields["state"].error_messages["required"])
            # Said above the form too: the page's script prices the hand on load, and the
            # live preview (which takes a post without a state as built on the state now)
            # replaces the errors shown in its place.
            lines = [line for name, line, _ in form.error_items() if name in BOOKKEEPING]
            notice = _("Nothing was saved. %(problems)s Load the game again to enter the hand.") % {
                "problems": functools.reduce(_then, lines)}
            return _game_page(request, now, form, editing=editing, notice=notice, status=400)
        step = entry.decide(data, now, number=number, editing=editing, valid=valid, hand=form.hand)
        if step is not entry.Step.SAVE and isinstance(form, PostedHand):
            form = hand_form(now, number, data=data)
            valid = form.is_valid()
        if step is entry.Step.CONFLICT:
            return conflict_page(request, game, form, editing=editing)
        if step is entry.Step.RECHECK:
            notice = _("The hand changed since its payments were shown: check them, then save.")
        elif step is entry.Step.SAVE:
            try:
                return _save(request, now, form, editing)
            except PriceDiffers as err:
                return _price_stop(err.theirs)
            except services.AlreadySaved as err:
                messages.info(request, capfirst(refusal_of(err)) + ".")
                return _to_game(request, game, now.next_number)
            except services.Conflict as err:
                form = hand_form(now, number, data=data)
                return conflict_page(request, game, form, editing=editing, reason=refusal_of(err))
            except services.BadInput as err:
                # A field no page of ours sends in that shape (``seen``): the page with the
                # reason on the form, as a 400 (the page's script and the queue show it).
                form = hand_form(now, number, data=data)
                form.is_valid()
                form.add_service_error(err)
                valid, status = False, 400
            except services.ServiceError as err:
                form = hand_form(now, number, data=data)
                valid = form.is_valid()
                if err.code == "game_over" and not editing:
                    return conflict_page(request, game, form, editing=editing)  # another scorer's hand ended it
                form.add_service_error(err)
                valid = False
        if valid:
            checked = priced(now, form, editing)
    else:
        if entry.is_gone(now, editing):
            return conflict_page(request, game, None, editing=editing)
        came_for = int_param(request.GET.get("hand"))
        if not editing and came_for and came_for != number:
            notice = _("This page was for hand %(was)s; the game is now at hand %(now)s. "
                       "Nothing was filled in from before.") % {"was": came_for, "now": number}
        initial = HandForm.initial_for(now.rows[editing - 1]) if editing else {}
        if request.GET.get("outcome") in Hand.Outcome.values:
            initial["outcome"] = request.GET["outcome"]
        # A key for this entry: the page's script replaces it with one made on the
        # phone (crypto.randomUUID); without JavaScript this one is used.
        initial.update({"number": number, "state": now.state, "key": str(uuid.uuid4())})
        form = hand_form(now, number, initial=initial)
        form.light = True  # the rare chips once, as data (staff_chips.js); a POST's page has them all
    return _game_page(request, now, form, editing=editing, notice=notice, status=status, **checked)


def _game_page(request: HttpRequest, now: entry.GameNow, form: HandForm, *, editing: int | None, notice: str,
               status: int, **checked: Any) -> HttpResponse:
    """The staff game page with ``form``, and the last hands, what a scorer
    checks between hands (all of them on request)."""
    ctx = game_context(now, form=form, editing=editing, notice=notice, **checked)
    ctx["last_rows"] = ctx["rows"] if request.GET.get("all") else ctx["rows"][-LAST_HANDS:]
    return render(request, "league/staff_game.html", ctx, status=status)


def _save(request: HttpRequest, now: entry.GameNow, form: HandForm | PostedHand, editing: int | None) -> HttpResponse:
    game, hand = now.game, form.hand
    assert hand is not None
    key, state = form.cleaned_data.get("key") or None, form.cleaned_data.get("state") or ""
    number = editing or form.cleaned_data["number"]
    # A phone's price (``seen``) is checked by the save's own replay, under the lock.
    saved = entry.save_entry(game=game, number=number, hand=hand, editing=bool(editing), by=request.user,
                             key=key, state=state, players=now.players, seen=request.POST.get("seen"), now=now)
    if editing and saved.change is None:
        # The same correction saved again (Back, then Save): nothing in the history, and said so.
        messages.info(request, _("Hand %(number)s was already as entered: nothing was changed.") % {"number": editing})
    elif editing:
        messages.success(request, _("Hand %(number)s corrected; the rest of the game was replayed.") % {"number": editing})
    else:
        said = _("Hand %(number)s saved.") % {"number": number}
        if not saved.time_up and request.headers.get("X-Tenbou-In-Place"):
            answer = in_place(request, saved.now or entry.read_game(game), saved.next_number, said,
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

# -- undo, finish, end scores ---------------------------------------------------------


@staff_required
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_scorer(request, pk)
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
            return conflict_page(request, game, None, reason=_("%(reason)s: nothing was undone") % {"reason": refusal_of(err)}, undo=True)
        except services.ServiceError as err:
            messages.error(request, refusal_of(err))
        else:
            messages.success(request, _("Hand %(number)s undone.") % {"number": number})
        return redirect("staff-game", pk=game.pk)
    now = entry.read_game(game)
    # The hand in the words the hands list gives it (HandRow.text): the scorer confirms what they see there.
    last: Any = HandRow(now.rows[-1], now.replayed.hands[-1], now.names) if now.rows else None
    if now.rows and len(now.replayed.hands) < len(now.rows):
        # A stored hand the engine refuses: the replay stops before it, so the last row has
        # no replayed hand to word; the page says why it cannot be shown as played.
        refused = now.refused
        assert refused is not None
        last = {"hand": now.rows[-1], "text": refusal(refused.reason_code, refused.reason, refused.reason_detail)}
    ctx = {"game": game, "series": game.series, "last": last, "state": now.state, "key": str(uuid.uuid4())}
    return render(request, "league/staff_undo.html", ctx)


@staff_required
def reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back a staff end (early or agari-yame): its own audited action,
    never the undo of a hand that was really played."""
    game = game_for_scorer(request, pk)
    if request.method == "POST":
        try:
            services.reopen_game(game=game, by=request.user, key=request.POST.get("key") or None,
                                 state=request.POST.get("state") or "")
        except services.AlreadySaved:
            messages.info(request, _("The game was already reopened by this very tap."))
        except services.Conflict as err:
            return conflict_page(request, game, None, reason=_("%(reason)s: the game was not reopened") % {"reason": refusal_of(err)}, undo=True)
        except services.ServiceError as err:
            messages.error(request, capfirst(refusal_of(err)) + ".")
        else:
            messages.success(request, _("Game reopened: enter the next hand."))
        return redirect("staff-game", pk=game.pk)
    # The state the page's reopen is built on: read for the page only (the POST
    # carries its own, which the service checks under the lock).
    _number, state = services.entry_state(game)
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
            form.add_service_error(err)  # in the reader's words, on ``end`` when it names it
        else:
            messages.success(request, _("Game finished."))
            return redirect("staff-game", pk=game.pk)
    ctx: dict[str, Any] = {"game": game, "series": game.series, "form": form}
    if not game.is_finished:
        try:
            ctx["results"] = results(game, services.preview_finish(game=game), seat_names(game))
            ctx["any_penalty"] = any(r["penalty"] for r in ctx["results"])
        except services.ServiceError as err:
            ctx["cannot"] = refusal_of(err)
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
            messages.error(request, refusal_of(err))
        else:
            messages.success(request, _("Penalty cancelled."))
        return redirect("staff-penalties", pk=game.pk)
    ctx = {"game": game, "series": game.series, "penalty": penalty, "name": seat_names(game)[penalty.seat]}
    return render(request, "league/staff_cancel_penalty.html", ctx)


def _then(first: str, second: str) -> str:
    """Two sentences one after the other, as the reader's language puts them
    (a space in English, none after Japanese 。)."""
    return _("%(first)s %(second)s") % {"first": first, "second": second}
