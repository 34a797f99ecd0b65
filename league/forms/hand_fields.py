"""The fields of the hand form, built from the ruleset: what happened, each
seat's hand value (han and fu, yakuman, picked yaku, or the tiles), and the
shared draw, abort, chombo and riichi fields. Also the stored hand as the
form's initial data, for a correction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from league.forms.base import SEATS, seat_choices
from league.models import Hand
from scoring.payment import max_yakuman
from scoring.rules import Renhou, Ruleset

FU_CHOICES = (20, 25, *range(30, 150, 10))
FLAG_CHOICES = (
    ("ippatsu", "Ippatsu"),
    ("double_riichi", "Double riichi"),
    ("haitei", "Haitei"),
    ("houtei", "Houtei"),
    ("rinshan", "Rinshan"),
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
    table = {y: (name, closed, open_) for y, name, closed, open_ in YAKU}
    if not rules.open_tanyao:
        table["tanyao"] = ("Tanyao", 1, 0)
    if rules.renhou is Renhou.HAN5:
        table["renhou"] = ("Renhou", 5, 0)
    elif rules.renhou is Renhou.MANGAN:
        table["renhou"] = ("Renhou (mangan)", 5, 0)
    return table


def hand_fields(rules: Ruleset, names: Sequence[str]) -> dict[str, forms.Field]:
    """Every field of the hand form under ``rules``, in the order the page shows them."""
    seats = seat_choices(names)
    outcomes = [
        (Hand.Outcome.RON, "Ron"),
        (Hand.Outcome.TSUMO, "Tsumo"),
        (Hand.Outcome.DRAW, "Draw (ryuukyoku)"),
    ]
    if rules.abortive_draws:
        outcomes.append((Hand.Outcome.ABORT, "Abortive draw"))
    outcomes.append((Hand.Outcome.CHOMBO, "Chombo"))
    f: dict[str, forms.Field] = {}
    f["number"] = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    f["outcome"] = forms.ChoiceField(label="What happened?", choices=outcomes, widget=forms.RadioSelect,
                                     error_messages={"required": "Choose what happened."})
    f["winners"] = forms.MultipleChoiceField(label="Who won?", choices=seats, required=False,
                                             widget=forms.CheckboxSelectMultiple,
                                             help_text="Tick two for a double ron.")
    f["loser"] = forms.ChoiceField(label="Who dealt in?", choices=seats, required=False, widget=forms.RadioSelect)
    f["winner"] = forms.ChoiceField(label="Who won?", choices=seats, required=False, widget=forms.RadioSelect)
    han = [("", "han"), *((str(h), f"{h} han") for h in range(1, 13)), ("13", "13+ han")]
    fu = [("", "fu"), *((str(x), f"{x} fu") for x in FU_CHOICES)]
    yakuman = [("0", "no yakuman"), *((str(n), f"{n}x yakuman" if n > 1 else "yakuman")
                                      for n in range(1, max_yakuman(rules) + 1))]
    yaku = [(y, f"{name} ({closed}{'' if open_ == closed else f'/{open_}' if open_ else ' closed'})")
            for y, (name, closed, open_) in yaku_table(rules).items()]
    for s in SEATS:
        f[f"han_{s}"] = forms.TypedChoiceField(label="Han", choices=han, coerce=int, empty_value=None,
                                               required=False)
        f[f"fu_{s}"] = forms.TypedChoiceField(label="Fu", choices=fu, coerce=int, empty_value=None,
                                              required=False)
        f[f"yakuman_{s}"] = forms.TypedChoiceField(label="Yakuman", choices=yakuman, coerce=int,
                                                   empty_value=0, required=False)
        if rules.pao:
            f[f"pao_{s}"] = forms.ChoiceField(label="Pao (liable seat)", required=False,
                                              choices=[("", "none"), *seats])
        f[f"yaku_{s}"] = forms.MultipleChoiceField(label="Yaku", choices=yaku, required=False,
                                                   widget=forms.CheckboxSelectMultiple)
        f[f"dora_{s}"] = forms.IntegerField(label="Dora (with aka and ura)", min_value=0, max_value=30,
                                            required=False)
        f[f"open_{s}"] = forms.BooleanField(label="Open hand (called tiles)", required=False)
        f[f"tiles_{s}"] = forms.CharField(label="Closed tiles with the winning tile", required=False,
                                          max_length=60, help_text="e.g. 234m678p11s55z; 0 is a red five")
        f[f"win_tile_{s}"] = forms.CharField(label="Winning tile", required=False, max_length=3)
        f[f"melds_{s}"] = forms.CharField(label="Calls", required=False, max_length=80,
                                          help_text="e.g. pon 555z, chi 123m, ankan 0555p")
        f[f"flags_{s}"] = forms.MultipleChoiceField(label="Also", choices=FLAG_CHOICES, required=False,
                                                    widget=forms.CheckboxSelectMultiple)
    f["dora_indicators"] = forms.CharField(label="Dora indicators", required=False, max_length=40,
                                           help_text="e.g. 4m 7z")
    f["ura_indicators"] = forms.CharField(label="Ura dora indicators", required=False, max_length=40)
    f["tenpai"] = forms.MultipleChoiceField(label="Who was tenpai?", choices=seats, required=False,
                                            widget=forms.CheckboxSelectMultiple)
    if rules.nagashi_mangan:
        f["nagashi"] = forms.MultipleChoiceField(label="Nagashi mangan", choices=seats, required=False,
                                                 widget=forms.CheckboxSelectMultiple)
    if rules.abortive_draws:
        reasons = [(r.value, r.label) for r in Hand.AbortReason if r.value in rules.abortive_draws]
        f["abort_reason"] = forms.ChoiceField(label="Why?", choices=reasons, required=False,
                                              widget=forms.RadioSelect)
    f["offender"] = forms.ChoiceField(label="Who made the chombo?", choices=seats, required=False,
                                      widget=forms.RadioSelect)
    f["riichi"] = forms.MultipleChoiceField(label="Riichi this hand", choices=seats, required=False,
                                            widget=forms.CheckboxSelectMultiple,
                                            help_text="Who put down a stick.")
    f["note"] = forms.CharField(label="Note", required=False, max_length=500)
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
    for w in wins:
        s = w.winner
        if w.yakuman:
            data[f"yakuman_{s}"] = str(w.yakuman)
        else:
            data[f"han_{s}"] = str(w.han)
            data[f"fu_{s}"] = "" if w.fu is None else str(w.fu)
        if w.pao is not None:
            data[f"pao_{s}"] = str(w.pao)
    data["tenpai"] = [str(s) for s in hand.tenpai]
    data["nagashi"] = [str(s) for s in hand.nagashi]
    data["abort_reason"] = hand.abort_reason
    if hand.chombo_offender is not None:
        data["offender"] = str(hand.chombo_offender)
    # Detail the scoring ignores, kept as given (an import may hold any JSON):
    # what has the expected shape fills the form, anything else is left out.
    for entry in _entries(hand.yaku):
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
        data[f"flags_{s}"] = [k for k, _ in FLAG_CHOICES if entry.get(k)]
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
