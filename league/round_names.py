"""A round's label in words, for the pages (the ``round_name`` and
``round_short`` filters) and the scripts (``league.script_words``): 'E3' is
'East 3' (東3局 in Japanese)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from league.models import WIND_NAMES

ROUND_WINDS = dict(zip("ESWN", WIND_NAMES, strict=True))


def round_name(label: str) -> str:
    """'E3' -> 'East 3' (東3局 in Japanese)."""
    if not label:
        return ""
    return _("%(wind)s %(number)s") % {"wind": ROUND_WINDS.get(label[:1], label[:1]), "number": label[1:]}


def round_short(label: str) -> str:
    """'E3' as the hand log abbreviates it: 'E3', 東3 in Japanese."""
    return f"{str(ROUND_WINDS.get(label[:1], label[:1]))[:1]}{label[1:]}" if label else ""
