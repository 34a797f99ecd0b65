"""The public `python -m scoring` interface and the library's boundaries."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scoring.errors import RulesError
from scoring.rules import PRESET_SOURCES, PRESETS, Ruleset, get_ruleset
from tests.realdata import REPO


def run(*requests: object) -> list[dict]:
    lines = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in requests) + "\n"
    out = subprocess.run(
        [sys.executable, "-m", "scoring"], input=lines, capture_output=True, text=True, check=True, cwd=REPO
    )
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_one_process_answers_line_by_line_and_survives_errors():
    answers = run(
        {"op": "settle", "rules": "ari-ari", "scores": [41300, 24900, 21800, 12000], "riichi_sticks": 0},
        "not json",
        {
            "op": "kyoku",
            "rules": "ari-ari",
            "dealer": 0,
            "honba": 1,
            "riichi_sticks": 1,
            "riichi": [2],
            "outcome": {"type": "ron", "loser": 1, "wins": [{"winner": 2, "han": 3, "fu": 40}]},
        },
        {"op": "kyoku", "rules": "ari-ari", "outcome": {"type": "tsumo", "winner": 1, "han": 1, "fu": 20}},
        {"op": "explode"},
    )
    assert answers[0] == {"places": [1, 2, 3, 4], "points": [61300, 4900, -18200, -48000], "final_scores": [41300, 24900, 21800, 12000]}
    assert answers[1]["error"]["code"] == "invalid_json"
    assert answers[2] == {"deltas": [0, -5500, 6500, 0], "honba": 0, "riichi_sticks": 0, "dealer_keeps": False}
    assert answers[3]["error"] == {
        "code": "fu_not_possible",
        "message": "20 fu needs at least 2 han (pinfu tsumo)",
        "field": "outcome.fu",
        "detail": "fu_20_one_han",
    }
    assert answers[4]["error"]["code"] == "unknown_op"


def test_game_op_reports_each_hand_and_the_settlement():
    [answer] = run(
        {
            "op": "game",
            "rules": "ari-ari",
            "hands": [
                {"riichi": [0], "outcome": {"type": "draw", "tenpai": [0]}},
                {"riichi": [], "outcome": {"type": "tsumo", "winner": 1, "han": 2, "fu": 30}},
            ],
            "end": "early",
        }
    )
    assert answer["hands"] == [
        {"round": "E1", "dealer": 0, "honba": 0, "riichi_sticks": 0, "deltas": [2000, -1000, -1000, -1000], "scores": [27000, 24000, 24000, 24000]},
        {"round": "E1", "dealer": 0, "honba": 1, "riichi_sticks": 1, "deltas": [-1100, 3300, -600, -600], "scores": [25900, 27300, 23400, 23400]},
    ]
    assert answer["finished"] is True
    assert answer["final_scores"] == [25900, 27300, 23400, 23400]
    assert answer["places"] == [2, 1, 3, 3]
    assert sum(answer["points"]) == 0


def test_rules_op_lists_every_value_and_its_source():
    [answer] = run({"op": "rules", "rules": "tenhou"})
    assert answer["rules"]["uma"] == [20000, 10000, -10000, -20000]
    assert set(answer["sources"]) == set(answer["rules"]) - {"name"}


def test_every_preset_value_has_a_source():
    for name, ruleset in PRESETS.items():
        assert set(PRESET_SOURCES[name]) == set(ruleset.to_dict()) - {"name"}, name
        assert all(PRESET_SOURCES[name].values())


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_with_overrides_round_trips_through_json(name):
    rules = get_ruleset({"preset": name, "overrides": {"kiriage": True, "noten_total": 1200}})
    spec = json.loads(json.dumps(rules.to_spec()))
    assert get_ruleset(spec) == rules
    assert Ruleset(**{**rules.__dict__}) == rules


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"uma": [30000, 10000, -10000, -20000]}, "rules.overrides.uma"),
        ({"honba_ron": -300}, "rules.overrides.honba_ron"),
        ({"oka": 5000}, "rules.overrides.oka"),
        ({"aka_dora": 7}, "rules.overrides.aka_dora"),
        ({"kazoe": "infinite"}, "rules.overrides.kazoe"),
        ({"open_tanyao": "yes"}, "rules.overrides.open_tanyao"),
        ({"pao": ["sanankou"]}, "rules.overrides.pao"),
        ({"start_points": 25050}, "rules.overrides.start_points"),
        ({"tie_policy": "split", "end_rounding": "tenhou"}, "rules.overrides.end_rounding"),
        ({"favourite_colour": "red"}, "rules.overrides.favourite_colour"),
    ],
)
def test_impossible_rules_are_refused_naming_the_key(overrides, field):
    with pytest.raises(RulesError) as err:
        get_ruleset({"preset": "ari-ari", "overrides": overrides})
    assert err.value.field == field


def test_scoring_never_imports_django():
    code = "import sys, scoring.rules, scoring.payment, scoring.game, scoring.settlement, scoring.__main__; " \
        "print([m for m in sys.modules if m.split('.')[0] == 'django'])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "[]"


def test_rules_op_returns_the_jpml_a_preset_with_its_floating_uma_and_sources():
    [answer] = run({"op": "rules", "rules": "jpml-a-2024"})
    rules, sources = answer["rules"], answer["sources"]
    assert rules["uma_by_below"] == {"1": [8000, 3000, 1000, -12000], "3": [12000, -1000, -3000, -8000]}
    assert (rules["uma"], rules["leftover_sticks"], rules["oka"]) == ([8000, 4000, -4000, -8000], "lost", 0)
    assert "no JPML text found" in sources["uma_by_below"]
    assert answer["spec"] == {"preset": "jpml-a-2024", "overrides": {}}
    for field in ("noten_riichi", "multi_ron_sticks", "replacement_result", "replacement_score", "replacement_uma",
                  "pinfu_tsumo_fu", "open_pinfu_fu", "ura_without_riichi", "local_yakuman", "uma_threshold",
                  "uma_at_threshold"):
        assert field in rules and sources[field], field
