"""Step 1 of the direct check: read the network's exact function from its stored rational weights (``reduce``),
refusing any other wiring, and evaluate the reduced form (``forward_reduced``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from attncert.core.errors import InvalidParameter


MAX_DIRECT_T = 3


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
