"""The audit trail: who changed what, before and after, written in the same
transaction as the change, and the series version the public pages cache under."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from league.models import Game, GameAudit, series_changed
from league.statements import insert

Actor = AbstractBaseUser | None


# What a scorer does inside a game being played: standings, the season chart
# and the finished games' statistics count finished games only, so these
# leave the series' results alone while the game is being played. A hand that
# ends the game is followed by a finish entry (replay.sync_result), which
# does not; any change to a finished game moves the results.
IN_PLAY = frozenset({
    GameAudit.Action.START, GameAudit.Action.RECORD_HAND, GameAudit.Action.CORRECT_HAND,
    GameAudit.Action.UNDO_HAND,
})
# Of those, what leaves the series' lineup alone too: the series page shows a
# game being played as its table and seats, which a hand does not move (a
# start adds a game to it). With 64 tables saving, the page and its live part
# were computed again, and every spectator's poll answered 200, after each hand.
HANDS_IN_PLAY = IN_PLAY - {GameAudit.Action.START}


def bump_version(
    series_id: int, *, results: bool = True, rounds: list[int] | None = None, lineup: bool = True,
    moved: bool = False,
) -> None:
    """Move the series' version now and its pages' stamp after the commit;
    ``results=False``: nothing a finished game decides has changed;
    ``lineup=False``: nor anything the series page shows (``series_changed``);
    ``rounds``: the only rounds whose results may have; ``moved``: the
    caller's statement moved the version already."""
    series_changed([series_id], results=results, rounds=rounds, lineup=lineup, moved=moved)


def user_of(by: Actor) -> Any:
    return by if by is not None and by.is_authenticated else None


def audit(
    game: Game,
    action: GameAudit.Action,
    by: Actor,
    *,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> GameAudit:
    # Every change the services make writes an audit entry, so moving the
    # series' version here moves it for all of them, inside their transaction:
    # a page cached under the old version is never served after the commit.
    # A change to one game touches its round alone (a game never changes round).
    audited(game, action)
    entry = new_game_audit(game, action, by, hand_number=hand_number, before=before, after=after)
    insert([entry])  # as save() inserts it, by a statement built once (every change writes one)
    return entry


def audited(game: Game, action: GameAudit.Action, *, moved: bool = False) -> None:
    """The series' version moved for an audit entry of ``action`` on ``game``
    (``audit`` writes the entry; ``moved``: the caller's statement wrote the
    entry and moved the version, as a new hand's one statement does)."""
    bump_version(game.series_id, results=action not in IN_PLAY or game.is_finished, rounds=[game.round_number],
                 lineup=action not in HANDS_IN_PLAY or game.is_finished, moved=moved)


def new_game_audit(
    game: Game,
    action: GameAudit.Action,
    by: Actor,
    *,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> GameAudit:
    """An unsaved audit entry (a batch saves many at once; see ``audit``)."""
    user = user_of(by)
    return GameAudit(
        game=game,
        action=action,
        hand_number=hand_number,
        user=user,
        username=user.get_username() if user else "",
        before=before,
        after=after,
    )
