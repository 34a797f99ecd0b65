"""An event with a stored hand the engine now refuses, in a finished game and
in a game being played (``tests/league/test_unreplayable.py`` makes one the
same way: a row changed in the database): every public and staff surface
answers, and every one that shows the game names the refused hand
(``Game.replay`` returns the refusal beside the result)."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from league import services, stats
from league.api import schemas
from league.models import Game, Hand, Series, Win
from league.standings.event import event_standings
from tests.factories import (
    EVENT_ROSTER,
    hanchan_passing_deal,
    make_director,
    make_game,
    make_open_event,
    make_players,
    make_series,
    play,
    tsumo,
)

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


def test_a_refused_game_in_the_api_is_where_the_game_is_and_the_game_s_refused_hand(client: Client) -> None:
    """One shape of a refused hand: the standings' refused game is the game's
    place (game, round, table), then what the game itself says of its hand,
    key for key and in that order, in both languages."""
    series, finished, _playing = _event()
    for language in ("en", "ja"):
        headers = {"HTTP_ACCEPT_LANGUAGE": language}
        named = client.get(f"/api/v1/series/{series.slug}/standings", **headers).json()["refused_games"]
        refused = client.get(f"/api/v1/games/{finished.pk}", **headers).json()["refused"]
        assert named == [{"game": finished.pk, "round": finished.round_number, "table": finished.table, **refused}]
        assert list(named[0]) == ["game", "round", "table", "number", "code", "message", "text"]
        assert refused["text"].startswith("第2局" if language == "ja" else "Hand 2 ")
    assert issubclass(schemas.RefusedGameOut, schemas.RefusedOut)


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



# -- the standings: the refused game counts as it was last settled, and every surface says so ---------------

ROW = re.compile(r'data-player="(\d+)" data-points="(-?\d+)"')


def _rows(html: str) -> list[tuple[int, int]]:
    return [(int(p), int(v)) for p, v in ROW.findall(html)]


def _names_it(html: str, game: Game) -> bool:
    named = f'data-refused-game="{game.pk}" data-refused-hand="2"'
    return (named in html and f"Hand 2 cannot be replayed: {REASON}." in html
            and reverse("staff-edit-hand", args=[game.pk, 2]) in html)


def test_every_standings_surface_counts_the_last_settlement_and_names_the_refused_hand(client: Client) -> None:
    series, finished, playing = _event()
    slug = series.slug
    # The truth: the table's last settlement, the seats' snapshot, which the engine gave before the row changed.
    seats = list(finished.seats.order_by("place"))
    truth = [(s.player_id, s.points) for s in seats]
    assert sum(p for _, p in truth) == 0 and len({p for _, p in truth}) == 4
    assert [(r.player_id, r.total) for r in event_standings(series).standings.ranked] == truth
    public = {
        "series page": reverse("series-standings", args=[slug]),
        "series page's live fragment": reverse("series-standings", args=[slug]) + "?partial=1",
        "public event page": reverse("event-public", args=[slug]),
        "projector": reverse("event-screen", args=[slug, "standings"]),
        "stages page": reverse("stages-standings", args=[slug]),
        "teams page": reverse("stages-teams", args=[slug]),
    }
    player_pages = {f"player page {p}": reverse("player-detail", args=[slug, p]) for p, _ in truth}
    staff = {
        "dashboard": reverse("event-dashboard", args=[slug]),
        "printout": reverse("event-print", args=[slug, "standings"]),
        "stages (staff)": reverse("stages-manage", args=[slug]),
        "EMA preview": reverse("ema-preview", args=[slug]),
        "staff series page": reverse("staff-series", args=[slug]),
    }
    pages = {name: client.get(url) for name, url in {**public, **player_pages}.items()}
    client.force_login(make_director(series))
    pages |= {name: client.get(url) for name, url in staff.items()}
    for name, response in pages.items():
        assert response.status_code == 200, name
        html = response.content.decode()
        assert _names_it(html, finished), name
        assert f'data-refused-game="{playing.pk}"' not in html, name  # a game being played counts for nothing yet
        rows = _rows(html)
        if name.startswith("player page"):
            assert len(rows) == 1 and rows[0] in truth, name
        elif name not in ("teams page", "stages (staff)", "series page's live fragment", "staff series page"):
            assert rows == truth, name
    # The game's own page: the hand before the refused one, why, the way to correct it, and the result counted.
    client.logout()
    game_page = client.get(reverse("game-detail", args=[finished.pk])).content.decode()
    assert f"Hand 2 cannot be replayed: {REASON}." in game_page
    assert reverse("staff-edit-hand", args=[finished.pk, 2]) in game_page
    assert _rows(game_page) == truth
    # The read API: the same rows and the same game named.
    client.logout()
    api = {path: client.get(f"/api/v1/series/{slug}/{path}").json() for path in ("standings", "stages", "teams", "event")}
    assert [(r["player_id"], r["points"]) for r in api["standings"]["ranked"]] == truth
    assert [(r["player_id"], r["total"]) for r in api["stages"]["final"]] == truth
    for path in ("standings", "stages", "teams"):
        named = api[path]["refused_games"]
        assert [(g["game"], g["number"], g["code"], g["text"]) for g in named] == [
            (finished.pk, 2, "fu_not_possible", f"Hand 2 cannot be replayed: {REASON}")], path
    assert api["event"]["standings"]["refused_games"] == api["standings"]["refused_games"]
    # The files: the same points (a file names no game).
    client.force_login(make_director(series, "director2"))
    names = {s.player_id: s.player.name for s in seats}
    body = b"".join(client.get(reverse("series-standings-csv", args=[slug])).streaming_content).decode("utf-8-sig")
    assert [(r[1], Decimal(r[3])) for r in list(csv.reader(io.StringIO(body)))[1:]] == [
        (names[p], Decimal(v) / 1000) for p, v in truth]
    ema = client.get(reverse("ema-file", args=[slug, "csv"]))
    assert ema.status_code == 200
    assert [Decimal(r[7]) for r in list(csv.reader(io.StringIO(ema.content.decode("utf-8-sig"))))[1:]] == [
        Decimal(v) / 1000 for _, v in truth]


def test_correcting_the_refused_hand_settles_the_game_again_and_the_notice_goes(client: Client) -> None:
    series, finished, _playing = _event()
    url = reverse("series-standings", args=[series.slug])
    assert _names_it(client.get(url).content.decode(), finished)
    services.correct_hand(game=finished, number=2, hand=tsumo(2, 2, 30))  # what the table had entered
    html = client.get(url).content.decode()
    assert 'id="refused-games"' not in html and "cannot be replayed" not in html
    assert stats.refused_games(series) == ()


def test_a_hidden_round_s_refused_game_is_named_to_staff_only(client: Client) -> None:
    from league.services import event

    series, finished, _playing = _event()
    event.hide_results(series=series, from_round=1)
    series = Series.objects.get(pk=series.pk)
    assert stats.refused_games(series, public=True) == ()
    assert [g.game_id for g in stats.refused_games(series)] == [finished.pk]
    assert not _names_it(client.get(reverse("event-public", args=[series.slug])).content.decode(), finished)
    client.force_login(make_director(series))
    assert _names_it(client.get(reverse("event-dashboard", args=[series.slug])).content.decode(), finished)


def test_a_league_s_pages_name_the_refused_game_too(client: Client) -> None:
    series = make_series(slug="club")
    players = make_players()
    game = make_game(series, players)
    play(game, hanchan_passing_deal())
    _break_hand(game, 2)
    for url in (reverse("series-standings", args=["club"]), reverse("series-standings", args=["club"]) + "?partial=1",
                reverse("player-detail", args=["club", players[0].pk])):
        response = client.get(url)
        assert response.status_code == 200 and _names_it(response.content.decode(), game), url
    assert [g["game"] for g in client.get("/api/v1/series/club/standings").json()["refused_games"]] == [game.pk]
    japanese = client.get(reverse("series-standings", args=["club"]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "第2局を再計算できません" in japanese and "最後に精算された結果で集計します" in japanese
    assert "cannot be replayed" not in japanese


def test_a_change_of_results_replays_only_the_games_it_touched(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game's check is kept under its inputs' version: at an event every
    finish moves the results stamp, and a finish replays the game it finished,
    not every finished game of the series again."""
    series, finished, playing = _event()
    replayed: list[int] = []
    real = stats.replay_stored

    def counted(record):  # noqa: ANN001, ANN202
        replayed.append(len(record.hands))
        return real(record)

    monkeypatch.setattr(stats, "replay_stored", counted)
    assert [g.game_id for g in stats.refused_games(series)] == [finished.pk]
    assert len(replayed) == 1  # the one counted game
    services.correct_hand(game=playing, number=2, hand=tsumo(2, 2, 30))  # the game in play, mended
    play(Game.objects.get(pk=playing.pk), hanchan_passing_deal()[3:])  # and finished: the results move
    replayed.clear()
    assert [g.game_id for g in stats.refused_games(series)] == [finished.pk]
    assert len(replayed) == 1  # the game just finished; the other's check was kept
    services.correct_hand(game=Game.objects.get(pk=finished.pk), number=2, hand=tsumo(2, 2, 30))
    replayed.clear()
    assert stats.refused_games(series) == ()
    assert len(replayed) == 1  # the corrected game: its inputs' version moved
