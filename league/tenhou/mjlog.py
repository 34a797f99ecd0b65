"""Reading Tenhou's mjlog XML (the ``<mjloggm>`` files): tags in play order, the
melds packed in bit fields, the yaku by number."""

from __future__ import annotations

import urllib.parse
import xml.etree.ElementTree as ET
from typing import Any

from league.tenhou.tiles import YAKU_NAMES, _meld_key, _mjlog_code, _notation
from league.tenhou.values import TENHOU_ID, Kyoku, LogError, Owari, TenhouLog, WinResult, _check_continuity
from scoring.game import (
    AbortReason,
)

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
    except ValueError:  # not digits, or more digits than int() takes
        raise LogError("broken_log", f"{where} is not a list of numbers: {text[:40]!r}") from None


def _int(el: ET.Element, name: str, default: int | None = None) -> int:
    """One whole-number attribute of a tag (``default`` when it is missing)."""
    text = el.get(name)
    if text is None and default is not None:
        return default
    values = _ints(text, f"{el.tag} {name}")
    if len(values) != 1:
        raise LogError("broken_log", f"{el.tag} {name} is not one number: {(text or '')[:40]!r}")
    return values[0]


def _first(values: list[int], where: str) -> int:
    if not values:
        raise LogError("broken_log", f"{where} is empty")
    return values[0]


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
        # A North set aside (kita, three players): tile id m >> 8 is a North (120-123).
        if not 120 <= m >> 8 <= 123:
            raise LogError("invalid_tiles", f"a kita meld ({m}) that is not a North tile")
        return "kita", "4z"
    kind = (m >> 8) // 4
    ids = [kind * 4 + i for i in range(4)]
    return ("ankan" if m & 3 == 0 else "kan"), _notation([_mjlog_code(i, aka) for i in ids])


def _mjlog_rules(go_type: int) -> tuple[str | dict[str, Any], bool]:
    if go_type & 0x10:  # three players (185 = 0xB9 三鳳南喰赤, 0xF1 三鳳東喰赤速)
        preset = "tenhou-sanma" if go_type & 0x08 else "tenhou-sanma-east"
    else:
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
    go_type = _int(go, "type") if go.get("type") else 0
    rules, special = _mjlog_rules(go_type)
    players = 3 if go_type & 0x10 else 4
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
            if players == 4 and el.get("n3") is None and el.get("n0") is not None and el.get("n2") is not None:
                raise LogError("broken_log", "a four-player log (GO type) names three players")
            names = [urllib.parse.unquote(el.get(f"n{i}", "")) for i in range(players)]
            seen_names = True
        elif tag == "INIT":
            if current is not None and not current["results"]:
                raise LogError("truncated_log", f"hand {len(kyoku) + 1} has no result (the log is cut off)")
            finish()
            seed = _ints(el.get("seed"), "INIT seed")
            ten = _ints(el.get("ten"), "INIT ten")
            if len(seed) < 6 or len(ten) != 4:
                raise LogError("broken_log", "an <INIT> needs a six-part seed and four scores")
            if players == 3 and ten[3]:
                raise LogError("broken_log", "a three-player <INIT> gives the empty fourth seat a score")
            current = {
                "round": seed[0], "honba": seed[1], "sticks": seed[2], "dealer": _int(el, "oya", 0),
                "scores": tuple(t * 100 for t in ten[:players]), "riichi": [], "results": [], "aka": aka,
                "dora": [_mjlog_code(seed[5], aka)], "players": players,
            }
        elif tag == "DORA" and current is not None:
            current["dora"].append(_mjlog_code(_first(_ints(el.get("hai"), "DORA hai"), "DORA hai"), aka))
        elif tag == "REACH" and current is not None:
            if el.get("step") == "2":
                current["riichi"].append(_int(el, "who", -1))
        elif tag in ("AGARI", "RYUUKYOKU"):
            if current is None:
                raise LogError("broken_log", f"<{tag}> before any <INIT>")
            current["results"].append(el)
            if el.get("owari"):
                parts = el.get("owari", "").split(",")
                try:
                    scores = tuple(int(parts[2 * i]) * 100 for i in range(players))
                    points = tuple(_thousandths(parts[2 * i + 1]) for i in range(players))
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
    players = cur["players"]
    deltas = [0] * players
    for el in results:
        sc = _ints(el.get("sc"), "sc")
        if len(sc) < 8:
            raise LogError("broken_log", f"sc {el.get('sc')!r} is not four seats")
        for i in range(players):
            deltas[i] += sc[2 * i + 1] * 100
    if results[0].tag == "RYUUKYOKU":
        kind = results[0].get("type")
        if kind in _MJLOG_ABORTS:
            return Kyoku(**base, kind="abort", abort=str(_MJLOG_ABORTS[kind]), deltas=tuple(deltas),
                         dora=tuple(_notation([c]) for c in cur["dora"]))
        if kind not in (None, "nm"):
            raise LogError("broken_log", f"unknown draw type {kind!r}")
        tenpai = tuple(s for s in range(players) if results[0].get(f"hai{s}") is not None)
        nagashi = tuple(s for s in range(players) if deltas[s] > 0) if kind == "nm" else ()
        return Kyoku(**base, kind="draw", tenpai=tenpai, nagashi=nagashi, deltas=tuple(deltas),
                     dora=tuple(_notation([c]) for c in cur["dora"]))
    wins = []
    dora: tuple[str, ...] = ()
    ura: tuple[str, ...] = ()
    for el in results:
        who, from_who = _int(el, "who", -1), _int(el, "fromWho", -1)
        if not (0 <= who < players and 0 <= from_who < players):
            raise LogError("broken_log", f"an <AGARI> names a seat outside 0-{players - 1}")
        hai = [_mjlog_code(t, aka) for t in _ints(el.get("hai"), "hai")]
        decoded = [_decode_meld(m, aka) for m in _ints(el.get("m"), "m")]
        kita = sum(1 for kind, _ in decoded if kind == "kita")
        melds = tuple(m for m in decoded if m[0] != "kita")
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
        pao = _int(el, "paoWho") if el.get("paoWho") is not None else None
        sc = _ints(el.get("sc"), "sc")
        dora = tuple(_notation([_mjlog_code(t, aka)]) for t in _ints(el.get("doraHai"), "doraHai"))
        # Only a riichi winner shows the ura indicators; they are the same for the whole hand.
        ura = ura or tuple(_notation([_mjlog_code(t, aka)]) for t in _ints(el.get("doraHaiUra"), "doraHaiUra"))
        wins.append(WinResult(
            winner=who, loser=None if from_who == who else from_who,
            han=0 if yakuman_ids else han, fu=None if yakuman_ids or han >= 5 else ten[0], yakuman=len(yakuman_ids),
            pao=pao if pao != who else None, yaku=tuple(yaku),
            tiles=_notation(hai), melds=tuple(sorted(melds, key=_meld_key)), win_tile=_notation([_mjlog_code(machi[0], aka)]),
            deltas=tuple(sc[2 * i + 1] * 100 for i in range(players)), kita=kita,
        ))
    return Kyoku(**base, kind="win", wins=tuple(wins), deltas=tuple(deltas), dora=dora, ura=ura)
