"""What every write to a game shares: the game row lock, the check that a hand
is the next one, the replay through ``scoring``, storing hands, and keeping the
seats' result and statistics snapshots in step with the replay.

The functions here run inside the caller's transaction; none opens one."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Model
from django.utils import timezone

from league.db_bounds import MAX_INTEGER, MAX_SEAT_POINTS
from league.entry import pricing
from league.entry.hand import check_hand_bounds  # noqa: F401  (services.check_hand_bounds)
from league.errors import AlreadySaved, Conflict, ServiceError
from league.models import Game, GameAudit, Hand, RoundTable, SaveKey, Seat, Series, Win
from league.services import webhooks
from league.services.audit import Actor, audit, audited, new_game_audit, user_of
from league.services.signoff import withdraw_signoffs
from league.statements import (
    Columns,
    Names,
    built,
    for_write,
    insert,
    insert_values,
    inserted,
    inserted_as,
    int_array,
    returns_rows_from_update,
    statement,
    writes_in_with,
)
from league.stats import SEAT_STAT_FIELDS, seat_hand_stats
from scoring import game as sg
from scoring.digest import canonical_hands, hands_digest
from scoring.errors import ScoringError
from scoring.settlement import MAX_SCORE

Action = GameAudit.Action

def lock_game(game: Game) -> Game:
    """The game row read again under its lock, as
    ``Game.objects.select_for_update().get(pk=...)`` gives it, by a statement
    built once (every save locks; the ORM's building cost several times the
    run). On SQLite the transaction's IMMEDIATE mode is the lock."""
    # The row lock is what serialises two scorers on one game: the second
    # waits here until the first commits, then sees its hand and conflicts.
    db = for_write(Game)
    found = list(Game.objects.raw(_lock_sql(db), [game.pk], using=db.alias))
    if not found:
        raise Game.DoesNotExist("Game matching query does not exist.")
    return found[0]


@statement
def _lock_sql(n: Names) -> str:
    lock = " FOR UPDATE" if n.db.features.has_select_for_update else ""
    return f"SELECT {n.row(Game)} FROM {n.table(Game)} WHERE {n.col(Game, 'pk')} = %s{lock}"


@dataclass(frozen=True)
class Claim:
    """An entry's key to keep with the game's lock (``lock_game_moving``): as
    ``claim_entry`` takes it."""

    key: str
    action: str
    number: int | None
    entry: str
    by: Actor


def lock_game_moving(game: Game, *, claim: Claim | None = None) -> Game:
    """``lock_game`` for a write of the game's hands, which moves its
    ``inputs_version`` (``sync_result(moved=True)`` then leaves it): the
    update that moves it takes the row's lock and returns the row, one
    statement. The row's version is the moved one; a refusal after it rolls
    the move back with the rest. Where the database returns no rows from an
    update, the lock and the move are two statements, as before.

    The row comes with ``in_round``: whether the game is a table of an
    event's round (the question the event clock asks after each new hand,
    ``apply_time_policy(in_round=...)``), read in the same statement.

    ``claim``: where the database runs data-modifying statements in ``WITH``
    (PostgreSQL), the key is stored in the same statement, once the row is
    locked, unless the game has it already; the row's ``claimed`` says
    whether it was (None: not tried; ``claim_entry`` then claims it)."""
    db = for_write(Game)
    if not returns_rows_from_update(db):
        game = lock_game(game)
        _move_version(game)
        game.in_round = game.claimed = None  # not read: the clock asks, the key is claimed after
        return game
    claiming = claim is not None and writes_in_with(db) and for_write(SaveKey) is db
    if claim is not None and claiming:
        user = user_of(claim.by)
        sql, params = _move_claiming_sql(db), [
            game.pk, claim.key, claim.action, claim.number, claim.entry, user.pk if user is not None else None,
            db.ops.adapt_datetimefield_value(timezone.now())]
    else:
        sql, params = _move_sql(db)[1], [game.pk]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    if found is None:
        raise Game.DoesNotExist("Game matching query does not exist.")
    # The row as ``Game.objects.raw`` builds it (the ORM's converters), with
    # the statement's further columns; without the raw query's mapping of
    # columns by name, which cost as much as the rest of the lock.
    columns = built(db, "lock_game_moving", lambda db: Columns(db, Game, db.ops.quote_name(Game._meta.db_table)))
    locked = columns.build(db, found[:columns.width])
    locked.in_round = found[columns.width]
    locked.claimed = found[columns.width + 1] if claiming else None
    return locked


@statement
def _move_claiming_sql(n: Names) -> str:
    """The move returning the row (``_move_sql``) and the key's claim
    (``SaveKey.claim``) as one statement; parameters: the game, then the
    key's game-less columns as ``SaveKey.claim`` takes them.

    The key's insert selects from the update's ``RETURNING``, so it runs
    once the update has the row and its lock, as the claim after the lock
    did: the sub-statements of a ``WITH`` otherwise run in no set order, and
    a key inserted before the lock could wait on another save that holds
    the lock and inserts the same key (a deadlock). ``ON CONFLICT DO
    NOTHING`` sees a key another save committed while this one waited for
    the lock, though the statement's snapshot is older (PostgreSQL's
    ``READ COMMITTED``); such a key is then read by a statement of its own
    (``SaveKey.find``), as the claim's refusal always read it."""
    returning = _move_sql(n.db)[1]
    key_cols = n.cols(SaveKey, "game", "key", "action", "hand_number", "entry", "user", "at")
    claim = (f"k AS (INSERT INTO {n.table(SaveKey)} ({', '.join(key_cols)}) "
             f"SELECT g.{n.col(Game, 'pk')}, {', '.join(['%s'] * (len(key_cols) - 1))} FROM g "
             f"ON CONFLICT ({key_cols[0]}, {key_cols[1]}) DO NOTHING RETURNING {n.col(SaveKey, 'pk')})")
    return (f"WITH g AS ({returning}), {claim} "
            f"SELECT g.*, EXISTS (SELECT 1 FROM k) AS {n.q('claimed')} FROM g")


def _move_version(game: Game) -> None:
    db = for_write(Game)
    with db.cursor() as cursor:
        cursor.execute(_move_sql(db)[0], [game.pk])
    game.inputs_version += 1


@statement
def _move_sql(n: Names) -> tuple[str, str]:
    """The version's move, and the move returning the row (parameter: the game)."""
    version, pk, table = n.col(Game, "inputs_version"), n.col(Game, "pk"), n.table(Game)
    move = f"UPDATE {table} SET {version} = {version} + 1 WHERE {pk} = %s"
    in_round = (f"EXISTS (SELECT 1 FROM {n.table(RoundTable)} WHERE {n.col(RoundTable, 'game')} = {table}.{pk}) "
                f"AS {n.q('in_round')}")
    return move, f"{move} RETURNING {n.row(Game)}, {in_round}"


@dataclass(frozen=True)
class AsRead:
    """A game as a request read it before it locked the row: the inputs'
    version it was read at, the row's columns the record is built from, the
    hands (rows, with their wins), the record and its state digest."""

    version: int
    columns: tuple[Any, ...]
    rows: list[Hand]
    record: sg.GameRecord
    state: str


def record_columns(game: Game) -> tuple[Any, ...]:
    """The game row's columns a record is built from, besides its hands and penalties."""
    return (game.rules, game.end, game.final_scores, game.final_riichi_sticks)


def still_as_read(game: Game, as_read: AsRead, *, moved: bool = False) -> bool:
    """Is the locked ``game`` as ``as_read`` read it? Every write of hands or
    penalties moves ``inputs_version`` (``sync_result``), under this lock."""
    # ``moved``: the row was locked by moving its version (``lock_game_moving``).
    return game.inputs_version - moved == as_read.version and record_columns(game) == as_read.columns


def check_next(game: Game, number: int, rows: Sequence[Hand] | None = None) -> None:
    """Refuse a hand for a finished game, or one whose number is not next
    (after ``rows``, the game's hands in order, when the caller holds them)."""
    check_open(game)
    expected = (rows[-1].number + 1 if rows else 1) if rows is not None else game.next_hand_number()
    if number != expected:
        raise not_next(number, expected)


def not_next(number: int, expected: int) -> Conflict:
    return refusal(pricing.not_next(number, expected))  # type: ignore[return-value]


def refusal(err: pricing.Refused) -> ServiceError:
    """The pricer's refusal as the services raise it."""
    return (Conflict if err.conflict else ServiceError)(err.code, err.message, field=err.field, detail=err.detail)


def state_digest(rows: Sequence[Hand]) -> str:
    """The digest of the stored hands (``scoring.digest``): the state an entry is built on."""
    return hands_digest([r.to_input() for r in rows])


def entry_digest(action: str, number: int | None, hand: sg.HandInput | None = None) -> str:
    """What one entry asked for, as a digest (64 hex): a resubmission gives the same one."""
    text = f"{action}:{number or ''}:" + canonical_hands([hand] if hand is not None else [])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_state(rows: Sequence[Hand], state: str | None, *, what: str, digest: str | None = None) -> None:
    """Refuse an entry built on hands other than the stored ones (``state`` None:
    not checked); ``digest``, the rows' digest when the caller holds it."""
    if state is not None and state != (digest if digest is not None else state_digest(rows)):
        raise Conflict(
            "stale_entry",
            f"{what} was made while the game stood differently: another scorer changed it since",
            field="state",
        )


def known_entry(game: Game, key: str | None, entry: str, still_saved: Callable[[SaveKey], bool]) -> None:
    """The entry ``key`` names, if it was saved before.

    The same key with the same content, still in force (``still_saved``), is
    ``AlreadySaved``; with other content, or since undone, a ``Conflict``:
    either way nothing is saved twice.
    """
    if not key:
        return None
    refuse_known(SaveKey.find(game.pk, key), entry, still_saved)


def claim_entry(game: Game, key: str | None, action: str, number: int | None, entry: str, by: Actor,
                still_saved: Callable[[SaveKey], bool]) -> None:
    """``known_entry`` and ``keep_entry`` in one statement: the key stored
    now if it is new, else refused as ``known_entry`` refuses it. The key
    is kept before the save's other checks, so only a caller whose every
    refusal rolls the key back with the rest may claim (``record_hand``).
    ``game`` locked by ``lock_game_moving`` with the claim: a key it
    stored then (``claimed``) is not claimed again; one it found there (the
    rare resubmission) is claimed here, which finds it and refuses."""
    if not key or getattr(game, "claimed", None):
        return
    user = user_of(by)
    refuse_known(SaveKey.claim(game_id=game.pk, key=key, action=action, hand_number=number, entry=entry,
                               user_id=user.pk if user is not None else None), entry, still_saved)


def refuse_known(found: SaveKey | None, entry: str, still_saved: Callable[[SaveKey], bool]) -> None:
    """What an entry whose key was ``found`` stored before gets (nothing
    when it was not): ``AlreadySaved``, or a ``Conflict``."""
    if found is None:
        return None
    if found.entry == entry and still_saved(found):
        what = f"hand {found.hand_number}" if found.hand_number else "this change"
        raise AlreadySaved(f"{what} was already saved from this very entry; nothing was saved twice",
                           number=found.hand_number)
    raise Conflict("key_reused", "this entry was sent before with other content, or its change was undone since",
                   field="key")


def keep_entry(game: Game, key: str | None, action: str, number: int | None, entry: str, by: Actor) -> None:
    if key:
        user = user_of(by)
        SaveKey.keep(game_id=game.pk, key=key, action=action, hand_number=number, entry=entry,
                     user_id=user.pk if user is not None else None)


def check_open(game: Game) -> None:
    if game.is_finished:
        raise refusal(pricing.finished(str(game)))


def hands_of(game: Game) -> list[Hand]:
    return list(game.hands.order_by("number").prefetch_related("wins"))


def parse_hand(hand: sg.HandInput | Mapping[str, Any]) -> sg.HandInput:
    if isinstance(hand, sg.HandInput):
        return hand
    try:
        return sg.hand_from_dict(hand)
    except ScoringError as err:
        raise ServiceError.from_scoring(err) from None


def replay_game(game: Game | sg.GameRecord, inputs: list[sg.HandInput], *,
                hand_index: int | None = None) -> sg.GameResult:
    """The game replayed with ``inputs`` as its hands; every write replays
    here before it stores anything, so the hands are held to the bounds here.
    Given the game's record already read (``services.entry.read_game``), no query."""
    try:
        record = game if isinstance(game, sg.GameRecord) else game.record(hands=inputs)
        return pricing.replay_with(record, inputs, hand_index=hand_index)
    except ScoringError as err:  # the stored rules or penalties, refused by the engine
        raise ServiceError.from_scoring(err, hand_index=hand_index) from None
    except pricing.Refused as err:
        raise refusal(err) from None


def check_result_bounds(result: sg.GameResult) -> None:
    """Refuse a settlement the seats cannot store (``league.db_bounds``)."""
    s = result.settlement
    if s is None:
        return
    for i, (score, value) in enumerate(zip(s.final_scores, s.points, strict=True)):
        # Only a ruleset of enormous uma, oka or start points gets past these.
        if abs(score) > MAX_SCORE:
            raise ServiceError("out_of_range", f"seat {i} would end with {score:,}; an end score is within "
                               f"{MAX_SCORE:,}", field="game")
        if abs(value) > MAX_SEAT_POINTS:
            raise ServiceError("out_of_range", f"seat {i} would end with {value / 1000:+,.1f} points; "
                               f"a seat's points are within {MAX_SEAT_POINTS // 1000:,}", field="game")


def save_hand(row: Hand, hand: sg.HandInput) -> None:
    wins = row.set_input(hand)
    if row.pk is None:
        insert([row])  # as save() inserts it, by a statement built once
    else:
        row.save()
        row.wins.all().delete()
    for w in wins:
        w.hand = row
    insert(wins)


def save_new_hand(game: Game, row: Hand, hand: sg.HandInput, result: sg.GameResult, *, by: Actor,
                  after: dict[str, Any]) -> GameAudit | None:
    """A new hand's writes as one statement where the database takes
    data-modifying statements in ``WITH`` (``writes_in_with``: PostgreSQL):
    the hand (``row``, its ``result`` set, with ``hand`` copied onto it), its
    wins, the series' version, its audit entry (``record_hand`` by ``by``,
    ``after``; returned) and the seats' statistics from ``result``; four
    round trips fewer than ``save_hand``, ``audit`` and ``sync_result`` send
    them. Each row comes back as the ORM leaves one it inserted (keys set),
    and the series' version moves as ``audit`` moves it. None, and nothing
    sent, elsewhere (SQLite): the caller writes them one by one.

    Inside the caller's transaction, after the game row's lock
    (``lock_game_moving``); every value is decided before anything is sent,
    so a refusal (statistics out of range) sends none of the writes."""
    db = for_write(Hand)
    if not writes_in_with(db) or any(for_write(m) is not db for m in (Win, Series, GameAudit, Seat)):
        return None
    stats = _stat_rows(game, result)
    change = new_game_audit(game, Action.RECORD_HAND, by, hand_number=row.number, after=after)
    wins = row.set_input(hand)
    for w in wins:
        w.hand = row
    params = insert_values(row, inserted(Hand), db)
    # The wins and the seats as a column of values each (an array, in its
    # text form): one statement whatever their number, within psycopg's cache
    # of parsed statements (at most 50 parameters), which a row of parameters
    # per win and per seat outgrew (the statement parsed again on every save).
    win_fields = _win_fields()
    # A win's columns are whole numbers, none with a value of its own at an insert (``pre_save``).
    params += [int_array([getattr(w, f.attname) for w in wins]) for f in win_fields]
    params.append(game.series_id)
    params += insert_values(change, inserted(GameAudit), db)
    # ``_stat_rows``' rows: the fields' values, then game and seat.
    params.append(int_array([seat[-1] for seat in stats]))
    params += [int_array([seat[i] for seat in stats]) for i in range(len(SEAT_STAT_FIELDS))]
    params.append(game.pk)
    with db.cursor() as cursor:
        cursor.execute(_new_hand_sql(db), params)
        back = cursor.fetchall()
    keys = {(kind, order): key for kind, key, order in back}
    inserted_as(row, keys["h", None], db)
    inserted_as(change, keys["a", None], db)
    for w in wins:
        inserted_as(w, keys["w", w.order], db)
    audited(game, Action.RECORD_HAND, moved=True)
    return change


def _win_fields() -> list[Any]:
    """A win's inserted columns but its hand (the hand's new key, read in the statement)."""
    return [f for f in inserted(Win) if f.name != "hand"]


@statement
def _new_hand_sql(n: Names) -> str:
    """``save_new_hand``'s statement. Its parameters: the hand's inserted
    columns; an array per win column but the hand (a win an element); the
    series; the audit entry's columns; an array of seats and one per
    statistic (a seat an element); the game. It returns (kind, key, win
    order) for the hand ("h"), the audit entry ("a") and each win ("w").

    The sub-statements of a ``WITH`` run on one snapshot, in no set order,
    and each sees none of the others' writes but what ``RETURNING`` hands on
    (PostgreSQL's manual, "Data-Modifying Statements in WITH"). That is safe
    here: none reads a row another writes; the wins take the hand's key from
    ``h``'s ``RETURNING``, and their foreign key on it is checked at the
    commit (Django's constraints are deferred). The rows they update are
    locked as before: the game's row by the statement before
    (``lock_game_moving``), so every other writer of this game's hands and
    seats waits on it first, and the series' row after the game's, as every
    other path takes them; an ``UPDATE`` that waits for a row's lock takes
    the row as committed, so the version still moves by one per change."""
    db = n.db

    def array(model: type[Model], field: str) -> str:
        return f"%s::{model._meta.get_field(field).db_type(db)}[]"

    hand_fields, audit_fields = inserted(Hand), inserted(GameAudit)
    hand_pk, win_pk, audit_pk = n.col(Hand, "pk"), n.col(Win, "pk"), n.col(GameAudit, "pk")
    hand = (f"h AS (INSERT INTO {n.table(Hand)} ({', '.join(n.q(f.column) for f in hand_fields)}) "
            f"VALUES ({', '.join(['%s'] * len(hand_fields))}) RETURNING {hand_pk})")
    win_fields = _win_fields()
    win_cols = ", ".join([n.col(Win, "hand"), *(n.q(f.column) for f in win_fields)])
    names = [f"c{i}" for i in range(len(win_fields))]
    wins = (f"w AS (INSERT INTO {n.table(Win)} ({win_cols}) SELECT h.{hand_pk}, {', '.join(f'v.{c}' for c in names)} "
            f"FROM h, unnest({', '.join(array(Win, f.name) for f in win_fields)}) AS v({', '.join(names)}) "
            f"RETURNING {win_pk}, {n.col(Win, 'order')})")
    version = n.col(Series, "version")
    series = f"s AS (UPDATE {n.table(Series)} SET {version} = {version} + 1 WHERE {n.col(Series, 'pk')} = %s)"
    audit_entry = (f"a AS (INSERT INTO {n.table(GameAudit)} ({', '.join(n.q(f.column) for f in audit_fields)}) "
                   f"VALUES ({', '.join(['%s'] * len(audit_fields))}) RETURNING {audit_pk})")
    seat = n.table(Seat)
    stats = ["seat", *SEAT_STAT_FIELDS]
    names = [f"c{i}" for i in range(len(stats))]
    sets = ", ".join(f"{n.col(Seat, f)} = v.{c}" for f, c in zip(stats[1:], names[1:], strict=True))
    seats = (f"st AS (UPDATE {seat} SET {sets} "
             f"FROM unnest({', '.join(array(Seat, f) for f in stats)}) AS v({', '.join(names)}) "
             f"WHERE {seat}.{n.col(Seat, 'game')} = %s AND {seat}.{n.col(Seat, 'seat')} = v.c0)")
    return (f"WITH {hand}, {wins}, {series}, {audit_entry}, {seats} "
            # The wins first: a union's column takes the first branch's type (NULL has none).
            f"SELECT 'w', {win_pk}, {n.col(Win, 'order')} FROM w UNION ALL SELECT 'h', {hand_pk}, NULL FROM h "
            f"UNION ALL SELECT 'a', {audit_pk}, NULL FROM a")


def hand_state(row: Hand, result: sg.GameResult) -> dict[str, Any]:
    return state_of(row.to_input(), result.hands[row.number - 1])


def state_of(hand: sg.HandInput, played: sg.PlayedHand) -> dict[str, Any]:
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


def _stat_rows(game: Game, result: sg.GameResult) -> list[list[int]]:
    """The seats' hand statistics as the replay has them, a row per seat (the
    fields' values, then game and seat); refused before any write if a count
    outgrows its column."""
    rows = []
    for seat in range(len(result.scores)):
        st = seat_hand_stats(result, seat)
        values = [getattr(st, f) for f in SEAT_STAT_FIELDS]
        if max(values) > MAX_INTEGER:
            raise ServiceError("out_of_range", "this game has more hands than its statistics can count", field="game")
        rows.append([*values, game.pk, seat])
    return rows


def _sync_stats(game: Game, result: sg.GameResult) -> None:
    """Make the seats' hand statistics match the replay: one statement for
    every seat, nothing read first. A new hand moves every seat's count of
    hands, so reading the seats to skip the unmoved ones would save no write."""
    rows = _stat_rows(game, result)
    db = for_write(Seat)
    if db.vendor == "sqlite" and db.Database.sqlite_version_info < (3, 33):
        _update_seats_by_number(rows, SEAT_STAT_FIELDS)  # no UPDATE ... FROM before SQLite 3.33
        return
    with db.cursor() as cursor:
        cursor.execute(_seat_stats_sql(db, len(rows)), [v for row in rows for v in row])


@statement
def _seat_stats_sql(n: Names, seats: int) -> str:
    """Every seat's statistics in one ``UPDATE ... FROM (VALUES ...)``, a row
    of values per seat (the fields', then game and seat): one statement
    where ``executemany`` ran one per seat (a round trip each on PostgreSQL).
    A ``VALUES`` list names its columns column1, column2... on both
    databases."""
    fields = [*SEAT_STAT_FIELDS, "game", "seat"]
    sets = ", ".join(f"{n.col(Seat, f)} = v.column{i}" for i, f in enumerate(SEAT_STAT_FIELDS, start=1))
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    table = n.table(Seat)
    game, seat = len(fields) - 1, len(fields)
    return (f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([one] * seats)}) AS v "
            f"WHERE {table}.{n.col(Seat, 'game')} = v.column{game} AND {table}.{n.col(Seat, 'seat')} = v.column{seat}")


def _update_seats_by_number(rows: Sequence[Sequence[Any]], fields: Sequence[str]) -> None:
    """One UPDATE per seat, ``rows`` of the fields' values then game and seat,
    sent as one ``executemany``: the save's hottest write. Not the ORM's
    ``update``, whose query building cost more than the writes themselves
    (four of them per hand), nor ``bulk_update``, whose CASE WHEN per field and
    seat costs more still (tests/benchmarks/bench_entry.py)."""
    db = for_write(Seat)
    opts, qn = Seat._meta, db.ops.quote_name
    sets = ", ".join(f"{qn(opts.get_field(f).column)} = %s" for f in fields)
    sql = (f"UPDATE {qn(opts.db_table)} SET {sets} "
           f"WHERE {qn(opts.get_field('game').column)} = %s AND {qn(opts.get_field('seat').column)} = %s")
    with db.cursor() as cursor:
        cursor.executemany(sql, rows)


def _update_seats(seats: Sequence[Seat], fields: Sequence[str]) -> None:
    _update_seats_by_number([[*(getattr(s, f) for f in fields), s.game_id, s.seat] for s in seats], fields)


def hand_result(played: sg.PlayedHand) -> dict[str, Any]:
    """What ``Hand.result`` keeps of a replayed hand."""
    return {"round": played.round_label, "dealer": played.dealer, "honba": played.honba,
            "sticks": played.riichi_sticks, "deltas": list(played.deltas), "scores": list(played.scores)}


def _sync_hand_results(game: Game, result: sg.GameResult, rows: Sequence[Hand] | None = None) -> None:
    """Make every hand's stored result match the replay: one UPDATE of the
    hands that moved (the new one; after a correction, the ones after it).
    ``rows``, every hand of the game as the caller holds them under the lock,
    saves reading them again."""
    changed = []
    # Not game.hands.only(...): the related manager sets each row's game, which
    # loads the deferred game_id with one query per hand.
    if rows is None:
        rows = Hand.objects.filter(game_id=game.pk).only("pk", "number", "result")
    for row in rows:
        want = hand_result(result.hands[row.number - 1])
        if row.result != want:
            row.result = want
            changed.append(row)
    if changed:
        Hand.objects.bulk_update(changed, ["result"])


def sync_result(game: Game, result: sg.GameResult, by: Actor, *, action: GameAudit.Action | None = None,
                rows: Sequence[Hand] | None = None, moved: bool = False, stats_kept: bool = False) -> None:
    """Make the seats' statistics, the status and the seats' result snapshot
    match the replay, and log the change of results (finish, reopen or
    resettle) if there is one; a change of results withdraws the table's
    sign-offs (``league.services.signoff``). ``moved``: the game was locked
    by ``lock_game_moving``, which moved its inputs' version already;
    ``stats_kept``: the seats' statistics were written already
    (``save_new_hand``)."""
    # Every write of hands or penalties comes here: the inputs' version moves
    # with it, so a save's earlier read of the game is known to be out of date.
    if not moved:
        _move_version(game)
    if not stats_kept:
        _sync_stats(game, result)  # games in progress have statistics too
    _sync_hand_results(game, result, rows)
    if not result.finished and not game.is_finished:
        return  # still being played: no result to write or clear
    before = _results(game)
    if result.finished:
        s = result.settlement
        assert s is not None
        check_result_bounds(result)
        seats = list(game.seats.order_by("seat"))
        for seat in seats:
            seat.end_score = s.final_scores[seat.seat]
            seat.place = s.places[seat.seat]
            seat.points = s.points[seat.seat]
        _update_seats(seats, ["end_score", "place", "points"])
        game.status = Game.Status.FINISHED
        game.finished_at = game.finished_at or timezone.now()
    else:
        game.seats.update(end_score=None, place=None, points=None)
        game.status, game.finished_at = Game.Status.IN_PROGRESS, None
    game.save(update_fields=["status", "finished_at"])
    after = _results(game)
    if before == after:
        return
    if before is not None:
        # What the table signed is no longer the result: their sign-offs go.
        withdraw_signoffs(game, by)
    if action is None:
        action = Action.FINISH if before is None else Action.REOPEN if after is None else Action.RESETTLE
    if after is not None:
        after["ended_by"] = str(result.ended_by)
    audit(game, action, by, before=before, after=after)
    if before is None and after is not None:  # the first finish; a resettle moves the standings instead
        webhooks.game_finished(game)




def store_hands(game: Game, inputs: Sequence[sg.HandInput], by: Actor, *, first: int = 1) -> list[Hand]:
    # One insert for the hands and one for the wins: a batch is written whole,
    # after the replay has accepted every hand.
    rows, wins = [], []
    for number, hand in enumerate(inputs, start=first):
        row = Hand(game=game, number=number, entered_by=user_of(by))
        wins.append(row.set_input(hand))
        rows.append(row)
    Hand.objects.bulk_create(rows)
    for row, row_wins in zip(rows, wins, strict=True):
        for w in row_wins:
            w.hand = row
    Win.objects.bulk_create(w for row_wins in wins for w in row_wins)
    return rows
