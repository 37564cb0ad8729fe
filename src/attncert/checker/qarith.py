"""Rigorous interval arithmetic on dyadic numbers, with the checker's own exp and log.

Representation. A dyadic number is a pair (m, e) of Python ints standing for m * 2^e. An interval ``I``
holds two of them, lo <= hi, and a working precision ``prec`` (bits). exp and log also take exact
rationals n * 2^e / d (d > 0), so that a certificate constant such as 1/3 is not rounded there.

Rounding. Every operation computes each result endpoint exactly (integer products, sums after aligning
exponents) or as an integer floor/ceiling quotient, then cuts it to ``prec`` significant bits by a shift:
the lower endpoint with floor (m >> k), the upper one with ceiling (-(-m >> k)). Endpoints only move
outward, so the exact result of the operation, for any points of the operand intervals, lies in the
result interval. A non-dyadic rational entering an interval is enclosed as [floor, ceiling] of it at
prec + 32 bits (exact=True) or prec bits. In a sum, an addend wholly below 2^-(prec+4) of the other one
(so no cancellation) is first replaced by its floor/ceiling at that bit (outward again): shifts stay short.
Comparisons (``sub_signs``) are exact. No gcds: only integer products, shifts and floor divisions.

exp: x = r * 2^s with |r| < 2^-t, the Taylor sum of exp(r) in fixed point with an explicit error bound,
then s squarings rounded outward (_exp). log: x = m 2^E with m in [2/3, 4/3), log x = E log 2 +
2 atanh((m-1)/(m+1)), the atanh tail bounded by a geometric series, log 2 = 2 atanh(1/3) (_log, _atanh).
Standard library only: this file is part of the trusted checker."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import isqrt

MAX_PREC = 1 << 17  # bits; a certificate asking for more is refused
EXP_ARG_MAX = 1 << 20


class TooMuchWork(Exception):
    """The certificate needs more exp/log work than the checker's budget (MAX_WORK)."""


# A deterministic work budget per certificate (the checker calls reset_work() before each one, which
# also empties the exp/log caches, so what a certificate costs depends on it alone, never on the
# machine, earlier certificates or --jobs). Every exp or log actually computed (a cache miss) at
# precision p costs ceil((p / 1024)^2.5) units (measured: an interval log at 131,072 bits takes about
# 11 s and costs 185,364 units; at 47,337 bits 0.9 s and 14,520); an exact rational operation whose
# result may have more than 2^14 bits costs bits / 2^14. MAX_WORK is about 2 minutes of the costliest
# work here; the default KS Theorem 2 certificate needs a fraction of it (docs/soundness.md, rounds 4-5).
MAX_WORK = 2_000_000
WORK = [0]


def reset_work() -> None:
    WORK[0] = 0
    _exp.cache_clear()
    _log.cache_clear()


def _units(prec: int) -> int:
    """ceil-ish (prec / 1024)^2.5, in integers."""
    return isqrt((max(prec, 0) ** 5) >> 50) + 1


def _spend(units: int, what: str) -> None:
    WORK[0] += units
    if WORK[0] > MAX_WORK:
        raise TooMuchWork(f"the certificate needs more exact and exp/log work than the checker's budget "
                          f"({MAX_WORK:,} units; {what})")


def charge_exact(bits: int) -> None:
    """Exact rational work grows with the square of the size (multiplication and the gcd that reduces the
    result): about 48 units per (bits / 2^14)^2, measured (a product of two 2^18-bit Fractions takes about
    0.7 s, 12,000 units at the budget's rate)."""
    if bits > 1 << 14:
        b = bits >> 14
        units = 48 * b * b + b
        _spend(units, f"an exact operation on {bits:,} bits costs {units:,}")


def _cached(fn, key: tuple, kind: str, prec: int):
    misses = fn.cache_info().misses
    out = fn(*key)
    if fn.cache_info().misses != misses:  # computed, not a repeat
        _spend(_units(prec), f"one {kind} at {prec:,} bits costs {_units(prec):,}")
    return out


def _exp_c(n: int, e: int, d: int, prec: int):
    return _cached(_exp, (n, e, d, prec), "exp", prec)


def _log_c(n: int, e: int, d: int, prec: int):
    return _cached(_log, (n, e, d, prec), "log", prec)


class Undecided(Exception):
    """The interval cannot decide (division by an interval containing 0, log of a non-positive)."""


# ------------------------------------------------------------------------------ dyadics (m, e) = m 2^e

def _shr(m: int, k: int, up: bool) -> int:
    """floor (up False) or ceiling (up True) of m / 2^k, k >= 0."""
    return -(-m >> k) if up else m >> k


def _cut(m: int, e: int, p: int, up: bool) -> tuple[int, int]:
    """m 2^e cut to p significant bits, rounding down or up."""
    k = m.bit_length() - p
    return (_shr(m, k, up), e + k) if k > 0 else (m, e)


def _q(x) -> tuple[int, int, int]:
    """(n, e, d) with x = n 2^e / d, d = 1 for a dyadic; x is a dyadic pair or anything Fraction() takes."""
    if isinstance(x, tuple):
        return x[0], x[1], 1
    x = Fraction(x)
    n, d = x.numerator, x.denominator
    return (n, 1 - d.bit_length(), 1) if d & (d - 1) == 0 else (n, 0, d)


def _dyadic(x: tuple[int, int, int], p: int, up: bool) -> tuple[int, int]:
    """The rational n 2^e / d as a dyadic: exact when d = 1, else its floor/ceiling at p+1 bits or more."""
    n, e, d = x
    if d == 1:
        return n, e
    k = p + d.bit_length() - n.bit_length() + 1
    num, den = (n << k, d) if k >= 0 else (n, d << -k)
    return (-(-num // den) if up else num // den), e - k


def _frac(x: tuple[int, int]) -> Fraction:
    m, e = x
    return Fraction(m << e) if e >= 0 else Fraction(m, 1 << -e)


def _sgn(x: tuple[int, int, int], y: tuple[int, int, int]) -> int:
    """sign(x - y), exactly, for rationals n 2^e / d."""
    (n1, e1, d1), (n2, e2, d2) = x, y
    a, b = n1 * d2, n2 * d1  # sign(a 2^e1 - b 2^e2)
    sa, sb = (a > 0) - (a < 0), (b > 0) - (b < 0)
    if sa != sb or not sa:
        return (sa > sb) - (sa < sb)
    ta, tb = a.bit_length() + e1, b.bit_length() + e2  # |a 2^e1| in [2^(ta-1), 2^ta)
    if ta != tb:
        return sa if ta > tb else -sa
    if e1 >= e2:
        a <<= e1 - e2
    else:
        b <<= e2 - e1
    return (a > b) - (a < b)


def _lt(x: tuple[int, int], y: tuple[int, int]) -> bool:
    return _sgn((x[0], x[1], 1), (y[0], y[1], 1)) < 0


def _min(x, y):
    return y if _lt(y, x) else x


def _max(x, y):
    return y if _lt(x, y) else x


def _neg(x: tuple[int, int]) -> tuple[int, int]:
    return -x[0], x[1]


def _add(x, y, p: int, up: bool) -> tuple[int, int]:
    """x + y cut to p bits, rounding down or up."""
    (m1, e1), (m2, e2) = x, y
    if not m1 or not m2:
        return _cut(m1, e1, p, up) if m1 else _cut(m2, e2, p, up)
    t1, t2 = m1.bit_length() + e1, m2.bit_length() + e2  # |x| < 2^t1, |y| < 2^t2
    low = max(t1, t2) - p - 4
    # an addend below 2^low cannot cancel the other one, and only affects the rounding: it is replaced by
    # its floor/ceiling at 2^low (-1, 0 or 1 times 2^low), which keeps the shifts below short
    if t1 < low:
        m1, e1 = _shr(m1, low - e1, up), low
    if t2 < low:
        m2, e2 = _shr(m2, low - e2, up), low
    if e1 > e2:
        m1, e1 = m1 << (e1 - e2), e2
    else:
        m2 <<= e2 - e1
    return _cut(m1 + m2, e1, p, up)


def _mul(x, y, p: int, up: bool) -> tuple[int, int]:
    return _cut(x[0] * y[0], x[1] + y[1], p, up)


def _div(x, y, p: int, up: bool) -> tuple[int, int]:
    """x / y cut to p bits, rounding down or up; y > 0. (floor(floor(a/b)/c) = floor(a/(bc)), same for ceil.)"""
    (m1, e1), (m2, e2) = x, y
    k = p + m2.bit_length() - m1.bit_length() + 1  # the quotient gets p+1 or more bits
    num = m1 << k if k >= 0 else _shr(m1, -k, up)
    return _cut(-(-num // m2) if up else num // m2, e1 - e2 - k, p, up)


def _pow(x, k: int, p: int, up: bool) -> tuple[int, int]:
    """x^k (k >= 1), rounding down or up; every partial product of |x| is rounded the same way."""
    m, e = x
    if m < 0:
        if k % 2:
            return _neg(_pow((-m, e), k, p, not up))
        m = -m
    r, b = (1, 0), (m, e)
    while True:
        if k & 1:
            r = _mul(r, b, p, up)
        k >>= 1
        if not k:
            return r
        b = _mul(b, b, p, up)


# ------------------------------------------------------------------------------ intervals

def _new(lo, hi, prec: int) -> I:
    iv = object.__new__(I)
    iv.l, iv.h, iv.prec = lo, hi, prec
    return iv


class I:
    """A closed interval [lo, hi] with dyadic endpoints ``l``, ``h``; ``lo``/``hi`` give them as Fractions."""

    __slots__ = ("h", "l", "prec")

    def __init__(self, lo, hi=None, prec: int = 128, exact: bool = False):
        ql = _q(lo)
        qh = ql if hi is None else _q(hi)
        p = prec + 32 if exact else prec
        self.l, self.h = _dyadic(ql, p, False), _dyadic(qh, p, True)
        if not exact:
            self.l, self.h = _cut(*self.l, prec, False), _cut(*self.h, prec, True)
        self.prec = prec

    lo = property(lambda self: _frac(self.l))
    hi = property(lambda self: _frac(self.h))

    def __add__(self, o):
        p = self.prec
        return _new(_add(self.l, o.l, p, False), _add(self.h, o.h, p, True), p)

    def __sub__(self, o): return self + (-o)
    def __neg__(self): return _new(_neg(self.h), _neg(self.l), self.prec)

    def __mul__(self, o):
        p, (a, b), (c, d) = self.prec, (self.l, self.h), (o.l, o.h)
        if a[0] < 0 and b[0] <= 0:
            return -((-self) * o)
        if c[0] < 0 and d[0] <= 0:
            return -(self * (-o))
        # now a >= 0 or a < 0 < b, and c >= 0 or c < 0 < d
        if a[0] >= 0 and c[0] >= 0:
            return _new(_mul(a, c, p, False), _mul(b, d, p, True), p)
        if a[0] >= 0:
            return _new(_mul(b, c, p, False), _mul(b, d, p, True), p)
        if c[0] >= 0:
            return _new(_mul(a, d, p, False), _mul(b, d, p, True), p)
        return _new(_min(_mul(a, d, p, False), _mul(b, c, p, False)),
                    _max(_mul(a, c, p, True), _mul(b, d, p, True)), p)

    def __truediv__(self, o):
        p, (a, b), (c, d) = self.prec, (self.l, self.h), (o.l, o.h)
        if c[0] <= 0 <= d[0]:
            raise Undecided("division by an interval containing 0")
        if d[0] < 0:
            return (-self) / (-o)
        # 0 < c <= d: x / y grows with x; it falls with y where x >= 0 and grows where x < 0
        return _new(_div(a, c if a[0] < 0 else d, p, False), _div(b, d if b[0] < 0 else c, p, True), p)

    def recip(self):
        return _new((1, 0), (1, 0), self.prec) / self

    def pow(self, k: int):
        if k < 0:
            return self.pow(-k).recip()
        p, a, b = self.prec, self.l, self.h
        if k == 0:
            return _new((1, 0), (1, 0), p)
        if k % 2 or a[0] >= 0:  # increasing on the interval
            return _new(_pow(a, k, p, False), _pow(b, k, p, True), p)
        if b[0] <= 0:  # even power, decreasing
            return _new(_pow(b, k, p, False), _pow(a, k, p, True), p)
        return _new((0, 0), _max(_pow(a, k, p, True), _pow(b, k, p, True)), p)

    def abs(self):
        if self.l[0] >= 0:
            return self
        if self.h[0] <= 0:
            return -self
        return _new((0, 0), _max(_neg(self.l), self.h), self.prec)

    def hull(self, o):
        return _new(_min(self.l, o.l), _max(self.h, o.h), self.prec)

    def imax(self, o):
        """{max(x, y) : x in self, y in o} = [max of the lower ends, max of the upper ends]."""
        return _new(_max(self.l, o.l), _max(self.h, o.h), self.prec)

    def imin(self, o):
        return _new(_min(self.l, o.l), _min(self.h, o.h), self.prec)

    def exp(self):
        p, l, h = self.prec, self.l, self.h
        if _sgn((h[0], h[1], 1), (EXP_ARG_MAX, 0, 1)) > 0:
            raise Undecided("exp of an argument above 2^20 (refused: the enclosure would not fit in memory)")
        lo, hi = _exp_c(l[0], l[1], 1, p)
        if h != l:
            dl = _add(h, _neg(l), 64, True)  # >= h - l >= 0
            if dl[0].bit_length() + dl[1] < -(p // 2) - 8:
                # exp(h) <= exp(l) (1 + dl + dl^2) as e^u <= 1 + u + u^2 for 0 <= u <= 1: one product
                # instead of a second exp; dl^2 < 2^-(p+16) costs nothing in tightness
                f = _add(_add((1, 0), dl, p + 64, True), _mul(dl, dl, 64, True), p + 64, True)
                hi = _mul(hi, f, p, True)
            else:
                hi = _exp_c(h[0], h[1], 1, p)[1]
        return _new(lo, hi, p)

    def log(self):
        if self.l[0] <= 0:
            raise Undecided("log of an interval that is not positive")
        p, l, h = self.prec, self.l, self.h
        return _new(_log_c(l[0], l[1], 1, p)[0], _log_c(h[0], h[1], 1, p)[1], p)

    def __repr__(self):
        return f"[{_float(self.l):.17g}, {_float(self.h):.17g}]"


def _float(x) -> float:
    try:
        return float(_frac(_cut(*x, 64, False)))
    except OverflowError:
        return float("inf") if x[0] > 0 else float("-inf")


def exp_of(v, prec: int) -> I:
    """exp of an interval, or of an exact rational (not rounded first)."""
    return v.exp() if isinstance(v, I) else _new(*_exp_c(*_q(v), prec), prec)


def log_of(v, prec: int) -> I:
    """log of an interval, or of an exact rational (not rounded first)."""
    return v.log() if isinstance(v, I) else _new(*_log_c(*_q(v), prec), prec)


def sub_signs(a, b) -> tuple[int, int]:
    """(sign(lo(a) - hi(b)), sign(hi(a) - lo(b))), exactly: a - b lies between them. a and b are
    intervals or exact rationals."""
    al, ah = ((a.l[0], a.l[1], 1), (a.h[0], a.h[1], 1)) if isinstance(a, I) else (_q(a),) * 2
    bl, bh = ((b.l[0], b.l[1], 1), (b.h[0], b.h[1], 1)) if isinstance(b, I) else (_q(b),) * 2
    return _sgn(al, bh), _sgn(ah, bl)


# ------------------------------------------------------------------------------ exp and log

@lru_cache(maxsize=4096)
def _exp(n: int, e: int, d: int, prec: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Dyadic lo <= exp(n 2^e / d) <= hi, with about ``prec`` correct bits.

    r = x / 2^s with |r| < 2^-t <= 1/4; the Taylor sum of exp(r) in fixed point with scale 2^wp, each
    term floor(t_{j-1} r / j) (a product, a shift and one floor division: floor(floor(a/b)/c) =
    floor(a/(bc))); then s squarings of a ball (midpoint, radius). Error accounting, in units of 2^-wp: each
    term is truncated (error < 1) and carries its predecessor's error times |r|/j <= 1/2, so every term is
    within 2 units; J terms give at most 2J; the loop stops at a term of at most 2 units (true term <= 4),
    whose tail is <= 4/3 more. The ball M +- R (M = total, R = 2J + 8) is then squared s times: for x in
    M +- R, |x^2 - M^2| = |x - M| |x + M| <= 2MR + R^2; M^2 is cut by k bits with a floor (error < 2^k),
    so M' = M^2 >> k and R' = ((2MR + R^2) >> k) + 2, at scale 2^k, enclose x^2 again. t grows with the
    length of r's numerator (a long one makes each term a full product, so fewer terms pay)."""
    if n == 0:
        return (1, 0), (1, 0)
    x = (n, e, d)
    if _sgn(x, (EXP_ARG_MAX, 0, 1)) > 0:
        raise Undecided("exp of an argument above 2^20 (refused: the enclosure would not fit in memory)")
    if _sgn(x, (-EXP_ARG_MAX, 0, 1)) < 0:  # 0 < exp(x) <= exp(-2^20) < 2^-(2^20) <= 2^-min(prec, 2^20)
        return (0, 0), (1, -min(prec, EXP_ARG_MAX))
    top = n.bit_length() + e - d.bit_length() + 1  # |x| < 2^top
    t = max(2, isqrt(min(max(n.bit_length(), d.bit_length()), prec)))
    s = max(0, top + t)  # |r| = |x| / 2^s < 2^-t
    wp = prec + s + 40 + prec.bit_length()
    sh = s - e  # r = n / (d 2^sh)
    if sh < 0:
        n, sh = n << -sh, 0
    total = term = 1 << wp
    j = 0
    while True:
        j += 1
        term = ((term * n) >> sh) // (d * j)
        total += term
        if -2 <= term <= 2:
            break
    M, R, E = total, 2 * j + 8, -wp  # exp(r) in [M - R, M + R] 2^E
    if M <= R:
        raise Undecided("exp: enclosure lost")  # cannot happen for |r| <= 1/4; kept as a guard
    for _ in range(s):
        M2 = M * M
        k = max(0, M2.bit_length() - wp)
        M, R, E = M2 >> k, ((2 * M * R + R * R) >> k) + 2, 2 * E + k
    return _cut(M - R, E, prec, False), _cut(M + R, E, prec, True)


def _atanh(a: int, b: int, W: int) -> tuple[int, int]:
    """Integers lo <= 2^W * 2 atanh(a/b) <= hi, for b > 0 and |a/b| <= 1/3.

    Integer fixed point with scale 2^W. For y = |a|/b: P_0 = floor(y 2^W) and P_{j+1} = floor(P_j y^2),
    each within 1.2 units of y^(2j+1) 2^W (the error contracts by y^2 <= 1/9 and each floor adds < 1); the
    term floor(P_j/(2j+1)) is within 2.2 units. The loop stops once P_j <= 1, where the true power is <= 2.2
    units and the tail sum_{i>=j} y^(2i+1)/(2i+1) <= 2.2 * 9/8 < 2.5 units. So |sum - 2^W atanh(y)| <=
    2.2 J + 2.5 < 3 J + 4 units; atanh is odd. A power-of-two b divides by shifting."""
    if a == 0:
        return 0, 0
    y = abs(a)
    k = b.bit_length() - 1 if b & (b - 1) == 0 else None
    y2, b2 = y * y, b * b
    P = (y << W) >> k if k is not None else (y << W) // b
    total, j = 0, 0
    while True:
        total += P // (2 * j + 1)
        j += 1
        P = (P * y2) >> (2 * k) if k is not None else (P * y2) // b2
        if P <= 1:
            break
    rem = 3 * j + 4
    lo, hi = 2 * (total - rem), 2 * (total + rem)
    return (lo, hi) if a > 0 else (-hi, -lo)


@lru_cache(maxsize=64)
def _ln2_at(W: int) -> tuple[int, int]:
    return _atanh(1, 3, W)  # log 2 = 2 atanh(1/3)


def _ln2(W: int) -> tuple[int, int]:
    """Integers lo <= 2^W log 2 <= hi, cut (floor, ceiling) from a cached computation at W rounded up to 256."""
    k = -W % 256
    lo, hi = _ln2_at(W + k)
    return lo >> k, -(-hi >> k)


@lru_cache(maxsize=4096)
def _log(n: int, e: int, d: int, prec: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Dyadic lo <= log(n 2^e / d) <= hi for n 2^e / d > 0.

    x = 2^E N/D with N/D in [2/3, 4/3); y = (N-D)/(N+D) has |y| <= 1/5 and log x = E log 2 + 2 atanh(y).
    An argument with a long numerator or denominator (> 96 bits) is split first: x0 = x cut down to 64
    bits, log x = log x0 + 2 atanh(w) with w = (x - x0)/(x + x0) in [0, 2^-63); w is replaced by its floor
    A/2^W at W bits, and 2 atanh(A/2^W) <= 2 atanh(w) <= 2 atanh(A/2^W) + 2.01 * 2^-W (mean value theorem),
    so the series runs on the short-denominator A/2^W and converges 126 bits a term."""
    if n <= 0:
        raise Undecided("log of a non-positive number")
    x = (n, e, d)
    if _sgn(x, (1, 0, 1)) == 0:
        return (0, 0), (0, 0)
    if max(n.bit_length(), d.bit_length()) > 96:
        m0, e0 = _cut(*_dyadic(x, 64, False), 64, False)  # 0 < x0 <= x
        f = min(e, e0)
        u, v = n << (e - f), (m0 * d) << (e0 - f)  # x = u 2^f / d, x0 = v 2^f / d
        A, B = u - v, u + v  # w = A / B
        if not A:
            return _log(m0, e0, 1, prec)
        W = prec + 40 + B.bit_length() - A.bit_length()
        (l0, h0), (alo, ahi) = _log(m0, e0, 1, prec + 8), _atanh((A << W) // B, 1 << W, W)
        return _add(l0, (alo, -W), prec, False), _add(h0, (ahi + 3, -W), prec, True)
    E = n.bit_length() + e - d.bit_length()
    N, D = n << max(0, d.bit_length() - n.bit_length()), d << max(0, n.bit_length() - d.bit_length())
    if 3 * N >= 4 * D:  # N/D in (1/2, 2): move it into [2/3, 4/3)
        D, E = 2 * D, E + 1
    elif 3 * N < 2 * D:
        N, E = 2 * N, E - 1
    a, b = N - D, N + D
    W = prec + abs(E).bit_length() + 24 + max(0, b.bit_length() - a.bit_length())
    alo, ahi = _atanh(a, b, W)
    l2lo, l2hi = _ln2(W)
    lo = alo + E * (l2lo if E >= 0 else l2hi)
    hi = ahi + E * (l2hi if E >= 0 else l2lo)
    return _cut(lo, -W, prec, False), _cut(hi, -W, prec, True)


# ------------------------------------------------------------------------------ Fraction interface

def exp_bounds(q, prec: int) -> tuple[Fraction, Fraction]:
    """Rational lo <= exp(q) <= hi for rational q, with about ``prec`` correct bits."""
    lo, hi = _exp(*_q(q), prec)
    return _frac(lo), _frac(hi)


def log_bounds(x, prec: int) -> tuple[Fraction, Fraction]:
    """Rational lo <= log(x) <= hi for rational x > 0."""
    lo, hi = _log(*_q(x), prec)
    return _frac(lo), _frac(hi)


def log2_bounds(prec: int) -> tuple[Fraction, Fraction]:
    W = prec + 16
    lo, hi = _ln2(W)
    return Fraction(lo, 1 << W), Fraction(hi, 1 << W)
