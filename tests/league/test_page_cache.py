"""The whole-page cache and its validators: after every kind of change, every
public page and CSV of the changed series has a new ETag and shows what a
page computed afresh shows, but for the series page after a hand of a game
being played (its lineup stamp: it shows that game's table and seats, which a
hand leaves), and every page of another series still answers 304 to the ETag
it had. Changes are committed for real (``transactional_db``): the stamps
that key the pages are published when a transaction commits."""

from __future__ import annotations

import gzip
import html
import re
from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponseBase
from django.test import Client
from django.urls import reverse
from django.utils.http import http_date, parse_http_date

from league import game_records, services
from league.models import Game, Player, Series
from league.views import cached
from tests.factories import (
    bulk_finished_games,
    draw,
    make_game,
    make_players,
    make_series,
    play,
    ron,
)

pytestmark = pytest.mark.django_db(transaction=True)


def body(response: HttpResponseBase) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]


def shown(content: bytes) -> bytes:
    """What a page shows: without the ETag its script is given, which names the stamp."""
    return re.sub(rb' data-etag="[^"]*"', b"", content)


def urls(series: Series, live: Game, finished: Game, player: Player) -> list[str]:
    standings = reverse("series-standings", args=[series.slug])
    return [
        standings,
        standings + "?partial=1",
        standings + "?round=1",
        standings + "?s-sort=total",
        standings + "?stats=1&q=Player",
        reverse("game-detail", args=[live.pk]),
        reverse("game-detail", args=[live.pk]) + "?partial=1",
        reverse("game-detail", args=[finished.pk]),
        reverse("player-detail", args=[series.slug, player.pk]),
        reverse("series-standings-csv", args=[series.slug]),
        reverse("series-games-csv", args=[series.slug]),
        reverse("series-hands-csv", args=[series.slug]),
    ]


def build(slug: str) -> dict[str, object]:
    series = make_series(slug=slug, min_games=1)
    players = make_players(8)
    finished = make_game(series, players[:4], round_number=1)
    services.record_final_scores(game=finished, scores=[41000, 29000, 18000, 12000])
    live = make_game(series, players[4:], round_number=2)
    play(live, [draw(0), ron(1, 0, 2, 30)])
    bulk_finished_games(series, players, 6, tables=2)
    return {"series": series, "players": players, "finished": finished, "live": live,
            "urls": urls(series, live, finished, players[4])}


@pytest.fixture
def two_series() -> tuple[dict[str, object], dict[str, object]]:
    return build("changed"), build("other")


@pytest.fixture
def one_series() -> dict[str, object]:
    return build("changed")


def fresh(client: Client, url: str) -> bytes:
    """The page computed afresh under the current stamp: the caches emptied, the stamps kept."""
    cache.clear()
    cached._local.clear()
    return body(client.get(url))


def rename(s: dict) -> None:
    player = s["players"][4]
    player.name = "Renamed"
    player.save()


def import_a_game(s: dict, other: dict) -> None:
    lines = list(game_records.export_lines(Game.objects.filter(pk=other["finished"].pk)))
    game_records.import_lines(lines, slug=s["series"].slug)


CHANGES: dict[str, Callable[[dict, dict], object]] = {
    "start": lambda s, o: make_game(s["series"], s["players"][:4], round_number=2),
    "hand": lambda s, o: services.record_hand(game=s["live"], number=3, hand=draw(0)),
    "correction": lambda s, o: services.correct_hand(game=s["live"], number=1, hand=draw(0, 1)),
    "undo": lambda s, o: services.undo_last_hand(game=s["live"]),
    "penalty": lambda s, o: services.add_penalty(game=s["finished"], seat=1, points=-10000, reason="late"),
    "finish": lambda s, o: services.finish_game(game=s["live"]),
    "rename": lambda s, o: rename(s),
    "import": import_a_game,
}


HANDS = ("hand", "correction", "undo")
SERIES_PAGE = reverse("series-standings", args=["changed"])


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_moves_every_page_of_its_series_and_no_other(client: Client, two_series, change: str) -> None:
    changed, other = two_series
    index = reverse("index")
    # Pages about every series (the list, a player across series) move with any series' change.
    across = reverse("player-series", args=[changed["players"][4].pk])
    before = {url: client.get(url) for url in [index, across, *changed["urls"], *other["urls"]]}
    for url, response in before.items():
        assert response.status_code == 200, url
        assert response["ETag"].startswith('"') and response["Last-Modified"], url
        # A repeat with the ETag is a 304 with no body.
        repeat = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
        assert (repeat.status_code, body(repeat)) == (304, b""), url

    CHANGES[change](changed, other)

    # A hand of a game being played leaves the series page as it was (HANDS_IN_PLAY).
    kept = [url for url in changed["urls"] if url.split("?")[0] == SERIES_PAGE] if change in HANDS else []
    # Everything served first: computing a page afresh empties the cache.
    served = {url: client.get(url, HTTP_IF_NONE_MATCH=before[url]["ETag"]) for url in [index, across, *changed["urls"]]}
    served_bodies = {url: body(response) for url, response in served.items()}
    for url, response in served.items():
        if url in kept:
            assert (response.status_code, served_bodies[url]) == (304, b""), url
            assert shown(fresh(client, url)) == shown(body(before[url])), url
            continue
        assert response.status_code == 200, url
        assert response["ETag"] != before[url]["ETag"], url
        assert served_bodies[url] == fresh(client, url), url
    for url in other["urls"]:
        response = client.get(url, HTTP_IF_NONE_MATCH=before[url]["ETag"])
        assert response.status_code == 304, url
        assert body(client.get(url)) == body(before[url]), url


def test_a_rolled_back_change_shows_nowhere(client: Client, two_series) -> None:
    changed, _ = two_series
    before = {url: client.get(url) for url in changed["urls"]}
    with pytest.raises(RuntimeError), transaction.atomic():
        services.add_penalty(game=changed["finished"], seat=1, points=-10000, reason="late")
        raise RuntimeError("the caller gives up")
    for url, response in before.items():
        was, now = body(response), body(client.get(url))
        assert shown(now) == shown(was), url
        assert now == fresh(client, url), url


@pytest.mark.django_db  # reads only: no commits needed
def test_a_page_is_cached_whole_and_compressed_once(client: Client, one_series, django_assert_num_queries) -> None:
    changed = one_series
    url = reverse("series-standings", args=[changed["series"].slug])
    plain = client.get(url)
    with django_assert_num_queries(0):
        packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert client.get(url, HTTP_IF_NONE_MATCH=packed["ETag"]).status_code == 304
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) * 3 < len(plain.content)
    # Either encoding's ETag names the current page.
    assert packed["ETag"] != plain["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=plain["ETag"], HTTP_ACCEPT_ENCODING="gzip").status_code == 304


@pytest.mark.django_db  # reads only: no commits needed
def test_the_live_refresh_holds_the_etag_of_its_fragment(client: Client, one_series) -> None:
    changed = one_series
    url = reverse("series-standings", args=[changed["series"].slug])
    page = client.get(url + "?games=2&utm_source=poster").content.decode()
    etag = html.unescape(re.search(r'data-etag="([^"]*)"', page).group(1))  # on live_poll.js's tag
    fragment = client.get(url + "?partial=1&games=02")
    assert fragment["ETag"] == etag
    assert client.get(url + "?games=2&partial=1", HTTP_IF_NONE_MATCH=etag).status_code == 304
    # The fragment is the page's own part: its links do not ask for fragments.
    assert "partial" not in fragment.content.decode()


# Each query, and the query it is the same page as.
EQUIVALENT_QUERIES = [
    ("?round=03", "?round=3"),
    ("?round=3&round=4", "?round=4"),  # the last, as request.GET.get reads it
    ("?fbclid=abc&round=3", "?round=3"),
    ("?round=%C2%B2", ""),
    ("?s-sort=total&s-page=1", "?s-page=01&s-sort=total"),
]


@pytest.mark.django_db  # reads only: no commits needed
def test_equivalent_queries_share_one_cached_page(client: Client, one_series) -> None:
    url = reverse("series-standings", args=[one_series["series"].slug])
    for query, same_as in EQUIVALENT_QUERIES:
        assert client.get(url + query)["ETag"] == client.get(url + same_as)["ETag"], query
    assert client.get(url + "?round=1")["ETag"] != client.get(url)["ETag"]


@pytest.mark.django_db  # reads only: no commits needed
def test_a_logged_in_visitor_gets_the_page_rendered_for_them(client: Client, one_series, admin_user) -> None:
    changed = one_series
    url = reverse("series-standings", args=[changed["series"].slug])
    assert "Admin" not in client.get(url).content.decode()
    client.force_login(admin_user)
    response = client.get(url)
    assert ">Admin</a>" in response.content.decode()
    assert "private" in response["Cache-Control"] and "ETag" not in response
    # The fragment holds nothing about the visitor: cached for everyone.
    assert "ETag" in client.get(url + "?partial=1")


@pytest.mark.django_db  # reads only: no commits needed
def test_if_modified_since_answers_304_only_for_a_later_second(client: Client, one_series) -> None:
    changed = one_series
    url = reverse("player-detail", args=[changed["series"].slug, changed["players"][4].pk])
    modified = parse_http_date(client.get(url)["Last-Modified"])
    # Two changes can share a second: a copy from that same second may be stale.
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=http_date(modified)).status_code == 200
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=http_date(modified + 1)).status_code == 304


@pytest.mark.django_db  # the stamps move inside the test's transaction too
def test_after_a_hand_only_the_games_being_played_are_read_again(
    client: Client, one_series, django_assert_num_queries
) -> None:
    """Standings, the season chart and the finished games' statistics wait
    for a result: a hand in a game being played leaves them cached, and the
    series page whole (it shows that game's table and seats)."""
    series_url = reverse("series-standings", args=[one_series["series"].slug])
    player_url = reverse("player-detail", args=[one_series["series"].slug, one_series["players"][4].pk])
    client.get(series_url), client.get(player_url)
    services.record_hand(game=one_series["live"], number=3, hand=draw(0))
    with django_assert_num_queries(0):
        assert client.get(series_url).status_code == 200
    # The series and player rows; the player's games being played; their statistics and the series'.
    with django_assert_num_queries(5):
        assert client.get(player_url).status_code == 200


@pytest.mark.django_db  # reads only: no commits needed
def test_a_cached_page_is_served_before_the_session_and_login_middleware(client: Client, one_series) -> None:
    """As a static file: the second request never reaches the session, auth or
    messages middleware (no ``request.user``), and keeps the headers of the
    middleware in front of it."""
    url = reverse("series-standings", args=[one_series["series"].slug])
    first = client.get(url)
    assert hasattr(first.wsgi_request, "user")  # computed by the view, through every middleware
    again = client.get(url)
    assert not hasattr(again.wsgi_request, "user")
    assert again.content == first.content and again["ETag"] == first["ETag"]
    for header in ("X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy",
                   "Content-Length"):
        assert again[header] == first[header], header
    assert again["X-Frame-Options"] == "DENY" and again["Content-Length"] == str(len(again.content))
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Length"] == str(len(packed.content))


@pytest.mark.django_db  # reads only: no commits needed
def test_a_cached_page_still_checks_the_host(client: Client, one_series) -> None:
    url = reverse("series-standings", args=[one_series["series"].slug])
    assert client.get(url).status_code == 200
    assert client.get(url, HTTP_HOST="attacker.example").status_code == 400


@pytest.mark.django_db  # reads only: no commits needed
def test_a_visitor_with_a_session_is_never_served_the_anonymous_page_early(
    client: Client, one_series, admin_user
) -> None:
    url = reverse("series-standings", args=[one_series["series"].slug])
    client.get(url), client.get(url)
    client.force_login(admin_user)
    response = client.get(url)
    assert response.wsgi_request.user == admin_user and ">Admin</a>" in response.content.decode()
    # Its fragment, the same for everyone, is (once cached).
    client.get(url + "?partial=1")
    assert not hasattr(client.get(url + "?partial=1").wsgi_request, "user")


@pytest.mark.django_db  # reads only: no commits needed
@pytest.mark.parametrize("name", ["series-standings-csv", "series-games-csv", "series-hands-csv"])
def test_a_csv_is_gzipped_for_a_client_that_accepts_it(client: Client, one_series, name: str) -> None:
    url = reverse(name, args=[one_series["series"].slug])
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(body(packed)) == body(plain)
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
    # A strong ETag per encoding; either one names the current file.
    assert packed["ETag"] != plain["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=plain["ETag"], HTTP_ACCEPT_ENCODING="gzip").status_code == 304
    not_modified = client.get(url, HTTP_IF_NONE_MATCH=packed["ETag"], HTTP_ACCEPT_ENCODING="gzip")
    assert not_modified.status_code == 304 and not_modified["ETag"] == packed["ETag"]
