"""What a process remembers between requests (league/memos.py, issue 28): a
value made per language is made once for each language and is that
language's, and the process's memos (the session store's hints and checked
rows, the live preview's held reads, the field table's plans, the winds and
the preview's words) are bounded maps with the bounds they had; the session
maps past their bound still let every login score. The map itself:
test_bounded_map.py."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league import sessions
from league.bounded_map import BoundedMap
from league.entry import fields
from league.memos import LANGUAGES_BOUND, per_language
from league.models import Game
from league.services import entry
from league.templatetags import hand_preview
from scoring.rules import get_ruleset
from tests.factories import make_scorer


def test_the_process_memos_are_bounded_maps_with_their_bounds() -> None:
    assert (sessions._USER_OF.bound, sessions._GAME_OF.bound) == (sessions.USER_HINTS, sessions.USER_HINTS) == (4096,
                                                                                                             4096)
    assert sessions._CHECKED.bound == sessions.CHECKED_ROWS == 4096
    assert entry._HELD.bound == entry.HELD_READS == 64
    assert fields._PLANS.bound == fields.PLANS == 64
    for memo in (sessions._USER_OF, sessions._GAME_OF, sessions._CHECKED, entry._HELD, fields._PLANS):
        assert isinstance(memo, BoundedMap)


def test_the_field_tables_plans_past_their_bound_read_each_ruleset_by_its_own_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Plans are kept by the rules' identity, at most ``PLANS`` of them: five
    rulesets (two equal objects among them) with room for two keep the map
    within two, and each post is read by its own rules' table (a three-player
    table has no North seat)."""
    monkeypatch.setattr(fields._PLANS, "bound", 2)
    fields._PLANS.clear()
    four, three = get_ruleset("ema-2016"), get_ruleset("tenhou-sanma")
    rulesets = [four, three, dataclasses.replace(four), dataclasses.replace(three), four]
    posted = {"outcome": "tsumo", "winners": ["3"]}
    for rules in rulesets * 2:
        data, errors = fields.clean_fields(rules, posted)
        assert 1 <= len(fields._PLANS) <= 2
        assert (data.get("winners"), "winners" in errors) == ((["3"], False) if rules.players == 4 else (None, True))


# -- the session store's maps past their bound, through real requests ---------------------


@pytest.mark.django_db
def test_logins_past_the_session_maps_bounds_still_score(series: Any, game: Game,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Five scorers on a game, with room for two in each map: every map stays
    within two, and every scorer still reaches the game's page (a hint
    forgotten is a slower read, never a refusal)."""
    for memo in (sessions._USER_OF, sessions._GAME_OF, sessions._CHECKED):
        monkeypatch.setattr(memo, "bound", 2)
        memo.clear()
    clients = []
    for n in range(5):
        client = Client()
        client.force_login(make_scorer(series, username=f"scorer-{n}"))
        clients.append(client)
    for _ in range(2):
        for client in clients:
            assert client.get(reverse("staff-game", args=[game.pk])).status_code == 200
            for memo in (sessions._USER_OF, sessions._GAME_OF, sessions._CHECKED):
                assert 1 <= len(memo) <= 2
    assert User.objects.filter(username__startswith="scorer-").count() == 5


# -- a value per language ---------------------------------------------------------------


def test_a_value_is_made_once_per_language() -> None:
    made: list[str | None] = []

    @per_language
    def greeting() -> str:
        made.append(translation.get_language())
        return translation.gettext("East")

    with translation.override("en"):
        assert greeting() == greeting() == "East"
    with translation.override("ja"):
        assert greeting() == greeting() == "東"
    with translation.override("en"):
        assert greeting() == "East"
    assert made == ["en", "ja"]


def test_values_per_language_are_bounded() -> None:
    @per_language
    def language() -> str | None:
        return translation.get_language()

    for n in range(LANGUAGES_BOUND * 2 + 1):
        with translation.override(f"x{n}"):
            assert language() == f"x{n}"
            assert len(language.made) <= LANGUAGES_BOUND  # type: ignore[attr-defined]


WORDS_BY_LANGUAGE = {
    "en": (("East", "South", "West", "North"), "Hand %(number)s"),
    "ja": (("東", "南", "西", "北"), "第%(number)s局"),
}


@pytest.mark.parametrize("order", [("en", "ja", "en"), ("ja", "en", "ja")])
def test_switching_language_gives_that_languages_winds_and_preview_words(order: tuple[str, ...]) -> None:
    for language in order:
        with translation.override(language):
            winds, hand = WORDS_BY_LANGUAGE[language]
            assert entry._winds() == winds
            assert hand_preview._words()["hand"] == hand


# -- the pure package's catalogue lookups, kept per language ----------------------------


def test_a_lookup_is_kept_per_language_and_its_arguments_and_bounded() -> None:
    from league.memos import per_language_lookup

    calls: list[tuple[str | None, str, int]] = []

    def lookup(message: str, n: int) -> str:
        calls.append((translation.get_language(), message, n))
        return f"{translation.get_language()}:{message}:{n}"

    kept = per_language_lookup(lookup, bound=3)
    with translation.override("en"):
        assert kept("pays", 1) == kept("pays", 1) == "en:pays:1"
        assert kept("pays", 2) == "en:pays:2"
    with translation.override("ja"):
        assert kept("pays", 1) == "ja:pays:1"  # another language's text, never the first one's
    assert calls == [("en", "pays", 1), ("en", "pays", 2), ("ja", "pays", 1)]
    with translation.override("en"):
        kept("other", 1)  # past the bound: the map starts again
    assert len(kept.seen) == 1  # type: ignore[attr-defined]


def test_the_entry_packages_words_are_the_catalogues_in_each_language() -> None:
    from django.utils.translation import gettext, ngettext

    from league.entry import translation as words

    one, many = "%(who)s takes %(n)d riichi stick (%(amount)s)", "%(who)s takes %(n)d riichi sticks (%(amount)s)"
    for language in ("ja", "en", "ja"):
        with translation.override(language):
            assert words.gettext("No payments") == gettext("No payments")
            assert words.ngettext(one, many, 2) == ngettext(one, many, 2)
            assert words.ngettext(one, many, 1) == ngettext(one, many, 1)
    with translation.override("ja"):
        assert words.gettext("No payments") != "No payments"  # translated: the test would see a stale English
