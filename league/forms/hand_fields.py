"""The fields of the hand form, built from the ruleset: what happened, each
seat's hand value (han and fu, yakuman, picked yaku, or the tiles), and the
shared draw, abort, chombo and riichi fields. Also the stored hand as the
form's initial data, for a correction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from league.forms.base import SEATS, seat_choices
from league.models import Hand
from league.terms import yaku_name
from scoring.rules import Renhou, Ruleset

FU_CHOICES = (20, 25, *range(30, 150, 10))
HAN_CHOICES = tuple((str(h), str(h)) for h in range(1, 13)) + (("13", "13+"),)

# Yakuman by name: (id, name, worth under a double-yakuman ruleset). The ids
# are the tile analysis' own; "other" keeps a count entered without a name.
# The names shown are league.terms', in the reader's language; these English
# ones name the rows here.
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
FLAG_CHOICES = tuple((y, yaku_name(y)) for y in ("ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan"))

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
    if not rules.open_tanyao:
        table["tanyao"] = (yaku_name("tanyao"), 1, 0)
    if rules.renhou is Renhou.HAN5:
        table["renhou"] = (yaku_name("renhou"), 5, 0)
    elif rules.renhou is Renhou.MANGAN:
        table["renhou"] = (_("Renhou (mangan)"), 5, 0)
    return table


def yakuman_table(rules: Ruleset) -> dict[str, tuple[str, int]]:
    """The yakuman a scorer may name under ``rules``: id -> (name, worth)."""
    table = {y: (yaku_name(y), worth if rules.double_yakuman else 1) for y, _name, worth in YAKUMAN}
    if rules.renhou is Renhou.YAKUMAN:
        table["renhou"] = (yaku_name("renhou"), 1)
    return table


def yakuman_worth(rules: Ruleset, picked: Sequence[str]) -> int:
    """How many yakuman the named ones make: added up where the ruleset
    stacks them, else the biggest."""
    table = yakuman_table(rules)
    worths = [table[y][1] for y in picked if y in table]
    if not worths:
        return 0
    return sum(worths) if rules.yakuman_stacking else max(worths)


def hand_fields(rules: Ruleset, names: Sequence[str]) -> dict[str, forms.Field]:
    """Every field of the hand form under ``rules``, in the order the page shows them."""
    seats = seat_choices(names)
    outcomes = [
        (Hand.Outcome.RON, _("Ron")),
        (Hand.Outcome.TSUMO, _("Tsumo")),
        (Hand.Outcome.DRAW, _("Draw")),
    ]
    if rules.abortive_draws:
        outcomes.append((Hand.Outcome.ABORT, _("Abort")))
    outcomes.append((Hand.Outcome.CHOMBO, _("Chombo")))
    f: dict[str, forms.Field] = {}
    f["number"] = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    # The state the entry was built on (scoring.digest) and the client's key for it.
    f["state"] = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    f["key"] = forms.RegexField(r"^[A-Za-z0-9-]{8,64}$", widget=forms.HiddenInput, required=False)
    f["outcome"] = forms.ChoiceField(label=_("What happened?"), choices=outcomes, widget=forms.RadioSelect,
                                     error_messages={"required": _("Choose what happened.")})
    f["winners"] = forms.MultipleChoiceField(label=_("Who won?"), choices=seats, required=False,
                                             widget=forms.CheckboxSelectMultiple,
                                             help_text=_("Tick two for a double ron."))
    f["loser"] = forms.ChoiceField(label=_("Who dealt in?"), choices=seats, required=False, widget=forms.RadioSelect)
    f["winner"] = forms.ChoiceField(label=_("Who won?"), choices=seats, required=False, widget=forms.RadioSelect)
    fu = [(str(x), str(x)) for x in FU_CHOICES]
    yakuman = [(y, format_lazy(_("{} (double)"), name) if worth > 1 else name)
               for y, (name, worth) in yakuman_table(rules).items()]
    yaku = [(y, format_lazy("{} ({})", name, closed if open_ == closed else f"{closed}/{open_}" if open_
                            else format_lazy(_("{} closed"), closed)))
            for y, (name, closed, open_) in yaku_table(rules).items()]
    for s in SEATS:
        # Radio buttons shown as tap targets, not 13-item dropdowns.
        f[f"han_{s}"] = forms.TypedChoiceField(label=_("Han"), choices=HAN_CHOICES, coerce=int, empty_value=None,
                                               required=False, widget=forms.RadioSelect)
        f[f"fu_{s}"] = forms.TypedChoiceField(label=_("Fu"), choices=fu, coerce=int, empty_value=None,
                                              required=False, widget=forms.RadioSelect)
        f[f"yakuman_{s}"] = forms.MultipleChoiceField(label=_("Yakuman"), choices=yakuman, required=False,
                                                      widget=forms.CheckboxSelectMultiple)
        if rules.pao:
            f[f"pao_{s}"] = forms.ChoiceField(label=_("Pao: who fed the last set?"), required=False,
                                              choices=[("", _("nobody")), *seats], widget=forms.RadioSelect)
        f[f"yaku_{s}"] = forms.MultipleChoiceField(label=_("Yaku"), choices=yaku, required=False,
                                                   widget=forms.CheckboxSelectMultiple)
        f[f"dora_{s}"] = forms.IntegerField(label=_("Dora (with aka and ura)"), min_value=0, max_value=30,
                                            required=False)
        f[f"open_{s}"] = forms.BooleanField(label=_("Open hand (called tiles)"), required=False)
        f[f"tiles_{s}"] = forms.CharField(label=_("Closed tiles with the winning tile"), required=False,
                                          max_length=60, help_text=_("e.g. 234m678p11s55z; 0 is a red five"))
        f[f"win_tile_{s}"] = forms.CharField(label=_("Winning tile"), required=False, max_length=3)
        f[f"melds_{s}"] = forms.CharField(label=_("Calls"), required=False, max_length=80,
                                          help_text=_("e.g. pon 555z, chi 123m, ankan 0555p"))
        f[f"flags_{s}"] = forms.MultipleChoiceField(label=_("Also"), choices=FLAG_CHOICES, required=False,
                                                    widget=forms.CheckboxSelectMultiple)
    f["dora_indicators"] = forms.CharField(label=_("Dora indicators"), required=False, max_length=40,
                                           help_text=_("e.g. 4m 7z"))
    f["ura_indicators"] = forms.CharField(label=_("Ura dora indicators"), required=False, max_length=40)
    f["tenpai"] = forms.MultipleChoiceField(label=_("Who was tenpai?"), choices=seats, required=False,
                                            widget=forms.CheckboxSelectMultiple)
    f["all_noten"] = forms.BooleanField(label=_("Nobody was tenpai"), required=False)
    if rules.nagashi_mangan:
        f["nagashi"] = forms.MultipleChoiceField(label=_("Nagashi mangan"), choices=seats, required=False,
                                                 widget=forms.CheckboxSelectMultiple)
    if rules.abortive_draws:
        reasons = [(r.value, r.label) for r in Hand.AbortReason if r.value in rules.abortive_draws]
        f["abort_reason"] = forms.ChoiceField(label=_("Why?"), choices=reasons, required=False,
                                              widget=forms.RadioSelect)
    f["offender"] = forms.ChoiceField(label=_("Who made the chombo?"), choices=seats, required=False,
                                      widget=forms.RadioSelect)
    f["riichi"] = forms.MultipleChoiceField(label=_("Who declared riichi?"), choices=seats, required=False,
                                            widget=forms.CheckboxSelectMultiple,
                                            help_text=_("Each puts a 1,000 stick on the table."))
    f["note"] = forms.CharField(label=_("Note"), required=False, max_length=500)
    return f


def initial_from_hand(hand: Hand) -> dict[str, Any]:
    """The stored hand as the form's initial data (for a correction)."""
    data: dict[str, Any] = {"number": hand.number, "outcome": hand.outcome, "riichi": [str(s) for s in hand.riichi],
                            "note": hand.note}
    wins = sorted(hand.wins.all(), key=lambda w: w.order)
    if hand.outcome == Hand.Outcome.RON:
        data["loser"] = str(hand.loser)
        data["winners"] = [str(w.winner) for w in wins]
    elif hand.outcome == Hand.Outcome.TSUMO:
        data["winner"] = str(wins[0].winner)
    named = {e["winner"]: _texts(e["yakuman"]) for e in _entries(hand.yaku) if isinstance(e.get("yakuman"), list)}
    for w in wins:
        s = w.winner
        if w.yakuman:
            # A count stored without names (an import) reads back as unnamed yakuman.
            data[f"yakuman_{s}"] = named.get(s) or {1: ["other"], 2: ["other_double"]}.get(
                w.yakuman, ["other", "other_double"])
        else:
            data[f"han_{s}"] = str(w.han)
            data[f"fu_{s}"] = "" if w.fu is None else str(w.fu)
        if w.pao is not None:
            data[f"pao_{s}"] = str(w.pao)
    data["tenpai"] = [str(s) for s in hand.tenpai]
    data["all_noten"] = hand.outcome == Hand.Outcome.DRAW and not hand.tenpai and not hand.nagashi
    data["nagashi"] = [str(s) for s in hand.nagashi]
    data["abort_reason"] = hand.abort_reason
    if hand.chombo_offender is not None:
        data["offender"] = str(hand.chombo_offender)
    # Detail the scoring ignores, kept as given (an import may hold any JSON):
    # what has the expected shape fills the form, anything else is left out.
    for entry in _entries(hand.yaku):
        if "yaku" not in entry:
            continue  # a yakuman named by the staff form, read above
        s = entry["winner"]
        data[f"yaku_{s}"] = _texts(entry.get("yaku"))
        dora = entry.get("dora")
        data[f"dora_{s}"] = dora if isinstance(dora, int) and not isinstance(dora, bool) else None
        data[f"open_{s}"] = bool(entry.get("open"))
    for entry in _entries(hand.tiles):
        s = entry["winner"]
        data[f"tiles_{s}"] = _text(entry.get("tiles"))
        data[f"win_tile_{s}"] = _text(entry.get("win"))
        melds = entry.get("melds")
        data[f"melds_{s}"] = ", ".join(
            f"{m['type']} {m['tiles']}" for m in (melds if isinstance(melds, list) else [])
            if isinstance(m, dict) and isinstance(m.get("type"), str) and isinstance(m.get("tiles"), str)
        )
        data[f"flags_{s}"] = [k for k, _label in FLAG_CHOICES if entry.get(k)]
        data["dora_indicators"] = " ".join(_texts(entry.get("dora")))
        data["ura_indicators"] = " ".join(_texts(entry.get("ura")))
    return data


def _entries(detail: Any) -> list[dict[str, Any]]:
    """The per-winner entries of a hand's ``tiles`` or ``yaku``: objects naming a seat."""
    if not isinstance(detail, list):
        return []
    return [e for e in detail if isinstance(e, dict) and type(e.get("winner")) is int and e["winner"] in SEATS]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _texts(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
