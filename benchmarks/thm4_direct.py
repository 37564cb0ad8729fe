"""The direct interval branch-and-bound of the whole Theorem 4 network (issue 4) at eps = 9/10: by default the
full T = 2 proof of the printed network, a budgeted T = 3 run, and the T = 2 proof of the repaired network.
Each record (without its split tree) replaces the one with the same T and variant in docs/thm4_direct.json;
with --trees DIR the split trees are written as re-checkable records (attncert construct thm4
--direct-verify FILE).

    python benchmarks/thm4_direct.py [--jobs 2] [--runs 2:printed:10000000,3:printed:200,2:repaired:10000000]
                                     [--trees DIR]

Each T = 2 proof takes about 15 minutes of both cores of the 2-core machine; none of this is part of CI
(the tests run the same code on sub-boxes).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from attncert.papers.infoflow import thm4direct

from attncert.papers.infoflow import thm4net  # noqa: E402
from attncert.core.certificate import atomic_write  # noqa: E402


def run(T: int, eps: Fraction, variant: str, budget: int, jobs: int) -> dict:
    net = thm4net.build(T, eps, variant)
    t0 = time.perf_counter()
    rec = thm4direct.direct_check(net, box_budget=budget, jobs=jobs,
                                  progress=lambda n, N: print(f"  T={T}: sub-box {n}/{N}, {time.perf_counter() - t0:.0f}s",
                                                              file=sys.stderr, flush=True))
    rec["seconds"] = round(time.perf_counter() - t0, 1)
    rec["jobs"] = jobs
    rec["box_budget"] = budget
    return rec


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--runs", default="2:printed:10000000,3:printed:200,2:repaired:10000000",
                    help="T:variant:box-budget, comma-separated")
    ap.add_argument("--trees", metavar="DIR")
    args = ap.parse_args()
    path_json = os.path.join(ROOT, "docs", "thm4_direct.json")
    try:
        with open(path_json, encoding="utf-8") as fh:
            out = json.load(fh)
    except FileNotFoundError:
        out = {"schema": "attncert.thm4direct.bench/1", "runs": []}
    for spec in args.runs.split(","):
        T, variant, budget = spec.split(":")
        rec = run(int(T), Fraction(9, 10), variant, int(budget), args.jobs)
        rec["machine"] = f"{os.cpu_count()} cores"
        tree = rec.pop("tree", None)
        if tree is not None:
            rec["tree_chars"] = len(tree)
            if args.trees:
                path = os.path.join(args.trees, f"thm4-direct-{variant}-T{T}-eps9_10.json")
                atomic_write(path, json.dumps(dict(rec, tree=tree), sort_keys=True) + "\n")
        print({k: v for k, v in rec.items() if k not in ("root", "domain", "method")}, flush=True)
        out["runs"] = [r for r in out["runs"] if (r["T"], r["variant"]) != (rec["T"], rec["variant"])] + [rec]
        out["runs"].sort(key=lambda r: (r["variant"] != "printed", r["T"]))
        atomic_write(path_json, json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
