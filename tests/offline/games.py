"""Games as a scorer types them into the hand form, for the tests that hold
the phone's engine equal to the server: real games (their hands turned into
the form's fields) and seeded random ones (fields drawn at random, invalid
hands and corrections included).

A game is a list of steps ``(number, fields)``: ``number`` None is the next
hand, a smaller one a correction. The phone and the server each replay the
steps, keeping a priced hand (``ok``) and skipping a refused one.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from league.entry.phone import apply
from league.entry.tables import FU_CHOICES, yaku_table, yakuman_table
from scoring import game as sg
from scoring.digest import hands_digest
from scoring.rules import PRESETS, Ruleset
from tests.scoring.hand_generator import Case, generate

NAMES = ["East Ann", "South Ben", "West Cleo", "North Dai"]


def _kita(hand: sg.HandInput) -> dict[int, int]:
    """Per winner, the kita a logged three-player hand keeps in its tiles
    (the importer's entries are one per win, in the wins' order)."""
    o = hand.outcome
    wins = list(o.wins) if isinstance(o, sg.Ron) else [o] if isinstance(o, sg.Tsumo) else []
    entries = hand.tiles if isinstance(hand.tiles, list) else []
    return {w.winner: e["kita"] for w, e in zip(wins, entries, strict=False) if isinstance(e, dict) and e.get("kita")}


def fields_from_hand(hand: sg.HandInput, rules: Ruleset) -> dict[str, Any]:
    """The form's fields a scorer fills to enter ``hand``: han and fu, or
    yakuman as unnamed ones (named where pao needs the name)."""
    o = hand.outcome
    f: dict[str, Any] = {"riichi": [str(s) for s in hand.riichi]}
    wins: list[sg.Win | sg.Tsumo] = []
    if isinstance(o, sg.Ron):
        f |= {"outcome": "ron", "loser": str(o.loser), "winners": [str(w.winner) for w in o.wins]}
        wins = list(o.wins)
    elif isinstance(o, sg.Tsumo):
        f |= {"outcome": "tsumo", "winner": str(o.winner)}
        wins = [o]
    elif isinstance(o, sg.Draw):
        f |= {"outcome": "draw", "tenpai": [str(s) for s in o.tenpai], "nagashi": [str(s) for s in o.nagashi]}
        f["all_noten"] = "on" if not o.tenpai and not o.nagashi else ""
    elif isinstance(o, sg.Abort):
        f |= {"outcome": "abort", "abort_reason": str(o.reason)}
    else:
        f |= {"outcome": "chombo", "offender": str(o.offender)}
        f["riichi"] = []
    kita = _kita(hand)
    for w in wins:
        s = w.winner
        if s in kita:
            f[f"kita_{s}"] = str(kita[s])  # tapped apart: the han below leaves them out
        if w.yakuman and w.pao is not None:
            # Pao is owed for the liable yakuman only, so the scorer names it.
            worth = yakuman_table(rules)["daisuushii"][1]
            f[f"yakuman_{s}"] = ["daisuushii"] if w.yakuman == worth == 2 else ["daisangen"]
        elif w.yakuman:
            f[f"yakuman_{s}"] = {1: ["other"], 2: ["other_double"]}.get(w.yakuman, ["other", "other_double"])
        else:
            f[f"han_{s}"] = str(min(w.han - kita.get(s, 0), 13))
            f[f"fu_{s}"] = "" if w.fu is None else str(w.fu)
        if w.pao is not None:
            f[f"pao_{s}"] = str(w.pao)
    if hand.note:
        f["note"] = hand.note
    return f


@functools.lru_cache(maxsize=1)
def _tile_cases() -> list[Case]:
    return generate(20, 400)


def _value(rng: random.Random, rules: Ruleset, s: int, f: dict[str, Any], *, tsumo: bool) -> None:
    """One winner's value: han and fu mostly, sometimes picked yaku, a yakuman, or nonsense;
    with three players, sometimes kita (and, rarely, a count no set has)."""
    if rules.players == 3 and rng.random() < 0.4:
        f[f"kita_{s}"] = rng.choice(("1", "1", "2", "2", "3", "4", "0", "5"))
    roll = rng.random()
    if roll < 0.08:
        # The tiles, as a scorer types them: the tile analysis reads the seat and round winds from the game.
        case = rng.choice(_tile_cases()).request
        f[f"tiles_{s}"] = case["tiles"]
        f[f"win_tile_{s}"] = case["win"]
        f[f"melds_{s}"] = ", ".join(f"{m['type']} {m['tiles']}" for m in case["melds"])
        f["dora_indicators"] = " ".join(case.get("dora", []))
        f["ura_indicators"] = " ".join(case.get("ura", []))
        f[f"flags_{s}"] = [k for k in ("ippatsu", "haitei", "houtei", "rinshan", "chankan") if case.get(k)]
        if case.get("riichi") and str(s) not in f["riichi"]:
            f["riichi"].append(str(s))
        return
    if roll < 0.13:
        named = rng.sample(sorted(yakuman_table(rules)), rng.choice((1, 1, 1, 2)))
        f[f"yakuman_{s}"] = named
        if rules.pao and rng.random() < 0.3:
            f[f"pao_{s}"] = str(rng.choice(tuple(rules.seats)))  # sometimes the winner: refused on both sides
    elif roll < 0.23:
        table = yaku_table(rules)
        picked = rng.sample(sorted(table), rng.choice((1, 2, 3)))
        f[f"yaku_{s}"] = picked
        f[f"dora_{s}"] = str(rng.choice((0, 0, 1, 2, 3)))
        if rng.random() < 0.3:
            f[f"open_{s}"] = "on"
        if rng.random() < 0.3:
            f[f"fu_{s}"] = str(rng.choice(FU_CHOICES))
    elif roll < 0.26:
        f[f"han_{s}"] = rng.choice(("0", "14", "x", ""))  # refused as a choice, or missing
    else:
        han = rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 11, 13))
        f[f"han_{s}"] = str(han)
        if han < 5 or rng.random() < 0.3:
            f[f"fu_{s}"] = str(rng.choice((20, 25, 30, 30, 30, 40, 40, 50, 60, 70, 110)))


def random_fields(rng: random.Random, rules: Ruleset) -> dict[str, Any]:
    """One hand's fields, drawn the way a hurried scorer might fill them."""
    seats = tuple(rules.seats)  # 0-3, or 0-2 for three players
    f: dict[str, Any] = {"riichi": [str(s) for s in seats if rng.random() < 0.15]}
    outcomes = ["ron"] * 10 + ["tsumo"] * 7 + ["draw"] * 4 + ["chombo"]
    if rules.abortive_draws:
        outcomes.append("abort")
    outcome = rng.choice(outcomes)
    f["outcome"] = outcome
    if outcome == "ron":
        loser = rng.choice(seats)
        others = [s for s in seats if s != loser]
        winners = rng.sample(others, 1 if rng.random() < 0.93 else 2)
        if rng.random() < 0.02:
            winners = [loser]  # who dealt in also won: refused
        f |= {"loser": str(loser), "winners": [str(w) for w in winners]}
        for w in winners:
            _value(rng, rules, w, f, tsumo=False)
    elif outcome == "tsumo":
        w = rng.choice(seats)
        f["winner"] = str(w)
        _value(rng, rules, w, f, tsumo=True)
    elif outcome == "draw":
        f["tenpai"] = [str(s) for s in seats if rng.random() < 0.45]
        if not f["tenpai"] and rng.random() < 0.9:
            f["all_noten"] = "on"
        if rules.nagashi_mangan and rng.random() < 0.03:
            f["nagashi"] = [str(rng.choice(seats))]
    elif outcome == "abort":
        f["abort_reason"] = rng.choice(sorted(rules.abortive_draws))
        if f["abort_reason"] == "suucha_riichi" and rng.random() < 0.8:
            f["riichi"] = [str(s) for s in seats]
    else:
        f["offender"] = str(rng.choice(seats))
    if rng.random() < 0.02:
        f["note"] = rng.choice(("slow table", "seat 2 asked for a ruling", "x" * 501))
    return f


def random_game(seed: int) -> dict[str, Any]:
    """A seeded game: its ruleset and up to 9 steps, with an occasional
    correction of an earlier hand."""
    rng = random.Random(seed)
    # Four-player presets only: the league's hand entry has four seats until
    # issue #36 (the same eight names, so a seed draws the game it always did).
    preset = rng.choice(sorted(name for name, r in PRESETS.items() if r.players == 4))
    rules = PRESETS[preset]
    steps: list[tuple[int | None, dict[str, Any]]] = []
    for i in range(rng.randint(2, 9)):
        if i > 1 and rng.random() < 0.06:
            steps.append((rng.randint(1, i - 1), random_fields(rng, rules)))
        steps.append((None, random_fields(rng, rules)))
    return {"id": f"random-{seed}", "record": {"rules": preset, "hands": []}, "steps": steps}


def random_sanma_game(seed: int) -> dict[str, Any]:
    """A seeded three-player game (issue #36), drawn as ``random_game`` draws
    four-player ones, kita included."""
    rng = random.Random(seed)
    preset = rng.choice(sorted(name for name, r in PRESETS.items() if r.players == 3))
    rules = PRESETS[preset]
    steps: list[tuple[int | None, dict[str, Any]]] = []
    for i in range(rng.randint(2, 9)):
        if i > 1 and rng.random() < 0.06:
            steps.append((rng.randint(1, i - 1), random_fields(rng, rules)))
        steps.append((None, random_fields(rng, rules)))
    return {"id": f"random-sanma-{seed}", "record": {"rules": preset, "hands": []}, "steps": steps}


def real_game(name: str, record: sg.GameRecord) -> dict[str, Any]:
    """A real game entered hand by hand from an empty start."""
    empty = sg.record_to_dict(sg.GameRecord(record.rules, penalties=record.penalties))
    return {"id": name, "record": empty, "steps": [(None, fields_from_hand(h, record.rules)) for h in record.hands]}


def start_state(game: dict[str, Any]) -> dict[str, Any]:
    """The offline.json the phone starts the game from."""
    players = sg.record_from_dict(game["record"]).rules.players
    return {"game": 0, "title": game["id"], "names": NAMES[:players], "record": game["record"], "number": 1,
            "state": hands_digest([]), "finished": False}


def play_steps(game: dict[str, Any], price: Callable[..., dict[str, Any]]) -> list[dict[str, Any]]:
    """Every step's answer, the phone's way: a priced hand is kept (``apply``), a refused one skipped."""
    state = start_state(game)
    out = []
    for number, fields in game["steps"]:
        result = price(state, fields, number)
        out.append(result)
        if result["ok"]:
            state = apply(state, result)
        elif any(e["code"] == "game_over" for e in result["errors"]):
            break  # the rest would be refused the same way
    return out
