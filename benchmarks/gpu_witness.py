"""GPU throughput of the Theorem 5 pigeonhole witness engine (torch backend) beside numpy on the host CPU.

One prepared script for a GPU machine that has only torch and numpy: it loads ``src/attncert/papers/infoflow/pigeonhole.py``
straight from this checkout (no attncert install, no z3/sympy; the package ``__init__`` is bypassed).

What it does, in this order, stopping new sizes once ``--budget`` seconds are spent:
  1. device facts and the peak memory bandwidth: 2 * memory_clock_rate * memory_bus_width / 8 from
     ``torch.cuda.get_device_properties`` when torch exposes those fields; otherwise a table value
     (H100 SXM 3.35e12 B/s, H200 4.8e12 B/s), and the output says which;
  2. agreement: torch (cuda) and numpy return the same record for m = 2..5 at about 10^6 candidates;
  3. for m = 2..5, n = 2: ``find_pair(..., backend="torch")`` at about 10^8, 4*10^8 and 10^9 candidates
     (capped by free GPU memory, about 48 bytes per candidate at the peak), with per-phase times;
  4. numpy on the host CPU (all cores) at about 10^8 candidates per m, for comparison.

Bandwidth is an estimate from a traffic model (bytes read + written per candidate, ``TRAFFIC``), not a
measurement: it says how far the run is from being memory bound, nothing more.

  python benchmarks/gpu_witness.py                 # on the GPU machine (a few minutes)
  python benchmarks/gpu_witness.py --cpu-smoke     # anywhere: tiny sizes, torch on the CPU, seconds
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import types
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_engine():
    """attncert.papers.infoflow.pigeonhole from src/, without running attncert/__init__.py (needs only numpy)."""
    if "attncert" not in sys.modules:
        pkg = types.ModuleType("attncert")
        pkg.__path__ = [str(ROOT / "src" / "attncert")]
        sys.modules["attncert"] = pkg
    from attncert.papers.infoflow import pigeonhole

    return pigeonhole


ph = load_engine()
from attncert.gpu.check import peak_bandwidth  # noqa: E402  (shared with `attncert gpu-check`)
import numpy as np  # noqa: E402

N_OUT, BETA, K, WINDOW = 2, Fraction(1, 2), 2, ph.DEFAULT_WINDOW

# Traffic model, bytes per candidate (read + written), for the torch path:
#   enumerate: the D = 3 float64 coordinates written and read back once by the key kernels (48), the
#              packed int64 key written (8);
#   sort:      torch.sort(int64) -> radix sort of (key, index) pairs: 8 passes of 8-bit digits, each
#              reading and writing 8 + 8 bytes (256), plus writing the initial indices (8);
#   pairs:     reading the sorted keys (8), the cube scan (8 + 8), recomputing the points (24 written,
#              24 read) and the window comparisons (2 * 24 per window step, from cache in practice: not
#              counted).
TRAFFIC = {"enumerate": 56, "sort": 264, "pairs": 72}


def eps_for(m: int, N: int) -> Fraction:
    return Fraction(1, 16 * m * N)


def n_for(m: int, M: float) -> int:
    return max(2, round(M ** (1.0 / m)))


def record_key(r):
    return (r.z_index, r.zprime_index, r.distance, r.same_cube, r.occupied_cubes, r.collision_cubes, r.max_occupancy)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu-smoke", action="store_true", help="tiny sizes, torch on the CPU (seconds)")
    ap.add_argument("--budget", type=float, default=300.0, help="stop starting new GPU sizes after this many s")
    ap.add_argument("--sizes", default="1e8,4e8,1e9", help="GPU candidate counts per m (approximate)")
    ap.add_argument("--cpu-size", type=float, default=1e8, help="numpy baseline size per m (0: skip)")
    ap.add_argument("--json", default=os.path.join(os.environ["OUT"], "gpu_witness.json") if os.environ.get("OUT") else None)
    args = ap.parse_args(argv)
    import torch

    t_start = time.perf_counter()
    if args.cpu_smoke:
        dev, sizes, check_M, cpu_M = "cpu", [2e4, 6e4], 5e3, 2e4
    else:
        if not torch.cuda.is_available():
            sys.exit("no CUDA device (use --cpu-smoke to try the script on a CPU)")
        dev, sizes, check_M, cpu_M = "cuda", [float(s) for s in args.sizes.split(",")], 1e6, args.cpu_size
    f1 = ph.TanhNet.seeded(1, N_OUT, 8, 3)
    peak, peak_note = peak_bandwidth(torch, dev)
    info = dict(torch=torch.__version__, numpy=np.__version__, device=dev, cpus=os.cpu_count(), peak=peak,
                peak_note=peak_note)
    free = None
    if dev == "cuda":
        p = torch.cuda.get_device_properties(0)
        free, total = torch.cuda.mem_get_info()
        info.update(gpu=p.name, gpu_mem=total, sms=p.multi_processor_count)
    print(json.dumps(info), flush=True)

    def run(m, N, backend, **kw):
        return ph.find_pair(f1, BETA, m, N_OUT, eps_for(m, N), K, backend=backend, max_candidates=N ** m + 1,
                            device=dev if backend == "torch" else None, **kw)

    # warm-up: CUDA context, kernels, allocator
    run(2, 50, "torch")
    run(2, 50, "numpy")

    agree = {}
    for m in (2, 3, 4, 5):
        N = n_for(m, check_M)
        a, b = run(m, N, "numpy"), run(m, N, "torch")
        agree[m] = (N ** m, record_key(a) == record_key(b))
        print(f"agreement m={m} N^m={N ** m}: {'same record' if agree[m][1] else 'DIFFERENT'}", flush=True)

    rows = []
    for m in (2, 3, 4, 5):
        for M in sizes:
            N = n_for(m, M)
            if free is not None and 48 * N ** m > 0.8 * free:
                print(f"skip m={m} N^m={N ** m}: needs ~{48 * N ** m / 2**30:.0f} GiB", flush=True)
                continue
            if time.perf_counter() - t_start > args.budget:
                print(f"skip m={m} N^m={N ** m}: time budget spent", flush=True)
                continue
            r = run(m, N, "torch")
            if dev == "cuda":
                torch.cuda.empty_cache()
            s = r.seconds
            row = dict(m=m, N=N, M=N ** m, seconds=r.total_seconds, rate=r.candidates_per_s,
                       phases={k: round(v, 4) for k, v in s.items()}, distance=r.distance)
            bytes_total = sum(TRAFFIC.values()) * N ** m
            row["bw"] = bytes_total / max(s.get("enumerate", 0) + s.get("sort", 0) + s.get("pairs", 0), 1e-12)
            row["bw_sort"] = TRAFFIC["sort"] * N ** m / max(s.get("sort", 0), 1e-12)
            rows.append(row)
            print(json.dumps(row), flush=True)

    cpu = {}
    if cpu_M:
        for m in (2, 3, 4, 5):
            N = n_for(m, cpu_M)
            if time.perf_counter() - t_start > args.budget * 1.5:
                print(f"skip numpy m={m}: time budget spent", flush=True)
                continue
            r = run(m, N, "numpy")
            cpu[m] = dict(M=N ** m, rate=r.candidates_per_s, seconds=r.total_seconds)
            print(f"numpy m={m} N^m={N ** m}: {r.candidates_per_s:.3g}/s ({r.total_seconds:.2f} s)", flush=True)

    lines = [f"device: {info.get('gpu', dev)}, torch {info['torch']}, numpy {info['numpy']}, {info['cpus']} CPU cores",
             f"peak memory bandwidth: {peak:.3g} B/s, {peak_note}" if peak else f"peak memory bandwidth: {peak_note}",
             f"traffic model (bytes/candidate): {TRAFFIC}", "",
             "| m | candidates | torch s | torch cand/s | enumerate / sort / pairs s | est. B/s (all) | of peak | "
             "est. B/s (sort) | of peak | numpy cand/s (host, size) | torch / numpy |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        ph_ = r["phases"]
        frac = (lambda x: f"{x / peak:.1%}") if peak else (lambda x: "-")
        c = cpu.get(r["m"])
        lines.append(f"| {r['m']} | {r['M']:,} | {r['seconds']:.3g} | {r['rate']:.3g} | "
                     f"{ph_.get('enumerate', 0):.3g} / {ph_.get('sort', 0):.3g} / {ph_.get('pairs', 0):.3g} | "
                     f"{r['bw']:.3g} | {frac(r['bw'])} | {r['bw_sort']:.3g} | {frac(r['bw_sort'])} | "
                     + (f"{c['rate']:.3g} ({c['M']:.2g}) | {r['rate'] / c['rate']:.1f}x |" if c else "- | - |"))
    lines.append("")
    lines.append("agreement torch = numpy: " + ", ".join(f"m={m} ({M:.2g}): {'yes' if ok else 'NO'}"
                                                      for m, (M, ok) in agree.items()))
    lines.append(f"total wall time: {time.perf_counter() - t_start:.1f} s")
    text = "\n".join(lines)
    print(text)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(dict(info=info, agree=agree, rows=rows, cpu=cpu, table=text), fh, indent=1)


if __name__ == "__main__":
    main()
