"""Event-day services: registration, seating, publishing, starting a round,
substitutes, the clock and hidden results, each case worked by hand.

Rules are ari-ari unless a test says otherwise: start 25,000, return 30,000,
uma +30/+10/-10/-30, oka +20 to first. End scores 40,000 / 30,000 / 20,000 /
10,000 (East, South, West, North) settle as +60.0 / +10.0 / -20.0 / -50.0:
(40 - 30) + 30 + 20, (30 - 30) + 10, (20 - 30) - 10, (10 - 30) - 30.
"""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from league.models import EventAudit, Game, Player, Registration, Round, RoundSeat, Seat, Series
from league.services import ServiceError, event, record_final_scores
from league.standings.event import event_standings
from tests.factories import chombo, draw, make_game, make_series, play, tsumo

pytestmark = pytest.mark.django_db

END_SCORES = [40000, 30000, 20000, 10000]  # +60.0, +10.0, -20.0, -50.0


def roster(n: int, *, start: int = 1, subs: int = 0) -> str:
    lines = ["number,first name,last name,country,substitute"]
    lines += [f"{i},First{i},Last{i},NL,no" for i in range(start, start + n)]
    lines += [f"{i},Sub{i},Stand-in{i},DE,yes" for i in range(start + n, start + n + subs)]
    return "\n".join(lines) + "\n"


def make_event(n: int = 8, *, subs: int = 0, rounds: int = 3, start: int = 1, **settings) -> Series:
    series = make_series("ari-ari", kind="tournament")
    event.configure_event(series=series, rounds=rounds, **settings)
    event.import_registrations(series=series, text=roster(n, subs=subs, start=start))
    return series


def reg(series: Series, number: int) -> Registration:
    return Registration.objects.get(series=series, number=number)


def seats_of(rnd: Round) -> list[list[int]]:
    """Each table's event numbers, East first."""
    tables: dict[int, list[int]] = {}
    for s in rnd.seats.order_by("table__number", "wind").select_related("table", "registration"):
        tables.setdefault(s.table.number, []).append(s.registration.number)
    return [tables[k] for k in sorted(tables)]


def ready(series, *, rounds: int = 1) -> list[Round]:
    """Seat, publish and check everyone in; returns the rounds."""
    report = event.seat_rounds(series=series)
    for rnd in report.rounds[:rounds]:
        event.publish_round(round=rnd)
    event.check_in(registrations=series.registrations.all())
    return report.rounds


# -- registration ---------------------------------------------------------------------


def test_import_registers_every_player_and_finds_known_ones_by_name() -> None:
    known = Player.objects.create(name="First2 Last2", club="Old club")
    series = make_event(4)
    regs = list(series.registrations.order_by("number"))
    assert [(r.number, r.name, r.country) for r in regs] == [(i, f"First{i} Last{i}", "NL") for i in range(1, 5)]
    assert regs[1].player == known
    assert len({r.code for r in regs}) == 4
    assert EventAudit.objects.filter(series=series, action="import").count() == 1


def test_import_refuses_the_whole_file_when_a_line_clashes_with_the_event() -> None:
    series = make_event(4)
    Player.objects.create(name="Taken Name", ema_number="10990001")
    text = ("number,first name,last name,EMA number\n"
            "5,Fine,Player,\n"            # line 2: fine on its own
            "3,Late,Comer,\n"             # line 3: number 3 is taken
            "6,First1,Last1,\n"           # line 4: already registered
            "7,Other,Name,10990001\n")    # line 5: that EMA number is someone else's
    with pytest.raises(event.RegistrationImportError) as caught:
        event.import_registrations(series=series, text=text)
    assert [str(e) for e in caught.value.errors] == [
        "line 3: number: 3 is already registered",
        "line 4: First1 Last1 is already registered",
        "line 5: EMA number: 10990001 belongs to Taken Name, not Other Name",
    ]
    assert series.registrations.count() == 4  # nothing of the file, not even line 2
    assert not Player.objects.filter(name="Fine Player").exists()


def test_register_one_player_takes_the_next_number_and_checks_the_country() -> None:
    series = make_event(4)
    r = event.register_player(series=series, first_name=" Mei ", last_name="Lin", country="tw", ema_number="10010003")
    assert (r.number, r.name, r.country, r.player.ema_number) == (5, "Mei Lin", "TW", "10010003")
    with pytest.raises(ServiceError) as caught:
        event.register_player(series=series, first_name="A", last_name="B", country="XX")
    assert (caught.value.code, caught.value.field) == ("invalid_country", "country")


def test_check_in_and_drop() -> None:
    series = make_event(4)
    assert event.check_in(registrations=[reg(series, 1), reg(series, 2)]) == 2
    assert event.check_in(registrations=[reg(series, 1)]) == 0  # already here
    event.drop_player(registration=reg(series, 3))
    with pytest.raises(ServiceError) as caught:
        event.check_in(registrations=[reg(series, 3)])
    assert caught.value.code == "dropped"
    assert [r.status for r in series.registrations.order_by("number")] == [
        "checked_in", "checked_in", "dropped", "registered"]


# -- seating and publishing -------------------------------------------------------------


@pytest.mark.parametrize(("players", "subs", "message"), [
    (6, 0, "6 players cannot sit at tables of four: 2 substitutes are needed (register 2 more with 'substitute' "
           "ticked, or drop 2)"),
    (7, 0, "7 players cannot sit at tables of four: 1 substitute is needed (register 1 more with 'substitute' "
           "ticked, or drop 3)"),
    (5, 1, "5 players cannot sit at tables of four: 3 substitutes are needed (register 2 more with 'substitute' "
           "ticked, or drop 1)"),
])
def test_seating_refuses_a_count_that_is_not_a_multiple_of_four(players: int, subs: int, message: str) -> None:
    series = make_event(players, subs=subs)
    with pytest.raises(ServiceError) as caught:
        event.seat_rounds(series=series)
    assert (caught.value.code, caught.value.message) == ("player_count", message)
    assert not series.event_rounds.exists()


def test_substitutes_fill_the_tables_and_every_round_seats_everyone_once() -> None:
    series = make_event(6, subs=3, rounds=3)  # 6 players + 2 of the 3 substitutes = 8
    report = event.seat_rounds(series=series)
    assert [r.number for r in report.substitutes_seated] == [7, 8]
    assert len(report.rounds) == 3
    for rnd in report.rounds:
        numbers = sorted(n for table in seats_of(rnd) for n in table)
        assert numbers == [1, 2, 3, 4, 5, 6, 7, 8]
        assert rnd.status == Round.Status.DRAFT
    assert report.quality.wind_spread <= 1


def test_swap_exchanges_two_seats_and_reports_the_quality() -> None:
    series = make_event(8, rounds=2)
    rnd = event.seat_rounds(series=series).rounds[0]
    before = seats_of(rnd)
    a, b = before[0][0], before[1][2]  # table 1 East, table 2 West
    quality = event.swap_players(round=rnd, first=reg(series, a), second=reg(series, b))
    after = seats_of(rnd)
    assert after[0][0] == b and after[1][2] == a
    assert quality.repeat_count == event.schedule_quality(series).repeat_count
    assert quality.players == 8 and quality.rounds == 2
    assert EventAudit.objects.filter(series=series, action="swap").count() == 1


def test_publish_in_order_then_start_only_published() -> None:
    series = make_event(8, rounds=2)
    r1, r2 = event.seat_rounds(series=series).rounds
    with pytest.raises(ServiceError) as caught:
        event.publish_round(round=r2)
    assert caught.value.code == "earlier_round"
    with pytest.raises(ServiceError) as caught:
        event.start_round(round=r1)
    assert caught.value.code == "not_published"
    event.publish_round(round=r1)
    r1.refresh_from_db()
    assert r1.status == Round.Status.PUBLISHED and r1.published_at is not None


# -- starting a round --------------------------------------------------------------------


def test_start_round_creates_every_table_game_with_its_seats_and_winds() -> None:
    series = make_event(8)
    rnd = ready(series)[0]
    seated = seats_of(rnd)
    games = event.start_round(round=rnd)
    assert [g.table for g in games] == ["1", "2"]
    for game, numbers in zip(games, seated, strict=True):
        assert game.round_number == 1
        assert [s.player.name for s in game.seats.order_by("seat")] == [f"First{n} Last{n}" for n in numbers]
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.STARTED and rnd.started_at is not None


def test_start_round_refuses_players_not_checked_in_or_dropped() -> None:
    series = make_event(8)
    rnd = event.seat_rounds(series=series).rounds[0]
    event.publish_round(round=rnd)
    event.check_in(registrations=series.registrations.exclude(number=4))
    event.drop_player(registration=reg(series, 5))
    with pytest.raises(ServiceError) as caught:
        event.start_round(round=rnd)
    assert caught.value.code == "cannot_start"
    assert "First4 Last4" in caught.value.message and "is not checked in" in caught.value.message
    assert "First5 Last5" in caught.value.message and "was dropped" in caught.value.message
    assert not Game.objects.filter(series=series).exists()


def test_a_player_never_sits_in_two_unfinished_games() -> None:
    series = make_event(8)
    rnd = ready(series)[0]
    elsewhere = make_game(make_series(), players=[reg(series, 3).player, *[Player.objects.create(name=f"X{i}")
                                                                           for i in range(3)]])
    with pytest.raises(ServiceError) as caught:
        event.start_round(round=rnd)
    assert caught.value.code == "cannot_start"
    assert f"First3 Last3 is still playing {elsewhere}" in caught.value.message
    assert not Game.objects.filter(series=series).exists()
    record_final_scores(game=elsewhere, scores=END_SCORES)
    assert len(event.start_round(round=rnd)) == 2


# -- substitutes ------------------------------------------------------------------------------


def _substituted_round(series) -> tuple[RoundSeat, Registration]:
    """Round 1 with substitute 9 in table 1's South seat, every game ended
    40,000 / 30,000 / 20,000 / 10,000."""
    rnd = ready(series)[0]
    south = rnd.seats.get(table__number=1, wind=1)
    sub = reg(series, 9)
    event.substitute(seat=south, substitute=sub)
    for game in event.start_round(round=rnd):
        record_final_scores(game=game, scores=END_SCORES)
    return south, sub


@pytest.mark.parametrize(("rule", "listed", "registered", "substitute"), [
    ("real", False, (1, 10000), None),        # the seat's +10.0 is the registered player's
    ("not_counted", False, None, None),       # no game counted: not in the standings at all
    ("fixed", False, (1, -30000), None),      # EMA: -15.0 and -15.0 uma, whatever the table did
    ("fixed", True, (1, -30000), (1, 10000)),  # and the substitute listed with the real +10.0
])
def test_a_substituted_seat_counts_as_the_event_says(rule, listed, registered, substitute) -> None:
    series = make_event(8, subs=1, substitute_result=rule, substitutes_in_standings=listed)
    seat, sub = _substituted_round(series)
    game = seat.table.game
    assert Seat.objects.get(game=game, seat=1).player == sub.player  # the game names who played
    rows = event_standings(series).standings.by_player()
    mine = rows.get(seat.registration.player_id)
    assert (None if mine is None else (mine.games, mine.total)) == registered
    theirs = rows.get(sub.player_id)
    assert (None if theirs is None else (theirs.games, theirs.total)) == substitute
    east = rows[RoundSeat.objects.get(round=seat.round, table__number=1, wind=0).registration.player_id]
    assert (east.games, east.total) == (1, 60000)  # the others keep their real results


def test_substitute_after_the_start_changes_the_game_seat_until_the_first_hand() -> None:
    series = make_event(8, subs=1)
    rnd = ready(series)[0]
    games = event.start_round(round=rnd)
    seat = rnd.seats.get(table__number=2, wind=3)
    event.substitute(seat=seat, substitute=reg(series, 9))
    assert games[1].seats.get(seat=3).player == reg(series, 9).player
    play(games[1], [draw(0)])
    with pytest.raises(ServiceError) as caught:
        event.substitute(seat=seat, substitute=None)
    assert caught.value.code == "game_begun"


def test_a_dropped_players_seat_needs_a_substitute() -> None:
    series = make_event(8, subs=1)
    rnd = ready(series)[0]
    dropped = reg(series, 2)
    event.drop_player(registration=dropped)
    with pytest.raises(ServiceError):
        event.start_round(round=rnd)
    event.substitute(seat=rnd.seats.get(registration=dropped), substitute=reg(series, 9))
    assert len(event.start_round(round=rnd)) == 2


# -- the clock ----------------------------------------------------------------------------------


def _timed_game(series, *, minutes_ago: int) -> Game:
    rnd = ready(series)[0]
    event.set_clock(round=rnd, minutes=60)
    return event.start_round(round=rnd, now=timezone.now() - datetime.timedelta(minutes=minutes_ago))[0]


def test_one_more_hand_ends_the_game_after_the_second_hand_past_time() -> None:
    series = make_event(8, ending="one_more_hand")
    game = _timed_game(series, minutes_ago=61)  # 60 minutes: time ran out a minute ago
    play(game, [tsumo(1, 2, 30)])
    assert event.apply_time_policy(game=game) is False
    assert event.clock_verdict(game).notice == "Time is up: this is the last hand. The game ends after it."
    play(game, [chombo(2)])  # a chombo is no hand played
    assert event.apply_time_policy(game=game) is False
    play(game, [draw(0)])
    assert event.apply_time_policy(game=game) is True
    game.refresh_from_db()
    assert (game.status, game.end) == (Game.Status.FINISHED, Game.End.EARLY)
    assert EventAudit.objects.filter(series=series, action="time_policy").count() == 1


def test_end_after_hand_ends_the_game_after_the_first_hand_past_time_and_extra_time_delays_it() -> None:
    series = make_event(8, ending="end_after_hand")
    game = _timed_game(series, minutes_ago=61)
    event.set_extra_time(table=game.round_table, minutes=5)  # now 4 minutes left at this table
    play(game, [tsumo(1, 2, 30)])
    assert event.apply_time_policy(game=game) is False
    assert event.clock_verdict(game).time_up is False
    event.set_extra_time(table=game.round_table, minutes=0)
    play(game, [tsumo(2, 2, 30)])
    assert event.apply_time_policy(game=game) is True


def test_a_saved_hand_past_time_ends_the_game_in_its_own_transaction() -> None:
    """The save asks the clock with what its lock read (whether the game is a
    table of a round): a table past time ends with the hand; a game of no
    round is never asked about a clock."""
    from league.services import entry

    series = make_event(8, ending="end_after_hand")
    game = _timed_game(series, minutes_ago=61)
    saved = entry.save_entry(game=game, number=1, hand=tsumo(1, 2, 30), editing=False)
    game.refresh_from_db()
    assert saved.time_up and (game.status, game.end) == (Game.Status.FINISHED, Game.End.EARLY)
    other = make_game(make_series())
    assert entry.save_entry(game=other, number=1, hand=tsumo(1, 2, 30), editing=False).time_up is False


def test_hands_before_time_do_not_count_and_no_policy_never_ends_a_game() -> None:
    series = make_event(8, ending="none")
    game = _timed_game(series, minutes_ago=61)
    play(game, [tsumo(1, 2, 30), draw(0), draw(1)])
    assert event.apply_time_policy(game=game) is False
    series2 = make_event(8, ending="end_after_hand", start=101)  # other people: the first event's still play
    early = _timed_game(series2, minutes_ago=10)  # 50 minutes left
    play(early, [tsumo(1, 2, 30)])
    assert event.apply_time_policy(game=early) is False
    assert event.clock_verdict(early).notice.endswith("left in this round.")


# -- hidden results ------------------------------------------------------------------------------


def test_hidden_rounds_leave_the_public_standings_until_revealed() -> None:
    series = make_event(8, rounds=2)
    r1, r2 = ready(series, rounds=2)
    for game in event.start_round(round=r1):
        record_final_scores(game=game, scores=END_SCORES)
    event.hide_results(series=series, from_round=2)
    for game in event.start_round(round=r2):
        record_final_scores(game=game, scores=[10000, 20000, 30000, 40000])
    public = event_standings(series, public=True)
    staff = event_standings(series)
    assert (public.through_round, public.hidden_from) == (1, 2)
    assert {r.games for r in public.standings.ranked} == {1}
    assert {r.games for r in staff.standings.ranked} == {2}
    event.reveal_results(series=series)
    assert event_standings(series, public=True).standings == staff.standings


def test_swiss_seats_the_next_round_from_the_standings_once_the_last_is_over() -> None:
    # Round 1 (seated by number, nobody has results yet); every table ends
    # +60.0 / +10.0 / -20.0 / -50.0. With two tables of four, round 2 cannot
    # avoid repeats: each of its tables holds at least two players from one
    # round-1 table, so at least 2 x 2 = 4 pairs meet again.
    series = make_event(8, seating="swiss", rounds=5)
    (r1,) = event.seat_rounds(series=series).rounds
    event.publish_round(round=r1)
    event.check_in(registrations=series.registrations.all())
    games = event.start_round(round=r1)
    with pytest.raises(ServiceError) as caught:
        event.seat_rounds(series=series)
    assert caught.value.code == "round_playing"
    for game in games:
        record_final_scores(game=game, scores=END_SCORES)
    report = event.seat_rounds(series=series)
    (r2,) = report.rounds
    assert (r2.number, r2.seated_by, r2.status) == (2, "swiss", Round.Status.DRAFT)
    assert sorted(n for t in seats_of(r2) for n in t) == list(range(1, 9))
    assert report.quality.repeat_count == 4
    winners = {s.registration.number for s in r1.seats.filter(wind=0)}  # East took +60.0 at both tables
    assert any(winners <= set(t) for t in seats_of(r2))  # the leaders sit together


def test_swap_is_refused_once_the_round_started() -> None:
    series = make_event(8)
    rnd = ready(series)[0]
    event.start_round(round=rnd)
    a, b = seats_of(rnd)[0][0], seats_of(rnd)[1][0]
    with pytest.raises(ServiceError) as caught:
        event.swap_players(round=rnd, first=reg(series, a), second=reg(series, b))
    assert caught.value.code == "round_started"
