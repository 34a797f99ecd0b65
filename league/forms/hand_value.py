"""A winner's hand value as the scorer gave it: han and fu, yakuman, picked
yaku or the tiles, checked against each other and through ``scoring``."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import ValidationError

from league.forms.hand_fields import yaku_table
from scoring import game as sg
from scoring.errors import ScoringError
from scoring.hand_api import hand_request
from scoring.payment import check_han_fu
from scoring.rules import Ruleset


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
    add_error: Callable[..., None]

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
            check_han_fu(han, fu, tsumo=tsumo, rules=self.rules)
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
