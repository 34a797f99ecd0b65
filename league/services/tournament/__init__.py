"""Running an event day: registration and check-in, seating rounds with the
seating engine (``league.seating``), reviewing and publishing them, starting
a round (every table's game at once), substitutes, the clock and hidden
results. One module per step: ``common`` (the series lock, the event's
settings and log, hidden results), ``registration`` and ``rounds`` (seating,
publishing, starting, substitutes, the clock). Callers use this package
(``from league.services import tournament as event``).

Each function is one transaction that first locks the series row
(``SELECT ... FOR UPDATE``; on SQLite the IMMEDIATE transaction takes the
database write lock), so two directors cannot seat, swap or start at once;
a write that touches a game also locks the game row, as the game services
do. Nothing is saved unless every check passes, and every change leaves a
``TournamentAudit`` row and moves the series' version, which the public
pages cache under. Games are started and ended through the game services,
which audit them as well.

Refusals are ``ServiceError`` with a ``code`` and the ``field`` at fault;
an imported file's are ``RegistrationImportError`` with every bad line.
"""

from league.services.tournament.common import (
    RegistrationImportError,
    configure_tournament,
    hide_results,
    lock_series,
    log,
    reveal_results,
    set_role,
    tournament_of,
)
from league.services.tournament.registration import (
    check_in,
    drop_player,
    import_registrations,
    register_player,
)
from league.services.tournament.rounds import (
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
    "configure_tournament",
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
    "tournament_of",
]
