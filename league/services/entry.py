"""The hand-entry protocol of the staff game page: what an entry claims,
whether it is stale, what its save is tied to, and the save itself.

A request reads the game once (``read_game``: a ``GameNow``) for the form, the
preview and the save. ``save_entry`` is one transaction: it locks the game row,
records or corrects the hand and applies the clock's ending policy. An entry
built on another ``state`` or hand ``number`` is stale (the conflict page, never
a save); a save is tied by ``digest`` to the preview the scorer saw.
docs/entry.md, "The protocol".
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction

from league.bounded_map import BoundedMap
from league.db_bounds import int_param
from league.engine_words import unreplayable_text
from league.entry.digest import BadSeen, hand_digest, read_seen
from league.entry.pricing import Refused, Unreplayable, price_hand, replay_stored, state_before
from league.errors import BadInput, PriceDiffers, ServiceError, StoredHandRefused
from league.memos import per_language
from league.models import Game, GameAudit, Hand
from league.models.games import WIND_NAMES, columns_digest
from league.services.audit import Actor
from league.services.event.rounds import apply_time_policy
from league.services.games import HandSaved, correct_hand, record_hand
from league.services.previews import HandPreview
from league.services.replay import AsRead, hands_of, record_columns, refusal, still_as_read
from scoring import game as sg
from scoring.digest import hands_digest
from scoring.errors import ScoringError


@dataclass(frozen=True)
class GameNow:
    """The game as stored when the request read it: its hands (rows with
    their wins, and as ``scoring`` inputs), the seats' names, one replay, and
    the state an entry built on it carries."""

    game: Game
    rows: list[Hand]
    inputs: list[sg.HandInput]
    names: list[str]
    players: list[str]  # the players' names by seat, as kept (``names`` add the winds)
    record: sg.GameRecord  # the stored columns and penalties, as ``scoring`` reads them
    replayed: sg.GameResult
    state: str
    version: int = -1  # the game's ``inputs_version`` the hands were read at; -1: unknown
    # A stored hand the engine now refuses: ``replayed`` stops before it, ``rows`` go on.
    unreplayable: Unreplayable | None = None

    @property
    def next_number(self) -> int:
        return len(self.rows) + 1

    @property
    def refused(self) -> StoredHandRefused | None:
        """The refusal of the stored hand the engine now refuses, if one is."""
        bad = self.unreplayable
        return None if bad is None else StoredHandRefused(bad.number, bad.code, bad.message, bad.detail)

    def table_state(self, number: int) -> sg.TableState:
        """Where the game stood before hand ``number`` (what the hand form reads
        for the tile analysis' winds); past the end, before the last hand."""
        return state_before(self.replayed, number)


# How long a game's read state is kept; any change to what it holds makes it
# stale first (``_read_key``, ``is_current``), so this only bounds what an idle
# game holds.
READ_SECONDS = 600
# The kept read's form: its parts (``_read``'s tuple) and their order. The
# shared cache outlives a deploy, so a change of the parts names a new form
# here, and the new code never unpacks an entry the old code kept (it reads
# the game again); an entry of another length is read again whatever its key.
# "r9": the key names the series' lineup version where it named its stamp.
READ_FORM = "r9"
READ_PARTS = 8


def read_game(game: Game, *, fresh: bool = False) -> GameNow:
    """The game read once: three queries (hands, their wins, penalties) and the
    seats' names; one replay. Takes no lock: what a save decides is checked
    again under the lock.

    What was read is kept in the cache under the series' lineup version
    (read with the game's row: no query to know it), which every committed
    change to the seats' names moves, and under the game row's own columns
    that feed the record (``_read_key``), as of the row's ``inputs_version``,
    which every write of its hands moves (``is_current``): the live previews
    of one hand, and a page shown again, read and replay nothing, whatever
    the other tables of the series save meanwhile. ``fresh`` reads the
    database whatever the cache holds (the conflict page, which must show
    the game as stored). ``game`` is the row as this request read it, with
    its series (``league.access.game_for_scorer``), or brought in step by
    the request's own save (``_in_step``): a read is judged by it."""
    key = _read_key(game)
    parts = None if fresh else cache.get(key)
    if parts is None or len(parts) != READ_PARTS or not is_current(parts[-1], game):
        parts = _read(game)
        cache.set(key, parts, READ_SECONDS)
    return _now(game, parts)


def is_current(version: int, game: Game) -> bool:
    """May a read made at ``version`` (``GameNow.version``: the game's
    ``inputs_version`` read with the row, before the hands) stand for the row
    ``game``? Only if no write the row has seen came after it: an older read
    is read again. The one rule of every kept read (``read_game``'s cache,
    ``read_game_held``'s process).

    The key a read is kept under (``_read_key``) does not move with a write
    of the game's hands at all: this rule is what makes such a write seen.
    Two saves of one game may keep their reads in either order (the second
    commits between the first's commit and its ``_keep_saved``): the older
    read, kept last, is read again by the next request. A read newer than
    the row (the row was read before another save) stands: its hands are at
    least the row's, and a save checks again under the lock
    (``still_as_read``)."""
    return version >= game.inputs_version


# The live previews' reads held in this process as read (the cache would
# unpickle them on every tap): under the cache's own key (the series' lineup
# version and the row's record columns) and by the same rule (``is_current``),
# so a change made in another worker is seen as the cache sees it.
HELD_READS = 64
_HELD: BoundedMap[str, tuple[Any, ...]] = BoundedMap(HELD_READS)


def read_game_held(game: Game) -> GameNow:
    """``read_game`` for the live preview, the page of the next hand and the
    save, which change nothing they are given: the parts of the read are
    shared by the requests of this process that find the same key, never
    copied. A save builds new lists; what it may change in place (a stored
    ``Hand.result`` out of step with the replay, set in step as it saves) is
    the committed value, and a save that fails lets go of the read it held
    (``save_entry``)."""
    key = _read_key(game)
    parts = _HELD.get(key)
    if parts is None or not is_current(parts[-1], game):
        now = read_game(game)
        _hold(key, (now.rows, now.inputs, now.players, now.record, now.replayed, now.state, now.unreplayable,
                    now.version))
        return now
    return _now(game, parts)


def _now(game: Game, parts: tuple[Any, ...]) -> GameNow:
    """The game as read from the parts a read keeps (``_read``'s tuple), each
    seat named with its wind in the reader's language (the players' names
    are kept, not the labels)."""
    rows, inputs, players, record, replayed, state, unreplayable, version = parts
    names = [f"{wind} {name}" for wind, name in zip(_winds(), players, strict=False)]
    return GameNow(game, rows, inputs, names, players, record, replayed, state, version, unreplayable)


@per_language
def _winds() -> tuple[str, ...]:
    """The winds in the active language, looked up once per language: four
    catalogue lookups per request otherwise, for every read of a game."""
    return tuple(str(w) for w in WIND_NAMES)


def _hold(key: str, parts: tuple[Any, ...]) -> None:
    _HELD[key] = parts  # bounded: past it, the next previews read from the cache again


def _read_key(game: Game, lineup: int | None = None) -> str:
    """The key a read of ``game`` is kept under: the game (its key and its
    start, to the microsecond: a key that comes back on SQLite after a delete
    is another game), its series' lineup version (``lineup``, else the one
    read with the row's series) and the row's columns the record is built
    from, so that an edit that bypasses the services (the admin's raw change
    of rules) still misses.

    What a read holds comes from the game's row, its hands and penalties
    (whose writes move ``inputs_version``: ``is_current``) and its seats'
    names (whose changes move the lineup's version, with every change but a
    hand of a game in play). So another table's hand, which moves the
    series' version and stamp, leaves this game's read kept: at an event
    every table saves into one series. The lineup's version comes with the
    game's row (``league.access.game_for_scorer`` reads the series with it),
    so no cache is asked for a stamp on each request."""
    if lineup is None:
        lineup = game.series.lineup_version
    return f"entry-read:{READ_FORM}:{game.pk}:{game.started_at.isoformat()}:{lineup}:{row_digest(game)}"


def row_digest(game: Game) -> str:
    """A short digest of the game row's columns the record is built from
    (rules, end, final scores and sticks, status), in one canonical form for
    every read of the row (``columns_digest``): a request's (``read_game``)
    and the save's locked row (``_keep_saved``) give the same for the same
    stored row."""
    return columns_digest((*record_columns(game), game.status))


def _read(game: Game) -> tuple[Any, ...]:
    # The row was read before its hands: a write between the two leaves the
    # version older than the hands, which a save then reads again (never the
    # reverse, which could pass off old hands as new).
    version = game.inputs_version
    rows = hands_of(game)
    inputs = [r.to_input() for r in rows]
    _as_kept(rows)
    record = game.record(hands=inputs)
    try:
        # A stored hand the engine now refuses is read as far as the hand before
        # it, and named: the pages show it and offer its correction or undo.
        replayed, unreplayable = replay_stored(record)
    except ScoringError as err:  # the game's own columns, no hand to name
        raise ServiceError.from_scoring(err) from None
    return rows, inputs, _players(game), record, replayed, hands_digest(inputs), unreplayable, version


def _players(game: Game) -> list[str]:
    """The names of the game's players, East first."""
    return [s.player.name for s in sorted(game.seats.select_related("player"), key=lambda s: s.seat)]


def _as_kept(rows: list[Hand]) -> list[Hand]:
    """The rows as a read keeps them: without their prefetched wins, whose
    pickled query weighed more than the rows themselves, nor the related rows
    they hold (the game, the scorer), pickled again with each (each save
    keeps a read and the next request loads it). The inputs hold every win;
    the one reader of a row's wins, a correction's form, reads its hand's
    again; nothing reads a kept row's game or scorer."""
    for row in rows:
        row.__dict__.pop("_prefetched_objects_cache", None)
        row._state.fields_cache = {}
    return rows


def phone_state(now: GameNow) -> dict[str, Any]:
    """The game as the phone's engine reads it (offline.json, OFFLINE_CONTRACT.md):
    its GAME RECORD, the seats' names, the next hand's number and the state;
    and the stored hand the engine now refuses, as the staff page says it
    (``refused``: its number, the engine's code and detail, the reader's
    words, whether undo is a way out), or None."""
    game = now.game
    return {"game": game.pk, "title": str(game), "names": now.names, "record": sg.record_to_dict(now.record),
            "number": now.next_number, "state": now.state, "finished": game.is_finished,
            "refused": refused_hand(now)}


def refused_hand(now: GameNow) -> dict[str, Any] | None:
    """The stored hand the engine now refuses, as the staff game page and
    offline.json say it: its number, the engine's code and detail, the
    sentence in the reader's language, and whether undoing it is a way out
    (it is the last hand; an earlier one is corrected). None if none is."""
    bad = now.unreplayable
    if bad is None:
        return None
    return {"number": bad.number, "code": bad.code, "detail": bad.detail, "text": unreplayable_text(bad),
            "undo": bad.number == len(now.rows)}


# -- what an entry claims -----------------------------------------------------------------


def claimed(post: Any, now: GameNow, *, mutable: bool = True) -> Any:
    """The posted entry (a mutable copy); one that claims no state (a
    hand-made post, or the first look without JavaScript) is taken as built
    on the state now, unless it is a save. ``mutable=False`` (the live
    preview and a save, which change nothing they are given): the post itself when it
    claims a state, as copying it cost more than the rest of the protocol."""
    if not mutable and post.get("state"):
        return post
    data = post.copy()
    if not data.get("state") and data.get("action") != "save":
        data["state"] = now.state
    return data


def is_stale(data: Mapping[str, Any], now: GameNow, number: int, editing: int | None) -> bool:
    """Was the entry built on another state of the game than the one stored?"""
    return data.get("state") != now.state or (not editing and int_param(data.get("number")) != number)


def is_gone(now: GameNow, editing: int | None) -> bool:
    """Is the hand to correct not (or no longer) there?"""
    return bool(editing and editing >= now.next_number)


def reuse(data: Any, now: GameNow, number: int) -> None:
    """From the conflict page: the scorer's entry aimed anew at the game as it
    is (number, state, a new key). Shown with its payments; saving it is
    another, deliberate tap."""
    data.update({"number": str(number), "state": now.state, "key": str(uuid.uuid4())})
    data.pop("checked", None)


def digest(hand: sg.HandInput) -> str:
    """Ties a save to the preview the scorer saw: a changed hand needs a new look.
    The phone's engine computes the same (``league.entry.digest``)."""
    return hand_digest(hand)


class Step(enum.Enum):
    """What the page does with a posted entry."""

    CONFLICT = "conflict"  # built on another state: the conflict page, nothing saved
    RECHECK = "recheck"  # valid, but changed since its payments were shown: show them again
    SAVE = "save"  # save it (a stale save too: the service knows a key saved before)
    SHOW = "show"  # show the form, with the preview when valid


def decide(data: Mapping[str, Any], now: GameNow, *, number: int, editing: int | None, valid: bool,
           hand: sg.HandInput | None) -> Step:
    """The protocol's decision for one posted entry, before any save."""
    action = data.get("action")
    stale = is_stale(data, now, number, editing)
    if is_gone(now, editing) or (stale and (action != "save" or not valid)):
        return Step.CONFLICT
    if not (valid and action == "save"):
        return Step.SHOW
    assert hand is not None
    # Without JavaScript the scorer saves from the preview page; a hand changed
    # after its preview is shown again rather than saved unseen.
    if not stale and data.get("checked") != digest(hand):
        return Step.RECHECK
    return Step.SAVE


# -- the preview and the save -----------------------------------------------------------------


def preview_entry(now: GameNow, number: int, hand: sg.HandInput) -> HandPreview:
    """What saving ``hand`` as hand ``number`` would do, from the game as read:
    no query, one replay (a correction compares with ``now.replayed``). The
    phone's offline engine prices with the same function
    (``league.entry.pricing.price_hand``). Raises what the save would.
    A stored hand the engine refuses (``GameNow.unreplayable``) refuses a new
    hand and the correction of a later one (``StoredHandRefused``)."""
    refuse_past_unreplayable(now, number)
    try:
        # The title is worded only for the refusal that names it (a finished game):
        # the series' name and a catalogue lookup on every tap otherwise.
        finished = now.game.is_finished
        return price_hand(now.record, hand, number, title=str(now.game) if finished else "", is_finished=finished,
                          stored=now.replayed)
    except Refused as err:
        raise refusal(err) from None


def refuse_past_unreplayable(now: GameNow, number: int) -> None:
    """Refuse an entry of hand ``number`` that would be played on from a
    stored hand the engine refuses: a new hand, or the correction of a later
    one. The refused hand's own correction (or an earlier one's) is for the
    engine to judge, as is its undo."""
    refused = now.refused
    if refused is not None and number > refused.number:
        raise refused


@dataclass(frozen=True)
class Saved:
    number: int  # the hand saved or corrected
    time_up: bool  # the event clock's policy ended the game with it
    next_number: int
    now: GameNow | None = None  # the game after a new hand's save, as kept for the next read
    change: GameAudit | None = None  # the entry the save wrote in the change history (None: a correction
    # that found the hand already as entered, or a kept batch's save)


def save_entry(*, game: Game, number: int, hand: sg.HandInput, editing: bool, by: Actor = None,
               key: str | None = None, state: str | None = None, players: list[str] | None = None,
               seen: str | None = None, now: GameNow | None = None) -> Saved:
    """Record hand ``number`` (or correct it, ``editing``), and end the game if
    the event clock's policy says this was its last hand: one transaction,
    the game row locked first. Raises what ``record_hand`` and
    ``correct_hand`` raise (``AlreadySaved``, ``Conflict``, ``ServiceError``).
    ``players`` (``GameNow.players``): a new hand's save keeps what it holds
    as the game's next read (``read_game``), so the page after it reads and
    replays nothing; ``Saved.now`` is that read, for an answer in place.
    ``seen`` (the payments the phone showed, as posted; None when not posted):
    the hand as the save replays it must pay that, else ``PriceDiffers`` and
    nothing saved; a ``seen`` of another shape is ``BadInput``, before any
    write. The save's own replay is the price checked: one pricing.
    ``now``: the game as the request read it; a new hand's save uses its
    hands when the game's ``inputs_version``, under the lock, says they are
    still the stored ones, and reads them again otherwise."""
    try:
        posted = read_seen(seen)
    except BadSeen as bad:  # malformed, not a price that differs: nothing to compare
        raise BadInput("bad_seen", str(bad), field="seen") from None
    check = None if posted is None else _seen_check(posted)
    if now is not None:
        refuse_past_unreplayable(now, number)  # before any write: nothing to roll back
    # What the request read, which the save uses if the game's inputs have not moved since.
    as_read = None if now is None or now.version < 0 else AsRead(
        now.version, record_columns(now.game), now.rows, now.record, now.state)
    try:
        return _save_entry(game=game, number=number, hand=hand, editing=editing, by=by, key=key, state=state,
                           players=players, check=check, as_read=as_read)
    except BaseException:
        # A rolled-back save may have set a held row's ``result`` the database
        # no longer holds: the next request reads the game again.
        if now is not None:
            _let_go(now)
        raise


def _save_entry(*, game: Game, number: int, hand: sg.HandInput, editing: bool, by: Actor, key: str | None,
                state: str | None, players: list[str] | None, check: Callable[[sg.PlayedHand], None] | None,
                as_read: AsRead | None) -> Saved:
    held: list[HandSaved] = []
    kept: list[GameNow] = []
    corrected: list[GameAudit | None] = []
    # Nothing inside reads a stamp, so the series' new stamps are published
    # once, at the commit (league.stamps.publish_on_commit).
    with transaction.atomic():
        if editing:
            correct_hand(game=game, number=number, hand=hand, by=by, key=key, state=state, check=check,
                         then=corrected.append)
            time_up = False
        else:
            # Any refusal leaves this transaction whole, uncommitted: no savepoint inside.
            record_hand(game=game, number=number, hand=hand, by=by, key=key, state=state, check=check,
                        then=held.append, as_read=as_read, savepoint=False)
            saved = held[0] if held else None
            # An event round's clock may end the game here (its ending policy); whether
            # the game is a table of a round came with the locked row.
            in_round = getattr(saved.game, "in_round", None) if saved else None
            time_up = apply_time_policy(game=game, by=by, in_round=None if in_round is None else bool(in_round))
            if saved and not time_up and players:
                if as_read is None or not still_as_read(saved.game, as_read, moved=True):
                    # The request's names are those of an older read of the game (a
                    # substitute seated since moves the version): read them again.
                    players = _players(saved.game)
                # What the save holds is the game's next read: kept once committed.
                transaction.on_commit(lambda: kept.extend(_keep_saved(game, players, saved)))
        _in_step(game, held[0].game if held and not time_up else None)
        next_number = game.hands.count() + 1 if editing else number + 1
    # Outside a caller's transaction the commit has run: ``kept`` holds the read.
    return Saved(number, time_up, next_number, kept[0] if kept else None,
                 held[0].change if held else corrected[0] if corrected else None)


# What a save moves of the game's row that a later read of it in the same
# request is keyed or judged by (``_read_key``, ``is_current``).
_MOVED = ("inputs_version", "status", "finished_at", "end", "final_scores", "final_riichi_sticks")


def _in_step(game: Game, locked: Game | None) -> None:
    """The caller's row of ``game`` brought in step with what its save wrote:
    from the save's locked row when it holds all of it (a new hand), else read
    again (a correction; the clock's end). A read of the game later in the
    same request (the answer in place) is then never the read kept from
    before the save, which a hand's write leaves under the same key: only
    the row's ``inputs_version`` says it is old."""
    if locked is None:
        game.refresh_from_db(fields=list(_MOVED))
        return
    for name in _MOVED:
        setattr(game, name, getattr(locked, name))


def _let_go(now: GameNow) -> None:
    """Forget the reads held in this process that share ``now``'s rows."""
    for key, parts in list(_HELD.items()):
        if parts[0] is now.rows:
            _HELD.pop(key, None)


def _seen_check(seen: tuple[int, ...]) -> Callable[[sg.PlayedHand], None]:
    def check(played: sg.PlayedHand) -> None:
        if seen != tuple(played.deltas):
            raise PriceDiffers(list(played.deltas))
    return check


def _keep_saved(caller: Game, players: list[str], saved: HandSaved) -> list[GameNow]:
    """The save's read of the game after it, kept (after the commit) for the
    next request: under the lineup version the request read with the game
    (the names it holds are of that lineup or later; a lineup moved since,
    by this save's end of the game too, is read again) and the locked row's
    columns, as of the locked row's version (``is_current``)."""
    game, rows, record, replayed = saved.game, saved.rows, saved.record, saved.replayed
    inputs = list(record.hands)  # the save's inputs: the new row's wins are not read back
    # The locked row's version, which the save moved under the lock: exact.
    parts = (rows, inputs, players, record, replayed, hands_digest(inputs), None, game.inputs_version)
    key = _read_key(game, caller.series.lineup_version)
    cache.set(key, (_as_kept(rows), *parts[1:]), READ_SECONDS)
    # And held in this process for the next hand's live previews (``read_game_held``),
    # which then unpickle nothing: nothing that holds these parts changes them (the
    # page's answer and a kept batch's next save read them; a save builds new lists).
    _hold(key, parts)
    # The caller's row (its series already read), which the save moved on as it locked its own.
    return [_now(caller, parts)]

