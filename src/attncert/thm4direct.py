"""The direct check of the Theorem 4 network (issue 4, Part 2): interval branch-and-bound of the WHOLE
network against F over [-1, 1]^(3T), independent of the compositional certificate.

It uses none of the lemmas the compositional certificate rests on (no Boltzmann bound, no Taylor bound
of F1, no budget). What it uses:

1. **The network's exact function, read from the stored weights.** ``reduce`` multiplies the stored
   rational matrices and checks, exactly, that the network computes
       u_t = e x_t,   p_ts = softmax_s(lam1 u_t.u_s),   v_t = sum_s p_ts u_s,
       a_t = b0 + sum_g A_g tanh(bias_g + wu_g u_{t,i_g} + wy_g v_{t,i_g})     (F1, coordinate 0),
       q_t = softmax_t(lam2 a_t),   C = sum_t q_t a_t,   y = Out(C)
   (the classification token's own F1 value drops out: the layer-2 query and the output never read its
   coordinate 0). Any other wiring is refused. This is equations (1)-(2) with the stored weights, not
   the paper's description of them.
2. **Rigorous arithmetic:** python-flint arb balls for every operation, including exp and tanh.
3. **Exact rearrangements that keep cancellations** (each checked against the plain form in tests):
   - F1's four units per coordinate sum to A [f(w1 u + w2 y) - f(w1 u - w2 y)] with f(h) = tanh(b + h) +
     tanh(b - h) = 2 sinh 2b / (cosh 2b + cosh 2h), i.e. the product form
     -4 A sinh 2b sinh(2 w1 u) sinh(2 w2 y) / ((cosh 2b + cosh 2(w1 u + w2 y)) (cosh 2b + cosh 2(w1 u - w2 y)));
     a plain interval sum of the four tanh loses everything to cancellation;
   - in the gradient, sum_s dp_ts = 0 and sum_t dq_t = 0 are used before any product is taken, so the
     O(beta) softmax derivative meets the small W_ts - W_tr near a tie (``_grad1``, ``_grad2``).
4. **Bounds of y - F on a box B** (``evaluate_box``). F = min_P F_P with F_P = 2(1 + x_s.x_t), so
   sup_B (y - F) = max_P sup_B (y - F_P) exactly, and y - F >= y - F_P for every P. Each smooth y - F_P is
   bounded by the first of: the plain interval form; the monotone mean value form (the vertex of B picked
   by the signs of the interval gradient, the centre in the other coordinates); the layer-2 hull form
   (C is a convex combination of the a_t and Out is increasing, so y <= max_t Out(a_t)).
5. **Symmetry (checked, not assumed).** Token permutations always leave the network and F unchanged. When
   F1's units for coordinate i are the same multiset for every i, closed under (wu, wy) -> (-wu, -wy),
   so do signed permutations of the three coordinates applied to every token. Then it is enough to cover
   x_1 in {1 >= x_11 >= x_12 >= x_13 >= 0} with x_11 >= |x_ti| for every other token: 1/(48 T) of the cube.

The search bisects boxes depth-first (deterministic: no clocks, no randomness; the same record for any
number of worker processes) until each box proves -eps <= y - F <= eps, or a box's centre violates it
(REFUTED, with the centre as an exact dyadic counterexample that ``replay`` re-evaluates in mpmath), or
a budget runs out (UNKNOWN, with the volume fraction decided). A PROVED run records its split tree, and
``check_tree`` re-verifies it from the tree alone.

Cost: boxes must shrink to about 1/beta near the tie surfaces of the minimum, in 3T dimensions. T = 2 at
eps = 9/10 (beta = 42) is proved over the whole domain in about 2.4 million boxes (docs/theorem4.md);
T = 3 (9 dimensions) ends UNKNOWN within any budget this machine can afford.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from .errors import InvalidParameter
from .numeric import arb_prec
from .params import as_int

MAX_DIRECT_T = 3
PREC = 64
MAX_DEPTH = 48              # bisections along one path below the fixed prefix: then UNKNOWN. With at most
                            # 2 prefix splits, a coordinate is split <= 50 times, so every endpoint is a
                            # multiple of 2^-49 in [-1, 1]: an exact float, and every midpoint is exact


@dataclass(slots=True, frozen=True)
class Reduced:
    """The exact function of a Theorem 4 network, read from its stored weights (see ``reduce``)."""

    T: int
    e: Fraction                  # u = e x
    lam1: Fraction               # layer-1 score: lam1 u_t.u_s
    b0: Fraction                 # F1 coordinate 0: b0 + sum A tanh(bias + wu u_i + wy v_i)
    groups: tuple[tuple[int, Fraction, Fraction, Fraction, Fraction], ...]   # (i, wu, wy, bias, A); i = -1: constant unit
    quads: tuple[tuple[int, Fraction, Fraction, Fraction, Fraction], ...]    # (i, w1, w2, b, A): four units, see _quads
    lam2: Fraction               # layer-2 score: lam2 a_t (+ a constant)
    out_kind: str                # "affine": y0 + y1 C ; "ffn": y0 + sum A tanh(c + rho C)
    y0: Fraction
    y1: Fraction
    out_groups: tuple[tuple[Fraction, Fraction, Fraction], ...]   # (A, c, rho)
    symmetric: bool


def _mat_T_mul(A, B):
    """A^T B, exactly."""
    n, m = len(A[0]), len(B[0])
    return [[sum((A[r][i] * B[r][j] for r in range(len(A))), Fraction(0)) for j in range(m)] for i in range(n)]


def _mat_mul(A, B):
    return [[sum((A[i][r] * B[r][j] for r in range(len(B))), Fraction(0)) for j in range(len(B[0]))] for i in range(len(A))]


def _refuse(what: str):
    raise InvalidParameter(f"the network's wiring differs from the Theorem 4 layout the direct check reads: {what}")


def _index(c, D: int) -> bool:
    return isinstance(c, int) and not isinstance(c, bool) and 0 <= c < D


def _check_shapes(net) -> int:
    """Every matrix, vector and unit index consistent with one stream width D = rows of the embedding (and
    D >= 6); indices plain ints in range (numpy would read a negative index from the other end)."""
    E = net.embed
    D = len(E)
    if D < 6 or any(len(r) != 3 for r in E):
        _refuse("the embedding is not D x 3 with D >= 6")
    if len(net.c1) != D:
        _refuse("the classification token is not of width D")
    for q, k, v, o, name in ((net.WQ1, net.WK1, net.WV1, net.WO1, "1"), (net.WQ2, net.WK2, net.WV2, net.WO2, "2")):
        if not (len(q) == len(k) >= 1 and len(v) >= 1 and len(o) == D
                and all(len(r) == D for r in (*q, *k, *v)) and all(len(r) == len(v) for r in o)):
            _refuse(f"layer {name}: W_Q, W_K, W_V do not read a width-{D} stream or W_O does not write one")
    F1 = net.F1
    if not (F1.dim_in == F1.dim_out == len(F1.out_bias) == D):
        _refuse(f"F1 is not a map of the width-{D} stream to itself")
    if any(not _index(c, D) for g in F1.groups for c, _ in g.w + g.out):
        _refuse("an F1 unit has an index outside 0..D-1")
    if net.out_ffn is None:
        if net.out_affine is None or len(net.out_affine[0]) != D:
            _refuse(f"the output block does not read the width-{D} stream")
    else:
        f = net.out_ffn
        if not (f.dim_in == D and f.dim_out == 1 and len(f.out_bias) == 1):
            _refuse(f"the output block is not a map of the width-{D} stream to one number")
        if any(not _index(c, D) for g in f.groups for c, _ in g.w) or any(j != 0 for g in f.groups for j, _ in g.out):
            _refuse("an output unit has an index out of range")
    return D


def reduce(net) -> Reduced:
    """Read the exact function of ``net`` (a thm4net.Thm4Net) from its stored weights; refuse any other wiring."""
    D = _check_shapes(net)
    E = net.embed
    e = E[0][0]
    if e == 0 or any(E[i][j] != (e if i == j else 0) for i in range(D) for j in range(3)):
        _refuse("the embedding is not (e x, 0)")
    if any(c != 0 for c in net.c1):
        _refuse("the classification token is not 0")
    M1 = _mat_T_mul(net.WQ1, net.WK1)
    m1 = M1[0][0]
    if any(M1[i][j] != (m1 if i == j else 0) for i in range(3) for j in range(3)):
        _refuse("W_Q1^T W_K1 is not a multiple of I on the token block")
    W1 = _mat_mul(net.WO1, net.WV1)
    if any(W1[i][j] != (1 if i == j + 3 else 0) for i in range(D) for j in range(3)):
        _refuse("W_O1 W_V1 does not write v into coordinates 3..5")
    groups, consts = [], []
    F1 = net.F1
    for g in F1.groups:
        if len(g.out) != 1 or g.out[0][0] != 0:
            _refuse("an F1 unit writes to a coordinate other than 0")
        A = g.count * g.out[0][1]
        idx = {c for c, _ in g.w}
        if not idx:
            consts.append((-1, Fraction(0), Fraction(0), g.bias, A))
            continue
        coords = {c % 3 for c in idx}
        if len(coords) != 1 or any(c >= 6 for c in idx) or len(g.w) != len(idx):
            _refuse("an F1 unit reads more than one coordinate pair (u_i, v_i)")
        i = coords.pop()
        wu = sum((w for c, w in g.w if c == i), Fraction(0))
        wy = sum((w for c, w in g.w if c == i + 3), Fraction(0))
        groups.append((i, wu, wy, g.bias, A))
    kappa = list(F1.out_bias)             # F1 output coordinates >= 1 are these constants, for tokens and c
    M2 = _mat_T_mul(net.WQ2, net.WK2)
    if any(x != 0 for x in M2[0]):
        _refuse("the layer-2 query reads coordinate 0 of the classification token")
    gamma = sum((kappa[j] * M2[j][0] for j in range(1, D)), Fraction(0))
    W2 = _mat_mul(net.WO2, net.WV2)
    # c2p[k] = kappa[k] + W2[k][0] C + sum_{j>=1} W2[k][j] kappa[j] for k >= 1 (sum_t q_t = 1)
    const = [kappa[k] + sum((W2[k][j] * kappa[j] for j in range(1, D)), Fraction(0)) for k in range(D)]
    omega = [W2[k][0] for k in range(D)]
    out_groups: list = []
    if net.out_ffn is None:
        w, b = net.out_affine
        if w[0] != 0:
            _refuse("the output reads coordinate 0 of the classification token")
        kind = "affine"
        y0 = b + sum((w[k] * const[k] for k in range(1, D)), Fraction(0))
        y1 = sum((w[k] * omega[k] for k in range(1, D)), Fraction(0))
    else:
        f = net.out_ffn
        if f.dim_out != 1:
            _refuse("the output block has more than one output")
        kind, y0, y1 = "ffn", f.out_bias[0], Fraction(0)
        for g in f.groups:
            if any(k == 0 for k, _ in g.w) or any(j != 0 for j, _ in g.out):
                _refuse("the output block reads coordinate 0 of the classification token")
            A = g.count * sum((a for _, a in g.out), Fraction(0))
            c = g.bias + sum((x * const[k] for k, x in g.w), Fraction(0))
            rho = sum((x * omega[k] for k, x in g.w), Fraction(0))
            out_groups.append((A, c, rho))
    quads, rest = _quads(groups)
    per = [Counter((wu, wy, b, A) for i, wu, wy, b, A in groups if i == c) for c in range(3)]
    symmetric = per[0] == per[1] == per[2] and per[0] == Counter((-wu, -wy, b, A) for wu, wy, b, A in per[0].elements())
    return Reduced(T=net.T, e=e, lam1=net.beta * m1, b0=F1.out_bias[0], groups=tuple(rest + consts),
                   quads=tuple(quads),
                   lam2=net.beta * gamma, out_kind=kind, y0=y0, y1=y1, out_groups=tuple(out_groups), symmetric=symmetric)


def _quads(groups):
    """Find quadruples of F1 units {(w1, w2, A), (-w1, -w2, A), (w1, -w2, -A), (-w1, w2, -A)} on one coordinate
    i with one bias b. Their sum is exactly, with f(h) = tanh(b + h) + tanh(b - h) = 2 sinh 2b / (cosh 2b + cosh 2h),
        A [f(w1 u + w2 y) - f(w1 u - w2 y)]
          = -4 A sinh(2b) sinh(2 w1 u) sinh(2 w2 y) / ((cosh 2b + cosh 2(w1 u + w2 y)) (cosh 2b + cosh 2(w1 u - w2 y))),
    a product form without the cancellation that makes a plain interval sum of the four tanh useless.
    Returns (quads, the units left over)."""
    pool = Counter(groups)
    quads = []
    for g in sorted(pool, key=lambda x: (x[0], str(x[1:]))):
        i, w1, w2, b, A = g
        members = [(i, w1, w2, b, A), (i, -w1, -w2, b, A), (i, w1, -w2, b, -A), (i, -w1, w2, b, -A)]
        if w1 == 0 or w2 == 0 or len(set(members)) != 4:
            continue
        while all(pool[m] > 0 for m in members):
            for m in members:
                pool[m] -= 1
            quads.append((i, w1, w2, b, A))
    return quads, list(pool.elements())


def forward_reduced(red: Reduced, X):
    """The reduced form in numpy float64 on a batch (B, T, 3); equals thm4net.forward_np (tested)."""
    import numpy as np

    u = float(red.e) * X
    S = float(red.lam1) * np.einsum("bti,bsi->bts", u, u)
    S = S - S.max(axis=-1, keepdims=True)
    p = np.exp(S)
    p /= p.sum(axis=-1, keepdims=True)
    v = np.einsum("bts,bsi->bti", p, u)
    a = np.full(X.shape[:2], float(red.b0))
    for i, wu, wy, b, A in red.groups:
        a += float(A) * np.tanh(float(b) + (float(wu) * u[..., i] + float(wy) * v[..., i] if i >= 0 else 0.0))
    for i, w1, w2, b, A in red.quads:
        h1, h2 = float(w1) * u[..., i], float(w2) * v[..., i]
        c2b = np.cosh(2 * float(b))
        a += (-4 * float(A) * np.sinh(2 * float(b)) * np.sinh(2 * h1) * np.sinh(2 * h2)
              / ((c2b + np.cosh(2 * (h1 + h2))) * (c2b + np.cosh(2 * (h1 - h2)))))
    s2 = float(red.lam2) * a
    q = np.exp(s2 - s2.max(axis=-1, keepdims=True))
    q /= q.sum(axis=-1, keepdims=True)
    C = (q * a).sum(axis=-1)
    if red.out_kind == "affine":
        return float(red.y0) + float(red.y1) * C
    return float(red.y0) + sum(float(A) * np.tanh(float(c) + float(rho) * C) for A, c, rho in red.out_groups)


# ----------------------------------------------------------------------------------------------- arb

def _q(x):
    import flint

    x = Fraction(x)
    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def _mono(f, x):
    """Enclosure of an increasing f over the ball x, from its endpoints (tighter than arb on wide balls)."""
    if x.rad() < 1e-12:
        return f(x)            # a (near-)point: arb's own enclosure is already tight
    return f(x.lower()).union(f(x.upper()))


def _tanh(x):
    return _mono(lambda z: z.tanh(), x)


def _exp(x):
    return _mono(lambda z: z.exp(), x)


def _sinh(x):
    return _mono(lambda z: z.sinh(), x)


def _cosh(x):
    """cosh is even and increasing on [0, inf): its range over x is [cosh(min |x|), cosh(max |x|)], and
    [1, cosh(max |x|)] when x contains 0. (The endpoints are evaluated separately: a ball made as their
    union can reach below 0 by its radius rounding.)"""
    if x.rad() < 1e-12:
        return x.cosh()
    hi = x.abs_upper().cosh()
    return (_q(1) if x.contains(0) else x.abs_lower().cosh()).union(hi)


def _sq(x):
    import flint

    lo, hi = x.abs_lower(), x.abs_upper()
    return (lo * lo).union(hi * hi) if not x.contains(0) else flint.arb(0).union(hi * hi)


def _sech2(x):
    t = _tanh(x)
    return 1 - _sq(t)


def _hull(xs):
    h = xs[0]
    for x in xs[1:]:
        h = h.union(x)
    return h


def _cap(x, h):
    """x intersected with h (both contain the true value); a non-finite one (an overflow) is dropped."""
    if not h.is_finite():
        return x
    if not x.is_finite():
        return h
    try:
        return x.intersection(h)
    except ValueError:  # pragma: no cover - disjoint balls would mean an arithmetic bug
        raise ArithmeticError("disjoint enclosures of one value")


class _Consts:
    """The reduced form's rationals as exact arb balls (made once per run)."""

    def __init__(self, red: Reduced):
        self.e, self.lam1, self.lam2, self.b0 = _q(red.e), _q(red.lam1), _q(red.lam2), _q(red.b0)
        self.y0, self.y1 = _q(red.y0), _q(red.y1)
        self.groups = [(i, _q(wu), _q(wy), _q(b), _q(A)) for i, wu, wy, b, A in red.groups]
        self.quads = [(i, _q(w1), _q(w2), (2 * _q(b)).cosh(), -4 * _q(A) * (2 * _q(b)).sinh()) for i, w1, w2, b, A in red.quads]
        self.out_groups = [(_q(A), _q(c), _q(r)) for A, c, r in red.out_groups]
        self.kind, self.T = red.out_kind, red.T
        # Out is increasing (needed by the layer-2 hull form of evaluate_box): checked on the rationals
        self.monotone_out = red.y1 > 0 if red.out_kind == "affine" else all(A * r >= 0 for A, c, r in red.out_groups)


def _softmax(D, zero):
    """D[r][s] encloses score_r - score_s; p_s = 1 / sum_r exp(score_r - score_s), capped to [0, 1]."""
    n = len(D)
    unit = _q(0).union(_q(1))
    out = []
    for s in range(n):
        den = 1 + sum((_exp(D[r][s]) for r in range(n) if r != s), zero)
        out.append(_cap(1 / den, unit) if den.is_finite() else unit)     # an overflowing exp: only 0 <= p <= 1
    return out


def _layer1(k: _Consts, x, partials=True):
    """Enclosures over the box x (T lists of 3 balls) of u, p, v, a and F1's pieces."""
    T = k.T
    z0 = _q(0)
    u = [[k.e * c for c in row] for row in x]
    p, v, a, pre = [], [], [], []
    for t in range(T):
        Dm = [[k.lam1 * sum((u[t][i] * (u[r][i] - u[s][i]) for i in range(3)), z0) if r != s else None
               for s in range(T)] for r in range(T)]
        pt = _softmax(Dm, z0)
        vt = [_cap(sum((pt[s] * u[s][i] for s in range(T)), z0), _hull([u[s][i] for s in range(T)]))
              for i in range(3)]
        pr = [(b + (wu * u[t][i] + wy * vt[i] if i >= 0 else 0)) for i, wu, wy, b, A in k.groups]
        at = k.b0 + sum((A * _tanh(z) for (i, wu, wy, b, A), z in zip(k.groups, pr)), z0)
        qd = [_quad(qq, u[t][qq[0]], vt[qq[0]], partials) for qq in k.quads]
        at = at + sum((d["g"] for d in qd), z0)
        p.append(pt), v.append(vt), a.append(at), pre.append((pr, qd))
    return {"u": u, "p": p, "v": v, "a": a, "pre": pre}


def _layer2(k: _Consts, a, diff):
    """Layer 2 and the output from enclosures of a_t and of a_r - a_s (diff[r][s])."""
    T, z0 = k.T, _q(0)
    q = _softmax([[k.lam2 * diff[r][s] if r != s else None for s in range(T)] for r in range(T)], z0)
    C = _cap(sum((q[t] * a[t] for t in range(T)), z0), _hull(a))
    y, dy = _out(k, C)
    return {"q": q, "C": C, "y": y, "dy": dy}


def _out(k: _Consts, C):
    """The output block and its derivative at C (a ball)."""
    if k.kind == "affine":
        return k.y0 + k.y1 * C, k.y1
    z0 = _q(0)
    return (k.y0 + sum((A * _tanh(c + r * C) for A, c, r in k.out_groups), z0),
            sum((A * r * _sech2(c + r * C) for A, c, r in k.out_groups), z0))


def _forward(k: _Consts, x, partials=True):
    """y and the intermediates at a point (or, loosely, over a box: ``_box`` is the tight version)."""
    f = _layer1(k, x, partials)
    a = f["a"]
    f.update(_layer2(k, a, [[a[r] - a[s] for s in range(k.T)] for r in range(k.T)]))
    return f


def _box(k: _Consts, xb, xc, rad):
    """Enclosures over the box (balls xb, centre xc, half-widths rad) of y and of dy/dx.

    a_t and a_r - a_s are enclosed twice, directly and by the mean value form around the centre with the
    interval gradients of layer 1, and the intersection is used: at a layer-2 tie the a_t move together,
    and only the second form sees it."""
    T, z0 = k.T, _q(0)
    fb, fc = _layer1(k, xb), _layer1(k, xc)
    da = _grad1(k, fb)
    a = [_cap(fb["a"][t], fc["a"][t] + _spread(da[t], rad)) for t in range(T)]
    diff = [[_cap(a[r] - a[s], fc["a"][r] - fc["a"][s] + _spread([x - y for x, y in zip(da[r], da[s])], rad))
             if r != s else z0 for s in range(T)] for r in range(T)]
    fb["a"] = a
    fb.update(_layer2(k, a, diff))
    ac = fc["a"]
    fc.update(_layer2(k, ac, [[ac[r] - ac[s] for s in range(T)] for r in range(T)]))
    return fb, fc, _grad2(k, fb, da, diff), da


def _spread(g, rad):
    """sum_j g_j [-r_j, r_j] as a ball centred at 0."""
    z = _q(0)
    for gj, r in zip(g, rad):
        z = z + gj.abs_upper() * r
    return z.union(-z)


def _quad(qq, u, y, partials=True):
    """One quadruple of F1 units at (u, y): its value g and partials gu, gy, in the product form of _quads.
    g = kap S1 S2 / (P Q), S1 = sinh 2 w1 u, S2 = sinh 2 w2 y, P = c + cosh 2(w1 u + w2 y), Q = c + cosh 2(w1 u - w2 y);
    dg/dy = kap S1 2 w2 / (P Q) [cosh 2 w2 y - S2 (sinh 2(w1 u + w2 y) / P - sinh 2(w1 u - w2 y) / Q)],
    dg/du = kap S2 2 w1 / (P Q) [cosh 2 w1 u - S1 (sinh 2(w1 u + w2 y) / P + sinh 2(w1 u - w2 y) / Q)]."""
    i, w1, w2, c, kap = qq
    h1, h2 = 2 * w1 * u, 2 * w2 * y
    S1, S2 = _sinh(h1), _sinh(h2)
    hp, hm = h1 + h2, h1 - h2
    P, Q = c + _cosh(hp), c + _cosh(hm)
    PQ = P * Q
    if not partials:
        return {"g": kap * S1 * S2 / PQ}
    sp, sm = _sinh(hp) / P, _sinh(hm) / Q
    return {"g": kap * S1 * S2 / PQ,
            "gy": kap * S1 * 2 * w2 / PQ * (_cosh(h2) - S2 * (sp - sm)),
            "gu": kap * S2 * 2 * w1 / PQ * (_cosh(h1) - S1 * (sp + sm))}


def _grad1(k: _Consts, f):
    """Enclosures of da_t/dx_{s',i'} over the box, from the intermediates of ``_layer1`` on the same box:

    da_t/dx_{s',i'} = e ( [t = s'] (mu_ti' + lam1 sum_s p_ts E_ts u_si') + lam_ti' p_ts' + lam1 p_ts' E_ts' u_ti' ),
    lam_ti = da_t/dv_ti, mu_ti = da_t/du_ti (partials of F1), E_ts = sum_r p_tr sum_i lam_ti (u_si - u_ri).
    An exact identity: the chain rule with sum_s dp_ts = 0 used before the products are taken, so that the
    O(beta) derivative of the softmax meets the small W_ts - W_tr near a tie, not the O(1) u_s."""
    T, u, p = k.T, f["u"], f["p"]
    z0 = _q(0)
    da = []
    for t in range(T):
        lam = [z0] * 3
        mu = [z0] * 3
        pr, qd = f["pre"][t]
        for (i, wu, wy, b, A), z in zip(k.groups, pr):
            if i >= 0:
                s2 = A * _sech2(z)
                lam[i] = lam[i] + s2 * wy
                mu[i] = mu[i] + s2 * wu
        for qq, d in zip(k.quads, qd):
            lam[qq[0]] = lam[qq[0]] + d["gy"]
            mu[qq[0]] = mu[qq[0]] + d["gu"]
        E = [sum((p[t][r] * sum((lam[i] * (u[s][i] - u[r][i]) for i in range(3)), z0) for r in range(T) if r != s), z0)
             for s in range(T)]
        pe = [p[t][s] * E[s] for s in range(T)]
        g = []
        for s2_ in range(T):
            for i2 in range(3):
                val = lam[i2] * p[t][s2_] + k.lam1 * pe[s2_] * u[t][i2]
                if s2_ == t:
                    val = val + mu[i2] + k.lam1 * sum((pe[s] * u[s][i2] for s in range(T)), z0)
                g.append(k.e * val)
        da.append(g)
    return da


def _grad2(k: _Consts, f, da, diff):
    """dy/dx from da_t/dx (``_grad1``), the layer-2 weights q and diff[r][s] enclosing a_r - a_s:
    dC = sum_t q_t da_t + lam2 sum_t q_t (a_t - C) sum_r q_r (da_t - da_r), a_t - C = sum_r q_r (a_t - a_r);
    dy = Out'(C) dC (again sum_t dq_t = 0 used first)."""
    T, q, z0 = k.T, f["q"], _q(0)
    n = 3 * T
    ref = max(range(T), key=lambda t: float(q[t].mid()))
    # sum_t q_t da_t = da_ref + sum_{t != ref} q_t (da_t - da_ref), since sum_t q_t = 1
    dC = [da[ref][j] + sum((q[t] * (da[t][j] - da[ref][j]) for t in range(T) if t != ref), z0) for j in range(n)]
    if T > 1:
        dev = [sum((q[r] * diff[t][r] for r in range(T) if r != t), z0) for t in range(T)]
        for j in range(n):
            dC[j] = dC[j] + k.lam2 * sum((q[t] * dev[t] * sum((q[r] * (da[t][j] - da[r][j]) for r in range(T) if r != t), z0)
                                          for t in range(T)), z0)
    return [f["dy"] * d for d in dC]


def _pairs(T):
    return [(s, t) for s in range(T) for t in range(s, T)]


def _F_pair(x, s, t):
    return 2 * (1 + sum((x[s][i] * x[t][i] for i in range(3)), _q(0)))


def _dF_pair(x, s, t, T):
    z0 = _q(0)
    g = [z0] * (3 * T)
    for i in range(3):
        g[3 * s + i] = g[3 * s + i] + 2 * x[t][i]
        g[3 * t + i] = g[3 * t + i] + 2 * x[s][i]
    return g


def _ball(lo: float, hi: float):
    """The ball [lo, hi] for exact dyadic float endpoints (centre and radius are exact too)."""
    import flint

    return flint.arb((lo + hi) / 2, (hi - lo) / 2)


def _mvt(val_at, G, box, mid, rad):
    """Monotone mean value form of a smooth h over the box, from the interval gradient G of h on the box:
    with v_j = hi_j where G_j >= 0, lo_j where G_j <= 0 and the centre otherwise, h <= h(v) + sum over the
    indefinite j of |G_j| r_j (and the mirror image for the lower bound). Returns (upper, lower,
    per-coordinate contributions) with upper/lower as arb balls."""
    n = len(box)
    sign = [1 if g >= 0 else -1 if g <= 0 else 0 for g in G]
    spread = _q(0)
    for j in range(n):
        if sign[j] == 0:
            spread = spread + G[j].abs_upper() * rad[j]
    contrib = [float(G[j].abs_upper()) * float(rad[j]) if sign[j] == 0 else 0.0 for j in range(n)]
    vu = tuple(box[j][1] if sign[j] > 0 else box[j][0] if sign[j] < 0 else mid[j] for j in range(n))
    vl = tuple(box[j][0] if sign[j] > 0 else box[j][1] if sign[j] < 0 else mid[j] for j in range(n))
    return (val_at(vu) + spread).upper(), (val_at(vl) - spread).lower(), contrib


def evaluate_box(k: _Consts, box, eps_ball):
    """Decide one box. Returns (proved, upper, lower, centre, split_scores).

    Upper side: sup_B (y - F) = max_P sup_B (y - F_P) (F = min_P F_P), and each sup_B (y - F_P) is bounded
    by the first of three rigorous bounds that is <= eps (cheapest first):
      * the plain interval form y(B) - F_P(B);
      * the monotone mean value form (``_mvt``) of y - F_P with the interval gradient of y;
      * the layer-2 hull form: y = Out(C) with C = sum_t q_t a_t a convex combination and Out increasing
        (checked), so y - F_P <= max_t (Out(a_t) - F_P), each by its mean value form. This is what keeps a
        layer-2 tie cheap: there the a_t move together and the softmax of layer 2 need not be resolved.
    Lower side, likewise: y(B) - min_P F_P(B); y - F >= y - F_P for each P (mean value form); y >= min_t
    Out(a_t) (hull). proved iff both sides are within eps. For a proved box, upper/lower are the bounds
    that proved it (floats, for reporting); centre is the arb ball of (y - F) at the box centre;
    split_scores rank the coordinates for the next bisection (from the first constraint that failed)."""
    import flint

    T = k.T
    z0 = _q(0)
    xb = [[_ball(*box[3 * t + i]) for i in range(3)] for t in range(T)]
    mid = tuple((lo + hi) / 2 for lo, hi in box)
    xc = [[flint.arb(mid[3 * t + i]) for i in range(3)] for t in range(T)]
    rad = [flint.arb((hi - lo) / 2) for lo, hi in box]
    widths = [float(r) for r in rad]
    fb, fc, gy, da = _box(k, xb, xc, rad)
    pairs = _pairs(T)
    Fc = [_F_pair(xc, *P) for P in pairs]
    Fmin_c = Fc[0]
    for z in Fc[1:]:
        Fmin_c = Fmin_c.min(z)             # a rigorous enclosure of F(c) = min_P F_P(c)
    centre = fc["y"] - Fmin_c
    if not (fb["y"].is_finite() and all(g.is_finite() for g in gy)):
        # an overflow inside (a box too wide for exp): not proved; split the widest side
        return False, math.inf, -math.inf, centre, widths
    cache = {mid: fc}

    def at(v):
        if v not in cache:
            cache[v] = _forward(k, [[flint.arb(c) for c in v[3 * t:3 * t + 3]] for t in range(T)], partials=False)
        return cache[v]

    def F_at(v, P):
        s, t = P
        return 2 * (1 + sum((flint.arb(v[3 * s + i]) * flint.arb(v[3 * t + i]) for i in range(3)), z0))

    hull_ok = k.monotone_out and T > 1
    dOut = [_out(k, fb["a"][t])[1] for t in range(T)] if hull_ok else None
    FB = {P: _F_pair(xb, *P) for P in pairs}
    dF = {P: _dF_pair(xb, P[0], P[1], T) for P in pairs}
    mvt = {}

    def mvt_y(P):
        if P not in mvt:
            G = [gj - fj for gj, fj in zip(gy, dF[P])]
            mvt[P] = _mvt(lambda v: at(v)["y"] - F_at(v, P), G, box, mid, rad)
        return mvt[P]

    hull = {}

    def hull_t(t, P):
        if (t, P) not in hull:
            Gt = [dOut[t] * g - f for g, f in zip(da[t], dF[P])]
            hull[(t, P)] = _mvt(lambda v: _out(k, at(v)["a"][t])[0] - F_at(v, P), Gt, box, mid, rad)
        return hull[(t, P)]

    upper = -math.inf
    for P in pairs:
        zero = (fb["y"] - FB[P]).upper()
        if zero <= eps_ball:
            upper = max(upper, float(zero))
            continue
        ub, _, contrib = mvt_y(P)
        if ub <= eps_ball:
            upper = max(upper, float(ub))
            continue
        if hull_ok:
            hs = [hull_t(t, P) for t in range(T)]
            hb = hs[0][0]
            for h in hs[1:]:
                hb = hb.max(h[0])
            if hb <= eps_ball:
                upper = max(upper, float(hb))
                continue
            if float(hb) < float(ub):
                contrib = [max(cs) for cs in zip(*(h[2] for h in hs))]
        return False, math.inf, -math.inf, centre, contrib if any(contrib) else widths
    Fmin_up = min((FB[P].upper() for P in pairs), key=float)
    lb = (fb["y"] - Fmin_up).lower()
    if lb >= -eps_ball:
        return True, upper, float(lb), centre, widths
    best = None
    for P in pairs:
        _, lb, contrib = mvt_y(P)
        if lb >= -eps_ball:
            return True, upper, float(lb), centre, widths
        best = (lb, contrib) if best is None or float(lb) > float(best[0]) else best
    if hull_ok:
        lbs, cons = [], []
        for t in range(T):
            h = max((hull_t(t, P) for P in pairs), key=lambda z: float(z[1]))
            lbs.append(h[1])
            cons.append(h[2])
        lb = lbs[0]
        for x in lbs[1:]:
            lb = lb.min(x)
        if lb >= -eps_ball:
            return True, upper, float(lb), centre, widths
        if float(lb) > float(best[0]):
            best = (lb, [max(cs) for cs in zip(*cons)])
    return False, math.inf, -math.inf, centre, best[1] if any(best[1]) else widths


# ----------------------------------------------------------------------------------------------- search

def _in_domain(box, T: int, symmetric: bool) -> bool:
    """Does the box meet the fundamental domain? With the symmetries (signed permutations of the three
    coordinates, checked in ``reduce``, and permutations of the tokens, which equations (1)-(2) and F
    always have): x_1 in {1 >= x_11 >= x_12 >= x_13 >= 0} and x_11 >= |x_ti| for every other token t.
    Every input is mapped into it by one of these symmetries (take for token 1 a token of largest
    sup-norm, flip signs, sort its coordinates), so covering it covers [-1, 1]^(3T)."""
    if not symmetric:
        return True
    (_l1, h1), (l2, h2), (l3, h3) = box[0], box[1], box[2]
    x3 = max(l3, 0.0)          # the smallest feasible x_13, then x_12, then x_11 = h1 (largest is best)
    x2 = max(l2, x3)
    if not (x3 <= h3 and x2 <= h2 and x2 <= h1):
        return False
    return all(h1 >= (lo if lo > 0 else -hi if hi < 0 else 0.0) for lo, hi in box[3:])


def start_box(T: int, symmetric: bool):
    """The root box, with exact dyadic float endpoints."""
    first = [(0.0, 1.0)] * 3 if symmetric else [(-1.0, 1.0)] * 3
    return tuple(first + [(-1.0, 1.0)] * (3 * (T - 1)))


def _volume(box) -> float:
    v = 1.0
    for lo, hi in box:
        v *= hi - lo
    return v


def _exact_mid(lo: float, hi: float) -> bool:
    """Is (lo + hi) / 2 an exact float? (TwoSum: lo + hi without rounding; halving a float is exact.)"""
    s = lo + hi
    bb = s - lo
    return (lo - (s - bb)) + (hi - bb) == 0


def _check_box(box) -> None:
    """A box the evaluator may use: inside [-1, 1], lo < hi, and an exact centre in every coordinate
    (``evaluate_box`` takes (lo + hi) / 2 as the exact centre and (hi - lo) / 2 as the exact radius)."""
    for lo, hi in box:
        if not (-1.0 <= lo < hi <= 1.0 and _exact_mid(lo, hi)):
            raise InvalidParameter(f"box side [{lo!r}, {hi!r}]: not inside [-1, 1] with an exact float midpoint")


def _split(box, j):
    """Bisect along coordinate j. The midpoint must be an exact float, or the halves would not tile the
    box; MAX_DEPTH keeps the search far from that limit."""
    lo, hi = box[j]
    if not _exact_mid(lo, hi):
        raise InvalidParameter("split: the midpoint is not an exact float (box resolution exhausted)")
    mid = (lo + hi) / 2
    return box[:j] + ((lo, mid),) + box[j + 1:], box[:j] + ((mid, hi),) + box[j + 1:]


def _split_order(n: int, levels: int) -> list[int]:
    """The coordinates of the fixed first splits: every coordinate once, ``levels`` times over."""
    return list(range(n)) * levels


def _subboxes(root, levels: int = 1):
    """The root bisected along every coordinate ``levels`` times over: 2^(3T levels) sub-boxes, in preorder."""
    boxes = [root]
    for j in _split_order(len(root), levels):
        boxes = [c for b in boxes for c in _split(b, j)]
    return boxes


def prefix_levels(T: int) -> int:
    """Two rounds of fixed splits for T = 2 (4096 sub-boxes, so that two workers stay busy to the end),
    one for T = 3 (512)."""
    return 2 if T == 2 else 1


_WORKER: dict = {}


def _subtree(args):
    """Depth-first branch-and-bound of one sub-box (runs in a worker process or inline)."""

    with arb_prec(PREC):
        return _subtree_run(*args)


def _subtree_run(red, eps, budget, box0):
    key = (red, eps)
    if _WORKER.get("key") != key:
        _WORKER.update(key=key, k=_Consts(red), eb=_q(eps))
    k, eb, T = _WORKER["k"], _WORKER["eb"], red.T
    stack = [(box0, 0)]
    code = []
    st = {"evaluated": 0, "leaves": 0, "outside": 0.0, "proved": 0.0, "upper": float("-inf"), "lower": float("inf"),
          "depth": 0}
    while stack:
        box, depth = stack.pop()
        if not _in_domain(box, T, red.symmetric):
            st["outside"] += _volume(box)
            st["leaves"] += 1
            code.append(".")
            continue
        if st["evaluated"] >= budget:
            return {"status": "UNKNOWN", "why": "budget", **st}
        st["evaluated"] += 1
        _check_box(box)
        ok, ub, lb, centre, score = evaluate_box(k, box, eb)
        if ok:
            st["proved"] += _volume(box)
            st["leaves"] += 1
            st["upper"], st["lower"] = max(st["upper"], ub), min(st["lower"], lb)
            st["depth"] = max(st["depth"], depth)
            code.append(".")
            continue
        if centre > eb or centre < -eb:
            xc = [[Fraction((box[3 * t + i][0] + box[3 * t + i][1]) / 2) for i in range(3)] for t in range(T)]
            return {"status": "REFUTED", "counterexample": xc, "centre": str(centre), **st}
        if depth >= MAX_DEPTH:
            return {"status": "UNKNOWN", "why": "depth", **st}
        j = max(range(len(score)), key=lambda m: (score[m], -m))
        code.append(chr(ord("a") + j))
        left, right = _split(box, j)
        stack.append((right, depth + 1))
        stack.append((left, depth + 1))
    return {"status": "PROVED", "code": "".join(code), **st}


def direct_check(net, box_budget: int = 20_000, jobs: int = 1, progress=None, root=None) -> dict:
    """Branch-and-bound of sup |y - F| <= eps over the whole domain. Deterministic for any ``jobs``.

    The root is cut into 2^(3T levels) sub-boxes (``prefix_levels``); each gets at most ``box_budget``
    evaluated boxes. Verdict
    PROVED (every sub-box closed; the record holds the split tree), REFUTED (a box centre violates the
    bound: the first such sub-box in order; the centre is replayed in mpmath) or UNKNOWN (a budget or the
    depth limit ran out, with the volume fraction proved). ``root`` (dyadic float pairs) restricts the run
    to a sub-box, for tests; the record says so, and only the full root is the whole-domain claim."""
    T = as_int("T", net.T, 2)
    if T > MAX_DIRECT_T:
        raise InvalidParameter(f"T={T}: the direct check runs for T <= {MAX_DIRECT_T} (3T input dimensions)")
    box_budget = as_int("box_budget", box_budget, 1)
    jobs = as_int("jobs", jobs, 1)
    red = reduce(net)
    full = start_box(T, red.symmetric)
    root = full if root is None else tuple((float(lo), float(hi)) for lo, hi in root)
    if len(root) != len(full):
        raise InvalidParameter(f"root: must be {len(full)} intervals")
    _check_box(root)
    levels = prefix_levels(T)
    subs = _subboxes(root, levels)
    tasks = [(red, net.eps, box_budget, b) for b in subs]
    results = []
    if jobs == 1:
        it = map(_subtree, tasks)
        pool = None
    else:
        import multiprocessing as mp

        pool = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn").Pool(jobs)
        it = pool.imap(_subtree, tasks, chunksize=1)
    try:
        for n, r in enumerate(it, 1):
            results.append(r)
            if progress:
                progress(n, len(tasks))
            if r["status"] == "REFUTED":
                break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return _record(net, red, root, subs, results, root == full, levels)


def _record(net, red, root, subs, results, whole, levels) -> dict:
    total = _volume(root)
    agg = {key: sum(r[key] for r in results) for key in ("evaluated", "leaves", "outside", "proved")}
    statuses = [r["status"] for r in results]
    rec = {"T": red.T, "eps": str(net.eps), "variant": net.variant, "beta": net.beta,
           "method": "interval branch-and-bound of the whole network (python-flint arb, monotone mean value form)",
           "boxes_evaluated": agg["evaluated"], "leaves": agg["leaves"],
           "max_depth": max((r["depth"] for r in results), default=0), "symmetric": red.symmetric,
           "domain": ("x_1 in {1 >= x_11 >= x_12 >= x_13 >= 0}, x_11 >= |x_ti| (signed coordinate and token "
                      "permutations)" if red.symmetric else "[-1,1]^(3T)"),
           "volume_proved": agg["proved"] / total, "volume_outside_domain": agg["outside"] / total,
           "sub_boxes": len(subs), "sub_boxes_done": len(results), "whole_domain": whole,
           "root": [[float(lo), float(hi)] for lo, hi in root],
           "sup_bound": max((r["upper"] for r in results if math.isfinite(r["upper"])), default=None),
           "inf_bound": min((r["lower"] for r in results if math.isfinite(r["lower"])), default=None)}
    if "REFUTED" in statuses:
        r = results[statuses.index("REFUTED")]
        rec.update(verdict="REFUTED", counterexample=[[str(c) for c in row] for row in r["counterexample"]],
                   centre_value=r["centre"])
    elif all(s_ == "PROVED" for s_ in statuses):
        rec.update(verdict="PROVED", tree=_join_codes(_split_order(len(root), levels), [r["code"] for r in results]))
    else:
        whys = sorted({r["why"] for r in results if r["status"] == "UNKNOWN"})
        rec.update(verdict="UNKNOWN", reason=(
            f"{statuses.count('UNKNOWN')} of {len(subs)} sub-boxes ran out of "
            + " and ".join({"budget": "the box budget", "depth": f"depth ({MAX_DEPTH} bisections)"}[w] for w in whys)
            + f"; {rec['volume_proved'] + rec['volume_outside_domain']:.3%} of the root box's volume is decided"))
    return rec


def _join_codes(order: list[int], codes: list[str]) -> str:
    """The preorder code of the whole tree: the fixed splits (coordinates ``order``, level by level), then
    the sub-trees in order."""
    it = iter(codes)

    def walk(level):
        if level == len(order):
            return next(it)
        return chr(ord("a") + order[level]) + walk(level + 1) + walk(level + 1)

    return walk(0)


def replay(net, counterexample, dps: int = 50) -> dict:
    """Re-evaluate a counterexample (exact dyadic rationals) in mpmath through the stored weights."""
    import mpmath

    from .thm4net import forward_mp

    X = [[Fraction(c) for c in row] for row in counterexample]
    y, Fv = forward_mp(net, X, dps=dps)
    with mpmath.workdps(dps):
        err = abs(y - Fv)
        exceeds = bool(err > mpmath.mpf(net.eps.numerator) / net.eps.denominator)
    return {"M2": float(y), "F": float(Fv), "error": float(err), "exceeds_eps": exceeds, "dps": dps}


def tree_leaves(code: str, root):
    """The leaf boxes of a preorder split code, in order (InvalidParameter on a malformed code, or on one
    so deep that a midpoint stops being an exact float)."""
    root = tuple((float(lo), float(hi)) for lo, hi in root)
    _check_box(root)
    n = len(root)
    boxes, stack, pos = [], [root], 0
    while stack:
        box = stack.pop()
        if pos >= len(code):
            raise InvalidParameter("split tree: truncated")
        ch = code[pos]
        pos += 1
        if ch == ".":
            _check_box(box)
            boxes.append(box)
            continue
        j = ord(ch) - ord("a")
        if not 0 <= j < n:
            raise InvalidParameter(f"split tree: bad symbol {ch!r}")
        left, right = _split(box, j)
        stack.append(right)
        stack.append(left)
    if pos != len(code):
        raise InvalidParameter("split tree: trailing symbols")
    return boxes


def check_tree(net, code: str, root=None) -> dict:
    """Re-verify a PROVED run from its split tree alone: every leaf inside the fundamental domain proves
    -eps <= y - F <= eps. (The same evaluator; what it re-checks is that the tree covers the domain and
    that no leaf was skipped or altered.)"""

    red = reduce(net)
    root = start_box(red.T, red.symmetric) if root is None else tuple((float(lo), float(hi)) for lo, hi in root)
    with arb_prec(PREC):
        k, eb = _Consts(red), _q(net.eps)
        n = bad = 0
        for box in tree_leaves(code, root):
            if not _in_domain(box, red.T, red.symmetric):
                continue
            n += 1
            if not evaluate_box(k, box, eb)[0]:
                bad += 1
        return {"leaves_checked": n, "failed": bad, "ok": bad == 0}
