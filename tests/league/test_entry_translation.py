"""The hand form's words in the reader's language: ``league.entry`` (shared
with the phone, no Django) translates through what ``LeagueConfig.ready``
installs on the server, and stays English where nothing is installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league import engine_words, services
from league.entry import translation as entry_translation
from league.models import Game

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]


def test_the_phones_english_yaku_names_are_the_servers() -> None:
    """The phone names yaku from its own English table: the server's English
    (``league.engine_words``) must be the same words, or the two would disagree."""
    assert set(entry_translation.ENGLISH_YAKU) == set(engine_words.YAKU)
    with translation.override("en"):
        for yaku_id in engine_words.YAKU:
            assert entry_translation.ENGLISH_YAKU[yaku_id] == str(engine_words.yaku_name(yaku_id)), yaku_id


def test_without_django_the_entry_speaks_english() -> None:
    """What the phone runs: nothing installed, so every word is the English msgid."""
    code = (
        "import sys\n"
        "from league.entry import tables, translation, words\n"
        "from league.entry.hand import value_text\n"
        "from scoring import game as sg\n"
        "from scoring.rules import get_ruleset\n"
        "assert translation.gettext('Tick who won.') == 'Tick who won.'\n"
        "assert translation.yaku_name('menzen_tsumo') == 'Menzen tsumo'\n"
        "assert tables.yaku_table(get_ruleset('ema-2016'))['haitei'][0] == 'Haitei / houtei'\n"
        "assert value_text(han=3, fu=40) == '3 han 40 fu'\n"
        "names = ['East A', 'South B', 'West C', 'North D']\n"
        "text = words.describe_entry(sg.HandInput(outcome=sg.Abort(reason=sg.AbortReason('kyuushu_kyuuhai')),"
        " riichi=(0,)), names)\n"
        "assert text == 'abortive draw (kyuushu kyuuhai); riichi East A', text\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr


def _preview(client: Client, game: Game, fields: dict[str, Any]) -> Any:
    url = reverse("staff-game", args=[game.pk])
    form = client.get(url).context["form"]
    hidden = {name: str(form[name].value()) for name in ("number", "state", "key")}
    return client.post(url, {**hidden, "action": "preview", **fields})


RIICHI_PINFU_TANYAO = {"outcome": "ron", "winners": ["1"], "loser": "0", "riichi": ["1"],
                       "yaku_1": ["riichi", "pinfu", "tanyao"], "dora_1": "1"}


def test_the_hand_form_speaks_japanese_and_then_english_again(as_scorer: Client, game: Game) -> None:
    as_scorer.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    shown = _preview(as_scorer, game, RIICHI_PINFU_TANYAO)
    south = shown.context["names"][1]
    assert south.startswith("南 ")  # the seat's wind in Japanese too
    counted = shown.context["counted"]
    assert counted == [f"{south}: 4翻30符 (立直 (riichi)、平和 (pinfu)、断幺九 (tanyao)、ドラ1)"]
    east = shown.context["names"][0]
    assert f"{south}がリーチ棒を供託" in shown.context["payments"][0]
    assert any(line.startswith(east) and "7,700" in line and "pays" not in line for line in shown.context["payments"])
    # The picker's own words: a yaku's name and its han, a double yakuman.
    page = shown.content.decode()
    assert "立直 (riichi)" in page and "（ダブル）" in page

    # The checks across fields (league.entry.hand), and an engine refusal.
    refused = _preview(as_scorer, game, {"outcome": "ron", "loser": "0"})
    assert refused.context["form"].errors["winners"] == ["和了した人を選んでください。"]
    refused = _preview(as_scorer, game, {"outcome": "ron", "winners": ["1"], "loser": "0", "han_1": "1", "fu_1": "20"})
    assert refused.context["form"].errors["fu_1"] == ["符：20符は平和のツモだけで、ロンで20符の手はありません"]

    # The next reader in English gets English: nothing was kept in Japanese.
    as_scorer.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    shown = _preview(as_scorer, game, RIICHI_PINFU_TANYAO)
    south = shown.context["names"][1]
    assert shown.context["counted"] == [f"{south}: 4 han 30 fu (Riichi, Pinfu, Tanyao, 1 dora)"]
    refused = _preview(as_scorer, game, {"outcome": "ron", "loser": "0"})
    assert refused.context["form"].errors["winners"] == ["Tick who won."]


def test_the_refusals_a_scorer_meets_at_the_table_speak_japanese(as_scorer: Client, game: Game) -> None:
    # Riichi ticked, its tenpai forgotten at a draw (a tired scorer's slip), and a hand for a
    # game that staff ended while the page was open: both were the engine's English.
    as_scorer.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    refused = _preview(as_scorer, game, {"outcome": "draw", "tenpai": ["1"], "riichi": ["2"]})
    assert refused.context["form"].errors["riichi"] == ["立直した人は流局で聴牌でなければなりません"]
    page = as_scorer.get(reverse("staff-game", args=[game.pk])).context["form"]
    data = {name: str(page[name].value()) for name in ("number", "state", "key")}
    services.finish_game(game=game, end=Game.End.EARLY, by=None)
    fragment = as_scorer.post(reverse("staff-preview", args=[game.pk]),
                              {**data, "outcome": "tsumo", "winner": "1", "han_1": "2", "fu_1": "30"})
    assert "この対局は終了しています" in fragment.content.decode()
    assert "is finished" not in fragment.content.decode()


def test_the_game_pages_notices_are_in_the_readers_language(as_scorer: Client, game: Game) -> None:
    """The two notices the game page shows above the form: a save whose hand
    changed since its payments were shown, and a page opened for a hand the
    game has passed. In Japanese, then in English again."""
    url = reverse("staff-game", args=[game.pk])
    hidden = {name: str(as_scorer.get(url).context["form"][name].value()) for name in ("number", "state", "key")}
    recheck = {**hidden, **RIICHI_PINFU_TANYAO, "action": "save", "checked": "not-this-hand"}
    words = {
        "ja": ("支払いを表示した後に局の内容が変わりました。確認してから保存してください。",
               "このページは第3局のものでした。対局は今、第1局です。前の入力は引き継いでいません。"),
        "en": ("The hand changed since its payments were shown: check them, then save.",
               "This page was for hand 3; the game is now at hand 1. Nothing was filled in from before."),
    }
    for language in ("ja", "en"):
        as_scorer.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        changed, passed = words[language]
        shown = as_scorer.post(url, recheck)
        assert shown.status_code == 200 and shown.context["notice"] == changed
        assert changed in shown.content.decode()
        page = as_scorer.get(url, {"hand": "3"})
        assert page.context["notice"] == passed and passed in page.content.decode()
    assert not game.hands.exists()
