"""Real Tenhou logs into a league: import_tenhou_log, the import_logs command,
the export back to tenhou.net/6 JSON.

Hanchan, east-only and no-red-five lobbies play different rules, so each goes
to its own series (``SERIES_RULES``); a log offered to a series of other
rules is refused, saying so.
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league import services, tenhou
from league.models import Game, GameAudit, Hand, Player, Seat, Series, Win
from scoring.game import record_to_dict
from scoring.rules import get_ruleset
from tests.factories import make_player, make_series, refresh_planner_statistics
from tests.realdata import REALDATA, read_csv, reproduced_tenhou_files, require_realdata, thousandths

require_realdata()

pytestmark = pytest.mark.django_db

STANDARD = reproduced_tenhou_files()
MJLOG = REALDATA / "tenhou" / "mjlog"
JSON = REALDATA / "tenhou" / "json"
TWINS = sorted(p.name for p in JSON.glob("mjx__20*.json"))
SERIES_RULES = {
    "hanchan": "tenhou",
    "tonpuu": "tenhou-east",
    "hanchan-no-red": {"preset": "tenhou", "overrides": {"aka_dora": 0}},
}


def _series() -> dict[str, Series]:
    return {slug: make_series(rules, slug=slug) for slug, rules in SERIES_RULES.items()}


def _for(log: tenhou.TenhouLog, series: dict[str, Series]) -> Series:
    rules = get_ruleset(log.rules)
    return next(s for s in series.values() if services.same_rules(s.ruleset(), rules))


def _import(path, series, **kwargs) -> services.LogImport:
    return services.import_tenhou_log(series=series, data=path.read_bytes(), filename=path.name, **kwargs)


def _counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Series, Player, Game, Seat, Hand, Win, GameAudit))


# -- the 125 standard games -----------------------------------------------------------------


def test_all_standard_games_import_with_tenhous_results_and_standings():
    series = _series()
    totals: dict[tuple[str, str], int] = defaultdict(int)
    by_series: dict[str, int] = defaultdict(int)
    for file, row in sorted(STANDARD.items()):
        imported = tenhou.import_log_file(REALDATA / file)
        target = _for(imported.log, series)
        done = services.import_tenhou_log(series=target, data=imported, filename=file)
        assert done.created and done.discrepancies == ()
        game = done.game
        assert game.is_finished and game.source_id == imported.log.log_id
        assert game.hands.count() == int(row["hands"])
        assert list(game.variant) == list(imported.report.variant)
        assert game.discrepancies is None
        seats = list(game.seats.order_by("seat").select_related("player"))
        assert [s.end_score for s in seats] == [int(row[f"final_score_{i}"]) for i in range(4)], file
        assert [s.points for s in seats] == [thousandths(row[f"points_{i}"]) for i in range(4)], file
        assert [s.place for s in seats] == [int(row[f"rank_{i}"]) for i in range(4)], file
        for s, i in zip(seats, range(4), strict=True):
            totals[target.slug, s.player.name] += thousandths(row[f"points_{i}"])
        by_series[target.slug] += 1
    assert dict(by_series) == {"hanchan": 80, "tonpuu": 44, "hanchan-no-red": 1}
    refresh_planner_statistics()
    for slug, s in series.items():
        standings = s.standings()
        got = {r.name: r.total for r in (*standings.ranked, *standings.unranked)}
        assert got == {name: total for (sl, name), total in totals.items() if sl == slug}
        assert sum(got.values()) == 0


def test_the_stored_hands_are_the_log_and_replay_to_the_same_game():
    series = _series()
    for name in ("mjx__double-ron.mjlog", "mjx__pao-tsumo.mjlog", "dnovikoff-tenhou__bug1.xml"):
        imported = tenhou.import_log_file(MJLOG / name)
        game = services.import_tenhou_log(series=_for(imported.log, series), data=imported).game
        expected = record_to_dict(imported.record)
        assert expected.pop("players") == [s.player.name for s in game.seats.order_by("seat")]
        assert record_to_dict(game.record()) == expected
        tiles = [h.tiles for h in game.hands.order_by("number")]
        assert tiles == [h.tiles for h in imported.record.hands]
        assert any(t and len(t) == 2 for t in tiles) == (name == "mjx__double-ron.mjlog")


def test_historical_variant_is_applied_and_recorded():
    series = _series()
    old_uma = next(f for f, row in STANDARD.items() if row["uma"] == "uma +10/+5/-5/-10")
    game = _import(REALDATA / old_uma, series["tonpuu"]).game
    assert game.variant == ["old_uma"]
    assert game.rules == {"preset": "tenhou-east", "overrides": {"uma": [10000, 5000, -5000, -10000]}}
    assert series["tonpuu"].ruleset().uma == (20000, 10000, -10000, -20000)  # the series keeps today's rules
    game = _import(MJLOG / "dnovikoff-tenhou__bug1.xml", series["hanchan"]).game
    assert game.variant == ["no_tenpai_yame"]


def test_imported_game_is_dated_from_its_tenhou_id_in_japan_time():
    game = _import(MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog", make_series("tenhou")).game
    game.refresh_from_db()
    assert game.started_at.isoformat() == "2011-02-03T16:00:00+00:00"  # 2011-02-04 01:00 JST
    assert game.source == Game.Source.MJLOG
    audit = game.audit.get(action=GameAudit.Action.IMPORT_LOG)
    assert audit.after["log_id"] == "2011020401gm-00a9-0000-f6eff225"


# -- the same game twice ---------------------------------------------------------------------


def test_importing_the_same_log_again_does_nothing():
    series = make_series("tenhou")
    path = MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog"
    first = _import(path, series)
    before = _counts()
    again = _import(path, series)
    assert not again.created and again.game == first.game
    assert _counts() == before


def test_the_same_log_may_go_into_two_series():
    path = MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog"
    a, b = _import(path, make_series("tenhou")), _import(path, make_series("tenhou"))
    assert a.created and b.created and a.game != b.game


@pytest.mark.parametrize("name", TWINS)
def test_the_json_twin_of_an_xml_game_is_the_same_game(name):
    series = make_series("tenhou")
    from_xml = _import(MJLOG / name.replace(".json", ".mjlog"), series)
    before = _counts()
    from_json = _import(JSON / name, series)
    assert not from_json.created and from_json.game == from_xml.game
    assert _counts() == before
    # Imported alone, the JSON copy gives the same hands and the same result.
    other = _import(JSON / name, make_series("tenhou")).game
    assert other.source == Game.Source.TENHOU6
    _same_hands(from_xml.game, other)
    results = [(s.end_score, s.place, s.points) for s in other.seats.order_by("seat")]
    assert results == [(s.end_score, s.place, s.points) for s in from_xml.game.seats.order_by("seat")]


def _same_hands(game: Game, json_game: Game) -> None:
    """The hands of two games, the second read from tenhou.net/6 JSON, are the same."""
    for x, j in zip((h.as_dict() for h in game.hands.order_by("number")),
                    (h.as_dict() for h in json_game.hands.order_by("number")), strict=True):
        if x["outcome"].get("nagashi"):
            # tenhou.net/6 hides who was tenpai under a nagashi (league.tenhou docstring).
            assert set(j["outcome"]["tenpai"]) <= set(x["outcome"]["tenpai"])
            x["outcome"]["tenpai"] = j["outcome"]["tenpai"]
        assert x == j


def test_a_gzip_copy_with_the_tenhou_id_in_its_name_is_the_same_game():
    series = make_series("tenhou")
    path = MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog"
    _import(path, series)
    again = services.import_tenhou_log(series=series, data=gzip.compress(path.read_bytes()),
                                       filename="2011020401gm-00a9-0000-f6eff225.mjlog.gz")
    assert not again.created


# -- players ----------------------------------------------------------------------------------


def test_players_are_matched_by_exact_name_or_created():
    log = tenhou.read_log_file(MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog")
    known = make_player(log.names[2])
    make_player(log.names[0].upper() + " (not the same)")
    game = _import(MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog", make_series("tenhou")).game
    players = [s.player for s in game.seats.order_by("seat")]
    assert players[2] == known
    assert [p.name for p in players] == list(log.names)


def test_anonymised_names_are_never_matched_to_existing_players():
    a_san = make_player("Aさん")
    series = make_series("tenhou")
    first = _import(JSON / TWINS[0], series).game
    second = _import(JSON / TWINS[1], series).game
    first_players = [s.player for s in first.seats.order_by("seat")]
    second_players = [s.player for s in second.seats.order_by("seat")]
    assert a_san not in first_players + second_players
    assert len(set(first_players + second_players)) == 8  # one new player per seat, per game
    assert first_players[0].name.startswith("Aさん (East, ")


def test_a_mapping_names_the_seats_of_an_anonymised_log():
    series = make_series("tenhou")
    alice = make_player("Alice")
    log_id = tenhou.read_log_file(JSON / TWINS[0]).log_id
    game = _import(JSON / TWINS[0], series, names={log_id: ["Alice", "Bob", None, "Dana"]}).game
    players = [s.player for s in game.seats.order_by("seat")]
    assert players[0] == alice and players[1].name == "Bob" and players[3].name == "Dana"
    assert players[2].name.startswith("Cさん (West, ")


def test_a_mapping_by_name_renames_a_tenhou_handle():
    log = tenhou.read_log_file(MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog")
    game = _import(MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog", make_series("tenhou"),
                   names={log.names[1]: "Bob Smith"}).game
    assert game.seats.get(seat=1).player.name == "Bob Smith"


def test_a_mapping_that_seats_one_player_twice_is_refused():
    series = make_series("tenhou")
    log_id = tenhou.read_log_file(JSON / TWINS[0]).log_id
    before = _counts()
    with pytest.raises(services.LogRefused) as err:
        _import(JSON / TWINS[0], series, names={log_id: ["Alice", "Alice", None, None]})
    assert err.value.code == "same_player"
    assert _counts() == before


# -- refusals -----------------------------------------------------------------------------------


def _first_twin_lines() -> list[str]:
    return (JSON / "mjx__2011020401gm-00a9-0000-f6eff225.json").read_text(encoding="utf-8").splitlines()


def _with_nonsense_tile() -> bytes:
    lines = _first_twin_lines()
    first = json.loads(lines[0])
    first["log"][0][4][0] = 99
    lines[0] = json.dumps(first, ensure_ascii=False)
    return "\n".join(lines).encode()


def _with_unbalanced_deltas() -> bytes:
    lines = _first_twin_lines()
    first = json.loads(lines[0])
    first["log"][0][16][1][0] -= 1000
    lines[0] = json.dumps(first, ensure_ascii=False)
    return "\n".join(lines).encode()


BROKEN = {
    "truncated mjlog": (lambda: (MJLOG / "partial" / "mjx__2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog")
                        .read_bytes(), "truncated_log", "no end"),
    "xml cut in half": (lambda: (MJLOG / "dnovikoff-tenhou__bug1.xml").read_bytes()[:5000], "broken_log", ""),
    "gzip cut in half": (lambda: (MJLOG / "fastmaj__2014050315gm-0041-0000-7ddece8e_tw=0.mjlog.gz").read_bytes()[:3000],
                         "truncated_log", "gzip"),
    # A three-player log goes only into a three-player series (issue #35).
    "three-player log": (lambda: (MJLOG / "dnovikoff-tenhou__sanma2.xml").read_bytes(), "rules_differ",
                         "three-player hanchan game under tenhou-sanma"),
    "nonsense tile": (_with_nonsense_tile, "invalid_tiles", "99"),
    "deltas that do not add up": (_with_unbalanced_deltas, "deltas_do_not_add_up", "E1"),
    "a fragment of a game": (lambda: (JSON / "mjai-reviewer__double_ron.json").read_bytes(), "incomplete_log", "S4"),
    "not a log": (lambda: b"<html><body>hello</body></html>", "broken_log", ""),
    "empty file": (lambda: b"", "broken_log", "empty"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_log_is_refused_with_its_reason_and_stores_nothing(case):
    data, code, words = BROKEN[case]
    series = make_series("tenhou")
    before = _counts()
    with pytest.raises(services.LogRefused) as err:
        services.import_tenhou_log(series=series, data=data(), filename="upload")
    assert err.value.code == code
    assert words in err.value.message
    assert _counts() == before


def test_a_log_of_other_rules_than_the_series_is_refused():
    series = _series()
    before = _counts()
    with pytest.raises(services.LogRefused) as err:
        _import(MJLOG / "dnovikoff-tenhou__bye.xml", series["hanchan"])
    assert err.value.code == "rules_differ"
    assert "east-only game under tenhou-east" in err.value.message
    assert "'hanchan' plays tenhou" in err.value.message
    with pytest.raises(services.LogRefused) as err:
        _import(MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog", make_series("ari-ari"))
    assert err.value.code == "rules_differ"
    assert _counts()[1:] == before[1:]


def test_a_log_that_differs_from_our_replay_is_refused_with_its_discrepancies():
    series = make_series("tenhou")
    before = _counts()
    with pytest.raises(services.LogRefused) as err:
        _import(MJLOG / "dnovikoff-tenhou__chip.xml", series)
    assert err.value.code == "log_differs"
    assert err.value.log_id in err.value.message
    assert err.value.discrepancies[0]["what"] == "deltas"
    assert "E1 0 honba: deltas" in err.value.message
    assert _counts() == before


def test_force_stores_the_discrepancies_on_the_game():
    series = make_series("tenhou")
    done = _import(MJLOG / "dnovikoff-tenhou__chip.xml", series, force=True)
    game = Game.objects.get(pk=done.game.pk)
    assert done.created and game.is_finished
    assert game.discrepancies == list(done.discrepancies) and len(game.discrepancies) == 13
    assert game.discrepancies[0]["round"] == "E1" and game.discrepancies[0]["what"] == "deltas"
    assert game.audit.get(action=GameAudit.Action.IMPORT_LOG).after["discrepancies"] == game.discrepancies


def test_special_start_lobby_imports_with_force_from_its_own_start():
    done = _import(MJLOG / "dnovikoff-tenhou__ratio.xml", make_series("tenhou-east"), force=True)
    assert done.variant == ("special_start",)
    assert done.game.ruleset().start_points != 25000
    assert [d["what"] for d in done.discrepancies] == ["points"]


# -- export -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["mjx__double-ron.mjlog", "mjx__pao-tsumo.mjlog", "dnovikoff-tenhou__bug1.xml",
                                  "mjx__2019082700gm-00a9-0000-63d1f136.mjlog",
                                  "fastmaj__2014050315gm-0041-0000-7ddece8e_tw=0.mjlog.gz"])
def test_export_is_read_back_as_the_same_game(name):
    series = _series()
    imported = tenhou.import_log_file(MJLOG / name)
    target = _for(imported.log, series)
    game = services.import_tenhou_log(series=target, data=imported).game
    text = services.export_tenhou_log(game=game)
    out = json.loads(text)
    assert out["name"] == [s.player.name for s in game.seats.order_by("seat")]
    # Back into the same series: the same game, when the log id is a Tenhou id
    # (it travels as "ref"). A log known only by its content hash gets the hash
    # of the export, a new id: the export is a different file.
    again_here = services.import_tenhou_log(series=target, data=text, filename="export.json")
    assert again_here.created == (tenhou.TENHOU_ID.fullmatch(game.source_id) is None)
    # Into a fresh series: the same hands, players and results.
    fresh = make_series(target.rules)
    again = services.import_tenhou_log(series=fresh, data=text, filename="export.json").game
    assert (again.source_id == game.source_id) == (not again_here.created)
    _same_hands(game, again)
    assert [(s.player, s.end_score, s.points) for s in again.seats.order_by("seat")] == [
        (s.player, s.end_score, s.points) for s in game.seats.order_by("seat")]


def test_export_of_a_game_tenhou6_cannot_say_is_refused():
    game = _import(MJLOG / "dnovikoff-tenhou__ratio.xml", make_series("tenhou-east"), force=True).game
    with pytest.raises(services.ServiceError) as err:
        services.export_tenhou_log(game=game)
    assert err.value.code == "not_exportable"



@pytest.mark.parametrize("tiles", [
    [{"tiles": "123m", "win": "", "melds": []}],
    [{"tiles": "123456789m11p", "win": "9s", "melds": [{"type": "pon", "tiles": ""}]}],
    [{"tiles": 7, "melds": [1]}],
    {"tiles": "x"},
])
def test_a_game_whose_kept_tiles_make_no_hand_exports_without_them(tiles):
    """A record import keeps any detail; the export writes the hand, leaving out tiles that make no hand."""
    game = services.start_game(series=make_series("tenhou"), players=[make_player() for _ in range(4)])
    hand = {"riichi": [], "outcome": {"type": "tsumo", "winner": 2, "han": 3, "fu": 30}, "tiles": tiles}
    services.record_hand(game=game, number=1, hand=hand)
    log = tenhou.read_log(services.export_tenhou_log(game=game))
    assert [(w.winner, w.han, w.tiles) for w in log.kyoku[0].wins] == [(2, 3, "")]

# -- the command --------------------------------------------------------------------------------


def _command(*args: str) -> str:
    out = StringIO()
    call_command("import_logs", *args, stdout=out)
    return out.getvalue()


def test_command_refuses_to_create_a_series_slug_its_urls_cannot_hold():
    with pytest.raises(CommandError, match="slug"):
        _command(str(MJLOG / "dnovikoff-tenhou__bug1.xml"), "--series", "Autumn 2025", "--create-series")
    assert not Series.objects.exists()


def test_command_sorts_a_batch_into_series_by_rules_and_goes_on_after_a_bad_file():
    files = [
        MJLOG / "dnovikoff-tenhou__bug1.xml",
        MJLOG / "dnovikoff-tenhou__bye.xml",  # east-only
        MJLOG / "dnovikoff-tenhou__sanma2.xml",  # three players
        MJLOG / "partial" / "mjx__2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog",
        MJLOG / "mjx__2011020401gm-00a9-0000-f6eff225.mjlog",
        JSON / "mjx__2011020401gm-00a9-0000-f6eff225.json",  # its twin
    ]
    out = _command(*map(str, files), "--series", "hanchan", "--series", "tonpuu", "--create-series")
    assert "refused   dnovikoff-tenhou__sanma2.xml: rules_differ:" in out
    assert "refused   mjx__2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog: truncated_log" in out
    assert "already   mjx__2011020401gm-00a9-0000-f6eff225.json: log 2011020401gm-00a9-0000-f6eff225" in out
    assert out.rstrip().endswith("3 imported, 1 already there, 2 refused")
    assert Series.objects.get(slug="hanchan").games.count() == 2
    assert Series.objects.get(slug="tonpuu").games.get().source_id
    assert Series.objects.get(slug="tonpuu").ruleset().length == "east"


def test_command_refuses_a_log_no_series_takes_and_says_why():
    make_series("tenhou", slug="hanchan")
    out = _command(str(MJLOG / "dnovikoff-tenhou__bye.xml"), "--series", "hanchan")
    assert "refused   dnovikoff-tenhou__bye.xml: rules_differ:" in out
    assert Game.objects.count() == 0


def test_command_prints_discrepancies_and_force_keeps_them():
    make_series("tenhou", slug="hanchan")
    chip = str(MJLOG / "dnovikoff-tenhou__chip.xml")
    out = _command(chip, "--series", "hanchan")
    assert "refused   dnovikoff-tenhou__chip.xml: log_differs:" in out
    assert "13 discrepancies:" in out and "E1 0 honba: deltas, ours" in out
    assert Game.objects.count() == 0
    out = _command(chip, "--series", "hanchan", "--force")
    assert "imported  dnovikoff-tenhou__chip.xml" in out and "13 discrepancies (kept on the game):" in out
    assert Game.objects.get().discrepancies


def test_command_needs_the_series_or_create_series():
    with pytest.raises(CommandError, match="no series nowhere"):
        _command(str(MJLOG / "dnovikoff-tenhou__bug1.xml"), "--series", "nowhere")


def test_command_takes_a_names_mapping(tmp_path):
    make_series("tenhou", slug="hanchan")
    log_id = tenhou.read_log_file(JSON / TWINS[0]).log_id
    mapping = tmp_path / "names.json"
    mapping.write_text(json.dumps({log_id: ["Ann", "Ben", "Cat", "Dan"]}), encoding="utf-8")
    _command(str(JSON / TWINS[0]), "--series", "hanchan", "--names", str(mapping))
    assert [s.player.name for s in Game.objects.get().seats.order_by("seat")] == ["Ann", "Ben", "Cat", "Dan"]


def test_every_win_of_the_derived_table_is_stored_with_its_tiles():
    """The kept tiles are what the mjlog says (derived/tenhou_mjlog_agari.csv counts them)."""
    series = _series()
    files = sorted(STANDARD)[:20]
    for file in files:
        imported = tenhou.import_log_file(REALDATA / file)
        services.import_tenhou_log(series=_for(imported.log, series), data=imported, filename=file)
    wins = [r for r in read_csv("derived/tenhou_mjlog_agari.csv") if r["file"] in files]
    stored = [t for h in Hand.objects.exclude(tiles=None) for t in h.tiles if t]
    assert len(stored) == len(wins)


def test_command_goes_on_past_a_damaged_file(tmp_path):
    """A corrupted gzip (zlib.error) once stopped the batch: the files after it were never imported."""
    gz = MJLOG / "fastmaj__2014050315gm-0041-0000-7ddece8e_tw=0.mjlog.gz"
    damaged = bytearray(gz.read_bytes())
    for at in range(40, 60):
        damaged[at] ^= 0x55
    (tmp_path / "1-good.mjlog").write_bytes((MJLOG / "dnovikoff-tenhou__bug1.xml").read_bytes())
    (tmp_path / "2-damaged.mjlog.gz").write_bytes(bytes(damaged))
    (tmp_path / "3-nested.json").write_text('{"log": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    (tmp_path / "4-good.json").write_bytes((JSON / TWINS[0]).read_bytes())
    out = _command(str(tmp_path), "--series", "hanchan", "--create-series")
    assert "refused   2-damaged.mjlog.gz: truncated_log: the gzip stream is damaged" in out
    assert "refused   3-nested.json: broken_log: the log is nested too deeply" in out
    assert out.rstrip().endswith("2 imported, 0 already there, 2 refused")
    assert Game.objects.count() == 2


def test_command_refuses_a_names_file_nested_too_deeply(tmp_path):
    mapping = tmp_path / "names.json"
    mapping.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(CommandError, match="names.json is not JSON"):
        _command(str(JSON / TWINS[0]), "--series", "hanchan", "--create-series", "--names", str(mapping))


def test_a_mapped_name_with_nul_is_refused():
    series = make_series("tenhou", slug="hanchan")
    imported = tenhou.import_log_file(JSON / TWINS[0])
    with pytest.raises(services.LogRefused) as err:
        services.import_tenhou_log(series=series, data=imported,
                                   names={imported.log.log_id: ["Ann", "B\x00en", None, None]})
    assert err.value.code == "invalid_names"
    assert Game.objects.count() == 0
