"""The real Tenhou logs the tests read, and small helpers to compare their tiles and deltas."""

from __future__ import annotations

import re

from tests.realdata import REALDATA, reproduced_tenhou_files, require_realdata

require_realdata()  # before reading the results table: a clone without ../shared skips

STANDARD = reproduced_tenhou_files()
MJLOG = REALDATA / "tenhou" / "mjlog"
JSON = REALDATA / "tenhou" / "json"
TWINS = sorted(p.name for p in JSON.glob("mjx__20*.json"))

# Logs whose end needs Tenhou's older rules (module docstring of league.tenhou).
OLD_UMA_LOGS = {row["file"] for row in STANDARD.values() if row["uma"] == "uma +10/+5/-5/-10"}
NO_TENPAI_YAME_LOGS = {
    "tenhou/mjlog/dnovikoff-tenhou__bug1.xml",
    "tenhou/mjlog/fastmaj__2009082713gm-00e1-0000-8820f355_tw=3.mjlog.gz",
    "tenhou/mjlog/fastmaj__2009082815gm-00e1-0000-b7e41fe8_tw=3.mjlog.gz",
    "tenhou/mjlog/fastmaj__2010030412gm-00e1-0000-4a275c59_tw=0.mjlog.gz",
    "tenhou/mjlog/fastmaj__2010060106gm-00a9-0000-30d6de3b_tw=0.mjlog.gz",
}


def _tiles(notation: str) -> list[str]:
    """'406p11z' -> ['0p', '4p', '6p', '1z', '1z'] sorted: notation compared as a multiset."""
    out = []
    for digits, suit in re.findall(r"(\d+)([mpsz])", notation):
        out += [d + suit for d in digits]
    return sorted(out)


def _theirs(hand_deltas, riichi):
    """Our deltas as the log writes them: without the riichi deposits."""
    return [d + (1000 if seat in riichi else 0) for seat, d in enumerate(hand_deltas)]
