"""Every write that touches more than one row of a game.

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

from __future__ import annotations

import datetime
import re
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from league import tenhou
from league.models import WINDS, AuditEntry, Game, Hand, Penalty, Player, Seat, Series, Win
from league.stats import SEAT_STAT_FIELDS, seat_hand_stats
from scoring import game as sg
from scoring.errors import ScoringError
from scoring.rules import RIICHI_STICK, Ruleset, get_ruleset

Action = AuditEntry.Action
MAX_PENALTY = 1_000_000  # thousandths: 1,000 points, beyond any real penalty


class ServiceError(Exception):
    """A change refused; nothing was saved. ``field`` names the input at fault."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        return out

    @classmethod
    def from_scoring(cls, err: ScoringError, *, hand_index: int | None = None) -> ServiceError:
        """Name the field from the caller's side: a hand being entered is
        ``outcome.loser``, any other hand of the game ``hands[5].outcome``."""
        field, message = err.field, err.message
        if field is not None and hand_index is not None:
            own = f"hands[{hand_index}]"
            if field == own or field.startswith(own + "."):
                field = field[len(own) + 1 :] or None
            elif field.startswith("hands["):
                later = int(field[6 : field.index("]")]) + 1
                message = f"hand {later} would no longer be possible: {message}"
        return cls(err.code, message, field=field)


class Conflict(ServiceError):
    """The game moved on since the caller looked (say, another scorer entered the hand)."""


Actor = AbstractBaseUser | None


# -- games -----------------------------------------------------------------


def start_game(
    *,
    series: Series,
    players: Sequence[Player],
    round_number: int = 1,
    table: str = "",
    started_at: datetime.datetime | None = None,
    by: Actor = None,
) -> Game:
    """Seat four different players (East first) at a new game of ``series``.

    The series' rules are copied onto the game, so later edits to the series
    never rewrite games already played.
    """
    if len(players) != 4:
        raise ServiceError("four_players", f"a game needs four players, not {len(players)}", field="players")
    for i, player in enumerate(players):
        if any(p.pk == player.pk for p in players[:i]):
            raise ServiceError("same_player", f"{player} cannot sit twice at one game", field=f"players[{i}]")
    try:
        rules = series.ruleset().to_spec()
    except ScoringError as err:
        raise ServiceError.from_scoring(err) from None
    with transaction.atomic():
        game = Game.objects.create(
            series=series,
            round_number=round_number,
            table=table,
            rules=rules,
            started_at=started_at or timezone.now(),
        )
        Seat.objects.bulk_create(Seat(game=game, seat=i, player=p) for i, p in enumerate(players))
        _audit(game, Action.START, by, after={"players": [p.name for p in players], "rules": rules})
    return game


def record_hand(*, game: Game, number: int, hand: sg.HandInput | Mapping[str, Any], by: Actor = None) -> Hand:
    """Add hand ``number``, which the caller believes comes next.

    ``hand`` is a ``HandInput`` or its GAME RECORD dict. Locks the game row.
    A ``number`` that is not next (another scorer got there first) is a
    ``Conflict``; a hand the rules refuse is a ``ServiceError`` naming the
    field. Finishes the game when the ruleset says it is over.
    """
    hand = _parse_hand(hand)
    with transaction.atomic():
        game = _lock(game)
        _check_next(game, number)
        inputs = [h.to_input() for h in _hands(game)]
        result = _replay(game, [*inputs, hand], hand_index=number - 1)
        row = Hand(game=game, number=number, entered_by=_user(by))
        _save_hand(row, hand)
        _audit(game, Action.RECORD_HAND, by, hand_number=number, after=_hand_state(row, result))
        _sync_result(game, result, by)
    return row


def record_hands(
    *, game: Game, first: int, hands: Sequence[sg.HandInput | Mapping[str, Any]], by: Actor = None
) -> list[Hand]:
    """Add several hands at once, numbered from ``first`` (an import).

    The same rules as :func:`record_hand`, hand for hand, in one transaction
    and one replay: ``first`` must be the next hand number (else ``Conflict``),
    a hand the rules refuse is a ``ServiceError`` naming ``hands[i]``, and
    nothing is saved unless every hand is accepted. Each hand gets its own
    audit entry. Locks the game row.
    """
    parsed = []
    for i, h in enumerate(hands):
        try:
            parsed.append(_parse_hand(h))
        except ServiceError as err:
            raise ServiceError(err.code, err.message, field=f"hands[{first - 1 + i}].{err.field}" if err.field
                               else f"hands[{first - 1 + i}]") from None
    with transaction.atomic():
        game = _lock(game)
        _check_next(game, first)
        inputs = [h.to_input() for h in _hands(game)]
        result = _replay(game, [*inputs, *parsed])
        rows = _store_hands(game, parsed, by, first=first)
        _bump_version(game.series_id)
        AuditEntry.objects.bulk_create(
            _audit_entry(game, Action.RECORD_HAND, by, hand_number=row.number,
                         after=_state_of(hand, result.hands[row.number - 1]))
            for row, hand in zip(rows, parsed, strict=True)
        )
        _sync_result(game, result, by)
    return rows


def correct_hand(*, game: Game, number: int, hand: sg.HandInput | Mapping[str, Any], by: Actor = None) -> Hand:
    """Replace what was entered for hand ``number`` and replay the rest.

    Locks the game row. Refused, with nothing changed, if a later hand
    becomes impossible (say the game would now have ended before it). A
    finished game is resettled, or reopened if it no longer ends.
    """
    hand = _parse_hand(hand)
    with transaction.atomic():
        game = _lock(game)
        rows = _hands(game)
        index = next((i for i, r in enumerate(rows) if r.number == number), None)
        if index is None:
            raise ServiceError("no_such_hand", f"this game has no hand {number}", field="number")
        inputs = [r.to_input() for r in rows]
        inputs[index] = hand
        result = _replay(game, inputs, hand_index=index)
        row = rows[index]
        before = row.as_dict()
        _save_hand(row, hand)
        after = _hand_state(row, result)
        if before != after["hand"]:
            _audit(game, Action.CORRECT_HAND, by, hand_number=number, before={"hand": before}, after=after)
        _sync_result(game, result, by)
    return row


def undo_last_hand(*, game: Game, number: int | None = None, by: Actor = None) -> int:
    """Delete the game's last hand; returns its number. Locks the game row.

    ``number`` is the hand the caller believes is last: another one (a
    scorer saved the next hand meanwhile) is a ``Conflict``, nothing deleted.
    A game that was over is reopened, including one staff ended early: the
    early end was declared after the hand being removed.
    """
    with transaction.atomic():
        game = _lock(game)
        rows = _hands(game)
        if not rows:
            raise ServiceError("no_hands", "this game has no hand to undo", field="number")
        last = rows[-1]
        if number is not None and number != last.number:
            raise Conflict(
                "hand_conflict", f"hand {number} is no longer the last hand of this game ({last.number} is)",
                field="number",
            )
        before = last.as_dict()
        if game.end:
            game.end = ""
            game.save(update_fields=["end"])
        result = _replay(game, [r.to_input() for r in rows[:-1]])
        last.delete()
        _audit(game, Action.UNDO_HAND, by, hand_number=last.number, before={"hand": before})
        _sync_result(game, result, by)
    return last.number


def finish_game(*, game: Game, end: Game.End = Game.End.EARLY, by: Actor = None) -> Game:
    """End a game the ruleset has not ended: early (time) or by agari-yame.

    Locks the game row. Agari-yame is refused unless the ruleset lets the
    all-last dealer stop after the last hand.
    """
    with transaction.atomic():
        game = _lock(game)
        _check_open(game)
        game.end = Game.End(end)
        result = _replay(game, [r.to_input() for r in _hands(game)])
        game.save(update_fields=["end"])
        _sync_result(game, result, by)
    return game


def record_final_scores(
    *,
    game: Game,
    scores: Sequence[int],
    riichi_sticks: int = 0,
    finished_at: datetime.datetime | None = None,
    by: Actor = None,
) -> Game:
    """Finish a game kept by its four end scores only (seat order, no hands).

    Locks the game row. The scores must sum to 4 x start less 1,000 per
    riichi stick left on the table.
    """
    with transaction.atomic():
        game = _lock(game)
        _check_open(game)
        if game.hands.exists():
            raise ServiceError(
                "has_hands", "this game is kept hand by hand; finish it from its hands", field="final.scores"
            )
        game.final_scores, game.final_riichi_sticks = list(scores), riichi_sticks
        result = _replay(game, [])
        game.save(update_fields=["final_scores", "final_riichi_sticks"])
        if finished_at is not None:
            game.finished_at = finished_at
        _sync_result(game, result, by, action=Action.FINAL_SCORES)
    return game


def refresh_snapshots(*, game: Game, by: Actor = None) -> bool:
    """Replay ``game`` and rewrite its seats' result and statistics snapshots
    (a database from before the statistics were stored, or a rules fix).

    Locks the game row. Returns whether anything changed; a game whose
    results change is logged as resettled (or finished, or reopened). A game
    the engine now refuses raises ``ServiceError`` and keeps its snapshots.
    """
    with transaction.atomic():
        game = _lock(game)
        before = _snapshots(game)
        result = _replay(game, [r.to_input() for r in _hands(game)])
        _sync_result(game, result, by)
        changed = _snapshots(game) != before
        if changed:
            _bump_version(game.series_id)  # statistics alone write no audit entry
    return changed


def _snapshots(game: Game) -> list[tuple[Any, ...]]:
    fields = ("end_score", "place", "points", *SEAT_STAT_FIELDS)
    return [(game.status, game.finished_at), *game.seats.order_by("seat").values_list(*fields)]


# -- penalties -----------------------------------------------------------------


def add_penalty(*, game: Game, seat: int, points: int, reason: str, by: Actor = None) -> Penalty:
    """Give ``seat`` ``points`` (thousandths, negative for a penalty) after uma.

    Locks the game row; a finished game is resettled at once.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ServiceError("invalid_seat", f"a seat is 0 to 3, not {seat!r}", field="seat")
    if isinstance(points, bool) or not isinstance(points, int) or points == 0:
        raise ServiceError("invalid_penalty", "penalty points are whole thousandths, not 0 (-20 is -20000)", field="points")
    if abs(points) > MAX_PENALTY:
        raise ServiceError("invalid_penalty", f"a penalty is at most {MAX_PENALTY // 1000:,} points", field="points")
    if not reason.strip():
        raise ServiceError("invalid_penalty", "a penalty needs its reason", field="reason")
    reason_limit = Penalty._meta.get_field("reason").max_length
    if len(reason.strip()) > reason_limit:
        raise ServiceError("invalid_penalty", f"a reason has at most {reason_limit} characters", field="reason")
    with transaction.atomic():
        game = _lock(game)
        penalty = Penalty.objects.create(game=game, seat=seat, points=points, reason=reason.strip(), given_by=_user(by))
        result = _replay(game, [r.to_input() for r in _hands(game)])
        _audit(game, Action.ADD_PENALTY, by, after=penalty.as_dict())
        _sync_result(game, result, by)
    return penalty


def cancel_penalty(*, penalty: Penalty, by: Actor = None) -> Penalty:
    """Cancel a penalty (kept, marked cancelled). Locks its game row."""
    with transaction.atomic():
        game = _lock(penalty.game)
        penalty = Penalty.objects.get(pk=penalty.pk)
        if penalty.is_cancelled:
            raise ServiceError("already_cancelled", "this penalty is already cancelled", field="penalty")
        before = penalty.as_dict()
        penalty.cancelled_at, penalty.cancelled_by = timezone.now(), _user(by)
        penalty.save(update_fields=["cancelled_at", "cancelled_by"])
        result = _replay(game, [r.to_input() for r in _hands(game)])
        _audit(game, Action.CANCEL_PENALTY, by, before=before, after=penalty.as_dict())
        _sync_result(game, result, by)
    return penalty


# -- previews (the staff pages) ---------------------------------------------------


@dataclass(frozen=True)
class HandPreview:
    """What recording or correcting hand ``number`` would do; nothing saved.

    ``played`` is the hand as replayed (its start state, its result with the
    transfers, the scores after it); ``game`` the whole game with the hand in
    place, so ``game.finished`` says whether the hand ends it.
    """

    number: int
    played: sg.PlayedHand
    game: sg.GameResult


def preview_hand(*, game: Game, number: int, hand: sg.HandInput | Mapping[str, Any]) -> HandPreview:
    """Replay ``game`` with ``hand`` as hand ``number`` (the next one, or one
    already entered) and return what would happen, saving nothing.

    Takes no lock: it only reads, and the save checks everything again under
    the lock. Raises the same errors ``record_hand`` and ``correct_hand`` would.
    """
    hand = _parse_hand(hand)
    game = Game.objects.get(pk=game.pk)
    inputs = [r.to_input() for r in _hands(game)]
    if number == len(inputs) + 1:
        _check_open(game)
        inputs.append(hand)
    elif 1 <= number <= len(inputs):
        inputs[number - 1] = hand
    else:
        raise _not_next(number, len(inputs) + 1)
    result = _replay(game, inputs, hand_index=number - 1)
    return HandPreview(number, result.hands[number - 1], result)


def describe_payments(kyoku: sg.KyokuResult, names: Sequence[str]) -> list[str]:
    """Who pays whom in one hand, in words, from the engine's transfers.

    ``names`` are the four seats as staff call them. A win and its honba read
    as one payment ("East pays South 5,200 + 300"); the pot reads in sticks.
    """
    K = sg.TransferKind
    lines: list[str] = []
    deposits = [names[t.payer] for t in kyoku.transfers if t.kind is K.RIICHI and t.payer is not None]
    if deposits:
        verb = "puts" if len(deposits) == 1 else "each put"
        lines.append(f"{' and '.join(deposits)} {verb} a riichi stick on the table")
    wins: dict[tuple[int, int], list[int]] = {}
    for t in kyoku.transfers:
        if t.kind in (K.HAND, K.HONBA) and t.payer is not None and t.receiver is not None:
            parts = wins.setdefault((t.payer, t.receiver), [0, 0])
            parts[t.kind is K.HONBA] += t.amount
    done: set[tuple[int, int]] = set()
    notes = {K.NOTEN: "noten", K.NAGASHI: "nagashi mangan", K.CHOMBO: "chombo"}
    for t in kyoku.transfers:
        if t.kind in (K.HAND, K.HONBA) and t.payer is not None and t.receiver is not None:
            key = (t.payer, t.receiver)
            if key in done:
                continue
            done.add(key)
            hand, honba = wins[key]
            amount = f"{hand:,} + {honba:,}" if hand and honba else f"{hand or honba:,}"
            lines.append(f"{names[t.payer]} pays {names[t.receiver]} {amount}")
        elif t.kind in notes and t.payer is not None and t.receiver is not None:
            lines.append(f"{names[t.payer]} pays {names[t.receiver]} {t.amount:,} ({notes[t.kind]})")
        elif t.kind is K.STICKS and t.receiver is not None:
            n = t.amount // RIICHI_STICK
            lines.append(f"{names[t.receiver]} takes {n} riichi stick{'s' if n != 1 else ''} ({t.amount:,})")
    if len(lines) == (1 if deposits else 0):
        lines.append("No other payments" if deposits else "No payments")
    return lines


# -- helpers ---------------------------------------------------------------------


def _lock(game: Game) -> Game:
    # The row lock is what serialises two scorers on one game: the second
    # waits here until the first commits, then sees its hand and conflicts.
    return Game.objects.select_for_update().get(pk=game.pk)


def _check_next(game: Game, number: int) -> None:
    """Refuse a hand for a finished game, or one whose number is not next."""
    _check_open(game)
    expected = game.next_hand_number()
    if number != expected:
        raise _not_next(number, expected)


def _not_next(number: int, expected: int) -> Conflict:
    return Conflict(
        "hand_conflict",
        f"hand {number} cannot be recorded: the next hand of this game is {expected} "
        "(has someone else just entered it?)",
        field="number",
    )


def _check_open(game: Game) -> None:
    if game.is_finished:
        raise ServiceError("game_over", f"{game} is finished; correct or undo a hand to reopen it", field="game")


def _hands(game: Game) -> list[Hand]:
    return list(game.hands.order_by("number").prefetch_related("wins"))


def _parse_hand(hand: sg.HandInput | Mapping[str, Any]) -> sg.HandInput:
    if isinstance(hand, sg.HandInput):
        return hand
    try:
        return sg.hand_from_dict(hand)
    except ScoringError as err:
        raise ServiceError.from_scoring(err) from None


def _replay(game: Game, inputs: list[sg.HandInput], *, hand_index: int | None = None) -> sg.GameResult:
    try:
        return sg.replay(game.record(hands=inputs))
    except ScoringError as err:
        raise ServiceError.from_scoring(err, hand_index=hand_index) from None


def _save_hand(row: Hand, hand: sg.HandInput) -> None:
    wins = row.set_input(hand)
    row.save()
    row.wins.all().delete()
    for w in wins:
        w.hand = row
    Win.objects.bulk_create(wins)


def _hand_state(row: Hand, result: sg.GameResult) -> dict[str, Any]:
    return _state_of(row.to_input(), result.hands[row.number - 1])


def _state_of(hand: sg.HandInput, played: sg.PlayedHand) -> dict[str, Any]:
    """What the audit keeps of a hand: its input and where it left the game."""
    return {
        "hand": sg.hand_to_dict(hand), "round": played.round_label, "honba": played.honba,
        "scores": list(played.scores),
    }


def _results(game: Game) -> dict[str, Any] | None:
    seats = list(game.seats.order_by("seat"))
    if seats[0].place is None:
        return None
    return {
        "end": game.end or None,
        "final_scores": [s.end_score for s in seats],
        "places": [s.place for s in seats],
        "points": [s.points for s in seats],
    }


def _sync_stats(game: Game, result: sg.GameResult) -> list[Seat]:
    """Make the seats' hand statistics match the replay: one UPDATE of the
    four seats, none when nothing moved (a penalty). Returns the seats."""
    seats = list(game.seats.order_by("seat"))
    changed = []
    for seat in seats:
        st = seat_hand_stats(result, seat.seat)
        if any(getattr(seat, f) != getattr(st, f) for f in SEAT_STAT_FIELDS):
            for f in SEAT_STAT_FIELDS:
                setattr(seat, f, getattr(st, f))
            changed.append(seat)
    if changed:
        Seat.objects.bulk_update(changed, SEAT_STAT_FIELDS)
    return seats


def _sync_result(game: Game, result: sg.GameResult, by: Actor, *, action: AuditEntry.Action | None = None) -> None:
    """Make the seats' statistics, the status and the seats' result snapshot
    match the replay, and log the change of results (finish, reopen or
    resettle) if there is one."""
    seats = _sync_stats(game, result)  # games in progress have statistics too
    if not result.finished and not game.is_finished:
        return  # still being played: no result to write or clear
    before = _results(game)
    if result.finished:
        s = result.settlement
        assert s is not None
        for seat in seats:
            seat.end_score = s.final_scores[seat.seat]
            seat.place = s.places[seat.seat]
            seat.points = s.points[seat.seat]
        Seat.objects.bulk_update(seats, ["end_score", "place", "points"])
        game.status = Game.Status.FINISHED
        game.finished_at = game.finished_at or timezone.now()
    else:
        game.seats.update(end_score=None, place=None, points=None)
        game.status, game.finished_at = Game.Status.IN_PROGRESS, None
    game.save(update_fields=["status", "finished_at"])
    after = _results(game)
    if before == after:
        return
    if action is None:
        action = Action.FINISH if before is None else Action.REOPEN if after is None else Action.RESETTLE
    if after is not None:
        after["ended_by"] = str(result.ended_by)
    _audit(game, action, by, before=before, after=after)


def _bump_version(series_id: int) -> None:
    Series.objects.filter(pk=series_id).update(version=F("version") + 1)


def _user(by: Actor) -> Any:
    return by if by is not None and by.is_authenticated else None


def _audit(
    game: Game,
    action: AuditEntry.Action,
    by: Actor,
    *,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    # Every change the services make writes an audit entry, so moving the
    # series' version here moves it for all of them, inside their transaction:
    # a page cached under the old version is never served after the commit.
    _bump_version(game.series_id)
    entry = _audit_entry(game, action, by, hand_number=hand_number, before=before, after=after)
    entry.save()
    return entry


def _audit_entry(
    game: Game,
    action: AuditEntry.Action,
    by: Actor,
    *,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """An unsaved audit entry (a batch saves many at once; see ``_audit``)."""
    user = _user(by)
    return AuditEntry(
        game=game,
        action=action,
        hand_number=hand_number,
        user=user,
        username=user.get_username() if user else "",
        before=before,
        after=after,
    )


# -- imported logs (issue 8) --------------------------------------------------------

# Tenhou's guest handle and the names anonymised logs use: never a real person.
ANONYMOUS_NAME = re.compile(r"^(?:[A-D]さん|私|NoName)?$")
JST = zoneinfo.ZoneInfo("Asia/Tokyo")  # Tenhou ids carry the hour in Japan time


class LogRefused(ServiceError):
    """A log not imported; nothing of it was stored.

    ``discrepancies`` lists where the log and our replay differ when that is
    the reason (code ``log_differs``); ``log_id`` is known once the log was read.
    """

    def __init__(
        self, code: str, message: str, *, log_id: str | None = None, discrepancies: Sequence[dict[str, Any]] = ()
    ) -> None:
        super().__init__(code, message, field="log")
        self.log_id = log_id
        self.discrepancies = tuple(discrepancies)


@dataclass(frozen=True)
class LogImport:
    """What importing one log did. ``created`` is False when the log was
    already in the series: ``game`` is then the game imported before."""

    log_id: str
    game: Game
    created: bool
    variant: tuple[str, ...] = ()
    discrepancies: tuple[dict[str, Any], ...] = ()


def import_tenhou_log(
    *,
    series: Series,
    data: bytes | str | tenhou.ImportedGame,
    filename: str | None = None,
    by: Actor = None,
    force: bool = False,
    names: Mapping[str, Any] | None = None,
) -> LogImport:
    """Import one Tenhou log (mjlog XML, gzip or not, or tenhou.net/6 JSON) as
    a finished game of ``series``, replayed and settled like a game entered by
    staff; ``data`` may also be a log already read by ``tenhou.import_log``.

    Refused with ``LogRefused``, storing nothing, when the log cannot be read,
    when ``series`` plays other rules than the log (the historical variant a
    log needs is applied on top and recorded on the game), or when the log and
    our replay differ, unless ``force``: then the differences are stored on
    the game. A log whose id is already in the series changes nothing.

    ``names`` maps a log id to four player names (seat order, null keeps the
    log's name) or a name in the logs to a player's name. Other names match an
    existing player exactly or create one; anonymised names (``Aさん``, ``私``,
    ``NoName``, empty) always get a new player per seat.

    Locks the series row, so two imports of one log cannot both store it.
    """
    imported = data if isinstance(data, tenhou.ImportedGame) else _read_tenhou_log(data, filename)
    log, report = imported.log, imported.report
    _check_log_rules(series, log)
    found = tuple(_discrepancy_dict(d) for d in report.discrepancies)
    kinds = {d["what"] for d in found}
    if kinds & {"refused", "game over"}:
        # Even staff cannot store a hand the engine refuses: the game must replay.
        first = next(d for d in found if d["what"] in ("refused", "game over"))
        raise LogRefused(
            "engine_refuses",
            f"{log.log_id}: our engine cannot play {first['round']} as logged ({first['ours']}); not imported",
            log_id=log.log_id, discrepancies=found,
        )
    if found and not force:
        raise LogRefused(
            "log_differs",
            f"{log.log_id}: {len(found)} difference(s) between the log and our replay, first at "
            f"{describe_discrepancy(found[0])}; not imported (import anyway to keep it with its differences)",
            log_id=log.log_id, discrepancies=found,
        )
    with transaction.atomic():
        # The series row lock serialises imports into one series: a second
        # import of the same log waits here, then finds the first one's game.
        series = Series.objects.select_for_update().get(pk=series.pk)
        existing = Game.objects.filter(series=series, source_id=log.log_id).first()
        if existing is not None:
            return LogImport(log.log_id, existing, created=False, variant=tuple(existing.variant))
        players = _log_players(log, names)
        started = _log_time(log)
        game = Game.objects.create(
            series=series,
            rules=imported.record.rules.to_spec(),
            # Staff accepted a log the engine sees unfinished: it ends where the log does.
            end=Game.End.EARLY if "not finished" in kinds else "",
            started_at=started or timezone.now(),
            finished_at=started,
            source=Game.Source.MJLOG if log.format == "mjlog" else Game.Source.TENHOU6,
            source_id=log.log_id,
            variant=list(report.variant),
            discrepancies=list(found) or None,
        )
        Seat.objects.bulk_create(Seat(game=game, seat=i, player=p) for i, p in enumerate(players))
        inputs = list(imported.record.hands)
        result = _replay(game, inputs)
        _store_hands(game, inputs, by)
        _audit(game, Action.IMPORT_LOG, by, after={
            "log_id": log.log_id, "file": filename or "", "format": log.format, "players": [p.name for p in players],
            "names_in_log": list(log.names), "rules": game.rules, "variant": list(report.variant),
            "hands": len(inputs), "discrepancies": list(found),
        })
        _sync_result(game, result, by)
    return LogImport(log.log_id, game, created=True, variant=tuple(report.variant), discrepancies=found)


def export_tenhou_log(*, game: Game) -> str:
    """A game as tenhou.net/6 JSON text (results, scores and the kept tiles),
    which ``import_tenhou_log`` reads back as the same game.

    Raises ``ServiceError`` (``not_exportable``) for rules or hands the format
    cannot say (a chombo, a ruleset other than Tenhou's or Mahjong Soul's).
    """
    names = [s.player.name for s in game.seats.select_related("player").order_by("seat")]
    try:
        return tenhou.export_tenhou6(game.record(), names, log_id=game.source_id or None)
    except ScoringError as err:
        raise ServiceError.from_scoring(err) from None


def describe_discrepancy(d: Mapping[str, Any]) -> str:
    """One line: "E2 1 honba: deltas ours [...] log [...]"."""
    where = "end of game" if d["round"] == "end" else f"{d['round']} {d['honba']} honba"
    return f"{where}: {d['what']}, ours {d['ours']}, log {d['theirs']}"


def _read_tenhou_log(data: bytes | str, filename: str | None) -> tenhou.ImportedGame:
    try:
        return tenhou.import_log(data, filename)
    except ScoringError as err:
        raise LogRefused(err.code, err.message) from None


def _rules_text(rules: Ruleset) -> str:
    spec = rules.to_spec()
    extra = ", ".join(f"{k}={v}" for k, v in spec["overrides"].items())
    return spec["preset"] + (f" with {extra}" if extra else "")


def same_rules(a: Ruleset, b: Ruleset) -> bool:
    """The same rules in substance, whatever preset name either was built from."""
    da, db = a.to_dict(), b.to_dict()
    da.pop("name"), db.pop("name")
    return da == db


def _check_log_rules(series: Series, log: tenhou.TenhouLog) -> None:
    theirs = get_ruleset(log.rules)
    if not same_rules(series.ruleset(), theirs):
        kind = "an east-only" if theirs.length == "east" else "a hanchan"
        raise LogRefused(
            "rules_differ",
            f"{log.log_id} is {kind} game under {_rules_text(theirs)}, but series "
            f"'{series.slug}' plays {_rules_text(series.ruleset())}: import it into a series with the log's rules",
            log_id=log.log_id,
        )


def _discrepancy_dict(d: tenhou.Discrepancy) -> dict[str, Any]:
    return {"round": d.round, "honba": d.honba, "what": d.what, "ours": d.ours, "theirs": d.theirs}


def _log_time(log: tenhou.TenhouLog) -> datetime.datetime | None:
    if log.date is None:
        return None
    return datetime.datetime.strptime(log.date, "%Y%m%d%H").replace(tzinfo=JST)


def _mapped_names(log: tenhou.TenhouLog, names: Mapping[str, Any] | None) -> list[str | None]:
    if not names:
        return [None] * 4
    per_game = names.get(log.log_id)
    if per_game is not None:
        if not isinstance(per_game, list) or len(per_game) != 4 or any(
            n is not None and not isinstance(n, str) for n in per_game
        ):
            raise LogRefused("invalid_names", f"the names for {log.log_id} must be a list of four names (or null)",
                             log_id=log.log_id)
        return [n.strip() or None if n else None for n in per_game]
    mapped = [names.get(name) if name else None for name in log.names]
    return [n.strip() or None if isinstance(n, str) else None for n in mapped]


def _log_players(log: tenhou.TenhouLog, names: Mapping[str, Any] | None) -> list[Player]:
    players: list[Player] = []
    for seat, (logged, mapped) in enumerate(zip(log.names, _mapped_names(log, names), strict=True)):
        logged = logged.strip()
        if mapped:
            player, _ = Player.objects.get_or_create(name=mapped[:100])
        elif ANONYMOUS_NAME.match(logged):
            player = _new_player(f"{logged or 'Player'} ({WINDS[seat]}, {log.log_id[:32]})")
        else:
            player, _ = Player.objects.get_or_create(name=logged[:100])
        if any(p.pk == player.pk for p in players):
            raise LogRefused("same_player", f"{log.log_id}: {player} would sit twice at one game; "
                                            "name the seats in a mapping", log_id=log.log_id)
        players.append(player)
    return players


def _new_player(name: str) -> Player:
    candidate, n = name, 1
    while Player.objects.filter(name=candidate).exists():
        n += 1
        candidate = f"{name} {n}"
    return Player.objects.create(name=candidate)


def _store_hands(game: Game, inputs: Sequence[sg.HandInput], by: Actor, *, first: int = 1) -> list[Hand]:
    # One insert for the hands and one for the wins: a batch is written whole,
    # after the replay has accepted every hand.
    rows, wins = [], []
    for number, hand in enumerate(inputs, start=first):
        row = Hand(game=game, number=number, entered_by=_user(by))
        wins.append(row.set_input(hand))
        rows.append(row)
    Hand.objects.bulk_create(rows)
    for row, row_wins in zip(rows, wins, strict=True):
        for w in row_wins:
            w.hand = row
    Win.objects.bulk_create(w for row_wins in wins for w in row_wins)
    return rows
