"""The two absences of a director's day, in Chromium at 1280 px, through
Tenbou's own pages (issue 32), with the clicks and typed values counted per
task like the day itself (tests/browser/test_director_day.py, whose
hand-worked totals leave no room for an absence):

- a **no-show**: player 8 is not there at check-in; round 1 will not start
  until substitute 9 takes the seat on the round's page;
- a **drop mid-round**: player 3 leaves while their table plays; the drop
  warns, names the table, and drops and seats substitute 10 at once; the
  table's end scores then count for the substitute.

The event is made on the New event page: 8 players and 2 substitutes, one
round, ari-ari.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse
from playwright.sync_api import Browser, expect

from league.models import Registration, RoundSeat, Series
from tests.browser.test_director_day import Director
from tests.browser.test_staff_entry import log_in

pytestmark = pytest.mark.django_db(transaction=True)

SLUG = "absences-2026"


def roster_csv() -> bytes:
    lines = ["Number;First name;Last name;EMA number;Country;Club;Team;Substitute"]
    lines += [f"{n};Player{n:02d};Surname{n:02d};;NL;;;no" for n in range(1, 9)]
    lines += [f"{n};Sub{n:02d};Surname{n:02d};;NL;;;yes" for n in (9, 10)]
    return ("\n".join(lines) + "\n").encode()


def test_a_no_show_and_a_drop_mid_round(browser: Browser, live_server: Any) -> None:
    base = live_server.url
    director = User.objects.create_user("director", password="runs-the-day-27")
    director.user_permissions.add(Permission.objects.get(codename="add_series"))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    d = Director(page)
    log_in(page, base, "director", "runs-the-day-27")

    d.start("new event")
    page.goto(base + reverse("staff-home"))
    d.click(page.get_by_role("link", name="New event"))
    d.type("#id_name", "Absences 2026")
    d.type("#id_start_date", "2026-05-02")
    page.select_option("#id_preset", "ari-ari")
    d.clicks[d.task] += 1
    d.type("#id_rounds", "1")
    d.click(page.get_by_role("button", name="Create the event"))
    expect(page.locator(".messages")).to_contain_text("Event created: Absences 2026.")
    series = Series.objects.get(slug=SLUG)

    d.start("registration")
    page.set_input_files("#id_file", files=[{"name": "p.csv", "mimeType": "text/csv", "buffer": roster_csv()}])
    d.clicks[d.task] += 1
    d.click(page.get_by_role("button", name="Import", exact=True))
    expect(page.locator(".messages")).to_contain_text("Imported 10 players.")

    # The no-show: everyone checked in but 8.
    d.start("no-show")
    d.click("#select-all")
    d.click(page.locator("input[name=number][value='8']"))
    d.click(page.get_by_role("button", name="Check in the selected"))
    expect(page.locator(".messages")).to_contain_text("Checked in: 9 players.")
    d.nav("Dashboard")
    d.click(page.get_by_role("button", name="Seat all 1 rounds"))
    d.click(page.get_by_role("button", name="Publish round 1"))
    d.click(page.get_by_role("button", name="Start round 1: every table at once"))
    expect(page.locator(".messages")).to_contain_text("not checked in")  # 8 is not here: refused, said
    seat_8 = RoundSeat.objects.get(round__series=series, registration__number=8)
    page.select_option("#id_seat", str(seat_8.pk))
    page.select_option("#id_substitute", str(Registration.objects.get(series=series, number=9).pk))
    d.clicks[d.task] += 2
    d.click(page.get_by_role("button", name="Put in the seat"))
    expect(page.locator(".messages")).to_contain_text("Sub09 Surname09 plays for Player08 Surname08.")
    d.click(page.get_by_role("button", name="Start round 1: every table at once"))
    expect(page.locator(".messages")).to_contain_text("Round 1 started: 2 tables")

    # The drop mid-round: 3's table plays; the drop warns and offers the substitute.
    d.start("drop mid-round")
    d.nav("Players")
    d.click(page.locator("tr", has_text="Player03 Surname03").get_by_role("button", name="Drop"))
    seat_3 = RoundSeat.objects.select_related("table").get(round__series=series, registration__number=3)
    expect(page.locator("[data-drop-warning='3']")).to_contain_text(
        f"table is playing: table {seat_3.table.number} of round 1.")
    page.select_option("#id_substitute", str(Registration.objects.get(series=series, number=10).pk))
    d.clicks[d.task] += 1
    d.click(page.get_by_role("button", name="Drop and substitute"))
    expect(page.locator(".messages")).to_contain_text(
        f"Player03 Surname03 was dropped; Sub10 Surname10 plays their seat at table {seat_3.table.number}.")

    # Both tables' end scores on the dashboard, where the drop led.
    d.start("end scores")
    for table in (1, 2):
        box = page.locator(f"#table-{table}")
        for seat, score in enumerate((40000, 30000, 20000, 10000)):
            d.type(f"#t{table}-score-{seat}", str(score))
        d.click(box.get_by_role("button", name="Record the end scores"))
        expect(page.locator(".messages")).to_contain_text("End scores recorded; the game is finished.")
    expect(page.locator("#tables-h ~ p [data-round-state=finished]")).to_have_count(1)
    page.screenshot(path="/tmp/tenbou-absences-dashboard.png", full_page=True)

    # Who played: the substitutes sat in 8's and 3's seats, and the games name them.
    seat_3.refresh_from_db()
    seat_8.refresh_from_db()
    assert (seat_8.substitute.number, seat_3.substitute.number) == (9, 10)
    assert seat_3.table.game.seats.get(seat=seat_3.wind).player_id == seat_3.substitute.player_id
    assert Registration.objects.get(series=series, number=3).is_dropped
    context.close()
    print("\nA no-show and a drop mid-round:\n" + d.report())
    assert sum(d.clicks.values()) <= 30, d.report()
