"""The direct interval branch-and-bound of the whole Theorem 4 network (issue 4): the full T = 2 proof and a
budgeted T = 3 run, written to docs/thm4_direct.json (the records without the split trees) and, with
--trees DIR, the split trees as re-checkable records (attncert construct thm4 --direct-verify FILE).

    python benchmarks/thm4_direct.py [--jobs 2] [--t3-budget 200] [--trees DIR]

The T = 2 proof takes about 15 minutes of both cores of the 2-core machine; it is not part of CI (the tests
run the same code on sub-boxes).
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

from attncert import thm4direct, thm4net  # noqa: E402
from attncert.certificate import atomic_write  # noqa: E402


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
    ap.add_argument("--t2-budget", type=int, default=10 ** 7)
    ap.add_argument("--t3-budget", type=int, default=200)
    ap.add_argument("--trees", metavar="DIR")
    args = ap.parse_args()
    out = {"schema": "attncert.thm4direct.bench/1", "machine": f"{os.cpu_count()} cores", "runs": []}
    for T, budget in ((2, args.t2_budget), (3, args.t3_budget)):
        rec = run(T, Fraction(9, 10), "printed", budget, args.jobs)
        tree = rec.pop("tree", None)
        if tree and args.trees:
            path = os.path.join(args.trees, f"thm4-direct-printed-T{T}-eps9_10.json")
            atomic_write(path, json.dumps(dict(rec, tree=tree), sort_keys=True) + "\n")
            rec["tree_chars"] = len(tree)
        print({k: v for k, v in rec.items() if k not in ("root", "domain", "method")})
        out["runs"].append(rec)
    atomic_write(os.path.join(ROOT, "docs", "thm4_direct.json"), json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
