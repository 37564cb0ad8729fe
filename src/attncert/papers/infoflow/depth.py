"""InfoFlow Theorem 1 / Theorem 4 (Appendix A.1): the concrete objects of the single-layer lower bound.

The points b_1..b_{H+1} of Q0 (10) with conditions (1) and (2), and the constant C of L = C/H. Every
point is an exact rational point of the unit sphere (inverse stereographic projection of a rational
(u, v)), so conditions (1) and (2) are decided in exact arithmetic; no square root is ever rounded.
"""

from __future__ import annotations

import math
from fractions import Fraction

from attncert.core.errors import InvalidParameter

#: L = C/H with this absolute constant works for every H = 1..8 (checked exactly, see b_points)
C_ABS = Fraction(1, 16)
MAX_H = 64


def sphere_point(t1: float, t2: float) -> tuple[Fraction, Fraction, Fraction]:
    """An exact rational point of S^2 with x3 < 0 near (t1, t2, -sqrt(1 - t1^2 - t2^2))."""
    t3 = -math.sqrt(1 - t1 * t1 - t2 * t2)
    u = Fraction(t1 / (1 - t3)).limit_denominator(64)
    v = Fraction(t2 / (1 - t3)).limit_denominator(64)
    r = u * u + v * v
    return (2 * u / (1 + r), 2 * v / (1 + r), (r - 1) / (1 + r))


def b_points(H: int) -> tuple[Fraction, list[tuple[Fraction, Fraction, Fraction]]]:
    """(L, [b_1..b_{H+1}]) with L = C_ABS/H: a g x g grid (g = ceil(sqrt(H+1))) in the (x1, x2) square
    [-1/2 + L, -L]^2, lifted to the lower hemisphere. Conditions (1) and (2) are checked exactly here
    (and again, as obligations, by the SMT solvers)."""
    if not 1 <= H <= MAX_H:
        raise InvalidParameter(f"H must be an integer in [1, {MAX_H}], got {H}")
    L = C_ABS / H
    g = math.isqrt(H) + (0 if math.isqrt(H) ** 2 == H + 1 else 1)
    while g * g < H + 1:
        g += 1
    half = Fraction(1, 4) - L - Fraction(1, 100)
    s = 2 * half / (g - 1)
    pts = []
    for i in range(g):
        for j in range(g):
            if len(pts) < H + 1:
                pts.append(sphere_point(float(-Fraction(1, 4) - half + i * s), float(-Fraction(1, 4) - half + j * s)))
    bad = [k for k, p in enumerate(pts) if not conditions_hold(p, L, pts)]
    if bad:
        raise InvalidParameter(f"internal: the grid for H = {H} fails condition (1) or (2) at b_{bad[0] + 1}")
    return L, pts


def dist2(p, q) -> Fraction:
    return sum(((a - b) ** 2 for a, b in zip(p, q)), Fraction(0))


def conditions_hold(p, L, pts) -> bool:
    """Exact: p on S^2, the coordinate margins that imply (2) (lemma infoflow.thm4.ball_in_Q0), and (1)."""
    on_sphere = sum(c * c for c in p) == 1
    margins = -Fraction(1, 2) + L <= p[0] <= -L and -Fraction(1, 2) + L <= p[1] <= -L and p[2] < -L
    sep = all(dist2(p, q) >= 16 * L * L for q in pts if q is not p)
    return on_sphere and margins and sep


def largest_L(pts) -> float:
    """The largest L the points support (min of pairwise distance / 4 and the coordinate margins)."""
    d = min(math.sqrt(float(dist2(p, q))) / 4 for k, p in enumerate(pts) for q in pts[k + 1:])
    m = min(min(float(p[0] + Fraction(1, 2)), float(-p[0]), float(p[1] + Fraction(1, 2)), float(-p[1])) for p in pts)
    return min(d, m)
