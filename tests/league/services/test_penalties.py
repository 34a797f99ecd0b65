"""Penalties after uma and their cancellation (league.services.penalties)."""

from __future__ import annotations

import pytest

from league import services
from league.models import GameAudit, Penalty
from tests.factories import hanchan_passing_deal, make_game, play, snapshot

pytestmark = pytest.mark.django_db

Action = GameAudit.Action


def test_penalty_on_a_finished_game_resettles_and_cancel_restores() -> None:
    game = make_game()
    services.record_final_scores(game=game, scores=[41300, 24900, 21800, 12000])
    penalty = services.add_penalty(game=game, seat=1, points=-20000, reason="late")
    assert list(game.seats.order_by("seat").values_list("points", flat=True)) == [61300, -15100, -18200, -48000]
    services.cancel_penalty(penalty=penalty)
    assert list(game.seats.order_by("seat").values_list("points", flat=True)) == [61300, 4900, -18200, -48000]
    actions = list(game.audit.order_by("pk").values_list("action", flat=True))
    assert actions == [Action.START, Action.FINAL_SCORES, Action.ADD_PENALTY, Action.RESETTLE,
                       Action.CANCEL_PENALTY, Action.RESETTLE]
    with pytest.raises(services.ServiceError) as exc:
        services.cancel_penalty(penalty=penalty)
    assert exc.value.code == "already_cancelled"


def test_penalty_during_play_applies_at_the_end() -> None:
    game = make_game()
    services.add_penalty(game=game, seat=3, points=-10000, reason="slow play")
    play(game, hanchan_passing_deal())
    assert game.seats.get(seat=3).points == -41900 - 10000


@pytest.mark.parametrize(
    ("seat", "points", "reason", "field"),
    [(4, -1000, "x", "seat"), (0, 0, "x", "points"), (0, -1000, " ", "reason")],
)
def test_add_penalty_refuses_bad_input(seat: int, points: int, reason: str, field: str) -> None:
    game = make_game()
    with pytest.raises(services.ServiceError) as exc:
        services.add_penalty(game=game, seat=seat, points=points, reason=reason)
    assert exc.value.field == field
    assert not Penalty.objects.exists()



@pytest.mark.parametrize(
    ("points", "reason", "field"),
    [(-10**12, "slip of the finger", "points"), (-20000, "x" * 201, "reason")],
)
def test_add_penalty_refuses_what_the_database_cannot_hold(points: int, reason: str, field: str) -> None:
    game = make_game()
    before = snapshot(game)
    with pytest.raises(services.ServiceError) as err:
        services.add_penalty(game=game, seat=1, points=points, reason=reason)
    assert err.value.field == field
    assert snapshot(game) == before


