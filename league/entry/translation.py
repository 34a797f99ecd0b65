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

from collections.abc import Callable

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


def _english_refusal(code: str, message: str) -> str:
    return message


def _english_abort_reason(reason: str) -> str:
    return reason.replace("_", " ")


_gettext: Callable[[str], str] = _english_gettext
_ngettext: Callable[[str, str, int], str] = _english_ngettext
_yaku_name: Callable[[str], str] = _english_yaku_name
_refusal: Callable[[str, str], str] = _english_refusal
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


def refusal(code: str, message: str) -> str:
    """An engine refusal (its code and English message) in the reader's language."""
    return str(_refusal(code, message))


def abort_reason(reason: str) -> str:
    """An abortive draw's reason by the engine's id ("kyuushu_kyuuhai"), as the reader calls it."""
    return str(_abort_reason(reason))


def install(*, gettext: Callable[[str], str] | None = None, ngettext: Callable[[str, str, int], str] | None = None,
            yaku_name: Callable[[str], str] | None = None, refusal: Callable[[str, str], str] | None = None,
            abort_reason: Callable[[str], str] | None = None) -> None:
    """Translate through these from now on (the server's, at start-up)."""
    global _gettext, _ngettext, _yaku_name, _refusal, _abort_reason
    _gettext = gettext or _gettext
    _ngettext = ngettext or _ngettext
    _yaku_name = yaku_name or _yaku_name
    _refusal = refusal or _refusal
    _abort_reason = abort_reason or _abort_reason
