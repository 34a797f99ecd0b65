"""Formatting for the staff pages: rounds, table points and sticks in words."""

from __future__ import annotations

from django import template

from league.templatetags.league import delta, score

register = template.Library()

ROUND_WINDS = {"E": "East", "S": "South", "W": "West", "N": "North"}


@register.filter
def words(value: str) -> list[str]:
    """Split on spaces, for loops over a literal list in a template."""
    return value.split()


@register.filter
def round_name(label: str) -> str:
    """'E3' -> 'East 3'."""
    return f"{ROUND_WINDS.get(label[:1], label[:1])} {label[1:]}" if label else ""


# The public pages' table point filters, under the names the staff templates use.
register.filter("table_points", score)
register.filter("signed", delta)


@register.filter
def sticks(n: int) -> str:
    return f"{n} stick{'' if n == 1 else 's'} on the table" if n else "no sticks on the table"


@register.filter
def honba(n: int) -> str:
    return f"{n} honba"


@register.filter
def seat_field(form: object, name: str) -> object:
    """``form|seat_field:"han_2"``: a bound field by a computed name."""
    return form[name]  # type: ignore[index]
