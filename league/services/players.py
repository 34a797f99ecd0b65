"""Player rows that are one person: the merge, audited, in one transaction.

``merge_players`` locks both rows, moves every row naming the merged player
onto the kept one, fills the kept row's blanks, writes a ``PlayerMerge`` and
deletes the merged row; it refuses two EMA numbers, or the two rows at one game
or one event. ``find_player`` is the one rule for naming a player by text (id,
EMA number, then a name that names one row; a shared name is refused, never
guessed); ``namesakes`` says which names need a disambiguator on a page.
docs/ratings.md, "One person, one player".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from league.errors import ServiceError
from league.models import Game, Player, PlayerMerge, Registration, Seat, SignOff, series_changed
from league.services.audit import Actor, user_of

# A cell or mapping value of exactly "#12" names the player with id 12: the
# key a file gives when a name is shared (Player.label shows it).
PLAYER_ID = re.compile(r"#([0-9]{1,18})")
CANDIDATES_SHOWN = 5


def player_key(text: str) -> int | None:
    """The player id that ``text`` gives ("#12" -> 12), or None for a name."""
    found = PLAYER_ID.fullmatch(text.strip())
    return int(found.group(1)) if found else None


def find_player(*, name: str, ema_number: str = "", player_id: int | None = None,
                field: str = "name", choose: str = "give the EMA number or choose one") -> Player | None:
    """The one player these keys name, or None when none is known (the caller creates one).

    A player id names its row (refused when there is none). An EMA number
    names its owner, whose name must match; an unowned EMA number is matched
    against the namesakes that have no EMA number yet (one with another
    number is another person). A name alone names its one row; two or more
    rows of that name are refused with code ``ambiguous_player``, ``field``
    and the candidates, and ``choose`` says how the caller's door tells them apart.
    """
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise ServiceError("unknown_player", f"{field}: no player has the id #{player_id}", field=field)
        return player
    if ema_number:
        owner = Player.objects.filter(ema_number=ema_number).first()
        if owner is not None:
            if owner.name != name:
                raise ServiceError("ema_number_of_another", f"{field}: {ema_number} belongs to {owner.name}, not {name}",
                                   field=field)
            return owner
        rows = list(Player.objects.filter(name=name, ema_number="").order_by("pk")[:CANDIDATES_SHOWN + 1])
    else:
        rows = list(Player.objects.filter(name=name).order_by("pk")[:CANDIDATES_SHOWN + 1])
    if len(rows) > 1:
        total = Player.objects.filter(name=name).count() if len(rows) > CANDIDATES_SHOWN else len(rows)
        shown = "; ".join(p.label() for p in rows[:CANDIDATES_SHOWN])
        raise ServiceError("ambiguous_player", f"{field}: {total} players are called {name}: {choose} ({shown})", field=field)
    return rows[0] if rows else None


def namesakes(names: Iterable[str]) -> set[str]:
    """Which of ``names`` more than one player row carries (one query)."""
    wanted = set(names)
    if not wanted:
        return set()
    shared = (Player.objects.filter(name__in=wanted).values("name").annotate(n=Count("pk")).filter(n__gt=1))
    return {row["name"] for row in shared}


def merge_players(*, keep: Player, merge: Player, reason: str, by: Actor = None) -> PlayerMerge:
    """Move everything of ``merge`` onto ``keep`` and delete ``merge``; the audit row is returned."""
    if not reason.strip():
        raise ServiceError("reason_required", _("reason: say why these two rows are one person"), field="reason")
    if keep.pk == merge.pk:
        raise ServiceError("same_player", _("merge: a player cannot be merged into itself"), field="merge")
    with transaction.atomic():
        # Both rows locked, in id order, so two merges touching the same rows wait for each other.
        rows = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, merge.pk]).order_by("pk")}
        if len(rows) != 2:
            raise ServiceError("player_gone", _("merge: one of the two players no longer exists"), field="merge")
        keep, merge = rows[keep.pk], rows[merge.pk]
        # Two rows of one name are told apart in every refusal.
        a, b = (keep.label(), merge.label()) if keep.name == merge.name else (keep.name, merge.name)
        if keep.ema_number and merge.ema_number and keep.ema_number != merge.ema_number:
            raise ServiceError("different_ema_numbers", _(
                "merge: %(a)s and %(b)s have different EMA numbers (%(x)s, %(y)s): two people") % {
                "a": a, "b": b, "x": keep.ema_number, "y": merge.ema_number}, field="merge")
        together = Seat.objects.filter(player=keep, game__seats__player=merge).values_list("game_id", flat=True)
        if together:
            raise ServiceError("same_game", _("merge: %(a)s and %(b)s sat at the same game (game %(game)s)") % {
                "a": a, "b": b, "game": together[0]}, field="merge")
        both = Registration.objects.filter(player=keep, series__registrations__player=merge)
        if both.exists():
            raise ServiceError("same_event", _("merge: %(a)s and %(b)s are both registered for %(series)s") % {
                "a": a, "b": b, "series": both.first().series.name}, field="merge")
        series = set(Seat.objects.filter(player=merge).values_list("game__series_id", flat=True))
        series |= set(Registration.objects.filter(player=merge).values_list("series_id", flat=True))
        Game.players_changed([merge.pk])  # the games' locks first, as a save takes them
        moved = {
            "seats": Seat.objects.filter(player=merge).update(player=keep),
            "signoffs": SignOff.objects.filter(player=merge).update(player=keep),
            "registrations": Registration.objects.filter(player=merge).update(player=keep),
        }
        record = PlayerMerge.objects.create(
            into=keep, merged_id=merge.pk, merged_name=merge.name, merged_ema_number=merge.ema_number,
            moved=moved, reason=reason.strip(), user=user_of(by), username=getattr(by, "username", "") or "",
        )
        user = merge.user
        filled = {f: getattr(merge, f) for f in ("ema_number", "club", "country")
                  if not getattr(keep, f) and getattr(merge, f)}
        merge.delete()  # first: its EMA number and login are unique
        for f, v in filled.items():
            setattr(keep, f, v)
        if keep.user_id is None and user is not None:
            keep.user = user
        keep.save()
        series_changed(sorted(series))
    return record
