"""The engine's words in the reader's language, looked up by their codes.

``scoring`` names yaku by id and refusals by code; here each gets a translatable
text (English: the EMA's romaji; Japanese: the kanji with the romaji in
brackets). An unknown id or code falls back to the engine's English text.
docs/languages.md.

>>> from django.utils import translation
>>> with translation.override("en"):
...     str(yaku_name("menzen_tsumo")), refusal("fu_not_possible", "1 han 20 fu is not a hand")
('Menzen tsumo', '1 han 20 fu is not a hand')
>>> with translation.override("ja"):
...     str(yaku_name("riichi")), refusal("fu_not_possible", "1 han 20 fu is not a hand")
('立直 (riichi)', 'その翻と符の組み合わせはありません')
>>> with translation.override("ja"):
...     refusal("fu_not_possible", "20 fu is only a pinfu tsumo, never a ron", "fu_20_ron")
'符：20符は平和のツモだけで、ロンで20符の手はありません'
"""

from __future__ import annotations

from typing import Any

from django.utils.text import capfirst
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from league.entry.pricing import Unreplayable
from league.entry.translation import refusal_of

# Every yaku, yakuman and bonus the engine (scoring.yaku) and the hand form
# (league.forms.hand_fields) name, by id.
YAKU: dict[str, str] = {
    "riichi": pgettext_lazy("yaku", "Riichi"),
    "double_riichi": pgettext_lazy("yaku", "Double riichi"),
    "ippatsu": pgettext_lazy("yaku", "Ippatsu"),
    "menzen_tsumo": pgettext_lazy("yaku", "Menzen tsumo"),
    "pinfu": pgettext_lazy("yaku", "Pinfu"),
    "iipeikou": pgettext_lazy("yaku", "Iipeikou"),
    "tanyao": pgettext_lazy("yaku", "Tanyao"),
    "haitei": pgettext_lazy("yaku", "Haitei"),
    "houtei": pgettext_lazy("yaku", "Houtei"),
    "rinshan": pgettext_lazy("yaku", "Rinshan kaihou"),
    "chankan": pgettext_lazy("yaku", "Chankan"),
    "yakuhai": pgettext_lazy("yaku", "Yakuhai (each)"),
    "yakuhai_2": pgettext_lazy("yaku", "Yakuhai, second set"),
    "yakuhai_haku": pgettext_lazy("yaku", "Yakuhai: haku"),
    "yakuhai_hatsu": pgettext_lazy("yaku", "Yakuhai: hatsu"),
    "yakuhai_chun": pgettext_lazy("yaku", "Yakuhai: chun"),
    "yakuhai_seat_wind": pgettext_lazy("yaku", "Yakuhai: seat wind"),
    "yakuhai_round_wind": pgettext_lazy("yaku", "Yakuhai: round wind"),
    "double_wind": pgettext_lazy("yaku", "Double wind (seat and round)"),
    "sanshoku": pgettext_lazy("yaku", "Sanshoku"),
    "ittsuu": pgettext_lazy("yaku", "Ittsuu"),
    "chanta": pgettext_lazy("yaku", "Chanta"),
    "chiitoitsu": pgettext_lazy("yaku", "Chiitoitsu (seven pairs)"),
    "toitoi": pgettext_lazy("yaku", "Toitoi"),
    "sanankou": pgettext_lazy("yaku", "Sanankou"),
    "sankantsu": pgettext_lazy("yaku", "Sankantsu"),
    "sanshoku_doukou": pgettext_lazy("yaku", "Sanshoku doukou"),
    "honroutou": pgettext_lazy("yaku", "Honroutou"),
    "shousangen": pgettext_lazy("yaku", "Shousangen"),
    "ryanpeikou": pgettext_lazy("yaku", "Ryanpeikou"),
    "junchan": pgettext_lazy("yaku", "Junchan"),
    "honitsu": pgettext_lazy("yaku", "Honitsu"),
    "chinitsu": pgettext_lazy("yaku", "Chinitsu"),
    "renhou": pgettext_lazy("yaku", "Renhou"),
    "nagashi_mangan": pgettext_lazy("yaku", "Nagashi mangan"),
    "dora": pgettext_lazy("yaku", "Dora"),
    "aka_dora": pgettext_lazy("yaku", "Aka dora"),
    "ura_dora": pgettext_lazy("yaku", "Ura dora"),
    # yakuman
    "tenhou": pgettext_lazy("yaku", "Tenhou"),
    "chiihou": pgettext_lazy("yaku", "Chiihou"),
    "daisangen": pgettext_lazy("yaku", "Daisangen"),
    "shousuushii": pgettext_lazy("yaku", "Shousuushii"),
    "daisuushii": pgettext_lazy("yaku", "Daisuushii"),
    "tsuuiisou": pgettext_lazy("yaku", "Tsuuiisou"),
    "chinroutou": pgettext_lazy("yaku", "Chinroutou"),
    "ryuuiisou": pgettext_lazy("yaku", "Ryuuiisou"),
    "suuankou": pgettext_lazy("yaku", "Suuankou"),
    "suuankou_tanki": pgettext_lazy("yaku", "Suuankou tanki"),
    "suukantsu": pgettext_lazy("yaku", "Suukantsu"),
    "chuuren": pgettext_lazy("yaku", "Chuuren poutou"),
    "junsei_chuuren": pgettext_lazy("yaku", "Junsei chuuren poutou"),
    "kokushi": pgettext_lazy("yaku", "Kokushi"),
    "kokushi_13": pgettext_lazy("yaku", "Kokushi, 13-sided wait"),
    "daisharin": pgettext_lazy("yaku", "Daisharin"),
    "paarenchan": pgettext_lazy("yaku", "Paarenchan"),
    "sashikomi": pgettext_lazy("yaku", "Sashikomi"),
    "other": pgettext_lazy("yaku", "Another yakuman"),
    "other_double": pgettext_lazy("yaku", "Another double yakuman"),
}

# The engine's refusals (scoring.errors codes, and the details of a code that
# covers several rules), as a reader at the table needs them. In English the
# engine's own message is shown: it carries the detail (which tile, which han
# and fu). A detail's words name the field they refuse.
REFUSALS: dict[str, str] = {
    "fu_not_possible": _("That han and fu are not a possible hand"),
    # fu_not_possible's details (scoring.payment.HAN_FU_DETAILS)
    "han_not_whole": _("Han: a whole number of at least 1"),
    "han_missing": _("Han: a win needs han (and fu), or yakuman"),
    "fu_missing": _("Fu: below 5 han a hand needs its fu"),
    "fu_not_whole": _("Fu: a whole number"),
    "fu_not_a_step": _("Fu: 20, 25, or a multiple of 10 from 30"),
    "fu_over_140": _("Fu: no hand has more than 140 fu"),
    "fu_20_ron": _("Fu: 20 fu is only a pinfu tsumo; no ron has 20 fu"),
    "fu_20_tsumo_30": _("Fu: under these rules a pinfu tsumo is 30 fu, so no tsumo has 20 fu"),
    "fu_20_one_han": _("Fu: 20 fu (pinfu tsumo) needs at least 2 han"),
    "fu_25_one_han": _("Fu: 25 fu (seven pairs) needs at least 2 han"),
    "fu_25_tsumo_two_han": _("Fu: seven pairs by tsumo is at least 3 han (25 fu at 2 han is a ron)"),
    "fu_over_110": _("Fu: below 4 han no hand has more than 110 fu"),
    # situation_conflict's details (scoring.hand.SITUATION_DETAILS): the situation ticked first
    "haitei_on_ron": _("Haitei: it is a tsumo on the last tile; a ron on the last discard is houtei"),
    "houtei_on_tsumo": _("Houtei: it is a ron on the last discard; a tsumo on the last tile is haitei"),
    "rinshan_on_ron": _("Rinshan kaihou: it is a tsumo on the replacement tile after a kan"),
    "rinshan_without_kan": _("Rinshan kaihou: it needs a kan among the calls (or a kita)"),
    "rinshan_not_haitei": _("Haitei: a win on the replacement tile after a kan is rinshan kaihou, never haitei"),
    "chankan_on_tsumo": _("Chankan: it is a ron on a tile added to a kan"),
    "chankan_not_houtei": _("Houtei: chankan and houtei cannot both happen"),
    "chankan_tile": _("Chankan: the other three copies of the winning tile are in the kan, none in the hand"),
    "tenhou_not_dealer": _("Tenhou: only the dealer wins tenhou; a non-dealer's first draw is chiihou"),
    "chiihou_dealer": _("Chiihou: it is a non-dealer's win; the dealer's is tenhou"),
    "renhou_dealer": _("Renhou: it is a non-dealer's win"),
    "tenhou_on_ron": _("Tenhou: it is won by tsumo"),
    "chiihou_on_ron": _("Chiihou: it is won by tsumo; a ron before the first draw is renhou"),
    "renhou_on_tsumo": _("Renhou: it is won by ron before the winner's first draw"),
    "first_turn_after_call": _("Tenhou, chiihou and renhou are won before any call or kan"),
    "first_turn_with_others": _("Tenhou, chiihou and renhou come with no riichi or other situation"),
    "paarenchan_not_dealer": _("Paarenchan: it is the dealer's eighth win in a row"),
    "sashikomi_not_riichi_ron": _("Sashikomi: it is a ron on a hand in (open) riichi"),
    # yakuman_not_possible's details
    "yakuman_not_whole": _("Yakuman: a whole number of at least 1"),
    "yakuman_over_limit": _("Yakuman: these rules do not pay that many yakuman on one hand"),
    "invalid_tile": _("A tile is not written as the game knows it"),
    "invalid_meld": _("A call is not a possible set"),
    "invalid_seat": _("A seat is not one of the four"),
    "no_winner": _("Nobody is marked as the winner"),
    "no_loser": _("Nobody is marked as dealing in"),
    "loser_is_winner": _("The player who dealt in cannot also win"),
    "invalid_penalty": _("The penalty is not possible"),
    "invalid_wind": _("The wind is not one of the four"),
    "invalid_value": _("A value is out of range"),
    "invalid_pao": _("The pao is not possible"),
    "end_not_possible": _("The game cannot end here"),
    "duplicate_seat": _("A seat is named twice"),
    "too_many_red_fives": _("Too many red fives"),
    "too_many_copies": _("More than four copies of a tile"),
    "invalid_sticks": _("The riichi sticks do not add up"),
    "invalid_scores": _("The scores do not add up"),
    "scores_do_not_add_up": _("The end scores do not add up to the starting points less the sticks left on the table"),
    "invalid_outcome": _("That outcome is not possible here"),
    "yakuman_not_possible": _("That yakuman is not possible"),
    "yakuman_not_allowed": _("This ruleset does not allow that yakuman"),
    "wrong_tile_count": _("The hand has the wrong number of tiles"),
    "win_not_in_hand": _("The winning tile is not in the hand"),
    "ura_without_riichi": _("Ura dora count only with riichi"),
    "riichi_open_hand": _("An open hand cannot declare riichi"),
    "renhou_not_allowed": _("This ruleset does not allow renhou"),
    "not_winning": _("These tiles are not a winning hand"),
    "no_yaku": _("The hand has no yaku"),
    "no_offender": _("Nobody is marked as making the chombo"),
    "nagashi_not_allowed": _("This ruleset does not allow nagashi mangan"),
    "ippatsu_without_riichi": _("Ippatsu needs riichi"),
    "ippatsu_not_allowed": _("Ippatsu: these rules have no ippatsu"),
    "riichi_not_tenpai": _("A seat in riichi must be tenpai at an exhaustive draw"),
    "riichi_below_1000": _("Riichi: under these rules a player with fewer than 1,000 points cannot declare riichi"),
    "situation_conflict": _("Two of the ticked situations cannot happen together"),
    "invalid_honba": _("The honba count is not possible"),
    "invalid_round": _("The round is not possible"),
    "invalid_end": _("The game cannot end that way"),
    "invalid_flag": _("A ticked situation is not possible here"),
    "invalid_rules": _("The ruleset is not valid"),
    "game_over": _("This game is finished"),
    "stale": _("The game changed since this was loaded"),
    # the services' refusals a scorer meets on the conflict page (issue 28's walk)
    "stale_entry": _("The game changed since this was loaded"),
    "bad_seen": _("The payments sent with the hand (seen) are not the seats' payments in whole points"),
    "hand_conflict": _("Another entry for this hand was saved first"),
    # the New event page and the roles (issue 32): each names its field
    "invalid_name": _("Name: give the event a name"),
    "duplicate_name": _("Name: another series already has this name"),
    "invalid_slug": _("Address: letters, digits and hyphens only"),
    "duplicate_slug": _("Address: another series already has this address"),
    "end_before_start": _("End date: the event cannot end before it starts"),
    "invalid_date": _("Date: must be in the years 1900 to 2999"),
    "event_started": _("Round 1 has started: this can no longer change"),
    "unknown_username": _("Username: no login has this username"),
    "invalid_username": _("Username: type the login's username"),
    "invalid_role": _("Role: a director or a scorer"),
    "last_director": _("The event keeps one director at least: add another first"),
}


def yaku_name(yaku_id: str) -> str:
    """The yaku, yakuman or bonus ``yaku_id`` in the reader's language."""
    return YAKU.get(yaku_id) or yaku_id.replace("_", " ")


def refusal(code: str, message: str, detail: str | None = None) -> str:
    """An engine refusal in the reader's language: in English the engine's
    own message, which is the detailed one; in another language the
    translated sense of its detail, else of its code."""
    if (get_language() or "en").split("-")[0] == "en":
        return message
    text = REFUSALS.get(detail or "") or REFUSALS.get(code)
    return message if text is None else str(text)


def unreplayable_text(refused: Unreplayable) -> str:
    """A stored hand the engine refuses, as a sentence's start in the reader's
    language: "Hand 2 cannot be replayed: 25 fu needs at least 2 han"."""
    return capfirst(refusal_of(refused))


# The abortive draws by the engine's id; in English lower case, as the hand log writes them.
ABORT_REASONS: dict[str, str] = {
    "kyuushu_kyuuhai": _("kyuushu kyuuhai"), "suufon_renda": _("suufon renda"),
    "suucha_riichi": _("suucha riichi"), "suukaikan": _("suukaikan"), "sanchahou": _("sanchahou"),
}


def abort_reason_text(reason: str) -> str:
    """An abortive draw's reason as the reader calls it ("kyuushu kyuuhai", 九種九牌)."""
    return str(ABORT_REASONS.get(reason) or reason.replace("_", " "))


# A player list's refusals (league.event.roster, pure), by code; the
# values each names fill the placeholders. The column names are the file's
# own (English, as its header must write them).
ROSTER: dict[str, str] = {
    "empty": _("the file is empty; line 1 must name the columns"),
    "too_many": _("a list holds at most %(n)s players"),
    "too_many_cells": _("%(cells)s cells, but the header names %(columns)s columns"),
    "duplicate": _("%(value)s is already on line %(earlier)s"),
    "no_players": _("the file has a header but no players"),
    "unknown_column": _("unknown column “%(column)s” (known: %(known)s)"),
    "column_twice": _("column “%(column)s” appears twice"),
    "missing_column": _("the header lacks the “%(column)s” column"),
    "not_event_number": _("“%(value)s” is not a whole number from 1 to %(most)s"),
    "nul": _("holds a NUL character"),
    "not_csv": _("cannot be read as CSV (a line break inside a cell that is not in quotes, or a cell far too long)"),
    "empty_cell": _("is empty"),
    "too_long": _("is longer than %(limit)s characters"),
    "not_ema": _("“%(value)s” is not an EMA number (digits only)"),
    "not_country": _("“%(value)s” is not an ISO 3166 country code (two letters, e.g. NL, JP)"),
    "not_yes_no": _("“%(value)s” is not yes or no"),
}


def roster_error(error: Any) -> str:
    """A ``roster.RowError`` in the reader's language: "line 3: country: ..."."""
    if (get_language() or "en").split("-")[0] == "en" or error.code not in ROSTER:
        return str(error)
    text = str(ROSTER[error.code]) % dict(error.values)
    if error.field:
        text = _("%(column)s: %(problem)s") % {"column": error.field, "problem": text}
    return _("line %(line)s: %(problem)s") % {"line": error.line, "problem": text} if error.line else text
