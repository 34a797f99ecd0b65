"""From han and fu to what each payer pays: base points fu x 2^(han + 2), capped at
mangan (2,000), 4x (dealer 6x) on a ron, rounded up to 100 (docs/scoring.md, "The scoring library").

>>> from scoring.rules import get_ruleset
>>> ari = get_ruleset("ari-ari")
>>> hand_payment(ari, han=3, fu=30, dealer=False, tsumo=False).ron
3900
>>> p = hand_payment(ari, han=1, fu=30, dealer=False, tsumo=True)
>>> p.tsumo_dealer, p.tsumo_non_dealer, p.total
(500, 300, 1100)
>>> hand_payment(ari, han=4, fu=30, dealer=False, tsumo=False).ron  # no kiriage
7700
>>> hand_payment(ari.replace(kiriage=True), han=4, fu=30, dealer=False, tsumo=False).ron
8000
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import HandError
from .rules import Kazoe, Ruleset

MANGAN_BASE = 2000
YAKUMAN_BASE = 8000


class Limit(enum.StrEnum):
    MANGAN = "mangan"
    HANEMAN = "haneman"
    BAIMAN = "baiman"
    SANBAIMAN = "sanbaiman"
    YAKUMAN = "yakuman"


_LIMIT_BASE = {
    Limit.MANGAN: 2000,
    Limit.HANEMAN: 3000,
    Limit.BAIMAN: 4000,
    Limit.SANBAIMAN: 6000,
    Limit.YAKUMAN: 8000,
}


def round_up_100(points: int) -> int:
    """Round a payment up to the next 100.

    >>> round_up_100(3840), round_up_100(3900), round_up_100(0)
    (3900, 3900, 0)
    """
    return -(-points // 100) * 100


MAX_FU = 140  # the most fu any hand can have


# Each rule ``check_han_fu`` holds a pair to, by its detail code (the
# refusal's code is ``fu_not_possible`` for all of them): what the field is
# and what the rule says. ``scoring.game`` adds ``han_missing``.
HAN_FU_DETAILS = {
    "han_not_whole": "han", "han_missing": "han", "fu_missing": "fu", "fu_not_whole": "fu",
    "fu_not_a_step": "fu", "fu_over_140": "fu", "fu_20_ron": "fu", "fu_20_tsumo_30": "fu",
    "fu_20_one_han": "fu", "fu_25_one_han": "fu", "fu_25_tsumo_two_han": "fu", "fu_over_110": "fu",
}


def _no_hand(detail: str, message: str) -> HandError:
    return HandError("fu_not_possible", message, field=HAN_FU_DETAILS[detail], detail=detail)


def check_han_fu(han: int, fu: int | None, *, tsumo: bool, rules: Ruleset | None = None) -> None:
    """Refuse a han and fu pair that no hand can have (code ``fu_not_possible``,
    the rule broken in its ``detail``: ``HAN_FU_DETAILS``).

    Without ``rules``, what no hand can have under the standard fu rules; with
    them, 20 fu follows the ruleset's ``open_pinfu_fu`` and ``pinfu_tsumo_fu``.

    >>> check_han_fu(1, 20, tsumo=True)
    Traceback (most recent call last):
    ...
    scoring.errors.HandError: 20 fu needs at least 2 han (pinfu tsumo)
    >>> try:
    ...     check_han_fu(1, 20, tsumo=False)
    ... except HandError as err:
    ...     err.code, err.detail, err.field
    ('fu_not_possible', 'fu_20_ron', 'fu')
    >>> check_han_fu(4, 130, tsumo=False)  # a real hand: pays mangan
    >>> check_han_fu(6, None, tsumo=False)  # from 5 han fu does not matter
    >>> from scoring.rules import get_ruleset
    >>> check_han_fu(1, 20, tsumo=False, rules=get_ruleset("ari-ari").replace(open_pinfu_fu=20))  # open pinfu ron
    """
    if isinstance(han, bool) or not isinstance(han, int) or han < 1:
        raise _no_hand("han_not_whole", f"han must be a whole number of at least 1, not {han!r}")
    if fu is None:
        if han >= 5:
            return
        raise _no_hand("fu_missing", f"{han} han needs fu")
    if isinstance(fu, bool) or not isinstance(fu, int):
        raise _no_hand("fu_not_whole", f"fu must be a whole number, not {fu!r}")
    if not (fu in (20, 25) or (fu >= 30 and fu % 10 == 0)):
        raise _no_hand("fu_not_a_step", f"fu must be 20, 25 or a multiple of 10 from 30, not {fu}")
    if fu > MAX_FU:
        raise _no_hand("fu_over_140", f"no hand has more than {MAX_FU} fu, not {fu}")
    if fu == 20:
        if not tsumo:
            if rules is None or rules.open_pinfu_fu != 20:
                raise _no_hand("fu_20_ron", "20 fu is only a pinfu tsumo, never a ron")
        elif rules is not None and rules.pinfu_tsumo_fu:
            raise _no_hand("fu_20_tsumo_30", "under this ruleset a pinfu tsumo is 30 fu: no tsumo has 20 fu")
        elif han < 2:
            raise _no_hand("fu_20_one_han", "20 fu needs at least 2 han (pinfu tsumo)")
    if fu == 25:
        if han < 2:
            raise _no_hand("fu_25_one_han", "25 fu (seven pairs) needs at least 2 han")
        if han == 2 and tsumo:
            raise _no_hand("fu_25_tsumo_two_han", "seven pairs by tsumo is at least 3 han")
    if fu > 110 and han < 4:
        raise _no_hand("fu_over_110", f"{han} han cannot have more than 110 fu")


@dataclass(frozen=True)
class HandValue:
    """Base points of a hand and its limit, before any payer is chosen."""

    base: int
    limit: Limit | None


def hand_value(rules: Ruleset, *, han: int = 0, fu: int | None = None, yakuman: int = 0) -> HandValue:
    """Base points and limit for han and fu (already checked) or a yakuman count.

    >>> from scoring.rules import get_ruleset
    >>> hand_value(get_ruleset("ari-ari"), han=3, fu=70)
    HandValue(base=2000, limit=<Limit.MANGAN: 'mangan'>)
    >>> hand_value(get_ruleset("ema-2016"), han=13, fu=30)
    HandValue(base=6000, limit=<Limit.SANBAIMAN: 'sanbaiman'>)
    >>> hand_value(get_ruleset("ari-ari"), yakuman=2).base
    16000
    >>> hand_value(get_ruleset("ari-ari").replace(kazoe="no_limit"), han=26).base
    16000
    """
    if yakuman:
        return HandValue(YAKUMAN_BASE * yakuman, Limit.YAKUMAN)
    if han >= 13:
        if rules.kazoe is Kazoe.NO_LIMIT:
            # 26 han is a double counted yakuman, and so on, up to what one hand may be worth.
            return HandValue(YAKUMAN_BASE * min(han // 13, max_yakuman(rules)), Limit.YAKUMAN)
        limit = Limit.YAKUMAN if rules.kazoe is Kazoe.YAKUMAN else Limit.SANBAIMAN
    elif han >= 11:
        limit = Limit.SANBAIMAN
    elif han >= 8:
        limit = Limit.BAIMAN
    elif han >= 6:
        limit = Limit.HANEMAN
    elif han == 5:
        limit = Limit.MANGAN
    else:
        assert fu is not None
        base = fu * 2 ** (han + 2)
        if base >= MANGAN_BASE or (rules.kiriage and base == 1920):
            return HandValue(MANGAN_BASE, Limit.MANGAN)
        return HandValue(base, None)
    return HandValue(_LIMIT_BASE[limit], limit)


@dataclass(frozen=True)
class Payment:
    """What each payer pays for one win, before honba and riichi sticks.

    ``ron`` is paid by the discarder; on a non-dealer's tsumo the dealer pays
    ``tsumo_dealer`` and each other player ``tsumo_non_dealer``; on a dealer's
    tsumo each of the ``payers`` (3, or 2 with three players) pays
    ``tsumo_all``. ``total`` is the winner's gain.
    """

    base: int
    limit: Limit | None
    ron: int | None = None
    tsumo_dealer: int | None = None
    tsumo_non_dealer: int | None = None
    tsumo_all: int | None = None
    payers: int = 3

    @property
    def total(self) -> int:
        if self.ron is not None:
            return self.ron
        if self.tsumo_all is not None:
            return self.payers * self.tsumo_all
        assert self.tsumo_dealer is not None and self.tsumo_non_dealer is not None
        return self.tsumo_dealer + (self.payers - 1) * self.tsumo_non_dealer

    def as_dict(self) -> dict[str, int]:
        """The payer amounts that apply, as in the JSON interface."""
        keys = ("ron", "tsumo_dealer", "tsumo_non_dealer", "tsumo_all")
        return {k: getattr(self, k) for k in keys if getattr(self, k) is not None}


def max_yakuman(rules: Ruleset) -> int:
    """How many yakuman one hand may be worth under ``rules``."""
    if rules.yakuman_stacking:
        return 6  # e.g. tsuuiisou + daisuushii (double) + suuankou tanki (double) + ...
    return 2 if rules.double_yakuman else 1


def check_yakuman(rules: Ruleset, yakuman: int) -> None:
    """Refuse a yakuman count the ruleset cannot pay (code ``yakuman_not_possible``)."""
    if isinstance(yakuman, bool) or not isinstance(yakuman, int) or yakuman < 1:
        raise HandError("yakuman_not_possible", f"yakuman must be a whole number of at least 1, not {yakuman!r}",
                        field="yakuman", detail="yakuman_not_whole")
    top = max_yakuman(rules)
    if yakuman > top:
        raise HandError(
            "yakuman_not_possible",
            f"this ruleset pays at most {top} yakuman on one hand, not {yakuman}",
            field="yakuman", detail="yakuman_over_limit",
        )


def hand_payment(
    rules: Ruleset,
    *,
    han: int = 0,
    fu: int | None = None,
    yakuman: int = 0,
    dealer: bool,
    tsumo: bool,
) -> Payment:
    """What each payer pays for a win of ``han`` and ``fu`` or ``yakuman``.

    Raises HandError ``fu_not_possible`` for a pair no hand can have.

    >>> from scoring.rules import get_ruleset
    >>> ari = get_ruleset("ari-ari")
    >>> hand_payment(ari, han=2, fu=20, dealer=True, tsumo=True).tsumo_all
    700
    >>> hand_payment(ari, yakuman=1, dealer=True, tsumo=False).ron
    48000
    >>> hand_payment(ari, han=1, fu=20, dealer=False, tsumo=False)
    Traceback (most recent call last):
    ...
    scoring.errors.HandError: 20 fu is only a pinfu tsumo, never a ron

    Three players with tsumo loss: the absent North's share is not paid, so
    a non-dealer mangan tsumo is 2000-4000 = 6,000 (sanma.md §3).

    >>> sanma = get_ruleset("tenhou-sanma")
    >>> hand_payment(sanma, han=5, dealer=False, tsumo=True).total
    6000
    >>> hand_payment(sanma, han=5, dealer=True, tsumo=True).total
    8000

    Without tsumo loss (North bisection) each payer adds half the North's
    share, rounded up to 100: 2000-4000 becomes 3000-5000.

    >>> split = sanma.replace(tsumo_loss=False)
    >>> p = hand_payment(split, han=5, dealer=False, tsumo=True)
    >>> p.tsumo_dealer, p.tsumo_non_dealer, p.total
    (5000, 3000, 8000)
    >>> hand_payment(split, han=1, fu=30, dealer=True, tsumo=True).tsumo_all  # 500 + 250 -> 800
    800
    """
    if yakuman:
        check_yakuman(rules, yakuman)
    else:
        check_han_fu(han, fu, tsumo=tsumo, rules=rules)
    value = hand_value(rules, han=han, fu=fu, yakuman=yakuman)
    base = value.base
    if not tsumo:
        return Payment(base, value.limit, ron=round_up_100(base * (6 if dealer else 4)))
    payers = rules.players - 1
    # North bisection (three players, no tsumo loss): the share the absent
    # North would pay is halved between the two payers, each half rounded up.
    north = 0 if rules.players == 4 or rules.tsumo_loss else base * (2 if dealer else 1)
    half = (north + 1) // 2  # a half point rounds up with the rest
    if dealer:
        return Payment(base, value.limit, tsumo_all=round_up_100(base * 2 + half), payers=payers)
    return Payment(base, value.limit, tsumo_dealer=round_up_100(base * 2 + half),
                   tsumo_non_dealer=round_up_100(base + half), payers=payers)
