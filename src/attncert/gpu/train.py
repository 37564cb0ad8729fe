"""``attncert train``: InfoFlow Section 6 experiments (Appendix C.4-C.5) at a small scale, seeded, on the
(1)-(2) transformer of ``torch_backend.InfoFlowTransformer``. The paper's tables are the reference values.

Experiments
  intrinsic-dim    target (6) = (58): F = sum_{i=1}^D max_{s,t} x(s)^T A_i x(t), d = 4, x(t) ~ N(0, I_d), A_i
                   seeded standard normal / sqrt(d). D in {2, 3}, head configurations (D, D), (D-1, D),
                   (D, D-1), E_l = ceil(6D / h_l) h_l, FFN width w1 = 16D (C.4), no positional encoding.
                   The paper uses T = 64 and 16 seeds; the default here is T = 16 and 1 seed.
  triangle-center  target (7) = (59): F = min_{t1,t2,t3} ||x(t1) + x(t2) + x(t3)||^2 (repetitions allowed, as
                   printed), d = 2, x(t) ~ N(0, 2 I_2) with the norm clamped to [0.2, 4], T in {3, 4, 5, 6, 8,
                   12, 16}, configurations (2,2) E=24, (4,4) E=24, (4,4) E=48, w1 = 32 (C.5).
  tiny             the CPU smoke run: intrinsic-dim with D = 2, (2, 2), T = 8, 300 steps. It tests the code path,
                   not the science.

Training (C.4-C.5): AdamW, learning rate 1e-3, weight decay 1e-2, cosine annealing over the run, MSE on the
target standardised with the training set's mean and standard deviation (NMSE is unchanged by that),
minibatches drawn with a seeded generator; validation NMSE = MSE / Var(y_val) on a held-out set, every
``eval_every`` steps; the best is reported. Seeds: run j of a configuration uses seed + j for the weights and
the batches; the data use the experiment seed. On CPU re-runs are bit-identical; on a GPU they can differ in
the last bits (cuBLAS reduction order), which the best NMSE does not notice at the printed precision.
"""

from __future__ import annotations

import math
import statistics
import time

import logging

from attncert.core.errors import InvalidParameter

_LOG = logging.getLogger(__name__)

PAPER_TABLE11 = {   # mean best validation NMSE, T = 64, 16 seeds: (D,D), (D-1,D), (D,D-1)
    2: (5.89e-5, 5.89e-2, 3.67e-2), 3: (6.37e-5, 2.64e-2, 2.07e-2), 4: (6.92e-5, 1.39e-2, 1.30e-2),
    5: (4.69e-4, 4.46e-3, 7.19e-3), 6: (1.99e-3, 6.26e-3, 7.67e-3)}
PAPER_TABLE12 = {   # mean best validation NMSE, 2 seeds: (2,2) E=24, (4,4) E=24, (4,4) E=48
    3: (1.31e-3, 9.59e-4, 6.20e-4), 4: (4.58e-3, 3.81e-3, 3.03e-3), 5: (1.12e-2, 9.51e-3, 8.41e-3),
    6: (2.12e-2, 2.00e-2, 1.84e-2), 8: (8.61e-2, 7.20e-2, 7.95e-2), 10: (2.42e-1, 2.27e-1, 2.13e-1),
    12: (4.32e-1, 4.60e-1, 4.52e-1), 16: (8.43e-1, 8.53e-1, 8.56e-1), 24: (9.44e-1, 9.44e-1, 9.44e-1),
    32: (9.57e-1, 9.58e-1, 9.59e-1), 48: (9.79e-1, 9.79e-1, 9.79e-1), 64: (9.85e-1, 9.85e-1, 9.85e-1)}
CONFIGS_C4 = ("(D,D)", "(D-1,D)", "(D,D-1)")
CONFIGS_C5 = (("(2,2) E=24", 2, 2, 24), ("(4,4) E=24", 4, 4, 24), ("(4,4) E=48", 4, 4, 48))

DEFAULTS = {
    "intrinsic-dim": dict(Ds=(2, 3), T=16, steps=2000, batch=256, n_train=36000, n_val=4000, seeds=1, eval_every=100),
    "triangle-center": dict(Ts=(3, 4, 5, 6, 8, 12, 16), steps=1000, batch=256, n_train=90000, n_val=10000, seeds=1,
                            eval_every=100),
    "tiny": dict(Ds=(2,), T=8, steps=300, batch=64, n_train=2000, n_val=500, seeds=1, eval_every=50,
                 configs=("(D,D)",)),
}
EXPERIMENTS = tuple(DEFAULTS)
MAX_STEPS = 20000
PHASE_FACTOR = 10.0      # intrinsic-dim: (D,D) at least this many times below both others
GROWTH_FACTOR = 10.0     # triangle-center: NMSE at the largest T at least this many times the smallest T's


# ------------------------------------------------------------------------------------------------ targets

def pairwise_target(X, A):
    """(6): sum_i max_{s,t} x(s)^T A_i x(t); X (B, T, d), A (D, d, d)."""
    import torch

    G = torch.einsum("bsi,kij,btj->bkst", X, A, X)
    return G.flatten(2).max(dim=2).values.sum(dim=1)


def triangle_target(X, chunk: int = 2048):
    """(7): min over t1, t2, t3 (repetitions allowed) of ||x(t1) + x(t2) + x(t3)||^2; X (B, T, d)."""
    import torch

    out = []
    for i in range(0, X.shape[0], chunk):
        x = X[i:i + chunk]
        S = x[:, :, None, None, :] + x[:, None, :, None, :] + x[:, None, None, :, :]
        out.append((S * S).sum(-1).flatten(1).min(dim=1).values)
    return torch.cat(out)


def triangle_inputs(n: int, T: int, gen, device):
    """x(t) ~ N(0, 2 I_2), the norm clamped to [0.2, 4] (C.5)."""
    import torch

    x = torch.randn((n, T, 2), generator=gen, device=device) * math.sqrt(2.0)
    r = x.norm(dim=-1, keepdim=True)
    return x * (r.clamp(0.2, 4.0) / r.clamp_min(1e-30))


# ------------------------------------------------------------------------------------------------ one run

def _adamw(model, device):
    """AdamW as in C.4-C.5 (lr 1e-3, weight decay 1e-2); the fused kernel on CUDA."""
    import torch

    kw = {"fused": True} if str(device).startswith("cuda") else {}
    return torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-2, **kw)


def _step(model, opt, X, y):
    """One optimizer step on the MSE of model(X) against y; returns the loss (not synchronised)."""
    import torch

    loss = torch.nn.functional.mse_loss(model(X)[:, 0], y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss


def train_run(model, Xtr, ytr, Xva, yva, steps: int, batch: int, seed: int, eval_every: int, device) -> dict:
    """AdamW + cosine; returns best validation NMSE, the loss curve (means over windows) and the time."""
    import torch

    mu, sd = ytr.mean(), ytr.std().clamp_min(1e-12)
    ytr_n, yva_n = (ytr - mu) / sd, (yva - mu) / sd
    var = float(((yva_n - yva_n.mean()) ** 2).mean())
    opt = _adamw(model, device)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=steps)
    gen = torch.Generator(device=device).manual_seed(seed)
    best, curve, window, t0 = math.inf, [], [], time.perf_counter()

    def val_nmse():
        with torch.no_grad():
            se = sum(float(((model(Xva[i:i + 2048])[:, 0] - yva_n[i:i + 2048]) ** 2).sum())
                     for i in range(0, Xva.shape[0], 2048))
        return se / Xva.shape[0] / var

    for step in range(steps):
        idx = torch.randint(0, Xtr.shape[0], (batch,), generator=gen, device=device)
        loss = _step(model, opt, Xtr[idx], ytr_n[idx])
        sched.step()
        window.append(loss.detach())
        if (step + 1) % eval_every == 0 or step == steps - 1:
            curve.append(float(torch.stack(window).mean()))
            window = []
            v = val_nmse()
            if not math.isfinite(v):
                return {"best_nmse": None, "curve": curve, "seconds": time.perf_counter() - t0,
                        "error": "validation NMSE is not finite"}
            best = min(best, v)
    return {"best_nmse": best, "curve": curve, "seconds": time.perf_counter() - t0, "steps": steps}


def _model(d, heads, emb, ffn, seed, device):
    import torch

    from attncert.gpu.torch_models import InfoFlowTransformer

    torch.manual_seed(seed)
    return InfoFlowTransformer(d, 1, heads, emb, [ffn], ffn, dtype=torch.float32, device=device)


# ------------------------------------------------------------------------------------------------ experiments

def run_experiment(name: str, device: str = "cpu", steps=None, seeds=None, T=None, batch=None, budget_seconds=None,
                   seed: int = 0, Ds=None) -> dict:
    """One experiment of DEFAULTS (overrides: steps, seeds, T, batch, Ds); stops starting runs after budget_seconds.
    Progress (the calibration, a line per run) is logged at INFO on ``attncert.gpu.train``."""
    from attncert.gpu.torch_models import check_memory, cpu_threads

    if not str(device).startswith("cuda"):   # refuse what this machine cannot hold before importing torch
        cfg = _make_cfg(name, steps, seeds, T, batch, Ds)
        check_memory(_memory_what(name, cfg), train_bytes(name, cfg), device, hint=_memory_hint(name))
    with cpu_threads(device):
        return _run_experiment(name, device, steps, seeds, T, batch, budget_seconds, seed, Ds)


def _make_cfg(name, steps, seeds, T, batch, Ds) -> dict:
    """The experiment's configuration with the user's overrides, checked (no torch needed)."""
    if name not in DEFAULTS:
        raise InvalidParameter(f"unknown experiment {name!r}; available: {', '.join(EXPERIMENTS)}")
    if T is not None and name == "triangle-center":
        raise InvalidParameter("--T: triangle-center runs its own list of T (C.5)")
    cfg = dict(DEFAULTS[name])
    if Ds is not None:
        if name == "triangle-center":
            raise InvalidParameter("--D: only intrinsic-dim and tiny have an intrinsic dimension D")
        if not Ds or any(D < 2 or D > 8 for D in Ds):
            raise InvalidParameter(f"--D {','.join(map(str, Ds))}: each D must be in 2..8")
        cfg["Ds"] = tuple(Ds)
    for k, v in (("steps", steps), ("seeds", seeds), ("T", T), ("batch", batch)):
        if v is not None:
            cfg[k] = v
    if cfg.get("T", 2) < 2:
        raise InvalidParameter("--T must be at least 2")
    return cfg


def train_bytes(name: str, cfg: dict) -> int:
    """An upper estimate of the peak memory of one experiment (float32): the data sets, the target's pairwise
    scores over the whole training set (intrinsic-dim: n x D x T^2), and one training step or validation chunk
    (the attention scores, B x heads x T^2, kept for the backward pass, and the T x E activations)."""
    if name == "triangle-center":
        T, d, heads, E = max(cfg["Ts"]), 2, 4, 48
        target = 2048 * T ** 3 * d * 4 * 3
    else:
        T, d = cfg["T"], 4
        heads = max(cfg["Ds"])
        E = 6 * heads
        target = cfg["n_train"] * heads * T * T * 4 * 2
    data = (cfg["n_train"] + cfg["n_val"]) * T * d * 4
    B = max(cfg["batch"], 2048)
    step = B * (8 * heads * T * T + 16 * T * E + T * d) * 4
    return data + max(target, step)


def _memory_what(name, cfg) -> str:
    T = max(cfg["Ts"]) if name == "triangle-center" else cfg["T"]
    return (f"train {name} (T = {T}, batch {cfg['batch']}, {cfg['n_train']} training sequences): one run (data, "
            "target, a training step)")


def _memory_hint(name) -> str:
    return "use a smaller --batch" if name == "triangle-center" else "use a smaller --T or --batch"


def _calibrate(name, cfg, device, steps: int = 12) -> float:
    """Seconds per training step of the experiment's largest configuration (after warm-up steps)."""
    import torch

    T = max(cfg["Ts"]) if name == "triangle-center" else cfg["T"]
    D = max(cfg.get("Ds", (2,)))
    d, heads, E, w = (2, [4, 4], [48, 48], 32) if name == "triangle-center" else (4, [D, D], [6 * D, 6 * D], 16 * D)
    m = _model(d, heads, E, w, 0, device)
    X, y = torch.randn((cfg["batch"], T, d), device=device), torch.randn((cfg["batch"],), device=device)
    opt = _adamw(m, device)
    for _ in range(3):
        _step(m, opt, X, y)
    float(_step(m, opt, X, y).detach())      # waits for the device
    t0 = time.perf_counter()
    for _ in range(steps):
        loss = _step(m, opt, X, y)
    float(loss.detach())
    return (time.perf_counter() - t0) / steps


def _run_experiment(name, device, steps, seeds, T, batch, budget_seconds, seed, Ds=None) -> dict:
    from attncert.gpu.torch_models import _torch, check_device

    from attncert.gpu.torch_models import check_memory

    torch = _torch()
    if name not in DEFAULTS:
        raise InvalidParameter(f"unknown experiment {name!r}; available: {', '.join(EXPERIMENTS)}")
    check_device(torch, device)
    cfg = _make_cfg(name, steps, seeds, T, batch, Ds)
    check_memory(_memory_what(name, cfg), train_bytes(name, cfg), device, torch, hint=_memory_hint(name))
    say = _LOG.info
    t_start = time.perf_counter()
    calibrated = None
    if budget_seconds is not None and steps is None:
        calibrated = _calibrate(name, cfg, device)
        n_runs = len(cfg.get("Ds", cfg.get("Ts", ()))) * len(cfg.get("configs", CONFIGS_C4 if name != "triangle-center" else CONFIGS_C5)) * cfg["seeds"]
        fit = int(0.8 * budget_seconds / n_runs / calibrated)
        cfg["steps"] = max(cfg["eval_every"], min(MAX_STEPS, fit // cfg["eval_every"] * cfg["eval_every"]))
        say(f"calibrated {calibrated * 1e3:.2f} ms/step: {cfg['steps']} steps per run for {n_runs} runs in {budget_seconds} s")
    rec = {"schema": "attncert.train/1", "experiment": name, "device": device, "seed": seed, "torch": torch.__version__,
           "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in cfg.items()},
           "optimizer": "AdamW lr 1e-3 wd 1e-2, cosine annealing over the run", "runs": [],
           "steps_chosen": None if calibrated is None else f"to fit --budget-seconds: {calibrated * 1e3:.3g} ms/step measured "
           "on the largest configuration, 80% of the budget shared equally by the runs"}
    # with calibrated steps every run starts unless the budget is overrun twice over (a safety stop); with
    # --steps given, no run starts after the budget is spent
    limit = None if budget_seconds is None else budget_seconds * (2 if calibrated else 1)
    out_of_time = lambda: limit is not None and time.perf_counter() - t_start > limit  # noqa: E731
    gen = torch.Generator(device=device).manual_seed(seed)
    if name in ("intrinsic-dim", "tiny"):
        d = 4
        for D in cfg["Ds"]:
            A = torch.randn((D, d, d), generator=gen, device=device) / math.sqrt(d)
            Xtr = torch.randn((cfg["n_train"], cfg["T"], d), generator=gen, device=device)
            Xva = torch.randn((cfg["n_val"], cfg["T"], d), generator=gen, device=device)
            ytr, yva = pairwise_target(Xtr, A), pairwise_target(Xva, A)
            for conf in cfg.get("configs", CONFIGS_C4):
                h1, h2 = {"(D,D)": (D, D), "(D-1,D)": (D - 1, D), "(D,D-1)": (D, D - 1)}[conf]
                E = [math.ceil(6 * D / h1) * h1, math.ceil(6 * D / h2) * h2]
                for j in range(cfg["seeds"]):
                    row = {"D": D, "T": cfg["T"], "config": conf, "heads": [h1, h2], "emb": E, "ffn": 16 * D, "seed": seed + j}
                    if out_of_time():
                        rec["runs"].append({**row, "skipped": "time budget spent"})
                        continue
                    m = _model(d, [h1, h2], E, 16 * D, seed + j, device)
                    r = train_run(m, Xtr, ytr, Xva, yva, cfg["steps"], cfg["batch"], seed + j, cfg["eval_every"], device)
                    rec["runs"].append({**row, **r})
                    say(f"D={D} {conf}: best NMSE {r['best_nmse']:.3g} ({r['seconds']:.1f} s)")
    else:
        for Tv in cfg["Ts"]:
            Xtr = triangle_inputs(cfg["n_train"], Tv, gen, device)
            Xva = triangle_inputs(cfg["n_val"], Tv, gen, device)
            ytr, yva = triangle_target(Xtr), triangle_target(Xva)
            for conf, h1, h2, E in CONFIGS_C5:
                for j in range(cfg["seeds"]):
                    row = {"T": Tv, "config": conf, "heads": [h1, h2], "emb": [E, E], "ffn": 32, "seed": seed + j}
                    if out_of_time():
                        rec["runs"].append({**row, "skipped": "time budget spent"})
                        continue
                    m = _model(2, [h1, h2], [E, E], 32, seed + j, device)
                    r = train_run(m, Xtr, ytr, Xva, yva, cfg["steps"], cfg["batch"], seed + j, cfg["eval_every"], device)
                    rec["runs"].append({**row, **r})
                    say(f"T={Tv} {conf}: best NMSE {r['best_nmse']:.3g} ({r['seconds']:.1f} s)")
    rec["summary"] = summarize(rec)
    rec["seconds"] = round(time.perf_counter() - t_start, 3)
    return rec


def _mean_best(rec, **match):
    vals = [r["best_nmse"] for r in rec["runs"] if r.get("best_nmse") is not None and all(r.get(k) == v for k, v in match.items())]
    return statistics.mean(vals) if vals else None


def _spearman(xs, ys) -> float:
    rank = lambda v: [sorted(v).index(x) for x in v]  # noqa: E731
    rx, ry = rank(xs), rank(ys)
    n = len(xs)
    return 1 - 6 * sum((a - b) ** 2 for a, b in zip(rx, ry)) / (n * (n * n - 1)) if n > 1 else float("nan")


def summarize(rec) -> dict:
    """The predictions at this scale, with the criterion stated: phase transition at h1 = h2 = D
    (intrinsic-dim: (D,D) at least PHASE_FACTOR below both others), growth of NMSE with T (triangle-center:
    Spearman rank correlation >= 0.8 and NMSE(max T) >= GROWTH_FACTOR * NMSE(min T), per configuration)."""
    s = {}
    if rec["experiment"] in ("intrinsic-dim", "tiny"):
        for D in rec["config"]["Ds"]:
            vals = {c: _mean_best(rec, D=D, config=c) for c in CONFIGS_C4}
            row = {"ours": vals, "paper_T64": dict(zip(CONFIGS_C4, PAPER_TABLE11.get(D, (None,) * 3)))}
            if all(v is not None for v in vals.values()):
                others = min(vals["(D-1,D)"], vals["(D,D-1)"])
                row["gap"] = others / vals["(D,D)"] if vals["(D,D)"] > 0 else math.inf
                row["phase_transition"] = row["gap"] >= PHASE_FACTOR
            s[f"D={D}"] = row
    else:
        for conf, *_ in CONFIGS_C5:
            pts = [(T, _mean_best(rec, T=T, config=conf)) for T in rec["config"]["Ts"]]
            pts = [(T, v) for T, v in pts if v is not None]
            row = {"ours": {str(T): v for T, v in pts}}
            if len(pts) >= 3:
                row["spearman"] = _spearman([p[0] for p in pts], [p[1] for p in pts])
                row["growth"] = pts[-1][1] / max(pts[0][1], 1e-300)
                row["grows_with_T"] = row["spearman"] >= 0.8 and row["growth"] >= GROWTH_FACTOR
            s[conf] = row
    return s


def _g(v):
    return "-" if v is None else f"{v:.3g}"


def table(rec) -> str:
    c = rec["config"]
    lines = [f"attncert train {rec['experiment']} on {rec['device']} (torch {rec['torch']}): {c['steps']} steps, batch "
             f"{c['batch']}, {c['n_train']} training / {c['n_val']} validation samples, {c['seeds']} seed(s) from "
             f"{rec['seed']}; {rec['optimizer']}"]
    skipped = [r for r in rec["runs"] if "skipped" in r]
    if rec["experiment"] in ("intrinsic-dim", "tiny"):
        lines += [f"best validation NMSE, target (6), d = 4, T = {c['T']} (paper: T = 64, 16 seeds, Table 11)",
                  "| D | (D,D) | (D-1,D) | (D,D-1) | paper (D,D) | paper (D-1,D) | paper (D,D-1) | gap | phase transition at h1 = h2 = D |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for key, row in rec["summary"].items():
            o, p = row["ours"], row["paper_T64"]
            pt = row.get("phase_transition")
            lines.append(f"| {key[2:]} | " + " | ".join(_g(o[k]) for k in CONFIGS_C4) + " | "
                         + " | ".join(_g(p[k]) for k in CONFIGS_C4) + f" | {_g(row.get('gap'))} | "
                         + ("-" if pt is None else ("appears" if pt else "does not appear")) + " |")
        lines.append(f"criterion: (D,D) at least {PHASE_FACTOR:g}x below both other configurations")
    else:
        confs = [k for k, *_ in CONFIGS_C5]
        lines += ["best validation NMSE, target (7), d = 2 (paper: Table 12, 2 seeds)",
                  "| T | " + " | ".join(confs) + " | " + " | ".join(f"paper {k}" for k in confs) + " |",
                  "| --- " * (1 + 2 * len(confs)) + "|"]
        for T in c["Ts"]:
            lines.append(f"| {T} | " + " | ".join(_g(rec["summary"][k]["ours"].get(str(T))) for k in confs) + " | "
                         + " | ".join(_g(v) for v in PAPER_TABLE12.get(T, (None,) * 3)) + " |")
        for k in confs:
            row = rec["summary"][k]
            if "grows_with_T" in row:
                lines.append(f"{k}: Spearman(T, NMSE) = {row['spearman']:.2f}, NMSE(T max)/NMSE(T min) = {row['growth']:.3g}: "
                             f"growth with T {'appears' if row['grows_with_T'] else 'does not appear'}")
        lines.append(f"criterion: Spearman >= 0.8 and a ratio >= {GROWTH_FACTOR:g}")
    if skipped:
        lines.append(f"{len(skipped)} run(s) not started: time budget spent")
    lines.append(f"total {rec['seconds']:.1f} s")
    return "\n".join(lines)


def plot_svg(rec) -> str:
    """log10 best NMSE: against D per configuration (intrinsic-dim) or against T (triangle-center); the paper's
    values dashed."""
    from attncert.integrations.svgplot import COLORS, PAD, frame, text

    series = []
    if rec["experiment"] in ("intrinsic-dim", "tiny"):
        Ds = rec["config"]["Ds"]
        for i, conf in enumerate(CONFIGS_C4):
            series.append((conf, COLORS[i], False, [(D, rec["summary"][f"D={D}"]["ours"][conf]) for D in Ds]))
            series.append((f"paper {conf}", COLORS[i], True, [(D, PAPER_TABLE11[D][i]) for D in Ds if D in PAPER_TABLE11]))
        xl, title = "D (intrinsic dimension)", f"target (6), T = {rec['config']['T']}: best validation NMSE"
    else:
        Ts = rec["config"]["Ts"]
        for i, (conf, *_) in enumerate(CONFIGS_C5):
            series.append((conf, COLORS[i], False, [(T, rec["summary"][conf]["ours"].get(str(T))) for T in Ts]))
            series.append((f"paper {conf}", COLORS[i], True, [(T, PAPER_TABLE12[T][i]) for T in Ts if T in PAPER_TABLE12]))
        xl, title = "T (sequence length)", "target (7): best validation NMSE"
    series = [(n, c, dash, [(x, math.log10(y)) for x, y in pts if y is not None and y > 0]) for n, c, dash, pts in series]
    xs = [x for *_, pts in series for x, _ in pts] or [0, 1]
    ys = [y for *_, pts in series for _, y in pts] or [0, 1]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y0, y1 = math.floor(min(ys)), max(math.ceil(max(ys)), math.floor(min(ys)) + 1)
    svg, px, py = frame(x0, x1, y0, y1, title, xl, "log10 NMSE", xstep=1 if x1 - x0 <= 8 else 2, ystep=1)
    for k, (name, color, dash, pts) in enumerate(series):
        if len(pts) > 1:
            d = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
            svg.append(f'<polyline points="{d}" fill="none" stroke="{color}" stroke-width="2"'
                       + (' stroke-dasharray="6,4"/>' if dash else "/>"))
        for x, y in pts:
            svg.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{color}"/>')
        svg.append(f'<text x="{PAD + 10}" y="{PAD + 14 * k + 4}" fill="{color}">{name}{" (dashed)" if dash else ""}</text>')
    return text(svg)
