"""What a Tenhou log says once read: the frozen values (a log, its hands, its wins,
the discrepancies a check finds), the refusal ``LogError``, the historical rule
cutoffs, and the continuity check both readers end with."""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import ScoringError
from scoring.game import (
    GameRecord,
    round_label,
)
from scoring.rules import RIICHI_STICK

OLD_UMA = (10000, 5000, -5000, -10000)
# Tenhou's three-player points were rounded like the four-player ones (2nd and
# 3rd to 1,000, first the rest) in games up to 2021 and exact from 2024-01
# (sanma.md §4, §7.2); the change itself is undated, so the cutoff is the first
# exact game we have.
SANMA_ROUNDED_UNTIL = "2024010100"
OLD_UMA_UNTIL = "2009080100"  # uma +10/+5/-5/-10 on logs dated before this (YYYYMMDDHH)
NO_TENPAI_YAME_UNTIL = "2010080100"  # "mid-2010": no tenpai-yame on logs dated before this

TENHOU_ID = re.compile(r"(\d{10}gm-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8})")
_RIICHI_YAKU = frozenset({"立直", "両立直", "Riichi", "Double Riichi"})


class LogError(ScoringError):
    """A log that cannot be read or turned into a game; nothing of it was kept."""


@dataclass(frozen=True)
class WinResult:
    """One winner of a hand, as logged. ``loser`` is ``None`` for a tsumo."""

    winner: int
    loser: int | None
    han: int
    fu: int | None
    yakuman: int
    pao: int | None
    yaku: tuple[str, ...]
    tiles: str  # concealed tiles with the winning tile, "123m0p..." (0 = red five)
    melds: tuple[tuple[str, str], ...]  # (type, tiles): chi, pon, kan, ankan, shouminkan
    win_tile: str
    deltas: tuple[int, ...]  # as logged: honba and sticks in, riichi deposits out (one per seat)
    kita: int = 0  # North tiles the winner set aside (three players: nuki dora)

    @property
    def tsumo(self) -> bool:
        return self.loser is None

    @property
    def riichi(self) -> bool:
        """The winner had declared riichi (so the ura indicators count for this hand)."""
        return any(y.split("(")[0] in _RIICHI_YAKU for y in self.yaku)


@dataclass(frozen=True)
class Kyoku:
    """One hand of the log. ``deltas`` are the logged ones (riichi deposits left out)."""

    round: int  # 0 = E1 ... 11 = W4
    honba: int
    sticks: int  # riichi sticks on the table at the start
    dealer: int
    start_scores: tuple[int, ...]  # one per seat: four, or three for a three-player log
    kind: str  # "win", "draw" or "abort"
    wins: tuple[WinResult, ...] = ()
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    abort: str | None = None  # an AbortReason value
    riichi: tuple[int, ...] = ()  # riichi sticks paid in this hand
    dora: tuple[str, ...] = ()
    ura: tuple[str, ...] = ()
    deltas: tuple[int, ...] = (0, 0, 0, 0)

    @property
    def round_label(self) -> str:
        return round_label(self.round)


@dataclass(frozen=True)
class Owari:
    """Tenhou's own end of game: scores after the leftover sticks, points in thousandths."""

    scores: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class TenhouLog:
    log_id: str
    format: str  # "mjlog" or "tenhou6"
    rules: str | dict[str, Any]  # a ruleset spec: "tenhou", "tenhou-east", "mahjong-soul" (+ overrides)
    names: tuple[str, ...]  # one per seat: four, or three for a three-player log
    kyoku: tuple[Kyoku, ...]
    owari: Owari | None = None
    rule_disp: str = ""
    lobby_type: int | None = None  # mjlog GO type
    special: bool = False  # a special lobby: imported, its discrepancies reported
    # Converter slips repaired on reading, each named (the check reports them as variants):
    # "sticks_left_out" = the last hand's deltas leave out riichi sticks its sc counts.
    quirks: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        """3 for a three-player (sanma) log, else 4."""
        return len(self.names)

    @property
    def date(self) -> str | None:
        """YYYYMMDDHH from the Tenhou id, when the log has one and it is a real
        hour of Tenhou's years (2006 on; before 2100 leaves room)."""
        m = TENHOU_ID.match(self.log_id)
        if not m:
            return None
        stamp = m.group(1)[:10]
        try:
            datetime.datetime.strptime(stamp, "%Y%m%d%H")
        except ValueError:
            return None
        return stamp if "2000" <= stamp[:4] < "2100" else None


@dataclass(frozen=True)
class Discrepancy:
    log_id: str
    round: str  # "E2", or "end" for the end of the game
    honba: int | None
    what: str
    ours: Any
    theirs: Any


@dataclass(frozen=True)
class CheckReport:
    log_id: str
    rules: str | dict[str, Any]  # the spec replayed, variant overrides included
    variant: tuple[str, ...]  # historical variants taken: "no_tenpai_yame", "old_uma"
    hands: int
    wins: int
    special: bool
    discrepancies: tuple[Discrepancy, ...]

    @property
    def ok(self) -> bool:
        return not self.discrepancies


@dataclass(frozen=True)
class ImportedGame:
    """A log turned into a game: the record (with the variant's overrides), the names, the check."""

    log: TenhouLog
    record: GameRecord
    names: tuple[str, ...]
    report: CheckReport




def _check_continuity(kyoku: Sequence[Kyoku]) -> None:
    """Each hand's deltas balance, and the next hand starts where this one left off."""
    for i, k in enumerate(kyoku):
        label = f"hand {i + 1} ({k.round_label}, {k.honba} honba)"
        total = sum(k.deltas)
        expected = (k.sticks + len(k.riichi)) * RIICHI_STICK if k.kind == "win" else 0
        if total != expected:
            raise LogError("deltas_do_not_add_up",
                           f"{label}: the deltas sum to {total:,}, they should sum to {expected:,}")
        if i + 1 < len(kyoku):
            after = tuple(s + d - (RIICHI_STICK if seat in k.riichi else 0)
                          for seat, (s, d) in enumerate(zip(k.start_scores, k.deltas, strict=True)))
            if after != kyoku[i + 1].start_scores:
                raise LogError("deltas_do_not_add_up",
                               f"{label}: the scores after it are {list(after)}, "
                               f"the next hand starts with {list(kyoku[i + 1].start_scores)}")
