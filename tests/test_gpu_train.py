"""gpu-check and train on the CPU path (CI has no GPU): verdicts, planted failures, targets, the tiny run."""

from __future__ import annotations

import dataclasses
import io
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from attncert.gpu import check as gpucheck

from attncert.papers.infoflow import thm4net

from attncert.gpu import train  # noqa: E402
from attncert.cli import run  # noqa: E402


@pytest.fixture(scope="module")
def cli_record(tmp_path_factory):
    out = tmp_path_factory.mktemp("gpu") / "check.json"
    buf, err = io.StringIO(), io.StringIO()
    code = run(["gpu-check", "--device", "cpu", "--budget-seconds", "2", "--batch", "16", "--json", str(out),
                "--search-restarts", "1", "--search-steps", "3"], buf, err)     # mpmath replays cost ~1 s each at T = 64
    return code, buf.getvalue(), json.loads(out.read_text())


def test_gpu_check_cpu_path(cli_record):
    code, text, rec = cli_record
    assert code == 0
    assert len(rec["thm4"]) == len(gpucheck.THM4_T) * len(gpucheck.THM4_EPS) * 2
    # the 2-second budget bounds the whole run: the rows whose mpmath re-evaluation does not fit are not run
    # (UNKNOWN, saying why); the first row always runs
    ran = [r for r in rec["thm4"] if not r["reason"].startswith("not run")]
    assert ran and ran[0] is rec["thm4"][0]
    for r in rec["thm4"]:
        if r not in ran:
            assert r["verdict"] == "UNKNOWN" and "--budget-seconds" in r["reason"] and r["random"] == 0
    assert rec["seconds"] < 2 + 5                     # the budget, plus at most the first row's floor (and slack)
    for r in ran:
        assert r["verdict"] == "CONFIRMED", r
        assert r["random"] > 0 and r["adversarial"] > 0
        assert max(r["worst_random"], r["worst_adversarial"], r["mpmath_worst"]) <= Fraction(r["bound"])
        # the mpmath re-evaluation agrees with float64 at the worst input to far below eps
        assert abs(r["mpmath_worst"] - max(r["worst_random"], r["worst_adversarial"])) < 1e-6
        # the gradient search (a toy scale here; tests/test_gpucheck_search.py) stays below eps in mpmath; the
        # budget may stop it before its 3 steps
        s = r["search"]
        assert (s["restarts"], s["steps_requested"], s["mpmath_reevaluated"]) == (1, 3, 1) and 1 <= s["steps"] <= 3
        assert s["start_worst"] - 1e-12 <= s["mpmath_worst"] <= Fraction(r["bound"])
    assert rec["thm5"]["same_record"] and rec["thm5"]["verdict"] == "CONFIRMED"
    t = rec["throughput"]
    assert t["bytes_unfused"] > t["bytes_essential"] == 64 * 3 * 8 + 8 and t["device_seq_per_s"] > 0
    if rec["ks"][0].get("max_rel_diff_mpmath") is not None:
        for r in rec["ks"]:
            assert r["verdict"] == "UNKNOWN" and "cannot represent delta" in r["reason"]
            assert r["max_rel_diff_mpmath"] < 1e-12 and r["norms_below_r"]
    assert "PROVED" not in text and "CONFIRMED" in text and "UNKNOWN" in text


def test_planted_wrong_bound_is_refuted(monkeypatch):
    """A network claimed to reach eps/100 is caught on samples (REFUTED, with an mpmath-replayed input)."""
    real = thm4net.build
    monkeypatch.setattr(thm4net, "build", lambda T, eps, v: dataclasses.replace(real(T, eps, v), eps=real(T, eps, v).eps / 100))
    rec = gpucheck.run("cpu", batch=16, budget_seconds=1.5, sections=("thm4",), Ts=(4,), epss=("1/10",))
    for r in rec["thm4"]:
        assert r["verdict"] == "REFUTED" and r["mpmath_worst"] > Fraction(r["bound"])
        y, Fv = thm4net.forward_mp(real(4, "1/10", r["variant"]), r["worst_input"], dps=50)
        assert abs(float(abs(y - Fv)) - r["mpmath_worst"]) < 1e-12
    assert gpucheck.exit_code(rec) == 1


def test_nan_is_unknown_never_confirmed(monkeypatch):
    from attncert.gpu import torch_models as torch_backend

    monkeypatch.setattr(torch_backend, "target_torch", lambda X: torch.full(X.shape[:1], float("nan"), dtype=X.dtype))
    rec = gpucheck.run("cpu", batch=8, budget_seconds=1.5, sections=("thm4",), Ts=(4,), epss=("1/10",))
    assert all(r["verdict"] == "UNKNOWN" and "NaN" in r["reason"] for r in rec["thm4"])


def test_gpu_check_usage_errors():
    for argv, msg in ((["gpu-check", "--device", "tpu"], "cpu or cuda"), (["gpu-check", "--budget-seconds", "0"], "positive"),
                      (["train", "nonsense"], "unknown experiment"), (["train", "triangle-center", "--T", "4"], "--T"),
                      (["train", "tiny", "--D", "x"], "--D"), (["train", "triangle-center", "--D", "2"], "--D"),
                      (["train", "tiny", "--D", "1"], "--D")):
        err = io.StringIO()
        assert run(argv, io.StringIO(), err) == 2, argv
        assert msg in err.getvalue() and err.getvalue().count("\n") == 1
    if not torch.cuda.is_available():
        err = io.StringIO()
        assert run(["gpu-check", "--device", "cuda"], io.StringIO(), err) == 2
        assert "no CUDA device" in err.getvalue()


# ------------------------------------------------------------------------------ training targets

@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(1, 3), st.integers(0, 10**6))
def test_pairwise_target_brute_force(T, D, seed):
    rng = np.random.default_rng(seed)
    X, A = rng.standard_normal((3, T, 4)), rng.standard_normal((D, 4, 4))
    want = [sum(max(X[b, s] @ A[i] @ X[b, t] for s in range(T) for t in range(T)) for i in range(D)) for b in range(3)]
    got = train.pairwise_target(torch.as_tensor(X), torch.as_tensor(A)).numpy()
    assert np.allclose(got, want, rtol=1e-12, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(0, 10**6))
def test_triangle_target_brute_force(T, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((3, T, 2))
    want = [min(float(np.sum((X[b, i] + X[b, j] + X[b, k]) ** 2)) for i in range(T) for j in range(T) for k in range(T))
            for b in range(3)]
    got = train.triangle_target(torch.as_tensor(X), chunk=2).numpy()
    assert np.allclose(got, want, rtol=1e-12, atol=1e-12)


def test_triangle_inputs_clamped():
    g = torch.Generator().manual_seed(0)
    r = train.triangle_inputs(4000, 3, g, "cpu").norm(dim=-1)
    assert float(r.min()) >= 0.2 - 1e-6 and float(r.max()) <= 4 + 1e-6
    assert 0.2 < float((r == r.clamp(0.2 + 1e-6, 4 - 1e-6)).float().mean()) < 1


# ------------------------------------------------------------------------------ the tiny training run

def test_tiny_training_decreases_loss_and_is_deterministic(tmp_path):
    a = train.run_experiment("tiny")
    b = train.run_experiment("tiny")
    ra = a["runs"][0]
    assert ra["curve"] == b["runs"][0]["curve"] and ra["best_nmse"] == b["runs"][0]["best_nmse"]
    assert ra["curve"][-1] < 0.6 * ra["curve"][0]
    assert 0 < ra["best_nmse"] < 0.8 and math.isfinite(ra["best_nmse"])
    out, plot = tmp_path / "t.json", tmp_path / "t.svg"
    buf = io.StringIO()
    assert run(["train", "tiny", "--steps", "60", "--json", str(out), "--plot", str(plot)], buf, io.StringIO()) == 0
    assert "Table 11" in buf.getvalue() and plot.read_text().startswith("<svg")
    assert json.loads(out.read_text())["config"]["steps"] == 60


def test_summary_criteria():
    rec = {"experiment": "intrinsic-dim", "config": {"Ds": [2]}, "runs": [
        {"D": 2, "config": "(D,D)", "best_nmse": 1e-4}, {"D": 2, "config": "(D-1,D)", "best_nmse": 2e-3},
        {"D": 2, "config": "(D,D-1)", "best_nmse": 5e-4}]}
    s = train.summarize(rec)["D=2"]
    assert s["gap"] == pytest.approx(5.0) and s["phase_transition"] is False
    rec["runs"][2]["best_nmse"] = 1e-3
    assert train.summarize(rec)["D=2"]["phase_transition"] is True
    tri = {"experiment": "triangle-center", "config": {"Ts": [3, 4, 8]}, "runs": [
        {"T": T, "config": c, "best_nmse": v} for c, *_ in train.CONFIGS_C5 for T, v in ((3, 1e-3), (4, 5e-3), (8, 0.2))]}
    assert all(r["grows_with_T"] for r in train.summarize(tri).values())


def test_written_files_get_the_usual_permissions(tmp_path):
    import os

    from attncert.core.certificate import atomic_write

    p = tmp_path / "x.json"
    atomic_write(str(p), "{}\n")
    umask = os.umask(0)
    os.umask(umask)
    assert (p.stat().st_mode & 0o777) == (0o666 & ~umask)


def test_unwritable_output_is_refused_before_the_run(tmp_path):
    for argv in (["train", "tiny", "--plot", str(tmp_path / "no" / "x.svg")],
                 ["gpu-check", "--json", str(tmp_path / "no" / "x.json")]):
        err = io.StringIO()
        assert run(argv, io.StringIO(), err) == 2
        assert "cannot write" in err.getvalue() and err.getvalue().count("\n") == 1


def test_gpu_run_script_parses_and_its_commands_exist():
    """benchmarks/gpu_run.sh is only run on a GPU machine; here: it is valid bash, and every attncert
    command line in it parses with the current CLI (a renamed option would otherwise surface only there)."""
    import re
    import shlex
    import subprocess
    from pathlib import Path

    from attncert.cli import build_parser

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "gpu_run.sh"
    assert subprocess.run(["bash", "-n", str(path)]).returncode == 0
    text = path.read_text().replace("\\\n", " ")
    calls = re.findall(r"-m attncert\.cli (.*?)(?: 2>&1|$)", text, flags=re.M)
    assert len(calls) == 3
    for call in calls:
        argv = [re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", a).replace('"', "") for a in shlex.split(call, posix=False)]
        argv = [a.replace("$DEV", "cpu").replace("$OUT", "/tmp") for a in argv]
        build_parser().parse_args(argv)
