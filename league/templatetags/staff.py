"""Formatting for the staff pages: rounds, table points and sticks in words."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.round_names import round_name, round_short
from league.templatetags.league import delta, score

register = template.Library()


@register.filter
def words(value: str) -> list[str]:
    """Split on spaces, for loops over a literal list in a template."""
    return value.split()


@register.filter
def wind_name(label: str) -> tuple[str, str]:
    """'East Alice Liddell' -> ('East', 'Alice Liddell'): a seat's label (``seat_names``) in its two parts."""
    wind, _sep, name = str(label).partition(" ")
    return wind, name


register.filter("round_name", round_name)
register.filter("round_short", round_short)

# The public pages' table point filters, under the names the staff templates use.
register.filter("table_points", score)
register.filter("signed", delta)


@register.filter
def pay_summary(rows: list[dict[str, object]]) -> str:
    """The save bar's line: each seat that pays or is paid, "East Alice -7,700 · South Bob +7,700",
    the separator only between two seats (never a stray " ·" after a seat that pays nothing)."""
    return " · ".join(f"{r['name']} {delta(r['delta'])}" for r in rows if r["delta"])


@register.filter
def sticks(n: int) -> str:
    if not n:
        return _("no sticks on the table")
    return ngettext("%(n)d stick on the table", "%(n)d sticks on the table", n) % {"n": n}


@register.filter
def honba(n: int) -> str:
    return _("%(n)d honba") % {"n": n}


@register.filter
def seat_field(form: object, name: str) -> object:
    """``form|seat_field:"han_2"``: a bound field by a computed name."""
    return form[name]  # type: ignore[index]
