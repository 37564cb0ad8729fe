"""Random search for counterexamples ("search") and numerical confirmation ("sample") with mpmath.

Sampling never proves anything: "sample" gives CONFIRMED at best, and any violation it sees only
counts after a rigorous replay in arb ("search" and "sample" both return REFUTED only through
``arb.replay``). Points are dyadic rationals, so they replay exactly."""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction

import mpmath

from attncert.core.claims import Evidence, Obligation
from attncert.core.errors import ExprError
from attncert.core.expr import RELATIONS
from attncert.numeric.evaluate import MpNumbers, evaluate
from attncert.core.verdict import Verdict
from attncert.core.registry import handles
from attncert.backends.arb import replay

DEFAULT_SAMPLES = 300
DPS = 30


def _seed(ob: Obligation) -> int:
    return int(hashlib.sha256(ob.id.encode()).hexdigest()[:12], 16) + int(ob.opt("seed", 0))


def points(ob: Obligation, rng: random.Random, count: int):
    """Dyadic points in the variables' boxes, or from the obligation's own sampler."""
    sampler = ob.opt("sampler")
    for _ in range(count):
        if sampler is not None:
            pt = {k: Fraction(v) for k, v in sampler(rng).items()}
            for v in ob.claim.vars:  # a sampler draws inside the claim's boxes (the checker insists)
                x = pt.get(v.name)
                if x is not None and ((v.lo is not None and x < v.lo) or (v.hi is not None and x > v.hi)):
                    raise ExprError(f"the sampler drew {v.name} = {float(x):.4g} outside its box [{v.lo}, {v.hi}]")
            yield pt
            continue
        pt = {}
        for v in ob.claim.vars:
            if v.lo is None or v.hi is None:
                raise ExprError(f"variable {v.name} has no sampling box (lo, hi)")
            if v.domain == "int":
                pt[v.name] = Fraction(rng.randint(int(v.lo), int(v.hi)))
            else:
                t = Fraction(rng.randrange(0, 1 << 20), 1 << 20)
                pt[v.name] = Fraction(v.lo) + (Fraction(v.hi) - Fraction(v.lo)) * t
        yield pt


def _signed_margin(goal, env, nums):
    """How far the goal is from failing (positive = holds), for a single relation; else None."""
    if goal[0] not in RELATIONS:
        return None
    d = evaluate(("add", goal[1], ("neg", goal[2])), env, nums)
    return {"lt": -d, "le": -d, "gt": d, "ge": d}.get(goal[0])


def _run(ob: Obligation, count: int):
    rng = random.Random(_seed(ob))
    dps = int(ob.opt("dps", DPS))
    nums = MpNumbers(dps)
    seen = 0
    worst = None
    with mpmath.workdps(dps):
        for pt in points(ob, rng, count):
            env = {k: nums.const(v) for k, v in pt.items()}
            try:
                if not all(evaluate(h.expr, env, nums) is True for h in ob.claim.hyps):
                    continue
                ok = evaluate(ob.claim.goal, env, nums)
                m = _signed_margin(ob.claim.goal, env, nums)
            except (ExprError, ZeroDivisionError, ValueError, OverflowError):
                continue
            seen += 1
            if ok is False:
                ev = replay(ob, pt)
                if ev is not None:
                    return "refuted", ev, seen
                return "undecided", pt, seen
            if ok is None:
                return "undecided", pt, seen
            if worst is None or (m is not None and worst[1] is not None and m < worst[1]):
                worst = (pt, m)
    return "held", worst, seen


@handles("search")
def search(ob: Obligation, timeout: float) -> Evidence:
    count = int(ob.opt("samples", DEFAULT_SAMPLES))
    status, payload, seen = _run(ob, count)
    if status == "refuted":
        return payload
    reason = (f"no counterexample among {seen} samples satisfying the hypotheses" if status == "held"
              else "a sampled violation could not be replayed rigorously")
    return Evidence(Verdict.UNKNOWN, "search", {"kind": "none", "reason": reason})


@handles("sample")
def sample(ob: Obligation, timeout: float) -> Evidence:
    count = int(ob.opt("samples", DEFAULT_SAMPLES))
    status, payload, seen = _run(ob, count)
    if status == "refuted":
        return payload
    if status != "held" or payload is None or seen == 0:
        return Evidence(Verdict.UNKNOWN, "sample", {"kind": "none",
                        "reason": "no sample satisfied the hypotheses" if seen == 0 else "undecided sample"})
    pt, m = payload
    # the worst sample is the one piece a reader can re-check: it must lie in the box, every term must
    # be defined there, and hypotheses and goal must hold there rigorously (arb), or nothing is claimed
    from attncert.backends.arb import decide_at, defined_at, in_box

    exprs = [h.expr for h in ob.claim.hyps] + [ob.claim.goal]
    if not (in_box(ob, pt) and all(defined_at(e, pt) for e in exprs)
            and all(decide_at(e, pt, exact_zero=False)[0] is True for e in exprs)):
        return Evidence(Verdict.UNKNOWN, "sample", {"kind": "none", "reason": "the worst sample could not be "
                        "re-checked rigorously (outside the box, undefined, or undecided in arb)"})
    box = {v.name: [str(Fraction(v.lo)), str(Fraction(v.hi))] for v in ob.claim.vars
           if v.lo is not None and v.hi is not None}
    detail = {"kind": "sample", "samples": seen, "seed": _seed(ob), "dps": int(ob.opt("dps", DPS)), "box": box,
              "worst_point": {k: str(v) for k, v in sorted(pt.items())},
              "worst_margin": None if m is None else mpmath.nstr(m, 8)}
    return Evidence(Verdict.CONFIRMED, "sample", detail, (f"mpmath {int(ob.opt('dps', DPS))} digits, {seen} samples: NOT a proof",))
