"""The staff page's script leaves a form's empty fields out of what it posts
(``posted`` in staff_game.js, issue 28): the server must read a field not sent
exactly as the same field sent empty. So, from the page served, for hands of
every kind and a correction that clears its note: the preview of the body
with its empty fields answers what the preview of the body without them
answers, byte for byte, and the save of the page's own body (without them)
is accepted with the digest of the full body's preview, so the server priced
the same hand from both. And leaving empties out cannot change a field's
value: no field the form posts twice is single-valued (a single field reads
its last value), and no field of several values has an empty choice."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.entry.fields import field_specs
from league.models import Game
from tests.benchmarks import form_body
from tests.benchmarks.form_body import EntryPage, filled, hand_choices, urlencoded
from tests.factories import play, ron

pytestmark = pytest.mark.django_db

HEADERS = {**form_body.HEADERS, "HTTP_X_TENBOU_ENTRY": "1"}


def test_the_page_s_script_leaves_empty_fields_out() -> None:
    """What the rest of this file proves safe is what the script does (the
    browser test test_bench_body.py holds the builder to Chromium's posts)."""
    assert form_body.SKIPS_EMPTY
    assert filled([("a", ""), ("b", "1"), ("b", ""), ("c", " ")]) == [("b", "1"), ("c", " ")]


def _preview(client: Client, game: Game, body: str) -> bytes:
    answer = client.post(reverse("staff-preview", args=[game.pk]), body, **HEADERS)
    assert answer.status_code == 200
    return answer.content


def _save(client: Client, url: str, body: str) -> None:
    """Saved: the script's request is answered with where to go next (a
    refusal or a price that changed would show a page instead)."""
    answer = client.post(url, body, **HEADERS)
    assert answer.status_code == 200 and answer.content.startswith(b"/staff/games/"), answer.content[:400]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_field_not_sent_reads_as_the_field_sent_empty(as_scorer: Client, game: Game, language: str) -> None:
    as_scorer.cookies["django_language"] = language
    page_url = reverse("staff-game", args=[game.pk])
    saved = 0
    for step in range(5):  # ron, ron with riichi, ron, tsumo, draw
        form = EntryPage(as_scorer.get(page_url).content.decode())
        form.tap(hand_choices(step))
        entries = [(k, v) for k, v in form.entries() if k != "action"]
        full, short = urlencoded(entries), form.preview_body()
        assert short == urlencoded(filled(entries)) and len(short) < len(full)
        assert sum(v == "" for _k, v in entries) >= 10  # the page's form is mostly empty fields
        shown = _preview(as_scorer, game, full)
        assert _preview(as_scorer, game, short) == shown
        digest = re.search(rb'data-digest="([^"]+)"', shown)
        assert digest, shown[:400]
        form.shown(digest.group(1).decode())
        _save(as_scorer, page_url, form.save_body())
        saved += 1
        assert game.hands.count() == saved
    # A correction that clears the note: the note is not sent, and reads as cleared.
    edit_url = reverse("staff-edit-hand", args=[game.pk, 1])
    form = EntryPage(as_scorer.get(edit_url).content.decode())
    form.tap({"note": "kept by mistake"})
    form.shown(re.search(rb'data-digest="([^"]+)"', _preview(as_scorer, game, form.preview_body())).group(1).decode())
    _save(as_scorer, edit_url, form.save_body())
    assert game.hands.get(number=1).note == "kept by mistake"
    form = EntryPage(as_scorer.get(edit_url).content.decode())
    form.tap({"note": ""})
    body = form.preview_body()
    assert "note=" not in body
    form.shown(re.search(rb'data-digest="([^"]+)"', _preview(as_scorer, game, body)).group(1).decode())
    _save(as_scorer, edit_url, form.save_body())
    assert game.hands.get(number=1).note == ""


def test_no_value_is_lost_by_leaving_empty_fields_out(as_scorer: Client, game: Game) -> None:
    play(game, [ron(1, 0, 2, 30)])
    rules = game.series.ruleset()
    kinds = {s.name: s.kind for s in field_specs(rules, bookkeeping=True)}
    assert not [s.name for s in field_specs(rules) if s.kind == "multi" and "" in s.choices]
    for url in (reverse("staff-game", args=[game.pk]), reverse("staff-edit-hand", args=[game.pk, 1])):
        for language in ("en", "ja"):
            with translation.override(language):
                as_scorer.cookies["django_language"] = language
                form = EntryPage(as_scorer.get(url).content.decode())
            form.tap({"outcome": "ron", "winners": ["0", "2"], "loser": "1", "riichi": ["0", "1", "3"]})
            names = [k for k, _v in form.entries()]
            twice = {n for n in names if names.count(n) > 1}
            assert twice and all(kinds.get(n) == "multi" for n in twice), twice
