"""The live preview reads a posted hand as the phone's engine does
(``views.entry_form.PostedHand``: the one field table's ``clean_fields``,
then ``HandEntry``), not through a Django form (issue 28). Differential:
over seeded random games (four and three players, corrections, invalid
hands) and over the same posts mangled (fields dropped, junk values,
duplicates, NUL characters, over-long text), in English and Japanese, the
fragment it renders is the Django form's path's, byte for byte: the same
payments, the same errors on the same fields in the same order."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.http import QueryDict
from django.utils import translation

from league import services
from league.entry.fields import BOOKKEEPING, field_specs
from league.models import Game
from league.services import entry
from league.templatetags.hand_preview import preview_html
from league.views.entry_form import PostedHand, hand_form, priced
from tests.factories import make_game, make_players, make_series
from tests.offline.games import random_game, random_sanma_game

pytestmark = pytest.mark.django_db

JUNK = ["", "x", "99", "-1", "1.0", " 3 ", "a\x00b", "0", "1", "false", "on", "13", "2.5", "ron", "1e3", "٣"]


def _post(fields: dict[str, Any], number: int, editing: int | None) -> QueryDict:
    q = QueryDict(mutable=True)
    for name, value in fields.items():
        q.setlist(name, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    q.setdefault("number", str(number))
    if editing:
        q["editing"] = str(editing)
    return q


def _mangled(rng: random.Random, fields: dict[str, Any], names: list[str]) -> dict[str, Any]:
    out = dict(fields)
    for _ in range(rng.randint(1, 3)):
        how = rng.random()
        if how < 0.25 and out:
            out.pop(rng.choice(sorted(out)))
        elif how < 0.6:
            out[rng.choice(names)] = rng.choice(JUNK)
        elif how < 0.8:
            name = rng.choice(names)
            out[name] = [rng.choice(JUNK), rng.choice(JUNK)]  # posted twice
        else:
            out[rng.choice(names)] = [rng.choice(JUNK)]
    return out


def _fragment(now: entry.GameNow, number: int, editing: int | None, data: Any, posted: bool) -> str:
    form: Any = PostedHand(now, number, data) if posted else hand_form(now, number, data=data)
    ctx = {"form": form, "names": form.names, **priced(now, form, number if editing else None)}
    return preview_html(ctx)


def _both_equal(game: Game, fields: dict[str, Any], editing: int | None) -> tuple[str, Any]:
    """Both paths' fragments for the posted fields, compared; what the
    fragment said (priced, refused or stale), and the Django form (to save
    the hand with)."""
    now = entry.read_game(Game.objects.get(pk=game.pk), fresh=True)
    number = editing or now.next_number
    data = entry.claimed(_post(fields, number, editing), now)
    if entry.is_stale(data, now, number, editing) or entry.is_gone(now, editing):
        return "stale", None  # the stale notice: neither path reads the hand
    for language in ("en", "ja"):
        with translation.override(language):
            old = _fragment(now, number, editing, data.copy(), posted=False)
            new = _fragment(now, number, editing, data.copy(), posted=True)
            assert new == old, (language, fields)
    form = hand_form(now, number, data=data)
    # A save reads the hand so too (views.staff): the same hand, the same
    # bookkeeping (number, state, key) and the same verdict.
    posted = PostedHand(now, number, data)
    assert posted.is_valid() == form.is_valid()
    if form.is_valid():
        assert posted.hand == form.hand
        assert {k: posted.cleaned_data[k] for k in BOOKKEEPING} == {k: form.cleaned_data[k] for k in BOOKKEEPING}
    return "priced" if form.is_valid() and 'data-digest="' in old else "refused", form


def _play(played: dict[str, Any], seed: int) -> dict[str, int]:
    series = make_series(played["record"]["rules"], slug=f"posted-{played['id']}")
    game = make_game(series, make_players(series.ruleset().players))
    names = [s.name for s in field_specs(series.ruleset(), bookkeeping=True)]
    rng = random.Random(seed)
    said = {"priced": 0, "refused": 0, "stale": 0}
    for number, fields in played["steps"]:
        editing = number
        for _ in range(3):
            what, _form = _both_equal(game, _mangled(rng, fields, names), editing)
            said[what] += 1
        what, form = _both_equal(game, fields, editing)
        said[what] += 1
        if what != "priced":
            continue
        try:
            if editing:
                services.correct_hand(game=game, number=editing, hand=form.hand)
            else:
                services.record_hand(game=game, number=form.cleaned_data["number"], hand=form.hand)
        except services.ServiceError:
            continue
        if Game.objects.get(pk=game.pk).is_finished:
            break
    return said


@pytest.mark.parametrize("seed", range(12))
def test_the_posted_hand_renders_the_django_forms_fragment(seed: int) -> None:
    said = _play(random_game(seed), seed)
    assert said["priced"] + said["refused"] >= 3


@pytest.mark.parametrize("seed", range(6))
def test_the_posted_hand_renders_the_django_forms_fragment_three_players(seed: int) -> None:
    _play(random_sanma_game(seed), 100 + seed)


def test_the_cases_cover_payments_and_errors() -> None:
    """The seeds above price hands and refuse hands, both (so the equality is not vacuous)."""
    said = {"priced": 0, "refused": 0, "stale": 0}
    for seed in range(12):
        for what, n in _play(random_game(seed), seed).items():
            said[what] += n
    assert said["priced"] >= 20 and said["refused"] >= 40, said


def test_a_refusal_of_the_service_is_put_where_the_form_puts_it(game: Game) -> None:
    """A hand the engine refuses after the fields pass (a correction that makes a
    later hand impossible, a finished game): the same line on the same field."""
    from tests.factories import play, ron

    play(game, [ron(1, 0, 2, 30)])
    services.finish_game(game=Game.objects.get(pk=game.pk))
    what, _form = _both_equal(game, {"outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "30"}, None)
    assert what == "refused"


def test_clean_fields_reads_the_same_under_equal_rules_built_again() -> None:
    # The plan is kept by the rules' identity; an equal Ruleset built again
    # (another read of the game) reads a post the same, errors in the form's
    # order, and a refused field leaves the data as a Django form's does.
    from dataclasses import replace

    from league.entry.fields import clean_fields
    from scoring.rules import get_ruleset

    rules = get_ruleset("ari-ari")
    raw = {"number": ["7"], "outcome": ["ron"], "winners": ["1"], "loser": ["9"], "han_1": ["2"], "fu_1": ["x"],
           "dora_1": [" 3 "], "riichi": ["1"], "note": ["a\x00b"]}
    first = clean_fields(rules, raw, bookkeeping=True)
    again = clean_fields(replace(rules), raw, bookkeeping=True)
    assert first == again
    data, errors = first
    assert list(errors) == ["loser", "fu_1", "note"]
    assert "loser" not in data and "fu_1" not in data and data["dora_1"] == 3 and data["winners"] == ["1"]
    assert [n for n in data if n in ("number", "outcome", "winners", "han_1")] == ["number", "outcome", "winners",
                                                                                   "han_1"]
    assert data["yaku_1"] == [] and data["yaku_1"] is not data["yaku_2"]
