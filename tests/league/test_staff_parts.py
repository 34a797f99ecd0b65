"""The staff game page's parts that a save answers in place
(``league.templatetags.staff_parts``), the one copy the page places and the
answer in place sends (issue 28: built in Python, not by five partial
templates, as every save answers with them). The expected fragments below
are what the templates they replaced rendered for the same contexts, byte
for byte, in English and Japanese, with names and a login that need
escaping; then the answer in place is found, part for part, in the page
the redirect would have shown, in Japanese (English:
tests/league/test_save_in_place.py)."""

from __future__ import annotations

import datetime
from types import SimpleNamespace as NS
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from league.models import Game
from league.templatetags.staff_parts import change_html, fix_link_html, hand_row_html, hands_below_html, state_html
from tests.factories import draw, play

NAMES = ["East Al <b>", "South B&B", 'West "C"', "North D"]


def _row(n: int, label: str, honba: int) -> NS:
    return NS(hand=NS(number=n), played=NS(round_label=label, honba=honba), text='Ron <x> & "y"',
              after=[{"name": name, "score": 25000 + 100 * i * n} for i, name in enumerate(NAMES)])


ROWS = [_row(1, "E1", 0), _row(2, "E2", 1), _row(3, "S1", 2)]
CTX: dict[str, Any] = {
    "game": NS(pk=7, is_finished=False, end=""), "rows": ROWS, "fix_rows": ROWS[:-1], "editing": None,
    "state": NS(round_label="S3", honba=2, riichi_sticks=1), "dealer": "West <C>", "last_rows": ROWS[-2:],
    "seats": [{"name": name, "score": score, "dealer": i == 2}
              for i, (name, score) in enumerate(zip(NAMES, [31000, -1200, 25000, 1000], strict=True))],
    "penalties": [1, 2],
}
# A game staff ended early, no hand played: nothing to undo, reopen instead of end.
ENDED = {**CTX, "game": NS(pk=7, is_finished=True, end="early"), "state": None, "rows": [], "last_rows": [],
         "penalties": []}
CHANGE = NS(at=datetime.datetime(2026, 11, 26, 23, 5, tzinfo=datetime.UTC), hand_number=3, username="al<&>",
            get_action_display=lambda: "Record hand")

EXPECTED = {
    "en": {
        "state": (
            '<section class="state" aria-label="Where the game stands">\n  <div class="line"><div class="fix"><a class="fix-last" href="/staff/games/7/hands/3/">Correct hand 3…</a>\n    <details class="fix-other"><summary aria-label="Correct an earlier hand"><span aria-hidden="true">▾</span></summary>\n      <div class="fix-panel"><p>Correct hand:</p><ul><li><a href="/staff/games/7/hands/1/"><span class="sr-only">Correct hand </span>1<small>E1-0</small></a></li><li><a href="/staff/games/7/hands/2/"><span class="sr-only">Correct hand </span>2<small>E2-1</small></a></li></ul></div>\n    </details></div>\n    <p class="where">South 3, 2 honba, 1 stick on the table</p>\n    <p class="who">Hand 4 · <strong>West &lt;C&gt;</strong> deals</p></div>\n  <ul class="scores">\n    <li><span class="name">East Al &lt;b&gt;</span>\n      <span class="pts">31,000</span></li><li><span class="name">South B&amp;B</span>\n      <span class="pts">-1,200</span></li><li class="dealer"><span class="name">West &quot;C&quot;</span>\n      <span class="pts">25,000</span> <span class="tag">dealer</span></li><li><span class="name">North D</span>\n      <span class="pts">1,000</span></li>\n  </ul>\n</section>'
        ),
        "editing": (
            '<section class="state while-editing" aria-label="Where the game stands">\n  <div class="line">\n    <p class="where">South 3, 2 honba, 1 stick on the table</p>\n    <p class="who">Hand 4 · <strong>West &lt;C&gt;</strong> deals</p></div>\n  <ul class="scores">\n    <li><span class="name">East Al &lt;b&gt;</span>\n      <span class="pts">31,000</span></li><li><span class="name">South B&amp;B</span>\n      <span class="pts">-1,200</span></li><li class="dealer"><span class="name">West &quot;C&quot;</span>\n      <span class="pts">25,000</span> <span class="tag">dealer</span></li><li><span class="name">North D</span>\n      <span class="pts">1,000</span></li>\n  </ul>\n</section>'
        ),
        "row": (
            '<tr><td>2<br><span class="meta">E2-1</span></td>\n      <td>Ron &lt;x&gt; &amp; &quot;y&quot;<br><a href="/staff/games/7/hands/2/" aria-label="Correct hand 2">Correct…</a></td>\n      <td class="num after"><span class="seat-score"><span class="name">East Al &lt;b&gt;</span> <span class="pts">25,000</span></span><span class="seat-score"><span class="name">South B&amp;B</span> <span class="pts">25,200</span></span><span class="seat-score"><span class="name">West &quot;C&quot;</span> <span class="pts">25,400</span></span><span class="seat-score"><span class="name">North D</span> <span class="pts">25,600</span></span></td></tr>\n'
        ),
        "fix": (
            '<li><a href="/staff/games/7/hands/2/"><span class="sr-only">Correct hand </span>2<small>E2-1</small></a></li>'
        ),
        "below": (
            '<p class="all-hands"><a href="?all=1">All 3 hands</a></p>\n<div class="buttons">\n  <a class="button danger" href="/staff/games/7/undo/">Undo hand 3…</a>\n  <a class="button" href="/staff/games/7/finish/">End the game…</a>\n  \n  \n  <a class="button" href="/staff/games/7/penalties/">Penalties (2)</a>\n</div>\n'
        ),
        "below fin": (
            '\n<div class="buttons">\n  \n  \n  <a class="button" href="/staff/games/7/reopen/">Reopen the game…</a>\n  \n  <a class="button" href="/staff/games/7/penalties/">Penalties</a>\n</div>\n'
        ),
        "change": (
            '<li>23:05 Record hand 3 by al&lt;&amp;&gt;</li>\n'
        ),
    },
    "ja": {
        "state": (
            '<section class="state" aria-label="対局の現況">\n  <div class="line"><div class="fix"><a class="fix-last" href="/staff/games/7/hands/3/">第3局を訂正…</a>\n    <details class="fix-other"><summary aria-label="前の局を訂正"><span aria-hidden="true">▾</span></summary>\n      <div class="fix-panel"><p>訂正する局：</p><ul><li><a href="/staff/games/7/hands/1/"><span class="sr-only">局を訂正 </span>1<small>東1-0</small></a></li><li><a href="/staff/games/7/hands/2/"><span class="sr-only">局を訂正 </span>2<small>東2-1</small></a></li></ul></div>\n    </details></div>\n    <p class="where">南3局、2本場、供託1本</p>\n    <p class="who">第4局・親は<strong>West &lt;C&gt;</strong></p></div>\n  <ul class="scores">\n    <li><span class="name">East Al &lt;b&gt;</span>\n      <span class="pts">31,000</span></li><li><span class="name">South B&amp;B</span>\n      <span class="pts">-1,200</span></li><li class="dealer"><span class="name">West &quot;C&quot;</span>\n      <span class="pts">25,000</span> <span class="tag">親</span></li><li><span class="name">North D</span>\n      <span class="pts">1,000</span></li>\n  </ul>\n</section>'
        ),
        "editing": (
            '<section class="state while-editing" aria-label="対局の現況">\n  <div class="line">\n    <p class="where">南3局、2本場、供託1本</p>\n    <p class="who">第4局・親は<strong>West &lt;C&gt;</strong></p></div>\n  <ul class="scores">\n    <li><span class="name">East Al &lt;b&gt;</span>\n      <span class="pts">31,000</span></li><li><span class="name">South B&amp;B</span>\n      <span class="pts">-1,200</span></li><li class="dealer"><span class="name">West &quot;C&quot;</span>\n      <span class="pts">25,000</span> <span class="tag">親</span></li><li><span class="name">North D</span>\n      <span class="pts">1,000</span></li>\n  </ul>\n</section>'
        ),
        "row": (
            '<tr><td>2<br><span class="meta">東2-1</span></td>\n      <td>Ron &lt;x&gt; &amp; &quot;y&quot;<br><a href="/staff/games/7/hands/2/" aria-label="第2局を訂正">訂正…</a></td>\n      <td class="num after"><span class="seat-score"><span class="name">East Al &lt;b&gt;</span> <span class="pts">25,000</span></span><span class="seat-score"><span class="name">South B&amp;B</span> <span class="pts">25,200</span></span><span class="seat-score"><span class="name">West &quot;C&quot;</span> <span class="pts">25,400</span></span><span class="seat-score"><span class="name">North D</span> <span class="pts">25,600</span></span></td></tr>\n'
        ),
        "fix": (
            '<li><a href="/staff/games/7/hands/2/"><span class="sr-only">局を訂正 </span>2<small>東2-1</small></a></li>'
        ),
        "below": (
            '<p class="all-hands"><a href="?all=1">全3局</a></p>\n<div class="buttons">\n  <a class="button danger" href="/staff/games/7/undo/">第3局を取り消す…</a>\n  <a class="button" href="/staff/games/7/finish/">対局を終える…</a>\n  \n  \n  <a class="button" href="/staff/games/7/penalties/">ペナルティ (2)</a>\n</div>\n'
        ),
        "below fin": (
            '\n<div class="buttons">\n  \n  \n  <a class="button" href="/staff/games/7/reopen/">対局を再開する…</a>\n  \n  <a class="button" href="/staff/games/7/penalties/">ペナルティ</a>\n</div>\n'
        ),
        "change": (
            '<li>23:05 Record hand 3 al&lt;&amp;&gt;による</li>\n'
        ),
    },
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_parts_are_the_templates_markup(language: str) -> None:
    expected = EXPECTED[language]
    with translation.override(language):
        assert state_html(CTX) == expected["state"]
        assert state_html({**CTX, "editing": 2}) == expected["editing"]
        assert hand_row_html(7, ROWS[1]) == expected["row"]
        assert fix_link_html(7, ROWS[1]) == expected["fix"]
        assert hands_below_html(CTX) == expected["below"]
        assert hands_below_html(ENDED) == expected["below fin"]
        assert change_html(CHANGE) == expected["change"]
        # The time in the reader's time zone, as the date filter gives it.
        with timezone.override("Asia/Tokyo"):
            assert change_html(CHANGE) == expected["change"].replace("23:05", "08:05")


@pytest.mark.django_db
def test_the_answer_in_place_is_the_pages_own_markup_in_japanese(as_scorer: Client, game: Game) -> None:
    as_scorer.cookies["django_language"] = "ja"
    url = reverse("staff-game", args=[game.pk])
    play(game, [draw(0)] * 5)
    page = as_scorer.get(url).context["form"].initial
    data = {**page, "outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "30"}
    shown = as_scorer.post(url, {**data, "action": "preview"})
    body = as_scorer.post(url, {**data, "action": "save", "checked": shown.context["digest"]},
                          HTTP_X_TENBOU_ENTRY="1", HTTP_X_TENBOU_IN_PLACE="1").json()
    assert set(body["parts"]) == {"clock", "state", "fix", "hand", "below", "change"}
    after = as_scorer.get(body["url"]).content.decode()
    assert "局を訂正" in body["parts"]["fix"] and "取り消す" in body["parts"]["below"]
    for part in ("fix", "hand", "below", "change"):
        assert body["parts"][part] in after, part
    head, tail = body["parts"]["state"].split("<ul></ul>")
    assert head in after and tail in after
