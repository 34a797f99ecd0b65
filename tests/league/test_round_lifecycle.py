"""A round's life as the pages tell it: seated, published, started, and
finished once its last table is; the clock stops then, and a game the clock
ended says so (not "staff ended it early")."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Round
from league.services import event, finish_game, record_final_scores
from tests.factories import draw, make_director, play, tsumo
from tests.league.services.test_event import make_event, ready

pytestmark = pytest.mark.django_db
SCORES = [40000, 30000, 20000, 10000]


def test_a_round_is_finished_when_its_last_table_is(client: Client) -> None:
    series = make_event(8, rounds=2)
    rnd = ready(series)[0]
    games = event.start_round(round=rnd)
    record_final_scores(game=games[0], scores=SCORES)
    assert Round.objects.get(pk=rnd.pk).is_finished is False
    client.force_login(make_director(series, "director"))
    dashboard = client.get(reverse("event-dashboard", args=[series.slug])).content.decode()
    assert 'data-round-state="started"' in dashboard and 'data-round-state="finished"' not in dashboard
    record_final_scores(game=games[1], scores=SCORES)
    assert Round.objects.get(pk=rnd.pk).is_finished is True

    dashboard = client.get(reverse("event-dashboard", args=[series.slug], query={"round": 1})).content.decode()
    assert dashboard.count('data-round-state="finished"') == 2  # the rounds list and the round's tables
    assert 'http-equiv="refresh"' not in dashboard  # nothing left to watch
    assert "1 round left to play" in dashboard
    # Pre-generated seating seats all rounds at once and refuses once one is published: no button.
    assert reverse("event-seat", args=[series.slug]) not in dashboard

    public = client.get(reverse("event-public", args=[series.slug])).content.decode()
    # Round 2 is seated but not published: round 1 is the one shown, finished, with no clock.
    assert "Round 1 (finished)" in public and "being played" not in public and "Time left" not in public
    clock = client.get(reverse("event-screen", args=[series.slug, "clock"])).content.decode()
    assert "Round 1 is finished" in clock and "data-ends" not in clock


def test_a_game_ended_by_the_clock_says_so(client: Client) -> None:
    series = make_event(8, ending="end_after_hand")
    rnd = ready(series)[0]
    event.set_clock(round=rnd, minutes=60)
    game = event.start_round(round=rnd, now=timezone.now() - datetime.timedelta(minutes=61))[0]
    play(game, [tsumo(1, 2, 30)])
    assert event.apply_time_policy(game=game) is True
    game.refresh_from_db()
    assert game.ended_by_clock
    client.force_login(make_director(series, "director"))
    page = client.get(reverse("staff-game", args=[game.pk])).content.decode()
    assert "time was up and the event&#x27;s time policy ended it" in page
    assert "staff ended it early" not in page
    public = client.get(reverse("game-detail", args=[game.pk])).content.decode()
    assert "Ended by the clock" in public and "Ended early by staff" not in public


def test_a_game_staff_ended_still_says_staff_ended_it(client: Client) -> None:
    series = make_event(8)
    rnd = ready(series)[0]
    game = event.start_round(round=rnd)[0]
    play(game, [draw(0)])
    finish_game(game=game, end="early")
    game.refresh_from_db()
    assert not game.ended_by_clock
    client.force_login(make_director(series, "director"))
    assert "staff ended it early" in client.get(reverse("staff-game", args=[game.pk])).content.decode()
