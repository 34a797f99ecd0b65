"""The words of ``league.entry`` in the reader's language, without Django.

The package runs on the phone (Pyodide, no Django) and on the server. Its
modules write English msgids through ``gettext`` and ``ngettext`` here,
translated when called (nothing lazy): on the phone they stay English; on the
server ``league.apps.LeagueConfig.ready`` installs Django's and ``league.engine_words``'s
functions, so the staff form speaks the page's language (``makemessages``
finds the msgids by the usual ``_()``/``ngettext()`` calls).

>>> gettext("Tick who won.")
'Tick who won.'
>>> ngettext("%(n)d stick", "%(n)d sticks", 2) % {"n": 2}
'2 sticks'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import singledispatch
from typing import Any

# The English names of the yaku, yakuman and bonuses by id, as the tile
# analysis (``scoring.yaku``) and the hand form name them: what the phone
# shows. They are ``league.engine_words.YAKU``'s English, which the server shows in
# English (a test holds the two equal).
ENGLISH_YAKU: dict[str, str] = {
    "riichi": "Riichi", "double_riichi": "Double riichi", "ippatsu": "Ippatsu", "menzen_tsumo": "Menzen tsumo",
    "pinfu": "Pinfu", "iipeikou": "Iipeikou", "tanyao": "Tanyao", "haitei": "Haitei", "houtei": "Houtei",
    "rinshan": "Rinshan kaihou", "chankan": "Chankan", "yakuhai": "Yakuhai (each)",
    "yakuhai_2": "Yakuhai, second set", "yakuhai_haku": "Yakuhai: haku", "yakuhai_hatsu": "Yakuhai: hatsu",
    "yakuhai_chun": "Yakuhai: chun", "yakuhai_seat_wind": "Yakuhai: seat wind",
    "yakuhai_round_wind": "Yakuhai: round wind", "double_wind": "Double wind (seat and round)",
    "sanshoku": "Sanshoku", "ittsuu": "Ittsuu", "chanta": "Chanta", "chiitoitsu": "Chiitoitsu (seven pairs)",
    "toitoi": "Toitoi", "sanankou": "Sanankou", "sankantsu": "Sankantsu", "sanshoku_doukou": "Sanshoku doukou",
    "honroutou": "Honroutou", "shousangen": "Shousangen", "ryanpeikou": "Ryanpeikou", "junchan": "Junchan",
    "honitsu": "Honitsu", "chinitsu": "Chinitsu", "renhou": "Renhou", "nagashi_mangan": "Nagashi mangan",
    "dora": "Dora", "aka_dora": "Aka dora", "ura_dora": "Ura dora",
    "tenhou": "Tenhou", "chiihou": "Chiihou", "daisangen": "Daisangen", "shousuushii": "Shousuushii",
    "daisuushii": "Daisuushii", "tsuuiisou": "Tsuuiisou", "chinroutou": "Chinroutou", "ryuuiisou": "Ryuuiisou",
    "suuankou": "Suuankou", "suuankou_tanki": "Suuankou tanki", "suukantsu": "Suukantsu",
    "chuuren": "Chuuren poutou", "junsei_chuuren": "Junsei chuuren poutou", "kokushi": "Kokushi",
    "kokushi_13": "Kokushi, 13-sided wait", "daisharin": "Daisharin", "paarenchan": "Paarenchan",
    "sashikomi": "Sashikomi", "other": "Another yakuman", "other_double": "Another double yakuman",
}


def _english_gettext(message: str) -> str:
    return message


def _english_ngettext(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _english_yaku_name(yaku_id: str) -> str:
    return ENGLISH_YAKU.get(yaku_id) or yaku_id.replace("_", " ")


def _english_refusal(code: str, message: str, detail: str | None = None) -> str:
    return message


def _english_abort_reason(reason: str) -> str:
    return reason.replace("_", " ")


_gettext: Callable[[str], str] = _english_gettext
_ngettext: Callable[[str, str, int], str] = _english_ngettext
_yaku_name: Callable[[str], str] = _english_yaku_name
_refusal: Callable[[str, str, str | None], str] = _english_refusal
_abort_reason: Callable[[str], str] = _english_abort_reason


def gettext_noop(message: str) -> str:
    """Marks an English msgid for the catalogue (``makemessages`` knows the
    name) where it is only named, to be translated where it is shown."""
    return message


def gettext(message: str) -> str:
    """``message`` (an English msgid) in the reader's language."""
    return str(_gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural msgid for ``n``, in the reader's language."""
    return str(_ngettext(singular, plural, n))


def yaku_name(yaku_id: str) -> str:
    """The yaku, yakuman or bonus ``yaku_id`` in the reader's language."""
    return str(_yaku_name(yaku_id))


def refusal(code: str, message: str, detail: str | None = None) -> str:
    """An engine refusal (its code, English message and detail) in the reader's language."""
    return str(_refusal(code, message, detail))


@singledispatch
def refusal_of(err: Any) -> str:
    """A refusal in the reader's language, whoever refused: the engine's
    ``ScoringError``, the pricer's ``Refused``, a service's ``ServiceError``
    (``refusal`` of its code, message and detail). The one function every
    page, form and the phone word a refusal with. A stored hand the engine
    now refuses is worded as that hand ("hand 2 cannot be replayed: ...",
    ``words.stored_refusal``): its types register that wording beside their
    definitions (``pricing.Unreplayable``, ``league.errors.StoredHandRefused``).

    >>> from scoring.errors import ScoringError
    >>> refusal_of(ScoringError("fu_not_possible", "1 han 20 fu is not a hand"))
    '1 han 20 fu is not a hand'
    """
    return refusal(err.code, err.message, err.detail)


def abort_reason(reason: str) -> str:
    """An abortive draw's reason by the engine's id ("kyuushu_kyuuhai"), as the reader calls it."""
    return str(_abort_reason(reason))


def install(*, gettext: Callable[[str], str] | None = None, ngettext: Callable[[str, str, int], str] | None = None,
            yaku_name: Callable[[str], str] | None = None,
            refusal: Callable[[str, str, str | None], str] | None = None,
            abort_reason: Callable[[str], str] | None = None) -> None:
    """Translate through these from now on (the server's, at start-up)."""
    global _gettext, _ngettext, _yaku_name, _refusal, _abort_reason
    _gettext = gettext or _gettext
    _ngettext = ngettext or _ngettext
    _yaku_name = yaku_name or _yaku_name
    _refusal = refusal or _refusal
    _abort_reason = abort_reason or _abort_reason


# -- the phone: a catalogue the server made ----------------------------------------------
# ``league.engine_catalogue`` builds, per language, what the functions above
# answer on the server, as plain data; the phone installs it, so the package
# speaks the page's language with no Django (docs/offline.md).

_PLURAL_TOKENS = re.compile(r"\s*(\d+|n|&&|\|\||==|!=|<=|>=|[<>%?:()!+\-*/])")


def plural_rule(expression: str) -> Callable[[int], int]:
    """The index of the plural form for ``n``, from a gettext ``plural=``
    expression (C syntax: ``n != 1``, ``0``, ``n%10==1 && n%100!=11 ? 0 : 1``),
    read by a small parser (never ``eval`` of the text).

    >>> [plural_rule("(n != 1)")(n) for n in (0, 1, 2)], plural_rule("0")(5)
    ([1, 0, 1], 0)
    >>> rule = plural_rule("n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2")
    >>> [rule(n) for n in (1, 2, 5, 11, 21, 22)]
    [0, 1, 2, 2, 0, 1]
    """
    tokens: list[str] = []
    pos, text = 0, expression.strip().rstrip(";")
    while pos < len(text):
        m = _PLURAL_TOKENS.match(text, pos)
        if not m:
            raise ValueError(f"plural rule: cannot read {text[pos:]!r}")
        tokens.append(m.group(1))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    binary = [("||",), ("&&",), ("==", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/", "%")]
    ops: dict[str, Callable[[int, int], int]] = {
        "||": lambda a, b: int(bool(a or b)), "&&": lambda a, b: int(bool(a and b)),
        "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b), "<": lambda a, b: int(a < b),
        ">": lambda a, b: int(a > b), "<=": lambda a, b: int(a <= b), ">=": lambda a, b: int(a >= b),
        "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
        "/": lambda a, b: a // b, "%": lambda a, b: a % b}
    Node = Callable[[int], int]

    def ternary(i: int) -> tuple[Node, int]:
        cond, i = level(0, i)
        if i < len(tokens) and tokens[i] == "?":
            yes, i = ternary(i + 1)
            if i >= len(tokens) or tokens[i] != ":":
                raise ValueError("plural rule: ? without :")
            no, i = ternary(i + 1)
            return (lambda n: yes(n) if cond(n) else no(n)), i
        return cond, i

    def level(k: int, i: int) -> tuple[Node, int]:
        if k == len(binary):
            return unary(i)
        left, i = level(k + 1, i)
        while i < len(tokens) and tokens[i] in binary[k]:
            op, (right, i) = ops[tokens[i]], level(k + 1, i + 1)
            left = (lambda a, b, f: lambda n: f(a(n), b(n)))(left, right, op)
        return left, i

    def unary(i: int) -> tuple[Node, int]:
        if i >= len(tokens):
            raise ValueError("plural rule: ends too soon")
        tok = tokens[i]
        if tok == "!":
            inner, i = unary(i + 1)
            return (lambda n: int(not inner(n))), i
        if tok == "(":
            inner, i = ternary(i + 1)
            if i >= len(tokens) or tokens[i] != ")":
                raise ValueError("plural rule: ( without )")
            return inner, i + 1
        if tok == "n":
            return (lambda n: n), i + 1
        if tok.isdigit():
            value = int(tok)
            return (lambda n: value), i + 1
        raise ValueError(f"plural rule: unexpected {tok!r}")

    node, end = ternary(0)
    if end != len(tokens):
        raise ValueError(f"plural rule: cannot read {' '.join(tokens[end:])!r}")
    return lambda n: int(node(n))


def install_catalogue(catalogue: Mapping[str, Any]) -> None:
    """Translate through ``catalogue`` from now on: ``{"messages": {msgid: text},
    "plural": gettext rule, "plurals": {singular: [form, ...]}, "yaku": {id: name},
    "refusals": {code or detail: text}, "aborts": {reason: text}}``, as
    ``league.engine_catalogue.catalogue(language)`` makes it. What it lacks reads
    as the English fallbacks above (as Django falls back to the msgid); a
    refusal whose detail and code it lacks keeps the engine's own message."""
    messages = dict(catalogue.get("messages", {}))
    plurals = {k: list(v) for k, v in catalogue.get("plurals", {}).items()}
    rule = plural_rule(str(catalogue.get("plural", "n != 1")))
    yaku, refusals = dict(catalogue.get("yaku", {})), dict(catalogue.get("refusals", {}))
    aborts = dict(catalogue.get("aborts", {}))

    def cat_ngettext(singular: str, plural: str, n: int) -> str:
        forms = plurals.get(singular)
        if not forms:
            return _english_ngettext(singular, plural, n)
        return forms[min(rule(n), len(forms) - 1)]

    install(gettext=lambda m: messages.get(m) or m, ngettext=cat_ngettext,
            yaku_name=lambda y: yaku.get(y) or _english_yaku_name(y),
            refusal=lambda code, message, detail=None: refusals.get(detail or "") or refusals.get(code) or message,
            abort_reason=lambda r: aborts.get(r) or _english_abort_reason(r))


def installed() -> tuple[Callable[..., str], ...]:
    """What translates now (to put back after ``installing``)."""
    return (_gettext, _ngettext, _yaku_name, _refusal, _abort_reason)


@contextmanager
def installing(catalogue: Mapping[str, Any] | None) -> Iterator[None]:
    """``catalogue`` installed for the block, then what was before (None: as is)."""
    if catalogue is None:
        yield
        return
    before = installed()
    install_catalogue(catalogue)
    try:
        yield
    finally:
        global _gettext, _ngettext, _yaku_name, _refusal, _abort_reason
        _gettext, _ngettext, _yaku_name, _refusal, _abort_reason = before
