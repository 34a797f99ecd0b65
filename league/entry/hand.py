"""One hand as the scorer entered it, read into a ``scoring`` hand: the
checks of the staff hand form that go beyond one field (who won, who dealt
in, han and fu against yaku or tiles, the draw, abort and chombo details).

Pure Python, no Django: the server's ``HandForm`` runs it on its cleaned data
and the phone runs it in Pyodide on the same fields (``league.entry.phone``),
so a hand is read the same way on both. Errors are kept per form field, in
the order found, with the engine's code where there is one.
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence
from typing import Any

from league.db_bounds import MAX_HAN, text_problem
from league.entry.tables import yaku_table, yakuman_table, yakuman_worth
from league.entry.translation import gettext as _
from league.entry.translation import refusal_of, yaku_name
from scoring import game as sg
from scoring.errors import HandError, ScoringError
from scoring.hand import Meld, MeldKind, Situation, check_situation
from scoring.hand_api import hand_request
from scoring.payment import check_han_fu
from scoring.rules import Ruleset

RON, TSUMO, DRAW, ABORT, CHOMBO = "ron", "tsumo", "draw", "abort", "chombo"
DORA_IDS = ("dora", "aka_dora", "ura_dora")
# The pickable yaku that are situations of the win (league.entry.tables.YAKU):
# the engine's flag each claims; "haitei" is one pick for haitei or houtei.
SITUATION_YAKU = ("double_riichi", "ippatsu", "haitei", "rinshan", "chankan")


def calls(text: str | None) -> list[tuple[str, str]]:
    """The calls a scorer typed ("pon 555z, chi 123m"): (kind, tiles) each."""
    out = []
    for part in filter(None, (p.strip() for p in re.split(r"[,;]", text or ""))):
        kind, _sep, tiles = part.partition(" ")
        out.append((kind.lower(), tiles.replace(" ", "")))
    return out


def has_open_call(text: str | None) -> bool:
    """Whether the calls typed hold an open one (any but a closed kan);
    a kind the engine does not know is left to the tile analysis."""
    for kind, _tiles in calls(text):
        if kind in MeldKind.__members__.values() and Meld(MeldKind(kind), 0).opened:
            return True
    return False


def seat_set(values: Sequence[str]) -> tuple[int, ...]:
    return tuple(sorted(int(v) for v in values))


def check_hand_bounds(hand: sg.HandInput, field: str) -> None:
    """Refuse what the database cannot hold (``league.db_bounds``): han past
    ``MAX_HAN``, NUL in the note, tiles or yaku, detail nested too deep.

    The engine takes any han, and a hand's ``tiles`` and ``yaku`` are detail it
    ignores, kept as given: this is the one check they get.
    """
    o = hand.outcome
    wins = list(o.wins) if isinstance(o, sg.Ron) else [o] if isinstance(o, sg.Tsumo) else []
    for i, w in enumerate(wins):
        if isinstance(w.han, int) and w.han > MAX_HAN:
            where = f"{field}.outcome.wins[{i}].han" if isinstance(o, sg.Ron) else f"{field}.outcome.han"
            raise HandError("out_of_range", f"han is at most {MAX_HAN}, not {w.han:,}", field=where)
    for key in ("note", "tiles", "yaku"):
        value = getattr(hand, key)
        problem = None if value is None else text_problem(value)  # most hands give none of them
        if problem:
            raise HandError("invalid_text", f"{key} {problem}", field=f"{field}.{key}")


def value_text(*, han: int | None = None, fu: int | None = None, yakuman: int = 0) -> str:
    """What a win is worth in words: "3 han 40 fu", "yakuman", "2x yakuman"."""
    if yakuman:
        return _("yakuman") if yakuman == 1 else _("%(n)dx yakuman") % {"n": yakuman}
    if fu is not None:
        return _("%(han)d han %(fu)d fu") % {"han": han, "fu": fu}
    return _("%(han)d han") % {"han": han}


def caller_field(err: ScoringError, hand_index: int | None = None) -> tuple[str | None, str]:
    """The engine's field and message from the caller's side: a hand being
    entered is ``outcome.loser``, any other hand of the game ``hands[5].outcome``
    (and the message says that later hand would no longer be possible)."""
    field, message = err.field, err.message
    if field is not None and hand_index is not None:
        own = f"hands[{hand_index}]"
        if field == own or field.startswith(own + "."):
            field = field[len(own) + 1 :] or None
        elif field.startswith("hands["):
            later = int(field[6 : field.index("]")]) + 1
            message = f"hand {later} would no longer be possible: {message}"
    return field, message


def form_field(field: str | None, win_seats: Sequence[int], fields: Container[str]) -> str | None:
    """The hand form's field an engine error names (``outcome.wins[1].han``
    is the second winner's han), or None for the whole form."""
    if not field:
        return None
    m = re.fullmatch(r"outcome\.wins\[(\d+)\](?:\.(\w+))?", field)
    if m and int(m[1]) < len(win_seats):
        part = m[2] if m[2] in ("han", "fu", "yakuman", "pao") else None
        return f"{part}_{win_seats[int(m[1])]}" if part else "winners"
    m = re.fullmatch(r"outcome\.(han|fu|yakuman|pao)", field)
    if m and win_seats:
        return f"{m[1]}_{win_seats[0]}"
    if field.startswith("riichi"):
        return "riichi"
    simple = {
        "outcome.loser": "loser", "outcome.wins": "winners", "outcome.winner": "winner",
        "outcome.tenpai": "tenpai", "outcome.nagashi": "nagashi", "outcome.reason": "abort_reason",
        "outcome.offender": "offender", "outcome.type": "outcome", "outcome": "outcome",
    }
    key = re.sub(r"\[\d+\]$", "", field)
    name = simple.get(key)
    return name if name in fields else None


class HandEntry:
    """Read ``data`` (the hand form's cleaned fields) into ``hand``.

    ``state`` is where the game stood before the hand (the tile analysis'
    winds). ``errors`` maps a field (None: the whole form) to its
    ``(message, code)`` list; ``has_errors`` says whether single fields were
    refused before (then no hand is built). A field given an error leaves
    ``data``, as a Django form's does.
    """

    def __init__(self, rules: Ruleset, names: Sequence[str], state: sg.TableState, data: dict[str, Any], *,
                 has_errors: bool = False) -> None:
        self.rules, self.names, self.state, self.data = rules, list(names), state, data
        self.errors: dict[str | None, list[tuple[str, str | None]]] = {}
        self._earlier = has_errors
        self.win_seats: tuple[int, ...] = ()
        self.hand: sg.HandInput | None = None
        self.tiles: list[dict[str, Any]] = []
        self.yaku: list[dict[str, Any]] = []
        self.counted: dict[int, str] = {}  # per winner: "4 han 30 fu (Riichi, Pinfu, Tanyao, 1 dora)"
        self._clean(data)

    @property
    def has_errors(self) -> bool:
        return self._earlier or bool(self.errors)

    def add_error(self, field: str | None, message: str, code: str | None = None) -> None:
        self.errors.setdefault(field, []).append((message, code))
        self.data.pop(field, None)  # type: ignore[arg-type]

    def _clean(self, data: dict[str, Any]) -> None:
        outcome = data.get("outcome")
        if not outcome:
            return
        riichi = seat_set(data.get("riichi", []))
        result: sg.Outcome | None = None
        if outcome == RON:
            result = self._clean_ron(data)
        elif outcome == TSUMO:
            result = self._clean_tsumo(data)
        elif outcome == DRAW:
            tenpai, nagashi = seat_set(data.get("tenpai", [])), seat_set(data.get("nagashi", []))
            if not tenpai and not nagashi and not data.get("all_noten"):
                # An untouched draw is more often a forgotten tap than four noten hands.
                self.add_error("tenpai", _("Tick who was tenpai, or confirm nobody was."))
            elif data.get("all_noten") and tenpai:
                self.add_error("all_noten", _("Some seats are ticked tenpai: untick them or this box."))
            else:
                result = sg.Draw(tenpai=tenpai, nagashi=nagashi)
        elif outcome == ABORT:
            if not data.get("abort_reason"):
                self.add_error("abort_reason", _("Choose why the hand was aborted."))
            elif data["abort_reason"] == "suucha_riichi" and riichi != tuple(self.rules.seats):
                # Four sticks go on the table before the abort; without them 4,000 would vanish.
                self.add_error("riichi", _("Suucha riichi means all four declared riichi: tick all four sticks."))
            else:
                result = sg.Abort(reason=sg.AbortReason(data["abort_reason"]))
        elif outcome == CHOMBO:
            if not data.get("offender"):
                self.add_error("offender", _("Choose who made the chombo."))
            else:
                result = sg.Chombo(offender=int(data["offender"]))
            riichi = ()  # a chombo voids the hand: no stick from it is paid
        if result is not None and not self.has_errors:
            self.hand = sg.HandInput(
                outcome=result, riichi=riichi, tiles=self.tiles or None, yaku=self.yaku or None,
                note=data.get("note") or None,
            )

    def _clean_ron(self, data: dict[str, Any]) -> sg.Ron | None:
        winners = seat_set(data.get("winners", []))
        loser = data.get("loser")
        if not winners:
            self.add_error("winners", _("Tick who won."))
        elif len(winners) == 3 and "sanchahou" in self.rules.abortive_draws:
            # Said here, before han and fu are asked for three winners.
            self.add_error("winners", _("Under these rules a triple ron is an abortive draw: choose Abortive draw, "
                                        "then Sanchahou."))
            return None
        elif len(winners) > 1 and self.rules.multiple_ron == "head_bump":
            self.add_error("winners", _("Under these rules only the winner nearest the discarder wins (head bump): "
                                        "tick one."))
            return None
        if not loser:
            self.add_error("loser", _("Choose who dealt in."))
        elif int(loser) in winners:
            self.add_error("loser", _("%(who)s cannot both win and deal in.") % {"who": self.names[int(loser)]})
        # Winners are listed from the discarder's right, as the engine reads them.
        if loser:
            winners = tuple(sorted(winners, key=lambda w: (w - int(loser)) % self.rules.players))
        self.win_seats = winners
        wins = [self._win(data, s, tsumo=False) for s in winners]
        if self.has_errors or not loser:
            return None
        return sg.Ron(loser=int(loser), wins=tuple(w for w in wins if w is not None))

    def _clean_tsumo(self, data: dict[str, Any]) -> sg.Tsumo | None:
        if not data.get("winner"):
            self.add_error("winner", _("Choose who won."))
            return None
        s = int(data["winner"])
        self.win_seats = (s,)
        win = self._win(data, s, tsumo=True)
        if win is None:
            return None
        return sg.Tsumo(winner=s, han=win.han, fu=win.fu, yakuman=win.yakuman, pao=win.pao)

    def _win(self, data: dict[str, Any], s: int, *, tsumo: bool) -> sg.Win | None:
        """One winner's value: han and fu, or yakuman; filled from picked yaku
        or from tiles when the scorer gave those instead.

        Three players: the han given (or made by the yaku picked) leaves out
        the kita, each of which adds one han as a dora (sanma.md section 2);
        tiles are analysed with the kita, which the engine counts itself
        (two for a kita with West showing)."""
        han, fu = data.get(f"han_{s}"), data.get(f"fu_{s}")
        kita = data.get(f"kita_{s}") or 0
        named = list(data.get(f"yakuman_{s}") or [])
        yakuman = yakuman_worth(self.rules, named)
        pao = data.get(f"pao_{s}") or None
        reasons: list[str] = []
        if named:
            table = yakuman_table(self.rules)
            reasons = [table[y][0] for y in named]
            self.yaku.append({"winner": s, "yakuman": named})
        analysed = self._from_tiles(data, s, tsumo=tsumo, kita=kita)
        if analysed is not None:
            t_han, t_fu, t_yakuman, reasons = analysed
            t_han -= kita  # the han before the kita, as the scorer gives it
            if t_yakuman:
                if yakuman and yakuman != t_yakuman:
                    self.add_error(f"yakuman_{s}", _("The tiles make %(n)dx yakuman.") % {"n": t_yakuman})
                yakuman, han, fu = t_yakuman, None, None
            elif han is None and fu is None and not yakuman:
                han, fu = t_han, t_fu
            elif (han, fu) != (t_han, t_fu):
                self.add_error(f"han_{s}", _("The tiles make %(han)s han %(fu)s fu; clear han and fu or fix the tiles.")
                               % {"han": t_han, "fu": t_fu})
        picked = data.get(f"yaku_{s}") or []
        if picked and not yakuman:
            total = self._from_yaku(data, s, picked)
            if total is not None:
                table = yaku_table(self.rules)
                dora = data.get(f"dora_{s}") or 0
                reasons = [table[y][0] for y in picked] + ([_("%(n)d dora") % {"n": dora}] if dora else [])
                if han is None:
                    han = min(total, 13)
                elif han != min(total, 13):
                    self.add_error(f"han_{s}", _("The yaku picked make %(total)s han, not %(han)s.")
                                   % {"total": total, "han": han})
                if fu is None and "chiitoitsu" in picked:
                    fu = 25
                elif fu is None and "pinfu" in picked:
                    fu = 20 if tsumo else 30
        # Most wins claim no situation and no call: nothing more to hold them to.
        claims = data.get(f"flags_{s}") or picked or data.get(f"open_{s}") or data.get(f"melds_{s}")
        if claims and analysed is None and not (data.get(f"tiles_{s}") or "").strip() and not self._claims_hold(
                data, s, tsumo=tsumo, picked=picked):
            return None
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
            self._keep_kita(s, kita, analysed is not None)
            self.counted[s] = value_text(yakuman=yakuman) + (f" ({_(', ').join(reasons)})" if reasons else "")
            return sg.Win(winner=s, yakuman=yakuman, pao=None if pao is None else int(pao))
        if pao is not None:
            self.add_error(f"pao_{s}", _("Pao applies only to %(yakuman)s.") % {"yakuman": self._pao_names()})
            return None
        if han is None:
            self.add_error(f"han_{s}", _("How many han for %(who)s?") % {"who": self.names[s]})
            return None
        if kita:
            han += kita
            if analysed is None:
                reasons.append(_("%(n)d kita") % {"n": kita})
        try:
            check_han_fu(han, fu, tsumo=tsumo, rules=self.rules)
        except ScoringError as err:
            self.add_error(f"{'han' if err.field == 'han' else 'fu'}_{s}", refusal_of(err), err.code)
            return None
        self._keep_kita(s, kita, analysed is not None)
        self.counted[s] = value_text(han=han, fu=fu) + (f" ({_(', ').join(reasons)})" if reasons else "")
        return sg.Win(winner=s, han=han, fu=fu)

    def _claims_hold(self, data: dict[str, Any], s: int, *, tsumo: bool, picked: Sequence[str]) -> bool:
        """Hold a win given without tiles to what the engine's tile analysis
        checks of its situation (``scoring.hand.check_situation``): the
        situations ticked ("Also") or picked as yaku, the seat's riichi stick,
        and whether the hand is open ("Open hand" or an open call typed).
        What the scorer did not say (an open hand with neither) cannot be known."""
        flags = set(data.get(f"flags_{s}") or [])
        chosen = {y for y in picked if y in SITUATION_YAKU}
        if "haitei" in chosen:
            chosen.discard("haitei")
            chosen.add("haitei" if tsumo else "houtei")  # the one pick for either last tile
        open_box = bool(data.get(f"open_{s}"))
        opened = open_box or has_open_call(data.get(f"melds_{s}"))
        riichi = str(s) in (data.get("riichi") or [])
        claimed = flags | chosen
        if not claimed and not (riichi and opened):
            return True
        if "double_riichi" in claimed and not riichi:
            self.add_error(f"flags_{s}" if "double_riichi" in flags else f"yaku_{s}",
                           _("Double riichi is ticked but %(who)s's riichi stick is not.") % {"who": self.names[s]})
            return False
        double = "double_riichi" in claimed
        sit = Situation(tsumo=tsumo, riichi=riichi and not double, double_riichi=double,
                        **{flag: True for flag in claimed - {"double_riichi"}})
        try:
            check_situation(self.rules, sit, opened=opened)
        except ScoringError as err:
            if err.code == "riichi_open_hand":
                field = f"open_{s}" if open_box else f"melds_{s}"
            else:
                field = f"flags_{s}" if (err.field or "") in flags else f"yaku_{s}"
            self.add_error(field, refusal_of(err), err.code)
            return False
        return True

    def _keep_kita(self, s: int, kita: int, in_tiles: bool) -> None:
        """Keep a winner's kita in the hand's detail, so a correction shows the
        han without them: in the tiles when the tiles were analysed (as the log
        importer keeps them), else in the winner's yaku entry."""
        if not kita or in_tiles:
            return
        for entry in self.yaku:
            if entry["winner"] == s:
                entry["kita"] = kita
                return
        self.yaku.append({"winner": s, "kita": kita})

    def _pao_names(self) -> str:
        table = yakuman_table(self.rules)
        return _(" and ").join(table[y][0] if y in table else y for y in sorted(self.rules.pao)) or _("no yakuman here")

    def _from_yaku(self, data: dict[str, Any], s: int, picked: Sequence[str]) -> int | None:
        table = yaku_table(self.rules)
        is_open = bool(data.get(f"open_{s}"))
        total = data.get(f"dora_{s}") or 0
        sticks = data.get("riichi") or []
        for y in picked:
            name, closed, open_ = table[y]
            if y in ("riichi", "double_riichi") and str(s) not in sticks:
                self.add_error(f"yaku_{s}", _("%(yaku)s is picked but %(who)s's riichi stick is not ticked.")
                               % {"yaku": name, "who": self.names[s]})
                return None
            if is_open and not open_:
                self.add_error(f"yaku_{s}", _("%(yaku)s needs a closed hand.") % {"yaku": name})
                return None
            total += open_ if is_open else closed
        self.yaku.append({"winner": s, "yaku": list(picked), "dora": data.get(f"dora_{s}") or 0, "open": is_open})
        return total

    def _from_tiles(self, data: dict[str, Any], s: int, *, tsumo: bool,
                    kita: int = 0) -> tuple[int, int | None, int, list[str]] | None:
        """Han, fu and yakuman from the tiles, through ``scoring.hand_api``."""
        tiles = (data.get(f"tiles_{s}") or "").replace(" ", "")
        if not tiles:
            return None
        win = (data.get(f"win_tile_{s}") or "").strip()
        if not win:
            self.add_error(f"win_tile_{s}", _("Which tile completed the hand?"))
            return None
        melds = [{"type": kind, "tiles": meld_tiles} for kind, meld_tiles in calls(data.get(f"melds_{s}"))]
        winds = "ESWN"
        request: dict[str, Any] = {
            "rules": self.rules.to_spec(),
            "tiles": tiles,
            "win": win,
            "melds": melds,
            "seat": winds[(s - self.state.dealer) % self.rules.players],
            "round": winds[self.state.round // 4 % 4],
            "dora": (data.get("dora_indicators") or "").split(),
            "ura": (data.get("ura_indicators") or "").split(),
            "tsumo": tsumo,
            **({"kita": kita} if kita else {}),
        }
        riichi = str(s) in (data.get("riichi") or [])
        flags = set(data.get(f"flags_{s}") or [])
        if "double_riichi" in flags:
            if not riichi:
                self.add_error(f"flags_{s}", _("Double riichi is ticked but %(who)s's riichi stick is not.")
                               % {"who": self.names[s]})
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
            self.add_error(field, refusal_of(err), err.code)
            return None
        stored = {k: v for k, v in request.items() if k != "rules"}
        self.tiles.append({"winner": s, **stored})
        reasons = [yaku_name(y["id"]) + (f" {y['han']}" if y["id"] in DORA_IDS else "") for y in out["yaku"]]
        if out["yakuman"]:
            return 0, None, out["yakuman"], reasons
        return out["han"], out["fu"], 0, reasons
