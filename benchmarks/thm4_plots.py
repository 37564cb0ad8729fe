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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from attncert.papers.infoflow import thm4net  # noqa: E402
from attncert.integrations.plots import fit_slope  # noqa: E402
from attncert.integrations.svgplot import COLORS, PAD, frame, save  # noqa: E402

EPS = [Fraction(1, 2 ** j) for j in range(2, 15)]


def _svg(series, title, ylabel, out):
    xs = [x for _, pts in series for x, _ in pts]
    ys = [y for _, pts in series for _, y in pts]
    svg, px, py = frame(min(xs), max(xs), min(ys), max(ys), title, "log2(1/eps)", ylabel)
    for i, ((label, pts), col) in enumerate(zip(series, COLORS)):
        svg.append(f'<polyline points="{" ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)}" fill="none" '
                   f'stroke="{col}" stroke-width="2"/>')
        svg.append(f'<text x="{PAD + 10}" y="{PAD + 16 * i}" fill="{col}">{label}</text>')
    save(svg, out)




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
        slope = fit_slope(*zip(*rows[len(rows) // 2:]))
        param_series.append((f"{v}: fitted exponent {slope:.3f} (last half of the sweep)", rows))
        print(f"\n{v}: fitted exponent of 1/eps over eps = 2^-8..2^-14: {slope:.3f}\n")
    _svg(beta_series, "Theorem 4 construction: softmax scale beta(eps, T)", "log2(beta)",
         os.path.join(ROOT, "docs", "theorem4_beta.svg"))
    _svg(param_series, "Theorem 4 construction: parameter count vs 1/eps (T = 16)", "log2(nonzero parameters)",
         os.path.join(ROOT, "docs", "theorem4_params.svg"))


if __name__ == "__main__":
    main()
