"""Sharpness sweep for Lemma 1 of Kajitsuka-Sato: how small may delta be before (16) fails?

Runs attncert.papers.ks.sharpness.sweep, writes proofs/data/boltz_sharpness.json and the hand-written plot
docs/boltzmann_sharpness.svg, and prints a markdown table of the results.

    .venv/bin/python benchmarks/sharpness_sweep.py [--points 40] [--refine 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import time
from fractions import Fraction
from pathlib import Path

from attncert.papers.ks import sharpness

ROOT = Path(__file__).resolve().parents[1]
JSON_OUT = ROOT / "proofs" / "data" / "boltz_sharpness.json"
SVG_OUT = ROOT / "docs" / "boltzmann_sharpness.svg"


def summarise(sweep_rows: list[dict], ns) -> list[dict]:
    out = []
    for n in ns:
        rows = [r for r in sweep_rows if r["n"] == n]
        found = [r for r in rows if r["status"] == "found"]
        missed = [r for r in rows if r["status"] == "searched"]
        best = max(found, key=lambda r: Fraction(r["delta"])) if found else None
        lo_miss = min(missed, key=lambda r: Fraction(r["delta"])) if missed else None
        contiguous = not (best and lo_miss and Fraction(lo_miss["delta"]) < Fraction(best["delta"]))
        row = {
            "n": n,
            "threshold_2logn_plus_3": f"{sharpness.threshold(n):.6f}",
            "grid_points": len(rows),
            "largest_delta_with_counterexample": best["delta"] if best else None,
            "largest_delta_with_counterexample_float": best["delta_float"] if best else None,
            "smallest_delta_searched_without_counterexample": lo_miss["delta"] if lo_miss else None,
            "smallest_delta_searched_without_counterexample_float": lo_miss["delta_float"] if lo_miss else None,
            "found_region_contiguous": contiguous,
            "counterexample": None,
        }
        if best:
            c = best["counterexample"]
            row["counterexample"] = {k: c[k] for k in ("delta", "r", "a", "b", "gap_upper", "bound_lower",
                                                       "min_separation", "pattern")}
        if lo_miss:
            row["searched_without_counterexample"] = lo_miss["searched"]
        out.append(row)
    return out


def svg(summary: list[dict], sweep_rows: list[dict], path: Path) -> None:
    """Per n: grid deltas with a confirmed counterexample (filled), searched without one (open),
    the found region (green bar) and the paper's hypothesis delta > 2 log n + 3 (red)."""
    W, H, L, R, T, B = 800, 370, 70, 30, 50, 80
    xmax = 7.0
    X = lambda d: L + (W - L - R) * d / xmax  # noqa: E731
    ns = [s["n"] for s in summary]
    Y = lambda i: T + (H - T - B) * (i + 0.5) / len(ns)  # noqa: E731
    e = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="14">Lemma 1 (Kajitsuka-Sato): where (16) fails, '
         'by tokenwise separation delta</text>']
    for k in range(0, int(xmax) + 1):  # delta axis with ticks
        e.append(f'<line x1="{X(k)}" y1="{H - B}" x2="{X(k)}" y2="{T - 10}" stroke="#eee"/>')
        e.append(f'<text x="{X(k)}" y="{H - B + 16}" text-anchor="middle">{k}</text>')
    e.append(f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="black"/>')
    e.append(f'<line x1="{L}" y1="{H - B}" x2="{L}" y2="{T - 10}" stroke="black"/>')
    e.append(f'<text x="{(L + W - R) / 2}" y="{H - B + 34}" text-anchor="middle">delta (separation of distinct '
             'entries)</text>')
    e.append(f'<text x="18" y="{(T + H - B) / 2}" text-anchor="middle" transform="rotate(-90 18 {(T + H - B) / 2})">'
             'n (vector length)</text>')
    for i, s in enumerate(summary):
        y, n = Y(i), s["n"]
        e.append(f'<text x="{L - 10}" y="{y + 4}" text-anchor="end">n = {n}</text>')
        if s["largest_delta_with_counterexample_float"] is not None:
            e.append(f'<rect x="{X(0)}" y="{y - 9}" width="{X(s["largest_delta_with_counterexample_float"]) - X(0)}" '
                     'height="18" fill="#7fc97f" opacity="0.6"/>')
        for r in (r for r in sweep_rows if r["n"] == n):
            fill = "#1b7837" if r["status"] == "found" else "white"
            e.append(f'<circle cx="{X(r["delta_float"]):.2f}" cy="{y}" r="2.6" fill="{fill}" stroke="#555" '
                     'stroke-width="0.7"/>')
        t = float(s["threshold_2logn_plus_3"])
        e.append(f'<line x1="{X(t)}" y1="{y - 14}" x2="{X(t)}" y2="{y + 14}" stroke="#d7191c" stroke-width="2.5"/>')
        e.append(f'<text x="{X(t) + 5}" y="{y - 5}" fill="#d7191c" font-size="10">2 log {n} + 3</text>')
    lx, ly = L + 10, H - 16  # legend
    e.append(f'<rect x="{lx}" y="{ly - 9}" width="18" height="10" fill="#7fc97f" opacity="0.6"/>'
             f'<circle cx="{lx + 9}" cy="{ly - 4}" r="2.6" fill="#1b7837" stroke="#555" stroke-width="0.7"/>'
             f'<text x="{lx + 24}" y="{ly}">counterexample to (16) found (rigorous, arb)</text>')
    e.append(f'<circle cx="{lx + 320}" cy="{ly - 4}" r="3" fill="white" stroke="#555"/>'
             f'<text x="{lx + 328}" y="{ly}">searched, none found</text>')
    e.append(f'<line x1="{lx + 475}" y1="{ly - 10}" x2="{lx + 475}" y2="{ly + 2}" stroke="#d7191c" stroke-width="2.5"/>'
             f'<text x="{lx + 482}" y="{ly}">hypothesis (14): delta &gt; 2 log n + 3</text>')
    e.append("</svg>")
    path.write_text("\n".join(e) + "\n")


def markdown_table(summary: list[dict]) -> str:
    lines = ["| n | 2 log n + 3 | largest delta with a counterexample | pattern | gap <= | bound >= "
             "| smallest delta searched without one |",
             "|---|---|---|---|---|---|---|"]
    for s in summary:
        c = s["counterexample"] or {}
        lines.append(f"| {s['n']} | {float(s['threshold_2logn_plus_3']):.3f} | "
                     f"{s['largest_delta_with_counterexample_float']} | {c.get('pattern', '-')} | "
                     f"{c.get('gap_upper', '-')} | {c.get('bound_lower', '-')} | "
                     f"{s['smallest_delta_searched_without_counterexample_float']} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--points", type=int, default=40)
    ap.add_argument("--refine", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    ns = (2, 3, 4, 5)
    t0 = time.perf_counter()
    rows = sharpness.sweep(ns, points=args.points, seed=args.seed, refine=args.refine)
    elapsed = time.perf_counter() - t0
    summary = summarise(rows, ns)
    doc = {
        "schema": "attncert.sharpness/1",
        "claim": "Kajitsuka-Sato Lemma 1, (16): |boltz(a)-boltz(b)| > (log n)^2 e^{-2r}; "
                 "counterexamples are tokenwise (r, delta)-separated pairs with delta below (14)",
        "conventions": {"r": "max |entry| + 1/1000", "separation": "distinct values of a and b differ by > delta",
                        "check": "Fractions for separation, python-flint arb (256 bits) for the gap"},
        "parameters": {"points": args.points, "refine": args.refine, "seed": args.seed,
                       "samples": sharpness.SAMPLES, "corner_points": sharpness.CORNER_POINTS,
                       "refined_patterns": sharpness.REFINE, "gap_cap": sharpness.GAP_CAP},
        "rows": summary,
        "sweep": rows,
    }
    JSON_OUT.parent.mkdir(parents=True, exist_ok=True)
    JSON_OUT.write_text(json.dumps(doc, indent=1) + "\n")
    SVG_OUT.parent.mkdir(parents=True, exist_ok=True)
    svg(summary, rows, SVG_OUT)
    print(markdown_table(summary))
    print(f"\nsweep: {len(rows)} searches in {elapsed:.1f} s; wrote {JSON_OUT.relative_to(ROOT)}, "
          f"{SVG_OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
