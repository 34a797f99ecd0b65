"""End of a game: leftover sticks, places, uma, oka, rounding, penalties.

Points are integers in thousandths of a settlement point (+61.3 is 61300).
Since a settlement point is 1,000 table points, ``end score - return score``
in table points is already the score part in thousandths.

The Ari-Ari worked example (rules §7.2, with its erratum fixed):

>>> from scoring.rules import get_ruleset
>>> s = settle(get_ruleset("ari-ari"), [41300, 24900, 21800, 12000])
>>> s.places, s.points
((1, 2, 3, 4), (61300, 4900, -18200, -48000))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import GameError
from .rules import RIICHI_STICK, EndRounding, LeftoverSticks, Replacement, Ruleset, TiePolicy


@dataclass(frozen=True)
class Penalty:
    """Points (thousandths, negative for a penalty) applied after uma."""

    seat: int
    points: int
    reason: str = ""


@dataclass(frozen=True)
class Settlement:
    """Per-seat results (index = seat). ``points`` = score part + uma + oka + penalties."""

    final_scores: tuple[int, ...]
    places: tuple[int, ...]
    uma: tuple[int, ...]
    oka: tuple[int, ...]
    penalties: tuple[int, ...]
    points: tuple[int, ...]
    lost_sticks: int = 0  # table points nobody took
    replacements: tuple[int, ...] = ()  # seats played by a replacement (their result per the ruleset)

    @property
    def order(self) -> tuple[int, ...]:
        """Seats from first to last (ties by seat)."""
        return tuple(sorted(range(len(self.places)), key=lambda s: (self.places[s], s)))


def round_half_away(points: int, unit: int = 1000) -> int:
    """Round table points to ``unit``, halves away from zero.

    >>> round_half_away(38500), round_half_away(-7500), round_half_away(19400)
    (39000, -8000, 19000)
    """
    q, r = divmod(abs(points), unit)
    if r * 2 >= unit:
        q += 1
    return q * unit if points >= 0 else -q * unit


def split_evenly(total: int, seats: Sequence[int]) -> dict[int, int]:
    """Split ``total`` among ``seats``; leftover units go one each in seat order.

    This is the ``seat_order`` remainder rule: the tied seats nearest the
    first dealer take the odd thousandths.

    >>> split_evenly(50000 + 10000 - 10000, [2, 0, 1])
    {0: 16667, 1: 16667, 2: 16666}
    >>> split_evenly(-40000, [3, 2])
    {2: -20000, 3: -20000}
    """
    ordered = sorted(seats)
    share, rest = divmod(total, len(ordered))
    return {seat: share + (1 if i < rest else 0) for i, seat in enumerate(ordered)}


# No table score comes near this (a game moves about 100,000 points); past
# it a number is a typing slip, and too big for the database's integers.
MAX_SCORE = 10_000_000


def _check_scores(scores: Sequence[int], fieldname: str, players: int = 4) -> tuple[int, ...]:
    if not isinstance(scores, (list, tuple)) or len(scores) != players:
        count = "four" if players == 4 else "three"
        raise GameError("invalid_scores", f"scores must be {count} numbers, one per seat", field=fieldname)
    for i, value in enumerate(scores):
        if isinstance(value, bool) or not isinstance(value, int) or value % 100:
            raise GameError(
                "invalid_scores", f"a score is a whole multiple of 100, not {value!r}", field=f"{fieldname}[{i}]"
            )
        if abs(value) > MAX_SCORE:
            raise GameError(
                "invalid_scores", f"a score must be within ±{MAX_SCORE:,}, not {value:,}", field=f"{fieldname}[{i}]"
            )
    return tuple(scores)


def settle(
    rules: Ruleset,
    scores: Sequence[int],
    riichi_sticks: int = 0,
    penalties: Iterable[Penalty] = (),
    replacements: Iterable[int] = (),
) -> Settlement:
    """Settle a finished game from the table scores and the sticks left on the table.

    ``replacements`` are the seats a replacement played; under a ruleset
    whose ``replacement_result`` is ``fixed`` each gets ``replacement_score +
    replacement_uma`` (and its penalties) instead of its real result, while
    the other seats keep the places and uma the table gave them.

    >>> from scoring.rules import get_ruleset
    >>> tenhou = get_ruleset("tenhou")
    >>> settle(tenhou, [38500, 19500, 29000, 12000], riichi_sticks=1).points
    (49000, -20000, 9000, -38000)
    >>> ml = get_ruleset("m-league")  # two players tied for 2nd share +10 and -10
    >>> settle(ml, [50400, 24800, 24800, 0]).points
    (70400, -5200, -5200, -60000)
    """
    n = rules.players
    scores = _check_scores(scores, "scores", n)
    replaced = check_replacements(replacements, players=n) if replacements else ()
    if isinstance(riichi_sticks, bool) or not isinstance(riichi_sticks, int) or riichi_sticks < 0:
        raise GameError("invalid_sticks", f"riichi_sticks must be 0 or more, not {riichi_sticks!r}", field="riichi_sticks")
    final = list(scores)
    pot = riichi_sticks * RIICHI_STICK
    lost = 0
    by_seat = sorted(range(n), key=lambda s: (-scores[s], s))
    sticks_rule = rules.leftover_sticks
    split = sticks_rule is LeftoverSticks.SPLIT_FIRST or sticks_rule is LeftoverSticks.SPLIT_FIRST_FLOOR
    if pot and sticks_rule is LeftoverSticks.FIRST:
        final[by_seat[0]] += pot
    elif pot and split:
        firsts = [s for s in range(n) if scores[s] == scores[by_seat[0]]]
        if sticks_rule is LeftoverSticks.SPLIT_FIRST:
            for seat, share in split_evenly(pot // 100, firsts).items():
                final[seat] += share * 100
        else:
            # Pantheon's split: each tied first takes an equal share floored to 100.
            share = pot // 100 // len(firsts) * 100
            for seat in firsts:
                final[seat] += share
            lost = pot - share * len(firsts)
    else:
        lost = pot

    # Order by the end scores; under a split by the scores before it, so an
    # odd 100 from the pot does not break the tie it shares.
    key_scores = scores if split else tuple(final)
    order = sorted(range(n), key=lambda s: (-key_scores[s], s))
    places = [0] * n
    uma = [0] * n
    oka = [0] * n
    uma_row = rules.uma_for(final) if rules.uma_by_below else rules.uma
    if rules.tie_policy is TiePolicy.SEAT_ORDER:
        for position, seat in enumerate(order):
            places[seat] = position + 1
            uma[seat] = uma_row[position]
        oka[order[0]] = rules.oka
    else:
        position = 0
        while position < n:
            group = [s for s in order if key_scores[s] == key_scores[order[position]]]
            span = range(position, position + len(group))
            for seat, share in split_evenly(sum(uma_row[p] for p in span), group).items():
                uma[seat] = share
                places[seat] = position + 1
            if position == 0:
                for seat, share in split_evenly(rules.oka, group).items():
                    oka[seat] = share
            position += len(group)

    penalty = [0] * n
    for i, p in enumerate(penalties):
        if p.seat not in range(n) or isinstance(p.seat, bool):
            raise GameError("invalid_seat", f"a seat is 0 to {n - 1}, not {p.seat!r}", field=f"penalties[{i}].seat")
        if isinstance(p.points, bool) or not isinstance(p.points, int):
            raise GameError("invalid_penalty", f"penalty points must be whole thousandths, not {p.points!r}", field=f"penalties[{i}].points")
        penalty[p.seat] += p.points

    base = [final[s] - rules.return_points for s in range(n)]
    if rules.end_rounding is EndRounding.TENHOU:
        # 2nd to 4th round to 1,000; first takes minus the sum of the others,
        # which absorbs the oka and all the rounding.
        for seat in order[1:]:
            base[seat] = round_half_away(final[seat]) - rules.return_points
        others = sum(base[s] + uma[s] for s in order[1:])
        base[order[0]] = -others - uma[order[0]] - oka[order[0]]
    if rules.replacement_result is Replacement.FIXED:
        for seat in replaced:
            base[seat], uma[seat], oka[seat] = rules.replacement_score, rules.replacement_uma, 0
    points = tuple(base[s] + uma[s] + oka[s] + penalty[s] for s in range(n))
    return Settlement(
        final_scores=tuple(final),  # type: ignore[arg-type]
        places=tuple(places),  # type: ignore[arg-type]
        uma=tuple(uma),  # type: ignore[arg-type]
        oka=tuple(oka),  # type: ignore[arg-type]
        penalties=tuple(penalty),  # type: ignore[arg-type]
        points=points,  # type: ignore[arg-type]
        lost_sticks=lost,
        replacements=replaced,
    )


def check_replacements(seats: Iterable[int], fieldname: str = "replacements", players: int = 4) -> tuple[int, ...]:
    """The seats marked as replacements, sorted; refuses a bad or repeated seat.

    >>> check_replacements([3, 1])
    (1, 3)
    >>> check_replacements([1, 1])
    Traceback (most recent call last):
    ...
    scoring.errors.GameError: replacements lists seat 1 twice
    """
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Iterable):
        raise GameError("invalid_replacements", f"{fieldname} must be a list of seats", field=fieldname)
    out: list[int] = []
    for i, seat in enumerate(seats):
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise GameError("invalid_seat", f"a seat is 0 to {players - 1}, not {seat!r}", field=f"{fieldname}[{i}]")
        if seat in out:
            raise GameError("duplicate_seat", f"{fieldname} lists seat {seat} twice", field=f"{fieldname}[{i}]")
        out.append(seat)
    return tuple(sorted(out))
