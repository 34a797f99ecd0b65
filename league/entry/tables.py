"""The hand form's vocabulary, from the ruleset: han and fu choices, the
yakuman a scorer may name, the yaku a scorer may pick, the extra flags of a
tile hand. Pure Python: the server's form and the phone's engine read the same
tables (``league.entry``)."""

from __future__ import annotations

from collections.abc import Sequence

from league.entry.translation import gettext as _
from league.entry.translation import yaku_name
from scoring.rules import Renhou, Ruleset

FU_CHOICES = (20, 25, *range(30, 150, 10))
HAN_CHOICES = tuple((str(h), str(h)) for h in range(1, 13)) + (("13", "13+"),)

# Yakuman by name: (id, name, worth under a double-yakuman ruleset). The ids
# are the tile analysis' own; "other" keeps a count entered without a name.
# The names shown are ``translation.yaku_name``'s, in the reader's language
# (``league.engine_words`` on the server); these English ones name the rows here.
YAKUMAN: tuple[tuple[str, str, int], ...] = (
    ("daisangen", "Daisangen", 1),
    ("kokushi", "Kokushi", 1),
    ("suuankou", "Suuankou", 1),
    ("tsuuiisou", "Tsuuiisou", 1),
    ("shousuushii", "Shousuushii", 1),
    ("daisuushii", "Daisuushii", 2),
    ("ryuuiisou", "Ryuuiisou", 1),
    ("chinroutou", "Chinroutou", 1),
    ("suukantsu", "Suukantsu", 1),
    ("chuuren", "Chuuren poutou", 1),
    ("suuankou_tanki", "Suuankou tanki", 2),
    ("junsei_chuuren", "Junsei chuuren poutou", 2),
    ("kokushi_13", "Kokushi, 13-sided wait", 2),
    ("tenhou", "Tenhou", 1),
    ("chiihou", "Chiihou", 1),
    ("other", "Another yakuman", 1),
    ("other_double", "Another double yakuman", 2),
)
# How many choices each value field shows as tap targets; the rest sit behind a "more" target.
SHOWN = {"han": 6, "fu": 7, "yakuman": 3}
# The situations a tile hand may add: (id, English name); the form shows
# them by id in the reader's language (``league.forms.hand_fields``).
FLAG_CHOICES = (
    ("ippatsu", "Ippatsu"),
    ("double_riichi", "Double riichi"),
    ("haitei", "Haitei"),
    ("houtei", "Houtei"),
    ("rinshan", "Rinshan kaihou"),
    ("chankan", "Chankan"),
)

# Yaku a scorer may pick instead of counting han: (id, name, closed han, open
# han); open han 0 means a closed hand only. Standard values; renhou and open
# tanyao follow the ruleset (``yaku_table``). Yakuman are counted, not picked.
YAKU: tuple[tuple[str, str, int, int], ...] = (
    ("riichi", "Riichi", 1, 0),
    ("double_riichi", "Double riichi", 2, 0),
    ("ippatsu", "Ippatsu", 1, 0),
    ("menzen_tsumo", "Menzen tsumo", 1, 0),
    ("pinfu", "Pinfu", 1, 0),
    ("iipeikou", "Iipeikou", 1, 0),
    ("tanyao", "Tanyao", 1, 1),
    ("yakuhai", "Yakuhai (each)", 1, 1),
    ("yakuhai_2", "Yakuhai, second set", 1, 1),
    ("double_wind", "Double wind (seat and round)", 2, 2),
    ("haitei", "Haitei / houtei", 1, 1),
    ("rinshan", "Rinshan kaihou", 1, 1),
    ("chankan", "Chankan", 1, 1),
    ("sanshoku", "Sanshoku", 2, 1),
    ("ittsuu", "Ittsuu", 2, 1),
    ("chanta", "Chanta", 2, 1),
    ("chiitoitsu", "Chiitoitsu (seven pairs)", 2, 0),
    ("toitoi", "Toitoi", 2, 2),
    ("sanankou", "Sanankou", 2, 2),
    ("sankantsu", "Sankantsu", 2, 2),
    ("sanshoku_doukou", "Sanshoku doukou", 2, 2),
    ("honroutou", "Honroutou", 2, 2),
    ("shousangen", "Shousangen", 2, 2),
    ("ryanpeikou", "Ryanpeikou", 3, 0),
    ("junchan", "Junchan", 3, 2),
    ("honitsu", "Honitsu", 3, 2),
    ("chinitsu", "Chinitsu", 6, 5),
)


def yaku_table(rules: Ruleset) -> dict[str, tuple[str, int, int]]:
    """The pickable yaku under ``rules``: id -> (name, closed han, open han)."""
    table = {y: (yaku_name(y), closed, open_) for y, _name, closed, open_ in YAKU}
    table["haitei"] = (_("Haitei / houtei"), *table["haitei"][1:])  # one pick for either last tile
    if not rules.open_tanyao:
        table["tanyao"] = (yaku_name("tanyao"), 1, 0)
    if not rules.ippatsu:
        del table["ippatsu"]  # JPML-A: no ippatsu to pick
    if rules.renhou is Renhou.HAN5:
        table["renhou"] = (yaku_name("renhou"), 5, 0)
    elif rules.renhou is Renhou.MANGAN:
        table["renhou"] = (_("Renhou (mangan)"), 5, 0)
    return table


def yakuman_table(rules: Ruleset) -> dict[str, tuple[str, int]]:
    """The yakuman a scorer may name under ``rules``: id -> (name, worth)."""
    return {y: (yaku_name(y), worth) for y, worth in _yakuman_worths(rules).items()}


def _yakuman_worths(rules: Ruleset) -> dict[str, int]:
    # The worths alone: a hand's check needs no names (each a translation).
    worths = {y: worth if rules.double_yakuman else 1 for y, _name, worth in YAKUMAN}
    if rules.renhou is Renhou.YAKUMAN:
        worths["renhou"] = 1
    return worths


def yakuman_worth(rules: Ruleset, picked: Sequence[str]) -> int:
    """How many yakuman the named ones make: added up where the ruleset
    stacks them, else the biggest."""
    if not picked:
        return 0
    table = _yakuman_worths(rules)
    worths = [table[y] for y in picked if y in table]
    if not worths:
        return 0
    return sum(worths) if rules.yakuman_stacking else max(worths)
