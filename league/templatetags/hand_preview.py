"""The hand preview's markup, in one place: what the posted hand pays, why
it cannot be saved yet, or that the form was built on an older state of the
game. The staff game page places it with ``{% hand_preview %}`` (the
context its form view builds); the live preview (``views.staff_preview``)
answers it as a fragment from the same context. One function, so the page
and every tap's answer cannot drift apart.

Built in Python rather than by a template because the live preview is
priced per tap (issue 28): the template's node renders cost more than the
rest of the preview's own work. The output is the template's, byte for byte
(tests/league/test_hand_preview.py): every value escaped as ``{{ }}`` does,
our translated words placed as ``{% translate %}`` places them (they are
ours, not the user's), each ``{% blocktranslate %}`` msgid kept as it was so
the catalogue's translations stay in use. No ``gettext`` inside an f-string:
``makemessages`` (xgettext) would not find it."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from league.memos import per_language
from league.round_names import round_name
from league.templatetags.league import delta, score
from league.templatetags.staff import honba, pay_summary, sticks

register = template.Library()


# The words that do not change with the hand, looked up once per language:
# a dozen catalogue lookups (each reads the language through asgiref's Local)
# were most of the markup's cost per tap.
@per_language
def _words() -> dict[str, Any]:
    return {
        "pays": gettext("Hand %(number)s pays"),
        "table": (
            '  <div class="table-wrap" tabindex="0" role="region" aria-label="{}"><table>\n    <thead><tr>'
            '<th>{}</th><th class="num">{}</th><th class="num">{}</th><th class="num">{}</th></tr></thead>\n'
            "    <tbody>"
        ).format(gettext("Scores before and after"), gettext("Seat"), gettext("Before"), gettext("Change"),
             gettext("After")),
        "later": gettext("Later hands whose payments change"),
        "hand": gettext("Hand %(number)s"),
        "gone": gettext("no longer played"),
        "none_later": gettext("No later hand's payments change."),
        # Whole sentences, so a language ends them with its own stop (。) and lists with its own "；".
        "ends": gettext("<strong>This ends the game:</strong> %(reason)s."),
        "next": gettext("Next: %(round)s, %(honba)s, %(sticks)s; %(dealer)s deals."),
        "rest": gettext("After replaying the rest: %(scores)s."),
        "list": gettext("; "),
        "where": gettext("%(round)s, %(honba)s"),
        "said": {},  # round names, honba and sticks in words, as said once (a few dozen per language)
    }


def _said(words: dict[str, Any], kind: Any, value: Any) -> str:
    """``round_name``, ``honba`` or ``sticks`` of ``value``, escaped, looked up once per language."""
    said = words["said"]
    key = (kind, value)
    text = said.get(key)
    if text is None:
        text = _e(kind(value))
        if len(said) < 500:  # a bound, not a policy
            said[key] = text
    return text


def _e(value: Any) -> str:
    """As ``{{ value }}`` writes it: text escaped, safe text as it is. What
    ``conditional_escape`` does, without the lazy-text wrapper Django puts
    around its ``escape``, which cost more than the escaping (a fragment
    escapes some fifteen values). A whole number needs no escaping: its digits
    as ``str`` writes them (the hand's number, not through Django's wrapper)."""
    kind = type(value)
    if kind is str:
        return html.escape(value) if _SPECIAL.search(value) else value
    if kind is int:
        return str(value)
    if isinstance(value, str) and not hasattr(value, "__html__"):
        return html.escape(value)
    return conditional_escape(value)


# What ``html.escape`` replaces: a text with none of it is written as it is
# (most names and payments), without its five passes.
_SPECIAL = re.compile("[&<>\"']")


as_written = _e  # the same escaping for the page's other parts built in Python (staff_parts)


@register.simple_tag(takes_context=True)
def hand_preview(context: template.Context) -> SafeString:
    """``{% hand_preview %}``: the preview of the page's form."""
    return preview_html(context)


def preview_html(ctx: Mapping[str, Any]) -> SafeString:
    """The preview for a context of ``views.entry_form.priced`` (with ``form``
    and ``names``), or ``{"form": now, "stale": True}`` for the stale notice."""
    form = ctx.get("form")
    if ctx.get("stale"):
        url = reverse("staff-game", args=[form.game.pk])
        words = gettext(
            '<strong>This form was made before the game last changed</strong> (another scorer, or the Back '
            'button). Nothing was saved. <a href="%(game_url)s">Load the game as it is now</a>.'
        ) % {"game_url": _e(url)}
        body = f'\n<div class="preview pending" data-stale="1">\n  <p>{words}</p>\n</div>\n'
    elif form is not None and form.is_bound and form.errors:
        items = "".join(f'<li data-field="{_e(name)}" data-message="{_e(message)}">{_e(line)}</li>'
                        for name, line, message in form.error_items())
        before_saved = gettext("Before it can be saved:")
        body = (f'\n<div class="preview pending" data-errors="1">\n  <p><strong>{before_saved}'
                f'</strong></p>\n  <ul class="errorlist">{items}</ul>\n</div>\n')
    elif ctx.get("preview"):
        body = _priced(ctx)
    elif form is not None and form.is_bound:
        choose = gettext("Choose what happened to see what is paid.")
        body = f'\n<div class="preview pending"><p>{choose}</p></div>\n'
    else:
        body = ""
    return mark_safe(f"\n{body}\n")


def _priced(ctx: Mapping[str, Any]) -> str:
    shown, rows, words = ctx["preview"], ctx["preview_rows"], _words()
    out = [
        f'\n<div class="preview" data-digest="{_e(ctx["digest"])}" data-deltas="{" ".join(str(r["delta"]) for r in rows)}"'
        f' data-summary="{_e(pay_summary(rows))}">\n'
        f'  <h3>{words["pays"] % {"number": _e(shown.number)}}</h3>\n  ',
    ]
    if counted := ctx.get("counted"):
        out.append('<ul class="counted">' + "".join(f"<li>{_e(line)}</li>" for line in counted) + "</ul>")
    out.append('\n  <ul class="payments">' + "".join(f"<li>{_e(line)}</li>" for line in ctx["payments"]) + "</ul>\n")
    out.append(words["table"])
    for r in rows:
        sign = "pos" if r["delta"] > 0 else "neg" if r["delta"] < 0 else ""
        out.append(f'\n      <tr><td>{_e(r["name"])}</td><td class="num">{score(r["before"])}</td>\n'
                   f'        <td class="num {sign}">{delta(r["delta"])}</td>\n'
                   f'        <td class="num">{score(r["after"])}</td></tr>\n    ')
    out.append("</tbody>\n  </table></div>\n  ")
    if later := ctx.get("later_changes"):
        out.append(f'\n  <h4>{words["later"]}</h4>\n  <ul class="later">')
        for c in later:
            where = _round(words, c["round"], c["honba"])
            if c["moved"]:
                where += " → " + _round(words, c["new_round"], c["new_honba"])
            seats = words["list"].join(
                f'{_e(s["name"])} {delta(s["before"])} → '
                + (words["gone"] if s["after"] is None else delta(s["after"]))
                for s in c["seats"]
            )
            out.append(f'\n    <li>{words["hand"] % {"number": _e(c["number"])}} ({where}):\n'
                       f"      {seats}</li>\n  ")
        out.append("</ul>\n  ")
    elif shown.before:
        out.append(f"\n  <p>{words['none_later']}</p>\n  ")
    out.append("\n  ")
    game = shown.game
    if ended := ctx.get("preview_ended"):
        out.append(f'\n  <p>{words["ends"] % {"reason": _e(ended)}}</p>\n  ')
    elif game.next and shown.number == len(game.hands):
        nxt = game.next
        line = words["next"] % {
            "round": _said(words, round_name, nxt.round_label), "honba": _said(words, honba, nxt.honba),
            "sticks": _said(words, sticks, nxt.riichi_sticks), "dealer": _e(ctx["preview_dealer"])}
        out.append(f"\n  <p>{line}</p>\n  ")
    elif game.next:
        final = " · ".join(f'{_e(r["name"])} {score(r["score"])}' for r in ctx["final_rows"])
        out.append(f'\n  <p>{words["rest"] % {"scores": final}}</p>\n  ')
    out.append("\n</div>\n")
    return "".join(out)


def _round(words: dict[str, Any], label: str, n: int) -> str:
    return words["where"] % {"round": _said(words, round_name, label), "honba": _said(words, honba, n)}
