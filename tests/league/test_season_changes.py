"""The season read after a change of results starts from the last one and
reads again only the rounds the change touched (league.standings.season,
``ResultsChange``). The full pass is the oracle: after every step of a long
random sequence of every kind of writer, the season a page reads equals the
one computed from nothing, for the stage shown by default and for a round
asked for."""

from __future__ import annotations

import datetime
import random

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from league import services, stamps, stats
from league.errors import ServiceError
from league.models import Game, Penalty, Player, ResultsChange, Seat, Series, series_changed
from league.standings.season import cached_season, previous_stage, season, season_rounds
from tests.factories import bulk_finished_games, draw, hanchan_passing_deal, make_players, make_series, play, ron

pytestmark = pytest.mark.django_db


def full_pass(series: Series, through_round: int | None = None):  # noqa: ANN201
    """What ``cached_season`` must give, computed from nothing."""
    series = Series.objects.get(pk=series.pk)
    found = season_rounds(series)
    previous = previous_stage(found.rounds, found.dates, through_round, None)
    got = season(series, rounds=found.rounds, through_round=through_round,
                 before_round=previous[0] if previous else None, before_date=previous[1] if previous else None,
                 before=previous is not None)
    assert got.standings == series.standings(through_round=through_round)  # the definition
    return found, got, previous


def read(series: Series, through_round: int | None = None):  # noqa: ANN201
    return cached_season(Series.objects.get(pk=series.pk), through_round=through_round)


@pytest.fixture
def league() -> tuple[Series, list[Player]]:
    """130 rounds of two tables: the chart's 60 stretches hold two or three rounds each."""
    series = make_series(min_games=20)
    players = make_players(10)
    bulk_finished_games(series, players, 260, seed=3, tables=2)
    return series, players


def finished_games(series: Series, rng: random.Random, *, played: bool = False) -> Game:
    games = Game.objects.filter(series=series, status=Game.Status.FINISHED)
    if played:
        games = games.filter(hands__isnull=False).distinct()
    pks = sorted(games.values_list("pk", flat=True))
    return Game.objects.get(pk=rng.choice(pks))


def step(series: Series, players: list[Player], rng: random.Random, kind: str) -> None:  # noqa: C901, PLR0912
    """One change of ``kind``, through the services as staff make it."""
    last_round = Game.objects.filter(series=series).order_by("-round_number").values_list("round_number", flat=True)[0]
    four = rng.sample(players, 4)
    if kind == "end scores":  # a game kept by end scores, in an old round or the last
        rnd = rng.choice([rng.randint(1, last_round), last_round])
        game = services.start_game(series=series, players=four, round_number=rnd, table=f"x{rng.randrange(10**6)}")
        scores = rng.choice([[41000, 29000, 18000, 12000], [25000, 25000, 25000, 25000], [52000, 30000, 10000, 8000]])
        services.record_final_scores(game=game, scores=scores)
    elif kind == "played to the end":  # hand by hand, the last hand finishing it
        game = services.start_game(series=series, players=four, round_number=rng.randint(1, last_round),
                                   table=f"x{rng.randrange(10**6)}")
        play(game, hanchan_passing_deal())
    elif kind == "new round":  # the first game of a round not played before: the chart's stretches move
        game = services.start_game(series=series, players=four, round_number=last_round + 1, table="1")
        services.record_final_scores(game=game, scores=[30000, 30000, 20000, 20000])
    elif kind == "hand in play":  # nothing a finished game decides
        game = services.start_game(series=series, players=four, round_number=last_round, table=f"x{rng.randrange(10**6)}")
        play(game, [draw(0)])
    elif kind == "penalty":
        services.add_penalty(game=finished_games(series, rng), seat=rng.randrange(4), points=-rng.choice([5000, 20000]),
                             reason="late")
    elif kind == "penalty cancelled":
        penalty = Penalty.objects.filter(game__series=series, cancelled_at=None).order_by("?").first()
        if penalty is not None:
            services.cancel_penalty(penalty=penalty)
    elif kind == "hand corrected":
        game = finished_games(series, rng, played=True) if Game.objects.filter(
            series=series, hands__isnull=False, status=Game.Status.FINISHED).exists() else None
        if game is not None:
            last = game.hands.count()
            hand = rng.choice([ron(1, 0, 3, 30), ron(2, 3, 1, 30), draw(0)])
            try:
                services.correct_hand(game=game, number=rng.choice([1, last]), hand=hand)
            except ServiceError:
                pass  # refused (the game would have ended earlier): nothing changed, the table must still agree
    elif kind == "last hand undone":  # the game is no longer finished: it leaves the table
        game = finished_games(series, rng, played=True) if Game.objects.filter(
            series=series, hands__isnull=False, status=Game.Status.FINISHED).exists() else None
        if game is not None:
            services.undo_last_hand(game=game)
    elif kind == "reopened":  # a staff end taken back
        game = Game.objects.filter(series=series, status=Game.Status.FINISHED).exclude(end="").first()
        if game is not None:
            services.reopen_game(game=game)
    elif kind == "finished early":
        game = Game.objects.filter(series=series, status=Game.Status.IN_PROGRESS, hands__isnull=False).first()
        if game is not None:
            services.finish_game(game=game)
    elif kind == "snapshots refreshed":
        services.refresh_snapshots(game=finished_games(series, rng))
    elif kind == "game deleted":  # a bulk-written game (no audit entry protects it) taken away in the admin
        game = Game.objects.filter(series=series, audit__isnull=True, status=Game.Status.FINISHED).order_by("?").first()
        Seat.objects.filter(game=game).delete()
        game.delete()
    elif kind == "minimum changed":  # the series edited in the admin
        series.refresh_from_db()
        series.min_games = rng.choice([5, 20, 40])
        series.save()
    elif kind == "player renamed":
        player = rng.choice(players)
        player.name = f"{player.name.split(' ')[0]} {rng.randrange(1000)}"
        player.save()
    else:  # pragma: no cover
        raise AssertionError(kind)


KINDS = [
    "end scores", "played to the end", "new round", "hand in play", "penalty", "penalty cancelled",
    "hand corrected", "last hand undone", "reopened", "finished early", "snapshots refreshed", "game deleted",
    "minimum changed", "player renamed",
]


def test_season_after_every_kind_of_change_is_the_full_pass(league) -> None:  # noqa: ANN001
    series, players = league
    rng = random.Random(31)
    cache.clear()
    for stage in (None, 60):
        assert read(series, stage) == full_pass(series, stage)
    sequence = KINDS * 3 + [rng.choice(KINDS) for _ in range(40)]
    rng.shuffle(sequence)
    for n, kind in enumerate(sequence):
        step(series, players, rng, kind)
        for stage in (None, 60):
            assert read(series, stage) == full_pass(series, stage), f"step {n}: {kind}, through round {stage}"
        # The player pages' read: every player's finished statistics and counted totals.
        assert stats.finished_by_player_from_last(series) == stats.finished_by_player(series), f"step {n}: {kind}"


def test_a_penalty_reads_again_only_its_stretch(league) -> None:  # noqa: ANN001
    series, _ = league
    cache.clear()
    read(series)
    game = Game.objects.filter(series=series, round_number=40).first()
    services.add_penalty(game=game, seat=0, points=-20000, reason="late")
    with CaptureQueriesContext(connection) as queries:
        got = read(series)
    assert got == full_pass(series)
    grouped = [q["sql"] for q in queries if 'FROM "league_seat"' in q["sql"] and "GROUP BY" in q["sql"]]
    # The stretch of round 40 (of 130 rounds in 60 stretches: rounds 40 to 42), not the 130 rounds.
    stretch = [r for r in range(1, 131) if (r - 1) * 60 // 130 == 39 * 60 // 130]
    assert stretch == [40, 41, 42]
    assert len(grouped) == 1
    assert '"round_number" IN (40, 41, 42)' in grouped[0]


def test_a_change_nobody_described_reads_everything(league) -> None:  # noqa: ANN001
    series, _ = league
    cache.clear()
    read(series)
    game = Game.objects.filter(series=series, round_number=12).first()
    Seat.objects.filter(game=game, seat=0).update(points=999000)  # past the services: no note
    series_changed([series.pk])  # moved as a bulk write moves it: rounds unknown
    assert ResultsChange.objects.filter(series=series).last().rounds is None
    assert read(series) == full_pass(series)


def test_a_note_given_back_by_a_rollback_is_not_taken_for_the_base(league) -> None:  # noqa: ANN001
    series, _ = league
    cache.clear()
    read(series)
    base_note = ResultsChange.objects.filter(series=series).last()
    # The base's note goes (as a rollback or a restored backup would take it)
    # and another change is noted under the same number with another nonce.
    base_note.delete()
    game = Game.objects.filter(series=series, round_number=70).first()
    Seat.objects.filter(game=game, seat=1).update(points=-55000)
    ResultsChange.objects.create(pk=base_note.pk, series=series, rounds=[70])
    stamps.publish_on_commit([series.pk])
    assert read(series) == full_pass(series)


def test_a_round_asked_for_by_day_is_the_full_pass(league) -> None:  # noqa: ANN001
    series, players = league
    cache.clear()
    today = datetime.date.today()
    rng = random.Random(5)
    for kind in ("penalty", "end scores", "played to the end", "finished early", "reopened", "last hand undone"):
        step(series, players, rng, kind)
        series = Series.objects.get(pk=series.pk)
        found = season_rounds(series)
        day = found.dates[-1] if found.dates else today
        previous = previous_stage(found.rounds, found.dates, None, day)
        want = season(series, rounds=found.rounds, through_date=day, before=previous is not None,
                      before_round=previous[0] if previous else None, before_date=previous[1] if previous else None)
        assert cached_season(series, through_date=day) == (found, want, previous)


def test_a_penalty_reads_again_only_its_block_of_finished_seats(league) -> None:  # noqa: ANN001
    series, _ = league
    cache.clear()
    first = stats.finished_by_player_from_last(series)
    game = Game.objects.filter(series=series, round_number=40).first()
    services.add_penalty(game=game, seat=0, points=-20000, reason="late")
    with CaptureQueriesContext(connection) as queries:
        got = stats.finished_by_player_from_last(series)
    assert got == stats.finished_by_player(series) != first
    grouped = [q["sql"] for q in queries if 'FROM "league_seat"' in q["sql"] and "GROUP BY" in q["sql"]]
    assert len(grouped) == 1
    assert '"round_number" >= 32 AND "league_game"."round_number" < 64' in grouped[0]  # round 40's block of 32
    # A change nobody described: every seat again.
    Seat.objects.filter(game=game, seat=1).update(points=F("points") + 3000)
    series_changed([series.pk])
    assert stats.finished_by_player_from_last(series) == stats.finished_by_player(series)
