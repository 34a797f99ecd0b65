"""The ``hand`` op of ``python -m scoring``, in JSON and in a human form.

>>> out = hand_request({"op": "hand", "rules": "tenhou", "tiles": "234m678p11s",
...     "melds": [{"type": "pon", "tiles": "555z"}, {"type": "ankan", "tiles": "0555p"}],
...     "win": "1s", "seat": "E", "round": "E", "dora": ["4m"], "honba": 1})
>>> out["han"], out["fu"], out["limit"], out["yaku"]
(2, 50, None, [{'id': 'yakuhai_haku', 'han': 1}, {'id': 'aka_dora', 'han': 1}])
>>> out["payment"], out["total"], out["with_bonus"]
({'ron': 4800}, 4800, 5100)
>>> sanma = hand_request({"op": "hand", "rules": "tenhou-sanma", "tiles": "123456789p11s777z", "win": "1p",
...     "seat": "S", "round": "E", "dora": ["3z"], "kita": 2, "tsumo": True, "honba": 1})
>>> sanma["yaku"][-1], sanma["payment"], sanma["total"], sanma["with_bonus"]
({'id': 'dora', 'han': 4}, {'tsumo_dealer': 8000, 'tsumo_non_dealer': 4000}, 12000, 12200)
>>> hand_request({"op": "hand", "tiles": "234m678p11s", "win": "1s", "seat": "E", "round": "E", "colour": 1})
Traceback (most recent call last):
...
scoring.errors.HandError: unknown key 'colour' in a hand request
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

from .errors import HandError, ScoringError
from .hand import WIND_LETTERS, Hand, HandResult, Situation, analyse_hand
from .rules import RIICHI_STICK, Ruleset, get_ruleset
from .tiles import parse_tile

FLAGS = ("tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou",
         "chiihou", "renhou", "paarenchan", "sashikomi")
REQUEST_KEYS = frozenset(("op", "rules", "tiles", "melds", "win", "seat", "round", "dora", "ura", "honba",
                          "riichi_sticks", "kita") + FLAGS)
MELD_KEYS = frozenset(("type", "tiles"))


def _wind(req: Mapping[str, Any], key: str) -> int:
    if key not in req:
        raise HandError("missing_key", f"{key} is required: E, S, W or N", field=key)
    value = req[key]
    if value not in WIND_LETTERS:
        raise HandError("invalid_wind", f"{key} must be E, S, W or N, not {value!r}", field=key)
    return WIND_LETTERS[value]


def _indicators(req: Mapping[str, Any], key: str) -> tuple[tuple[int, ...], list[int]]:
    value = req.get(key, [])
    if not isinstance(value, list):
        raise HandError("invalid_tile", f"{key} must be a list of indicator tiles like [\"4m\"]", field=key)
    kinds = []
    reds = [0, 0, 0]
    for i, text in enumerate(value):
        kind, red = parse_tile(text, f"{key}[{i}]")
        kinds.append(kind)
        if red:
            reds[kind // 9] += 1
    return tuple(kinds), reds


def _count(req: Mapping[str, Any], key: str, code: str) -> int:
    value = req.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise HandError(code, f"{key} must be a whole number, 0 or more, not {value!r}", field=key)
    return value


def parse_request(req: Mapping[str, Any]) -> tuple[Ruleset, Hand, Situation, int, int]:
    """The ruleset, hand, situation, honba and riichi sticks of a ``hand`` request."""
    if type(req) is not dict and not isinstance(req, Mapping):
        raise HandError("invalid_request", "a hand request is a JSON object")
    if not REQUEST_KEYS.issuperset(req):
        for key in req:
            if key not in REQUEST_KEYS:
                raise HandError("unknown_key", f"unknown key {key!r} in a hand request", field=str(key))
    rules = get_ruleset(req.get("rules"))
    for key in ("tiles", "win"):
        if key not in req:
            raise HandError("missing_key", f"{key} is required", field=key)
    melds_in = req.get("melds", [])
    if not isinstance(melds_in, list):
        raise HandError("invalid_meld", "melds must be a list of {type, tiles}", field="melds")
    melds = []
    for i, m in enumerate(melds_in):
        if type(m) is not dict and not isinstance(m, Mapping):
            raise HandError("invalid_meld", "a meld is an object {type, tiles}", field=f"melds[{i}]")
        if len(m) != 2 or not MELD_KEYS.issuperset(m):
            for key in m:
                if key not in MELD_KEYS:
                    raise HandError("unknown_key", f"unknown key {key!r} in a meld", field=f"melds[{i}].{key}")
            for key in ("type", "tiles"):
                if key not in m:
                    raise HandError("missing_key", f"a meld needs {key}", field=f"melds[{i}].{key}")
        melds.append((m["type"], m["tiles"]))
    flags = {}
    for key in FLAGS:
        value = req.get(key, False)
        if not isinstance(value, bool):
            raise HandError("invalid_flag", f"{key} must be true or false, not {value!r}", field=key)
        flags[key] = value
    seat = _wind(req, "seat")
    round_ = _wind(req, "round")
    dora, dora_reds = _indicators(req, "dora")
    ura, ura_reds = _indicators(req, "ura")
    honba = _count(req, "honba", "invalid_honba")
    sticks = _count(req, "riichi_sticks", "invalid_sticks")
    kita = _count(req, "kita", "invalid_kita")  # North tiles set aside (three players)
    hand = Hand.parse(req["tiles"], win=req["win"], melds=melds)
    reds = (dora_reds[0] + ura_reds[0], dora_reds[1] + ura_reds[1], dora_reds[2] + ura_reds[2])
    sit = Situation(**flags, seat=seat, round=round_, dora=dora, ura=ura, indicator_reds=reds, kita=kita)
    return rules, hand, sit, honba, sticks


def bonus(rules: Ruleset, *, tsumo: bool, honba: int, riichi_sticks: int) -> int:
    """Honba and riichi sticks the winner collects on top of the hand.

    >>> bonus(get_ruleset("ari-ari"), tsumo=True, honba=2, riichi_sticks=1)
    1600
    >>> bonus(get_ruleset("tenhou-sanma"), tsumo=True, honba=2, riichi_sticks=1)  # two payers
    1400
    """
    per_honba = (rules.players - 1) * rules.honba_tsumo if tsumo else rules.honba_ron
    return honba * per_honba + RIICHI_STICK * riichi_sticks


def result_to_dict(result: HandResult, extra: int) -> dict[str, Any]:
    return {
        "han": result.han,
        "fu": result.fu,
        "yakuman": result.yakuman,
        "limit": result.limit.value if result.limit else None,
        "yaku": [{"id": name, "han": han} for name, han in result.yaku],
        "fu_details": [{"reason": reason, "fu": fu} for reason, fu in result.fu_details],
        "payment": result.payment.as_dict(),
        "total": result.total,
        "with_bonus": result.total + extra,
    }


def hand_request(req: dict[str, Any]) -> dict[str, Any]:
    """Answer ``{"op": "hand", ...}``; raises ScoringError (HandError or RulesError)."""
    rules, hand, sit, honba, sticks = parse_request(req)
    result = analyse_hand(rules, hand, sit)
    return result_to_dict(result, bonus(rules, tsumo=sit.tsumo, honba=honba, riichi_sticks=sticks))


# -- the human form -------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m scoring hand",
        description="Score a winning hand from its tiles: yaku, han, fu and what each payer pays.",
        epilog="example: python -m scoring hand 234m678p11s --pon 555z --ankan 0555p --win 1s --dora 4m "
               "--seat E --round E",
    )
    p.add_argument("tiles", help="concealed tiles with the winning tile, e.g. 234m678p11s (0 = red five)")
    p.add_argument("--win", required=True, help="the winning tile, e.g. 1s")
    for kind in ("chi", "pon", "kan", "ankan", "shouminkan"):
        p.add_argument(f"--{kind}", action="append", default=[], metavar="TILES", help=f"a {kind} meld (repeatable)")
    p.add_argument("--seat", required=True, choices=list(WIND_LETTERS), help="the winner's seat wind; E is the dealer")
    p.add_argument("--round", required=True, choices=list(WIND_LETTERS), help="the round wind")
    p.add_argument("--dora", action="append", default=[], metavar="TILE", help="a dora indicator (repeatable)")
    p.add_argument("--ura", action="append", default=[], metavar="TILE", help="an ura dora indicator (repeatable)")
    p.add_argument("--kita", type=int, default=0, help="North tiles set aside as nuki dora (three players)")
    p.add_argument("--rules", default=None, help="a preset name (default ari-ari)")
    p.add_argument("--honba", type=int, default=0)
    p.add_argument("--riichi-sticks", type=int, default=0)
    for flag in FLAGS:
        p.add_argument(f"--{flag.replace('_', '-')}", action="store_true")
    return p


def format_result(out: dict[str, Any]) -> str:
    """The readable breakdown the CLI prints."""
    lines = ["yaku:"]
    for y in out["yaku"]:
        unit = "yakuman" if out["yakuman"] else "han"
        amount = y["han"] // 13 if out["yakuman"] else y["han"]
        lines.append(f"  {y['id']:<22}{amount:>3} {unit}")
    if out["fu_details"]:
        lines.append("fu:")
        for d in out["fu_details"]:
            lines.append(f"  {d['reason']:<22}{d['fu']:>3}")
        lines.append(f"  {'rounded up':<22}{out['fu']:>3}")
    if out["yakuman"]:
        head = f"{out['yakuman']} x yakuman"
    else:
        head = f"{out['han']} han {out['fu']} fu"
    if out["limit"]:
        head += f" ({out['limit']})"
    pays = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in out["payment"].items())
    lines.append(f"{head}: {pays}; total {out['total']}")
    if out["with_bonus"] != out["total"]:
        lines.append(f"with honba and riichi sticks: {out['with_bonus']}")
    return "\n".join(lines)


def hand_cli(argv: list[str]) -> int:
    """``python -m scoring hand TILES --win T ...``: print a breakdown; errors go to stderr with exit code 2."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    req: dict[str, Any] = {
        "tiles": args.tiles,
        "win": args.win,
        "melds": [{"type": kind, "tiles": t} for kind in ("chi", "pon", "kan", "ankan", "shouminkan")
                  for t in getattr(args, kind)],
        "seat": args.seat,
        "round": args.round,
        "dora": args.dora,
        "ura": args.ura,
        "honba": args.honba,
        "riichi_sticks": args.riichi_sticks,
    }
    if args.kita:
        req["kita"] = args.kita
    if args.rules:
        req["rules"] = args.rules
    for flag in FLAGS:
        if getattr(args, flag):
            req[flag] = True
    try:
        out = hand_request(req)
    except ScoringError as err:
        where = f" ({err.field})" if err.field else ""
        print(f"error {err.code}{where}: {err.message}", file=sys.stderr)
        return 2
    print(format_result(out))
    return 0
