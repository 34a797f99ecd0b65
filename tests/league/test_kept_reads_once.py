"""A batch of kept hands reads the game once (issue 28): each save hands its
read of the game after it to the next entry, as a single save keeps it for
the next request, and what the batch ends on is the game as stored. Real
commits (``transaction=True``): the save keeps its read only once its commit
has published the series' new stamp. The conflict page of a stale entry is
rendered from that entry, as its single save would have posted it.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.models import Game
from league.services import entry
from tests.league.test_kept_batch import SIX, kept_batch, send

TABLES = ("league_game", "league_hand", "league_win", "league_penalty", "league_seat")


def _reads(queries: list[dict[str, str]]) -> Counter[str]:
    """The statements of the batch that read rows, by the tables they read
    (each table once a statement): a SELECT wherever its ``FROM`` or ``JOIN``
    stands (the access check reads the game joined with its series, its roles
    in subqueries), and an ``UPDATE ... RETURNING`` its table (a new hand's
    lock moves the game's version and reads the row in one statement), also
    as a part of a ``WITH`` (on PostgreSQL the lock claims the entry's key in
    the same statement, ``lock_game_moving``)."""
    out: Counter[str] = Counter()
    for q in queries:
        sql = q["sql"].lstrip()
        if sql.upper().startswith("SELECT"):
            out.update({t for t in re.findall(r'(?:FROM|JOIN) "?(\w+)"?', sql) if t in TABLES})
        elif sql.upper().startswith(("UPDATE", "WITH")):
            out.update(t for t in re.findall(r'UPDATE "?(\w+)"? SET [^()]*? RETURNING ', sql) if t in TABLES)
    return out


@pytest.mark.django_db(transaction=True)
def test_six_kept_hands_read_the_game_row_once_besides_each_saves_lock(as_scorer: Client, game: Game) -> None:
    entries = kept_batch(as_scorer, game, SIX)
    with CaptureQueriesContext(connection) as ctx:
        answer = send(as_scorer, game, entries).json()
    assert answer["stop"] is None and [e["number"] for e in answer["entries"]] == [1, 2, 3, 4, 5, 6]
    reads = _reads(ctx.captured_queries)
    # The access check's read of the row, then one lock per save; the hands, their
    # wins, the penalties and the seats are never read again between the entries.
    assert reads == Counter({"league_game": 1 + 6})


@pytest.mark.django_db(transaction=True)
def test_the_batch_ends_on_the_game_as_stored(as_scorer: Client, game: Game) -> None:
    entries = kept_batch(as_scorer, game, SIX)
    then = send(as_scorer, game, entries).json()["then"]
    game.refresh_from_db()
    stored = entry.read_game(game, fresh=True)
    assert then["state"] == stored.state and then["number"] == stored.next_number == 7
    assert then["game"] == entry.phone_state(stored)
    assert [h.result["deltas"] for h in game.hands.order_by("number")] == [
        list(p.deltas) for p in stored.replayed.hands]


@pytest.mark.django_db(transaction=True)
def test_a_hand_saved_online_between_two_batches_stops_the_second(as_scorer: Client, game: Game) -> None:
    first = kept_batch(as_scorer, game, SIX[:2])
    assert send(as_scorer, game, first).json()["stop"] is None
    later = kept_batch(as_scorer, game, SIX[2:4])
    other = kept_batch(as_scorer, game, [{"outcome": "draw", "tenpai": ["1"]}])
    assert send(as_scorer, game, other).json()["stop"] is None  # hand 3, by another scorer
    answer = send(as_scorer, game, later).json()
    assert answer["entries"] == [] and answer["stop"]["kind"] == "conflict"
    assert game.hands.count() == 3


@pytest.mark.django_db
def test_a_stale_entrys_conflict_page_carries_that_entry(as_scorer: Client, game: Game) -> None:
    entries = kept_batch(as_scorer, game, SIX[:2])
    other = kept_batch(as_scorer, game, [{"outcome": "draw", "tenpai": ["1"]}])
    assert send(as_scorer, game, other).json()["stop"] is None
    stop = send(as_scorer, game, entries).json()["stop"]
    html = stop["html"]
    # What the scorer typed goes on to the game as it is now; what tied it to the old state does not.
    assert '<input type="hidden" name="outcome" value="tsumo">' in html
    assert '<input type="hidden" name="winner" value="1">' in html
    assert entries[0]["state"] not in html and entries[0]["key"] not in html and entries[0]["checked"] not in html
    assert 'value="reuse"' in html  # taken on to hand 2 (the game now) by a deliberate tap
