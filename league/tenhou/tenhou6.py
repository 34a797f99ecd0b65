"""Reading tenhou.net/6 JSON: one object per game (or per kyoku), each seat's
draws and discards replayed to find the winning hand, limit hands given their fu."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from league.tenhou.mjlog import _thousandths
from league.tenhou.tiles import _SCORE_RE, _check_code, _meld_key, _notation, _plain, _yaku_han
from league.tenhou.values import TENHOU_ID, Kyoku, LogError, Owari, TenhouLog, WinResult, _check_continuity
from scoring.errors import ScoringError
from scoring.game import (
    AbortReason,
)
from scoring.hand import Hand, Situation, analyse_hand
from scoring.rules import RIICHI_STICK, get_ruleset

_JSON_ABORTS = {
    "九種九牌": AbortReason.KYUUSHU_KYUUHAI,
    "四家立直": AbortReason.SUUCHA_RIICHI,
    "三家和了": AbortReason.SANCHAHOU,
    "三家和": AbortReason.SANCHAHOU,
    "四槓散了": AbortReason.SUUKAIKAN,
    "四開槓": AbortReason.SUUKAIKAN,
    "四風連打": AbortReason.SUUFON_RENDA,
}
_JSON_DRAWS = ("流局", "全員聴牌", "全員不聴", "流し満貫")


def _loads(text: str, where: str) -> Any:
    """``json.loads``, with what it refuses besides bad syntax named: nesting
    past Python's recursion limit, and integers of more than 4,300 digits."""
    try:
        return json.loads(text)
    except RecursionError:
        raise LogError("broken_log", f"{where} is nested too deeply to be a Tenhou log") from None
    except json.JSONDecodeError:
        raise
    except ValueError as err:  # int() refuses a number of more than 4,300 digits
        raise LogError("broken_log", f"{where} holds a number with too many digits ({err})") from None


def _json_objects(text: str) -> list[Mapping[str, Any]]:
    try:
        value = _loads(text, "the log")
    except json.JSONDecodeError:
        # One object per line (mjx): each line must parse on its own.
        value = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                value.append(_loads(line, f"line {n}"))
            except json.JSONDecodeError as err:
                raise LogError("broken_log", f"line {n} is not JSON ({err.msg}); the file may be cut off") from None
    objects = value if isinstance(value, list) else [value]
    if not objects or not all(isinstance(o, Mapping) and isinstance(o.get("log"), list) for o in objects):
        raise LogError("broken_log", "a tenhou.net/6 log is an object with a 'log' list (or one per line)")
    return objects


def _is_sanma(disp: str) -> bool:
    return disp.startswith("三") or "3-Player" in disp or "三人" in disp


def _json_rules(disp: str, players: int = 4) -> tuple[str | dict[str, Any], bool]:
    east = "東" in disp or "East" in disp
    mahjong_soul = "の間" in disp or "Room" in disp or "Mahjong Soul" in disp
    if players == 3:
        return _sanma_rules(disp, east, mahjong_soul), False
    if mahjong_soul:
        return ({"preset": "mahjong-soul", "overrides": {"length": "east"}} if east else "mahjong-soul"), False
    preset = "tenhou-east" if east else "tenhou"
    overrides: dict[str, Any] = {}
    if disp and "赤" not in disp:
        overrides["aka_dora"] = 0
    if disp and "喰" not in disp:
        overrides["open_tanyao"] = False
    return ({"preset": preset, "overrides": overrides} if overrides else preset), False


def _sanma_rules(disp: str, east: bool, mahjong_soul: bool) -> str | dict[str, Any]:
    """The three-player preset a log's ``rule.disp`` names (sanma.md §5).

    Mahjong Soul's conversions (三金の間赤) do not say East or South: the
    preset is East-only, as every ranked game we have, unless 南 is written.
    """
    overrides: dict[str, Any] = {}
    if mahjong_soul:
        if "南" in disp:
            overrides["length"] = "hanchan"
        preset = "mahjong-soul-sanma"
    else:
        preset = "tenhou-sanma-east" if east else "tenhou-sanma"
        if disp and "赤" not in disp:
            overrides["aka_dora"] = 0
        if disp and "喰" not in disp:
            overrides["open_tanyao"] = False
    return {"preset": preset, "overrides": overrides} if overrides else preset


def _players(head: Mapping[str, Any], disp: str) -> int:
    """3 when ``rule.disp`` says three players (三…) or the log names three
    seats (a fourth name left empty with a start score of 0), else 4."""
    if _is_sanma(disp):
        return 3
    names = head.get("name")
    if isinstance(names, list) and len(names) == 3:
        return 3
    log = head.get("log")
    try:
        start = log[0][1]
        if isinstance(names, list) and len(names) == 4 and names[3] == "" and len(start) == 4 and start[3] == 0 \
                and all(start[:3]):
            return 3
    except (TypeError, IndexError, KeyError):
        pass  # a damaged log: the kyoku reader names what is wrong
    return 4


def _read_tenhou6(text: str, fallback_id: str) -> TenhouLog:
    objects = _json_objects(text)
    head = objects[0]
    rule = head.get("rule") if isinstance(head.get("rule"), Mapping) else {}
    disp = str(rule.get("disp", ""))
    players = _players(head, disp)
    rules, special = _json_rules(disp, players)
    names_in = head.get("name") or [""] * 4
    if isinstance(names_in, list) and players == 3 and len(names_in) == 4 and not names_in[3]:
        names_in = names_in[:3]  # tenhou.net/6 keeps four seats; the fourth is empty
    if not isinstance(names_in, list) or len(names_in) != players:
        raise LogError("broken_log", f"a log names {'three' if players == 3 else 'four'} players")
    ref = head.get("ref")
    log_id = ref if isinstance(ref, str) and TENHOU_ID.fullmatch(ref) else fallback_id
    raw_kyoku = [k for o in objects for k in o["log"]]
    if not raw_kyoku:
        raise LogError("truncated_log", "the log holds no hand")
    kyoku = []
    for i, raw in enumerate(raw_kyoku):
        nxt = raw_kyoku[i + 1] if i + 1 < len(raw_kyoku) else None
        try:
            kyoku.append(_json_kyoku(raw, nxt, players))
        except LogError as err:
            raise LogError(err.code, f"hand {i + 1}: {err.message}") from None
        except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError):
            # The shapes a kyoku can be damaged into: a number that is text or
            # infinite (1e400), a list too short, an object where a list belongs.
            raise LogError("broken_log", f"hand {i + 1} is not a tenhou.net/6 kyoku") from None
    owari = None
    sc = objects[-1].get("sc") or head.get("sc")
    if isinstance(sc, list) and (len(sc) == 8 or len(sc) == 2 * players):
        try:
            owari = Owari(tuple(_whole(sc[2 * i]) for i in range(players)),
                          tuple(_thousandths(str(sc[2 * i + 1])) for i in range(players)))
        except ValueError:
            raise LogError("broken_log", f"sc {str(sc)[:80]} is not {players} scores and points") from None
    quirks: tuple[str, ...] = ()
    if owari is not None and kyoku:
        repaired = _sticks_left_out(kyoku[-1], owari)
        if repaired is not None:
            kyoku[-1], quirks = repaired, ("sticks_left_out",)
    _check_continuity(kyoku)
    return TenhouLog(log_id, "tenhou6", rules, tuple(str(n) for n in names_in), tuple(kyoku), owari,
                     disp, None, special, quirks)


def _sticks_left_out(k: Kyoku, owari: Owari) -> Kyoku | None:
    """The last hand with the riichi sticks its deltas leave out given to the winner, or ``None``.

    A converter slip seen in one Mahjong Soul game (mjai-reviewer3p
    kokushi_peinuki.json): the last win's deltas leave out the loser's riichi
    stick, while ``sc`` counts it. Repaired only when ``sc`` proves it: the end
    scores equal the start plus the deltas with the missing sticks to the
    winner nearest the discarder, and every earlier hand is untouched.
    """
    if k.kind != "win" or not k.wins or k.sticks + len(k.riichi) == 0:
        return None
    missing = (k.sticks + len(k.riichi)) * RIICHI_STICK - sum(k.deltas)
    if missing <= 0 or missing % RIICHI_STICK:
        return None
    loser = k.wins[0].loser
    nearest = min(k.wins, key=lambda w: (w.winner - (loser if loser is not None else w.winner)) % len(k.deltas))
    deltas = [d + (missing if seat == nearest.winner else 0) for seat, d in enumerate(k.deltas)]
    after = tuple(s + d - (RIICHI_STICK if seat in k.riichi else 0)
                  for seat, (s, d) in enumerate(zip(k.start_scores, deltas, strict=True)))
    if after != owari.scores:
        return None
    wins = tuple(replace(w, deltas=tuple(d + (missing if seat == w.winner else 0) for seat, d in enumerate(w.deltas)))
                 if w is nearest else w for w in k.wins)
    return replace(k, wins=wins, deltas=tuple(deltas))


def _whole(value: Any) -> int:
    """A number of the log that must be whole: 250, not 250.5, "x" or 1e400 (ValueError)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or (
        isinstance(value, float) and not value.is_integer()  # also inf and nan
    ):
        raise ValueError(f"{value!r} is not a whole number")
    return int(value)


def _tokens(draws: Sequence[Any], discards: Sequence[Any], where: str) -> None:
    for t in draws:
        if isinstance(t, int):
            _check_code(t, where)
        elif not isinstance(t, str) or not re.fullmatch(r"(\d\d)*[cpm](\d\d)+", t):
            raise LogError("invalid_tiles", f"{t!r} is not a draw or call ({where})")
    for t in discards:
        if isinstance(t, int):
            if t not in (0, 60):
                _check_code(t, where)
        elif not isinstance(t, str) or not re.fullmatch(r"r\d\d|f44|(\d\d)*[ak](\d\d)+", t):
            raise LogError("invalid_tiles", f"{t!r} is not a discard, riichi or kan ({where})")


def _pairs(token: str) -> tuple[list[int], int, int]:
    """A call string: (its tiles, the tile after the letter, the letter's position in tiles)."""
    letter = re.search(r"[cpmak]", token)
    assert letter is not None
    digits = token[:letter.start()] + token[letter.start() + 1:]
    tiles = [int(digits[i:i + 2]) for i in range(0, len(digits), 2)]
    for t in tiles:
        _check_code(t, token)
    at = letter.start() // 2
    return tiles, tiles[at], at


def _take(hand: list[int], code: int, where: str) -> None:
    if code not in hand:
        raise LogError("invalid_tiles", f"{where}: tile {_notation([code])} is not in the hand")
    hand.remove(code)



def _play_seat(haipai: Sequence[int], draws: Sequence[Any], discards: Sequence[Any], seat: int
               ) -> tuple[list[int], list[tuple[str, list[int]]], int | None, Any, int]:
    """Run one seat's tiles through its draws and discards.

    Returns the concealed tiles left, the melds, the last drawn tile still in hand
    (``None`` if the seat discarded after its last draw), the last discard token
    and the North tiles set aside (kita, ``"f44"``: the next draw replaces it).
    """
    where = f"seat {seat}"
    hand = [_check_code(t, where) for t in haipai]
    melds: list[tuple[str, list[int]]] = []
    last_draw: int | None = None
    last_discard: Any = None
    kita = 0
    for i in range(max(len(draws), len(discards))):
        if i < len(draws):
            t = draws[i]
            if isinstance(t, int):
                hand.append(t)
                last_draw = t
            else:
                tiles, called, at = _pairs(t)
                own = list(tiles)
                own.remove(called)
                for c in own:
                    _take(hand, c, where)
                kind = "chi" if "c" in t else "pon" if "p" in t else "kan"
                melds.append((kind, tiles))
                last_draw = None
        if i < len(discards):
            t = discards[i]
            last_discard = t
            if t == 0:
                continue
            if t == "f44":
                _take(hand, 44, where)
                kita += 1
                last_draw = None
                continue
            if isinstance(t, str) and t.startswith("r"):
                t = int(t[1:])
            if isinstance(t, int):
                code = last_draw if t == 60 else t
                if code is None:
                    raise LogError("invalid_tiles", f"{where}: tsumogiri with no drawn tile")
                _take(hand, code, where)
            elif "a" in t:
                tiles, _, _ = _pairs(t)
                for c in tiles:
                    _take(hand, c, where)
                melds.append(("ankan", tiles))
            else:  # "k": the added tile joins the pon of that kind
                tiles, added, _ = _pairs(t)
                _take(hand, added, where)
                for j, (kind, mt) in enumerate(melds):
                    if kind == "pon" and _plain(mt[0]) == _plain(added):
                        melds[j] = ("shouminkan", [*mt, added])
                        break
                else:
                    raise LogError("invalid_tiles", f"{where}: an added kan with no pon of {_notation([added])}")
            last_draw = None
    return hand, melds, last_draw, last_discard, kita


def _discard_tile(token: Any, draws: Sequence[Any], index: int) -> int:
    """The tile a discard token let go (for the winning tile of a ron)."""
    if isinstance(token, str) and token.startswith("r"):
        token = int(token[1:])
    if token == 60:
        drawn = draws[index]
        if not isinstance(drawn, int):
            raise LogError("invalid_tiles", "a tsumogiri after a call")
        return drawn
    if isinstance(token, int) and token:
        return token
    if isinstance(token, str) and "k" in token:
        return _pairs(token)[1]  # chankan: the added tile
    if token == "f44":
        return 44  # a ron on a kita (three players)
    if isinstance(token, str) and "a" in token:
        return _pairs(token)[1]  # kokushi robbing a closed kan (Mahjong Soul)
    raise LogError("invalid_tiles", f"the winning tile cannot come from {token!r}")


def _score_value(text: str, yaku: Sequence[str], dealer: bool | None = None) -> tuple[int, int | None, int]:
    """(han, fu, yakuman) from a score string and the yaku list.

    A yakuman's count comes from the points when the winner's role is known:
    Mahjong Soul's 13-sided kokushi (国士無双十三面待ち) is one yaku name but
    a double yakuman, 64,000 for a non-dealer ron.
    """
    m = _SCORE_RE.match(text.strip())
    if not m:
        raise LogError("broken_log", f"score {text!r} is not a Tenhou score string")
    han, yakuman = _yaku_han(yaku)
    if m.group("fu") and m.group("han"):
        han = int(m.group("han"))
        return han, int(m.group("fu")) if han < 5 else None, 0
    if m.group("han"):  # our own export of a hand kept without its yaku
        return int(m.group("han")), None, 0
    if yakuman or m.group("limit") == "役満" and not han:
        if m.group("limit") == "役満" and dealer is not None:
            # ron 32,000 (dealer 48,000), tsumo 8000-16000 (dealer 16000∀) per yakuman
            unit, amount = (16000, int(m.group("a"))) if m.group("all") else (
                (16000, int(m.group("b"))) if m.group("b") else (48000 if dealer else 32000, int(m.group("a"))))
            if amount % unit == 0 and amount // unit > 0:
                return 0, None, amount // unit
        return 0, None, max(yakuman, 1)
    return han, None, 0


def _seat_values(values: Sequence[Any], players: int, what: str) -> tuple[int, ...]:
    """Per-seat numbers of a kyoku: a three-player log may keep a fourth, empty seat (0)."""
    if players == 3 and len(values) == 4:
        if values[3]:
            raise LogError("broken_log", f"{what} gives the empty fourth seat {values[3]!r}")
        values = values[:3]
    if len(values) != players:
        raise LogError("broken_log", f"{what} holds {len(values)} seats, not {players}")
    return tuple(int(x) for x in values)


def _json_kyoku(raw: Sequence[Any], nxt: Sequence[Any] | None, players: int = 4) -> Kyoku:
    # Three-player logs keep four seats (the fourth empty) or, from some converters, three.
    width = 3 if players == 3 and isinstance(raw, list) and len(raw) == 14 else 4
    if not isinstance(raw, list) or len(raw) < 5 + 3 * width:
        raise LogError("broken_log", "a kyoku is an array of 17 elements (three-player logs may have 14)")
    (rnd, honba, sticks) = raw[0]
    if len(raw[1]) != width:
        raise LogError("broken_log", f"a kyoku holds {len(raw[1])} scores, not {width}")
    start = _seat_values(raw[1], players, "the start scores")
    for name, value in (("round", rnd), ("honba", honba), ("sticks", sticks)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise LogError("broken_log", f"{name} {value!r} is not a count")
    dora = tuple(_notation([_check_code(t, "dora")]) for t in raw[2])
    ura = tuple(_notation([_check_code(t, "ura")]) for t in raw[3])
    seats = [(raw[4 + 3 * s], raw[5 + 3 * s], raw[6 + 3 * s]) for s in range(width)]
    if players == 3 and width == 4:
        if any(seats[3]):
            raise LogError("broken_log", "the empty fourth seat of a three-player log holds tiles")
        seats = seats[:3]
    if players == 3 and any(_plain(t) in range(12, 19) for s in seats for t in s[0] if isinstance(t, int)):
        raise LogError("invalid_tiles", "a three-player hand holds 2m-8m, which the 108-tile set has not")
    for s, (haipai, draws, discards) in enumerate(seats):
        if len(haipai) not in (0, 13):  # 0: a seat whose tiles were not kept (our own export)
            raise LogError("invalid_tiles", f"seat {s} starts with {len(haipai)} tiles, not 13")
        for t in haipai:
            _check_code(t, f"seat {s}'s starting hand")
        _tokens(draws, discards, f"seat {s}")
    result = raw[4 + 3 * width]
    name = result[0]
    dealer = rnd % 4  # three players keep the four-player numbering: S1 is 4 (sanma.md §5)
    if dealer >= players:
        raise LogError("broken_log", f"round {rnd} does not exist with three players")
    riichi_turns = {s: [i for i, t in enumerate(seats[s][2]) if isinstance(t, str) and t.startswith("r")]
                    for s in range(players)}
    riichi = {s for s, turns in riichi_turns.items() if turns}
    base = dict(round=rnd, honba=honba, sticks=sticks, dealer=dealer, start_scores=start, dora=dora)
    if name == "和了":
        pairs = result[1:]
        if not pairs or len(pairs) % 2:
            raise LogError("broken_log", "a win lists (deltas, info) pairs")
        wins = []
        total = [0] * players
        for j in range(0, len(pairs), 2):
            deltas, info = pairs[j], pairs[j + 1]
            who, from_who, pao_who, score = info[0], info[1], info[2], info[3]
            yaku = tuple(str(y) for y in info[4:])
            han, fu, yakuman = _score_value(score, yaku, dealer=who == dealer)
            if not (isinstance(who, int) and isinstance(from_who, int) and 0 <= who < players
                    and 0 <= from_who < players):
                raise LogError("broken_log", f"a win names seats {who!r} and {from_who!r}, not 0-{players - 1}")
            kept = bool(seats[who][0])
            hand, melds, last_draw, _, kita = _play_seat(*seats[who], seat=who)
            l_draws, l_discards = seats[from_who][1], seats[from_who][2]
            if who != from_who and riichi_turns[from_who] and riichi_turns[from_who][-1] == len(l_discards) - 1:
                riichi.discard(from_who)  # a riichi whose discard is ronned pays no stick
            win_tile: int | None = None
            if kept and who == from_who:
                if last_draw is None:
                    raise LogError("invalid_tiles", f"seat {who} won by tsumo without a drawn tile")
                win_tile = last_draw
            elif kept:
                if not l_discards:
                    raise LogError("invalid_tiles", f"seat {from_who} dealt in without a discard")
                win_tile = _discard_tile(l_discards[-1], l_draws, len(l_discards) - 1)
                hand = [*hand, win_tile]
            if kept and len(hand) + 3 * len(melds) != 14:
                raise LogError("invalid_tiles", f"seat {who}'s winning hand is not 14 tiles")
            win = WinResult(
                winner=who, loser=None if who == from_who else from_who, han=han, fu=fu, yakuman=yakuman,
                pao=pao_who if pao_who != who else None, yaku=yaku, tiles=_notation(hand) if kept else "",
                melds=tuple(sorted(((kind, _notation(t)) for kind, t in melds), key=_meld_key)),
                win_tile=_notation([win_tile]) if win_tile else "",
                deltas=_seat_values(deltas, players, "a win's deltas"), kita=kita,
            )
            if fu is None and not yakuman and han < 5:
                win = _with_fu(win, score, rnd, dealer, players)
            wins.append(win)
            total = [a + b for a, b in zip(total, win.deltas, strict=True)]
        return Kyoku(**base, kind="win", wins=tuple(wins), riichi=tuple(sorted(riichi)), ura=ura,
                     deltas=tuple(total))  # type: ignore[arg-type]
    if name in _JSON_ABORTS:
        return Kyoku(**base, kind="abort", abort=str(_JSON_ABORTS[name]), riichi=tuple(sorted(riichi)),
                     deltas=(0,) * players)
    if name in _JSON_DRAWS:
        deltas = _seat_values(result[1], players, "the draw's deltas") if len(result) > 1 else (0,) * players
        kept = nxt is not None and nxt[0][0] == rnd
        if name == "流し満貫":
            nagashi = tuple(s for s in range(players) if deltas[s] > 0)
            tenpai = sorted(riichi | ({dealer} if kept else set()))
        else:
            nagashi = ()
            if name == "全員聴牌" or (not any(deltas) and (riichi or kept) and name == "流局"):
                tenpai = list(range(players))
            else:
                tenpai = [s for s in range(players) if deltas[s] > 0]
        return Kyoku(**base, kind="draw", tenpai=tuple(tenpai), nagashi=nagashi, riichi=tuple(sorted(riichi)),
                     deltas=deltas)  # type: ignore[arg-type]
    raise LogError("broken_log", f"unknown result {name!r}")


_SITUATION_YAKU = {
    "立直": "riichi", "両立直": "double_riichi", "一発": "ippatsu", "海底摸月": "haitei", "河底撈魚": "houtei",
    "嶺上開花": "rinshan", "槍槓": "chankan", "天和": "tenhou", "地和": "chiihou",
}
_MIN_LIMIT_FU = {3: 70, 4: 40}  # the smallest fu that reaches mangan below 5 han


def _with_fu(win: WinResult, score: str, rnd: int, dealer: int, players: int = 4) -> WinResult:
    """Fill the fu of a limit hand below 5 han from the tile analysis, else the smallest that fits."""
    fu = _MIN_LIMIT_FU.get(win.han)
    if not win.tiles:
        if fu is None:
            raise LogError("broken_log", f"score {score!r} at {win.han} han is not a limit hand")
        return replace(win, fu=fu)
    try:
        hand = Hand.parse(win.tiles, win=win.win_tile, melds=list(win.melds))
        winds = (27 + (win.winner - dealer) % players, 27 + rnd // 4)
        flags = {flag: True for name, flag in _SITUATION_YAKU.items() if any(y.startswith(name + "(") for y in win.yaku)}
        sit = Situation(tsumo=win.tsumo, seat=winds[0], round=winds[1], **flags)
        result = analyse_hand(get_ruleset("tenhou"), hand, sit)
        if result.fu and result.fu >= (fu or 0):
            fu = result.fu
    except ScoringError:
        pass  # the tile analysis cannot read it: keep the smallest fu that pays the limit
    if fu is None:
        raise LogError("broken_log", f"score {score!r} at {win.han} han is not a limit hand")
    return replace(win, fu=fu)
