"""The demo league: every kind of hand, built through the services, idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from league.models import AuditEntry, Game, Hand, Penalty, Series, Win
from tests.factories import refresh_planner_statistics

pytestmark = pytest.mark.django_db


def test_demo_league_has_every_outcome_and_is_idempotent() -> None:
    call_command("demo_league", "--allow-without-debug", stdout=StringIO())
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
    assert AuditEntry.objects.filter(action=AuditEntry.Action.RECORD_HAND).count() == hands.count()
    standings = series.standings()
    assert len(standings.ranked) + len(standings.unranked) == 32
    assert sum(r.total for r in standings.ranked + standings.unranked) == -10000  # the one penalty

    out = StringIO()
    call_command("demo_league", "--allow-without-debug", stdout=out)
    assert "already there" in out.getvalue()
    assert Series.objects.count() == 1

    count = hands.count()
    call_command("demo_league", "--reset", "--allow-without-debug", stdout=StringIO())
    assert Hand.objects.filter(game__series__slug="demo-league").count() == count


def test_demo_league_gives_a_scorer_login_only_with_debug_on(settings) -> None:
    from django.contrib.auth import authenticate

    settings.DEBUG = False
    call_command("demo_league", "--allow-without-debug", stdout=StringIO())
    assert authenticate(username="scorer", password="scorer") is None
    settings.DEBUG = True
    out = StringIO()
    call_command("demo_league", "--allow-without-debug", stdout=out)
    user = authenticate(username="scorer", password="scorer")
    assert user is not None and not user.is_superuser
    assert Series.objects.get().scorers.filter(pk=user.pk).exists()
    assert "scorer" in out.getvalue()
