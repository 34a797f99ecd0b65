"""A read log as a GAME RECORD, replayed through ``scoring`` and compared hand by
hand with what the log says, with the historical variants Tenhou's rules need."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from league.tenhou.read import read_log
from league.tenhou.values import (
    NO_TENPAI_YAME_UNTIL,
    OLD_UMA,
    OLD_UMA_UNTIL,
    SANMA_ROUNDED_UNTIL,
    CheckReport,
    Discrepancy,
    ImportedGame,
    Kyoku,
    LogError,
    TenhouLog,
    WinResult,
)
from scoring.errors import ScoringError
from scoring.game import (
    Abort,
    AbortReason,
    Draw,
    EndReason,
    GameRecord,
    GameResult,
    HandInput,
    Outcome,
    Ron,
    Tsumo,
    Win,
    replay,
)
from scoring.rules import RIICHI_STICK, EndRounding, Ruleset, Yame, get_ruleset


def _spec(base: str | Mapping[str, Any], extra: Mapping[str, Any] | None = None) -> str | dict[str, Any]:
    """A ruleset spec with ``extra`` overrides on top."""
    if isinstance(base, str):
        preset, overrides = base, {}
    else:
        preset, overrides = base["preset"], dict(base.get("overrides") or {})
    overrides.update(extra or {})
    return {"preset": preset, "overrides": overrides} if overrides else preset


def _win_tiles(k: Kyoku, w: WinResult) -> dict[str, Any] | None:
    if not w.tiles:
        return None
    return {
        "tiles": w.tiles,
        "melds": [{"type": kind, "tiles": tiles} for kind, tiles in w.melds],
        "win": w.win_tile,
        "dora": list(k.dora),
        "ura": list(k.ura) if w.riichi else [],
        **({"kita": w.kita} if w.kita else {}),
    }


def kyoku_to_hand(k: Kyoku) -> HandInput:
    """One logged hand as what happened at the table; ``tiles`` and ``yaku`` hold one entry per win."""
    outcome: Outcome
    tiles = yaku = None
    if k.kind == "win":
        first = k.wins[0]
        if first.tsumo:
            outcome = Tsumo(winner=first.winner, han=first.han, fu=first.fu, yakuman=first.yakuman, pao=first.pao)
        else:
            outcome = Ron(loser=first.loser, wins=tuple(  # type: ignore[arg-type]
                Win(winner=w.winner, han=w.han, fu=w.fu, yakuman=w.yakuman, pao=w.pao) for w in k.wins))
        kept = [_win_tiles(k, w) for w in k.wins]
        tiles = kept if any(kept) else None
        yaku = [list(w.yaku) for w in k.wins]
    elif k.kind == "draw":
        outcome = Draw(tenpai=k.tenpai, nagashi=k.nagashi)
    else:
        outcome = Abort(reason=AbortReason(k.abort))
    return HandInput(outcome=outcome, riichi=k.riichi, tiles=tiles, yaku=yaku)


def log_to_record(log: TenhouLog, overrides: Mapping[str, Any] | None = None) -> GameRecord:
    """The GAME RECORD of a whole logged game under the log's ruleset (plus ``overrides``).

    A fragment (a log not starting at East 1, 0 honba, with the start score
    each) is refused with ``incomplete_log``.
    """
    rules = get_ruleset(_spec(log.rules, overrides))
    first = log.kyoku[0]
    if (first.round, first.honba, first.sticks) != (0, 0, 0) or set(first.start_scores) != {rules.start_points}:
        raise LogError(
            "incomplete_log",
            f"the log starts at {first.round_label} {first.honba} honba with {list(first.start_scores)}, "
            f"not at E1 with {rules.start_points:,} each: it is part of a game",
        )
    record = GameRecord(rules, tuple(kyoku_to_hand(k) for k in log.kyoku), players=log.names)
    if log.owari is not None and rules.agari_yame is Yame.OPTIONAL:
        # Mahjong Soul: the all-last dealer who wins while first may stop or
        # play on; a log that ends there says the dealer stopped.
        try:
            game = replay(record)
            if not game.finished:
                stopped = dataclasses.replace(record, end=EndReason.AGARI_YAME)
                replay(stopped)
                return stopped
        except ScoringError:
            pass  # the check names what is wrong with the plain record
    return record




@dataclass(frozen=True)
class _Run:
    discrepancies: tuple[Discrepancy, ...]
    game: GameResult
    game_over: bool  # the engine ended the game before the log's last hand

    def has(self, what: str) -> bool:
        return any(d.what == what for d in self.discrepancies)


def _hand_index(err: ScoringError) -> int | None:
    m = re.match(r"hands\[(\d+)\]", err.field or "")
    return int(m.group(1)) if m else None


def _end_scores(log: TenhouLog) -> tuple[int, ...]:
    """The end scores a log without owari implies: Tenhou gives the leftover sticks to first."""
    last = log.kyoku[-1]
    scores = [s + d - (RIICHI_STICK if seat in last.riichi else 0)
              for seat, (s, d) in enumerate(zip(last.start_scores, last.deltas, strict=True))]
    left = 0 if last.kind == "win" else last.sticks + len(last.riichi)
    top = min(range(len(scores)), key=lambda s: (-scores[s], s))
    scores[top] += left * RIICHI_STICK
    return tuple(scores)


def _run(log: TenhouLog, overrides: Mapping[str, Any]) -> _Run:
    record = log_to_record(log, overrides)
    found: list[Discrepancy] = []

    def note(k: Kyoku | None, what: str, ours: Any, theirs: Any) -> None:
        found.append(Discrepancy(log.log_id, k.round_label if k else "end", k.honba if k else None, what, ours, theirs))

    hands = record.hands
    game_over = False
    while True:
        try:
            end = record.end if hands == record.hands else None
            game = replay(GameRecord(record.rules, hands, end=end, players=record.players))
            break
        except ScoringError as err:
            i = _hand_index(err)
            if i is None:
                raise
            k = log.kyoku[i]
            if err.code == "game_over":
                game_over = True
                note(k, "game over", f"the game ended before this hand: {err.message}", "the log plays this hand")
            else:
                note(k, "refused", f"{err.code}: {err.message} ({err.field})", "the log plays this hand")
            hands = hands[:i]
    for played, k in zip(game.hands, log.kyoku, strict=False):
        if (played.round, played.honba, played.riichi_sticks) != (k.round, k.honba, k.sticks):
            note(k, "round", f"{played.round_label} {played.honba} honba {played.riichi_sticks} sticks",
                 f"{k.round_label} {k.honba} honba {k.sticks} sticks")
        if played.start.scores != k.start_scores:
            note(k, "start scores", list(played.start.scores), list(k.start_scores))
        ours = [d + (RIICHI_STICK if s in played.input.riichi else 0) for s, d in enumerate(played.deltas)]
        if tuple(ours) != k.deltas:
            note(k, "deltas", ours, list(k.deltas))
    if len(game.hands) == len(log.kyoku):
        if not game.finished:
            nxt = game.next
            note(None, "not finished", f"the game goes on to {nxt.round_label if nxt else '?'}", "the log ends")
        elif game.settlement is not None:
            s = game.settlement
            theirs = log.owari.scores if log.owari else _end_scores(log)
            if s.final_scores != theirs:
                note(None, "end scores", list(s.final_scores), list(theirs))
            if log.owari and s.points != log.owari.points:
                note(None, "points", list(s.points), list(log.owari.points))
    return _Run(tuple(found), game, game_over)


def _mahjong_soul(rules: Ruleset) -> bool:
    return rules.name.startswith("mahjong-soul")


def _dated_before(log: TenhouLog, cutoff: str) -> bool:
    return log.date is None or log.date < cutoff


def _choose(log: TenhouLog) -> tuple[dict[str, Any], tuple[str, ...], _Run]:
    """Replay under the preset, then take the historical variants the log needs (module docstring)."""
    overrides: dict[str, Any] = {}
    variant: list[str] = []
    first, preset = log.kyoku[0], get_ruleset(log.rules)
    if log.special and len(set(first.start_scores)) == 1 and first.start_scores[0] != preset.start_points:
        # A special lobby with its own start score: play it from there so the
        # hands can still be compared; the report says so.
        start = first.start_scores[0]
        back = max(start, preset.return_points)
        overrides = {"start_points": start, "return_points": back, "oka": preset.players * (back - start)}
        variant.append("special_start")
    run = _run(log, overrides)
    rules = get_ruleset(log.rules)
    if (run.game_over and rules.tenpai_yame is not Yame.NONE
            and run.game.ended_by is not None and run.game.ended_by.value == "tenpai_yame"
            and _dated_before(log, NO_TENPAI_YAME_UNTIL)):
        trial = _run(log, {**overrides, "tenpai_yame": "none"})
        if not trial.game_over:
            overrides, run = {**overrides, "tenpai_yame": "none"}, trial
            variant.append("no_tenpai_yame")
    if (run.has("points") and rules.players == 3 and rules.end_rounding is EndRounding.NONE
            and not _mahjong_soul(rules) and _dated_before(log, SANMA_ROUNDED_UNTIL)):
        trial = _run(log, {**overrides, "end_rounding": "tenhou"})
        if not trial.has("points"):
            overrides, run = {**overrides, "end_rounding": "tenhou"}, trial
            variant.append("rounded_points")
    if run.has("points") and rules.players == 4 and rules.uma != OLD_UMA and _dated_before(log, OLD_UMA_UNTIL):
        trial = _run(log, {**overrides, "uma": list(OLD_UMA)})
        if not trial.has("points"):
            overrides, run = {**overrides, "uma": list(OLD_UMA)}, trial
            variant.append("old_uma")
    return overrides, tuple(variant), run


def check_log(log: TenhouLog) -> CheckReport:
    """Replay a logged game and compare every hand, the end scores and the points.

    Raises :class:`LogError` (``incomplete_log``) for a fragment of a game.
    """
    overrides, variant, run = _choose(log)
    wins = sum(len(k.wins) for k in log.kyoku)
    return CheckReport(log.log_id, _spec(log.rules, overrides), variant + log.quirks, len(log.kyoku), wins,
                       log.special, run.discrepancies)


def import_log(data: bytes | str, filename: str | None = None) -> ImportedGame:
    """Read, check and turn one log into a game; the report says whether it matched.

    A JSON log with no ``sc`` whose game the engine does not see finished is
    refused as ``truncated_log`` (an XML log without ``owari`` already is).
    """
    log = read_log(data, filename)
    overrides, variant, run = _choose(log)
    if log.owari is None and not run.game.finished and not run.game_over:
        raise LogError("truncated_log", f"the game is not over after its {len(log.kyoku)} hands and the log "
                                        "has no final result: it is cut off")
    record = log_to_record(log, overrides)
    wins = sum(len(k.wins) for k in log.kyoku)
    report = CheckReport(log.log_id, _spec(log.rules, overrides), variant + log.quirks, len(log.kyoku), wins,
                         log.special, run.discrepancies)
    return ImportedGame(log, record, log.names, report)


def import_log_file(path: str | Path) -> ImportedGame:
    p = Path(path)
    return import_log(p.read_bytes(), p.name)
