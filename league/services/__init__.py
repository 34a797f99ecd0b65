"""Every write that touches more than one row of a game, one module per concern:
``games``, ``penalties``, ``previews`` (nothing saved), ``logs``, ``signoff``,
with ``replay`` and ``audit`` beneath them. Callers import the
package (``from league import services``) and call ``services.record_hand``.

Each function is one transaction that first locks the game row (``SELECT ...
FOR UPDATE``; on SQLite the IMMEDIATE transaction's write lock), replays the
whole game through ``scoring`` with the change, and saves nothing unless the
replay succeeds, so the seats' snapshots always match the hands. Every change
writes a ``GameAudit`` row and moves ``Series.version``. Errors are
``ServiceError`` (``Conflict`` when out of date) with a ``code`` and ``field``
(``league.errors``, which the read models raise too).
docs/architecture.md, "The path of one hand" and "Locks".
"""

from league.errors import AlreadySaved, BadInput, Conflict, ServiceError
from league.services.audit import Actor
from league.services.games import (
    HandSaved,
    correct_hand,
    finish_game,
    preview_finish,
    record_final_scores,
    record_hand,
    record_hands,
    refresh_snapshots,
    reopen_game,
    start_game,
    undo_last_hand,
)
from league.services.logs import (
    LogImport,
    LogRefused,
    describe_discrepancy,
    export_tenhou_log,
    import_tenhou_log,
    same_rules,
)
from league.services.penalties import (
    MAX_PENALTY,
    add_penalty,
    cancel_penalty,
    check_penalty,
    check_penalty_total,
    check_penalty_values,
)
from league.services.players import merge_players
from league.services.previews import HandPreview, describe_entry, describe_payments, entry_state, preview_hand
from league.services.replay import check_hand_bounds, check_result_bounds
from league.services.signoff import (
    game_signoff,
    open_disputes,
    read_link,
    resolve_dispute,
    result_digest,
    seat_link_token,
    seats_waiting,
    set_pins,
    sign_off,
    tables_waiting,
)

__all__ = [
    "merge_players",  # issue 38
    "HandSaved",  # issue 28
    "MAX_PENALTY", "Actor", "AlreadySaved", "BadInput", "Conflict", "HandPreview", "LogImport", "LogRefused", "ServiceError",
    "add_penalty", "cancel_penalty", "check_hand_bounds", "check_penalty", "check_penalty_total",
    "check_penalty_values", "check_result_bounds", "correct_hand", "describe_discrepancy", "describe_entry",
    "describe_payments", "entry_state", "export_tenhou_log", "finish_game", "import_tenhou_log", "preview_finish",
    "preview_hand", "record_final_scores", "record_hand", "record_hands", "refresh_snapshots", "reopen_game",
    "same_rules", "start_game", "undo_last_hand",
    # the table's sign-off (league.services.signoff)
    "game_signoff", "open_disputes", "read_link", "resolve_dispute", "result_digest", "seat_link_token",
    "seats_waiting", "set_pins", "sign_off", "tables_waiting",
]
