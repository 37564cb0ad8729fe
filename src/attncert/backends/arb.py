"""python-flint arb balls: rigorous enclosures (PROVED allowed). Closed claims are decided here,
and counterexample points are replayed here before they count."""

from __future__ import annotations

from fractions import Fraction

from attncert.core.claims import Evidence, Obligation
from attncert.core.errors import BackendUnavailable, ExprError, NotExact
from attncert.core.expr import RELATIONS, eval_exact
from attncert.numeric.evaluate import Numbers, arb_prec, evaluate
from attncert.core.verdict import Verdict
from attncert.core.registry import handles

BITS = (128, 512)


def _flint():
    try:
        import flint
    except ImportError:
        raise BackendUnavailable("python-flint is not installed (pip install python-flint)") from None
    return flint


class ArbNumbers(Numbers):
    """arb balls at a given precision; comparisons answer None when the balls overlap."""

    name = "arb"

    def __init__(self, bits: int):
        self.flint = _flint()
        self.bits = bits

    def const(self, q: Fraction):
        return self.flint.arb(self.flint.fmpq(q.numerator, q.denominator))

    def exp(self, x): return x.exp()

    def log(self, x):
        return x.log()  # a ball that touches 0 or below gives nan, which compares as undecided

    def div(self, a, b): return a / b
    def abs(self, x): return abs(x)
    def hull(self, a, b): return a.union(b)

    def cmp(self, op, a, b):
        if not (a.is_finite() and b.is_finite()):
            return None
        d = a - b
        if op == "lt":
            return True if d < 0 else (False if d >= 0 else None)
        if op == "le":
            return True if d <= 0 else (False if d > 0 else None)
        if op == "gt":
            return True if d > 0 else (False if d <= 0 else None)
        if op == "ge":
            return True if d >= 0 else (False if d < 0 else None)
        if op == "eq":
            return True if (d.is_exact() and d.is_zero()) else (False if (d > 0 or d < 0) else None)
        if op == "ne":
            return True if (d > 0 or d < 0) else (False if (d.is_exact() and d.is_zero()) else None)
        raise ValueError(op)


def upper_fraction(x) -> Fraction:
    """The (exact, dyadic) upper endpoint of an arb ball as a Fraction."""
    m, e = x.upper().man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def lower_fraction(x) -> Fraction:
    """The (exact, dyadic) lower endpoint of an arb ball as a Fraction."""
    m, e = x.lower().man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def arb_eval(node, point: dict, bits: int):
    _flint()   # BackendUnavailable, with its message, when python-flint is missing
    with arb_prec(bits):
        nums = ArbNumbers(bits)
        env = {k: nums.const(Fraction(v)) for k, v in point.items()}
        return evaluate(node, env, nums)


def margin(goal, point: dict, bits: int):
    """Rational enclosure [lo, hi] of lhs - rhs for a relation goal, or None."""
    if goal[0] not in RELATIONS:
        return None
    v = arb_eval(("add", goal[1], ("neg", goal[2])), point, bits)
    if not v.is_finite():
        return None
    lo, hi = v.lower(), v.upper()
    return {"lo": _rat(lo.mid(), down=True), "hi": _rat(hi.mid(), down=False)}


def _rat(x, down: bool) -> str:
    # arb lower()/upper() are exact dyadics, so this conversion is exact
    m, e = x.mid().man_exp()
    q = Fraction(int(m)) * (Fraction(2) ** int(e))
    return str(q)


def _exact_zero(goal, point) -> bool:
    """sympy decides whether lhs - rhs is exactly 0 at the point (equal transcendental expressions)."""
    from attncert.backends.sympy_backend import is_zero_at

    return is_zero_at(("add", goal[1], ("neg", goal[2])), point)


def defined_at(node, point: dict, bits: int = BITS[-1]) -> bool:
    """Every denominator of ``node`` is non-zero and every log argument positive at the point, shown by
    arb balls, including inside the body of every derivative (its operators have open domains, so
    defined at the point means differentiable near it). A point evaluation counts only where every term
    of the claim is defined."""
    from attncert.core.calculus import expand_diffs

    subs: list = []

    def walk(n):
        if n[0] in ("num", "var"):
            return
        for c in n[1:]:
            if isinstance(c, tuple):
                walk(c)
        if n[0] == "div":
            subs.append(("ne", expand_diffs(n[2]), ("num", Fraction(0))))
        elif n[0] == "pow" and n[2] < 0:
            subs.append(("ne", expand_diffs(n[1]), ("num", Fraction(0))))
        elif n[0] == "log":
            subs.append(("gt", expand_diffs(n[1]), ("num", Fraction(0))))

    walk(node)
    return all(arb_eval(c, point, bits) is True for c in subs)


def in_box(ob: Obligation, point: dict) -> bool:
    """The point lies in every variable's box (a counterexample outside it is not offered)."""
    for v in ob.claim.vars:
        x = Fraction(point[v.name])
        if (v.lo is not None and x < Fraction(v.lo)) or (v.hi is not None and x > Fraction(v.hi)):
            return False
    return True


def decide_at(formula, point: dict, bits_list=BITS, exact_zero: bool = True):
    """(truth, bits, exact_zero_used): rigorous truth of a formula at a rational point, or None.
    Connectives are decided from their parts, so a conjunct that fails by equality still decides.
    ``bits_list``: the precisions to try, in order (an obligation may ask for more, option "bits")."""
    op = formula[0]
    if op in ("and", "or", "not", "implies"):
        parts = [decide_at(c, point, bits_list, exact_zero) for c in formula[1:]]
        vals = [p[0] for p in parts]
        bits = max(p[1] for p in parts)
        zero = any(p[2] for p in parts)
        if op == "and":
            v = False if any(v is False for v in vals) else (True if all(x is True for x in vals) else None)
        elif op == "or":
            v = True if any(v is True for v in vals) else (False if all(x is False for x in vals) else None)
        elif op == "not":
            v = None if vals[0] is None else not vals[0]
        else:
            v = True if (vals[0] is False or vals[1] is True) else (False if vals == [True, False] else None)
        return v, bits, zero
    if op in RELATIONS:
        try:  # purely rational relations are decided exactly
            return bool(eval_exact(formula, {k: Fraction(v) for k, v in point.items()})), bits_list[0], False
        except (NotExact, ExprError):
            pass
    for bits in bits_list:
        v = arb_eval(formula, point, bits)
        if v is not None:
            return v, bits, False
    if exact_zero and op in RELATIONS and _exact_zero(formula, point):
        return op in ("le", "ge", "eq"), bits_list[-1], True
    return None, bits_list[-1], False


def replay(ob: Obligation, point: dict, exact_zero: bool = True) -> Evidence | None:
    """REFUTED evidence if ``point`` satisfies every hypothesis and falsifies the goal, rigorously.
    ``exact_zero=False`` skips sympy's zero test for relations arb cannot separate (used by the
    exploratory probes, which simply move on to the next point)."""
    c = ob.claim
    if not in_box(ob, point):
        return None
    if not all(defined_at(n, point) for n in [h.expr for h in c.hyps] + [c.goal]):
        return None
    hyp_zero = False
    for h in c.hyps:
        v, _, z = decide_at(h.expr, point, exact_zero=exact_zero)
        if v is not True:
            return None
        hyp_zero = hyp_zero or z
    v, bits, zero = decide_at(c.goal, point, exact_zero=exact_zero)
    if v is not False:
        return None
    zero = zero or hyp_zero  # a hypothesis such as log(exp(a)) = a holds only by the exact zero test
    detail = {"kind": "counterexample", "point": {k: str(Fraction(x)) for k, x in sorted(point.items())},
              "bits": bits, "margin": None if zero else margin(c.goal, point, bits), "zero_test": zero}
    trust = ["python-flint arb enclosures"] + (["sympy: both sides simplify to the same value"] if zero else [])
    return Evidence(Verdict.REFUTED, "replay", detail, tuple(trust))


@handles("interval")
def interval(ob: Obligation, timeout: float) -> Evidence:
    c = ob.claim
    if c.vars:
        return Evidence(Verdict.UNKNOWN, "interval", {"kind": "none", "reason": "interval method needs a closed claim"})
    if not all(defined_at(n, {}) for n in [h.expr for h in c.hyps] + [c.goal]):
        return Evidence(Verdict.UNKNOWN, "interval", {"kind": "none", "reason": "a term of the closed claim is not "
                        "shown defined (a denominator may be 0 or a log argument not positive)"})
    for h in c.hyps:
        v, _, _ = decide_at(h.expr, {})
        if v is not True:
            return Evidence(Verdict.UNKNOWN, "interval",
                            {"kind": "none", "reason": "a hypothesis of the closed claim does not hold rigorously"})
    v, bits, zero = decide_at(c.goal, {}, tuple(int(b) for b in ob.opt("bits", BITS)))
    if v is None or zero:
        return Evidence(Verdict.UNKNOWN, "interval",
                        {"kind": "none", "reason": f"enclosure inconclusive at {bits} bits"})
    detail = {"kind": "interval", "bits": bits, "margin": margin(c.goal, {}, bits)}
    return Evidence(Verdict.PROVED if v else Verdict.REFUTED, "interval", detail, ("python-flint arb enclosures",))


@handles("replay")
def replay_hint(ob: Obligation, timeout: float) -> Evidence:
    if not ob.hint:
        return Evidence(Verdict.UNKNOWN, "replay", {"kind": "none", "reason": "no counterexample point given"})
    ev = replay(ob, dict(ob.hint))
    if ev is None:
        return Evidence(Verdict.UNKNOWN, "replay",
                        {"kind": "none", "reason": "the given point does not refute the claim rigorously"})
    return ev
