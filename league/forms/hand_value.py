"""A winner's hand value as the scorer gave it: han and fu, yakuman, picked
yaku or the tiles, checked against each other and through ``scoring``."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from league.forms.hand_fields import yaku_table, yakuman_table, yakuman_worth
from league.stats import value_text
from league.terms import refusal, yaku_name
from scoring import game as sg
from scoring.errors import ScoringError
from scoring.hand_api import hand_request
from scoring.payment import check_han_fu
from scoring.rules import Ruleset

DORA_IDS = ("dora", "aka_dora", "ura_dora")


class WinValueMixin:
    """The value entry of ``HandForm``: one winner's han, fu and yakuman.

    It reads the form's cleaned data and adds its errors to the form; the
    tiles and yaku it accepts are kept on ``tiles`` and ``yaku`` for the hand.
    """

    rules: Ruleset
    state: sg.TableState
    names: list[str]
    tiles: list[dict[str, Any]]
    yaku: list[dict[str, Any]]
    counted: dict[int, str]  # per winner, what was counted: "4 han 30 fu (Riichi, Pinfu, Tanyao, 1 dora)"
    add_error: Callable[..., None]

    def _win(self, data: dict[str, Any], s: int, *, tsumo: bool) -> sg.Win | None:
        """One winner's value: han and fu, or yakuman; filled from picked yaku
        or from tiles when the scorer gave those instead."""
        han, fu = data.get(f"han_{s}"), data.get(f"fu_{s}")
        named = list(data.get(f"yakuman_{s}") or [])
        yakuman = yakuman_worth(self.rules, named)
        pao = data.get(f"pao_{s}") or None
        reasons: list[str] = []
        if named:
            table = yakuman_table(self.rules)
            reasons = [str(table[y][0]) for y in named]
            self.yaku.append({"winner": s, "yakuman": named})
        analysed = self._from_tiles(data, s, tsumo=tsumo)
        if analysed is not None:
            t_han, t_fu, t_yakuman, reasons = analysed
            if t_yakuman:
                if yakuman and yakuman != t_yakuman:
                    self.add_error(f"yakuman_{s}", _("The tiles make %(n)dx yakuman.") % {"n": t_yakuman})
                yakuman, han, fu = t_yakuman, None, None
            elif han is None and fu is None and not yakuman:
                han, fu = t_han, t_fu
            elif (han, fu) != (t_han, t_fu):
                self.add_error(f"han_{s}", _("The tiles make %(han)s han %(fu)s fu; clear han and fu or fix the tiles.") % {"han": t_han, "fu": t_fu})
        picked = data.get(f"yaku_{s}") or []
        if picked and not yakuman:
            total = self._from_yaku(data, s, picked)
            if total is not None:
                table = yaku_table(self.rules)
                dora = data.get(f"dora_{s}") or 0
                reasons = [str(table[y][0]) for y in picked] + ([_("%(n)d dora") % {"n": dora}] if dora else [])
                if han is None:
                    han = min(total, 13)
                elif han != min(total, 13):
                    self.add_error(f"han_{s}", _("The yaku picked make %(total)s han, not %(han)s.") % {"total": total, "han": han})
                if fu is None and "chiitoitsu" in picked:
                    fu = 25
                elif fu is None and "pinfu" in picked:
                    fu = 20 if tsumo else 30
        if yakuman:
            if han is not None or fu is not None:
                self.add_error(f"yakuman_{s}", _("Give han and fu, or yakuman, not both."))
                return None
            if pao is not None and int(pao) == s:
                self.add_error(f"pao_{s}", _("The liable seat cannot be the winner."))
                return None
            if pao is not None and named and not set(named) & set(self.rules.pao):
                self.add_error(f"pao_{s}", _("Pao applies only to %(yakuman)s.") % {"yakuman": self._pao_names()})
                return None
            self.counted[s] = value_text(sg.Win(winner=s, yakuman=yakuman)) + (
                f" ({', '.join(reasons)})" if reasons else "")
            return sg.Win(winner=s, yakuman=yakuman, pao=None if pao is None else int(pao))
        if pao is not None:
            self.add_error(f"pao_{s}", _("Pao applies only to %(yakuman)s.") % {"yakuman": self._pao_names()})
            return None
        if han is None:
            self.add_error(f"han_{s}", _("How many han for %(who)s?") % {"who": self.names[s]})
            return None
        try:
            check_han_fu(han, fu, tsumo=tsumo, rules=self.rules)
        except ScoringError as err:
            self.add_error(f"{'han' if err.field == 'han' else 'fu'}_{s}", ValidationError(refusal(err.code, err.message), code=err.code))
            return None
        self.counted[s] = value_text(sg.Win(winner=s, han=han, fu=fu)) + (
            f" ({', '.join(reasons)})" if reasons else "")
        return sg.Win(winner=s, han=han, fu=fu)

    def _pao_names(self) -> str:
        table = yakuman_table(self.rules)
        return _(" and ").join(str(table[y][0]) if y in table else y for y in sorted(self.rules.pao)) or _("no yakuman here")

    def _from_yaku(self, data: dict[str, Any], s: int, picked: Sequence[str]) -> int | None:
        table = yaku_table(self.rules)
        is_open = bool(data.get(f"open_{s}"))
        total = data.get(f"dora_{s}") or 0
        sticks = data.get("riichi") or []
        for y in picked:
            name, closed, open_ = table[y]
            if y in ("riichi", "double_riichi") and str(s) not in sticks:
                self.add_error(f"yaku_{s}", _("%(yaku)s is picked but %(who)s's riichi stick is not ticked.") % {"yaku": name, "who": self.names[s]})
                return None
            if is_open and not open_:
                self.add_error(f"yaku_{s}", _("%(yaku)s needs a closed hand.") % {"yaku": name})
                return None
            total += open_ if is_open else closed
        self.yaku.append({"winner": s, "yaku": list(picked), "dora": data.get(f"dora_{s}") or 0, "open": is_open})
        return total

    def _from_tiles(self, data: dict[str, Any], s: int, *,
                    tsumo: bool) -> tuple[int, int | None, int, list[str]] | None:
        """Han, fu and yakuman from the tiles, through ``scoring.hand_api``."""
        tiles = (data.get(f"tiles_{s}") or "").replace(" ", "")
        if not tiles:
            return None
        win = (data.get(f"win_tile_{s}") or "").strip()
        if not win:
            self.add_error(f"win_tile_{s}", _("Which tile completed the hand?"))
            return None
        melds = []
        for part in filter(None, (p.strip() for p in re.split(r"[,;]", data.get(f"melds_{s}") or ""))):
            kind, _sep, meld_tiles = part.partition(" ")
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
            if not riichi:
                self.add_error(f"flags_{s}", _("Double riichi is ticked but %(who)s's riichi stick is not.") % {"who": self.names[s]})
                return None
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
            self.add_error(field, ValidationError(refusal(err.code, err.message), code=err.code))
            return None
        stored = {k: v for k, v in request.items() if k != "rules"}
        self.tiles.append({"winner": s, **stored})
        reasons = [str(yaku_name(y["id"])) + (f" {y['han']}" if y["id"] in DORA_IDS else "") for y in out["yaku"]]
        if out["yakuman"]:
            return 0, None, out["yakuman"], reasons
        return out["han"], out["fu"], 0, reasons
