"""Horizontal bar charts as inline SVG: one row per outcome, one bar per series, the
percentage written beside each bar, so a chart reads without colour and without script."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .html import esc

ROW = 22  # px per bar
LABEL_W = 260
BAR_W = 300
COLOURS = ("#1f5fa8", "#b5470b", "#2e7d32")  # dark enough for white-on-bar text contrast


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


def _clip(label: str, n: int = 40) -> str:
    return label if len(label) <= n else label[: n - 1] + "…"


def bar_chart(
    chart_id: str,
    title: str,
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[Fraction]]],
    keys: Sequence[str] | None = None,
) -> str:
    """An SVG of `labels` x `series` (name, probabilities), named by `title` for readers;
    `keys` (one per label) go on the bars as data-key, for tools that read the chart."""
    n = len(series)
    height = ROW * n * len(labels) + 8 * len(labels) + (24 if n > 1 else 8)
    top = 24 if n > 1 else 4
    out = [
        f'<svg class="chart" role="img" aria-labelledby="{chart_id}-t" '
        f'width="{LABEL_W + BAR_W + 70}" height="{height}" '
        f'viewBox="0 0 {LABEL_W + BAR_W + 70} {height}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-t">{esc(title)}</title>',
    ]
    if n > 1:
        x = 0
        for k, (name, _) in enumerate(series):
            out.append(
                f'<rect x="{x}" y="4" width="12" height="12" fill="{COLOURS[k % len(COLOURS)]}"/>'
                f'<text x="{x + 16}" y="15" class="legend">{esc(name)}</text>'
            )
            x += 24 + 8 * len(name)
    y = top
    for i, label in enumerate(labels):
        out.append(
            f'<text x="{LABEL_W - 6}" y="{y + ROW * n / 2 + 4:g}" text-anchor="end" '
            f'class="label">{esc(_clip(label))}</text>'
        )
        for k, (name, values) in enumerate(series):
            p = values[i]
            w = float(p) * BAR_W
            out.append(
                f'<g class="bar" data-key="{esc(keys[i] if keys else label)}" '
                f'data-series="{esc(name)}" '
                f'data-p="{p}"><rect x="{LABEL_W}" y="{y + 2}" width="{w:.1f}" '
                f'height="{ROW - 4}" fill="{COLOURS[k % len(COLOURS)]}"/>'
                f'<text x="{LABEL_W + w + 4:.1f}" y="{y + ROW / 2 + 4:g}" class="value">'
                f"{pct(p)}</text></g>"
            )
            y += ROW
        y += 8
    out.append("</svg>")
    return "".join(out)
