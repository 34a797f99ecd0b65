"""A hand priced on the phone, as the server's preview prices it: the hand
form's fields read (``fields`` then ``hand``), the game replayed with the hand
in place through ``scoring``, the payments in words. No Django, no database:
the game comes as the JSON of ``/staff/games/<pk>/offline.json``
(OFFLINE_CONTRACT.md), and Pyodide runs this module in the browser.

Each step is the server's own code or a copy a test holds equal to it:
field cleaning (``league.entry.fields``, checked against the Django form's
fields), the checks across fields (``league.entry.hand``, which the server's
form runs), the bounds and the replay (``check_hand_bounds``, ``scoring``),
the words (``league.entry.words``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from league.entry.fields import clean_fields, field_specs
from league.entry.hand import HandEntry, caller_field, check_hand_bounds, form_field
from league.entry.words import describe_entry, describe_payments, seat_words
from scoring import game as sg
from scoring.digest import hands_digest
from scoring.errors import ScoringError


class Refused(Exception):
    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.field = code, message, field


def _errors(errors: Mapping[str | None, list[tuple[str, str | None]]]) -> dict[str, Any]:
    return {"ok": False, "errors": [{"field": f, "message": m, "code": c} for f, items in errors.items()
                                    for m, c in items]}


def _replay(record: sg.GameRecord, inputs: list[sg.HandInput], hand_index: int | None) -> sg.GameResult:
    """``league.services.replay.replay_game`` without the database."""
    try:
        for i, hand in enumerate(inputs):
            check_hand_bounds(hand, f"hands[{i}]")
        return sg.replay(dataclasses.replace(record, hands=tuple(inputs)))
    except ScoringError as err:
        field, message = caller_field(err, hand_index)
        raise Refused(err.code, message, field) from None


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
            replayed, number = sg.replay(self._record), self._number
            if number <= len(replayed.hands):
                self._state = replayed.hands[number - 1].start
            elif replayed.next is not None:
                self._state = replayed.next
            else:  # the game is over; the form still reads what a late scorer typed
                last = replayed.hands[-1].start if replayed.hands else None
                self._state = last or sg.TableState(0, 0, 0, 0, replayed.scores)
        return self._state

    @property
    def dealer(self) -> int:
        return self._get().dealer

    @property
    def round(self) -> int:
        return self._get().round


def price(game: Mapping[str, Any], fields: Mapping[str, Any], number: int | None = None) -> dict[str, Any]:
    """Hand ``number`` (default: the next one) of ``game`` as the scorer's
    ``fields`` give it: ``{"ok": True, "hand", "payments", ...}`` or
    ``{"ok": False, "errors": [{"field", "message", "code"}]}`` with the
    server form's fields and messages (OFFLINE_CONTRACT.md)."""
    record = sg.record_from_dict(game["record"])
    names = list(game["names"])
    stored = list(record.hands)
    number = len(stored) + 1 if number is None else number
    data, field_errors = clean_fields(record.rules, fields)
    # Where the game stood before the hand (views.staff._hand_form): only a
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
        before = None
        inputs = list(stored)
        if number == len(stored) + 1:
            if game.get("finished"):
                raise Refused("game_over", f"{game.get('title', 'this game')} is finished; correct or undo a hand "
                              "to reopen it", "game")
            inputs.append(hand)
        elif 1 <= number <= len(stored):
            before = _replay(record, list(stored), None)
            inputs[number - 1] = hand
        else:
            raise Refused("hand_conflict", f"hand {number} cannot be recorded: the next hand of this game is "
                          f"{len(stored) + 1} (has someone else just entered it?)", "number")
        result = _replay(record, inputs, number - 1)
    except Refused as err:
        known = {s.name for s in field_specs(record.rules)}
        field = form_field(err.field, entry.win_seats, known)
        return _errors({field: [(seat_words(err.message, names), err.code)]})
    played = result.hands[number - 1]
    later = []
    if before is not None:
        for i, old in enumerate(before.hands[number:], start=number):
            new = result.hands[i] if i < len(result.hands) else None
            if new is None or new.deltas != old.deltas:
                later.append({"number": i + 1, "payments": None if new is None else list(new.deltas)})
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
    }


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
