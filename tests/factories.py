"""Plain factory functions for the league tests: no factory library, no magic."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from typing import Any

from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from league import services
from league.models import Game, Hand, Player, Seat, Series, series_changed
from scoring.game import Abort, AbortReason, Chombo, Draw, HandInput, Ron, Tsumo, Win
from scoring.rules import get_ruleset
from scoring.settlement import settle

_names = itertools.count(1)


def snapshot(game: Game) -> list[tuple[Any, ...]]:
    """Everything a change could touch, to prove a refused one touched nothing."""
    game.refresh_from_db()
    return [
        (game.status, game.end, game.final_scores, game.finished_at),
        list(game.hands.values_list("number", "outcome", "loser", "riichi", "tenpai", "updated_at")),
        list(Seat.objects.filter(game=game).values_list("seat", "end_score", "place", "points")),
        list(game.penalties.values_list("seat", "points", "cancelled_at")),
        game.audit.count(),
    ]


def make_player(name: str | None = None, **fields: Any) -> Player:
    return Player.objects.create(name=name or f"Player {next(_names)}", **fields)


def make_players(n: int = 4) -> list[Player]:
    return [make_player() for _ in range(n)]


def make_series(rules: str | dict[str, Any] = "ari-ari", *, slug: str | None = None, **fields: Any) -> Series:
    n = next(_names)
    fields.setdefault("name", f"Series {n}")
    return Series.objects.create(slug=slug or f"series-{n}", rules=get_ruleset(rules).to_spec(), **fields)


def make_scorer(series: Series, username: str = "scorer", password: str = "pw") -> User:
    """A login allowed to enter ``series``' results."""
    user = User.objects.create_user(username, password=password)
    series.scorers.add(user)
    return user


def make_director(series: Series, username: str = "director", password: str = "pw") -> User:
    """A login allowed to run ``series``' event (league.access)."""
    user = User.objects.create_user(username, password=password)
    series.directors.add(user)
    return user


def make_game(series: Series | None = None, players: Sequence[Player] | None = None, **kwargs: Any) -> Game:
    return services.start_game(series=series or make_series(), players=players or make_players(), **kwargs)


def play(game: Game, hands: Iterable[HandInput]) -> list[Hand]:
    """Record ``hands`` one after the other as a scorer would."""
    rows = []
    for hand in hands:
        rows.append(services.record_hand(game=game, number=game.next_hand_number(), hand=hand))
    return rows


# Hands, spoken the way a scorer would say them.


def ron(loser: int, winner: int, han: int = 0, fu: int | None = None, *, riichi: Sequence[int] = (), **win: Any) -> HandInput:
    return HandInput(Ron(loser=loser, wins=(Win(winner=winner, han=han, fu=fu, **win),)), riichi=tuple(riichi))


def double_ron(loser: int, *wins: Win, riichi: Sequence[int] = ()) -> HandInput:
    return HandInput(Ron(loser=loser, wins=tuple(wins)), riichi=tuple(riichi))


def tsumo(winner: int, han: int = 0, fu: int | None = None, *, riichi: Sequence[int] = (), **win: Any) -> HandInput:
    return HandInput(Tsumo(winner=winner, han=han, fu=fu, **win), riichi=tuple(riichi))


def draw(*tenpai: int, nagashi: Sequence[int] = (), riichi: Sequence[int] = ()) -> HandInput:
    return HandInput(Draw(tenpai=tuple(tenpai), nagashi=tuple(nagashi)), riichi=tuple(riichi))


def abort(reason: str = "kyuushu_kyuuhai", *, riichi: Sequence[int] = ()) -> HandInput:
    return HandInput(Abort(reason=AbortReason(reason)), riichi=tuple(riichi))


def chombo(offender: int) -> HandInput:
    return HandInput(Chombo(offender=offender))


# Eight hands that take an ari-ari hanchan from East 1 to its end after South 4:
# each passes the deal (a non-dealer wins, or the dealer is noten at a draw).
def hanchan_passing_deal() -> list[HandInput]:
    return [
        ron(0, 1, 3, 40),  # E1: South rons the dealer
        tsumo(2, 2, 30),  # E2
        draw(0),  # E3: only seat 0 tenpai, the dealer (2) is noten
        ron(1, 0, 1, 30),  # E4
        tsumo(1, 4, 30),  # S1
        draw(),  # S2: all noten
        ron(3, 0, 2, 40, riichi=(0,)),  # S3
        tsumo(2, 1, 30),  # S4: all-last passes the deal, the game ends
    ]


def bulk_finished_games(series: Series, players: Sequence[Player], n: int, *, seed: int = 0, tables: int = 8) -> None:
    """``n`` finished games with random end scores, written in bulk (no hands).

    For volume tests and the benchmark only: real games go through the services.
    The snapshot is still what ``scoring`` settles, so the numbers are real.
    """
    rng = random.Random(seed)
    rules = series.ruleset()
    spec = rules.to_spec()
    now = timezone.now()
    games = [
        Game(
            series=series, round_number=1 + i // tables, table=str(i % tables + 1), rules=spec,
            status=Game.Status.FINISHED, started_at=now, finished_at=now,
        )
        for i in range(n)
    ]
    Game.objects.bulk_create(games, batch_size=1000)
    seats = []
    total = 4 * rules.start_points
    for game in games:
        cuts = sorted(rng.randrange(0, total // 100) * 100 for _ in range(3))
        scores = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], total - cuts[2]]
        s = settle(rules, scores)
        for i, player in enumerate(rng.sample(list(players), 4)):
            seats.append(Seat(game=game, seat=i, player=player, end_score=s.final_scores[i], place=s.places[i], points=s.points[i]))
    Seat.objects.bulk_create(seats, batch_size=2000)
    # Written past the services, so move the version as they would: cached pages go stale otherwise.
    series_changed([series.pk])
    refresh_planner_statistics()


def refresh_planner_statistics() -> None:
    """After a test has written many rows inside its transaction: on
    PostgreSQL, ANALYZE the league's tables, so that what the test reads next
    is planned for the rows they hold now.

    Otherwise the plans rest on what earlier tests left. Autovacuum, cleaning
    up after a rolled-back test, can record a table as holding no rows at
    all; the planner then takes it for one row however many this test wrote,
    and joins become nested loops over sequential scans (issue 22: 10 s
    alone, 17 minutes in the suite). ANALYZE runs inside the test's
    transaction and counts its own rows. SQLite keeps no statistics unless
    asked (nothing here asks), so there it does nothing.
    """
    if connection.vendor != "postgresql":
        return
    tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in apps.get_app_config("league").get_models())
    with connection.cursor() as cur:
        cur.execute(f"ANALYZE {tables}")


# Eight players' roster, as a director's import file holds it (the event tests').
EVENT_ROSTER = "number,first name,last name,EMA number,country\n" + "".join(
    f"{i},First{i},Last{i},1099000{i},NL\n" for i in range(1, 9))


def make_open_event() -> Series:
    """The event tests' event: "Open", two rounds, each game ending after the hand the clock ends in."""
    from league.services import event

    s = make_series("ari-ari", slug="open", name="Open", kind="tournament")
    event.configure_event(series=s, rounds=2, ending="end_after_hand")
    return s
