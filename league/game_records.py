"""Game records in and out as JSON lines: one GAME RECORD (docs/data.md) per line.

A line is a ``python -m scoring`` record (``op`` may be left out) plus the
league's keys (``players`` required, in seat order; ``round``, ``table``,
``started_at``, ``finished_at``), stripped before ``scoring`` sees it. Export
writes fixed key order and compact separators, so exporting an import gives the
same bytes; cancelled penalties stay out. Import goes through the staff-entry
services, checks every line before writing (one bad record, nothing imported),
then writes whole games in short transactions. docs/data.md, "Data in and out".
"""

from __future__ import annotations

import contextlib
import datetime
import json
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.db.models import QuerySet

from league import services
from league.db_bounds import MAX_ROUND, read_moment, shown
from league.exports import game_batches, records_of, series_games
from league.game_record_header import HeaderError, check_header, header_line, is_header, restore_event
from league.models import Game, Player, Seat, Series
from league.services.players import find_player, player_key
from scoring import game as sg
from scoring.errors import ScoringError
from scoring.rules import Ruleset, get_ruleset

LEAGUE_KEYS = ("round", "table", "players", "started_at", "finished_at")
# One write transaction of an import holds SQLite's write lock: it stays short
# enough that a scorer's save waiting behind it is not noticed.
CHUNK_GAMES = 50
CHUNK_SECONDS = 0.25
# SQLite has no queue for its write lock: a scorer's save polls for it (every
# 100 ms at most) and would lose every race to the next chunk. A pause after
# each chunk lets it in. PostgreSQL locks rows, not the database: no pause.
SQLITE_PAUSE_SECONDS = 0.12
NAME_LENGTH = Player._meta.get_field("name").max_length
TABLE_LENGTH = Game._meta.get_field("table").max_length


# -- export -----------------------------------------------------------------------------


GAME_FIELDS = (
    "pk", "round_number", "table", "rules", "end", "final_scores", "final_riichi_sticks", "started_at", "finished_at",
)


def export_lines(games: QuerySet[Game]) -> Iterator[str]:
    """One JSON line (with its newline) per game, in list order (round, table).

    Reads a batch of games at a time with plain queries (each game's record
    by ``exports.records_of``), so memory stays flat however many games.
    """
    for batch in game_batches(games, *GAME_FIELDS):
        ids = [row[0] for row in batch]
        records = records_of((pk, *columns) for pk, _round, _table, *columns, _started, _finished in batch)
        players: dict[int, list[str]] = defaultdict(list)
        for game_id, name in (
            Seat.objects.filter(game_id__in=ids).order_by("game_id", "seat").values_list("game_id", "player__name")
        ):
            players[game_id].append(name)
        for pk, round_number, table, *_columns, started_at, finished_at in batch:
            out: dict[str, Any] = {
                "round": round_number, "table": table, "players": players[pk], "started_at": started_at.isoformat(),
            }
            if finished_at is not None:
                out["finished_at"] = finished_at.isoformat()
            out.update(sg.record_to_dict(records[pk]))
            yield json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n"


def series_lines(series: Series) -> Iterator[str]:
    """The whole series as ``export_games`` writes it: the header (events only), then one line per game."""
    header = header_line(series)
    if header is not None:
        yield header
    yield from export_lines(series_games(series))


# -- import -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordError:
    """One refused record: its line (1-based), the field at fault and why."""

    line: int
    code: str
    message: str
    field: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", {self.field}" if self.field else "")
        return f"{where}: {self.message} ({self.code})"


class ImportRefused(Exception):
    """The file was not imported; ``errors`` lists every bad record."""

    def __init__(self, errors: list[RecordError]) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


class _Bad(Exception):
    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.field = code, message, field


@dataclass(frozen=True)
class ParsedLine:
    """A line that passed every check that needs no database."""

    line: int
    record: sg.GameRecord
    players: tuple[str, ...]
    round_number: int = 1
    table: str = ""
    started_at: datetime.datetime | None = None
    finished_at: datetime.datetime | None = None


@dataclass
class ImportReport:
    series: Series
    created_series: bool = False
    games: int = 0
    hands: int = 0
    new_players: list[str] = field(default_factory=list)
    # Lines whose game the series already holds (a re-run import): skipped, by line number.
    already: list[int] = field(default_factory=list)
    event_already: bool = False  # the header's event was imported before, with every game


def parse_line(text: str, line: int) -> ParsedLine:
    """Parse and check one line: JSON, league keys, the GAME RECORD, and a
    replay through ``scoring`` (so a hand after the end is caught here, with
    its index). Raises ``ImportRefused`` with one error."""
    try:
        return _parse(text, line)
    except _Bad as bad:
        raise ImportRefused([RecordError(line, bad.code, bad.message, bad.field)]) from None


def _parse(text: str, line: int) -> ParsedLine:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise _Bad("invalid_json", f"not valid JSON: {err.msg} at column {err.colno}") from None
    except RecursionError:
        raise _Bad("invalid_json", "nested too deeply to be a game record") from None
    except ValueError as err:  # an integer of more than 4,300 digits
        raise _Bad("invalid_json", f"not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise _Bad("invalid_record", "a line must be one JSON object (a GAME RECORD)")
    if data.get("op", "game") != "game":
        raise _Bad("invalid_record", f"op may only be 'game', not {data['op']!r}", "op")
    league = {k: data[k] for k in LEAGUE_KEYS if k in data}
    scoring_part = {k: v for k, v in data.items() if k not in LEAGUE_KEYS}
    players = _players(league.get("players"))
    round_number = league.get("round", 1)
    if isinstance(round_number, bool) or not isinstance(round_number, int) or not 1 <= round_number <= MAX_ROUND:
        raise _Bad("invalid_value", f"round must be a whole number from 1 to {MAX_ROUND:,}, not {shown(round_number)}",
                   "round")
    table = league.get("table", "")
    if not isinstance(table, str) or len(table) > TABLE_LENGTH or "\x00" in table:
        raise _Bad("invalid_value", f"table must be text of at most {TABLE_LENGTH} characters, without NUL", "table")
    started_at = _datetime(league.get("started_at"), "started_at")
    finished_at = _datetime(league.get("finished_at"), "finished_at")
    try:
        record = sg.record_from_dict(scoring_part)
        result = sg.replay(record)
    except ScoringError as err:
        raise _Bad(err.code, err.message, err.field) from None
    if len(players) != record.rules.players:
        count = "four" if record.rules.players == 4 else "three"
        raise _Bad("invalid_players", f"players must be {count} names in seat order for {record.rules.name}, "
                   f"not {len(players)}", "players")
    if finished_at is not None and not result.finished:
        raise _Bad("invalid_value", "finished_at is given but the record does not finish the game", "finished_at")
    return ParsedLine(line, record, players, round_number, table, started_at, finished_at)


def _players(value: Any) -> tuple[str, ...]:
    if value is None:
        raise _Bad("invalid_players", "a record needs its four players' names in seat order", "players")
    # Three names for a three-player ruleset: checked against the rules once they are read.
    if not isinstance(value, list) or len(value) not in (3, 4):
        raise _Bad("invalid_players", "players must be four names in seat order", "players")
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            raise _Bad("invalid_players", f"seat {i} has no player name", f"players[{i}]")
        if len(name) > NAME_LENGTH:
            raise _Bad("invalid_players", f"a name is at most {NAME_LENGTH} characters", f"players[{i}]")
        if "\x00" in name:
            raise _Bad("invalid_players", "a name cannot hold a NUL character", f"players[{i}]")
        if name in value[:i]:
            raise _Bad("same_player", f"{name} cannot sit twice at one game", f"players[{i}]")
    return tuple(value)


def _datetime(value: Any, name: str) -> datetime.datetime | None:
    try:
        return read_moment(value)
    except ValueError as why:
        raise _Bad("invalid_value", f"{name} {why}", name) from None


def import_lines(lines: Iterable[str], *, slug: str, name: str | None = None) -> ImportReport:
    """Import a file of JSON lines into series ``slug`` (created with the
    first record's ruleset when missing).

    Two steps, so the site goes on while a large file imports. First every
    line is read and checked without writing anything (:func:`check_lines`:
    parsed, replayed through ``scoring``, held to ``league.db_bounds``); any bad
    line and the errors of all of them are raised together as
    ``ImportRefused``, with the database unchanged. Then the games are written
    through the services in short transactions of whole games (at most
    ``CHUNK_GAMES``, closed after about ``CHUNK_SECONDS``), so that pages read
    and staff save between them. A write that still fails there (say the
    series' rules were changed meanwhile) stops the import: the games before
    that line stay, each whole, and the ``ImportRefused`` says so.
    """
    parsed, series, header, header_at = check_lines(lines, slug=slug)
    report = ImportReport(series=series)  # type: ignore[arg-type]
    if series is not None:
        parsed, report.already = skip_imported(parsed, series)
        if header is not None and not parsed and _has_event(series):
            report.event_already = True  # the same event file again: nothing to do
            return report
    players: dict[str, Player] = {}
    done = 0
    # An event (a file with a series header) is imported whole or not at all:
    # its games, registrations and rounds only make sense together, and an
    # event is a few dozen games, not the thousands chunks are for.
    with transaction.atomic() if header is not None else contextlib.nullcontext():
        while done < len(parsed) or (series is None and (parsed or header is not None)):
            began, counts = time.monotonic(), (report.games, report.hands, len(report.new_players))
            upto = done
            try:
                with transaction.atomic():
                    if series is None:
                        # An event's header names the series and its rules; else the first record's rules.
                        spec = header["rules"] if header is not None else parsed[0].record.rules.to_spec()
                        series = report.series = Series.objects.create(
                            slug=slug, name=name or (header["name"] if header is not None else slug), rules=spec)
                        report.created_series = True
                    upto = done
                    while upto < len(parsed) and upto - done < CHUNK_GAMES and (
                            upto == done or time.monotonic() - began < CHUNK_SECONDS):
                        _import_game(parsed[upto], series, players, report)
                        upto += 1
            except (ImportRefused, DatabaseError) as failed:
                report.games, report.hands = counts[0], counts[1]
                del report.new_players[counts[2]:]
                line = parsed[done].line
                errors = failed.errors if isinstance(failed, ImportRefused) else [
                    RecordError(parsed[upto].line, "database_error", f"the database refused the write: {failed}", None)]
                if header is not None:
                    raise ImportRefused(errors) from None  # the event's one transaction: nothing stays
                raise ImportRefused([*errors, RecordError(
                    line, "partly_imported",
                    f"stopped while writing: the {report.games} game(s) before line {line} were imported, each whole; "
                    "run the same import again once it is fixed: the games already in are skipped", None,
                )]) from None
            done = upto
            if header is None and connection.vendor == "sqlite" and done < len(parsed):
                time.sleep(SQLITE_PAUSE_SECONDS)
        if header is not None:
            # The event itself (registrations, rounds, stages...) once its games are in.
            try:
                with transaction.atomic():
                    restore_event(series, header)  # type: ignore[arg-type]
            except HeaderError as err:
                raise ImportRefused([RecordError(header_at, err.code, err.message, err.field)]) from None
    return report


def _game_key(out: dict[str, Any]) -> str:
    """What makes two game lines the same game, whenever it was imported:
    every key but the times, written canonically."""
    return json.dumps({k: v for k, v in out.items() if k not in ("started_at", "finished_at")},
                      sort_keys=True, ensure_ascii=False)


def _has_event(series: Series) -> bool:
    from league.models import Event

    return Event.objects.filter(series=series).exists()


def skip_imported(parsed: list[ParsedLine], series: Series) -> tuple[list[ParsedLine], list[int]]:
    """The lines still to import, and the line numbers of those whose game
    ``series`` already holds, so that running the same import again (after
    an interruption, or by mistake) adds only what is missing.

    A line is the same game as one in the series when its export line says
    the same (round, table, players, rules, hands, penalties, result) and,
    if the line gives ``started_at``, it started at the same moment. Each
    game in the series answers for one line only: a file holding the same
    game twice, of which one was imported, imports the other.
    """
    if not parsed or not Game.objects.filter(series=series).exists():
        return parsed, []
    held: dict[str, list[datetime.datetime]] = defaultdict(list)
    for text in export_lines(series_games(series)):
        out = json.loads(text)
        held[_game_key(out)].append(datetime.datetime.fromisoformat(out["started_at"]))
    todo: list[ParsedLine] = []
    already: list[int] = []
    for one in parsed:
        out: dict[str, Any] = {"round": one.round_number, "table": one.table, "players": list(one.players)}
        out.update(sg.record_to_dict(one.record))
        starts = held.get(_game_key(out), [])
        match = next((i for i, at in enumerate(starts) if one.started_at is None or at == one.started_at), None)
        if match is None:
            todo.append(one)
        else:
            starts.pop(match)
            already.append(one.line)
    return todo, already


def check_lines(
    lines: Iterable[str], *, slug: str
) -> tuple[list[ParsedLine], Series | None, dict[str, Any] | None, int]:
    """Every line read and checked as the services would check it, writing
    nothing: the records, their rules against the series', the bounds of each
    hand, penalty and result; an event's series header on the first line.
    Returns the parsed lines, the series (None when the import will create
    it), the header (None for a league's file) and its line, or raises
    ``ImportRefused`` with every bad line."""
    series = Series.objects.filter(slug=slug).first()
    rules: Ruleset | None = series.ruleset() if series is not None else None
    parsed: list[ParsedLine] = []
    errors: list[RecordError] = []
    header: dict[str, Any] | None = None
    header_at = 0
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            if not header_at:
                # The first line may be an event's series header (league.game_record_header).
                header_at = number
                header = _series_header(text, number)
                if header is not None:
                    if rules is None:
                        rules = get_ruleset(header["rules"])
                    continue
            one = parse_line(text, number)
            if rules is None:
                rules = one.record.rules
            elif one.record.rules != rules:
                raise ImportRefused([RecordError(
                    number, "rules_differ",
                    f"the record's ruleset {_spec(one.record.rules)} differs from the series' {_spec(rules)}", "rules",
                )])
            _check_bounds(one)
            parsed.append(one)
        except ImportRefused as refused:
            errors.extend(refused.errors)
    if errors:
        raise ImportRefused(errors)
    return parsed, series, header, header_at


def _check_bounds(parsed: ParsedLine) -> None:
    """What the services refuse beyond the engine, which ``parse_line`` already
    ran: the database's bounds on each hand, penalty and result."""
    record = parsed.record

    def refuse(code: str, message: str, field: str | None) -> ImportRefused:
        return ImportRefused([RecordError(parsed.line, code, message, field)])

    try:
        for i, hand in enumerate(record.hands):
            services.check_hand_bounds(hand, f"hands[{i}]")
    except ScoringError as err:
        raise refuse(err.code, err.message, err.field) from None
    in_force = [0, 0, 0, 0]
    for i, p in enumerate(record.penalties):
        try:
            services.check_penalty_values(seat=p.seat, points=p.points, reason=p.reason)
            services.check_penalty_total(in_force[p.seat], p.points)
        except services.ServiceError as err:
            raise refuse(err.code, err.message, f"penalties[{i}].{err.field}" if err.field else f"penalties[{i}]"
                         ) from None
        in_force[p.seat] += p.points
    try:
        services.check_result_bounds(sg.replay(record))
    except services.ServiceError as err:
        raise refuse(err.code, err.message, err.field) from None


def _series_header(text: str, line: int) -> dict[str, Any] | None:
    """The series header on the first line, checked; None when the line is a game."""
    from league.models.validators import validate_rules

    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError):
        return None  # not JSON: parse_line says why
    if not is_header(data):
        return None
    try:
        check_header(data)
        validate_rules(data["rules"])
    except HeaderError as err:
        raise ImportRefused([RecordError(line, err.code, err.message, err.field)]) from None
    except ValidationError as err:
        raise ImportRefused([RecordError(line, "invalid_rules", " ".join(err.messages), "rules")]) from None
    return data


def _spec(rules: Ruleset) -> str:
    return json.dumps(sg.rules_to_json(rules))


def _import_game(parsed: ParsedLine, series: Series, players: dict[str, Player], report: ImportReport) -> None:
    seated = []
    for i, name in enumerate(parsed.players):
        if name not in players:
            # A name of two rows is refused, never guessed: "#12" names the row.
            try:
                player = find_player(name=name, player_id=player_key(name), field=f"players[{i}]",
                                     choose='write "#id" for the name')
            except services.ServiceError as err:
                raise ImportRefused([RecordError(parsed.line, err.code, err.message, err.field)]) from None
            if player is None:
                player = Player.objects.create(name=name)
                report.new_players.append(name)
            players[name] = player
        seated.append(players[name])
    record = parsed.record
    try:
        field_prefix = "players"
        game = services.start_game(
            series=series, players=seated, round_number=parsed.round_number, table=parsed.table,
            started_at=parsed.started_at,
        )
        if record.hands:
            # One replay and one insert for the whole game; the error names
            # the hand itself (hands[3].outcome...).
            field_prefix = "hands"
            services.record_hands(game=game, first=1, hands=record.hands)
        for i, p in enumerate(record.penalties):
            field_prefix = f"penalties[{i}]"
            services.add_penalty(game=game, seat=p.seat, points=p.points, reason=p.reason)
        if record.final is not None:
            field_prefix = "final"
            services.record_final_scores(
                game=game, scores=record.final.scores, riichi_sticks=record.final.riichi_sticks,
            )
        elif record.end is not None:
            field_prefix = "end"
            services.finish_game(game=game, end=Game.End(record.end))
    except services.ServiceError as err:
        if field_prefix in ("players", "hands"):
            where = err.field or field_prefix
        else:
            where = f"{field_prefix}.{err.field}" if err.field else field_prefix
        raise ImportRefused([RecordError(parsed.line, err.code, err.message, where)]) from None
    if parsed.finished_at is not None:
        # The finish time is when it happened at the table, not when it was imported.
        Game.objects.filter(pk=game.pk).update(finished_at=parsed.finished_at)
    report.games += 1
    report.hands += len(record.hands)
