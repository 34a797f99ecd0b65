"""One hand (kyoku) at a time, and a whole game by replaying its hands.

Seats are 0-3 in the order the players sat at the start; seat 0 is the first
dealer. Rounds are numbered 0 (E1) to 11 (W4). All amounts are table points.

>>> from scoring.rules import get_ruleset
>>> ari = get_ruleset("ari-ari")
>>> r = settle_kyoku(ari, dealer=0, honba=1, riichi_sticks=1, riichi=(2,),
...                  outcome=Ron(loser=1, wins=(Win(winner=2, han=3, fu=40),)))
>>> r.deltas  # 5,200 + 300 honba from seat 1; seat 2 paid a stick and takes 2
(0, -5500, 6500, 0)
>>> r.honba, r.riichi_sticks, r.dealer_keeps
(0, 0, False)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import GameError, HandError, ScoringError
from .payment import hand_payment
from .rules import (
    RIICHI_STICK,
    MultipleRon,
    MultiRonBonus,
    MultiRonSticks,
    NotenRiichi,
    PaoHonba,
    Ruleset,
    Yame,
    get_ruleset,
)
from .rules import Chombo as ChomboRule
from .settlement import Penalty, Settlement, check_replacements, settle

SEATS = (0, 1, 2, 3)
MAX_STICKS = 100  # far more riichi sticks than any table has seen left over
WINDS = ("E", "S", "W", "N")
WIND_NAMES = ("East", "South", "West", "North")


def round_label(index: int) -> str:
    """E1..E4, S1..S4, W1..W4 (and N1..N4 should a game ever go that far).

    >>> round_label(0), round_label(7), round_label(8)
    ('E1', 'S4', 'W1')
    """
    return f"{WINDS[index // 4 % 4]}{index % 4 + 1}"


def parse_round_label(label: str) -> int:
    """The inverse of :func:`round_label`.

    >>> parse_round_label("S3")
    6
    """
    if len(label) != 2 or label[0] not in WINDS or label[1] not in "1234":
        raise GameError("invalid_round", f"a round is E1-E4, S1-S4 or W1-W4, not {label!r}", field="round")
    return WINDS.index(label[0]) * 4 + int(label[1]) - 1


class OutcomeType(enum.StrEnum):
    RON = "ron"
    TSUMO = "tsumo"
    DRAW = "draw"
    ABORT = "abort"
    CHOMBO = "chombo"


class AbortReason(enum.StrEnum):
    KYUUSHU_KYUUHAI = "kyuushu_kyuuhai"
    SUUFON_RENDA = "suufon_renda"
    SUUCHA_RIICHI = "suucha_riichi"
    SUUKAIKAN = "suukaikan"
    SANCHAHOU = "sanchahou"


class EndReason(enum.StrEnum):
    """Why a game ended."""

    ALL_LAST = "all_last"  # the last regular hand passed the deal
    BUST = "bust"  # a score went below zero
    AGARI_YAME = "agari_yame"  # the all-last dealer won while first
    TENPAI_YAME = "tenpai_yame"  # the all-last dealer was tenpai while first
    TARGET = "target"  # extension: someone reached the target
    EXTENSION_CAP = "extension_cap"  # the last extension hand passed the deal
    EARLY = "early"  # staff ended the game (time)
    FINAL_SCORES = "final_scores"  # a game kept by its end scores only


# -- outcomes ------------------------------------------------------------


# The value objects built for every hand read or replayed (a hand's input,
# a transfer, a hand's result, a table state, a played hand, the game) fill
# their __dict__ in one step instead of the frozen dataclass __init__'s
# object.__setattr__ per field (about half the cost each), as
# scoring.hand's Situation does: the same fields, defaults and immutability
# (tests/scoring/test_game.py checks each signature against its fields).
_set = object.__setattr__


@dataclass(frozen=True, init=False)
class Win:
    """One winner of a ron: han and fu, or a yakuman count; ``pao`` is the liable seat."""

    winner: int
    han: int = 0
    fu: int | None = None
    yakuman: int = 0
    pao: int | None = None

    def __init__(self, winner: int, han: int = 0, fu: int | None = None, yakuman: int = 0,
                 pao: int | None = None) -> None:
        _set(self, "__dict__", {"winner": winner, "han": han, "fu": fu, "yakuman": yakuman, "pao": pao})


@dataclass(frozen=True, init=False)
class Ron:
    loser: int
    wins: tuple[Win, ...]
    type = OutcomeType.RON

    def __init__(self, loser: int, wins: tuple[Win, ...]) -> None:
        _set(self, "__dict__", {"loser": loser, "wins": wins})


@dataclass(frozen=True, init=False)
class Tsumo:
    winner: int
    han: int = 0
    fu: int | None = None
    yakuman: int = 0
    pao: int | None = None
    type = OutcomeType.TSUMO

    def __init__(self, winner: int, han: int = 0, fu: int | None = None, yakuman: int = 0,
                 pao: int | None = None) -> None:
        _set(self, "__dict__", {"winner": winner, "han": han, "fu": fu, "yakuman": yakuman, "pao": pao})


@dataclass(frozen=True)
class Draw:
    """Exhaustive draw (ryuukyoku): who was tenpai, who made nagashi mangan."""

    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    type = OutcomeType.DRAW


@dataclass(frozen=True)
class Abort:
    reason: AbortReason
    type = OutcomeType.ABORT


@dataclass(frozen=True)
class Chombo:
    offender: int
    type = OutcomeType.CHOMBO


Outcome = Ron | Tsumo | Draw | Abort | Chombo


@dataclass(frozen=True, init=False)
class HandInput:
    """What happened at the table. ``riichi``: seats whose stick was paid this hand.

    ``tiles``, ``yaku`` and ``note`` travel with the hand but do not change it.
    """

    outcome: Outcome
    riichi: tuple[int, ...] = ()
    tiles: Any = None
    yaku: Any = None
    note: str | None = None

    def __init__(self, outcome: Outcome, riichi: tuple[int, ...] = (), tiles: Any = None, yaku: Any = None,
                 note: str | None = None) -> None:
        _set(self, "__dict__", {"outcome": outcome, "riichi": riichi, "tiles": tiles, "yaku": yaku, "note": note})


class TransferKind(enum.StrEnum):
    HAND = "hand"
    HONBA = "honba"
    RIICHI = "riichi"  # a stick into the pot
    STICKS = "sticks"  # the pot to a winner
    NOTEN = "noten"
    NAGASHI = "nagashi"
    CHOMBO = "chombo"


@dataclass(frozen=True, init=False)
class Transfer:
    """One payment; ``None`` as payer or receiver is the pot of riichi sticks."""

    payer: int | None
    receiver: int | None
    amount: int
    kind: TransferKind

    def __init__(self, payer: int | None, receiver: int | None, amount: int, kind: TransferKind) -> None:
        _set(self, "__dict__", {"payer": payer, "receiver": receiver, "amount": amount, "kind": kind})


@dataclass(frozen=True, init=False)
class KyokuResult:
    """Deltas of one hand and the table state the next hand starts with."""

    deltas: tuple[int, ...]
    honba: int
    riichi_sticks: int
    dealer_keeps: bool
    transfers: tuple[Transfer, ...] = ()
    penalties: tuple[Penalty, ...] = ()  # after-uma penalties this hand caused (chombo)
    chombo: tuple[int, ...] = ()  # seats whose chombo voided the hand (a Chombo, or a false riichi at a draw)

    def __init__(self, deltas: tuple[int, ...], honba: int, riichi_sticks: int, dealer_keeps: bool,
                 transfers: tuple[Transfer, ...] = (), penalties: tuple[Penalty, ...] = (),
                 chombo: tuple[int, ...] = ()) -> None:
        _set(self, "__dict__", {"deltas": deltas, "honba": honba, "riichi_sticks": riichi_sticks,
                                "dealer_keeps": dealer_keeps, "transfers": transfers, "penalties": penalties,
                                "chombo": chombo})


# -- one hand --------------------------------------------------------------


def _seat(value: Any, fieldname: str, players: int = 4) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise HandError("invalid_seat", f"a seat is 0 to {players - 1}, not {value!r}", field=fieldname)
    return value


def _seats(values: Any, fieldname: str, players: int = 4) -> tuple[int, ...]:
    if not isinstance(values, (list, tuple)):
        raise HandError("invalid_seat", f"{fieldname} must be a list of seats", field=fieldname)
    out = tuple(_seat(v, f"{fieldname}[{i}]", players) for i, v in enumerate(values))
    if len(set(out)) != len(out):
        raise HandError("duplicate_seat", f"{fieldname} lists a seat twice", field=fieldname)
    return out


class _Ledger:
    def __init__(self, players: int = 4) -> None:
        self.deltas = [0] * players
        self.transfers: list[Transfer] = []
        self.pot = 0  # change of the sticks on the table, in table points

    def pay(self, payer: int | None, receiver: int | None, amount: int, kind: TransferKind) -> None:
        if amount == 0:
            return
        if payer is None:
            self.pot -= amount
        else:
            self.deltas[payer] -= amount
        if receiver is None:
            self.pot += amount
        else:
            self.deltas[receiver] += amount
        self.transfers.append(Transfer(payer, receiver, amount, kind))


def _distance(loser: int, winner: int, players: int = 4) -> int:
    return (winner - loser) % players


def _mangan_tsumo_share(rules: Ruleset, receiver: int, payer: int, dealer: int) -> int:
    """What ``payer`` pays ``receiver`` for a mangan paid like a tsumo (nagashi, reverse-mangan chombo).

    With three players the ruleset's tsumo rule applies (tsumo loss: no North share).
    """
    if rules.players == 4:
        return 4000 if dealer in (receiver, payer) else 2000
    pay = hand_payment(rules, han=5, dealer=receiver == dealer, tsumo=True)
    if pay.tsumo_all is not None:
        return pay.tsumo_all
    amount = pay.tsumo_dealer if payer == dealer else pay.tsumo_non_dealer
    assert amount is not None
    return amount


def _check_pao(rules: Ruleset, pao: int | None, winner: int, yakuman: int, fieldname: str) -> None:
    if pao is None:
        return
    _seat(pao, f"{fieldname}.pao", rules.players)
    if pao == winner:
        raise HandError("invalid_pao", "the pao seat cannot be the winner", field=f"{fieldname}.pao")
    if not yakuman:
        raise HandError("invalid_pao", "pao applies only to a yakuman hand", field=f"{fieldname}.pao")
    if not rules.pao:
        raise HandError("invalid_pao", "this ruleset has no pao", field=f"{fieldname}.pao")


def _payment(rules: Ruleset, win: Win | Tsumo, *, dealer: int, tsumo: bool, fieldname: str):
    _seat(win.winner, f"{fieldname}.winner", rules.players)
    try:
        return hand_payment(
            rules, han=win.han, fu=win.fu, yakuman=win.yakuman, dealer=win.winner == dealer, tsumo=tsumo
        )
    except ScoringError as err:
        raise err.with_prefix(fieldname) from None


def settle_kyoku(
    rules: Ruleset,
    *,
    dealer: int,
    honba: int,
    riichi_sticks: int,
    riichi: Sequence[int] = (),
    outcome: Outcome,
) -> KyokuResult:
    """Settle one hand: per-seat deltas (riichi deposits included) and the next state.

    ``honba`` and ``riichi_sticks`` are on the table when the hand starts; the
    result carries what the next hand starts with. Deltas plus the change of
    sticks on the table always sum to zero.

    >>> from scoring.rules import get_ruleset
    >>> r = settle_kyoku(get_ruleset("ari-ari"), dealer=0, honba=2, riichi_sticks=0,
    ...                  outcome=Tsumo(winner=0, han=1, fu=30))
    >>> r.deltas, r.honba, r.dealer_keeps
    ((2100, -700, -700, -700), 3, True)
    >>> settle_kyoku(get_ruleset("ari-ari"), dealer=0, honba=0, riichi_sticks=0, riichi=(1,),
    ...              outcome=Draw(tenpai=(1, 2))).deltas
    (-1500, 500, 1500, -1500)
    """
    n = rules.players
    seats = rules.seats
    _seat(dealer, "dealer", n)
    if isinstance(honba, bool) or not isinstance(honba, int) or honba < 0:
        raise HandError("invalid_honba", f"honba must be 0 or more, not {honba!r}", field="honba")
    if isinstance(riichi_sticks, bool) or not isinstance(riichi_sticks, int) or riichi_sticks < 0:
        raise HandError("invalid_sticks", f"riichi_sticks must be 0 or more, not {riichi_sticks!r}", field="riichi_sticks")
    riichi = _seats(list(riichi), "riichi", n)
    ledger = _Ledger(n)
    table = riichi_sticks * RIICHI_STICK

    if isinstance(outcome, Chombo):
        return _chombo(rules, ledger, dealer, honba, riichi_sticks, (_seat(outcome.offender, "outcome.offender", n),))

    for seat in riichi:
        ledger.pay(seat, None, RIICHI_STICK, TransferKind.RIICHI)

    if isinstance(outcome, Ron):
        loser = _seat(outcome.loser, "outcome.loser", n)
        wins = outcome.wins
        if not isinstance(wins, (tuple, list)) or not wins:
            raise HandError("no_winner", "a ron needs at least one winner", field="outcome.wins")
        winners = [_seat(w.winner, f"outcome.wins[{i}].winner", n) for i, w in enumerate(wins)]
        if len(set(winners)) != len(winners):
            raise HandError("duplicate_seat", "a winner is listed twice", field="outcome.wins")
        if loser in winners:
            i = winners.index(loser)
            raise HandError("loser_is_winner", "the discarder cannot also be a winner", field=f"outcome.wins[{i}].winner")
        if len(wins) > 1 and rules.multiple_ron is MultipleRon.HEAD_BUMP:
            raise HandError(
                "multiple_ron_not_allowed",
                "this ruleset has head bump: only the winner nearest the discarder wins",
                field="outcome.wins",
            )
        if len(wins) == 3 and rules.triple_ron_aborts:
            raise HandError(
                "triple_ron_aborts",
                "under this ruleset a triple ron is the abortive draw sanchahou",
                field="outcome.wins",
            )
        nearest = min(winners, key=lambda w: _distance(loser, w, n))
        for i, win in enumerate(wins):
            name = f"outcome.wins[{i}]"
            _check_pao(rules, win.pao, win.winner, win.yakuman, name)
            value = _payment(rules, win, dealer=dealer, tsumo=False, fieldname=name).total
            liable = win.pao if win.pao is not None and win.pao != loser else None
            if liable is None:
                ledger.pay(loser, win.winner, value, TransferKind.HAND)
            else:
                ledger.pay(loser, win.winner, value // 2, TransferKind.HAND)
                ledger.pay(liable, win.winner, value - value // 2, TransferKind.HAND)
            if win.winner == nearest or rules.multi_ron_bonus is MultiRonBonus.HONBA_EACH:
                honba_payer = liable if liable is not None and rules.pao_ron_honba is PaoHonba.LIABLE else loser
                ledger.pay(honba_payer, win.winner, honba * rules.honba_ron, TransferKind.HONBA)
        if len(wins) > 1 and rules.multi_ron_sticks is MultiRonSticks.OWN_BACK:
            for winner in winners:
                if winner in riichi:
                    ledger.pay(None, winner, RIICHI_STICK, TransferKind.STICKS)
        ledger.pay(None, nearest, table + ledger.pot, TransferKind.STICKS)
        keeps = dealer in winners
        return _result(ledger, keeps, honba + 1 if keeps else 0, 0, riichi_sticks)

    if isinstance(outcome, Tsumo):
        winner = _seat(outcome.winner, "outcome.winner", n)
        _check_pao(rules, outcome.pao, winner, outcome.yakuman, "outcome")
        pay = _payment(rules, outcome, dealer=dealer, tsumo=True, fieldname="outcome")
        others = [s for s in seats if s != winner]
        if outcome.pao is not None:
            ledger.pay(outcome.pao, winner, pay.total, TransferKind.HAND)
            ledger.pay(outcome.pao, winner, len(others) * honba * rules.honba_tsumo, TransferKind.HONBA)
        else:
            for seat in others:
                if pay.tsumo_all is not None:
                    amount = pay.tsumo_all
                else:
                    amount = pay.tsumo_dealer if seat == dealer else pay.tsumo_non_dealer
                assert amount is not None
                ledger.pay(seat, winner, amount, TransferKind.HAND)
                ledger.pay(seat, winner, honba * rules.honba_tsumo, TransferKind.HONBA)
        ledger.pay(None, winner, table + ledger.pot, TransferKind.STICKS)
        keeps = winner == dealer
        return _result(ledger, keeps, honba + 1 if keeps else 0, 0, riichi_sticks)

    if isinstance(outcome, Draw):
        tenpai = _seats(list(outcome.tenpai), "outcome.tenpai", n)
        nagashi = _seats(list(outcome.nagashi), "outcome.nagashi", n)
        false_riichi = tuple(seat for seat in riichi if seat not in tenpai)
        if false_riichi:
            if rules.noten_riichi is NotenRiichi.REFUSED:
                i = riichi.index(false_riichi[0])
                raise HandError(
                    "riichi_not_tenpai",
                    f"seat {false_riichi[0]} declared riichi, so it must be tenpai at an exhaustive draw",
                    field=f"riichi[{i}]",
                )
            if rules.noten_riichi is NotenRiichi.CHOMBO:
                # The riichi sticks were never paid: the chombo voids the hand.
                return _chombo(rules, _Ledger(n), dealer, honba, riichi_sticks, false_riichi)
            # NOTEN_PAYMENT: the seat is noten like any other, and its stick,
            # paid above, stays on the table.
        if nagashi:
            if not rules.nagashi_mangan:
                raise HandError("nagashi_not_allowed", "this ruleset has no nagashi mangan", field="outcome.nagashi")
            # Paid like a mangan tsumo, in place of the noten payments.
            for seat in nagashi:
                for other in seats:
                    if other != seat:
                        amount = _mangan_tsumo_share(rules, seat, other, dealer)
                        ledger.pay(other, seat, amount, TransferKind.NAGASHI)
        elif 0 < len(tenpai) < n and rules.noten_total:
            noten = [s for s in seats if s not in tenpai]
            # Each noten seat pays its share to each tenpai seat.
            share = rules.noten_total // (len(tenpai) * len(noten))
            for payer in noten:
                for receiver in sorted(tenpai):
                    ledger.pay(payer, receiver, share, TransferKind.NOTEN)
        keeps = dealer in tenpai
        sticks = riichi_sticks + ledger.pot // RIICHI_STICK
        return _result(ledger, keeps, honba + 1, sticks, riichi_sticks)

    if isinstance(outcome, Abort):
        reason = outcome.reason
        if reason not in rules.abortive_draws:
            allowed = ", ".join(sorted(rules.abortive_draws)) or "none"
            raise HandError(
                "abort_not_allowed",
                f"this ruleset has no abortive draw {reason!r} (it allows: {allowed})",
                field="outcome.reason",
            )
        sticks = riichi_sticks + ledger.pot // RIICHI_STICK
        return _result(ledger, True, honba + 1, sticks, riichi_sticks)

    raise HandError("invalid_outcome", f"unknown outcome {outcome!r}", field="outcome")


def _chombo(rules: Ruleset, ledger: _Ledger, dealer: int, honba: int, riichi_sticks: int,
            offenders: tuple[int, ...]) -> KyokuResult:
    # The hand is void: no stick from it is paid, the same dealer deals again
    # with the same honba, and sticks already on the table stay. Each
    # offender pays as if alone.
    penalties: list[Penalty] = []
    for offender in offenders:
        if rules.chombo is not ChomboRule.PENALTY:
            for seat in rules.seats:
                if seat != offender:
                    amount = _mangan_tsumo_share(rules, seat, offender, dealer)
                    ledger.pay(offender, seat, amount, TransferKind.CHOMBO)
        if rules.chombo is not ChomboRule.REVERSE_MANGAN:
            penalties.append(Penalty(offender, -rules.chombo_penalty, "chombo"))
    return KyokuResult(tuple(ledger.deltas), honba, riichi_sticks, True, tuple(ledger.transfers), tuple(penalties),
                       offenders)  # type: ignore[arg-type]


def _result(ledger: _Ledger, keeps: bool, honba: int, sticks: int, old_sticks: int) -> KyokuResult:
    deltas = tuple(ledger.deltas)
    # Conservation: what the seats gained is what the table lost.
    assert sum(deltas) + (sticks - old_sticks) * RIICHI_STICK == 0, (deltas, sticks, old_sticks)
    return KyokuResult(deltas, honba, sticks, keeps, tuple(ledger.transfers))  # type: ignore[arg-type]


# -- a whole game ----------------------------------------------------------


@dataclass(frozen=True)
class FinalScores:
    """A game kept by its end scores only: scores and sticks left on the table."""

    scores: tuple[int, ...]
    riichi_sticks: int = 0


@dataclass(frozen=True, init=False)
class GameRecord:
    """Everything needed to replay and settle one game."""

    rules: Ruleset
    hands: tuple[HandInput, ...] = ()
    end: EndReason | None = None  # EARLY or AGARI_YAME, said by staff after the last hand
    penalties: tuple[Penalty, ...] = ()
    final: FinalScores | None = None
    players: tuple[str, ...] | None = None  # names in seat order; the league's, not used here
    replacements: tuple[int, ...] = ()  # seats a replacement played; settled per rules.replacement_result

    def __init__(self, rules: Ruleset, hands: tuple[HandInput, ...] = (), end: EndReason | None = None,
                 penalties: tuple[Penalty, ...] = (), final: FinalScores | None = None,
                 players: tuple[str, ...] | None = None, replacements: tuple[int, ...] = ()) -> None:
        _set(self, "__dict__", {"rules": rules, "hands": hands, "end": end, "penalties": penalties, "final": final,
                                "players": players, "replacements": replacements})


@dataclass(frozen=True, init=False)
class TableState:
    """Where the game stands before a hand."""

    round: int
    dealer: int
    honba: int
    riichi_sticks: int
    scores: tuple[int, ...]

    def __init__(self, round: int, dealer: int, honba: int, riichi_sticks: int, scores: tuple[int, ...]) -> None:
        _set(self, "__dict__", {"round": round, "dealer": dealer, "honba": honba, "riichi_sticks": riichi_sticks,
                                "scores": scores})

    @property
    def round_label(self) -> str:
        return round_label(self.round)


@dataclass(frozen=True, init=False)
class PlayedHand:
    """A hand as replayed: the state it started from, its result, the scores after it."""

    number: int  # 1-based
    start: TableState
    input: HandInput
    result: KyokuResult
    scores: tuple[int, ...]

    def __init__(self, number: int, start: TableState, input: HandInput, result: KyokuResult,
                 scores: tuple[int, ...]) -> None:
        _set(self, "__dict__", {"number": number, "start": start, "input": input, "result": result,
                                "scores": scores})

    @property
    def round(self) -> int:
        return self.start.round

    @property
    def round_label(self) -> str:
        return self.start.round_label

    @property
    def dealer(self) -> int:
        return self.start.dealer

    @property
    def honba(self) -> int:
        return self.start.honba

    @property
    def riichi_sticks(self) -> int:
        return self.start.riichi_sticks

    @property
    def deltas(self) -> tuple[int, ...]:
        return self.result.deltas


@dataclass(frozen=True, init=False)
class GameResult:
    rules: Ruleset
    hands: tuple[PlayedHand, ...]
    finished: bool
    ended_by: EndReason | None
    scores: tuple[int, ...]  # after the last hand, before leftover sticks
    riichi_sticks: int  # on the table after the last hand
    next: TableState | None  # the next hand's start, while the game goes on
    penalties: tuple[Penalty, ...] = ()  # the record's plus those chombo caused
    settlement: Settlement | None = None

    def __init__(self, rules: Ruleset, hands: tuple[PlayedHand, ...], finished: bool, ended_by: EndReason | None,
                 scores: tuple[int, ...], riichi_sticks: int, next: TableState | None,
                 penalties: tuple[Penalty, ...] = (), settlement: Settlement | None = None) -> None:
        _set(self, "__dict__", {"rules": rules, "hands": hands, "finished": finished, "ended_by": ended_by,
                                "scores": scores, "riichi_sticks": riichi_sticks, "next": next,
                                "penalties": penalties, "settlement": settlement})

    @property
    def next_round(self) -> int | None:
        return self.next.round if self.next else None

    @property
    def next_dealer(self) -> int | None:
        return self.next.dealer if self.next else None

    @property
    def next_honba(self) -> int | None:
        return self.next.honba if self.next else None


def _top(scores: Sequence[int]) -> int:
    """First place by score, ties to the seat nearer seat 0."""
    return min(range(len(scores)), key=lambda s: (-scores[s], s))


def _next_round(rules: Ruleset, index: int) -> int:
    """The round after ``index`` when the deal passes.

    Three players keep the four-player numbering, as Tenhou's logs do, so
    the dealer is always ``index % 4``: after E3 (2) comes S1 (4).

    >>> from scoring.rules import get_ruleset
    >>> _next_round(get_ruleset("tenhou-sanma"), 2), _next_round(get_ruleset("tenhou"), 2)
    (4, 3)
    """
    index += 1
    if index % 4 >= rules.players:
        index += 4 - index % 4
    return index


def _end_after(rules: Ruleset, start: TableState, outcome: Outcome, result: KyokuResult, scores: Sequence[int]) -> EndReason | None:
    """Does the game end after this hand? ``None`` if it goes on."""
    if rules.bust and any(s < 0 for s in scores):
        return EndReason.BUST
    if isinstance(outcome, (Abort, Chombo)) or result.chombo:
        return None  # an abortive draw or a chombo never ends a game by itself
    last = rules.last_regular_round
    if start.round < last:
        return None
    extension = start.round > last
    reached = any(s >= rules.target_points for s in scores)
    if result.dealer_keeps:
        if extension and reached:
            # Sudden death (our choice, see docs/rulesets.md): in the extension the game
            # ends once anyone has the target, even if the dealer keeps the deal.
            return EndReason.TARGET
        won = isinstance(outcome, (Ron, Tsumo))
        yame = rules.agari_yame if won else rules.tenpai_yame
        if yame is Yame.AUTO and _top(scores) == start.dealer and scores[start.dealer] >= rules.target_points:
            return EndReason.AGARI_YAME if won else EndReason.TENPAI_YAME
        return None
    if not rules.west_round:
        return EndReason.ALL_LAST
    if reached:
        return EndReason.TARGET if extension else EndReason.ALL_LAST
    if start.round >= rules.last_extension_round:
        return EndReason.EXTENSION_CAP
    return None


def replay(record: GameRecord, *, after: GameResult | None = None) -> GameResult:
    """Replay a game hand by hand; settle it if it is finished.

    Raises ScoringError with ``field`` naming the record's part at fault
    (``hands[3].outcome.wins[0].fu``); a hand after the end is ``game_over``.

    ``after`` is an earlier replay of the same game with fewer hands (a
    live preview's stored game, the record then one hand longer): the replay
    goes on from where it stopped instead of playing its hands again, and
    returns what replaying the whole record returns. It is used only when it
    is plainly that: not finished, the same rules and record penalties, its
    hands the record's first hands (the same objects); else it is ignored.

    >>> from scoring.rules import get_ruleset
    >>> g = replay(GameRecord(get_ruleset("ari-ari"), hands=(
    ...     HandInput(Tsumo(winner=0, han=3, fu=30)),
    ...     HandInput(Draw(tenpai=(1,))),
    ... )))
    >>> [(h.round_label, h.honba) for h in g.hands], g.scores, g.next.round_label
    ([('E1', 0), ('E1', 1)], (30000, 26000, 22000, 22000), 'E2')
    """
    rules = record.rules
    start = rules.start_points
    if record.replacements:
        check_replacements(record.replacements, players=rules.players)  # refused before any hand, finished or not
    if record.final is not None:
        return _replay_final(record)
    scores = [start] * rules.players
    round_index, honba, sticks = 0, 0, 0
    played: list[PlayedHand] = []
    penalties = list(record.penalties)
    if after is not None and after.next is not None and _goes_on_from(record, after):
        nxt = after.next
        scores, round_index, honba, sticks = list(nxt.scores), nxt.round, nxt.honba, nxt.riichi_sticks
        played, penalties = list(after.hands), list(after.penalties)
    ended_by: EndReason | None = None
    for i, hand in enumerate(record.hands[len(played):], start=len(played)):
        if ended_by is not None:
            raise GameError(
                "game_over",
                f"the game ended after hand {i} ({ended_by.value.replace('_', ' ')}); no hand can follow",
                field=f"hands[{i}]",
            )
        state = TableState(round_index, round_index % 4, honba, sticks, tuple(scores))  # type: ignore[arg-type]
        try:
            result = settle_kyoku(
                rules,
                dealer=state.dealer,
                honba=honba,
                riichi_sticks=sticks,
                riichi=hand.riichi,
                outcome=hand.outcome,
            )
        except ScoringError as err:
            raise err.with_prefix(f"hands[{i}]") from None
        if hand.riichi and not rules.riichi_below_1000:
            _check_riichi_points(hand.riichi, scores, i)
        scores = [s + d for s, d in zip(scores, result.deltas, strict=True)]
        penalties.extend(result.penalties)
        played.append(PlayedHand(i + 1, state, hand, result, tuple(scores)))  # type: ignore[arg-type]
        honba, sticks = result.honba, result.riichi_sticks
        ended_by = _end_after(rules, state, hand.outcome, result, scores)
        if not result.dealer_keeps:
            round_index = _next_round(rules, round_index)

    if record.end is not None:
        if ended_by is not None:
            raise GameError("end_not_possible", f"the game had already ended ({ended_by.value})", field="end")
        if record.end is EndReason.AGARI_YAME:
            _check_optional_yame(rules, played)
        ended_by = EndReason(record.end)
    final_scores = tuple(scores)
    if ended_by is None:
        nxt = TableState(round_index, round_index % 4, honba, sticks, final_scores)  # type: ignore[arg-type]
        return GameResult(rules, tuple(played), False, None, final_scores, sticks, nxt, tuple(penalties))  # type: ignore[arg-type]
    settlement = settle(rules, final_scores, sticks, penalties, record.replacements)
    return GameResult(rules, tuple(played), True, ended_by, final_scores, sticks, None, tuple(penalties), settlement)  # type: ignore[arg-type]


def _check_riichi_points(riichi: Sequence[int], scores: Sequence[int], index: int) -> None:
    """Under a ruleset without ``riichi_below_1000``, refuse a riichi by a
    seat that started the hand with fewer than 1,000 points (``riichi``
    already checked as seats by ``settle_kyoku``)."""
    for j, seat in enumerate(riichi):
        if scores[seat] < RIICHI_STICK:
            raise GameError(
                "riichi_below_1000",
                f"seat {seat} had {scores[seat]:,} points; under this ruleset riichi needs 1,000 or more",
                field=f"hands[{index}].riichi[{j}]",
            )


def _goes_on_from(record: GameRecord, after: GameResult) -> bool:
    """Is ``after`` the replay of ``record``'s first hands, unfinished?"""
    if after.finished or len(after.hands) > len(record.hands):
        return False
    if after.rules is not record.rules and after.rules != record.rules:
        return False
    if any(p.input is not h for p, h in zip(after.hands, record.hands, strict=False)):
        return False
    # Its penalties are its record's, then those its hands caused (chombo).
    caused = sum(len(p.result.penalties) for p in after.hands)
    return after.penalties[: len(after.penalties) - caused] == tuple(record.penalties)


def _check_optional_yame(rules: Ruleset, played: Sequence[PlayedHand]) -> None:
    last = played[-1] if played else None
    if last is None or last.round < rules.last_regular_round or not last.result.dealer_keeps:
        raise GameError("end_not_possible", "agari-yame needs the all-last dealer to have kept the deal", field="end")
    outcome = last.input.outcome
    won = isinstance(outcome, (Ron, Tsumo))
    if isinstance(outcome, (Abort, Chombo)) or last.result.chombo or (rules.agari_yame if won else rules.tenpai_yame) is Yame.NONE:
        raise GameError("end_not_possible", "this ruleset does not let the dealer stop after that hand", field="end")
    if _top(last.scores) != last.dealer or last.scores[last.dealer] < rules.target_points:
        raise GameError(
            "end_not_possible",
            f"agari-yame needs the dealer first with at least {rules.target_points:,}",
            field="end",
        )


def _replay_final(record: GameRecord) -> GameResult:
    rules, final = record.rules, record.final
    assert final is not None
    if record.hands:
        raise GameError("invalid_record", "a game kept by end scores has no hands", field="final")
    if record.end is not None:
        raise GameError("invalid_record", "a game kept by end scores has no end reason", field="end")
    from .settlement import _check_scores

    scores = _check_scores(final.scores, "final.scores", rules.players)
    sticks = final.riichi_sticks
    if isinstance(sticks, bool) or not isinstance(sticks, int) or not 0 <= sticks <= MAX_STICKS:
        raise GameError(
            "invalid_sticks", f"riichi_sticks must be 0 to {MAX_STICKS}, not {sticks!r}", field="final.riichi_sticks"
        )
    expected = rules.players * rules.start_points - sticks * RIICHI_STICK
    if sum(scores) != expected:
        raise GameError(
            "scores_do_not_add_up",
            f"end scores must sum to {expected:,} ({rules.players} x {rules.start_points:,} less {sticks} sticks), "
            f"they sum to {sum(scores):,}",
            field="final.scores",
        )
    settlement = settle(rules, scores, sticks, record.penalties, record.replacements)
    return GameResult(rules, (), True, EndReason.FINAL_SCORES, scores, sticks, None, record.penalties, settlement)


def play(rules: Ruleset | str, hands: Iterable[HandInput], **kwargs: Any) -> GameResult:
    """Shorthand: ``replay(GameRecord(get_ruleset(rules), tuple(hands), ...))``."""
    return replay(GameRecord(get_ruleset(rules), tuple(hands), **kwargs))


# -- JSON ----------------------------------------------------------------------


_OUTCOME_KEYS = {
    "ron": {"type", "loser", "wins"},
    "tsumo": {"type", "winner", "han", "fu", "yakuman", "pao"},
    "draw": {"type", "tenpai", "nagashi"},
    "abort": {"type", "reason"},
    "chombo": {"type", "offender"},
}
_WIN_KEYS = {"winner", "han", "fu", "yakuman", "pao"}
_HAND_KEYS = {"riichi", "outcome", "tiles", "yaku", "note"}
_RECORD_KEYS = {"op", "rules", "hands", "end", "penalties", "final", "players", "replacements"}


def _require_object(d: Any, fieldname: str) -> Mapping[str, Any]:
    if not isinstance(d, Mapping):
        raise HandError("invalid_request", f"{fieldname or 'the request'} must be a JSON object", field=fieldname or None)
    return d


def _check_keys(d: Mapping[str, Any], allowed: set[str], fieldname: str) -> None:
    for key in d:
        if key not in allowed:
            where = f"{fieldname}.{key}" if fieldname else key
            raise HandError("unknown_key", f"unknown key {key!r}", field=where)


def _int(d: Mapping[str, Any], key: str, fieldname: str, default: Any = None) -> Any:
    value = d.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise HandError("invalid_value", f"{key} must be a whole number, not {value!r}", field=f"{fieldname}.{key}")
    return value


def _value(d: Mapping[str, Any], fieldname: str) -> dict[str, Any]:
    han = _int(d, "han", fieldname, 0)
    fu = _int(d, "fu", fieldname)
    yakuman = _int(d, "yakuman", fieldname, 0)
    pao = d.get("pao")
    if yakuman and (han or fu is not None):
        raise HandError("invalid_value", "give han and fu, or yakuman, not both", field=f"{fieldname}.yakuman")
    if not yakuman and not han:
        raise HandError("fu_not_possible", "a win needs han (and fu), or yakuman", field=f"{fieldname}.han",
                        detail="han_missing")
    return {"han": han, "fu": fu, "yakuman": yakuman, "pao": pao}


def outcome_from_dict(d: Any, fieldname: str = "outcome") -> Outcome:
    """Parse an OUTCOME of the JSON interface, refusing unknown keys and types.

    >>> outcome_from_dict({"type": "ron", "loser": 1, "wins": [{"winner": 0, "han": 3, "fu": 40}]})
    Ron(loser=1, wins=(Win(winner=0, han=3, fu=40, yakuman=0, pao=None),))
    """
    d = _require_object(d, fieldname)
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in _OUTCOME_KEYS:  # a list or an object is unhashable
        raise HandError(
            "invalid_outcome",
            f"outcome type must be one of {', '.join(_OUTCOME_KEYS)}, not {kind!r}",
            field=f"{fieldname}.type",
        )
    _check_keys(d, _OUTCOME_KEYS[kind], fieldname)
    if kind == "ron":
        wins = d.get("wins")
        if not isinstance(wins, list) or not wins:
            raise HandError("no_winner", "a ron needs a list of one or more wins", field=f"{fieldname}.wins")
        parsed = []
        for i, w in enumerate(wins):
            name = f"{fieldname}.wins[{i}]"
            w = _require_object(w, name)
            _check_keys(w, _WIN_KEYS, name)
            if "winner" not in w:
                raise HandError("no_winner", "a win needs its winner", field=f"{name}.winner")
            parsed.append(Win(winner=w["winner"], **_value(w, name)))
        if "loser" not in d:
            raise HandError("no_loser", "a ron needs the loser (the discarder)", field=f"{fieldname}.loser")
        return Ron(loser=d["loser"], wins=tuple(parsed))
    if kind == "tsumo":
        if "winner" not in d:
            raise HandError("no_winner", "a tsumo needs its winner", field=f"{fieldname}.winner")
        return Tsumo(winner=d["winner"], **_value(d, fieldname))
    if kind == "draw":
        return Draw(
            tenpai=_seats(d.get("tenpai", []), f"{fieldname}.tenpai"),
            nagashi=_seats(d.get("nagashi", []), f"{fieldname}.nagashi"),
        )
    if kind == "abort":
        try:
            return Abort(reason=AbortReason(d.get("reason")))
        except ValueError:
            raise HandError(
                "invalid_abort",
                f"abort reason must be one of {', '.join(r.value for r in AbortReason)}, not {d.get('reason')!r}",
                field=f"{fieldname}.reason",
            ) from None
    if "offender" not in d:
        raise HandError("no_offender", "a chombo needs the offender", field=f"{fieldname}.offender")
    return Chombo(offender=d["offender"])


def outcome_to_dict(o: Outcome) -> dict[str, Any]:
    """The JSON form of an outcome; parsing it gives ``o`` back."""

    def value(w: Win | Tsumo) -> dict[str, Any]:
        out: dict[str, Any] = {"yakuman": w.yakuman} if w.yakuman else {"han": w.han}
        if not w.yakuman and w.fu is not None:
            out["fu"] = w.fu
        if w.pao is not None:
            out["pao"] = w.pao
        return out

    if isinstance(o, Ron):
        return {"type": "ron", "loser": o.loser, "wins": [{"winner": w.winner, **value(w)} for w in o.wins]}
    if isinstance(o, Tsumo):
        return {"type": "tsumo", "winner": o.winner, **value(o)}
    if isinstance(o, Draw):
        out: dict[str, Any] = {"type": "draw", "tenpai": list(o.tenpai)}
        if o.nagashi:
            out["nagashi"] = list(o.nagashi)
        return out
    if isinstance(o, Abort):
        return {"type": "abort", "reason": str(o.reason)}
    return {"type": "chombo", "offender": o.offender}


def hand_from_dict(d: Any, fieldname: str = "") -> HandInput:
    d = _require_object(d, fieldname)
    _check_keys(d, _HAND_KEYS, fieldname)
    prefix = f"{fieldname}." if fieldname else ""
    if "outcome" not in d:
        raise HandError("invalid_outcome", "a hand needs its outcome", field=f"{prefix}outcome")
    note = d.get("note")
    if note is not None and not isinstance(note, str):
        raise HandError("invalid_value", "note must be text", field=f"{prefix}note")
    return HandInput(
        outcome=outcome_from_dict(d["outcome"], f"{prefix}outcome"),
        riichi=_seats(d.get("riichi", []), f"{prefix}riichi"),
        tiles=d.get("tiles"),
        yaku=d.get("yaku"),
        note=note,
    )


def hand_to_dict(h: HandInput) -> dict[str, Any]:
    out: dict[str, Any] = {"riichi": list(h.riichi), "outcome": outcome_to_dict(h.outcome)}
    for key in ("tiles", "yaku", "note"):
        if getattr(h, key) is not None:
            out[key] = getattr(h, key)
    return out


def rules_to_json(rules: Ruleset) -> str | dict[str, Any]:
    """A preset's name, or ``{"preset", "overrides"}`` when it has overrides."""
    spec = rules.to_spec()
    return spec["preset"] if not spec["overrides"] else spec


def record_from_dict(d: Any) -> GameRecord:
    """Parse a GAME RECORD (see docs/data.md), refusing unknown keys with the field named."""
    d = _require_object(d, "")
    _check_keys(d, _RECORD_KEYS, "")
    rules = get_ruleset(d.get("rules"))
    hands_in = d.get("hands", [])
    if not isinstance(hands_in, list):
        raise HandError("invalid_request", "hands must be a list", field="hands")
    hands = tuple(hand_from_dict(h, f"hands[{i}]") for i, h in enumerate(hands_in))
    end = d.get("end")
    if end is not None:
        if end not in (EndReason.EARLY, EndReason.AGARI_YAME):
            raise GameError("invalid_end", f"end must be 'early' or 'agari_yame', not {end!r}", field="end")
        end = EndReason(end)
    penalties = []
    pen_in = d.get("penalties", [])
    if not isinstance(pen_in, list):
        raise GameError("invalid_penalty", "penalties must be a list", field="penalties")
    for i, p in enumerate(pen_in):
        name = f"penalties[{i}]"
        p = _require_object(p, name)
        _check_keys(p, {"seat", "points", "reason"}, name)
        seat = _seat(p.get("seat"), f"{name}.seat", rules.players)
        points = p.get("points")
        if isinstance(points, bool) or not isinstance(points, int):
            raise GameError("invalid_penalty", "penalty points are whole thousandths (-20 is -20000)", field=f"{name}.points")
        reason = p.get("reason", "")
        if not isinstance(reason, str):
            raise GameError("invalid_penalty", "reason must be text", field=f"{name}.reason")
        penalties.append(Penalty(seat, points, reason))
    final = None
    if d.get("final") is not None:
        f = _require_object(d["final"], "final")
        _check_keys(f, {"scores", "riichi_sticks"}, "final")
        scores = f.get("scores")
        if not isinstance(scores, list) or len(scores) != rules.players:
            raise GameError("invalid_scores", f"final.scores must be {rules.players} scores in seat order",
                            field="final.scores")
        final = FinalScores(tuple(scores), f.get("riichi_sticks", 0))  # type: ignore[arg-type]
    players = d.get("players")
    if players is not None:
        if not isinstance(players, list) or len(players) != rules.players or not all(isinstance(p, str) for p in players):
            raise GameError("invalid_players", f"players must be {rules.players} names in seat order", field="players")
        players = tuple(players)
    replacements = d.get("replacements", [])
    if not isinstance(replacements, list):
        raise GameError("invalid_replacements", "replacements must be a list of seats", field="replacements")
    return GameRecord(rules, hands, end, tuple(penalties), final, players,
                      check_replacements(replacements, players=rules.players))


def record_to_dict(rec: GameRecord) -> dict[str, Any]:
    """The JSON GAME RECORD; ``record_from_dict`` of it gives ``rec`` back."""
    out: dict[str, Any] = {"rules": rules_to_json(rec.rules), "hands": [hand_to_dict(h) for h in rec.hands]}
    if rec.end is not None:
        out["end"] = str(rec.end)
    if rec.penalties:
        out["penalties"] = [{"seat": p.seat, "points": p.points, "reason": p.reason} for p in rec.penalties]
    if rec.final is not None:
        out["final"] = {"scores": list(rec.final.scores), "riichi_sticks": rec.final.riichi_sticks}
    if rec.players is not None:
        out["players"] = list(rec.players)
    if rec.replacements:
        out["replacements"] = list(rec.replacements)
    return out


def result_to_dict(g: GameResult) -> dict[str, Any]:
    """The ``game`` op's answer."""
    out: dict[str, Any] = {
        "hands": [
            {
                "round": h.round_label,
                "dealer": h.dealer,
                "honba": h.honba,
                "riichi_sticks": h.riichi_sticks,
                "deltas": list(h.deltas),
                "scores": list(h.scores),
            }
            for h in g.hands
        ],
        "finished": g.finished,
        "scores": list(g.scores),
        "riichi_sticks": g.riichi_sticks,
    }
    if g.ended_by is not None:
        out["ended_by"] = str(g.ended_by)
    if g.next is not None:
        out["next"] = {
            "round": g.next.round_label,
            "dealer": g.next.dealer,
            "honba": g.next.honba,
            "riichi_sticks": g.next.riichi_sticks,
        }
    if g.settlement is not None:
        s = g.settlement
        out["final_scores"] = list(s.final_scores)
        out["places"] = list(s.places)
        out["points"] = list(s.points)
        out["uma"] = list(s.uma)
        out["oka"] = list(s.oka)
        out["penalties"] = list(s.penalties)
    return out
