"""Writing a GAME RECORD back as tenhou.net/6 JSON that :func:`read_log` reads as
the same game."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from league.tenhou.tiles import _codes, _plain, _sort_key
from league.tenhou.values import TENHOU_ID, LogError
from scoring.game import (
    Abort,
    AbortReason,
    Draw,
    GameRecord,
    HandInput,
    PlayedHand,
    Ron,
    Tsumo,
    Win,
    replay,
)
from scoring.payment import hand_payment
from scoring.rules import RIICHI_STICK, Ruleset

_LIMIT_NAMES = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満", "yakuman": "役満"}
_ABORT_NAMES = {
    AbortReason.KYUUSHU_KYUUHAI: "九種九牌",
    AbortReason.SUUCHA_RIICHI: "四家立直",
    AbortReason.SANCHAHOU: "三家和了",
    AbortReason.SUUKAIKAN: "四槓散了",
    AbortReason.SUUFON_RENDA: "四風連打",
}
_DISP = {("tenhou", "hanchan"): "四鳳南喰赤", ("tenhou", "east"): "四鳳東喰赤",
         ("tenhou-east", "east"): "四鳳東喰赤", ("tenhou-east", "hanchan"): "四鳳南喰赤",
         ("mahjong-soul", "hanchan"): "Gold Room South", ("mahjong-soul", "east"): "Gold Room East"}


_EXPORTABLE_OVERRIDES = {"uma", "tenpai_yame", "aka_dora", "open_tanyao", "length"}
# Three players (sanma.md section 5): the lobby names the reader maps back to each preset.
# Old Tenhou games' rounded points come back from the end points, as on import.
_SANMA_DISP = {("tenhou-sanma", "hanchan"): "三鳳南喰赤", ("tenhou-sanma-east", "east"): "三鳳東喰赤速",
               ("mahjong-soul-sanma", "east"): "三金の間赤", ("mahjong-soul-sanma", "hanchan"): "三金の間南赤"}
_SANMA_OVERRIDES = {"tenhou-sanma": {"aka_dora", "end_rounding"}, "tenhou-sanma-east": {"aka_dora", "end_rounding"},
                    "mahjong-soul-sanma": {"length"}}


def _sanma_disp(rules: Ruleset) -> str:
    disp = _SANMA_DISP.get((rules.name, rules.length.value))
    if disp is None:
        raise LogError("not_exportable", f"tenhou.net/6 JSON can only carry Tenhou and Mahjong Soul rules, not {rules.name!r}")
    extra = set(rules.to_spec()["overrides"]) - _SANMA_OVERRIDES[rules.name]
    if extra:
        raise LogError("not_exportable", f"tenhou.net/6 JSON cannot carry the rule changes {sorted(extra)}")
    return disp if rules.aka_dora else disp.replace("赤", "")


def _disp(rules: Ruleset) -> str:
    if rules.players == 3:
        return _sanma_disp(rules)
    disp = _DISP.get((rules.name, rules.length.value))
    extra = set(rules.to_spec()["overrides"]) - _EXPORTABLE_OVERRIDES
    if extra:
        raise LogError("not_exportable", f"tenhou.net/6 JSON cannot carry the rule changes {sorted(extra)}")
    if disp is None:
        raise LogError("not_exportable", f"tenhou.net/6 JSON can only carry Tenhou and Mahjong Soul rules, not {rules.name!r}")
    if rules.name != "mahjong-soul":
        if not rules.open_tanyao:
            disp = disp.replace("喰", "")
        if not rules.aka_dora:
            disp = disp.replace("赤", "")
    return disp


def _score_string(rules: Ruleset, win: Win | Tsumo, dealer: int, tsumo: bool, with_han: bool) -> str:
    pay = hand_payment(rules, han=win.han, fu=win.fu, yakuman=win.yakuman, dealer=win.winner == dealer, tsumo=tsumo)
    if not win.yakuman and win.fu is not None and win.han < 5:
        head = f"{win.fu}符{win.han}飜"
    else:
        head = (f"{win.han}飜" if with_han and not win.yakuman else "") + _LIMIT_NAMES[pay.limit.value if pay.limit else "mangan"]
    if pay.ron is not None:
        return f"{head}{pay.ron}点"
    if pay.tsumo_all is not None:
        return f"{head}{pay.tsumo_all}点∀"
    return f"{head}{pay.tsumo_non_dealer}-{pay.tsumo_dealer}点"


class _Fillers:
    """Tiles to draw and let go where the log only needs a turn: kinds the hand does not hold."""

    def __init__(self, used: Sequence[int]) -> None:
        held = {_plain(c) for c in used}
        self.free = [c for c in (*range(41, 48), *range(11, 20), *range(21, 30), *range(31, 40)) if c not in held]

    def take(self) -> int:
        return self.free.pop(0) if self.free else 47


def _call_token(kind: str, codes: list[int]) -> tuple[str, list[int]]:
    """A call string for the draw list and the own tiles it needs in the haipai.

    The called tile is taken from kamicha (chi, pon, kan): which player fed it
    is not kept.
    """
    called, own = codes[0], codes[1:]
    letter = {"chi": "c", "pon": "p", "kan": "m"}[kind]
    return letter + "".join(str(c) for c in [called, *own]), own


def _is_kept_tiles(tiles: Any) -> bool:
    """A log import's kept tiles: ``tiles``, ``win``, ``melds``, ``dora`` and ``ura`` as text and lists."""
    if not isinstance(tiles, Mapping) or not isinstance(tiles.get("tiles"), str) or not isinstance(tiles.get("win"), str):
        return False
    melds = tiles.get("melds", [])
    return (isinstance(melds, list)
            and all(isinstance(m, Mapping) and isinstance(m.get("type"), str) and isinstance(m.get("tiles"), str)
                    for m in melds)
            and all(isinstance(tiles.get(k, []), list) and all(isinstance(t, str) for t in tiles.get(k, []))
                    for k in ("dora", "ura")))


def _winner_flow(tiles: Mapping[str, Any], riichi: bool, tsumo: bool) -> tuple[list[int], list[Any], list[Any]]:
    closed = _codes(tiles["tiles"])
    win = _codes(tiles["win"])[0]
    melds = [(m["type"], _codes(m["tiles"])) for m in tiles.get("melds", [])]
    kita = tiles.get("kita", 0)
    kita = kita if type(kita) is int and 0 < kita <= 4 else 0
    # A filler is never a North while kita are set aside: a set has four.
    fill = _Fillers([*closed, *(c for _, cs in melds for c in cs), *([44] if kita else [])])
    kept = list(closed)
    kept.remove(win)
    haipai, draws, discards = list(kept), [], []
    if riichi:
        draws.append(fill.take())
        discards.append("r60")
    for _ in range(kita):
        # Three players: a North drawn and set aside ("f44"), then its replacement drawn and let go.
        draws += [44, fill.take()]
        discards += ["f44", 60]
    for kind, codes in melds:
        codes = sorted(codes, key=_sort_key)
        if kind in ("chi", "pon"):
            token, own = _call_token(kind, codes)
            extra = fill.take()
            haipai += [*own, extra]
            draws.append(token)
            discards.append(extra)
        elif kind == "kan":
            token, own = _call_token(kind, codes)
            haipai += own
            draws += [token, fill.take()]
            discards += [0, 60]
        elif kind == "ankan":
            haipai += codes[:3]
            draws += [codes[3], fill.take()]
            discards += ["".join(str(c) for c in codes[:3]) + "a" + str(codes[3]), 60]
        else:  # shouminkan: a pon, then the fourth tile drawn and added
            pon, added = codes[:3], codes[3]
            token, own = _call_token("pon", pon)
            extra = fill.take()
            haipai += [*own, extra]
            draws += [token, added, fill.take()]
            discards += [extra, "".join(str(c) for c in pon) + "k" + str(added), 60]
    if tsumo:
        draws.append(win)  # on a ron the winning tile comes from the discarder
    return sorted(haipai, key=_sort_key), draws, discards


def _export_kyoku(rules: Ruleset, played: PlayedHand) -> list[Any]:
    hand: HandInput = played.input
    o = hand.outcome
    dealer = played.dealer
    # Four seats always: a three-player log keeps the fourth one empty (sanma.md section 5).
    seats: list[tuple[list[Any], list[Any], list[Any]]] = [([], [], []) for _ in range(4)]
    empty = [0] * (4 - rules.players)
    for s in hand.riichi:
        seats[s][1].append(47 if s != dealer else 46)
        seats[s][2].append("r60")
    dora: list[int] = []
    ura: list[int] = []
    result: list[Any]
    theirs = [d + (RIICHI_STICK if s in hand.riichi else 0) for s, d in enumerate(played.deltas)] + empty
    if isinstance(o, (Ron, Tsumo)):
        wins: tuple[Win | Tsumo, ...] = o.wins if isinstance(o, Ron) else (o,)
        kept = hand.tiles if isinstance(hand.tiles, list) else [None] * len(wins)
        yaku_lists = hand.yaku if isinstance(hand.yaku, list) else [None] * len(wins)
        result = ["和了"]
        loser = o.loser if isinstance(o, Ron) else None
        fed = False
        for w, tiles, yaku in zip(wins, kept, yaku_lists, strict=False):
            # Detail kept as given (a record import takes any JSON): only the
            # shapes a log import writes are written back, the rest left out.
            tiles = tiles if _is_kept_tiles(tiles) else None
            yaku = yaku if isinstance(yaku, list) and all(isinstance(y, str) for y in yaku) else None
            flow = None
            if tiles:
                try:
                    flow = _winner_flow(tiles, w.winner in hand.riichi, loser is None)
                    win_dora, win_ura = _codes("".join(tiles.get("dora", []))), _codes("".join(tiles.get("ura", [])))
                except (LogError, ValueError, IndexError, KeyError):
                    flow = None  # tiles that make no winning hand: the hand is written without them
            if tiles and flow is not None:
                dora = win_dora
                ura = ura or win_ura  # shown only for a riichi winner
                seats[w.winner] = flow
                if loser is not None and not seats[loser][0] and not fed:
                    fed = True
                    seats[loser][1].append(_codes(tiles["win"])[0])  # drawn and let go
                    seats[loser][2].append(60)
            deltas = [0, 0, 0, 0]
            for t in played.result.transfers:
                if t.receiver == w.winner and t.kind.value != "riichi":
                    deltas[w.winner] += t.amount
                    if t.payer is not None:
                        deltas[t.payer] -= t.amount
            if yaku is None:
                yaku = [f"{'役満'}(役満)"] * w.yakuman
            text = _score_string(rules, w, dealer, loser is None, with_han=not yaku)
            from_who = w.winner if loser is None else loser
            pao = w.pao if w.pao is not None else w.winner
            result += [deltas, [w.winner, from_who, pao, text, *yaku]]
    elif isinstance(o, Draw):
        if o.nagashi:
            result = ["流し満貫", theirs]
        elif len(o.tenpai) == rules.players:
            result = ["全員聴牌"]
        elif not o.tenpai:
            result = ["全員不聴"]
        else:
            result = ["流局", theirs]
    elif isinstance(o, Abort):
        result = [_ABORT_NAMES[AbortReason(o.reason)]]
    else:
        raise LogError("not_exportable", "a chombo has no place in a tenhou.net/6 log")
    out: list[Any] = [[played.round, played.honba, played.riichi_sticks], [*played.start.scores, *empty], dora, ura]
    for haipai, draws, discards in seats:
        out += [haipai, draws, discards]
    out.append(result)
    return out


def export_tenhou6(record: GameRecord, names: Sequence[str] | None = None, *, log_id: str | None = None) -> str:
    """A game as one tenhou.net/6 JSON object (text), readable by :func:`read_log`.

    Only what tenhou.net/6 can say is written: a Tenhou or Mahjong Soul ruleset
    (the historical variants come back from the end points and the flow, as on
    import), no chombo. Nagashi hands keep only their riichi seats and the dealer
    as tenpai, since the format hides the rest.

    Seats that did not win keep no tiles (an empty haipai); a winner's kept
    tiles become the short tile flow described in the module docstring.
    """
    game = replay(record)
    names = [*(names or record.players or [""] * record.rules.players), *[""] * (4 - record.rules.players)]
    out: dict[str, Any] = {"title": ["", ""], "name": names, "rule": {"disp": _disp(record.rules), "aka": 1}}
    if log_id and TENHOU_ID.fullmatch(log_id):
        out["ref"] = log_id
    out["log"] = [_export_kyoku(record.rules, played) for played in game.hands]
    if game.settlement is not None:
        s = game.settlement
        out["sc"] = [v for seat in record.rules.seats for v in (
            s.final_scores[seat], s.points[seat] // 1000 if s.points[seat] % 1000 == 0 else s.points[seat] / 1000)]
        out["sc"] += [0, 0] * (4 - record.rules.players)
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))
