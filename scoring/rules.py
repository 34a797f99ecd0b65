"""Rulesets: every parameter of how a hand is paid and a game moves, ends and
settles, as one frozen value, plus the named presets. ``uma``, ``oka`` and
``chombo_penalty`` are thousandths of a settlement point (uma +20 is 20000);
table amounts are table points, one above the return being one thousandth (docs/rulesets.md).

>>> r = get_ruleset("ari-ari")
>>> r.uma, r.oka
((30000, 10000, -10000, -30000), 20000)
>>> get_ruleset({"preset": "ari-ari", "overrides": {"kiriage": True}}).kiriage
True
>>> get_ruleset({"preset": "ari-ari", "overrides": {"uma": [30000, 10000, -10000, -20000]}})
Traceback (most recent call last):
...
scoring.errors.RulesError: uma must sum to zero, it sums to 10000
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .errors import RulesError

RIICHI_STICK = 1000  # a riichi deposit, in table points, in every ruleset we know


class GameLength(enum.StrEnum):
    HANCHAN = "hanchan"  # East and South rounds
    EAST = "east"  # tonpuusen: East round only


class TiePolicy(enum.StrEnum):
    SPLIT = "split"  # tied players share their places' uma and oka equally
    SEAT_ORDER = "seat_order"  # the seat nearer the first dealer ranks higher


class TieRemainder(enum.StrEnum):
    # A split that does not divide evenly in thousandths gives the leftover
    # thousandths one each to the tied seats nearest the first dealer.
    SEAT_ORDER = "seat_order"


class LeftoverSticks(enum.StrEnum):
    FIRST = "first"  # to first place (under split ties: the tied seat nearest seat 0)
    SPLIT_FIRST = "split_first"  # shared by the players tied for first, 100s, remainder by seat
    SPLIT_FIRST_FLOOR = "split_first_floor"  # shared in 100s by the tied firsts; the odd 100s are lost
    LOST = "lost"  # nobody gets them; end scores sum to less than 4 x start


class AtThreshold(enum.StrEnum):
    # Where a score exactly at ``uma_threshold`` falls when uma floats.
    NOT_BELOW = "not_below"  # only a score under the threshold is below (Pantheon's strict <)
    BELOW = "below"  # a score at the threshold counts as below too


class EndRounding(enum.StrEnum):
    NONE = "none"
    TENHOU = "tenhou"  # 2nd-4th rounded to 1,000 half away from zero, 1st takes the rest


class MultipleRon(enum.StrEnum):
    ALLOWED = "allowed"  # double ron (and triple ron unless it aborts)
    HEAD_BUMP = "head_bump"  # only the winner nearest the discarder


class MultiRonBonus(enum.StrEnum):
    NEAREST = "nearest"  # honba and all sticks to the winner nearest the discarder
    HONBA_EACH = "honba_each"  # every winner gets the honba; sticks to the nearest


class MultiRonSticks(enum.StrEnum):
    NEAREST = "nearest"  # every riichi stick to the winner nearest the discarder
    OWN_BACK = "own_back"  # each winner takes back the stick it paid this hand; the rest to the nearest


class Kazoe(enum.StrEnum):
    YAKUMAN = "yakuman"  # 13+ han is a counted yakuman
    SANBAIMAN = "sanbaiman"  # 13+ han is capped at sanbaiman
    NO_LIMIT = "no_limit"  # 13 han a yakuman, 26 a double, 39 a triple... (up to the ruleset's most)


class Renhou(enum.StrEnum):
    NONE = "none"
    HAN5 = "han5"  # a 5 han yaku, cumulative with the rest of the hand
    MANGAN = "mangan"  # at least mangan
    YAKUMAN = "yakuman"


class UraWithoutRiichi(enum.StrEnum):
    REFUSED = "refused"  # ura dora indicators on a hand without riichi are an error
    IGNORED = "ignored"  # they are shown on the table but count for nothing


class PaoHonba(enum.StrEnum):
    LIABLE = "liable"  # on a pao ron the liable seat pays the honba
    DISCARDER = "discarder"  # on a pao ron the discarder pays the honba


class Chombo(enum.StrEnum):
    REVERSE_MANGAN = "reverse_mangan"  # paid at the table like a mangan tsumo
    PENALTY = "penalty"  # chombo_penalty points taken after uma
    BOTH = "both"  # a reverse mangan at the table and chombo_penalty after uma


class NotenRiichi(enum.StrEnum):
    # A seat that declared riichi is found noten at an exhaustive draw (a false riichi).
    REFUSED = "refused"  # cannot happen (online play); the draw is refused
    CHOMBO = "chombo"  # a chombo by that seat, paid as the ruleset's chombo; the hand is void
    NOTEN_PAYMENT = "noten_payment"  # pays noten like any noten seat; its stick stays on the table


class Replacement(enum.StrEnum):
    # The result of a seat marked as a replacement (a stand-in for a registered player).
    REAL = "real"  # counts the game as played, like any seat
    FIXED = "fixed"  # replacement_score + replacement_uma, whatever the table did; no oka


class Yame(enum.StrEnum):
    NONE = "none"
    AUTO = "auto"  # the game ends by itself
    OPTIONAL = "optional"  # the dealer may choose to stop (GAME RECORD "end": "agari_yame")


ABORT_REASONS = ("kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan", "sanchahou")
PAO_YAKUMAN = ("daisangen", "daisuushii", "suukantsu")
# Local yakuman a ruleset may add (none of the presets does): daisharin
# (22334455667788p, closed), paarenchan (the dealer's eighth win in a row,
# with a yaku) and sashikomi (a ron on an open riichi by a player not in riichi).
LOCAL_YAKUMAN = ("daisharin", "paarenchan", "sashikomi")


@dataclass(frozen=True)
class Ruleset:
    """Every value that changes scoring. Build one with :func:`get_ruleset`."""

    name: str = "custom"
    # Three-player (sanma) rulesets have three seats (0-2), no North seat,
    # uma and settlement over three places, and the 108-tile set with kita.
    players: int = 4
    # Three players only: a tsumo pays no North share (tsumo loss); False
    # splits the North's share between the two payers (North bisection).
    tsumo_loss: bool = True
    length: GameLength = GameLength.HANCHAN
    start_points: int = 25000
    return_points: int = 30000
    uma: tuple[int, ...] = (30000, 10000, -10000, -30000)
    # Floating uma (JPML-A): rows of uma keyed by how many players end below
    # uma_threshold; a count with no row uses ``uma``. Empty: uma never floats.
    uma_by_below: tuple[tuple[int, tuple[int, ...]], ...] = ()
    uma_threshold: int = 30000
    uma_at_threshold: AtThreshold = AtThreshold.NOT_BELOW
    oka: int = 20000
    tie_policy: TiePolicy = TiePolicy.SPLIT
    tie_remainder: TieRemainder = TieRemainder.SEAT_ORDER
    leftover_sticks: LeftoverSticks = LeftoverSticks.FIRST
    end_rounding: EndRounding = EndRounding.NONE
    honba_ron: int = 300
    honba_tsumo: int = 100
    noten_total: int = 3000
    multiple_ron: MultipleRon = MultipleRon.ALLOWED
    multi_ron_bonus: MultiRonBonus = MultiRonBonus.NEAREST
    multi_ron_sticks: MultiRonSticks = MultiRonSticks.NEAREST
    abortive_draws: frozenset[str] = field(default_factory=lambda: frozenset(ABORT_REASONS))
    nagashi_mangan: bool = True
    ippatsu: bool = True  # False: the ruleset has no ippatsu (JPML-A), and a hand that claims it is refused
    kiriage: bool = False
    kazoe: Kazoe = Kazoe.YAKUMAN
    double_yakuman: bool = True
    yakuman_stacking: bool = True
    renhou: Renhou = Renhou.NONE
    aka_dora: int = 3
    open_tanyao: bool = True
    double_wind_fu: int = 4
    pinfu_tsumo_fu: int = 0  # 0: a pinfu tsumo is 20 fu flat; 2: it adds the tsumo 2 fu (30 fu)
    open_pinfu_fu: int = 30  # an open hand with nothing but the base: 30 (20 + 2 rounded up) or 20
    ura_without_riichi: UraWithoutRiichi = UraWithoutRiichi.REFUSED
    local_yakuman: frozenset[str] = frozenset()
    pao: frozenset[str] = frozenset({"daisangen", "daisuushii"})
    pao_ron_honba: PaoHonba = PaoHonba.LIABLE
    chombo: Chombo = Chombo.REVERSE_MANGAN
    chombo_penalty: int = 0
    noten_riichi: NotenRiichi = NotenRiichi.REFUSED
    # False: a seat with fewer than 1,000 points (one stick) cannot declare riichi.
    riichi_below_1000: bool = True
    replacement_result: Replacement = Replacement.REAL
    replacement_score: int = 0  # thousandths, in place of (end score - return)
    replacement_uma: int = 0  # thousandths, in place of the place's uma
    bust: bool = False
    west_round: bool = False
    target_points: int = 30000
    agari_yame: Yame = Yame.NONE
    tenpai_yame: Yame = Yame.NONE

    def __post_init__(self) -> None:
        _validate(self)

    # -- derived values -------------------------------------------------

    @property
    def triple_ron_aborts(self) -> bool:
        """A ron by three players is the abortive draw ``sanchahou``."""
        return "sanchahou" in self.abortive_draws

    @property
    def last_regular_round(self) -> int:
        """Index of all-last (0 = E1): 7 (S4) for a hanchan, 3 (E4) east-only.

        Three players keep the four-player numbering, as Tenhou's logs do:
        E1-E3 are 0-2 and S1-S3 are 4-6, so all-last is 6 (S3) or 2 (E3).

        >>> get_ruleset("tenhou-sanma").last_regular_round, get_ruleset("tenhou-sanma").last_extension_round
        (6, 10)
        """
        last = 7 if self.length is GameLength.HANCHAN else 3
        return last - (4 - self.players)

    @property
    def last_extension_round(self) -> int:
        """Index of the hardest cap when the game extends: W4 (11) or S4 (7)."""
        return self.last_regular_round + 4

    @property
    def seats(self) -> range:
        """The seats of this ruleset's table: 0-3, or 0-2 for three players."""
        return range(self.players)

    # -- JSON -----------------------------------------------------------

    def uma_for(self, final_scores: Sequence[int]) -> tuple[int, ...]:
        """The uma row that applies to these end scores (first to fourth).

        >>> jpml = get_ruleset("jpml-a-2024")
        >>> jpml.uma_for([37000, 29000, 28000, 26000])  # three below 30,000
        (12000, -1000, -3000, -8000)
        >>> jpml.uma_for([30000, 30000, 30000, 30000])  # exactly 30,000 is not below
        (8000, 4000, -4000, -8000)
        """
        if not self.uma_by_below:
            return self.uma
        at = self.uma_at_threshold is AtThreshold.BELOW
        threshold = self.uma_threshold
        below = sum(1 for s in final_scores if s < threshold or (at and s == threshold))
        for count, row in self.uma_by_below:
            if count == below:
                return row
        return self.uma

    def to_dict(self) -> dict[str, Any]:
        """Every parameter as plain JSON values.

        >>> get_ruleset("tenhou").to_dict()["uma"]
        [20000, 10000, -10000, -20000]
        >>> get_ruleset("jpml-a-2024").to_dict()["uma_by_below"]
        {'1': [8000, 3000, 1000, -12000], '3': [12000, -1000, -3000, -8000]}
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            out[f.name] = _to_json(getattr(self, f.name))
        out["uma_by_below"] = {str(count): list(row) for count, row in self.uma_by_below}
        return out

    def to_spec(self) -> dict[str, Any]:
        """The smallest ``{"preset", "overrides"}`` that rebuilds this ruleset.

        >>> r = get_ruleset({"preset": "tenhou", "overrides": {"uma": [10000, 5000, -5000, -10000]}})
        >>> r.to_spec()
        {'preset': 'tenhou', 'overrides': {'uma': [10000, 5000, -5000, -10000]}}
        >>> get_ruleset(r.to_spec()) == r
        True
        """
        base = PRESETS.get(self.name)
        if base is None:
            base_name = "ari-ari"
            base = PRESETS[base_name]
        else:
            base_name = self.name
        mine, theirs = self.to_dict(), base.to_dict()
        overrides = {k: v for k, v in mine.items() if k != "name" and v != theirs[k]}
        return {"preset": base_name, "overrides": overrides}

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with some parameters changed (validated, coerced from JSON)."""
        return _build(self, changes)


def _to_json(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    return value


_FIELD_TYPES = {f.name: f.type for f in fields(Ruleset)}
_ENUMS: dict[str, type[enum.StrEnum]] = {
    "length": GameLength,
    "tie_policy": TiePolicy,
    "tie_remainder": TieRemainder,
    "leftover_sticks": LeftoverSticks,
    "end_rounding": EndRounding,
    "uma_at_threshold": AtThreshold,
    "multiple_ron": MultipleRon,
    "multi_ron_bonus": MultiRonBonus,
    "multi_ron_sticks": MultiRonSticks,
    "kazoe": Kazoe,
    "renhou": Renhou,
    "pao_ron_honba": PaoHonba,
    "ura_without_riichi": UraWithoutRiichi,
    "chombo": Chombo,
    "noten_riichi": NotenRiichi,
    "replacement_result": Replacement,
    "agari_yame": Yame,
    "tenpai_yame": Yame,
}
_BOOLS = {n for n, t in _FIELD_TYPES.items() if t == "bool"}
_INTS = {n for n, t in _FIELD_TYPES.items() if t == "int"}


def _coerce(key: str, value: Any) -> Any:
    """Turn a JSON value into the field's type, or refuse it naming ``key``."""
    if key in _ENUMS:
        cls = _ENUMS[key]
        try:
            return cls(value)
        except ValueError:
            allowed = ", ".join(m.value for m in cls)
            raise RulesError("invalid_rules", f"{key} must be one of {allowed}, not {value!r}", field=key) from None
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError("invalid_rules", f"{key} must be true or false, not {value!r}", field=key)
        return value
    if key in _INTS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError("invalid_rules", f"{key} must be a whole number, not {value!r}", field=key)
        return value
    if key == "uma":
        return _uma_row(value, key)
    if key == "uma_by_below":
        return _uma_table(value)
    if key in ("abortive_draws", "pao", "local_yakuman"):
        allowed = {"abortive_draws": ABORT_REASONS, "pao": PAO_YAKUMAN, "local_yakuman": LOCAL_YAKUMAN}[key]
        if not isinstance(value, (list, tuple, set, frozenset)) or any(v not in allowed for v in value):
            raise RulesError("invalid_rules", f"{key} must be a list drawn from {', '.join(allowed)}", field=key)
        return frozenset(value)
    if key == "name":
        if not isinstance(value, str) or not value:
            raise RulesError("invalid_rules", "name must be a non-empty string", field=key)
        return value
    raise RulesError("unknown_rule", f"unknown ruleset key {key!r}", field=key)


def _uma_row(value: Any, key: str) -> tuple[int, ...]:
    # Three or four places; _validate checks the count against ``players``.
    if (
        not isinstance(value, (list, tuple))
        or len(value) not in (3, 4)
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise RulesError("invalid_rules", f"{key} must be one whole number (thousandths) per place", field=key)
    return tuple(value)


def _uma_table(value: Any) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """``{"1": [uma...], "3": [uma...]}`` (JSON keys are text) or ``((1, (...)), ...)``."""
    key = "uma_by_below"
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, (list, tuple)) and all(isinstance(i, (list, tuple)) and len(i) == 2 for i in value):
        items = [tuple(i) for i in value]
    else:
        raise RulesError("invalid_rules", f"{key} must map a count of players below (0-4) to four uma", field=key)
    rows: dict[int, tuple[int, ...]] = {}
    for count, row in items:
        if isinstance(count, str) and count.isdigit():
            count = int(count)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 4 or count in rows:
            raise RulesError("invalid_rules", f"{key} keys are counts of players 0 to 4, once each, not {count!r}",
                             field=f"{key}.{count}")
        rows[count] = _uma_row(row, f"{key}.{count}")
    return tuple(sorted(rows.items()))


def _build(base: Ruleset, changes: Mapping[str, Any]) -> Ruleset:
    coerced = {key: _coerce(key, value) for key, value in changes.items()}
    return dataclasses.replace(base, **coerced)


def _validate(r: Ruleset) -> None:
    def bad(key: str, message: str) -> RulesError:
        return RulesError("invalid_rules", message, field=key)

    for key in ("start_points", "return_points", "target_points", "uma_threshold"):
        value = getattr(r, key)
        if value <= 0 or value % 100:
            raise bad(key, f"{key} must be a positive multiple of 100, not {value}")
    for key in ("honba_ron", "honba_tsumo", "noten_total", "chombo_penalty"):
        if getattr(r, key) < 0:
            raise bad(key, f"{key} must not be negative, not {getattr(r, key)}")
    if r.honba_ron % 100 or r.honba_tsumo % 100:
        raise bad("honba_ron", "honba values must be multiples of 100")
    if r.players not in (3, 4):
        raise bad("players", f"players must be 3 or 4, not {r.players}")
    # Four players: 1, 2 or 3 tenpai seats must each split it into whole 100s;
    # three players: 1 or 2 tenpai seats.
    step = 600 if r.players == 4 else 200
    if r.noten_total % step:
        raise bad("noten_total", f"noten_total must be a multiple of {step}, not {r.noten_total}")
    for key, row in (("uma", r.uma), *((f"uma_by_below.{n}", row) for n, row in r.uma_by_below)):
        if len(row) != r.players:
            raise bad(key, f"{key} must have one value per place ({r.players}), not {len(row)}")
        if sum(row) != 0:
            raise RulesError("invalid_rules", f"{key} must sum to zero, it sums to {sum(row)}", field=key)
        if any(a < b for a, b in zip(row, row[1:], strict=False)):
            raise bad(key, f"{key} must not grow from one place to the next")
    if r.oka != r.players * (r.return_points - r.start_points):
        n = r.players
        raise bad(
            "oka",
            f"oka must be {n} x (return - start) = {n * (r.return_points - r.start_points)} "
            f"so that points sum to zero, not {r.oka}",
        )
    if r.players == 3:
        four_only = sorted(set(r.abortive_draws) & {"suufon_renda", "suucha_riichi", "sanchahou"})
        if four_only:
            raise bad("abortive_draws", f"{four_only[0]} cannot happen with three players")
    if not 0 <= r.aka_dora <= 4:
        raise bad("aka_dora", f"aka_dora must be 0 to 4 red fives, not {r.aka_dora}")
    if r.double_wind_fu not in (2, 4):
        raise bad("double_wind_fu", f"double_wind_fu must be 2 or 4, not {r.double_wind_fu}")
    if r.pinfu_tsumo_fu not in (0, 2):
        raise bad("pinfu_tsumo_fu", f"pinfu_tsumo_fu must be 0 or 2, not {r.pinfu_tsumo_fu}")
    if r.open_pinfu_fu not in (20, 30):
        raise bad("open_pinfu_fu", f"open_pinfu_fu must be 20 or 30, not {r.open_pinfu_fu}")
    if r.end_rounding is EndRounding.TENHOU and r.tie_policy is not TiePolicy.SEAT_ORDER:
        raise bad("end_rounding", "tenhou rounding gives first place the rest, so ties must go by seat order")
    if r.chombo in (Chombo.PENALTY, Chombo.BOTH) and r.chombo_penalty == 0:
        raise bad("chombo_penalty", f"a {r.chombo} chombo needs a chombo_penalty above 0")


def _preset(name: str, spec: Mapping[str, tuple[Any, str]]) -> tuple[Ruleset, dict[str, str]]:
    values = {key: value for key, (value, _source) in spec.items()}
    sources = {key: source for key, (_value, source) in spec.items()}
    missing = {f.name for f in fields(Ruleset)} - set(values) - {"name"}
    assert not missing, f"preset {name} leaves {sorted(missing)} unsourced"
    return _build(Ruleset(), {"name": name, **values}), sources


# Every preset value carries its source. Codes in brackets refer to the
# source list of ../shared/reference/rulesets.md; "Ari-Ari §x" to the rules
# text the project was created from; "choice" marks a value no source fixes,
# which docs/rulesets.md documents.
_ARI = "Ari-Ari rules"
_SPECS: dict[str, dict[str, tuple[Any, str]]] = {
    "ari-ari": {
        "length": ("hanchan", f"{_ARI}: East and South rounds"),
        "start_points": (25000, f"{_ARI} §4.1: 25,000 each"),
        "return_points": (30000, f"{_ARI} §7.2 step 1: return score 30,000"),
        "uma": ([30000, 10000, -10000, -30000], f"{_ARI} §7.2 step 3: +30/+10/-10/-30"),
        "oka": (20000, f"{_ARI} §7.2 step 4: 4 x (30,000 - 25,000) = +20"),
        "tie_policy": ("split", "choice: rules silent; shared uma is the typical club practice [A2]"),
        "tie_remainder": ("seat_order", "choice"),
        "leftover_sticks": ("first", "choice: rules silent; typical club practice [A1]"),
        "end_rounding": ("none", f"{_ARI} §7.2 worked example keeps 100s (41,300 -> +61.3)"),
        "honba_ron": (300, f"{_ARI} §9.2: 100 points per honba per payer; a ron pays 300"),
        "honba_tsumo": (100, f"{_ARI} §9.2: 100 per honba from each tsumo payer"),
        "noten_total": (3000, "issue #2: 3,000 split (rules silent)"),
        "multiple_ron": ("allowed", "issue #2: double ron allowed"),
        "multi_ron_bonus": ("nearest", "issue #2: honba and all sticks to the winner nearest the discarder"),
        "abortive_draws": (list(ABORT_REASONS), "issue #2: abortive draws add a honba; triple ron aborts"),
        "ippatsu": (True, f"{_ARI} (rules/000): Ippatsu, requires Riichi"),
        "nagashi_mangan": (True, "cheat sheet (rules/003): Nagashi Mangan, mangan"),
        "kiriage": (False, f"{_ARI} Figure 2: 4 han 30 fu pays 7,700"),
        "kazoe": ("yakuman", f"{_ARI} Figure 2: Yakuman 13 (han)"),
        "double_yakuman": (True, f"{_ARI} §8.7: double yakuman patterns"),
        "yakuman_stacking": (True, "issue #2: different yakuman stack"),
        "renhou": ("none", f"choice: renhou is not among the {_ARI} yaku"),
        "aka_dora": (3, f"{_ARI} §9.1 Aka Dora; one red five per suit [A1]"),
        "open_tanyao": (True, f"{_ARI} §8.1 Tanyao carries no closed-hand mark"),
        "double_wind_fu": (4, f"{_ARI} §10.2: Renfuu Jantou, 4 fu"),
        "pao": (["daisangen", "daisuushii"], "choice: the two pao yakuman common to every source"),
        "pao_ron_honba": ("liable", "choice: as Tenhou [T1]"),
        "chombo": ("reverse_mangan", "EMA-derived Ari-Ari competition text: reverse mangan [E6]"),
        "chombo_penalty": (0, "no after-uma penalty: the chombo is paid at the table"),
        "bust": (False, "choice: rules silent; play continues below zero [A1][A2]"),
        "west_round": (False, "choice: rules silent; table rules end after South 4"),
        "target_points": (30000, f"{_ARI} §7.2: return score"),
        "agari_yame": ("none", "choice: rules silent; the all-last dealer plays on"),
        "tenpai_yame": ("none", "choice: rules silent"),
        "riichi_below_1000": (True, f"{_ARI} (rules/000, Riichi): wager 1,000 points; no minimum score"),
    },
    "ema-2016": {
        "length": ("hanchan", "[I-P]"),
        "start_points": (30000, "[I-P][I-D]"),
        "return_points": (30000, "[I-P][I-D]"),
        "uma": ([15000, 5000, -5000, -15000], "[E1][I-P]"),
        "oka": (0, "[I-P][I-D]"),
        "tie_policy": ("split", "uma shared [I-P][I-D]"),
        "tie_remainder": ("seat_order", "choice"),
        "leftover_sticks": ("first", "[E1]"),
        "end_rounding": ("none", "[E1]"),
        "honba_ron": (300, "[E3]"),
        "honba_tsumo": (100, "[E3]"),
        "noten_total": (3000, "[E3 §3.4.2]"),
        "multiple_ron": ("allowed", "double and triple ron, discarder pays each [E1][E2]"),
        "multi_ron_bonus": ("honba_each", "discarder pays each winner [E2]; sticks to the discarder's right [E2]"),
        "multi_ron_sticks": ("nearest", "to the discarder's right [E2]; sources conflict: Pantheon's ema gives "
                             "each winner its own stick back [I-P]"),
        "abortive_draws": ([], "none [E1]"),
        "ippatsu": (True, "[I-D]"),
        "nagashi_mangan": (False, "[E1]"),
        "kiriage": (False, "4-30 is not rounded [E1]"),
        "kazoe": ("sanbaiman", "[E1]"),
        "double_yakuman": (False, "[E1][I-P]"),
        "yakuman_stacking": (False, "[E1][I-P]"),
        "renhou": ("mangan", "[E1]"),
        "aka_dora": (0, "red fives removed [E1]"),
        "open_tanyao": (True, "[I-P]"),
        "double_wind_fu": (4, "[I-E][EC-#33]"),
        "open_pinfu_fu": (30, "20 + 2 = 22 -> 30 (EMA scoring example 3) [E3 §4.3]"),
        "pao": (["daisangen", "daisuushii"], "[E4 §3.3.9][I-P]"),
        "pao_ron_honba": ("liable", "choice: no source found"),
        "chombo": ("penalty", "-20 after uma [E1]"),
        "chombo_penalty": (20000, "[E1]"),
        "replacement_result": ("real", "unchanged since before issue #17; a series may pick fixed"),
        "replacement_score": (-15000, "fixed -15 for a replacement, as Pantheon applies the EMA rule "
                              "(replacement_player_fixed_points, pantheon#14) [I-P]; EMA text not read"),
        "replacement_uma": (-15000, "fixed uma -15, as Pantheon applies the EMA rule "
                            "(replacement_player_override_uma) [I-P]; EMA text not read"),
        "bust": (False, "[I-P][I-D][E3]"),
        "west_round": (False, "[I-P][I-D]"),
        "target_points": (30000, "return score [I-P]"),
        "agari_yame": ("none", "[X1]"),
        "tenpai_yame": ("none", "[X1]"),
    },
    "wrc-2022": {
        "length": ("hanchan", "[W2]"),
        "start_points": (30000, "[W2][I-P]"),
        "return_points": (30000, "[W2]"),
        "uma": ([15000, 5000, -5000, -15000], "[W2][I-P]"),
        "oka": (0, "[W2]"),
        "tie_policy": ("split", "split the total of the uma [W6]"),
        "tie_remainder": ("seat_order", "choice"),
        "leftover_sticks": ("lost", "not awarded [E1][W7] (WRC 2015; not re-verified for 2022)"),
        "end_rounding": ("none", "[W2][W3]"),
        "honba_ron": (300, "[W1 §5.7.7]"),
        "honba_tsumo": (100, "[W1 §5.7.7]"),
        "noten_total": (3000, "assumed standard (§5.7.2 not read)"),
        "multiple_ron": ("head_bump", "[W1 §5.7.6][I-P]"),
        "multi_ron_bonus": ("nearest", "head bump: only the nearest winner"),
        "abortive_draws": ([], "none [W2][I-P]"),
        "ippatsu": (True, "[I-D] (WRC 2015; 2022 the same)"),
        "nagashi_mangan": (False, "[W7][I-P]"),
        "kiriage": (True, "[W1 §6.1][I-E][I-P]"),
        "kazoe": ("sanbaiman", "[W4]"),
        "double_yakuman": (False, "double patterns count single [W4][W5]"),
        "yakuman_stacking": (True, "different yakuman stack [W4][W5]"),
        "renhou": ("mangan", "[I-E]"),
        "aka_dora": (0, "[W7]"),
        "open_tanyao": (True, "[I-P]"),
        "double_wind_fu": (2, "[W5][I-E]"),
        "pao": (["daisangen", "daisuushii"], "[I-P][I-D]"),
        "pao_ron_honba": ("liable", "choice: no source found"),
        "chombo": ("penalty", "[W3][W4]"),
        "chombo_penalty": (30000, "-30 [W4][W8]"),
        "replacement_result": ("real", "unchanged since before issue #17; a series may pick fixed"),
        "replacement_score": (-15000, "Pantheon's wrc preset: -15 [I-P]; WRC text not read"),
        "replacement_uma": (-15000, "Pantheon's wrc preset: -15 [I-P]; WRC text not read"),
        "bust": (False, "[I-P] (sources conflict, see rulesets.md)"),
        "west_round": (False, "[W7]"),
        "target_points": (30000, "return score"),
        "agari_yame": ("none", "[W1-TOC][X1]"),
        "tenpai_yame": ("none", "[X1]"),
    },
    "m-league": {
        "length": ("hanchan", "[M1]"),
        "start_points": (25000, "[M1][M2][M3]"),
        "return_points": (30000, "[M1][M2]"),
        "uma": ([30000, 10000, -10000, -30000], "[M1][M2][M6]"),
        "oka": (20000, "rank points +50/+10/-10/-30 [M1][M6]"),
        "tie_policy": ("split", "bonus split evenly [M1][M5]"),
        "tie_remainder": ("seat_order", "choice"),
        "leftover_sticks": ("first", "choice: no source found"),
        "end_rounding": ("none", "no rounding, 100 points = 0.1 [M4][M5]"),
        "honba_ron": (300, "[M2][M3]"),
        "honba_tsumo": (100, "[M2][M3]"),
        "noten_total": (3000, "assumed standard"),
        "multiple_ron": ("head_bump", "[M1][M2]"),
        "multi_ron_bonus": ("nearest", "head bump: only the nearest winner"),
        "abortive_draws": ([], "none [M1][M2][M3]"),
        "ippatsu": (True, "[M3]"),
        "nagashi_mangan": (False, "choice: no source found"),
        "kiriage": (False, "choice: no source found"),
        "kazoe": ("sanbaiman", "sanbaiman cap [M1]"),
        "double_yakuman": (False, "no double patterns [M1]"),
        "yakuman_stacking": (False, "choice: no source found"),
        "renhou": ("none", "choice: no source found"),
        "aka_dora": (3, "[M2][M3]"),
        "open_tanyao": (True, "[M2]"),
        "double_wind_fu": (2, "[M1]"),
        "pao": (["daisangen", "daisuushii", "suukantsu"], "[M1]"),
        "pao_ron_honba": ("discarder", "choice: as the Japanese pro rules [J2]"),
        "chombo": ("reverse_mangan", "mangan payment [M3]"),
        "chombo_penalty": (0, "paid at the table [M3]"),
        "riichi_below_1000": (True, "riichi allowed under 1,000 [M2]"),
        "bust": (False, "no bust [M2][M3]"),
        "west_round": (False, "fixed East and South [M2]"),
        "target_points": (30000, "return score"),
        "agari_yame": ("none", "the South 4 dealer continues [M2]"),
        "tenpai_yame": ("none", "[M2]"),
    },
    "tenhou": {
        "length": ("hanchan", "ranked hanchan lobby [T1]"),
        "start_points": (25000, "[T1][T2]; realdata owari"),
        "return_points": (30000, "[T1][T2]; realdata owari"),
        "uma": ([20000, 10000, -10000, -20000], "[T2][I-D]; 119 of 125 real games"),
        "oka": (20000, "[T1]"),
        "tie_policy": ("seat_order", "[T1][T2]; realdata 2014060513gm-00c1"),
        "tie_remainder": ("seat_order", "unused under seat order"),
        "leftover_sticks": ("first", "[T1][T2]"),
        "end_rounding": ("tenhou", "[T1][T4]; realdata owari, all 125 standard games"),
        "honba_ron": (300, "[I-D]"),
        "honba_tsumo": (100, "[I-D]"),
        "noten_total": (3000, "[T1]"),
        "multiple_ron": ("allowed", "double ron [T1][T3]"),
        "multi_ron_bonus": ("nearest", "[T1][T2]; realdata double rons"),
        "abortive_draws": (list(ABORT_REASONS), "all five [T1]"),
        "ippatsu": (True, "a yaku of every Tenhou lobby [T1]"),
        "nagashi_mangan": (True, "[T1][T3]"),
        "kiriage": (False, "[I-P][I-D]"),
        "kazoe": ("yakuman", "[I-P][I-D]"),
        "double_yakuman": (False, "no double patterns [T1][T3]"),
        "yakuman_stacking": (True, "[T1][T3]"),
        "renhou": ("none", "[I-D]"),
        "aka_dora": (3, "aka lobbies [T1]"),
        "open_tanyao": (True, "kuitan lobbies (喰) [T1]"),
        "double_wind_fu": (4, "[T1]"),
        "pao": (["daisangen", "daisuushii"], "[T1]"),
        "pao_ron_honba": ("liable", "realdata pao ron (FORMATS.md)"),
        "chombo": ("reverse_mangan", "n/a online; choice"),
        "chombo_penalty": (0, "n/a online"),
        "bust": (True, "below 0 ends the game [T2]"),
        "west_round": (True, "sudden death, cap West 4 [T1]"),
        "target_points": (30000, "[T1]"),
        "agari_yame": ("auto", "[T1][T2]"),
        "tenpai_yame": ("auto", "[T1][T2] (from mid-2010)"),
        "riichi_below_1000": (False, "riichi needs 1,000 points or more [T2]"),
    },
}
# Fields added by issue #17. Every preset that predates them keeps the
# behaviour it had, and its sources say so unless the preset sets its own.
_ADDED_17: dict[str, tuple[Any, str]] = {
    "uma_by_below": ({}, "uma does not float"),
    "uma_threshold": (30000, "unused: uma does not float"),
    "uma_at_threshold": ("not_below", "unused: uma does not float"),
    "noten_riichi": ("refused", "unchanged since before issue #17 (no source read for this preset)"),
    "multi_ron_sticks": ("nearest", "unchanged since before issue #17: all sticks to the nearest winner"),
    "replacement_result": ("real", "unchanged since before issue #17: a replacement's game counts as played"),
    "replacement_score": (0, "unused while replacement_result is real"),
    "replacement_uma": (0, "unused while replacement_result is real"),
    "pinfu_tsumo_fu": (0, "unchanged since before issue #17: pinfu tsumo 20 fu"),
    "open_pinfu_fu": (30, "unchanged since before issue #17: open pinfu shape 20 + 2, rounded to 30"),
    "ura_without_riichi": ("refused", "unchanged since before issue #17"),
    "local_yakuman": ([], "unchanged since before issue #17: no local yakuman"),
}
# Fields added by issue #35 (three players): every four-player preset says so.
_ADDED_35: dict[str, tuple[Any, str]] = {
    "players": (4, "four players"),
    "tsumo_loss": (True, "unused with four players"),
}
# Added after issue #28's review: where no source read sets a minimum, a
# riichi under 1,000 is not refused (rulesets.md, "Riichi with <4 tiles left
# / <1000 points": "?" for EMA, WRC, JPML).
_ADDED_RIICHI: dict[str, tuple[Any, str]] = {
    "riichi_below_1000": (True, "no source read sets a minimum (rulesets.md: ?): not refused"),
}
for _spec in _SPECS.values():
    for _key, _entry in _ADDED_17.items():
        _spec.setdefault(_key, _entry)

_SPECS["tenhou-east"] = {
    **_SPECS["tenhou"],
    "length": ("east", "east-only lobby (東風) [T1]"),
    "west_round": (True, "extension into South, cap South 4 [T1]"),
}
_SPECS["mahjong-soul"] = {
    **_SPECS["tenhou"],
    "start_points": (25000, "[MJ1]"),
    "return_points": (25000, "score formula uses 25,000, no oka [MJ1]"),
    "uma": ([15000, 5000, -5000, -15000], "[MJ1]"),
    "oka": (0, "[MJ1]"),
    "tie_policy": ("seat_order", "seat-wind tie-breaker [MJ1]"),
    "end_rounding": ("none", "EndScore = (raw - 25,000)/1000 + uma [MJ1]"),
    "leftover_sticks": ("first", "choice: as Tenhou"),
    "multiple_ron": ("allowed", "double and triple ron [MJ1][T3]"),
    "abortive_draws": (["kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan"], "triple ron is not abortive [MJ1][T3]"),
    "double_yakuman": (True, "kokushi 13, suuankou tanki, junsei chuuren, daisuushii [T3]"),
    "kazoe": ("yakuman", "likely yakuman (rulesets.md: ?)"),
    "double_wind_fu": (4, "[MJ1]"),
    "pao_ron_honba": ("liable", "choice: as Tenhou"),
    "bust": (True, "below 0, exactly 0 plays on [MJ1]"),
    "west_round": (True, "extended if nobody has 30,000, cap West 4 [MJ2]"),
    "agari_yame": ("optional", "the leading dealer may end it [MJ2]"),
    "tenpai_yame": ("optional", "[MJ2]"),
    "riichi_below_1000": (True, "no source read (rulesets.md: ?): not refused"),
    "ippatsu": (True, "yes (rulesets.md, Mahjong Soul ranked 4p)"),
}

# Three-player (sanma) presets, issue #35. Codes in brackets refer to the
# source list of ../shared/reference/sanma.md (§8); [D] is measured on its 27
# real games. Where Tenhou's sanma page says nothing, its 4-player rule
# applies ("same as 4-player unless stated" [MJST]) and the source says so.
_SANMA_ABORTS = (["kyuushu_kyuuhai", "suukaikan"],
                 "九種九牌 seen with a renchan [D]; 四槓散了 by the 4-player rule [MJST][MP]; "
                 "four winds, four riichi and triple ron cannot happen with three [MJSW19b]")
_SPECS["tenhou-sanma"] = {
    **_SPECS["tenhou"],
    "players": (3, "three players, no North seat [MO][RW]"),
    "tsumo_loss": (True, "ツモ損: no North share on a tsumo [TC][RW][D: 75 tsumo wins]"),
    "length": ("hanchan", "三鳳南: E1-E3 and S1-S3 [MO][RW]"),
    "start_points": (35000, "[MJST][D]"),
    "return_points": (40000, "40,000 return [MJST][D: all 21 Tenhou games]"),
    "uma": ([20000, 0, -20000], "+20/0/-20 [MJST][D: all 21 Tenhou games]; not +15/0/-15 (Mahjong Soul's)"),
    "oka": (15000, "3 x (40,000 - 35,000) to first [MJST][D]"),
    "tie_policy": ("seat_order", "nearer the first dealer, 4-player rule [MJST]; no tie in data"),
    "leftover_sticks": ("first", "to first, 4-player rule [MJST]; none in data"),
    "end_rounding": ("none", "exact to 0.1 in games from 2024-01 on [D: 15 games]; games up to 2021 used "
                     "tenhou rounding [D: 5 games], an override (sanma.md §7.2)"),
    "honba_ron": (200, "200 per honba on a ron [D: 28 ron wins with honba][AK][PM]"),
    "honba_tsumo": (100, "100 per honba from each of the 2 payers [D: 31 tsumo wins with honba]"),
    "noten_total": (2000, "2,000 in all [D: 7 one-tenpai and 6 two-tenpai draws]"),
    "multiple_ron": ("allowed", "double ron, 4-player rule [MJST]"),
    "multi_ron_bonus": ("nearest", "to the winner nearest the discarder, 4-player rule [MJST]"),
    "abortive_draws": _SANMA_ABORTS,
    "nagashi_mangan": (True, "4-player rule [MJST]; paid as a mangan tsumo with tsumo loss: choice, "
                       "no sanma text or data (sanma.md §7.5)"),
    "double_yakuman": (False, "4-player rule [MJST]; no sanma text (sanma.md §7.5)"),
    "yakuman_stacking": (True, "4-player rule [MJST]; no sanma text (sanma.md §7.5)"),
    "aka_dora": (2, "one red 5p and one red 5s; no 5m exists [D: only codes 52/53]"),
    "bust": (True, "below 0 ends the game, 4-player rule [MJST][D: 7 games]"),
    "west_round": (True, "sudden death into West until someone has 40,000 [MJST][RE]; not in data"),
    "target_points": (40000, "40,000 [MJST][RE]"),
    "agari_yame": ("auto", "4-player rule [MJST]; [RE] PR #160: first and at least 40,000"),
    "tenpai_yame": ("auto", "4-player rule [MJST]"),
    "riichi_below_1000": (False, "4-player rule [MJST]: riichi needs 1,000 points or more [T2]"),
    "ippatsu": (True, "4-player rule [MJST]"),
}
_SPECS["tenhou-sanma-east"] = {
    **_SPECS["tenhou-sanma"],
    "length": ("east", "三鳳東: East only, E1-E3 [D: 2023010100gm-00f1]"),
    "west_round": (True, "extension into South, 4-player rule [MJST]"),
}
_SPECS["mahjong-soul-sanma"] = {
    **_SPECS["tenhou-sanma"],
    "length": ("east", "the 6 ranked games we have are East-only [D]; South games are an override"),
    "start_points": (35000, "[MP][D]"),
    "return_points": (35000, "35000点返し: no oka, points counted from 35,000 [MP][D: all 6 games]"),
    "uma": ([15000, 0, -15000], "+15/0/-15 [MJSW][MP][D: all 6 games]"),
    "oka": (0, "no oka [MP][D]"),
    "tie_policy": ("seat_order", "seat-wind tiebreaker [MJSW]"),
    "leftover_sticks": ("first", "choice: as Tenhou; unknown (sanma.md §7.5)"),
    "end_rounding": ("none", "exact to 0.1 [D]"),
    "honba_ron": (200, "[MJSW][D][AK]"),
    "noten_total": (2000, "No-ten penalty: 2000 points [MJSW]; no Mahjong Soul draw in data"),
    "multi_ron_bonus": ("nearest", "積み棒/供託は上家取り [MP][D: double ron on a kita]"),
    "abortive_draws": (["kyuushu_kyuuhai", "suukaikan"], "九種九牌 and 四槓散了 only [MP]"),
    "double_yakuman": (True, "13-sided kokushi is a double: 64,000 [D: kokushi13_withnuki]"),
    "kazoe": ("yakuman", "as the 4-player Mahjong Soul preset"),
    "aka_dora": (2, "0p and 0s [MJSW][D]"),
    "bust": (True, "below 0 ends; exactly 0 plays on [MJSW][D: 3 games]"),
    "west_round": (True, "南入/西入 until someone has 40,000 [MP]"),
    "target_points": (40000, "一位必要点数 40,000 [MP]"),
    "agari_yame": ("optional", "the E3 dealer first with 40,000+ may stop: 2 games stopped, "
                   "kokushi13_withnuki played on [D]"),
    "tenpai_yame": ("optional", "as the 4-player Mahjong Soul preset [MJ2]; no draw in data"),
    "riichi_below_1000": (True, "as the 4-player Mahjong Soul preset: no source read, not refused"),
    "ippatsu": (True, "as the 4-player Mahjong Soul preset"),
}

_SPECS["jpml-a-2024"] = {
    # JPML's official rule (連盟公式ルール) as it stood in 2024 [J2]. No JPML
    # text of the floating uma or of the chombo amount was found: those rest
    # on other trackers' presets, and say so.
    "length": ("hanchan", "東南戦半荘 [K1]"),
    "start_points": (30000, "持ち点は各自三万点 [J2][J4][K1]"),
    "return_points": (30000, "[J2]"),
    "uma": ([8000, 4000, -4000, -8000], "floating uma, two above and two below (and 0 or 4 below) [I-P][I-D][T4]; no JPML text found"),
    "uma_by_below": ({"1": [8000, 3000, 1000, -12000], "3": [12000, -1000, -3000, -8000]},
                     "floating uma by players below 30,000 [I-P][I-D]; no JPML text found"),
    "uma_threshold": (30000, "the return score [I-P]"),
    "uma_at_threshold": ("not_below", "Pantheon counts below with a strict < [I-P]; no JPML text found"),
    "oka": (0, "[J2][J4]"),
    "tie_policy": ("split", "Pantheon averages uma (equalize_uma) [I-P]; no JPML text found"),
    "tie_remainder": ("seat_order", "choice"),
    "leftover_sticks": ("lost", "stay on the table as kyoutaku, awarded to nobody [J1]"),
    "end_rounding": ("none", "(end - 30,000)/1000 + uma [I-P]"),
    "honba_ron": (300, "[I-P]"),
    "honba_tsumo": (100, "assumed standard (no source read)"),
    "noten_total": (3000, "[J1][J2]"),
    "multiple_ron": ("head_bump", "上家優先 [J1][J2]"),
    "multi_ron_bonus": ("nearest", "head bump: only the nearest winner"),
    "multi_ron_sticks": ("nearest", "head bump: only the nearest winner"),
    "abortive_draws": ([], "途中流局なし (current rule; older lists had four) [J2]"),
    "ippatsu": (False, "一発なし: no ippatsu [J1][J2][J4]"),
    "nagashi_mangan": (False, "[I-P][I-D]"),
    "kiriage": (False, "no kiriage: 7,700 and 11,600 stay [J2]"),
    "kazoe": ("sanbaiman", "[J2][J4][J3]"),
    "double_yakuman": (False, "no double yakuman [J4]"),
    "yakuman_stacking": (True, "役満の複合あり (current rule) [J2]"),
    "renhou": ("mangan", "mangan, not combined below 8 han [J2][J3]"),
    "aka_dora": (0, "[I-D]"),
    "open_tanyao": (True, "with_kuitan [I-P]"),
    "double_wind_fu": (2, "current rule [J2]"),
    "pinfu_tsumo_fu": (0, "standard (no JPML text read)"),
    "open_pinfu_fu": (30, "standard [rulesets.md: open-pinfu fu]"),
    "ura_without_riichi": ("refused", "no ura dora at all under JPML-A [J1][J2]: none may be given"),
    "local_yakuman": ([], "no local yakuman (no source lists any)"),
    "pao": (["daisangen", "daisuushii", "suukantsu"], "[J2]"),
    "pao_ron_honba": ("discarder", "on a ron the discarder pays the honba [J2]"),
    "chombo": ("penalty", "chombo_amount after uma [I-P]; the JPML amount is unverified"),
    "chombo_penalty": (20000, "Pantheon's 20,000 [I-P]; the JPML amount is unverified"),
    "noten_riichi": ("refused", "no source read; a series picks chombo or noten_payment"),
    "replacement_result": ("real", "no source read; a series may pick fixed"),
    "replacement_score": (-15000, "Pantheon's jpmlA preset: -15 [I-P]"),
    "replacement_uma": (-15000, "Pantheon's jpmlA preset: -15 [I-P]"),
    "bust": (False, "[I-P][I-D] (no JPML text found)"),
    "west_round": (False, "[I-P]"),
    "target_points": (30000, "return score"),
    "agari_yame": ("none", "アガリやめなし [J1][J2]"),
    "tenpai_yame": ("none", "[J1][J2]"),
}

for _spec in _SPECS.values():
    for _key, _entry in (*_ADDED_35.items(), *_ADDED_RIICHI.items()):
        _spec.setdefault(_key, _entry)
for _name in ("tenhou-sanma", "tenhou-sanma-east", "mahjong-soul-sanma"):
    _SPECS[_name] = _SPECS.pop(_name)  # listed after the four-player presets

PRESETS: dict[str, Ruleset] = {}
PRESET_SOURCES: dict[str, dict[str, str]] = {}
for _name, _spec in _SPECS.items():
    PRESETS[_name], PRESET_SOURCES[_name] = _preset(_name, _spec)
DEFAULT_PRESET = "ari-ari"


def get_ruleset(spec: str | Mapping[str, Any] | Ruleset | None = None) -> Ruleset:
    """A preset name, ``{"preset": ..., "overrides": {...}}`` or a Ruleset.

    >>> get_ruleset("tenhou-east").length
    <GameLength.EAST: 'east'>
    >>> get_ruleset("nope")
    Traceback (most recent call last):
    ...
    scoring.errors.RulesError: unknown preset 'nope'; presets: ari-ari, ema-2016, wrc-2022, m-league, tenhou, tenhou-east, mahjong-soul, jpml-a-2024, tenhou-sanma, tenhou-sanma-east, mahjong-soul-sanma
    """
    if spec is None:
        return PRESETS[DEFAULT_PRESET]
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise RulesError(
                "unknown_preset", f"unknown preset {spec!r}; presets: {', '.join(PRESETS)}", field="rules"
            )
        return PRESETS[spec]
    if not isinstance(spec, Mapping):
        raise RulesError("invalid_rules", "rules must be a preset name or {preset, overrides}", field="rules")
    extra = set(spec) - {"preset", "overrides"}
    if extra:
        raise RulesError("unknown_rule", f"unknown key {sorted(extra)[0]!r} in rules", field=f"rules.{sorted(extra)[0]}")
    base = get_ruleset(spec.get("preset", DEFAULT_PRESET))
    overrides = spec.get("overrides") or {}
    if not isinstance(overrides, Mapping):
        raise RulesError("invalid_rules", "overrides must be an object", field="rules.overrides")
    if "name" in overrides:
        raise RulesError("invalid_rules", "name is set by the preset", field="rules.overrides.name")
    try:
        return _build(base, overrides)
    except RulesError as err:
        raise err.with_prefix("rules.overrides") if err.field else err from None
