"""A three-player series through the game services (issue 36): the ruleset
decides the seat count, a game of the other count is refused naming the
field, and a three-seat game is recorded, corrected, undone, finished,
penalised and given end scores with the same checks as four."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league import services, tenhou
from league.models import Game
from tests.factories import draw, make_game, make_players, make_scorer, make_series, play, ron, tsumo

pytestmark = pytest.mark.django_db


def seat_scores(game: Game) -> list[int]:
    return [s.end_score for s in game.seats.order_by("seat")]


def test_a_three_player_series_seats_three():
    game = make_game(make_series("tenhou-sanma"), make_players(3))
    assert [s.seat for s in game.seats.order_by("seat")] == [0, 1, 2]
    assert game.ruleset().players == 3


@pytest.mark.parametrize(
    ("rules", "count", "code", "message"),
    [
        ("tenhou-sanma", 4, "three_players", "a game of this series (tenhou-sanma) needs three players, not 4"),
        ("mahjong-soul-sanma", 2, "three_players",
         "a game of this series (mahjong-soul-sanma) needs three players, not 2"),
        ("ari-ari", 3, "four_players", "a game of this series (ari-ari) needs four players, not 3"),
    ],
)
def test_a_game_of_the_other_seat_count_is_refused_naming_the_field(rules, count, code, message):
    with pytest.raises(services.ServiceError) as exc:
        services.start_game(series=make_series(rules), players=make_players(count))
    assert (exc.value.code, exc.value.field, exc.value.message) == (code, "players", message)
    assert not Game.objects.exists()


def test_a_three_seat_game_is_recorded_corrected_undone_and_finished():
    game = make_game(make_series("tenhou-sanma"), make_players(3))
    play(game, [ron(1, 0, 3, 40), tsumo(2, 1, 30)])
    services.correct_hand(game=game, number=1, hand=ron(2, 0, 3, 40))
    game.refresh_from_db()
    assert game.hands.count() == 2
    services.undo_last_hand(game=game)
    assert game.hands.count() == 1
    with pytest.raises(services.ServiceError) as exc:
        services.record_hand(game=game, number=2, hand=ron(3, 0, 1, 30))
    assert exc.value.field is not None and "loser" in exc.value.field
    play(game, [draw(0, 1)])
    finished = services.finish_game(game=game)
    scores = seat_scores(finished)
    assert len(scores) == 3 and sum(scores) == 3 * 35_000
    seats = list(finished.seats.order_by("seat"))
    assert sorted(s.place for s in seats) == [1, 2, 3]
    assert sum(s.points for s in seats) == 0


def test_end_scores_and_penalties_take_three_seats():
    series = make_series("tenhou-sanma")
    game = make_game(series, make_players(3))
    with pytest.raises(services.ServiceError) as exc:
        services.record_final_scores(game=game, scores=[40_000, 35_000, 20_000, 10_000])
    assert (exc.value.field, exc.value.message) == ("final.scores", "scores must be three numbers, one per seat")
    done = services.record_final_scores(game=game, scores=[50_000, 35_000, 20_000])
    assert seat_scores(done) == [50_000, 35_000, 20_000]
    assert sum(s.points for s in done.seats.all()) == 0
    with pytest.raises(services.ServiceError) as exc:
        services.add_penalty(game=done, seat=3, points=-10_000, reason="late")
    assert exc.value.field == "penalties[0].seat", exc.value.message
    services.add_penalty(game=done, seat=2, points=-10_000, reason="late")
    assert sum(s.points for s in done.seats.all()) == -10_000


def test_three_seats_sign_off_and_the_game_counts_from_the_third():
    series = make_series("tenhou-sanma", requires_signoff=True)
    players = make_players(3)
    services.set_pins(pins=dict(zip(players, ["1111", "2222", "3333"], strict=True)))
    game = services.record_final_scores(game=make_game(series, players), scores=[50_000, 35_000, 20_000])
    game.refresh_from_db()
    with pytest.raises(services.ServiceError) as exc:
        services.sign_off(game=game, seat=3, result=services.result_digest(game), pin="1111")
    assert (exc.value.code, exc.value.field, str(exc.value.message)) == ("invalid_seat", "seat", "A seat is 0 to 2.")
    for seat, pin in ((0, "1111"), (1, "2222")):
        services.sign_off(game=game, seat=seat, result=services.result_digest(game), pin=pin)
        game.refresh_from_db()
        assert game.signed_off_at is None and series.standings().ranked == ()
    link = services.seat_link_token(game, 2)
    services.sign_off(game=game, seat=2, result=services.result_digest(game), token=link)
    game.refresh_from_db()
    assert game.signed_off_at is not None
    assert sorted(r.name for r in series.standings().ranked) == sorted(p.name for p in players)


def test_a_three_seat_game_exports_as_a_three_player_tenhou_log():
    # Issue 36 replaced the refusal this test held ("cannot be exported ... yet") with the export.
    game = make_game(make_series("tenhou-sanma"), make_players(3))
    play(game, [ron(1, 0, 3, 40), tsumo(2, 4, 30)])
    text = services.export_tenhou_log(game=game)
    log = tenhou.read_log(text)  # read, not imported: the game is not over
    assert log.players == 3 and log.names == tuple(s.player.name for s in game.seats.order_by("seat"))
    assert [h.outcome for h in tenhou.log_to_record(log).hands] == [h.outcome for h in game.record().hands]
    house = make_game(make_series({"preset": "tenhou-sanma", "overrides": {"tsumo_loss": False}}), make_players(3))
    with pytest.raises(services.ServiceError) as exc:
        services.export_tenhou_log(game=house)
    assert (exc.value.code, exc.value.message) == (
        "not_exportable", "tenhou.net/6 JSON cannot carry the rule changes ['tsumo_loss']")


def test_staff_start_three_players_and_keep_three_end_scores(client):
    series = make_series("tenhou-sanma")
    client.force_login(make_scorer(series))
    url = reverse("staff-start", args=[series.slug])
    page = client.get(url).content.decode()
    assert 'name="west"' in page and 'name="north"' not in page
    a, b, c = make_players(3)
    response = client.post(url, {"round_number": 1, "table": "A", "east": a.pk, "south": b.pk, "west": c.pk})
    game = Game.objects.get()
    assert response.status_code == 302 and [s.player for s in game.seats.order_by("seat")] == [a, b, c]
    final = reverse("staff-final-scores", args=[game.pk])
    page = client.get(final).content.decode()
    assert 'name="score_2"' in page and 'name="score_3"' not in page
    response = client.post(final, {"score_0": 50_000, "score_1": 35_000, "score_2": 20_000, "riichi_sticks": 0})
    assert response.status_code == 302
    assert seat_scores(Game.objects.get()) == [50_000, 35_000, 20_000]
