"""The page's scripts write only the server's words (issue 30).

Every key a script asks ``words.js`` for is in ``league.script_words``; no
script source holds a display string of its own (a string literal that reads
as words: two words with a space, a capitalised word, an ellipsis); every word
has its Japanese; and the staff game page and the live pages link the words
in their language, as a script the browser and the service worker keep
(issue 28: out of the pages, which have a byte budget).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from league.script_words import script_words
from tests.factories import make_game, make_scorer, make_series

SCRIPTS = Path(__file__).resolve().parents[2] / "league" / "static" / "league"
# A string literal, single or double quoted (no template literals in these scripts).
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')
ASKED = re.compile(r'\b(?:W|TenbouWords)\.(t|n)\(\s*"(\w+)"')
# Technical strings that read like words: headers, MIME types, storage keys, events.
NOT_WORDS = {"text/html; charset=utf-8", "Content-Type", "X-Tenbou-Entry", "X-Tenbou-Saved", "If-None-Match",
             "ETag", "X-Requested-With", "POST", "GET", "use strict", "Content-Length", "Content-Encoding",
             "Content-Language", "Accept-Language"}


def _code_lines(source: str) -> list[str]:
    """The lines that are code: comments gone, and the lines that only speak to the console or throw."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    lines = []
    for line in source.splitlines():
        line = re.sub(r"(^|[^:\\])//.*$", r"\1", line)
        if "console." in line or "new Error(" in line:
            continue
        # Class names: el(tag, "class names", ...), className = "...".
        line = re.sub(r'\bel\("\w+", "[\w -]*"', "el(", line)
        line = re.sub(r'className = "[\w -]*"', "", line)
        lines.append(line)
    return lines


def _reads_as_words(text: str) -> bool:
    if text in NOT_WORDS or not re.search(r"[A-Za-z]{2}", text):
        return False
    if re.search(r"[\[\]#=>(){}]|^\.|^[a-z-]+:", text):  # a selector, a pattern, a URL scheme
        return False
    return bool(re.search(r"[A-Za-z]+ +[A-Za-z]", text) or re.match(r"[A-Z][a-z]", text) or "…" in text)


# The page scripts and the offline queue's modules (queue/*.js).
SCRIPT_NAMES = sorted(str(p.relative_to(SCRIPTS)) for p in SCRIPTS.rglob("*.js"))


@pytest.mark.parametrize("script", SCRIPT_NAMES)
def test_script_has_no_words_of_its_own(script: str) -> None:
    found = []
    for number, line in enumerate(_code_lines((SCRIPTS / script).read_text()), start=1):
        for m in LITERAL.finditer(line):
            text = m.group(1) if m.group(1) is not None else m.group(2)
            if _reads_as_words(text):
                found.append((number, text))
    assert found == []


def test_every_word_a_script_asks_for_is_given() -> None:
    words = script_words()
    asked = set()
    for name in SCRIPT_NAMES:
        for kind, key in ASKED.findall((SCRIPTS / name).read_text()):
            if not key.endswith("_"):  # "stop_" + kind: below
                asked.add((name, kind, key))
    assert len(asked) > 40
    missing = [(name, key) for name, kind, key in sorted(asked)
               if (key not in words if kind == "t" else not {key + "_one", key + "_many"} <= words.keys())]
    assert missing == []
    # The stop's title is asked for by its kind ("stop_" + kind).
    assert {"stop_conflict", "stop_price", "stop_refused"} <= words.keys()


def test_every_word_has_its_japanese() -> None:
    with translation.override("en"):
        english = script_words()
    with translation.override("ja"):
        japanese = script_words()
    assert english.keys() == japanese.keys()
    same = [k for k in english if english[k] == japanese[k]]
    assert same == []
    assert japanese["hand_deals"] == "第{number}局・親は{dealer}"
    assert japanese["rounds"]["S3"] == "南3局" and english["rounds"]["S3"] == "South 3"  # type: ignore[index]
    assert english["banner_sending_one"] == "Sending {n} entry to the server…"
    assert english["banner_sending_many"] == "Sending {n} entries to the server…"
    assert english["honba"] == "{n} honba" and english["sticks_many"] == "{n} sticks on the table"


def _words_script(client, body: str) -> tuple[str, object]:  # type: ignore[no-untyped-def]
    """The words script a page links (before words.js), fetched: its address and response."""
    tag = re.search(r'<script id="tenbou-words" src="([^"]+)"( defer)?></script>', body)
    assert tag, "no words script"
    assert body.index('id="tenbou-words"') < body.index("league/words.js")  # the words first
    return tag.group(1), client.get(tag.group(1))


def _words_of(response) -> dict:  # type: ignore[no-untyped-def]
    text = response.content.decode()
    assert text.startswith("window.TenbouWordsData=") and text.endswith(";\n")
    return json.loads(text[len("window.TenbouWordsData="):-2])


@pytest.mark.django_db
def test_staff_and_live_pages_link_the_words_in_their_language(client) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: the words are a script per language, kept by the browser, not a block in every page."""
    series = make_series()
    make_scorer(series, "scorer", "pw")
    game = make_game(series)
    client.login(username="scorer", password="pw")
    for url in (reverse("staff-game", args=[game.pk]), reverse("game-detail", args=[game.pk])):
        for language, saving in (("ja", "保存しています…"), ("en", "Saving…")):
            client.cookies["django_language"] = language
            body = client.get(url).content.decode()
            assert "TenbouWordsData" not in body and "保存しています" not in body, url  # not in the page
            address, response = _words_script(client, body)
            assert address.startswith(f"/words/{language}."), url
            assert response.status_code == 200 and response["Content-Type"] == "text/javascript; charset=utf-8"
            assert "immutable" in response["Cache-Control"] and "max-age=31536000" in response["Cache-Control"]
            assert _words_of(response)["saving"] == saving, url


@pytest.mark.django_db
def test_the_words_address_moves_with_the_words(client) -> None:  # type: ignore[no-untyped-def]
    """Each language has its own version; an old address still gets today's words, not kept;
    a language the site does not have is a 404."""
    from league.script_words import words_script

    english, japanese = words_script("en")[0], words_script("ja")[0]
    assert english != japanese
    old = client.get(reverse("script-words", args=["ja", "000000000000"]))
    assert old.status_code == 200 and old["Cache-Control"] == "no-cache"
    assert _words_of(old)["saving"] == "保存しています…"
    assert client.get(reverse("script-words", args=["xx", english])).status_code == 404
    with translation.override("ja"):
        assert _words_of(client.get(reverse("script-words", args=["en", english])))["saving"] == "Saving…"


@pytest.mark.django_db
def test_the_service_worker_keeps_the_words_of_every_language(client) -> None:  # type: ignore[no-untyped-def]
    """So that a page opened offline reads its words, in English and in Japanese."""
    from league.script_words import words_script

    head = client.get(reverse("staff-sw")).content.decode().split("\n", 1)[0]
    assets = json.loads(head.removeprefix("const ASSETS = ").removesuffix(";"))
    for language in ("en", "ja"):
        assert reverse("script-words", args=[language, words_script(language)[0]]) in assets
