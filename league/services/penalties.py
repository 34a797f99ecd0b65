"""Penalties given after uma, and their cancellation: each one transaction that
locks the game row and resettles a finished game."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from league.db_bounds import MAX_PENALTY, MAX_PENALTY_TOTAL
from league.errors import ServiceError
from league.models import Game, GameAudit, Penalty
from league.services.audit import Actor, audit, user_of
from league.services.replay import hands_of, lock_game, replay_game, sync_result

Action = GameAudit.Action




def check_penalty(*, game: Game, seat: int, points: int, reason: str) -> None:
    """Refuse a penalty ``add_penalty`` would refuse (``ServiceError`` naming
    the field), saving nothing; forms call it to show the reason on the field.

    The penalties in force on one seat stay within ``MAX_PENALTY_TOTAL``
    together, so its points after uma always fit the database.
    """
    check_penalty_values(seat=seat, points=points, reason=reason)
    in_force = game.penalties.filter(seat=seat, cancelled_at=None).aggregate(total=Sum("points"))["total"] or 0
    check_penalty_total(in_force, points)


def check_penalty_values(*, seat: int, points: int, reason: str) -> None:
    """The checks of one penalty that need no database (an import runs them
    on a whole file before it writes anything)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ServiceError("invalid_seat", f"a seat is 0 to 3, not {seat!r}", field="seat")
    if isinstance(points, bool) or not isinstance(points, int) or points == 0:
        raise ServiceError("invalid_penalty", "penalty points are whole thousandths, not 0 (-20 is -20000)", field="points")
    if abs(points) > MAX_PENALTY:
        raise ServiceError("invalid_penalty", f"a penalty is at most {MAX_PENALTY // 1000:,} points", field="points")
    if not isinstance(reason, str) or not reason.strip():
        raise ServiceError("invalid_penalty", "a penalty needs its reason", field="reason")
    reason_limit = Penalty._meta.get_field("reason").max_length
    if len(reason.strip()) > reason_limit:
        raise ServiceError("invalid_penalty", f"a reason has at most {reason_limit} characters", field="reason")
    if "\x00" in reason:
        raise ServiceError("invalid_text", "a reason cannot hold a NUL character", field="reason")


def check_penalty_total(in_force: int, points: int) -> None:
    if abs(in_force + points) > MAX_PENALTY_TOTAL:
        raise ServiceError(
            "invalid_penalty",
            f"the penalties of one seat in one game are at most {MAX_PENALTY_TOTAL // 1000:,} points together; "
            f"this seat has {in_force / 1000:+,.1f} already",
            field="points",
        )


def add_penalty(*, game: Game, seat: int, points: int, reason: str, by: Actor = None) -> Penalty:
    """Give ``seat`` ``points`` (thousandths, negative for a penalty) after uma.

    Locks the game row; a finished game is resettled at once. Refused as
    :func:`check_penalty` says, checked again under the lock.
    """
    with transaction.atomic():
        game = lock_game(game)
        check_penalty(game=game, seat=seat, points=points, reason=reason)
        penalty = Penalty.objects.create(game=game, seat=seat, points=points, reason=reason.strip(), given_by=user_of(by))
        result = replay_game(game, [r.to_input() for r in hands_of(game)])
        audit(game, Action.ADD_PENALTY, by, after=penalty.as_dict())
        sync_result(game, result, by)
    return penalty


def cancel_penalty(*, penalty: Penalty, by: Actor = None) -> Penalty:
    """Cancel a penalty (kept, marked cancelled). Locks its game row."""
    with transaction.atomic():
        game = lock_game(penalty.game)
        penalty = Penalty.objects.get(pk=penalty.pk)
        if penalty.is_cancelled:
            raise ServiceError("already_cancelled", "this penalty is already cancelled", field="penalty")
        before = penalty.as_dict()
        penalty.cancelled_at, penalty.cancelled_by = timezone.now(), user_of(by)
        penalty.save(update_fields=["cancelled_at", "cancelled_by"])
        result = replay_game(game, [r.to_input() for r in hands_of(game)])
        audit(game, Action.CANCEL_PENALTY, by, before=before, after=penalty.as_dict())
        sync_result(game, result, by)
    return penalty
