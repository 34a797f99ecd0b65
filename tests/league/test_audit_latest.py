"""``GameAudit.latest``: the staff page's change history (and each save's
answer in place) in one pre-built statement, the same entries in the same
order as the ORM's ``game.audit.all()[:n]`` (issue 28)."""

from __future__ import annotations

import pytest

from league.models import GameAudit
from tests.factories import draw, make_game, play, ron

pytestmark = pytest.mark.django_db


def _seen(entries: list[GameAudit]) -> list[tuple]:
    return [(e.pk, e.at, e.action, e.hand_number, e.username, e.get_action_display()) for e in entries]


def test_latest_is_the_orms_newest_first_list() -> None:
    game = make_game()
    play(game, [ron(1, 0, 2, 30), draw(0), ron(2, 1, 3, 30)] + [draw(3)] * 12)
    other = make_game(game.series)
    play(other, [ron(1, 0, 2, 30)])
    # Entries with the same instant: the newer row first, as the ordering's "-pk" says.
    same = game.audit.order_by("-pk")[0].at
    GameAudit.objects.filter(game=game).update(at=same)
    assert game.audit.count() > 12
    assert _seen(GameAudit.latest(game.pk, 12)) == _seen(list(game.audit.all()[:12]))
    assert _seen(GameAudit.latest(other.pk, 12)) == _seen(list(other.audit.all()[:12]))
    assert GameAudit.latest(game.pk, 3)[0].pk == max(game.audit.values_list("pk", flat=True))
    # A field left out of the statement still loads when asked for.
    assert GameAudit.latest(game.pk, 1)[0].after == game.audit.all()[0].after
