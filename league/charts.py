"""Small server-side SVG charts: line charts of running totals and bar charts
of counts, as inline markup a page embeds. No JavaScript reads them.

Each chart carries ``role="img"``, a ``<title>`` and a ``<desc>``; the pages
put the same numbers in a table beside it for screen readers and for anyone
who wants the exact values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# Colour-blind-safe (Okabe-Ito) first; more lines than colours repeat with dashes.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D31")
DASHES = ("", "6 3", "2 3")
MUTED = "#c4c9cf"


@dataclass(frozen=True)
class Line:
    label: str
    values: Sequence[float | None]  # one per x position; None = no point there
    highlight: bool = True  # muted lines are drawn grey, without a legend entry


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """About ``n`` round tick values covering lo..hi (1, 2, 5 steps)."""
    span = hi - lo or 1
    raw = span / n
    mag = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = (lo // step) * step
    out, v = [], first
    while v <= hi + step / 2:
        out.append(v)
        v += step
    return out


def line_chart(
    *,
    title: str,
    description: str,
    x_labels: Sequence[str],
    lines: Sequence[Line],
    y_format: Callable[[float], str] = _fmt,
    zero_line: float | None = None,
    width: int = 480,
    height: int = 260,
) -> SafeString:
    """An SVG line chart; ``x_labels`` name the x positions (rounds, hands)."""
    left, right, top, bottom = 48, 12, 12, 30
    legend = [ln for ln in lines if ln.highlight]
    shown_legend = legend if len(lines) > 1 else []  # one line needs no key
    legend_rows = (len(shown_legend) + 1) // 2
    height += 18 * legend_rows
    plot_h = height - top - bottom - 18 * legend_rows
    plot_w = width - left - right
    values = [v for ln in lines for v in ln.values if v is not None]
    if zero_line is not None:
        values.append(zero_line)
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    ticks = _ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    n = max(len(x_labels), 2)

    def x(i: int) -> float:
        return left + plot_w * i / (n - 1)

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - lo) / ((hi - lo) or 1))

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'font-family="system-ui, sans-serif" font-size="13">',
        f"<title>{escape(title)}</title><desc>{escape(description)}</desc>",
    ]
    for t in ticks:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 4}" y="{y(t) + 4:.1f}" text-anchor="end" fill="#555">{escape(y_format(t))}</text>')
    if zero_line is not None:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(zero_line):.1f}" y2="{y(zero_line):.1f}" '
                   f'stroke="#888" stroke-dasharray="3 3"/>')
    for i in _shown_labels(x_labels, plot_w / (n - 1)):
        # The last label ends at the plot's right edge, so it is never cut off.
        anchor = "end" if i == len(x_labels) - 1 and i else "middle"
        out.append(f'<text x="{x(i) + (4 if anchor == "end" else 0):.1f}" y="{top + plot_h + 16}" '
                   f'text-anchor="{anchor}" fill="#555">{escape(x_labels[i])}</text>')
    # Muted lines first so the highlighted ones draw on top.
    ordered = [ln for ln in lines if not ln.highlight] + legend
    for ln in ordered:
        k = legend.index(ln) if ln.highlight else -1
        colour = PALETTE[k % len(PALETTE)] if ln.highlight else MUTED
        dash = DASHES[k // len(PALETTE) % len(DASHES)] if ln.highlight else ""
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ln.values) if v is not None)
        attrs = f' stroke-dasharray="{dash}"' if dash else ""
        sw = 2.2 if ln.highlight else 1.2
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="{sw}"{attrs} points="{pts}">'
                   f"<title>{escape(ln.label)}</title></polyline>")
    for k, ln in enumerate(shown_legend):
        col, row = k % 2, k // 2
        lx, ly = left + col * (plot_w / 2), top + plot_h + 36 + row * 18
        dash = DASHES[k // len(PALETTE) % len(DASHES)]
        attrs = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{lx:.1f}" x2="{lx + 18:.1f}" y1="{ly - 4}" y2="{ly - 4}" '
                   f'stroke="{PALETTE[k % len(PALETTE)]}" stroke-width="2.5"{attrs}/>')
        out.append(f'<text x="{lx + 22:.1f}" y="{ly}">{escape(_short(ln.label, 24))}</text>')
    out.append("</svg>")
    return mark_safe("".join(out))


LABEL_CHAR_WIDTH = 7.5  # a generous average at font-size 13: labels are short and mostly digits


def _shown_labels(labels: Sequence[str], spacing: float) -> list[int]:
    """The x labels drawn: evenly spaced so that none overlaps the next, the
    last always (drawn ending at the edge), and the one before it dropped if
    the two would touch.

    >>> _shown_labels(["E1-0", "E2-0", "E3-0"], 100.0)
    [0, 1, 2]
    >>> _shown_labels([f"E{i}-0" for i in range(1, 15)], 32.3)
    [0, 2, 4, 6, 8, 10, 13]
    """
    if not labels:
        return []
    widest = max(len(label) for label in labels) * LABEL_CHAR_WIDTH + 8
    every = max(1, -(-int(widest) // max(int(spacing), 1)))
    last = len(labels) - 1
    shown = [i for i in range(0, last, every) if (last - i) * spacing >= widest]
    return [*shown, last]


def bar_chart(
    *, title: str, description: str, labels: Sequence[str], values: Sequence[int], width: int = 320, height: int = 160
) -> SafeString:
    """Vertical bars with their value on top (placement counts)."""
    left, bottom, top = 8, 22, 18
    plot_h = height - top - bottom
    hi = max(values, default=0) or 1
    slot = (width - 2 * left) / max(len(values), 1)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'font-family="system-ui, sans-serif" font-size="12">',
        f"<title>{escape(title)}</title><desc>{escape(description)}</desc>",
    ]
    for i, (label, v) in enumerate(zip(labels, values, strict=True)):
        h = plot_h * v / hi
        bx = left + i * slot + slot * 0.15
        by = top + plot_h - h
        out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="{slot * 0.7:.1f}" height="{h:.1f}" '
                   f'fill="{PALETTE[i % len(PALETTE)]}"/>')
        out.append(f'<text x="{bx + slot * 0.35:.1f}" y="{by - 4:.1f}" text-anchor="middle">{v}</text>')
        out.append(f'<text x="{bx + slot * 0.35:.1f}" y="{height - 6}" text-anchor="middle" fill="#555">'
                   f"{escape(label)}</text>")
    out.append(f'<line x1="{left}" x2="{width - left}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="#888"/>')
    out.append("</svg>")
    return mark_safe("".join(out))


def sample_positions(n: int, limit: int = 60) -> list[int]:
    """At most ``limit`` indexes out of ``range(n)``, evenly spread, first and last kept.

    A season of a thousand rounds draws as well with sixty points a line.

    >>> sample_positions(5, 3), len(sample_positions(1000))
    ([0, 2, 4], 60)
    """
    if n <= limit:
        return list(range(n))
    return sorted({round(i * (n - 1) / (limit - 1)) for i in range(limit)})


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
