"""CSV exports against a small series worked out by hand (ari-ari: start 25,000,
return 30,000, uma +30/+10/-10/-30, oka +20 to first, tied places split uma)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import exports, services
from league.models import Game, Hand, Penalty, Player, Series
from scoring.game import HandInput, Tsumo, Win
from tests.factories import double_ron, draw, make_game, make_player, make_series, play, refresh_planner_statistics, ron

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://x","y")'


@dataclass
class Small:
    series: Series
    games: list[Game]


def small_series() -> Small:
    """Three games, five players, minimum two games to be ranked.

    Game 1 (round 1), end scores only, seats Aiko, Chen, HYPERLINK, Dana:
      41,300 / 24,900 / 21,800 / 12,000
      Aiko  (41.3 - 30) + 30 + 20 = +61.3   Chen (24.9 - 30) + 10 = +4.9
      HYPER (21.8 - 30) - 10      = -18.2   Dana (12.0 - 30) - 30 = -48.0
    Game 2 (round 2), hand by hand, seats Dana, Aiko, Chen, HYPERLINK, ended early:
      E1 Dana deals: Aiko rons Dana 3 han 40 fu = 5,200      -> 19,800 30,200 25,000 25,000
      E2 Aiko deals: draw, Chen riichi and alone tenpai:
         noten 3,000 to Chen, less her 1,000 stick           -> 18,800 29,200 27,000 24,000, 1 stick
         the dealer is noten: the deal passes, honba 1
      E3 Chen deals, honba 1, 1 stick: HYPERLINK tsumo 1 han 30 fu = 300/500,
         +100 per payer for the honba, +1,000 for the stick  -> 18,400 28,800 26,400 26,400
      Chen and HYPERLINK tie for second and split uma +10/-10: 0 each.
      Aiko (28.8 - 30) + 30 + 20 = +48.8   Chen, HYPER (26.4 - 30) + 0 = -3.6 each
      Dana (18.4 - 30) - 30 = -41.6, and a -10.0 penalty: -51.6
      (a -5.0 penalty to HYPERLINK was cancelled: not counted)
    Game 3 (round 3), end scores only, seats Emil, HYPERLINK, Chen, Dana:
      40,000 / 25,000 / 21,900 / 13,100
      Emil +60.0   HYPER (25.0 - 30) + 10 = +5.0   Chen (21.9 - 30) - 10 = -18.1   Dana -16.9 - 30 = -46.9
    Totals: Aiko 61.3 + 48.8 = 110.1; Chen 4.9 - 3.6 - 18.1 = -16.8; HYPER -18.2 - 3.6 + 5.0 = -16.8 (tied
    with Chen); Dana -48.0 - 51.6 - 46.9 = -146.5; Emil 60.0 in one game, under the minimum.
    """
    series = make_series(min_games=2, slug="small")
    aiko, chen, hyper, dana, emil = (make_player(n) for n in ["Aiko", "Chen", HYPERLINK, "Dana", "Emil"])
    g1 = make_game(series, [aiko, chen, hyper, dana], round_number=1, table="1")
    services.record_final_scores(game=g1, scores=[41300, 24900, 21800, 12000])
    g2 = make_game(series, [dana, aiko, chen, hyper], round_number=2, table="1")
    play(g2, [
        ron(0, 1, 3, 40),
        draw(2, riichi=[2]),
        HandInput(Tsumo(winner=3, han=1, fu=30), tiles="123m456p789s11z 2z", yaku=["tsumo"], note="-1 honba misread"),
    ])
    services.add_penalty(game=g2, seat=0, points=-10000, reason="late")
    cancelled = services.add_penalty(game=g2, seat=3, points=-5000, reason="=slow play")
    services.cancel_penalty(penalty=cancelled)
    services.finish_game(game=g2)
    g3 = make_game(series, [emil, hyper, chen, dana], round_number=3, table="1")
    services.record_final_scores(game=g3, scores=[40000, 25000, 21900, 13100])
    return Small(series, [g1, g2, g3])


def text(rows) -> str:  # noqa: ANN001
    return "".join(exports.csv_chunks(rows))


def lines(rows) -> list[str]:  # noqa: ANN001
    out = text(rows)
    assert out.startswith("\ufeff")
    return out[1:].split("\r\n")[:-1]


def test_standings_csv_by_hand() -> None:
    small = small_series()
    assert lines(exports.standings_rows(small.series)) == [
        "rank,player,games,points,average_points,average_place,first,second,third,fourth,average_score,best,worst,ranked",
        "1,Aiko,2,110.1,55.05,1.00,2,0,0,0,35050,61.3,48.8,yes",
        # a tie shares the rank; '=' sorts before 'C', so the formula-named player shows first
        "2,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",3,-16.8,-5.6,2.33,0,2,1,0,24400,5.0,-18.2,yes",
        "2,Chen,3,-16.8,-5.6,2.33,0,2,1,0,24400,4.9,-18.1,yes",
        # -146.5 / 3 = -48.8333 -> -48.833 (thousandths, half away from zero)
        "4,Dana,3,-146.5,-48.833,4.00,0,0,0,3,14500,-46.9,-51.6,yes",
        # under the minimum of two games: after the ranked players, no rank
        ",Emil,1,60.0,60.0,1.00,1,0,0,0,40000,60.0,60.0,no",
    ]


def test_standings_csv_as_of_a_round() -> None:
    small = small_series()
    rows = list(csv.reader(lines(exports.standings_rows(small.series, through_round=1))))
    # after round 1 nobody has two games: all listed as under the minimum, by points
    assert [(r[0], r[1], r[3]) for r in rows[1:]] == [
        ("", "Aiko", "61.3"), ("", "Chen", "4.9"), ("", "'" + HYPERLINK, "-18.2"), ("", "Dana", "-48.0"),
    ]


def test_games_csv_by_hand() -> None:
    small = small_series()
    g1, g2, g3 = (g.pk for g in small.games)
    h = "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
    assert lines(exports.game_rows(exports.series_games(small.series))) == [
        "game,round,table,status,seat,player,end_score,place,points,penalties",
        f"{g1},1,1,finished,0,Aiko,41300,1,61.3,0.0",
        f"{g1},1,1,finished,1,Chen,24900,2,4.9,0.0",
        f"{g1},1,1,finished,2,{h},21800,3,-18.2,0.0",
        f"{g1},1,1,finished,3,Dana,12000,4,-48.0,0.0",
        f"{g2},2,1,finished,0,Dana,18400,4,-51.6,-10.0",
        f"{g2},2,1,finished,1,Aiko,28800,1,48.8,0.0",
        f"{g2},2,1,finished,2,Chen,26400,2,-3.6,0.0",
        f"{g2},2,1,finished,3,{h},26400,2,-3.6,0.0",  # the cancelled penalty is not counted
        f"{g3},3,1,finished,0,Emil,40000,1,60.0,0.0",
        f"{g3},3,1,finished,1,{h},25000,2,5.0,0.0",
        f"{g3},3,1,finished,2,Chen,21900,3,-18.1,0.0",
        f"{g3},3,1,finished,3,Dana,13100,4,-46.9,0.0",
    ]


def test_games_csv_lists_a_game_in_progress_with_empty_results() -> None:
    series = make_series()
    game = make_game(series, [make_player(n) for n in "NESW"], table="7")
    play(game, [ron(0, 1, 3, 40)])
    assert lines(exports.game_rows(exports.series_games(series)))[1:] == [
        f"{game.pk},1,7,in_progress,{seat},{name},,,,0.0" for seat, name in enumerate("NESW")
    ]


def test_hands_csv_by_hand() -> None:
    small = small_series()
    g2 = small.games[1].pk
    # the end-score-only games have no hands; honba and sticks are at the start of the hand
    assert lines(exports.hand_rows(exports.series_games(small.series))) == [
        "game,hand,round,dealer,honba,riichi_sticks,outcome,winners,loser,han,fu,yakuman,riichi,"
        "delta_0,delta_1,delta_2,delta_3,score_0,score_1,score_2,score_3,note",
        f"{g2},1,E1,0,0,0,ron,1,0,3,40,,,-5200,5200,0,0,19800,30200,25000,25000,",
        f"{g2},2,E2,1,0,0,draw,,,,,,2,-1000,-1000,2000,-1000,18800,29200,27000,24000,",
        f"{g2},3,E3,2,1,1,tsumo,3,,1,30,,,-400,-400,-600,2400,18400,28800,26400,26400,'-1 honba misread",
    ]


def test_hands_csv_double_ron_and_yakuman() -> None:
    series = make_series()
    game = make_game(series)
    play(game, [
        HandInput(Tsumo(winner=1, yakuman=1, pao=3)),
        double_ron(2, Win(winner=1, han=3, fu=40), Win(winner=3, han=2, fu=30), riichi=[1]),
    ])
    rows = list(csv.reader(lines(exports.hand_rows(exports.series_games(series)))))
    header = rows[0]
    first, second = (dict(zip(header, r, strict=True)) for r in rows[1:])
    # pao tsumo: the liable North pays the whole 32,000
    assert (first["outcome"], first["winners"], first["yakuman"], first["han"]) == ("tsumo", "1", "1", "")
    assert [first[f"delta_{s}"] for s in range(4)] == ["0", "32000", "0", "-32000"]
    # South's tsumo in E1 passed the deal: E2, South deals, honba 0; two winners, one value each
    assert (second["round"], second["dealer"], second["honba"], second["winners"], second["loser"]) == (
        "E2", "1", "0", "1;3", "2",
    )
    assert (second["han"], second["fu"], second["yakuman"], second["riichi"]) == ("3;2", "40;30", "", "1")


def test_formula_names_are_inert_and_numbers_stay_numbers() -> None:
    small = small_series()
    raw = text(exports.game_rows(exports.series_games(small.series)))
    parsed = list(csv.reader(io.StringIO(raw[1:])))
    hyper_rows = [r for r in parsed if HYPERLINK in r[5]]
    # the cell starts with an apostrophe: a spreadsheet shows the text and runs nothing
    assert {r[5] for r in hyper_rows} == {"'" + HYPERLINK}
    # -18.2 is written bare (no quote, no apostrophe), so a spreadsheet reads a number
    assert ",21800,3,-18.2,0.0\r\n" in raw
    assert float(hyper_rows[0][8]) == -18.2
    for dangerous in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]:
        assert exports.safe_text(dangerous) == "'" + dangerous
    assert exports.cell(-18) == -18 and exports.cell(exports.points(-18200)) == exports.points(-18200)


@pytest.mark.parametrize(
    "name, filename",
    [("series-standings-csv", "small-standings.csv"), ("series-games-csv", "small-games.csv"),
     ("series-hands-csv", "small-hands.csv")],
)
def test_csv_urls_need_no_login_and_stream(client: Client, name: str, filename: str) -> None:
    small = small_series()
    url = reverse(name, args=[small.series.slug])
    assert url == f"/series/small/{filename.split('-')[1]}"
    response = client.get(url)
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    body = b"".join(response.streaming_content)
    assert body.startswith(b"\xef\xbb\xbf")
    what = filename.split("-")[1].removesuffix(".csv")
    rows = {"standings": exports.standings_rows(small.series),
            "games": exports.game_rows(exports.series_games(small.series)),
            "hands": exports.hand_rows(exports.series_games(small.series))}[what]
    assert body == text(rows).encode("utf-8")


def test_csv_url_of_an_unknown_series_is_404(client: Client) -> None:
    assert client.get("/series/nope/games.csv").status_code == 404


def test_standings_csv_url_takes_a_round(client: Client) -> None:
    small_series()
    body = b"".join(client.get("/series/small/standings.csv", {"round": "1"}).streaming_content).decode()
    assert body.splitlines()[1] == ",Aiko,1,61.3,61.3,1.00,1,0,0,0,41300,61.3,61.3,no"


@pytest.mark.parametrize("what", ["standings", "games", "hands"])
def test_export_csv_command_writes_the_same_bytes(tmp_path, what: str) -> None:  # noqa: ANN001
    small = small_series()
    out = tmp_path / f"{what}.csv"
    call_command("export_csv", what, series="small", output=str(out))
    response = Client().get(f"/series/small/{what}.csv")
    assert out.read_bytes() == b"".join(response.streaming_content)
    stdout = StringIO()
    call_command("export_csv", what, series=small.series.slug, stdout=stdout)
    assert stdout.getvalue().encode("utf-8") == out.read_bytes()


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("staff", "staff@example.com", "pw"))
    return client


@pytest.mark.parametrize("action, what", [
    ("export_standings_csv", "standings"), ("export_games_csv", "games"), ("export_hands_csv", "hands"),
])
def test_admin_series_actions_give_the_public_file(staff: Client, action: str, what: str) -> None:
    small = small_series()
    response = staff.post(
        reverse("admin:league_series_changelist"), {"action": action, "_selected_action": [small.series.pk]}
    )
    assert response.status_code == 200
    public = Client().get(f"/series/small/{what}.csv")
    assert b"".join(response.streaming_content) == b"".join(public.streaming_content)


def test_admin_series_action_wants_one_series(staff: Client) -> None:
    small = small_series()
    other = make_series()
    response = staff.post(
        reverse("admin:league_series_changelist"),
        {"action": "export_games_csv", "_selected_action": [small.series.pk, other.pk]}, follow=True,
    )
    assert "Select exactly one series to export." in response.content.decode()


def test_admin_game_actions_export_the_selected_games(staff: Client) -> None:
    small = small_series()
    g2 = small.games[1]
    response = staff.post(
        reverse("admin:league_game_changelist"), {"action": "export_games_csv", "_selected_action": [g2.pk]}
    )
    rows = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert len(rows) == 1 + 4 and all(r.startswith(f"{g2.pk},") for r in rows[1:])
    response = staff.post(
        reverse("admin:league_game_changelist"), {"action": "export_hands_csv", "_selected_action": [g2.pk]}
    )
    assert len(b"".join(response.streaming_content).decode("utf-8-sig").splitlines()) == 1 + 3


def test_admin_series_action_exports_game_records(staff: Client) -> None:
    small = small_series()
    response = staff.post(
        reverse("admin:league_series_changelist"),
        {"action": "export_game_records", "_selected_action": [small.series.pk]},
    )
    stdout = StringIO()
    call_command("export_games", series="small", stdout=stdout)
    assert b"".join(response.streaming_content).decode() == stdout.getvalue()


def test_demo_league_exports_read_in_batches_not_per_game(demo_league: None) -> None:
    refresh_planner_statistics()
    series = Series.objects.get(slug="demo-league")
    assert series.games.count() == 40 and Player.objects.filter(seats__game__series=series).distinct().count() == 32
    with CaptureQueriesContext(connection) as games_q:
        assert sum(1 for _ in exports.game_rows(exports.series_games(series))) == 1 + 160
    with CaptureQueriesContext(connection) as hands_q:
        assert sum(1 for _ in exports.hand_rows(exports.series_games(series))) == 1 + 430
    # one query for the seats; games, their hands and the hands' wins: one each per batch of games
    assert len(games_q.captured_queries) == 1
    assert len(hands_q.captured_queries) == 3
    assert Penalty.objects.count() == 1
    # the plain queries read what the models read
    hands = Hand.objects.prefetch_related("wins").order_by("game_id", "number")
    expected: dict[int, list] = {}
    for hand in hands:
        expected.setdefault(hand.game_id, []).append(hand.to_input())
    assert exports.hand_inputs(list(expected)) == expected


def _games_in(client: Client, name: str, query: dict[str, str]) -> set[int]:
    body = b"".join(client.get(reverse(name, args=["small"]), query).streaming_content).decode("utf-8-sig")
    return {int(line.split(",")[0]) for line in body.splitlines()[1:]}


@pytest.mark.parametrize(("name", "round_", "rounds"), [
    ("series-games-csv", "1", [1]), ("series-games-csv", "2", [1, 2]), ("series-games-csv", "", [1, 2, 3]),
    # Only game 2 has hands: after round 1 the hands file has none, after round 2 game 2's.
    ("series-hands-csv", "1", []), ("series-hands-csv", "2", [2]), ("series-hands-csv", "", [2]),
])
def test_games_and_hands_csv_urls_take_a_round(client: Client, name: str, round_: str, rounds: list[int]) -> None:
    small = small_series()
    assert _games_in(client, name, {"round": round_} if round_ else {}) == {small.games[r - 1].pk for r in rounds}
