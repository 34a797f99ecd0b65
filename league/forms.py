"""Staff entry forms. Each validates what a scorer typed and hands the views a
``scoring`` value object (``HandForm.hand``); the services then check it
against the game. A refused input comes back on the form: ``add_service_error``
puts a ``ServiceError`` next to the field its ``field`` names.

Seats are named the way staff know them: the wind a player started in, then
the player ("South Bob"), whoever deals now.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from league.models import WINDS, Game, Hand, Player
from league.services import ServiceError
from scoring import game as sg
from scoring.errors import ScoringError
from scoring.hand_api import hand_request
from scoring.payment import check_han_fu, max_yakuman
from scoring.rules import Renhou, Ruleset

SEATS = (0, 1, 2, 3)
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


def seat_names(game: Game) -> list[str]:
    """"East Alice", "South Bob"...: the wind each player started in, then the name."""
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    return [f"{WINDS[s.seat]} {s.player.name}" for s in seats]


def _seat_choices(names: Sequence[str]) -> list[tuple[str, str]]:
    return [(str(i), name) for i, name in enumerate(names)]


def _seats(values: Sequence[str]) -> tuple[int, ...]:
    return tuple(sorted(int(v) for v in values))


class StaffForm(forms.Form):
    """Renders as staff pages expect and takes ``ServiceError`` back."""

    template_name = "league/staff_form.html"
    names: Sequence[str] = ()

    def service_field(self, field: str | None) -> str | None:
        """The form field a service error's ``field`` names; None = the whole form."""
        if field in self.fields:
            return field
        return None

    def add_service_error(self, err: ServiceError) -> None:
        self.add_error(self.service_field(err.field), ValidationError(self.words(err.message), code=err.code))

    def words(self, message: str) -> str:
        """The engine counts seats 0-3; staff know them by wind and name."""
        if not self.names:
            return message
        return re.sub(r"\bseat ([0-3])\b", lambda m: self.names[int(m[1])], message)


# -- start a game -----------------------------------------------------------------


class StartGameForm(StaffForm):
    round_number = forms.IntegerField(label="Round", min_value=1, initial=1)
    table = forms.CharField(label="Table", max_length=20, required=False)
    east = forms.ModelChoiceField(Player.objects.all(), label="East (first dealer)")
    south = forms.ModelChoiceField(Player.objects.all(), label="South")
    west = forms.ModelChoiceField(Player.objects.all(), label="West")
    north = forms.ModelChoiceField(Player.objects.all(), label="North")

    SEAT_FIELDS = ("east", "south", "west", "north")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seen: dict[int, str] = {}
        for name in self.SEAT_FIELDS:
            player = data.get(name)
            if player is None:
                continue
            if player.pk in seen:
                self.add_error(name, f"{player} already sits {seen[player.pk]}; a player sits once.")
            else:
                seen[player.pk] = self.fields[name].label.split()[0]
        return data

    def players(self) -> list[Player]:
        return [self.cleaned_data[name] for name in self.SEAT_FIELDS]

    def service_field(self, field: str | None) -> str | None:
        m = re.fullmatch(r"players\[(\d)\]", field or "")
        if m:
            return self.SEAT_FIELDS[int(m[1])]
        return super().service_field(field)


# -- one hand -----------------------------------------------------------------------


class HandForm(StaffForm):
    """One hand, as the scorer saw it. ``state`` is where the game stood
    before it (for the tile analysis' winds); ``hand`` is the result."""

    template_name = "league/staff_hand_form.html"

    def __init__(self, *args: Any, game: Game, names: Sequence[str], state: sg.TableState, number: int,
                 **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("number", number)
        super().__init__(*args, **kwargs)
        self.game, self.names, self.state, self.rules = game, list(names), state, game.ruleset()
        rules = self.rules
        seats = _seat_choices(self.names)
        outcomes = [
            (Hand.Outcome.RON, "Ron"),
            (Hand.Outcome.TSUMO, "Tsumo"),
            (Hand.Outcome.DRAW, "Draw (ryuukyoku)"),
        ]
        if rules.abortive_draws:
            outcomes.append((Hand.Outcome.ABORT, "Abortive draw"))
        outcomes.append((Hand.Outcome.CHOMBO, "Chombo"))
        f = self.fields
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
        self.win_seats: tuple[int, ...] = ()
        self.hand: sg.HandInput | None = None

    @classmethod
    def initial_for(cls, hand: Hand) -> dict[str, Any]:
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
        for entry in hand.yaku or []:
            if isinstance(entry, dict) and entry.get("winner") in SEATS:
                s = entry["winner"]
                data[f"yaku_{s}"] = list(entry.get("yaku", []))
                data[f"dora_{s}"] = entry.get("dora")
                data[f"open_{s}"] = bool(entry.get("open"))
        for entry in hand.tiles or []:
            if isinstance(entry, dict) and entry.get("winner") in SEATS:
                s = entry["winner"]
                data[f"tiles_{s}"] = entry.get("tiles", "")
                data[f"win_tile_{s}"] = entry.get("win", "")
                data[f"melds_{s}"] = ", ".join(f"{m['type']} {m['tiles']}" for m in entry.get("melds", []))
                data[f"flags_{s}"] = [k for k, _ in FLAG_CHOICES if entry.get(k)]
                data["dora_indicators"] = " ".join(entry.get("dora", []))
                data["ura_indicators"] = " ".join(entry.get("ura", []))
        return data

    # -- validation ------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        outcome = data.get("outcome")
        if not outcome:
            return data
        riichi = _seats(data.get("riichi", []))
        self.tiles: list[dict[str, Any]] = []
        self.yaku: list[dict[str, Any]] = []
        result: sg.Outcome | None = None
        if outcome == Hand.Outcome.RON:
            result = self._clean_ron(data)
        elif outcome == Hand.Outcome.TSUMO:
            result = self._clean_tsumo(data)
        elif outcome == Hand.Outcome.DRAW:
            result = sg.Draw(tenpai=_seats(data.get("tenpai", [])), nagashi=_seats(data.get("nagashi", [])))
        elif outcome == Hand.Outcome.ABORT:
            if not data.get("abort_reason"):
                self.add_error("abort_reason", "Choose why the hand was aborted.")
            else:
                result = sg.Abort(reason=sg.AbortReason(data["abort_reason"]))
        elif outcome == Hand.Outcome.CHOMBO:
            if not data.get("offender"):
                self.add_error("offender", "Choose who made the chombo.")
            else:
                result = sg.Chombo(offender=int(data["offender"]))
            riichi = ()  # a chombo voids the hand: no stick from it is paid
        if result is not None and not self.errors:
            self.hand = sg.HandInput(
                outcome=result, riichi=riichi, tiles=self.tiles or None, yaku=self.yaku or None,
                note=data.get("note") or None,
            )
        return data

    def _clean_ron(self, data: dict[str, Any]) -> sg.Ron | None:
        winners = _seats(data.get("winners", []))
        loser = data.get("loser")
        if not winners:
            self.add_error("winners", "Tick who won.")
        if not loser:
            self.add_error("loser", "Choose who dealt in.")
        elif int(loser) in winners:
            self.add_error("loser", f"{self.names[int(loser)]} cannot both win and deal in.")
        # Winners are listed from the discarder's right, as the engine reads them.
        if loser:
            winners = tuple(sorted(winners, key=lambda w: (w - int(loser)) % 4))
        self.win_seats = winners
        wins = [self._win(data, s, tsumo=False) for s in winners]
        if self.errors or not loser:
            return None
        return sg.Ron(loser=int(loser), wins=tuple(w for w in wins if w is not None))

    def _clean_tsumo(self, data: dict[str, Any]) -> sg.Tsumo | None:
        if not data.get("winner"):
            self.add_error("winner", "Choose who won.")
            return None
        s = int(data["winner"])
        self.win_seats = (s,)
        win = self._win(data, s, tsumo=True)
        if win is None:
            return None
        return sg.Tsumo(winner=s, han=win.han, fu=win.fu, yakuman=win.yakuman, pao=win.pao)

    def _win(self, data: dict[str, Any], s: int, *, tsumo: bool) -> sg.Win | None:
        """One winner's value: han and fu, or yakuman; filled from picked yaku
        or from tiles when the scorer gave those instead."""
        han, fu, yakuman = data.get(f"han_{s}"), data.get(f"fu_{s}"), data.get(f"yakuman_{s}") or 0
        pao = data.get(f"pao_{s}") or None
        analysed = self._from_tiles(data, s, tsumo=tsumo)
        if analysed is not None:
            t_han, t_fu, t_yakuman = analysed
            if t_yakuman:
                if yakuman and yakuman != t_yakuman:
                    self.add_error(f"yakuman_{s}", f"The tiles make {t_yakuman}x yakuman.")
                yakuman, han, fu = t_yakuman, None, None
            elif han is None and fu is None and not yakuman:
                han, fu = t_han, t_fu
            elif (han, fu) != (t_han, t_fu):
                self.add_error(f"han_{s}", f"The tiles make {t_han} han {t_fu} fu; clear han and fu or fix the tiles.")
        picked = data.get(f"yaku_{s}") or []
        if picked and not yakuman:
            total = self._from_yaku(data, s, picked)
            if total is not None:
                if han is None:
                    han = min(total, 13)
                elif han != min(total, 13):
                    self.add_error(f"han_{s}", f"The yaku picked make {total} han, not {han}.")
                if fu is None and "chiitoitsu" in picked:
                    fu = 25
                elif fu is None and "pinfu" in picked:
                    fu = 20 if tsumo else 30
        if yakuman:
            if han is not None or fu is not None:
                self.add_error(f"yakuman_{s}", "Give han and fu, or yakuman, not both.")
                return None
            if pao is not None and int(pao) == s:
                self.add_error(f"pao_{s}", "The liable seat cannot be the winner.")
                return None
            return sg.Win(winner=s, yakuman=yakuman, pao=None if pao is None else int(pao))
        if pao is not None:
            self.add_error(f"pao_{s}", "Pao applies only to a yakuman.")
            return None
        if han is None:
            self.add_error(f"han_{s}", f"How many han for {self.names[s]}?")
            return None
        try:
            check_han_fu(han, fu, tsumo=tsumo)
        except ScoringError as err:
            self.add_error(f"{'han' if err.field == 'han' else 'fu'}_{s}", ValidationError(err.message, code=err.code))
            return None
        return sg.Win(winner=s, han=han, fu=fu)

    def _from_yaku(self, data: dict[str, Any], s: int, picked: Sequence[str]) -> int | None:
        table = yaku_table(self.rules)
        is_open = bool(data.get(f"open_{s}"))
        total = data.get(f"dora_{s}") or 0
        for y in picked:
            name, closed, open_ = table[y]
            if is_open and not open_:
                self.add_error(f"yaku_{s}", f"{name} needs a closed hand.")
                return None
            total += open_ if is_open else closed
        self.yaku.append({"winner": s, "yaku": list(picked), "dora": data.get(f"dora_{s}") or 0, "open": is_open})
        return total

    def _from_tiles(self, data: dict[str, Any], s: int, *, tsumo: bool) -> tuple[int, int | None, int] | None:
        """Han, fu and yakuman from the tiles, through ``scoring.hand_api``."""
        tiles = (data.get(f"tiles_{s}") or "").replace(" ", "")
        if not tiles:
            return None
        win = (data.get(f"win_tile_{s}") or "").strip()
        if not win:
            self.add_error(f"win_tile_{s}", "Which tile completed the hand?")
            return None
        melds = []
        for part in filter(None, (p.strip() for p in re.split(r"[,;]", data.get(f"melds_{s}") or ""))):
            kind, _, meld_tiles = part.partition(" ")
            melds.append({"type": kind.lower(), "tiles": meld_tiles.replace(" ", "")})
        winds = "ESWN"
        request: dict[str, Any] = {
            "rules": self.rules.to_spec(),
            "tiles": tiles,
            "win": win,
            "melds": melds,
            "seat": winds[(s - self.state.dealer) % 4],
            "round": winds[self.state.round // 4 % 4],
            "dora": (data.get("dora_indicators") or "").split(),
            "ura": (data.get("ura_indicators") or "").split(),
            "tsumo": tsumo,
        }
        riichi = str(s) in (data.get("riichi") or [])
        flags = set(data.get(f"flags_{s}") or [])
        if "double_riichi" in flags:
            request["double_riichi"] = True
        elif riichi:
            request["riichi"] = True
        for flag in flags - {"double_riichi"}:
            request[flag] = True
        try:
            out = hand_request(request)
        except ScoringError as err:
            field = {"win": f"win_tile_{s}", "melds": f"melds_{s}", "dora": "dora_indicators",
                     "ura": "ura_indicators"}.get((err.field or "").split("[")[0].split(".")[0], f"tiles_{s}")
            self.add_error(field, ValidationError(err.message, code=err.code))
            return None
        stored = {k: v for k, v in request.items() if k != "rules"}
        self.tiles.append({"winner": s, **stored})
        if out["yakuman"]:
            return 0, None, out["yakuman"]
        return out["han"], out["fu"], 0

    # -- errors from the services ---------------------------------------------------

    def service_field(self, field: str | None) -> str | None:
        if not field:
            return None
        m = re.fullmatch(r"outcome\.wins\[(\d+)\](?:\.(\w+))?", field)
        if m and int(m[1]) < len(self.win_seats):
            part = m[2] if m[2] in ("han", "fu", "yakuman", "pao") else None
            return f"{part}_{self.win_seats[int(m[1])]}" if part else "winners"
        m = re.fullmatch(r"outcome\.(han|fu|yakuman|pao)", field)
        if m and self.win_seats:
            return f"{m[1]}_{self.win_seats[0]}"
        if field.startswith("riichi"):
            return "riichi"
        simple = {
            "outcome.loser": "loser", "outcome.wins": "winners", "outcome.winner": "winner",
            "outcome.tenpai": "tenpai", "outcome.nagashi": "nagashi", "outcome.reason": "abort_reason",
            "outcome.offender": "offender", "outcome.type": "outcome", "outcome": "outcome",
        }
        key = re.sub(r"\[\d+\]$", "", field)
        name = simple.get(key)
        return name if name in self.fields else None

    # -- display helpers ------------------------------------------------------------

    def error_lines(self) -> list[str]:
        """Every error in one list, each field named with its seat (for the preview)."""
        lines = []
        for name, errors in self.errors.items():
            label = ""
            if name != "__all__":
                label = str(self.fields[name].label)
                m = re.fullmatch(r"\w+_([0-3])", name)
                if m and name not in ("abort_reason",):
                    label = f"{self.names[int(m[1])]}, {label.lower()}"
            lines.extend(f"{label}: {e}" if label else str(e) for e in errors)
        return lines

    def seat_rows(self) -> list[dict[str, Any]]:
        """Per seat, the bound fields of its hand value, for the template."""
        rows = []
        for s in SEATS:
            row = {"seat": s, "name": self.names[s]}
            for key in ("han", "fu", "yakuman", "pao", "yaku", "dora", "open", "tiles", "win_tile", "melds", "flags"):
                if f"{key}_{s}" in self.fields:
                    row[key] = self[f"{key}_{s}"]
            rows.append(row)
        return rows

    def chosen_outcome(self) -> str:
        value = self["outcome"].value()
        return value if value in dict(self.fields["outcome"].choices) else ""


# -- the end of a game ------------------------------------------------------------------


class FinishForm(StaffForm):
    end = forms.ChoiceField(label="How does the game end?", widget=forms.RadioSelect)

    def __init__(self, *args: Any, rules: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(Game.End.EARLY.value, "End it now (time is up)")]
        if "optional" in (rules.agari_yame.value, rules.tenpai_yame.value):
            choices.append((Game.End.AGARI_YAME.value, "The all-last dealer stops (agari-yame)"))
        self.fields["end"].choices = choices
        self.fields["end"].initial = Game.End.EARLY.value


class FinalScoresForm(StaffForm):
    """A game kept by its four end scores only."""

    riichi_sticks = forms.IntegerField(label="Riichi sticks left on the table", min_value=0, initial=0)

    def __init__(self, *args: Any, names: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = list(names)
        sticks = self.fields.pop("riichi_sticks")
        for s in SEATS:
            self.fields[f"score_{s}"] = forms.IntegerField(
                label=f"{self.names[s]}: end score", step_size=100,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 100}),
                error_messages={"step_size": "Table points come in hundreds."},
            )
        self.fields["riichi_sticks"] = sticks

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{s}"] for s in SEATS]

    def service_field(self, field: str | None) -> str | None:
        if field == "final.riichi_sticks":
            return "riichi_sticks"
        m = re.fullmatch(r"final\.scores\[(\d)\]", field or "")
        if m:
            return f"score_{m[1]}"
        return None  # the sum concerns all four: shown above them


class PenaltyForm(StaffForm):
    seat = forms.TypedChoiceField(label="Who?", coerce=int, widget=forms.RadioSelect)
    points = forms.DecimalField(label="Points", max_digits=7, decimal_places=1,
                                help_text="Negative for a penalty: -20 takes 20.0 points after uma.",
                                widget=forms.NumberInput(attrs={"step": "0.1", "inputmode": "decimal"}))
    reason = forms.CharField(label="Reason", max_length=200)

    def __init__(self, *args: Any, names: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = list(names)
        self.fields["seat"].choices = _seat_choices(self.names)

    def clean_points(self) -> int:
        value: Decimal = self.cleaned_data["points"]
        if value == 0:
            raise ValidationError("A penalty of 0 changes nothing.", code="invalid_penalty")
        return int(value * 1000)  # thousandths, as everything after uma is stored
