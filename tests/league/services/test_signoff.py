"""The table signs a finished game's result (issue 20): each of the four
players confirms it with their PIN on the scorer's phone or through their
seat's signed link, or disputes it for the referee. Where the series asks for
it, a game counts in the standings, Swiss seating and cuts only once signed.
Nobody signs for another seat, and nothing signed survives a change of result."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import signing

from league import services
from league.models import Game, GameAudit, Player, Seat, Series, SignOff, counting
from league.services import ServiceError, event, signoff
from league.services import stages as st
from tests.factories import hanchan_passing_deal, make_game, make_players, make_series, play, tsumo
from tests.league.services.test_stages import QUALIFYING, play_round
from tests.league.services.test_stages import make_event as make_staged_event

pytestmark = pytest.mark.django_db

END_SCORES = [40000, 30000, 20000, 10000]  # +60.0, +10.0, -20.0, -50.0 in ari-ari
PINS = ["1111", "2222", "3333", "4444"]


def with_pins(players: list[Player]) -> list[Player]:
    services.set_pins(pins=dict(zip(players, PINS, strict=True)))
    return [Player.objects.get(pk=p.pk) for p in players]


def finished_game(series: Series, players: list[Player] | None = None) -> Game:
    game = make_game(series, with_pins(players or make_players()))
    services.record_final_scores(game=game, scores=END_SCORES)
    game.refresh_from_db()
    return game


def confirm(game: Game, seat: int, **kwargs) -> SignOff:
    proof = kwargs.pop("proof", None) or {"pin": PINS[seat]}
    return services.sign_off(game=game, seat=seat, result=services.result_digest(game), **proof, **kwargs)


def refused(code: str, call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


@pytest.fixture
def strict() -> Series:
    return make_series("ari-ari", requires_signoff=True)


def names(standings) -> set[str]:
    return {r.name for r in (*standings.ranked, *standings.unranked)}


# -- the table signs ----------------------------------------------------------------------------


def test_four_players_confirm_and_the_game_counts_from_the_fourth(strict: Series) -> None:
    game = finished_game(strict)
    players = [s.player.name for s in game.seats.order_by("seat")]
    for seat in (0, 1, 2):
        confirm(game, seat)
        game.refresh_from_db()
        assert game.signed_off_at is None and not game.counts()
        assert strict.standings().ranked == ()
    link = services.seat_link_token(game, 3)
    confirm(game, 3, proof={"token": link})
    game.refresh_from_db()
    assert game.signed_off_at is not None and game.counts()
    assert [(r.name, r.total) for r in strict.standings().ranked] == list(
        zip(players, [60000, 10000, -20000, -50000], strict=True))
    trail = list(game.audit.filter(action=GameAudit.Action.SIGN_OFF).order_by("pk").values_list("after", flat=True))
    assert [(a["seat"], a["player"], a["via"]) for a in trail] == [
        (0, players[0], "pin"), (1, players[1], "pin"), (2, players[2], "pin"), (3, players[3], "link")]


def test_one_disputes_and_the_game_waits_for_the_referee(strict: Series) -> None:
    game = finished_game(strict)
    for seat in (0, 1, 2):
        confirm(game, seat)
    refused("note_needed", confirm, game, 3, dispute=True)
    disputed = confirm(game, 3, dispute=True, note="South's tsumo was 2,000 all, not 2,600")
    game.refresh_from_db()
    assert game.signed_off_at is None and strict.standings().ranked == ()
    assert services.open_disputes(strict) == [disputed]
    assert game.audit.filter(action=GameAudit.Action.DISPUTE).get().after["note"] == disputed.note
    refused("already_signed", confirm, game, 3)  # a dispute is answered by the referee, not taken back

    referee = User.objects.create_user("referee")
    services.resolve_dispute(signoff=disputed, by=referee)
    game.refresh_from_db()
    assert game.signed_off_at is not None and len(strict.standings().ranked) == 4
    assert services.open_disputes(strict) == []
    resolution = game.audit.get(action=GameAudit.Action.RESOLVE)
    assert (resolution.username, resolution.before["note"], resolution.after["resolution"]) == (
        "referee", disputed.note, "accepted")
    refused("no_dispute", services.resolve_dispute, signoff=disputed)


def test_a_correction_withdraws_every_sign_off_and_closes_the_dispute(strict: Series) -> None:
    game = make_game(strict, with_pins(make_players()))
    play(game, hanchan_passing_deal())
    game.refresh_from_db()
    for seat in (0, 1, 2):
        confirm(game, seat)
    disputed = confirm(game, 3, dispute=True, note="hand 5 was 3 han")
    services.correct_hand(game=game, number=5, hand=tsumo(1, 3, 30))
    game.refresh_from_db()
    assert SignOff.objects.filter(game=game, withdrawn_at=None).count() == 0
    disputed.refresh_from_db()
    assert disputed.resolution == SignOff.Resolution.CORRECTED and services.open_disputes(strict) == []
    withdrawn = game.audit.get(action=GameAudit.Action.WITHDRAW_SIGNOFFS)
    assert [s["seat"] for s in withdrawn.before["seats"]] == [0, 1, 2, 3]
    # The new result is signed afresh, seat by seat.
    for seat in range(4):
        confirm(game, seat)
    game.refresh_from_db()
    assert game.counts()


def test_a_change_after_a_complete_sign_off_stops_the_game_counting(strict: Series) -> None:
    game = finished_game(strict)
    for seat in range(4):
        confirm(game, seat)
    assert len(strict.standings().ranked) == 4
    services.add_penalty(game=game, seat=0, points=-10000, reason="slow play")
    game.refresh_from_db()
    assert (game.signed_off_at, strict.standings().ranked) == (None, ())


def test_a_change_that_leaves_the_result_keeps_the_sign_offs(strict: Series) -> None:
    game = make_game(strict, with_pins(make_players()))
    play(game, hanchan_passing_deal())
    for seat in range(4):
        confirm(game, seat)
    # The same hand with a note: the audit records a correction, the result is unchanged.
    hand = hanchan_passing_deal()[0]
    services.correct_hand(game=game, number=1, hand=type(hand)(outcome=hand.outcome, riichi=hand.riichi, note="ura"))
    game.refresh_from_db()
    assert game.counts() and SignOff.objects.filter(game=game, withdrawn_at=None).count() == 4


def test_a_game_being_played_has_nothing_to_sign(strict: Series) -> None:
    game = make_game(strict, with_pins(make_players()))
    refused("not_finished", services.sign_off, game=game, seat=0, result="", pin=PINS[0])


# -- nobody signs for another player ------------------------------------------------------------


def test_another_players_pin_does_not_sign_a_seat(strict: Series) -> None:
    game = finished_game(strict)
    refused("wrong_pin", confirm, game, 0, proof={"pin": PINS[1]})
    refused("wrong_pin", confirm, game, 0, proof={"pin": ""})
    assert not SignOff.objects.exists()


def test_a_player_without_a_pin_signs_through_the_link(strict: Series) -> None:
    game = make_game(strict, make_players())
    services.record_final_scores(game=game, scores=END_SCORES)
    refused("no_pin", services.sign_off, game=game, seat=0, result=services.result_digest(game), pin="1234")
    confirm(game, 0, proof={"token": services.seat_link_token(game, 0)})
    assert SignOff.objects.get().via == SignOff.Via.LINK


def test_pin_guessing_locks_the_player_after_five_wrong_pins(strict: Series) -> None:
    game = finished_game(strict)
    for guess in ("0000", "0001", "0002", "0003", "0004"):
        refused("wrong_pin", confirm, game, 0, proof={"pin": guess})
    # Now even the right PIN waits out the lock, at this table and at any other.
    refused("pin_locked", confirm, game, 0)
    other = make_game(strict, [game.seats.get(seat=0).player, *make_players(3)])
    services.record_final_scores(game=other, scores=END_SCORES)
    refused("pin_locked", confirm, other, 0)
    # Another player at the table is not locked out by it.
    confirm(game, 1)


def test_fewer_wrong_pins_than_the_limit_are_forgotten_after_the_right_one(strict: Series) -> None:
    game = finished_game(strict)
    for guess in ("9999", "8888", "7777", "6666"):
        refused("wrong_pin", confirm, game, 0, proof={"pin": guess})
    confirm(game, 0)
    second = finished_game(strict, [game.seats.get(seat=0).player, *make_players(3)])
    for guess in ("9999", "8888", "7777", "6666"):
        refused("wrong_pin", confirm, second, 0, proof={"pin": guess})
    confirm(second, 0)


def test_another_seats_link_does_not_sign_this_seat(strict: Series) -> None:
    game = finished_game(strict)
    refused("link_invalid", confirm, game, 0, proof={"token": services.seat_link_token(game, 1)})
    assert not SignOff.objects.exists()


def test_a_link_altered_or_made_elsewhere_is_refused(strict: Series) -> None:
    game = finished_game(strict)
    token = services.seat_link_token(game, 1)
    forged = signing.dumps({"g": game.pk, "s": 0, "r": services.result_digest(game), "n": 0}, salt="another salt")
    payload = signing.loads(token, salt=signoff.LINK_SALT)
    rekeyed = signing.dumps({**payload, "s": 0}, salt=signoff.LINK_SALT, key="not the server's key")
    for bad in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), forged, rekeyed, "nonsense"):
        refused("link_invalid", services.read_link, bad)


def test_a_link_from_before_a_correction_is_dead_even_when_the_result_comes_back(strict: Series) -> None:
    game = make_game(strict, with_pins(make_players()))
    play(game, hanchan_passing_deal())
    game.refresh_from_db()
    old = services.seat_link_token(game, 2)
    original = hanchan_passing_deal()[4]
    services.correct_hand(game=game, number=5, hand=tsumo(1, 3, 30))
    refused("link_stale", services.read_link, old)
    services.correct_hand(game=game, number=5, hand=original)  # the first result again
    game.refresh_from_db()
    refused("link_stale", services.read_link, old)
    refused("link_stale", services.sign_off, game=game, seat=2, result=services.result_digest(game), token=old)
    assert services.read_link(services.seat_link_token(game, 2)).seat == 2


def test_a_result_shown_before_a_change_is_not_signed(strict: Series) -> None:
    game = finished_game(strict)
    shown = services.result_digest(game)
    services.add_penalty(game=game, seat=3, points=-5000, reason="late")
    refused("result_changed", services.sign_off, game=game, seat=0, result=shown, pin=PINS[0])


def test_a_seat_signs_once(strict: Series) -> None:
    game = finished_game(strict)
    confirm(game, 0)
    refused("already_signed", confirm, game, 0)
    refused("already_signed", confirm, game, 0, proof={"token": services.seat_link_token(game, 0)})
    assert SignOff.objects.count() == 1


@pytest.mark.parametrize(("pin", "ok"), [("1234", True), ("12345678", True), ("123", False), ("123456789", False),
                                         ("12a4", False), ("١٢٣٤", False), ("", False)])
def test_a_pin_is_four_to_eight_digits(pin: str, ok: bool) -> None:
    player = make_players(1)[0]
    if ok:
        services.set_pins(pins={player: pin})
        player.refresh_from_db()
        assert pin not in player.signoff_pin and player.signoff_pin.startswith("hmac-sha256$")  # never kept as typed
        assert signoff.pin_matches(pin, player.signoff_pin) and not signoff.pin_matches(pin + "0", player.signoff_pin)
    else:
        err = refused("invalid_pin", services.set_pins, pins={player: pin})
        assert err.field == f"pin-{player.pk}"


# -- what counts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("requires", [True, False])
def test_the_standings_follow_the_series_setting(requires: bool) -> None:
    series = make_series("ari-ari", requires_signoff=requires)
    signed, unsigned = finished_game(series), finished_game(series)
    for seat in range(4):
        confirm(signed, seat)
    counted = names(series.standings())
    signed_names = {s.player.name for s in Seat.objects.filter(game=signed).select_related("player")}
    unsigned_names = {s.player.name for s in Seat.objects.filter(game=unsigned).select_related("player")}
    assert counted == (signed_names if requires else signed_names | unsigned_names)


@pytest.mark.parametrize("requires", [True, False])
def test_counting_and_game_counts_agree(requires: bool) -> None:
    series = make_series("ari-ari", requires_signoff=requires)
    playing = make_game(series, with_pins(make_players()))
    unsigned, signed = finished_game(series), finished_game(series)
    for seat in range(4):
        confirm(signed, seat)
    games = Game.objects.filter(pk__in=[playing.pk, unsigned.pk, signed.pk])
    for query in (counting(series), counting()):
        assert set(games.filter(query).values_list("pk", flat=True)) == {g.pk for g in games if g.counts()}
    assert {g.pk for g in games if g.counts()} == ({signed.pk} if requires else {signed.pk, unsigned.pk})


def test_the_results_stamp_moves_when_a_game_starts_counting(strict: Series) -> None:
    from league import stamps

    game = finished_game(strict)
    for seat in range(3):
        confirm(game, seat)
    before = stamps.results_token(strict.pk)
    confirm(game, 3)
    assert stamps.results_token(strict.pk) != before


def sign_event_round(series: Series, number: int) -> None:
    for game in Game.objects.filter(round_table__round__series=series, round_table__round__number=number):
        services.set_pins(pins={s.player: PINS[s.seat] for s in game.seats.select_related("player")})
        for seat in range(4):
            confirm(game, seat)


@pytest.mark.parametrize("requires", [True, False])
def test_swiss_seating_waits_for_the_tables_sign_off(requires: bool) -> None:
    from tests.league.services.test_event import make_event

    series = make_event(8, seating="swiss", rounds=3)
    Series.objects.filter(pk=series.pk).update(requires_signoff=requires)
    series.refresh_from_db()
    (r1,) = event.seat_rounds(series=series).rounds
    event.publish_round(round=r1)
    event.check_in(registrations=series.registrations.all())
    for game in event.start_round(round=r1):
        services.record_final_scores(game=game, scores=END_SCORES)
    if requires:
        err = refused("round_playing", event.seat_rounds, series=series)
        assert "sign-off" in err.message
        sign_event_round(series, 1)
    (r2,) = event.seat_rounds(series=series).rounds
    assert r2.number == 2


@pytest.mark.parametrize("requires", [True, False])
def test_the_cut_and_the_stage_standings_count_signed_games_only(requires: bool) -> None:
    series = make_staged_event()
    Series.objects.filter(pk=series.pk).update(requires_signoff=requires)
    series.refresh_from_db()
    for n, tables in enumerate(QUALIFYING, start=1):
        play_round(series, n, tables)
        if n < 4 and requires:
            sign_event_round(series, n)
    qualifying = st.stage_tables(series)[0]
    assert qualifying.rounds_finished == (3 if requires else 4)
    # Player 1 won rounds 1-3 (+60.0 each) and was second in round 4 (+10.0),
    # which does not count while it waits for its signatures.
    leader = qualifying.rows[0]
    assert (leader.player.number, leader.total) == (1, 180000 if requires else 190000)
    final = series.stages.get(number=2)
    if requires:
        refused("stage_unfinished", st.cut_to_stage, stage=final)
        sign_event_round(series, 4)
    assert len(st.cut_to_stage(stage=final)) == 4
