"""Interval branch and bound over a box (method "bnb"): PROVED with a split tree that the checker
re-checks leaf by leaf with its own arithmetic (checker/bnb.py), REFUTED with a replayed counterexample,
or UNKNOWN when the box budget runs out (with the fraction of the box's volume already proved).

The claim: real variables; hypotheses that are exactly the box, one rational lower and one upper bound
per variable (``x >= 1/10``, ``x <= 10``); a goal ``lhs REL rhs`` (< <= > >=) over add, mul, div, neg,
integer powers, exp and log (abs, max and min only in enclosure leaves). With h = lhs - rhs (or
rhs - lhs) the goal is h <= 0 (h < 0). Each box is tried, in order:

1. enclosure: h's interval over the box (exact rational endpoints; exp and log of the endpoints by
   arb, rounded outward) decides the goal (leaf "interval");
2. monotonicity: each variable whose partial derivative has one sign on the box is moved to the end
   where h is largest, and the goal is decided on that face (leaf "mono"); this closes boxes where the
   goal is tight, e.g. log x <= x - 1 at x = 1 (h = 0 and h' = 0 there);
3. a counterexample at the box's centre ends the search (REFUTED, replayed);
4. otherwise the box is split, along its widest variable, at the simplest rational in the middle third
   of the interval (so that split points fall on simple critical points such as 1).

The budget (``max_boxes``, default 20000, deterministic: never the clock) and the dimension limit
(8 variables) give UNKNOWN with the reason and the volume fraction proved."""

from __future__ import annotations

from fractions import Fraction

from attncert.core.calculus import d as derivative
from attncert.core.claims import Evidence, Obligation
from attncert.core.errors import ExprError
from attncert.core.expr import contains
from attncert.core.registry import handles
from attncert.core.verdict import Verdict

BITS = 256  # the precision the checker re-checks the leaves at (the search itself is exact where it can be)
MAX_VARS = 8
DEFAULT_BOXES = 20_000


def _box(ob: Obligation) -> dict:
    lo: dict = {}
    hi: dict = {}
    for h in ob.claim.hyps:
        n = h.expr
        if h.by is not None or n[0] not in ("le", "ge"):
            raise ExprError("bnb needs hypotheses that are exactly the box: x >= q and x <= q, one each")
        op, a, b = n
        if a[0] == "num" and b[0] == "var":
            op, a, b = ("ge" if op == "le" else "le"), b, a
        if a[0] != "var" or b[0] != "num":
            raise ExprError("bnb needs hypotheses that are exactly the box: x >= q and x <= q, one each")
        side = lo if op == "ge" else hi
        if a[1] in side:
            raise ExprError(f"bnb: two bounds of the same kind for {a[1]}")
        side[a[1]] = b[1]
    names = [v.name for v in ob.claim.vars]
    if any(v.domain != "real" for v in ob.claim.vars) or set(lo) != set(names) or set(hi) != set(names):
        raise ExprError("bnb needs real variables, each with one lower and one upper bound hypothesis")
    if any(lo[v] > hi[v] for v in names):
        raise ExprError("bnb: an empty box")
    return {v: (lo[v], hi[v]) for v in names}


def simplest_between(a: Fraction, b: Fraction) -> Fraction:
    """The rational with the least denominator (then least |numerator|) in the closed interval [a, b],
    a < b (Stern-Brocot descent)."""
    if a <= 0 <= b:
        return Fraction(0)
    if b < 0:
        return -simplest_between(-b, -a)
    fl = a.numerator // a.denominator
    if Fraction(fl) == a:
        return a
    if fl + 1 <= b:
        return Fraction(fl + 1)
    # a and b share the integer part fl: recurse on the reciprocals of the fractional parts
    return fl + 1 / simplest_between(1 / (b - fl), 1 / (a - fl))


GRID = 256  # endpoints with larger denominators are rounded outward to multiples of 2^-GRID


def _down(q: Fraction) -> Fraction:
    if q.denominator.bit_length() <= GRID + 8:
        return q
    return Fraction((q.numerator << GRID) // q.denominator, 1 << GRID)


def _up(q: Fraction) -> Fraction:
    return -_down(-q)


class Iv:
    """A closed interval with exact rational endpoints (rounded outward only when they grow long): unlike
    a midpoint-radius ball, an endpoint that is exact stays exact, so a derivative that vanishes at the
    edge of a box (h' = 1/x - 1 on [1/10, 1]) still has a decided sign there."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: Fraction, hi: Fraction):
        self.lo, self.hi = _down(lo), _up(hi)

    def __add__(self, o): return Iv(self.lo + o.lo, self.hi + o.hi)
    def __sub__(self, o): return Iv(self.lo - o.hi, self.hi - o.lo)
    def __neg__(self): return Iv(-self.hi, -self.lo)

    def __mul__(self, o):
        ps = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi)
        return Iv(min(ps), max(ps))

    def __pow__(self, k: int):
        if k == 0:
            return Iv(Fraction(1), Fraction(1))
        a, b = self.lo ** k, self.hi ** k
        if k % 2 or self.lo >= 0:
            return Iv(min(a, b), max(a, b))
        if self.hi <= 0:
            return Iv(b, a)
        return Iv(Fraction(0), max(a, b))


class IvNumbers:
    """The number system of ``evaluate`` for Iv: exact rational arithmetic on the endpoints, exp and log
    (monotone) of the endpoints by arb, rounded outward."""

    name = "endpoint intervals"

    def __init__(self):
        import flint

        self.flint = flint

    def const(self, q: Fraction):
        return Iv(q, q)

    def _f(self, q: Fraction, fn: str) -> tuple[Fraction, Fraction]:
        from attncert.backends.arb import upper_fraction

        f = self.flint
        x = getattr(f.arb(f.fmpq(q.numerator, q.denominator)), fn)()
        if not x.is_finite():
            raise ExprError(f"{fn} of {q} not enclosed")
        return -upper_fraction(-x), upper_fraction(x)

    def exp(self, x: Iv) -> Iv:
        lo = Fraction(1) if x.lo == 0 else self._f(x.lo, "exp")[0]
        hi = Fraction(1) if x.hi == 0 else self._f(x.hi, "exp")[1]
        return Iv(lo, hi)

    def log(self, x: Iv) -> Iv:
        if x.lo <= 0:
            raise ExprError("log of an interval that is not positive")
        lo = Fraction(0) if x.lo == 1 else self._f(x.lo, "log")[0]
        hi = Fraction(0) if x.hi == 1 else self._f(x.hi, "log")[1]
        return Iv(lo, hi)

    def div(self, a: Iv, b: Iv) -> Iv:
        if b.lo <= 0 <= b.hi:
            raise ExprError("division by an interval containing 0")
        return a * Iv(1 / b.hi, 1 / b.lo)

    def abs(self, x: Iv) -> Iv:
        if x.lo >= 0:
            return x
        if x.hi <= 0:
            return -x
        return Iv(Fraction(0), max(-x.lo, x.hi))

    def max(self, xs):
        return Iv(max(x.lo for x in xs), max(x.hi for x in xs))

    def min(self, xs):
        return Iv(min(x.lo for x in xs), min(x.hi for x in xs))

    def cmp(self, op, a: Iv, b: Iv):
        lo, hi = a.lo - b.hi, a.hi - b.lo  # a - b lies in [lo, hi]
        return {"lt": True if hi < 0 else (False if lo >= 0 else None),
                "le": True if hi <= 0 else (False if lo > 0 else None),
                "gt": True if lo > 0 else (False if hi <= 0 else None),
                "ge": True if lo >= 0 else (False if hi < 0 else None)}.get(op)


class _Enclose:
    def __init__(self):
        self.nums = IvNumbers()

    def value(self, node, box: dict):
        from attncert.numeric.evaluate import evaluate

        try:
            return evaluate(node, {v: Iv(lo, hi) for v, (lo, hi) in box.items()}, self.nums)
        except (ZeroDivisionError, ExprError):
            return None

    def holds(self, node, box: dict, strict: bool):
        """True / False / None: is node <= 0 (< 0) on the whole box?"""
        v = self.value(node, box)
        return None if v is None else self.nums.cmp("lt" if strict else "le", v, Iv(Fraction(0), Fraction(0)))

    def sign(self, node, box: dict):
        """'hi' if node >= 0 on the box, 'lo' if <= 0, else None."""
        v = self.value(node, box)
        if v is None:
            return None
        return "hi" if v.lo >= 0 else ("lo" if v.hi <= 0 else None)


def _volume(box: dict, whole: dict) -> Fraction:
    out = Fraction(1)
    for v, (lo, hi) in box.items():
        w = whole[v][1] - whole[v][0]
        out *= (hi - lo) / w if w else 1
    return out


@handles("bnb")
def bnb(ob: Obligation, timeout: float) -> Evidence:
    from attncert.backends.arb import defined_at, replay

    goal = ob.claim.goal
    if contains(goal, ("diff",)):
        raise ExprError("bnb: write derivatives out (the checker refuses derivative nodes in bnb claims)")
    if goal[0] not in ("lt", "le", "gt", "ge"):
        raise ExprError("bnb needs one inequality as goal (<, <=, >, >=)")
    whole = _box(ob)
    if len(whole) > MAX_VARS:
        return Evidence(Verdict.UNKNOWN, "bnb", {"kind": "none", "reason": f"bnb: {len(whole)} variables, more than "
                                                 f"the dimension budget of {MAX_VARS}"})
    a, b = goal[1], goal[2]
    h = ("add", a, ("neg", b)) if goal[0] in ("lt", "le") else ("add", b, ("neg", a))
    strict = goal[0] in ("lt", "gt")
    smooth = not contains(h, ("abs", "max", "min"))
    derivs = {v: derivative(h, v) for v in whole} if smooth else {}
    budget = int(ob.opt("max_boxes", DEFAULT_BOXES))
    arb = _Enclose()
    boxes = 0
    proved = Fraction(0)

    def solve(box: dict, depth: int):
        """The subtree for box, or raises _Stop."""
        nonlocal boxes, proved
        boxes += 1
        if boxes > budget:
            raise _Stop(f"box budget of {budget} boxes exhausted with {float(proved):.1%} of the box's volume "
                        "proved (raise it with the obligation option max_boxes)")
        if depth > 150:
            raise _Stop("split depth 150 reached (the goal may fail or be tight on a set the splits cannot isolate)")
        if arb.holds(h, box, strict) is True:
            proved += _volume(box, whole)
            return {"leaf": "interval"}
        if smooth and arb.value(h, box) is not None:  # every term of h defined on the box
            ends = {v: s for v in sorted(box) if box[v][0] < box[v][1] and (s := arb.sign(derivs[v], box))}
            if ends:
                face = {v: ((box[v][1],) * 2 if ends.get(v) == "hi" else (box[v][0],) * 2) if v in ends else box[v]
                        for v in box}
                if arb.holds(h, face, strict) is True:
                    proved += _volume(box, whole)
                    return {"leaf": "mono", "ends": ends}
        centre = {v: (lo + hi) / 2 for v, (lo, hi) in box.items()}
        point = {v: q for v, q in centre.items()}
        if defined_at(goal, point) and (ev := replay(ob, point)) is not None and ev.verdict == Verdict.REFUTED:
            raise _Found(ev)
        v = max(box, key=lambda k: (box[k][1] - box[k][0]) / max(whole[k][1] - whole[k][0], Fraction(1, 10 ** 30)))
        lo, hi = box[v]
        if lo == hi:
            raise _Stop("a box shrank to a point without a decision")
        w = hi - lo
        at = simplest_between(lo + w / 3, hi - w / 3)
        return {"split": v, "at": str(at), "lo": solve({**box, v: (lo, at)}, depth + 1),
                "hi": solve({**box, v: (at, hi)}, depth + 1)}

    try:
        tree = solve(dict(whole), 0)
    except _Found as f:
        return f.evidence
    except _Stop as s:
        return Evidence(Verdict.UNKNOWN, "bnb", {"kind": "none", "reason": f"bnb: {s}"})
    except RecursionError:
        return Evidence(Verdict.UNKNOWN, "bnb", {"kind": "none", "reason": "bnb: split tree too deep"})
    leaves = _count(tree)
    return Evidence(Verdict.PROVED, "bnb", {"kind": "bnb", "bits": BITS, "tree": tree, "leaves": leaves},
                    ("python-flint arb balls (search); the checker re-checks every leaf in its own arithmetic",))


def _count(t: dict) -> int:
    return 1 if "leaf" in t else _count(t["lo"]) + _count(t["hi"])


class _Stop(Exception):
    pass


class _Found(Exception):
    def __init__(self, evidence):
        super().__init__("counterexample")
        self.evidence = evidence
