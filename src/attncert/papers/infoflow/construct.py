"""Built upper bounds: the Heaviside encoder/decoder of InfoFlow Theorem 6 (A.3, L824-896), with exact
weights, exact parameter counts and an exhaustive check over all dyadic cells.

For V in [0,1]^m (m = T0 d) and L = ceil(log2(2m/eps)) (L831):
  encoder f1: hidden units H(V_j - t 2^-L), t = 1..2^L - 1 (one per threshold per coordinate); their sum
  is c_j = floor(V_j 2^L) (saturating at 2^L - 1), whose L bits are packed, q = ceil(mL/n) per latent
  coordinate, into u_i = sum_s 2^-s bit (L859-868). Every output is linear in the hidden units, so the
  output weights are the exact differences g(c) - g(c-1) of the packed value g as a function of c.
  decoder f2: hidden units H(u_i - k 2^-q), k = 1..2^q - 1, recover floor(u_i 2^q) exactly on the packed
  values, and the output V^(L)_j = sum_l 2^-l b_{j,l} is again linear in them (L868-880).
Both networks are constant on every half-open dyadic cell prod_j [c_j 2^-L, (c_j + 1) 2^-L), so evaluating
each cell's corner exactly, plus the closed boundary V_j = 1, covers all of [0,1]^m: the round trip is
exhaustive, not sampled. H(0) = 1 as in L824. The tanh replacement (Lemma 1) is built in ``replace``."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from attncert.core.errors import InvalidParameter
from attncert.core.params import as_fraction, as_int, check_limit, sci

MAX_CELLS = 1 << 16
MAX_BITS = 10 ** 6   # entries of the bit assignment, m L: about 100 MB and 0.5 s at the limit


def _levels(m: int, n: int, eps: Fraction) -> tuple[int, int]:
    x = 2 * m / eps
    L = max(1, math.ceil(math.log2(x.numerator) - math.log2(x.denominator)))   # no float(x): eps may be 1e-400
    while Fraction(2) ** L < 2 * m / eps:  # exact ceil, guarding float log2
        L += 1
    while L > 1 and Fraction(2) ** (L - 1) >= 2 * m / eps:
        L -= 1
    q = -(-m * L // n)
    return L, q


@dataclass(slots=True, frozen=True)
class Thm6Construction:
    T0: int
    d: int
    n: int
    eps: Fraction
    m: int
    L: int
    q: int
    assignment: tuple[tuple[int, int, int, int], ...]   # (j, l) -> (i, s): bit l of coordinate j is bit s of latent i
    enc_hidden: int
    dec_hidden: int
    params_nonzero: int
    params_dense: int

    def encode_cell(self, c: tuple[int, ...]) -> tuple[Fraction, ...]:
        """u = f1(V) for V in the cell with corner c 2^-L (exact)."""
        u = [Fraction(0)] * self.n
        for (j, l, i, s) in self.assignment:
            bit = (c[j] >> (self.L - l)) & 1
            if bit:
                u[i] += Fraction(1, 1 << s)
        return tuple(u)

    def decode(self, u: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        """f2(u): Heaviside thresholds at k 2^-q recover floor(u_i 2^q), then the bits are re-weighted."""
        out = [Fraction(0)] * self.m
        # sum_{k=1}^{2^q-1} H(u_i - k 2^-q) = #{k >= 1 : k <= u_i 2^q}, i.e. min(floor(u_i 2^q), 2^q - 1) for u_i >= 0
        # (exactly the hidden layer's output sum, in closed form)
        counts = [min((u_i.numerator << self.q) // u_i.denominator, (1 << self.q) - 1) if u_i >= 0 else 0 for u_i in u]
        for (j, l, i, s) in self.assignment:
            bit = (counts[i] >> (self.q - s)) & 1
            if bit:
                out[j] += Fraction(1, 1 << l)
        return tuple(out)


def thm6(T0: int, d: int, n: int, eps) -> Thm6Construction:
    T0, d, n = as_int("T0", T0, 1), as_int("d", d, 1), as_int("n", n, 1)
    eps = as_fraction("eps", eps)
    if not 0 < eps < 1:
        raise InvalidParameter(f"eps={eps}: must be in (0, 1)")
    m = T0 * d
    if m <= n:
        raise InvalidParameter(f"T0 d = {m} <= n = {n}: the construction of A.3 is for T0 d > n (L824; L989 otherwise)")
    L, q = _levels(m, n, eps)
    check_limit(f"construct thm6 (T0={T0}, d={d}, n={n}, eps={eps if eps.denominator < 10 ** 12 else sci(eps)}): "
                f"the bit assignment has m L = {m} x {L} =", MAX_BITS, estimate=m * L, unit="entries",
                hint="use a smaller T0 d or a larger eps")
    bits = [(j, l) for j in range(m) for l in range(1, L + 1)]
    assignment = tuple((j, l, idx // q, idx % q + 1) for idx, (j, l) in enumerate(bits))
    enc_hidden = m * ((1 << L) - 1)
    dec_hidden = n * ((1 << q) - 1)
    # nonzero parameters: each hidden unit reads one input (weight + bias); dense output layers
    params_nonzero = 2 * enc_hidden + n * enc_hidden + n + 2 * dec_hidden + m * dec_hidden + m
    params_dense = (m + 1) * enc_hidden + (enc_hidden + 1) * n + (n + 1) * dec_hidden + (dec_hidden + 1) * m
    return Thm6Construction(T0, d, n, eps, m, L, q, assignment, enc_hidden, dec_hidden, params_nonzero, params_dense)


def exhaustive_roundtrip(con: Thm6Construction, max_cells: int = MAX_CELLS) -> dict:
    """Check the round trip on every dyadic cell and on the boundary V_j = 1, in exact arithmetic.
    Returns the worst sup-norm error over [0,1]^m (attained at the right ends of cells: 2^-L)."""
    check_limit(f"exhaustive check: 2^(L m) cells (L = {con.L}, m = {con.m}), that is", max_cells,
                **({"estimate": 1 << (con.L * con.m)} if con.L * con.m <= 100 else {"log10": con.L * con.m * math.log10(2)}),
                unit="cells", hint="use a larger eps (the limit is max_cells)")
    cells = (1 << con.L) ** con.m
    h = Fraction(1, 1 << con.L)
    worst = Fraction(0)
    top = (1 << con.L) - 1
    for c in itertools.product(range(1 << con.L), repeat=con.m):
        out = con.decode(con.encode_cell(c))
        if out != tuple(ci * h for ci in c):
            raise AssertionError(f"round trip fails on cell {c}")
        # sup over the half-open cell: V_j in [c_j h, (c_j + 1) h) -> error < h, and V_j = 1 lies in the top cell's
        # closure with the top cell's output 1 - h: error exactly h
        worst = max(worst, h)
    assert con.decode(con.encode_cell((top,) * con.m)) == tuple(1 - h for _ in range(con.m))
    return {"cells": cells, "worst_sup_error": worst, "bound_eps_over_2m": con.eps / (2 * con.m),
            "ok": worst <= con.eps / (2 * con.m)}


def sweep(T0: int, d: int, n: int, exps=range(3, 17)) -> dict:
    """Parameter counts for eps = 2^-e, and the least-squares slope of log(count) against log(1/eps) over
    the upper half of the sweep, beside the predicted exponent T0 d / n."""
    rows = []
    m = T0 * d
    for e in exps:
        if m * _levels(m, n, Fraction(1, 1 << e))[0] > MAX_BITS:   # the smaller eps of the sweep may not fit
            break
        c = thm6(T0, d, n, Fraction(1, 1 << e))
        rows.append({"eps": f"1/{1 << e}", "log2_inv_eps": e, "L": c.L, "q": c.q, "params_nonzero": c.params_nonzero,
                     "params_dense": c.params_dense})
    if len(rows) < 4:
        raise InvalidParameter(f"sweep: T0 d = {m} leaves {len(rows)} of the eps = 2^-3 .. 2^-16 within the size limit "
                               f"m L <= {MAX_BITS}; at least 4 are needed for a fit")
    tail = rows[len(rows) // 2:]
    xs = [r["log2_inv_eps"] * math.log(2) for r in tail]
    ys = [math.log(r["params_nonzero"]) for r in tail]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return {"T0": T0, "d": d, "n": n, "rows": rows, "fitted_exponent": slope, "predicted_exponent": T0 * d / n}
