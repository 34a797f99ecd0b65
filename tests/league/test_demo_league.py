"""The demo league: every kind of hand, built through the services, idempotent."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from league.models import Game, GameAudit, Hand, Penalty, Registration, Round, RoundSeat, Series, Win
from league.standings.event import event_standings
from tests.factories import refresh_planner_statistics

pytestmark = pytest.mark.django_db


def test_demo_league_has_every_outcome_and_is_idempotent(demo_league: None) -> None:
    """The command's first build is the tests' copy (tests/conftest.py builds it
    with the command once per run; test_the_tests_copy_of_the_demo_is_what_the_command_builds
    holds the copy to a fresh build): read here, then the command again, which
    rebuilds nothing. ``--reset``, which rebuilds everything, is that test's
    build (one demo build fewer per pass than running it here too)."""
    refresh_planner_statistics()
    series = Series.objects.get(slug="demo-league")
    hands = Hand.objects.filter(game__series=series)
    assert set(hands.values_list("outcome", flat=True)) == set(Hand.Outcome.values)
    assert Win.objects.filter(hand__outcome=Hand.Outcome.RON, order=1).exists()  # double ron
    assert Win.objects.filter(pao__isnull=False).count() == 2
    assert hands.exclude(nagashi=[]).exists()
    assert series.games.exclude(final_scores=None).count() == 2
    assert series.games.filter(status=Game.Status.IN_PROGRESS).count() == 1
    assert Penalty.objects.filter(game__series=series).count() == 1
    assert GameAudit.objects.filter(game__series=series, action=GameAudit.Action.RECORD_HAND).count() == hands.count()
    standings = series.standings()
    assert len(standings.ranked) + len(standings.unranked) == 32
    check_demo_tournament()  # built by the same command, checked here to build the demo once less
    assert sum(r.total for r in standings.ranked + standings.unranked) == -10000  # the one penalty

    out = StringIO()
    call_command("demo_league", "--allow-without-debug", stdout=out)
    assert "already there" in out.getvalue()
    assert Series.objects.count() == 3  # the league, the tournament and the finished cup (league.management.demo.stages)


def test_demo_league_gives_a_scorer_login_only_with_debug_on(settings, demo_league: None) -> None:
    """On the demo already there (the tests' copy): the command makes the login with DEBUG on only.
    (A first build with DEBUG off makes none either: test_production.py.)"""
    from django.contrib.auth import authenticate

    settings.DEBUG = False
    call_command("demo_league", "--allow-without-debug", stdout=StringIO())
    assert authenticate(username="scorer", password="scorer") is None
    settings.DEBUG = True
    out = StringIO()
    call_command("demo_league", "--allow-without-debug", stdout=out)
    user = authenticate(username="scorer", password="scorer")
    assert user is not None and not user.is_superuser
    assert all(s.scorers.filter(pk=user.pk).exists() for s in Series.objects.all())
    assert "scorer" in out.getvalue()


def check_demo_tournament() -> None:
    """32 players, 8 rounds seated, 3 played, one substitute (issue 15)."""
    series = Series.objects.get(slug="demo-tournament")
    assert series.registrations.filter(is_substitute=False).count() == 32
    assert series.registrations.filter(is_substitute=True).count() == 1
    rounds = list(series.event_rounds.order_by("number"))
    assert [r.status for r in rounds] == [Round.Status.STARTED] * 3 + [Round.Status.PUBLISHED] + [Round.Status.DRAFT] * 4
    for rnd in rounds:
        assert sorted(rnd.seats.values_list("registration__number", flat=True)) == list(range(1, 33))
    assert series.games.count() == 24 and not series.games.filter(status=Game.Status.IN_PROGRESS).exists()
    (sub,) = RoundSeat.objects.filter(round__series=series).exclude(substitute=None)
    assert (sub.round.number, sub.substitute.is_substitute) == (3, True)
    # The event's rule is EMA's: the missing player scores -15.0 and -15.0 uma for that game.
    absent = event_standings(series).standings.by_player()[sub.registration.player_id]
    assert absent.games == 3
    played = RoundSeat.objects.filter(registration=sub.registration, round__number__lt=3)
    real = sum(s.table.game.seats.get(seat=s.wind).points for s in played)
    assert absent.total == real - 30000
    assert Registration.objects.get(pk=sub.registration_id).status == Registration.Status.REGISTERED  # a no-show


def test_the_tests_copy_of_the_demo_is_what_the_command_builds(demo_league: None) -> None:
    """tests/demo.py copies one build into the tests that read the demo: the copy equals a fresh build,
    made by ``--reset`` over it (which rebuilds everything, with as many hands)."""

    def picture() -> tuple[dict[str, int], list[str], list[str]]:
        counts = {m.__name__: m.objects.count() for m in (Series, Game, Hand, Win, Penalty, GameAudit, Round,
                                                          RoundSeat, Registration)}
        hands = Hand.objects.values_list("game__series__slug", "number", "outcome", "tiles", "result")
        games = Game.objects.values_list("series__slug", "status", "final_scores", "started_at", "finished_at")
        return counts, sorted(map(repr, hands)), sorted(map(repr, games))  # games that start together: any order

    copied = picture()
    assert copied[0]["Hand"] > 500 and copied[0]["Series"] == 3
    count = Hand.objects.filter(game__series__slug="demo-league").count()
    call_command("demo_league", "--reset", "--allow-without-debug", stdout=StringIO())
    assert Hand.objects.filter(game__series__slug="demo-league").count() == count
    assert picture() == copied


def test_the_demo_copy_read_from_another_worker_is_the_same_rows(_demo_rows: Any) -> None:
    """Under pytest-xdist the workers but one read the rows from the file the first wrote
    (tests/conftest.py): what they read is every row, field for field, and it loads."""
    from tests import demo

    def values(rows: demo.Rows) -> list[tuple[str, list[tuple[Any, ...]]]]:
        return [(model._meta.label, [tuple(getattr(o, f.attname) for f in model._meta.local_concrete_fields)
                                     for o in objs]) for model, objs in rows]

    read = demo.loads(demo.dumps(_demo_rows))
    assert [model for model, _ in read] == [model for model, _ in _demo_rows]
    assert values(read) == values(_demo_rows)
    demo.load(read)
    assert Series.objects.count() == 3
    assert Hand.objects.count() == sum(len(objs) for model, objs in read if model is Hand)


def test_demo_rows_written_for_other_columns_are_refused(_demo_rows: Any) -> None:
    """A file of rows kept between runs (TENBOU_DEMO_ROWS, .ci/run) is read only by the
    same models: one written before a column changed is refused, not loaded wrong."""
    import pickle

    from tests import demo

    written = pickle.loads(demo.dumps(_demo_rows))
    label, columns, objs = written[0]
    written[0] = (label, [*columns, "a_column_since_removed"], objs)
    with pytest.raises(RuntimeError, match=f"other columns of {label}"):
        demo.loads(pickle.dumps(written))
