"""A hand priced on the phone, as the server's preview prices it: the hand
form's fields read (``fields`` then ``hand``), the game replayed with the hand
in place through ``scoring``, the payments in words. No Django, no database:
the game comes as the JSON of ``/staff/games/<pk>/offline.json``
(OFFLINE_CONTRACT.md), and Pyodide runs this module in the browser.

Each step is the server's own code or a copy a test holds equal to it:
field cleaning (``league.entry.fields``, the one field table the Django form
is built from), the checks across fields (``league.entry.hand``, which the
server's form runs), the bounds and the replay (``check_hand_bounds``,
``scoring``), the words (``league.entry.words``); the price itself is
``league.entry.pricing.price_hand``, the server preview's own function.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from league.entry import translation
from league.entry.digest import hand_digest
from league.entry.fields import clean_fields, field_specs
from league.entry.hand import HandEntry, form_field
from league.entry.pricing import Refused, price_hand, replay_stored, state_before
from league.entry.translation import refusal_of
from league.entry.words import describe_entry, describe_payments, seat_words
from scoring import game as sg
from scoring.digest import hands_digest
from scoring.errors import ScoringError


def _errors(errors: Mapping[str | None, list[tuple[str, str | None]]]) -> dict[str, Any]:
    return {"ok": False, "errors": [{"field": f, "message": m, "code": c} for f, items in errors.items()
                                    for m, c in items]}


def _table(state: sg.TableState | None, result: sg.GameResult | None = None) -> dict[str, Any]:
    if state is None:
        assert result is not None
        return {"round": None, "dealer": None, "honba": None, "riichi_sticks": result.riichi_sticks,
                "scores": list(result.scores)}
    return {"round": state.round_label, "dealer": state.dealer, "honba": state.honba,
            "riichi_sticks": state.riichi_sticks, "scores": list(state.scores)}


class _StateBefore:
    """The ``TableState`` before hand ``number``, replayed when first read."""

    def __init__(self, record: sg.GameRecord, number: int) -> None:
        self._record, self._number = record, number
        self._state: sg.TableState | None = None

    def _get(self) -> sg.TableState:
        if self._state is None:
            self._state = state_before(sg.replay(self._record), self._number)
        return self._state

    @property
    def dealer(self) -> int:
        return self._get().dealer

    @property
    def round(self) -> int:
        return self._get().round


def price(game: Mapping[str, Any], fields: Mapping[str, Any], number: int | None = None, *,
          words: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Hand ``number`` (default: the next one) of ``game`` as the scorer's
    ``fields`` give it: ``{"ok": True, "hand", "payments", ...}`` or
    ``{"ok": False, "errors": [{"field", "message", "code"}]}`` with the
    server form's fields and messages (OFFLINE_CONTRACT.md). ``words``: the
    engine's catalogue in the page's language (``/words/engine/<language>.<version>.json``),
    installed for this call; without it, what is installed (the worker
    installs its page's once: ``install_words``)."""
    with translation.installing(words):
        return _price(game, fields, number)


def install_words(catalogue: str) -> None:
    """The engine's catalogue (its JSON text) installed for every price from
    now on: what engine.js's worker calls once, with its page's language."""
    translation.install_catalogue(json.loads(catalogue))


def _price(game: Mapping[str, Any], fields: Mapping[str, Any], number: int | None) -> dict[str, Any]:
    record = sg.record_from_dict(game["record"])
    names = list(game["names"])
    stored = list(record.hands)
    number = len(stored) + 1 if number is None else number
    data, field_errors = clean_fields(record.rules, fields)
    # Where the game stood before the hand (views.entry_form.hand_form): only a
    # hand given by its tiles reads it (the winds), so it is replayed on demand.
    state = _StateBefore(record, number)
    entry = HandEntry(record.rules, names, state, data,  # type: ignore[arg-type]
                       has_errors=bool(field_errors))
    errors: dict[str | None, list[tuple[str, str | None]]] = dict(field_errors)
    for field, items in entry.errors.items():
        errors.setdefault(field, []).extend(items)
    if errors:
        return _errors(errors)
    hand = entry.hand
    assert hand is not None
    try:
        priced = price_hand(record, hand, number, title=game.get("title", "this game"),
                            is_finished=bool(game.get("finished")))
    except Refused as err:
        bad = _refused_before(record, number, err)
        if bad is not None:
            # As the server's preview refuses it (services.entry.refuse_past_unreplayable).
            return _errors({None: [(refusal_of(bad), "stored_hand_refused")]})
        known = {s.name for s in field_specs(record.rules)}
        field = form_field(err.field, entry.win_seats, known)
        # In the reader's words, as the server's preview puts a service's refusal (PostedHand).
        return _errors({field: [(seat_words(refusal_of(err), names), err.code)]})
    result, played, before = priced.game, priced.played, priced.before
    inputs = [p.input for p in result.hands]
    later = [{"number": n, "payments": None if new is None else list(new.deltas)}
             for n, _old, new in priced.later_changes()]
    after_state = result.hands[number].start if number < len(result.hands) else result.next
    settlement = result.settlement
    return {
        "ok": True,
        "number": number,
        "correction": before is not None,
        "hand": sg.hand_to_dict(hand),
        "payments": list(played.deltas),
        "lines": describe_payments(played.result, names),
        "counted": [f"{names[s]}: {text}" for s, text in entry.counted.items()],
        "summary": describe_entry(hand, names),
        "before": _table(played.start),
        "after": {**_table(after_state, result), "scores": list(played.scores), "ended": result.finished},
        "settlement": None if settlement is None else {
            "final_scores": list(settlement.final_scores), "places": list(settlement.places),
            "points": list(settlement.points)},
        "later": later,
        "state": hands_digest(stored),
        "digest": hands_digest(inputs),
        # What ties the save to this price, as the server's preview computes it.
        "checked": hand_digest(hand),
    }


def _refused_before(record: sg.GameRecord, number: int, err: Refused) -> Any:
    """The stored hand before hand ``number`` that the engine refuses, when
    that is why ``err`` refused the hand (a stored hand's field), else None."""
    if not (err.field or "").startswith("hands["):
        return None
    _replayed, bad = replay_stored(record)
    return bad if bad is not None and bad.number < number else None


def apply(game: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
    """The game after a priced hand is saved: engine.js's ``TenbouEngine.apply``."""
    out = json.loads(json.dumps(game))
    hands = out["record"]["hands"]
    if result["correction"]:
        hands[result["number"] - 1] = result["hand"]
    else:
        hands.append(result["hand"])
        out["number"] = len(hands) + 1
    out["state"] = result["digest"]
    out["finished"] = result["after"]["ended"]
    return out


def price_json(game: str, fields: str, number: int | None = None) -> str:
    """``price`` over JSON text: what engine.js calls in Pyodide."""
    try:
        out = price(json.loads(game), json.loads(fields), number)
    except ScoringError as err:  # a game the engine refuses as sent (a damaged copy on the phone)
        out = {"ok": False, "errors": [{"field": None, "message": err.message, "code": err.code}]}
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))
