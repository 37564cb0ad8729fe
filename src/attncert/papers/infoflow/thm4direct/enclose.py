"""Steps 2-4 of the direct check: arb-ball enclosures of y - F on a box (``evaluate_box``): the product form of
F1, the cancellation-preserving gradients, and the plain, mean value and layer-2 hull bounds."""

from __future__ import annotations

import math
from fractions import Fraction

from attncert.papers.infoflow.thm4direct.reduce import Reduced


PREC = 64


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
