"""Theorem 4 construction: the softmax scale beta(eps, T) and the parameter count against 1/eps for the
printed and the repaired network, with the fitted exponent (docs/theorem4_beta.svg, docs/theorem4_params.svg,
and the table printed to stdout). Hand-written SVG, no plotting dependency.

    python benchmarks/thm4_plots.py
"""

from __future__ import annotations

import math
import os
import sys
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from attncert import thm4net  # noqa: E402

EPS = [Fraction(1, 2 ** j) for j in range(2, 15)]
W, H, PAD = 640, 420, 60
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]


def _svg(series, title, ylabel, out):
    xs = [x for _, pts in series for x, _ in pts]
    ys = [y for _, pts in series for _, y in pts]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    px = lambda x: PAD + (x - x0) / (x1 - x0) * (W - 2 * PAD)  # noqa: E731
    py = lambda y: H - PAD - (y - y0) / (y1 - y0) * (H - 2 * PAD)  # noqa: E731
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}" stroke="black"/>',
           f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{H - PAD}" stroke="black"/>',
           f'<text x="{W / 2}" y="{H - 20}" text-anchor="middle">log2(1/eps)</text>',
           f'<text x="18" y="{H / 2}" transform="rotate(-90 18 {H / 2})" text-anchor="middle">{ylabel}</text>',
           f'<text x="{W / 2}" y="24" text-anchor="middle" font-size="14">{title}</text>']
    for t in range(math.ceil(x0), int(x1) + 1, 2):
        svg.append(f'<text x="{px(t):.1f}" y="{H - PAD + 16}" text-anchor="middle">{t}</text>')
    for t in range(math.ceil(y0), int(y1) + 1, 2):
        svg.append(f'<text x="{PAD - 8}" y="{py(t) + 4:.1f}" text-anchor="end">{t}</text>')
    for i, ((label, pts), col) in enumerate(zip(series, COLORS)):
        svg.append(f'<polyline points="{" ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)}" fill="none" '
                   f'stroke="{col}" stroke-width="2"/>')
        svg.append(f'<text x="{PAD + 10}" y="{PAD + 16 * i}" fill="{col}">{label}</text>')
    svg.append("</svg>")
    tmp = out + ".tmp"
    with open(tmp, "w") as fh:
        fh.write("\n".join(svg) + "\n")
    os.replace(tmp, out)


def _fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main():
    beta_series, param_series = [], []
    for T in (4, 16, 64):
        pts = [(math.log2(1 / e), math.log2(thm4net.build(T, e, "repaired").beta)) for e in EPS]
        beta_series.append((f"T = {T}: beta = ceil(72 ln T / eps) (repaired; printed uses 54)", pts))
    print("| variant | eps | beta (T=16) | F1 width | output width | parameters (nonzero) | dense |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for v in thm4net.VARIANTS:
        rows = []
        for e in EPS:
            net = thm4net.build(16, e, v)
            pc = net.params()
            rows.append((math.log2(1 / e), math.log2(pc["total_nonzero"])))
            print(f"| {v} | 2^-{int(math.log2(1 / e))} | {net.beta} | {net.F1.width} | {pc['output']['width']} | "
                  f"{pc['total_nonzero']} | {pc['total_dense']} |")
        slope = _fit(*zip(*rows[len(rows) // 2:]))
        param_series.append((f"{v}: fitted exponent {slope:.3f} (last half of the sweep)", rows))
        print(f"\n{v}: fitted exponent of 1/eps over eps = 2^-8..2^-14: {slope:.3f}\n")
    _svg(beta_series, "Theorem 4 construction: softmax scale beta(eps, T)", "log2(beta)",
         os.path.join(ROOT, "docs", "theorem4_beta.svg"))
    _svg(param_series, "Theorem 4 construction: parameter count vs 1/eps (T = 16)", "log2(nonzero parameters)",
         os.path.join(ROOT, "docs", "theorem4_params.svg"))


if __name__ == "__main__":
    main()
