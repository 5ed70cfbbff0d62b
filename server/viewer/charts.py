"""Line and bar charts as inline SVG: no script, no library, nothing to load.

Every label is escaped here, since the result is placed in a page as markup. Colours are SVG
attributes, not style attributes, so the page's content security policy needs no inline styles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

_WIDTH, _HEIGHT = 640, 220
_LEFT, _RIGHT, _TOP, _BOTTOM = 58, 16, 22, 34
_LEGEND_CHAR_WIDTH = 6.5  # about, at font-size 11
_PALETTE = ("#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c")


@dataclass(frozen=True)
class Series:
    label: str
    points: Sequence[tuple[float, float]]  # (x, y), y within 0..1
    dots: bool = True


def line_chart(series: list[Series], x_label: str, y_label: str, title: str) -> Markup:
    """Values on 0..1 against x (steps): one polyline per series, a legend, and axes with ticks."""
    xs = [x for s in series for x, _ in s.points] or [1.0]
    low, high = min(xs), max(xs)
    if low == high:  # one step: in the middle, not against the axis
        low, high = low - 0.5, high + 0.5
    span = high - low
    inner_w, inner_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM

    def at(x: float, y: float) -> tuple[float, float]:
        return _LEFT + (x - low) / span * inner_w, _TOP + (1 - y) * inner_h

    parts = [_frame(title)]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        _, y = at(low, tick)
        parts.append(f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{_WIDTH - _RIGHT}" y2="{y:.1f}" stroke="#e5e7eb"/>'
                     f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" fill="#6b7280">{tick:g}</text>')
    for x in sorted(set(xs))[:: max(1, len(set(xs)) // 10)]:
        px, _ = at(x, 0)
        parts.append(f'<text x="{px:.1f}" y="{_HEIGHT - _BOTTOM + 16}" text-anchor="middle" font-size="11" '
                     f'fill="#6b7280">{x:g}</text>')
    parts.append(_axis_labels(x_label, y_label))
    legend_x = _LEFT + 8.0
    for index, one in enumerate(series):
        colour = _PALETTE[index % len(_PALETTE)]
        coordinates = [at(x, y) for x, y in one.points]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coordinates)
        parts.append(f'<polyline class="series" points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        if one.dots:
            parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>' for x, y in coordinates]
        parts.append(f'<rect x="{legend_x:.0f}" y="{_TOP - 16}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{legend_x + 14:.0f}" y="{_TOP - 7}" font-size="11">{escape(one.label)}</text>')
        legend_x += 30 + len(one.label) * _LEGEND_CHAR_WIDTH
    return Markup(_svg(parts, title))


def bar_chart(bars: list[tuple[str, float]], y_label: str, title: str) -> Markup:
    """One bar per label, values on 0..1."""
    inner_w, inner_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM
    slot = inner_w / max(1, len(bars))
    parts = [_frame(title), _axis_labels("", y_label)]
    for tick in (0, 0.5, 1):
        y = _TOP + (1 - tick) * inner_h
        parts.append(f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{_WIDTH - _RIGHT}" y2="{y:.1f}" stroke="#e5e7eb"/>'
                     f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" fill="#6b7280">{tick:g}</text>')
    for index, (label, value) in enumerate(bars):
        height = max(0.0, min(1.0, value)) * inner_h
        x = _LEFT + index * slot + slot * 0.2
        parts.append(f'<rect class="bar" x="{x:.1f}" y="{_TOP + inner_h - height:.1f}" width="{slot * 0.6:.1f}" '
                     f'height="{height:.1f}" fill="{_PALETTE[0]}"/>'
                     f'<text x="{x + slot * 0.3:.1f}" y="{_HEIGHT - _BOTTOM + 16}" text-anchor="middle" font-size="11">'
                     f'{escape(label)}</text>'
                     f'<text x="{x + slot * 0.3:.1f}" y="{_TOP + inner_h - height - 4:.1f}" text-anchor="middle" '
                     f'font-size="11">{value:.2f}</text>')
    return Markup(_svg(parts, title))


def _frame(title: str) -> str:
    return f"<title>{escape(title)}</title>"


def _axis_labels(x_label: str, y_label: str) -> str:
    return (f'<text x="{(_WIDTH + _LEFT) / 2:.0f}" y="{_HEIGHT - 4}" text-anchor="middle" font-size="12">{escape(x_label)}</text>'
            f'<text x="14" y="{_HEIGHT / 2:.0f}" text-anchor="middle" font-size="12" '
            f'transform="rotate(-90 14 {_HEIGHT / 2:.0f})">{escape(y_label)}</text>')


def _svg(parts: list[str], title: str) -> str:
    return (f'<svg class="chart" role="img" aria-label="{escape(title)}" viewBox="0 0 {_WIDTH} {_HEIGHT}" '
            f'width="{_WIDTH}" height="{_HEIGHT}" xmlns="http://www.w3.org/2000/svg">' + "".join(parts) + "</svg>")
