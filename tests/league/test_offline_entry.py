"""The phone's price of a hand is the server's (issue 20): ``league.entry.phone``
(what Pyodide runs on the phone) against the staff hand form, its preview and
the saved hand, step by step through seeded random games typed into the form.

That the same Python gives the same answers in Pyodide is
tests/browser/test_offline_engine.py.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django import forms
from django.http import QueryDict
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league import offline_assets, services
from league.entry.fields import BOOKKEEPING, EMPTY, FieldError, clean_one, field_specs
from league.entry.phone import price
from league.forms import HandForm
from league.models import Game
from league.services import entry
from scoring import game as sg
from scoring.rules import PRESETS
from tests.factories import make_game, make_players, make_scorer, make_series
from tests.offline.games import random_game, random_sanma_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

KINDS = {forms.TypedChoiceField: "int_choice", forms.MultipleChoiceField: "multi", forms.ChoiceField: "choice",
         forms.IntegerField: "int", forms.BooleanField: "bool", forms.CharField: "text"}
WIDGETS = {forms.RadioSelect: "radio", forms.CheckboxSelectMultiple: "checkboxes", forms.HiddenInput: "hidden",
           forms.NumberInput: "number", forms.CheckboxInput: "checkbox", forms.TextInput: "text"}


def _kind(field: forms.Field) -> str:
    return next(kind for cls, kind in KINDS.items() if isinstance(field, cls))


def _widget(field: forms.Field) -> str:
    return next(name for cls, name in WIDGETS.items() if type(field.widget) is cls)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_form_the_page_and_the_phone_all_read_the_one_field_table(preset):
    """One table of the hand form's fields (``league.entry.fields``): the
    Django form is built from it, the page gives the script its JSON, and
    the phone's Python is the same module."""
    # A series seats its ruleset's number of players (issue 36): three in a sanma series.
    game = make_game(make_series(preset), make_players(PRESETS[preset].players))
    form = HandForm(game=game, names=["E", "S", "W", "N"], state=sg.TableState(0, 0, 0, 0, (25000,) * 4), number=1)
    table = field_specs(game.ruleset(), bookkeeping=True)
    built = [(name, _kind(f), tuple(str(v) for v, _ in getattr(f, "choices", ())), f.required,
              getattr(f, "max_length", None), getattr(f, "min_value", None), getattr(f, "max_value", None),
              str(f.label or ""), str(f.help_text), _widget(f)) for name, f in form.fields.items()]
    assert built == [(s.name, s.kind, s.choices, s.required, s.max_length, s.min_value, s.max_value, s.label,
                      s.help, s.widget) for s in table]
    assert [s.name for s in field_specs(game.ruleset())] == [n for n in form.fields if n not in BOOKKEEPING]
    # The page's script reads which fields post several values from the table's JSON.
    block = re.search(r'<script id="hand-fields" type="application/json">(.*?)</script>', str(form.fields_script()))
    assert json.loads(block[1]) == {"multi": [s.name for s in table if s.kind == "multi"]}
    # The phone's engine is this very module, zipped.
    with zipfile.ZipFile(io.BytesIO(offline_assets.engine_zip().data)) as zf:
        assert zf.read("league/entry/fields.py") == (ROOT / "league/entry/fields.py").read_bytes()


def test_the_offline_engine_keeps_no_list_of_fields_of_its_own():
    script = (ROOT / "league/static/league/engine.js").read_text()
    assert 'getElementById("hand-fields")' in script
    for name in ("winners", "tenpai", "riichi", "yakuman", "flags"):
        assert name not in script, name


def test_the_table_names_its_words_for_the_catalogue():
    # The labels are msgids: each is in the Japanese catalogue (the page speaks Japanese).
    with translation.override("ja"):
        for spec in field_specs(PRESETS["ari-ari"]):
            for msgid in (spec.label, spec.help):
                assert not msgid or translation.gettext(msgid) != msgid, msgid


@pytest.mark.parametrize("preset", ["ari-ari", "wrc-2022"])
def test_a_field_not_sent_reads_as_its_empty_value(preset):
    for spec in field_specs(PRESETS[preset]):
        if not spec.required:
            assert clean_one(spec, {}) == EMPTY[spec.kind](), spec.name


# Values a hand-made or damaged post may hold: empty, blank, junk, numbers
# of every shape, the checkbox's words, a NUL, a tile string.
JUNK = ["", " ", "x", "99", "-1", "0", "1", " 3 ", "1.0", "2.5", "1e3", "\u0663", "13", "30", "false", "False",
        "true", "on", "off", "no", "ron", "a\x00b", "0555p", "abcdefgh-1", " abcdefgh-1"]


def _django_clean(field: forms.Field, post: QueryDict, name: str) -> tuple[str, Any]:
    try:
        return "ok", field.clean(field.widget.value_from_datadict(post, {}, name))
    except forms.ValidationError as err:
        return "refused", [(e.message % (e.params or {}), e.code) for e in err.error_list]


def _table_clean(spec: Any, post: QueryDict) -> tuple[str, Any]:
    try:
        return "ok", clean_one(spec, dict(post.lists()))
    except FieldError as err:
        return "refused", err.messages


@pytest.mark.parametrize("preset", ["ari-ari", "wrc-2022", "tenhou-sanma"])
def test_each_field_cleans_any_post_as_the_django_field_does(preset: str) -> None:
    """``clean_one`` (the phone and the server's ``PostedHand``) against the
    Django field built from the same row of the table, over junk posted
    once, twice, or not at all: the same value, or the same messages and
    codes. A checkbox posted "0" is ticked (Django's widget reads the
    text), the hand's number posted empty is required, a key of spaces is
    refused (a pattern's field keeps its spaces)."""
    rules = PRESETS[preset]
    game = make_game(make_series(preset), make_players(rules.players))
    names = ["E", "S", "W", "N"][:rules.players]
    form = HandForm(game=game, names=names, state=sg.TableState(0, 0, 0, 0, (25000,) * rules.players), number=1)
    posts = [[], *([v] for v in JUNK), *([a, b] for a in ("0", "x", "1") for b in ("", "1"))]
    differ = []
    for spec in field_specs(rules, bookkeeping=True):
        for values in posts:
            post = QueryDict(mutable=True)
            post.setlist(spec.name, values)
            django, table = _django_clean(form.fields[spec.name], post, spec.name), _table_clean(spec, post)
            if table != django:
                differ.append((spec.name, values, django, table))
    assert differ == []


def _post(fields: dict[str, Any], number: int) -> QueryDict:
    q = QueryDict(mutable=True)
    for name, value in fields.items():
        if isinstance(value, list):
            q.setlist(name, value)
        else:
            q[name] = value
    q["number"] = str(number)
    return q


def _server(game: Game, fields: dict[str, Any], number: int, editing: bool) -> tuple[HandForm, dict[str, Any]]:
    """The server's preview of the posted hand: the hand form the staff page
    builds, priced by the entry service (``services.entry``)."""
    now = entry.read_game(Game.objects.get(pk=game.pk))
    form = HandForm(_post(fields, number), game=now.game, names=now.names, state=now.table_state(number),
                    number=number)
    if not form.is_valid():
        return form, {}
    try:
        preview = entry.preview_entry(now, number, form.hand)
    except services.ServiceError as err:
        form.add_service_error(err)
        return form, {}
    return form, {"preview": preview, "counted": form.counted_lines(),
                  "payments": services.describe_payments(preview.played.result, form.names)}


def _errors(form: HandForm) -> dict[str | None, list[tuple[str, str | None]]]:
    return {None if name == "__all__" else name: [(e.message % (e.params or {}), e.code) for e in errors]
            for name, errors in form.errors.as_data().items()}


def _phone_errors(answer: dict[str, Any]) -> dict[str | None, list[tuple[str, str | None]]]:
    out: dict[str | None, list[tuple[str, str | None]]] = {}
    for e in answer["errors"]:
        out.setdefault(e["field"], []).append((e["message"], e["code"]))
    return out


SEEDS = range(24)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_phone_prices_every_step_of_a_random_game_as_the_server(seed):
    _phone_equals_server(random_game(seed))


@pytest.mark.parametrize("seed", range(16))
def test_the_phone_prices_every_step_of_a_random_three_player_game_as_the_server(seed):
    """Three seats, kita on the winners (issue #36): the same equality."""
    _phone_equals_server(random_sanma_game(seed))


def _phone_equals_server(played: dict[str, Any], language: str | None = None,
                         words: dict[str, Any] | None = None) -> list[str]:
    """Each step priced by the phone and by the server, compared; with
    ``language``, the server's side in that language and the phone's with
    ``words`` (its engine catalogue). The phone's payment lines, returned."""
    shown_lines: list[str] = []
    series = make_series(played["record"]["rules"])
    game = make_game(series, make_players(series.ruleset().players))
    client = Client()
    client.force_login(make_scorer(game.series, username=f"scorer-{played['id']}"))
    url = reverse("staff-offline-game", args=[game.pk])
    compared = 0
    for number, fields in played["steps"]:
        # the seats' names carry the winds in the reader's language, as the phone's page asks for them
        state = client.get(url, headers={"Accept-Language": language or "en"}).json()
        editing = number is not None
        number = number or state["number"]
        if number >= state["number"] and editing:
            continue  # a correction of a hand not entered: the page says it is gone (a view's matter)
        with translation.override(language) if language else contextlib.nullcontext():
            answer = price(state, fields, number, words=words)
            form, shown = _server(game, fields, number, editing)
            if answer["ok"]:
                shown_lines += answer["lines"] + answer["counted"]
            compared += 1
            if not answer["ok"]:
                assert _phone_errors(answer) == _errors(form), fields
                if any(e["code"] == "game_over" for e in answer["errors"]):
                    break
                continue
            assert form.errors == {}, (fields, answer)
            preview = shown["preview"]
            assert answer["payments"] == list(preview.played.deltas)
            assert answer["lines"] == shown["payments"]
            assert answer["counted"] == shown["counted"]
            assert answer["after"]["scores"] == list(preview.played.scores)
            assert answer["after"]["ended"] == preview.game.finished
            assert answer["summary"] == services.describe_entry(form.hand, form.names)
            # The save's tie to this price: the phone's digest is the server preview's (one request per kept hand).
            assert answer["checked"] == entry.digest(form.hand)
            # Saved as the server saves it: the stored hand, its result and the new state are the phone's.
            if editing:
                services.correct_hand(game=game, number=number, hand=form.hand, state=state["state"])
            else:
                services.record_hand(game=game, number=number, hand=form.hand, state=state["state"])
            row = Game.objects.get(pk=game.pk).hands.get(number=number)
            assert answer["hand"] == sg.hand_to_dict(row.to_input())
            assert answer["before"]["dealer"] == row.result["dealer"]
            assert answer["before"]["honba"] == row.result["honba"]
            assert answer["before"]["riichi_sticks"] == row.result["sticks"]
            assert answer["payments"] == row.result["deltas"]
            after = client.get(url).json()
            assert answer["digest"] == after["state"]
            assert answer["after"]["ended"] == after["finished"]
            if answer["after"]["round"] is not None:
                nxt = Game.objects.get(pk=game.pk).replay().result
                shown_next = nxt.hands[number].start if number < len(nxt.hands) else nxt.next
                assert (answer["after"]["dealer"], answer["after"]["honba"], answer["after"]["riichi_sticks"]) == (
                    shown_next.dealer, shown_next.honba, shown_next.riichi_sticks)
    assert compared >= 2
    return shown_lines


def test_the_game_state_is_for_its_scorers_only():
    game = make_game()
    client = Client()
    url = reverse("staff-offline-game", args=[game.pk])
    assert client.get(url).status_code == 302  # to the login page
    other = make_scorer(make_series(), username="elsewhere")
    client.force_login(other)
    assert client.get(url).status_code == 403


# -- what the phone downloads ---------------------------------------------------------


def test_without_the_runtime_offline_entry_is_off_with_a_notice(client, monkeypatch, tmp_path):
    monkeypatch.setattr(offline_assets, "ASSETS", tmp_path / "nothing-here")
    info = client.get(reverse("offline-engine")).json()
    assert info["available"] is False
    assert "fetch_offline_assets" in info["notice"]
    assert info["files"] == []
    assert client.get(reverse("offline-runtime", args=["pyodide.asm.wasm"])).status_code == 404


def test_with_the_runtime_every_file_the_phone_keeps_is_served(client, monkeypatch, tmp_path):
    for name in offline_assets.RUNTIME_FILES:
        (tmp_path / name).write_bytes(b"x" * 10)
    (tmp_path / offline_assets.SIZES).write_text(json.dumps({n: {"bytes": 10, "gzip_bytes": 30} for n in offline_assets.RUNTIME_FILES}))
    monkeypatch.setattr(offline_assets, "ASSETS", tmp_path)
    info = client.get(reverse("offline-engine")).json()
    assert info["available"] is True and info["notice"] is None
    zipped = offline_assets.engine_zip()
    assert info["bytes"] == 10 * len(offline_assets.RUNTIME_FILES) + len(zipped.data)
    for url in info["files"]:
        assert url.startswith("/staff/")  # inside the service worker's scope
        response = client.get(url)
        assert response.status_code == 200, url
    assert client.get(reverse("offline-runtime", args=["console.html"])).status_code == 404
    # Gzipped where the phone accepts it, with the file's own type.
    (tmp_path / "pyodide.asm.wasm.gz").write_bytes(gzip.compress(b"x" * 10))
    response = client.get(reverse("offline-runtime", args=["pyodide.asm.wasm"]), HTTP_ACCEPT_ENCODING="gzip, br")
    assert (response["Content-Type"], response["Content-Encoding"]) == ("application/wasm", "gzip")
    assert gzip.decompress(b"".join(response.streaming_content)) == b"x" * 10
    plain = client.get(reverse("offline-runtime", args=["pyodide.asm.wasm"]))
    assert not plain.has_header("Content-Encoding") and b"".join(plain.streaming_content) == b"x" * 10
    response = client.get(reverse("offline-engine-zip"), HTTP_IF_NONE_MATCH=zipped.etag)
    assert response.status_code == 304


def test_the_phone_gets_the_entry_and_scoring_and_no_django(tmp_path):
    """engine.zip holds scoring and league.entry only, and they import without Django."""
    path = tmp_path / "engine.zip"
    path.write_bytes(offline_assets.engine_zip().data)
    names = zipfile.ZipFile(path).namelist()
    assert {n.split("/")[0] for n in names} == {"scoring", "league"}
    assert all(n in ("league/__init__.py", "league/db_bounds.py", "league/bounded_map.py")
               or n.startswith("league/entry/")
               for n in names if n.startswith("league/"))
    assert "league/entry/phone.py" in names and "scoring/game.py" in names
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import league.entry.phone as p; "
              "assert p.__file__.startswith(sys.argv[1]), p.__file__; "
              "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'")
    done = subprocess.run([sys.executable, "-I", "-c", script, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
