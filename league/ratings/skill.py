"""A skill estimate per game: openskill's Plackett-Luce model.

Source: Weng and Lin, "A Bayesian Approximation Method for Online Ranking",
JMLR 12 (2011), Algorithm 4 (Plackett-Luce), as the ``openskill`` package
implements it. ``mu`` starts at 25, ``sigma`` at 25/3, widened before each game
by openskill's default tau = mu / 300; the rating shown is ``mu - 3 sigma`` in
thousandths. The same games in the same order give the same figures (no random
draw), rounded once per step. docs/ratings.md, "The engines".

>>> import datetime
>>> from league.ratings.common import GameResult, SeatResult
>>> g = GameResult("game 1", datetime.date(2025, 1, 1), tuple(SeatResult(p, p) for p in (1, 2, 3, 4)))
>>> [r.player for r in plackett_luce([g]).players]
[1, 2, 3, 4]
"""

from __future__ import annotations

from collections.abc import Iterable

from openskill.models import PlackettLuce

from league.ratings.common import GameResult, Outcome, Step, SubstituteRule, final_table, gettext_noop, rated_seats

MU = 25.0
SIGMA = MU / 3
SPREAD = 3  # the rating shown is mu - SPREAD * sigma

HOW = gettext_noop("{game}: place {place} of {seats}; mu {mu_before} -> {mu_after}, sigma {sigma_before} -> {sigma_after}; "
                   "rating mu - 3 sigma = {after}")


def shown(mu: float, sigma: float) -> int:
    """``mu - 3 sigma`` in thousandths, rounded half away from zero.

    >>> shown(25.0, 25 / 3), shown(27.5, 8.0)
    (0, 3500)
    """
    value = (mu - SPREAD * sigma) * 1000
    return int(value + 0.5) if value >= 0 else -int(-value + 0.5)


def _f(value: float) -> str:
    return f"{value:.3f}"


def plackett_luce(
    games: Iterable[GameResult], *, mu: float = MU, sigma: float = SIGMA,
    substitutes: SubstituteRule = SubstituteRule.REAL,
) -> Outcome:
    """Every player's skill estimate after each game, in the order given."""
    model = PlackettLuce(mu=mu, sigma=sigma)
    state: dict[int, tuple[float, float]] = {}
    played: dict[int, int] = {}
    last: dict[int, tuple[int | None, int, object]] = {}
    steps = []
    for game in games:
        seats = rated_seats(game, substitutes)
        if len(seats) < 2:  # a ranking needs two
            continue
        before = [state.get(p, (mu, sigma)) for p, _ in seats]
        teams = [[model.create_rating([m, s])] for m, s in before]
        rated = model.rate(teams, ranks=[float(place) for _, place in seats])
        for (player, place), (m0, s0), (new,) in zip(seats, before, rated, strict=True):
            state[player] = (new.mu, new.sigma)
            played[player] = played.get(player, 0) + 1
            after = shown(new.mu, new.sigma)
            last[player] = (after, played[player], game.day)
            steps.append(Step(
                player=player, key=game.key, day=game.day, before=shown(m0, s0), after=after, template=HOW,
                numbers=(("game", game.key), ("place", str(place)), ("seats", str(len(game.seats))),
                         ("mu_before", _f(m0)), ("mu_after", _f(new.mu)), ("sigma_before", _f(s0)),
                         ("sigma_after", _f(new.sigma)), ("after", _f(after / 1000))),
            ))
    return Outcome(steps=tuple(steps), players=final_table(last))  # type: ignore[arg-type]
