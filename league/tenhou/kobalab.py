"""Reading kobalab's "majiang" paipu JSON (``qipai``/``zimo``/``dapai``/``hule``/
``pingju``; ``penuki`` for a kita), the one format in which a real Tenhou
three-player game of ours exists (MahjongLM's fixtures, converted from mjlog).

The file holds the game (``title``, ``player`` in seat order, ``qijia`` the
first dealer, the end ``defen``/``point``/``rank`` by seat) and one event list
per hand. Inside a hand every seat is counted from that hand's dealer (``l``
0 is East) and so are ``qipai.defen`` and ``fenpei``: the seat is ``(qijia +
jushu + l) % players``. Deltas (``fenpei``) leave out the riichi deposits, as
Tenhou's own do. A win's ``shoupai`` is its hand: the concealed tiles by suit
with the winning tile last, then each meld after a comma (``z777-``; an added
kan ``p555=5``; a closed kan without a mark) and, in MahjongLM's conversion,
one ``,b`` per kita.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from league.tenhou.mjlog import _thousandths
from league.tenhou.tenhou6 import _JSON_ABORTS, _JSON_DRAWS, _is_sanma, _json_rules
from league.tenhou.tiles import _meld_key
from league.tenhou.values import TENHOU_ID, Kyoku, LogError, Owari, TenhouLog, WinResult, _check_continuity

_SUITS = {"m": "m", "p": "p", "s": "s", "z": "z"}


def is_kobalab(value: Any) -> bool:
    """A paipu object: a ``log`` of hands whose first event is a ``qipai``."""
    log = value.get("log") if isinstance(value, Mapping) else None
    return (isinstance(log, list) and bool(log) and isinstance(log[0], list) and bool(log[0])
            and isinstance(log[0][0], Mapping) and "qipai" in log[0][0])


def _tile(text: Any, where: str) -> str:
    """``"p2"`` -> ``"2p"``, ``"m0"`` -> ``"0m"`` (a red five); markers (``_*+=-``) dropped."""
    if not isinstance(text, str) or len(text) < 2 or text[0] not in _SUITS or not text[1].isdigit():
        raise LogError("invalid_tiles", f"{text!r} is not a tile ({where})")
    return text[1] + text[0]


def _shoupai(text: Any) -> tuple[str, tuple[tuple[str, str], ...], str]:
    """A winning ``shoupai`` as (concealed tiles with the winning tile, melds, winning tile).

    >>> _shoupai("s1123440z333s6,b,z777-")
    ('11234406s333z', (('pon', '777z'),), '6s')
    """
    if not isinstance(text, str) or not text:
        raise LogError("invalid_tiles", f"{text!r} is not a paipu hand")
    head, *rest = text.split(",")
    tiles: list[str] = []
    suit = ""
    for ch in head:
        if ch in _SUITS:
            suit = ch
        elif ch.isdigit() and suit:
            tiles.append(ch + suit)
        elif ch not in "_*+=-":
            raise LogError("invalid_tiles", f"{text!r} is not a paipu hand")
    melds = []
    for part in rest:
        if part == "b":
            continue  # a kita: counted from the penuki events
        m = re.fullmatch(r"([mpsz])(\d{3,4})([-=+]?)(\d?)", part)
        if not m:
            raise LogError("invalid_tiles", f"meld {part!r} of {text!r} is not paipu notation")
        digits = m.group(2) + m.group(4)
        if len(digits) == 3:
            kind = "pon" if len(set(digits.replace("0", "5"))) == 1 else "chi"
        else:
            kind = "shouminkan" if m.group(4) else ("kan" if m.group(3) else "ankan")
        melds.append((kind, digits + m.group(1)))
    if not tiles or len(tiles) + 3 * len(melds) != 14:
        raise LogError("invalid_tiles", f"the winning hand {text!r} is not 14 tiles")
    win = tiles[-1]
    grouped = "".join("".join(t[0] for t in tiles if t[1] == s) + s for s in _SUITS if any(t[1] == s for t in tiles))
    return grouped, tuple(melds), win


def _read_kobalab(text: str, fallback_id: str) -> TenhouLog:
    try:
        paipu = json.loads(text)
    except (ValueError, RecursionError):
        raise LogError("broken_log", "the paipu is not JSON") from None
    if not is_kobalab(paipu):
        raise LogError("broken_log", "a kobalab paipu is an object with a 'log' of hands starting with qipai")
    title = str(paipu.get("title") or "")
    names = paipu.get("player")
    if not isinstance(names, list) or len(names) not in (3, 4):
        raise LogError("broken_log", "a paipu names three or four players")
    players = 3 if _is_sanma(title) or len(names) == 3 else 4
    if players != len(names):
        raise LogError("broken_log", f"the title {title!r} and the {len(names)} players disagree")
    rules, special = _json_rules(title, players)
    qijia = paipu.get("qijia", 0)
    if not isinstance(qijia, int) or not 0 <= qijia < players:
        raise LogError("broken_log", f"qijia {qijia!r} is not a seat")
    kyoku: list[Kyoku] = []
    for i, events in enumerate(paipu["log"]):
        try:
            kyoku.append(_hand(events, qijia, players))
        except LogError as err:
            raise LogError(err.code, f"hand {i + 1}: {err.message}") from None
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            raise LogError("broken_log", f"hand {i + 1} is not a paipu hand") from None
    if not kyoku:
        raise LogError("truncated_log", "the paipu holds no hand")
    _check_continuity(kyoku)
    owari = None
    defen, point = paipu.get("defen"), paipu.get("point")
    if isinstance(defen, list) and isinstance(point, list) and len(defen) == len(point) == players:
        try:
            owari = Owari(tuple(int(x) for x in defen), tuple(_thousandths(str(p)) for p in point))
        except (TypeError, ValueError):  # int() of a list or of text
            raise LogError("broken_log", "the paipu's end defen and point are not scores and points") from None
    m = TENHOU_ID.search(title)
    log_id = m.group(1) if m else fallback_id
    return TenhouLog(log_id, "kobalab", rules, tuple(str(n) for n in names), tuple(kyoku), owari, title, None,
                     special)


def _seat_of(wind: Any, dealer: int, players: int) -> int:
    """The seat of ``l`` (0 = this hand's East)."""
    if isinstance(wind, bool) or not isinstance(wind, int) or not 0 <= wind < players:
        raise LogError("broken_log", f"seat {wind!r} is not 0-{players - 1}")
    return (dealer + wind) % players


def _by_seat(values: Sequence[Any], dealer: int, players: int, what: str) -> tuple[int, ...]:
    if not isinstance(values, list) or len(values) != players:
        raise LogError("broken_log", f"{what} is not {players} numbers")
    out = [0] * players
    for wind, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int):
            raise LogError("broken_log", f"{what} holds {v!r}")
        out[(dealer + wind) % players] = v
    return tuple(out)


def _hand(events: Sequence[Mapping[str, Any]], qijia: int, players: int) -> Kyoku:
    qipai = events[0]["qipai"]
    rnd = 4 * qipai["zhuangfeng"] + qipai["jushu"]
    dealer = (qijia + qipai["jushu"]) % players
    honba, sticks = qipai["changbang"], qipai["lizhibang"]
    for name, value in (("jushu", qipai["jushu"]), ("changbang", honba), ("lizhibang", sticks)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise LogError("broken_log", f"{name} {value!r} is not a count")
    if qipai["jushu"] >= players:
        raise LogError("broken_log", f"jushu {qipai['jushu']} does not exist with {players} players")
    start = _by_seat(qipai["defen"], dealer, players, "qipai.defen")
    dora = [_tile(qipai["baopai"], "baopai")]
    riichi: set[int] = set()
    kita = [0] * players
    last_discard: tuple[int, bool] | None = None  # (seat, a riichi declaration)
    wins: list[WinResult] = []
    ura: tuple[str, ...] = ()
    for event in events[1:]:
        (kind, body), = event.items()
        if kind == "dapai":
            seat = _seat_of(body["l"], dealer, players)
            declared = "*" in str(body["p"])
            if declared:
                riichi.add(seat)
            last_discard = (seat, declared)
        elif kind == "penuki":
            seat = _seat_of(body["l"], dealer, players)
            kita[seat] += 1
            last_discard = (seat, False)  # a kita can be ronned
        elif kind == "kaigang":
            dora.append(_tile(body["baopai"], "kaigang"))
        elif kind == "hule":
            winner = _seat_of(body["l"], dealer, players)
            loser = None if body.get("baojia") is None else _seat_of(body["baojia"], dealer, players)
            if loser is not None and last_discard == (loser, True):
                riichi.discard(loser)  # a riichi whose discard is ronned pays no stick
            yaku = tuple(f"{y['name']}({y['fanshu']}飜)" if isinstance(y.get("fanshu"), int) and not body.get(
                "damanguan") else f"{y['name']}(役満)" for y in body.get("hupai") or ())
            yakuman = int(body.get("damanguan") or 0)
            han = 0 if yakuman else int(body["fanshu"])
            fu = None if yakuman or han >= 5 else int(body["fu"])
            ura = ura or tuple(_tile(t, "fubaopai") for t in body.get("fubaopai") or ())
            tiles, melds, win_tile = _shoupai(body.get("shoupai"))
            wins.append(WinResult(
                winner=winner, loser=loser, han=han, fu=fu, yakuman=yakuman, pao=None, yaku=yaku,
                tiles=tiles, melds=tuple(sorted(melds, key=_meld_key)), win_tile=win_tile,
                deltas=_by_seat(body["fenpei"], dealer, players, "fenpei"), kita=kita[winner],
            ))
        elif kind == "pingju":
            deltas = _by_seat(body.get("fenpei") or [0] * players, dealer, players, "fenpei")
            name = body.get("name", "")
            base = dict(round=rnd, honba=honba, sticks=sticks, dealer=dealer, start_scores=start,
                        riichi=tuple(sorted(riichi)), dora=tuple(dora), deltas=deltas)
            if name in _JSON_ABORTS:
                return Kyoku(**base, kind="abort", abort=str(_JSON_ABORTS[name]))
            if name not in _JSON_DRAWS or name == "流し満貫":
                raise LogError("broken_log", f"unknown draw {name!r}")
            hands = body.get("shoupai") or [""] * players
            tenpai = tuple(sorted(_seat_of(wind, dealer, players) for wind, h in enumerate(hands) if h))
            return Kyoku(**base, kind="draw", tenpai=tenpai)
    if not wins:
        raise LogError("truncated_log", "a hand has no result (the paipu is cut off)")
    total = tuple(sum(w.deltas[s] for w in wins) for s in range(players))
    return Kyoku(round=rnd, honba=honba, sticks=sticks, dealer=dealer, start_scores=start, kind="win",
                 wins=tuple(wins), riichi=tuple(sorted(riichi)), dora=tuple(dora), ura=ura, deltas=total)
