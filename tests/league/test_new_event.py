"""The New event page and its edit page (issue 32): who may use them, an
event made from them with its rules, stages and EMA details, each bad value
refused with a message naming its field, and what may still change once
round 1 has started."""

from __future__ import annotations

import dataclasses
import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import reverse

from league.models import Event, Series
from league.models.stages import EventRules, Stage
from league.services import ServiceError, event
from league.services.event import setup
from scoring.rules import get_ruleset
from tests.factories import make_series

pytestmark = pytest.mark.django_db

ROSTER = "number,first name,last name,EMA number,country\n" + "".join(
    f"{i},First{i},Last{i},1099000{i},NL\n" for i in range(1, 9))

GOOD = {
    "name": "Utrecht Open 2026", "slug": "", "start_date": "2026-05-02", "end_date": "2026-05-03",
    "preset": "ema-2016", "start_points": "", "return_points": "", "uma_1": "", "uma_2": "", "uma_3": "",
    "uma_4": "", "oka": "", "aka_dora": "", "rounds": "5", "seating": "pregenerated", "time_limit": "90",
    "ending": "one_more_hand", "substitute_result": "fixed", "substitute_score": "-15.0", "substitute_uma": "-15.0",
    "stages": "Qualifying: rounds 1-4\nFinal: round 5, top 4, half, snake", "ema_name": "Utrecht Open",
    "ema_city": "Utrecht", "ema_country": "nl", "ema_days": "2",
}


@pytest.fixture
def creator() -> User:
    user = User.objects.create_user("maker")
    user.user_permissions.add(Permission.objects.get(codename="add_series"))
    return user


@pytest.fixture
def maker(client: Client, creator: User) -> Client:
    client.force_login(creator)
    return client


def errors(response: Any) -> list[str]:
    return [html.unescape(e) for e in re.findall(r'<ul class="errorlist"[^>]*>\s*<li>(.*?)</li>', response.content.decode())]


def test_the_new_event_page_needs_the_permission(client: Client) -> None:
    assert client.get(reverse("event-new")).status_code == 302  # to the login
    client.force_login(User.objects.create_user("someone"))
    assert client.get(reverse("event-new")).status_code == 403
    assert client.post(reverse("event-new"), GOOD).status_code == 403
    assert not Series.objects.exists()


def test_an_event_made_from_the_page(maker: Client, creator: User) -> None:
    page = maker.get(reverse("event-new")).content.decode()
    assert '<tr data-preset="ema-2016">' in page and '<tr data-preset="tenhou-sanma">' not in page  # four a table
    response = maker.post(reverse("event-new"), {**GOOD, "uma_1": "20", "uma_2": "5", "uma_3": "-5",
                                                 "uma_4": "-20", "aka_dora": "3"})
    assert response.status_code == 302
    series = Series.objects.get()
    assert response["Location"] == reverse("event-players", args=[series.slug])
    assert (series.name, series.slug, series.kind) == ("Utrecht Open 2026", "utrecht-open-2026", "tournament")
    assert str(series.start_date) == "2026-05-02" and str(series.end_date) == "2026-05-03"
    rules = series.ruleset()
    assert rules.uma == (20000, 5000, -5000, -20000) and rules.aka_dora == 3 and rules.start_points == 30000
    assert list(series.directors.all()) == [creator] and not series.scorers.exists()
    t = Event.objects.get(series=series)
    assert (t.rounds, t.seating, t.time_limit, t.substitute_score, t.substitute_uma) == (
        5, "pregenerated", 90, -15000, -15000)
    assert [(s.name, s.first_round, s.last_round, s.top) for s in Stage.objects.filter(series=series)] == [
        ("Qualifying", 1, 4, None), ("Final", 5, 5, 4)]
    ema = EventRules.objects.get(series=series)
    assert (ema.ema_name, ema.ema_city, ema.ema_country, ema.ema_days) == ("Utrecht Open", "Utrecht", "NL", 2)
    assert "event created: Utrecht Open 2026" in [a.describe() for a in series.event_audit.all()]


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"end_date": "2026-05-01"}, "end_date", "end date: the event ends on 2026-05-01, before it starts on 2026-05-02"),
    ({"rounds": "0"}, "rounds", "Rounds planned: must be a whole number from 1 to 100, not 0"),
    ({"rounds": "1000000"}, "rounds", "Rounds planned: must be a whole number from 1 to 100, not 1000000"),
    ({"time_limit": "0"}, "time_limit", "Time limit (minutes): must be a whole number from 1 to 600, not 0"),
    ({"time_limit": str(10**12)}, "time_limit",
     "Time limit (minutes): must be a whole number from 1 to 600, not 1000000000000"),
    ({"uma_1": "20", "uma_2": "5", "uma_3": "-5", "uma_4": "-10"}, "uma_1",
     "uma: uma must sum to zero, it sums to 10000"),
    ({"uma_1": "20"}, "uma_1", "Uma: give all four places, or none to keep the preset's."),
    ({"start_points": "1e9"}, "start_points", "Start points: must be a whole number from 100 to 1,000,000, not 1e9"),
    ({"ema_days": "40"}, "ema_days", "Days: must be a whole number from 1 to 31, not 40"),
    ({"name": "Club League"}, "name", "name: another series is already called 'Club League'"),
    ({"slug": "club"}, "slug", "slug: another series already has the address 'club'"),
])
def test_a_bad_value_is_refused_naming_its_field(maker: Client, change: dict[str, str], field: str,
                                                  words: str) -> None:
    make_series(slug="club", name="Club League")
    response = maker.post(reverse("event-new"), {**GOOD, **change})
    assert response.status_code == 400
    assert words in errors(response)
    # The message sits at its field: the field's own block holds it.
    block = re.search(rf'<div class="field[^"]*has-error[^"]*">(?:(?!<div class="field).)*name="{field}"',
                      response.content.decode(), re.S)
    assert block is not None, f"no error at {field}"
    assert Series.objects.count() == 1


def test_the_service_refuses_a_duplicate_name_in_any_case(creator: User) -> None:
    make_series(slug="club", name="Club League")
    plan = setup.EventPlan(name="club league", slug="other", start_date=None, end_date=None,
                           rules={"preset": "ema-2016"}, settings={})
    with pytest.raises(ServiceError) as refused:
        setup.create_event(plan=plan, by=creator)
    assert (refused.value.code, refused.value.field) == ("duplicate_name", "name")


def test_the_edit_page_changes_everything_until_round_1_starts(maker: Client) -> None:
    maker.post(reverse("event-new"), GOOD)
    series = Series.objects.get()
    url = reverse("event-edit", args=[series.slug])
    form = {**GOOD, "slug": series.slug, "preset": "wrc-2022", "rounds": "4", "stages": ""}
    assert maker.post(url, form).status_code == 302
    series.refresh_from_db()
    assert series.ruleset() == get_ruleset("wrc-2022") and Event.objects.get(series=series).rounds == 4


def test_after_round_1_starts_only_what_may_still_change_does(maker: Client) -> None:
    maker.post(reverse("event-new"), {**GOOD, "rounds": "2", "stages": ""})
    series = Series.objects.get()
    event.import_registrations(series=series, text=ROSTER)
    first = event.seat_rounds(series=series).rounds[0]
    event.publish_round(round=first)
    event.check_in(registrations=series.registrations.all())
    event.start_round(round=first)
    url = reverse("event-edit", args=[series.slug])
    page = maker.get(url).content.decode()
    assert "Round 1 has started" in page
    assert re.search(r'<select name="preset"[^>]*disabled', page)
    # A changed preset is ignored (its field is disabled); the clock and the name change.
    response = maker.post(url, {**GOOD, "slug": series.slug, "preset": "wrc-2022", "time_limit": "75",
                                "name": "Utrecht Open", "stages": "", "rounds": "2"})
    assert response.status_code == 302
    series.refresh_from_db()
    assert series.ruleset() == get_ruleset("ema-2016") and series.name == "Utrecht Open"
    assert Event.objects.get(series=series).time_limit == 75
    plan = setup.current_plan(series)
    with pytest.raises(ServiceError) as refused:
        setup.edit_event(series=series, plan=dataclasses.replace(plan, rules={"preset": "wrc-2022"}), by=None)
    assert (refused.value.code, refused.value.field) == ("event_started", "preset")


def test_a_director_of_another_event_cannot_edit_this_one(client: Client, creator: User) -> None:
    other = make_series(slug="other", kind="tournament")
    event.ensure_event(other)
    client.force_login(creator)
    assert client.get(reverse("event-edit", args=["other"])).status_code == 403
