"""A hand kept on the phone goes to the server as one request (issue 30): the
save carries the phone's digest of the hand (``checked``) and the payments the
scorer saw (``seen``); the server prices it as its preview would and refuses
it, nothing saved, when its payments differ. Without ``seen`` a save is as
before. The phone's part is the offline engine's own code
(``league.entry.phone.price``), run here in CPython on offline.json.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.engine_words import REFUSALS
from league.entry.digest import BadSeen, read_seen
from league.entry.phone import price
from league.models import Game, SaveKey
from tests.factories import play, ron

pytestmark = pytest.mark.django_db

TSUMO = {"outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "30"}
ENTRY = {"HTTP_X_TENBOU_ENTRY": "1"}


def kept(client: Client, game: Game, fields: dict[str, Any], number: int | None = None) -> dict[str, Any]:
    """What queue.js sends for a kept hand: the fields, the state and number the
    phone priced it on, a key, the phone's digest and the payments it showed."""
    state = client.get(reverse("staff-offline-game", args=[game.pk])).json()
    priced = price(state, fields, number)
    assert priced["ok"], priced
    return {**fields, "number": str(priced["number"]), "state": priced["state"], "key": str(uuid.uuid4()),
            "action": "save", "checked": priced["checked"], "seen": " ".join(map(str, priced["payments"])),
            "_payments": priced["payments"]}


def post(client: Client, url: str, data: dict[str, Any]) -> Any:
    return client.post(url, {k: v for k, v in data.items() if not k.startswith("_")}, **ENTRY)


def test_a_kept_hand_whose_price_the_server_shares_is_saved_by_its_one_request(as_scorer: Client,
                                                                                game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    data = kept(as_scorer, game, TSUMO)
    assert data["_payments"] == [-1000, 2000, -500, -500]  # non-dealer tsumo, 2 han 30 fu: 500/1000
    response = post(as_scorer, url, data)
    assert response.status_code == 200 and response["X-Tenbou-Saved"] == "1"
    assert game.hands.count() == 1
    assert game.hands.get(number=1).result["deltas"] == [-1000, 2000, -500, -500]
    assert SaveKey.objects.get(game=game).key == data["key"]
    # The same request again (its answer lost on the way): the key is known, nothing saved twice.
    again = post(as_scorer, url, data)
    assert again.status_code == 200 and again["X-Tenbou-Saved"] == "1"
    assert game.hands.count() == 1


def test_a_kept_hand_the_server_prices_otherwise_is_refused_with_its_payments(as_scorer: Client,
                                                                              game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    data = kept(as_scorer, game, TSUMO)
    data["seen"] = "-1300 2600 -700 -700"  # what a phone with other rules would have shown
    response = post(as_scorer, url, data)
    assert response.status_code == 409 and response["X-Tenbou-Stop"] == "price"
    assert json.loads(response.content) == {"stop": "price", "theirs": [-1000, 2000, -500, -500]}
    assert game.hands.count() == 0 and not SaveKey.objects.filter(game=game).exists()


@pytest.mark.parametrize("seen", ["-1000 2000 -500", "-1000 2000 -500 -499", "0 0 0 0"])
def test_a_well_formed_seen_that_differs_is_the_price_stop(as_scorer: Client, game: Game, seen: str) -> None:
    """Three payments in a game of four seats (a sanma phone's) is a price, another one."""
    url = reverse("staff-game", args=[game.pk])
    data = {**kept(as_scorer, game, TSUMO), "seen": seen}
    response = post(as_scorer, url, data)
    assert response.status_code == 409 and response["X-Tenbou-Stop"] == "price"
    assert game.hands.count() == 0


@pytest.mark.parametrize(("seen", "why"), [
    ("", "is empty"), ("   ", "is empty"), ("one two", "whole points"), ("1 x 2 3", "whole points"),
    ("1e3 0 0 -1000", "whole points"), ("+1000 0 0 -1000", "whole points"), ("1_000 0 0 -1000", "whole points"),
    ("\u0663 0 0 -3", "whole points"), ("-1000 2000", "not 2"), ("0 0 0 0 0", "not 5"),
    ("9" * 5000 + " 0 0 0", "whole points"),
])
def test_a_malformed_seen_is_bad_input_naming_the_field(as_scorer: Client, game: Game, seen: str,
                                                        why: str) -> None:
    """Not a price that differs but a request no phone of ours sends: a 400
    that names ``seen`` and why, nothing saved, no price stop."""
    play(game, [ron(0, 1, 3, 30)])
    new = {**kept(as_scorer, game, TSUMO), "seen": seen}
    fix = {**kept(as_scorer, game, TSUMO, number=1), "editing": "1", "seen": seen}
    for url, data in ((reverse("staff-game", args=[game.pk]), new),
                      (reverse("staff-edit-hand", args=[game.pk, 1]), fix)):
        before = list(game.hands.values_list("number", "result"))
        response = post(as_scorer, url, data)
        assert response.status_code == 400 and "X-Tenbou-Stop" not in response
        errors = response.context["form"].errors["__all__"]
        assert any(e.startswith("seen ") and why in e for e in errors), errors
        assert list(game.hands.values_list("number", "result")) == before
        assert not SaveKey.objects.filter(key=data["key"]).exists()


def test_a_malformed_seen_is_said_in_the_readers_language(as_scorer: Client, game: Game) -> None:
    data = {**kept(as_scorer, game, TSUMO), "seen": "one two"}
    response = as_scorer.post(reverse("staff-game", args=[game.pk]),
                              {k: v for k, v in data.items() if not k.startswith("_")},
                              HTTP_X_TENBOU_ENTRY="1", HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 400
    with translation.override("ja"):
        said = str(REFUSALS["bad_seen"])
    assert said != "The payments sent with the hand (seen) are not the seats' payments in whole points"
    assert response.context["form"].errors["__all__"] == [said]


def test_without_seen_a_save_is_as_before(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    data = kept(as_scorer, game, TSUMO)
    del data["seen"]
    # A digest that is not this hand's: the preview is shown again, nothing saved (the form without script).
    recheck = post(as_scorer, url, {**data, "checked": "0" * 16})
    assert recheck.status_code == 200 and "X-Tenbou-Saved" not in recheck
    assert "changed since its payments were shown" in recheck.content.decode()
    assert game.hands.count() == 0
    # The hand's own digest: saved, whatever the payments (no price check without seen).
    saved = as_scorer.post(url, {k: v for k, v in data.items() if not k.startswith("_")})
    assert saved.status_code == 302 and game.hands.count() == 1


def test_a_stale_kept_hand_goes_to_the_conflict_page_not_the_price_check(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    first = kept(as_scorer, game, TSUMO)
    assert post(as_scorer, url, first).status_code == 200
    # Built on the game before hand 1, with a new key: stale, so a conflict, whatever its seen says.
    other = {**first, "key": str(uuid.uuid4()), "outcome": "draw", "tenpai": ["0"], "seen": "0 0 0 0"}
    for name in ("winner", "han_1", "fu_1"):
        other.pop(name)
    response = post(as_scorer, url, other)
    assert response.status_code == 409 and "X-Tenbou-Stop" not in response
    assert game.hands.count() == 1


def test_a_kept_correction_is_priced_as_a_correction(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    assert post(as_scorer, url, kept(as_scorer, game, TSUMO)).status_code == 200
    draw = {"outcome": "draw", "tenpai": ["0", "2"]}
    assert post(as_scorer, url, kept(as_scorer, game, draw)).status_code == 200
    fix = kept(as_scorer, game, {**TSUMO, "han_1": "3"}, number=1)
    fix["editing"] = "1"
    wrong = post(as_scorer, reverse("staff-edit-hand", args=[game.pk, 1]), {**fix, "seen": "0 0 0 0"})
    assert wrong.status_code == 409 and json.loads(wrong.content)["theirs"] == fix["_payments"]
    assert game.hands.get(number=1).result["deltas"] == [-1000, 2000, -500, -500]
    right = post(as_scorer, reverse("staff-edit-hand", args=[game.pk, 1]), fix)
    assert right.status_code == 200 and right["X-Tenbou-Saved"] == "1"
    assert game.hands.get(number=1).result["deltas"] == fix["_payments"] == [-2000, 4000, -1000, -1000]


def test_seen_is_read_as_whole_points_or_not_at_all() -> None:
    assert read_seen("-1000 2000 -500 -500") == (-1000, 2000, -500, -500)
    assert read_seen(None) is None and read_seen(" 0  0 0\t0 ") == (0, 0, 0, 0)
    for bad in ("", "1 x 2 3", "1 2", "1.0 0 0 -1"):
        with pytest.raises(BadSeen):
            read_seen(bad)
