"""The EMA results file and the MERS preview.

The finished event is the 16-player event of ``services/test_stages.py``
(four qualifying rounds, a top-4 final with half carry-over): its final order
is 1, 4, 5, 2 (the final), then 6, 9, 3, 7, 8, 10, 11, 13, 12, 14, 15, 16.
Rounds 1-3 are played on 16 May 2026 and rounds 4-5 on 17 May: 2 days.
Nine countries (NL DE FR JP PL CZ SE DK IT; player 16 has none), 16 players:
weight 2 (days) + 0 (players) + 0.5 (countries) + 0 = 2.5.
"""

from __future__ import annotations

import datetime
import io
import pathlib
from decimal import Decimal
from fractions import Fraction

import pytest
from openpyxl import load_workbook

from league import ema
from league.models import Registration
from league.services import stages as st
from tests.league.services.test_stages import P, make_event, play_seated, qualify

EXPECTED = pathlib.Path(__file__).parent / "data" / "ema_expected.csv"
COUNTRIES = ["NL", "DE", "FR", "JP", "NL", "DE", "FR", "PL", "NL", "DE", "CZ", "SE", "NL", "DK", "IT", ""]
DAY1 = datetime.datetime(2026, 5, 16, 10, 0, tzinfo=datetime.UTC)
DAY2 = datetime.datetime(2026, 5, 17, 10, 0, tzinfo=datetime.UTC)


@pytest.mark.parametrize("places, ranks", [
    ([1, 2, 3, 4], [1000, 667, 333, 0]),  # 1000 * 2/3 = 666.67 -> 667
    ([1, 2, 3, 3, 5], [1000, 750, 375, 375, 0]),  # the two 3rds share place 3.5: 1000 * 1.5/4 = 375
    ([1, 1, 3], [750, 750, 0]),  # two firsts of three share 1.5: 1000 * 1.5/2 = 750
    ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16][:7], [1000, 833, 667, 500, 333, 167, 0]),
])
def test_base_rank_with_shared_places(places, ranks):
    assert ema.base_ranks(places) == ranks


@pytest.mark.parametrize("days, players, subs, countries, qualification, total, disagree", [
    (1, 40, 0, 5, False, Fraction(1), False),
    (2, 39, 2, 6, False, Fraction(3), False),  # 39 + 2 substitutes = 41 players: +0.5; 6 countries +0.5
    (2, 37, 5, 6, False, Fraction(5, 2), False),  # only 3 of 5 substitutes count: 37 + 3 = 40 players, +0
    (3, 81, 0, 10, True, Fraction(6), True),  # 3 + 1 + 1 (10 countries; the 2018 page: 0.5) + 1
    (4, 80, 0, 11, False, Fraction(9, 2), False),  # days stop at 3; 80 players +0.5; 11 countries +1 on both pages
])
def test_tournament_weight(days, players, subs, countries, qualification, total, disagree):
    event = ema.EmaEvent(name="x", shortname="x", first_day=DAY1.date(), last_day=DAY1.date(), days=days, city="",
                         host_country="", substitutes=subs, qualification=qualification)
    codes = [f"{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(countries)]
    roster = [ema.EmaPlayer(place=i + 1, first_name="a", last_name="b", ema_number="1",
                            country=codes[i % countries], total=0) for i in range(players)]
    w = ema.weight(event, roster)
    assert (w.total, w.pages_disagree) == (total, disagree)


@pytest.fixture
def finished(db):
    series = make_event(slug="tenbou-open-2026")
    for r in Registration.objects.filter(series=series):
        r.country = COUNTRIES[r.number - 1]
        r.ema_number = "" if r.number == 7 else f"040000{r.number:02d}"
        r.first_name = "Zoë" if r.number == 5 else r.first_name
        r.last_name = "van Dijk" if r.number == 3 else r.last_name
        r.save()
    st.configure_event_rules(series=series, ema_name="Tenbou Open 2026", ema_city="Utrecht", ema_country="NL")
    qualify(series, days=[DAY1, DAY1, DAY1, DAY2])
    final = series.stages.get(number=2)
    st.cut_to_stage(stage=final)
    play_seated(series, st.seat_stage_round(stage=final), {1: P}, order={1: [4, 1, 5, 2]}, now=DAY2)
    return series


def test_the_results_file_matches_the_hand_written_one_byte_for_byte(finished):
    export = st.ema_export(finished)
    assert export.finished
    assert ema.csv_bytes(export.event, export.players) == EXPECTED.read_bytes()


def test_the_excel_file_reads_back_as_the_same_rows(finished):
    export = st.ema_export(finished)
    sheet = load_workbook(io.BytesIO(ema.xlsx_bytes(export.event, export.players))).active
    read = [list(r) for r in sheet.iter_rows(values_only=True)]
    expected = [[None if v == "" else (float(v) if isinstance(v, Decimal) else v) for v in row]
                for row in ema.rows(export.event, export.players)]
    assert read == expected
    assert read[2][:8] == ["Tenbou Open 2026", 16, 2, "First4", "LAST4", "04000004", 1, 102.5]


def test_players_lacking_an_ema_number_or_country_are_listed(finished):
    export = st.ema_export(finished)
    assert [(p.place, p.last_name, lacks) for p, lacks in ema.missing(export.players)] == [
        (8, "Last7", ["EMA number"]), (16, "Last16", ["country"])]
    assert export.weight.total == Fraction(5, 2) and export.weight.country_count == 9


def test_a_name_that_looks_like_a_formula_stays_text():
    event = ema.EmaEvent(name="=1+1", shortname="x", first_day=DAY1.date(), last_day=DAY1.date(), days=1, city="",
                         host_country="", substitutes=0, qualification=False)
    players = [ema.EmaPlayer(1, "=cmd", "@sum", "", "NL", 1000), ema.EmaPlayer(2, "b", "c", "", "NL", -1000)]
    assert b"'=1+1,2,1,'=cmd,'@SUM" in ema.csv_bytes(event, players)
    sheet = load_workbook(io.BytesIO(ema.xlsx_bytes(event, players))).active
    assert [sheet["A2"].value, sheet["D2"].value, sheet["D2"].data_type] == ["=1+1", "=cmd", "s"]
