"""The public pages against a small series whose numbers are worked out by hand.

Ari-ari: start 25,000, return 30,000, uma +30/+10/-10/-30, oka +20 to first.

Round 1, game A (hand by hand), seats East a, South b, West c, North d:

    #  hand       what happened                                   scores after
    1  E1 0 honba South ron East, 3 han 40 fu, 5,200               19,800 30,200 25,000 25,000
    2  E2         West tsumo, 2 han 30 fu, 500/1,000               19,300 29,200 27,000 24,500
    3  E3         Ryuukyoku, tenpai East, noten payments 3,000     22,300 28,200 26,000 23,500
    4  E4 1 honba East ron South, 1 han 30 fu, 1,000 + 300         23,600 26,900 26,000 23,500
    5  S1         South tsumo, 4 han 30 fu, 2,000/3,900            19,700 34,800 24,000 21,500
    6  S2         Ryuukyoku, all noten                             (unchanged)
    7  S3 1 honba East ron North, 2 han 40 fu, 2,600 + 300
                  + 1,000 in sticks (East's own riichi stick)      22,600 34,800 24,000 18,600
    8  S4         West tsumo, 1 han 30 fu, 300/500                 22,300 34,500 25,100 18,100

    b 1st: (34,500 - 30,000)/1000 + 30 + 20 = +54.5
    c 2nd: -4.9 + 10 = +5.1;  a 3rd: -7.7 - 10 = -17.7;  d 4th: -11.9 - 30 = -41.9

Round 2, game B (end scores only), seats East d, South c, West a, North e,
scores 26,100 / 40,000 / 21,900 / 12,000:

    c 1st: 10 + 30 + 20 = +60.0;  d 2nd: -3.9 + 10 = +6.1
    a 3rd: -8.1 - 10 = -18.1;     e 4th: -18 - 30 = -48.0

Totals: c +65.1, b +54.5, a -35.8, d -35.8 (a tie: "=3"), e -48.0.
"""

from __future__ import annotations

import html as html_module
import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league import services, stamps, stats
from league.models import Game, Player, Series, series_changed
from league.standings import season
from tests.factories import (
    bulk_finished_games,
    chombo,
    hanchan_passing_deal,
    make_game,
    make_player,
    make_players,
    make_series,
    play,
    ron,
)

pytestmark = pytest.mark.django_db

# East's ron in E4, with its tiles kept: one pon, so one open win of one known.
E4_TILES = {"tiles": "234m678p11s789s", "melds": [{"type": "pon", "tiles": "555z"}], "win": "1s"}


@pytest.fixture
def league() -> dict[str, object]:
    series = make_series(name="Hand-worked League", slug="hand-worked", min_games=1)
    a, b, c, d, e = (make_player(n) for n in ("Aiko", "Bram", "Chen", "Dana", "Emil"))
    game_a = make_game(series, [a, b, c, d], round_number=1, table="1")
    hands = hanchan_passing_deal()
    hands[3] = type(hands[3])(outcome=hands[3].outcome, riichi=hands[3].riichi, tiles=E4_TILES)
    play(game_a, hands)
    game_b = make_game(series, [d, c, a, e], round_number=2, table="1")
    services.record_final_scores(game=game_b, scores=[26100, 40000, 21900, 12000])
    return {"series": series, "a": a, "b": b, "c": c, "d": d, "e": e, "game_a": game_a, "game_b": game_b}


def text(response) -> str:
    """The page as a reader sees it: tags dropped, whitespace collapsed."""
    assert response.status_code == 200
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def standings_rows(page: str) -> list[list[str]]:
    """The ranked standings table's rows as lists of cell texts."""
    table = re.search(r'<table[^>]*class="standings".*?</table>', page, flags=re.S).group(0)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.split("<tbody")[1], flags=re.S)
    return [[re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            for r in rows]


def test_series_list_names_the_series(client: Client, league) -> None:
    page = text(client.get(reverse("index")))
    assert "Hand-worked League" in page and "2 finished games" in page


def test_series_standings_share_a_tied_rank(client: Client, league) -> None:
    page = client.get(reverse("series-standings", args=["hand-worked"])).content.decode()
    rows = standings_rows(page)
    # rank, move, player, games, points, average, avg place, 1st-4th, avg score, best, worst
    assert [r[:5] for r in rows] == [
        ["1", "▲1", "Chen", "2", "+65.1"],
        ["2", "▼1", "Bram", "1", "+54.5"],
        ["=3", "–", "Aiko", "2", "-35.8"],
        ["=3", "▲1", "Dana", "2", "-35.8"],
        ["5", "new", "Emil", "1", "-48.0"],
    ]
    assert rows[0][5:] == ["+32.55", "1.50", "1", "1", "0", "0", "32,550", "+60.0", "+5.1"]
    assert 'href="/series/hand-worked/standings.csv"' in page


def test_series_standings_sort_and_paginate(client: Client, league) -> None:
    url = reverse("series-standings", args=["hand-worked"])
    by_points_up = standings_rows(client.get(url, {"s-sort": "total"}).content.decode())
    assert [r[2] for r in by_points_up] == ["Emil", "Aiko", "Dana", "Bram", "Chen"]
    assert [r[0] for r in by_points_up] == ["5", "=3", "=3", "2", "1"]  # ranks stay what the totals give
    by_place = standings_rows(client.get(url, {"s-sort": "-average_place"}).content.decode())
    assert by_place[0][2] == "Emil"  # 4th in his only game
    # 20 more players (five more games) make 25 rows: one page at the series' default of 100 ...
    for _ in range(5):
        game = make_game(league["series"], make_players(), round_number=3)
        services.record_final_scores(game=game, scores=[25000, 25000, 25000, 25000])
    assert len(standings_rows(client.get(url).content.decode())) == 25
    # ... and, when the series lists 20 a page, 20 on page 1, 5 on page 2, and all on one page on demand.
    Series.objects.filter(pk=league["series"].pk).update(standings_per_page=20)
    series_changed([league["series"].pk])
    first = client.get(url).content.decode()
    assert len(standings_rows(first)) == 20
    assert 'href="?s-per_page=500#standings-h"' in first and "All 25 players on one page" in first
    second = standings_rows(client.get(url, {"s-page": 2}).content.decode())
    assert [r[2] for r in second][-1] == "Emil" and len(second) == 5
    assert len(standings_rows(client.get(url, {"s-per_page": 500}).content.decode())) == 25


def test_series_players_under_the_minimum_are_apart(client: Client, league) -> None:
    Series.objects.filter(slug="hand-worked").update(min_games=2)
    page = client.get(reverse("series-standings", args=["hand-worked"])).content.decode()
    assert [(r[0], r[2], r[4]) for r in standings_rows(page)] == [
        ("1", "Chen", "+65.1"), ("=2", "Aiko", "-35.8"), ("=2", "Dana", "-35.8"),
    ]
    apart = text_of_section(page, "Under 2 games")
    assert "Bram" in apart and "+54.5" in apart and "Emil" in apart and "-48.0" in apart


def text_of_section(page: str, heading: str) -> str:
    after = page.split(heading, 1)[1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", after.split("</table>", 1)[0]))


def test_series_running_standings_after_a_round(client: Client, league) -> None:
    url = reverse("series-standings", args=["hand-worked"])
    page = client.get(url, {"round": 1}).content.decode()
    # Nothing came before round 1, so no movement column.
    assert [(r[0], r[1], r[3]) for r in standings_rows(page)] == [
        ("1", "Bram", "+54.5"), ("2", "Chen", "+5.1"), ("3", "Aiko", "-17.7"), ("4", "Dana", "-41.9"),
    ]
    assert "Standings after round 1" in text(client.get(url, {"round": 1}))
    page = text(client.get(url))
    assert "since round 1" in page
    # The season chart and its table of totals after each round.
    assert "<svg" in client.get(url).content.decode()
    assert "Chen +5.1 +65.1" in page and "Bram +54.5 +54.5" in page and "Emil -48.0" in page


@pytest.mark.parametrize("query", [{"round": "²"}, {"games": "²"}, {"date": "9999-12-31"}])
def test_series_page_and_csv_take_an_odd_query_as_no_query(client: Client, league, query) -> None:
    # "²" passes str.isdigit() but not int(); the last date has no next day.
    url = reverse("series-standings", args=["hand-worked"])
    rows = standings_rows(client.get(url, query).content.decode())
    assert [next(c for c in r if c in ("Chen", "Bram", "Aiko", "Dana", "Emil")) for r in rows] == [
        "Chen", "Bram", "Aiko", "Dana", "Emil",
    ]
    response = client.get(reverse("series-standings-csv", args=["hand-worked"]), query)
    assert response.status_code == 200 and len(b"".join(response.streaming_content).splitlines()) == 6


def test_series_games_by_round(client: Client, league) -> None:
    url = reverse("series-standings", args=["hand-worked"])
    page = client.get(url, {"games": 1}).content.decode()
    assert reverse("game-detail", args=[league["game_a"].pk]) in page
    assert reverse("game-detail", args=[league["game_b"].pk]) not in page
    assert "Games, round 2" in text(client.get(url))


def test_game_log_in_words(client: Client, league) -> None:
    page = text(client.get(reverse("game-detail", args=[league["game_a"].pk])))
    for line in [
        "1 E1 0 honba dealer East South ron East, 3 han 40 fu, 5,200 -5,200 19,800 +5,200 30,200 0 25,000 0 25,000",
        "2 E2 0 honba dealer South West tsumo, 2 han 30 fu, 500/1,000",
        "3 E3 0 honba dealer West Ryuukyoku, tenpai East, noten payments 3,000 +3,000 22,300 -1,000 28,200",
        "4 E4 1 honba dealer North East ron South, 1 han 30 fu, 1,000 + 300 +1,300 23,600 -1,300 26,900",
        "5 S1 0 honba dealer East South tsumo, 4 han 30 fu, 2,000/3,900 -3,900 19,700 +7,900 34,800",
        "6 S2 0 honba dealer South Ryuukyoku, all noten",
        "7 S3 1 honba dealer West East ron North, 2 han 40 fu, 2,600 + 300 + 1,000 in sticks riichi East "
        "+2,900 R 22,600 0 34,800 0 24,000 -2,900 18,600",
        "8 S4 0 honba dealer North West tsumo, 1 han 30 fu, 300/500 -300 22,300 -300 34,500 +1,100 25,100 -500 18,100",
    ]:
        assert line in page, line
    # Settlement: place, player, end score, score part, uma, oka, penalties, points.
    for row in [
        "1 Bram South 34,500 +4.5 +30.0 +20.0 0.0 +54.5",
        "2 Chen West 25,100 -4.9 +10.0 0.0 0.0 +5.1",
        "3 Aiko East 22,300 -7.7 -10.0 0.0 0.0 -17.7",
        "4 Dana North 18,100 -11.9 -30.0 0.0 0.0 -41.9",
    ]:
        assert row in page, row
    assert "<svg" in client.get(reverse("game-detail", args=[league["game_a"].pk])).content.decode()


def test_game_kept_by_end_scores_has_no_log(client: Client, league) -> None:
    page = text(client.get(reverse("game-detail", args=[league["game_b"].pk])))
    assert "kept by its end scores only" in page
    assert "1 Chen South 40,000 +10.0 +30.0 +20.0 0.0 +60.0" in page


def test_game_in_progress_polls_and_says_what_comes_next(client: Client, league) -> None:
    game = make_game(league["series"], make_players(), round_number=3)
    play(game, hanchan_passing_deal()[:3])
    url = reverse("game-detail", args=[game.pk])
    html = client.get(url).content.decode()
    assert 'data-live="1"' in html and "league/live_poll.js" in html and 'http-equiv="refresh"' in html
    assert "Next hand: E4, dealer North, 1 honba, 0 riichi sticks" in text(client.get(url))
    partial = client.get(url, {"partial": 1}).content.decode()
    assert partial.lstrip().startswith('<div id="live"') and "<html" not in partial
    finished = client.get(reverse("game-detail", args=[league["game_a"].pk])).content.decode()
    assert 'data-live="0"' in finished and 'http-equiv="refresh"' not in finished
    series_page = client.get(reverse("series-standings", args=["hand-worked"])).content.decode()
    assert 'data-live="1"' in series_page


def test_player_statistics_next_to_the_series(client: Client, league) -> None:
    """Aiko: 8 hands; won E4 (1,000) and S3 (2,600, after riichi), dealt in E1 (5,200).

    The series, every seat of game A (32 seat-hands): 6 wins (5,200 + 2,000 +
    1,000 + 7,900 + 2,600 + 1,100 = 19,800, average 3,300), 3 of them tsumo;
    3 deal-ins (5,200 + 1,000 + 2,600 = 8,800, average 2,933); 1 riichi; the
    only win with tiles is E4, open (a pon). Places over both games sum to 20.
    """
    page = text(client.get(reverse("player-detail", args=["hand-worked", league["a"].pk])))
    for row in [
        "Hands played hands of the games played (series: every hand) 8 8",
        "Win rate of hands played 25.0% 18.8%",
        "Deal-in rate of hands played, discarding the winning tile 12.5% 9.4%",
        "Riichi rate of hands played 12.5% 3.1%",
        "Tsumo rate of wins 0.0% 50.0%",
        "Open wins wins with an open meld (chi, pon or open kan), of the wins whose tiles were kept (1);"
        " calls in hands not won are not recorded 100.0% 100.0%",
        "Average win the hand's value, without honba and riichi sticks 1,800 3,300",
        "Average deal-in the hand's value paid, without honba 5,200 2,933",
        "Average place finished games 3.00 2.50",
        # Aiko 3rd twice; the series' 8 seats: places 1, 2, 3, 4 in each game.
        "Top-two rate finished games ended 1st or 2nd 0.0% 50.0%",
        "Fourth-avoidance rate finished games not ended 4th 100.0% 75.0%",
    ]:
        assert row in page, row
    assert "Rank =3" in page and "Points -35.8" in page
    assert "Call rate" not in page  # calls of hands not won are not recorded: no such rate
    assert "Games 0 0 2 0" in page  # placement counts: twice 3rd


def test_player_games_table(client: Client, league) -> None:
    page = text(client.get(reverse("player-detail", args=["hand-worked", league["e"].pk])))
    assert re.search(r"2 1 \d{4}-\d\d-\d\d North 4 12,000 -48.0 hand log", page)
    html = client.get(reverse("player-detail", args=["hand-worked", league["e"].pk])).content.decode()
    assert html.count("<svg") == 2  # placements and points over time


def test_public_pages_need_no_login(client: Client, league) -> None:
    for url in [
        reverse("index"),
        reverse("series-standings", args=["hand-worked"]),
        reverse("game-detail", args=[league["game_a"].pk]),
        reverse("player-detail", args=["hand-worked", league["a"].pk]),
        reverse("healthz"),
    ]:
        assert client.get(url).status_code == 200, url
    assert client.get(reverse("game-detail", args=[999999])).status_code == 404
    assert client.get(reverse("series-standings", args=["nope"])).status_code == 404


# -- the number of queries does not grow with the series -----------------------------


def clear_caches() -> None:
    for each in caches.all():
        each.clear()
    stamps.store().clear()
    season.forget_bases()  # what each process keeps to start the next computation from
    stats.forget_bases()


def _query_counts(client: Client, series: Series, game: Game, player: Player, *, cached: bool = False) -> dict[str, int]:
    """Queries per page: computed afresh, or (``cached``) the second request."""
    urls = {
        "index": reverse("index"),
        "series": reverse("series-standings", args=[series.slug]),
        "series after round 2": reverse("series-standings", args=[series.slug]) + "?round=2",
        "series partial": reverse("series-standings", args=[series.slug]) + "?partial=1",
        "series with rates": reverse("series-standings", args=[series.slug]) + "?stats=1",
        "game": reverse("game-detail", args=[game.pk]),
        "player": reverse("player-detail", args=[series.slug, player.pk]),
    }
    counts = {}
    for name, url in urls.items():
        clear_caches()
        if cached:
            assert client.get(url).status_code == 200
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts[name] = len(queries)
    return counts


def test_public_pages_query_counts_do_not_grow(client: Client, django_assert_num_queries) -> None:
    series = make_series(min_games=2)
    players = make_players(12)
    game = make_game(series, players[:4], round_number=1)
    play(game, hanchan_passing_deal())
    live = make_game(series, players[4:8], round_number=1)
    play(live, hanchan_passing_deal()[:2])
    bulk_finished_games(series, players, 8, tables=4)  # 10 games over rounds 1 and 2
    small = _query_counts(client, series, game, players[0])
    small_cached = _query_counts(client, series, game, players[0], cached=True)
    bulk_finished_games(series, players, 190, seed=1)  # 200 games
    assert Game.objects.filter(series=series).count() == 200
    large = _query_counts(client, series, game, players[0])
    large_cached = _query_counts(client, series, game, players[0], cached=True)
    assert small == large
    # Computed afresh: the series' (or the game's series') pk, which is then
    # remembered, and what the page shows; the series' and player pages read
    # the last note of a results change, which the next computation starts from.
    assert large == {
        "index": 1, "series": 14, "series after round 2": 14, "series partial": 14, "series with rates": 15,
        "game": 6, "player": 14,
    }  # the rates: one query more, over the seats' stored statistics; a player's page:
    # everyone's statistics and totals in one (stats.finished_by_player), then their own row;
    # the series' and player pages: four to replay the counted games' hands for a refused one
    # (stats.refused_games, once per results stamp for every page)
    assert small_cached == large_cached
    # Cached: none; the series' stamp is a cache entry, not a row.
    assert large_cached == {
        "index": 0, "series": 0, "series after round 2": 0, "series partial": 0, "series with rates": 0,
        "game": 0, "player": 0,
    }
    clear_caches()
    with django_assert_num_queries(6):
        client.get(reverse("game-detail", args=[live.pk]))


def test_public_pages_show_a_change_at_once(client: Client, league, django_capture_on_commit_callbacks) -> None:
    """Pages are cached under the series' stamp, which every service call
    publishes anew when its transaction commits (the test runs inside one
    transaction, so the commit hooks are run by hand)."""
    series_url = reverse("series-standings", args=["hand-worked"])
    game_url = reverse("game-detail", args=[league["game_a"].pk])
    player_url = reverse("player-detail", args=["hand-worked", league["a"].pk])
    assert "1 Bram South 34,500 +4.5 +30.0 +20.0 0.0 +54.5" in text(client.get(game_url))
    assert "Hands played hands of the games played (series: every hand) 8 8" in text(client.get(player_url))
    assert [r[2] for r in standings_rows(client.get(series_url).content.decode())][:2] == ["Chen", "Bram"]
    with CaptureQueriesContext(connection) as queries:
        client.get(series_url)
    assert len(queries) == 0  # cached

    # Bram is given -30: from +54.5 to +24.5 overall, now under Chen and still 2nd.
    with django_capture_on_commit_callbacks(execute=True):
        services.add_penalty(game=league["game_a"], seat=1, points=-30000, reason="slow play")
    rows = standings_rows(client.get(series_url).content.decode())
    assert [(r[2], r[4]) for r in rows[:2]] == [("Chen", "+65.1"), ("Bram", "+24.5")]
    assert "1 Bram South 34,500 +4.5 +30.0 +20.0 -30.0 +24.5" in text(client.get(game_url))

    # A new game, in progress: the series goes live, the statistics count its hands.
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(league["series"], [league["a"], league["b"], league["c"], league["e"]], round_number=3)
        play(game, hanchan_passing_deal()[:2])
    page = client.get(series_url).content.decode()
    assert 'data-live="1"' in page and "Games, round 3" in page
    assert "Hands played hands of the games played (series: every hand) 10 10" in text(client.get(player_url))

    # An edit of the series itself (the admin saves the model) moves the version too.
    series = Series.objects.get(slug="hand-worked")
    series.min_games = 2
    with django_capture_on_commit_callbacks(execute=True):
        series.save()
    assert [r[2] for r in standings_rows(client.get(series_url).content.decode())] == ["Chen", "Aiko", "Dana"]


def test_public_pages_show_a_renamed_player_at_once(client: Client, league, django_capture_on_commit_callbacks) -> None:
    series_url = reverse("series-standings", args=["hand-worked"])
    assert "Chen" in client.get(series_url).content.decode()
    player = league["c"]
    player.name = "Chen Wei"
    with django_capture_on_commit_callbacks(execute=True):
        player.save()
    assert "Chen Wei" in client.get(series_url).content.decode()


@pytest.mark.parametrize(("value", "shown"), [(49940, "+49.94"), (-8025, "-8.03"), (-8024, "-8.02"), (0, "0.00"), (5, "+0.01")])
def test_standings_average_points_show_two_places(value: int, shown: str) -> None:
    from league.tables import StandingsTable

    assert StandingsTable.render_average_points(None, value) == shown


def test_player_page_of_someone_who_never_played_in_the_series_is_not_found(client: Client, league) -> None:
    stranger = make_players(1)[0]
    assert client.get(reverse("player-detail", args=["hand-worked", stranger.pk])).status_code == 404


def sort_links(page: str, table_class: str) -> dict[str, str]:
    """Column heading -> the sort its link asks for, in the table's header."""
    table = re.search(rf'<table[^>]*class="{table_class}[" ].*?</thead>', page, flags=re.S).group(0)
    return {html_module.unescape(re.sub(r"<[^>]+>", "", label)).strip(): sort
            for sort, label in re.findall(r'<a href="\?[^"]*?sort=(-?\w+)[^"]*">(.*?)</a>', table, flags=re.S)}


def test_series_standings_first_click_sorts_the_best_first(client: Client, league) -> None:
    links = sort_links(client.get(reverse("series-standings", args=["hand-worked"])).content.decode(), "standings")
    # Points, averages and firsts descending; average place and fourths ascending.
    assert {k: links[k] for k in ("Points", "Avg", "1st", "2nd", "Avg score", "Best", "Games")} == {
        "Points": "-total", "Avg": "-average_points", "1st": "-first", "2nd": "-second",
        "Avg score": "-average_score", "Best": "-best", "Games": "-games",
    }
    assert {k: links[k] for k in ("Avg place", "4th", "Rank", "Player")} == {
        "Avg place": "average_place", "4th": "fourth", "Rank": "rank", "Player": "name",
    }
    by_first = standings_rows(client.get(reverse("series-standings", args=["hand-worked"]), {"s-sort": "-first"})
                              .content.decode())
    assert {r[2] for r in by_first[:2]} == {"Bram", "Chen"}  # the two players with a first


def test_player_games_first_click_sorts_points_descending(client: Client, league) -> None:
    page = client.get(reverse("player-detail", args=["hand-worked", league["c"].pk])).content.decode()
    links = sort_links(page, "player-games")
    assert links["Points"] == "-points" and links["End score"] == "-end_score" and links["Place"] == "place"


def test_series_page_links_all_three_csv_files_with_its_round_or_date(client: Client, league) -> None:
    url = reverse("series-standings", args=["hand-worked"])
    latest = client.get(url).content.decode()
    for name in ("standings", "games", "hands"):
        assert f'href="/series/hand-worked/{name}.csv"' in latest
    after_1 = client.get(url, {"round": "1"}).content.decode()
    for name in ("standings", "games", "hands"):
        assert f'href="/series/hand-worked/{name}.csv?round=1"' in after_1
    day = timezone.localdate(Game.objects.get(pk=league["game_a"].pk).finished_at).isoformat()
    on_day = client.get(url, {"date": day}).content.decode()
    assert f'href="/series/hand-worked/games.csv?date={day}"' in on_day
    # The link gives what the page shows: after round 1, game B is not in the file.
    body = b"".join(client.get("/series/hand-worked/games.csv?round=1").streaming_content).decode("utf-8-sig")
    assert {line.split(",")[0] for line in body.splitlines()[1:]} == {str(league["game_a"].pk)}


def test_game_chart_labels_each_hand_once_and_the_last_whole(client: Client) -> None:
    series = make_series(slug="chombo-chart")
    game = make_game(series, make_players(), round_number=1)
    # E1-0 ron; E2-0 a chombo, so E2-0 is played again: the dealer wins it and
    # the next (E2-1), then a chombo at E2-2.
    play(game, [ron(0, 1, 3, 40), chombo(2), ron(2, 1, 2, 30), ron(0, 1, 1, 30), chombo(3)])
    page = client.get(reverse("game-detail", args=[game.pk])).content.decode()
    svg = re.search(r'<figure class="chart">(.*?)</figure>', page, flags=re.S).group(1)
    labels = re.findall(r'<text x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)" fill="#555">([^<]*)</text>', svg)
    names = [name for _x, _anchor, name in labels if not name.endswith("k")]  # the y axis is in thousands
    assert names == ["start", "E1-0", "E2-0", "E2-0 (2)", "E2-1", "E2-2"]
    assert len(set(names)) == len(names)
    x, anchor, _ = labels[-1]
    width = int(re.search(r'viewBox="0 0 (\d+)', svg).group(1))
    assert anchor == "end" and float(x) <= width  # ends inside the drawing: shown whole


def test_series_standings_search_finds_a_player_on_any_page(client: Client, league) -> None:
    url = reverse("series-standings", args=["hand-worked"])
    Series.objects.filter(pk=league["series"].pk).update(standings_per_page=2)
    series_changed([league["series"].pk])
    page = client.get(url, {"q": "  da "}).content.decode()
    # Dana ranks =3, on page 2 of two a page: the search lists her, her rank kept.
    assert [(r[0], r[2]) for r in standings_rows(page)] == [("=3", "Dana")]
    assert "1 player named “da”" in text(client.get(url, {"q": "da"}))
    assert 'id="standings-q"' in page and '<label for="standings-q">Find a player</label>' in page
    # Case does not matter; the matches are paged like the standings.
    assert [r[2] for r in standings_rows(client.get(url, {"q": "A"}).content.decode())] == ["Bram", "Aiko"]
    assert [r[2] for r in standings_rows(client.get(url, {"q": "A", "s-page": 2}).content.decode())] == ["Dana"]
    assert "No ranked player’s name holds “zz”" in text(client.get(url, {"q": "zz"}))
    # After a round, the search keeps the round.
    after_1 = client.get(url, {"q": "da", "round": 1}).content.decode()
    assert '<input type="hidden" name="round" value="1">' in after_1


def test_series_standings_rates_as_optional_columns(client: Client, league) -> None:
    url = reverse("series-standings", args=["hand-worked"])
    plain = client.get(url).content.decode()
    assert "Win %" not in plain and 'href="?stats=1#standings-h"' in plain
    page = client.get(url, {"stats": 1}).content.decode()
    rows = {r[2]: r[14:] for r in standings_rows(page)}
    # win, deal-in, riichi, top two, no fourth; Aiko as on her page, Emil
    # played only game B (end scores: no hands), 4th; Chen 2nd and 1st.
    assert rows["Aiko"] == ["25.0%", "12.5%", "12.5%", "0.0%", "100.0%"]
    assert rows["Emil"] == ["–", "–", "–", "0.0%", "0.0%"]
    assert rows["Chen"][3:] == ["100.0%", "100.0%"]
    assert rows["Dana"][3:] == ["50.0%", "50.0%"]
    legend = text_of_section(page, 'class="legend"')
    for heading, definition in [("Win %", "hands won, of hands played"),
                                ("No-4th %", "finished games not ended 4th (fourth avoidance)")]:
        assert f"{heading} {definition}" in legend
    links = sort_links(page, "standings")
    assert links["Win %"] == "-win_rate" and links["Deal-in %"] == "deal_in_rate"
    by_win = standings_rows(client.get(url, {"stats": 1, "s-sort": "-win_rate"}).content.decode())
    rates = [float(r[14].rstrip("%")) for r in by_win if r[14] != "–"]
    assert rates == sorted(rates, reverse=True) and by_win[-1][2] == "Emil"  # no hands: last


def test_standings_rate_columns_are_the_stats_listed() -> None:
    from league import stats
    from league.tables import StandingsTable

    names = [c.name for c in stats.STANDINGS_STATS]
    assert list(StandingsTable.base_columns)[-len(names):] == names


def test_player_across_series_totals_and_links(client: Client, league) -> None:
    """Aiko: -35.8 in two games of the hand-worked league (3rd twice); in a
    second series one game, 1st on 40,000 / 30,000 / 20,000 / 10,000:
    (40 - 30) + 30 + 20 = +60.0. Overall 3 games, +24.2, average +8.067,
    average place (3 + 3 + 1) / 3 = 2.33. A game in progress counts nowhere."""
    other = make_series(name="Winter Cup", slug="winter-cup")
    a = league["a"]
    game = make_game(other, [a, *make_players(3)], round_number=1)
    services.record_final_scores(game=game, scores=[40000, 30000, 20000, 10000])
    make_game(other, [a, *make_players(3)], round_number=2)  # in progress
    url = reverse("player-series", args=[a.pk])
    assert url == f"/players/{a.pk}/"
    page = text(client.get(url))
    assert "Series 2 Games 3 Points +24.2 Average +8.067 Average place 2.33 1st / 2nd / 3rd / 4th 1 / 0 / 2 / 0" in page
    html = client.get(url).content.decode()
    assert html.index("Winter Cup") < html.index("Hand-worked League")  # the latest played first
    assert f'href="/series/winter-cup/players/{a.pk}/"' in html
    assert f'href="/series/hand-worked/players/{a.pk}/"' in html
    assert "Winter Cup 1 +60.0 +60.0 1.00 1 / 0 / 0 / 0" in page
    assert "Hand-worked League 2 -35.8 -17.9 3.00 0 / 0 / 2 / 0" in page
    # The series player page links here; a player with no counted game has no page.
    series_page = client.get(reverse("player-detail", args=["hand-worked", a.pk])).content.decode()
    assert f'href="{url}"' in series_page
    assert client.get(reverse("player-series", args=[make_player("Nobody").pk])).status_code == 404


def test_player_across_series_is_cached_and_moves_with_any_series(
    client: Client, league, django_capture_on_commit_callbacks
) -> None:
    url = reverse("player-series", args=[league["e"].pk])
    assert "Games 1 Points -48.0" in text(client.get(url))
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    assert len(queries) == 0  # served whole from the cache
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(league["series"], [league["e"], *make_players(3)], round_number=3)
        services.record_final_scores(game=game, scores=[40000, 30000, 20000, 10000])
    assert "Games 2 Points +12.0" in text(client.get(url))
