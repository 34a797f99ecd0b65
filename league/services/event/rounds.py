"""Rounds of tables: seating them with the seating engine, swapping two players,
publishing, starting every table's game at once, substitutes, and the clock."""


from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from league.errors import ServiceError
from league.event import clock
from league.models import (
    WINDS,
    Event,
    Game,
    Hand,
    Registration,
    Round,
    RoundSeat,
    RoundTable,
    Seat,
    Series,
    counting,
)
from league.models.stages import first_cut_round, seating_teams
from league.seating.pregenerated import pregenerate
from league.seating.schedule import Quality, SeatingError, assess
from league.seating.swiss import swiss_round
from league.services import webhooks
from league.services.audit import Actor
from league.services.event.common import TABLE, Action, ensure_event, lock_series, log
from league.services.event.registration import drop_player
from league.services.games import finish_game, start_game
from league.services.replay import lock_game, lock_game_moving
from league.standings.event import event_standings
from league.statements import Names, for_read, statement


@dataclass(frozen=True)
class SeatingReport:
    rounds: list[Round]
    quality: Quality
    substitutes_seated: list[Registration]


def players_to_seat(series: Series) -> tuple[list[Registration], list[Registration]]:
    """Who a new seating seats: every registered player not dropped, plus as
    many substitutes (by number) as it takes to fill tables of four (of
    three when the event's ruleset is three-player). Refused with the number
    of substitutes needed when there are too few."""
    size = table_size(series)
    active = list(series.registrations.exclude(status=Registration.Status.DROPPED).order_by("number"))
    players = [r for r in active if not r.is_substitute]
    subs = [r for r in active if r.is_substitute]
    short = -len(players) % size
    if short > len(subs):
        raise ServiceError(
            "player_count",
            f"{len(players)} players cannot sit at tables of {'four' if size == TABLE else 'three'}: {short} "
            f"substitute{'s' if short > 1 else ''} "
            f"{'are' if short > 1 else 'is'} needed (register {short - len(subs)} more with 'substitute' ticked, "
            f"or drop {len(players) % size})",
            field="players",
        )
    if not players:
        raise ServiceError("player_count", "nobody is registered yet", field="players")
    return players + subs[:short], subs[:short]


def table_size(series: Series) -> int:
    """Players per table in ``series``: its ruleset's (4, or 3 for three-player mahjong)."""
    return series.ruleset().players


def seat_rounds(*, series: Series, rounds: int | None = None, seed: int | None = None, by: Actor = None) -> SeatingReport:
    """Seat the event's rounds as drafts for review.

    Pre-generated: all rounds at once (none may have started), replacing
    drafts. Swiss: the next round from the standings after the rounds played
    (every game of the last round finished). Locks the series row.
    """
    with transaction.atomic():
        series = lock_series(series)
        event = ensure_event(series)
        players, fillers = players_to_seat(series)
        ids = [r.pk for r in players]
        existing = list(series.event_rounds.order_by("number"))
        if event.seating == Event.Seating.PREGENERATED:
            if any(r.status != Round.Status.DRAFT for r in existing):
                raise ServiceError(
                    "rounds_published",
                    "rounds are already published or started: swap players in the rounds to come, or switch "
                    "the event to Swiss seating for the rest",
                    field="rounds",
                )
            count = rounds or event.rounds
            cut = first_cut_round(series)
            if cut is not None:
                count = min(count, cut - 1)  # rounds after a cut are seated from the stages page
            try:
                result = pregenerate(ids, count, seed=event.seed if seed is None else seed,
                                     teams=seating_teams(series, ids), table_size=table_size(series))
            except SeatingError as err:
                raise ServiceError(err.code, err.message, field=err.field) from None
            for r in existing:
                r.delete()
            created = [store_round(series, event, n, tables, "pregenerated")
                       for n, tables in enumerate(result.rounds, start=1)]
            quality = result.quality
        else:
            drafts = [r for r in existing if r.status == Round.Status.DRAFT]
            for r in drafts:
                r.delete()
            played = [r for r in existing if r.status != Round.Status.DRAFT]
            if played and Game.objects.filter(round_table__round__in=played).exclude(counting(series)).exists():
                raise ServiceError("round_playing", "the last round is still being played (or waits for its "
                                   "tables' sign-off); Swiss seats the next round from its results", field="rounds")
            if played and any(not r.is_started for r in played):
                raise ServiceError("round_not_started", "a published round has not started yet", field="rounds")
            cut = first_cut_round(series)
            if cut is not None and len(played) + 1 >= cut:
                raise ServiceError("stage_seating", f"round {len(played) + 1} is after the cut: seat it from the "
                                   "stages page", field="rounds")
            table = event_standings(series)
            rows = [*table.standings.ranked, *table.standings.unranked]
            rank = {table.registrations[row.player_id]: i for i, row in enumerate(rows)}
            order = sorted(ids, key=lambda pk: (rank.get(pk, len(rank)), pk))
            history = [tables_as_ids(r) for r in played]
            if any({p for t in h for p in t} != set(ids) for h in history):
                history = []  # the field changed (a drop): the engine needs the same players each round
            try:
                nxt = swiss_round(order, history, teams=seating_teams(series, ids), table_size=table_size(series))
            except SeatingError as err:
                raise ServiceError(err.code, err.message, field=err.field) from None
            created = [store_round(series, event, len(played) + 1, nxt.round, "swiss")]
            quality = nxt.quality
        log(series, Action.SEAT, by,
            f"seated round{'s' if len(created) > 1 else ''} {', '.join(str(r.number) for r in created)}: "
            f"{quality.repeat_count} repeat meetings, wind spread {quality.wind_spread}",
            rounds=[r.number for r in created], quality=quality.as_dict(), fillers=[r.pk for r in fillers])
    return SeatingReport(rounds=created, quality=quality, substitutes_seated=fillers)


def store_round(series: Series, event: Event, number: int, tables: Sequence[Sequence[int]],
                mode: str) -> Round:
    """Save round ``number`` as seated: tables of registration ids, East
    first; ``mode`` says who seated it. The caller holds the series lock,
    inside its transaction, and logs the seating."""
    rnd = Round.objects.create(series=series, number=number, seated_by=mode, time_limit=event.time_limit)
    table_rows = RoundTable.objects.bulk_create(RoundTable(round=rnd, number=i) for i in range(1, len(tables) + 1))
    RoundSeat.objects.bulk_create(
        RoundSeat(round=rnd, table=t, wind=w, registration_id=pk)
        for t, group in zip(table_rows, tables, strict=True) for w, pk in enumerate(group)
    )
    return rnd


def tables_as_ids(rnd: Round) -> tuple[tuple[int, ...], ...]:
    """A round as the seating engine sees it: tables of registration ids, East first."""
    tables: dict[int, list[int]] = {}
    for s in rnd.seats.order_by("table__number", "wind").values("table__number", "registration_id"):
        tables.setdefault(s["table__number"], []).append(s["registration_id"])
    return tuple(tuple(t) for _, t in sorted(tables.items()))


def schedule_quality(series: Series) -> Quality | None:
    """The quality of every round seated so far (repeats, meetings, winds)."""
    rounds = [tables_as_ids(r) for r in series.event_rounds.order_by("number")]
    if not rounds:
        return None
    players = {p for rnd in rounds for t in rnd for p in t}
    return assess(rounds, len(players))


def swap_players(*, round: Round, first: Registration, second: Registration, by: Actor = None) -> Quality:
    """Swap two players' seats (table and wind) in a round not yet started;
    returns the quality of the whole seating after the swap. Locks the series row."""
    if first.pk == second.pk:
        raise ServiceError("same_player", "choose two different players", field="second")
    with transaction.atomic():
        lock_series(round.series)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.is_started:
            raise ServiceError("round_started", f"round {rnd.number} has started; its seats are the games' now",
                               field="round")
        seats = {s.registration_id: s for s in rnd.seats.select_related("table")}
        for field, reg in (("first", first), ("second", second)):
            if reg.pk not in seats:
                raise ServiceError("not_seated", f"{reg} has no seat in round {rnd.number}", field=field)
        a, b = seats[first.pk], seats[second.pk]
        before = {"first": [a.table.number, WINDS[a.wind]], "second": [b.table.number, WINDS[b.wind]]}
        # Through a free wind-less state: the unique (table, wind) pair forbids a direct exchange.
        a_table, a_wind, b_table, b_wind = a.table_id, a.wind, b.table_id, b.wind
        RoundSeat.objects.filter(pk=a.pk).delete()
        RoundSeat.objects.filter(pk=b.pk).update(table_id=a_table, wind=a_wind)
        RoundSeat.objects.create(round=rnd, table_id=b_table, wind=b_wind, registration_id=first.pk,
                                 substitute_id=a.substitute_id)
        if not rnd.seated_by.endswith("+swap"):
            rnd.seated_by = (rnd.seated_by or "manual") + "+swap"
            rnd.save(update_fields=["seated_by"])
        quality = schedule_quality(rnd.series)
        assert quality is not None
        log(rnd.series, Action.SWAP, by,
            f"round {rnd.number}: swapped {first.name} (table {before['first'][0]} {before['first'][1]}) and "
            f"{second.name} (table {before['second'][0]} {before['second'][1]}); now {quality.repeat_count} repeat "
            f"meetings, wind spread {quality.wind_spread}",
            round_number=rnd.number, before=before, quality=quality.as_dict())
    return quality


def publish_round(*, round: Round, by: Actor = None) -> Round:
    """Show a seated round to the players (their next-table pages, the
    projector). Rounds are published in order. Locks the series row."""
    with transaction.atomic():
        lock_series(round.series)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.status != Round.Status.DRAFT:
            raise ServiceError("already_published", f"round {rnd.number} is already published", field="round")
        if rnd.series.event_rounds.filter(number__lt=rnd.number, status=Round.Status.DRAFT).exists():
            raise ServiceError("earlier_round", "publish the earlier rounds first", field="round")
        rnd.status, rnd.published_at = Round.Status.PUBLISHED, timezone.now()
        rnd.save(update_fields=["status", "published_at"])
        log(rnd.series, Action.PUBLISH, by, f"published round {rnd.number}", round_number=rnd.number)
        webhooks.round_published(rnd)
    return rnd


def start_round(*, round: Round, by: Actor = None, now: datetime.datetime | None = None) -> list[Game]:
    """Start every table of a published round at once: one game per table,
    seats and winds as seated (a substitute in the seat of the player they
    replace), and the round's clock.

    Refused, with nothing created, when a player who would sit is dropped,
    not checked in, or still in an unfinished game anywhere (a player can
    never sit in two unfinished games), or when an earlier round has not
    started. Locks the series row; the games are created in this one transaction.
    """
    with transaction.atomic():
        series = lock_series(round.series)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.status == Round.Status.DRAFT:
            raise ServiceError("not_published", f"publish round {rnd.number} before starting it", field="round")
        if rnd.is_started:
            raise ServiceError("round_started", f"round {rnd.number} has already started", field="round")
        if series.event_rounds.filter(number__lt=rnd.number).exclude(status=Round.Status.STARTED).exists():
            raise ServiceError("earlier_round", "start the earlier rounds first", field="round")
        tables = list(rnd.tables.prefetch_related("seats__registration__player", "seats__substitute__player"))
        problems = []
        seated: list[tuple[RoundTable, list[RoundSeat]]] = []
        for table in tables:
            seats = sorted(table.seats.all(), key=lambda s: s.wind)
            seated.append((table, seats))
            for s in seats:
                where = f"table {table.number} {WINDS[s.wind]}"
                if s.substitute_id is None and s.registration.is_dropped:
                    problems.append(f"{s.registration} ({where}) was dropped: put a substitute in the seat")
                elif not s.plays.is_checked_in:
                    problems.append(f"{s.plays} ({where}) is not checked in: check them in, or put a substitute "
                                    "in the seat")
        busy = busy_players([s.plays.player_id for _, seats in seated for s in seats])
        for s in (s for _, seats in seated for s in seats):
            if s.plays.player_id in busy:
                problems.append(f"{s.plays} is still playing {busy[s.plays.player_id]}: a player never sits in two "
                                "unfinished games")
        if problems:
            raise ServiceError("cannot_start", "; ".join(problems), field="round")
        now = now or timezone.now()
        games = []
        for table, seats in seated:
            game = start_game(series=series, players=[s.plays.player for s in seats], round_number=rnd.number,
                              table=str(table.number), started_at=now, by=by)
            table.game = game
            table.save(update_fields=["game"])
            games.append(game)
        rnd.status, rnd.started_at = Round.Status.STARTED, now
        rnd.save(update_fields=["status", "started_at"])
        log(series, Action.START, by, f"started round {rnd.number}: {len(games)} tables, {rnd.time_limit} minutes",
            round_number=rnd.number, games=[g.pk for g in games])
        webhooks.round_started(rnd)
    return games


def busy_players(player_ids: Iterable[int], *, except_game: Game | None = None) -> dict[int, Game]:
    """The players among ``player_ids`` seated in an unfinished game, with that game."""
    seats = Seat.objects.filter(player_id__in=list(player_ids), game__status=Game.Status.IN_PROGRESS)
    if except_game is not None:
        seats = seats.exclude(game=except_game)
    return {s.player_id: s.game for s in seats.select_related("game__series")}


def substitute(*, seat: RoundSeat, substitute: Registration | None, by: Actor = None) -> RoundSeat:
    """Let ``substitute`` play ``seat``'s registered player's seat (None: the
    registered player plays after all). In a started round the game's seat
    changes too, while no hand has been recorded.

    The substitute must be registered in the event, not dropped, checked in,
    and not playing elsewhere in this round or in an unfinished game.
    Locks the series row (and the game's, in a started round: first, as a
    save takes the game's lock and then the series' row; the other order
    deadlocked with a save of hand 1).
    """
    with transaction.atomic():
        started = RoundSeat.objects.filter(pk=seat.pk).values_list("table__game", flat=True).first()
        locked = None if started is None else lock_game_moving(Game(pk=started))
        lock_series(seat.round.series)
        seat = RoundSeat.objects.select_related("round", "table", "registration", "substitute").get(pk=seat.pk)
        rnd = seat.round
        if substitute is not None:
            substitute = Registration.objects.select_related("player").get(pk=substitute.pk)
            if substitute.series_id != rnd.series_id:
                raise ServiceError("not_registered", f"{substitute} is not registered in this event", field="substitute")
            if substitute.pk == seat.registration_id:
                raise ServiceError("same_player", "a player cannot substitute for themselves", field="substitute")
            if substitute.is_dropped:
                raise ServiceError("dropped", f"{substitute} was dropped from the event", field="substitute")
            if rnd.is_started and not substitute.is_checked_in:
                raise ServiceError("not_checked_in", f"{substitute} is not checked in", field="substitute")
            plays_here = rnd.seats.exclude(pk=seat.pk).filter(substitute=None, registration=substitute).exists() or \
                rnd.seats.exclude(pk=seat.pk).filter(substitute=substitute).exists()
            if plays_here:
                raise ServiceError("already_seated", f"{substitute} already plays in round {rnd.number}",
                                   field="substitute")
        elif seat.registration.is_dropped:
            raise ServiceError("dropped", f"{seat.registration} was dropped: the seat needs a substitute",
                               field="substitute")
        before = seat.substitute.name if seat.substitute else None
        game = seat.table.game
        if game is not None:
            # The seat's player is part of what a read of the game holds (its
            # names): the inputs' version moves, so a save on an older read
            # does not keep that read's names as the game's next read.
            # Locked above, or (a round started since) now, after the series.
            game = locked if locked is not None and locked.pk == game.pk else lock_game_moving(game)
            if game.hands.exists() or game.is_finished:
                raise ServiceError("game_begun", f"table {seat.table.number} has recorded hands: a substitute can "
                                   "only take a seat before the first hand", field="seat")
            plays = substitute or seat.registration
            busy = busy_players([plays.player_id], except_game=game)
            if busy:
                raise ServiceError("busy", f"{plays} is still playing {busy[plays.player_id]}", field="substitute")
            game_seat = game.seats.get(seat=seat.wind)
            game_seat.player = plays.player
            game_seat.save(update_fields=["player"])
        seat.substitute = substitute
        seat.save(update_fields=["substitute"])
        text = (f"round {rnd.number} table {seat.table.number} {WINDS[seat.wind]}: "
                + (f"{substitute.name} plays for {seat.registration.name}" if substitute
                   else f"{seat.registration.name} plays (no substitute{f'; was {before}' if before else ''})"))
        log(rnd.series, Action.SUBSTITUTE, by, text, round_number=rnd.number, seat=seat.pk,
            substitute=substitute.pk if substitute else None)
    return seat


def set_extra_time(*, table: RoundTable, minutes: int, by: Actor = None) -> RoundTable:
    """Give a table ``minutes`` of extra time in all (0 takes it back). Locks the series row."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= 120:
        raise ServiceError("invalid_minutes", "extra time is 0 to 120 minutes", field="minutes")
    with transaction.atomic():
        lock_series(table.round.series)
        table = RoundTable.objects.select_related("round").get(pk=table.pk)
        before = table.extra_minutes
        table.extra_minutes = minutes
        table.save(update_fields=["extra_minutes"])
        log(table.round.series, Action.EXTRA_TIME, by,
            f"round {table.round.number} table {table.number}: extra time {before} -> {minutes} minutes",
            round_number=table.round.number, table=table.number)
    return table


def set_clock(*, round: Round, minutes: int | None = None, started_at: datetime.datetime | None = None,
              by: Actor = None) -> Round:
    """Change a round's time limit, or restart its clock at ``started_at``. Locks the series row."""
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 600):
        raise ServiceError("invalid_minutes", "a time limit is 1 to 600 minutes", field="minutes")
    with transaction.atomic():
        lock_series(round.series)
        rnd = Round.objects.get(pk=round.pk)
        if started_at is not None and not rnd.is_started:
            raise ServiceError("not_started", "the clock starts with the round", field="started_at")
        changes = []
        if minutes is not None and minutes != rnd.time_limit:
            changes.append(f"time limit {rnd.time_limit} -> {minutes} minutes")
            rnd.time_limit = minutes
        if started_at is not None:
            changes.append(f"clock restarted at {started_at:%H:%M:%S}")
            rnd.started_at = started_at
        rnd.save(update_fields=["time_limit", "started_at"])
        if changes:
            log(rnd.series, Action.CLOCK, by, f"round {rnd.number}: " + "; ".join(changes), round_number=rnd.number)
    return rnd


def clock_verdict(game: Game, *, now: datetime.datetime | None = None,
                  in_round: bool | None = None) -> clock.Verdict | None:
    """What the event's clock and ending policy say for ``game`` now; None
    for a game that is not a table of a started round. ``in_round``: whether
    the game is a table of a round, when the caller read it (None: asked)."""
    # Most games are no table of a round: a bare existence check first, as the
    # joined read's query building costs several times its run (issue 28).
    if in_round is None:
        db = for_read(RoundTable)
        with db.cursor() as cursor:
            cursor.execute(_is_table_sql(db), [game.pk])
            in_round = cursor.fetchone() is not None
    if not in_round:
        return None
    table = RoundTable.objects.filter(game=game).select_related("round__series__event").first()
    if table is None or table.round.started_at is None:
        return None
    end = table.ends_at()
    assert end is not None
    now = now or timezone.now()
    hands_after = [outcome == Hand.Outcome.CHOMBO
                   for outcome in game.hands.filter(entered_at__gte=end).order_by("number").values_list("outcome", flat=True)]
    return clock.verdict(table.round.series.event.ending, remaining=(end - now).total_seconds(),
                         hands_after=hands_after)


@statement
def _is_table_sql(n: Names) -> str:
    """``SELECT 1`` when the game (parameter) is a table of a round."""
    return f"SELECT 1 FROM {n.table(RoundTable)} WHERE {n.col(RoundTable, 'game')} = %s LIMIT 1"


def apply_time_policy(*, game: Game, by: Actor = None, now: datetime.datetime | None = None,
                      in_round: bool | None = None) -> bool:
    """End ``game`` if the clock's policy says its last hand is played; returns
    whether it ended. Called after every recorded hand. Locks the game row.
    ``in_round``: whether the game is a table of a round, as the caller read
    it under the game's lock (``lock_game_moving``); None, asked here."""
    verdict = clock_verdict(game, now=now, in_round=in_round)
    if verdict is None or not verdict.game_over:
        return False
    with transaction.atomic():
        game = lock_game(game)
        if game.is_finished:
            return False
        finish_game(game=game, end=Game.End.EARLY, by=by)
        table = game.round_table
        log(game.series, Action.TIME_POLICY, by,
            f"round {game.round_number} table {table.number}: time was up, the policy's last hand is played; "
            "the game ended", round_number=game.round_number, game=game.pk)
    return True


def drop_with_substitute(*, seat: RoundSeat, replacement: Registration, by: Actor = None) -> RoundSeat:
    """Drop the player of ``seat`` mid-round and let ``replacement`` play the
    seat: both or neither, in one transaction that locks the series row first
    (and the game's, as ``substitute`` does). The checks are ``substitute``'s
    and ``drop_player``'s."""
    with transaction.atomic():
        lock_series(seat.round.series)
        seat = substitute(seat=seat, substitute=replacement, by=by)
        drop_player(registration=seat.registration, by=by)
    return seat
