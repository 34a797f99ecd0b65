"""The game services (league.services.games), hand by hand, the way scorers use them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from league import services
from league.models import Game, GameAudit, Hand
from scoring.game import Win
from tests.factories import (
    abort,
    chombo,
    double_ron,
    draw,
    hanchan_passing_deal,
    make_game,
    make_players,
    make_series,
    play,
    ron,
    snapshot,
    tsumo,
)

pytestmark = pytest.mark.django_db

Action = GameAudit.Action


def scores(game: Game) -> tuple[int, ...]:
    return game.replay().result.scores


# -- every outcome -------------------------------------------------------------

OUTCOMES = [
    # hand in East 1 (seat 0 deals), scores after it, next (round, dealer, honba, sticks)
    ("ron", ron(0, 1, 3, 40), (19800, 30200, 25000, 25000), ("E2", 1, 0, 0)),
    ("dealer tsumo", tsumo(0, 1, 30), (26500, 24500, 24500, 24500), ("E1", 0, 1, 0)),
    ("double ron", double_ron(0, Win(1, 3, 40), Win(2, 2, 30), riichi=(3,)), (17800, 31200, 27000, 24000), ("E2", 1, 0, 0)),
    ("pao tsumo", tsumo(1, yakuman=1, pao=2), (25000, 57000, -7000, 25000), ("E2", 1, 0, 0)),
    ("pao ron", ron(0, 1, yakuman=1, pao=2), (9000, 57000, 9000, 25000), ("E2", 1, 0, 0)),
    ("draw", draw(1, 2), (23500, 26500, 26500, 23500), ("E2", 1, 1, 0)),
    ("draw with riichi", draw(0, riichi=(0,)), (27000, 24000, 24000, 24000), ("E1", 0, 1, 1)),
    ("nagashi", draw(nagashi=(2,)), (21000, 23000, 33000, 23000), ("E2", 1, 1, 0)),
    ("abort", abort("suufon_renda"), (25000, 25000, 25000, 25000), ("E1", 0, 1, 0)),
    ("chombo", chombo(1), (29000, 17000, 27000, 27000), ("E1", 0, 0, 0)),
]


@pytest.mark.parametrize(("name", "hand", "after", "nxt"), OUTCOMES, ids=[o[0] for o in OUTCOMES])
def test_record_hand_every_outcome(name: str, hand: Any, after: tuple[int, ...], nxt: tuple[Any, ...]) -> None:
    game = make_game()
    row = services.record_hand(game=game, number=1, hand=hand)
    assert row.to_input() == hand  # stored as input, read back unchanged
    result = game.replay().result
    assert result.scores == after
    assert sum(result.scores) + 1000 * result.riichi_sticks == 100000
    assert (result.next.round_label, result.next.dealer, result.next.honba, result.next.riichi_sticks) == nxt
    entry = game.audit.get(action=Action.RECORD_HAND)
    assert entry.hand_number == 1
    assert entry.after["scores"] == list(after)


def test_record_hand_accepts_the_game_record_dict() -> None:
    game = make_game()
    hand = {"riichi": [1], "outcome": {"type": "tsumo", "winner": 1, "han": 2, "fu": 30}, "yaku": ["riichi"], "note": "ippatsu?"}
    row = services.record_hand(game=game, number=1, hand=hand)
    assert row.yaku == ["riichi"] and row.note == "ippatsu?"
    assert row.as_dict() == hand
    # 2 han 30 fu tsumo: the dealer pays 1,000, the others 500; South takes back its stick
    assert scores(game) == (24000, 27000, 24500, 24500)


def test_record_hand_finishes_the_game_when_the_ruleset_ends_it() -> None:
    game = make_game()
    play(game, hanchan_passing_deal())
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end == "" and game.finished_at is not None
    rows = list(game.seats.order_by("seat").values_list("end_score", "place", "points"))
    assert rows == [(22300, 3, -17700), (34500, 1, 54500), (25100, 2, 5100), (18100, 4, -41900)]
    assert sum(p for _, _, p in rows) == 0
    assert game.audit.filter(action=Action.FINISH).count() == 1


def test_chombo_as_penalty_after_uma() -> None:
    # ema-2016: a chombo is -20 after uma, nothing is paid at the table
    game = make_game(make_series("ema-2016"))
    play(game, [chombo(1)])
    assert scores(game) == (30000, 30000, 30000, 30000)
    services.finish_game(game=game)
    assert list(game.seats.order_by("seat").values_list("place", "points")) == [(1, 0), (1, -20000), (1, 0), (1, 0)]


# -- conflicts -------------------------------------------------------------------


def test_record_hand_number_not_next_is_a_conflict() -> None:
    game = make_game()
    play(game, [ron(0, 1, 3, 40)])
    before = snapshot(game)
    with pytest.raises(services.Conflict) as exc:
        services.record_hand(game=game, number=3, hand=tsumo(1, 1, 30))
    assert (exc.value.code, exc.value.field) == ("hand_conflict", "number")
    assert "next hand of this game is 2" in exc.value.message
    assert snapshot(game) == before


def test_two_scorers_enter_the_same_hand_the_second_conflicts() -> None:
    game = make_game()
    services.record_hand(game=game, number=1, hand=ron(0, 1, 3, 40))
    before = snapshot(game)
    with pytest.raises(services.Conflict):
        services.record_hand(game=game, number=1, hand=ron(0, 2, 2, 30))
    assert snapshot(game) == before
    assert game.hands.get().to_input() == ron(0, 1, 3, 40)


# -- bad input: refused, field named, nothing saved ----------------------------------

BAD_HANDS = [
    ("ron with no loser", {"outcome": {"type": "ron", "wins": [{"winner": 1, "han": 1, "fu": 30}]}}, "no_loser", "outcome.loser"),
    ("winner is the loser", ron(1, 1, 2, 30), "loser_is_winner", "outcome.wins[0].winner"),
    ("1 han 20 fu ron", ron(0, 1, 1, 20), "fu_not_possible", "outcome.wins[0].fu"),
    ("1 han 20 fu tsumo", tsumo(1, 1, 20), "fu_not_possible", "outcome.fu"),
    ("riichi seat noten at a draw", draw(0, riichi=(1,)), "riichi_not_tenpai", "riichi[0]"),
    ("pao seat is the winner", ron(0, 1, yakuman=1, pao=1), "invalid_pao", "outcome.wins[0].pao"),
    ("seat 5", ron(0, 5, 1, 30), "invalid_seat", "outcome.wins[0].winner"),
    ("unknown key", {"outcome": {"type": "draw"}, "dora": 3}, "unknown_key", "dora"),
]


@pytest.mark.parametrize(("name", "hand", "code", "field"), BAD_HANDS, ids=[b[0] for b in BAD_HANDS])
def test_record_hand_refuses_bad_input_naming_the_field(name: str, hand: Any, code: str, field: str) -> None:
    game = make_game()
    play(game, [draw(0, 1)])
    before = snapshot(game)
    with pytest.raises(services.ServiceError) as exc:
        services.record_hand(game=game, number=2, hand=hand)
    assert exc.value.field == field
    assert exc.value.code == code or name == "unknown key"
    assert snapshot(game) == before


def test_record_hand_refused_for_a_finished_game() -> None:
    game = make_game()
    play(game, hanchan_passing_deal())
    before = snapshot(game)
    with pytest.raises(services.ServiceError) as exc:
        services.record_hand(game=game, number=9, hand=draw())
    assert (exc.value.code, exc.value.field) == ("game_over", "game")
    assert snapshot(game) == before


def test_start_game_refuses_the_same_player_twice() -> None:
    series = make_series()
    a, b, c = make_players(3)
    with pytest.raises(services.ServiceError) as exc:
        services.start_game(series=series, players=[a, b, c, b])
    assert (exc.value.code, exc.value.field) == ("same_player", "players[3]")
    assert not Game.objects.exists()


def test_start_game_needs_four_players() -> None:
    with pytest.raises(services.ServiceError) as exc:
        services.start_game(series=make_series(), players=make_players(3))
    assert exc.value.field == "players"


# -- corrections -----------------------------------------------------------------


def test_correct_hand_replays_the_rest() -> None:
    game = make_game()
    play(game, [ron(0, 1, 3, 40), tsumo(1, 1, 30), draw(2)])
    user = User.objects.create(username="referee")
    services.correct_hand(game=game, number=1, hand=ron(0, 1, 4, 40), by=user)
    # 4 han 40 fu is mangan (8,000); hand 2 is still South's dealer tsumo (500 all),
    # hand 3 West alone tenpai
    assert [(h.round_label, h.honba) for h in game.replay().result.hands] == [("E1", 0), ("E2", 0), ("E2", 1)]
    assert scores(game) == (15500, 33500, 27500, 23500)
    entry = game.audit.get(action=Action.CORRECT_HAND)
    assert entry.username == "referee" and entry.hand_number == 1
    assert entry.before["hand"]["outcome"]["wins"][0]["han"] == 3
    assert entry.after["hand"]["outcome"]["wins"][0]["han"] == 4


def test_correct_hand_refused_when_a_later_hand_becomes_impossible() -> None:
    # South 4: the dealer (seat 3) wins and plays on, then the deal passes and the game ends.
    game = make_game()
    hands = [*hanchan_passing_deal()[:7], tsumo(3, 1, 30), ron(0, 1, 1, 30)]
    play(game, hands)
    game.refresh_from_db()
    assert game.is_finished
    before = snapshot(game)
    # Had South won hand 8, the game would have ended there: hand 9 cannot have been played.
    with pytest.raises(services.ServiceError) as exc:
        services.correct_hand(game=game, number=8, hand=tsumo(2, 1, 30))
    assert exc.value.code == "game_over"
    assert exc.value.field == "hands[8]"
    assert exc.value.message.startswith("hand 9 would no longer be possible")
    assert snapshot(game) == before


def test_correct_hand_refuses_bad_input_with_the_hands_own_field() -> None:
    game = make_game()
    play(game, [ron(0, 1, 3, 40), draw()])
    before = snapshot(game)
    with pytest.raises(services.ServiceError) as exc:
        services.correct_hand(game=game, number=1, hand=ron(0, 1, 1, 20))
    assert (exc.value.code, exc.value.field) == ("fu_not_possible", "outcome.wins[0].fu")
    assert snapshot(game) == before


def test_correct_hand_unknown_number() -> None:
    game = make_game()
    with pytest.raises(services.ServiceError) as exc:
        services.correct_hand(game=game, number=1, hand=draw())
    assert (exc.value.code, exc.value.field) == ("no_such_hand", "number")


def test_correct_hand_of_a_finished_game_resettles_it() -> None:
    game = make_game()
    play(game, hanchan_passing_deal())
    services.correct_hand(game=game, number=1, hand=ron(0, 1, 4, 40))  # +2,800 for South, from East
    assert list(game.seats.order_by("seat").values_list("end_score", "points")) == [
        (19500, -20500), (37300, 57300), (25100, 5100), (18100, -41900)
    ]
    assert game.audit.filter(action=Action.RESETTLE).count() == 1


def test_correct_hand_that_no_longer_ends_the_game_reopens_it() -> None:
    game = make_game()
    play(game, hanchan_passing_deal())
    services.correct_hand(game=game, number=8, hand=tsumo(3, 1, 30))  # the S4 dealer wins: renchan
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.finished_at is None
    assert set(game.seats.values_list("points", flat=True)) == {None}
    assert game.replay().result.next.round_label == "S4"
    assert game.audit.filter(action=Action.REOPEN).count() == 1


# -- undo, finish ----------------------------------------------------------------


def test_undo_last_hand() -> None:
    game = make_game()
    play(game, [ron(0, 1, 3, 40), tsumo(1, 1, 30)])
    assert services.undo_last_hand(game=game) == 2
    assert list(game.hands.values_list("number", flat=True)) == [1]
    assert scores(game) == (19800, 30200, 25000, 25000)
    entry = game.audit.get(action=Action.UNDO_HAND)
    assert entry.before["hand"]["outcome"]["type"] == "tsumo" and entry.after is None
    services.record_hand(game=game, number=2, hand=draw())  # the number is free again


def test_undo_last_hand_refuses_when_the_last_hand_is_not_the_one_seen() -> None:
    # The staff page says which hand it is undoing; another scorer may have
    # saved the next hand between that page and the lock.
    game = make_game()
    play(game, [ron(0, 1, 3, 40), tsumo(1, 1, 30)])
    with pytest.raises(services.Conflict) as exc:
        services.undo_last_hand(game=game, number=1)
    assert (exc.value.code, exc.value.field) == ("hand_conflict", "number")
    assert list(game.hands.values_list("number", flat=True)) == [1, 2]
    assert services.undo_last_hand(game=game, number=2) == 2


def test_undo_last_hand_reopens_a_finished_game() -> None:
    game = make_game()
    play(game, hanchan_passing_deal())
    services.undo_last_hand(game=game)
    game.refresh_from_db()
    assert not game.is_finished
    assert game.replay().result.next.round_label == "S4"


def test_undo_with_no_hands() -> None:
    with pytest.raises(services.ServiceError) as exc:
        services.undo_last_hand(game=make_game())
    assert (exc.value.code, exc.value.field) == ("no_hands", "number")


def test_finish_game_early_settles_current_scores() -> None:
    game = make_game()
    play(game, [ron(0, 1, 3, 40), tsumo(2, 2, 30), draw(0, riichi=(0,))])
    services.finish_game(game=game)
    game.refresh_from_db()
    assert (game.status, game.end) == (Game.Status.FINISHED, Game.End.EARLY)
    # East: 25,000 - 5,200 - 500 + 3,000 noten - 1,000 stick
    assert scores(game) == (21300, 28200, 26000, 23500)
    # the stick left on the table goes to first place
    assert list(game.seats.order_by("seat").values_list("end_score", "place", "points")) == [
        (21300, 4, -38700), (29200, 1, 49200), (26000, 2, 6000), (23500, 3, -16500)
    ]
    with pytest.raises(services.ServiceError) as exc:
        services.record_hand(game=game, number=4, hand=draw())
    assert exc.value.code == "game_over"


def test_finish_game_agari_yame_refused_where_the_rules_do_not_allow_it() -> None:
    game = make_game()
    play(game, [ron(0, 1, 3, 40)])
    before = snapshot(game)
    with pytest.raises(services.ServiceError) as exc:
        services.finish_game(game=game, end=Game.End.AGARI_YAME)
    assert (exc.value.code, exc.value.field) == ("end_not_possible", "end")
    assert snapshot(game) == before


def test_finish_game_twice_is_refused() -> None:
    game = make_game()
    services.finish_game(game=game)
    with pytest.raises(services.ServiceError) as exc:
        services.finish_game(game=game)
    assert exc.value.code == "game_over"


# -- games kept by end scores --------------------------------------------------------


def test_record_final_scores_settles_the_ari_ari_worked_example() -> None:
    game = make_game()
    services.record_final_scores(game=game, scores=[41300, 24900, 21800, 12000])
    game.refresh_from_db()
    assert game.is_finished and game.kept_by_end_scores
    assert list(game.seats.order_by("seat").values_list("place", "points")) == [
        (1, 61300), (2, 4900), (3, -18200), (4, -48000)
    ]
    assert game.audit.filter(action=Action.FINAL_SCORES).count() == 1


def test_record_final_scores_with_sticks_left_on_the_table() -> None:
    game = make_game()
    services.record_final_scores(game=game, scores=[41300, 24900, 21800, 11000], riichi_sticks=1)
    assert list(game.seats.order_by("seat").values_list("end_score", "points")) == [
        (42300, 62300), (24900, 4900), (21800, -18200), (11000, -49000)
    ]


def test_record_final_scores_must_add_up() -> None:
    game = make_game()
    before = snapshot(game)
    with pytest.raises(services.ServiceError) as exc:
        services.record_final_scores(game=game, scores=[41300, 24900, 21800, 12000], riichi_sticks=1)
    assert (exc.value.code, exc.value.field) == ("scores_do_not_add_up", "final.scores")
    assert snapshot(game) == before


def test_record_final_scores_refused_for_a_game_with_hands() -> None:
    game = make_game()
    play(game, [draw()])
    with pytest.raises(services.ServiceError) as exc:
        services.record_final_scores(game=game, scores=[25000] * 4)
    assert exc.value.code == "has_hands"


# -- audit ------------------------------------------------------------------------------


def test_every_change_is_audited_with_who() -> None:
    user = User.objects.create(username="scorer")
    game = make_game(by=user)
    services.record_hand(game=game, number=1, hand=ron(0, 1, 3, 40), by=user)
    services.correct_hand(game=game, number=1, hand=ron(0, 1, 2, 40), by=user)
    services.undo_last_hand(game=game, by=user)
    entries = list(game.audit.order_by("pk"))
    assert [e.action for e in entries] == [Action.START, Action.RECORD_HAND, Action.CORRECT_HAND, Action.UNDO_HAND]
    assert {e.username for e in entries} == {"scorer"}
    assert not Hand.objects.exists()


# -- several hands at once (imports) -------------------------------------------------


def test_record_hands_gives_what_record_hand_gives_one_by_one() -> None:
    hands = [tsumo(0, 3, 30), draw(1, riichi=[1]), double_ron(2, Win(1, han=2, fu=30), Win(3, han=1, fu=30)),
             chombo(0), abort(), *hanchan_passing_deal()[:3]]
    one_by_one = make_game()
    play(one_by_one, hands)
    batch = make_game(players=make_players(4))
    rows = services.record_hands(game=batch, first=1, hands=hands)
    assert [r.number for r in rows] == list(range(1, len(hands) + 1))
    assert batch.replay().result.scores == one_by_one.replay().result.scores
    assert [h.as_dict() for h in batch.hands.all()] == [h.as_dict() for h in one_by_one.hands.all()]
    batch_audit = list(batch.audit.filter(action=Action.RECORD_HAND).values_list("hand_number", "after"))
    single_audit = list(one_by_one.audit.filter(action=Action.RECORD_HAND).values_list("hand_number", "after"))
    assert batch_audit == single_audit


def test_record_hands_finishes_and_settles_a_whole_game() -> None:
    game = make_game()
    services.record_hands(game=game, first=1, hands=hanchan_passing_deal())
    game.refresh_from_db()
    assert game.is_finished
    assert sum(game.seats.values_list("points", flat=True)) == 0


def test_record_hands_refuses_the_batch_naming_the_hand_and_saves_nothing() -> None:
    game = make_game()
    play(game, [tsumo(0, 1, 30)])
    before = snapshot(game)
    with pytest.raises(services.ServiceError) as err:
        services.record_hands(game=game, first=2, hands=[draw(1), ron(1, 1, 1, 30)])
    assert (err.value.code, err.value.field) == ("loser_is_winner", "hands[2].outcome.wins[0].winner")
    with pytest.raises(services.Conflict):
        services.record_hands(game=game, first=5, hands=[draw(1)])
    assert snapshot(game) == before


def test_end_scores_beyond_any_table_are_refused() -> None:
    game = make_game()
    before = snapshot(game)
    with pytest.raises(services.ServiceError) as err:
        services.record_final_scores(game=game, scores=[10**20, -(10**20) + 100000, 0, 0])
    assert (err.value.code, err.value.field) == ("invalid_scores", "final.scores[0]")
    with pytest.raises(services.ServiceError) as err:
        services.record_final_scores(game=game, scores=[100000, 0, 0, -10**6], riichi_sticks=10**6)
    assert err.value.code == "invalid_sticks"
    assert snapshot(game) == before
