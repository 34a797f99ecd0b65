"""``python -m scoring``: one JSON request per line in, one JSON answer per line out.

Ops: ``kyoku``, ``game``, ``settle``, ``hand`` (tile analysis), ``rules``.
An error answers ``{"error": {"code", "message", "field"?}}`` on its line and
the process goes on. ``python -m scoring hand 234m567p11s --win 1s ...`` is
the human form of the ``hand`` op.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from .errors import ScoringError
from .game import outcome_from_dict, record_from_dict, replay, result_to_dict, settle_kyoku
from .rules import PRESET_SOURCES, PRESETS, get_ruleset
from .settlement import settle

_KYOKU_KEYS = {"op", "rules", "dealer", "honba", "riichi_sticks", "riichi", "outcome"}


def _check_keys(req: Mapping[str, Any], allowed: set[str]) -> None:
    for key in req:
        if key not in allowed:
            raise ScoringError("unknown_key", f"unknown key {key!r}", field=key)


def op_kyoku(req: Mapping[str, Any]) -> dict[str, Any]:
    _check_keys(req, _KYOKU_KEYS)
    rules = get_ruleset(req.get("rules"))
    riichi = req.get("riichi", [])
    if not isinstance(riichi, list):
        raise ScoringError("invalid_seat", "riichi must be a list of seats", field="riichi")
    result = settle_kyoku(
        rules,
        dealer=req.get("dealer", 0),
        honba=req.get("honba", 0),
        riichi_sticks=req.get("riichi_sticks", 0),
        riichi=riichi,
        outcome=outcome_from_dict(req.get("outcome")),
    )
    return {
        "deltas": list(result.deltas),
        "honba": result.honba,
        "riichi_sticks": result.riichi_sticks,
        "dealer_keeps": result.dealer_keeps,
    }


def op_game(req: Mapping[str, Any]) -> dict[str, Any]:
    return result_to_dict(replay(record_from_dict(req)))


def op_settle(req: Mapping[str, Any]) -> dict[str, Any]:
    _check_keys(req, {"op", "rules", "scores", "riichi_sticks", "replacements"})
    replacements = req.get("replacements", [])
    if not isinstance(replacements, list):
        raise ScoringError("invalid_replacements", "replacements must be a list of seats", field="replacements")
    s = settle(get_ruleset(req.get("rules")), req.get("scores"), req.get("riichi_sticks", 0), (), replacements)
    return {"places": list(s.places), "points": list(s.points), "final_scores": list(s.final_scores)}


def op_rules(req: Mapping[str, Any]) -> dict[str, Any]:
    """The full ruleset for a spec, with the preset's sources."""
    _check_keys(req, {"op", "rules"})
    rules = get_ruleset(req.get("rules"))
    return {"rules": rules.to_dict(), "spec": rules.to_spec(), "sources": PRESET_SOURCES.get(rules.name, {})}


def op_hand(req: Mapping[str, Any]) -> dict[str, Any]:
    from .hand_api import hand_request

    return hand_request(dict(req))


OPS = {"kyoku": op_kyoku, "game": op_game, "settle": op_settle, "rules": op_rules, "hand": op_hand}


def answer(line: str) -> dict[str, Any]:
    """The answer to one request line (never raises for bad input)."""
    try:
        req = json.loads(line)
    except json.JSONDecodeError as err:
        return {"error": {"code": "invalid_json", "message": f"not JSON: {err.msg} at column {err.colno}"}}
    if not isinstance(req, dict):
        return {"error": {"code": "invalid_request", "message": "a request is a JSON object"}}
    op = req.get("op")
    if op not in OPS:
        return {"error": {"code": "unknown_op", "message": f"op must be one of {', '.join(OPS)}, not {op!r}", "field": "op"}}
    try:
        return OPS[op](req)
    except ScoringError as err:
        return {"error": err.as_dict()}


def serve(lines: Iterable[str], out: TextIO) -> None:
    for line in lines:
        if not line.strip():
            continue
        out.write(json.dumps(answer(line), ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()


def main(argv: list[str]) -> int:
    if argv and argv[0] == "hand":
        from .hand_api import hand_cli

        return hand_cli(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        print("\npresets: " + ", ".join(PRESETS))
        return 0
    serve(sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
