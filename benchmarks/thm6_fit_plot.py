"""Log-log plot of the Theorem 6 construction's parameter count against 1/eps, with the fitted and the
predicted exponent T0 d / n (docs/theorem6_fit.svg). Hand-written SVG, no plotting dependency."""

from __future__ import annotations

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from attncert.papers.infoflow.construct import sweep  # noqa: E402
from attncert.integrations.svgplot import COLORS, H, PAD, W, frame, save  # noqa: E402

CONFIGS = [(2, 1, 1), (3, 1, 2), (2, 2, 3), (5, 1, 2)]


def main(out="docs/theorem6_fit.svg"):
    data = [sweep(*c) for c in CONFIGS]
    xs = [r["log2_inv_eps"] for d in data for r in d["rows"]]
    ys = [math.log2(r["params_nonzero"]) for d in data for r in d["rows"]]
    svg, px, py = frame(min(xs), max(xs), min(ys), max(ys), "Theorem 6 construction: count vs 1/eps",
                        "log2(1/eps)", "log2(parameter count)", 2, 5)
    for i, (d, col) in enumerate(zip(data, COLORS)):
        pts = " ".join(f"{px(r['log2_inv_eps']):.1f},{py(math.log2(r['params_nonzero'])):.1f}" for r in d["rows"])
        svg.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="2"/>')
        last = d["rows"][-1]
        # predicted slope through the last point (dashed)
        s = d["predicted_exponent"]
        xa = d["rows"][len(d["rows"]) // 2]["log2_inv_eps"]
        ya = math.log2(last["params_nonzero"]) - s * (last["log2_inv_eps"] - xa)
        svg.append(f'<line x1="{px(xa):.1f}" y1="{py(ya):.1f}" x2="{px(last["log2_inv_eps"]):.1f}" '
                   f'y2="{py(math.log2(last["params_nonzero"])):.1f}" stroke="{col}" stroke-dasharray="4 3"/>')
        T0, dd, n = CONFIGS[i]
        svg.append(f'<text x="{PAD + 10}" y="{PAD + 16 * i}" fill="{col}">T0={T0} d={dd} n={n}: fitted '
                   f'{d["fitted_exponent"]:.3f}, predicted T0 d/n = {s:.3f}</text>')
    svg.append(f'<text x="{W - PAD}" y="{H - PAD - 8}" text-anchor="end" fill="#555">dashed: slope T0 d / n</text>')
    save(svg, out)
    for c, d in zip(CONFIGS, data):
        print(c, f"fitted {d['fitted_exponent']:.3f}", f"predicted {d['predicted_exponent']:.3f}")


if __name__ == "__main__":
    main()
