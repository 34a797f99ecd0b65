"""An event with a stored hand the engine now refuses, in a finished game and
in a game being played (``tests/league/test_unreplayable.py`` makes one the
same way: a row changed in the database): every public and staff surface
answers, and every one that shows the game names the refused hand
(``Game.replay`` returns the refusal beside the result)."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Game, Hand, Series, Win
from tests.factories import EVENT_ROSTER, hanchan_passing_deal, make_director, make_open_event, play

pytestmark = pytest.mark.django_db

# The engine's reason for 1 han 25 fu, as it words it.
REASON = "25 fu (seven pairs) needs at least 2 han"


def _break_hand(game: Game, number: int) -> None:
    """A row changed in the database behind the services' back: 1 han 25 fu."""
    Win.objects.filter(hand__game=game, hand__number=number).update(han=1, fu=25)


def _event() -> tuple[Series, Game, Game]:
    """Round 1 of the event tests' event: table 1 played to its end, then its
    hand 2 broken (finished, counted); table 2 three hands in, its hand 2
    broken (being played)."""
    from league.services import event

    series = make_open_event()
    event.import_registrations(series=series, text=EVENT_ROSTER)
    rnd = event.seat_rounds(series=series).rounds[0]
    event.publish_round(round=rnd)
    event.check_in(registrations=series.registrations.all())
    finished, playing = event.start_round(round=rnd)
    play(finished, hanchan_passing_deal())
    play(playing, hanchan_passing_deal()[:3])
    _break_hand(finished, 2)
    _break_hand(playing, 2)
    finished, playing = Game.objects.get(pk=finished.pk), Game.objects.get(pk=playing.pk)
    assert finished.is_finished and not playing.is_finished
    return series, finished, playing


@pytest.fixture
def director(client: Client) -> tuple[Client, Series, Game, Game]:
    series, finished, playing = _event()
    client.force_login(make_director(series))
    return client, series, finished, playing


def test_the_replay_names_the_refused_hand_and_keeps_the_hands_before_it() -> None:
    _, finished, playing = _event()
    for game in (finished, playing):
        result, refused = game.replay()
        assert refused is not None and (refused.number, refused.code) == (2, "fu_not_possible")
        assert len(result.hands) == 1 and result.settlement is None


def test_the_api_game_names_the_refused_hand_and_counts_the_last_settlement(client: Client) -> None:
    _, finished, _playing = _event()
    body = client.get(f"/api/v1/games/{finished.pk}").json()
    assert body["refused"] == {"number": 2, "code": "fu_not_possible", "message": REASON,
                               "text": f"Hand 2 cannot be replayed: {REASON}"}
    assert [h["number"] for h in body["hands"]] == [1] and body["settlement"] == []
    # The seats keep the result the standings count: the last one the engine settled.
    assert [s["points"] for s in body["seats"]] == list(finished.seats.order_by("seat").values_list("points", flat=True))
    assert None not in [s["points"] for s in body["seats"]]


def test_the_dashboard_and_the_api_event_name_the_table_s_refused_hand(director: tuple[Client, Series, Game, Game]
                                                                       ) -> None:
    client, series, _finished, playing = director
    page = client.get(reverse("event-dashboard", args=[series.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    table = html.split(f'id="table-{playing.table}"', 1)[1].split("</li>", 1)[0]
    assert f"Hand 2 cannot be replayed: {REASON}." in table
    assert reverse("staff-edit-hand", args=[playing.pk, 2]) in table
    tables = client.get(f"/api/v1/series/{series.slug}/event").json()["tables"]
    refused = {t["game"]: t["refused"] for t in tables}
    assert refused[playing.pk]["number"] == 2 and refused[playing.pk]["code"] == "fu_not_possible"
    assert {t["game"]: t["state"] for t in tables}[playing.pk] == "playing"  # hands were played: not waiting


def test_the_hands_csv_of_a_game_stored_before_results_stops_at_the_refused_hand(client: Client) -> None:
    series, _finished, playing = _event()
    Hand.objects.filter(game=playing).update(result=None)  # a database from before the results were stored
    response = client.get(reverse("series-hands-csv", args=[series.slug]))
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert [r["hand"] for r in rows if r["game"] == str(playing.pk)] == ["1"]

