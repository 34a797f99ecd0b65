"""The digest of a game's hands so far: the state an entry was built on.

A phone and the server must compute the same text from the same hands, so
the digest is pinned to a known SHA-256 here, not only compared with itself.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from scoring.digest import canonical_hands, hands_digest
from scoring.errors import ScoringError
from scoring.game import Chombo, Draw, HandInput, Ron, Tsumo, Win
from tests.realdata import REPO

TWO_HANDS = [
    {"riichi": [0], "outcome": {"type": "draw", "tenpai": [0]}},
    {"riichi": [], "outcome": {"type": "tsumo", "winner": 1, "han": 2, "fu": 30}},
]


def test_digest_is_sha256_of_sorted_compact_json() -> None:
    text = ('[{"outcome":{"tenpai":[0],"type":"draw"},"riichi":[0]},'
            '{"outcome":{"fu":30,"han":2,"type":"tsumo","winner":1},"riichi":[]}]')
    assert canonical_hands(TWO_HANDS) == text
    assert hands_digest(TWO_HANDS) == hashlib.sha256(text.encode()).hexdigest()


def test_a_dict_and_its_hand_input_give_the_same_digest() -> None:
    inputs = [HandInput(Draw(tenpai=(0,)), riichi=(0,)), HandInput(Tsumo(winner=1, han=2, fu=30))]
    assert hands_digest(inputs) == hands_digest(TWO_HANDS)


@pytest.mark.parametrize("changed", [
    [TWO_HANDS[0]],                                                               # a hand fewer
    [TWO_HANDS[1], TWO_HANDS[0]],                                                 # the same hands, reordered
    [TWO_HANDS[0], {**TWO_HANDS[1], "riichi": [1]}],                              # a stick more
    [TWO_HANDS[0], {"outcome": {"type": "tsumo", "winner": 1, "han": 2, "fu": 40}}],  # 10 fu more
    [TWO_HANDS[0], {**TWO_HANDS[1], "note": "x"}],                                # a note
])
def test_any_change_to_the_hands_changes_the_digest(changed: list) -> None:
    assert hands_digest(changed) != hands_digest(TWO_HANDS)


def test_a_double_ron_digest_does_not_depend_on_the_order_winners_were_ticked() -> None:
    a = HandInput(Ron(loser=2, wins=(Win(winner=3, han=3, fu=40), Win(winner=0, han=2, fu=30))))
    b = {"outcome": {"type": "ron", "loser": 2, "wins": [{"winner": 3, "han": 3, "fu": 40},
                                                        {"winner": 0, "han": 2, "fu": 30}]}}
    assert hands_digest([a, HandInput(Chombo(offender=1))]) == hands_digest([b, {"outcome": {"type": "chombo",
                                                                                          "offender": 1}}])


def test_a_hand_the_record_refuses_names_its_index() -> None:
    with pytest.raises(ScoringError) as err:
        hands_digest([TWO_HANDS[0], {"outcome": {"type": "wat"}}])
    assert err.value.field == "hands[1].outcome.type"


def test_digest_op_answers_on_the_json_interface() -> None:
    lines = json.dumps({"op": "digest", "hands": TWO_HANDS}) + "\n" + json.dumps({"op": "digest", "hands": 3}) + "\n"
    out = subprocess.run([sys.executable, "-m", "scoring"], input=lines, capture_output=True, text=True, check=True,
                         cwd=REPO)
    first, second = (json.loads(line) for line in out.stdout.splitlines())
    assert first == {"digest": hands_digest(TWO_HANDS), "hands": 2}
    assert second["error"]["code"] == "invalid_request"
