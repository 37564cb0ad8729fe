"""Explicit, certified bounds: every O/Omega of a theorem as a constant, an exponent and thresholds.

Values that are irrational (fractional powers) are given as rigorous rational enclosures [lo, hi],
computed with the checker's own interval arithmetic (``checker.qarith``: Taylor/atanh bounds with
explicit remainders), so they need no optional dependency."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from math import floor

from .checker.qarith import exp_bounds, log_bounds
from .errors import InvalidParameter
from .params import as_fraction, as_int

PREC = 128


def _pow(x: Fraction, s: Fraction) -> tuple[Fraction, Fraction]:
    """Rigorous enclosure of x**s for rational x > 0 and rational s."""
    if x == 1 or s == 0:
        return Fraction(1), Fraction(1)
    llo, lhi = log_bounds(Fraction(x), PREC)
    a, b = sorted((s * llo, s * lhi))
    return exp_bounds(a, PREC)[0], exp_bounds(b, PREC)[1]


@dataclass(slots=True, frozen=True)
class Interval:
    lo: Fraction
    hi: Fraction

    def to_json(self):
        return {"lo": str(self.lo), "hi": str(self.hi), "approx": float((self.lo + self.hi) / 2)}


@dataclass(slots=True, frozen=True)
class Thm5Bound:
    """Theorem 5 (InfoFlow A.2), made explicit for one (T, k, n, eps).

    Any f2 (two-layer tanh, weights <= 1, hidden width p) that, composed with an attention layer as in
    (44), eps-approximates F_k needs p >= width_lower >= C * eps^(1 - m/(n+1)) with m = T - k + 1.
    """

    T: int
    k: int
    n: int
    eps: Fraction
    m: int
    eps_max: Fraction            # the proof needs 0 < eps < eps_max = 1/(64 m)   (L609)
    Delta: Fraction              # 4 eps                                           (L613)
    N: int                       # floor(1/(16 m eps))                             (L613)
    N0_printed_count: int        # the printed cube count needs N >= N0 = floor((4/3)^((n+1)/m)) + 1 (L647)
    printed_count_applies: bool  # N >= N0; the exact count needs no threshold
    eta: Interval                # 4 m N^(-m/(n+1))                                (L641)
    width_lower: Interval        # (k-1) eps / (n eta)                             (L766)
    width_lower_int: int         # smallest integer width allowed: ceil of width_lower.lo
    exponent: Fraction           # p >= C * (1/eps)^exponent, exponent = m/(n+1) - 1  (L790)
    C: Interval                  # (k-1)/(4 m n) * (3/(64 m))^(m/(n+1))          (L786, explicit)
    C_eps_bound: Interval        # C * eps^(1 - m/(n+1)), valid for every eps in (0, eps_max)
    exponent_formal: Fraction    # Theorem 5 as stated: (T-k)/(n+1) - 1            (L577)
    exponent_informal: Fraction  # Theorem 2 as stated: (T-k-1)/(n+1) - 1          (L88)
    uses: tuple[str, ...] = ("infoflow.thm5.width_bound_766", "infoflow.thm5.final_bound_786",
                             "infoflow.thm5.cube_count_exact_lt_Nm.n1", "infoflow.thm5.grid_points_in_half")

    def to_json(self) -> dict:
        out = {}
        for k_, v in asdict(self).items():
            if isinstance(v, Fraction):
                out[k_] = str(v)
            elif isinstance(v, dict) and set(v) == {"lo", "hi"}:
                out[k_] = Interval(v["lo"], v["hi"]).to_json()
            elif isinstance(v, tuple):
                out[k_] = list(v)
            else:
                out[k_] = v
        return {"schema": "attncert.bound/1", "theorem": "infoflow:Thm 5 (A.2)", **out}


def thm5(T: int, k: int, n: int, eps) -> Thm5Bound:
    """The explicit lower bound of Theorem 5 for concrete parameters (see ``Thm5Bound``)."""
    T = as_int("T", T, 2)
    k = as_int("k", k, 2)
    n = as_int("n", n, 1)
    if k > T:
        raise InvalidParameter(f"k={k}: must be <= T={T}")
    eps = as_fraction("eps", eps)
    m = T - k + 1
    eps_max = Fraction(1, 64 * m)
    if not (0 < eps < eps_max):
        raise InvalidParameter(f"eps={eps}: must be in (0, 1/(64 m)) = (0, {eps_max}) for m = T - k + 1 = {m}")
    N = floor(1 / (16 * m * eps))
    s = Fraction(m, n + 1)
    # N0: smallest N with N^(m/(n+1)) > 4/3, i.e. N > (4/3)^((n+1)/m)
    lo, hi = _pow(Fraction(4, 3), Fraction(n + 1, m))
    N0 = floor(hi) + 1 if floor(lo) == floor(hi) else None
    if N0 is None:  # enclosure straddles an integer: decide exactly by comparing N^m with (4/3)^(n+1)
        N0 = next(c for c in range(max(1, floor(lo)), floor(hi) + 2) if Fraction(c) ** m > Fraction(4, 3) ** (n + 1))
    ylo, yhi = _pow(Fraction(N), s)                      # N^(m/(n+1))
    eta = Interval(4 * m / yhi, 4 * m / ylo)
    wl = Interval((k - 1) * eps / (n * eta.hi), (k - 1) * eps / (n * eta.lo))
    clo, chi = _pow(Fraction(3, 64 * m), s)
    C = Interval(Fraction(k - 1, 4 * m * n) * clo, Fraction(k - 1, 4 * m * n) * chi)
    elo, ehi = _pow(eps, 1 - s)
    Ce = Interval(C.lo * elo, C.hi * ehi)
    width_int = -(-wl.lo.numerator // wl.lo.denominator)
    return Thm5Bound(T=T, k=k, n=n, eps=eps, m=m, eps_max=eps_max, Delta=4 * eps, N=N, N0_printed_count=N0,
                     printed_count_applies=N >= N0, eta=eta, width_lower=wl, width_lower_int=width_int,
                     exponent=s - 1, C=C, C_eps_bound=Ce, exponent_formal=Fraction(T - k, n + 1) - 1,
                     exponent_informal=Fraction(T - k - 1, n + 1) - 1)


BOUNDS = {"thm5": thm5}
