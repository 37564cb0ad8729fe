"""One-shot GPU-scale adversarial search on the Theorem 4 networks (gpu-check's thm4 section, with the
gradient search at scale), for one H100 within a 10-minute device budget. Results: docs/gpu_search/ and
docs/gpu.md.

    python3 benchmarks/gpu_search.py                          # cuda, T in {4, 16, 64}, eps in {1/10, 1/100}
    python3 benchmarks/gpu_search.py --restarts 65536 --steps 1000 --T 64,16,4 --eps 1/10 --json $OUT/big.json

Needs python3 with torch (CUDA), numpy, mpmath, sympy and python-flint (the network's beta uses an arb
enclosure of log T); runs attncert from this checkout's src/. Per configuration: a short sampled pass
(--sample-seconds), then restarts x steps of Adam on |M(X) - F(X)| with X = tanh(P) in the cube, the best
inputs re-evaluated in mpmath at 50 digits (the verdict rests on those). Measured on one H100 (2026-11-27):
all 12 configurations at the default 16,384 x 400 in 95.6 s; 65,536 x 1,000 at eps = 1/10 in 134.5 s for
six. Rows print as they finish, and --json is rewritten after each configuration (complete: false until
the end), so a run cut short still leaves its rows. Exit 1 if anything is REFUTED.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from attncert.gpu import check as gpucheck  # noqa: E402


def _write_json(path: str, obj: dict) -> None:
    tmp = Path(path + ".tmp")
    tmp.write_text(json.dumps(obj, indent=1) + "\n")
    tmp.replace(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--T", default="4,16,64", help="comma-separated sequence lengths")
    ap.add_argument("--eps", default="1/10,1/100", help="comma-separated eps")
    ap.add_argument("--restarts", type=int, default=16384)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--sample-seconds", type=float, default=2.0, help="sampled pass per configuration")
    ap.add_argument("--batch", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args(argv)
    Ts, epss = [int(t) for t in a.T.split(",")], a.eps.split(",")
    print(f"| T | eps | variant | sampled worst / eps | search worst / eps | search start / eps | certified / eps | "
          f"search s | verdict |  ({a.restarts} restarts x {a.steps} steps, {a.device})\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- |", flush=True)
    rows, t0 = [], time.perf_counter()
    for T in Ts:
        for e in epss:
            rec = gpucheck.run(a.device, batch=a.batch, budget_seconds=2 * a.sample_seconds / gpucheck.SHARES["thm4"],
                               seed=a.seed, sections=("thm4",), Ts=(T,), epss=(e,), search_restarts=a.restarts,
                               search_steps=a.steps, bound_search=False)   # the full search, whatever the budget
            for r in rec["thm4"]:
                rows.append(r)
                f, s = r.get("fraction_of_eps", {}), r.get("search", {})
                g = (lambda x: "-" if x is None else f"{x:.4f}")  # noqa: E731
                print(f"| {T} | {e} | {r['variant']} | {g(f.get('sampled'))} | {g(f.get('search'))} | "
                      f"{g(s.get('start_worst') and s['start_worst'] / float(Fraction(r['bound'])))} | {g(f.get('certified'))} | "
                      f"{s.get('seconds', '-')} | {r['verdict']} |", flush=True)
                if r["verdict"] != "CONFIRMED":
                    print(f"  {r['verdict']}: {r['reason']}", flush=True)
            if a.json:   # after every configuration, so that a run cut short still leaves its rows
                _write_json(a.json, {"info": rec["info"], "restarts": a.restarts, "steps": a.steps,
                                     "seed": a.seed, "complete": False, "thm4": rows})
    print(f"total {time.perf_counter() - t0:.1f} s", flush=True)
    if a.json:
        _write_json(a.json, {"info": rec["info"], "restarts": a.restarts, "steps": a.steps, "seed": a.seed,
                             "complete": True, "seconds": round(time.perf_counter() - t0, 1), "thm4": rows})
    return gpucheck.exit_code({"thm4": rows})


if __name__ == "__main__":
    sys.exit(main())
