"""Where the real third-party data lives: ../shared/realdata beside the repo.

A newcomer's clone has no ../shared, so tests that need it skip with a
stated reason; CI sets TENBOU_REQUIRE_REALDATA=1, which turns that skip into
an error so the real-data tests always run there.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
REALDATA = REPO.parent / "shared" / "realdata"


def require_realdata() -> Path:
    """The realdata folder, or skip the calling module (fail under CI's flag)."""
    if REALDATA.is_dir():
        return REALDATA
    reason = f"real game data not found at {REALDATA} (a clone without ../shared)"
    if os.environ.get("TENBOU_REQUIRE_REALDATA"):
        raise RuntimeError(reason + "; TENBOU_REQUIRE_REALDATA is set, so this is an error")
    pytest.skip(reason, allow_module_level=True)
    raise AssertionError  # unreachable


def read_csv(relative: str) -> list[dict[str, str]]:
    with open(REALDATA / relative, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def thousandths(text: str) -> int:
    """'-22.0' -> -22000, '61.3' -> 61300, without binary floats."""
    sign = -1 if text.startswith("-") else 1
    whole, _, frac = text.lstrip("+-").partition(".")
    frac = (frac + "000")[:3]
    return sign * (int(whole) * 1000 + int(frac))


def reproduced_tenhou_files() -> dict[str, dict[str, str]]:
    """Rows of tenhou_owari_results.csv whose check is `reproduced`, by file."""
    return {row["file"]: row for row in read_csv("results/tenhou_owari_results.csv") if row["check"] == "reproduced"}
