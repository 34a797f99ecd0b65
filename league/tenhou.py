"""Real game logs from Tenhou: read them, replay them through ``scoring``, write them back.

No Django here (standard library and ``scoring`` only), so every function runs
without a database. The formats are documented in ../shared/realdata/FORMATS.md;
where that note and a real file disagree, the file wins.

Reading. :func:`read_log` takes the bytes of a Tenhou mjlog XML file (plain or
gzip-compressed, told apart by the gzip magic bytes ``1f 8b``, never by the file
name) or of a tenhou.net/6 JSON file (one object, one kyoku per line, or a list
of objects) and returns a :class:`TenhouLog` of frozen dataclasses. A log that
cannot be read is refused with :class:`LogError`, a ``ScoringError`` whose
``code`` says why: ``broken_log`` (not XML/JSON, or not a Tenhou log),
``truncated_log`` (a hand or the game has no end), ``three_player``,
``invalid_tiles``, ``deltas_do_not_add_up`` (a hand's deltas do not balance,
or a hand does not start with the scores the previous one left),
``incomplete_log`` (a fragment that does not start at East 1 with 25,000 each).

What a hand keeps. Winners, loser, han, fu, yakuman, pao, Tenhou's yaku list,
the winning hand (concealed tiles with the winning tile, in the project's
notation ``123m0p`` where ``0`` is a red five, melds as ``{"type", "tiles"}``,
the winning tile), dora and ura indicators, riichi sticks paid in the hand,
tenpai and nagashi seats and the abort reason. tenhou.net/6 JSON does not say
who was tenpai: a seat paid noten money is noten, a seat receiving it is tenpai;
with no payments, everybody is tenpai if anybody declared riichi or the dealer
kept the deal, else nobody. Under a nagashi mangan the payments hide it, so the
tenpai seats are the riichi seats plus the dealer when the next hand keeps the
same dealer. Limit hands in JSON have no fu: below 5 han the fu comes from the
tile analysis of the kept hand, else the smallest fu that reaches the limit.

Checking. :func:`check_log` replays the game under the log's ruleset
(``tenhou``, ``tenhou-east`` for the east-only lobbies, ``mahjong-soul`` for
Mahjong Soul conversions, which ``rule.disp`` gives away) and compares every
hand: round, honba, sticks, start scores and deltas. The log's deltas leave out
the riichi deposits while ours include them, so ours get 1,000 back per riichi
stick paid in the hand before comparing. Then the end scores and points with
``owari`` (XML) or ``sc`` (JSON).

Historical variants. Tenhou changed its rules twice within our logs:

* before August 2009 the uma was +10/+5/-5/-10 (:data:`OLD_UMA`);
* before mid-2010 there was no tenpai-yame (the all-last dealer played on
  after a tenpai draw while first).

The rule applied: replay under the preset; when the replay refuses a hand with
``game_over`` right after the game ended by tenpai-yame, replay with
``{"tenpai_yame": "none"}`` (variant ``no_tenpai_yame``); when the end points do
not fit the preset's uma but fit the old one, add ``{"uma": [10000, 5000,
-5000, -10000]}`` (variant ``old_uma``). A variant is taken only for a log not
dated after its cutoff (the date is in the Tenhou id; an undated log may take
it), and :class:`CheckReport` records which were taken.

In our logs that is ``old_uma`` for the six 2009 east-only games (four fastmaj
games of July 2009, ``bye.xml``, ``shuffle.xml``) and ``no_tenpai_yame`` for five
(fastmaj 2009-08-27, 2009-08-28, 2010-03-04, 2010-06-01 and ``bug1.xml``).

Special lobbies (``GO type`` bits above 0xFF: chip, custom rules) import under
the plain preset, and their discrepancies are reported with ``special`` set;
one that starts with other than 25,000 each is played from its own start
(variant ``special_start``) so that its hands can still be compared.

Normalised so that the XML and the JSON copy of a game read the same: melds
in tile order (the mjlog lists the last call first), riichi seats in seat
order, ``裏ドラ(0飜)`` left out of the yaku (as Tenhou's own JSON does), and
fu kept only below 5 han, where it changes the payment.

Writing. :func:`export_tenhou6` writes a GAME RECORD back as tenhou.net/6 JSON:
start state, results with deltas and score strings, the dora and ura
indicators, and the kept winning hands as a short tile flow (the haipai, the
calls, the riichi and the winning draw or discard) that :func:`read_log` turns
back into the same tiles. Discards that did not matter are not invented.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scoring.errors import ScoringError
from scoring.game import (
    Abort,
    AbortReason,
    Draw,
    GameRecord,
    GameResult,
    HandInput,
    Outcome,
    PlayedHand,
    Ron,
    Tsumo,
    Win,
    replay,
    round_label,
)
from scoring.hand import Hand, Situation, analyse_hand
from scoring.payment import hand_payment
from scoring.rules import RIICHI_STICK, Ruleset, Yame, get_ruleset

OLD_UMA = (10000, 5000, -5000, -10000)
OLD_UMA_UNTIL = "2009080100"  # uma +10/+5/-5/-10 on logs dated before this (YYYYMMDDHH)
NO_TENPAI_YAME_UNTIL = "2010080100"  # "mid-2010": no tenpai-yame on logs dated before this

TENHOU_ID = re.compile(r"(\d{10}gm-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8})")

# -- errors and values -------------------------------------------------------


class LogError(ScoringError):
    """A log that cannot be read or turned into a game; nothing of it was kept."""


@dataclass(frozen=True)
class WinResult:
    """One winner of a hand, as logged. ``loser`` is ``None`` for a tsumo."""

    winner: int
    loser: int | None
    han: int
    fu: int | None
    yakuman: int
    pao: int | None
    yaku: tuple[str, ...]
    tiles: str  # concealed tiles with the winning tile, "123m0p..." (0 = red five)
    melds: tuple[tuple[str, str], ...]  # (type, tiles): chi, pon, kan, ankan, shouminkan
    win_tile: str
    deltas: tuple[int, int, int, int]  # as logged: honba and sticks in, riichi deposits out

    @property
    def tsumo(self) -> bool:
        return self.loser is None

    @property
    def riichi(self) -> bool:
        """The winner had declared riichi (so the ura indicators count for this hand)."""
        return any(y.split("(")[0] in _RIICHI_YAKU for y in self.yaku)


@dataclass(frozen=True)
class Kyoku:
    """One hand of the log. ``deltas`` are the logged ones (riichi deposits left out)."""

    round: int  # 0 = E1 ... 11 = W4
    honba: int
    sticks: int  # riichi sticks on the table at the start
    dealer: int
    start_scores: tuple[int, int, int, int]
    kind: str  # "win", "draw" or "abort"
    wins: tuple[WinResult, ...] = ()
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    abort: str | None = None  # an AbortReason value
    riichi: tuple[int, ...] = ()  # riichi sticks paid in this hand
    dora: tuple[str, ...] = ()
    ura: tuple[str, ...] = ()
    deltas: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def round_label(self) -> str:
        return round_label(self.round)


@dataclass(frozen=True)
class Owari:
    """Tenhou's own end of game: scores after the leftover sticks, points in thousandths."""

    scores: tuple[int, int, int, int]
    points: tuple[int, int, int, int]


@dataclass(frozen=True)
class TenhouLog:
    log_id: str
    format: str  # "mjlog" or "tenhou6"
    rules: str | dict[str, Any]  # a ruleset spec: "tenhou", "tenhou-east", "mahjong-soul" (+ overrides)
    names: tuple[str, str, str, str]
    kyoku: tuple[Kyoku, ...]
    owari: Owari | None = None
    rule_disp: str = ""
    lobby_type: int | None = None  # mjlog GO type
    special: bool = False  # a special lobby: imported, its discrepancies reported

    @property
    def date(self) -> str | None:
        """YYYYMMDDHH from the Tenhou id, when the log has one."""
        m = TENHOU_ID.match(self.log_id)
        return m.group(1)[:10] if m else None


@dataclass(frozen=True)
class Discrepancy:
    log_id: str
    round: str  # "E2", or "end" for the end of the game
    honba: int | None
    what: str
    ours: Any
    theirs: Any


@dataclass(frozen=True)
class CheckReport:
    log_id: str
    rules: str | dict[str, Any]  # the spec replayed, variant overrides included
    variant: tuple[str, ...]  # historical variants taken: "no_tenpai_yame", "old_uma"
    hands: int
    wins: int
    special: bool
    discrepancies: tuple[Discrepancy, ...]

    @property
    def ok(self) -> bool:
        return not self.discrepancies


@dataclass(frozen=True)
class ImportedGame:
    """A log turned into a game: the record (with the variant's overrides), the names, the check."""

    log: TenhouLog
    record: GameRecord
    names: tuple[str, str, str, str]
    report: CheckReport


# -- tiles ---------------------------------------------------------------------

_RIICHI_YAKU = frozenset({"立直", "両立直", "Riichi", "Double Riichi"})
_SUIT_LETTERS = "mpsz"
_VALID_CODES = frozenset([*range(11, 20), *range(21, 30), *range(31, 40), *range(41, 48), 51, 52, 53])
_RED_IDS = {16: 51, 52: 52, 88: 53}


def _check_code(code: Any, where: str) -> int:
    if isinstance(code, bool) or not isinstance(code, int) or code not in _VALID_CODES:
        raise LogError("invalid_tiles", f"{code!r} is not a tile code ({where})")
    return code


def _plain(code: int) -> int:
    """51/52/53 (red fives) as 15/25/35."""
    return (code - 50) * 10 + 5 if code > 50 else code


def _sort_key(code: int) -> tuple[int, int]:
    return (_plain(code), code > 50)


def _notation(codes: Sequence[int]) -> str:
    """Tile codes to ``123m0p`` notation, in order.

    >>> _notation([15, 51, 16, 21, 41, 47])
    '506m1p17z'
    """
    groups: dict[int, list[str]] = {}
    for code in sorted(codes, key=_sort_key):
        suit = code // 10 - 1 if code < 50 else code - 51
        groups.setdefault(suit, []).append("0" if code > 50 else str(code % 10))
    return "".join("".join(digits) + _SUIT_LETTERS[suit] for suit, digits in sorted(groups.items()))


def _codes(notation: str) -> list[int]:
    """``123m0p`` notation back to tile codes; refuses nonsense with ``invalid_tiles``."""
    out: list[int] = []
    pending: list[int] = []
    if not isinstance(notation, str):
        raise LogError("invalid_tiles", f"tiles must be text like '123m', not {notation!r}")
    for ch in notation:
        if ch.isdigit():
            pending.append(int(ch))
            continue
        suit = _SUIT_LETTERS.find(ch)
        if suit < 0 or not pending:
            raise LogError("invalid_tiles", f"{notation!r} is not tile notation")
        for d in pending:
            if suit == 3 and not 1 <= d <= 7:
                raise LogError("invalid_tiles", f"'{d}z' in {notation!r} is not a tile")
            out.append(51 + suit if d == 0 and suit < 3 else (suit + 1) * 10 + d)
        pending = []
    if pending:
        raise LogError("invalid_tiles", f"{notation!r} has digits with no suit letter")
    for code in out:
        _check_code(code, notation)
    return out


def _mjlog_code(tile_id: int, aka: bool) -> int:
    if not 0 <= tile_id < 136:
        raise LogError("invalid_tiles", f"{tile_id} is not an mjlog tile id (0-135)")
    if aka and tile_id in _RED_IDS:
        return _RED_IDS[tile_id]
    kind = tile_id // 4
    if kind < 27:
        return (kind // 9 + 1) * 10 + kind % 9 + 1
    return 41 + kind - 27


# -- yaku ------------------------------------------------------------------------

YAKU_NAMES = (
    "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九", "一盃口",
    "自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南", "場風 西", "場風 北",
    "役牌 白", "役牌 發", "役牌 中", "両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順", "三色同刻",
    "三槓子", "対々和", "三暗刻", "小三元", "混老頭", "二盃口", "純全帯幺九", "混一色", "清一色", "人和",
    "天和", "地和", "大三元", "四暗刻", "四暗刻単騎", "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈",
    "国士無双", "国士無双１３面", "大四喜", "小四喜", "四槓子", "ドラ", "裏ドラ", "赤ドラ",
)
_YAKU_RE = re.compile(r"^(.*)\((\d+)飜\)$|^(.*)\(役満\)$")
_SCORE_RE = re.compile(
    r"^(?:(?P<fu>\d+)符)?(?:(?P<han>\d+)飜)?(?P<limit>満貫|跳満|倍満|三倍満|数え役満|役満|[A-Za-z ]+?)?\s*"
    r"(?P<a>\d+)(?:-(?P<b>\d+))?点(?P<all>∀)?$"
)
_LIMIT_HAN = {"満貫": 5, "跳満": 6, "倍満": 8, "三倍満": 11, "役満": 13}


def _yaku_han(yaku: Sequence[str]) -> tuple[int, int]:
    """(han, yakuman count) of a tenhou.net/6 yaku list."""
    han = yakuman = 0
    for text in yaku:
        m = _YAKU_RE.match(text)
        if not m:
            raise LogError("broken_log", f"yaku {text!r} is not 'name(N飜)' or 'name(役満)'")
        if m.group(2) is not None:
            han += int(m.group(2))
        else:
            yakuman += 1
    return han, yakuman


# -- reading: entry point ----------------------------------------------------------


# The largest real log here unpacks to about 120 KB; 20 MB leaves room for
# any real game while refusing a small file that unpacks without end.
MAX_UNPACKED = 20 * 1024 * 1024


def _gunzip(raw: bytes) -> bytes:
    """Decompress with a ceiling, so a gzip bomb is refused, not unpacked."""
    stream = gzip.GzipFile(fileobj=io.BytesIO(raw))
    try:
        out = stream.read(MAX_UNPACKED + 1)
    except (OSError, EOFError) as err:
        raise LogError("truncated_log", f"the gzip stream is damaged or cut off: {err}") from None
    if len(out) > MAX_UNPACKED:
        raise LogError("broken_log", f"the log unpacks to more than {MAX_UNPACKED // 1024 // 1024} MB")
    return out


def read_log(data: bytes | str, filename: str | None = None) -> TenhouLog:
    """Read one log: mjlog XML (plain or gzip) or tenhou.net/6 JSON.

    ``filename`` only helps find the log id (a Tenhou id in the name).

    >>> read_log(b"<mjloggm ver='2.3'><GO type='185'/></mjloggm>")
    Traceback (most recent call last):
    ...
    league.tenhou.LogError: three-player logs (GO type 185) are not supported yet
    """
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LogError("broken_log", "the log is neither gzip nor UTF-8 text") from None
    stripped = text.lstrip()
    if not stripped:
        raise LogError("broken_log", "the log is empty")
    fallback_id = _id_from_name(filename) or hashlib.sha256(raw).hexdigest()
    if stripped.startswith("<"):
        return _read_mjlog(stripped, fallback_id)
    if stripped[0] in "[{":
        return _read_tenhou6(stripped, fallback_id)
    raise LogError("broken_log", "the log is neither mjlog XML nor tenhou.net/6 JSON")


def read_log_file(path: str | Path) -> TenhouLog:
    """:func:`read_log` on a file, with its name as a hint for the log id."""
    p = Path(path)
    return read_log(p.read_bytes(), p.name)


def _id_from_name(filename: str | None) -> str | None:
    if not filename:
        return None
    m = TENHOU_ID.search(Path(filename).name)
    return m.group(1) if m else None


# -- reading: mjlog XML -------------------------------------------------------------

_MJLOG_ABORTS = {
    "yao9": AbortReason.KYUUSHU_KYUUHAI,
    "reach4": AbortReason.SUUCHA_RIICHI,
    "ron3": AbortReason.SANCHAHOU,
    "kan4": AbortReason.SUUKAIKAN,
    "kaze4": AbortReason.SUUFON_RENDA,
}


def _ints(text: str | None, where: str) -> list[int]:
    if not text:
        return []
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise LogError("broken_log", f"{where} is not a list of numbers: {text!r}") from None


def _decode_meld(m: int, aka: bool) -> tuple[str, str]:
    """An mjlog meld code to (type, tiles notation); FORMATS.md section 7.3."""
    if m & 0x4:  # chi
        t = (m >> 10) // 3
        base = (t // 7) * 9 + t % 7
        ids = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        return "chi", _notation([_mjlog_code(i, aka) for i in ids])
    if m & 0x18:  # pon or added kan
        t = (m >> 9) // 3
        unused = (m >> 5) & 3
        ids = [t * 4 + i for i in range(4)]
        if m & 0x8:
            ids.remove(t * 4 + unused)
            return "pon", _notation([_mjlog_code(i, aka) for i in ids])
        return "shouminkan", _notation([_mjlog_code(i, aka) for i in ids])
    if m & 0x20:
        raise LogError("three_player", "a north-tile meld (nuki) is three-player mahjong")
    kind = (m >> 8) // 4
    ids = [kind * 4 + i for i in range(4)]
    return ("ankan" if m & 3 == 0 else "kan"), _notation([_mjlog_code(i, aka) for i in ids])


def _mjlog_rules(go_type: int) -> tuple[str | dict[str, Any], bool]:
    if go_type & 0x10:
        raise LogError("three_player", f"three-player logs (GO type {go_type}) are not supported yet")
    preset = "tenhou" if go_type & 0x08 else "tenhou-east"
    overrides: dict[str, Any] = {}
    if go_type & 0x02:
        overrides["aka_dora"] = 0
    if go_type & 0x04:
        overrides["open_tanyao"] = False
    spec: str | dict[str, Any] = {"preset": preset, "overrides": overrides} if overrides else preset
    return spec, go_type > 0xFF


def _read_mjlog(text: str, fallback_id: str) -> TenhouLog:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as err:
        raise LogError("broken_log", f"the mjlog XML cannot be parsed ({err}); the file may be cut off") from None
    if root.tag != "mjloggm":
        raise LogError("broken_log", f"not a Tenhou mjlog (root element <{root.tag}>)")
    go = root.find("GO")
    if go is None:
        raise LogError("broken_log", "the mjlog has no <GO> (lobby type)")
    go_type = _ints(go.get("type"), "GO type")[0] if go.get("type") else 0
    rules, special = _mjlog_rules(go_type)
    aka = not go_type & 0x02
    log_id = fallback_id
    shuffle = root.find("SHUFFLE")
    if shuffle is not None and TENHOU_ID.fullmatch(shuffle.get("ref", "")):
        log_id = shuffle.get("ref", "")
    names = ["", "", "", ""]
    seen_names = False
    kyoku: list[Kyoku] = []
    current: dict[str, Any] | None = None
    owari: Owari | None = None

    def finish() -> None:
        nonlocal current
        if current is not None:
            kyoku.append(_mjlog_kyoku(current))
            current = None

    for el in root:
        tag = el.tag
        if tag == "UN" and not seen_names:
            if el.get("n3") is None and el.get("n0") is not None and el.get("n2") is not None:
                raise LogError("three_player", "the log names three players")
            names = [urllib.parse.unquote(el.get(f"n{i}", "")) for i in range(4)]
            seen_names = True
        elif tag == "INIT":
            if current is not None and not current["results"]:
                raise LogError("truncated_log", f"hand {len(kyoku) + 1} has no result (the log is cut off)")
            finish()
            seed = _ints(el.get("seed"), "INIT seed")
            ten = _ints(el.get("ten"), "INIT ten")
            if len(seed) < 6 or len(ten) != 4:
                raise LogError("three_player" if len(ten) == 3 else "broken_log",
                               "an <INIT> needs a six-part seed and four scores")
            current = {
                "round": seed[0], "honba": seed[1], "sticks": seed[2], "dealer": int(el.get("oya", "0")),
                "scores": tuple(t * 100 for t in ten), "riichi": [], "results": [], "aka": aka,
                "dora": [_mjlog_code(seed[5], aka)],
            }
        elif tag == "DORA" and current is not None:
            current["dora"].append(_mjlog_code(_ints(el.get("hai"), "DORA hai")[0], aka))
        elif tag == "REACH" and current is not None:
            if el.get("step") == "2":
                current["riichi"].append(int(el.get("who", "-1")))
        elif tag in ("AGARI", "RYUUKYOKU"):
            if current is None:
                raise LogError("broken_log", f"<{tag}> before any <INIT>")
            current["results"].append(el)
            if el.get("owari"):
                parts = el.get("owari", "").split(",")
                try:
                    scores = tuple(int(parts[2 * i]) * 100 for i in range(4))
                    points = tuple(_thousandths(parts[2 * i + 1]) for i in range(4))
                except (ValueError, IndexError):
                    raise LogError("broken_log", f"owari {el.get('owari')!r} is not scores and points") from None
                owari = Owari(scores, points)  # type: ignore[arg-type]
    if current is None:
        raise LogError("truncated_log" if kyoku or seen_names else "broken_log", "the log holds no hand")
    if not current["results"]:
        raise LogError("truncated_log", f"hand {len(kyoku) + 1} has no result (the log is cut off)")
    finish()
    if owari is None:
        raise LogError("truncated_log", "the log has no end of game (no owari): it is cut off")
    _check_continuity(kyoku)
    return TenhouLog(log_id, "mjlog", rules, tuple(names), tuple(kyoku), owari,  # type: ignore[arg-type]
                     _disp_from_type(go_type), go_type, special)


def _disp_from_type(go_type: int) -> str:
    room = {0x00: "般", 0x80: "上", 0x20: "特", 0xA0: "鳳"}[go_type & 0xA0]
    return ("三" if go_type & 0x10 else "四") + room + ("南" if go_type & 0x08 else "東") + \
        ("" if go_type & 0x04 else "喰") + ("" if go_type & 0x02 else "赤") + ("速" if go_type & 0x40 else "")


def _thousandths(text: str) -> int:
    """'-22.0' -> -22000, '44' -> 44000, '10.7' -> 10700, without floats."""
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    whole, _, frac = text.lstrip("+-").partition(".")
    return sign * (int(whole) * 1000 + int((frac + "000")[:3]))


def _mjlog_kyoku(cur: dict[str, Any]) -> Kyoku:
    aka = cur["aka"]
    results: list[ET.Element] = cur["results"]
    base = dict(
        round=cur["round"], honba=cur["honba"], sticks=cur["sticks"], dealer=cur["dealer"],
        start_scores=cur["scores"], riichi=tuple(sorted(cur["riichi"])),
    )
    deltas = [0, 0, 0, 0]
    for el in results:
        sc = _ints(el.get("sc"), "sc")
        if len(sc) < 8:
            raise LogError("three_player" if len(sc) == 6 else "broken_log", f"sc {el.get('sc')!r} is not four seats")
        for i in range(4):
            deltas[i] += sc[2 * i + 1] * 100
    if results[0].tag == "RYUUKYOKU":
        kind = results[0].get("type")
        if kind in _MJLOG_ABORTS:
            return Kyoku(**base, kind="abort", abort=str(_MJLOG_ABORTS[kind]), deltas=tuple(deltas),
                         dora=tuple(_notation([c]) for c in cur["dora"]))
        if kind not in (None, "nm"):
            raise LogError("broken_log", f"unknown draw type {kind!r}")
        tenpai = tuple(s for s in range(4) if results[0].get(f"hai{s}") is not None)
        nagashi = tuple(s for s in range(4) if deltas[s] > 0) if kind == "nm" else ()
        return Kyoku(**base, kind="draw", tenpai=tenpai, nagashi=nagashi, deltas=tuple(deltas),
                     dora=tuple(_notation([c]) for c in cur["dora"]))
    wins = []
    dora: tuple[str, ...] = ()
    ura: tuple[str, ...] = ()
    for el in results:
        who, from_who = int(el.get("who", "-1")), int(el.get("fromWho", "-1"))
        if not (0 <= who < 4 and 0 <= from_who < 4):
            raise LogError("broken_log", "an <AGARI> names a seat outside 0-3")
        hai = [_mjlog_code(t, aka) for t in _ints(el.get("hai"), "hai")]
        melds = tuple(_decode_meld(m, aka) for m in _ints(el.get("m"), "m"))
        machi = _ints(el.get("machi"), "machi")
        ten = _ints(el.get("ten"), "ten")
        if len(machi) != 1 or len(ten) < 3:
            raise LogError("broken_log", "an <AGARI> needs machi and ten")
        if len(hai) + 3 * len(melds) != 14:
            raise LogError("invalid_tiles", f"a winning hand of {len(hai)} tiles and {len(melds)} melds is not 14 tiles")
        yaku_pairs = _ints(el.get("yaku"), "yaku")
        yakuman_ids = _ints(el.get("yakuman"), "yakuman")
        yaku: list[str] = []
        han = 0
        for i in range(0, len(yaku_pairs) - 1, 2):
            yid, h = yaku_pairs[i], yaku_pairs[i + 1]
            if not 0 <= yid < len(YAKU_NAMES):
                raise LogError("broken_log", f"unknown yaku id {yid}")
            han += h
            if yid == 53 and h == 0:
                continue  # Tenhou's JSON leaves out 裏ドラ(0飜); so do we, so XML and JSON copies agree
            yaku.append(f"{YAKU_NAMES[yid]}({h}飜)")
        for yid in yakuman_ids:
            if not 0 <= yid < len(YAKU_NAMES):
                raise LogError("broken_log", f"unknown yakuman id {yid}")
            yaku.append(f"{YAKU_NAMES[yid]}(役満)")
        pao = el.get("paoWho")
        sc = _ints(el.get("sc"), "sc")
        dora = tuple(_notation([_mjlog_code(t, aka)]) for t in _ints(el.get("doraHai"), "doraHai"))
        # Only a riichi winner shows the ura indicators; they are the same for the whole hand.
        ura = ura or tuple(_notation([_mjlog_code(t, aka)]) for t in _ints(el.get("doraHaiUra"), "doraHaiUra"))
        wins.append(WinResult(
            winner=who, loser=None if from_who == who else from_who,
            han=0 if yakuman_ids else han, fu=None if yakuman_ids or han >= 5 else ten[0], yakuman=len(yakuman_ids),
            pao=int(pao) if pao is not None and int(pao) != who else None, yaku=tuple(yaku),
            tiles=_notation(hai), melds=tuple(sorted(melds, key=_meld_key)), win_tile=_notation([_mjlog_code(machi[0], aka)]),
            deltas=tuple(sc[2 * i + 1] * 100 for i in range(4)),  # type: ignore[arg-type]
        ))
    return Kyoku(**base, kind="win", wins=tuple(wins), deltas=tuple(deltas), dora=dora, ura=ura)


# -- reading: tenhou.net/6 JSON --------------------------------------------------------

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


def _json_objects(text: str) -> list[Mapping[str, Any]]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        # One object per line (mjx): each line must parse on its own.
        value = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                value.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise LogError("broken_log", f"line {n} is not JSON ({err.msg}); the file may be cut off") from None
    objects = value if isinstance(value, list) else [value]
    if not objects or not all(isinstance(o, Mapping) and isinstance(o.get("log"), list) for o in objects):
        raise LogError("broken_log", "a tenhou.net/6 log is an object with a 'log' list (or one per line)")
    return objects


def _json_rules(disp: str) -> tuple[str | dict[str, Any], bool]:
    east = "東" in disp or "East" in disp
    if disp.startswith("三") or "3-Player" in disp or "三人" in disp:
        raise LogError("three_player", f"three-player logs ({disp}) are not supported yet")
    mahjong_soul = "の間" in disp or "Room" in disp or "Mahjong Soul" in disp
    if mahjong_soul:
        return ({"preset": "mahjong-soul", "overrides": {"length": "east"}} if east else "mahjong-soul"), False
    preset = "tenhou-east" if east else "tenhou"
    overrides: dict[str, Any] = {}
    if disp and "赤" not in disp:
        overrides["aka_dora"] = 0
    if disp and "喰" not in disp:
        overrides["open_tanyao"] = False
    return ({"preset": preset, "overrides": overrides} if overrides else preset), False


def _read_tenhou6(text: str, fallback_id: str) -> TenhouLog:
    objects = _json_objects(text)
    head = objects[0]
    rule = head.get("rule") if isinstance(head.get("rule"), Mapping) else {}
    disp = str(rule.get("disp", ""))
    rules, special = _json_rules(disp)
    names_in = head.get("name") or ["", "", "", ""]
    if not isinstance(names_in, list) or len(names_in) != 4:
        raise LogError("three_player" if isinstance(names_in, list) and len(names_in) == 3 else "broken_log",
                       "a log names four players")
    ref = head.get("ref")
    log_id = ref if isinstance(ref, str) and TENHOU_ID.fullmatch(ref) else fallback_id
    raw_kyoku = [k for o in objects for k in o["log"]]
    if not raw_kyoku:
        raise LogError("truncated_log", "the log holds no hand")
    kyoku = []
    for i, raw in enumerate(raw_kyoku):
        nxt = raw_kyoku[i + 1] if i + 1 < len(raw_kyoku) else None
        try:
            kyoku.append(_json_kyoku(raw, nxt))
        except LogError as err:
            raise LogError(err.code, f"hand {i + 1}: {err.message}") from None
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            raise LogError("broken_log", f"hand {i + 1} is not a tenhou.net/6 kyoku") from None
    _check_continuity(kyoku)
    owari = None
    sc = objects[-1].get("sc") or head.get("sc")
    if isinstance(sc, list) and len(sc) == 8:
        owari = Owari(tuple(int(sc[2 * i]) for i in range(4)),  # type: ignore[arg-type]
                      tuple(_thousandths(str(sc[2 * i + 1])) for i in range(4)))  # type: ignore[arg-type]
    return TenhouLog(log_id, "tenhou6", rules, tuple(str(n) for n in names_in), tuple(kyoku), owari,  # type: ignore[arg-type]
                     disp, None, special)


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
        elif not isinstance(t, str) or not re.fullmatch(r"r\d\d|(\d\d)*[ak](\d\d)+", t):
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


def _meld_key(meld: tuple[str, str]) -> tuple[list[int], str]:
    """Melds in tile order: the mjlog lists them last call first, the JSON first call first."""
    return sorted(_codes(meld[1]), key=_sort_key), meld[0]


def _play_seat(haipai: Sequence[int], draws: Sequence[Any], discards: Sequence[Any], seat: int
               ) -> tuple[list[int], list[tuple[str, list[int]]], int | None, Any]:
    """Run one seat's tiles through its draws and discards.

    Returns the concealed tiles left, the melds, the last drawn tile still in hand
    (``None`` if the seat discarded after its last draw) and the last discard token.
    """
    where = f"seat {seat}"
    hand = [_check_code(t, where) for t in haipai]
    melds: list[tuple[str, list[int]]] = []
    last_draw: int | None = None
    last_discard: Any = None
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
    return hand, melds, last_draw, last_discard


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
    raise LogError("invalid_tiles", f"the winning tile cannot come from {token!r}")


def _score_value(text: str, yaku: Sequence[str]) -> tuple[int, int | None, int]:
    """(han, fu, yakuman) from a score string and the yaku list."""
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
        return 0, None, max(yakuman, 1)
    return han, None, 0


def _json_kyoku(raw: Sequence[Any], nxt: Sequence[Any] | None) -> Kyoku:
    if not isinstance(raw, list) or len(raw) < 17:
        raise LogError("broken_log", "a kyoku is an array of 17 elements (three-player logs have 14)")
    (rnd, honba, sticks), start = raw[0], raw[1]
    if len(start) != 4:
        raise LogError("three_player", "a kyoku holds three scores")
    for name, value in (("round", rnd), ("honba", honba), ("sticks", sticks)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise LogError("broken_log", f"{name} {value!r} is not a count")
    dora = tuple(_notation([_check_code(t, "dora")]) for t in raw[2])
    ura = tuple(_notation([_check_code(t, "ura")]) for t in raw[3])
    seats = [(raw[4 + 3 * s], raw[5 + 3 * s], raw[6 + 3 * s]) for s in range(4)]
    for s, (haipai, draws, discards) in enumerate(seats):
        if len(haipai) not in (0, 13):  # 0: a seat whose tiles were not kept (our own export)
            raise LogError("invalid_tiles", f"seat {s} starts with {len(haipai)} tiles, not 13")
        for t in haipai:
            _check_code(t, f"seat {s}'s starting hand")
        _tokens(draws, discards, f"seat {s}")
    result = raw[16]
    name = result[0]
    dealer = rnd % 4
    riichi_turns = {s: [i for i, t in enumerate(seats[s][2]) if isinstance(t, str) and t.startswith("r")]
                    for s in range(4)}
    riichi = {s for s, turns in riichi_turns.items() if turns}
    base = dict(round=rnd, honba=honba, sticks=sticks, dealer=dealer, start_scores=tuple(int(x) for x in start),
                dora=dora)
    if name == "和了":
        pairs = result[1:]
        if not pairs or len(pairs) % 2:
            raise LogError("broken_log", "a win lists (deltas, info) pairs")
        wins = []
        total = [0, 0, 0, 0]
        for j in range(0, len(pairs), 2):
            deltas, info = pairs[j], pairs[j + 1]
            who, from_who, pao_who, score = info[0], info[1], info[2], info[3]
            yaku = tuple(str(y) for y in info[4:])
            han, fu, yakuman = _score_value(score, yaku)
            if not (isinstance(who, int) and isinstance(from_who, int) and 0 <= who < 4 and 0 <= from_who < 4):
                raise LogError("broken_log", f"a win names seats {who!r} and {from_who!r}, not 0-3")
            kept = bool(seats[who][0])
            hand, melds, last_draw, _ = _play_seat(*seats[who], seat=who)
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
                deltas=tuple(int(d) for d in deltas),  # type: ignore[arg-type]
            )
            if fu is None and not yakuman and han < 5:
                win = _with_fu(win, score, rnd, dealer)
            wins.append(win)
            total = [a + b for a, b in zip(total, win.deltas, strict=True)]
        return Kyoku(**base, kind="win", wins=tuple(wins), riichi=tuple(sorted(riichi)), ura=ura,
                     deltas=tuple(total))  # type: ignore[arg-type]
    if name in _JSON_ABORTS:
        return Kyoku(**base, kind="abort", abort=str(_JSON_ABORTS[name]), riichi=tuple(sorted(riichi)))
    if name in _JSON_DRAWS:
        deltas = tuple(int(d) for d in result[1]) if len(result) > 1 else (0, 0, 0, 0)
        kept = nxt is not None and nxt[0][0] == rnd
        if name == "流し満貫":
            nagashi = tuple(s for s in range(4) if deltas[s] > 0)
            tenpai = sorted(riichi | ({dealer} if kept else set()))
        else:
            nagashi = ()
            if name == "全員聴牌" or (not any(deltas) and (riichi or kept) and name == "流局"):
                tenpai = [0, 1, 2, 3]
            else:
                tenpai = [s for s in range(4) if deltas[s] > 0]
        return Kyoku(**base, kind="draw", tenpai=tuple(tenpai), nagashi=nagashi, riichi=tuple(sorted(riichi)),
                     deltas=deltas)  # type: ignore[arg-type]
    raise LogError("broken_log", f"unknown result {name!r}")


_SITUATION_YAKU = {
    "立直": "riichi", "両立直": "double_riichi", "一発": "ippatsu", "海底摸月": "haitei", "河底撈魚": "houtei",
    "嶺上開花": "rinshan", "槍槓": "chankan", "天和": "tenhou", "地和": "chiihou",
}
_MIN_LIMIT_FU = {3: 70, 4: 40}  # the smallest fu that reaches mangan below 5 han


def _with_fu(win: WinResult, score: str, rnd: int, dealer: int) -> WinResult:
    """Fill the fu of a limit hand below 5 han from the tile analysis, else the smallest that fits."""
    fu = _MIN_LIMIT_FU.get(win.han)
    if not win.tiles:
        if fu is None:
            raise LogError("broken_log", f"score {score!r} at {win.han} han is not a limit hand")
        return replace(win, fu=fu)
    try:
        hand = Hand.parse(win.tiles, win=win.win_tile, melds=list(win.melds))
        winds = (27 + (win.winner - dealer) % 4, 27 + rnd // 4)
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


def _check_continuity(kyoku: Sequence[Kyoku]) -> None:
    """Each hand's deltas balance, and the next hand starts where this one left off."""
    for i, k in enumerate(kyoku):
        label = f"hand {i + 1} ({k.round_label}, {k.honba} honba)"
        total = sum(k.deltas)
        expected = (k.sticks + len(k.riichi)) * RIICHI_STICK if k.kind == "win" else 0
        if total != expected:
            raise LogError("deltas_do_not_add_up",
                           f"{label}: the deltas sum to {total:,}, they should sum to {expected:,}")
        if i + 1 < len(kyoku):
            after = tuple(s + d - (RIICHI_STICK if seat in k.riichi else 0)
                          for seat, (s, d) in enumerate(zip(k.start_scores, k.deltas, strict=True)))
            if after != kyoku[i + 1].start_scores:
                raise LogError("deltas_do_not_add_up",
                               f"{label}: the scores after it are {list(after)}, "
                               f"the next hand starts with {list(kyoku[i + 1].start_scores)}")


# -- a log as a game record ----------------------------------------------------------


def _spec(base: str | Mapping[str, Any], extra: Mapping[str, Any] | None = None) -> str | dict[str, Any]:
    """A ruleset spec with ``extra`` overrides on top."""
    if isinstance(base, str):
        preset, overrides = base, {}
    else:
        preset, overrides = base["preset"], dict(base.get("overrides") or {})
    overrides.update(extra or {})
    return {"preset": preset, "overrides": overrides} if overrides else preset


def _win_tiles(k: Kyoku, w: WinResult) -> dict[str, Any] | None:
    if not w.tiles:
        return None
    return {
        "tiles": w.tiles,
        "melds": [{"type": kind, "tiles": tiles} for kind, tiles in w.melds],
        "win": w.win_tile,
        "dora": list(k.dora),
        "ura": list(k.ura) if w.riichi else [],
    }


def kyoku_to_hand(k: Kyoku) -> HandInput:
    """One logged hand as what happened at the table; ``tiles`` and ``yaku`` hold one entry per win."""
    outcome: Outcome
    tiles = yaku = None
    if k.kind == "win":
        first = k.wins[0]
        if first.tsumo:
            outcome = Tsumo(winner=first.winner, han=first.han, fu=first.fu, yakuman=first.yakuman, pao=first.pao)
        else:
            outcome = Ron(loser=first.loser, wins=tuple(  # type: ignore[arg-type]
                Win(winner=w.winner, han=w.han, fu=w.fu, yakuman=w.yakuman, pao=w.pao) for w in k.wins))
        kept = [_win_tiles(k, w) for w in k.wins]
        tiles = kept if any(kept) else None
        yaku = [list(w.yaku) for w in k.wins]
    elif k.kind == "draw":
        outcome = Draw(tenpai=k.tenpai, nagashi=k.nagashi)
    else:
        outcome = Abort(reason=AbortReason(k.abort))
    return HandInput(outcome=outcome, riichi=k.riichi, tiles=tiles, yaku=yaku)


def log_to_record(log: TenhouLog, overrides: Mapping[str, Any] | None = None) -> GameRecord:
    """The GAME RECORD of a whole logged game under the log's ruleset (plus ``overrides``).

    A fragment (a log not starting at East 1, 0 honba, with the start score
    each) is refused with ``incomplete_log``.
    """
    rules = get_ruleset(_spec(log.rules, overrides))
    first = log.kyoku[0]
    if (first.round, first.honba, first.sticks) != (0, 0, 0) or set(first.start_scores) != {rules.start_points}:
        raise LogError(
            "incomplete_log",
            f"the log starts at {first.round_label} {first.honba} honba with {list(first.start_scores)}, "
            f"not at E1 with {rules.start_points:,} each: it is part of a game",
        )
    return GameRecord(rules, tuple(kyoku_to_hand(k) for k in log.kyoku), players=log.names)


# -- checking against the engine ----------------------------------------------------------


@dataclass(frozen=True)
class _Run:
    discrepancies: tuple[Discrepancy, ...]
    game: GameResult
    game_over: bool  # the engine ended the game before the log's last hand

    def has(self, what: str) -> bool:
        return any(d.what == what for d in self.discrepancies)


def _hand_index(err: ScoringError) -> int | None:
    m = re.match(r"hands\[(\d+)\]", err.field or "")
    return int(m.group(1)) if m else None


def _end_scores(log: TenhouLog) -> tuple[int, ...]:
    """The end scores a log without owari implies: Tenhou gives the leftover sticks to first."""
    last = log.kyoku[-1]
    scores = [s + d - (RIICHI_STICK if seat in last.riichi else 0)
              for seat, (s, d) in enumerate(zip(last.start_scores, last.deltas, strict=True))]
    left = 0 if last.kind == "win" else last.sticks + len(last.riichi)
    top = min(range(4), key=lambda s: (-scores[s], s))
    scores[top] += left * RIICHI_STICK
    return tuple(scores)


def _run(log: TenhouLog, overrides: Mapping[str, Any]) -> _Run:
    record = log_to_record(log, overrides)
    found: list[Discrepancy] = []

    def note(k: Kyoku | None, what: str, ours: Any, theirs: Any) -> None:
        found.append(Discrepancy(log.log_id, k.round_label if k else "end", k.honba if k else None, what, ours, theirs))

    hands = record.hands
    game_over = False
    while True:
        try:
            game = replay(GameRecord(record.rules, hands, players=record.players))
            break
        except ScoringError as err:
            i = _hand_index(err)
            if i is None:
                raise
            k = log.kyoku[i]
            if err.code == "game_over":
                game_over = True
                note(k, "game over", f"the game ended before this hand: {err.message}", "the log plays this hand")
            else:
                note(k, "refused", f"{err.code}: {err.message} ({err.field})", "the log plays this hand")
            hands = hands[:i]
    for played, k in zip(game.hands, log.kyoku, strict=False):
        if (played.round, played.honba, played.riichi_sticks) != (k.round, k.honba, k.sticks):
            note(k, "round", f"{played.round_label} {played.honba} honba {played.riichi_sticks} sticks",
                 f"{k.round_label} {k.honba} honba {k.sticks} sticks")
        if played.start.scores != k.start_scores:
            note(k, "start scores", list(played.start.scores), list(k.start_scores))
        ours = [d + (RIICHI_STICK if s in played.input.riichi else 0) for s, d in enumerate(played.deltas)]
        if tuple(ours) != k.deltas:
            note(k, "deltas", ours, list(k.deltas))
    if len(game.hands) == len(log.kyoku):
        if not game.finished:
            nxt = game.next
            note(None, "not finished", f"the game goes on to {nxt.round_label if nxt else '?'}", "the log ends")
        elif game.settlement is not None:
            s = game.settlement
            theirs = log.owari.scores if log.owari else _end_scores(log)
            if s.final_scores != theirs:
                note(None, "end scores", list(s.final_scores), list(theirs))
            if log.owari and s.points != log.owari.points:
                note(None, "points", list(s.points), list(log.owari.points))
    return _Run(tuple(found), game, game_over)


def _dated_before(log: TenhouLog, cutoff: str) -> bool:
    return log.date is None or log.date < cutoff


def _choose(log: TenhouLog) -> tuple[dict[str, Any], tuple[str, ...], _Run]:
    """Replay under the preset, then take the historical variants the log needs (module docstring)."""
    overrides: dict[str, Any] = {}
    variant: list[str] = []
    first, preset = log.kyoku[0], get_ruleset(log.rules)
    if log.special and len(set(first.start_scores)) == 1 and first.start_scores[0] != preset.start_points:
        # A special lobby with its own start score: play it from there so the
        # hands can still be compared; the report says so.
        start = first.start_scores[0]
        back = max(start, preset.return_points)
        overrides = {"start_points": start, "return_points": back, "oka": 4 * (back - start)}
        variant.append("special_start")
    run = _run(log, overrides)
    rules = get_ruleset(log.rules)
    if (run.game_over and rules.tenpai_yame is not Yame.NONE
            and run.game.ended_by is not None and run.game.ended_by.value == "tenpai_yame"
            and _dated_before(log, NO_TENPAI_YAME_UNTIL)):
        trial = _run(log, {**overrides, "tenpai_yame": "none"})
        if not trial.game_over:
            overrides, run = {**overrides, "tenpai_yame": "none"}, trial
            variant.append("no_tenpai_yame")
    if run.has("points") and rules.uma != OLD_UMA and _dated_before(log, OLD_UMA_UNTIL):
        trial = _run(log, {**overrides, "uma": list(OLD_UMA)})
        if not trial.has("points"):
            overrides, run = {**overrides, "uma": list(OLD_UMA)}, trial
            variant.append("old_uma")
    return overrides, tuple(variant), run


def check_log(log: TenhouLog) -> CheckReport:
    """Replay a logged game and compare every hand, the end scores and the points.

    Raises :class:`LogError` (``incomplete_log``) for a fragment of a game.
    """
    overrides, variant, run = _choose(log)
    wins = sum(len(k.wins) for k in log.kyoku)
    return CheckReport(log.log_id, _spec(log.rules, overrides), variant, len(log.kyoku), wins, log.special,
                       run.discrepancies)


def import_log(data: bytes | str, filename: str | None = None) -> ImportedGame:
    """Read, check and turn one log into a game; the report says whether it matched.

    A JSON log with no ``sc`` whose game the engine does not see finished is
    refused as ``truncated_log`` (an XML log without ``owari`` already is).
    """
    log = read_log(data, filename)
    overrides, variant, run = _choose(log)
    if log.owari is None and not run.game.finished and not run.game_over:
        raise LogError("truncated_log", f"the game is not over after its {len(log.kyoku)} hands and the log "
                                        "has no final result: it is cut off")
    record = log_to_record(log, overrides)
    wins = sum(len(k.wins) for k in log.kyoku)
    report = CheckReport(log.log_id, _spec(log.rules, overrides), variant, len(log.kyoku), wins, log.special,
                         run.discrepancies)
    return ImportedGame(log, record, log.names, report)


def import_log_file(path: str | Path) -> ImportedGame:
    p = Path(path)
    return import_log(p.read_bytes(), p.name)


# -- writing tenhou.net/6 JSON ----------------------------------------------------------------

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


def _disp(rules: Ruleset) -> str:
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


def _winner_flow(tiles: Mapping[str, Any], riichi: bool, tsumo: bool) -> tuple[list[int], list[Any], list[Any]]:
    closed = _codes(tiles["tiles"])
    win = _codes(tiles["win"])[0]
    melds = [(m["type"], _codes(m["tiles"])) for m in tiles.get("melds", [])]
    fill = _Fillers([*closed, *(c for _, cs in melds for c in cs)])
    kept = list(closed)
    kept.remove(win)
    haipai, draws, discards = list(kept), [], []
    if riichi:
        draws.append(fill.take())
        discards.append("r60")
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
    seats: list[tuple[list[Any], list[Any], list[Any]]] = [([], [], []) for _ in range(4)]
    for s in hand.riichi:
        seats[s][1].append(47 if s != dealer else 46)
        seats[s][2].append("r60")
    dora: list[int] = []
    ura: list[int] = []
    result: list[Any]
    theirs = [d + (RIICHI_STICK if s in hand.riichi else 0) for s, d in enumerate(played.deltas)]
    if isinstance(o, (Ron, Tsumo)):
        wins: tuple[Win | Tsumo, ...] = o.wins if isinstance(o, Ron) else (o,)
        kept = hand.tiles if isinstance(hand.tiles, list) else [None] * len(wins)
        yaku_lists = hand.yaku if isinstance(hand.yaku, list) else [None] * len(wins)
        result = ["和了"]
        loser = o.loser if isinstance(o, Ron) else None
        fed = False
        for w, tiles, yaku in zip(wins, kept, yaku_lists, strict=False):
            if tiles:
                dora = _codes("".join(tiles.get("dora", [])))
                ura = ura or _codes("".join(tiles.get("ura", [])))  # shown only for a riichi winner
                haipai, draws, discards = _winner_flow(tiles, w.winner in hand.riichi, loser is None)
                seats[w.winner] = (haipai, draws, discards)
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
        elif len(o.tenpai) == 4:
            result = ["全員聴牌"]
        elif not o.tenpai:
            result = ["全員不聴"]
        else:
            result = ["流局", theirs]
    elif isinstance(o, Abort):
        result = [_ABORT_NAMES[AbortReason(o.reason)]]
    else:
        raise LogError("not_exportable", "a chombo has no place in a tenhou.net/6 log")
    out: list[Any] = [[played.round, played.honba, played.riichi_sticks], list(played.start.scores), dora, ura]
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
    names = list(names or record.players or ("", "", "", ""))
    out: dict[str, Any] = {"title": ["", ""], "name": names, "rule": {"disp": _disp(record.rules), "aka": 1}}
    if log_id and TENHOU_ID.fullmatch(log_id):
        out["ref"] = log_id
    out["log"] = [_export_kyoku(record.rules, played) for played in game.hands]
    if game.settlement is not None:
        s = game.settlement
        out["sc"] = [v for seat in range(4) for v in (
            s.final_scores[seat], s.points[seat] // 1000 if s.points[seat] % 1000 == 0 else s.points[seat] / 1000)]
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))
