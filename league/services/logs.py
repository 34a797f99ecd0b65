"""Tenhou logs in and out of a series: importing a log as a finished game (the
series row locked, so one log is never stored twice), the players it names,
and exporting a game as tenhou.net/6 JSON. Reading and checking a log is the
pure ``league.tenhou`` package; this module is what touches the database."""

from __future__ import annotations

import datetime
import re
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from league import tenhou
from league.errors import ServiceError
from league.models import WINDS, Game, GameAudit, Player, Seat, Series
from league.services.audit import Actor, audit
from league.services.players import find_player, player_key
from league.services.replay import replay_game, store_hands, sync_result
from scoring.errors import ScoringError
from scoring.rules import Ruleset, get_ruleset

Action = GameAudit.Action

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
            # A Mahjong Soul log ending after the all-last dealer's win: the dealer stopped.
            end=Game.End.EARLY if "not finished" in kinds else (imported.record.end or ""),
            started_at=started or timezone.now(),
            finished_at=started,
            source=Game.Source(log.format),
            source_id=log.log_id,
            variant=list(report.variant),
            discrepancies=list(found) or None,
        )
        Seat.objects.bulk_create(Seat(game=game, seat=i, player=p) for i, p in enumerate(players))
        inputs = list(imported.record.hands)
        result = replay_game(game, inputs)
        store_hands(game, inputs, by)
        audit(game, Action.IMPORT_LOG, by, after={
            "log_id": log.log_id, "file": filename or "", "format": log.format, "players": [p.name for p in players],
            "names_in_log": list(log.names), "rules": game.rules, "variant": list(report.variant),
            "hands": len(inputs), "discrepancies": list(found),
        })
        sync_result(game, result, by)
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
        if theirs.players == 3:
            # A three-player log goes only into a three-player series (issue #35).
            kind = f"a three-player {kind.split()[-1]}"
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
    seats = log.players
    if not names:
        return [None] * seats
    per_game = names.get(log.log_id)
    if per_game is not None:
        if not isinstance(per_game, list) or len(per_game) != seats or any(
            n is not None and not isinstance(n, str) for n in per_game
        ):
            count = "four" if seats == 4 else "three"
            raise LogRefused("invalid_names", f"the names for {log.log_id} must be a list of {count} names (or null)",
                             log_id=log.log_id)
        mapped = [n.strip() or None if n else None for n in per_game]
    else:
        found = [names.get(name) if name else None for name in log.names]
        mapped = [n.strip() or None if isinstance(n, str) else None for n in found]
    if any(n and "\x00" in n for n in mapped):
        # PostgreSQL cannot store it; the log's own names are checked by the reader.
        raise LogRefused("invalid_names", f"a name given for {log.log_id} holds a NUL character", log_id=log.log_id)
    return mapped


def _log_players(log: tenhou.TenhouLog, names: Mapping[str, Any] | None) -> list[Player]:
    players: list[Player] = []
    for seat, (logged, mapped) in enumerate(zip(log.names, _mapped_names(log, names), strict=True)):
        logged = logged.strip()
        if mapped:
            player = _named_player(log, mapped[:100], f"names[{mapped!r}]")
        elif ANONYMOUS_NAME.match(logged):
            player = _new_player(f"{logged or 'Player'} ({WINDS[seat]}, {log.log_id[:32]})")
        else:
            player = _named_player(log, logged[:100], f"{WINDS[seat]}")
        if any(p.pk == player.pk for p in players):
            raise LogRefused("same_player", f"{log.log_id}: {player} would sit twice at one game; "
                                            "name the seats in a mapping", log_id=log.log_id)
        players.append(player)
    return players


def _named_player(log: tenhou.TenhouLog, text: str, field: str) -> Player:
    """The one player ``text`` names ("#12": the row of id 12), else a new one;
    a name two players share is refused: the names file says which."""
    try:
        player = find_player(name=text, player_id=player_key(text), field=field,
                             choose='map the name to one as "#id" in the names file')
    except ServiceError as err:
        raise LogRefused(err.code, f"{log.log_id}: {err.message}", log_id=log.log_id) from None
    return player or Player.objects.create(name=text)


def _new_player(name: str) -> Player:
    candidate, n = name, 1
    while Player.objects.filter(name=candidate).exists():
        n += 1
        candidate = f"{name} {n}"
    return Player.objects.create(name=candidate)
