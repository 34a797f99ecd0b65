"""The phone's engine, run as the phone runs it: the server's Python
(``league.entry.phone`` and ``scoring``, as engine.zip) in Pyodide, driven by
engine.js's own ``TenbouEngine.apply``, under Node (tests/offline/run_engine.cjs).
Every real game in ../shared/realdata and the seeded random games (1,000 in
CI, ``TENBOU_RANDOM_GAMES=10000`` for the long run; docs/development.md) are
played step by step on both sides; every answer of the phone must equal the
server's CPython answer, field for field, and every real hand's payment the
real game's (issue 20: "the phone's price of every hand equals the server's").

``league.entry.phone`` is held to the server's form, preview and save by
tests/league/test_offline_entry.py. This module lives with the browser tests
so that CI runs it once (not again on PostgreSQL: it needs no database).
It needs the fetched Pyodide (``manage.py fetch_offline_assets``) and node;
without them it skips with the reason, and fails under CI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from league import offline_assets
from league.entry.phone import price
from league.tenhou import LogError, import_log_file
from scoring import game as sg
from tests.offline.games import play_steps, random_game, random_sanma_game, real_game, start_state
from tests.realdata import REALDATA, require_realdata

RUNNER = Path(__file__).resolve().parents[1] / "offline" / "run_engine.cjs"
ENGINE_JS = offline_assets.REPO / "league" / "static" / "league" / "engine.js"
# CI's size; the long run sets TENBOU_RANDOM_GAMES (10,000 before each release).
RANDOM_GAMES = int(os.environ.get("TENBOU_RANDOM_GAMES") or 1_000)


def _need_engine() -> str:
    node = shutil.which("node")
    reason = None
    if node is None:
        reason = "node is not installed (apt-get install nodejs)"
    elif not offline_assets.status().available:
        reason = f"Pyodide {offline_assets.PYODIDE_VERSION} was not fetched (python manage.py fetch_offline_assets)"
    if reason is not None:
        if os.environ.get("CI") or os.environ.get("TENBOU_REQUIRE_OFFLINE"):
            pytest.fail(f"the offline engine cannot be tested: {reason}")
        pytest.skip(reason)
    assert node is not None
    return node


def _real_games() -> tuple[list[dict[str, Any]], dict[str, sg.GameRecord], list[str]]:
    """Every full four-player game among the real logs, and the files that are not one
    (fragments, and the three-player log, priced with the sanma games below)."""
    games, records, not_games = [], {}, []
    for path in sorted(p for p in (REALDATA / "tenhou").rglob("*") if p.is_file()):
        name = str(path.relative_to(REALDATA))
        try:
            record = import_log_file(path).record
        except LogError:
            not_games.append(name)  # a fragment of a game: the importer refuses it
            continue
        if record.rules.players != 4:
            not_games.append(name)  # three-player: with the 27 sanma games below
            continue
        games.append(real_game(name, record))
        records[name] = record
    return games, records, not_games


def _play_on_both(node: str, games: list[dict[str, Any]], tmp: Path) -> tuple[list[Any], list[Any], dict[str, float]]:
    """Every game's answers from Pyodide (Node) and from CPython, computed side by side."""
    games_file, out_file, zip_file = tmp / "games.jsonl", tmp / "answers.jsonl", tmp / "engine.zip"
    with games_file.open("w") as f:
        for g in games:
            f.write(json.dumps({"id": g["id"], "start": start_state(g), "steps": g["steps"]}) + "\n")
    zip_file.write_bytes(offline_assets.engine_zip().data)
    started = time.monotonic()
    proc = subprocess.Popen([node, str(RUNNER), str(offline_assets.ASSETS), str(zip_file), str(ENGINE_JS), str(games_file),
                             str(out_file)], stderr=subprocess.PIPE, text=True)
    try:
        server = [play_steps(g, price) for g in games]
        cpython = time.monotonic() - started
        _, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-3000:]
    lines = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert [line["id"] for line in lines] == [g["id"] for g in games]
    print(f"\n{len(games)} games: CPython {cpython:.1f} s, Pyodide in Node {time.monotonic() - started:.1f} s "
          f"({err.strip()})")
    return [line["results"] for line in lines], server, {"cpython": cpython}


def _mismatches(phone: list[Any], server: list[Any], games: list[dict[str, Any]]) -> list[str]:
    return [g["id"] for g, a, b in zip(games, phone, server, strict=True) if a != b]


def test_every_real_game_is_priced_on_the_phone_as_on_the_server(tmp_path):
    node = _need_engine()
    require_realdata()
    games, records, not_games = _real_games()
    # 187 logs: 164 whole games; the rest are fragments starting mid-game or three-player.
    assert (len(games), len(not_games)) == (164, 23)
    phone, server, _ = _play_on_both(node, games, tmp_path)
    assert _mismatches(phone, server, games) == []
    hands = 0
    for g, answers in zip(games, phone, strict=True):
        original = sg.replay(records[g["id"]])
        assert all(a["ok"] for a in answers), g["id"]
        assert len(answers) == len(original.hands)
        for a, played in zip(answers, original.hands, strict=True):
            assert a["payments"] == list(played.deltas), (g["id"], played.number)
            assert a["after"]["scores"] == list(played.scores)
            assert (a["before"]["dealer"], a["before"]["honba"], a["before"]["riichi_sticks"]) == (
                played.dealer, played.honba, played.riichi_sticks)
            hands += 1
        if records[g["id"]].end is None:
            assert answers[-1]["after"]["ended"] == original.finished
            if original.settlement is not None:
                assert answers[-1]["settlement"]["final_scores"] == list(original.settlement.final_scores)
                assert answers[-1]["settlement"]["points"] == list(original.settlement.points)
    assert hands == 1452


def _sanma_games() -> tuple[list[dict[str, Any]], dict[str, sg.GameRecord]]:
    """The 28 files of the real three-player games (issue #36), as entered hand by hand."""
    games, records = [], {}
    for path in sorted(p for p in (REALDATA / "sanma").iterdir() if p.suffix != ".md"):
        name = str(path.relative_to(REALDATA))
        record = import_log_file(path).record
        games.append(real_game(name, record))
        records[name] = record
    return games, records


def test_every_real_three_player_game_is_priced_on_the_phone_as_on_the_server(tmp_path):
    """Three seats, kita tapped apart from the han: the phone's answer equals
    the server's, and every hand's payment the log's (tsumo loss, 200 a honba)."""
    node = _need_engine()
    require_realdata()
    games, records = _sanma_games()
    random = [random_sanma_game(seed) for seed in range(RANDOM_GAMES // 5)]
    phone, server, _ = _play_on_both(node, games + random, tmp_path)
    assert _mismatches(phone, server, games + random) == []
    hands = kita = 0
    for g, answers in zip(games, phone, strict=False):
        original = sg.replay(records[g["id"]])
        assert all(a["ok"] for a in answers), g["id"]
        for a, played in zip(answers, original.hands, strict=True):
            assert (a["payments"], a["after"]["scores"]) == (list(played.deltas), list(played.scores))
            hands += 1
        kita += sum(int(v) for _n, fields in g["steps"] for k, v in fields.items() if k.startswith("kita_"))
        if records[g["id"]].end is None and original.settlement is not None:
            assert answers[-1]["settlement"]["points"] == list(original.settlement.points)
    assert (len(games), hands, kita) == (28, 203, 174)
    # The 200 random games of CI (seeds 0-199) price 156 hands with kita.
    priced = [a for game in phone[len(games):] for a in game if a["ok"]]
    assert sum("kita" in " ".join(a["counted"]) for a in priced) > len(random) * 2 // 3


def test_random_games_are_priced_on_the_phone_as_on_the_server(tmp_path):
    """Seeds 0 to RANDOM_GAMES - 1. CI's 1,000 games (5,472 answers) reach every
    error code below, corrections, game ends with their settlement, double ron
    and hands given by their tiles, each at least about as often as the
    thresholds (scaled to the games played) say: so the phone equals the server
    on every kind of answer. The 10,000 of the long run (54,234 answers) add
    rarer combinations of the same kinds, not new kinds."""
    node = _need_engine()
    games = [random_game(seed) for seed in range(RANDOM_GAMES)]
    phone, server, _ = _play_on_both(node, games, tmp_path)
    assert _mismatches(phone, server, games) == []
    answers = [a for game in phone for a in game]
    priced = [a for a in answers if a["ok"]]
    codes = {e["code"] for a in answers if not a["ok"] for e in a["errors"]}
    # What the random games reach, so that the equality above covers it.
    # (Seeds 0-999: 5,472 answers, 150 corrections, 172 game ends, 68 double ron,
    # 199 hands given by their tiles. Seeds 0-9,999: 54,234 answers, 41,872 hands
    # priced, 1,405 corrections, 1,725 game ends, 612 double ron, 2,107 by tiles.)
    n = len(games)
    assert len(answers) > 5 * n
    assert sum(a["correction"] for a in priced) > n // 10
    assert sum(a["after"]["ended"] for a in priced) > n * 15 // 100
    assert sum(a["settlement"] is not None for a in priced) > n * 15 // 100
    assert sum(a["hand"]["outcome"]["type"] == "ron" and len(a["hand"]["outcome"]["wins"]) == 2
               for a in priced) > n // 20
    assert sum("tiles" in a["hand"] for a in priced) > n * 15 // 100
    assert {"fu_not_possible", "invalid_choice", "game_over", "max_length", "no_yaku", "too_many_red_fives"} <= codes
