"""Mutants of transcribed claims, for measuring soundness (tests/soundness, docs/soundness.md).

Operators (each applied once, at the first place in the goal where it applies, in a fixed order):
  flip   a relation reversed (< <-> >, <= <-> >=, = -> !=)
  pow+1  an integer exponent off by one
  x2     a non-zero constant scaled by 2
  x1/2   a non-zero constant scaled by 1/2
  neg    a non-zero constant's sign changed
  drop   the first hypothesis dropped (the first one not taken from a fact, if any)
A mutant keeps the obligation's variables and is run with counterexample methods first (probe, then
the obligation's own deciding methods, then a z3 model), so a false mutant is REFUTED only with a
replayed counterexample. A mutant that comes out PROVED is an equivalent mutant (still true) and is
listed as such; it is cross-examined by the counterexample methods, which must find nothing."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from attncert.core.claims import Claim, Obligation
from attncert.core.expr import RELATIONS

FLIP = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "ne", "ne": "eq"}
OPERATORS = ("flip", "pow+1", "x2", "x1/2", "neg", "drop")
COUNTER = ("probe",)
LATE = ("model",)


def _first(node, pred, path=()):
    if not isinstance(node, tuple):
        return None
    if pred(node):
        return path
    for i, c in enumerate(node[1:], start=1):
        if isinstance(c, tuple):
            p = _first(c, pred, path + (i,))
            if p is not None:
                return p
    return None


def _replace(node, path, fn):
    if not path:
        return fn(node)
    i = path[0]
    return node[:i] + (_replace(node[i], path[1:], fn),) + node[i + 1:]


def _nonzero_num(n):
    return n[0] == "num" and Fraction(n[1]) != 0


def mutate_goal(goal, op: str):
    """The mutated goal, or None when the operator does not apply."""
    if op == "flip":
        p = _first(goal, lambda n: n[0] in RELATIONS)
        return None if p is None else _replace(goal, p, lambda n: (FLIP[n[0]],) + n[1:])
    if op == "pow+1":
        p = _first(goal, lambda n: n[0] == "pow")
        return None if p is None else _replace(goal, p, lambda n: ("pow", n[1], n[2] + 1))
    if op in ("x2", "x1/2", "neg"):
        p = _first(goal, _nonzero_num)
        k = {"x2": Fraction(2), "x1/2": Fraction(1, 2), "neg": Fraction(-1)}[op]
        return None if p is None else _replace(goal, p, lambda n: ("num", Fraction(n[1]) * k))
    raise ValueError(op)


def mutants(ob: Obligation) -> list[Obligation]:
    out = []
    c = ob.claim
    for op in OPERATORS:
        if op == "drop":
            if not c.hyps:
                continue
            idx = next((i for i, h in enumerate(c.hyps) if h.by is None), 0)
            claim = Claim(c.vars, c.hyps[:idx] + c.hyps[idx + 1:], c.goal)
        else:
            g = mutate_goal(c.goal, op)
            if g is None or g == c.goal:
                continue
            claim = Claim(c.vars, c.hyps, g)
        deciding = tuple(m for m in ob.methods if m not in ("sample", "search", "replay"))
        tail = tuple(m for m in ob.methods if m in ("search",))
        methods = tuple(dict.fromkeys(COUNTER + deciding + LATE + tail))
        out.append(dataclasses.replace(ob, id=f"{ob.id}~{op}", claim=claim, methods=methods, expect=None,
                                       finding=None, repairs=None, hint=None, family=f"mutant:{ob.family}"))
    return out


MEM_LIMIT = 4 << 30


def run_mutant(ob: Obligation, timeout: float = 5.0) -> dict:
    """Run one mutant: its verdict, and for a PROVED (equivalent) mutant the cross-examination by every
    counterexample method; ``bug`` is set when a PROVED mutant also has a replayed counterexample.
    A per-mutant alarm and an address-space limit (MEM_LIMIT) turn a runaway backend into UNKNOWN."""
    import resource
    import signal
    import time

    from attncert.core.engine import run_obligation
    from attncert.core.verdict import Verdict

    # the limit applies while this mutant runs and is restored afterwards (children started later, e.g.
    # a browser in the tests, must not inherit it)
    limits = resource.getrlimit(resource.RLIMIT_AS)
    if limits[0] == resource.RLIM_INFINITY or limits[0] > MEM_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, limits[1]))

    def _alarm(signum, frame):
        raise TimeoutError(f"mutant took longer than {4 * timeout:.0f} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    t = time.perf_counter()
    try:
        signal.alarm(int(4 * timeout))
        try:
            r = run_obligation(ob, timeout)
        finally:
            signal.alarm(0)
        bug = None
        if r.verdict == Verdict.PROVED:
            signal.alarm(int(4 * timeout))
            try:
                x = run_obligation(dataclasses.replace(ob, methods=("probe", "model", "search")), timeout)
            finally:
                signal.alarm(0)
            if x.verdict == Verdict.REFUTED:
                bug = (f"PROVED by {r.evidence.method} but refuted by {x.evidence.method}: "
                       f"{x.evidence.detail.get('point')}")
    finally:
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, limits)
    return {"id": ob.id, "family": ob.family.replace("mutant:", ""), "verdict": r.verdict.name,
            "method": r.evidence.method, "reason": str(r.evidence.detail.get("reason", "")), "bug": bug,
            "seconds": time.perf_counter() - t}


def corpus(families=None) -> list[Obligation]:
    """All mutants of the registered families (or of the named ones), in a fixed order."""
    from attncert.core.families import all_families

    out = []
    for f in all_families():
        if families and f.name not in families:
            continue
        for ob in f.obligations:
            if ob.opt("sampler") is None:
                out.extend(mutants(ob))
    return out
