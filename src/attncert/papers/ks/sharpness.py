"""Sharpness experiment for Lemma 1 of Kajitsuka-Sato (ICLR 2024, section 3.4, eqs (14)-(16)).

Lemma 1: if a, b in R^n are tokenwise (r, delta)-separated (every |entry| < r; two *distinct* values
among all entries of a and b differ by more than delta; no duplicate inside one vector) and
delta > 2 log n + 3 (14), then |boltz(a) - boltz(b)| > (log n)^2 e^{-2r} (16) whenever a != b.

This module looks, for a given n and delta (below the hypothesis (14)), for a pair (a, b) that is
tokenwise delta-separated but violates the conclusion (16):

    |boltz(a) - boltz(b)| <= (log n)^2 e^{-2r},  r = max |entry| + 1/1000.

Every pair that is returned is confirmed rigorously: separation with exact Fractions, the gap with
python-flint arb balls (the ball for |boltz(a) - boltz(b)| lies strictly below the ball for the
bound). A search that finds nothing proves nothing: it only reports the region it searched.

Search space. boltz and the difference are shift invariant (boltz(a + c) = boltz(a) + c), so a pair
is described by
  * the sorted union v_0 > v_1 > ... > v_{m-1} of the entries of a and b (n + 1 <= m <= 2n), given by
    its gaps g_i = v_{i-1} - v_i, all > delta (that is exactly tokenwise delta-separation), and
  * a membership pattern: each v_i belongs to a only, to b only, or to both, with |a| = |b| = n.
The union is centred (v_0 ~ -v_{m-1}) so that r = span/2 + 1/1000 is as small as possible, which
makes the bound (log n)^2 e^{-2r} = (log n)^2 e^{-span - 1/500} as large as possible. The search
minimises  phi = log|boltz(a) - boltz(b)| - log bound  over gaps (counterexample iff phi <= 0):
random sampling of every pattern, compass search on the most promising ones, and, when the
difference changes sign, a bisection to a root (boltz is not monotone in its lowest entries, so
exact ties occur). The final point is rounded to dyadic rationals p/2^20; if that is not enough, one
gap is refined by exact dyadic bisection (finer denominator) with arb signs.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import numpy as np

from attncert.numeric.evaluate import arb_prec

EPS_R = Fraction(1, 1000)  # r = max |entry| + EPS_R
GRID = 20  # dyadic grid 2^-GRID for the rounded point
MARGIN = 4  # gaps are kept >= gap_floor(delta) = (floor(delta 2^GRID) + MARGIN) / 2^GRID > delta
GAP_CAP = 40.0  # gaps are sampled in [gap_floor(delta), gap_floor(delta) + GAP_CAP]
SAMPLES = 600  # random gap vectors per union size (shared by its patterns)
CORNER_POINTS = 64  # plus, per gap, a line of points with every other gap at the minimum
REFINE = 12  # patterns refined by compass search when no root was found
ARB_BITS = 256

# --------------------------------------------------------------------------- patterns


@lru_cache(maxsize=None)
def patterns(n: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """All membership patterns (indices of a, indices of b in the sorted union), up to swapping a, b."""
    out = []
    for m in range(n + 1, 2 * n + 1):
        common = 2 * n - m
        for both in itertools.combinations(range(m), common):
            rest = [i for i in range(m) if i not in both]
            for only_a in itertools.combinations(rest, n - common):
                ia = tuple(sorted(both + only_a))
                ib = tuple(sorted(set(range(m)) - set(only_a)))
                if ib < ia:  # |D| is symmetric in (a, b): keep one of the two
                    continue
                out.append((ia, ib))
    return tuple(out)


def pattern_str(ia: Sequence[int], ib: Sequence[int]) -> str:
    """'C' = entry of both, 'A' = of a only, 'B' = of b only; top of the union first."""
    m = max(max(ia), max(ib)) + 1
    return "".join("C" if (i in ia and i in ib) else ("A" if i in ia else "B") for i in range(m))


# --------------------------------------------------------------------------- float objective


@lru_cache(maxsize=None)
def _pairs(ia, ib):
    """Index arrays of the pairs (i in a, j in b) with i != j: the only non-zero terms below."""
    P = [(i, j) for i in ia for j in ib if i != j]
    return np.array([p[0] for p in P]), np.array([p[1] for p in P])


def _eval(G: np.ndarray, ia, ib, log_l2: float, V: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """sign(boltz(a) - boltz(b)) and phi = log|diff| - log bound for rows of gaps G (S x (m-1)).

    boltz(a) - boltz(b) = sum_{i in a, j in b, i != j} e^{v_i + v_j} (v_i - v_j) / (Z_a Z_b),
    evaluated with a max-shift of the exponents so that deep entries do not underflow."""
    if V is None:
        V = np.concatenate([np.zeros((G.shape[0], 1)), -np.cumsum(G, axis=1)], axis=1)
    I, J = _pairs(ia, ib)
    VI, VJ = V[:, I], V[:, J]
    E = VI + VJ
    M = E.max(axis=1)
    N = (np.exp(E - M[:, None]) * (VI - VJ)).sum(axis=1)
    VA, VB = V[:, list(ia)], V[:, list(ib)]
    mA, mB = VA[:, 0], VB[:, 0]  # the union is sorted decreasingly
    logZ = mA + np.log(np.exp(VA - mA[:, None]).sum(1)) + mB + np.log(np.exp(VB - mB[:, None]).sum(1))
    span = -V[:, -1]
    with np.errstate(divide="ignore"):
        phi = np.log(np.abs(N)) + M - logZ + span + 2 * float(EPS_R) - log_l2
    return np.sign(N), phi


def _bisect_float(x_pos, x_neg, ia, ib, log_l2, sgn_pos, iters=80):
    """Bisection on the segment between two gap vectors with opposite signs of the difference."""
    lo, hi = np.array(x_pos, float), np.array(x_neg, float)
    for _ in range(iters):
        mid = (lo + hi) / 2
        s, _ = _eval(mid[None, :], ia, ib, log_l2)
        if s[0] == 0:
            return mid
        if s[0] == sgn_pos:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _compass(x0, lo, ia, ib, log_l2, step=0.5, tol=1e-7, max_iter=400):
    """Bound-constrained compass search minimising phi; stops early at a sign change."""
    x = np.array(x0, float)
    s0, f = _eval(x[None, :], ia, ib, log_l2)
    s0, f = s0[0], f[0]
    d = x.size
    it = 0
    while step > tol and it < max_iter:
        it += 1
        T = np.repeat(x[None, :], 2 * d, axis=0)
        T[np.arange(d), np.arange(d)] += step
        T[d + np.arange(d), np.arange(d)] -= step
        T = np.maximum(T, lo)
        s, ph = _eval(T, ia, ib, log_l2)
        flip = np.nonzero(s == -s0)[0]
        if s0 != 0 and flip.size:
            return x, f, ("root", x.copy(), T[flip[0]].copy(), s0)
        k = int(np.argmin(ph))
        if ph[k] < f - 1e-12:
            x, f = T[k], ph[k]
            s0 = s[k]
        else:
            step /= 2
    return x, f, None


# --------------------------------------------------------------------------- exact / arb side


def gap_floor(delta: Fraction) -> Fraction:
    """The smallest gap used for this delta: a dyadic p/2^GRID a few grid steps above delta."""
    return Fraction(math.floor(delta * 2**GRID) + MARGIN, 2**GRID)


def _dyadic(x: float, bits: int = GRID) -> Fraction:
    return Fraction(round(x * 2**bits), 2**bits)


def _pair_from_gaps(gaps: Sequence[Fraction], ia, ib) -> tuple[list[Fraction], list[Fraction]]:
    span = sum(gaps, Fraction(0))
    top = Fraction(round(span / 2 * 2**GRID), 2**GRID)  # centred: r ~ span / 2
    v = [top]
    for g in gaps:
        v.append(v[-1] - g)
    return [v[i] for i in ia], [v[i] for i in ib]


def _arb(q: Fraction):
    import flint

    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def _arb_diff(a, b):
    """arb ball for boltz(a) - boltz(b) (caller sets the precision)."""
    import flint

    def bz(xs):
        xs = [_arb(x) for x in xs]
        w = [x.exp() for x in xs]
        return sum((x * wi for x, wi in zip(xs, w)), flint.arb(0)) / sum(w, flint.arb(0))

    return bz(a) - bz(b)


def _arb_bound(n: int, r: Fraction):
    """arb ball for (log n)^2 e^{-2r}."""
    import flint

    return flint.arb(n).log() ** 2 * (-2 * _arb(r)).exp()


def _upper_fraction(x) -> Fraction:
    """An exact rational >= every point of the arb ball x (x >= 0)."""
    man, exp = x.abs_upper().man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _lower_fraction(x) -> Fraction:
    """An exact rational <= every point of the arb ball x (x > 0)."""
    man, exp = x.abs_lower().man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _decimal(q: Fraction, up: bool, digits: int = 6) -> str:
    """A decimal string >= q (up) or <= q (not up), q > 0, with `digits` significant digits."""
    if q == 0:
        return "0"
    e = math.floor(math.log10(q)) - digits + 1
    scale = Fraction(10) ** e
    k = str(math.ceil(q / scale) if up else math.floor(q / scale))  # written as d.ddddd e(exponent)
    return f"{k[0]}.{k[1:]}e{e + len(k) - 1}"


def _decimal_up(q: Fraction, digits: int = 6) -> str:
    return _decimal(q, True, digits)


def check_pair(n: int, delta: Fraction, a: Sequence[Fraction], b: Sequence[Fraction],
               r: Fraction | None = None) -> dict:
    """Rigorous check that (a, b) is a counterexample to (16) at this delta.

    Separation exactly (Fractions), the gap with arb balls at ARB_BITS bits. Returns a dict with
    'ok' and the evidence; 'ok' is True only when every condition is certain."""

    a, b = [Fraction(x) for x in a], [Fraction(x) for x in b]
    if r is None:
        r = max(abs(x) for x in a + b) + EPS_R
    vals = sorted(set(a) | set(b))
    sep = min((y - x for x, y in zip(vals, vals[1:])), default=None)
    conds = {
        "lengths": len(a) == n and len(b) == n,
        "no_duplicates": len(set(a)) == n and len(set(b)) == n,
        "different": sorted(a) != sorted(b),
        "bounded": all(abs(x) < r for x in a + b),
        "separated": sep is not None and sep > delta,
    }
    with arb_prec(ARB_BITS):
        gap = abs(_arb_diff(a, b))
        bound = _arb_bound(n, r)
        conds["gap_below_bound"] = bool(gap < bound)  # arb: True only if certain
        gap_up = _upper_fraction(gap)
        bound_lo = _lower_fraction(bound)
    return {
        "ok": all(conds.values()),
        "conditions": conds,
        "min_separation": sep,
        "gap_upper": _decimal_up(gap_up),
        "bound_lower": _decimal(bound_lo, False),
        "r": r,
    }


def _arb_sign_and_ok(n, delta, gaps, ia, ib):
    """(sign of boltz(a) - boltz(b) or 0 if unknown, counterexample?, a, b) at exact gaps."""

    a, b = _pair_from_gaps(gaps, ia, ib)
    r = max(abs(x) for x in a + b) + EPS_R
    with arb_prec(ARB_BITS):
        d = _arb_diff(a, b)
        ok = bool(abs(d) < _arb_bound(n, r))
        sgn = 1 if d > 0 else (-1 if d < 0 else 0)
    return sgn, ok, a, b


def _finalize(n, delta, x, ia, ib, log_l2):
    """Round a float candidate to dyadics and confirm it; refine one gap by dyadic bisection if needed."""
    lo_q = gap_floor(delta)
    gaps = [max(_dyadic(g), lo_q) for g in x]
    sgn, ok, a, b = _arb_sign_and_ok(n, delta, gaps, ia, ib)
    if not ok and sgn != 0:
        # which gaps move the difference most (float finite differences)
        xs = np.array([float(g) for g in gaps])
        h = 1e-6
        T = np.repeat(xs[None, :], xs.size, axis=0) + h * np.eye(xs.size)
        s0, p0 = _eval(xs[None, :], ia, ib, log_l2)
        s1, p1 = _eval(T, ia, ib, log_l2)
        d0 = s0[0] * np.exp(p0[0])
        deriv = (s1 * np.exp(p1) - d0) / h
        for k in np.argsort(-np.abs(deriv))[: min(3, xs.size)]:
            if deriv[k] == 0 or not np.isfinite(deriv[k]):
                continue
            direction = -1 if sgn * deriv[k] > 0 else 1  # move g_k towards the root
            base = gaps[k]
            step = Fraction(1, 2**GRID)
            found = None
            for _ in range(40):
                cand = base + direction * step
                if cand < lo_q:
                    break
                trial = gaps[:k] + [cand] + gaps[k + 1:]
                s2, ok2, a2, b2 = _arb_sign_and_ok(n, delta, trial, ia, ib)
                if ok2:
                    return a2, b2
                if s2 == -sgn:
                    found = cand
                    break
                step *= 2
            if found is None:
                continue
            g_same, g_other = (base + direction * step / 2 if step > Fraction(1, 2**GRID) else base), found
            for _ in range(400):
                mid = (g_same + g_other) / 2
                trial = gaps[:k] + [mid] + gaps[k + 1:]
                s3, ok3, a3, b3 = _arb_sign_and_ok(n, delta, trial, ia, ib)
                if ok3:
                    return a3, b3
                if s3 == sgn:
                    g_same = mid
                elif s3 == -sgn:
                    g_other = mid
                else:
                    break
        return None
    return (a, b) if ok else None


# --------------------------------------------------------------------------- search


def _rng(seed: int, n: int, delta: Fraction) -> np.random.Generator:
    return np.random.default_rng([seed, n, delta.numerator % 2**32, delta.denominator % 2**32])


def _sample(rng, S, d, lo):
    scales = rng.choice([0.0, 0.03, 0.3, 1.0, 3.0], size=(S, 1), p=[0.1, 0.2, 0.25, 0.25, 0.2])
    E = rng.exponential(1.0, size=(S, d)) * scales
    # many gaps exactly at the minimum: each sample keeps a random fraction of its gaps free
    E *= rng.random((S, d)) < rng.random((S, 1))
    return lo + np.minimum(E, GAP_CAP)


def _corner_lines(d, lo, k=CORNER_POINTS):
    """All gaps at the minimum except one, which runs over a geometric grid (deterministic)."""
    t = lo + np.geomspace(1e-4, GAP_CAP, k)
    G = np.full((1 + d * k, d), lo)
    for j in range(d):
        G[1 + j * k: 1 + (j + 1) * k, j] = t
    return G


def search_space(n: int, delta: Fraction) -> dict:
    """What `search` explores for this (n, delta): the meaning of 'searched range'."""
    lo = gap_floor(delta)
    return {
        "patterns": len(patterns(n)),
        "union_sizes": [n + 1, 2 * n],
        "gap_range": [str(lo), f"{float(lo) + GAP_CAP:.6g}"],
        "random_samples_per_pattern": SAMPLES,
        "corner_line_points_per_gap": CORNER_POINTS,
        "compass_refined_patterns": REFINE,
        "r": "max|entry| + 1/1000 after centring the union",
    }


def search(n: int, delta: Fraction, seed: int = 0) -> dict | None:
    """Look for a rigorously confirmed counterexample to (16) at this delta; None if none was found."""
    delta = Fraction(delta)
    if n < 2:
        raise ValueError("n >= 2")
    log_l2 = 2 * math.log(math.log(n))
    lo = float(gap_floor(delta))
    rng = _rng(seed, n, delta)
    samples = {}  # one sample of gap vectors per union size, shared by its patterns
    for m in range(n + 1, 2 * n + 1):
        G = np.concatenate([_corner_lines(m - 1, lo), _sample(rng, SAMPLES, m - 1, lo)])
        samples[m] = (G, np.concatenate([np.zeros((G.shape[0], 1)), -np.cumsum(G, axis=1)], axis=1))
    roots, best = [], []
    for ia, ib in patterns(n):
        G, V = samples[max(max(ia), max(ib)) + 1]
        s, phi = _eval(G, ia, ib, log_l2, V)
        pos, neg = np.nonzero(s > 0)[0], np.nonzero(s < 0)[0]
        if pos.size and neg.size:
            # the pair with the smallest spans keeps the bound large
            span = G.sum(1)
            p, q = pos[np.argmin(span[pos])], neg[np.argmin(span[neg])]
            roots.append((span[p] + span[q], ia, ib, G[p], G[q]))
        k = int(np.argmin(phi))
        best.append((phi[k], ia, ib, G[k]))
    roots.sort(key=lambda t: t[0])
    for _, ia, ib, gp, gq in roots[:REFINE]:
        x = _bisect_float(gp, gq, ia, ib, log_l2, 1.0)
        res = _finalize(n, delta, x, ia, ib, log_l2)
        if res:
            return _result(n, delta, res, ia, ib)
    best.sort(key=lambda t: t[0])
    for phi0, ia, ib, g0 in best[:REFINE]:
        x, f, root = _compass(g0, lo, ia, ib, log_l2)
        if root is not None:
            _, xp, xq, sp = root
            x = _bisect_float(xp, xq, ia, ib, log_l2, sp)
            f = -np.inf
        if f < 0.5:  # promising: let the exact side decide
            res = _finalize(n, delta, x, ia, ib, log_l2)
            if res:
                return _result(n, delta, res, ia, ib)
    return None


def _result(n, delta, ab, ia, ib) -> dict | None:
    a, b = ab
    chk = check_pair(n, delta, a, b)
    if not chk["ok"]:
        return None
    return {
        "n": n,
        "delta": str(delta),
        "r": str(chk["r"]),
        "a": [str(x) for x in sorted(a, reverse=True)],
        "b": [str(x) for x in sorted(b, reverse=True)],
        "gap_upper": chk["gap_upper"],
        "bound_lower": chk["bound_lower"],
        "min_separation": str(chk["min_separation"]),
        "min_separation_float": float(chk["min_separation"]),
        "pattern": pattern_str(ia, ib),
    }


# --------------------------------------------------------------------------- sweep


def threshold(n: int) -> float:
    """The hypothesis (14): delta > 2 log n + 3."""
    return 2 * math.log(n) + 3


def delta_grid(n: int, points: int = 40, start: Fraction = Fraction(1, 20)) -> list[Fraction]:
    """`points` deltas from `start` to just below 2 log n + 3, rounded to 1/1000."""
    top = Fraction(math.floor(threshold(n) * 1000), 1000)
    out = []
    for k in range(points):
        x = start + (top - start) * Fraction(k, points - 1)
        out.append(Fraction(round(x * 1000), 1000))
    return sorted(set(out))


def sweep(ns: Sequence[int] = (2, 3, 4, 5), points: int = 40, seed: int = 0, refine: int = 5) -> list[dict]:
    """Per (n, delta): the confirmed counterexample or the region searched without one.

    After the grid, `refine` bisection steps on delta between the largest grid delta with a
    counterexample and the next grid delta localise the transition (rows marked 'refined')."""
    rows = []
    for n in ns:
        grid = delta_grid(n, points)
        per_n = []
        for dl in grid:
            per_n.append(_row(n, dl, seed, refined=False))
        found = [r for r in per_n if r["status"] == "found"]
        if found and refine:
            lo = max(Fraction(r["delta"]) for r in found)
            above = [Fraction(r["delta"]) for r in per_n if Fraction(r["delta"]) > lo]
            if above:
                hi = min(above)
                for _ in range(refine):
                    mid = Fraction(round((lo + hi) / 2 * 10**4), 10**4)
                    if not lo < mid < hi:
                        break
                    row = _row(n, mid, seed, refined=True)
                    per_n.append(row)
                    if row["status"] == "found":
                        lo = mid
                    else:
                        hi = mid
        rows.extend(sorted(per_n, key=lambda r: Fraction(r["delta"])))
    return rows


def _row(n, dl, seed, refined):
    res = search(n, dl, seed)
    row = {"n": n, "delta": str(dl), "delta_float": float(dl), "refined": refined}
    if res is not None:
        row.update(status="found", counterexample=res)
    else:
        row.update(status="searched", searched=search_space(n, dl))
    return row
