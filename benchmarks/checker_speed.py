"""Checker speed: wall clock of `attncert verify` on the Kajitsuka-Sato Theorem 2 certificate built by
`attncert construct ks-thm2 --random 3,3,2,0` (47,337-bit intervals; median of BENCH_RUNS runs, default
3), of `attncert verify certificates --quiet --allow-conditional` (one run; dominated by the SMT re-runs),
and, in process, of the exact grid replays (checker.treecover.grid_cover) of the committed treegrid
certificates (median of BENCH_RUNS).

    .venv/bin/python benchmarks/checker_speed.py              # builds the KS certificate in a temp dir
    .venv/bin/python benchmarks/checker_speed.py --ks DIR     # reuses one built with --out DIR
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from attncert.checker.treecover import grid_cover

ROOT = Path(__file__).resolve().parents[1]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
CLI = [sys.executable, "-m", "attncert.cli"]


def run(args: list[str], expect: str) -> float:
    t = time.perf_counter()
    r = subprocess.run(CLI + args, cwd=ROOT, capture_output=True, text=True, check=False)
    dt = time.perf_counter() - t
    if r.returncode != 0 or expect not in r.stdout:
        sys.exit(f"attncert {' '.join(args)} failed (exit {r.returncode}):\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return dt


def median_of(fn, runs: int = RUNS) -> tuple[float, list[float]]:
    ts = [fn() for _ in range(runs)]
    return statistics.median(ts), ts


def grid_cases() -> list[tuple]:
    cases = []
    for p in sorted((ROOT / "certificates").rglob("*.json")):
        ev = json.loads(p.read_text()).get("evidence", {})
        if isinstance(ev, dict) and ev.get("kind") == "treegrid":
            cases.append((ev["target"], ev["T"], ev["D"], ev["g"]))
    return cases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ks", help="directory with a built ks-thm2 certificate (default: build one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ks = args.ks
        if ks is None:
            ks = str(Path(tmp) / "ks")
            t = time.perf_counter()
            run(["construct", "ks-thm2", "--random", "3,3,2,0", "--out", ks], "PROVED")
            print(f"built the KS certificate in {time.perf_counter() - t:.1f} s")
        med, ts = median_of(lambda: run(["verify", ks], "verified 1/1"))
        print(f"verify KS ks-thm2 --random 3,3,2,0 (47337 bits): median {med:.2f} s of {', '.join(f'{x:.2f}' for x in ts)}")
    cases = grid_cases()
    med, ts = median_of(lambda: _timed(lambda: [grid_cover(*c) for c in cases]))
    print(f"grid_cover, the {len(cases)} treegrid certificates: median {med:.3f} s of {', '.join(f'{x:.3f}' for x in ts)}")
    t = run(["verify", "certificates", "--quiet", "--allow-conditional"], "verified")
    print(f"verify certificates --quiet --allow-conditional: {t:.1f} s (1 run)")


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
