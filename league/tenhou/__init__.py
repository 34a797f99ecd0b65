"""Real game logs from Tenhou: read them, replay them through ``scoring``, write them back.

Promises: :func:`read_log` turns mjlog XML (plain or gzip) or tenhou.net/6 JSON, four or
three players, into a :class:`TenhouLog` or refuses it with a coded :class:`LogError`;
:func:`check_log` replays it and reports every hand that differs, taking a historical
variant only for a log dated before Tenhou's change; :func:`export_tenhou6` writes a
record back that :func:`read_log` reads as the same tiles. No Django; callers use this
package, not its modules. The reading rules: docs/data.md, "How a log is read and checked".
"""

from league.tenhou.check import check_log, import_log, import_log_file, kyoku_to_hand, log_to_record
from league.tenhou.export import export_tenhou6
from league.tenhou.read import MAX_UNPACKED, read_log, read_log_file
from league.tenhou.tiles import YAKU_NAMES
from league.tenhou.values import (
    NO_TENPAI_YAME_UNTIL,
    OLD_UMA,
    OLD_UMA_UNTIL,
    SANMA_ROUNDED_UNTIL,
    TENHOU_ID,
    CheckReport,
    Discrepancy,
    ImportedGame,
    Kyoku,
    LogError,
    Owari,
    TenhouLog,
    WinResult,
)

__all__ = [
    "MAX_UNPACKED", "NO_TENPAI_YAME_UNTIL", "OLD_UMA", "OLD_UMA_UNTIL", "SANMA_ROUNDED_UNTIL", "TENHOU_ID", "YAKU_NAMES",
    "CheckReport", "Discrepancy", "ImportedGame", "Kyoku", "LogError", "Owari", "TenhouLog", "WinResult",
    "check_log", "export_tenhou6", "import_log", "import_log_file", "kyoku_to_hand", "log_to_record",
    "read_log", "read_log_file",
]
