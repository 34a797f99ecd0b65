"""Stages, the cut, carry-over, tie-breaks and teams: one 16-player event worked by hand.

Rules are ari-ari (start 25,000, return 30,000, uma +30/+10/-10/-30, oka +20
to first). End scores 40,000 / 30,000 / 20,000 / 10,000 settle as +60.0,
+10.0, -20.0, -50.0. One table of round 4 ends 45,000 / 25,000 / 16,000 /
14,000: +65.0 (15 + 30 + 20), +5.0 (-5 + 10), -24.0 (-14 - 10), -46.0 (-16 - 30).

Four qualifying rounds; each table is listed in finishing order (1st first):

    round 1: [1 2 3 4]    [5 6 7 8]     [9 10 11 12]   [13 14 15 16]
    round 2: [1 5 9 13]   [6 2 10 14]   [3 7 11 15]    [4 8 12 16]
    round 3: [1 6 11 16]  [2 7 12 13]   [9 3 8 14]     [5 4 10 15]
    round 4: [7 1 9 15]   [2 8 10 16]   [5 3 11 13]    [4 6 12 14] (45/25/16/14)

Totals:  1: 60+60+60+10 = 190     5: 60+10+60+60 = 190     2: 10+10+60+60 = 140
         4: -50+60+10+65 = 85     6: 10+60+10+5 = 85       9: 60-20+60-20 = 80
         3: -20+60+10+10 = 60     7: -20+10+10+60 = 60     8: -50+10-20+10 = -50
        10: 10-20-20-20 = -50    11: -20 x 4 = -80        13: 60-50-50-50 = -90
        12: -50-20-20-24 = -114  14: 10-50-50-46 = -136   15: -20-50-50-50 = -170
        16: -50 x 4 = -200       (they sum to 0)

Level pairs, each met once: 1 above 5 (round 2), 4 above 6 (round 4: the cut
line of a top 4), 3 above 7 (round 2), 8 above 10 (round 4): head-to-head.
"""

from __future__ import annotations

import datetime

import pytest

from league.models import Registration, Series
from league.services import ServiceError, event, record_final_scores
from league.services import stages as st
from league.services.event.rounds import store_round
from league.services.stages import StagePlan
from tests.factories import make_series

pytestmark = pytest.mark.django_db

P = [40000, 30000, 20000, 10000]
QUALIFYING = [
    [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]],
    [[1, 5, 9, 13], [6, 2, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]],
    [[1, 6, 11, 16], [2, 7, 12, 13], [9, 3, 8, 14], [5, 4, 10, 15]],
    [[7, 1, 9, 15], [2, 8, 10, 16], [5, 3, 11, 13], [4, 6, 12, 14]],
]
SCORES = {(4, 4): [45000, 25000, 16000, 14000]}  # (round, table) -> end scores when not P
TEAMS = {1: "Red", 6: "Red", 11: "Red", 16: "Red", 2: "Green", 7: "Green", 12: "Green", 13: "Green"}


def make_event(slug: str | None = None) -> Series:
    series = make_series("ari-ari", kind="tournament", slug=slug)
    event.configure_event(series=series, rounds=5)
    lines = ["number,first name,last name,country,team"]
    lines += [f"{i},First{i},Last{i},NL,{TEAMS.get(i, '')}" for i in range(1, 17)]
    event.import_registrations(series=series, text="\n".join(lines) + "\n")
    event.check_in(registrations=series.registrations.all())
    st.set_stages(series=series, plans=[
        StagePlan(name="Qualifying", first_round=1, last_round=4),
        StagePlan(name="Final", first_round=5, last_round=5, entry="top", top=4, carry="half"),
    ])
    return series


def number_of(series: Series) -> dict[int, int]:
    return dict(Registration.objects.filter(series=series).values_list("pk", "number"))


def play_round(series: Series, number: int, tables: list[list[int]], scores: dict[int, list[int]] | None = None,
               now: datetime.datetime | None = None) -> None:
    """Seat ``tables`` (event numbers in finishing order, seated East to North), start and finish them."""
    regs = {r.number: r.pk for r in series.registrations.all()}
    tournament = event.ensure_event(series)
    # "manual": seated by the test, a mode Round.seated_by knows.
    rnd = store_round(series, tournament, number, [[regs[n] for n in t] for t in tables], "manual")
    play_seated(series, rnd, {i: (scores or {}).get(i, P) for i in range(1, len(tables) + 1)}, now=now)


def play_seated(series: Series, rnd, scores_by_table: dict[int, list[int]], order: dict[int, list[int]] | None = None,
                now: datetime.datetime | None = None) -> None:
    """Start a seated round; each table finishes with its scores going to its
    players in ``order`` (event numbers, 1st first), East first when not given."""
    event.publish_round(round=rnd)
    event.start_round(round=rnd, now=now)
    numbers = number_of(series)
    for table in rnd.tables.select_related("game"):
        seats = {s.wind: numbers[s.registration_id] for s in table.seats.all()}
        scores = scores_by_table[table.number]
        if order is None:
            by_seat = scores
        else:
            place_of = {n: i for i, n in enumerate(order[table.number])}
            by_seat = [scores[place_of[seats[w]]] for w in range(4)]
        record_final_scores(game=table.game, scores=by_seat)


def qualify(series: Series, days: list[datetime.datetime] | None = None) -> None:
    for n, tables in enumerate(QUALIFYING, start=1):
        play_round(series, n, tables, {t: SCORES[(n, t)] for (r, t) in SCORES if r == n},
                   now=days[n - 1] if days else None)


def rows_of(table) -> list[tuple[int, int, bool, str | None]]:
    return [(r.player.number, r.total, r.tied, r.separated_by) for r in table.rows]


def test_qualifying_standings_with_every_tie_broken_by_head_to_head() -> None:
    series = make_event()
    qualify(series)
    qualifying, final = st.stage_tables(series)
    assert rows_of(qualifying) == [
        (1, 190000, False, None), (5, 190000, False, "head_to_head"), (2, 140000, False, "points"),
        (4, 85000, False, "points"), (6, 85000, False, "head_to_head"), (9, 80000, False, "points"),
        (3, 60000, False, "points"), (7, 60000, False, "head_to_head"), (8, -50000, False, "points"),
        (10, -50000, False, "head_to_head"), (11, -80000, False, "points"), (13, -90000, False, "points"),
        (12, -114000, False, "points"), (14, -136000, False, "points"), (15, -170000, False, "points"),
        (16, -200000, False, "points"),
    ]
    assert [r.rank for r in qualifying.rows] == list(range(1, 17))
    # The cut line of the top 4 falls between 4 and 6, level on 85.0: head-to-head decided it.
    assert qualifying.complete and qualifying.cut == 4 and qualifying.cut_rule == "head_to_head"
    assert [r.player.number for r in qualifying.rows if r.goes_on] == [1, 5, 2, 4]
    # Before the cut the final is a preview: half of 190.0, 190.0, 140.0 and 85.0 (85.0 / 2 = 42.5 exactly).
    assert final.preview and [(r.player.number, r.seed, r.carried) for r in final.rows] == [
        (1, 1, 95000), (5, 2, 95000), (2, 3, 70000), (4, 4, 42500)]


def test_the_order_of_the_rules_decides_who_goes_on() -> None:
    # Fewest fourths first: 4 has one (round 1), 6 none: 6 goes on instead.
    series = make_event()
    st.configure_event_rules(series=series, tiebreaks="fewest_fourths,head_to_head")
    qualify(series)
    qualifying = st.stage_tables(series)[0]
    assert [r.player.number for r in qualifying.rows if r.goes_on] == [1, 5, 2, 6]
    assert qualifying.cut_rule == "fewest_fourths"


def test_a_tie_left_at_the_cut_needs_a_playoff() -> None:
    series = make_event()
    st.configure_event_rules(series=series, tiebreaks="playoff")
    qualify(series)
    qualifying, final = st.stage_tables(series)
    assert qualifying.cut_tie == ["First4 Last4", "First6 Last6"]
    with pytest.raises(ServiceError) as err:
        st.cut_to_stage(stage=final.stage)
    assert err.value.code == "tie_at_cut" and err.value.field == "playoff"
    reg = {r.number: r for r in series.registrations.all()}
    st.record_playoff(series=series, stage=qualifying.stage, places=[(reg[6], 1), (reg[4], 2)])
    entries = st.cut_to_stage(stage=final.stage)
    assert [(e.registration.number, e.seed, e.previous_total, e.carried) for e in entries] == [
        (1, 1, 190000, 95000), (5, 2, 190000, 95000), (2, 3, 140000, 70000), (6, 4, 85000, 42500)]
    assert st.stage_tables(series)[0].cut_rule == "playoff"


def test_the_cut_waits_for_the_last_qualifying_game() -> None:
    series = make_event()
    for n, tables in enumerate(QUALIFYING[:3], start=1):
        play_round(series, n, tables)
    with pytest.raises(ServiceError) as err:
        st.cut_to_stage(stage=series.stages.get(number=2))
    assert err.value.code == "stage_unfinished"
    assert "3 of 4 rounds" in err.value.message


def test_final_with_half_carry_over_and_the_whole_event_order() -> None:
    # Final (seeds 1, 5, 2, 4 at one table): 4 wins +60.0, 1 second +10.0, 5 third -20.0, 2 fourth -50.0.
    #   1: 95.0 + 10.0 = 105.0   4: 42.5 + 60.0 = 102.5   5: 95.0 - 20.0 = 75.0   2: 70.0 - 50.0 = 20.0
    # 1 keeps the title on the points carried in although 4 won the final.
    series = make_event()
    qualify(series)
    final_stage = series.stages.get(number=2)
    st.cut_to_stage(stage=final_stage)
    rnd = st.seat_stage_round(stage=final_stage)
    assert rnd.number == 5 and sorted(s.registration.number for s in rnd.seats.all()) == [1, 2, 4, 5]
    play_seated(series, rnd, {1: P}, order={1: [4, 1, 5, 2]})
    qualifying, final = st.stage_tables(series)
    assert final.entrants_known and final.complete
    assert [(r.player.number, r.seed, r.carried, r.stage_points, r.total) for r in final.rows] == [
        (1, 1, 95000, 10000, 105000), (4, 4, 42500, 60000, 102500), (5, 2, 95000, -20000, 75000),
        (2, 3, 70000, -50000, 20000)]
    # Games start from the ruleset's start score: the carry-over is in the standings only.
    assert sorted(s.end_score for s in rnd.tables.get().game.seats.all()) == [10000, 20000, 30000, 40000]
    result = st.final_result(series)
    assert [(r.place, r.player.number) for r in result] == [
        (1, 1), (2, 4), (3, 5), (4, 2), (5, 6), (6, 9), (7, 3), (8, 7), (9, 8), (10, 10), (11, 11), (12, 13),
        (13, 12), (14, 14), (15, 15), (16, 16)]
    assert [r.stage.name for r in result[3:5]] == ["Final", "Qualifying"]


def test_snake_seats_the_seeds_1_8_9_16_at_one_table() -> None:
    assert st.snake_tables(range(1, 17)) == [(1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)]
    assert st.snake_tables(range(1, 9)) == [(1, 4, 5, 8), (2, 3, 6, 7)]
    # Teammates 1 and 16 would share table 1: 16 changes places with 15, the next seed of that band.
    assert st.snake_tables(range(1, 17), {1: "X", 16: "X"}) == [
        (1, 8, 9, 15), (2, 7, 10, 16), (3, 6, 11, 14), (4, 5, 12, 13)]


def test_team_standings_sum_and_best_two_per_round() -> None:
    # Red 1, 6, 11, 16; Green 2, 7, 12, 13. Per round (round 5 is the final above):
    #   Red   sum: r1 60+10-20-50 = 0, r2 60+60-20-50 = 50, r3 60+10-20-50 = 0, r4 10+5-20-50 = -55, r5 10 -> 5.0
    #   Green sum: r1 10-20-50+60 = 0, r2 10+10-20-50 = -50, r3 60+10-20-50 = 0, r4 60+60-24-50 = 46, r5 -50 -> -54.0
    #   Red best 2: 70 + 120 + 70 + 15 + 10 = 285.0;  Green best 2: 70 + 20 + 70 + 120 - 50 = 230.0
    series = make_event()
    qualify(series)
    final_stage = series.stages.get(number=2)
    st.cut_to_stage(stage=final_stage)
    play_seated(series, st.seat_stage_round(stage=final_stage), {1: P}, order={1: [4, 1, 5, 2]})
    teams = st.team_standings(series)
    assert [(t.name, t.rank, t.total, t.by_round) for t in teams] == [
        ("Red", 1, 5000, {1: 0, 2: 50000, 3: 0, 4: -55000, 5: 10000}),
        ("Green", 2, -54000, {1: 0, 2: -50000, 3: 0, 4: 46000, 5: -50000}),
    ]
    st.configure_event_rules(series=series, team_scoring="best", team_best=2)
    teams = st.team_standings(series)
    assert [(t.name, t.total) for t in teams] == [("Red", 285000), ("Green", 230000)]
    numbers = number_of(series)
    assert sorted(numbers[p] for p in teams[0].counted[4]) == [1, 6]


@pytest.mark.parametrize("plans, code, field", [
    ([StagePlan("Final", 1, 1, entry="top", top=4)], "invalid_entry", "stages[1].entry"),
    ([StagePlan("Q", 1, 4), StagePlan("F", 6, 6, entry="top", top=4)], "invalid_rounds", "stages[2].first_round"),
    ([StagePlan("Q", 1, 4), StagePlan("F", 5, 5, entry="top", top=6)], "invalid_top", "stages[2].top"),
    ([StagePlan("Q", 1, 4), StagePlan("F", 5, 5, entry="top", top=4, carry="fixed", fixed_points=(8000, 4000))],
     "invalid_fixed_points", "stages[2].fixed_points"),
])
def test_stage_plans_refused_with_the_field_at_fault(plans, code, field) -> None:
    series = make_series("ari-ari", kind="tournament")
    with pytest.raises(ServiceError) as err:
        st.set_stages(series=series, plans=plans)
    assert (err.value.code, err.value.field) == (code, field)


def test_fixed_carry_over_per_seed() -> None:
    # Vortex-style fixed starts: +8.0 / +4.0 / 0 / -4.0 to seeds 1-4, whatever they scored before.
    series = make_event()
    st.set_stages(series=series, plans=[
        StagePlan(name="Qualifying", first_round=1, last_round=4),
        StagePlan(name="Final", first_round=5, last_round=5, entry="top", top=4, carry="fixed",
                  fixed_points=(8000, 4000, 0, -4000)),
    ])
    qualify(series)
    entries = st.cut_to_stage(stage=series.stages.get(number=2))
    assert [(e.registration.number, e.carried) for e in entries] == [(1, 8000), (5, 4000), (2, 0), (4, -4000)]


def test_the_event_seating_keeps_teammates_apart() -> None:
    # 16 players in 4 teams of 4 (1-4, 5-8, 9-12, 13-16), 4 rounds: every table can hold one of each team.
    series = make_series("ari-ari", kind="tournament")
    event.configure_event(series=series, rounds=4)
    lines = ["number,first name,last name,team"] + [f"{i},F{i},L{i},Team {(i - 1) // 4}" for i in range(1, 17)]
    event.import_registrations(series=series, text="\n".join(lines) + "\n")
    report = event.seat_rounds(series=series)
    teams = {r.pk: r.team for r in series.registrations.all()}
    together = sum(1 for rnd in report.rounds for t in rnd.tables.all()
                   for a in t.seats.all() for b in t.seats.all()
                   if a.pk < b.pk and teams[a.registration_id] == teams[b.registration_id])
    assert (report.quality.teammates_together, together) == (0, 0)


def test_the_event_standings_use_the_tie_breaks() -> None:
    # The flat event table (dashboard, public page, Swiss seating, CSV) orders the level pairs as the stages do.
    from league.standings.event import event_standings

    series = make_event()
    qualify(series)
    ranked = event_standings(series).standings.ranked
    assert [(r.name.split()[0], r.rank, r.tied) for r in ranked[:10]] == [
        ("First1", 1, False), ("First5", 2, False), ("First2", 3, False), ("First4", 4, False), ("First6", 5, False),
        ("First9", 6, False), ("First3", 7, False), ("First7", 8, False), ("First8", 9, False), ("First10", 10, False)]
    st.configure_event_rules(series=series, tiebreaks="playoff")
    ranked = event_standings(series).standings.ranked
    assert [(r.name.split()[0], r.rank, r.tied) for r in ranked[:2]] == [("First1", 1, True), ("First5", 1, True)]


def test_the_event_seating_stops_at_the_cut() -> None:
    # Five rounds planned, the final (round 5) after a cut: "seat all rounds" seats the four qualifying rounds.
    series = make_event()
    assert [r.number for r in event.seat_rounds(series=series).rounds] == [1, 2, 3, 4]
    event.configure_event(series=series, seating="swiss")
    for rnd in series.event_rounds.all():
        rnd.delete()
    qualify(series)
    with pytest.raises(ServiceError) as err:
        event.seat_rounds(series=series)
    assert (err.value.code, err.value.field) == ("stage_seating", "rounds")
