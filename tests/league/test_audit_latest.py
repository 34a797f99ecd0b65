"""Pre-built statements where the ORM's building cost more than the query
(issue 28): ``GameAudit.latest``, the staff page's change history (and each
save's answer in place), the same entries in the same order as the ORM's
``game.audit.all()[:n]``; ``SaveKey.find`` and ``SaveKey.keep``, every save's
key lookup and insert, the rows the ORM reads and writes."""

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


def test_save_key_find_and_keep_are_the_orms() -> None:
    """The save's key lookup and insert (pre-built statements): the row the
    ORM would write (``at`` now, aware), found as the ORM finds it, and a
    second key of the same game refused by the constraint as before."""
    import datetime

    from django.db import IntegrityError, transaction
    from django.utils import timezone

    from league.models import SaveKey
    from tests.factories import make_scorer

    game = make_game()
    user = make_scorer(game.series, username="key-keeper")
    assert SaveKey.find(game.pk, "k-1") is None
    start = timezone.now()
    SaveKey.keep(game_id=game.pk, key="k-1", action="record", hand_number=3, entry="e" * 64, user_id=user.pk)
    SaveKey.keep(game_id=game.pk, key="k-2", action="undo", hand_number=None, entry="f" * 64, user_id=None)
    orm = SaveKey.objects.get(game=game, key="k-1")
    found = SaveKey.find(game.pk, "k-1")
    assert found is not None
    assert (found.pk, found.game_id, found.key, found.action, found.hand_number, found.entry, found.user_id,
            found.at) == (orm.pk, game.pk, "k-1", "record", 3, "e" * 64, user.pk, orm.at)
    assert start - datetime.timedelta(seconds=1) <= found.at <= timezone.now() and found.at.tzinfo is not None
    assert SaveKey.find(game.pk, "k-2").user_id is None
    assert SaveKey.find(make_game(game.series).pk, "k-1") is None
    with pytest.raises(IntegrityError), transaction.atomic():
        SaveKey.keep(game_id=game.pk, key="k-1", action="record", hand_number=4, entry="g" * 64, user_id=None)
    assert SaveKey.objects.filter(game=game).count() == 2


def test_save_key_claim_stores_a_new_key_and_finds_a_known_one() -> None:
    """A save's key lookup and insert in one statement: a new key is stored as
    ``keep`` stores it and gives None; a known one gives the stored entry,
    unchanged. A save refused after its claim keeps no key (the rollback)."""
    from league.errors import Conflict
    from league.models import SaveKey
    from league.services import entry as services
    from tests.factories import make_scorer

    game = make_game()
    user = make_scorer(game.series, username="key-claimer")
    assert SaveKey.claim(game_id=game.pk, key="c-1", action="record", hand_number=1, entry="a" * 64,
                         user_id=user.pk) is None
    stored = SaveKey.objects.get(game=game, key="c-1")
    assert (stored.action, stored.hand_number, stored.entry, stored.user_id) == ("record", 1, "a" * 64, user.pk)
    again = SaveKey.claim(game_id=game.pk, key="c-1", action="correct", hand_number=2, entry="b" * 64, user_id=None)
    assert again is not None and (again.pk, again.action, again.hand_number, again.entry, again.user_id) == (
        stored.pk, "record", 1, "a" * 64, user.pk)
    assert SaveKey.objects.filter(game=game).count() == 1
    # A stale save (another state) is refused after its key was claimed: no key stays.
    with pytest.raises(Conflict):
        services.save_entry(game=game, number=1, hand=draw(0), editing=False, key="c-2", state="not-the-state")
    assert not SaveKey.objects.filter(game=game, key="c-2").exists() and not game.hands.exists()
