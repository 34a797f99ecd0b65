"""The table signs a finished game's result: each player confirms it (or
disputes it) by a PIN on the scorer's phone or a signed per-seat link; nobody
signs for another seat.

Every write locks the game row first. A sign-off names the result it saw (one
on a changed result is a ``Conflict``); any change of a finished result
withdraws the sign-offs in force and kills their links (``withdraw_signoffs``,
in the change's transaction). Whether a game counts is decided in
``league.models.counting``; ``counting_changed`` is the one call site when that
answer changes. docs/staff.md, "The table signs the result".
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass

from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from django.utils.crypto import constant_time_compare, get_random_string, salted_hmac
from django.utils.translation import gettext as _

from league.errors import Conflict, ServiceError
from league.models import Game, GameAudit, Player, Seat, Series, SignOff
from league.services.audit import Actor, audit, bump_version, user_of

log = logging.getLogger(__name__)
Action = GameAudit.Action

LINK_SALT = "league.signoff.seat"
LINK_MAX_AGE = 2 * 24 * 3600  # seconds: a link outlives a long event day, not a week
PIN_LENGTHS = (4, 8)  # digits
PIN_ATTEMPTS = 5  # wrong PINs per player before the lock
PIN_LOCK_SECONDS = 15 * 60


# -- what is signed ------------------------------------------------------------------------------


def result_digest(game: Game) -> str:
    """SHA-256 of the result the table signs: who sat where, and each seat's end
    score, place and points. A change to any of them is another result."""
    seats = list(Seat.objects.filter(game=game).order_by("seat").values_list(
        "seat", "player_id", "end_score", "place", "points"))
    text = json.dumps({"game": game.pk, "seats": seats}, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def seat_link_token(game: Game, seat: int) -> str:
    """The signed token of ``seat``'s link to sign ``game``'s result as it is now."""
    return signing.dumps({"g": game.pk, "s": seat, "r": result_digest(game), "n": game.signoff_round},
                         salt=LINK_SALT, compress=True)


@dataclass(frozen=True)
class LinkSeat:
    game: Game
    seat: int
    result: str


def read_link(token: str) -> LinkSeat:
    """The game and seat a link's token names, if it still stands for the
    result as it is. Anything else is refused with a code: ``link_invalid``
    (not made by this server, altered, or expired), ``link_stale`` (the
    result changed since it was made: ask the scorer for a new one)."""
    try:
        data = signing.loads(token, salt=LINK_SALT, max_age=LINK_MAX_AGE)
        game_id, seat, result, round_ = int(data["g"]), int(data["s"]), str(data["r"]), int(data["n"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise ServiceError("link_invalid", _("This sign-off link is not valid (or has expired): open it again "
                                             "from your player card."), field="token") from None
    game = Game.objects.select_related("series").filter(pk=game_id).first()
    if game is None or seat not in game.ruleset().seats:
        raise ServiceError("link_invalid", _("This sign-off link is not valid."), field="token")
    if round_ != game.signoff_round or result != result_digest(game):
        raise Conflict("link_stale", _("The result changed after this link was made: open it again from your "
                                       "player card."), field="token")
    return LinkSeat(game=game, seat=seat, result=result)


# -- PINs ----------------------------------------------------------------------------------------


def check_pin_format(pin: str, *, field: str = "pin") -> str:
    pin = (pin or "").strip()
    low, high = PIN_LENGTHS
    if not (pin.isascii() and pin.isdigit() and low <= len(pin) <= high):
        raise ServiceError("invalid_pin", _("A PIN is %(low)d to %(high)d digits.") % {"low": low, "high": high},
                           field=field)
    return pin


def hash_pin(pin: str, *, salt: str | None = None) -> str:
    """A PIN as stored: ``hmac-sha256$salt$digest``, keyed by the SECRET_KEY.

    Not a password hasher: four to eight digits fall to any offline search
    however slow the hash, so slowness would buy nothing but a registration
    desk waiting half a second per player. The key is what protects them:
    a copy of the database alone does not reveal a PIN. Guessing online is
    what the lock (``PIN_ATTEMPTS``) stops."""
    salt = salt or get_random_string(12)
    digest = salted_hmac("league.signoff.pin", f"{salt}${pin}", algorithm="sha256").hexdigest()
    return f"hmac-sha256${salt}${digest}"


def pin_matches(pin: str, stored: str) -> bool:
    scheme, _, rest = stored.partition("$")
    salt, _, _ = rest.partition("$")
    return scheme == "hmac-sha256" and bool(salt) and constant_time_compare(hash_pin(pin, salt=salt), stored)


def set_pins(*, pins: Mapping[Player, str], by: Actor = None) -> int:
    """Give each player their sign-off PIN (stored hashed); returns how many.
    Every PIN is checked first: one bad PIN and none is set, the error naming
    the player's field (``pin-<player id>``)."""
    checked = {p: check_pin_format(pin, field=f"pin-{p.pk}") for p, pin in pins.items()}
    with transaction.atomic():
        for player, pin in checked.items():
            Player.objects.filter(pk=player.pk).update(signoff_pin=hash_pin(pin))
    if checked:
        log.info("sign-off PINs set for %d players by %s", len(checked), getattr(user_of(by), "username", "system"))
    return len(checked)


def _pin_key(player: Player) -> str:
    return f"signoff-pin-failures:{player.pk}"


def _check_pin(player: Player, pin: str) -> None:
    """Refuse a wrong PIN, and any PIN after ``PIN_ATTEMPTS`` wrong ones in a
    row for ``PIN_LOCK_SECONDS``: four digits are otherwise a matter of minutes.
    Counted per player in the cache (shared between workers in production),
    so trying one player's PIN at several tables counts once."""
    key = _pin_key(player)
    failures = cache.get(key, 0)
    if failures >= PIN_ATTEMPTS:
        raise ServiceError("pin_locked", _("Too many wrong PINs for %(player)s: try again in %(minutes)d minutes, "
                                           "or use the seat's link.") % {"player": player.name,
                                                                          "minutes": PIN_LOCK_SECONDS // 60},
                           field="pin")
    if not player.signoff_pin:
        raise ServiceError("no_pin", _("%(player)s has no PIN yet: staff set one, or use the seat's link.")
                           % {"player": player.name}, field="pin")
    if not pin_matches(pin or "", player.signoff_pin):
        if not cache.add(key, 1, PIN_LOCK_SECONDS):
            try:
                cache.incr(key)
            except ValueError:  # expired between the two calls
                cache.add(key, 1, PIN_LOCK_SECONDS)
        if failures + 1 >= PIN_ATTEMPTS:
            log.warning("sign-off PIN of player %s locked after %d wrong attempts", player.pk, PIN_ATTEMPTS)
        raise ServiceError("wrong_pin", _("Wrong PIN for %(player)s.") % {"player": player.name}, field="pin")
    cache.delete(key)


# -- signing -------------------------------------------------------------------------------------


def _lock(game: Game) -> Game:
    # The same lock as the game services: a sign-off waits for a correction
    # being saved, then sees the new result and refuses the old one.
    return Game.objects.select_for_update().select_related("series").get(pk=game.pk)


def sign_off(
    *, game: Game, seat: int, result: str, dispute: bool = False, note: str = "", pin: str | None = None,
    token: str | None = None, shown_round: int | None = None, by: Actor = None,
) -> SignOff:
    """Seat ``seat`` confirms ``game``'s result (``dispute``: disputes it, with
    ``note`` for the referee), proven by the seat's player's ``pin`` or by
    the seat's link ``token``; exactly one of the two.

    ``result`` is the digest of the result the player was shown
    (``result_digest``): another result stored now is a ``Conflict``, and so
    is a form shown in an earlier sign-off round (``shown_round``, when given): a
    correction reversed since gives the same digest, but the table may not
    have seen the result that stands now as the form's result. A seat
    signs once per result; a second time is refused. The fourth seat's
    agreement (the third's at a three-player table) completes the sign-off (``counting_changed``). Locks the game row.
    """
    seats = game.ruleset().seats  # 0-3, or 0-2 in a three-player series
    if seat not in seats:
        raise ServiceError("invalid_seat", _("A seat is 0 to 3.") if len(seats) == 4 else _("A seat is 0 to 2."),
                           field="seat")
    if (pin is None) == (token is None):
        raise ServiceError("proof_needed", _("Sign with the player's PIN or with the seat's link."), field="pin")
    note = (note or "").strip()
    if dispute and not note:
        raise ServiceError("note_needed", _("Say what is wrong with the result, for the referee."), field="note")
    if "\x00" in note or len(note) > 2000:
        raise ServiceError("invalid_note", _("A note is at most 2,000 characters."), field="note")
    with transaction.atomic():
        game = _lock(game)
        if not game.is_finished:
            raise ServiceError("not_finished", _("This game is not finished: there is no result to sign yet."),
                               field="game")
        if result != result_digest(game) or (shown_round is not None and shown_round != game.signoff_round):
            raise Conflict("result_changed", _("The result changed after it was shown: look at it again."),
                           field="result")
        row = Seat.objects.select_related("player").get(game=game, seat=seat)
        player = row.player
        if token is not None:
            link = read_link(token)
            if link.game.pk != game.pk or link.seat != seat:
                raise ServiceError("link_invalid", _("This link is for another seat."), field="token")
            via = SignOff.Via.LINK
        else:
            _check_pin(player, pin or "")
            via = SignOff.Via.PIN
        if SignOff.objects.filter(game=game, seat=seat, withdrawn_at=None).exists():
            raise ServiceError("already_signed", _("%(player)s has already answered for this result.")
                               % {"player": player.name}, field="seat")
        kind = SignOff.Kind.DISPUTE if dispute else SignOff.Kind.CONFIRM
        signed = SignOff.objects.create(game=game, seat=seat, player=player, kind=kind, via=via, result=result,
                                        note=note)
        audit(game, Action.DISPUTE if dispute else Action.SIGN_OFF, by, after={
            "seat": seat, "player": player.name, "via": via.value, "result": result, **({"note": note} if note else {}),
        })
        _complete_if_agreed(game)
    return signed


def resolve_dispute(*, signoff: SignOff, by: Actor = None) -> SignOff:
    """The referee accepts the result as it stands over a player's dispute:
    the seat then counts as agreed. (To correct the result instead, staff
    correct the game, which withdraws every sign-off.) Locks the game row."""
    with transaction.atomic():
        game = _lock(signoff.game)
        signoff = SignOff.objects.select_related("player").get(pk=signoff.pk)
        if not signoff.open_dispute:
            raise ServiceError("no_dispute", _("This dispute is no longer open."), field="signoff")
        signoff.resolution = SignOff.Resolution.ACCEPTED
        signoff.resolved_at = timezone.now()
        signoff.resolved_by = user_of(by)
        signoff.save(update_fields=["resolution", "resolved_at", "resolved_by"])
        audit(game, Action.RESOLVE, by, before={"seat": signoff.seat, "player": signoff.player.name,
                                                "note": signoff.note},
              after={"resolution": signoff.resolution, "result": signoff.result})
        _complete_if_agreed(game)
    return signoff


def _complete_if_agreed(game: Game) -> None:
    in_force = list(SignOff.objects.filter(game=game, withdrawn_at=None))
    if game.signed_off_at is None and len({s.seat for s in in_force if s.accepts}) == game.ruleset().players:
        game.signed_off_at = timezone.now()
        game.save(update_fields=["signed_off_at"])
        counting_changed(game)


def withdraw_signoffs(game: Game, by: Actor) -> None:
    """The result of ``game`` changed: every sign-off in force is withdrawn
    (an open dispute is closed as corrected), the links handed out are dead
    (the round moves), and a complete sign-off is undone. Runs inside the
    change's transaction, the game row locked (``replay.sync_result``)."""
    now = timezone.now()
    in_force = SignOff.objects.filter(game=game, withdrawn_at=None)
    rows = list(in_force.values("seat", "kind", "resolution"))
    in_force.filter(kind=SignOff.Kind.DISPUTE, resolution="").update(
        resolution=SignOff.Resolution.CORRECTED, resolved_at=now, resolved_by=user_of(by))
    in_force.update(withdrawn_at=now)
    was_signed = game.signed_off_at is not None
    Game.objects.filter(pk=game.pk).update(signoff_round=F("signoff_round") + 1, signed_off_at=None)
    game.refresh_from_db(fields=["signoff_round", "signed_off_at"])
    if rows:
        audit(game, Action.WITHDRAW_SIGNOFFS, by, before={"seats": rows, "signed_off": was_signed})
    if was_signed:
        counting_changed(game)


def counting_changed(game: Game) -> None:
    """Whether ``game`` counts has just changed (its sign-off completed, or a
    complete one was withdrawn), inside the transaction that changed it.

    The one call site for what depends on it: the series' results stamp moves
    here (league/stamps.py), and stored per-player totals are to be
    refreshed here for the game's four players."""
    bump_version(game.series_id, results=True, rounds=[game.round_number])


# -- reading -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatSignOff:
    seat: int
    player: Player
    end_score: int | None
    place: int | None
    points: int | None
    answer: SignOff | None  # the row in force, if the seat answered

    @property
    def status(self) -> str:
        """``waiting``, ``confirmed``, ``disputed`` or ``accepted`` (a dispute the referee overruled)."""
        if self.answer is None:
            return "waiting"
        if self.answer.kind == SignOff.Kind.CONFIRM:
            return "confirmed"
        return "accepted" if self.answer.resolution == SignOff.Resolution.ACCEPTED else "disputed"


@dataclass(frozen=True)
class GameSignOff:
    game: Game
    seats: list[SeatSignOff]
    result: str  # the digest of the result as it is ("" while the game is played)

    @property
    def complete(self) -> bool:
        return self.game.signed_off_at is not None

    @property
    def disputes(self) -> list[SignOff]:
        return [s.answer for s in self.seats if s.answer is not None and s.answer.open_dispute]

    @property
    def waiting_for(self) -> list[Player]:
        return [s.player for s in self.seats if s.answer is None]


def game_signoff(game: Game) -> GameSignOff:
    """Each seat of ``game`` with its result and its answer in force."""
    answers = {s.seat: s for s in SignOff.objects.filter(game=game, withdrawn_at=None)}
    seats = [SeatSignOff(seat=s.seat, player=s.player, end_score=s.end_score, place=s.place, points=s.points,
                         answer=answers.get(s.seat))
             for s in Seat.objects.filter(game=game).select_related("player").order_by("seat")]
    return GameSignOff(game=game, seats=seats, result=result_digest(game) if game.is_finished else "")


def tables_waiting(series: Series) -> list[GameSignOff]:
    """The games of ``series`` whose table has signing to do, for the public
    tables view: finished games not signed off where the series asks for
    sign-off (they do not count yet), else those where it has begun or is
    disputed. Three queries whatever the number of games."""
    games = Game.objects.filter(series=series, status=Game.Status.FINISHED, signed_off_at=None)
    if not series.requires_signoff:
        games = games.filter(signoffs__withdrawn_at__isnull=True, signoffs__isnull=False).distinct()
    games = list(games.order_by("-finished_at", "-pk").prefetch_related("seats__player"))
    answers: dict[int, dict[int, SignOff]] = {}
    for s in SignOff.objects.filter(game__in=games, withdrawn_at=None):
        answers.setdefault(s.game_id, {})[s.seat] = s
    out = []
    for g in games:
        got = answers.get(g.pk, {})
        seats = [SeatSignOff(seat=s.seat, player=s.player, end_score=s.end_score, place=s.place, points=s.points,
                             answer=got.get(s.seat)) for s in sorted(g.seats.all(), key=lambda s: s.seat)]
        out.append(GameSignOff(game=g, seats=seats, result=""))
    return out


def seats_waiting(*, series: Series, player: Player) -> list[tuple[Game, int]]:
    """``player``'s finished games of ``series`` whose seat has no answer in
    force, oldest first, each with the seat."""
    answered = SignOff.objects.filter(game=OuterRef("game"), seat=OuterRef("seat"), withdrawn_at=None)
    return [(s.game, s.seat) for s in Seat.objects.select_related("game").filter(
        game__series=series, game__status=Game.Status.FINISHED, player=player,
    ).exclude(Exists(answered)).order_by("game__finished_at", "game_id")]


def open_disputes(series: Series) -> list[SignOff]:
    """The disputes waiting for a referee in ``series``, oldest first."""
    return list(SignOff.objects.filter(game__series=series, kind=SignOff.Kind.DISPUTE, withdrawn_at=None,
                                       resolution="").select_related("game", "player").order_by("at", "pk"))
