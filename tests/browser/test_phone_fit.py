"""The hand form fits a 360 x 740 phone in English and Japanese (issue 30).

Element boxes, not screenshots: the page is never wider than the screen, and
the Save bar and its button lie wholly on screen in every state of the hand
form (each outcome, one to three winners, errors shown, the offline banner,
a stale form's notice), at the browser's own text size and at 130% (the
reader's text size setting: the root font size, which every rem follows);
every chip shown is a 44 x 44 tap target. The seats are named to be hard: a
20-plus-character name and two players sharing their first letters, and each
name is shown whole in the score boxes; in the seat chips a name wraps between
words, never inside one, a word too wide for its chip ending in "…". Shots: ``artifacts/fit-<en|ja>-<100|130>-<state>-360.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from league.models import Game
from tests.browser.conftest import ARTIFACTS
from tests.browser.phone import PHONE, phone_page, tap
from tests.factories import draw, make_game, make_player, make_series, play

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Tomás Ó Súilleabháin", "Aiko Tanaka", "Aiko Takahashi", "Bo")


@pytest.fixture(params=["en", "ja"])
def phone(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser, locale=request.param)


@pytest.fixture
def game(db: None) -> Game:
    series = make_series("ari-ari", slug="fit-night", name="Club night")
    User.objects.create_user("referee", password="table-side-42")
    series.scorers.add(User.objects.get(username="referee"))
    return make_game(series, players=[make_player(n) for n in NAMES], table="3")


def fits(page: Page, state: str) -> None:
    """The page no wider than the screen; the Save bar and Save wholly on it, Save 44 px or more.
    An open "7+", "80+" or "More" is a full-width bar 32 px high that closes it (staff.css):
    a tap target, but not a chip."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{state}: the page is {width} px wide"
    for what in (".savebar", "#save-button"):
        box = page.locator(what).bounding_box()
        assert box is not None, (state, what)
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (state, what, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (state, what, box)
    # The bar's line whole: nothing of it cut off below or beside.
    cut = page.locator("#save-status").evaluate("s => s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1")
    assert not cut, (state, page.locator("#save-status").inner_text())
    save = page.locator("#save-button").bounding_box()
    assert save and save["width"] >= 44 and save["height"] >= 44, (state, save)
    # Every chip shown is a tap target of 44 x 44 or more, and shows its words whole.
    small = page.evaluate("""() => [...document.querySelectorAll('.hand-form label.chip, .hand-form summary.chip')]
        .filter(c => c.checkVisibility() && !(c.tagName === 'SUMMARY' && c.parentElement.open))
        .map(c => [c.textContent.trim(), c.getBoundingClientRect(), c.scrollWidth > c.clientWidth + 1])
        .filter(([t, r, cut]) => r.width < 44 || r.height < 44 || cut)
        .map(([t, r, cut]) => `${t} ${r.width}x${r.height}${cut ? ' cut' : ''}`)""")
    assert not small, (state, small)


def uncovered(page: Page, state: str) -> None:
    """The header's links, the breadcrumbs and "Log out" are what a tap at their centre reaches."""
    page.evaluate("window.scrollTo(0, 0)")
    covered = page.evaluate("""() => [...document.querySelectorAll('.site-header a, .site-header button, .crumbs a, .crumbs button')]
        .filter(e => e.checkVisibility()).filter(e => {
          const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
          const hit = document.elementFromPoint(x, y);
          return !(hit && (hit === e || e.contains(hit)));
        }).map(e => e.textContent.trim())""")
    assert covered == [], (state, covered)


def names_whole(page: Page, state: str) -> None:
    """Each seat's name in the score boxes whole: no ellipsis, nothing cut off."""
    cut = page.evaluate("""() => [...document.querySelectorAll('.state .scores .name')]
        .filter(n => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1
                     || getComputedStyle(n).textOverflow === 'ellipsis').map(n => n.textContent)""")
    assert not cut, (state, cut)
    shown = page.locator(".state .scores .name").all_inner_texts()
    for name in NAMES:
        assert any(name in " ".join(s.split()) for s in shown), (state, name, shown)


def chip_names_unbroken(page: Page, state: str) -> None:
    """In the seat chips (won, dealt in, riichi...) and the outcome chips a word never breaks
    inside itself; a name breaks between words: each word lies on one line, cut with "…" where it is wider than its chip, and the
    chip's text is still the whole name. Two names sharing their first letters differ."""
    broken = page.evaluate("""() => [...document.querySelectorAll('.hand-form label.chip > span:has(> i)')]
        .filter(s => s.checkVisibility()).flatMap(s => {
          const text = s.lastChild, words = [], re = /\\S+/g;
          for (let m; (m = re.exec(text.data));) {
            const r = document.createRange();
            r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
            const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top)));
            if (lines.size > 1) words.push(m[0]);
          }
          const style = getComputedStyle(s);
          if (s.scrollWidth > s.clientWidth + 1 && style.textOverflow !== 'ellipsis') words.push('cut: ' + text.data);
          return words;
        })""")
    assert broken == [], (state, broken)
    # The outcome chips too (issue 30, third pass): "チョンボ (chombo)" at 130% broke inside
    # "(chombo)". Japanese may break between its characters; a Latin word never breaks.
    broken = page.evaluate("""() => [...document.querySelectorAll(
          '.hand-form .field[aria-labelledby$=outcome_label] label.chip > span')]
        .filter(s => s.checkVisibility()).flatMap(s => {
          const text = s.firstChild, words = [], re = /[\x21-\x7e\u00c0-\u024f]+/g;
          for (let m; (m = re.exec(text.data));) {
            const r = document.createRange();
            r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
            const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top)));
            if (lines.size > 1) words.push(m[0]);
          }
          if (s.scrollWidth > s.clientWidth + 1 || s.parentElement.scrollWidth > s.parentElement.clientWidth + 1)
            words.push('cut: ' + text.data);
          return words;
        })""")
    assert broken == [], (state, "outcome", broken)
    shown = page.locator('.hand-form label.chip:has(input[name=riichi]) > span').all_text_contents()
    for name in NAMES:
        assert any(name in t for t in shown), (state, name, shown)
    widths = page.evaluate("""() => [2, 3].map(v => {
        const s = document.querySelector(`label.chip:has(input[name=riichi][value="${v - 1}"]) > span`);
        return s.lastChild.data.trim().split(/\\s+/).map(w => w.slice(0, 5)); })""")
    assert widths[0] != widths[1], (state, widths)  # "Aiko Tanak" and "Aiko Takah" at the least


LATIN_UNBROKEN = """(sel) => [...document.querySelectorAll(sel)].filter(s => s.checkVisibility()).flatMap(s => {
      const text = s.firstChild, words = [], re = /[\\x21-\\x7e\\u00c0-\\u024f]+/g;
      for (let m; (m = re.exec(text.data));) {
        const r = document.createRange();
        r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map(q => Math.round(q.top))).size > 1) words.push(m[0]);
      }
      return words;
    })"""


def rare_values_fit(page: Page, state: str) -> None:
    """A seat's rare values open (issue 28's walk): 7+ and 80+ under their rows, a copied
    "More" (staff_chips.js) and its yakuman's own "More". The page stays no wider than the
    screen (the open 13+ stood past its edge) and no yakuman's Latin word breaks inside
    itself ("Daisange|n", "(tsuuiiso|u)"); Japanese may break between its characters."""
    seat = page.locator('.seat-value[data-seat="2"]')
    tap(page, "han_2", 1)  # fu shows for 1 to 4 han
    for name in ("han_2", "fu_2"):
        seat.locator(f"details.chip-more:has(input[name={name}]) > summary").tap()
    seat.locator("details.seat-more > summary").tap()
    seat.locator("details.chip-more:has(input[name=yakuman_2]) > summary").tap()
    expect(seat.locator("label.chip:has(input[name=yakuman_2])").last).to_be_visible()
    fits(page, state)
    broken = page.evaluate(LATIN_UNBROKEN, ".seat-more label.chip:has(input[name^=yakuman]) > span")
    assert broken == [], (state, "yakuman", broken)


def test_the_hand_form_fits_in_every_state(phone: Page, live_server: Any, game: Game) -> None:
    page, base = phone, live_server.url
    page.goto(base + reverse("login"))
    page.fill("#id_username", "referee")
    page.fill("#id_password", "table-side-42")
    page.click("button[type=submit]")
    url = base + reverse("staff-game", args=[game.pk])
    page.goto(url)
    lang = page.locator("html").get_attribute("lang")
    ARTIFACTS.mkdir(exist_ok=True)

    def shot(name: str) -> None:
        page.screenshot(path=str(ARTIFACTS / f"fit-{lang}-{name}-360.png"))

    for zoom in ("100", "130"):
        page.evaluate(f"document.documentElement.style.fontSize = '{zoom}%'")
        fits(page, f"{lang} {zoom}% empty")
        names_whole(page, f"{lang} {zoom}% empty")
        for outcome in ("tsumo", "draw", "abort", "chombo", "ron"):
            tap(page, "outcome", outcome)
            fits(page, f"{lang} {zoom}% {outcome}")
        for w in (0, 1, 2):
            tap(page, "winners", w)
            fits(page, f"{lang} {zoom}% {w + 1} winners")
        chip_names_unbroken(page, f"{lang} {zoom}% winners")
        shot(f"{zoom}-3-winners")
        rare_values_fit(page, f"{lang} {zoom}% rare values open")
        shot(f"{zoom}-rare")
        # Save with no loser and no han: the errors by their fields, the bar still whole.
        page.locator("#save-button").dispatch_event("click")
        expect(page.locator(".field.has-error").first).to_be_visible()
        fits(page, f"{lang} {zoom}% errors")
        shot(f"{zoom}-errors")
        # The network gone: the offline banner over the top, the bar whole, the controls usable.
        page.context.set_offline(True)
        expect(page.locator(".offline-banner")).to_be_visible()
        fits(page, f"{lang} {zoom}% offline")
        uncovered(page, f"{lang} {zoom}% offline")
        shot(f"{zoom}-offline")
        page.context.set_offline(False)
        page.goto(url)
        page.evaluate(f"document.documentElement.style.fontSize = '{zoom}%'")

    # A priced hand: the save bar says what each seat pays, with no stray separator, and one
    # tap on that line brings the full preview into view.
    page.evaluate("document.documentElement.style.fontSize = ''")
    tap(page, "outcome", "tsumo")
    tap(page, "winner", 1)
    tap(page, "han_1", 2)
    tap(page, "fu_1", 30)
    status = page.locator("#save-status")
    expect(status).to_contain_text("+2,000")
    line = " ".join(status.inner_text().split())
    assert line.count("-1,000") == 1 and line.count("-500") == 2 and not line.endswith("·"), line
    fits(page, f"{lang} priced")
    status.locator("button").tap()
    expect(page.locator("#preview h3")).to_be_in_viewport()
    page.goto(url)

    # A stale form: another scorer saved hand 1 behind this page; the next preview says so.
    play(game, [draw(0)])
    for zoom in ("100", "130"):
        page.evaluate(f"document.documentElement.style.fontSize = '{zoom}%'")
        tap(page, "outcome", "draw" if zoom == "100" else "chombo")
        expect(page.locator("[data-stale]")).to_be_attached()
        expect(page.locator("#save-status button")).not_to_be_empty()  # the bar says so, not only the box below
        fits(page, f"{lang} {zoom}% stale")
        shot(f"{zoom}-stale")

    # The hands list: the table fits the phone, or says that it scrolls.
    play(game, [draw(1, 2)])
    page.goto(url)
    for zoom in ("100", "130"):
        page.evaluate(f"document.documentElement.style.fontSize = '{zoom}%'")
        wrap = page.locator(".table-wrap:has(table.hands)")
        fits_or_says = wrap.evaluate("w => w.scrollWidth <= w.clientWidth || w.classList.contains('scrolls')")
        assert fits_or_says, f"{lang} {zoom}%: the hands table is cut with no sign that it scrolls"
        fits(page, f"{lang} {zoom}% hands")
        names_whole(page, f"{lang} {zoom}% hands")


SPLIT_PHRASES = r"""() => [...document.querySelectorAll('.state .line p')].flatMap(p => {
  const out = [], walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  for (let t; (t = walker.nextNode());) {
    const re = /第\d+局|[東南西北]\d+局|\d+本場|供託なし/g;
    for (let m; (m = re.exec(t.data));) {
      const r = document.createRange();
      r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length);
      if (new Set([...r.getClientRects()].map(q => Math.round(q.top))).size > 1) out.push(m[0]);
    }
  }
  return out;
})"""


def test_the_state_line_keeps_japanese_phrases_whole(browser: Browser, live_server: Any) -> None:
    """Walked in Japanese at 360 px (issue 28): from hand 3 to 10 of Club night the state
    line broke "第3局" over two lines ("第3 / 局・親は東 Alice"), beside the correction link.
    Each phrase (第N局, 東N局, N本場, 供託なし) now stays on one line, the page no wider."""
    from tests.browser.phone import club_night

    game = club_night("referee")
    for page in phone_page(browser, locale="ja"):
        page.goto(live_server.url + reverse("login"))
        page.fill("#id_username", "referee")
        page.fill("#id_password", "table-side-42")
        page.click("button[type=submit]")
        url = live_server.url + reverse("staff-game", args=[game.pk])
        for number in range(1, 11):
            page.goto(url)
            assert page.evaluate(SPLIT_PHRASES) == [], (number, page.locator(".state .line").inner_text())
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], number
            play(game, [draw(0, 1, 2, 3)])  # all tenpai: the dealer keeps the deal, a honba more
