"""The undo page asks the scorer to confirm the hand in the words the hands
list gives it (issue 28): one source (``views.game_page.HandRow.text``), in
English and in Japanese, for every kind of hand."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.models import Game
from scoring.game import HandInput, Win
from tests.factories import chombo, double_ron, draw, play, ron, tsumo

pytestmark = pytest.mark.django_db

HANDS: dict[str, HandInput] = {
    "ron": ron(1, 0, 3, 40, riichi=[1]),
    "tsumo": tsumo(2, 2, 30),
    "double ron": double_ron(3, Win(winner=1, han=3, fu=40), Win(winner=2, han=1, fu=30)),
    "draw": draw(0, 2),
    "chombo": chombo(3),
}


def _list_words(page: str, game: Game, number: int) -> str:
    # The hands list's row: its words, then the link to correct that hand.
    edit = reverse("staff-edit-hand", args=[game.pk, number])
    found = re.search(r'<td>([^<]*)<br><a href="' + re.escape(edit) + '"', page)
    assert found, "the hands list has no row for the hand"
    return found[1]


def _undo_words(page: str, number: int, language: str) -> str:
    with translation.override(language):
        before, after = (translation.gettext("Hand %(number)s: %(text)s.") % {"number": number, "text": "\0"}).split("\0")
    found = re.search("<p>" + re.escape(before) + "(.*?)" + re.escape(after) + "</p>", page)
    assert found, "the undo page names no hand"
    return found[1]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("kind", sorted(HANDS))
def test_the_undo_page_says_what_the_hands_list_says(scorer: object, game: Game, kind: str, language: str) -> None:
    play(game, [ron(0, 1, 2, 30), HANDS[kind]])
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(scorer)
    listed = client.get(reverse("staff-game", args=[game.pk]))
    undo = client.get(reverse("staff-undo", args=[game.pk]))
    assert listed["Content-Language"] == undo["Content-Language"] == language
    words = _list_words(listed.content.decode(), game, 2)
    assert words == _undo_words(undo.content.decode(), 2, language)
    names = [s.player.name for s in game.seats.all()]
    assert any(name in words for name in names)  # the seats named, not an empty line
