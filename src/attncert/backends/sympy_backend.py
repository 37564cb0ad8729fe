"""sympy: identities (derivatives included) by symbolic simplification."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from attncert.core.claims import Evidence, Obligation
from attncert.core.errors import ExprError
from attncert.core.verdict import Verdict
from attncert.core.registry import handles



def to_sympy(node, syms: dict):
    op = node[0]
    t = lambda c: to_sympy(c, syms)  # noqa: E731
    if op == "num":
        return sp.Rational(node[1].numerator, node[1].denominator)
    if op == "var":
        if node[1] not in syms:
            syms[node[1]] = sp.Symbol(node[1], real=True)
        return syms[node[1]]
    if op == "add":
        return sp.Add(*[t(c) for c in node[1:]])
    if op == "mul":
        return sp.Mul(*[t(c) for c in node[1:]])
    if op == "neg":
        return -t(node[1])
    if op == "div":
        return t(node[1]) / t(node[2])
    if op == "pow":
        return t(node[1]) ** node[2]
    if op == "exp":
        return sp.exp(t(node[1]))
    if op == "log":
        return sp.log(t(node[1]))
    if op == "abs":
        return sp.Abs(t(node[1]))
    if op == "max":
        return sp.Max(*[t(c) for c in node[1:]])
    if op == "min":
        return sp.Min(*[t(c) for c in node[1:]])
    if op == "diff":
        return sp.diff(t(node[1]), t(("var", node[2])))
    raise ExprError(f"operator {op!r} has no sympy term")


def _zero(e) -> bool:
    e = sp.expand_log(e)  # never force=True: it would split log(x*y) for negative x, y
    if e == 0:
        return True
    e = sp.simplify(e)
    if e == 0:
        return True
    return sp.simplify(sp.expand(sp.together(e))) == 0


def is_zero_at(node, point: dict) -> bool:
    syms: dict = {}
    e = to_sympy(node, syms)
    e = e.subs({syms[k]: sp.Rational(Fraction(v).numerator, Fraction(v).denominator)
                for k, v in point.items() if k in syms})
    return _zero(e)


@handles("identity")
def identity(ob: Obligation, timeout: float) -> Evidence:
    g = ob.claim.goal
    if g[0] != "eq":
        return Evidence(Verdict.UNKNOWN, "identity", {"kind": "none", "reason": "identity method needs an equation"})
    syms: dict = {}
    diff = to_sympy(g[1], syms) - to_sympy(g[2], syms)
    if not _zero(diff):
        return Evidence(Verdict.UNKNOWN, "identity",
                        {"kind": "none", "reason": "sympy could not simplify lhs - rhs to 0"})
    # sympy cancels x*(1/x) to 1 and reads exp(log x) = x for every x: the identity only counts where
    # both sides are defined, so every denominator must be non-zero and every log argument positive
    # under the hypotheses (the SMT definedness conditions, on z3 and cvc5)
    from attncert.backends.smt import both_unsat, _claim_parts
    from attncert.backends.solver_terms import shape

    _, sides = shape(*_claim_parts(ob))
    answers, reason = both_unsat(ob, timeout, goal=False) if sides else ({}, None)
    if reason is not None:
        return Evidence(Verdict.UNKNOWN, "identity", {"kind": "none", "reason": "lhs - rhs simplifies to 0, but "
                        f"a denominator or log argument is not shown defined under the hypotheses: {reason}"})
    trust = ("sympy simplification",) + tuple(f"{n} unsat" for n in answers)
    return Evidence(Verdict.PROVED, "identity",
                    {"kind": "identity", "prover": f"sympy {sp.__version__} simplify", "solvers": answers,
                     "side_queries": sides}, trust)
