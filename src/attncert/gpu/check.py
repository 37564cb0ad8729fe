"""``attncert gpu-check``: the constructed networks over large batches on a GPU (or the CPU), as CONFIRMED
evidence (sampled; never PROVED).

``budget_seconds`` bounds the whole run, start-up included: throughput, thm5 and ks get their shares (SHARES;
thm5 and ks do a fixed, small amount of work), and thm4 runs last with what is left. Inside it the sampling,
the gradient search and the mpmath re-evaluation of the worst inputs all come out of the budget. The
re-evaluation has a floor that no budget can shrink (about 0.8 s per input at T = 64, ``mp_cost``): rows
whose floor does not fit are not run (UNKNOWN, with the budget that would run them), and a line on stderr
says so before thm4 starts. Every section runs at least one batch, so a budget below the first row's floor
is overrun by that floor.

Sections:
  thm4        the Theorem 4 network (both variants) for T in {4, 16, 64}, eps in {1/10, 1/100}: worst
              |M(X) - F(X)| in float64 on seeded random inputs and adversarial ones (near-ties, repeated
              tokens, cube corners, the boundary), beside eps (the certified bound). The worst inputs, and
              every input whose float64 error comes within eps/4 of eps, are re-evaluated in mpmath at 50
              digits with the exact target; the verdict rests on those values. A dtype the guard refuses, a
              NaN or infinity, or too many near-bound inputs to re-evaluate give UNKNOWN.
              Then an adversarial search (``search_thm4``): gradient ascent on |M(X) - F(X)| in float64
              (torch autograd, Adam, inputs tanh(P) kept in the cube, 3/4 uniform and 1/4 hand-picked
              starts, seeded), ``search_restarts`` x at most ``search_steps`` (the budget stops it earlier; the
              row records the steps run); its best inputs are re-evaluated in mpmath the same way and the
              verdict rests on those values too.
  throughput  sequences per second of the Theorem 4 network (T = 64, eps = 1/100, repaired) on the device
              beside the numpy reference on the same machine's CPU, the bytes each sequence must move
              (input + output) and the bytes the unfused torch evaluation moves (every aten op's inputs and
              outputs, counted by a dispatch mode), as a fraction of the card's peak memory bandwidth.
  thm5        the Theorem 5 pigeonhole witness search (attncert.papers.infoflow.pigeonhole) with backend torch on the device
              against numpy on the CPU: the same record, bit for bit, and candidates per second.
  ks          the Kajitsuka-Sato Theorem 2 construction (rank-1 layer (20) with the weights (29)-(32)) on
              seeded datasets: torch float64 against mpmath at 50 digits, the output norms < r, and the
              dtype guard on the separation delta of (8), which float64 cannot represent at any size tried
              (UNKNOWN, with the reason). Needs python-flint to build the layer.
"""

from __future__ import annotations

import math
import os
import time
from fractions import Fraction

import logging

from attncert.core.errors import InvalidParameter

_LOG = logging.getLogger(__name__)

THM4_T = (4, 16, 64)
THM4_EPS = ("1/10", "1/100")
KS_SIZES = ((2, 2, 1, 0, 2), (2, 2, 2, 0, 3), (2, 3, 2, 0, 3), (3, 3, 2, 0, 6))   # N, n, d, seed, vocabulary
SHARES = {"thm4": 0.6, "throughput": 0.15, "thm5": 0.15, "ks": 0.1}
MP_DPS = 50
MAX_REEVAL = 24
SEARCH_TOP = 3                  # the search's best restarts re-evaluated in mpmath (plus every near-bound one)
SEARCH_LR = 0.05
SEARCH_MARGIN = 1e-6
SEARCH_DEFAULT = {"cuda": (16384, 400), "cpu": (64, 60)}    # restarts, steps


def mp_cost(T: int) -> float:
    """Seconds one mpmath re-evaluation (50 digits) of the Theorem 4 network takes at length T: a model fitted
    on a 2-core machine (0.035 s at T = 4, 0.13 s at T = 16, 0.82 s at T = 64), used to plan the budget."""
    return 0.01 + 0.0063 * T + 1.0e-4 * T * T


def thm4_bytes(T: int, n: int) -> int:
    """An upper estimate of the memory one float64 evaluation (with its autograd graph) of the Theorem 4 network
    takes for n sequences of length T (measured: about 0.2 MB per sequence at T = 64 with the graph)."""
    return n * (64 * T * T + 1500 * T)


def _reevals(search_on: bool) -> int:
    return 2 + (SEARCH_TOP if search_on else 0)


def peak_bandwidth(torch, dev):
    """(bytes/s, how it was obtained) of the device's memory, or (None, why not)."""
    if not str(dev).startswith("cuda"):
        return None, "no GPU"
    p = torch.cuda.get_device_properties(0)
    clk, bus = getattr(p, "memory_clock_rate", None), getattr(p, "memory_bus_width", None)
    if clk and bus:
        return 2.0 * clk * 1e3 * bus / 8, f"from device properties (clock {clk} kHz, bus {bus} bit)"
    name = p.name.upper()
    if "H200" in name:
        return 4.8e12, "assumed 4.8e12 B/s (H200 table value; torch does not expose the memory clock)"
    if "H100" in name:
        return 3.35e12, "assumed 3.35e12 B/s (H100 SXM table value; torch does not expose the memory clock)"
    return None, f"unknown for {p.name}"


def _sync(torch, dev):
    if str(dev).startswith("cuda"):
        torch.cuda.synchronize()


def device_info(torch, dev) -> dict:
    import numpy as np

    peak, note = peak_bandwidth(torch, dev)
    info = {"device": str(dev), "torch": torch.__version__, "numpy": np.__version__, "cpus": os.cpu_count(),
            "peak_bandwidth": peak, "peak_note": note}
    if str(dev).startswith("cuda"):
        p = torch.cuda.get_device_properties(0)
        info.update(gpu=p.name, gpu_memory=p.total_memory, sms=p.multi_processor_count)
    return info


# ------------------------------------------------------------------------------------------------ thm4

def _reeval(net, rows) -> list[float]:
    """|M - F| in mpmath at MP_DPS digits for each input (a list of T 3-vectors of floats, taken exactly)."""
    from attncert.papers.infoflow.thm4net import forward_mp

    out = []
    for Xrow in rows:
        y, Fv = forward_mp(net, [[Fraction(c) for c in t] for t in Xrow], dps=MP_DPS)
        out.append(float(abs(y - Fv)))
    return out


def search_thm4(torch, dev, net, model, restarts: int, steps: int, seed: int, lr: float = SEARCH_LR,
                deadline: float | None = None) -> dict:
    """Gradient ascent on |M(X) - F(X)| over the cube [-1, 1]^(3T), kept in it by X = tanh(P): Adam on P for
    ``steps`` steps from ``restarts`` seeded starts (3/4 uniform on the cube, 1/4 thm4net.adversarial_inputs,
    pulled inside by SEARCH_MARGIN: atanh stays finite and Adam can still move corner coordinates; 1e-9 froze
    them). F's min is differentiated by torch's subgradient. Adam is elementwise, so each restart is its own
    ascent. With ``deadline`` (a time.perf_counter() value) it stops after the first step that ends past it
    (``steps`` then records the steps run, ``stopped_by_budget`` is true). Returns the worst float64 error at
    the starts and over the run, and each restart's best input (float64: candidates only; the caller
    re-evaluates them in mpmath)."""
    from attncert.papers.infoflow import thm4net
    from attncert.gpu.torch_models import target_torch

    T, f64 = net.T, torch.float64
    gen = torch.Generator(device=dev).manual_seed(seed + 104729)
    X0 = torch.rand((restarts, T, 3), generator=gen, dtype=f64, device=dev) * 2 - 1
    k = restarts // 4
    if k:
        X0[:k] = torch.as_tensor(thm4net.adversarial_inputs(T, k, seed + 15485863), dtype=f64, device=dev)
    P = torch.atanh(X0.clamp(-1 + SEARCH_MARGIN, 1 - SEARCH_MARGIN)).requires_grad_(True)
    opt = torch.optim.Adam([P], lr=lr)
    best = torch.full((restarts,), -1.0, dtype=f64, device=dev)
    best_X = torch.zeros_like(X0)
    finite = torch.ones((), dtype=torch.bool, device=dev)
    t0 = time.perf_counter()
    done, stopped = 0, False
    for step in range(steps + 1):
        X = torch.tanh(P)
        err = (model(X)[:, 0] - target_torch(X)).abs()
        with torch.no_grad():
            finite &= torch.isfinite(err).all()
            if step == 0:
                start = err.max()
            up = err > best
            best = torch.where(up, err, best)
            best_X = torch.where(up[:, None, None], X, best_X)
        if step == steps:
            break
        if step >= 1 and deadline is not None:
            _sync(torch, dev)
            if time.perf_counter() >= deadline:
                stopped = True
                break
        opt.zero_grad(set_to_none=True)
        (-err.sum()).backward()
        opt.step()
        done += 1
    _sync(torch, dev)
    return {"restarts": restarts, "steps": done, "steps_requested": steps, "stopped_by_budget": stopped,
            "lr": lr, "finite": bool(finite), "start_worst": float(start),
            "worst_float64": float(best.max()), "seconds": round(time.perf_counter() - t0, 3),
            "best": best.detach(), "best_X": best_X.detach()}


def check_thm4(torch, dev, T: int, eps: str, variant: str, batch: int, seconds: float, seed: int,
               search: tuple[int, int] = (0, 0), bound_search: bool = True) -> dict:
    """One row of the thm4 section. With ``bound_search`` (the default), ``seconds`` covers the sampling,
    the search and the mpmath re-evaluation: the sampling gets a third of what the re-evaluation's planned
    floor leaves, the search runs until the row's time less its own re-evaluation is spent. Without it,
    ``seconds`` bounds the sampling alone and the search runs its full scale (benchmarks/gpu_search.py)."""
    from attncert.papers.infoflow import thm4net
    from attncert.gpu.torch_models import dtype_guard, from_thm4, target_torch

    net = thm4net.build(T, eps, variant)
    row = {"T": T, "eps": eps, "variant": variant, "beta": net.beta, "bound": str(net.eps),
           "certified": thm4net.certified_bound(net),
           "random": 0, "adversarial": 0, "worst_random": 0.0, "worst_adversarial": 0.0}
    reason = dtype_guard(net, torch.float64)
    if reason:
        return {**row, "verdict": "UNKNOWN", "reason": reason}
    model = from_thm4(net, torch.float64, dev)
    gen = torch.Generator(device=dev).manual_seed(seed)
    epsf = float(net.eps)
    worst, near = [], []            # (err, kind, input) candidates for mpmath re-evaluation
    t0, j = time.perf_counter(), 0
    search_on = search[0] > 0
    if bound_search:
        t_end = t0 + seconds
        spare = max(0.0, seconds - _reevals(search_on) * mp_cost(T))
        sample_seconds = spare / 3 if search_on else spare
    else:
        t_end, sample_seconds = None, seconds
    while True:
        for kind in ("random", "adversarial"):
            if kind == "random":
                X = torch.rand((batch, T, 3), generator=gen, dtype=torch.float64, device=dev) * 2 - 1
            else:
                X = torch.as_tensor(thm4net.adversarial_inputs(T, max(4, batch // 4), seed + 7919 * (j + 1)),
                                    dtype=torch.float64, device=dev)
            with torch.no_grad():
                err = (model(X)[:, 0] - target_torch(X)).abs()
            if not bool(torch.isfinite(err).all()):
                return {**row, "verdict": "UNKNOWN", "reason": "float64 evaluation produced a NaN or infinity"}
            row[kind] += X.shape[0]
            top = float(err.max())
            row[f"worst_{kind}"] = max(row[f"worst_{kind}"], top)
            i = int(err.argmax())
            worst.append((top, kind, X[i].tolist()))
            idx = torch.nonzero(err > 0.75 * epsf).flatten()[: MAX_REEVAL + 1].tolist()
            near += [(float(err[k]), kind, X[k].tolist()) for k in idx]
        j += 1
        _sync(torch, dev)
        if time.perf_counter() - t0 >= sample_seconds:
            break
    row["seconds"] = round(time.perf_counter() - t0, 3)
    worst.sort(key=lambda w: -w[0])
    near.sort(key=lambda w: -w[0])
    pick = worst[:2] + near[:MAX_REEVAL]
    mp = _reeval(net, [w[2] for w in pick])
    row["mpmath_worst"] = max(mp)
    row["mpmath_reevaluated"] = len(pick)
    row["worst_input"] = pick[mp.index(max(mp))][2]
    bad, unknown = [], []
    if max(mp) > epsf:
        bad.append(f"a sampled input has |M - F| = {max(mp):.6g} > eps")
    if len(near) > MAX_REEVAL:
        unknown.append(f"more than {MAX_REEVAL} sampled inputs have a float64 error above 3/4 eps")
    restarts, steps = search
    if restarts > 0:
        deadline = None if t_end is None else t_end - SEARCH_TOP * mp_cost(T)
        with torch.enable_grad():
            s = search_thm4(torch, dev, net, model, restarts, steps, seed, deadline=deadline)
        best, best_X = s.pop("best"), s.pop("best_X")
        row["search"] = s
        if not s["finite"]:
            return {**row, "verdict": "UNKNOWN", "reason": "float64 evaluation produced a NaN or infinity (search)"}
        n_near = int((best > 0.75 * epsf).sum())
        order = torch.argsort(best, descending=True).tolist()
        idx = order[:SEARCH_TOP]
        smp = _reeval(net, [best_X[i].tolist() for i in idx])
        if max(smp) <= epsf and n_near > SEARCH_TOP:       # not refuted yet: every near-bound restart, as above
            idx = order[:max(SEARCH_TOP, min(n_near, MAX_REEVAL))]
            smp += _reeval(net, [best_X[i].tolist() for i in idx[len(smp):]])
        s.update(mpmath_worst=max(smp), mpmath_reevaluated=len(idx), worst_input=best_X[idx[smp.index(max(smp))]].tolist())
        if max(smp) > epsf:
            bad.append(f"the gradient search found |M - F| = {max(smp):.6g} > eps")
        if n_near > MAX_REEVAL:
            unknown.append(f"more than {MAX_REEVAL} search restarts end above 3/4 eps")
    row["fraction_of_eps"] = {"sampled": row["mpmath_worst"] / epsf, "certified": row["certified"] / epsf,
                              **({"search": row["search"]["mpmath_worst"] / epsf} if "search" in row else {})}
    if bad:
        row.update(verdict="REFUTED", reason="; ".join(bad) + f" in mpmath at {MP_DPS} digits: the certified bound "
                   "is violated")
    elif unknown:
        row.update(verdict="UNKNOWN", reason="; ".join(unknown) + "; not all could be re-evaluated in mpmath")
    else:
        row.update(verdict="CONFIRMED", reason="sampled float64" + (" and gradient search" if "search" in row else "")
                   + ", worst inputs re-evaluated in mpmath (not a proof)")
    return row


# ------------------------------------------------------------------------------------------------ throughput

def traffic_per_sequence(torch, model, T: int, dev, batch: int = 8) -> float:
    """Bytes the unfused evaluation moves per sequence: the sum over aten ops (views excluded) of the bytes of
    their tensor inputs and outputs, on a small batch, divided by the batch."""
    from torch.utils._python_dispatch import TorchDispatchMode

    total = [0]

    def nbytes(t):
        if not isinstance(t, torch.Tensor):
            return 0
        return min(t.numel() * t.element_size(), t.untyped_storage().nbytes())

    class Count(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if not getattr(func, "is_view", False):
                flat = list(args) + list((kwargs or {}).values())
                flat = [x for a in flat for x in (a if isinstance(a, (list, tuple)) else (a,))]
                outs = out if isinstance(out, (list, tuple)) else (out,)
                total[0] += sum(nbytes(x) for x in flat) + sum(nbytes(x) for x in outs)
            return out

    X = torch.zeros((batch, T, 3), dtype=torch.float64, device=dev)
    with torch.no_grad(), Count():
        model(X)
    return total[0] / batch


def throughput(torch, dev, seconds: float, T: int = 64, eps: str = "1/100", batch: int | None = None) -> dict:
    import numpy as np

    from attncert.papers.infoflow import thm4net
    from attncert.gpu.torch_models import from_thm4

    net = thm4net.build(T, eps, "repaired")
    model = from_thm4(net, torch.float64, dev)
    gpu = str(dev).startswith("cuda")
    B = batch or (16384 if gpu else 256)
    X = torch.rand((B, T, 3), generator=torch.Generator(device=dev).manual_seed(1), dtype=torch.float64, device=dev) * 2 - 1
    with torch.no_grad():
        model(X)
        _sync(torch, dev)
        times, t_end = [], time.perf_counter() + seconds / 2
        while len(times) < 3 or (time.perf_counter() < t_end and len(times) < 50):
            t0 = time.perf_counter()
            model(X)
            _sync(torch, dev)
            times.append(time.perf_counter() - t0)
    t_dev = sorted(times)[len(times) // 2]
    Bc = 256
    Xc = np.random.default_rng(1).uniform(-1, 1, size=(Bc, T, 3))
    thm4net.forward_np(net, Xc)
    ctimes, t_end = [], time.perf_counter() + seconds / 2
    while len(ctimes) < 3 or (time.perf_counter() < t_end and len(ctimes) < 20):
        t0 = time.perf_counter()
        thm4net.forward_np(net, Xc)
        ctimes.append(time.perf_counter() - t0)
    t_cpu = sorted(ctimes)[len(ctimes) // 2]
    essential = T * 3 * 8 + 8
    moved = traffic_per_sequence(torch, model, T, dev)
    rate = B / t_dev
    peak, note = peak_bandwidth(torch, dev)
    return {"T": T, "eps": eps, "variant": "repaired", "batch": B, "device_seq_per_s": rate, "device_runs": len(times),
            "cpu_numpy_seq_per_s": Bc / t_cpu, "cpu_batch": Bc, "ratio": rate * t_cpu / Bc,
            "bytes_essential": essential, "bytes_unfused": moved, "achieved_essential_Bps": rate * essential,
            "achieved_unfused_Bps": rate * moved, "peak_Bps": peak, "peak_note": note,
            "fraction_essential": None if not peak else rate * essential / peak,
            "fraction_unfused": None if not peak else rate * moved / peak}


# ------------------------------------------------------------------------------------------------ thm5

def check_thm5(dev, seconds: float, gpu: bool) -> dict:
    from attncert.papers.infoflow import pigeonhole as ph

    f1 = ph.TanhNet.seeded(1, 2, 8, 3)
    beta, k, m = Fraction(1, 2), 2, 3

    def find(N, backend):
        return ph.find_pair(f1, beta, m, 2, Fraction(1, 16 * m * N), k, backend=backend, max_candidates=N ** m + 1,
                            device=str(dev) if backend == "torch" else None)

    key = lambda r: (r.z_index, r.zprime_index, r.distance, r.same_cube, r.occupied_cubes, r.collision_cubes)  # noqa: E731
    N_check = 100 if gpu else 20
    a, b = find(N_check, "numpy"), find(N_check, "torch")
    row = {"m": m, "agreement_candidates": N_check ** m, "same_record": key(a) == key(b),
           "distance": str(b.distance)}
    N_big = 460 if gpu else 30           # ~ 10^8 candidates on a GPU
    t0 = time.perf_counter()
    r = find(N_big, "torch")
    row.update(candidates=N_big ** m, seconds=time.perf_counter() - t0, candidates_per_s=r.candidates_per_s,
               verdict="CONFIRMED" if row["same_record"] else "REFUTED",
               reason="torch and numpy return the same witness record" if row["same_record"]
               else "torch and numpy records differ")
    return row


# ------------------------------------------------------------------------------------------------ ks

def check_ks(torch, dev, seconds: float) -> list[dict]:
    try:
        import flint  # noqa: F401
    except ImportError:
        return [{"size": "-", "verdict": "UNKNOWN", "reason": "python-flint is not installed: the KS layer is built "
                 "with arb balls (pip install python-flint)"}]
    import mpmath

    from attncert.papers.ks import construct as ks
    from attncert.gpu.torch_models import forward_ks, ks_dtype_guard

    rows, t0 = [], time.perf_counter()
    for N, n, d, seed, vocab in KS_SIZES:
        if rows and time.perf_counter() - t0 > seconds:
            break
        ds = ks.random_dataset(N, n, d, seed, vocab_size=vocab)
        layer = ks.build(ds, 0)
        got = forward_ks(layer, torch.float64, dev).cpu().numpy()
        gen = forward_ks(layer, torch.float64, dev, form="general").cpu().numpy()
        with mpmath.workdps(MP_DPS):
            ref = ks._outputs(layer, lambda q: mpmath.mpf(Fraction(q).numerator) / Fraction(q).denominator, mpmath.exp)
            diff = max(abs(float(ref[i][k][c]) - float(got[i, c, k])) / max(1.0, abs(float(ref[i][k][c])))
                       for i in range(N) for k in range(n) for c in range(d))
        r = float(layer.r)
        norms = bool(all(math.sqrt(sum(float(got[i, c, k]) ** 2 for c in range(d))) < r for i in range(N) for k in range(n)))
        reason = ks_dtype_guard(layer, torch.float64)
        rows.append({"size": f"N={N} n={n} d={d} seed={seed} |V|<={vocab}", "max_rel_diff_mpmath": diff,
                     "max_rel_diff_general_vs_rank1": float(abs(got - gen).max()), "norms_below_r": norms,
                     "log_delta": ks.log_delta8(ds),
                     "verdict": "UNKNOWN" if reason else "CONFIRMED",
                     "reason": reason or "float64 separations above delta (sampled, not a proof)"})
    return rows


# ------------------------------------------------------------------------------------------------ driver

def run(device: str = "cpu", batch: int | None = None, budget_seconds: float = 60.0, seed: int = 0,
        sections=("thm4", "throughput", "thm5", "ks"), Ts=THM4_T, epss=THM4_EPS,
        search_restarts: int | None = None, search_steps: int | None = None,
        bound_search: bool = True) -> dict:
    """All sections; see the module doc. One torch thread on the CPU (torch_backend.cpu_threads). The search
    scale defaults to SEARCH_DEFAULT for the device; ``search_restarts=0`` turns the search off. Progress (a
    line per section and per row) is logged at INFO on ``attncert.gpu.check``; which rows the budget leaves out
    is a WARNING, logged before the rows run. With
    ``bound_search=False`` the budget bounds the sampling only (the search and the re-evaluation come on
    top, and no row is left out): benchmarks/gpu_search.py."""
    from attncert.gpu.torch_models import cpu_threads

    t_run = time.perf_counter()   # the budget counts from here: importing torch is part of the run
    gpu = device.startswith("cuda")
    batch, search = _check_params(device, batch, budget_seconds, search_restarts, search_steps, Ts)
    if not gpu:   # refuse an allocation this machine cannot hold before importing torch (seconds)
        _check_memory(device, None, batch, search, Ts)
    with cpu_threads(device):
        return _run(device, batch, budget_seconds, seed, sections, Ts, epss, search, bound_search, t_run)


def _check_params(device, batch, budget_seconds, search_restarts, search_steps, Ts):
    if not budget_seconds > 0:
        raise InvalidParameter("--budget-seconds must be positive")
    gpu = device.startswith("cuda")
    batch = batch or (8192 if gpu else 64)
    if batch < 1:
        raise InvalidParameter("--batch must be at least 1")
    dr, ds = SEARCH_DEFAULT["cuda" if gpu else "cpu"]
    search = (dr if search_restarts is None else search_restarts, ds if search_steps is None else search_steps)
    if search[0] < 0 or search[1] < 0:
        raise InvalidParameter("--search-restarts and --search-steps must be at least 0")
    return batch, search


def _check_memory(device, torch, batch, search, Ts) -> None:
    """Refuse (one line, exit 2) a --batch or --search-restarts whose tensors would not fit in memory."""
    from attncert.gpu.torch_models import check_memory

    for T in Ts:
        b = batch if T <= 16 else max(1, batch // 4)
        check_memory(f"gpu-check --batch {batch}: one batch of {b} sequences at T = {T} (float64)",
                     thm4_bytes(T, b), device, torch, hint="use a smaller --batch")
        if search[0]:
            check_memory(f"gpu-check --search-restarts {search[0]}: the gradient search at T = {T} (float64, "
                         "with its autograd graph)", thm4_bytes(T, search[0]), device, torch,
                         hint="use fewer --search-restarts")


def _plan_thm4(configs, seconds: float, search_on: bool) -> tuple[list, list]:
    """Which rows run within ``seconds``: each row's floor is the mpmath re-evaluation of its worst inputs
    (``mp_cost``); while the floors exceed the budget, the most expensive rows are left out, last first.
    The first row always runs. Returns (rows to run, rows left out)."""
    floor = {c: _reevals(search_on) * mp_cost(c[0]) for c in configs}
    run_ = list(configs)
    while len(run_) > 1 and sum(floor[c] for c in run_) > seconds:
        top = max(floor[c] for c in run_[1:])
        drop = max(i for i, c in enumerate(run_) if i > 0 and floor[c] == top)
        run_.pop(drop)
    return run_, [c for c in configs if c not in run_]


def _run(device, batch, budget_seconds, seed, sections, Ts, epss, search, bound_search, t_run) -> dict:
    from attncert.gpu.torch_models import _torch, check_device

    torch = _torch()
    check_device(torch, device)
    gpu = device.startswith("cuda")
    if gpu:
        _check_memory(device, torch, batch, search, Ts)
    say = _LOG.info
    t_start = t_run
    rec = {"schema": "attncert.gpu-check/1", "info": device_info(torch, device), "batch": batch,
           "budget_seconds": budget_seconds, "seed": seed, "search": {"restarts": search[0], "steps": search[1],
           "lr": SEARCH_LR}}
    say(f"device: {rec['info'].get('gpu', device)}; torch {torch.__version__}")
    if "throughput" in sections:
        rec["throughput"] = throughput(torch, device, SHARES["throughput"] * budget_seconds)
        say(f"throughput: {rec['throughput']['device_seq_per_s']:.3g} seq/s on {device}, "
            f"{rec['throughput']['ratio']:.1f}x numpy")
    if "thm5" in sections:
        rec["thm5"] = check_thm5(device, SHARES["thm5"] * budget_seconds, gpu)
        say(f"thm5: {rec['thm5']['verdict']}")
    if "ks" in sections:
        rec["ks"] = check_ks(torch, device, SHARES["ks"] * budget_seconds)
        say(f"ks: {', '.join(r['verdict'] for r in rec['ks'])}")
    if "thm4" in sections:
        from attncert.papers.infoflow import thm4net

        configs = [(T, e, v) for T in Ts for e in epss for v in ("printed", "repaired")]
        if search[0] > 0:   # the first Adam imports torch._dynamo (about 1 s): not inside the first row's search time
            torch.optim.Adam([torch.zeros(1, requires_grad=True)])
        # thm4 runs last: it gets what the start-up and the other sections left of the budget (at least its share
        # when the sections run alone, as benchmarks/gpu_search.py does)
        section = (max(0.0, budget_seconds - (time.perf_counter() - t_start)) if bound_search
                   else SHARES["thm4"] * budget_seconds)
        left = _plan_thm4(configs, section, search[0] > 0)[1] if bound_search else []
        if left:
            need = (sum(_reevals(search[0] > 0) * mp_cost(T) for T, _, _ in configs) + budget_seconds - section)
            msg = (f"gpu-check: --budget-seconds {budget_seconds:g} leaves out {len(left)} of {len(configs)} Theorem 4 "
                   f"rows (T = {', '.join(str(T) for T in sorted({c[0] for c in left}))}): re-evaluating their worst "
                   f"inputs in mpmath alone takes about {sum(_reevals(search[0] > 0) * mp_cost(c[0]) for c in left):.0f} s; "
                   f"about {need:.0f} s runs every row" + ("" if search[0] == 0 else " (--search-restarts 0: fewer)"))
            _LOG.warning(msg)
        rec["thm4"] = []
        t_sec = time.perf_counter()
        for i, (T, e, v) in enumerate(configs):
            if (T, e, v) in left:
                net = thm4net.build(T, e, v)
                cert = thm4net.certified_bound(net)
                rec["thm4"].append({"T": T, "eps": e, "variant": v, "beta": net.beta, "bound": str(net.eps),
                                    "certified": cert, "random": 0, "adversarial": 0, "worst_random": 0.0,
                                    "worst_adversarial": 0.0, "fraction_of_eps": {"certified": cert / float(net.eps)},
                                    "verdict": "UNKNOWN", "reason": f"not run: the budget of {budget_seconds:g} s cannot "
                                    f"cover this row's mpmath re-evaluation (about "
                                    f"{_reevals(search[0] > 0) * mp_cost(T):.1f} s); raise --budget-seconds"})
                say(f"thm4 T={T} eps={e} {v}: not run (budget)")
                continue
            rest = [c for c in configs[i:] if c not in left]
            if bound_search:   # this row's floor plus an equal part of what the remaining rows' floors leave
                fl = {c: _reevals(search[0] > 0) * mp_cost(c[0]) for c in rest}
                spare = max(0.0, section - (time.perf_counter() - t_sec) - sum(fl.values()))
                share = fl[(T, e, v)] + spare / len(rest)
            else:
                share = section / len(configs)
            row = check_thm4(torch, device, T, e, v, batch if T <= 16 else max(1, batch // 4), share, seed, search,
                             bound_search=bound_search)
            rec["thm4"].append(row)
            sr = row.get("search", {}).get("mpmath_worst")
            say(f"thm4 T={T} eps={e} {v}: {row['verdict']} worst sampled {max(row['worst_random'], row['worst_adversarial']):.3g} "
                f"({row['random'] + row['adversarial']} inputs)" + ("" if sr is None else f", search {sr:.3g}"))
    rec["seconds"] = round(time.perf_counter() - t_start, 3)
    return rec


def table(rec: dict) -> str:
    """The short table gpu-check prints."""
    info = rec["info"]
    lines = [f"device: {info.get('gpu', info['device'])} (torch {info['torch']}, numpy {info['numpy']}, "
             f"{info['cpus']} CPU cores); budget {rec['budget_seconds']} s, batch {rec['batch']}, seed {rec['seed']}"]
    if "thm4" in rec:
        sc = rec.get("search", {})
        ran = [r["search"]["steps"] for r in rec["thm4"] if "search" in r]
        cut = any(r["search"].get("stopped_by_budget") for r in rec["thm4"] if "search" in r)
        steps = (f"up to {sc.get('steps')} Adam steps (the budget stopped some rows: {min(ran)} to {max(ran)} steps run)"
                 if cut else f"{sc.get('steps')} Adam steps")
        lines += ["", "Theorem 4 network, float64: worst |M - F| found (sampled and by gradient search; CONFIRMED is "
                  "evidence, not a proof)", f"search: {sc['restarts']:,} restarts x {steps} (lr "
                  f"{sc['lr']}), inputs tanh(P) in the cube; worst values re-evaluated in mpmath at {MP_DPS} digits"
                  if sc.get("restarts") else "search: off",
                  "| T | eps | variant | beta | inputs (random + adversarial) | worst random | worst adversarial | "
                  "worst sampled, mpmath | worst search, mpmath | in eps: sampled / search / certified | "
                  "certified bound (<= eps) | verdict |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        g = (lambda x, f=".3g": "-" if x is None else format(x, f))  # noqa: E731
        for r in rec["thm4"]:
            fr = r.get("fraction_of_eps", {})
            lines.append(f"| {r['T']} | {r['eps']} | {r['variant']} | {r['beta']} | {r['random']:,} + {r['adversarial']:,} | "
                         f"{r['worst_random']:.3g} | {r['worst_adversarial']:.3g} | {g(r.get('mpmath_worst'))} | "
                         f"{g(r.get('search', {}).get('mpmath_worst'))} | {g(fr.get('sampled'))} / {g(fr.get('search'))} / "
                         f"{g(fr.get('certified'), '.4g')} | {g(r.get('certified'), '.4g')} (eps = {r['bound']}) | {r['verdict']} |")
        bad = [r for r in rec["thm4"] if r["verdict"] != "CONFIRMED"]
        lines += [f"  {r['T']}/{r['eps']}/{r['variant']}: {r['verdict']}: {r['reason']}" for r in bad]
    if "throughput" in rec:
        t = rec["throughput"]
        frac = (lambda x: "-" if x is None else f"{x:.2%}")
        lines += ["", f"Theorem 4 network throughput (T={t['T']}, eps={t['eps']}, {t['variant']}, float64, batch {t['batch']}):",
                  f"  {rec['info']['device']}: {t['device_seq_per_s']:.4g} seq/s; numpy on this machine's CPU: "
                  f"{t['cpu_numpy_seq_per_s']:.4g} seq/s; ratio {t['ratio']:.1f}x",
                  f"  bytes/sequence: {t['bytes_essential']} essential (input + output), {t['bytes_unfused']:.4g} moved by "
                  f"the unfused evaluation; achieved {t['achieved_essential_Bps']:.3g} B/s essential "
                  f"({frac(t['fraction_essential'])} of peak), {t['achieved_unfused_Bps']:.3g} B/s unfused "
                  f"({frac(t['fraction_unfused'])} of peak); peak: {t['peak_note']}"]
    if "thm5" in rec:
        w = rec["thm5"]
        lines += ["", f"Theorem 5 witness search (m={w['m']}): torch = numpy on {w['agreement_candidates']:,} candidates: "
                  f"{'yes' if w['same_record'] else 'NO'}; {w['candidates']:,} candidates in {w['seconds']:.3g} s "
                  f"({w['candidates_per_s']:.3g}/s): {w['verdict']}"]
    if "ks" in rec:
        lines += ["", "Kajitsuka-Sato Theorem 2 layer (20), float64 against mpmath 50 digits:",
                  "| dataset | max rel. diff | (2) vs (20) | norms < r | ln delta (8) | separation verdict |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for r in rec["ks"]:
            if "max_rel_diff_mpmath" not in r:
                lines.append(f"| - | - | - | - | - | UNKNOWN: {r['reason']} |")
                continue
            lines.append(f"| {r['size']} | {r['max_rel_diff_mpmath']:.2g} | {r['max_rel_diff_general_vs_rank1']:.2g} | "
                         f"{'yes' if r['norms_below_r'] else 'NO'} | {r['log_delta']:.6g} | {r['verdict']}: {r['reason']} |")
    b = rec.get("budget_seconds")
    lines.append(f"\ntotal {rec['seconds']:.1f} s" + ("" if b is None else f" (budget {b:g} s" + (
        ", overrun by the minimum work: one batch per section and the mpmath re-evaluation of the first row's "
        "worst inputs)" if rec["seconds"] > 1.1 * b + 1 else ")")))
    return "\n".join(lines)


def exit_code(rec: dict) -> int:
    """0 when nothing was REFUTED (UNKNOWN is not a failure of the run; it is reported), else 1."""
    rows = rec.get("thm4", []) + rec.get("ks", []) + ([rec["thm5"]] if "thm5" in rec else [])
    return 1 if any(r.get("verdict") == "REFUTED" for r in rows) else 0
