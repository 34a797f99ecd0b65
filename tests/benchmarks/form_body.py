"""The bodies the staff game page's script posts, built from the page served
(the entry benchmarks' one builder; tests/browser/test_bench_body.py holds it
to Chromium's own posts).

``EntryPage(html)`` reads the hand form (``form.hand-form``) from the page's
HTML with ``html.parser``, as the browser holds it once ``staff_chips.js`` has
run (each seat's copied "More", the rare chips from ``#rare-chips``), and
keeps the state ``staff_game.js`` keeps: the key it makes on load, ``checked``
set from each preview. ``tap`` sets a hand's choices as a scorer's taps do;
``preview_body`` and ``save_body`` are ``new URLSearchParams(new
FormData(form))`` as the script sends them (every control of the form in
document order, the CSRF token too, the empty ones left out where the
measured tree's script leaves them out: ``SKIPS_EMPTY``); ``saved_in_place`` is
what the script does with a save answered in place (the form reset, the next
hand's number and state, a new key). A form's parse is kept by its tags
(``PARSED``): the next page of the game, the same tags with other hidden
values, takes them from its own HTML in 0.3-0.4 ms, where a parse (5-8 ms
of this process between the page's GET and the first tap) put the first
tap 0.7x of ``/healthz`` higher with the same body (measured).

Standard library only (Django for ``csrf_client``), and nothing of the tree
measured: a benchmark run on an older tree (``--before``,
``TENBOU_BENCH_CODE``) loads this file from its own folder, so both trees are
sent the bodies this builder makes from the HTML each serves.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from dataclasses import dataclass, field
from html import unescape as html_unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

# Whether the measured tree's script leaves the empty fields out (its
# staff_game.js has ``posted``); an older tree's sends them all, and gets them.
_CODE = Path(os.environ.get("TENBOU_BENCH_CODE") or Path(__file__).resolve().parents[2])
SKIPS_EMPTY = "function posted(" in (_CODE / "league" / "static" / "league" / "staff_game.js").read_text()

# What fetch sends with a URLSearchParams body (Chromium's request, read in the test).
CONTENT_TYPE = "application/x-www-form-urlencoded;charset=UTF-8"
# A browser's fetch sends Origin with every POST; Django's CSRF check then
# verifies it against the host (the test client's is "testserver").
ORIGIN = "http://testserver"
HEADERS = {"content_type": CONTENT_TYPE, "HTTP_ORIGIN": ORIGIN}

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                  "wbr"})
# Raw text for the browser: <noscript> too, as scripting is on (its button is not a control).
RAW = frozenset({"script", "style", "noscript", "textarea", "title"})
NOT_SENT = frozenset({"button", "submit", "reset", "image"})


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    children: list[Element | str] = field(default_factory=list)
    parent: Element | None = field(default=None, repr=False)
    # A control's state: its value (text, number, hidden, textarea) and checkedness.
    value: str = ""
    checked: bool = False
    hidden_index: int | None = None  # the n-th hidden input of the markup parsed

    def get(self, name: str, default: str = "") -> str:
        v = self.attrs.get(name, default)
        return "" if v is None else v

    def classes(self) -> list[str]:
        return self.get("class").split()

    def walk(self) -> list[Element]:
        """This element and every element under it, in document order."""
        out = [self]
        for c in self.children:
            if isinstance(c, Element) and c.tag != "template":  # a template's content is not the page's
                out.extend(c.walk())
        return out

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class _Tree(HTMLParser):
    """A tolerant tree: end tags close the nearest open element of their name."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.open = [self.root]
        self.hidden_count = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, dict(attrs), parent=self.open[-1])
        if tag == "input" and (el.get("type") or "").lower() == "hidden":
            el.hidden_index = self.hidden_count
            self.hidden_count += 1
        self.open[-1].children.append(el)
        if tag not in VOID:
            self.open.append(el)
            if tag in RAW:
                self.set_cdata_mode(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.open) - 1, 0, -1):
            if self.open[i].tag == tag:
                del self.open[i:]
                return

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def _clone(el: Element, parent: Element | None) -> Element:
    out = Element(el.tag, dict(el.attrs), parent=parent, value=el.value, checked=el.checked,
                  hidden_index=el.hidden_index)
    out.children = [_clone(c, out) if isinstance(c, Element) else c for c in el.children]
    return out


# staff_chips.js: a copied "More" renames these attributes for its seat.
RENAMED = ("id", "name", "for", "aria-labelledby", "aria-describedby", "data-fill")
FILL = re.compile(r"^(\w+)_([0-3])$", re.ASCII)


def _run_staff_chips(doc: Element) -> None:
    """What ``staff_chips.js`` does to the page before the other scripts run."""
    every = doc.walk()
    copies = [e for e in every if e.tag == "details" and "seat-more" in e.classes() and "data-copy" in e.attrs]
    source = next((e for e in every if e.tag == "details" and "seat-more" in e.classes()
                   and "data-copy" not in e.attrs and _inside(e, "seat-value")), None)
    for target in copies if source else ():
        seat = target.get("data-copy")
        for node in source.children:
            if not isinstance(node, Element) or node.tag == "summary":
                continue
            made = _clone(node, target)
            for el in made.walk():
                for a in RENAMED:
                    if el.get(a):  # the first _0 before a _ or the end, as the script's replace
                        el.attrs[a] = re.sub(r"_0(?=_|\Z)", "_" + seat, el.get(a), count=1)
            target.children.append(made)
        del target.attrs["data-copy"]
    block = next((e for e in doc.walk() if e.get("id") == "rare-chips"), None)
    if block is None:
        return
    kinds = json.loads(block.text())
    for place in [e for e in doc.walk() if "data-fill" in e.attrs]:
        m = FILL.match(place.get("data-fill"))
        kind = kinds.get(m.group(1)) if m else None
        if not kind:
            continue
        name = m.group(0)
        place.children = []
        for n, choice in enumerate(kind["choices"]):
            label = Element("label", {"class": "chip"}, parent=place)
            on = choice[0] == kind.get("checked")
            attrs: dict[str, str | None] = {"type": kind["type"], "name": name, "value": choice[0],
                                            "id": f"id_{name}_{kind['first'] + n}"}
            if on:
                attrs["checked"] = ""  # defaultChecked: form.reset() keeps it
            label.children = [Element("input", attrs, parent=label, checked=on),
                              Element("span", {}, [choice[1]], parent=label)]
            place.children.append(label)
        del place.attrs["data-fill"]


def _inside(el: Element, cls: str) -> bool:
    p = el.parent
    while p is not None:
        if cls in p.classes():
            return True
        p = p.parent
    return False


def _kind(el: Element) -> str:
    if el.tag == "input":
        return el.get("type", "text").lower() or "text"
    return el.tag


def _default(el: Element) -> None:
    """A control's state as the page loads it (and as ``form.reset()`` makes it)."""
    kind = _kind(el)
    if kind in ("checkbox", "radio"):
        el.checked = "checked" in el.attrs
    elif el.tag == "textarea":
        # The parser drops one newline right after <textarea>; the value's line breaks are LF.
        el.value = re.sub(r"\r\n?", "\n", el.text().removeprefix("\n"))
    elif el.tag == "select":
        options = [o for o in el.walk() if o.tag == "option"]
        for o in options:
            o.checked = "selected" in o.attrs
        if "multiple" not in el.attrs:
            chosen = [o for o in options if o.checked]
            for o in chosen[:-1]:  # one option of a single select: the last marked
                o.checked = False
            if not chosen:  # none marked: the first one not disabled
                first = next((o for o in options if "disabled" not in o.attrs), None)
                if first is not None:
                    first.checked = True
    elif el.tag == "input":
        el.value = _sanitized(kind, el.get("value"))


def _sanitized(kind: str, value: str) -> str:
    """The value sanitization algorithm of the input types a form here holds."""
    if kind in ("text", "search", "tel", "password"):
        return re.sub(r"[\r\n]", "", value)
    if kind in ("url", "email"):
        return re.sub(r"[\r\n]", "", value).strip(" \t\n\f\r")
    if kind == "number":
        return value if re.fullmatch(r"-?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?", value) else ""
    return value


def _chip_value(el: Element) -> str:
    return el.get("value") if "value" in el.attrs else "on"


def _option_value(o: Element) -> str:
    return o.get("value") if "value" in o.attrs else " ".join(o.text().split())


CONTROLS = frozenset({"input", "select", "textarea", "button"})


class _Form:
    """The parse of a page's hand form (and ``#rare-chips``), after
    ``staff_chips.js``: its controls in document order with their defaults,
    and which are the page's own hidden inputs, whose values change from page
    to page (the token, number, state, key)."""

    def __init__(self, markup: str) -> None:
        tree = _Tree()
        tree.feed(markup)
        tree.close()
        _run_staff_chips(tree.root)
        form = next(e for e in tree.root.walk() if e.tag == "form")
        self.action, self.preview_url = form.get("action"), form.get("data-preview")
        # Only the form's own: one whose form= names another form is not sent with it.
        self.controls = [el for el in form.walk() if el.tag in CONTROLS and "form" not in el.attrs]
        for el in self.controls:
            _default(el)
        self.hidden = [(i, el.hidden_index) for i, el in enumerate(self.controls) if el.hidden_index is not None]
        self.hidden_count = tree.hidden_count
        self.options = {i: [o for o in el.walk() if o.tag == "option"] for i, el in enumerate(self.controls)
                        if el.tag == "select"}
        self.disabled = [_disabled(el) for el in self.controls]
        self.kinds = [_kind(el) for el in self.controls]
        self.named: dict[str, list[int]] = {}
        for i, el in enumerate(self.controls):
            if el.get("name") and self.kinds[i] not in NOT_SENT:
                self.named.setdefault(el.get("name"), []).append(i)
        self.defaults = [self.initial(i) for i in range(len(self.controls))]

    def initial(self, i: int) -> Any:
        """Control ``i``'s state as the page loads it (and ``form.reset()`` leaves it)."""
        el = self.controls[i]
        if i in self.options:
            return [o.checked for o in self.options[i]]
        return el.checked if _kind(el) in ("checkbox", "radio") else el.value


# The parses of the forms seen, by their markup's tags (the hidden inputs' values
# aside, ``_markup``): the pages of one game differ in those values only, and a
# parse (about 5 ms) run between the page's GET and the first tap would cool the
# processor's caches for the tap and leave the collector work, in the process measured.
PARSED: dict[str, _Form] = {}
# The text between two tags (the parse reads none of it without a textarea, an
# option, a script or a comment in the form). Django writes < and > in an
# attribute's value as &lt; and &gt;; a > left there only keeps its text in the key.
TEXT = re.compile(r">[^<>]*<")
FORM_TAG = re.compile(r"""<form\b(?:[^>"']|"[^"]*"|'[^']*')*>""")
HAND_FORM = re.compile(r'\bclass="[^"]*\bhand-form\b')
# Django's hidden inputs; one written otherwise keeps its value in the key (and is
# then parsed every time: the count of values found is checked against the parse's).
HIDDEN_VALUE = re.compile(r'(<input type="hidden" name="[^"]*" value=")([^"]*)(")')


def _markup(html: str) -> tuple[str, str | None, list[str]]:
    """The hand form's markup and ``#rare-chips``; the key of its parse (its
    tags, the hidden inputs' values left out; None where its text or a comment
    could matter) and those values in document order."""
    tag = next((m for m in FORM_TAG.finditer(html) if HAND_FORM.search(m.group())), None)
    if tag is None:
        raise ValueError("the page has no form.hand-form")
    form_id = re.search(r'\bid="([^"]*)"', tag.group())
    if form_id and f'form="{form_id.group(1)}"' in html:
        raise ValueError("controls outside the form (form=) are not read here")
    end = html.find("</form>", tag.start())  # a form holds no form: its first end tag closes it
    form = html[tag.start():] if end < 0 else html[tag.start():end + len("</form>")]
    at = html.find('id="rare-chips"')
    chips = html[html.rfind("<script", 0, at):html.find("</script>", at) + len("</script>")] if at >= 0 else ""
    markup = form + chips
    if any(t in form for t in ("<!--", "<script", "<textarea", "<option", "<template")):
        return markup, None, []
    values: list[str] = []

    def blank(m: re.Match[str]) -> str:
        values.append(html_unescape(m.group(2)))
        return m.group(1) + m.group(3)

    known = HIDDEN_VALUE.sub(blank, TEXT.sub("><", form))
    return markup, known + chips, values


def _disabled(el: Element) -> bool:
    if "disabled" in el.attrs:
        return True
    child, p = el, el.parent
    while p is not None:
        if p.tag == "fieldset" and "disabled" in p.attrs:
            legend = next((c for c in p.children if isinstance(c, Element) and c.tag == "legend"), None)
            if child is not legend:
                return True
        if p.tag == "optgroup" and "disabled" in p.attrs and el.tag == "option":
            return True
        child, p = p, p.parent
    return False


class EntryPage:
    """The staff game page's hand form as the page's script holds it.

    >>> page = EntryPage(html)                      # the page's GET
    >>> page.tap({"outcome": "ron", "winners": ["0"], "loser": "1", "han_0": "3", "fu_0": "40"})
    >>> body = page.preview_body()                  # what the tap's preview posts
    >>> page.shown(digest)                          # the preview's data-digest, now `checked`
    >>> body = page.save_body(seen=None)            # Save
    >>> page.saved_in_place(answer)                 # the save answered in place: the next hand
    """

    parses = 0  # forms parsed in this process (the others came from PARSED)

    def __init__(self, html: str, *, key: str | None = None) -> None:
        markup, known, values = _markup(html)
        form = PARSED.get(known) if known is not None else None
        if form is None:
            form = _Form(markup)
            EntryPage.parses += 1
            if known is not None and form.hidden_count == len(values):
                if len(PARSED) >= 16:
                    PARSED.clear()
                PARSED[known] = form
        self._f = form
        self.action, self.preview_url = form.action, form.preview_url
        self._state = list(form.defaults)  # a select's list is replaced by a tap, never changed
        if form.hidden_count == len(values):
            for i, n in form.hidden:
                self._state[i] = values[n]
        self._key_anew(key)

    def _named(self, name: str) -> list[int]:
        return self._f.named.get(name, [])

    def _set_value(self, name: str, value: str) -> None:
        found = self._named(name)
        if not found:
            raise ValueError(f"{name}: the page's form has no such field")
        self._state[found[0]] = value

    def _key_anew(self, key: str | None) -> None:
        # staff_game.js on load (and after a save in place): a key made on the phone.
        self._set_value("key", key or str(uuid.uuid4()))

    def tap(self, choices: dict[str, str | list[str]]) -> None:
        """The hand's choices as a scorer's taps leave the form: each named
        field's chips checked for the values given (a list for a field of
        several), a text or number field typed; the change empties
        ``checked`` (the script's ``later``). A name or value the form has no
        control for is refused, naming it."""
        controls = self._f.controls
        for name, want in choices.items():
            found = self._named(name)
            if not found:
                raise ValueError(f"{name}: the page's form has no such field")
            values = [want] if isinstance(want, str) else list(want)
            chips = [i for i in found if _kind(controls[i]) in ("checkbox", "radio")]
            if chips:
                if _kind(controls[chips[0]]) == "radio" and len(values) > 1:
                    raise ValueError(f"{name}: one value for a radio field, not {values}")
                have = {_chip_value(controls[i]) for i in chips}
                missing = [v for v in values if v not in have]
                if missing:
                    raise ValueError(f"{name}: no chip for {missing} (the form has {sorted(have)})")
                for i in chips:
                    self._state[i] = _chip_value(controls[i]) in values
            elif found[0] in self._f.options:
                options = self._f.options[found[0]]
                have = {_option_value(o) for o in options}
                if set(values) - have:
                    raise ValueError(f"{name}: no option {sorted(set(values) - have)}")
                self._state[found[0]] = [_option_value(o) in values for o in options]
            else:
                if len(values) != 1:
                    raise ValueError(f"{name}: one value for a text field, not {values}")
                self._state[found[0]] = values[0]
        self._set_value("checked", "")

    def shown(self, digest: str) -> None:
        """The server's preview answered: ``checked`` is its ``data-digest``."""
        self._set_value("checked", digest)

    def entries(self) -> list[tuple[str, str]]:
        """``new FormData(form)``: the entry list, no submitter."""
        out = []
        for i, el in enumerate(self._f.controls):
            kind, name, state = self._f.kinds[i], el.get("name"), self._state[i]
            if not name or kind in NOT_SENT or self._f.disabled[i]:
                continue
            if kind == "file" or "dirname" in el.attrs:
                raise ValueError(f"{name}: a {kind} control (dirname or file) is not built here")
            if kind in ("checkbox", "radio"):
                if state:
                    out.append((name, _chip_value(el)))
            elif i in self._f.options:
                out.extend((name, _option_value(o)) for o, on in zip(self._f.options[i], state, strict=True)
                           if on and not _disabled(o))
            elif kind == "hidden" and name == "_charset_":
                out.append((name, "UTF-8"))
            else:
                out.append((name, state))
        return out

    def preview_body(self) -> str:
        """What a tap's preview posts: the form's entries, ``action`` deleted,
        the empty ones left out (``posted`` in staff_game.js)."""
        return urlencoded(filled([(k, v) for k, v in self.entries() if k != "action"]))

    def save_body(self, seen: str | None = None) -> str:
        """What Save posts: ``action`` set to save, and ``seen`` (the payments
        the phone's engine showed) when given."""
        entries = form_set(self.entries(), "action", "save")
        if seen is not None:
            entries = form_set(entries, "seen", seen)
        return urlencoded(filled(entries))

    def saved_in_place(self, answer: dict[str, Any], *, key: str | None = None) -> None:
        """The save answered in place: the form reset to the page's, the next
        hand's number and state from the answer, a new key (``key``, else one
        made here as the script makes it), ``checked`` empty."""
        for i, kind in enumerate(self._f.kinds):
            if kind != "hidden":  # a hidden input's value is its default: reset keeps it
                self._state[i] = self._f.defaults[i]
        self._set_value("number", str(answer["number"]))
        self._set_value("state", str(answer["state"]))
        self._key_anew(key)
        self._set_value("checked", "")


def filled(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The entries ``posted`` in staff_game.js sends: the empty ones left out
    (all of them, from a tree whose script sends them all)."""
    return [(k, v) for k, v in entries if v != ""] if SKIPS_EMPTY else entries


def form_set(entries: list[tuple[str, str]], name: str, value: str) -> list[tuple[str, str]]:
    """``FormData.set``: the first entry of ``name`` takes the value and the
    others go; none, it is appended."""
    out, done = [], False
    for k, v in entries:
        if k != name:
            out.append((k, v))
        elif not done:
            out.append((k, value))
            done = True
    return out if done else [*out, (name, value)]


_SAFE = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*-._")


def _encode(s: str) -> str:
    return "".join("+" if b == 0x20 else chr(b) if b in _SAFE else f"%{b:02X}" for b in s.encode())


def urlencoded(entries: list[tuple[str, str]]) -> str:
    """The application/x-www-form-urlencoded serializer (URLSearchParams'
    ``toString``): a space is ``+``, all but ASCII letters, digits and ``*-._``
    percent-encoded as UTF-8 (Python's ``urlencode`` leaves ``~`` and encodes ``*``)."""
    return "&".join(f"{_encode(k)}={_encode(v)}" for k, v in entries)


# A hand for each step: rons and tsumos that pass the deal or repeat it, a
# draw, so the preview and save price real hands (han/fu, honba, sticks).
def hand_choices(i: int) -> dict[str, str | list[str]]:
    w = i % 4
    kind = i % 5
    if kind == 4:
        return {"outcome": "draw", "tenpai": [str(w), str((w + 2) % 4)]}
    if kind == 3:
        return {"outcome": "tsumo", "winner": str(w), f"han_{w}": "2", f"fu_{w}": "30"}
    return {"outcome": "ron", "winners": [str(w)], "loser": str((w + 1) % 4), f"han_{w}": str(1 + kind),
            f"fu_{w}": "40", "riichi": [str(w)] if kind == 1 else []}


def csrf_client(logged_in: Any) -> Any:
    """A test client that checks CSRF as production does, with the session of
    ``logged_in`` (a ``django.test.Client``); its CSRF cookie comes from the
    first page it GETs, as a browser's does."""
    from django.conf import settings
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.cookies[settings.SESSION_COOKIE_NAME] = logged_in.cookies[settings.SESSION_COOKIE_NAME].value
    return client


def check_csrf(client: Any, page_url: str, preview_url: str) -> None:
    """``client`` checks CSRF: the page's preview body without its token is
    refused (403), and with it answered (200). A benchmark calls this once, untimed."""
    form = EntryPage(client.get(page_url).content.decode())
    form.tap(hand_choices(0))
    headers = {**HEADERS, "HTTP_X_TENBOU_ENTRY": "1"}
    bare = urlencoded([(k, v) for k, v in form.entries() if k not in ("csrfmiddlewaretoken", "action")])
    refused = client.post(preview_url, bare, **headers)
    assert refused.status_code == 403, f"the CSRF check did not run: {refused.status_code} without the token"
    answered = client.post(preview_url, form.preview_body(), **headers)
    assert answered.status_code == 200, f"the page's own body was refused: {answered.status_code}"
