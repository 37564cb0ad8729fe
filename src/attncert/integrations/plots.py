"""The report's plots, drawn by the run itself with matplotlib (a dependency of the package, so that a plain
`pip install attncert` makes them), each from data the run computes or the package ships:

- InfoFlow Theorem 4: the built network's parameter count against 1/eps, printed and repaired (computed);
- InfoFlow Theorem 6: the built construction's parameter count against 1/eps with the predicted slope (computed);
- Kajitsuka-Sato Lemma 1: where (16) fails, by separation delta (the committed sharpness sweep, seed 0,
  attncert_proofs/data/boltz_sharpness.json; the counterexamples in it are exact).

Legends sit below the axes, so they never cover a line. The SVG files are deterministic (no date, a fixed
hash salt), so two runs write the same bytes."""

from __future__ import annotations

import io
import json
import math
from fractions import Fraction
from importlib import resources

# (paper, label of the result) -> plot names shown on that result's page
FOR_RESULT = {("infoflow", "Theorem 4"): ["infoflow_thm4_params"], ("infoflow", "Theorem 6"): ["infoflow_thm6_fit"],
              ("ks", "Lemma 1"): ["ks_lemma1_sharpness"]}
CAPTIONS = {
    "infoflow_thm4_params": "Theorem 4 construction (T = 16): nonzero parameters against 1/eps, for the network as "
                            "printed and as repaired, with the fitted exponent over the last half of the sweep.",
    "infoflow_thm6_fit": "Theorem 6 construction: parameter count against 1/eps for four (T0, d, n), with the "
                         "fitted exponent and the predicted slope T0 d / n (dashed).",
    "ks_lemma1_sharpness": "Lemma 1 (16): for each n, the separations delta at which a counterexample to (16) was "
                           "found (filled) or searched for and not found (open); the lemma assumes delta > 2 log n + 3 "
                           "(red). Data: the committed sharpness sweep (seed 0).",
}


def _fig(w=7.0, h=4.2):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "attncert", "svg.fonttype": "path", "font.size": 9})
    fig, ax = plt.subplots(figsize=(w, h))
    return plt, fig, ax


def _svg(plt, fig, ax) -> str:
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), borderaxespad=0.0, frameon=False)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def fit_slope(xs, ys) -> float:
    """The least-squares slope of ys against xs."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def infoflow_thm4_params() -> str:
    from attncert.papers.infoflow import thm4net

    plt, fig, ax = _fig()
    eps = [Fraction(1, 2 ** j) for j in range(2, 15)]
    for v, style in zip(thm4net.VARIANTS, ("o-", "s--")):
        pts = [(math.log2(1 / e), math.log2(thm4net.build(16, e, v).params()["total_nonzero"])) for e in eps]
        xs, ys = zip(*pts)
        slope = fit_slope(xs[len(xs) // 2:], ys[len(ys) // 2:])
        ax.plot(xs, ys, style, markersize=3, label=f"{v}: fitted exponent {slope:.3f}")
    ax.set(xlabel="log2(1/eps)", ylabel="log2(nonzero parameters)", title="Theorem 4 construction, T = 16")
    ax.grid(alpha=0.3)
    return _svg(plt, fig, ax)


def infoflow_thm6_fit() -> str:
    from attncert.papers.infoflow.construct import sweep

    plt, fig, ax = _fig()
    for i, cfg in enumerate([(2, 1, 1), (3, 1, 2), (2, 2, 3), (5, 1, 2)]):
        d = sweep(*cfg)
        xs = [r["log2_inv_eps"] for r in d["rows"]]
        ys = [math.log2(r["params_nonzero"]) for r in d["rows"]]
        line, = ax.plot(xs, ys, "o-", markersize=3,
                        label=f"T0={cfg[0]} d={cfg[1]} n={cfg[2]}: fitted {d['fitted_exponent']:.3f}, "
                              f"predicted {d['predicted_exponent']:.3f}")
        s, xa = d["predicted_exponent"], xs[len(xs) // 2]
        ax.plot([xa, xs[-1]], [ys[-1] - s * (xs[-1] - xa), ys[-1]], ":", color=line.get_color())
    ax.set(xlabel="log2(1/eps)", ylabel="log2(parameter count)", title="Theorem 6 construction: count against 1/eps")
    ax.grid(alpha=0.3)
    return _svg(plt, fig, ax)


def ks_lemma1_sharpness() -> str:
    data = json.loads(resources.files("attncert_proofs.data").joinpath("boltz_sharpness.json").read_text("utf-8"))
    plt, fig, ax = _fig(7.0, 3.6)
    ns = sorted({r["n"] for r in data["sweep"]})
    for i, n in enumerate(ns):
        rows = [r for r in data["sweep"] if r["n"] == n]
        found = [float(Fraction(r["delta"])) for r in rows if r["status"] == "found"]
        missed = [float(Fraction(r["delta"])) for r in rows if r["status"] != "found"]
        ax.plot(found, [i] * len(found), "o", color="#2ca02c", markersize=4,
                label="counterexample found (exact)" if i == 0 else None)
        ax.plot(missed, [i] * len(missed), "o", mfc="none", color="#7f7f7f", markersize=4,
                label="searched, none found" if i == 0 else None)
        th = 2 * math.log(n) + 3
        ax.plot([th, th], [i - 0.35, i + 0.35], "-", color="#d62728", linewidth=2,
                label="hypothesis delta > 2 log n + 3" if i == 0 else None)
    ax.set_yticks(range(len(ns)), [f"n = {n}" for n in ns])
    ax.set(xlabel="delta (separation of distinct entries)", title="Lemma 1 (16): where it fails, by delta")
    ax.grid(alpha=0.3, axis="x")
    return _svg(plt, fig, ax)


PLOTS = {"infoflow_thm4_params": infoflow_thm4_params, "infoflow_thm6_fit": infoflow_thm6_fit,
         "ks_lemma1_sharpness": ks_lemma1_sharpness}
