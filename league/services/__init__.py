"""Every write that touches more than one row of a game, one module per concern:
``games`` (start a game, record, correct and undo hands, finish, end scores),
``penalties``, ``previews`` (what a save would do, nothing saved), ``logs``
(Tenhou logs in and out), with ``replay`` (the lock, the replay and the
snapshots every write shares), ``audit`` and ``errors`` beneath them. Callers
import the package (``from league import services``) and call ``services.record_hand``.

Each function is one transaction that first locks the game row
(``SELECT ... FOR UPDATE``; on SQLite the IMMEDIATE transaction of
settings.py takes the database write lock instead), replays the whole game
through ``scoring`` with the change applied, and saves nothing unless the
replay succeeds. So two scorers cannot interleave, a correction that makes a
later hand impossible changes nothing, and the result and statistics
snapshots on the seats always match the hands. Every change writes an
``AuditEntry`` and moves ``Series.version``, which the public pages cache under.

Errors are ``ServiceError`` (``Conflict`` when the caller's view of the game
is out of date), carrying the scoring engine's ``code`` and a ``field``.
"""

from league.services.audit import Actor
from league.services.errors import Conflict, ServiceError
from league.services.games import (
    correct_hand,
    finish_game,
    record_final_scores,
    record_hand,
    record_hands,
    refresh_snapshots,
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
from league.services.penalties import MAX_PENALTY, add_penalty, cancel_penalty, check_penalty
from league.services.previews import HandPreview, describe_payments, preview_hand

__all__ = [
    "MAX_PENALTY", "Actor", "Conflict", "HandPreview", "LogImport", "LogRefused", "ServiceError",
    "add_penalty", "cancel_penalty", "check_penalty", "correct_hand", "describe_discrepancy", "describe_payments",
    "export_tenhou_log", "finish_game", "import_tenhou_log", "preview_hand", "record_final_scores",
    "record_hand", "record_hands", "refresh_snapshots", "same_rules", "start_game", "undo_last_hand",
]
