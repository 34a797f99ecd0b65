"""The hand preview's markup (``league.templatetags.hand_preview``), the one
copy the staff game page places (``{% hand_preview %}``) and the live
preview answers (issue 28: built in Python, not by a template, as the live
preview is asked per tap). The expected fragments below are what the
template it replaced rendered for the same contexts, byte for byte, with
names that need escaping; then the page and the live preview are shown to
say the same for the same posted hand, in English and Japanese."""

from __future__ import annotations

import re
from types import SimpleNamespace as NS
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import Game
from league.templatetags.hand_preview import preview_html
from tests.factories import play, ron, tsumo

NAMES = ["East Al <b>", "South B&B", 'West "C"', "North D"]


class Form:
    """What the markup reads of a form: bound or not, its errors and their lines."""

    def __init__(self, errors: dict[str, list[str]] | None = None, bound: bool = True) -> None:
        self.is_bound, self.errors, self.names, self.game = bound, errors or {}, NAMES, NS(pk=7)

    def error_items(self) -> list[tuple[str, str, str]]:
        return [("loser", 'Who dealt in: "A & B" <x>', 'A & "B"'), ("__all__", "Both <wrong>", "Both <wrong>")]


def _priced(**changes: Any) -> dict[str, Any]:
    game = NS(next=NS(round_label="E2", honba=1, riichi_sticks=2, dealer=1), hands=[1, 2, 3], finished=False)
    ctx = {"form": Form(), "names": NAMES, "digest": "abc123", "counted": ["East Al <b>: 3 han 40 fu"],
           "payments": ["North D pays East Al <b> 5,200", "x & y"],
           "preview": NS(number=3, before=None, game=game),
           "preview_rows": [{"name": n, "before": 25000, "delta": d, "after": 25000 + d}
                            for n, d in zip(NAMES, [5200, 0, 0, -5200], strict=True)],
           "final_rows": [{"name": n, "score": 30000 - 100 * i} for i, n in enumerate(NAMES)],
           "later_changes": [], "preview_ended": "", "preview_dealer": "South B&B"}
    ctx.update(changes)
    return ctx


LATER = [
    {"number": 4, "round": "E1", "honba": 2, "moved": True, "new_round": "E2", "new_honba": 0,
     "seats": [{"name": "East Al <b>", "before": -1000, "after": None},
               {"name": "South B&B", "before": 1000, "after": 2000}]},
    {"number": 5, "round": "S1", "honba": 0, "moved": False, "new_round": "S1", "new_honba": 0,
     "seats": [{"name": 'West "C"', "before": 0, "after": -300}]},
]
CORRECTED = NS(number=1, before=object(),
               game=NS(next=NS(round_label="S1", honba=0, riichi_sticks=0, dealer=0), hands=[1, 2, 3], finished=False))
CONTEXTS = {
    "later": _priced(preview=CORRECTED, later_changes=LATER),
    "errors": {"form": Form(errors={"loser": ["x"]})},
    "stale": {"form": NS(game=NS(pk=7)), "stale": True},
    "next": _priced(),
    "ended": _priced(preview_ended="a score went below zero", counted=[],
                     preview=NS(number=3, before=None, game=NS(next=None, hands=[1, 2, 3], finished=True))),
    "unbound": {"form": Form(bound=False)},
    "bound_empty": {"form": Form()},
}

# What templates/league/staff_preview.html rendered for these contexts.
EXPECTED = [
    ('en', 'later', (
        '\n'
        '\n'
        '<div class="preview" data-digest="abc123" data-deltas="5200 0 0 -5200" data-summary="East Al &lt;b&gt; +5,200 · North D -5,200">\n'
        '  <h3>Hand 1 pays</h3>\n'
        '  <ul class="counted"><li>East Al &lt;b&gt;: 3 han 40 fu</li></ul>\n'
        '  <ul class="payments"><li>North D pays East Al &lt;b&gt; 5,200</li><li>x &amp; y</li></ul>\n'
        '  <div class="table-wrap" tabindex="0" role="region" aria-label="Scores before and after"><table>\n'
        '    <thead><tr><th>Seat</th><th class="num">Before</th><th class="num">Change</th><th class="num">After</th></tr></thead>\n'
        '    <tbody>\n'
        '      <tr><td>East Al &lt;b&gt;</td><td class="num">25,000</td>\n'
        '        <td class="num pos">+5,200</td>\n'
        '        <td class="num">30,200</td></tr>\n'
        '    \n'
        '      <tr><td>South B&amp;B</td><td class="num">25,000</td>\n'
        '        <td class="num ">0</td>\n'
        '        <td class="num">25,000</td></tr>\n'
        '    \n'
        '      <tr><td>West &quot;C&quot;</td><td class="num">25,000</td>\n'
        '        <td class="num ">0</td>\n'
        '        <td class="num">25,000</td></tr>\n'
        '    \n'
        '      <tr><td>North D</td><td class="num">25,000</td>\n'
        '        <td class="num neg">-5,200</td>\n'
        '        <td class="num">19,800</td></tr>\n'
        '    </tbody>\n'
        '  </table></div>\n'
        '  \n'
        '  <h4>Later hands whose payments change</h4>\n'
        '  <ul class="later">\n'
        '    <li>Hand 4 (East 1, 2 honba → East 2, 0 honba):\n'
        '      East Al &lt;b&gt; -1,000 → no longer played; South B&amp;B +1,000 → +2,000</li>\n'
        '  \n'
        '    <li>Hand 5 (South 1, 0 honba):\n'
        '      West &quot;C&quot; 0 → -300</li>\n'
        '  </ul>\n'
        '  \n'
        '  \n'
        '  <p>After replaying the rest: East Al &lt;b&gt; 30,000 · South B&amp;B 29,900 · West &quot;C&quot; 29,800 · North D 29,700.</p>\n'
        '  \n'
        '</div>\n'
        '\n'
    )),
    ('en', 'errors', (
        '\n'
        '\n'
        '<div class="preview pending" data-errors="1">\n'
        '  <p><strong>Before it can be saved:</strong></p>\n'
        '  <ul class="errorlist"><li data-field="loser" data-message="A &amp; &quot;B&quot;">Who dealt in: &quot;A &amp; B&quot; &lt;x&gt;</li><li data-field="__all__" data-message="Both &lt;wrong&gt;">Both &lt;wrong&gt;</li></ul>\n'
        '</div>\n'
        '\n'
    )),
    ('en', 'stale', (
        '\n'
        '\n'
        '<div class="preview pending" data-stale="1">\n'
        '  <p><strong>This form was made before the game last changed</strong> (another scorer, or the Back button). Nothing was saved. <a href="/staff/games/7/">Load the game as it is now</a>.</p>\n'
        '</div>\n'
        '\n'
    )),
    ('ja', 'next', (
        '\n'
        '\n'
        '<div class="preview" data-digest="abc123" data-deltas="5200 0 0 -5200" data-summary="East Al &lt;b&gt; +5,200 · North D -5,200">\n'
        '  <h3>第3局の支払い</h3>\n'
        '  <ul class="counted"><li>East Al &lt;b&gt;: 3 han 40 fu</li></ul>\n'
        '  <ul class="payments"><li>North D pays East Al &lt;b&gt; 5,200</li><li>x &amp; y</li></ul>\n'
        '  <div class="table-wrap" tabindex="0" role="region" aria-label="局前と局後の点数"><table>\n'
        '    <thead><tr><th>席</th><th class="num">局前</th><th class="num">増減</th><th class="num">局後</th></tr></thead>\n'
        '    <tbody>\n'
        '      <tr><td>East Al &lt;b&gt;</td><td class="num">25,000</td>\n'
        '        <td class="num pos">+5,200</td>\n'
        '        <td class="num">30,200</td></tr>\n'
        '    \n'
        '      <tr><td>South B&amp;B</td><td class="num">25,000</td>\n'
        '        <td class="num ">0</td>\n'
        '        <td class="num">25,000</td></tr>\n'
        '    \n'
        '      <tr><td>West &quot;C&quot;</td><td class="num">25,000</td>\n'
        '        <td class="num ">0</td>\n'
        '        <td class="num">25,000</td></tr>\n'
        '    \n'
        '      <tr><td>North D</td><td class="num">25,000</td>\n'
        '        <td class="num neg">-5,200</td>\n'
        '        <td class="num">19,800</td></tr>\n'
        '    </tbody>\n'
        '  </table></div>\n'
        '  \n'
        '  \n'
        '  <p>次：東2局、1本場、供託2本、親はSouth B&amp;B。</p>\n'
        '  \n'
        '</div>\n'
        '\n'
    )),
    ('en', 'ended', (
        '\n'
        '\n'
        '<div class="preview" data-digest="abc123" data-deltas="5200 0 0 -5200" data-summary="East Al &lt;b&gt; +5,200 · North D -5,200">\n'
        '  <h3>Hand 3 pays</h3>\n'
        '  \n'
        '  <ul class="payments"><li>North D pays East Al &lt;b&gt; 5,200</li><li>x &amp; y</li></ul>\n'
        '  <div class="table-wrap" tabindex="0" role="region" aria-label="Scores before and after"><table>\n'
        '    <thead><tr><th>Seat</th><th class="num">Before</th><th class="num">Change</th><th class="num">After</th></tr></thead>\n'
        '    <tbody>\n'
        '      <tr><td>East Al &lt;b&gt;</td><td class="num">25,000</td>\n'
        '        <td class="num pos">+5,200</td>\n'
        '        <td class="num">30,200</td></tr>\n'
        '    \n'
        '      <tr><td>South B&amp;B</td><td class="num">25,000</td>\n'
        '        <td class="num ">0</td>\n'
        '        <td class="num">25,000</td></tr>\n'
        '    \n'
        '      <tr><td>West &quot;C&quot;</td><td class="num">25,000</td>\n'
        '        <td class="num ">0</td>\n'
        '        <td class="num">25,000</td></tr>\n'
        '    \n'
        '      <tr><td>North D</td><td class="num">25,000</td>\n'
        '        <td class="num neg">-5,200</td>\n'
        '        <td class="num">19,800</td></tr>\n'
        '    </tbody>\n'
        '  </table></div>\n'
        '  \n'
        '  \n'
        '  <p><strong>This ends the game:</strong> a score went below zero.</p>\n'
        '  \n'
        '</div>\n'
        '\n'
    )),
    ('en', 'unbound', (
        '\n'
        '\n'
    )),
    ('en', 'bound_empty', (
        '\n'
        '\n'
        '<div class="preview pending"><p>Choose what happened to see what is paid.</p></div>\n'
        '\n'
    )),
]


@pytest.mark.parametrize(("language", "case", "expected"), EXPECTED, ids=[f"{lang}-{case}" for lang, case, _ in EXPECTED])
def test_the_preview_markup_is_the_templates(language: str, case: str, expected: str) -> None:
    with translation.override(language):
        assert preview_html(CONTEXTS[case]) == expected


def test_a_japanese_preview_ends_and_lists_in_japanese() -> None:
    # The sentences the markup ends itself (the game's end, the scores after a correction's
    # replay) and the later hands' seats: Japanese stops and separators, not "." and "; ".
    with translation.override("ja"):
        later, ended = preview_html(CONTEXTS["later"]), preview_html(CONTEXTS["ended"])
    assert ("<p>残りを再計算した後：East Al &lt;b&gt; 30,000 · South B&amp;B 29,900 · West &quot;C&quot; 29,800 · "
            "North D 29,700。</p>") in later
    assert "East Al &lt;b&gt; -1,000 → 行われなくなる；South B&amp;B +1,000 → +2,000</li>" in later
    assert "<p><strong>これで対局終了：</strong>a score went below zero。</p>" in ended
    assert ".</p>" not in later + ended


def _shown(html: str) -> str:
    """The preview inside the page (``<div id="preview">``), up to the form's end."""
    found = re.search(r'<div id="preview">(.*?)</div>\s*</form>', html, re.S)
    assert found, html[-3000:]
    return found.group(1)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("fields", [
    {"outcome": "ron", "winners": ["1"], "loser": "0", "han_1": "3", "fu_1": "40", "riichi": ["1"]},
    {"outcome": "ron", "winners": ["1"], "han_1": "3", "fu_1": "40"},  # refused: who dealt in
    {"outcome": "draw", "tenpai": ["0", "2"]},
])
def test_the_page_and_the_live_preview_show_the_same(as_scorer: Client, game: Game, language: str,
                                                     fields: dict[str, Any]) -> None:
    play(game, [tsumo(0, 1, 30), ron(1, 0, 1, 30)])
    as_scorer.cookies["django_language"] = language
    url = reverse("staff-game", args=[game.pk])
    form = as_scorer.get(url).context["form"]
    data = {**{name: str(form[name].value()) for name in ("number", "state", "key")}, **fields}
    page = as_scorer.post(url, {**data, "action": "preview"})
    fragment = as_scorer.post(reverse("staff-preview", args=[game.pk]), data)
    assert page.status_code == fragment.status_code == 200
    shown = fragment.content.decode()
    assert _shown(page.content.decode()) == shown
    assert bool(re.search("[\u3040-\u30ff\u4e00-\u9fff]", shown)) == (language == "ja")  # in the page's language
    assert ('data-digest="' in shown) == ("loser" in fields or fields["outcome"] == "draw")
