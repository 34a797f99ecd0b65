"""The live preview's fragment put together in Python
(``league.preview_fragment.render``, issue 28) is the template's
(templates/league/staff_preview.html), byte for byte. The seeded games of
tests/league/test_posted_hand.py compare the two on every fragment they
render (both forms' paths, English and Japanese); here, that those cases
reach every branch of the fragment, and the branches they never reach: the
stale notice, an unbound form, words that need escaping."""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from league import preview_fragment
from league.models import Game
from league.services import entry
from league.views.entry_form import PostedHand, hand_form, priced
from tests.league import test_posted_hand
from tests.offline.games import random_game, random_sanma_game

pytestmark = pytest.mark.django_db


def _both(ctx: dict[str, Any]) -> str:
    html = render_to_string("league/staff_preview.html", ctx)
    assert preview_fragment.render(ctx) == html
    return html


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_stale_notice_and_an_unbound_form(game: Game, language: str) -> None:
    now = entry.read_game(game, fresh=True)
    with translation.override(language):
        stale = _both({"form": now, "stale": True})
        assert f"/staff/game/{game.pk}/" in stale or str(game.pk) in stale
        assert 'data-stale="1"' in stale
        form = hand_form(now, 1)
        assert _both({"form": form, "names": form.names}).strip() == ""


@pytest.mark.parametrize("language", ["en", "ja"])
def test_names_and_words_that_need_escaping(game: Game, language: str) -> None:
    for seat in game.seats.select_related("player"):
        seat.player.name = f"<b>O'Neil & \"{seat.seat}\"</b>"
        seat.player.save()
    now = entry.read_game(Game.objects.get(pk=game.pk), fresh=True)
    data = test_posted_hand._post({"outcome": "ron", "winners": ["1"], "loser": "0", "han_1": "3", "fu_1": "40"},
                                  1, None)
    data = entry.claimed(data, now)
    with translation.override(language):
        form = PostedHand(now, 1, data)
        html = _both({"form": form, "names": form.names, **priced(now, form, None)})
        assert "&lt;b&gt;O&#x27;Neil &amp; &quot;1&quot;&lt;/b&gt;" in html and "<b>O'" not in html
        bad = PostedHand(now, 1, entry.claimed(test_posted_hand._post({"outcome": "ron"}, 1, None), now))
        assert 'data-errors="1"' in _both({"form": bad, "names": bad.names, **priced(now, bad, None)})


def test_the_seeded_games_reach_every_branch(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    render = preview_fragment.render

    def kept(ctx: Any) -> str:
        seen.append(render(ctx))
        return seen[-1]

    monkeypatch.setattr(preview_fragment, "render", kept)
    for seed in range(12):
        test_posted_hand._play(random_game(seed), seed)
    test_posted_hand._play(random_sanma_game(0), 100)
    shown = "\n".join(seen)
    for mark in ('data-errors="1"', 'data-field="', 'data-digest="', '<ul class="counted">', '<ul class="later">',
                 "No later hand", "This ends the game:", "Next: ", "After replaying the rest:",
                 '<td class="num pos">', '<td class="num neg">', "→"):
        assert mark in shown, mark
