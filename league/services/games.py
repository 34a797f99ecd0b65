"""Starting a game and writing its hands: record, correct, undo, finish early,
end scores only, and refreshing the snapshots. Each function is one transaction
that locks the game row first (see the package docstring)."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from league.db_bounds import MAX_ROUND, time_problem
from league.errors import Conflict, ServiceError
from league.models import Game, GameAudit, Hand, Player, SaveKey, Seat, Series
from league.services.audit import Actor, audit, bump_version, new_game_audit, user_of
from league.services.replay import (
    AsRead,
    Claim,
    check_next,
    check_open,
    check_state,
    claim_entry,
    entry_digest,
    hand_result,
    hand_state,
    hands_of,
    keep_entry,
    known_entry,
    lock_game,
    lock_game_moving,
    parse_hand,
    replay_game,
    save_hand,
    save_new_hand,
    state_of,
    still_as_read,
    store_hands,
    sync_result,
)
from league.stats import SEAT_STAT_FIELDS
from scoring import game as sg
from scoring.digest import hands_digest
from scoring.errors import ScoringError

Action = GameAudit.Action

def start_game(
    *,
    series: Series,
    players: Sequence[Player],
    round_number: int = 1,
    table: str = "",
    started_at: datetime.datetime | None = None,
    by: Actor = None,
    at_the_table: bool = False,
) -> Game:
    """Seat four different players (East first) at a new game of ``series``,
    or three when its ruleset is three-player (``Ruleset.players``).

    The series' rules are copied onto the game, so later edits to the series
    never rewrite games already played. ``at_the_table`` (staff starting a
    game now) also refuses a table that cannot be: a player still in an
    unfinished game of the series or already in a game of that round, and a
    (round, table) already used. Imports of past games skip those checks.
    Locks the series row, so two scorers cannot seat one player twice.
    """
    try:
        ruleset = series.ruleset()
    except ScoringError as err:
        raise ServiceError.from_scoring(err) from None
    # A series is three- or four-player by its ruleset, never mixed.
    if len(players) != ruleset.players:
        count = "four" if ruleset.players == 4 else "three"
        raise ServiceError("four_players" if ruleset.players == 4 else "three_players",
                           f"a game of this series ({ruleset.name}) needs {count} players, not {len(players)}",
                           field="players")
    if isinstance(round_number, bool) or not isinstance(round_number, int) or not 1 <= round_number <= MAX_ROUND:
        raise ServiceError("invalid_round", f"a round is a whole number from 1 to {MAX_ROUND:,}, not {round_number!r}",
                           field="round_number")
    table_length = Game._meta.get_field("table").max_length
    if not isinstance(table, str) or len(table) > table_length or "\x00" in table:
        raise ServiceError("invalid_table", f"a table is text of at most {table_length} characters, without NUL",
                           field="table")
    if started_at is not None and time_problem(started_at):
        raise ServiceError("invalid_time", f"the start {time_problem(started_at)}", field="started_at")
    for i, player in enumerate(players):
        if any(p.pk == player.pk for p in players[:i]):
            raise ServiceError("same_player", f"{player} cannot sit twice at one game", field=f"players[{i}]")
    rules = ruleset.to_spec()
    with transaction.atomic():
        if at_the_table:
            Series.objects.select_for_update().filter(pk=series.pk).first()
            _check_table(series, players, round_number, table)
        game = Game.objects.create(
            series=series,
            round_number=round_number,
            table=table,
            rules=rules,
            started_at=started_at or timezone.now(),
        )
        Seat.objects.bulk_create(Seat(game=game, seat=i, player=p) for i, p in enumerate(players))
        audit(game, Action.START, by, after={"players": [p.name for p in players], "rules": rules})
    return game


def _check_table(series: Series, players: Sequence[Player], round_number: int, table: str) -> None:
    games = Game.objects.filter(series=series)
    if table and games.filter(round_number=round_number, table=table).exists():
        raise ServiceError("table_taken", f"round {round_number} already has a game at table {table}", field="table")
    for i, player in enumerate(players):
        seats = Seat.objects.filter(game__series=series, player=player)
        if seats.filter(game__status=Game.Status.IN_PROGRESS).exists():
            raise ServiceError("already_playing", f"{player} is still playing an unfinished game of this series",
                               field=f"players[{i}]")
        if seats.filter(game__round_number=round_number).exists():
            raise ServiceError("already_played_round", f"{player} already played in round {round_number}",
                               field=f"players[{i}]")


def _hand_still(game: Game, number: int, hand: sg.HandInput) -> bool:
    row = game.hands.filter(number=number).prefetch_related("wins").first()
    return row is not None and hands_digest([row.to_input()]) == hands_digest([hand])


@dataclasses.dataclass(frozen=True)
class HandSaved:
    """What a new hand's save holds when it is done, handed to ``record_hand``'s
    ``then`` inside the transaction so a caller need not read it again."""

    game: Game  # the game row as locked (its inputs_version moved by the save)
    rows: list[Hand]  # every hand, the new one last
    record: sg.GameRecord  # the record replayed, the new hand included
    replayed: sg.GameResult
    change: GameAudit  # the change history's entry the save wrote


AfterSave = Callable[[HandSaved], None]


def record_hand(
    *, game: Game, number: int, hand: sg.HandInput | Mapping[str, Any], by: Actor = None,
    key: str | None = None, state: str | None = None, then: AfterSave | None = None,
    check: Callable[[sg.PlayedHand], None] | None = None, as_read: AsRead | None = None,
    savepoint: bool = True,
) -> Hand:
    """Add hand ``number``, which the caller believes comes next.

    ``hand`` is a ``HandInput`` or its GAME RECORD dict. Locks the game row.
    ``key`` is the client's idempotency key for this entry: the same entry
    sent again is ``AlreadySaved`` (nothing saved twice), the key with other
    content a ``Conflict``. ``state`` is the digest of the hands the entry
    was built on (``scoring.digest``): other hands stored now are a
    ``Conflict``, as is a ``number`` that is not next (another scorer got
    there first). A hand the rules refuse is a ``ServiceError`` naming the
    field. Finishes the game when the ruleset says it is over. ``then`` is
    called inside the transaction with what the save holds (a ``HandSaved``:
    the locked game row, every hand, the record, its replay and the audit
    entry written), so a caller need not read them again. ``check`` is called with the hand as replayed before anything
    is written: what it raises refuses the save (a phone's price that is not
    the server's), so the hand is priced once. ``as_read``, the game as the
    caller read it before the lock, saves reading the hands again when the
    locked row says nothing was written since (``still_as_read``).
    ``savepoint=False``: inside a caller's transaction that lets any refusal
    roll the whole of it back (``save_entry``), no savepoint of its own (two
    statements less).
    """
    hand = parse_hand(hand)
    entry = entry_digest(SaveKey.Action.RECORD, number, hand)
    with transaction.atomic(savepoint=savepoint):
        # The version moved as the row is locked (a refusal below rolls it back with the rest).
        # PostgreSQL: the key claimed in the same statement, once the row is locked.
        game = lock_game_moving(game, claim=Claim(key, SaveKey.Action.RECORD, number, entry, by) if key else None)
        # The key kept at once (a refusal below rolls it back with the rest).
        claim_entry(game, key, SaveKey.Action.RECORD, number, entry, by, lambda _: _hand_still(game, number, hand))
        if as_read is not None and still_as_read(game, as_read, moved=True):
            rows, inputs = as_read.rows, list(as_read.record.hands)
            check_next(game, number, rows)
            check_state(rows, state, what=f"this entry for hand {number}", digest=as_read.state)
            record = dataclasses.replace(as_read.record, hands=(*inputs, hand))
        else:
            rows = hands_of(game)
            check_next(game, number, rows)
            check_state(rows, state, what=f"this entry for hand {number}")
            inputs = [h.to_input() for h in rows]
            try:
                record = game.record(hands=[*inputs, hand])
            except ScoringError as err:  # the stored rules or penalties, refused by the engine
                raise ServiceError.from_scoring(err) from None
        result = replay_game(record, [*inputs, hand], hand_index=number - 1)
        if check is not None:
            check(result.hands[number - 1])
        row = Hand(game=game, number=number, entered_by=user_of(by))
        row.result = hand_result(result.hands[number - 1])  # stored in step with the replay from the start
        # The hand as given, not read back from its new rows: the same input (the save's
        # key check compares the two the same way), without a query for its wins.
        after = state_of(hand, result.hands[number - 1])
        # PostgreSQL: the hand, its wins, the series' version, the audit entry and
        # the seats' statistics in one statement; elsewhere one by one, as before.
        change = save_new_hand(game, row, hand, result, by=by, after=after)
        kept = change is not None
        if change is None:
            save_hand(row, hand)
            change = audit(game, Action.RECORD_HAND, by, hand_number=number, after=after)
        sync_result(game, result, by, rows=[*rows, row], moved=True, stats_kept=kept)
        if then is not None:
            then(HandSaved(game=game, rows=[*rows, row], record=record, replayed=result, change=change))
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
            parsed.append(parse_hand(h))
        except ServiceError as err:
            raise ServiceError(err.code, err.message, field=f"hands[{first - 1 + i}].{err.field}" if err.field
                               else f"hands[{first - 1 + i}]") from None
    with transaction.atomic():
        game = lock_game(game)
        check_next(game, first)
        inputs = [h.to_input() for h in hands_of(game)]
        result = replay_game(game, [*inputs, *parsed])
        rows = store_hands(game, parsed, by, first=first)
        bump_version(game.series_id, rounds=[game.round_number])
        GameAudit.objects.bulk_create(
            new_game_audit(game, Action.RECORD_HAND, by, hand_number=row.number,
                         after=state_of(hand, result.hands[row.number - 1]))
            for row, hand in zip(rows, parsed, strict=True)
        )
        sync_result(game, result, by)
    return rows


def correct_hand(
    *, game: Game, number: int, hand: sg.HandInput | Mapping[str, Any], by: Actor = None,
    key: str | None = None, state: str | None = None, check: Callable[[sg.PlayedHand], None] | None = None,
    then: Callable[[GameAudit | None], None] | None = None,
) -> Hand:
    """Replace what was entered for hand ``number`` and replay the rest.

    Locks the game row. Refused, with nothing changed, if a later hand
    becomes impossible (say the game would now have ended before it). A
    finished game is resettled, or reopened if it no longer ends. ``key``
    and ``state`` as for :func:`record_hand`: a hand undone or changed by
    another scorer since (a stale correction) is a ``Conflict``; ``check`` as
    for :func:`record_hand`, with the corrected hand as replayed. ``then``
    is given, inside the transaction, the change history's entry the
    correction wrote, or None when the hand was already as entered (the
    same correction saved again: nothing to write in the history).
    """
    hand = parse_hand(hand)
    entry = entry_digest(SaveKey.Action.CORRECT, number, hand)
    with transaction.atomic():
        game = lock_game(game)
        known_entry(game, key, entry, lambda _: _hand_still(game, number, hand))
        rows = hands_of(game)
        index = next((i for i, r in enumerate(rows) if r.number == number), None)
        if index is None:
            raise Conflict("no_such_hand", f"this game has no hand {number} (was it undone?)", field="number")
        check_state(rows, state, what=f"this correction of hand {number}")
        inputs = [r.to_input() for r in rows]
        inputs[index] = hand
        result = replay_game(game, inputs, hand_index=index)
        if check is not None:
            check(result.hands[index])
        row = rows[index]
        before = row.as_dict()
        save_hand(row, hand)
        after = hand_state(row, result)
        keep_entry(game, key, SaveKey.Action.CORRECT, number, entry, by)
        change = None
        if before != after["hand"]:
            change = audit(game, Action.CORRECT_HAND, by, hand_number=number, before={"hand": before}, after=after)
        sync_result(game, result, by, rows=rows)
        if then is not None:
            then(change)
    return row


def undo_last_hand(
    *, game: Game, number: int | None = None, by: Actor = None, key: str | None = None, state: str | None = None
) -> int:
    """Delete the game's last hand; returns its number. Locks the game row.

    ``number`` is the hand the caller believes is last: another one (a
    scorer saved the next hand meanwhile) is a ``Conflict``, nothing deleted,
    as are other hands than ``state`` says. The same ``key`` again is
    ``AlreadySaved``: a double tap never undoes two hands. A game that was
    over is reopened, including one staff ended early: the early end was
    declared after the hand being removed.
    """
    entry = entry_digest(SaveKey.Action.UNDO, number)
    with transaction.atomic():
        game = lock_game(game)
        known_entry(game, key, entry, lambda _: True)
        rows = hands_of(game)
        if not rows:
            raise ServiceError("no_hands", "this game has no hand to undo", field="number")
        last = rows[-1]
        if number is not None and number != last.number:
            raise Conflict(
                "hand_conflict", f"hand {number} is no longer the last hand of this game ({last.number} is)",
                field="number",
            )
        check_state(rows, state, what=f"undoing hand {last.number}")
        before = last.as_dict()
        keep_entry(game, key, SaveKey.Action.UNDO, last.number, entry, by)
        if game.end:
            game.end = ""
            game.save(update_fields=["end"])
        result = replay_game(game, [r.to_input() for r in rows[:-1]])
        last.delete()
        audit(game, Action.UNDO_HAND, by, hand_number=last.number, before={"hand": before})
        sync_result(game, result, by)
    return last.number


def finish_game(*, game: Game, end: Game.End = Game.End.EARLY, by: Actor = None) -> Game:
    """End a game the ruleset has not ended: early (time) or by agari-yame.

    Locks the game row. Agari-yame is refused unless the ruleset lets the
    all-last dealer stop after the last hand.
    """
    with transaction.atomic():
        game = lock_game(game)
        check_open(game)
        game.end = Game.End(end)
        result = replay_game(game, [r.to_input() for r in hands_of(game)])
        game.save(update_fields=["end"])
        sync_result(game, result, by)
    return game


def preview_finish(*, game: Game, end: Game.End = Game.End.EARLY) -> sg.GameResult:
    """What :func:`finish_game` would settle, saving nothing (no lock: the
    finish checks again). Raises what the finish would."""
    game = Game.objects.get(pk=game.pk)
    check_open(game)
    game.end = Game.End(end)
    return replay_game(game, [r.to_input() for r in hands_of(game)])


def reopen_game(*, game: Game, by: Actor = None, key: str | None = None, state: str | None = None) -> Game:
    """Take back a staff end (early, or agari-yame): play goes on after the
    last hand, and no hand is removed. Its own audit entry, ``reopen_game``.

    Locks the game row. A game the ruleset itself ended cannot be reopened
    here: only correcting or undoing a hand changes that.
    """
    entry = entry_digest(SaveKey.Action.REOPEN, None)
    with transaction.atomic():
        game = lock_game(game)
        known_entry(game, key, entry, lambda _: not game.is_finished)
        check_state(hands_of(game), state, what="reopening the game")
        if not game.is_finished:
            raise ServiceError("not_finished", f"{game} is not finished", field="game")
        if not game.end:
            raise ServiceError(
                "ended_by_rules", "the ruleset ended this game after its last hand; correct or undo a hand instead",
                field="game",
            )
        game.end = ""
        result = replay_game(game, [r.to_input() for r in hands_of(game)])
        if result.finished:
            raise ServiceError("ended_by_rules", "without the staff end the ruleset still ends this game",
                               field="game")
        game.save(update_fields=["end"])
        keep_entry(game, key, SaveKey.Action.REOPEN, None, entry, by)
        sync_result(game, result, by, action=Action.REOPEN_GAME)
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
        game = lock_game(game)
        check_open(game)
        if game.hands.exists():
            raise ServiceError(
                "has_hands", "this game is kept hand by hand; finish it from its hands", field="final.scores"
            )
        if finished_at is not None and time_problem(finished_at):
            raise ServiceError("invalid_time", f"the finish {time_problem(finished_at)}", field="finished_at")
        game.final_scores, game.final_riichi_sticks = list(scores), riichi_sticks
        result = replay_game(game, [])
        game.save(update_fields=["final_scores", "final_riichi_sticks"])
        if finished_at is not None:
            game.finished_at = finished_at
        sync_result(game, result, by, action=Action.FINAL_SCORES)
    return game


def refresh_snapshots(*, game: Game, by: Actor = None) -> bool:
    """Replay ``game`` and rewrite its seats' result and statistics snapshots
    (a database from before the statistics were stored, or a rules fix).

    Locks the game row. Returns whether anything changed; a game whose
    results change is logged as resettled (or finished, or reopened). A game
    the engine now refuses raises ``ServiceError`` and keeps its snapshots.
    """
    with transaction.atomic():
        game = lock_game(game)
        before = _snapshots(game)
        result = replay_game(game, [r.to_input() for r in hands_of(game)])
        sync_result(game, result, by)
        changed = _snapshots(game) != before
        if changed:
            bump_version(game.series_id, rounds=[game.round_number])  # statistics alone write no audit entry
    return changed


def _snapshots(game: Game) -> list[tuple[Any, ...]]:
    fields = ("end_score", "place", "points", *SEAT_STAT_FIELDS)
    return [(game.status, game.finished_at), *game.seats.order_by("seat").values_list(*fields)]
