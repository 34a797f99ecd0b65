"""``replay(record, after=...)`` goes on from an earlier replay of the same
game's first hands (the live preview's new hand, issue 28) and gives what
replaying the whole record gives: for every prefix of seeded random games
under each four-player preset (rons, double rons, tsumo, draws, aborts,
chombo), with staff penalties and end reasons, refusals included. An
``after`` that is not plainly the record's first hands is ignored."""

from __future__ import annotations

import dataclasses
import random

import pytest

from scoring.errors import ScoringError
from scoring.game import Draw, EndReason, GameRecord, GameResult, HandInput, Ron, Win, replay
from scoring.rules import PRESETS
from scoring.settlement import Penalty
from tests.benchmarks.bench_games import random_hand

FOUR = sorted(name for name, rules in PRESETS.items() if rules.players == 4)


def random_game(rng: random.Random, rules: object) -> GameRecord:
    """A game played to its end (or 40 hands) with random hands the rules take
    (a double ron under head bump is drawn again)."""
    hands: list[HandInput] = []
    while len(hands) < 40:
        hand = random_hand(rng)
        try:
            played = replay(GameRecord(rules, (*hands, hand)))  # type: ignore[arg-type]
        except ScoringError:
            continue
        hands.append(hand)
        if played.finished:
            break
    return GameRecord(rules, tuple(hands))  # type: ignore[arg-type]


def _outcome(record: GameRecord, after: GameResult | None = None) -> GameResult | tuple[str, str | None, str]:
    try:
        return replay(record, after=after)
    except ScoringError as err:
        return err.code, err.field, str(err)


@pytest.mark.parametrize("preset", FOUR)
@pytest.mark.parametrize("seed", range(6))
def test_going_on_from_every_prefix_equals_the_whole_replay(preset: str, seed: int) -> None:
    rng = random.Random(f"{preset}-{seed}")
    game = random_game(rng, PRESETS[preset])
    penalties = (Penalty(rng.randrange(4), -10000, "slow play"),) if seed % 2 else ()
    record = dataclasses.replace(game, penalties=penalties)
    whole = _outcome(record)
    for k in range(len(record.hands)):
        earlier = replay(dataclasses.replace(record, hands=record.hands[:k], end=None))
        assert _outcome(record, earlier) == whole, (preset, seed, k)


@pytest.mark.parametrize("seed", range(20))
def test_a_refused_hand_after_a_prefix_is_refused_the_same(seed: int) -> None:
    rng = random.Random(seed)
    game = random_game(rng, PRESETS["tenhou"])
    k = rng.randrange(len(game.hands))
    bad = HandInput(Ron(0, (Win(0, 3, 30),)))  # the loser cannot win
    record = dataclasses.replace(game, hands=(*game.hands[:k], bad), end=None)
    earlier = replay(dataclasses.replace(record, hands=record.hands[:k]))
    refused = _outcome(record)
    assert isinstance(refused, tuple) and _outcome(record, earlier) == refused


def test_a_hand_after_the_end_is_game_over_either_way() -> None:
    game = random_game(random.Random(7), PRESETS["tenhou"])
    assert replay(game).finished
    record = dataclasses.replace(game, hands=(*game.hands, HandInput(Draw(()))), end=None)
    earlier = replay(dataclasses.replace(record, hands=record.hands[:-2]))
    assert _outcome(record, earlier) == _outcome(record)
    assert _outcome(record)[0] == "game_over"  # type: ignore[index]


@pytest.mark.parametrize("end", [EndReason.EARLY, EndReason.AGARI_YAME])
def test_an_end_said_by_staff_is_applied_after_going_on(end: EndReason) -> None:
    for seed in range(10):
        game = random_game(random.Random(seed), PRESETS["m-league"])
        record = dataclasses.replace(game, hands=game.hands[:-1], end=end)
        earlier = replay(dataclasses.replace(record, hands=record.hands[:-1], end=None))
        assert _outcome(record, earlier) == _outcome(record)


def test_an_after_that_is_not_the_records_first_hands_is_ignored() -> None:
    rng = random.Random(3)
    game = random_game(rng, PRESETS["tenhou"])
    other = random_game(rng, PRESETS["tenhou"])
    record = dataclasses.replace(game, end=None, hands=game.hands[:5])
    whole = replay(record)
    misleading = [
        replay(dataclasses.replace(other, hands=other.hands[:3], end=None)),  # another game's hands
        replay(dataclasses.replace(record, hands=tuple(dataclasses.replace(h) for h in record.hands[:3]))),  # copies
        replay(dataclasses.replace(record, hands=record.hands[:3], penalties=(Penalty(1, -5000),))),  # penalties
        replay(dataclasses.replace(record, hands=record.hands[:3], rules=PRESETS["wrc-2022"])),  # rules
    ]
    for after in misleading:
        assert replay(record, after=after) == whole
