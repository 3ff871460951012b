"""Bar charts as inline SVG, drawn on the server: no script, nothing from another site.

One function, ``bar_chart``: categories along the bottom, one or more series drawn as
bars side by side (``grouped``) or on top of each other (``stacked``), a value axis with
round steps, a legend, and ``<title>``/``<desc>`` for screen readers. Every bar carries
its value in ``data-value`` and a ``<title>`` ("series, category: value"), so what is
drawn can be checked against the data. All text is given already translated; every
piece of it is escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Final, Literal

__all__ = ["PALETTE", "BarSeries", "bar_chart", "nice_step"]

#: Okabe-Ito colours: told apart with the common colour-vision deficiencies, and in grey.
PALETTE: Final = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)

_WIDTH: Final = 720
_HEIGHT: Final = 340
_LEFT: Final = 84  # room for the value labels
_RIGHT: Final = 16
_TOP: Final = 16
_BOTTOM: Final = 44  # room for the category labels (two lines of them)
#: The width a character of a 12-pixel label may take, over-counted for safety (a
#: Malayalam or Kannada letter is several code points).
_CHAR_W: Final = 6
_TICKS: Final = 5


@dataclass(frozen=True, slots=True)
class BarSeries:
    """A named series: its label (translated) and one value per category."""

    label: str
    values: tuple[int, ...]


def nice_step(largest: int, ticks: int = _TICKS) -> int:
    """A round step (1, 2 or 5 times a power of ten) so ``ticks`` steps reach ``largest``."""
    if largest <= 0:
        return 1
    rough = -(-largest // ticks)
    power = 1
    while power * 10 <= rough:
        power *= 10
    for factor in (1, 2, 5, 10):
        if factor * power >= rough:
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


def _fmt(n: float) -> str:
    return f"{n:.2f}".rstrip("0").rstrip(".")


def bar_chart(
    *,
    ident: str,
    title: str,
    desc: str,
    categories: Sequence[str],
    series: Sequence[BarSeries],
    mode: Literal["stacked", "grouped"] = "stacked",
    value_label: Callable[[int], str] = str,
    value_title: str = "",
    unit: int = 1,
) -> str:
    """An SVG bar chart (a string of markup) with ``ident`` as the prefix of its ids.
    The value axis steps in whole ``unit`` (100 for paise: whole rupees); a chart with
    nothing to draw has its zero line only, no made-up scale."""
    for s in series:
        if len(s.values) != len(categories):
            raise ValueError(f"series {s.label!r}: {len(s.values)} values, {len(categories)} bars")
    if mode == "stacked":
        largest = max(
            (sum(max(s.values[i], 0) for s in series) for i in range(len(categories))), default=0
        )
    else:
        largest = max((v for s in series for v in s.values), default=0)
    step = nice_step(-(-largest // unit)) * unit
    top_value = step * max(-(-largest // step), 1)
    ticks = range(0, top_value // step + 1) if largest > 0 else range(1)
    height = _HEIGHT + 20 * len(series)  # the legend, one series a line
    plot_w = _WIDTH - _LEFT - _RIGHT
    plot_h = _HEIGHT - _TOP - _BOTTOM
    base_y = _TOP + plot_h

    def y_of(value: int) -> float:
        return base_y - plot_h * value / top_value

    ids = escape(ident)
    out = [
        # Inline in an HTML page: no namespace declaration needed (nor any URL at all).
        f'<svg class="chart" role="img" '
        f'viewBox="0 0 {_WIDTH} {height}" aria-labelledby="{ids}-title {ids}-desc">',
        f'<title id="{ids}-title">{escape(title)}</title>',
        f'<desc id="{ids}-desc">{escape(desc)}</desc>',
    ]
    # The value axis: round steps, a faint line at each.
    out.append('<g class="axis value-axis" font-size="12" text-anchor="end">')
    for k in ticks:
        y = y_of(k * step)
        out.append(
            f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{_fmt(y)}" y2="{_fmt(y)}" '
            f'stroke="#ccc" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{_LEFT - 6}" y="{_fmt(y + 4)}">{escape(value_label(k * step))}</text>'
        )
    if value_title:
        out.append(
            f'<text x="14" y="{_fmt(_TOP + plot_h / 2)}" text-anchor="middle" '
            f'transform="rotate(-90 14 {_fmt(_TOP + plot_h / 2)})">{escape(value_title)}</text>'
        )
    out.append("</g>")
    # The bars.
    slot = plot_w / max(len(categories), 1)
    bar_w = slot * 0.7
    out.append('<g class="bars">')
    for i, category in enumerate(categories):
        x0 = _LEFT + slot * i + (slot - bar_w) / 2
        stacked_at = 0
        for j, s in enumerate(series):
            value = s.values[i]
            colour = PALETTE[j % len(PALETTE)]
            if mode == "stacked":
                x, w = x0, bar_w
                y_top, y_bottom = y_of(stacked_at + max(value, 0)), y_of(stacked_at)
                stacked_at += max(value, 0)
            else:
                w = bar_w / max(len(series), 1)
                x = x0 + w * j
                y_top, y_bottom = y_of(max(value, 0)), y_of(0)
            label = f"{s.label}, {category}: {value_label(value)}"
            out.append(
                f'<rect x="{_fmt(x)}" y="{_fmt(y_top)}" width="{_fmt(w)}" '
                f'height="{_fmt(y_bottom - y_top)}" fill="{colour}" '
                f'data-series="{j}" data-category="{i}" data-value="{value}">'
                f"<title>{escape(label)}</title></rect>"
            )
    out.append("</g>")
    # The category axis.
    out.append(
        f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{base_y}" y2="{base_y}" stroke="#000"/>'
    )
    out.append('<g class="axis category-axis" font-size="12" text-anchor="middle">')
    # Labels wider than their bar's slot (a month in full) alternate on two lines.
    two_rows = max((len(c) for c in categories), default=0) * _CHAR_W > slot
    for i, category in enumerate(categories):
        x = _LEFT + slot * i + slot / 2
        y = base_y + (14 + 15 * (i % 2) if two_rows else 18)
        out.append(f'<text x="{_fmt(x)}" y="{y}">{escape(category)}</text>')
    out.append("</g>")
    # The legend, one series a line (labels name their provisions and can be long).
    out.append('<g class="legend" font-size="12">')
    for j, s in enumerate(series):
        x = _LEFT
        y = _HEIGHT + 20 * j
        out.append(
            f'<rect x="{_fmt(x)}" y="{y - 10}" width="12" height="12" '
            f'fill="{PALETTE[j % len(PALETTE)]}"/>'
            f'<text x="{_fmt(x + 18)}" y="{y}">{escape(s.label)}</text>'
        )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
