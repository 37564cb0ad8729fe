"""Explicit, certified bounds: every O/Omega of a theorem as a constant, an exponent and thresholds.

Values that are irrational (fractional powers) are given as rigorous rational enclosures [lo, hi],
computed from arb balls (python-flint; the checker has its own, independent exp and log)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from math import floor, log10

from attncert.core.errors import InvalidParameter
from attncert.numeric.evaluate import exp_enclosure as exp_bounds
from attncert.numeric.evaluate import log_enclosure as log_bounds
from attncert.core.params import MAX_DIGITS, as_fraction, as_int, check_limit, log10_of, sci

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
        mid = (self.lo + self.hi) / 2
        # approx: a float, or (beyond the float range) the value in scientific form as a string
        approx = float(mid) if mid == 0 or abs(log10_of(mid)) < 300 else sci(mid, digits=7)
        return {"lo": str(self.lo), "hi": str(self.hi), "approx": approx}


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


def _record_json(rec, theorem: str) -> dict:
    """A bound record as attncert.bound/1 JSON: rationals as strings, intervals with an approximation."""
    out = {}
    for k_, v in asdict(rec).items():
        if isinstance(v, Fraction):
            out[k_] = str(v)
        elif isinstance(v, dict) and set(v) == {"lo", "hi"}:
            out[k_] = Interval(v["lo"], v["hi"]).to_json()
        elif isinstance(v, tuple):
            out[k_] = list(v)
        else:
            out[k_] = v
    return {"schema": "attncert.bound/1", "theorem": theorem, **out}


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
        return _record_json(self, "infoflow:Thm 5 (A.2)")


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
    _thm5_size(T, k, n, m, eps, N)
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
    width_int = _ceil(wl.lo)
    return Thm5Bound(T=T, k=k, n=n, eps=eps, m=m, eps_max=eps_max, Delta=4 * eps, N=N, N0_printed_count=N0,
                     printed_count_applies=N >= N0, eta=eta, width_lower=wl, width_lower_int=width_int,
                     exponent=s - 1, C=C, C_eps_bound=Ce, exponent_formal=Fraction(T - k, n + 1) - 1,
                     exponent_informal=Fraction(T - k - 1, n + 1) - 1)


def _thm5_size(T, k, n, m, eps, N) -> None:
    """Refuse, before any enclosure is computed, a bound whose exact rationals would be astronomically long:
    N = floor(1/(16 m eps)), 1/eta ~ N^(m/(n+1)), C ~ (3/(64 m))^(m/(n+1)) and C eps^(1 - m/(n+1))."""
    sf = m / (n + 1)
    lN, le = log10_of(N), log10_of(eps)
    lC = log10((k - 1) / (4 * m * n)) + sf * log10(3 / (64 * m))
    digits = max(lN, sf * lN + log10(m), abs(lC), abs(lC + (1 - sf) * le), abs(log10(k - 1) + le - log10(n) + sf * lN))
    check_limit(f"bound thm5 (T={T}, k={k}, n={n}, eps={_short(eps)}): its exact numbers (N, eta = 4 m N^(-m/(n+1)), "
                f"the width bound, C) would have", MAX_DIGITS, estimate=round(digits), unit="digits",
                hint="use a larger eps or a smaller m/(n+1) = (T - k + 1)/(n + 1)")


def _short(x: Fraction) -> str:
    """A rational as written when short, else in scientific form (never a long integer)."""
    if x != 0 and log10_of(x.numerator) + log10_of(x.denominator) > 24:
        return sci(x, digits=4)
    return str(x)


def _sqrt_bounds(x: int, scale: int = 10 ** 12) -> tuple[Fraction, Fraction]:
    from math import isqrt

    r = isqrt(x * scale * scale)
    return Fraction(r, scale), Fraction(r + 1, scale)


@dataclass(slots=True, frozen=True)
class Thm4Bound:
    """Theorem 4, first part (InfoFlow A.1), made explicit for one (T, H, n, eps).

    The pigeonhole of (13) with explicit cells: per head, the n-dimensional attention average (in the ball
    of radius sqrt(nE), infoflow.thm4.values_norm_repaired_general) is cut into cubes of a rational side
    s_cell <= eps^(k+1)/(6 T sqrt n), and the sum of weights (in [M_i, T M_i]) into geometric cells of
    ratio 1 + delta_cell, delta_cell <= eps^(k+1)/(24 T^2 R), R >= sqrt(nE): the paper's delta of L400 divided
    by the repaired norm bound, as the chain (16)-(38) needs once ||V_j|| <= sqrt(nE) (infoflow.thm4.chain_r.*).
    Two sequences in one cell of every head satisfy the conditions of L396-402 with that delta. The pigeonhole
    applies when choices = m^T0 > cells (exact integers).
    """

    T: int
    H: int
    n: int
    eps: Fraction
    T0: int                      # T - H - 1
    k: Fraction                  # T0/(H(n+1)+1) - 1                                    (Thm 4)
    k_informal: Fraction         # (T-2H)/(H(n+1)+1) - 1                                 (Thm 1)
    C: Fraction                  # L = C/H (attncert.papers.infoflow.depth.b_points, checked for H = 1..8)
    L: Fraction
    eps_U: Fraction              # U_j non-empty needs eps <= L^2/(4 T0)
    m: int                       # |U_j| = floor(L^2/(4 T0 eps))
    choices_digits: int          # decimal digits of m^T0
    s_cell: Fraction             # cube side (rational, <= eps^(k+1)/(6 T sqrt n))
    cells_average: int           # ceil(2 R / s_cell)^n per head, R = sqrt(nE) rounded up
    delta_cell: Fraction         # <= eps^(k+1)/(24 T^2 R), R = sqrt(nE) rounded up (infoflow.thm4.chain_r.20_22)
    cells_ratio: int             # ceil(log T / log(1 + delta_cell)) per head (rigorous)
    cells_digits: int            # decimal digits of (cells_average * cells_ratio)^H
    pigeonhole_applies: bool     # m^T0 > cells, decided exactly
    eps0: Interval               # explicit threshold: every eps < eps0.lo has the pigeonhole
    lemma4_ratio: Interval | None  # B/(A sqrt E) with B = 2 eps, A = E sqrt(H) eps^(k+1)/2: the Omega's argument;
    #                              None when the pigeonhole does not apply at this eps (then no bound follows)
    uses: tuple[str, ...] = ("infoflow.thm4.values_norm_repaired_general", "infoflow.thm4.cube_cell_diameter",
                             "infoflow.thm4.ratio_cell", "infoflow.thm4.avg_cells_bound",
                             "infoflow.thm4.ratio_cells_bound", "infoflow.thm4.floor_half",
                             "infoflow.thm4.pigeonhole_threshold", "infoflow.thm4.chain_r.20_22",
                             "infoflow.thm4.lemma4_exponent",
                             "infoflow.thm4.lemma4_A_repaired")

    def to_json(self) -> dict:
        return _record_json(self, "infoflow:Thm 4 (A.1), first part")


def _log_hi(x: Fraction) -> Fraction:
    return log_bounds(Fraction(x), PREC)[1]


def _log_lo(x: Fraction) -> Fraction:
    return log_bounds(Fraction(x), PREC)[0]


def thm4(T: int, H: int, n: int, eps) -> Thm4Bound:
    """The explicit pigeonhole of Theorem 4's lower bound for concrete parameters (see ``Thm4Bound``)."""
    from attncert.papers.infoflow.depth import C_ABS, MAX_H

    T = as_int("T", T, 2)
    H = as_int("H", H, 1)
    n = as_int("n", n, 1)
    if H > MAX_H:
        raise InvalidParameter(f"H={H}: must be <= {MAX_H}")
    if n > 64:
        raise InvalidParameter(f"n={n}: must be <= 64")
    if T < H + 2:
        raise InvalidParameter(f"T={T}: must be >= H + 2 = {H + 2} (the proof needs T0 = T - H - 1 > 0)")
    if T > 4096:
        raise InvalidParameter(f"T={T}: must be <= 4096")
    eps = as_fraction("eps", eps)
    if not 0 < eps < 1:
        raise InvalidParameter(f"eps={eps}: must be in (0, 1)")
    T0 = T - H - 1
    s = Fraction(T0, H * (n + 1) + 1)                      # k + 1
    L = C_ABS / H
    E = n * H
    R_hi = _sqrt_bounds(n * E)[1]
    sqn_lo, sqn_hi = _sqrt_bounds(n)
    m = floor(L * L / (4 * T0 * eps))
    # the exact pigeonhole compares m^T0 with the cell count; estimate their digits before building them
    le = log10_of(eps)
    cells_log = H * (n * (log10(2 * float(R_hi) * 6 * T * float(sqn_hi)) - float(s) * le)
                     + log10(24 * T * T * float(R_hi) * (1 + 2 * log10(T))) - float(s) * le)
    digits = max(T0 * log10_of(m) if m else 0.0, cells_log)
    check_limit(f"bound thm4 (T={T}, H={H}, n={n}, eps={_short(eps)}): the exact pigeonhole (13) would compare integers "
                f"(m^T0 and the cell count) of", MAX_DIGITS, estimate=round(digits), unit="digits",
                hint="use a larger eps or a smaller T")
    ek_lo, ek_hi = _pow(eps, s)                            # eps^(k+1)
    s_cell = ek_lo / (6 * T * sqn_hi)
    cells_avg = _ceil(2 * R_hi / s_cell) ** n
    delta_cell = ek_lo / (24 * T * T * R_hi)   # delta' = delta / sqrt(nE) (the repaired chain, chain_r.20_22)
    # log(1 + delta) >= delta/(1 + delta) (exact; a 128-bit log enclosure of 1 + 1e-100 would be useless)
    ratio_hi = _log_hi(Fraction(T)) * (1 + delta_cell) / delta_cell
    cells_ratio = max(1, _ceil(ratio_hi))
    cells = (cells_avg * cells_ratio) ** H
    choices = m ** T0
    # eps0 = min(L^2/(8 T0), exp(-(log K - T0 log(L^2/(8 T0)))/s)),
    # K = [((2R + 1) 6 T sqrt n)^n (2 log T + 1) 24 T^2 R]^H  (infoflow.thm4.pigeonhole_threshold)
    base = L * L / (8 * T0)
    lT_hi = _log_hi(Fraction(T))
    lK_hi = H * (n * _log_hi((2 * R_hi + 1) * 6 * T * sqn_hi) + _log_hi(2 * lT_hi + 1) + _log_hi(24 * T * T * R_hi))
    lK_lo = H * (n * _log_lo((2 * R_hi + 1) * 6 * T * sqn_lo) + _log_lo(2 * lT_hi + 1) + _log_lo(24 * T * T * R_hi))
    ell_hi = (lK_hi - T0 * _log_lo(base)) / s
    ell_lo = (lK_lo - T0 * _log_hi(base)) / s
    e_lo, e_hi = exp_bounds(-ell_hi, PREC)[0], exp_bounds(-ell_lo, PREC)[1]
    eps0 = Interval(min(base, e_lo), min(base, e_hi))
    # Lemma 4 (cited): params = Omega(B/(A sqrt E)), B = 2 eps, A = E sqrt(H) eps^(k+1)/2
    sh_lo, sh_hi = _sqrt_bounds(H)
    E32_lo, E32_hi = _pow(Fraction(E), Fraction(3, 2))
    applies = choices > cells
    l4 = Interval(4 * eps / (E32_hi * sh_hi * ek_hi), 4 * eps / (E32_lo * sh_lo * ek_lo)) if applies else None
    return Thm4Bound(T=T, H=H, n=n, eps=eps, T0=T0, k=s - 1, k_informal=Fraction(T - 2 * H, H * (n + 1) + 1) - 1,
                     C=C_ABS, L=L, eps_U=L * L / (4 * T0), m=m, choices_digits=len(str(choices)) if choices else 0,
                     s_cell=s_cell, cells_average=cells_avg, delta_cell=delta_cell, cells_ratio=cells_ratio,
                     cells_digits=len(str(cells)), pigeonhole_applies=applies, eps0=eps0, lemma4_ratio=l4)


BOUNDS = {"thm4": thm4, "thm5": thm5}
