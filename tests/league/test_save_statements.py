"""What a new hand's save sends, per database (issue 28): on PostgreSQL the
game row's lock and the key's claim go as one statement, then the hand, its
wins, the series' version, the audit entry and the seats' statistics as one
more (data-modifying statements in ``WITH``, ``league.services.replay``'s
``lock_game_moving`` and ``save_new_hand``); on SQLite, which has none, one
statement each, as before. Both paths store the same thing: each is held
here to an import of the same hands (``record_hands``, which writes in bulk
by the ORM), row for row. CI runs this file on both databases.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from league import services
from league.errors import PriceDiffers
from league.models import Game, GameAudit, Hand, SaveKey, Seat, Series, Win
from league.services import entry
from league.services.games import HandSaved
from league.services.replay import Claim, lock_game_moving
from league.statements import int_array, writes_in_with
from league.stats import SEAT_STAT_FIELDS
from scoring import game as sg
from scoring.game import HandInput
from tests.factories import double_ron, draw, make_game, make_players, ron, tsumo

pytestmark = pytest.mark.django_db

# A hanchan's first hands, each kind of write: a ron with a riichi stick and
# the optional detail (JSON and text columns), a tsumo, a double ron (two wins
# returned by one statement), a draw (no win at all).
HANDS: list[HandInput] = [
    dataclasses.replace(ron(1, 0, 3, 30, riichi=[0]), yaku=["riichi", "pinfu"], tiles={"hand": "123m"},
                        note="dealt in, 'quoted' \u6771"),
    tsumo(2, 2, 40),
    double_ron(3, sg.Win(winner=1, han=4, fu=30), sg.Win(winner=2, han=1, fu=30)),
    draw(0, 2),
]


def written(queries: CaptureQueriesContext) -> list[str]:
    """The statements a save sent, its savepoints left out (the test's own transaction)."""
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def save(game: Game, hand: HandInput, number: int, *, seen: str | None = None) -> entry.Saved:
    now = entry.read_game(Game.objects.get(pk=game.pk), fresh=True)
    return entry.save_entry(game=now.game, number=number, hand=hand, editing=False, key=f"key-{number}",
                            state=now.state, players=now.players, now=now, seen=seen)


@pytest.mark.parametrize("hand, wins", [(HANDS[0], 1), (HANDS[2], 2), (HANDS[3], 0)])
def test_a_new_hands_save_sends_two_statements_on_postgresql_and_one_per_row_elsewhere(
        game: Game, hand: HandInput, wins: int) -> None:
    if hand is not HANDS[0]:
        services.record_hand(game=game, number=1, hand=HANDS[0])
    number = game.hands.count() + 1
    with CaptureQueriesContext(connection) as queries:
        save(game, hand, number)
    sent = written(queries)
    # The read of the game before the save is the request's (a fresh read: its hands, wins, seats).
    save_sent = sent[next(i for i, sql in enumerate(sent) if sql.startswith(("UPDATE", "WITH"))):]
    if writes_in_with(connection):
        # The game row locked as its version moves and the key claimed, then every write at once.
        assert len(save_sent) == 2
        assert save_sent[0].startswith("WITH ") and save_sent[1].startswith("WITH ")
    else:
        # The lock, the key, the hand, its wins (none for a draw), the series, the audit, the seats.
        assert len(save_sent) == 6 + (wins > 0)
    assert Win.objects.filter(hand__game=game, hand__number=number).count() == wins


def test_a_refused_save_sends_none_of_the_writes(game: Game) -> None:
    services.record_hand(game=game, number=1, hand=HANDS[0])
    audit, version = GameAudit.objects.count(), Series.objects.get(pk=game.series_id).version
    with CaptureQueriesContext(connection) as queries, pytest.raises(PriceDiffers):
        save(game, HANDS[1], 2, seen="0 0 0 0")
    sent = written(queries)
    # The lock and the key's claim went (and are rolled back); no write of the hand.
    assert not [sql for sql in sent if 'INSERT INTO "league_hand"' in sql or 'INSERT INTO "league_gameaudit"' in sql]
    assert (game.hands.count(), GameAudit.objects.count(), SaveKey.objects.filter(game=game).count()) == (1, audit, 0)
    assert Series.objects.get(pk=game.series_id).version == version


def stored(game: Game) -> dict[str, Any]:
    """What the game's hands left in the database, keys and times aside."""
    game.refresh_from_db()
    hands = list(Hand.objects.filter(game=game).order_by("number").values(
        "number", "outcome", "loser", "riichi", "tenpai", "nagashi", "abort_reason", "chombo_offender",
        "tiles", "yaku", "note", "result", "entered_by"))
    wins = list(Win.objects.filter(hand__game=game).order_by("hand__number", "order").values_list(
        "hand__number", "order", "winner", "han", "fu", "yakuman", "pao"))
    audit = list(GameAudit.objects.filter(game=game, action=GameAudit.Action.RECORD_HAND).order_by(
        "hand_number").values_list("hand_number", "user", "username", "before", "after"))
    seats = list(Seat.objects.filter(game=game).order_by("seat").values_list(
        "seat", "end_score", "place", "points", *SEAT_STAT_FIELDS))
    return {"hands": hands, "wins": wins, "audit": audit, "seats": seats,
            "game": (game.status, game.inputs_version > 0)}


def test_a_save_stores_what_an_import_of_the_same_hands_stores(scorer: Any, series: Series) -> None:
    players = make_players()
    saved, imported = make_game(series, players), make_game(series, players)
    held: list[HandSaved] = []
    for number, hand in enumerate(HANDS, start=1):
        version = Series.objects.get(pk=series.pk).version
        row = services.record_hand(game=saved, number=number, hand=hand, by=scorer, key=f"k{number}",
                                   then=held.append)
        # The series' version moved once, as every change moves it.
        assert Series.objects.get(pk=series.pk).version == version + 1
        # The rows came back as stored: the hand's key, its audit entry's.
        assert Hand.objects.get(pk=row.pk).number == number and not row._state.adding
        change = held[-1].change
        assert GameAudit.objects.get(pk=change.pk).after == change.after and not change._state.adding
        assert Win.objects.filter(hand=row).count() == len(getattr(hand.outcome, "wins", ())) + hasattr(
            hand.outcome, "winner")
    services.record_hands(game=imported, first=1, hands=HANDS, by=scorer)
    assert stored(saved) == stored(imported)
    assert services.refresh_snapshots(game=Game.objects.get(pk=saved.pk), by=scorer) is False


@pytest.mark.parametrize("hand, refused", [(HANDS[0], services.AlreadySaved), (HANDS[1], services.Conflict)])
def test_a_key_sent_again_is_refused_and_nothing_is_written(game: Game, hand: HandInput,
                                                            refused: type[Exception]) -> None:
    # The same entry again (a double tap): already saved; the key with other content: a conflict.
    save(game, HANDS[0], 1)
    audit, version = GameAudit.objects.count(), Series.objects.get(pk=game.series_id).version
    now = entry.read_game(Game.objects.get(pk=game.pk), fresh=True)
    with pytest.raises(refused):
        entry.save_entry(game=now.game, number=1, hand=hand, editing=False, key="key-1", state=None, now=now)
    assert (game.hands.count(), GameAudit.objects.count()) == (1, audit)
    assert Series.objects.get(pk=game.series_id).version == version


def test_an_int_array_is_postgresqls_text_form_and_holds_integers_only() -> None:
    assert int_array([2, 0, None, 70000]) == "{2,0,NULL,70000}"
    assert int_array([]) == "{}"
    for other in ["1", 1.0, True]:
        with pytest.raises(TypeError):
            int_array([other])


@pytest.mark.django_db(transaction=True)
def test_the_lock_claims_the_key_once_the_row_is_locked_on_postgresql() -> None:
    """The lock's row is the row as stored (its version moved), and on
    PostgreSQL the key is claimed by the same statement: stored the first
    time, found the second (``claimed``); elsewhere the lock leaves the claim
    to ``claim_entry``."""
    game = make_game()
    claim = Claim("key-1", SaveKey.Action.RECORD, 1, "e" * 64, None)
    with transaction.atomic():
        first = lock_game_moving(game, claim=claim)
        orm = Game.objects.get(pk=game.pk)
        assert {f.attname: getattr(first, f.attname) for f in Game._meta.concrete_fields} == {
            f.attname: getattr(orm, f.attname) for f in Game._meta.concrete_fields}
        assert bool(first.in_round) is False  # SQLite answers 0
        again = lock_game_moving(game, claim=claim)
        keys = list(SaveKey.objects.filter(game=game).values_list("key", "action", "hand_number", "entry"))
    if writes_in_with(connection):
        assert (first.claimed, again.claimed) == (True, False)
        assert keys == [("key-1", "record", 1, "e" * 64)]
    else:
        assert (first.claimed, again.claimed, keys) == (None, None, [])
    assert Game.objects.get(pk=game.pk).inputs_version == orm.inputs_version + 1
