"""One evaluator over expression trees, parameterised by a number system.

A number system provides constants, the field operations, exp, log and a three-valued comparison
(True, False, or None when it cannot decide). Exactness (Fraction), rigour (arb balls) and high
precision (mpmath) are different ``Numbers``; formulas evaluate to True, False or None."""

from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction
from typing import Callable, Mapping

from attncert.core.calculus import expand_diffs
from attncert.core.errors import ExprError


@contextmanager
def arb_prec(bits: int):
    """python-flint's working precision set to ``bits`` inside the block, restored after it."""
    import flint

    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = old


def _flint():
    try:
        import flint
    except ImportError:
        from attncert.core.errors import BackendUnavailable

        raise BackendUnavailable("python-flint is not installed (pip install python-flint): rigorous "
                                 "enclosures need arb") from None
    return flint


def _ball_ends(x) -> tuple[Fraction, Fraction]:
    """The exact dyadic endpoints of an arb ball as Fractions."""
    out = []
    for end in (x.lower(), x.upper()):
        m, e = end.mid().man_exp()
        out.append(Fraction(int(m)) * Fraction(2) ** int(e))
    return out[0], out[1]


def exp_enclosure(q: Fraction, prec: int = 128) -> tuple[Fraction, Fraction]:
    """Rational lo <= exp(q) <= hi from an arb ball (python-flint) at ``prec`` bits."""
    flint = _flint()
    q = Fraction(q)
    with arb_prec(prec):
        return _ball_ends(flint.arb(flint.fmpq(q.numerator, q.denominator)).exp())


def log_enclosure(q: Fraction, prec: int = 128) -> tuple[Fraction, Fraction]:
    """Rational lo <= log(q) <= hi for rational q > 0, from an arb ball at ``prec`` bits."""
    flint = _flint()
    q = Fraction(q)
    if q <= 0:
        raise ExprError(f"log of {q}: not positive")
    with arb_prec(prec):
        return _ball_ends(flint.arb(flint.fmpq(q.numerator, q.denominator)).log())


class Numbers:
    """Interface of a number system; subclasses override the operations."""

    name = "abstract"

    def const(self, q: Fraction): raise NotImplementedError
    def exp(self, x): raise NotImplementedError
    def log(self, x): raise NotImplementedError
    def div(self, a, b): return a / b
    def abs(self, x): return abs(x)

    def max(self, xs):
        """An enclosure of max(xs): every argument is looked at. When two cannot be ordered, their hull
        (which contains the larger of the two) goes on to the next comparison."""
        best = xs[0]
        for x in xs[1:]:
            c = self.cmp("gt", x, best)
            if c is None:
                best = self.hull(best, x)
            elif c:
                best = x
        return best

    def min(self, xs):
        best = xs[0]
        for x in xs[1:]:
            c = self.cmp("lt", x, best)
            if c is None:
                best = self.hull(best, x)
            elif c:
                best = x
        return best

    def hull(self, a, b): raise NotImplementedError

    def cmp(self, op: str, a, b):
        """Decide ``a op b``: True, False or None (undecided)."""
        raise NotImplementedError


def evaluate(node: tuple, env: Mapping[str, object], nums: Numbers):
    """Value of ``node`` with variables from ``env`` (already in the number system)."""
    return _ev(expand_diffs(node), env, nums)


def _ev(node, env, nums: Numbers):
    op = node[0]
    if op == "num":
        return nums.const(node[1])
    if op == "var":
        try:
            return env[node[1]]
        except KeyError:
            raise ExprError(f"variable {node[1]!r} has no value") from None
    if op == "add":
        out = _ev(node[1], env, nums)
        for c in node[2:]:
            out = out + _ev(c, env, nums)
        return out
    if op == "mul":
        out = _ev(node[1], env, nums)
        for c in node[2:]:
            out = out * _ev(c, env, nums)
        return out
    if op == "neg":
        return -_ev(node[1], env, nums)
    if op == "div":
        return nums.div(_ev(node[1], env, nums), _ev(node[2], env, nums))
    if op == "pow":
        b = _ev(node[1], env, nums)
        k = node[2]
        return b ** k if k >= 0 else nums.div(nums.const(Fraction(1)), b ** (-k))
    if op == "exp":
        return nums.exp(_ev(node[1], env, nums))
    if op == "log":
        return nums.log(_ev(node[1], env, nums))
    if op == "abs":
        return nums.abs(_ev(node[1], env, nums))
    if op == "max":
        return nums.max([_ev(c, env, nums) for c in node[1:]])
    if op == "min":
        return nums.min([_ev(c, env, nums) for c in node[1:]])
    if op in ("lt", "le", "gt", "ge", "eq", "ne"):
        return nums.cmp(op, _ev(node[1], env, nums), _ev(node[2], env, nums))
    if op == "and":
        vals = [_ev(c, env, nums) for c in node[1:]]
        return False if any(v is False for v in vals) else (True if all(v is True for v in vals) else None)
    if op == "or":
        vals = [_ev(c, env, nums) for c in node[1:]]
        return True if any(v is True for v in vals) else (False if all(v is False for v in vals) else None)
    if op == "not":
        v = _ev(node[1], env, nums)
        return None if v is None else not v
    if op == "implies":
        a = _ev(node[1], env, nums)
        if a is False:
            return True
        b = _ev(node[2], env, nums)
        if b is True:
            return True
        return False if (a is True and b is False) else None
    raise ExprError(f"operator {op!r} cannot be evaluated")


class MpNumbers(Numbers):
    """mpmath at a fixed number of decimal digits: high precision, never rigorous (CONFIRMED only)."""

    name = "mpmath"

    def __init__(self, dps: int = 50):
        import mpmath

        self.mp = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.mp
        self.mpmath = mpmath
        self.dps = dps

    def const(self, q):
        return self.mpmath.mpf(q.numerator) / q.denominator

    def exp(self, x):
        return self.mpmath.exp(x)

    def log(self, x):
        if x <= 0:
            raise ExprError("log of a non-positive number")
        return self.mpmath.log(x)

    def div(self, a, b):
        if b == 0:
            raise ExprError("division by zero")
        return a / b

    def hull(self, a, b):
        return max(a, b)

    def cmp(self, op, a, b):
        if not (self.mpmath.isfinite(a) and self.mpmath.isfinite(b)):
            return None
        return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[op]


def with_mp(dps: int, fn: Callable):
    import mpmath

    with mpmath.workdps(dps):
        return fn()
