"""The engine's refusals say what is wrong in every language, and the hand
entry refuses what the rules say cannot happen (issue 28's review).

- Every rule ``scoring`` holds a han and fu pair to has its own ``detail``
  code, and a Japanese text of its own that names the field (翻 or 符), the
  same on the server's form, the phone's engine and its catalogue.
- A win given by han and fu is still held to the situation it claims: an
  ippatsu tick without that seat's riichi, riichi on a hand marked open.
- Under a ruleset that says so (Tenhou's: [T2]) a seat under 1,000 points
  cannot declare riichi.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league import engine_words, services
from league.engine_catalogue import catalogue
from league.entry import translation as entry_words
from league.entry.hand import HandEntry
from league.entry.phone import price
from league.entry.pricing import Refused, Unreplayable
from league.entry.tables import yaku_table
from league.entry.translation import refusal_of
from league.errors import StoredHandRefused
from scoring import game as sg
from scoring.errors import HandError, ScoringError
from scoring.hand import SITUATION_DETAILS
from scoring.hand_api import hand_request
from scoring.payment import HAN_FU_DETAILS, check_han_fu, check_yakuman
from scoring.rules import PRESETS, get_ruleset
from tests.factories import make_game, make_players, make_scorer, make_series
from tests.league.test_offline_entry import _errors, _phone_errors, _server

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
FIELD_WORD = {"han": "翻", "fu": "符", "yakuman": "役満"}
ARI = get_ruleset("ari-ari")
NAMES = ["East Alice", "South Bob", "West Carol", "North Dave"]
START = sg.TableState(0, 0, 0, 0, (25000,) * 4)


def _walk_han_fu() -> dict[str, ScoringError]:
    """Every refusal ``scoring`` gives a win's han and fu, by its detail: each
    han and fu (whole, not whole, out of range) by ron and tsumo under every
    preset and both fu rules, and a win given without han through the record."""
    found: dict[str, ScoringError] = {}
    values: list[Any] = [None, -1, 0, 1, 2, 2.0, "3", True, *range(3, 15)]
    fus: list[Any] = [None, -10, 0, 10, 15, 20, 25, 26, 30.0, "30", True, *range(30, 170, 10)]
    rulesets = [*PRESETS.values(), ARI.replace(pinfu_tsumo_fu=2), ARI.replace(open_pinfu_fu=20)]
    for rules in rulesets:
        for han in values:
            for fu in fus:
                for tsumo in (False, True):
                    try:
                        check_han_fu(han, fu, tsumo=tsumo, rules=rules)
                    except HandError as err:
                        assert err.code == "fu_not_possible" and err.detail, err
                        found.setdefault(err.detail, err)
    try:
        sg.record_from_dict({"rules": "ari-ari", "hands": [{"outcome": {"type": "tsumo", "winner": 0}}]})
    except HandError as err:
        found.setdefault(str(err.detail), err)
    return found


def _walk_yakuman() -> dict[str, ScoringError]:
    found: dict[str, ScoringError] = {}
    for rules in PRESETS.values():
        for count in (-1, 0, True, 1.0, *range(1, 8)):
            try:
                check_yakuman(rules, count)  # type: ignore[arg-type]
            except HandError as err:
                assert err.code == "yakuman_not_possible" and err.detail, err
                found.setdefault(err.detail, err)
    return found


WALKED = {**_walk_han_fu(), **_walk_yakuman()}


def test_every_han_fu_rule_the_engine_holds_has_its_own_detail_and_field():
    walked = _walk_han_fu()
    assert sorted(walked) == sorted(HAN_FU_DETAILS)
    for detail, err in walked.items():
        assert (err.field or "").rsplit(".", 1)[-1] == HAN_FU_DETAILS[detail], detail
    assert sorted(_walk_yakuman()) == ["yakuman_not_whole", "yakuman_over_limit"]


@pytest.mark.parametrize("detail", sorted(WALKED))
def test_each_refusal_of_han_fu_reads_in_japanese_as_its_own_rule_naming_the_field(detail):
    err = WALKED[detail]
    field = (err.field or "").rsplit(".", 1)[-1]
    with translation.override("ja"):
        generic = str(engine_words.REFUSALS[err.code])
        text = engine_words.refusal(err.code, err.message, err.detail)
        others = {d: engine_words.refusal(e.code, e.message, e.detail) for d, e in WALKED.items() if d != detail}
    assert JAPANESE.search(text) and text != generic, text
    assert text.startswith(FIELD_WORD[field] + "："), text  # the field first, as the form's other refusals
    assert text not in others.values(), "two rules read alike"
    # The phone's engine, with the page's catalogue, says the same.
    with translation.override("en"), entry_words.installing(catalogue("ja")):
        assert entry_words.refusal(err.code, err.message, err.detail) == text
    # English keeps the engine's own message, which carries the numbers.
    with translation.override("en"):
        assert engine_words.refusal(err.code, err.message, err.detail) == err.message


def test_a_stored_hand_the_engine_refuses_is_named_by_its_rule_in_japanese():
    err = WALKED["fu_20_ron"]
    with translation.override("ja"):
        text = refusal_of(StoredHandRefused(3, err.code, err.message, err.detail))
    assert text == "第3局を再計算できません：符：20符は平和のツモだけで、ロンで20符の手はありません", text


# Every kind of refusal a page, a form or the phone words, by ``refusal_of``:
# (the refusal, its English, its Japanese).
_RON_20 = WALKED["fu_20_ron"]
_RON_20_JA = "符：20符は平和のツモだけで、ロンで20符の手はありません"
KINDS = [
    ("engine", _RON_20, _RON_20.message, _RON_20_JA),
    ("pricer", Refused(_RON_20.code, _RON_20.message, "fu_0", detail=_RON_20.detail), _RON_20.message, _RON_20_JA),
    ("service", services.ServiceError(_RON_20.code, _RON_20.message, detail=_RON_20.detail), _RON_20.message,
     _RON_20_JA),
    ("conflict", services.Conflict("stale", "the game changed since this entry was made"),
     "the game changed since this entry was made", "読み込んだ後に対局が変わりました"),
    ("stored hand", StoredHandRefused(3, _RON_20.code, _RON_20.message, _RON_20.detail),
     f"hand 3 cannot be replayed: {_RON_20.message}", f"第3局を再計算できません：{_RON_20_JA}"),
    ("stored hand, read", Unreplayable(3, _RON_20.code, _RON_20.message, _RON_20.detail),
     f"hand 3 cannot be replayed: {_RON_20.message}", f"第3局を再計算できません：{_RON_20_JA}"),
]


@pytest.mark.parametrize(("kind", "err", "english", "japanese"), KINDS, ids=[k[0] for k in KINDS])
def test_one_function_words_every_kind_of_refusal_in_the_readers_language(kind, err, english, japanese):
    with translation.override("en"):
        assert refusal_of(err) == english
    with translation.override("ja"):
        assert refusal_of(err) == japanese
    # The phone's engine, with the page's catalogue, says the same.
    with translation.override("en"), entry_words.installing(catalogue("ja")):
        assert refusal_of(err) == japanese


def _in_japanese_both_ways(fields: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Hand 1 of a fresh game entered as ``fields``, in Japanese: the server's
    bound form, and the phone engine's answer with its Japanese catalogue."""
    game, offline = _offline_game()
    with translation.override("ja"):
        form, _shown = _server(game, fields, 1, False)
        return form, price(offline, fields, 1, words=catalogue("ja"))


def _offline_game(preset: str = "ari-ari", hands: tuple[sg.HandInput, ...] = (),
                  language: str = "ja") -> tuple[Any, dict[str, Any]]:
    """A game with ``hands`` recorded, and its offline.json as a page in ``language`` asks for it."""
    series = make_series(preset)
    game = make_game(series, make_players(4))
    for number, hand in enumerate(hands, start=1):
        services.record_hand(game=game, number=number, hand=hand)
    client = Client()
    client.force_login(make_scorer(series, username="scorer-refusals"))
    url = reverse("staff-offline-game", args=[game.pk])
    return game, client.get(url, headers={"Accept-Language": language}).json()


RON = {"outcome": "ron", "winners": ["1"], "loser": "0"}
TSUMO = {"outcome": "tsumo", "winner": "1"}
# Hands as the form posts them, each refused, with the field and code the scorer sees.
REFUSED: list[tuple[str, dict[str, Any], str, str]] = [
    ("1 han 20 fu ron", {**RON, "han_1": "1", "fu_1": "20"}, "fu_1", "fu_20_ron"),
    ("1 han 20 fu tsumo", {**TSUMO, "han_1": "1", "fu_1": "20"}, "fu_1", "fu_20_one_han"),
    ("1 han 25 fu", {**RON, "han_1": "1", "fu_1": "25"}, "fu_1", "fu_25_one_han"),
    ("2 han 25 fu tsumo", {**TSUMO, "han_1": "2", "fu_1": "25"}, "fu_1", "fu_25_tsumo_two_han"),
    ("3 han 120 fu", {**RON, "han_1": "3", "fu_1": "120"}, "fu_1", "fu_over_110"),
    ("2 han, no fu", {**RON, "han_1": "2"}, "fu_1", "fu_missing"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("why", "fields", "field", "detail"), REFUSED, ids=[r[0] for r in REFUSED])
def test_the_form_and_the_phone_refuse_an_impossible_han_fu_in_the_same_japanese_words(why, fields, field, detail):
    form, answer = _in_japanese_both_ways(fields)
    with translation.override("ja"):
        specific = str(engine_words.REFUSALS[detail])
    assert not answer["ok"]
    assert _phone_errors(answer) == _errors(form) == {field: [(specific, "fu_not_possible")]}, why


# A win given by han and fu whose situation cannot happen: (why, fields, field, code).
CLAIMS: list[tuple[str, dict[str, Any], str, str]] = [
    ("ippatsu ticked without the seat's riichi", {**RON, "han_1": "2", "fu_1": "40", "flags_1": ["ippatsu"]},
     "flags_1", "ippatsu_without_riichi"),
    ("ippatsu ticked with another seat's riichi",
     {**RON, "han_1": "2", "fu_1": "40", "flags_1": ["ippatsu"], "riichi": ["2"]}, "flags_1", "ippatsu_without_riichi"),
    ("ippatsu picked as a yaku without riichi", {**TSUMO, "yaku_1": ["ippatsu", "menzen_tsumo"]},
     "yaku_1", "ippatsu_without_riichi"),
    ("riichi on a hand marked open", {**RON, "han_1": "2", "fu_1": "30", "open_1": "on", "riichi": ["1"]},
     "open_1", "riichi_open_hand"),
    ("riichi with a pon typed", {**RON, "han_1": "2", "fu_1": "30", "melds_1": "pon 555z", "riichi": ["1"]},
     "melds_1", "riichi_open_hand"),
    ("riichi with a chi typed, yakuman", {**TSUMO, "yakuman_1": ["daisangen"], "melds_1": "chi 123m",
                                          "riichi": ["1"]}, "melds_1", "riichi_open_hand"),
    ("haitei ticked on a ron", {**RON, "han_1": "2", "fu_1": "30", "flags_1": ["haitei"]},
     "flags_1", "situation_conflict"),
    ("rinshan ticked on a ron", {**RON, "han_1": "2", "fu_1": "30", "flags_1": ["rinshan"]},
     "flags_1", "situation_conflict"),
]


@pytest.mark.parametrize(("why", "fields", "field", "code"), CLAIMS, ids=[c[0] for c in CLAIMS])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_win_given_by_han_and_fu_is_held_to_the_situation_it_claims(why, fields, field, code, language):
    data = {k: v for k, v in fields.items()}
    for key in [k for k in data if k.startswith(("han_", "fu_"))]:
        data[key] = int(data[key])
    data["open_1"] = bool(data.get("open_1"))
    with translation.override(language):
        entry = HandEntry(ARI, NAMES, START, data)
        # A situation_conflict reads as the rule it breaks (its detail).
        words = {"haitei ticked on a ron": "haitei_on_ron", "rinshan ticked on a ron": "rinshan_on_ron"}.get(why, code)
        expected = str(engine_words.REFUSALS[words]) if language == "ja" else None
    assert entry.hand is None, why
    assert [(f, c) for f, items in entry.errors.items() for _m, c in items] == [(field, code)], entry.errors
    [(message, _code)] = entry.errors[field]
    if expected is not None:
        assert message == str(expected)
    else:
        assert "riichi" in message or "tsumo" in message or "ron" in message, message


@pytest.mark.parametrize("fields", [
    {**RON, "han_1": 2, "fu_1": 40, "flags_1": ["ippatsu"], "riichi": ["1"]},
    {**RON, "han_1": 2, "fu_1": 40, "open_1": True},
    {**RON, "han_1": 2, "fu_1": 40, "melds_1": "ankan 5555z", "riichi": ["1"]},  # a closed kan keeps riichi
    {**TSUMO, "han_1": 3, "fu_1": 30, "flags_1": ["haitei", "ippatsu"], "riichi": ["1"]},
    {**TSUMO, "han_1": 4, "fu_1": 30, "flags_1": ["rinshan"], "open_1": True},
    {**RON, "han_1": 3, "fu_1": 30, "flags_1": ["double_riichi", "ippatsu"], "riichi": ["1"]},
])
def test_a_possible_situation_given_by_han_and_fu_is_taken(fields):
    entry = HandEntry(ARI, NAMES, START, {"open_1": False, **fields})
    assert entry.errors == {} and entry.hand is not None


@pytest.mark.django_db
@pytest.mark.parametrize(("why", "fields", "field", "code"), CLAIMS, ids=[c[0] for c in CLAIMS])
def test_the_phone_refuses_an_impossible_situation_as_the_form_does(why, fields, field, code):
    form, answer = _in_japanese_both_ways(fields)
    assert not answer["ok"]
    assert _phone_errors(answer) == _errors(form), why
    assert [(e["field"], e["code"]) for e in answer["errors"]] == [(field, code)]


# Seat 1 declares riichi and deals the dealer a baiman: 25,000 - 1,000 - 24,000 = 0 (0 plays on under bust).
BROKE = (sg.HandInput(sg.Ron(loser=1, wins=(sg.Win(0, han=8),)), riichi=(1,)),)
RIICHI_AT_0 = {"outcome": "draw", "tenpai": ["1", "2"], "riichi": ["1", "2"]}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
def test_tenhou_refuses_a_riichi_under_1000_points_on_the_form_and_the_phone(language):
    game, offline = _offline_game("tenhou", BROKE, language)
    assert offline["record"]["hands"] and offline["number"] == 2
    with translation.override(language):
        form, _shown = _server(game, RIICHI_AT_0, 2, False)
        answer = price(offline, RIICHI_AT_0, 2, words=catalogue(language))
        name = form.names[1]
    assert _phone_errors(answer) == _errors(form)
    [(message, code)] = _errors(form)["riichi"]
    assert code == "riichi_below_1000"
    if language == "ja":
        assert message == "立直：このルールでは持ち点が1,000点未満のプレイヤーは立直できません"
    else:
        assert message == f"{name} had 0 points; under this ruleset riichi needs 1,000 or more"


@pytest.mark.django_db
def test_a_ruleset_that_allows_it_takes_a_riichi_under_1000_points():
    game, offline = _offline_game("m-league", BROKE)
    answer = price(offline, RIICHI_AT_0, 2, words=catalogue("en"))
    assert answer["ok"] and answer["payments"][1] == -1000 + 1500, answer


@pytest.mark.parametrize("language", ["en", "ja"])
def test_jpml_a_has_no_ippatsu_to_tick_or_pick(language):
    jpml = get_ruleset("jpml-a-2024")
    assert "ippatsu" not in yaku_table(jpml) and "ippatsu" in yaku_table(ARI)
    fields = {**RON, "han_1": 3, "fu_1": 40, "flags_1": ["ippatsu"], "riichi": ["1"], "open_1": False}
    with translation.override(language):
        entry = HandEntry(jpml, NAMES, START, dict(fields))
        said = "一発：このルールには一発がありません" if language == "ja" else "the jpml-a-2024 rules have no ippatsu"
    assert entry.hand is None and entry.errors == {"flags_1": [(said, "ippatsu_not_allowed")]}
    assert HandEntry(ARI, NAMES, START, dict(fields)).errors == {}


# Every situation_conflict the tile analysis gives, one request each: (detail, request's changes).
_HAND = {"rules": "ari-ari", "tiles": "234m678p234s55s678m", "win": "8m", "seat": "S", "round": "E"}
_KAN = {"tiles": "234m678p234s55s", "win": "5s", "melds": [{"type": "ankan", "tiles": "7777z"}]}
_LOCAL = {"preset": "ari-ari", "overrides": {"local_yakuman": ["paarenchan", "sashikomi"]}}
CONFLICTS = [
    ("haitei_on_ron", {"haitei": True}),
    ("houtei_on_tsumo", {"houtei": True, "tsumo": True}),
    ("rinshan_on_ron", {"rinshan": True}),
    ("rinshan_without_kan", {"rinshan": True, "tsumo": True}),
    ("rinshan_not_haitei", {**_KAN, "rinshan": True, "haitei": True, "tsumo": True}),
    ("chankan_on_tsumo", {"chankan": True, "tsumo": True}),
    ("chankan_not_houtei", {"chankan": True, "houtei": True}),
    ("chankan_tile", {"chankan": True, "win": "5s"}),
    ("tenhou_not_dealer", {"tenhou": True, "tsumo": True}),
    ("chiihou_dealer", {"chiihou": True, "tsumo": True, "seat": "E"}),
    ("renhou_dealer", {"rules": "ema-2016", "renhou": True, "seat": "E"}),
    ("tenhou_on_ron", {"tenhou": True, "seat": "E"}),
    ("chiihou_on_ron", {"chiihou": True}),
    ("renhou_on_tsumo", {"rules": "ema-2016", "renhou": True, "tsumo": True}),
    ("first_turn_after_call", {**_KAN, "melds": [{"type": "pon", "tiles": "777z"}], "chiihou": True, "tsumo": True}),
    ("first_turn_with_others", {"chiihou": True, "tsumo": True, "riichi": True}),
    ("paarenchan_not_dealer", {"rules": _LOCAL, "paarenchan": True}),
    ("sashikomi_not_riichi_ron", {"rules": _LOCAL, "sashikomi": True}),
]


def test_every_situation_conflict_names_its_rule():
    seen = []
    for detail, changes in CONFLICTS:
        with pytest.raises(HandError) as err:
            hand_request({**_HAND, **changes})
        assert (err.value.code, err.value.detail) == ("situation_conflict", detail), changes
        seen.append(detail)
    assert sorted(seen) == sorted(SITUATION_DETAILS)


@pytest.mark.parametrize("detail", [d for d, _c in CONFLICTS])
def test_each_situation_conflict_reads_in_japanese_as_its_own_rule(detail):
    with translation.override("ja"):
        generic = str(engine_words.REFUSALS["situation_conflict"])
        text = engine_words.refusal("situation_conflict", "the engine's words", detail)
        others = [engine_words.refusal("situation_conflict", "", d) for d, _c in CONFLICTS if d != detail]
    assert JAPANESE.search(text) and text != generic and text not in others, text
    assert "：" in text  # the situation named first
    with translation.override("en"), entry_words.installing(catalogue("ja")):
        assert entry_words.refusal("situation_conflict", "the engine's words", detail) == text
