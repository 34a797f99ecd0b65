"""Game records as JSON lines: export, import through the services, the round
trip, and bad files refused whole with the line and field named."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league import exports, game_records, services
from league.models import Game, GameAudit, Hand, Penalty, Player, Seat, Series, Win
from scoring.game import hand_to_dict
from scoring.rules import get_ruleset
from tests.factories import hanchan_passing_deal, make_player, make_series, refresh_planner_statistics
from tests.league.test_exports import HYPERLINK, small_series

pytestmark = pytest.mark.django_db

PLAYERS = ["Aiko", "Bram", "Chen", "Dana"]


def export(slug: str) -> str:
    out = StringIO()
    call_command("export_games", series=slug, stdout=out)
    return out.getvalue()


def import_text(tmp_path: Path, text: str, slug: str = "copy", **kwargs: str) -> str:
    path = tmp_path / "games.jsonl"
    path.write_text(text, encoding="utf-8")
    out = StringIO()
    call_command("import_games", str(path), series=slug, stdout=out, **kwargs)
    return out.getvalue()


def line(**record: object) -> str:
    return json.dumps({"players": PLAYERS, "rules": "ari-ari", **record}) + "\n"


def hands_json(n: int = 8) -> list[dict]:
    """The first ``n`` hands of a hanchan that ends after its eighth."""
    return [hand_to_dict(h) for h in hanchan_passing_deal()[:n]]


def counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in (Series, Player, Game, Seat, Hand, Win, Penalty, GameAudit)}


def csv_text(rows) -> str:  # noqa: ANN001
    return "".join(exports.csv_chunks(rows))


def test_export_writes_league_keys_then_the_game_record() -> None:
    small_series()
    first, second, third = (json.loads(t) for t in export("small").splitlines())
    assert list(first)[:5] == ["round", "table", "players", "started_at", "finished_at"]
    assert first["players"] == ["Aiko", "Chen", HYPERLINK, "Dana"]
    assert first["final"] == {"scores": [41300, 24900, 21800, 12000], "riichi_sticks": 0}
    assert first["hands"] == [] and first["rules"] == "ari-ari"
    assert second["end"] == "early"
    # the cancelled penalty is not part of the result, so not part of the record
    assert second["penalties"] == [{"seat": 0, "points": -10000, "reason": "late"}]
    assert second["hands"][2] == {
        "riichi": [], "outcome": {"type": "tsumo", "winner": 3, "han": 1, "fu": 30},
        "tiles": "123m456p789s11z 2z", "yaku": ["tsumo"], "note": "-1 honba misread",
    }
    assert third["round"] == 3 and third["table"] == "1"


def test_small_series_round_trips(tmp_path: Path) -> None:
    small = small_series()
    before = export("small")
    assert "Imported 3 games, 3 hands into copy (new series); 0 new players." in import_text(tmp_path, before)
    assert export("copy") == before
    copy = Series.objects.get(slug="copy")
    copy.min_games = small.series.min_games  # the series' own settings are not in the records
    copy.save()
    assert csv_text(exports.standings_rows(copy)) == csv_text(exports.standings_rows(small.series))
    assert copy.standings() == small.series.standings()
    g2 = copy.games.get(round_number=2)
    assert (g2.status, g2.end) == (Game.Status.FINISHED, Game.End.EARLY)
    small.games[1].refresh_from_db()
    assert g2.finished_at == small.games[1].finished_at
    assert g2.hands.get(number=3).tiles == "123m456p789s11z 2z"


def test_demo_league_round_trips_byte_for_byte(tmp_path: Path, demo_league: None) -> None:
    demo = Series.objects.get(slug="demo-league")
    first = tmp_path / "first.jsonl"
    second = tmp_path / "second.jsonl"
    with CaptureQueriesContext(connection) as queries:
        call_command("export_games", series="demo-league", output=str(first))
    assert len(queries.captured_queries) == 1 + 5  # the series; games, hands, wins, seats, penalties (one batch)
    out = StringIO()
    call_command("import_games", str(first), series="demo-copy", stdout=out)
    refresh_planner_statistics()
    assert "Imported 40 games, 430 hands into demo-copy (new series); 0 new players." in out.getvalue()
    call_command("export_games", series="demo-copy", output=str(second))
    assert first.read_bytes() == second.read_bytes()
    copy = Series.objects.get(slug="demo-copy")
    assert copy.rules == demo.rules
    copy.min_games = demo.min_games
    copy.save()
    assert copy.standings() == demo.standings()
    assert csv_text(exports.standings_rows(copy)) == csv_text(exports.standings_rows(demo))
    # as of a date too: the games keep the day they were played
    day = demo.games.filter(status=Game.Status.FINISHED).order_by("finished_at").first().finished_at.date()
    assert copy.standings(through_date=day) == demo.standings(through_date=day)
    # the hands CSV matches but for the game ids
    def without_ids(series: Series) -> list[str]:
        rows = csv_text(exports.hand_rows(exports.series_games(series))).splitlines()
        return [r.split(",", 1)[1] for r in rows]
    assert without_ids(copy) == without_ids(demo)
    # the game in progress stays in progress, the end-score games stay end-score games
    assert copy.games.filter(status=Game.Status.IN_PROGRESS).count() == 1
    assert copy.games.exclude(final_scores=None).count() == 2


def test_import_goes_through_the_services_and_settles(tmp_path: Path) -> None:
    make_player("Aiko")
    text = line(round=2, table="B", hands=hands_json(), penalties=[{"seat": 1, "points": -5000, "reason": "slow"}])
    out = import_text(tmp_path, text, slug="new-league", name="New League")
    assert "3 new players" in out
    series = Series.objects.get(slug="new-league")
    assert series.name == "New League" and series.ruleset() == get_ruleset("ari-ari")
    game = series.games.get()
    assert (game.round_number, game.table, game.status) == (2, "B", Game.Status.FINISHED)
    assert [s.player.name for s in game.seats.order_by("seat")] == PLAYERS
    assert Player.objects.filter(name="Aiko").count() == 1  # matched, not created again
    # the audit trail shows the same entries as staff entry
    actions = set(game.audit.values_list("action", flat=True))
    assert {"start", "record_hand", "finish", "add_penalty", "resettle"} <= actions
    assert game.hands.count() == 8
    standings = series.standings()
    assert len(standings.ranked) == 4 and sum(r.total for r in standings.ranked) == -5000


def test_players_are_matched_by_exact_name(tmp_path: Path) -> None:
    make_player("Aiko")
    import_text(tmp_path, json.dumps({"players": ["aiko", "Bram", "Chen", "Dana"], "rules": "ari-ari"}) + "\n")
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Aiko", "Bram", "Chen", "Dana", "aiko"]


def test_import_into_an_existing_series_with_the_same_rules(tmp_path: Path) -> None:
    series = make_series("tenhou", slug="club")
    import_text(tmp_path, line(rules="tenhou", final={"scores": [40000, 30000, 20000, 10000]}), slug="club")
    assert series.games.get().seats.get(seat=0).points == 50000  # tenhou: (40.0 - 30) + 20 uma + 20 oka
    assert Series.objects.count() == 1


def test_new_series_takes_the_records_ruleset(tmp_path: Path) -> None:
    rules = {"preset": "ema-2016", "overrides": {"kiriage": True}}
    # EMA starts at 30,000: four scores sum to 120,000
    import_text(tmp_path, line(rules=rules, final={"scores": [45000, 35000, 25000, 15000]}), slug="ema")
    assert Series.objects.get(slug="ema").ruleset() == get_ruleset(rules)


def test_stdin_and_a_bom_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import_text(tmp_path, "\ufeff" + line(final={"scores": [25000] * 4}), slug="bom")
    assert Series.objects.get(slug="bom").games.count() == 1
    # Another game (the same one again would be skipped as already imported: test_import_rerun.py)
    monkeypatch.setattr("sys.stdin", StringIO(line(final={"scores": [30000, 25000, 25000, 20000]})))
    call_command("import_games", "-", series="bom", stdout=StringIO())
    assert Series.objects.get(slug="bom").games.count() == 2


# -- bad files: nothing imported, the line and the field named ----------------------------------------

GOOD = line(hands=hands_json())
BAD_FILES = [
    pytest.param(GOOD + '{"players": ["Aiko", "Bram", "Chen", "Dana"], "rules": "ari-ari", "hands": [\n',
                 "line 2: not valid JSON", "invalid_json", id="broken-json"),
    pytest.param(GOOD + line(hands=[*hands_json(), {"riichi": [], "outcome": {"type": "draw", "tenpai": []}}]),
                 "line 2, hands[8]: the game ended after hand 8", "game_over", id="hand-after-the-end"),
    pytest.param(GOOD + line(hands=[{"riichi": [], "outcome": {"type": "dragon", "winner": 1}}]),
                 "line 2, hands[0].outcome.type: outcome type must be one of", "invalid_outcome",
                 id="unknown-outcome-type"),
    pytest.param(GOOD + line(hands=hands_json(2), venue="club house"),
                 "line 2, venue: unknown key 'venue'", "unknown_key", id="unknown-key"),
    pytest.param(GOOD + line(hands=[{"riichi": [], "outcome": {"type": "draw", "tenpai": []}, "dora": 3}]),
                 "line 2, hands[0].dora: unknown key 'dora'", "unknown_key", id="unknown-hand-key"),
    pytest.param(GOOD + json.dumps({"players": ["Aiko", "Bram", "", "Dana"], "rules": "ari-ari"}),
                 "line 2, players[2]: seat 2 has no player name", "invalid_players", id="missing-name"),
    pytest.param(GOOD + json.dumps({"players": ["Aiko", "Bram", None, "Dana"], "rules": "ari-ari"}),
                 "line 2, players[2]: seat 2 has no player name", "invalid_players", id="null-name"),
    pytest.param(GOOD + json.dumps({"players": ["Aiko", "Bram", "Dana"], "rules": "ari-ari"}),
                 "line 2, players: players must be four names in seat order", "invalid_players", id="three-names"),
    pytest.param(GOOD + json.dumps({"rules": "ari-ari"}),
                 "line 2, players: a record needs its four players' names", "invalid_players", id="no-players"),
    pytest.param(GOOD + line(players=["Aiko", "Bram", "Aiko", "Dana"]),
                 "line 2, players[2]: Aiko cannot sit twice", "same_player", id="same-player-twice"),
    pytest.param(GOOD + line(rules="tenhou"),
                 "line 2, rules: the record's ruleset \"tenhou\" differs from the series' \"ari-ari\"",
                 "rules_differ", id="ruleset-differs"),
    pytest.param(GOOD + line(final={"scores": [30000, 30000, 30000, 30000]}),
                 "line 2, final.scores: end scores must sum to 100,000", "scores_do_not_add_up", id="bad-end-scores"),
    pytest.param(GOOD + line(penalties=[{"seat": 1, "points": 0, "reason": "x"}]),
                 "line 2, penalties[0].points: penalty points are whole thousandths", "invalid_penalty",
                 id="penalty-refused-by-the-service"),
    pytest.param(GOOD + line(round=0),
                 "line 2, round: round must be a whole number from 1", "invalid_value", id="round-zero"),
    pytest.param(GOOD + line(hands=hands_json(3), finished_at="2025-09-04T20:00:00+00:00"),
                 "line 2, finished_at: finished_at is given but the record does not finish the game",
                 "invalid_value", id="finished-but-not-over"),
    pytest.param(GOOD + "[1, 2]\n",
                 "line 2: a line must be one JSON object", "invalid_record", id="not-an-object"),
]


# What once printed a traceback instead of its line (issue 13): each is reported
# as its line, field and code, on SQLite and on PostgreSQL alike.
RON = {"riichi": [], "outcome": {"type": "ron", "loser": 1, "wins": [{"winner": 0, "han": 3, "fu": 30}]}}
HOSTILE_LINES = [
    pytest.param('{"players": ' + "[" * 100_000 + "]" * 100_000 + "}\n",
                 "line 2: nested too deeply", "invalid_json", id="nested-json"),
    pytest.param(line(round=int("9" * 4000)), "line 2, round: round must be a whole number from 1 to 99,999",
                 "invalid_value", id="huge-round"),
    pytest.param('{"round": ' + "9" * 4301 + "}\n", "line 2: not valid JSON", "invalid_json", id="4301-digits"),
    pytest.param(line(round=10**20), "line 2, round: round must be a whole number from 1 to 99,999", "invalid_value",
                 id="round-10-20"),
    pytest.param(line(round=2**31), "line 2, round:", "invalid_value", id="round-2-31"),
    pytest.param(line(hands=[{**RON, "outcome": {**RON["outcome"], "wins": [{"winner": 0, "han": 10**30}]}}]),
                 "line 2, hands[0].outcome.wins[0].han: han is at most 100", "out_of_range", id="han-10-30"),
    pytest.param(line(started_at="0001-01-01T00:00:00+05:00"),
                 "line 2, started_at: started_at must be in the years 1900 to 2999", "invalid_value",
                 id="year-1-with-offset"),
    pytest.param(line(finished_at="9999-12-31T23:00:00-05:00", final={"scores": [41300, 24900, 21800, 12000]}),
                 "line 2, finished_at: finished_at must be in the years 1900 to 2999", "invalid_value",
                 id="year-9999-with-offset"),
    pytest.param(line(players=["Aiko", "B\x00ram", "Chen", "Dana"]),
                 "line 2, players[1]: a name cannot hold a NUL character", "invalid_players", id="nul-name"),
    pytest.param(line(table="T\x00"), "line 2, table:", "invalid_value", id="nul-table"),
    pytest.param(line(hands=[{**RON, "note": "x\x00"}]), "line 2, hands[0].note: note holds a NUL character",
                 "invalid_text", id="nul-note"),
    pytest.param(line(hands=[{**RON, "yaku": [{"winner": 0, "yaku": ["\x00"]}]}]),
                 "line 2, hands[0].yaku: yaku holds a NUL character", "invalid_text", id="nul-yaku"),
    pytest.param(line(penalties=[{"seat": 1, "points": -1000, "reason": "late\x00"}]),
                 "line 2, penalties[0].reason: a reason cannot hold a NUL character", "invalid_text",
                 id="nul-reason"),
    pytest.param(line(penalties=[{"seat": 1, "points": -1000000, "reason": "x"}] * 11),
                 "line 2, penalties[10].points: the penalties of one seat in one game are at most 10,000 points",
                 "invalid_penalty", id="penalties-past-the-total"),
]


@pytest.mark.parametrize("text, message, code", HOSTILE_LINES)
def test_hostile_lines_are_reported_not_crashed_on(tmp_path: Path, text: str, message: str, code: str) -> None:
    make_series(slug="club")
    before = counts()
    with pytest.raises(CommandError) as refused:
        import_text(tmp_path, GOOD + text + line(round=0), slug="club")
    assert f"{message}" in str(refused.value) and f"({code})" in str(refused.value)
    # The line after it is still looked at: one crash once hid every later bad line.
    assert "line 3, round: round must be a whole number" in str(refused.value)
    assert counts() == before


def test_kept_tiles_of_any_shape_import_and_count_no_open_win(tmp_path: Path) -> None:
    """"tiles": {"tiles": "x", "melds": [1]} once crashed the hand statistics."""
    odd = [{**RON, "tiles": {"tiles": "x", "melds": [1]}}, {**RON, "tiles": [{"tiles": "1m", "melds": "pon"}]},
           {**RON, "tiles": [{"tiles": "1m", "melds": [{"type": ["pon"]}]}]}]
    import_text(tmp_path, line(hands=odd), slug="odd")
    seat = Seat.objects.get(seat=0)
    assert (seat.wins, seat.wins_with_tiles, seat.open_wins) == (3, 3, 0)


@pytest.mark.parametrize("text, message, code", BAD_FILES)
def test_bad_file_imports_nothing(tmp_path: Path, text: str, message: str, code: str) -> None:
    make_series(slug="club")  # ari-ari; the good first line would be imported into it
    before = counts()
    with pytest.raises(CommandError) as refused:
        import_text(tmp_path, text, slug="club")
    assert message in str(refused.value)
    assert f"({code})" in str(refused.value)
    assert "nothing imported, 1 bad record(s)" in str(refused.value)
    assert counts() == before


def test_bad_file_into_a_new_series_creates_nothing(tmp_path: Path) -> None:
    before = counts()
    with pytest.raises(game_records.ImportRefused):
        game_records.import_lines([GOOD, GOOD, "{"], slug="fresh")
    assert counts() == before
    assert not Series.objects.filter(slug="fresh").exists()


def test_every_bad_line_is_reported(tmp_path: Path) -> None:
    text = "\n".join(["{", GOOD.strip(), "", json.dumps({"rules": "ari-ari"}), line(hands=[{"riichi": []}])])
    with pytest.raises(game_records.ImportRefused) as refused:
        game_records.import_lines(text.splitlines(), slug="club")
    assert [(e.line, e.field, e.code) for e in refused.value.errors] == [
        (1, None, "invalid_json"),
        (4, "players", "invalid_players"),
        (5, "hands[0].outcome", "invalid_outcome"),
    ]


def test_import_of_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_games", str(tmp_path / "nope.jsonl"), series="x", stdout=StringIO())


def test_export_of_an_unknown_series_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="no series with the slug 'nope'"):
        call_command("export_games", series="nope", stdout=StringIO())


def test_a_game_the_records_finish_counts_in_the_standings(tmp_path: Path) -> None:
    import_text(tmp_path, line(hands=hands_json()) + line(hands=hands_json(5)), slug="club")
    series = Series.objects.get(slug="club")
    finished, going = series.games.order_by("pk")
    assert finished.status == Game.Status.FINISHED and going.status == Game.Status.IN_PROGRESS
    assert [r.games for r in series.standings().ranked] == [1, 1, 1, 1]
    # and the still-open game can be played on by staff
    services.record_hand(game=going, number=6, hand=hands_json()[5])


@pytest.mark.parametrize("slug", ["Autumn 2025", "x" * 51])
def test_import_refuses_a_new_series_slug_its_urls_cannot_hold(tmp_path: Path, client, slug: str) -> None:
    # A series whose slug the URLs cannot hold would break the public series list.
    with pytest.raises(CommandError, match="slug"):
        import_text(tmp_path, line(hands=hands_json()), slug=slug)
    assert not Series.objects.exists()
    assert client.get("/").status_code == 200
