"""z3 and cvc5 on the same SMT-LIB text. PROVED needs `unsat` from both (cross-check); a timeout,
`unknown` or a missing solver gives UNKNOWN, never PROVED."""

from __future__ import annotations


from ..checker import smtlib
from ..claims import Evidence, Obligation
from ..verdict import Verdict
from . import handles

REQUIRED = ("z3", "cvc5")


def smt_queries(ob: Obligation):
    domains = {v.name: v.domain for v in ob.claim.vars}
    return smtlib.queries(domains, [h.expr for h in ob.claim.hyps], ob.claim.goal)


@handles("smt")
def smt(ob: Obligation, timeout: float) -> Evidence:
    main, sides, atoms = smt_queries(ob)
    have = smtlib.available()
    missing = [s for s in REQUIRED if s not in have]
    if missing:
        return Evidence(Verdict.UNKNOWN, "smt", {"kind": "none",
                        "reason": f"{' and '.join(missing)} not installed: PROVED needs both solvers to agree"})
    answers = {}
    for name in REQUIRED:
        worst = "unsat"
        for text in [main] + sides:
            try:
                ans = smtlib.SOLVERS[name](text, timeout)
            except Exception as e:  # a crash is not an answer
                ans = f"error ({e.__class__.__name__})"
            if ans != "unsat":
                worst = ans
                break
        answers[name] = worst
    if all(a == "unsat" for a in answers.values()):
        trust = tuple(f"{n} unsat" for n in REQUIRED)
        if atoms:
            trust += ("exp/log/derivative terms abstracted as free reals (over-approximation)",)
        return Evidence(Verdict.PROVED, "smt", {"kind": "smt", "solvers": answers, "atoms": atoms,
                                                "side_queries": len(sides)}, trust)
    reason = ", ".join(f"{k}: {v}" for k, v in answers.items())
    return Evidence(Verdict.UNKNOWN, "smt", {"kind": "none", "reason": f"not unsat on both solvers ({reason})"})
