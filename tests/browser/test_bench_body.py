"""The entry benchmarks post what the staff page's script posts.

``tests/benchmarks/form_body.py`` builds the live preview's and the save's
bodies from the page's HTML (the form's controls after ``staff_chips.js``,
the script's key and ``checked``); here Chromium taps hands on a 360 px
phone, the page's script posts them, and each body it sent (names, values,
order, encoding) and its headers are held to what the builder makes from the
same HTML for the same taps: a ron with a note and a draw, each previewed
and saved (the draw after the ron's save answered in place, the form reset),
then, on the page loaded again (the builder's kept parse, this page's
values), a tsumo with a rare chip (7+ han), a field typed in a copied seat's
"More" and a note that only the form encoding's own rules write right.

The key is the one value the two cannot share: the script makes it
(``crypto.randomUUID``), so the builder is given the browser's, once it is
shown to be a new UUID.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, Request, expect

from tests.benchmarks.form_body import CONTENT_TYPE, EntryPage, urlencoded
from tests.browser.phone import open_game, phone_page, tap

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    yield from phone_page(browser)


def _key(body: str) -> str:
    return dict(parse_qsl(body, keep_blank_values=True))["key"]


def _saved(phone: Page, bench: EntryPage, action: str, base: str, number: int) -> dict[str, Any]:
    """Save tapped after the preview shown: the browser's body is the
    builder's, and the answer in place (the next hand's fields)."""
    digest = phone.locator("#preview [data-digest]").get_attribute("data-digest")
    assert digest
    with phone.expect_request(lambda r: r.method == "POST" and r.url == action) as got:
        phone.locator("#save-button").tap()
    save = got.value
    answer = save.response().json()
    bench.shown(digest)
    _same(save, bench.save_body(), base, in_place=True)
    expect(phone.locator(".messages")).to_contain_text(f"Hand {number} saved.")
    return answer


def _same(browser_req: Request, built: str, base: str, *, in_place: bool = False) -> None:
    """The browser's body is the builder's, byte for byte, and sent as the bench sends it."""
    sent = browser_req.post_data or ""
    assert parse_qsl(sent, keep_blank_values=True) == parse_qsl(built, keep_blank_values=True)
    assert sent == built  # the encoding too
    headers = browser_req.all_headers()
    assert headers["content-type"] == CONTENT_TYPE
    assert headers["origin"] == base  # Django's CSRF check verifies it; the bench sends its own
    assert headers["x-tenbou-entry"] == "1"
    assert headers.get("x-tenbou-in-place") == ("1" if in_place else None)


def _preview_with(page: Page, name: str, value: str) -> Any:
    """Wait for the preview the page's script posts once ``name`` holds ``value``."""
    return page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/preview/")
                               and (name, value) in parse_qsl(r.post_data or "", keep_blank_values=True))


def _answered(page: Page, req: Request) -> Request:
    """The preview's answer is in (the script has set ``checked`` from it)."""
    req.response()
    expect(page.locator("form.hand-form")).not_to_have_class(re.compile(r"\bloading\b"))
    return req


def _tapped(page: Page, choices: dict[str, Any]) -> Request:
    """Tap each choice's chip as a scorer does, one after the other's preview
    has answered, as a scorer's taps are seconds apart (an answer landing
    between a change and its preview's debounced request is dropped by the
    script: the test below); the last tap's preview."""
    for name, want in choices.items():
        for value in [want] if isinstance(want, str) else want:
            with _preview_with(page, name, value) as got:
                tap(page, name, value)
            req = _answered(page, got.value)
    return req


def _typed(page: Page, name: str, text: str) -> Request:
    field = page.locator(f"input[name={name}]")
    with _preview_with(page, name, text) as got:
        field.tap()
        field.press_sequentially(text)
    return _answered(page, got.value)


def test_the_bench_posts_what_the_page_posts(phone: Page, live_server: Any, game: Any) -> None:
    base = live_server.url
    open_game(phone, base, game)
    html = phone.reload().text()  # the page the browser holds, as served
    action = base + reverse("staff-game", args=[game.pk])

    # A ron with a note: the first taps' previews after the page, then Save.
    ron = {"outcome": "ron", "winners": ["0"], "loser": "1", "han_0": "3", "fu_0": "40"}
    first = _tapped(phone, ron)
    phone.locator("details.more:has(input[name=note]) > summary").tap()
    req = _typed(phone, "note", "first hand")
    key = _key(req.post_data or "")
    assert str(uuid.UUID(key)) == key and f'value="{key}"' not in html  # made by the script, not served
    bench = EntryPage(html, key=key)
    bench.tap(ron)
    _same(first, bench.preview_body(), base)
    bench.tap({"note": "first hand"})
    _same(req, bench.preview_body(), base)
    answer = _saved(phone, bench, action, base, 1)

    # A draw, after the save answered in place: the form reset (the note gone), the
    # answer's number and state.
    draw = {"outcome": "draw", "tenpai": ["0", "2"]}
    req = _tapped(phone, draw)
    key = _key(req.post_data or "")
    assert key not in (answer["key"], dict(bench.entries())["key"])  # a new key for the new hand
    bench.saved_in_place(answer, key=key)
    bench.tap(draw)
    _same(req, bench.preview_body(), base)
    assert ("number", "2") in bench.entries()
    answer = _saved(phone, bench, action, base, 2)

    # The page again (hand 3): the builder's parse of hand 1's page serves it (the same
    # tags), with this page's token, number and state. A tsumo by West: 8 han behind "7+" (a chip staff_chips.js builds), the dora typed in
    # West's "More" (a copy of East's that staff_chips.js renames), and a note whose
    # characters Python's urlencode would write otherwise ("~", "*", a space, kanji).
    note = "ura ~*東"
    parses = EntryPage.parses
    html = phone.reload().text()
    _tapped(phone, {"outcome": "tsumo", "winner": "2"})
    phone.locator('[data-seat="2"] details.chip-more:has(input[name="han_2"]) > summary').tap()
    _tapped(phone, {"han_2": "8"})
    seat = phone.locator('[data-seat="2"] details.seat-more')
    seat.locator("> summary").tap()
    seat.locator("details.more:has(input[name=dora_2]) > summary").tap()
    _typed(phone, "dora_2", "2")
    phone.locator("details.more:has(input[name=note]) > summary").tap()
    req = _typed(phone, "note", note)
    bench = EntryPage(html, key=_key(req.post_data or ""))
    assert EntryPage.parses == parses
    bench.tap({"outcome": "tsumo", "winner": "2", "han_2": "8", "dora_2": "2", "note": note})
    _same(req, bench.preview_body(), base)
    assert ("number", "3") in bench.entries()


# Controls the staff form does not hold today, each with a rule of the HTML
# standard's entry list: the builder reads them as Chromium does.
FORM = """<!doctype html><form class="hand-form" action="/x">
<input type="hidden" name="csrfmiddlewaretoken" value="t&amp;k"><input type="hidden" name="key" value="k">
<input type="hidden" name="checked" value=""><input name="_charset_" type="hidden">
<select name="wind"><option value="e">East</option><option>South  wind </option></select>
<select name="seat"><option value="0">0</option><option value="1" selected>1</option></select>
<select name="many" multiple><option selected>a</option><option value="b" selected>B</option><option value="c">C</option>
<option value="d" selected disabled>D</option></select>
<textarea name="note">
line one
line two ~*</textarea>
<input type="checkbox" name="flag" checked><input type="checkbox" name="off" value="x">
<input type="radio" name="r" value="1" checked><input type="radio" name="r" value="2">
<input type="number" name="n" value="1e3"><input type="number" name="bad" value="abc">
<input type="text" name="t" value="a b&#10;c"><input type="email" name="e" value="  a@b.c  "><input name="d" disabled>
<fieldset disabled><legend><input name="in_legend" value="yes"></legend><input name="in_fieldset"></fieldset>
<button name="b" value="x">B</button><input type="submit" name="s" value="go"><template><input name="tpl"></template>
<noscript><input name="ns"></noscript><input name="">
</form><input name="outside">"""


def test_the_builder_reads_other_controls_as_the_browser_does(page: Page) -> None:
    page.set_content(FORM)
    serialize = "() => new URLSearchParams(new FormData(document.querySelector('form'))).toString()"
    bench = EntryPage(FORM, key="k")
    assert urlencoded(bench.entries()) == page.evaluate(serialize)
    choices = {"wind": "South wind", "many": ["c", "a"], "note": "x\ny", "off": ["x"], "r": "2", "t": "typed"}
    bench.tap(choices)
    page.select_option("select[name=wind]", "South wind")
    page.select_option("select[name=many]", ["c", "a"])
    page.fill("textarea[name=note]", "x\ny")
    page.check("input[name=off]")
    page.check("input[name=r][value='2']")
    page.fill("input[name=t]", "typed")
    assert urlencoded(bench.entries()) == page.evaluate(serialize)
    with pytest.raises(ValueError, match="wind: no option"):
        bench.tap({"wind": "West"})
    with pytest.raises(ValueError, match="han_9: the page's form has no such field"):
        bench.tap({"han_9": "1"})


def test_an_answer_for_a_form_changed_since_is_not_kept(phone: Page, live_server: Any, game: Any) -> None:
    """A preview's answer that lands after a later change (between the change
    and its own preview's request, the debounce) is not shown: its digest
    would go out as ``checked`` with the next preview or a save, and the save
    bar would show its payments for a form that no longer says them."""
    base = live_server.url
    open_game(phone, base, game)
    _tapped(phone, {"outcome": "ron", "winners": ["0"], "loser": "1", "han_0": "3"})
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    phone.route("**/preview/", hold_the_first)
    tap(phone, "fu_0", "40")  # its preview's request is held here
    while not held:
        phone.wait_for_timeout(20)
    phone.locator("details.more:has(input[name=note]) > summary").tap()
    phone.locator("input[name=note]").fill("typed")  # a change: its preview in 400 ms
    with _preview_with(phone, "note", "typed") as got:
        held[0].continue_()  # its answer lands while the note's change waits to be priced
    sent = dict(parse_qsl(got.value.post_data or "", keep_blank_values=True))
    assert "checked" not in sent and sent["fu_0"] == "40"  # the held answer's digest was not kept
    digest = re.search(r'data-digest="([^"]+)"', got.value.response().text())
    assert digest
    expect(phone.locator("input[name=checked]")).to_have_value(digest.group(1))
