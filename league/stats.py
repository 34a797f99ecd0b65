"""What the public pages derive from replays: the hand log in words and the
players' hand statistics.

A seat's statistics come from its game's replay (:func:`seat_hand_stats`);
the services store them on the seat with every change to the game, and
:func:`player_stats` sums those snapshots in SQL. The game page replays its
game from prefetched rows (:func:`replay_prefetches`, ``Game.replay()``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.core.cache import cache
from django.db.models import Count, ExpressionWrapper, F, IntegerField, Max, Prefetch, Q, QuerySet, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league import stamps
from league.engine_words import abort_reason_text, unreplayable_text
from league.entry.pricing import Unreplayable, replay_stored
from league.exports import records_of
from league.models import WIND_NAMES, Game, Hand, Penalty, Player, Seat, Series, counting
from league.models.changes import rounds_since
from league.models.event import hidden_from
from league.models.games import columns_digest
from league.offline_assets import engine_zip
from scoring import game as sg
from scoring.game import TransferKind


def replay_prefetches() -> tuple[Prefetch, ...]:
    """What a replay and the game page read, in four queries whatever the number of games."""
    return (
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat")),
        Prefetch("hands", queryset=Hand.objects.prefetch_related("wins").order_by("number")),
        Prefetch("penalties", queryset=Penalty.objects.filter(cancelled_at=None)),
    )


@dataclass(frozen=True)
class RefusedGame:
    """A counted game of a series with a stored hand the engine now refuses."""

    game_id: int
    round: int
    table: str
    refused: Unreplayable

    @property
    def text(self) -> str:
        return unreplayable_text(self.refused)


REFUSED_CACHE_SECONDS = 600  # the stamps are in the key: the timeout bounds how long a row edited behind the
# services' back (which moves no stamp) goes unnamed


def refused_games(series: Series, *, public: bool = False) -> tuple[RefusedGame, ...]:
    """The counted games of ``series`` with a stored hand the engine now
    refuses (a preset's rules changed in code, a row changed in the
    database), in round and table order. The standings count such a game as
    it was last settled (its seats' snapshot, which the table signed) and
    every surface that shows them names it (docs/standings.md); ``public``
    leaves out the rounds whose results the director hides.

    Cached under the series' results stamp and the offline engine's ETag (a
    digest of the engine's and the entry's code, so a deploy that changes a
    preset is seen at once). Computing it again reads the counted games'
    rows (one query) and replays only the games whose check is not kept
    (``_refused_games``): a game finished since, or one whose hands moved.
    """
    etag = engine_zip().etag
    key = f"refused-games:{series.pk}:{stamps.results_token(series.pk)}:{etag}"
    found: tuple[RefusedGame, ...] = cache.get_or_set(key, lambda: _refused_games(series, etag), REFUSED_CACHE_SECONDS)
    hidden = hidden_from(series) if public else None
    return found if hidden is None else tuple(g for g in found if g.round < hidden)


def _refused_games(series: Series, etag: str) -> tuple[RefusedGame, ...]:
    # Each game's check is kept on its own, under what it is computed from: the
    # game's inputs' version (every write of its hands or penalties moves it),
    # its record's columns and the engine; a game whose check is kept is not
    # read again. At an event, each game's finish moves the results stamp:
    # without this every finish replayed every finished game of the series.
    # Plain rows (``exports.records_of``), not model instances: the same
    # record as ``Game.record`` replayed by the same ``replay_stored`` as
    # ``Game.replay``, at a quarter of the cost.
    games = list(Game.objects.filter(counting(series), series=series, hands__isnull=False).distinct()
                 .order_by("round_number", "table", "pk")
                 .values_list("pk", "round_number", "table", "rules", "end", "final_scores", "final_riichi_sticks",
                              "inputs_version"))
    keys = {g[0]: _check_key(g, etag) for g in games}
    kept = cache.get_many(list(keys.values()))
    todo = [g for g in games if keys[g[0]] not in kept]
    checked: dict[str, Unreplayable | None] = {}
    if todo:
        records = records_of((pk, *columns) for pk, _round, _table, *columns, _version in todo)
        for pk, record in records.items():
            checked[keys[pk]] = replay_stored(record).refused
        # None is what a miss reads as: a game without a refused hand is kept as ().
        cache.set_many({k: () if v is None else v for k, v in checked.items()}, REFUSED_CACHE_SECONDS)
    out = []
    for pk, round_number, table, *_rest in games:
        refused = checked[keys[pk]] if keys[pk] in checked else kept[keys[pk]] or None
        if refused is not None:
            out.append(RefusedGame(pk, round_number, table, refused))
    return tuple(out)


def _check_key(game: tuple[Any, ...], etag: str) -> str:
    """A game's check's key: the game, its inputs' version, a digest of its
    record's columns (rules, end, end scores and sticks) and the engine."""
    pk, _round, _table, rules, end, final_scores, sticks, version = game
    return f"refused-game:{pk}:{version}:{columns_digest((rules, end, final_scores, sticks))}:{etag}"


# -- the hand log ------------------------------------------------------------------


def amount(points: int) -> str:
    """Table points with thousands separators: 5200 -> "5,200"."""
    return f"{points:,}"


def value_text(win: sg.Win | sg.Tsumo) -> str:
    """What a win was worth: "3 han 40 fu", "yakuman", "2x yakuman"."""
    if win.yakuman:
        return _("yakuman") if win.yakuman == 1 else _("%(n)dx yakuman") % {"n": win.yakuman}
    if win.fu:
        return _("%(han)d han %(fu)d fu") % {"han": win.han, "fu": win.fu}
    return _("%(han)d han") % {"han": win.han}


def _paid(transfers: Sequence[sg.Transfer], *, receiver: int, kind: TransferKind) -> list[sg.Transfer]:
    return [t for t in transfers if t.receiver == receiver and t.kind == kind]


def describe_hand(hand: sg.PlayedHand, seat_names: Sequence[str] = WIND_NAMES) -> str:
    """What happened, in words, with every amount taken from the hand's transfers.

    Seats are named by ``seat_names`` (the winds they started the game in):
    "South ron East, 3 han 40 fu, 5,200 + 300"; "West tsumo, 2 han 30 fu,
    500/1,000 + 100 each"; "Ryuukyoku, tenpai East, noten payments 3,000".
    Riichi sticks collected by a winner follow ("+ 2,000 in sticks"). In the
    page's language: amounts keep their digits, the words are translated.
    """
    outcome, transfers = hand.input.outcome, hand.result.transfers
    name = seat_names.__getitem__
    parts: list[str] = []
    if isinstance(outcome, sg.Ron):
        for win in outcome.wins:
            paid = _paid(transfers, receiver=win.winner, kind=TransferKind.HAND)
            honba = sum(t.amount for t in _paid(transfers, receiver=win.winner, kind=TransferKind.HONBA))
            pays = " + ".join(amount(t.amount) for t in paid) if len(paid) > 1 else amount(sum(t.amount for t in paid))
            if honba:
                pays += f" + {amount(honba)}"
            text = _("%(winner)s ron %(loser)s, %(value)s, %(paid)s") % {
                "winner": name(win.winner), "loser": name(outcome.loser), "value": value_text(win), "paid": pays}
            if len(paid) > 1 and win.pao is not None:
                text += _(" (pao: %(who)s pays half)") % {"who": name(win.pao)}
            parts.append(text + _sticks(transfers, win.winner))
    elif isinstance(outcome, sg.Tsumo):
        winner = outcome.winner
        paid = _paid(transfers, receiver=winner, kind=TransferKind.HAND)
        honba = _paid(transfers, receiver=winner, kind=TransferKind.HONBA)
        if outcome.pao is not None:
            pays = _("%(amount)s from %(who)s (pao)") % {
                "amount": amount(sum(t.amount for t in paid)), "who": name(outcome.pao)}
            if honba:
                pays += f" + {amount(sum(t.amount for t in honba))}"
        else:
            dealer_pays = [t.amount for t in paid if t.payer == hand.dealer]
            others_pay = sorted({t.amount for t in paid if t.payer != hand.dealer})
            if winner == hand.dealer or dealer_pays == others_pay:
                pays = _("%(amount)s all") % {"amount": amount(others_pay[0])}
            else:
                pays = f"{amount(others_pay[0])}/{amount(dealer_pays[0])}"
            if honba:
                pays += _(" + %(amount)s each") % {"amount": amount(honba[0].amount)}
        text = _("%(winner)s tsumo, %(value)s, %(paid)s") % {
            "winner": name(winner), "value": value_text(outcome), "paid": pays}
        parts.append(text + _sticks(transfers, winner))
    elif isinstance(outcome, sg.Draw):
        if outcome.nagashi:
            for seat in outcome.nagashi:
                got = sum(t.amount for t in _paid(transfers, receiver=seat, kind=TransferKind.NAGASHI))
                parts.append(_("Ryuukyoku, %(who)s nagashi mangan, %(amount)s") % {
                    "who": name(seat), "amount": amount(got)})
        else:
            tenpai = _(", ").join(str(name(s)) for s in sorted(outcome.tenpai))
            text = _("Ryuukyoku, tenpai %(who)s") % {"who": tenpai} if tenpai else _("Ryuukyoku, all noten")
            noten = sum(t.amount for t in transfers if t.kind == TransferKind.NOTEN)
            if noten:
                text += _(", noten payments %(amount)s") % {"amount": amount(noten)}
            parts.append(text)
    elif isinstance(outcome, sg.Abort):
        parts.append(_("Abortive draw, %(reason)s") % {"reason": abort_reason_text(outcome.reason)})
    else:
        paid = sum(t.amount for t in transfers if t.kind == TransferKind.CHOMBO)
        text = _("Chombo by %(who)s") % {"who": name(outcome.offender)}
        if paid:
            text += _(", pays %(amount)s (reverse mangan)") % {"amount": amount(paid)}
        else:
            text += _(", penalty after uma") + "".join(
                f" {p.points / 1000:+.1f}" for p in hand.result.penalties if p.seat == outcome.offender
            )
        parts.append(text)
    return _("; ").join(parts)


def _sticks(transfers: Sequence[sg.Transfer], winner: int) -> str:
    got = sum(t.amount for t in transfers if t.kind == TransferKind.STICKS and t.receiver == winner)
    return _(" + %(amount)s in sticks") % {"amount": amount(got)} if got else ""


@dataclass(frozen=True)
class LogRow:
    """One line of a game's hand log."""

    number: int
    round_label: str
    dealer: int
    honba: int
    riichi_sticks: int  # on the table when the hand started
    riichi: tuple[int, ...]
    text: str
    deltas: tuple[int, ...]  # one per seat: three or four
    scores: tuple[int, ...]  # after the hand
    note: str = ""

    @property
    def cells(self) -> list[tuple[int, int, bool]]:
        """(delta, score, declared riichi) per seat, for the template's loop."""
        return [(self.deltas[s], self.scores[s], s in self.riichi) for s in range(len(self.deltas))]


def hand_log(result: sg.GameResult, seat_names: Sequence[str] = WIND_NAMES) -> list[LogRow]:
    return [
        LogRow(
            number=h.number, round_label=h.round_label, dealer=h.dealer, honba=h.honba,
            riichi_sticks=h.riichi_sticks, riichi=tuple(sorted(h.input.riichi)), text=describe_hand(h, seat_names),
            deltas=h.deltas, scores=h.scores, note=h.input.note or "",
        )
        for h in result.hands
    ]


# -- player statistics ----------------------------------------------------------


@dataclass
class HandStats:
    """Counts over the hands some seats played; rates and averages derived.

    ``win_value`` and ``deal_in_value`` are the hand's value (its han and fu
    payment), without honba and riichi sticks, so they compare across tables.
    """

    hands: int = 0
    wins: int = 0
    tsumo_wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    win_value: int = 0
    deal_in_value: int = 0
    wins_with_tiles: int = 0  # wins whose tiles were kept: the call rate's base
    open_wins: int = 0
    games: int = 0
    place_sum: int = 0
    top_two: int = 0  # finished games ended 1st or 2nd
    fourths: int = 0  # finished games ended 4th

    def add(self, other: HandStats) -> None:
        for f in self.__dataclass_fields__:
            setattr(self, f, getattr(self, f) + getattr(other, f))

    @staticmethod
    def _rate(n: int, d: int) -> float | None:
        return n / d if d else None

    @property
    def win_rate(self) -> float | None:
        return self._rate(self.wins, self.hands)

    @property
    def deal_in_rate(self) -> float | None:
        return self._rate(self.deal_ins, self.hands)

    @property
    def riichi_rate(self) -> float | None:
        return self._rate(self.riichi, self.hands)

    @property
    def tsumo_rate(self) -> float | None:
        """Share of wins by tsumo."""
        return self._rate(self.tsumo_wins, self.wins)

    @property
    def open_win_rate(self) -> float | None:
        """Share of wins with an open meld, among wins whose tiles were kept.

        Not a call rate: calls in hands the seat did not win are not recorded."""
        return self._rate(self.open_wins, self.wins_with_tiles)

    @property
    def average_win(self) -> float | None:
        return self._rate(self.win_value, self.wins)

    @property
    def average_deal_in(self) -> float | None:
        return self._rate(self.deal_in_value, self.deal_ins)

    @property
    def average_place(self) -> float | None:
        return self._rate(self.place_sum, self.games)

    @property
    def top_two_rate(self) -> float | None:
        """Share of finished games ended 1st or 2nd (a shared 2nd counts)."""
        return self._rate(self.top_two, self.games)

    @property
    def fourth_avoidance_rate(self) -> float | None:
        """Share of finished games not ended 4th."""
        return None if not self.games else 1 - self.fourths / self.games


OPEN_MELDS = frozenset({"chi", "pon", "kan", "shouminkan"})  # an ankan keeps the hand closed


def _win_tiles(tiles: Any, index: int) -> Mapping[str, Any] | None:
    """Kept tiles of the ``index``-th win: a list with one entry per win (log
    imports) or a single ``{"tiles", "melds"}`` for a one-winner hand."""
    if isinstance(tiles, list):
        entry = tiles[index] if index < len(tiles) else None
    else:
        entry = tiles if index == 0 else None
    return entry if isinstance(entry, Mapping) and entry.get("tiles") else None


def _open(kept: Mapping[str, Any]) -> bool:
    """Whether kept tiles show an open meld; detail of another shape shows none."""
    melds = kept.get("melds")
    return isinstance(melds, list) and any(
        isinstance(m, Mapping) and isinstance(m.get("type"), str) and m["type"] in OPEN_MELDS for m in melds
    )


def seat_hand_stats(result: sg.GameResult, seat: int) -> HandStats:
    """What ``seat`` did in the hands of one replayed game."""
    st = HandStats()
    for h in result.hands:
        st.hands += 1
        outcome, transfers = h.input.outcome, h.result.transfers
        st.riichi += seat in h.input.riichi
        winners: list[int] = []
        if isinstance(outcome, sg.Ron):
            winners = [w.winner for w in outcome.wins]
            if outcome.loser == seat:
                st.deal_ins += 1
                st.deal_in_value += sum(
                    t.amount for t in transfers if t.payer == seat and t.kind == TransferKind.HAND
                )
        elif isinstance(outcome, sg.Tsumo):
            winners = [outcome.winner]
            st.tsumo_wins += outcome.winner == seat
        if seat in winners:
            st.wins += 1
            st.win_value += sum(t.amount for t in _paid(transfers, receiver=seat, kind=TransferKind.HAND))
            kept = _win_tiles(h.input.tiles, winners.index(seat))
            if kept is not None:
                st.wins_with_tiles += 1
                st.open_wins += _open(kept)
    return st


@dataclass
class PlayerStats:
    player: HandStats = field(default_factory=HandStats)
    series: HandStats = field(default_factory=HandStats)  # every seat of every game


# The counts of HandStats that Seat keeps as its statistics snapshot.
SEAT_STAT_FIELDS = (
    "hands", "wins", "tsumo_wins", "deal_ins", "riichi", "win_value", "deal_in_value", "wins_with_tiles", "open_wins",
)


def player_stats(series: Series, player_id: int) -> PlayerStats:
    """The player's hand statistics next to the whole series', summed from
    the seats' statistics snapshots.

    Places count finished games only; hands count every hand played.
    """
    return PlayerStats(
        player=total(finished_stats(series, player_id), live_stats(series, player_id)),
        series=total(finished_stats(series), live_stats(series)),
    )


def finished_stats(series: Series, player_id: int | None = None) -> HandStats:
    """The statistics of the series' finished games (one player's, if given):
    what changes only with a result, so the pages cache it under the results."""
    seats = Seat.objects.filter(game__series=series, game__status=Game.Status.FINISHED)
    return _sum_stats(seats if player_id is None else seats.filter(player_id=player_id))


class PlayerFinished(NamedTuple):
    """A player's finished games in a series: their statistics (as
    ``finished_stats``), and the games and points that count in the table
    (``counting``: signed off, where the series asks for it)."""

    stats: HandStats
    counted_games: int
    counted_total: int


def finished_by_player(series: Series) -> dict[int, PlayerFinished]:
    """``finished_stats`` of every player at once, with what ranks them, in one
    query: the series' statistics are the sum of the players', and a player's
    rank needs only everyone's counted games and total (league.standings.season
    ``league_standing``)."""
    return _by_player(_finished_groups(series))


# Rounds per block of ``_finished_groups``: a change of results reads its block again.
ROUND_BLOCK = 32
BASES_KEPT = 64  # series whose last computation this process keeps


class _FinishedBase(NamedTuple):
    change: tuple[int, str] | None  # the last note read before the groups
    groups: dict[int, list[dict[str, Any]]]  # block -> its groups


# The last computation per series, in this process, as objects: pickling it
# through the shared cache cost more than reading the block again.
_FINISHED_BASES: dict[int, _FinishedBase] = {}
_KEEPING = threading.Lock()


def forget_bases() -> None:
    """Drop this process's last computations (``finished_by_player_from_last``)."""
    _FINISHED_BASES.clear()


def finished_by_player_from_last(series: Series) -> dict[int, PlayerFinished]:
    """``finished_by_player``, starting from the last computation: only the
    blocks of rounds a change noted since touched are read again
    (``league.models.changes``). Anything else (a change not described, no
    computation kept) reads every seat."""
    base = _FINISHED_BASES.get(series.pk)
    dirty, change = rounds_since(series.pk, base.change if base is not None else None)
    groups: dict[int, list[dict[str, Any]]] | None = None
    if dirty is not None and base is not None:
        blocks = {r // ROUND_BLOCK for r in dirty}
        groups = {b: v for b, v in base.groups.items() if b not in blocks}
        for g in _finished_groups(series, blocks=blocks) if blocks else ():
            groups.setdefault(g["block"], []).append(g)
    if groups is None:
        groups = {}
        for g in _finished_groups(series):
            groups.setdefault(g["block"], []).append(g)
    with _KEEPING:  # a threaded server: one change of the dict's size at a time
        _FINISHED_BASES.pop(series.pk, None)
        _FINISHED_BASES[series.pk] = _FinishedBase(change, groups)
        while len(_FINISHED_BASES) > BASES_KEPT:  # the oldest first
            _FINISHED_BASES.pop(next(iter(_FINISHED_BASES)), None)
    return _by_player(g for v in groups.values() for g in v)


def _finished_groups(series: Series, *, blocks: set[int] | None = None) -> list[dict[str, Any]]:
    """The finished seats (of the blocks of rounds ``blocks``, if given) summed per player and block."""
    sums: dict[str, Any] = {name: Sum(name) for name in SEAT_STAT_FIELDS}
    sums.update(PLACE_SUMS)
    counted = counting(series, prefix="game__")
    seats = Seat.objects.filter(game__series=series, game__status=Game.Status.FINISHED)
    if blocks is not None:
        within = Q()
        for b in sorted(blocks):
            within |= Q(game__round_number__gte=b * ROUND_BLOCK, game__round_number__lt=(b + 1) * ROUND_BLOCK)
        seats = seats.filter(within)
    # A round number is never negative: integer division in SQL is Python's //.
    block = ExpressionWrapper(F("game__round_number") / ROUND_BLOCK, output_field=IntegerField())
    return list(
        seats.annotate(block=block).values("player_id", "block")
        .annotate(**sums, seats=Count("id"), counted_games=Count("id", filter=counted),
                  counted_total=Sum("points", filter=counted))
        .order_by()
    )


def _by_player(groups: Iterable[dict[str, Any]]) -> dict[int, PlayerFinished]:
    fields = (*SEAT_STAT_FIELDS, *PLACE_SUMS)
    sums: dict[int, dict[str, int]] = {}
    for g in groups:
        into = sums.get(g["player_id"])
        if into is None:
            into = sums[g["player_id"]] = dict.fromkeys((*fields, "counted_games", "counted_total"), 0)
        for n in fields:
            into[n] += g[n] or 0
        into["counted_games"] += g["counted_games"]
        into["counted_total"] += g["counted_total"] or 0
    return {
        pid: PlayerFinished(HandStats(**{n: r[n] for n in fields}), r["counted_games"], r["counted_total"])
        for pid, r in sums.items()
    }


def live_stats(series: Series, player_id: int | None = None) -> HandStats:
    """The statistics of the games being played (few rows: the status is indexed)."""
    seats = Seat.objects.filter(game__series=series, game__status=Game.Status.IN_PROGRESS)
    return _sum_stats(seats if player_id is None else seats.filter(player_id=player_id))


def total(*parts: HandStats) -> HandStats:
    out = HandStats()
    for part in parts:
        out.add(part)
    return out


def _sum_stats(seats: QuerySet[Seat]) -> HandStats:
    sums: dict[str, Any] = {name: Sum(name) for name in SEAT_STAT_FIELDS}
    sums.update(PLACE_SUMS)
    row = seats.aggregate(**sums)
    return HandStats(**{n: row[n] or 0 for n in (*SEAT_STAT_FIELDS, *PLACE_SUMS)})


# What the places of finished seats add to HandStats, as aggregates over seats.
PLACE_SUMS: dict[str, Any] = {
    "games": Count("id", filter=Q(place__isnull=False)),  # a game in progress has no place yet
    "place_sum": Sum("place"),
    "top_two": Count("id", filter=Q(place__lte=2)),
    "fourths": Count("id", filter=Q(place=4)),
}


@dataclass(frozen=True)
class StatColumn:
    """A rate the standings can show as a column: its name in the table,
    its heading, what it counts (the legend under the table), the HandStats
    property it reads, and whether a first click sorts it highest first."""

    name: str
    heading: str
    definition: str
    attr: str
    descending: bool = True


# The main rates a player compares, as optional standings columns.
STANDINGS_STATS = (
    StatColumn("win_rate", gettext_lazy("Win %"), gettext_lazy("hands won, of hands played"), "win_rate"),
    StatColumn("deal_in_rate", gettext_lazy("Deal-in %"),
               gettext_lazy("hands dealt in (the winning tile discarded), of hands played"),
               "deal_in_rate", descending=False),
    StatColumn("riichi_rate", gettext_lazy("Riichi %"), gettext_lazy("hands with riichi declared, of hands played"),
               "riichi_rate"),
    StatColumn("top_two_rate", gettext_lazy("Top-two %"), gettext_lazy("finished games ended 1st or 2nd"),
               "top_two_rate"),
    StatColumn("fourth_avoidance_rate", gettext_lazy("No-4th %"),
               gettext_lazy("finished games not ended 4th (fourth avoidance)"), "fourth_avoidance_rate"),
)


def stats_by_player(seats: QuerySet[Seat]) -> dict[int, HandStats]:
    """Each player's statistics over ``seats``, from the stored snapshots in
    one query (the standings' optional columns); nothing is replayed."""
    sums: dict[str, Any] = {name: Sum(name) for name in SEAT_STAT_FIELDS}
    rows = seats.values("player_id").annotate(**sums, **PLACE_SUMS).order_by()
    return {
        r["player_id"]: HandStats(**{n: r[n] or 0 for n in (*SEAT_STAT_FIELDS, *PLACE_SUMS)}) for r in rows
    }


def across_series_rows(player: Player) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    """The player's counted games per series (newest first) and overall, as
    the across-series page and the API show them; None without any. One
    aggregate query; rounds a director hides are left out."""
    shown = Q(game__series__event__hidden_from_round__isnull=True) | Q(
        game__round_number__lt=F("game__series__event__hidden_from_round")
    )
    rows = list(
        Seat.objects.filter(counting(prefix="game__"), shown, player=player)
        .values("game__series_id", "game__series__name", "game__series__slug", "game__series__start_date",
                "game__series__kind")
        .annotate(
            games=Count("id"), total=Sum("points"), place_sum=Sum("place"), last=Max("game__finished_at"),
            hidden=Max("game__series__event__hidden_from_round"),
            **{f"places_{n}": Count("id", filter=Q(place=n)) for n in (1, 2, 3, 4)},
        )
        .order_by("-last", "game__series__name")
    )
    if not rows:
        return None
    # A three-player series has no fourth place: its row shows "-" there.
    seats = {s.pk: s.ruleset().players for s in
             Series.objects.filter(pk__in={r["game__series_id"] for r in rows}).only("pk", "rules")}
    series_rows = [_series_row(r, seats[r["game__series_id"]]) for r in rows]
    overall = {
        "games": sum(r["games"] for r in series_rows),
        "total": sum(r["total"] for r in series_rows),
        "places": [sum(r["places"][k] for r in series_rows) for k in range(4)],
        "place_sum": sum(r["place_sum"] for r in series_rows),
    }
    overall["average_place"] = overall["place_sum"] / overall["games"]
    overall["average_points"] = _average(overall["total"], overall["games"])
    return series_rows, overall


def _series_row(r: dict[str, Any], seats: int = 4) -> dict[str, Any]:
    return {
        "name": r["game__series__name"], "slug": r["game__series__slug"], "id": r["game__series_id"],
        "start_date": r["game__series__start_date"], "kind": r["game__series__kind"],
        "games": r["games"], "total": r["total"], "place_sum": r["place_sum"],
        "average_points": _average(r["total"], r["games"]), "average_place": r["place_sum"] / r["games"],
        "places": [r[f"places_{n}"] for n in (1, 2, 3, 4)],
        "places_shown": [str(r[f"places_{n}"]) if n <= seats else "\u2013" for n in (1, 2, 3, 4)],
        "hidden": r["hidden"] is not None,  # its series page for the player redirects to the event page
    }


def _average(total: int, games: int) -> int:
    """Thousandths, rounded half away from zero (as the standings' average)."""
    q, rem = divmod(abs(total), games)
    q += 2 * rem >= games
    return q if total >= 0 else -q
