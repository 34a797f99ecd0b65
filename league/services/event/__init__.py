"""Running an event day: registration and check-in, seating rounds with
``league.seating``, publishing, starting rounds, substitutes, the clock and
hidden results; modules ``common``, ``registration`` and ``rounds``. Callers
use this package (``from league.services import event``).

Each function is one transaction that first locks the series row (and the game
row when it touches a game), saves nothing unless every check passes, and
leaves a ``EventAudit`` row and moves the series' version. Refusals are
``ServiceError`` (``code``, ``field``); an imported file's are
``RegistrationImportError`` with every bad line. docs/architecture.md, "Locks".
"""

from league.services.event.common import (
    RegistrationImportError,
    configure_event,
    ensure_event,
    hide_results,
    lock_series,
    log,
    reveal_results,
    set_role,
)
from league.services.event.registration import (
    check_in,
    drop_player,
    import_registrations,
    register_player,
)
from league.services.event.rounds import (
    SeatingReport,
    apply_time_policy,
    busy_players,
    clock_verdict,
    drop_with_substitute,
    players_to_seat,
    publish_round,
    schedule_quality,
    seat_rounds,
    set_clock,
    set_extra_time,
    start_round,
    substitute,
    swap_players,
)

__all__ = [
    "RegistrationImportError",
    "SeatingReport",
    "apply_time_policy",
    "busy_players",
    "check_in",
    "clock_verdict",
    "configure_event",
    "drop_player",
    "drop_with_substitute",
    "hide_results",
    "import_registrations",
    "lock_series",
    "log",
    "players_to_seat",
    "publish_round",
    "register_player",
    "reveal_results",
    "schedule_quality",
    "seat_rounds",
    "set_clock",
    "set_extra_time",
    "set_role",
    "start_round",
    "substitute",
    "swap_players",
    "ensure_event",
]
