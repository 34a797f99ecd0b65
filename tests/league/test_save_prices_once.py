"""A save that carries the phone's price (``seen``) is priced once (issue 28):
the save's own replay, under the game's lock, is the price checked; no
preview-like pricing before it. Counted, not mocked: the profiler counts how
often the request replays a game through ``scoring.game.replay``.
"""

from __future__ import annotations

import cProfile
import json
import pstats
import uuid
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.entry.phone import price
from league.models import Game, SaveKey
from league.services import entry
from scoring import game as sg
from scoring.game import HandInput, Tsumo, Win
from tests.factories import abort, chombo, double_ron, draw, make_game, play, ron, tsumo

pytestmark = pytest.mark.django_db

TSUMO = {"outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "30"}
ENTRY = {"HTTP_X_TENBOU_ENTRY": "1"}


def phone_save(client: Client, game: Game, fields: dict[str, Any], number: int | None = None) -> dict[str, Any]:
    """A save as the page sends it after pricing on the phone: its digest and the payments it showed."""
    state = client.get(reverse("staff-offline-game", args=[game.pk])).json()
    priced = price(state, fields, number)
    assert priced["ok"], priced
    return {**fields, "number": str(priced["number"]), "state": priced["state"], "key": str(uuid.uuid4()),
            "action": "save", "checked": priced["checked"], "seen": " ".join(map(str, priced["payments"]))}


def replays(client: Client, url: str, data: dict[str, Any], **headers: str) -> tuple[Any, int]:
    """The response, and how many times ``scoring.game.replay`` ran to answer it."""
    profile = cProfile.Profile()
    profile.enable()
    try:
        response = client.post(url, data, **ENTRY, **headers)
    finally:
        profile.disable()
    code = sg.replay.__code__
    calls = sum(stat[1] for (file, line, name), stat in pstats.Stats(profile).stats.items()  # type: ignore[attr-defined]
                if file == code.co_filename and line == code.co_firstlineno and name == "replay")
    return response, calls


# Real commits: the save keeps its read for the answer in place once its commit has run.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("in_place", [True, False])
def test_a_save_with_the_phones_price_replays_the_game_once(as_scorer: Client, game: Game, in_place: bool) -> None:
    url = reverse("staff-game", args=[game.pk])
    data = phone_save(as_scorer, game, TSUMO)
    headers = {"HTTP_X_TENBOU_IN_PLACE": "1"} if in_place else {}
    response, calls = replays(as_scorer, url, data, **headers)
    assert response.status_code == 200 and response["X-Tenbou-Saved"] == ("in-place" if in_place else "1")
    assert calls == 1
    assert game.hands.get(number=1).result["deltas"] == [-1000, 2000, -500, -500]


def test_a_price_that_differs_is_refused_by_the_saves_own_replay(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    data = {**phone_save(as_scorer, game, TSUMO), "seen": "-1300 2600 -700 -700"}
    response, calls = replays(as_scorer, url, data)
    assert response.status_code == 409 and response["X-Tenbou-Stop"] == "price"
    assert json.loads(response.content) == {"stop": "price", "theirs": [-1000, 2000, -500, -500]}
    assert calls == 1
    assert game.hands.count() == 0 and not SaveKey.objects.filter(game=game).exists()


def test_a_correction_with_the_phones_price_is_checked_by_its_save(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    as_scorer.post(url, phone_save(as_scorer, game, TSUMO), **ENTRY)
    fixed = {"outcome": "tsumo", "winner": "1", "han_1": "3", "fu_1": "30"}
    data = {**phone_save(as_scorer, game, fixed, number=1), "editing": "1"}
    edit = reverse("staff-edit-hand", args=[game.pk, 1])
    wrong = {**data, "seen": "-1000 2000 -500 -500"}
    response, _ = replays(as_scorer, edit, wrong)
    assert response.status_code == 409 and json.loads(response.content)["theirs"] == [-2000, 4000, -1000, -1000]
    assert game.hands.get(number=1).result["deltas"] == [-1000, 2000, -500, -500]
    response, calls = replays(as_scorer, edit, data)
    assert response.status_code == 200 and response["X-Tenbou-Saved"] == "1"
    assert calls == 1
    assert game.hands.get(number=1).result["deltas"] == [-2000, 4000, -1000, -1000]


# Hands of every shape whose input the save keeps for the next read without reading
# its new rows back: the kept state must be the one a fresh read computes.
KINDS = {
    "ron with riichi": ron(1, 0, 2, 30, riichi=[0, 2]),
    "double ron": double_ron(3, Win(winner=1, han=3, fu=40), Win(winner=2, han=1, fu=30)),
    "tsumo by tiles": HandInput(Tsumo(winner=1, han=1, fu=30), tiles="123m456p789s11z 2z", yaku=["tsumo"],
                                note="read back the same"),
    "pao": tsumo(1, yakuman=1, pao=2),
    "draw with nagashi": draw(0, 2, nagashi=[2], riichi=[0]),
    "abort": abort(),
    "chombo": chombo(3),
}


@pytest.mark.parametrize("hand", list(KINDS.values()), ids=list(KINDS))
def test_the_read_a_save_keeps_is_the_read_of_the_database(django_capture_on_commit_callbacks: Any,
                                                            hand: HandInput) -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30)])
    game = Game.objects.select_related("series").get(pk=game.pk)  # as a request reads it (game_for_scorer)
    now = entry.read_game(game)
    with django_capture_on_commit_callbacks(execute=True):
        entry.save_entry(game=game, number=2, hand=hand, editing=False, players=now.players)
    game = Game.objects.select_related("series").get(pk=game.pk)
    with CaptureQueriesContext(connection) as reading:
        kept = entry.read_game(game)
    assert reading.captured_queries == []  # what the save kept, not a new read
    fresh = entry.read_game(game, fresh=True)
    assert (kept.state, kept.inputs, kept.record, kept.replayed) == (
        fresh.state, fresh.inputs, fresh.record, fresh.replayed)
