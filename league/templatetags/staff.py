"""Formatting for the staff pages: rounds, table points and sticks in words."""

from __future__ import annotations

from django import template

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


@register.filter
def table_points(value: int | None) -> str:
    """25000 -> '25,000'."""
    return "" if value is None else f"{value:,}"


@register.filter
def signed(value: int | None) -> str:
    """A change of table points: 5500 -> '+5,500', 0 -> '0'."""
    if value is None:
        return ""
    return f"{value:+,}" if value else "0"


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
