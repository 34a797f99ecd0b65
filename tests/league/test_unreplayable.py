"""A stored hand the engine now refuses (a preset's rules changed in code, a
row changed in the database): the game's pages say which hand and why, in
the reader's language, and offer its correction or undo, which work; the
live preview and a save of a new hand refuse, naming the hand, and write
nothing. ``services.entry.read_game`` reads such a game as far as the hand
before the refused one (``league.entry.pricing.replay_stored``)."""

from __future__ import annotations

import html
import json
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.engine_catalogue import catalogue
from league.engine_words import refusal
from league.entry.phone import price
from league.models import Game, Win
from league.services import entry
from scoring.game import Win as EngineWin
from tests.factories import double_ron, draw, play, ron, tsumo
from tests.league.test_staff_views import hand_post, save

pytestmark = pytest.mark.django_db

# 1 han 25 fu is no hand: the engine's reason, as it words it.
REASON = "chiitoitsu is 2 han or more"


def _break_hand(game: Game, number: int) -> None:
    """A row changed in the database behind the services' back."""
    Win.objects.filter(hand__game=game, hand__number=number).update(han=1, fu=25)


def _played(game: Game, broken: int, hands: int = 3) -> Game:
    play(game, [ron(0, 1, 3, 30), tsumo(2, 2, 30), ron(1, 3, 1, 30)][:hands])
    _break_hand(game, broken)
    return Game.objects.get(pk=game.pk)


def _notice(response: Any) -> str:
    return response.content.decode().split('id="unreplayable"', 1)[1].split("</div>", 1)[0]


def _reason(game: Game) -> str:
    """The engine's own reason for the broken hand, read off the read."""
    refused = entry.read_game(game, fresh=True).refused
    assert refused is not None
    return refused.reason


def test_the_read_stops_before_the_refused_hand_and_names_it(game: Game) -> None:
    game = _played(game, broken=2)
    now = entry.read_game(game, fresh=True)
    assert now.refused is not None and now.refused.number == 2 and now.refused.reason_code == "fu_not_possible"
    assert len(now.rows) == 3 and len(now.replayed.hands) == 1  # the rows go on, the replay stops before hand 2
    assert now.next_number == 4


@pytest.mark.parametrize(("broken", "undo"), [(2, False), (3, True)])
def test_the_staff_page_names_the_hand_and_offers_its_ways_out(as_scorer: Client, game: Game, broken: int,
                                                             undo: bool) -> None:
    game = _played(game, broken=broken)
    response = as_scorer.get(reverse("staff-game", args=[game.pk]))
    assert response.status_code == 200
    notice = _notice(response)
    assert f"Hand {broken} cannot be replayed: {_reason(game)}." in notice
    assert reverse("staff-edit-hand", args=[game.pk, broken]) in notice
    assert (reverse("staff-undo", args=[game.pk]) in notice) is undo  # undo helps only when it is the last hand
    assert 'class="entry-title"' not in response.content.decode()  # no form for a hand that cannot be saved


def test_the_staff_page_says_it_in_japanese(as_scorer: Client, game: Game) -> None:
    game = _played(game, broken=2)
    response = as_scorer.get(reverse("staff-game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ja")
    notice = _notice(response)
    with translation.override("ja"):
        reason = refusal("fu_not_possible", _reason(game), "fu_25_one_han")
    assert reason == "符：25符（七対子）は2翻以上です"  # the rule broken, not "that han and fu are no hand"
    assert f"第2局を再計算できません：{reason}。" in notice  # ended with the Japanese stop, not "."
    assert "この局を訂正するか取り消すまで" in notice and "cannot be replayed" not in notice


def test_a_refusal_ends_with_the_readers_stop() -> None:
    from league.templatetags.league import sentence

    with translation.override("en"):
        assert sentence("hand 2 cannot be replayed: <b>") == "hand 2 cannot be replayed: &lt;b&gt;."
    with translation.override("ja"):
        assert sentence("第2局を再計算できません") == "第2局を再計算できません。"


def test_a_new_hands_preview_and_save_refuse_naming_the_hand(as_scorer: Client, game: Game) -> None:
    game = _played(game, broken=2)
    before = (game.hands.count(), Game.objects.get(pk=game.pk).inputs_version)
    state = entry.read_game(game, fresh=True).state
    post = hand_post(4, outcome="draw", tenpai=["0"], state=state)
    fragment = as_scorer.post(reverse("staff-preview", args=[game.pk]), post).content.decode()
    assert f"hand 2 cannot be replayed: {_reason(game)}" in fragment  # a form error, as the engine's are worded
    said = f"hand 2 cannot be replayed: {_reason(game)}"
    checked = entry.digest(draw(0))
    # Saved from the page, and by a phone that priced the hand itself (``seen``): the
    # save refuses before it writes; the page names the hand.
    for extra in ({}, {"seen": "0 0 0 0"}):
        response = as_scorer.post(reverse("staff-game", args=[game.pk]),
                                  {**post, "action": "save", "checked": checked, **extra}, HTTP_X_TENBOU_ENTRY="1")
        assert response.status_code == 200 and "X-Tenbou-Saved" not in response
        assert said in response.context["form"].errors["__all__"]
        assert f"H{said[1:]}." in _notice(response)
    assert (game.hands.count(), Game.objects.get(pk=game.pk).inputs_version) == before


def test_a_later_hands_correction_is_refused_naming_the_hand(as_scorer: Client, game: Game) -> None:
    game = _played(game, broken=2)
    url = reverse("staff-edit-hand", args=[game.pk, 3])
    assert as_scorer.get(url).status_code == 200
    response = as_scorer.post(url, hand_post(3, outcome="draw", tenpai=["0"]))
    assert f"hand 2 cannot be replayed: {_reason(game)}" in response.content.decode()


def test_correcting_the_refused_hand_works(as_scorer: Client, game: Game) -> None:
    game = _played(game, broken=2)
    url = reverse("staff-edit-hand", args=[game.pk, 2])
    assert as_scorer.get(url).status_code == 200
    response = save(as_scorer, game, hand_post(2, outcome="tsumo", winner="2", han_2="2", fu_2="30"), url=url)
    assert response.status_code == 302
    now = entry.read_game(Game.objects.get(pk=game.pk), fresh=True)
    assert now.refused is None and len(now.replayed.hands) == 3
    page = as_scorer.get(reverse("staff-game", args=[game.pk]))
    assert 'id="unreplayable"' not in page.content.decode() and 'class="entry-title"' in page.content.decode()


def test_undoing_the_refused_last_hand_works(as_scorer: Client, game: Game) -> None:
    game = _played(game, broken=3)
    page = as_scorer.get(reverse("staff-undo", args=[game.pk]))
    assert page.status_code == 200 and f"Hand 3: {_reason(game)}." in page.content.decode()
    state = page.context["state"]
    response = as_scorer.post(reverse("staff-undo", args=[game.pk]), {"number": 3, "state": state, "key": "k"})
    assert response.status_code == 302 and game.hands.count() == 2
    assert entry.read_game(Game.objects.get(pk=game.pk), fresh=True).refused is None


def test_a_preset_changed_in_code_is_named_too(as_scorer: Client, game: Game) -> None:
    """The stored rules now refuse a double ron (head bump): hand 2 is named."""
    play(game, [ron(0, 1, 3, 30), double_ron(0, EngineWin(winner=1, han=2, fu=30), EngineWin(winner=2, han=3, fu=30)),
                draw(0)])
    Game.objects.filter(pk=game.pk).update(rules={"preset": "ari-ari", "overrides": {"multiple_ron": "head_bump"}})
    game = Game.objects.get(pk=game.pk)
    response = as_scorer.get(reverse("staff-game", args=[game.pk]))
    assert response.status_code == 200 and "Hand 2 cannot be replayed" in _notice(response)


def test_the_public_page_shows_the_hands_before_it_and_why(client: Client, game: Game) -> None:
    game = _played(game, broken=2)
    response = client.get(reverse("game-detail", args=[game.pk]))
    assert response.status_code == 200
    assert f"Hand 2 cannot be replayed: {_reason(game)}." in response.content.decode()


def test_a_kept_batch_stops_at_the_refused_hand_and_saves_nothing(as_scorer: Client, game: Game) -> None:
    """The phone's queue sends a kept hand to a game with a refused hand: the
    batch's stop is a refusal naming that hand, nothing saved."""
    game = _played(game, broken=2)
    now = entry.read_game(game, fresh=True)
    kept = {"fields": {"outcome": "draw", "tenpai": ["0"]}, "number": "4", "state": now.state, "key": str(uuid.uuid4()),
            "checked": entry.digest(draw(0)), "seen": "0 0 0 0"}
    response = as_scorer.post(reverse("staff-kept", args=[game.pk]), json.dumps({"entries": [kept]}),
                              content_type="application/json", HTTP_X_TENBOU_ENTRY="1")
    assert response.status_code == 200
    stop = response.json()["stop"]
    assert stop["kind"] == "refused" and response.json()["entries"] == []
    assert [e["message"] for e in stop["errors"]] == [f"hand 2 cannot be replayed: {_reason(game)}"]
    assert game.hands.count() == 3


@pytest.mark.parametrize(("broken", "undo"), [(2, False), (3, True)])
def test_offline_json_says_what_the_staff_page_says(as_scorer: Client, game: Game, broken: int, undo: bool) -> None:
    """The phone's copy of the game names the refused hand and why, in the
    reader's words, as the staff page's notice does; the phone's engine then
    refuses a new hand with the staff page's own sentence (no new hand offline)."""
    game = _played(game, broken=broken)
    for language, expected, stop in (
            ("en", f"Hand {broken} cannot be replayed: 25 fu (seven pairs) needs at least 2 han", "."),
            ("ja", f"第{broken}局を再計算できません：符：25符（七対子）は2翻以上です", "。")):
        offline = as_scorer.get(reverse("staff-offline-game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).json()
        page = as_scorer.get(reverse("staff-game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
        assert offline["refused"] == {"number": broken, "code": "fu_not_possible", "detail": "fu_25_one_han",
                                      "text": expected, "undo": undo}
        assert f"{expected}{stop}" in _notice(page)
        # The phone's engine, in the page's language, refuses the next hand as the server's preview does.
        with translation.override(language):
            answer = price(offline, {"outcome": "draw", "tenpai": ["0"]}, offline["number"],
                           words=catalogue(language))
        preview = as_scorer.post(reverse("staff-preview", args=[game.pk]),
                                 hand_post(4, outcome="draw", tenpai=["0"], state=offline["state"]),
                                 HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert answer["ok"] is False and answer["errors"] == [
            {"field": None, "message": expected[0].lower() + expected[1:] if language == "en" else expected,
             "code": "stored_hand_refused"}]
        assert html.escape(answer["errors"][0]["message"]) in preview


def test_offline_json_of_a_replayable_game_names_no_refused_hand(as_scorer: Client, game: Game) -> None:
    play(game, [ron(0, 1, 3, 30), tsumo(2, 2, 30)])
    assert as_scorer.get(reverse("staff-offline-game", args=[game.pk])).json()["refused"] is None
