"""Seeded random complete hands for differential tests and the benchmark.

Each case is a ``hand`` request (our JSON form) plus what the `mahjong`
package needs: 136-format ids chosen on purpose (red fives are ids 16, 52 and
88 and appear only where the case says so), melds and a HandConfig recipe.
Families are drawn so that every yaku group turns up: simples, flushes,
outside hands, honour triplets, all triplets, seven pairs, kokushi, green,
nine gates, peikou shapes, sanshoku and ittsuu, with kans and red fives.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from scoring.tiles import FIVES, GREENS, TERMINALS, YAOCHUU

WIND_LETTERS = "ESWN"
SUIT = "mpsz"
SIMPLES = [k for k in range(27) if k not in TERMINALS]
FAMILIES = [
    ("any", 14), ("simples", 8), ("flush", 8), ("half_flush", 8), ("outside", 6), ("honours", 8), ("triplets", 6),
    ("chiitoitsu", 6), ("kokushi", 2), ("green", 2), ("chuuren", 2), ("peikou", 5), ("sanshoku", 4), ("ittsuu", 4),
    ("terminals", 3), ("kans", 6), ("winds", 3), ("dragons", 3),
]
_FAMILY_NAMES = [f for f, _ in FAMILIES]
_FAMILY_WEIGHTS = [w for _, w in FAMILIES]


def name(kind: int, red: bool = False) -> str:
    return f"{0 if red else kind % 9 + 1}{SUIT[kind // 9]}"


def notation(tiles: list[tuple[int, bool]]) -> str:
    """Tiles as mpsz text, grouped by suit in the order given."""
    out = []
    for suit in range(4):
        digits = "".join(name(k, r)[0] for k, r in sorted(tiles) if k // 9 == suit)
        if digits:
            out.append(digits + SUIT[suit])
    return "".join(out)


@dataclass
class Case:
    request: dict[str, Any]
    family: str
    ids: list[int] = field(default_factory=list)  # all 136 ids of the hand, melds included
    win_id: int = 0
    melds: list[tuple[str, tuple[int, ...], bool]] = field(default_factory=list)  # (mahjong type, ids, opened)
    dora_ids: list[int] = field(default_factory=list)
    ura_ids: list[int] = field(default_factory=list)


class _Pool:
    """Tracks copies used (hand, melds and indicators) and hands out ids."""

    def __init__(self) -> None:
        self.used = [0] * 34
        self.next_plain: dict[int, list[int]] = {}
        for k in range(34):
            ids = [4 * k + i for i in range(4)]
            # For a five, id 4k is the red one: keep it out of the plain ids.
            self.next_plain[k] = ids[1:] + ([] if k in FIVES else ids[:1])
        self.red_free = {k: True for k in FIVES}

    def take(self, kind: int, n: int = 1) -> bool:
        if self.used[kind] + n > 4:
            return False
        self.used[kind] += n
        return True

    def plain_id(self, kind: int) -> int:
        return self.next_plain[kind].pop(0)

    def red_id(self, kind: int) -> int:
        self.red_free[kind] = False
        return 4 * kind


def _group_kinds(rng: random.Random, family: str, suit: int) -> tuple[str, int]:
    """A random group ('seq', lowest kind) or ('trip', kind) for a family."""
    r = rng.random()
    if family in ("honours", "winds", "dragons") and r < 0.7:
        pool = {"honours": range(27, 34), "winds": range(27, 31), "dragons": range(31, 34)}[family]
        return "trip", rng.choice(list(pool))
    if family == "triplets" or family == "kans":
        if r < (0.85 if family == "triplets" else 0.6):
            return "trip", rng.randrange(34)
    if family == "terminals":
        return "trip", rng.choice(sorted(YAOCHUU)) if rng.random() < 0.5 else rng.choice(sorted(TERMINALS))
    if family == "outside":
        if r < 0.5:
            return "seq", rng.choice([s * 9 + o for s in range(3) for o in (0, 6)])
        return "trip", rng.choice(sorted(YAOCHUU))
    if family == "green":
        return ("seq", 19) if r < 0.3 else ("trip", rng.choice(sorted(GREENS)))
    if family in ("flush", "half_flush", "chuuren"):
        if family == "half_flush" and r < 0.3:
            return "trip", rng.randrange(27, 34)
        if rng.random() < 0.6:
            return "seq", suit * 9 + rng.randrange(7)
        return "trip", suit * 9 + rng.randrange(9)
    if family == "simples":
        if r < 0.65:
            return "seq", rng.choice([s * 9 + o for s in range(3) for o in range(1, 6)])
        return "trip", rng.choice(SIMPLES)
    if r < 0.6:
        return "seq", rng.choice([s * 9 + o for s in range(3) for o in range(7)])
    return "trip", rng.randrange(34)


def _pair_kind(rng: random.Random, family: str, suit: int) -> int:
    if family in ("flush", "chuuren"):
        return suit * 9 + rng.randrange(9)
    if family == "half_flush":
        return rng.choice([suit * 9 + rng.randrange(9), rng.randrange(27, 34)])
    if family == "simples":
        return rng.choice(SIMPLES)
    if family in ("outside", "terminals"):
        return rng.choice(sorted(YAOCHUU))
    if family == "green":
        return rng.choice(sorted(GREENS))
    if family in ("winds", "dragons", "honours"):
        return rng.randrange(27, 34)
    return rng.randrange(34)


def _shape(rng: random.Random, family: str, pool: _Pool) -> tuple[list[tuple[str, int]], int] | None:
    """Four groups and a pair (or None when the copies ran out)."""
    suit = rng.randrange(3)
    groups: list[tuple[str, int]] = []
    if family == "peikou":
        s = rng.choice([x * 9 + o for x in range(3) for o in range(7)])
        groups = [("seq", s), ("seq", s)]
        if rng.random() < 0.4:
            t = rng.choice([x * 9 + o for x in range(3) for o in range(7)])
            groups += [("seq", t), ("seq", t)]
    elif family == "sanshoku":
        o = rng.randrange(7) if rng.random() < 0.7 else None
        if o is None:
            o = rng.randrange(9)
            groups = [("trip", o), ("trip", 9 + o), ("trip", 18 + o)]
        else:
            groups = [("seq", o), ("seq", 9 + o), ("seq", 18 + o)]
    elif family == "ittsuu":
        groups = [("seq", suit * 9), ("seq", suit * 9 + 3), ("seq", suit * 9 + 6)]
    elif family == "dragons" and rng.random() < 0.5:
        groups = [("trip", 31), ("trip", 32)] + ([("trip", 33)] if rng.random() < 0.4 else [])
    elif family == "winds" and rng.random() < 0.5:
        winds = [27, 28, 29, 30]
        rng.shuffle(winds)
        groups = [("trip", w) for w in winds[: rng.choice((3, 3, 4))]]
    for kind, k in groups:
        if not (pool.take(k, 3) if kind == "trip" else all(pool.take(k + i) for i in range(3))):
            return None
    tries = 0
    while len(groups) < 4:
        tries += 1
        if tries > 60:
            return None
        kind, k = _group_kinds(rng, family, suit)
        if kind == "seq":
            if k % 9 > 6 or k >= 27 or any(pool.used[k + i] >= 4 for i in range(3)):
                continue
            for i in range(3):
                pool.take(k + i)
        elif not pool.take(k, 3):
            continue
        groups.append((kind, k))
    for _ in range(60):
        p = _pair_kind(rng, family, suit)
        if pool.take(p, 2):
            return groups, p
    return None


def random_case(rng: random.Random) -> Case | None:
    """One random complete hand and its situation, or None (caller retries)."""
    family = rng.choices(_FAMILY_NAMES, _FAMILY_WEIGHTS)[0]
    pool = _Pool()
    # concealed: list of (kind, red); melds: (our type, [(kind, red)])
    concealed: list[tuple[int, bool]] = []
    melds: list[tuple[str, list[tuple[int, bool]]]] = []
    if family == "kokushi":
        kinds = sorted(YAOCHUU)
        extra = rng.choice(kinds)
        for k in kinds + [extra]:
            pool.take(k)
            concealed.append((k, False))
    elif family == "chiitoitsu":
        choices = rng.sample(range(34), 7) if rng.random() < 0.6 else rng.sample(SIMPLES, 7)
        if rng.random() < 0.15:
            choices = rng.sample(range(27, 34), 7)
        elif rng.random() < 0.2:
            s = rng.randrange(3)
            choices = rng.sample(range(s * 9, s * 9 + 9), 5) + rng.sample(range(27, 34), 2)
        for k in choices:
            pool.take(k, 2)
            concealed += [(k, False), (k, False)]
    elif family == "chuuren":
        s = rng.randrange(3) * 9
        counts = [3, 1, 1, 1, 1, 1, 1, 1, 3]
        counts[rng.randrange(9)] += 1
        for i, n in enumerate(counts):
            pool.take(s + i, n)
            concealed += [(s + i, False)] * n
    else:
        shape = _shape(rng, family, pool)
        if shape is None:
            return None
        groups, pair = shape
        concealed += [(pair, False), (pair, False)]
        p_open = {"kans": 0.5, "triplets": 0.4, "honours": 0.4}.get(family, 0.25)
        for kind, k in groups:
            if kind == "seq":
                tiles = [(k, False), (k + 1, False), (k + 2, False)]
                if rng.random() < p_open:
                    melds.append(("chi", tiles))
                else:
                    concealed += tiles
                continue
            r = rng.random()
            kan_p = 0.6 if family == "kans" else 0.12
            if r < kan_p and pool.take(k):
                mtype = rng.choice(["ankan", "ankan", "kan", "shouminkan"])
                melds.append((mtype, [(k, False)] * 4))
            elif r < kan_p + p_open:
                melds.append(("pon", [(k, False)] * 3))
            else:
                concealed += [(k, False)] * 3
    # Red fives: forced when all four copies are held, else at random.
    every = [("c", i) for i in range(len(concealed))] + [("m", (j, i)) for j, (_, ts) in enumerate(melds)
                                                           for i in range(len(ts))]
    rng.shuffle(every)
    for where, idx in every:
        kind = concealed[idx][0] if where == "c" else melds[idx[0]][1][idx[1]][0]
        if kind not in FIVES or not pool.red_free[kind]:
            continue
        forced = pool.used[kind] == 4
        if forced or rng.random() < 0.35:
            pool.red_free[kind] = False
            if where == "c":
                concealed[idx] = (kind, True)
            else:
                j, i = idx
                melds[j][1][i] = (kind, True)
    # ids
    red_taken = {k: False for k in FIVES}

    def id_of(kind: int, red: bool) -> int:
        if red:
            red_taken[kind] = True
            return 4 * kind
        return pool.plain_id(kind)

    concealed_ids = [id_of(k, r) for k, r in concealed]
    meld_ids = [[id_of(k, r) for k, r in ts] for _, ts in melds]
    win_pos = rng.randrange(len(concealed))
    win_kind = concealed[win_pos][0]
    win_id = concealed_ids[win_pos]

    closed = all(t == "ankan" for t, _ in melds)
    has_kan = any(t in ("ankan", "kan", "shouminkan") for t, _ in melds)
    tsumo = rng.random() < 0.5
    seat = rng.randrange(4)
    round_ = rng.choice((0, 0, 1, 1, 2, 3))
    req: dict[str, Any] = {
        "op": "hand",
        "tiles": notation(concealed),
        "melds": [{"type": t, "tiles": notation(ts)} for t, ts in melds],
        "win": name(win_kind),
        "tsumo": tsumo,
        "seat": WIND_LETTERS[seat],
        "round": WIND_LETTERS[round_],
    }
    riichi = closed and rng.random() < 0.45
    if riichi:
        req["double_riichi" if rng.random() < 0.1 else "riichi"] = True
        if rng.random() < 0.3:
            req["ippatsu"] = True
    concealed_win = sum(1 for k, _ in concealed if k == win_kind)
    if tsumo and has_kan and rng.random() < 0.25:
        req["rinshan"] = True
    elif tsumo and rng.random() < 0.04:
        req["haitei"] = True
    elif not tsumo and rng.random() < 0.04:
        req["houtei"] = True
    elif (not tsumo and concealed_win == 1 and pool.used[win_kind] == 1 and not req.get("ippatsu")
          and rng.random() < 0.1):
        req["chankan"] = True
    if not melds and tsumo and not riichi and not any(req.get(f) for f in ("haitei", "rinshan")) \
            and rng.random() < 0.03:
        req["tenhou" if seat == 0 else "chiihou"] = True
    case = Case(req, family)
    n_ind = 1 + sum(1 for t, _ in melds if t != "chi" and t != "pon")
    for key, out in (("dora", case.dora_ids), ("ura", case.ura_ids)):
        if key == "ura" and not riichi:
            break
        names = []
        for _ in range(n_ind):
            for _ in range(50):
                k = rng.randrange(34)
                if pool.take(k):
                    break
            else:
                return None
            names.append(name(k))
            out.append(pool.plain_id(k) if pool.next_plain[k] else 4 * k)
        req[key] = names
    case.ids = concealed_ids + [i for ids in meld_ids for i in ids]
    case.win_id = win_id
    mj_type = {"chi": "chi", "pon": "pon", "kan": "kan", "ankan": "kan", "shouminkan": "shouminkan"}
    case.melds = [(mj_type[t], tuple(ids), t != "ankan") for (t, _), ids in zip(melds, meld_ids, strict=True)]
    return case


def generate(seed: int, n: int) -> list[Case]:
    """``n`` cases from ``seed``; the same seed gives the same cases."""
    rng = random.Random(seed)
    out: list[Case] = []
    while len(out) < n:
        case = random_case(rng)
        if case is not None:
            out.append(case)
    return out
