"""Trees of Comparison backends: ``treemin`` (the exact minimum of a lower-bound abstraction, z3 and
cvc5) and ``treegrid`` (the App. D upper-bound trees replayed on an exact grid). The claim has one
integer variable (``nmin`` or ``failures``); the verdict is the goal evaluated exactly at the value
the evidence establishes."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from attncert.core.claims import Evidence, Obligation
from attncert.core.expr import eval_exact
from attncert.core.verdict import Verdict
from attncert.core.registry import handles

SMT_TRUST = ("z3 unsat", "cvc5 unsat", "encoding of the tree abstraction (treesat.encode, docs/trees.md)")


@lru_cache(maxsize=256)
def _solve(target: str, T: int, D: int, timeout: float):
    from attncert.papers.infoflow.treesat import solve

    return solve(target, T, D, timeout)


def _names():
    from attncert.papers.infoflow.treesat import defined_name

    return defined_name


def _decide(ob: Obligation, name: str, value: int, method: str, detail: dict, trust: tuple) -> Evidence:
    if [(v.name, v.domain) for v in ob.claim.vars] != [(name, "defined")] or ob.claim.hyps:
        return Evidence(Verdict.UNKNOWN, method, {"kind": "none", "reason": f"{method} claims have one defined "
                                                  f"variable {name} and no hypotheses"})
    holds = eval_exact(ob.claim.goal, {name: Fraction(value)})
    return Evidence(Verdict.PROVED if holds else Verdict.REFUTED, method, detail, trust)


@handles("treemin")
def treemin(ob: Obligation, timeout: float) -> Evidence:
    target, T, D = ob.opt("target"), ob.opt("T"), ob.opt("D")
    r = _solve(target, T, D, float(max(timeout, 60.0)))
    if r.minimum is None:
        return Evidence(Verdict.UNKNOWN, "treemin", {"kind": "none", "reason": r.reason or "minimum not decided"})
    defined_name = _names()
    detail = {"kind": "treemin", "target": target, "T": T, "D": D, "minimum": r.minimum, "witness": r.witness,
              "solvers": dict(sorted(r.solvers.items()))}
    trust = SMT_TRUST if r.minimum > 0 else ()
    return _decide(ob, defined_name("treemin", target, T, D), r.minimum, "treemin", detail, trust)


@handles("treegrid")
def treegrid(ob: Obligation, timeout: float) -> Evidence:
    from attncert.papers.infoflow.trees import cover_grid

    defined_name = _names()
    target, T, D, g = ob.opt("target"), ob.opt("T"), ob.opt("D"), ob.opt("g")
    points, skipped, failures = cover_grid(target, T, D, g)
    detail = {"kind": "treegrid", "target": target, "T": T, "D": D, "g": g, "points": points,
              "skipped": skipped, "failures": failures}
    if skipped >= points:
        return Evidence(Verdict.UNKNOWN, "treegrid", {"kind": "none", "reason": "every grid point was skipped"})
    return _decide(ob, defined_name("treegrid", target, T, D, g), failures, "treegrid", detail, ())
