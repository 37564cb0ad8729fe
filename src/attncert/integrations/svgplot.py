"""The hand-written SVG frame the plot scripts share: axes, labels, title, ticks, atomic save."""

from __future__ import annotations

import math
import os

W, H, PAD = 640, 420, 60
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]


def frame(x0, x1, y0, y1, title, xlabel, ylabel, xstep=2, ystep=2):
    """(svg lines, px, py): a white canvas with axes, labels and integer ticks for [x0, x1] x [y0, y1]."""
    px = lambda x: PAD + (x - x0) / (x1 - x0) * (W - 2 * PAD)  # noqa: E731
    py = lambda y: H - PAD - (y - y0) / (y1 - y0) * (H - 2 * PAD)  # noqa: E731
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}" stroke="black"/>',
           f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{H - PAD}" stroke="black"/>',
           f'<text x="{W / 2}" y="{H - 20}" text-anchor="middle">{xlabel}</text>',
           f'<text x="18" y="{H / 2}" transform="rotate(-90 18 {H / 2})" text-anchor="middle">{ylabel}</text>',
           f'<text x="{W / 2}" y="24" text-anchor="middle" font-size="14">{title}</text>']
    for t in range(math.ceil(x0), int(x1) + 1, xstep):
        svg.append(f'<text x="{px(t):.1f}" y="{H - PAD + 16}" text-anchor="middle">{t}</text>')
    for t in range(math.ceil(y0), int(y1) + 1, ystep):
        svg.append(f'<text x="{PAD - 8}" y="{py(t) + 4:.1f}" text-anchor="end">{t}</text>')
    return svg, px, py


def text(svg) -> str:
    return "\n".join(svg + ["</svg>"]) + "\n"


def save(svg, out):
    tmp = out + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text(svg))
    os.replace(tmp, out)
