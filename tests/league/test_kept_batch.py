"""Hands kept on the phone go to the server in ONE request (issue 30): each
entry is taken as a single save with ``seen`` is, in order, each in its own
transaction; the first one not saved stops the rest. The phone's part is the
offline engine's own code (``league.entry.phone.price``), run here in CPython
on offline.json, each hand priced on the game as the hands before it left it.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from league.entry.kept import MAX_KEPT, BadKept, read_kept
from league.entry.phone import apply, price
from league.models import Game, SaveKey
from tests.factories import make_game, make_scorer, make_series

pytestmark = pytest.mark.django_db

ENTRY = {"HTTP_X_TENBOU_ENTRY": "1"}

# Six hands of an East game, none ending it: tsumo, draw, ron, tsumo, ron, draw.
SIX = [
    {"outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "30"},
    {"outcome": "draw", "tenpai": ["0", "2"]},
    {"outcome": "ron", "winners": ["2"], "loser": "0", "han_2": "1", "fu_2": "30"},
    {"outcome": "tsumo", "winner": "3", "han_3": "3", "fu_3": "40"},
    {"outcome": "ron", "winners": ["0"], "loser": "3", "han_0": "2", "fu_0": "40"},
    {"outcome": "draw", "tenpai": ["1", "3"]},
]


def kept_batch(client: Client, game: Game, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the queue (queue/sending.js) keeps and sends: each hand priced on the phone's own game,
    the one before it applied (the engine's ``apply``), with a key, its digest
    and the payments shown."""
    state = client.get(reverse("staff-offline-game", args=[game.pk])).json()
    out = []
    for fields in hands:
        priced = price(state, fields, None)
        assert priced["ok"], priced
        out.append({"fields": fields, "number": str(priced["number"]), "state": priced["state"],
                    "key": str(uuid.uuid4()), "checked": priced["checked"],
                    "seen": " ".join(map(str, priced["payments"])), "_payments": priced["payments"]})
        state = apply(state, priced)
    return out


def send(client: Client, game: Game, entries: list[dict[str, Any]], **extra: Any) -> Any:
    body = {"entries": [{k: v for k, v in e.items() if not k.startswith("_")} for e in entries]}
    return client.post(reverse("staff-kept", args=[game.pk]), json.dumps(body), content_type="application/json",
                       **ENTRY, **extra)


def test_six_kept_hands_are_saved_by_one_request_once_each_with_their_keys(as_scorer: Client, game: Game) -> None:
    entries = kept_batch(as_scorer, game, SIX)
    response = send(as_scorer, game, entries)
    assert response.status_code == 200
    answer = response.json()
    assert answer["stop"] is None
    assert [e["saved"] for e in answer["entries"]] == ["saved"] * 6
    assert [e["number"] for e in answer["entries"]] == [1, 2, 3, 4, 5, 6]
    assert [h.result["deltas"] for h in game.hands.order_by("number")] == [e["_payments"] for e in entries]
    assert sorted(SaveKey.objects.filter(game=game).values_list("key", flat=True)) == sorted(e["key"] for e in entries)
    # The page's parts after hand 6, as an online save answered in place: the next hand is 7.
    then = answer["then"]
    assert then["number"] == 7 and then["game"]["number"] == 7 and set(then["parts"]) == {"clock", "state", "hands"}


def test_the_same_batch_again_saves_nothing_and_says_each_was_already_saved(as_scorer: Client, game: Game) -> None:
    entries = kept_batch(as_scorer, game, SIX)
    assert send(as_scorer, game, entries).json()["stop"] is None
    again = send(as_scorer, game, entries)  # the answer was lost on the way: the phone sends them all again
    assert again.status_code == 200
    assert again.json() == {"entries": [{"key": e["key"], "saved": "known"} for e in entries], "stop": None,
                            "then": None}
    assert game.hands.count() == 6 and SaveKey.objects.filter(game=game).count() == 6


def test_a_price_the_server_does_not_share_at_entry_three_stops_there(as_scorer: Client, game: Game) -> None:
    entries = kept_batch(as_scorer, game, SIX)
    entries[2]["seen"] = "0 0 0 0"  # what a phone with other rules would have shown for the ron
    answer = send(as_scorer, game, entries).json()
    assert [e["saved"] for e in answer["entries"]] == ["saved", "saved"]
    assert answer["stop"] == {"kind": "price", "theirs": entries[2]["_payments"], "index": 2,
                              "key": entries[2]["key"]}
    assert game.hands.count() == 2
    assert set(SaveKey.objects.filter(game=game).values_list("key", flat=True)) == {entries[0]["key"],
                                                                                    entries[1]["key"]}
    assert answer["then"]["number"] == 3  # the page after hand 2
    # Sent again at the server's price (the scorer's choice: no seen), the rest follows.
    del entries[2]["seen"]
    rest = send(as_scorer, game, entries[2:]).json()
    assert rest["stop"] is None and [e["number"] for e in rest["entries"]] == [3, 4, 5, 6]


def test_a_stale_kept_hand_stops_the_batch_with_the_conflict_page(as_scorer: Client, game: Game) -> None:
    entries = kept_batch(as_scorer, game, SIX[:3])
    # Another scorer saved hand 1 first (online): the phone's entries are built on the game before it.
    other = kept_batch(as_scorer, game, [{"outcome": "draw", "tenpai": ["1"]}])
    assert send(as_scorer, game, other).json()["stop"] is None
    answer = send(as_scorer, game, entries).json()
    assert answer["entries"] == [] and answer["then"] is None
    stop = answer["stop"]
    assert stop["kind"] == "conflict" and stop["index"] == 0 and stop["key"] == entries[0]["key"]
    assert 'class="side now"' in stop["html"]  # the game as the server has it, for the side by side
    assert game.hands.count() == 1


def test_a_stale_kept_hands_conflict_page_gives_its_reason_in_japanese(as_scorer: Client, game: Game) -> None:
    """The batch's conflict page words the services' reason in the reader's language, as the
    save's does (issue 28's walk found it in English inside the Japanese sentence)."""
    entries = kept_batch(as_scorer, game, SIX[:2])
    other = kept_batch(as_scorer, game, [{"outcome": "draw", "tenpai": ["1"]}])
    assert send(as_scorer, game, other).json()["stop"] is None
    html = send(as_scorer, game, entries, HTTP_ACCEPT_LANGUAGE="ja").json()["stop"]["html"]
    assert "この局には別の入力が先に保存されました" in html
    for english in ("cannot be recorded", "someone else", "stood differently", "another scorer"):
        assert english not in html, english
    assert game.hands.count() == 1


def test_an_entry_the_form_refuses_stops_with_its_field_named(as_scorer: Client, game: Game) -> None:
    entries = kept_batch(as_scorer, game, SIX[:2])
    entries[1]["fields"] = {"outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "25"}  # no such hand
    answer = send(as_scorer, game, entries).json()
    assert [e["saved"] for e in answer["entries"]] == ["saved"]
    stop = answer["stop"]
    assert stop["kind"] == "refused" and stop["index"] == 1
    assert stop["errors"] and all(e["message"] for e in stop["errors"])
    assert {e["field"] for e in stop["errors"]} <= {"fu_1", "__all__", "checked"}
    assert game.hands.count() == 1


@pytest.mark.parametrize(("body", "field", "code"), [
    (b"not json", "body", "not_json"),
    (b'{"entries": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "body", "not_json"),  # past Python's recursion limit
    (b"[]", "body", "not_object"),
    (b'{"entries": {}}', "entries", "not_list"),
    (b'{"entries": []}', "entries", "empty"),
    (b'{"entries": [3]}', "entries[0]", "not_object"),
    (b'{"entries": [{"fields": {"outcome": 3}, "number": "1", "state": "s", "key": "k", "checked": "c"}]}',
     "entries[0].fields.outcome", "not_text"),
    (b'{"entries": [{"fields": {}, "number": "1", "state": "s", "checked": "c"}]}', "entries[0].key", "missing"),
    (b'{"entries": [{"fields": {}, "number": "", "state": "s", "key": "k", "checked": "c"}]}', "entries[0].number",
     "missing"),
    (b'{"entries": [{"fields": {}, "number": 1, "state": "s", "key": "k", "checked": "c"}]}', "entries[0].number",
     "not_text"),
    (b'{"entries": [{"fields": {}, "number": "1", "state": ["s"], "key": "k", "checked": "c"}]}', "entries[0].state",
     "not_text"),
])
def test_a_malformed_body_is_refused_naming_the_field(as_scorer: Client, game: Game, body: bytes, field: str,
                                                      code: str) -> None:
    response = as_scorer.post(reverse("staff-kept", args=[game.pk]), body, content_type="application/json",
                              **ENTRY)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["field"], error["code"]) == (field, code) and error["message"].startswith(field + " ")
    assert game.hands.count() == 0


def test_an_oversize_list_is_refused_and_nothing_is_saved(as_scorer: Client, game: Game) -> None:
    entries = kept_batch(as_scorer, game, SIX[:1]) * (MAX_KEPT + 1)
    response = send(as_scorer, game, entries)
    assert response.status_code == 400 and response.json()["error"]["code"] == "too_many"
    assert game.hands.count() == 0


@pytest.mark.parametrize("seen", ["", "one two", "1.5 0 0 -1.5"])
def test_a_malformed_seen_refuses_the_batch_before_any_entry_is_saved(as_scorer: Client, game: Game,
                                                                     seen: str) -> None:
    """The third entry's ``seen`` is not payments: a 400 naming it, the two
    before it not saved either (a well-formed one that differs is the price
    stop, which saves the entries before it)."""
    entries = kept_batch(as_scorer, game, SIX[:3])
    entries[2]["seen"] = seen
    response = send(as_scorer, game, entries)
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "not_payments", "field": "entries[2].seen",
        "message": "entries[2].seen must be the seats' payments in whole points, separated by spaces"}
    assert game.hands.count() == 0


def test_read_kept_sets_what_the_batch_owns_over_the_fields() -> None:
    body = json.dumps({"entries": [{"fields": {"outcome": "draw", "action": "preview", "editing": "1"},
                                    "number": "1", "state": "s", "key": "k", "checked": "c"}]}).encode()
    [data] = read_kept(body)
    assert data == {"outcome": "draw", "number": "1", "state": "s", "key": "k", "checked": "c", "action": "save"}
    with pytest.raises(BadKept):
        read_kept(json.dumps({"entries": [dict(json.loads(body)["entries"][0], seen=[0, 0, 0, 0])]}).encode())


def test_anonymous_gets_the_login_answer_and_a_stranger_is_refused(client: Client, game: Game) -> None:
    body = json.dumps({"entries": [{"fields": {}, "number": "1", "state": "s", "key": "k", "checked": "c"}]})
    url = reverse("staff-kept", args=[game.pk])
    anonymous = client.post(url, body, content_type="application/json", **ENTRY)
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "login_required"
    client.force_login(User.objects.create_user("stranger", password="pw"))
    assert client.post(url, body, content_type="application/json", **ENTRY).status_code == 403
    assert client.get(url, **ENTRY).status_code == 403  # permission first: an outsider learns nothing
    assert game.hands.count() == 0


def test_a_get_is_not_allowed(as_scorer: Client, game: Game) -> None:
    assert as_scorer.get(reverse("staff-kept", args=[game.pk])).status_code == 405


def test_the_batch_needs_the_csrf_token(scorer: Any, game: Game) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(scorer)
    entries = kept_batch(strict, game, SIX[:1])
    assert send(strict, game, entries).status_code == 403
    assert game.hands.count() == 0


def test_a_malformed_body_is_refused_in_the_scorers_language(as_scorer: Client, game: Game) -> None:
    as_scorer.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    response = as_scorer.post(reverse("staff-kept", args=[game.pk]), b'{"entries": []}',
                              content_type="application/json", **ENTRY)
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "entries に記録がありません"


def test_a_hand_that_ends_the_game_gives_the_address_and_the_next_entry_stops(client: Client) -> None:
    series = make_series({"preset": "ari-ari", "overrides": {"bust": True}})
    client.force_login(make_scorer(series, username="bust-scorer"))
    game = make_game(series)
    bust = {"outcome": "ron", "winners": ["2"], "loser": "0", "han_2": "13", "fu_2": "30"}  # the dealer below 0
    [ending] = kept_batch(client, game, [bust])
    [after] = kept_batch(client, game, SIX[:1])  # built on the same game: hand 1 too
    answer = send(client, game, [ending, after]).json()
    game.refresh_from_db()
    assert game.is_finished and game.hands.count() == 1
    assert [e["saved"] for e in answer["entries"]] == ["saved"]
    assert answer["then"] == {"url": reverse("staff-game", args=[game.pk]) + "?hand=2"}  # a page load, once
    assert answer["stop"]["kind"] == "conflict" and answer["stop"]["index"] == 1
