"""Verdicts do not depend on machine load: solvers stop at deterministic resource limits (z3 rlimit,
cvc5 rlimit-per), and the wall clock is only a safety kill.

The obligations here are the slowest SMT goals of the suite (cvc5 needs several seconds on them; under
load they used to flip from PROVED to UNKNOWN against a 30 s wall clock)."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import subprocess
import sys

import pytest

# the slowest SMT goal of the suite (cvc5 needs several seconds) and a quick one of the other paper
SLOW = ["ks.thm.prop1.quant_58_repaired.*", "infoflow.thm4.ffn_product_core"]


def _hog(stop):
    x = 0
    while not stop.is_set():
        x = (x * 1103515245 + 12345) % (1 << 31)


def _check(selector: str, tmp, name: str, extra=()) -> dict:
    out = tmp / f"{name}.json"
    env = dict(os.environ, ATTNCERT_NO_CACHE="1")
    subprocess.run([sys.executable, "-m", "attncert.cli", "check", selector, "--no-cache", "--json", str(out), *extra],
                   capture_output=True, text=True, env=env, timeout=900)
    return {r["id"]: r["verdict"] for r in json.loads(out.read_text())["results"]}


@pytest.mark.slow
def test_verdicts_identical_idle_and_loaded(tmp_path):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    idle, loaded = {}, {}
    for sel in SLOW:
        idle.update(_check(sel, tmp_path, "idle"))
    stop = mp.Event()
    hogs = [mp.Process(target=_hog, args=(stop,), daemon=True) for _ in range(2 * (os.cpu_count() or 2))]
    for h in hogs:
        h.start()
    try:
        for sel in SLOW:
            loaded.update(_check(sel, tmp_path, "loaded"))
    finally:
        stop.set()
        for h in hogs:
            h.join(5)
    assert idle and idle == loaded
    assert all(v == "PROVED" for v in idle.values()), idle


def test_resource_limit_decides_not_the_clock(monkeypatch):
    """With the limits cut to a sliver, the slow goal is UNKNOWN because of the limit (the answer says
    'unknown', not 'timeout'), on every run."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from attncert import api
    from attncert.backends import solver_terms
    from attncert.core.engine import run_obligation

    monkeypatch.setattr(solver_terms, "RLIMITS", {"z3": 2000, "cvc5": 2000})
    for w in list(solver_terms._WORKERS.values()):  # workers fork from this process: new ones see the patch
        w.kill()
    solver_terms._WORKERS.clear()
    ob = next(iter(api.select("infoflow.thm4.ffn_product_core")))
    reasons = []
    for _ in range(2):
        r = run_obligation(ob, timeout=300.0)
        assert r.verdict.name == "UNKNOWN"
        reasons.append(r.evidence.detail["reason"])
    for w in list(solver_terms._WORKERS.values()):
        w.kill()
    solver_terms._WORKERS.clear()
    assert reasons[0] == reasons[1] and "unknown" in reasons[0] and "timeout" not in reasons[0], reasons
