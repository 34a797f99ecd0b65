"""The public event pages served from the page cache like the series page
(issue 31): whole, with ETags and 304s, gzipped once, per language, under the
series' results stamp (a hand in play leaves them cached, a finished game or
any event change moves them), hidden results never served; the countdown's
clock read fresh from /time, never from a page cached minutes earlier; and
the per-address limit on anonymous requests the cache did not answer."""

from __future__ import annotations

import datetime
import gzip
import json
import re

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Game, Round, Series
from league.services import event, record_final_scores
from league.services.audit import bump_version
from league.views import cached
from tests.factories import EVENT_ROSTER, draw, make_director, make_open_event, play

pytestmark = pytest.mark.django_db  # the stamps move inside the test's transaction too

ROSTER = EVENT_ROSTER


@pytest.fixture
def series() -> Series:
    return make_open_event()


def start(series: Series) -> list[Game]:
    event.import_registrations(series=series, text=ROSTER)
    rounds = event.seat_rounds(series=series).rounds
    event.publish_round(round=rounds[0])
    event.check_in(registrations=series.registrations.all())
    return event.start_round(round=rounds[0])


def event_urls(slug: str) -> list[str]:
    return [
        reverse("event-public", args=[slug]),
        reverse("stages-standings", args=[slug]),
        reverse("stages-teams", args=[slug]),
        reverse("event-screen", args=[slug, "clock"]),
        reverse("event-screen", args=[slug, "seating"]) + "?cycle=1",
        reverse("event-screen", args=[slug, "standings"]),
        reverse("event-player", args=[slug, 1]),
    ]


def fresh(client: Client, url: str, **headers: str) -> bytes:
    """The page computed afresh under the current stamps: the caches emptied."""
    cache.clear()
    cached._local.clear()
    return client.get(url, **headers).content


def test_event_pages_are_cached_whole_with_etags(client: Client, series: Series, django_assert_num_queries) -> None:
    start(series)
    for url in event_urls("open"):
        first = client.get(url)
        assert first.status_code == 200, url
        etag = first["ETag"]
        assert etag.startswith('"') and first["Last-Modified"] and first["Cache-Control"] == "no-cache", url
        with django_assert_num_queries(0):
            again = client.get(url)
            unchanged = client.get(url, HTTP_IF_NONE_MATCH=etag)
            packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert again.content == first.content and again["ETag"] == etag, url
        assert (unchanged.status_code, unchanged.content) == (304, b""), url
        assert packed["Content-Encoding"] == "gzip" and gzip.decompress(packed.content) == first.content, url
        assert packed["ETag"] != etag, url  # a strong ETag names exact bytes
        # Per language: the Japanese page is its own entry, in Japanese.
        ja = client.get(url, HTTP_ACCEPT_LANGUAGE="ja")
        assert ja["Content-Language"] == "ja" and ja["ETag"] != etag, url
        assert ja.content != first.content, url


def test_a_hand_in_play_leaves_the_event_pages_cached_and_a_finished_game_moves_them(
    client: Client, series: Series, django_assert_num_queries
) -> None:
    games = start(series)
    urls = event_urls("open")
    before = {url: client.get(url) for url in urls}
    play(games[0], [draw(0)])
    with django_assert_num_queries(0):
        for url in urls:
            assert client.get(url, HTTP_IF_NONE_MATCH=before[url]["ETag"]).status_code == 304, url
    record_final_scores(game=games[1], scores=[40000, 30000, 20000, 10000])
    for url in urls:
        after = client.get(url, HTTP_IF_NONE_MATCH=before[url]["ETag"])
        assert after.status_code == 200 and after["ETag"] != before[url]["ETag"], url
        assert after.content == fresh(client, url), url
    assert "+60.0" in client.get(reverse("event-public", args=["open"])).content.decode()


@pytest.mark.parametrize("change", ["publish", "clock", "drop", "hide"])
def test_an_event_change_moves_every_event_page(client: Client, series: Series, change: str) -> None:
    games = start(series)
    record_final_scores(game=games[0], scores=[40000, 30000, 20000, 10000])
    urls = event_urls("open")
    before = {url: client.get(url) for url in urls}
    rnd = Round.objects.get(series=series, number=1)
    if change == "publish":
        event.publish_round(round=Round.objects.get(series=series, number=2))
    elif change == "clock":
        event.set_clock(round=rnd, minutes=rnd.time_limit + 15)
    elif change == "drop":
        event.drop_player(registration=series.registrations.get(number=8))
    else:
        event.hide_results(series=series, from_round=1)
    for url in urls:
        after = client.get(url, HTTP_IF_NONE_MATCH=before[url]["ETag"])
        assert after.status_code == 200 and after["ETag"] != before[url]["ETag"], url
        assert after.content == fresh(client, url), url


HIDDEN = re.compile(r"are hidden|hides the results")


def test_hidden_results_are_never_served_from_the_cache(client: Client, series: Series) -> None:
    games = start(series)
    for game in games:
        record_final_scores(game=game, scores=[40000, 30000, 20000, 10000])
    pages = {name: reverse(name, args=["open"]) for name in ("event-public", "stages-standings", "stages-teams")}
    pages["screen"] = reverse("event-screen", args=["open", "standings"])
    for url in pages.values():  # cached with the results shown, in both languages
        assert not HIDDEN.search(client.get(url).content.decode()), url
        client.get(url, HTTP_ACCEPT_LANGUAGE="ja")
    assert "+60.0" in client.get(pages["event-public"]).content.decode()
    assert "+60.0" in client.get(pages["screen"]).content.decode()
    event.hide_results(series=series, from_round=1)
    for name, url in pages.items():
        page = client.get(url).content.decode()
        assert "+60.0" not in page and HIDDEN.search(page), name
        # Japanese too: a page cached per language is no exception.
        assert "+60.0" not in client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode(), name
    event.reveal_results(series=series)
    assert "+60.0" in client.get(pages["event-public"]).content.decode()


def test_a_page_cached_ten_minutes_ago_keeps_the_clock_right(
    client: Client, series: Series, django_assert_num_queries
) -> None:
    made = timezone.now().replace(microsecond=0)
    url = reverse("event-screen", args=["open", "clock"])
    with time_machine.travel(made, tick=False):
        start(series)
        rnd = Round.objects.get(series=series, number=1)
        assert rnd.started_at == made
        cached_page = client.get(url)
        public_page = client.get(reverse("event-public", args=["open"]))
    served_at = made + datetime.timedelta(minutes=10)
    with time_machine.travel(served_at, tick=False):
        with django_assert_num_queries(0):
            page = client.get(url)
            public = client.get(reverse("event-public", args=["open"]))
            clock = client.get(reverse("server-time"))
    # The same bytes as ten minutes ago: the page came from the cache.
    assert page.content == cached_page.content and public.content == public_page.content
    for html in (page.content.decode(), public.content.decode()):
        # The page carries the round's end and where to read the time, and no time of its own.
        assert re.findall(r'data-ends="([^"]+)"', html) == [rnd.ends_at.isoformat()]
        assert f'data-time="{reverse("server-time")}"' in html
        assert "data-now" not in html and made.isoformat() not in html
    # The time source answers the time it is now, never cached.
    assert clock["Cache-Control"].startswith("max-age=0") and "no-store" in clock["Cache-Control"]
    now_ms = json.loads(clock.content)["now"]
    assert now_ms == int(served_at.timestamp() * 1000)
    # What the countdown shows from them: the round's end less the server's time.
    ends_ms = int(datetime.datetime.fromisoformat(rnd.ends_at.isoformat()).timestamp() * 1000)
    assert (ends_ms - now_ms) // 1000 == (rnd.time_limit - 10) * 60


# -- the per-address limit -------------------------------------------------------------------------


def test_a_burst_of_uncached_anonymous_requests_gets_429_with_retry_after(
    client: Client, series: Series, settings
) -> None:
    settings.PUBLIC_RATE_LIMIT = "5/30s"
    start(series)
    event_page = reverse("event-public", args=["open"])
    # Time stands still: every request below falls in one of the limit's windows.
    with time_machine.travel(timezone.now(), tick=False):
        assert client.get(event_page).status_code == 200  # computed: counted (1)
        for _ in range(50):  # answered from the cache: never counted
            assert client.get(event_page).status_code == 200
        for number in (1, 2, 3, 4):  # each computed: counted (2 to 5)
            assert client.get(reverse("event-player", args=["open", number])).status_code == 200
        refused = client.get(reverse("event-player", args=["open", 5]))
        assert refused.status_code == 429
        assert 1 <= int(refused["Retry-After"]) <= 30
        assert "Too many requests from your address" in refused.content.decode()
        ja = client.get(reverse("event-player", args=["open", 6]), HTTP_ACCEPT_LANGUAGE="ja")
        assert ja.status_code == 429 and "Too many requests" not in ja.content.decode()
        # A cached page is still served to the same address, and so is the clock.
        assert client.get(event_page).status_code == 200
        assert client.get(reverse("server-time")).status_code == 200
        # Another address is counted apart; staff are never limited.
        assert Client(REMOTE_ADDR="10.0.0.2").get(reverse("event-player", args=["open", 5])).status_code == 200
        staff = Client()
        staff.force_login(make_director(series, "director"))
        for number in range(1, 9):
            assert staff.get(reverse("event-player", args=["open", number])).status_code == 200


def test_a_venue_behind_one_address_never_meets_the_limit(client: Client, series: Series, settings) -> None:
    """300 phones behind one address, each refreshing every 30 seconds, all
    missing the cache (each its own player page, the first after a results
    change), with six projectors cycling: one 30-second window under the
    limit as set (the default)."""
    assert settings.PUBLIC_RATE_LIMIT == "600/30s"
    roster = "number,first name,last name\n" + "".join(f"{i},First{i},Last{i}\n" for i in range(1, 301))
    event.import_registrations(series=series, text=roster)
    screens = [reverse("event-screen", args=["open", kind]) for kind in ("clock", "seating", "standings")]
    # Time stands still: every request below falls in one of the limit's windows.
    with time_machine.travel(timezone.now(), tick=False):
        statuses = []
        for number in range(1, 301):
            statuses.append(client.get(reverse("event-player", args=["open", number])).status_code)
            statuses.append(client.get(reverse("event-public", args=["open"])).status_code)
        for _ in range(6):
            bump_version(series.pk)  # each projector as if just after a change: computed again
            statuses += [client.get(url).status_code for url in screens]
    assert statuses.count(200) == len(statuses) == 618


def test_the_event_page_lists_the_round_without_replaying_its_games(client: Client, series: Series) -> None:
    """The tables as the round seated them; hands in play change nothing on the page, not even its query count."""
    from django.core.cache import caches
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league import stamps

    url = reverse("event-public", args=["open"])
    games = start(series)

    def queries() -> tuple[int, str]:
        for each in caches.all():  # computed afresh each time, not served from the page cache
            each.clear()
        stamps.store().clear()
        with CaptureQueriesContext(connection) as ctx:
            body = client.get(url).content.decode()
        return len(ctx.captured_queries), body

    before, _ = queries()
    for game in games:
        play(game, [draw(0), draw(0, 1)])
    after, page = queries()
    assert after == before  # no replay: the count does not grow with the hands being played
    rnd = Round.objects.get(series=series, number=1)
    for table in rnd.tables.all():
        seats = [s.registration.name for s in table.seats.order_by("wind")]
        listed = re.search(rf"Table {table.number}</h3><table><tbody>(.*?)</tbody>", page).group(1)
        assert re.findall(r'">([^<]+)</a>', listed) == seats
