"""The one pricer (issue 28): ``league.entry.pricing.price_hand``, which the
staff page's preview and the phone's offline engine both call. Pure: no
database, no Django."""

from __future__ import annotations

import subprocess
import sys

import pytest

from league.entry.pricing import Refused, price_hand, state_before
from scoring import game as sg
from scoring.rules import get_ruleset

RULES = get_ruleset("ari-ari")


def ron(loser: int, winner: int, han: int, fu: int) -> sg.HandInput:
    return sg.HandInput(sg.Ron(loser=loser, wins=(sg.Win(winner=winner, han=han, fu=fu),)))


def record(*hands: sg.HandInput) -> sg.GameRecord:
    return sg.GameRecord(RULES, hands=hands)


def test_the_next_hand_is_priced_in_place() -> None:
    # East (the dealer) rons South for 2 han 30 fu: 2,900, and keeps the deal.
    priced = price_hand(record(), ron(1, 0, 2, 30), 1, title="t", is_finished=False)
    assert priced.played.deltas == (2900, -2900, 0, 0)
    assert priced.before is None and priced.later_changes() == []
    assert state_before(priced.game, 2).honba == 1


def test_a_correction_names_the_later_hands_it_moves() -> None:
    stored = record(ron(1, 0, 2, 30), ron(2, 3, 1, 30))  # hand 2 at 1 honba: 1,000 + 300
    priced = price_hand(stored, ron(1, 2, 2, 30), 1, title="t", is_finished=False)  # now South's: no honba
    assert [(n, old.deltas[3], new.deltas[3]) for n, old, new in priced.later_changes()] == [(2, 1300, 1000)]


@pytest.mark.parametrize(("number", "finished", "code", "field", "conflict"), [
    (3, False, "hand_conflict", "number", True),  # not the next hand: someone got there first
    (1, True, "game_over", "game", False),  # a finished game takes no new hand
])
def test_what_cannot_be_priced_is_refused_with_its_field(number: int, finished: bool, code: str, field: str,
                                                        conflict: bool) -> None:
    with pytest.raises(Refused) as refused:
        price_hand(record(), ron(1, 0, 2, 30), number, title="Game 7", is_finished=finished)
    assert (refused.value.code, refused.value.field, refused.value.conflict) == (code, field, conflict)


def test_an_impossible_hand_is_refused_on_the_entered_hands_field() -> None:
    with pytest.raises(Refused) as refused:
        price_hand(record(), ron(1, 0, 1, 20), 1, title="t", is_finished=False)  # 1 han 20 fu ron cannot be
    assert refused.value.field is not None and not refused.value.field.startswith("hands[")


def test_the_pricer_loads_without_django() -> None:
    code = "import sys, league.entry.pricing, league.entry.phone; assert 'django' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_new_hand_is_held_to_the_bounds_and_the_stored_ones_are_not_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from league.entry import pricing

    stored = record(ron(1, 0, 2, 30), ron(2, 1, 3, 30))
    replayed = sg.replay(stored)
    with pytest.raises(Refused) as refused:  # past MAX_HAN: the database could not hold it
        price_hand(stored, ron(1, 0, 10**6, 30), 3, title="t", is_finished=False, stored=replayed)
    assert refused.value.field == "outcome.wins[0].han" and refused.value.code == "out_of_range"
    checked: list[str] = []
    monkeypatch.setattr(pricing, "check_hand_bounds", lambda hand, field: checked.append(field))
    price_hand(stored, ron(3, 2, 1, 30), 3, title="t", is_finished=False, stored=replayed)
    assert checked == ["hands[2]"]  # played on from the stored replay: its hands came from the database
    checked.clear()
    price_hand(stored, ron(3, 2, 1, 30), 3, title="t", is_finished=False)  # no replay given: every hand
    assert checked == ["hands[0]", "hands[1]", "hands[2]"]
