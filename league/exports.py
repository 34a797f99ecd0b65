"""CSV exports: row generators and one streaming response helper.

Each generator yields the header, then rows as Python values (``int`` and
``Decimal`` numbers, ``str`` free text). ``csv_chunks`` (``league.csv_cells``) writes them
as CSV with a UTF-8 BOM and free text made inert in a spreadsheet; the public URLs,
``export_csv`` and the admin all write through it. Memory stays flat (games by
``iterator``, hands a batch at a time; standings from one aggregate query).
Points are plain decimals (61300 is ``61.3``, 3333 is ``3.333``).
docs/data.md, "Data in and out".
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any

import orjson
from django.conf import settings
from django.db.models import IntegerField, OuterRef, QuerySet, Subquery, Sum, TextField
from django.db.models.functions import Cast, Coalesce
from django.http import StreamingHttpResponse
from django.utils import timezone

from league.csv_cells import BOM, FORMULA_START, Cells, Row, cell, csv_chunks, points, safe_text  # noqa: F401 (the exports' names)
from league.entry.pricing import replay_stored
from league.models import Game, Hand, Penalty, Seat, Series, Win, build_record, stored_hand_input
from league.models.event import is_event
from league.standings.event import event_standings
from scoring import game as sg
from scoring.rules import Ruleset, get_ruleset

CHUNK_SIZE = 250  # games per batch of queries: bounds memory (a few MB), costs 3 queries

STANDINGS_HEADER = [
    "rank", "player", "games", "points", "average_points", "average_place",
    "first", "second", "third", "fourth", "average_score", "best", "worst", "ranked",
]
GAMES_HEADER = [
    "game", "round", "table", "status", "seat", "player", "end_score", "place", "points", "penalties",
]
HANDS_HEADER = [
    "game", "hand", "round", "dealer", "honba", "riichi_sticks", "outcome", "winners", "loser",
    "han", "fu", "yakuman", "riichi",
    "delta_0", "delta_1", "delta_2", "delta_3", "score_0", "score_1", "score_2", "score_3", "note",
]


def csv_response(rows: Iterable[Row], filename: str) -> StreamingHttpResponse:
    """Stream ``rows`` as a CSV download; nothing is built up in memory."""
    response = StreamingHttpResponse(
        (chunk.encode("utf-8") for chunk in csv_chunks(rows)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# -- standings ---------------------------------------------------------------------------


def standings_rows(
    series: Series, *, through_round: int | None = None, through_date: datetime.date | None = None
) -> Iterator[Row]:
    """One row per player in rank order; tied players share the rank number.

    Players under the series' minimum number of games come after the ranked
    ones, in the same order, with an empty rank and ``ranked`` = ``no``.
    """
    # A three-player series shows three places (its ruleset never has a fourth).
    three = series.ruleset().players == 3
    yield [c for c in STANDINGS_HEADER if c != "fourth"] if three else STANDINGS_HEADER
    if is_event(series):  # registered players, substituted seats counted as the event's rule says
        table = event_standings(series, through_round=through_round).standings
    else:
        table = series.standings(through_round=through_round, through_date=through_date)
    for row in (*table.ranked, *table.unranked):
        yield [
            row.rank, row.name, row.games, points(row.total), points(row.average_points),
            round(Decimal(row.place_sum) / row.games, 2), *(row.places[:3] if three else row.places), row.average_score,
            points(row.best), points(row.worst), row.rank is not None,
        ]


# -- games ---------------------------------------------------------------------------


def game_rows(games: QuerySet[Game]) -> Iterator[Row]:
    """One row per seat, games in their list order (round, table), seats 0-3.

    Games still being played are listed with empty results. ``penalties`` is
    the sum of the staff penalties in force (cancelled ones left out); it is
    already inside ``points``.
    """
    yield GAMES_HEADER
    penalty_sum = (
        Penalty.objects.filter(game=OuterRef("game_id"), seat=OuterRef("seat"), cancelled_at=None)
        .values("game_id", "seat")
        .annotate(total=Sum("points"))
        .values("total")
    )
    seats = (
        Seat.objects.filter(game__in=games.values("pk"))
        .annotate(penalty_total=Coalesce(Subquery(penalty_sum, output_field=IntegerField()), 0))
        .order_by("game__round_number", "game__table", "game_id", "seat")
        .values_list(
            "game_id", "game__round_number", "game__table", "game__status", "seat", "player__name",
            "end_score", "place", "points", "penalty_total",
        )
    )
    for game_id, round_number, table, status, seat, name, end_score, place, pts, penalty in seats.iterator(
        chunk_size=4 * CHUNK_SIZE
    ):
        yield [game_id, round_number, table, status, seat, name, end_score, place, points(pts), points(penalty)]


# -- hands ---------------------------------------------------------------------------


def hand_rows(games: QuerySet[Game]) -> Iterator[Row]:
    """One row per hand, from what the services stored with it (``Hand.result``).

    ``honba`` and ``riichi_sticks`` are on the table at the start of the hand,
    ``delta_*`` is what the hand paid each seat and ``score_*`` the scores after
    it. With several winners (double ron) ``winners``, ``han``, ``fu`` and
    ``yakuman`` list one value per winner, separated by ``;``. A game with a
    hand saved before results were stored is replayed instead (the same rows;
    ``refresh_snapshots`` stores them), up to a hand the engine now refuses.
    """
    yield HANDS_HEADER
    for batch in game_batches(games, "pk", "rules"):
        ids = [pk for pk, _ in batch]
        wins: dict[int, list[tuple[int, int, int | None, int]]] = defaultdict(list)
        for hand_id, *win in (Win.objects.filter(hand__game_id__in=ids).order_by("hand_id", "order")
                              .values_list("hand_id", "winner", "han", "fu", "yakuman")):
            wins[hand_id].append(win)
        hands: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
        # The JSON columns as text: this loop reads 100,000 rows, and the
        # riichi seats are written back as they are (a few distinct texts,
        # each read once), so only the result is decoded, by orjson (a fifth
        # of json.loads's time, which was a quarter of the whole export).
        for game_id, *row in (Hand.objects.filter(game_id__in=ids).order_by("game_id", "number")
                              .annotate(riichi_text=Cast("riichi", TextField()), result_text=Cast("result", TextField()))
                              .values_list("game_id", "id", "number", "outcome", "loser", "riichi_text", "note",
                                           "result_text")):
            hands[game_id].append(row)
        seats_cells: dict[str, int | str | None] = {}
        replay_inputs = None
        for pk, rules in batch:
            game_hands = hands.get(pk, [])
            if all(h[-1] is not None for h in game_hands):
                for hand_id, number, outcome, loser, riichi, note, res_text in game_hands:
                    res = orjson.loads(res_text)
                    w = wins.get(hand_id)
                    if w is None:  # a draw, an abort, a chombo
                        winners = han = fu = yakuman = None
                    elif len(w) == 1:
                        winners, han, fu, yakuman = w[0][0], w[0][1] or None, w[0][2], w[0][3] or None
                    else:
                        winners, han = _each(x[0] for x in w), _each(x[1] or None for x in w)
                        fu, yakuman = _each(x[2] for x in w), _each(x[3] or None for x in w)
                    riichi_cell = seats_cells.get(riichi, seats_cells)
                    if riichi_cell is seats_cells:
                        riichi_cell = seats_cells[riichi] = _seats_cell(riichi)
                    yield Cells((
                        pk, number, res["round"], res["dealer"], res["honba"], res["sticks"], outcome,
                        winners, loser, han, fu, yakuman, riichi_cell,
                        *res["deltas"], *res["scores"], safe_text(note) if note else None,
                    ))
                continue
            if replay_inputs is None:
                replay_inputs = hand_inputs(ids)
            record = sg.GameRecord(ruleset_of(rules), hands=tuple(replay_inputs.get(pk, ())))
            # A hand the engine now refuses ends the rows (``Game.replay``).
            for played in replay_stored(record).result.hands:
                yield hand_row(pk, played)


def hand_row(game_id: int, played: sg.PlayedHand) -> Row:
    o = played.input.outcome
    wins: Sequence[sg.Win | sg.Tsumo] = ()
    loser = None
    if isinstance(o, sg.Ron):
        wins, loser = o.wins, o.loser
    elif isinstance(o, sg.Tsumo):
        wins = (o,)
    return [
        game_id, played.number, played.round_label, played.dealer, played.honba, played.riichi_sticks,
        str(o.type), _each(w.winner for w in wins), loser,
        _each(w.han or None for w in wins), _each(w.fu for w in wins), _each(w.yakuman or None for w in wins),
        _each(played.input.riichi), *played.deltas, *played.scores, played.input.note,
    ]


def _seats_cell(text: str) -> int | str | None:
    """A stored list of seats ("[]", "[2]", "[0, 2]") as ``_each`` writes it, without decoding JSON.

    >>> _seats_cell("[]"), _seats_cell("[2]"), _seats_cell("[0, 2]")
    (None, 2, '0;2')
    """
    inner = text.strip("[] ")
    if not inner:
        return None
    if "," not in inner:
        return int(inner)
    return ";".join(part.strip() for part in inner.split(","))


def _each(values: Iterable[int | None]) -> int | str | None:
    """One value as a number; several as "3;2" (text, but never a formula)."""
    values = list(values)
    if len(values) == 1:
        return values[0]
    if not values or all(v is None for v in values):
        return None
    return ";".join("" if v is None else str(v) for v in values)


# -- reading games in batches ------------------------------------------------------------


def game_batches(games: QuerySet[Game], *fields: str) -> Iterator[list[tuple[Any, ...]]]:
    """``fields`` of ``games`` in list order (round, table, pk), CHUNK_SIZE at a time."""
    batch: list[tuple[Any, ...]] = []
    rows = games.order_by("round_number", "table", "pk").values_list(*fields)
    for row in rows.iterator(chunk_size=CHUNK_SIZE):
        batch.append(row)
        if len(batch) == CHUNK_SIZE:
            yield batch
            batch = []
    if batch:
        yield batch


# A game's row as ``records_of`` reads it: its pk, then the columns its record is built from.
RECORD_ROW = ("pk", "rules", "end", "final_scores", "final_riichi_sticks")


def records_of(rows: Iterable[Sequence[Any]]) -> dict[int, sg.GameRecord]:
    """Each game's ``scoring`` record by pk, from plain rows (``RECORD_ROW``):
    what ``Game.record`` builds (``build_record``), for a batch of games in
    three queries (its hands and their wins, ``hand_inputs``, and its
    penalties in force). The penalties are in the order they were given, the
    model's order, which ``Game.record`` and so every page's and the entry's
    replay read: the record export writes them so, and the engine's replay
    goes on from a kept one only when its penalties are the record's in the
    same order (``scoring.game.replay``'s ``after``)."""
    rows = list(rows)
    ids = [row[0] for row in rows]
    hands = hand_inputs(ids)
    penalties: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for game_id, *penalty in (
        Penalty.objects.filter(game_id__in=ids, cancelled_at=None)
        .order_by("game_id", "given_at", "pk")
        .values_list("game_id", "seat", "points", "reason")
    ):
        penalties[game_id].append(tuple(penalty))  # type: ignore[arg-type]
    return {pk: build_record(ruleset_of(rules), end=end, final_scores=final_scores, final_riichi_sticks=sticks,
                             hands=hands.get(pk, ()), penalties=penalties.get(pk, ()))
            for pk, rules, end, final_scores, sticks in rows}


def hand_inputs(game_ids: Sequence[int]) -> dict[int, list[sg.HandInput]]:
    """The stored hands of these games as ``scoring`` inputs, in hand order.

    Two plain queries instead of model instances and a prefetch: the same
    result as ``Hand.to_input`` (a test holds them together) at a fraction
    of the cost, which matters at 100,000 hands.
    """
    wins: dict[int, list[sg.Win]] = defaultdict(list)
    for hand_id, winner, han, fu, yakuman, pao in (
        Win.objects.filter(hand__game_id__in=game_ids)
        .order_by("hand_id", "order")
        .values_list("hand_id", "winner", "han", "fu", "yakuman", "pao")
    ):
        wins[hand_id].append(sg.Win(winner=winner, han=han, fu=fu, yakuman=yakuman, pao=pao))
    inputs: dict[int, list[sg.HandInput]] = defaultdict(list)
    for game_id, hand_id, *row in (
        Hand.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values_list(
            "game_id", "id", "outcome", "loser", "riichi", "tenpai", "nagashi", "abort_reason", "chombo_offender",
            "tiles", "yaku", "note",
        )
    ):
        inputs[game_id].append(stored_hand_input(wins.get(hand_id, []), *row))
    return inputs


_rulesets: dict[str, Ruleset] = {}


def ruleset_of(spec: Any) -> Ruleset:
    """``get_ruleset`` once per distinct stored spec, not once per game."""
    key = json.dumps(spec, sort_keys=True)
    if key not in _rulesets:
        _rulesets[key] = get_ruleset(spec)
    return _rulesets[key]


def series_games(
    series: Series, *, through_round: int | None = None, through_date: datetime.date | None = None
) -> QuerySet[Game]:
    """The series' games, or those of the standings after ``through_round``
    (its rounds so far) or as of ``through_date`` (finished by the end of
    that day), as the series page with ``?round=`` or ``?date=`` shows them."""
    games = Game.objects.filter(series=series)
    if through_round is not None:
        games = games.filter(round_number__lte=through_round)
    if through_date is not None and through_date < datetime.date.max:  # the last date has no next day
        next_day = datetime.datetime.combine(through_date + datetime.timedelta(days=1), datetime.time())
        games = games.filter(finished_at__lt=timezone.make_aware(next_day) if settings.USE_TZ else next_day)
    return games


# -- ratings ---------------------------------------------------------------------------


def rating_rows(table: Any) -> Iterator[Row]:
    """One row per player of a rating (``league.standings.ratings.RatingTable``), best first;
    players not rated yet after, with an empty rank and value. Values are numbers (1512.345).
    The player id is the key: two people may share a name."""
    yield ["rank", "player", "rating", "results", "last played", "computed", "player id"]
    computed = table.computed_at.isoformat(timespec="seconds")
    for row in table.rows:
        value = None if row.value is None else Decimal(row.value) / 1000
        yield [row.rank, row.name, value, row.results, row.last_day.isoformat(), computed, row.player_id]
