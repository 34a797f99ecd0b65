"""The words the page's scripts show, in the request's language.

The scripts (staff_game.js, the queue/ modules, live_poll.js) write no English of their
own: each template that loads them links one small script per language,
``/words/<language>.<version>.js`` (``{% script_words %}``), that hands this
dict to ``words.js``. The version is a hash of the words, so the browser keeps
the file for a year and a changed catalogue gets a new address; the pages stay
within their byte budget and the service worker keeps every language. A
value holds ``{name}`` where the script puts a number or a name; a key ending
in ``_one``/``_many`` is one message in its singular and plural form (the
script picks by the count). Round names, honba and sticks are the server's own
filters, so the phone's state line reads as the server's page does.
``tests/league/test_script_words.py`` holds every key a script asks for to
this dict, and the scripts to using nothing else.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.round_names import ROUND_WINDS, round_name

_SLOT = re.compile(r"%\((\w+)\)[sd]")


def _slots(text: str) -> str:
    """A translated Python-format message with each %(name)s (or %(name)d) as {name}."""
    return _SLOT.sub(r"{\1}", text)


def _forms(key: str, message: Callable[[int], str]) -> dict[str, str]:
    """``key_one`` and ``key_many``: ``message`` (an ngettext) for one, and for two
    (plural in English; Japanese has one form)."""
    return {f"{key}_one": _slots(message(1)), f"{key}_many": _slots(message(2))}


def script_words() -> dict[str, object]:
    """Every word the staff and live pages' scripts write, keyed by what it is for."""
    words: dict[str, object] = {
        # staff_game.js: the save bar.
        "saving": _("Saving…"),
        "not_ready_field": _slots(_("Not ready: check “%(field)s” (tap to see).")),
        "not_ready_below": _("Not ready: see the notes under the form (tap to see)."),
        "stale": _("Not saved: the game changed since this form was made (tap to see)."),
        "login_expired_save": _("Not saved yet: your login expired. Enter your password at the top of the page."),
        "unsent": _("Not sent: offline. Kept here; it is sent when the network is back."),
        "pays": _slots(_("Hand %(number)s pays")),  # a price made on the phone, as the server's preview heads it
        # queue/: the banner.
        # A kept entry named, then what it is ("Hand 2: Draw, tenpai West Carol"; 第2局：…).
        "named": _slots(_("%(name)s: %(entry)s")),
        "named_sentence": _slots(_("%(name)s: %(entry)s.")),
        "list": _("; "),  # between a kept hand's payment lines (；in Japanese), as the hands list joins them
        "banner_loading": _("No network. Getting this phone ready to price hands…"),
        "banner_offline_empty": _("No network. Go on entering hands: they are kept on this phone and sent when "
                                  "the network is back."),
        "banner_no_engine": _("No network: a hand saved now stays on screen until the network is back."),
        # queue/: the state line and the form.
        "where": _slots(_("%(round)s, %(honba)s, %(sticks)s")),  # the state line, as staff_parts writes it
        "honba": _slots(_("%(n)d honba")),
        "sticks_none": _("no sticks on the table"),
        "hand_title": _slots(_("Hand %(number)s")),
        "hand_deals": _slots(_("Hand %(number)s · <strong>%(dealer)s</strong> deals"))
        .replace("<strong>", "").replace("</strong>", ""),
        "save_hand": _slots(_("Save hand %(number)s")),
        "correct_title": _slots(_("Correct hand %(number)s")),
        "save_correction": _("Save correction"),
        "cancel_correction": _("Cancel the correction"),
        "phone_over": _("The game is over on this phone; it is saved when the queue is sent."),
        # offline.json's refused stored hand: the staff page's own sentence, then what needs the network.
        "sentence": _slots(_("%(sentence)s.")),  # a sentence ended with the language's stop (。in Japanese)
        "refused_after": _("No hand can be entered after it until it is corrected or undone."),
        "refused_online": _("Correct or undo it on this page once the network is back."),
        # queue/: the list of entries kept on the phone.
        "queued_title": _("On this phone, not yet saved"),
        "queued_hand": _slots(_("Hand %(number)s")),
        "queued_correction": _slots(_("Correction of hand %(number)s")),
        "badge": _("on this phone"),
        "correct": _("Correct…"),
        "queued_status_hand": _slots(_("Hand %(number)s: on this phone, not yet saved.")),
        "queued_status_correction": _slots(_("Correction of hand %(number)s: on this phone, not yet saved.")),
        # queue/: the phone's price.
        "before_saved": _("Before it can be saved:"),
        "phone_pays": _slots(_("Hand %(number)s pays (priced on this phone)")),
        # queue/: a stop, and the scorer's choice.
        "stop_conflict": _("Not saved: the game changed on the server"),
        "stop_price": _("Not saved: the server prices this hand differently"),
        "stop_refused": _("Not saved: the server did not take this entry"),
        "on_phone": _("On this phone"),
        "on_server": _("On the server"),
        "send_as_server": _("Send it as the server prices it"),
        "keep_mine": _("Keep mine as the next hand"),
        "remove_mine": _("Remove mine from this phone…"),
        "remove_hand_again": _slots(_("Tap again: remove hand %(number)s for good")),
        "remove_correction_again": _slots(_("Tap again: remove the correction of hand %(number)s for good")),
        "no_longer_fits": _slots(_("Hand %(number)s no longer fits the game: %(errors)s")),
        "unreachable": _("The server could not be reached; try again."),
        "review_title": _("Check the new numbers, then send"),
        "review_text": _("Your entries now follow the game as the server has it; each is priced again above."),
        # queue/: a login that expired.
        "login_text": _slots(_("Your login has expired. Enter the password for %(user)s to go on: nothing you "
                               "entered is lost.")),
        "password": _("Password"),
        "log_in_again": _("Log in again"),
        "not_logged_in": _("Not logged in."),
        "no_answer": _("No answer from the server: try again."),
        # live_poll.js
        "updated": _slots(_("Updated %(time)s")),
        # engine.js: the offline engine's words in this language (league/engine_catalogue.py).
        "engine_words": engine_words_url(),
        # The server's own round names, for every label a game can reach.
        "rounds": {f"{w}{n}": round_name(f"{w}{n}") for w in ROUND_WINDS for n in range(1, 5)},
    }
    words |= _forms("sticks", lambda n: ngettext("%(n)d stick on the table", "%(n)d sticks on the table", n))
    words |= _forms("banner_offline", lambda n: ngettext(
        "No network. %(n)s entry is on this phone, not yet saved; it is sent when the network is back.",
        "No network. %(n)s entries are on this phone, not yet saved; they are sent when the network is back.", n))
    words |= _forms("banner_stopped", lambda n: ngettext(
        "Sending stopped: see below. %(n)s entry is on this phone, not yet saved.",
        "Sending stopped: see below. %(n)s entries are on this phone, not yet saved.", n))
    words |= _forms("banner_sending", lambda n: ngettext(
        "Sending %(n)s entry to the server…", "Sending %(n)s entries to the server…", n))
    words |= _forms("more_kept", lambda n: ngettext("%(n)s more after it, kept.", "%(n)s more after it, kept.", n))
    words |= _forms("send_entries", lambda n: ngettext("Send %(n)s entry", "Send %(n)s entries", n))
    return words


def engine_words_url(language: str | None = None) -> str:
    """The address of the engine's catalogue in ``language`` (default: the active one)."""
    from league.engine_catalogue import catalogue_json

    code = language or translation.get_language() or "en"
    code = code if code in dict(settings.LANGUAGES) else code.split("-")[0]
    return reverse("engine-words", args=[code, catalogue_json(code)[0]])


@cache
def words_script(language: str) -> tuple[str, bytes]:
    """The version and the body of the words script for ``language`` (a code of
    settings.LANGUAGES): ``window.TenbouWordsData = {...};`` in UTF-8. Built once
    per process and language: the catalogue is read once per process too."""
    with translation.override(language):
        text = json.dumps(script_words(), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    body = f"window.TenbouWordsData={text};\n".encode()
    return hashlib.sha256(body).hexdigest()[:12], body
