"""The checker's dyadic interval arithmetic (attncert.checker.qarith) against exact rational arithmetic
and mpmath: every operation must enclose the exact result at every point of its operands (outward
rounding), comparisons must be exact, and refusals (division by 0, log of a non-positive number, exp
above 2^20) must stay refusals. A test with the rounding turned inward shows that these checks bite."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import assume, given, settings, strategies as st

from attncert.checker import qarith
from attncert.checker.qarith import EXP_ARG_MAX, I, Undecided, exp_bounds, log_bounds, sub_signs
from attncert.checker.trees import _cmp, ival

SETTINGS = settings(derandomize=True, deadline=None, max_examples=200)

dyadics = st.builds(lambda m, e: F(m) * F(2) ** e, st.integers(-(1 << 200), 1 << 200), st.integers(-300, 100))
rationals = st.one_of(
    st.fractions(min_value=-1000, max_value=1000, max_denominator=10 ** 12),
    dyadics,
    st.integers(-(1 << 80), 1 << 80).map(F),
    st.integers(1, 200).map(lambda k: F(1, 3 ** k)),  # tiny, not dyadic
    st.sampled_from([F(0), F(1), F(-1), F(1, 3), F(-2, 3), F(1, 10 ** 30)]),
)
precs = st.sampled_from([2, 8, 24, 53, 64, 128, 300])
fracs = st.fractions(min_value=0, max_value=1, max_denominator=1000)  # positions inside an interval


@st.composite
def intervals(draw, positive=False):
    """(I, exact endpoints a <= b, some exact points of [a, b]); the I is built from a and b."""
    a, b = sorted((draw(rationals), draw(rationals)))
    if positive:
        assume(a > 0)
    if draw(st.booleans()):
        b = a  # a point
    prec, exact = draw(precs), draw(st.booleans())
    pts = [a, b] + [a + t * (b - a) for t in draw(st.lists(fracs, min_size=1, max_size=3))]
    return I(a, b, prec=prec, exact=exact), a, b, pts


def inside(v: I, x: F) -> bool:
    return v.lo <= x <= v.hi


def test_conversion_rounds_outward():
    # 1/3 is not dyadic: enclosed strictly, at the precision asked for (floor and ceiling of 2^k / 3)
    v = I(F(1, 3), prec=8)
    assert v.lo < F(1, 3) < v.hi and v.hi - v.lo <= F(1, 2 ** 9)
    w = I(F(-1, 3), prec=8)
    assert (w.lo, w.hi) == (-v.hi, -v.lo)
    # a dyadic with more bits than prec is cut outward; exact=True keeps it
    x = F((1 << 100) + 1, 1 << 50)
    assert I(x, prec=16).lo < x < I(x, prec=16).hi
    assert I(x, prec=16, exact=True).lo == x == I(x, prec=16, exact=True).hi


@SETTINGS
@given(x=intervals(), y=intervals())
def test_ring_operations_enclose(x, y):
    (u, *_, ps), (v, *_, qs) = x, y
    for p in ps:
        assert inside(-u, -p) and inside(u.abs(), abs(p))
        for q in qs:
            assert inside(u + v, p + q), (p, q)
            assert inside(u - v, p - q), (p, q)
            assert inside(u * v, p * q), (p, q)
            h = u.hull(v)
            assert inside(h, p) and inside(h, q)
    assert (u + v).lo <= (u + v).hi and (u * v).lo <= (u * v).hi


@SETTINGS
@given(x=intervals(), y=intervals())
def test_division_encloses_or_refuses(x, y):
    (u, *_, ps), (v, c, d, qs) = x, y
    if v.lo <= 0 <= v.hi:
        with pytest.raises(Undecided):
            u / v
        with pytest.raises(Undecided):
            v.recip()
        return
    assert not (c <= 0 <= d)
    for p in ps:
        for q in qs:
            assert inside(u / v, p / q), (p, q)
    for q in qs:
        assert inside(v.recip(), 1 / q)


@SETTINGS
@given(x=intervals(), k=st.integers(-5, 9))
def test_pow_encloses(x, k):
    u, *_, ps = x
    if k < 0 and u.lo <= 0 <= u.hi:
        with pytest.raises(Undecided):
            u.pow(k)
        return
    r = u.pow(k)
    for p in ps:
        assert inside(r, p ** k), (p, k)


@SETTINGS
@given(x=intervals(), y=intervals(), op=st.sampled_from(["max", "min"]))
def test_min_max_enclose(x, y, op):
    """max/min of intervals, as the checker's tree evaluator does it (_cmp, then hull)."""
    (u, *_, ps), (v, *_, qs) = x, y
    r = ival((op, ("var", "x"), ("var", "y")), {"x": u, "y": v}, min(u.prec, v.prec))
    for p in ps:
        for q in qs:
            assert inside(r, max(p, q) if op == "max" else min(p, q))


@SETTINGS
@given(x=intervals(), y=intervals(), r=rationals)
def test_comparisons_are_exact(x, y, r):
    """sub_signs gives the exact signs of lo(a) - hi(b) and hi(a) - lo(b), with Fractions as points."""
    (u, *_), (v, *_) = x, y
    def sign(z):
        return (z > 0) - (z < 0)
    assert sub_signs(u, v) == (sign(u.lo - v.hi), sign(u.hi - v.lo))
    assert sub_signs(u, r) == (sign(u.lo - r), sign(u.hi - r))
    assert sub_signs(r, u) == (sign(r - u.hi), sign(r - u.lo))
    # a relation is decided only when every point of the operands agrees
    for op, f in (("lt", F.__lt__), ("le", F.__le__), ("gt", F.__gt__), ("ge", F.__ge__)):
        got = _cmp(op, u, r)
        if got is not None:
            assert got == f(u.lo, r) == f(u.hi, r)


def test_sums_of_short_dyadics_are_exact_and_cancel():
    # operands of prec bits whose sum fits in prec bits add exactly, also under cancellation
    a, b = F((1 << 52) + 1, 1 << 10), -F(1 << 52, 1 << 10)
    s = I(a, prec=53) + I(b, prec=53)
    assert s.lo == s.hi == a + b == F(1, 1 << 10)
    # a long exact operand is not cut off when the other one cancels it
    x = F((1 << 400) + 3, 1 << 400)
    d = I(x, prec=64, exact=True) - I(1, prec=64)
    assert d.lo == d.hi == F(3, 1 << 400)
    # a tiny addend far below the last bit is kept outward, not dropped
    t = I(1, prec=32) + I(F(1, 1 << 500), prec=32)
    assert t.lo <= 1 + F(1, 1 << 500) <= t.hi and t.lo == 1 and t.hi > 1


# ------------------------------------------------------------------------------ exp and log vs mpmath

def _mp(q: F):
    return mpmath.mpf(q.numerator) / q.denominator


def _encloses(v: I, fn: str, pts) -> None:
    """Each exact point's exp/log (mpmath at 300 extra bits over the operands) lies in v."""
    bits = max(v.prec, 64) + 300 + max(max(p.numerator.bit_length(), p.denominator.bit_length()) for p in pts)
    with mpmath.workprec(bits + 64):
        lo, hi = _mp(v.lo), _mp(v.hi)
        for p in pts:
            t = getattr(mpmath, fn)(_mp(p))
            slack = abs(t) * mpmath.mpf(2) ** (-bits)  # mpmath's own error, far below the enclosure's width
            assert lo <= t + slack and t - slack <= hi, f"{fn}({p}) = {mpmath.nstr(t, 30)} not in {v!r}"


small = st.one_of(st.fractions(min_value=-200, max_value=200, max_denominator=10 ** 9),
                  st.builds(lambda m, e: F(m) * F(2) ** e, st.integers(-(1 << 300), 1 << 300), st.integers(-330, -290)),
                  st.integers(1, 200).map(lambda k: F(1, 3 ** k)))


@SETTINGS
@given(a=small, w=st.sampled_from([F(0), F(1, 1 << 400), F(1, 10 ** 30), F(1, 7), F(3)]), prec=precs,
       exact=st.booleans(), t=fracs)
def test_interval_exp_encloses(a, w, prec, exact, t):
    """Includes nearly-point intervals (width 2^-400), which take the one-product upper bound."""
    v = I(a, a + w, prec=prec, exact=exact).exp()
    assert 0 <= v.lo <= v.hi
    _encloses(v, "exp", [a, a + w, a + t * w])


@SETTINGS
@given(a=small, w=st.sampled_from([F(0), F(1, 1 << 400), F(1, 10 ** 30), F(1, 7), F(3)]), prec=precs,
       exact=st.booleans(), t=fracs)
def test_interval_log_encloses(a, w, prec, exact, t):
    a = abs(a) + F(1, 1 << 20)
    v = I(a, a + w, prec=prec, exact=exact).log()
    _encloses(v, "log", [a, a + w, a + t * w])


@SETTINGS
@given(m=st.integers(1, 1 << 400), e=st.integers(-420, 40), prec=st.sampled_from([24, 64, 256, 1024]))
def test_long_arguments(m, e, prec):
    """Long mantissas: exp with a reduction that grows with the argument's length, log split at 64 bits."""
    x = F(m) * F(2) ** e
    lo, hi = log_bounds(x, prec)
    _encloses(I(lo, hi, prec=prec, exact=True), "log", [x])
    assume(abs(x) < 50_000)
    for q in (x, -x):
        lo, hi = exp_bounds(q, prec)
        _encloses(I(lo, hi, prec=prec, exact=True), "exp", [q])
        assert hi - lo <= hi * F(1, 1 << (prec - 8))  # about prec correct bits


def test_high_precision_exp_and_log():
    """KS-certificate sizes, smaller: a 6000-bit argument at 6000 bits, its neighbour by one unit, log 3."""
    prec = 6000
    m = (1 << 6000) // 7 * 3
    q = -F(m, 1 << 5985)  # about -26337, a long mantissa
    v = I(q, q + F(1, 1 << 5985), prec=prec, exact=True).exp()
    _encloses(v, "exp", [q, q + F(1, 1 << 5985)])
    assert v.hi - v.lo <= v.hi * F(1, 1 << (prec - 32))
    lo, hi = log_bounds(F(3), prec)
    _encloses(I(lo, hi, prec=prec, exact=True), "log", [F(3)])
    assert hi - lo < F(1, 1 << (prec - 4))


def test_refusals_and_caps():
    with pytest.raises(Undecided):
        I(-1, 1).log()
    with pytest.raises(Undecided):
        I(0, 1).log()
    with pytest.raises(Undecided):
        log_bounds(F(0), 64)
    with pytest.raises(Undecided):
        I(F(-1, 1 << 200), F(1, 1 << 200)).recip()
    with pytest.raises(Undecided):
        I(1) / I(0, 5)
    with pytest.raises(Undecided):
        I(0, 1).pow(-2)
    with pytest.raises(Undecided):
        I(0, EXP_ARG_MAX + F(1, 1 << 100), prec=64, exact=True).exp()
    with pytest.raises(Undecided):
        exp_bounds(F(EXP_ARG_MAX + 1), 64)
    lo, hi = exp_bounds(F(-EXP_ARG_MAX - 1), 64)  # below the cap: [0, 2^-64], which does hold
    assert lo == 0 and hi == F(1, 1 << 64)


# ------------------------------------------------------------------------------ the checks bite

def test_inward_rounding_is_caught(monkeypatch):
    """With the cut rounding inward (floor and ceiling swapped), enclosures fail: 1/3 * 3 misses 1, exp(1)
    misses e. The same checks pass with the real rounding, and the checker cannot then decide 3 * (1/3) < 1
    or >= 1 at any precision."""
    third = I(1, prec=24) / I(3, prec=24)
    one = third * I(3, prec=24)
    assert one.lo < 1 < one.hi
    assert _cmp("lt", one, F(1)) is None and _cmp("ge", one, F(1)) is None
    _encloses(I(1, prec=24).exp(), "exp", [F(1)])

    real_shr = qarith._shr
    monkeypatch.setattr(qarith, "_shr", lambda m, k, up: real_shr(m, k, not up))
    qarith._exp.cache_clear()
    try:
        bad = (I(1, prec=24) / I(3, prec=24)) * I(3, prec=24)
        assert not inside(bad, F(1))  # the inward result no longer contains 1, and a falsehood is decided
        assert _cmp("gt", bad, F(1)) is True or _cmp("lt", bad, F(1)) is True
        with pytest.raises(AssertionError):
            _encloses(I(1, prec=24).exp(), "exp", [F(1)])
    finally:
        qarith._exp.cache_clear()
