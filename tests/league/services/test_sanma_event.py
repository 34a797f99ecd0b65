"""An event of three-player mahjong (issue 36): its ruleset seats tables of
three, pre-generated and Swiss, refuses a field that does not divide by three
with the substitutes needed, and starts each table as a three-seat game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Game
from league.seating import wind_counts
from league.services import ServiceError, event, record_final_scores
from league.services import stages as st
from league.services.event.rounds import tables_as_ids
from league.services.stages import StagePlan
from tests.factories import make_director, make_series
from tests.league.services.test_event import roster

pytestmark = pytest.mark.django_db


def make_sanma_event(n: int, *, subs: int = 0, rounds: int = 4, **settings) -> object:
    series = make_series("tenhou-sanma", kind="tournament")
    event.configure_event(series=series, rounds=rounds, **settings)
    event.import_registrations(series=series, text=roster(n, subs=subs))
    return series


def test_a_three_player_event_is_seated_at_tables_of_three_without_repeats():
    series = make_sanma_event(9)
    report = event.seat_rounds(series=series)
    tables = [tables_as_ids(r) for r in report.rounds]
    assert len(tables) == 4 and all(len(t) == 3 for rnd in tables for t in rnd)
    # 9 players, 4 rounds: the Kirkman triple system of order 9, no pair twice
    assert report.quality.repeat_count == 0 == report.quality.lower_bound
    assert all(max(c) - min(c) <= 1 and len(c) == 3 for c in wind_counts(tables).values())


@pytest.mark.parametrize(("players", "subs", "message"), [
    (10, 0, "10 players cannot sit at tables of three: 2 substitutes are needed (register 2 more with "
            "'substitute' ticked, or drop 1)"),
    (8, 0, "8 players cannot sit at tables of three: 1 substitute is needed (register 1 more with "
           "'substitute' ticked, or drop 2)"),
])
def test_a_field_not_divisible_by_three_is_refused_with_the_substitutes_needed(players, subs, message):
    series = make_sanma_event(players, subs=subs)
    with pytest.raises(ServiceError) as caught:
        event.seat_rounds(series=series)
    assert (caught.value.code, caught.value.message) == ("player_count", message)


def test_a_substitute_fills_a_table_of_three():
    series = make_sanma_event(8, subs=1)
    report = event.seat_rounds(series=series)
    assert [r.number for r in report.substitutes_seated] == [9]
    assert all(len(t) == 3 for rnd in report.rounds for t in tables_as_ids(rnd))


def test_swiss_seats_the_next_round_in_threes_and_starts_three_seat_games():
    series = make_sanma_event(6, seating="swiss")
    first = event.seat_rounds(series=series).rounds[0]
    assert [len(t) for t in tables_as_ids(first)] == [3, 3]
    event.publish_round(round=first)
    event.check_in(registrations=series.registrations.all())
    games = event.start_round(round=first)
    assert [g.seats.count() for g in games] == [3, 3]
    for game in games:
        record_final_scores(game=game, scores=[50_000, 35_000, 20_000])
    assert Game.objects.filter(series=series, status=Game.Status.FINISHED).count() == 2
    second = event.seat_rounds(series=series).rounds[0]
    assert second.number == 2 and [len(t) for t in tables_as_ids(second)] == [3, 3]


def test_a_three_player_event_cuts_to_a_final_table_of_three():
    series = make_sanma_event(6, rounds=3)
    with pytest.raises(ServiceError) as caught:
        st.set_stages(series=series, plans=[
            StagePlan(name="Qualifying", first_round=1, last_round=2),
            StagePlan(name="Final", first_round=3, last_round=3, entry="top", top=4, carry="half"),
        ])
    assert (caught.value.code, caught.value.field, caught.value.message) == (
        "invalid_top", "stages[2].top", "stage 2 (Final): the cut takes a multiple of 3 players (3, 6, 12...)")
    qualifying, final = st.set_stages(series=series, plans=[
        StagePlan(name="Qualifying", first_round=1, last_round=2),
        StagePlan(name="Final", first_round=3, last_round=3, entry="top", top=3, carry="half"),
    ])
    event.check_in(registrations=series.registrations.all())
    rounds = event.seat_rounds(series=series).rounds
    assert [r.number for r in rounds] == [1, 2]  # the final is seated from the stages page
    k = 0
    for rnd in rounds:
        event.publish_round(round=rnd)
        for game in event.start_round(round=rnd):
            k += 1  # every game a different result, so no one is level at the cut
            record_final_scores(game=game, scores=[50_000 + 3_000 * k, 35_000 - 1_000 * k, 20_000 - 2_000 * k])
    entries = st.cut_to_stage(stage=final)
    assert len(entries) == 3
    rnd = st.seat_stage_round(stage=final)
    assert rnd.number == 3 and [len(t) for t in tables_as_ids(rnd)] == [3]
    assert set(tables_as_ids(rnd)[0]) == {e.registration_id for e in entries}


EMA_REFUSAL = ("The EMA ranks four-player riichi only: a three-player event has no EMA results file and no "
               "MERS weight.")


def test_the_ema_file_and_mers_preview_refuse_a_three_player_event(client):
    series = make_sanma_event(6)
    with pytest.raises(ServiceError) as caught:
        st.ema_export(series)
    assert (caught.value.code, caught.value.field, caught.value.message) == ("three_player_event", "series",
                                                                              EMA_REFUSAL)
    client.force_login(make_director(series, "director"))
    for page in (reverse("ema-preview", args=[series.slug]), reverse("ema-file", args=[series.slug, "csv"]),
                 reverse("ema-file", args=[series.slug, "xlsx"])):
        response = client.get(page, follow=True)
        assert response.redirect_chain[0] == (reverse("stages-manage", args=[series.slug]), 302)
        assert EMA_REFUSAL in response.content.decode()


def test_a_three_player_event_file_round_trips_and_its_cuts_are_checked_against_threes():
    import json

    from league import game_records

    series = make_sanma_event(6, rounds=3)
    st.set_stages(series=series, plans=[
        StagePlan(name="Qualifying", first_round=1, last_round=2),
        StagePlan(name="Final", first_round=3, last_round=3, entry="top", top=3, carry="half"),
    ])
    event.check_in(registrations=series.registrations.all())
    for k, rnd in enumerate(event.seat_rounds(series=series).rounds):
        event.publish_round(round=rnd)
        for j, game in enumerate(event.start_round(round=rnd)):
            d = 2 * k + j
            record_final_scores(game=game, scores=[50_000 + 3_000 * d, 35_000 - 1_000 * d, 20_000 - 2_000 * d])
    lines = list(game_records.series_lines(series))
    header = json.loads(lines[0])
    assert all(len(t["seats"]) == 3 for r in header["rounds"] for t in r["tables"])
    copy = game_records.import_lines(lines, slug="sanma-copy").series
    assert [[(r.player.number, r.total) for r in t.rows] for t in st.stage_tables(copy)] == [
        [(r.player.number, r.total) for r in t.rows] for t in st.stage_tables(series)]
    header["stages"][1]["top"] = 4  # a cut of four cannot seat tables of three
    with pytest.raises(game_records.ImportRefused) as err:
        game_records.import_lines([json.dumps(header), *lines[1:]], slug="sanma-bad")
    assert [(e.code, e.field) for e in err.value.errors] == [("invalid_top", "stages[1].top")]
    assert "multiple of 3" in err.value.errors[0].message
