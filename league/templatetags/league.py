from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from league import stats
from league.models import WIND_NAMES, Series

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
def sentence(text: Any) -> SafeString:
    """A sentence ended with the reader's language's stop: "... at least 2 han."
    in English, "...2翻以上です。" in Japanese (a refusal the engine words
    without one, put before more words)."""
    return mark_safe(gettext("%(sentence)s.") % {"sentence": conditional_escape(text)})


@register.filter
def rank(row_rank: int | None, tied: bool = False) -> str:
    """A shared rank reads "=2" (Tabbycat style)."""
    if row_rank is None:
        return ""
    return f"={row_rank}" if tied else str(row_rank)


@register.filter
def score(value: int | None) -> str:
    """Table points with separators: 25000 -> "25,000"."""
    return "" if value is None else f"{value:,}"


@register.filter
def delta(value: int | None) -> str:
    """A change of table points: 5200 -> "+5,200", -5200 -> "-5,200", 0 -> "0"."""
    if value is None:
        return ""
    return f"+{value:,}" if value > 0 else f"{value:,}"


@register.filter
def percent(value: float | None) -> str:
    """0.2345 -> "23.5%"; no data -> an en dash."""
    return "\u2013" if value is None else f"{100 * value:.1f}%"


@register.filter
def average(value: float | None, digits: int = 2) -> str:
    """An average with ``digits`` decimals, or an en dash when nothing was averaged."""
    return "\u2013" if value is None else f"{value:,.{digits}f}"


@register.filter
def wind(seat: int | None) -> str:
    """Seat 0-3 as the wind it started the game in."""
    return "" if seat is None else str(WIND_NAMES[seat])


@register.filter
def movement(value: int | None) -> str:
    """Places gained since the last round: 2 -> "▲2", -1 -> "▼1", 0 -> "–", None -> "new"."""
    if value is None:
        return "new"
    return f"\u25b2{value}" if value > 0 else f"\u25bc{-value}" if value < 0 else "\u2013"


@register.filter
def sign_class(value: int | None) -> str:
    """CSS class for a signed number: "pos", "neg" or ""."""
    return "pos" if value and value > 0 else "neg" if value and value < 0 else ""


@register.filter
def rating(value: int | None, signed: bool = False) -> str:
    """A rating's thousandths with two decimals (halves away from zero): 1512345 -> "1512.35";
    ``signed`` for a change: -6625 -> "-6.63", 6000 -> "+6.00"."""
    if value is None:
        return ""
    hundredths = (abs(value) + 5) // 10
    sign = "-" if value < 0 and hundredths else "+" if signed and value > 0 else ""
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


@register.inclusion_tag("league/_refused_games.html")
def refused_games(series: Series, staff: bool = False) -> dict[str, Any]:
    """Beside any standing of ``series``: the counted games with a stored hand
    the engine now refuses, each named with its hand, why, and the link that
    corrects it (``stats.refused_games``); nothing when there is none. Not
    ``staff``: rounds whose results are hidden are left out."""
    return {"refused": stats.refused_games(series, public=not staff)}
