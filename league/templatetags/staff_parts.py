"""The staff game page's parts that a save answers in place (issue 28):
where the game stands, a hand of the hands list, an earlier hand to
correct, what sits below the list, an entry of the change history. The
page places them with tags (``{% staff_state %}``, ``{% hand_row r %}``,
``{% fix_link r %}``, ``{% hands_below %}``, ``{% change_entry e %}``) and
the answer in place (``views.game_page.in_place_answer``) calls the same
functions: one markup, so the page and the answer cannot drift apart
(tests/league/test_save_in_place.py finds the answer's parts in the page).

Built in Python rather than by templates, as ``hand_preview`` is: the five
partials' node renders were a sixth of a save's CPU. The output is the
templates' as they were, byte for byte (tests/league/test_staff_parts.py
holds the page's bytes): values escaped as ``{{ }}`` escapes them, our words
as ``{% translate %}`` gives them (escaped too), each ``{% blocktranslate %}``
msgid kept so the catalogue's translations stay in use."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language, gettext, ngettext

from league.memos import per_language
from league.round_names import round_name, round_short
from league.templatetags.hand_preview import as_written as _e
from league.templatetags.league import score
from league.templatetags.staff import honba, sticks

register = template.Library()


@per_language
def _words() -> dict[str, Any]:
    """The words that do not change with the game, in the active language,
    looked up once per language (``league.memos.per_language``)."""
    return {
        "where_stands": _e(gettext("Where the game stands")),
        "correct_n": gettext("Correct hand %(number)s…"),
        "earlier": _e(gettext("Correct an earlier hand")),
        "correct_colon": _e(gettext("Correct hand:")),
        "who": gettext("Hand %(number)s · <strong>%(dealer)s</strong> deals"),
        "dealer": _e(gettext("dealer")),
        "correct_hand_n": gettext("Correct hand %(number)s"),
        "correct": _e(gettext("Correct…")),
        "correct_hand": _e(gettext("Correct hand")),
        "undo": gettext("Undo hand %(number)s…"),
        "end": _e(gettext("End the game…")),
        "reopen": _e(gettext("Reopen the game…")),
        "final": _e(gettext("Enter end scores only…")),
        "penalties": _e(gettext("Penalties")),
        "by": gettext("by %(who)s"),
    }


def _where(state: Any) -> str:
    """"South 3, 2 honba, 1 stick on the table", escaped."""
    return _where_in(get_language(), state.round_label, state.honba, state.riichi_sticks)


@functools.lru_cache(maxsize=512)
def _where_in(language: str | None, label: str, n_honba: int, n_sticks: int) -> str:
    return gettext("%(round)s, %(honba)s, %(sticks)s") % {
        "round": _e(round_name(label)), "honba": _e(honba(n_honba)), "sticks": _e(sticks(n_sticks))}


def _short(label: str) -> str:
    """``round_short`` ("E3", 東3), escaped."""
    return _short_in(get_language(), label)


@functools.lru_cache(maxsize=256)
def _short_in(language: str | None, label: str) -> str:
    return _e(round_short(label))


def _url(name: str, *args: int) -> str:
    """``{% url name *args %}``, escaped; each address reversed once per URL
    configuration and script prefix (what ``reverse`` reads besides its
    arguments): a save's answer asked for six, a dozen microseconds apiece."""
    return _reversed(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF, name, args)


@functools.lru_cache(maxsize=1024)
def _reversed(prefix: str, urlconf: Any, name: str, args: tuple[int, ...]) -> str:
    return _e(reverse(name, urlconf=urlconf, args=args))


def _edit_url(game_pk: int, number: int) -> str:
    return _url("staff-edit-hand", game_pk, number)


def state_html(ctx: Mapping[str, Any]) -> SafeString:
    """Where the game stands (the context of ``views.game_page.game_context``,
    with ``fix_rows`` and ``editing`` as the page has them)."""
    words, game, rows, state = _words(), ctx["game"], ctx["rows"], ctx["state"]
    editing = ctx.get("editing")
    out = [f'<section class="state{" while-editing" if editing else ""}" aria-label="{words["where_stands"]}">\n'
           '  <div class="line">']
    if rows and not editing:
        number = len(rows)
        out.append(f'<div class="fix"><a class="fix-last" href="{_edit_url(game.pk, number)}">'
                   f'{words["correct_n"] % {"number": number}}</a>\n    ')
        if number > 1:
            links = "".join(fix_link_html(game.pk, r) for r in ctx["fix_rows"])
            out.append(f'<details class="fix-other"><summary aria-label="{words["earlier"]}">'
                       '<span aria-hidden="true">▾</span></summary>\n'
                       f'      <div class="fix-panel"><p>{words["correct_colon"]}</p><ul>{links}</ul></div>\n'
                       "    </details>")
        out.append("</div>")
    where = _where(state)
    who = words["who"] % {"number": len(rows) + 1, "dealer": _e(ctx["dealer"])}
    out.append(f'\n    <p class="where">{where}</p>\n    <p class="who">{who}</p></div>\n  <ul class="scores">\n    ')
    for s in ctx["seats"]:
        tag = f' <span class="tag">{words["dealer"]}</span>' if s["dealer"] else ""
        dealer = ' class="dealer"' if s["dealer"] else ""
        out.append(f'<li{dealer}><span class="name">{_e(s["name"])}</span>\n'
                   f'      <span class="pts">{_e(score(s["score"]))}</span>{tag}</li>')
    out.append("\n  </ul>\n</section>")
    return mark_safe("".join(out))


def fix_link_html(game_pk: int, r: Any) -> SafeString:
    """An earlier hand to correct, from the top (``r``: a ``HandRow``)."""
    played = r.played
    return mark_safe(f'<li><a href="{_edit_url(game_pk, r.hand.number)}"><span class="sr-only">'
                     f'{_words()["correct_hand"]} </span>{r.hand.number}<small>{_short(played.round_label)}'
                     f"-{played.honba}</small></a></li>")


def hand_row_html(game_pk: int, r: Any) -> SafeString:
    """One hand of the hands list (``r``: a ``HandRow``)."""
    words, played, number = _words(), r.played, r.hand.number
    after = "".join(f'<span class="seat-score"><span class="name">{_e(s["name"])}</span> '
                    f'<span class="pts">{_e(score(s["score"]))}</span></span>' for s in r.after)
    label = words["correct_hand_n"] % {"number": number}
    return mark_safe(
        f'<tr><td>{number}<br><span class="meta">{_short(played.round_label)}-{played.honba}</span></td>\n'
        f'      <td>{_e(r.text)}<br><a href="{_edit_url(game_pk, number)}" aria-label="{label}">'
        f'{words["correct"]}</a></td>\n'
        f'      <td class="num after">{after}</td></tr>\n')


def hands_below_html(ctx: Mapping[str, Any]) -> SafeString:
    """Below the hands list: all the hands, undo, end, penalties."""
    words, game, rows = _words(), ctx["game"], ctx["rows"]
    out = []
    if rows and len(ctx["last_rows"]) < len(rows):
        n = len(rows)
        all_hands = ngettext("All %(counter)s hand", "All %(counter)s hands", n) % {"counter": n}
        out.append(f'<p class="all-hands"><a href="?all=1">{all_hands}</a></p>')
    out.append('\n<div class="buttons">\n  ')
    if rows:
        undo = words["undo"] % {"number": len(rows)}
        out.append(f'<a class="button danger" href="{_url("staff-undo", game.pk)}">{undo}</a>')
    out.append("\n  ")
    if ctx["state"]:
        out.append(f'<a class="button" href="{_url("staff-finish", game.pk)}">{words["end"]}</a>')
    out.append("\n  ")
    if game.is_finished and game.end:
        out.append(f'<a class="button" href="{_url("staff-reopen", game.pk)}">{words["reopen"]}</a>')
    out.append("\n  ")
    if not rows and not game.is_finished:
        out.append(f'<a class="button" href="{_url("staff-final-scores", game.pk)}">'
                   f'{words["final"]}</a>')
    penalties = ctx["penalties"]
    count = f" ({len(penalties)})" if penalties else ""
    out.append(f'\n  <a class="button" href="{_url("staff-penalties", game.pk)}">'
               f'{words["penalties"]}{count}</a>\n</div>\n')
    return mark_safe("".join(out))


def change_html(e: Any) -> SafeString:
    """One entry of the change history (a ``GameAudit``)."""
    at = template_localtime(e.at)  # as ``{{ e.at|date:"H:i" }}``: the reader's time zone
    at = f"{at.hour:02d}:{at.minute:02d}"
    number = f" {e.hand_number}" if e.hand_number else ""
    who = f" {_words()['by'] % {'who': _e(e.username)}}" if e.username else ""
    return mark_safe(f"<li>{at} {_e(e.get_action_display())}{number}{who}</li>\n")


@register.simple_tag(takes_context=True)
def staff_state(context: template.Context) -> SafeString:
    return state_html(context)


@register.simple_tag(takes_context=True)
def hand_row(context: template.Context, r: Any) -> SafeString:
    return hand_row_html(context["game"].pk, r)


@register.simple_tag(takes_context=True)
def fix_link(context: template.Context, r: Any) -> SafeString:
    return fix_link_html(context["game"].pk, r)


@register.simple_tag(takes_context=True)
def hands_below(context: template.Context) -> SafeString:
    return hands_below_html(context)


@register.simple_tag
def change_entry(e: Any) -> SafeString:
    return change_html(e)
