"""The checker's own rational exp/log (attncert.checker.qarith) against two independent references:
mpmath at 100 digits (the true value must lie inside [lo, hi]) and python-flint arb balls (the
enclosures must overlap)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from attncert.checker.qarith import I, Undecided, exp_bounds, log_bounds

SETTINGS = settings(derandomize=True, deadline=None, max_examples=150)
DPS = 100


def _mp(q: Fraction):
    return mpmath.mpf(q.numerator) / q.denominator


def _true(fn: str, q: Fraction):
    """exp/log of q at 100 correct digits: work at extra precision to cover cancellation (log near 1)."""
    extra = len(str(q.numerator)) + len(str(q.denominator))
    with mpmath.workdps(DPS + 20 + extra):
        return getattr(mpmath, fn)(_mp(q))


def _assert_encloses(lo: Fraction, hi: Fraction, true_value, what: str) -> None:
    # lo/hi are exact rationals; compare them to the 100-digit value with exact-ish mpf conversion.
    assert lo <= hi, f"{what}: lo > hi"
    extra = len(str(lo.numerator)) + len(str(lo.denominator)) + len(str(hi.numerator)) + len(str(hi.denominator))
    with mpmath.workdps(DPS + 20 + extra):
        v = true_value
        tol = abs(v) * mpmath.mpf(10) ** (-(DPS - 5)) + mpmath.mpf(10) ** (-(DPS - 5)) * (v == 0)
        assert _mp(lo) <= v + tol, f"{what}: lower bound {float(lo)!r} above true value {mpmath.nstr(v, 30)}"
        assert _mp(hi) >= v - tol, f"{what}: upper bound {float(hi)!r} below true value {mpmath.nstr(v, 30)}"


def _width_ok(lo: Fraction, hi: Fraction, prec: int) -> bool:
    """The enclosure should be tight: relative width well below 2^-(prec-16)."""
    mag = max(abs(lo), abs(hi), Fraction(1, 1 << 60))
    return (hi - lo) / mag < Fraction(1, 1 << max(8, prec - 16))


rationals = st.one_of(
    st.fractions(min_value=-50, max_value=50, max_denominator=10 ** 6),
    st.fractions(min_value=-1000, max_value=1000, max_denominator=1000),
    st.integers(-1000, 1000).map(Fraction),
    st.integers(1, 60).map(lambda k: Fraction(1, 1 << k)),  # tiny
    st.integers(1, 60).map(lambda k: -Fraction(1, 1 << k)),
    st.integers(1, 30).map(lambda k: Fraction(1, 10 ** k)),
)
positive = st.one_of(
    st.fractions(min_value=Fraction(1, 10 ** 6), max_value=10 ** 6, max_denominator=10 ** 6),
    st.integers(1, 60).map(lambda k: Fraction(1, 1 << k)),
    st.integers(1, 300).map(lambda k: Fraction(10) ** k),  # huge
    st.integers(1, 300).map(lambda k: Fraction(1, 10 ** k)),  # tiny
    st.integers(1, 10 ** 6).map(lambda k: 1 + Fraction(1, k)),  # near 1
    st.integers(1, 10 ** 6).map(lambda k: 1 - Fraction(1, k + 1)),
)
precs = st.sampled_from([32, 53, 64, 128, 256])


@SETTINGS
@given(q=rationals, prec=precs)
def test_exp_bounds_enclose_mpmath(q, prec):
    lo, hi = exp_bounds(q, prec)
    _assert_encloses(lo, hi, _true("exp", q), f"exp({q})")
    assert lo > 0
    assert _width_ok(lo, hi, prec), f"exp({q}) at {prec} bits: enclosure too wide"


@SETTINGS
@given(x=positive, prec=precs)
def test_log_bounds_enclose_mpmath(x, prec):
    lo, hi = log_bounds(x, prec)
    _assert_encloses(lo, hi, _true("log", x), f"log({x})")


@pytest.mark.parametrize("q", [Fraction(1000), Fraction(-1000), Fraction(999, 1), Fraction(-7001, 7),
                               Fraction(1, 10 ** 40), Fraction(-1, 10 ** 40), Fraction(1, 1 << 200),
                               Fraction(0), Fraction(1), Fraction(-1), Fraction(1, 2), Fraction(-1, 2)])
@pytest.mark.parametrize("prec", [32, 128, 512])
def test_exp_bounds_extremes(q, prec):
    lo, hi = exp_bounds(q, prec)
    _assert_encloses(lo, hi, _true("exp", q), f"exp({q})")


@pytest.mark.parametrize("x", [Fraction(10) ** 300, Fraction(1, 10 ** 300), Fraction(2), Fraction(1, 2),
                               Fraction(4, 3), Fraction(3, 4), Fraction(1),
                               Fraction(10 ** 30 + 1, 10 ** 30), Fraction(10 ** 30 - 1, 10 ** 30), Fraction(1 << 1000)])
@pytest.mark.parametrize("prec", [32, 128, 512])
def test_log_bounds_extremes(x, prec):
    lo, hi = log_bounds(x, prec)
    _assert_encloses(lo, hi, _true("log", x), f"log({x})")


def test_log_of_nonpositive_is_undecided():
    for x in (Fraction(0), Fraction(-1), Fraction(-1, 10 ** 9)):
        with pytest.raises(Undecided):
            log_bounds(x, 64)
    with pytest.raises(Undecided):
        I(-1, 1).log()
    with pytest.raises(Undecided):
        I(-1, 1).recip()


# ------------------------------------------------------------------------------ against arb balls

flint = pytest.importorskip("flint")


def _arb_bounds(ball) -> tuple[Fraction, Fraction]:
    def rat(x):
        m, e = x.mid().man_exp()
        return Fraction(int(m)) * Fraction(2) ** int(e)
    return rat(ball.lower()), rat(ball.upper())


def _arb_of(q: Fraction, fn: str, bits: int = 256):
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        b = flint.arb(flint.fmpq(q.numerator, q.denominator))
        return getattr(b, fn)()
    finally:
        flint.ctx.prec = old


@SETTINGS
@given(q=rationals, prec=precs)
def test_exp_bounds_overlap_arb(q, prec):
    lo, hi = exp_bounds(q, prec)
    alo, ahi = _arb_bounds(_arb_of(q, "exp"))
    assert not (hi < alo or lo > ahi), f"exp({q}): [{float(lo)}, {float(hi)}] misses arb [{float(alo)}, {float(ahi)}]"


@SETTINGS
@given(x=positive, prec=precs)
def test_log_bounds_overlap_arb(x, prec):
    lo, hi = log_bounds(x, prec)
    alo, ahi = _arb_bounds(_arb_of(x, "log"))
    assert not (hi < alo or lo > ahi), f"log({x}): [{float(lo)}, {float(hi)}] misses arb [{float(alo)}, {float(ahi)}]"


@SETTINGS
@given(a=st.fractions(min_value=-30, max_value=30, max_denominator=1000),
       w=st.fractions(min_value=0, max_value=2, max_denominator=1000))
def test_interval_exp_log_monotone_enclosure(a, w):
    """I.exp / I.log over an interval [a, a+w] contain exp/log of both endpoints (arb check)."""
    iv = I(a, a + w, prec=96, exact=True)
    e = iv.exp()
    for p in (a, a + w):
        alo, ahi = _arb_bounds(_arb_of(p, "exp"))
        assert e.lo <= ahi and e.hi >= alo
    pos = I(Fraction(1, 1000) + abs(a), Fraction(1, 1000) + abs(a) + w, prec=96, exact=True)
    lg = pos.log()
    for p in (pos.lo, pos.hi):
        alo, ahi = _arb_bounds(_arb_of(p, "log"))
        assert lg.lo <= ahi and lg.hi >= alo
