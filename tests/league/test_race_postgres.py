"""Two scorers race to record the same hand on PostgreSQL: the game row lock
makes one win and the other get the conflict, and nothing is lost."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import connection

from league import services
from league.models import GameAudit, Hand
from tests.factories import draw, make_game, ron

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL row locks (SQLite serialises all writers); .ci/run runs it with DATABASE_URL set",
    ),
    pytest.mark.django_db(transaction=True),
]


def race(game, hands) -> list[object]:  # noqa: ANN001
    """Record hand N from one thread per hand, all released at once."""
    number = game.next_hand_number()
    barrier = threading.Barrier(len(hands))
    outcomes: list[object] = [None] * len(hands)

    def scorer(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = services.record_hand(game=game, number=number, hand=hands[i])
        except Exception as err:  # noqa: BLE001 - the test inspects what each scorer got
            outcomes[i] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=scorer, args=(i,)) for i in range(len(hands))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


@pytest.mark.parametrize("attempt", range(5))
def test_two_scorers_race_for_hand_n(attempt: int) -> None:
    game = make_game()
    services.record_hand(game=game, number=1, hand=draw(0))
    first, second = ron(0, 1, 3, 40), ron(2, 3, 2, 30)
    outcomes = race(game, [first, second])
    winners = [o for o in outcomes if isinstance(o, Hand)]
    conflicts = [o for o in outcomes if isinstance(o, services.Conflict)]
    assert (len(winners), len(conflicts)) == (1, 1), outcomes
    assert conflicts[0].field == "number"
    stored = list(game.hands.order_by("number"))
    assert [h.number for h in stored] == [1, 2]
    assert stored[1].to_input() == winners[0].to_input()
    assert game.audit.filter(action=GameAudit.Action.RECORD_HAND).count() == 2
    # the loser reloads and enters the next hand
    services.record_hand(game=game, number=3, hand=draw())


def test_the_same_entry_sent_twice_at_once_is_saved_once() -> None:
    # A double tap that beat the page's own guard, or a retry racing the first send:
    # the same key and state from two connections. The game row lock serialises them;
    # the second finds the first's key and is told it was already saved.
    game = make_game()
    state = services.entry_state(game)[1]
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def send(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = services.record_hand(game=game, number=1, hand=draw(0), key="tap-0123456789", state=state)
        except Exception as err:  # noqa: BLE001 - the test inspects what each send got
            outcomes[i] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(type(o).__name__ for o in outcomes) == ["AlreadySaved", "Hand"], outcomes
    assert game.hands.count() == 1
