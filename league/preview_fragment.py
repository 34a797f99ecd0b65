"""The live preview's fragment (issue 28): what a posted hand pays, why it
cannot be saved yet, or that its form was built on an older state of the
game, as HTML put together in Python rather than by the template engine.

The preview is the request a scorer's every tap sends while the phone's
engine does not price, and Django's template engine spent more on this
fragment (about forty values, four loops: its per-node cost) than the view
spent on everything else after the login. The words are the template's
msgids, looked up the way ``{% translate %}`` and ``{% blocktranslate %}``
look them up; every value is escaped as the template escapes it
(``conditional_escape``), the translated words are not (a literal's
translation is safe in a template, as is the sentence around a
``blocktranslate``'s values).

``render(context)`` takes the context the template took (``stale``,
``form``, and ``priced``'s keys) and gives the template's bytes:
tests/league/test_preview_fragment.py renders both over seeded random
games, corrections, refusals and stale forms, in English and Japanese, and
finds them equal. The staff game page's first look includes the same
fragment.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.translation import gettext

from league.round_names import round_name
from league.templatetags.league import delta, score
from league.templatetags.staff import honba as _honba
from league.templatetags.staff import pay_summary
from league.templatetags.staff import sticks as _sticks

__all__ = ["render"]


def _e(value: Any) -> str:
    """``conditional_escape``, without its cost for the numbers and plain words
    that make up most of the fragment (Django's ``escape`` is ``html.escape``)."""
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is str:
        return html.escape(value)
    return str(conditional_escape(value))


def _t(msgid: str) -> str:
    """``{% translate "msgid" %}``: the words as they are (a literal's translation is safe there)."""
    return gettext(msgid)


def render(context: Mapping[str, Any]) -> str:
    """The fragment for ``context`` (see the module's docstring)."""
    form = context.get("form")
    if context.get("stale"):
        url = _e(reverse("staff-game", args=[form.game.pk]))
        words = gettext("<strong>This form was made before the game last changed</strong> (another scorer, or the "
                        "Back button). Nothing was saved. <a href=\"%(game_url)s\">Load the game as it is "
                        "now</a>.") % {"game_url": url}
        body = f'\n<div class="preview pending" data-stale="1">\n  <p>{words}</p>\n</div>\n'
    elif form is not None and form.is_bound and form.errors:
        items = "".join(f'<li data-field="{_e(name)}" data-message="{_e(message)}">{_e(line)}</li>'
                        for name, line, message in form.error_items())
        body = (f'\n<div class="preview pending" data-errors="1">\n  <p><strong>{_t("Before it can be saved:")}'
                f'</strong></p>\n  <ul class="errorlist">{items}</ul>\n</div>\n')
    elif context.get("preview"):
        body = _priced(context)
    elif form is not None and form.is_bound:
        body = f'\n<div class="preview pending"><p>{_t("Choose what happened to see what is paid.")}</p></div>\n'
    else:
        body = ""
    return f"\n{body}\n"


def _priced(c: Mapping[str, Any]) -> str:
    preview, rows = c["preview"], c["preview_rows"]
    summary = pay_summary(rows)
    out = [
        f'\n<div class="preview" data-digest="{_e(c["digest"])}" data-deltas="{" ".join(_e(r["delta"]) for r in rows)}"'
        f' data-summary="{_e(summary)}">\n  <h3>{gettext("Hand %(number)s pays") % {"number": _e(preview.number)}}'
        "</h3>\n  ",
    ]
    if c["counted"]:
        out.append('<ul class="counted">' + "".join(f"<li>{_e(line)}</li>" for line in c["counted"]) + "</ul>")
    out.append('\n  <ul class="payments">' + "".join(f"<li>{_e(line)}</li>" for line in c["payments"]) + "</ul>\n")
    out.append(f'  <div class="table-wrap" tabindex="0" role="region" aria-label="{_t("Scores before and after")}">'
               f'<table>\n    <thead><tr><th>{_t("Seat")}</th><th class="num">{_t("Before")}</th>'
               f'<th class="num">{_t("Change")}</th><th class="num">{_t("After")}</th></tr></thead>\n    <tbody>')
    for r in rows:
        sign = "pos" if r["delta"] > 0 else "neg" if r["delta"] < 0 else ""
        out.append(f'\n      <tr><td>{_e(r["name"])}</td><td class="num">{_e(score(r["before"]))}</td>\n'
                   f'        <td class="num {sign}">{_e(delta(r["delta"]))}</td>\n'
                   f'        <td class="num">{_e(score(r["after"]))}</td></tr>\n    ')
    out.append("</tbody>\n  </table></div>\n  ")
    if c["later_changes"]:
        out.append(f'\n  <h4>{_t("Later hands whose payments change")}</h4>\n  <ul class="later">')
        for ch in c["later_changes"]:
            moved = (f" → {_e(round_name(ch['new_round']))}, {_e(_honba(ch['new_honba']))}" if ch["moved"] else "")
            seats = "; ".join(
                f"{_e(s['name'])} {_e(delta(s['before']))} → "
                + (_t("no longer played") if s["after"] is None else _e(delta(s["after"])))
                for s in ch["seats"])
            out.append(f'\n    <li>{gettext("Hand %(number)s") % {"number": _e(ch["number"])}} '
                       f"({_e(round_name(ch['round']))}, {_e(_honba(ch['honba']))}{moved}):\n      {seats}</li>\n  ")
        out.append("</ul>\n  ")
    elif preview.before:
        out.append("\n  <p>" + _t("No later hand's payments change.") + "</p>\n  ")
    out.append("\n  ")
    game = preview.game
    if c["preview_ended"]:
        out.append(f'\n  <p><strong>{_t("This ends the game:")}</strong> {_e(c["preview_ended"])}.</p>\n  ')
    elif game.next and preview.number == len(game.hands):
        nxt = game.next
        words = gettext("Next: %(round)s, %(honba)s, %(sticks)s; %(dealer)s deals.") % {
            "round": _e(round_name(nxt.round_label)), "honba": _e(_honba(nxt.honba)),
            "sticks": _e(_sticks(nxt.riichi_sticks)), "dealer": _e(c["preview_dealer"])}
        out.append(f"\n  <p>{words}</p>\n  ")
    elif game.next:
        finals = " · ".join(f"{_e(r['name'])} {_e(score(r['score']))}" for r in c["final_rows"])
        out.append(f'\n  <p>{_t("After replaying the rest:")} {finals}.</p>\n  ')
    out.append("\n</div>\n")
    return "".join(out)
