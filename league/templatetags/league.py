from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def points(value: int | None) -> str:
    """Thousandths of a point as the scoresheet shows them: 45300 -> "+45.3".

    Shares of a split that do not divide into tenths keep their digits
    (3333 -> "+3.333"), so a column still adds up to what it shows.
    """
    if value is None:
        return ""
    sign = "+" if value > 0 else "-" if value < 0 else ""
    whole, frac = divmod(abs(value), 1000)
    digits = f"{frac:03d}".rstrip("0") or "0"
    return f"{sign}{whole}.{digits}"


@register.filter
def rank(row_rank: int | None, tied: bool = False) -> str:
    """A shared rank reads "=2" (Tabbycat style)."""
    if row_rank is None:
        return ""
    return f"={row_rank}" if tied else str(row_rank)
