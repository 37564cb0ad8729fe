"""Discharge obligations: try each method in order, keep the first decisive verdict.

PROVED or REFUTED ends the search. CONFIRMED is kept while later methods may still decide. Anything
that goes wrong inside a backend (missing solver, unsupported operator, numerical trouble) becomes
UNKNOWN with the reason; it never becomes PROVED or CONFIRMED."""

from __future__ import annotations

import time

from attncert.core.registry import backend
from attncert.core.claims import DEFINING_METHODS, Evidence, Obligation, Result
from attncert.core.errors import AttncertError
from attncert.core.verdict import Verdict


# Verdicts come from deterministic solver resource limits (z3 rlimit, cvc5 rlimit-per), never from the
# clock. The timeout is a per-solver-call safety kill, large enough never to fire on a healthy machine;
# when it does fire, the answer is UNKNOWN.
WALL_TIMEOUT_S = 300.0


def run_obligation(ob: Obligation, timeout: float = WALL_TIMEOUT_S) -> Result:
    t0 = time.perf_counter()
    tried: list[str] = []
    confirmed: Evidence | None = None
    reasons: list[str] = []
    defined = [v.name for v in ob.claim.vars if v.domain == "defined"]
    for method in ob.methods:
        tried.append(method)
        if defined and method not in DEFINING_METHODS:
            reasons.append(f"{method}: {', '.join(defined)} names a quantity that only {'/'.join(DEFINING_METHODS)} "
                           "establishes; the claim is not a statement for all values")
            continue
        try:
            ev = backend(method)(ob, timeout)
        except AttncertError as e:
            ev = Evidence(Verdict.UNKNOWN, method, {"kind": "none", "reason": f"{method}: {e}"})
        except Exception as e:  # an internal failure is reported, never turned into a verdict
            ev = Evidence(Verdict.UNKNOWN, method, {"kind": "none", "reason": f"{method}: internal error "
                                                    f"{e.__class__.__name__}: {str(e)[:200]}"})
        if ev.verdict in (Verdict.PROVED, Verdict.REFUTED):
            return Result(ob, ev, time.perf_counter() - t0, tuple(tried))
        if ev.verdict == Verdict.CONFIRMED:
            confirmed = confirmed or ev
        else:
            reasons.append(ev.detail.get("reason", ev.reason) or method)
    if confirmed is not None:
        return Result(ob, confirmed, time.perf_counter() - t0, tuple(tried))
    ev = Evidence(Verdict.UNKNOWN, tried[-1] if tried else "none",
                  {"kind": "none", "reason": "; ".join(reasons) or "no method given"})
    return Result(ob, ev, time.perf_counter() - t0, tuple(tried))
