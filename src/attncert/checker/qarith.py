"""Rigorous interval arithmetic over exact rationals, with the checker's own exp and log.

Endpoints are Fractions rounded outward to ``prec`` significant bits after every operation, so sizes
stay bounded. exp uses argument halving and a Taylor polynomial with an explicit remainder bound;
log uses log(x) = e*log 2 + 2*atanh((m-1)/(m+1)) with the atanh tail bounded by a geometric series.
Standard library only: this file is part of the trusted checker."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import floor

MAX_PREC = 1 << 17  # bits; a certificate asking for more is refused
EXP_ARG_MAX = 1 << 20


class Undecided(Exception):
    """The interval cannot decide (division by an interval containing 0, log of a non-positive)."""


def _down(x: Fraction, prec: int) -> Fraction:
    if x == 0:
        return x
    e = x.numerator.bit_length() - x.denominator.bit_length()
    sh = prec - e
    if sh >= 0:
        return Fraction(floor(x * (1 << sh)), 1 << sh)
    return Fraction(floor(x / (1 << -sh)) * (1 << -sh))


def _up(x: Fraction, prec: int) -> Fraction:
    return -_down(-x, prec)


class I:
    """A closed interval [lo, hi] with rational endpoints."""

    __slots__ = ("lo", "hi", "prec")

    def __init__(self, lo, hi=None, prec: int = 128, exact: bool = False):
        lo = Fraction(lo)
        hi = lo if hi is None else Fraction(hi)
        if exact:
            self.lo, self.hi = lo, hi
        else:
            self.lo, self.hi = _down(lo, prec), _up(hi, prec)
        self.prec = prec

    def _mk(self, lo, hi):
        return I(lo, hi, self.prec)

    def __add__(self, o): return self._mk(self.lo + o.lo, self.hi + o.hi)
    def __sub__(self, o): return self._mk(self.lo - o.hi, self.hi - o.lo)
    def __neg__(self): return I(-self.hi, -self.lo, self.prec, exact=True)

    def __mul__(self, o):
        ps = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi)
        return self._mk(min(ps), max(ps))

    def recip(self):
        if self.lo <= 0 <= self.hi:
            raise Undecided("division by an interval containing 0")
        return self._mk(1 / self.hi, 1 / self.lo)

    def __truediv__(self, o): return self * o.recip()

    def pow(self, k: int):
        if k < 0:
            return self.pow(-k).recip()
        if k == 0:
            return I(1, prec=self.prec)
        if k % 2 == 0 and self.lo <= 0 <= self.hi:
            m = max(-self.lo, self.hi)
            return self._mk(0, m ** k)
        a, b = self.lo ** k, self.hi ** k
        return self._mk(min(a, b), max(a, b))

    def abs(self):
        if self.lo >= 0:
            return self
        if self.hi <= 0:
            return -self
        return I(0, max(-self.lo, self.hi), self.prec, exact=True)

    def hull(self, o):
        return I(min(self.lo, o.lo), max(self.hi, o.hi), self.prec, exact=True)

    def exp(self):
        return I(exp_bounds(self.lo, self.prec)[0], exp_bounds(self.hi, self.prec)[1], self.prec, exact=True)

    def log(self):
        if self.lo <= 0:
            raise Undecided("log of an interval that is not positive")
        return I(log_bounds(self.lo, self.prec)[0], log_bounds(self.hi, self.prec)[1], self.prec, exact=True)

    def __repr__(self):
        return f"[{float(self.lo):.17g}, {float(self.hi):.17g}]"


@lru_cache(maxsize=4096)
def exp_bounds(q: Fraction, prec: int) -> tuple[Fraction, Fraction]:
    """Rational lo <= exp(q) <= hi, with about ``prec`` correct bits.

    Integer arithmetic throughout (no Fraction normalisation): r = q / 2^s with |r| <= 1/2, the Taylor
    sum of exp(r) in fixed point with scale 2^wp, then s squarings in floating point (mantissa, exponent)
    with directed rounding. Error accounting, in units of 2^-wp: each term is truncated (error < 1) and
    carries its predecessor's error times |r|/j <= 1/2, so every term is within 2 units; J terms give at
    most 2J; the loop stops at a term of at most 2 units (true term <= 4), whose tail is <= 4 more. The
    enclosure [total - rem, total + rem] with rem = 2J + 8 is then squared s times, rounding lo down and
    hi up."""
    q = Fraction(q)
    if q == 0:
        return Fraction(1), Fraction(1)
    if q > EXP_ARG_MAX:
        raise Undecided("exp of an argument above 2^20 (refused: the enclosure would not fit in memory)")
    if q < -EXP_ARG_MAX:  # 0 < exp(q) <= exp(-2^20) < 2^-(2^20) <= 2^-min(prec, 2^20), whatever the limits
        return Fraction(0), Fraction(1, 1 << min(prec, EXP_ARG_MAX))
    mag = abs(q)
    s = max(0, (mag.numerator.bit_length() - mag.denominator.bit_length()) + 2)  # |q / 2^s| <= 1/2
    wp = prec + 2 * s + 32 + prec.bit_length()
    rn, rd = q.numerator, q.denominator << s
    one = 1 << wp
    total, term, j = one, one, 0
    while True:
        j += 1
        term = (term * rn) // (rd * j)
        total += term
        if abs(term) <= 2:
            break
    rem = 2 * j + 8
    lo_m, hi_m, lo_e, hi_e = total - rem, total + rem, -wp, -wp
    if lo_m <= 0:
        raise Undecided("exp: enclosure lost")  # cannot happen for |r| <= 1/2; kept as a guard
    for _ in range(s):
        lo2, hi2 = lo_m * lo_m, hi_m * hi_m
        k_lo, k_hi = max(0, lo2.bit_length() - wp), max(0, hi2.bit_length() - wp)
        lo_m, lo_e = lo2 >> k_lo, 2 * lo_e + k_lo
        hi_m, hi_e = -((-hi2) >> k_hi), 2 * hi_e + k_hi
    lo = Fraction(lo_m) * (Fraction(2) ** lo_e)
    hi = Fraction(hi_m) * (Fraction(2) ** hi_e)
    return _down(lo, prec), _up(hi, prec)


def _round_near(x: Fraction, prec: int) -> Fraction:
    # terms are rounded to wp+8 absolute bits; the accumulated error is covered by ``rem`` above
    sh = prec + 8
    return Fraction(round(x * (1 << sh)), 1 << sh)


_LOG2: dict[int, tuple[Fraction, Fraction]] = {}


def _atanh_bounds(y: Fraction, wp: int) -> tuple[Fraction, Fraction]:
    """2*atanh(y) for |y| <= 1/3, as rational bounds.

    Integer fixed point with scale 2^W (no Fraction normalisation). For a = |y|: P_0 = floor(a 2^W) and
    P_{j+1} = floor(P_j a^2), each within 1.2 units of a^(2j+1) 2^W (the error contracts by a^2 <= 1/9 and
    each floor adds < 1); the term floor(P_j/(2j+1)) is within 2.2 units. The loop stops once P_j <= 1,
    where the true power is <= 2.2 units and the tail sum_{i>=j} a^(2i+1)/(2i+1) <= 2.2 * 9/8 < 2.5 units.
    So |sum - 2^W atanh(a)| <= 2.2 J + 2.5 < 3 J + 4 units; atanh is odd."""
    y = Fraction(y)
    if y == 0:
        return Fraction(0), Fraction(0)
    W = wp + 8
    a = abs(y)
    an, ad = a.numerator, a.denominator
    a2n, a2d = an * an, ad * ad
    P = (an << W) // ad
    total, j = 0, 0
    while True:
        total += P // (2 * j + 1)
        j += 1
        P = (P * a2n) // a2d
        if P <= 1:
            break
    rem = 3 * j + 4
    lo, hi = Fraction(2 * (total - rem), 1 << W), Fraction(2 * (total + rem), 1 << W)
    return (lo, hi) if y > 0 else (-hi, -lo)


def log2_bounds(prec: int) -> tuple[Fraction, Fraction]:
    if prec not in _LOG2:
        _LOG2[prec] = _atanh_bounds(Fraction(1, 3), prec + 16)
    return _LOG2[prec]


@lru_cache(maxsize=4096)
def log_bounds(x: Fraction, prec: int) -> tuple[Fraction, Fraction]:
    """Rational lo <= log(x) <= hi for rational x > 0."""
    x = Fraction(x)
    if x <= 0:
        raise Undecided("log of a non-positive number")
    if x == 1:
        return Fraction(0), Fraction(0)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    m = x / (Fraction(2) ** e)  # m in (1/2, 2)
    if m > Fraction(4, 3):
        m /= 2
        e += 1
    elif m < Fraction(2, 3):
        m *= 2
        e -= 1
    wp = prec + abs(e).bit_length() + 16
    y = (m - 1) / (m + 1)  # |y| <= 1/5
    alo, ahi = _atanh_bounds(y, wp)
    l2lo, l2hi = log2_bounds(wp)
    if e >= 0:
        lo, hi = alo + e * l2lo, ahi + e * l2hi
    else:
        lo, hi = alo + e * l2hi, ahi + e * l2lo
    return _down(lo, prec), _up(hi, prec)
