"""Benchmarks: `attncert check` per family, `attncert verify` on the committed certificates and the
Theorem 4 construction, median of 5 wall-clock runs each (subprocess, so start-up is included; the
result cache is off).
Writes the table to docs/benchmarks.md."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXE = os.path.join(os.path.dirname(sys.executable), "attncert")


RUNS = int(os.environ.get("BENCH_RUNS", "5"))


def timed(args, runs=None):
    runs = runs or RUNS
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run([EXE] + args, cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "ATTNCERT_NO_CACHE": "1"})
        out.append(time.perf_counter() - t)
        if r.returncode != 0:
            raise SystemExit(f"{args} exited {r.returncode}: {r.stderr[-300:]}")
    return out


def main():
    rows = [("attncert check ks_boltzmann", timed(["check", "ks_boltzmann"]), 15.0),
            ("attncert verify certificates/ks/ks_boltzmann", timed(["verify", "--quiet", "certificates/ks/ks_boltzmann"]), 2.0),
            ("attncert check infoflow (Theorems 4-6, the model, the trees)", timed(["check", "infoflow"]), 75.0),
            ("attncert check infoflow_thm4 (Theorem 1/4, A.1)", timed(["check", "infoflow_thm4"]), 45.0),
            ("attncert construct thm4 --T 64 --eps 0.01 (both variants, certificates)",
             timed(["construct", "thm4", "--T", "64", "--eps", "0.01", "--out", os.path.join(ROOT, ".bench-thm4")]), 60.0),
            ("attncert check ks_theorems (KS Theorems 1-2, Cor 1-2, Prop 1)", timed(["check", "ks_theorems"]), 45.0),
            ("attncert check infoflow_model (Section 5, Figure 5, Props 1-2)", timed(["check", "infoflow_model"]), 30.0),
            ("attncert check infoflow_trees (Defs 1-2, Figure 2, App. D)", timed(["check", "infoflow_trees"]), 30.0),
            ("attncert trees --target dretrieval --T 8 --D 3 (exact minimum, z3 + cvc5)",
             timed(["trees", "--target", "dretrieval", "--T", "8", "--D", "3"]), 60.0),
            ("attncert check (everything)", timed(["check"]), 90.0)]
    lines = ["# Benchmarks", "", "Machine: the project's 2-core, 24 GiB machine. Wall clock, median of "
             f"{RUNS} runs, process start-up included, result cache off. Regenerate with `make bench` "
             "(BENCH_RUNS=N to change the number of runs).", "",
             "| command | median (s) | min (s) | max (s) | target (s) | ratio median/target |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name, ts, target in rows:
        med = statistics.median(ts)
        lines.append(f"| `{name}` | {med:.2f} | {min(ts):.2f} | {max(ts):.2f} | {target:.0f} | {med / target:.2f} |")
    text = "\n".join(lines) + "\n"
    path = os.path.join(ROOT, "docs", "benchmarks.md")
    old = open(path).read() if os.path.exists(path) else ""
    marker = "<!-- notes -->"
    notes = old[old.index(marker):] if marker in old else ""
    with open(path + ".tmp", "w") as fh:
        fh.write(text + ("\n" + notes if notes else ""))
    os.replace(path + ".tmp", path)
    print(text)


if __name__ == "__main__":
    main()
