"""Tenhou's R, per game.

Source: Tenhou's manual, "Rating" (https://tenhou.net/man/#Rating), as riichi.wiki's "Tenhou.net
ranking" and a Japanese quotation of it (linguaphiles.livejournal.com/4067841) give it: R starts at
1500; change = adjustment * (placement base + (table's average R, own included, - own R) / 40),
bases +30 / +10 / -10 / -30 (3 players +30 / 0 / -30), adjustment 1 - 0.002 * rated games before
under 400 games, 0.2 from 400 on. Tied seats share their places' bases; thousandths, each change
rounded once (halves away from zero). docs/ratings.md, "The engines".

>>> import datetime
>>> from league.ratings.common import GameResult, SeatResult
>>> g = GameResult("game 1", datetime.date(2025, 1, 1), tuple(SeatResult(p, p) for p in (1, 2, 3, 4)))
>>> [(r.player, r.value) for r in tenhou_r([g]).players]
[(1, 1530000), (2, 1510000), (3, 1490000), (4, 1470000)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from league.ratings.common import (
    GameResult,
    Outcome,
    Step,
    SubstituteRule,
    final_table,
    gettext_noop,
    milli,
    rated_seats,
    signed,
)

INITIAL = 1500
PLACE_BASE = {4: (30, 10, -10, -30), 3: (30, 0, -30)}
FULL_ADJUSTMENT_GAMES = 400  # from here on the adjustment is 0.2

HOW = gettext_noop("{game}: place {place} of {seats}, base {base}; table average R {average}, own R {own}: "
                   "({average} - {own}) / 40 = {correction}; games before {games}, adjustment {adjustment}; "
                   "change {adjustment} x ({base} + {correction}) = {change}")


def placement_bases(places: list[int], seats: int) -> list[Fraction]:
    """Each seat's placement base; tied seats share the average of the places they cover.

    >>> [str(b) for b in placement_bases([1, 1, 3, 4], 4)]
    ['20', '20', '-10', '-30']
    >>> [str(b) for b in placement_bases([1, 2, 2], 3)]
    ['30', '-15', '-15']
    >>> [str(b) for b in placement_bases([1, 2, 4, 4], 4)]  # a fixed substitute's seat last beside the real last
    ['30', '10', '-30', '-30']
    """
    table = PLACE_BASE[seats]
    out = []
    for place in places:
        covered = range(place, min(place + places.count(place) - 1, seats) + 1)
        out.append(Fraction(sum(table[p - 1] for p in covered), len(covered)))
    return out


def adjustment(games_before: int) -> Fraction:
    """1 - 0.002 per game played before, 0.2 from 400 games.

    >>> [str(adjustment(n)) for n in (0, 1, 100, 399, 400, 1000)]
    ['1', '499/500', '4/5', '101/500', '1/5', '1/5']
    """
    if games_before >= FULL_ADJUSTMENT_GAMES:
        return Fraction(1, 5)
    return 1 - Fraction(games_before * 2, 1000)


def _div(num: int, den: int) -> int:
    """num / den rounded half away from zero (den > 0), in integers.

    >>> _div(-13250, 1000), _div(5, 2), _div(-5, 2), _div(7, 3)
    (-13, 3, -3, 2)
    """
    q, rem = divmod(abs(num), den)
    q += 2 * rem >= den
    return q if num >= 0 else -q


def _ratio(num: int, den: int) -> str:
    """An exact figure as the line shows it: up to three decimals.

    >>> _ratio(-25, 8), _ratio(1, 5), _ratio(499, 500), _ratio(6000, 4000)
    ('-3.125', '0.2', '0.998', '1.5')
    """
    return milli(_div(num * 1000, den))


def tenhou_r(
    games: Iterable[GameResult], *, initial: int = INITIAL, substitutes: SubstituteRule = SubstituteRule.REAL,
    carried: Mapping[int, tuple[int, int]] | None = None,
) -> Outcome:
    """Every player's R after each game, in the order given (the order played).

    ``carried`` gives players an R (thousandths) and a count of games from
    before these games, as a rating carried over from elsewhere."""
    r: dict[int, int] = {p: v for p, (v, _) in (carried or {}).items()}  # thousandths
    played: dict[int, int] = {p: n for p, (_, n) in (carried or {}).items()}
    last: dict[int, tuple[int | None, int, object]] = {}
    steps = []
    start = initial * 1000
    for game in games:
        seats = rated_seats(game, substitutes)
        if not seats:
            continue
        size, n = len(game.seats), len(seats)
        bases = placement_bases([place for _, place in seats], size)
        before = [r.get(p, start) for p, _ in seats]
        total = sum(before)
        average = _ratio(total, n * 1000)
        # All in integers over one denominator: change (thousandths) =
        # adj / 500 * (base * 1000 + (total - n * own) / (40 * n)), base = bn / bd.
        for (player, place), base, own in zip(seats, bases, before, strict=True):
            g = played.get(player, 0)
            adj = 100 if g >= FULL_ADJUSTMENT_GAMES else 500 - g
            bn, bd = base.numerator, base.denominator
            spread = total - n * own
            change = _div(adj * (bn * 40_000 * n + bd * spread), 500 * bd * 40 * n)
            r[player] = own + change
            played[player] = g + 1
            last[player] = (r[player], g + 1, game.day)
            steps.append(Step(
                player=player, key=game.key, day=game.day, before=own, after=r[player], template=HOW,
                numbers=(("game", game.key), ("place", str(place)), ("seats", str(size)), ("base", _ratio(bn, bd)),
                         ("average", average), ("own", milli(own)), ("correction", _ratio(spread, 40_000 * n)),
                         ("games", str(g)), ("adjustment", _ratio(adj, 500)), ("change", signed(change))),
            ))
    return Outcome(steps=tuple(steps), players=final_table(last))  # type: ignore[arg-type]
