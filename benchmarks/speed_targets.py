"""The speed targets of issue 19, measured and written into docs/benchmarks.md (between the markers
<!-- speed-targets --> ... <!-- /speed-targets -->).

  verify certificates/            target 10 s  (both solvers re-run every query; also with --solvers z3)
  verify the default KS cert      target  5 s  (construct ks-thm2 --random 3,3,2,0)
  cold check --jobs 2             target 60 s  (--no-cache)

Each is run ``--repeat`` times (default 3) as a subprocess of the installed `attncert`; the median wall
time is reported with the spread. Usage: python benchmarks/speed_targets.py [--repeat N] [--no-write]."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.path.dirname(sys.executable), "attncert")
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
START, END = "<!-- speed-targets -->", "<!-- /speed-targets -->"


def timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="attncert-speed-")
    timed([BIN, "construct", "ks-thm2", "--random", "3,3,2,0", "--out", os.path.join(tmp, "ks")])
    rows = [
        ("verify certificates/ (z3 and cvc5 re-run every query), --jobs 2", 10.0,
         [BIN, "verify", "certificates", "--quiet", "--allow-conditional", "--jobs", "2"]),
        ("verify certificates/ --solvers z3 (one solver re-runs each query), --jobs 2", 10.0,
         [BIN, "verify", "certificates", "--quiet", "--allow-conditional", "--jobs", "2", "--solvers", "z3"]),
        ("verify certificates/, one process (--jobs 1)", None,
         [BIN, "verify", "certificates", "--quiet", "--allow-conditional", "--jobs", "1"]),
        ("verify the default KS Theorem 2 certificate (3,3,2,0; 47,337 bits)", 5.0,
         [BIN, "verify", os.path.join(tmp, "ks")]),
        ("cold check --jobs 2 --no-cache", 60.0, [BIN, "check", "--jobs", "2", "--no-cache"]),
    ]
    lines = ["| what | median (s) | min-max (s) | runs | target (s) | met |", "| --- | --- | --- | --- | --- | --- |"]
    for label, target, cmd in rows:
        ts = [timed(cmd) for _ in range(args.repeat)]
        med = statistics.median(ts)
        met = "" if target is None else ("yes" if med <= target else "NO")
        lines.append(f"| {label} | {med:.1f} | {min(ts):.1f}-{max(ts):.1f} | {len(ts)} | "
                     f"{'' if target is None else f'{target:g}'} | {met} |")
        print(lines[-1], flush=True)
    block = (f"{START}\nMeasured by `python benchmarks/speed_targets.py` on {os.cpu_count()} cores "
             f"(Python {sys.version.split()[0]}).\n\n" + "\n".join(lines) + f"\n{END}")
    if args.no_write:
        return
    text = open(DOC).read()
    if START in text:
        a, b = text.index(START), text.index(END) + len(END)
        text = text[:a] + block + text[b:]
    else:
        text = text.rstrip("\n") + "\n\n## Speed targets (issue 19)\n\n" + block + "\n"
    tmp_doc = DOC + ".tmp"
    with open(tmp_doc, "w") as fh:
        fh.write(text)
    os.replace(tmp_doc, DOC)


if __name__ == "__main__":
    main()
