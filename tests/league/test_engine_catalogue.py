"""The offline engine speaks the page's language (issue 30 with 28): the
server writes down, per language, what ``league.entry``'s words are
(``league.engine_catalogue``), the phone installs that dict
(``translation.install_catalogue``), and its prices then read exactly as the
server's preview in that language.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation as dj

from league import engine_words, services
from league.engine_catalogue import CALLS, PACKAGE, catalogue, catalogue_json, package_msgids
from league.entry import translation
from league.entry.phone import price
from league.models import Game
from league.script_words import script_words
from tests.factories import make_game, make_scorer, make_series
from tests.league.test_offline_entry import _phone_equals_server
from tests.offline.games import random_game, random_sanma_game

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def test_every_message_of_the_package_is_a_literal_the_catalogue_can_find():
    """The catalogue reads the msgids from the package's syntax trees: a call
    with a computed message would be missed, so there is none, but those that
    translate a name bound to a gettext_noop-marked literal (which the catalogue has)."""
    computed = []
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name == "translation.py":
            continue  # the functions themselves
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS:
                wanted = 2 if node.func.id == "ngettext" else 1
                if not all(isinstance(a, ast.Constant) for a in node.args[:wanted]):
                    computed.append((path.name, node.lineno, ast.unparse(node)))
    # Both names hold gettext_noop-marked literals (the field table's messages, Django's invalid_choice).
    assert sorted({(name, call) for name, _line, call in computed}) == [
        ("fields.py", "gettext(INVALID_CHOICE)"), ("fields.py", "gettext(spec.required_message)")]
    singles, pairs = package_msgids()
    assert "Choose what happened." in singles and "Tick who won." in singles
    assert ("%(who)s puts a riichi stick on the table",
            "%(who)s each put a riichi stick on the table") in pairs
    assert len(singles) > 60


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_installed_catalogue_answers_as_django_for_every_word(language):
    """Every msgid, plural pair (for several counts), yaku, refusal and abort
    reason: the dict look-ups give what the server's functions give in that
    language. Installed, the catalogue is what answers (Django's language is
    set to another one meanwhile)."""
    singles, pairs = package_msgids()
    words = catalogue(language)
    other = "en" if language != "en" else "ja"
    with dj.override(language):
        server = {
            "messages": [str(dj.gettext(m)) for m in singles],
            "plurals": [str(dj.ngettext(s, p, n)) for s, p in pairs for n in (0, 1, 2, 5, 11, 21)],
            "yaku": [str(engine_words.yaku_name(y)) for y in translation.ENGLISH_YAKU],
            "refusals": [engine_words.refusal(c, f"engine says {c}") for c in engine_words.REFUSALS],
            "aborts": [engine_words.abort_reason_text(r) for r in engine_words.ABORT_REASONS],
        }
    with dj.override(other), translation.installing(words):
        phone = {
            "messages": [translation.gettext(m) for m in singles],
            "plurals": [translation.ngettext(s, p, n) for s, p in pairs for n in (0, 1, 2, 5, 11, 21)],
            "yaku": [translation.yaku_name(y) for y in translation.ENGLISH_YAKU],
            "refusals": [translation.refusal(c, f"engine says {c}") for c in engine_words.REFUSALS],
            "aborts": [translation.abort_reason(r) for r in engine_words.ABORT_REASONS],
        }
    assert phone == server
    if language == "ja":
        assert translation.ENGLISH_YAKU["riichi"] not in phone["yaku"]
        assert all(JAPANESE.search(t) for t in phone["aborts"])


def test_installing_puts_back_what_was_there():
    before = translation.installed()
    with translation.installing(catalogue("ja")):
        assert translation.installed() != before
    assert translation.installed() == before


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(6))
def test_the_phone_in_japanese_prices_every_step_as_the_server_in_japanese(seed):
    """The offline differential test's random games, the server's side in
    Japanese and the phone's with the Japanese catalogue: lines, counted lines,
    summaries, field errors and refusals equal; and they are Japanese."""
    lines = _phone_equals_server(random_game(seed), language="ja", words=catalogue("ja"))
    assert lines and all(JAPANESE.search(line) for line in lines), lines


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(3))
def test_the_phone_in_japanese_prices_a_three_player_game_as_the_server(seed):
    lines = _phone_equals_server(random_sanma_game(seed), language="ja", words=catalogue("ja"))
    assert lines and all(JAPANESE.search(line) for line in lines), lines


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(3))
def test_the_phone_in_english_with_its_catalogue_prices_as_the_server_in_english(seed):
    lines = _phone_equals_server(random_game(seed), language="en", words=catalogue("en"))
    assert lines and not any(JAPANESE.search(line) for line in lines)


def test_the_catalogue_is_served_versioned_and_kept_a_year(client):
    for code, _name in settings.LANGUAGES:
        version, body = catalogue_json(code)
        url = reverse("engine-words", args=[code, version])
        response = client.get(url)
        assert response.status_code == 200
        assert response["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response["Content-Type"].startswith("application/json")
        assert response.content == body and response.json()["language"] == code
        # the page's words name it, in the page's language
        with dj.override(code):
            assert script_words()["engine_words"] == url
    old = client.get(reverse("engine-words", args=["ja", "000000000000"]))
    assert old.status_code == 200 and old["Cache-Control"] == "no-cache"
    assert client.get(reverse("engine-words", args=["xx", catalogue_json("ja")[0]])).status_code == 404
    assert client.post(reverse("engine-words", args=["ja", catalogue_json("ja")[0]])).status_code == 405


def test_the_service_worker_keeps_the_catalogue_of_every_language(client):
    text = client.get(reverse("staff-sw")).content.decode()
    for code, _name in settings.LANGUAGES:
        assert reverse("engine-words", args=[code, catalogue_json(code)[0]]) in text


def test_engine_js_hands_the_worker_the_page_s_words_and_every_page_prices_on_the_phone():
    static = Path(__file__).resolve().parents[2] / "league" / "static" / "league"
    engine = (static / "engine.js").read_text()
    assert "install_words" in engine and "engine_words" in engine
    assert "english" not in (static / "staff_game.js").read_text()  # no page left to the server for its language


RULES = [
    "0", "(n != 1)", "n != 1", "(n > 1)", "n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2",
    "n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2",
    "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2)",
    "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5",
    "!(n == 1)",
]


@pytest.mark.parametrize("rule", RULES)
def test_the_phone_s_plural_rule_reads_as_python_s_gettext(rule):
    """``translation.plural_rule`` (a small parser: the phone has no gettext
    module of its own to trust with a catalogue's text) against the standard
    library's ``gettext.c2py`` over counts from 0 to 300."""
    import gettext

    assert [translation.plural_rule(rule)(n) for n in range(301)] == [gettext.c2py(rule)(n) for n in range(301)]


@pytest.mark.parametrize("bad", ["n ==", "(n != 1", "n ? 1", "__import__('os')", "n = 1", ""])
def test_a_plural_rule_it_cannot_read_is_refused(bad):
    with pytest.raises(ValueError, match="plural rule"):
        translation.plural_rule(bad)


@pytest.mark.django_db
def test_the_phone_words_the_replays_refusals_in_the_pages_language(client):
    """A refusal the replay raises (riichi without tenpai at a draw, a game staff ended
    while the page was open) reaches the phone as the engine's English message: the
    phone puts it in its catalogue's words, as the server's preview does."""
    game = make_game(make_series("ari-ari"))
    client.force_login(make_scorer(game.series))
    url = reverse("staff-offline-game", args=[game.pk])
    words = catalogue("ja")
    state = client.get(url, headers={"Accept-Language": "ja"}).json()
    answer = price(state, {"outcome": "draw", "tenpai": ["1"], "riichi": ["2"]}, words=words)
    assert answer["errors"] == [{"field": "riichi", "message": "立直した人は流局で聴牌でなければなりません",
                                 "code": "riichi_not_tenpai"}]
    services.finish_game(game=game, end=Game.End.EARLY, by=None)
    state = client.get(url, headers={"Accept-Language": "ja"}).json()
    answer = price(state, {"outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "30"}, words=words)
    assert [(e["message"], e["code"]) for e in answer["errors"]] == [("この対局は終了しています", "game_over")]
