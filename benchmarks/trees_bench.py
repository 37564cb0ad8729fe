"""Trees of Comparison benchmarks (docs/benchmarks_trees.md): the exact D-retrieval minimum by SAT/SMT
(z3 descent + cvc5 unsat, `treesat.solve`) against brute-force enumeration of leaf-set families
(`treesat.brute_force`), in-process wall clock, median of BENCH_RUNS runs (default 3), and the largest
T each method finishes within the 60 s limit (D = 3 unless BENCH_D is set).

    .venv/bin/python benchmarks/trees_bench.py            # prints a Markdown table
"""

from __future__ import annotations

import os
import statistics
import time

from attncert.checker.treecover import MAX_T
from attncert.papers.infoflow.treesat import brute_force, solve

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
D = int(os.environ.get("BENCH_D", "3"))
LIMIT = 60.0


def timed(fn, runs=RUNS):
    ts, val = [], None
    for _ in range(runs):
        t = time.perf_counter()
        val = fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), val


def main():
    print("| T | D | minimum (SAT) | SAT median s | brute force | brute median s | brute / SAT |")
    print("|---|---|---|---|---|---|---|")
    sat_max = brute_max = None
    brute_alive = True
    for T in range(D, MAX_T["dretrieval"] + 1):
        t_sat, r = timed(lambda: solve("dretrieval", T, D, LIMIT), runs=RUNS if T <= 9 else 1)
        ok_sat = r.minimum is not None and t_sat <= LIMIT
        t_bf, bf = (None, None)
        if brute_alive:
            t_bf, bf = timed(lambda: brute_force(T, D, time.perf_counter() + LIMIT), runs=RUNS if T <= 6 else 1)
            if bf is None:
                brute_alive = False
            else:
                brute_max = T
                assert bf == r.minimum, (T, bf, r.minimum)
        bf_s = "timeout (> 60 s)" if brute_alive is False and bf is None and t_bf is not None else (
            "-" if t_bf is None else f"{bf}")
        print(f"| {T} | {D} | {r.minimum if ok_sat else 'UNKNOWN'} | {t_sat:.3f} | {bf_s} | "
              f"{'-' if t_bf is None else f'{t_bf:.3f}'} | "
              f"{'-' if bf is None else f'{t_bf / t_sat:.1f}'} |", flush=True)
        if not ok_sat:
            break
        sat_max = T
    cap = " (the tool's cap, MAX_T)" if sat_max == MAX_T["dretrieval"] else ""
    print(f"\nlargest T within {LIMIT:g} s (D = {D}): SAT/SMT {sat_max}{cap}, brute force {brute_max}")


if __name__ == "__main__":
    main()
