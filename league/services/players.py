"""Player rows that are one person: the merge, audited, in one transaction.

``merge_players`` moves every row that names the merged player (the seats of
their games, their sign-offs, their event registrations) onto the kept one,
fills the kept row's blank EMA number, club, country and login from the
merged row, writes a ``PlayerMerge`` saying what the merged row was and what
moved, then deletes the merged row. It locks both player rows first, so two
staff cannot merge one row two ways at once, and moves the version of every
series either played in (their pages show the kept name from the commit on).

It refuses what would make one person out of two: two different EMA numbers
(the EMA number is the key where both have one), the two rows at the same
game, or both registered for the same event.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from league.models import Player, PlayerMerge, Registration, Seat, SignOff, series_changed
from league.services.audit import Actor, user_of
from league.services.errors import ServiceError


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
        if keep.ema_number and merge.ema_number and keep.ema_number != merge.ema_number:
            raise ServiceError("different_ema_numbers", _(
                "merge: %(a)s and %(b)s have different EMA numbers (%(x)s, %(y)s): two people") % {
                "a": keep.name, "b": merge.name, "x": keep.ema_number, "y": merge.ema_number}, field="merge")
        together = Seat.objects.filter(player=keep, game__seats__player=merge).values_list("game_id", flat=True)
        if together:
            raise ServiceError("same_game", _("merge: %(a)s and %(b)s sat at the same game (game %(game)s)") % {
                "a": keep.name, "b": merge.name, "game": together[0]}, field="merge")
        both = Registration.objects.filter(player=keep, series__registrations__player=merge)
        if both.exists():
            raise ServiceError("same_event", _("merge: %(a)s and %(b)s are both registered for %(series)s") % {
                "a": keep.name, "b": merge.name, "series": both.first().series.name}, field="merge")
        series = set(Seat.objects.filter(player=merge).values_list("game__series_id", flat=True))
        series |= set(Registration.objects.filter(player=merge).values_list("series_id", flat=True))
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
