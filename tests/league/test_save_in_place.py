"""The save answered in place (issue 28): the page's script posts the save with
fetch and asks for the answer in place; the server answers with what changed
(the clock, where the game stands, the hands, the next hand's number and state,
and the game as the phone's engine reads it) instead of a redirect and the whole
page. Without the script nothing changes: the save redirects, as does an entry
that is a correction or ends the game, which the script follows to its address."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Game
from tests.factories import draw, play

pytestmark = pytest.mark.django_db

IN_PLACE = {"HTTP_X_TENBOU_ENTRY": "1", "HTTP_X_TENBOU_IN_PLACE": "1"}
TSUMO = {"outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "30"}


def _save(client: Client, url: str, fields: dict[str, Any], **headers: str) -> Any:
    """Preview then save the hand, as the page's script does (the key is the form's)."""
    page = client.get(url).context["form"].initial
    data = {**page, **fields}
    shown = client.post(url, {**data, "action": "preview"})
    return client.post(url, {**data, "action": "save", "checked": shown.context["digest"]}, **headers)


def test_a_saved_hand_answers_with_the_parts_of_the_next_page(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    answer = _save(as_scorer, url, TSUMO, **IN_PLACE)
    assert answer.status_code == 200 and answer["X-Tenbou-Saved"] == "in-place"
    body = answer.json()
    assert game.hands.count() == 1
    assert (body["number"], body["url"], body["message"]) == (2, f"{url}?hand=2", "Hand 1 saved.")
    assert body["key"] and body["state"] == as_scorer.get(reverse("staff-offline-game", args=[game.pk])).json()["state"]
    # The game as the phone's engine reads it: offline.json's answer, word for word.
    assert body["game"] == as_scorer.get(reverse("staff-offline-game", args=[game.pk])).json()
    assert body["game"]["number"] == 2 and len(body["game"]["record"]["hands"]) == 1
    # The parts are the next page's own: the page the redirect would have shown holds them verbatim.
    page = as_scorer.get(body["url"]).content.decode()
    assert body["parts"]["state"] in page and body["parts"]["hands"] in page
    assert "Hand 2 · <strong>" in body["parts"]["state"] and f"/staff/games/{game.pk}/hands/1/" in body["parts"]["hands"]
    assert body["parts"]["clock"].strip() == ""  # a league game: no event clock
    # The message went with the answer, not into the session for the next page.
    assert "Hand 1 saved." not in page
    # The form of that page is for hand 2, on the state the answer gave.
    form = as_scorer.get(url).context["form"]
    assert (form.initial["number"], form.initial["state"]) == (2, body["state"])


def test_the_answer_in_place_is_in_the_readers_language(as_scorer: Client, game: Game) -> None:
    as_scorer.cookies["django_language"] = "ja"
    body = _save(as_scorer, reverse("staff-game", args=[game.pk]), TSUMO, **IN_PLACE).json()
    assert body["message"] == "第1局を保存しました。"
    assert "第2局" in body["parts"]["state"] and "Hands" not in body["parts"]["hands"]


def test_the_next_hand_saves_from_the_answer_alone(as_scorer: Client, game: Game) -> None:
    """The script fills the form from the answer (number, state, a new key): that entry saves."""
    url = reverse("staff-game", args=[game.pk])
    first = _save(as_scorer, url, TSUMO, **IN_PLACE).json()
    data = {"number": first["number"], "state": first["state"], "key": first["key"], "outcome": "draw",
            "tenpai": ["0"]}
    shown = as_scorer.post(url, {**data, "action": "preview"})
    second = as_scorer.post(url, {**data, "action": "save", "checked": shown.context["digest"]}, **IN_PLACE)
    assert second["X-Tenbou-Saved"] == "in-place" and second.json()["number"] == 3
    assert list(game.hands.values_list("number", flat=True)) == [1, 2]


def test_without_the_script_or_without_asking_the_save_answers_as_before(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    plain = _save(as_scorer, url, TSUMO)
    assert plain.status_code == 302 and plain["Location"] == f"{url}?hand=2"
    fetched = _save(as_scorer, url, {**TSUMO, "winner": "2", "han_2": "2", "fu_2": "30"}, HTTP_X_TENBOU_ENTRY="1")
    assert fetched.status_code == 200 and fetched["X-Tenbou-Saved"] == "1"
    assert fetched.content.decode() == f"{url}?hand=3"


def test_a_correction_and_a_last_hand_answer_with_the_address(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    _save(as_scorer, url, TSUMO, **IN_PLACE)
    edit = reverse("staff-edit-hand", args=[game.pk, 1])
    fields = {k: v for k, v in as_scorer.get(edit).context["form"].initial.items() if v is not None}
    shown = as_scorer.post(edit, {**fields, "fu_1": "40", "editing": "1", "action": "preview"})
    corrected = as_scorer.post(edit, {**fields, "fu_1": "40", "editing": "1", "action": "save",
                                      "checked": shown.context["digest"]}, **IN_PLACE)
    assert corrected.status_code == 200 and corrected["X-Tenbou-Saved"] == "1"
    assert corrected.content.decode().startswith(url)
    # South 4, the dealer (seat 3) noten: the last hand, after which the game is over.
    play(game, [draw()] * 6)
    game.refresh_from_db()
    assert as_scorer.get(url).context["state"].round_label == "S4"
    ended = _save(as_scorer, url, {"outcome": "draw", "tenpai": ["0"]}, **IN_PLACE)
    game.refresh_from_db()
    assert game.is_finished and game.hands.count() == 8
    assert ended["X-Tenbou-Saved"] == "1" and ended.content.decode() == f"{url}?hand=9"


def test_the_answer_is_json_a_script_can_read(as_scorer: Client, game: Game) -> None:
    answer = _save(as_scorer, reverse("staff-game", args=[game.pk]), TSUMO, **IN_PLACE)
    assert answer["Content-Type"] == "application/json"
    assert set(json.loads(answer.content)) == {"url", "number", "state", "key", "message", "parts", "game"}


def test_a_later_hand_answers_with_the_columns_changes_alone(as_scorer: Client, game: Game) -> None:
    """Past the first hand the page lists every earlier hand already: the answer
    sends the new row, what sits below the list and the history's newest entry,
    each the next page's own markup, in place of the whole column."""
    url = reverse("staff-game", args=[game.pk])
    play(game, [draw(0)] * 5)  # five hands: the page lists the last four
    body = _save(as_scorer, url, TSUMO, **IN_PLACE).json()
    assert body["number"] == 7 and set(body["parts"]) == {"clock", "state", "fix", "hand", "below", "change"}
    page = as_scorer.get(body["url"]).content.decode()
    for part in ("fix", "hand", "below", "change"):
        assert body["parts"][part].strip() and body["parts"][part].strip() in page, part
    # Where the game stands, less its list of earlier hands to correct (the page's
    # own, which the script keeps), and the one hand that list gains: hand 5.
    head, tail = body["parts"]["state"].split("<ul></ul>")
    assert head in page and tail in page
    listed = page.split(head, 1)[1].split(tail, 1)[0]
    assert listed.startswith("<ul><li>") and listed.endswith(body["parts"]["fix"] + "</ul>")
    assert [f"/hands/{n}/" in listed for n in range(1, 7)] == [True] * 5 + [False]
    assert "/hands/5/" in body["parts"]["fix"]
    assert body["parts"]["hand"].startswith("<tr><td>6<br>") and "/hands/6/" in body["parts"]["hand"]
    assert "All 6 hands" in body["parts"]["below"] and "Undo hand 6" in body["parts"]["below"]
    assert body["parts"]["change"].count("<li>") == 1 and "Record hand 6 by" in body["parts"]["change"]
    # What the script trims to: the page's own list lengths.
    assert '<tbody data-keep="4">' in page and '<ul data-keep="12">' in page


def test_the_first_hand_answers_with_the_whole_column(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    first = _save(as_scorer, url, TSUMO, **IN_PLACE).json()
    assert set(first["parts"]) == {"clock", "state", "hands"}  # the page had "No hand yet", no list
    # The second: the list of hands, whole where the game stands (no earlier hand to correct before).
    second = _save(as_scorer, url, {"outcome": "draw", "tenpai": ["0"]}, **IN_PLACE).json()
    assert set(second["parts"]) == {"clock", "state", "hand", "below", "change"}
    assert second["parts"]["state"] in as_scorer.get(second["url"]).content.decode()
    # (A kept batch answers with the whole column too: tests/league/test_kept_batch.py.)
