"""InfoFlow Theorem 4, second part (A.1 L520-560): the two-layer, one-head network with per-head
dimension 6 that eps-approximates F(X) = min_{s,t} 2(1 + x(s).x(t)) on [-1, 1]^(3T), built with exact
rational weights, and its compositional certificate.

Two variants:

* ``printed``: the paper's matrices (steps 1-6), the paper's linear output block y = 2 + 18 (c2')_4,
  softmax scale beta = ceil(54 ln T / eps), and F1 the explicit tanh FFN below (the paper only says one
  exists) with error <= eps/54. Its budget is the corrected (39)-(43): 18 (e1 + e2 + e3) <= eps.
* ``repaired``: every weight and bias of every matrix and FFN is <= 1 in magnitude (the constraint of
  A.1): the output block is a tanh FFN (replicated units in the linear regime, plus two constant units
  and bias 1), beta = ceil(72 ln T / eps) and the four stages share eps equally.

F1 computes x.y on its low-dimensional domain (x = x(t)/3, y = v(t), both in [-1/3, 1/3]^3) by a
symmetric second difference of tanh: for p = x_i + y_i, q = x_i - y_i,
    K [f(theta p) - f(theta q)],  f(h) = tanh(b + h) + tanh(b - h) = 2 tanh b + h^2 tanh''(b) + R(h),
so the output is 4 K theta^2 tanh''(b) x_i y_i + K (R(theta p) - R(theta q)), |R(h)| <= h^4 M4 / 12 with
M4 = max |tanh''''| <= 409/100. K = N alpha: N identical units, each with output weight |alpha| <= 1.
Every unit of a group is the same function, so the network stores (unit, count) and evaluates a group
once; the parameter count counts every unit.

The certificate is ONE closed claim over the exact weights: the matrices implement the scores of steps
2 and 5 exactly, the FFN error bound, the output-block bound (repaired) and the total <= eps. The
checker re-evaluates it with its own interval arithmetic. The symbolic steps it rests on (Boltzmann
bound, Taylor forms, the budget) are obligations of the family infoflow_thm4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from attncert.core.errors import InvalidParameter
from attncert.core.params import as_fraction, as_int

D = 6                      # per-head dimension = embedding dimension (one head)
B_UNIT = Fraction(1, 2)    # the bias b of F1's units
M4 = Fraction(409, 100)    # max |tanh''''| (infoflow.thm4.tanh4_bound)
M3 = Fraction(2)           # max |tanh'''|  (infoflow.thm4.tanh3_bound)
MAX_T = 4096
VARIANTS = ("printed", "repaired")


@dataclass(slots=True, frozen=True)
class Group:
    """``count`` identical tanh units: out += count * alpha_out * tanh(w . x + bias)."""

    w: tuple[tuple[int, Fraction], ...]      # sparse input weights (coordinate, weight)
    bias: Fraction
    out: tuple[tuple[int, Fraction], ...]    # sparse output weights (coordinate, weight)
    count: int

    def to_json(self):
        return {"w": [[i, str(x)] for i, x in self.w], "bias": str(self.bias),
                "out": [[i, str(x)] for i, x in self.out], "count": self.count}


@dataclass(slots=True, frozen=True)
class FFN:
    dim_in: int
    dim_out: int
    groups: tuple[Group, ...]
    out_bias: tuple[Fraction, ...]

    @property
    def width(self) -> int:
        return sum(g.count for g in self.groups)

    def params(self) -> dict:
        nz = sum(g.count * (len(g.w) + (g.bias != 0) + len(g.out)) for g in self.groups) + sum(b != 0 for b in self.out_bias)
        dense = self.width * (self.dim_in + 1) + self.dim_out * (self.width + 1)
        return {"width": self.width, "nonzero": nz, "dense": dense}

    def max_weight(self) -> Fraction:
        ws = [abs(x) for g in self.groups for _, x in g.w + g.out] + [abs(g.bias) for g in self.groups]
        return max(ws + [abs(b) for b in self.out_bias] + [Fraction(0)])

    def to_json(self):
        return {"dim_in": self.dim_in, "dim_out": self.dim_out, "groups": [g.to_json() for g in self.groups],
                "out_bias": [str(b) for b in self.out_bias], **self.params()}


Matrix = tuple[tuple[Fraction, ...], ...]


def _zeros(r=D, c=D):
    return [[Fraction(0)] * c for _ in range(r)]


def _freeze(m) -> Matrix:
    return tuple(tuple(Fraction(x) for x in row) for row in m)


@dataclass(slots=True, frozen=True)
class Thm4Net:
    T: int
    eps: Fraction
    variant: str
    beta: int
    embed: Matrix            # 6 x 3: P_phi(x) = embed x
    c1: tuple[Fraction, ...]  # the classification token
    WQ1: Matrix
    WK1: Matrix
    WV1: Matrix
    WO1: Matrix
    F1: FFN
    WQ2: Matrix
    WK2: Matrix
    WV2: Matrix
    WO2: Matrix
    out_affine: tuple[tuple[Fraction, ...], Fraction] | None   # printed: y = w . c + b
    out_ffn: FFN | None                                        # repaired
    theta: Fraction          # F1's input scale
    K: Fraction              # F1's N alpha (per coordinate, per unit pair)
    e2_budget: Fraction      # F1 error budget
    e4_budget: Fraction      # output block budget (0 for printed)
    theta_o: Fraction        # output block input scale (repaired)

    def params(self) -> dict:
        mats = (self.embed, self.WQ1, self.WK1, self.WV1, self.WO1, self.WQ2, self.WK2, self.WV2, self.WO2)
        att_nz = sum(1 for m in mats for row in m for x in row if x != 0) + sum(x != 0 for x in self.c1)
        att_dense = sum(len(m) * len(m[0]) for m in mats) + len(self.c1)
        f1 = self.F1.params()
        if self.out_ffn is not None:
            fo = self.out_ffn.params()
        else:
            w, b = self.out_affine
            fo = {"width": 0, "nonzero": sum(x != 0 for x in w) + (b != 0), "dense": len(w) + 1}
        return {"attention_and_embedding": {"nonzero": att_nz, "dense": att_dense}, "F1": f1, "output": fo,
                "total_nonzero": att_nz + f1["nonzero"] + fo["nonzero"], "total_dense": att_dense + f1["dense"] + fo["dense"]}

    def max_weight(self) -> Fraction:
        mats = (self.embed, self.WQ1, self.WK1, self.WV1, self.WO1, self.WQ2, self.WK2, self.WV2, self.WO2)
        m = max(abs(x) for mm in mats for row in mm for x in row)
        m = max(m, self.F1.max_weight(), max(abs(x) for x in self.c1))
        if self.out_ffn is not None:
            return max(m, self.out_ffn.max_weight())
        w, b = self.out_affine
        return max([m, abs(b)] + [abs(x) for x in w])

    def to_json(self) -> dict:
        mj = lambda m: [[str(x) for x in row] for row in m]  # noqa: E731
        return {
            "schema": "attncert.thm4net/1", "T": self.T, "eps": str(self.eps), "variant": self.variant,
            "beta": self.beta, "rounding": "none: every weight is an exact rational",
            "embed": mj(self.embed), "c1": [str(x) for x in self.c1],
            "layer1": {"W_Q": mj(self.WQ1), "W_K": mj(self.WK1), "W_V": mj(self.WV1), "W_O": mj(self.WO1)},
            "F1": self.F1.to_json(),
            "layer2": {"W_Q": mj(self.WQ2), "W_K": mj(self.WK2), "W_V": mj(self.WV2), "W_O": mj(self.WO2)},
            "output": ({"affine": {"w": [str(x) for x in self.out_affine[0]], "b": str(self.out_affine[1])}}
                       if self.out_ffn is None else {"ffn": self.out_ffn.to_json()}),
            "F1_design": {"theta": str(self.theta), "b": str(B_UNIT), "K": str(self.K)},
            "budgets": {"e2": str(self.e2_budget), "e4": str(self.e4_budget)},
            "params": self.params(), "max_abs_weight": str(self.max_weight()),
        }


# ----------------------------------------------------------------------------------------------- numbers

def _t2(b: Fraction) -> float:
    t = math.tanh(float(b))
    return -2 * t * (1 - t * t)


def _ln_hi(T: int) -> Fraction:
    from attncert.numeric.evaluate import log_enclosure

    return log_enclosure(Fraction(T), 128)[1]


def _sqrt_frac_below(x: float, den: int = 1 << 20) -> Fraction:
    return Fraction(math.floor(math.sqrt(x) * den), den)


def e2_bound_float(theta: Fraction, K: Fraction) -> float:
    """The F1 error bound of the certificate, in floats (for design only; the claim is rigorous)."""
    t2 = _t2(B_UNIT)
    th = float(theta)
    return 3 * (abs(4 * float(K) * th * th * t2 - 1) / 9 + abs(float(K)) * th ** 4 * float(M4) * 16 / 81 / 12)


def design_F1(e2_budget: Fraction) -> tuple[Fraction, Fraction, int]:
    """theta, K (rational, ~ 1/(4 theta^2 tanh''(b))) and N = ceil(|K|) with the bound <= e2_budget/1.05."""
    t2 = _t2(B_UNIT)
    # remainder ~ 3 |K| theta^4 M4 (16/81)/12 = theta^2 * c_r with c_r = 3 M4 16/(81*12*4|t2|)
    c_r = 3 * float(M4) * 16 / (81 * 12 * 4 * abs(t2))
    theta = min(Fraction(1), _sqrt_frac_below(float(e2_budget) / (1.1 * c_r)))
    K = Fraction(1 / (4 * float(theta) ** 2 * t2)).limit_denominator(1 << 40)
    while e2_bound_float(theta, K) > float(e2_budget) / 1.05:
        theta = theta * 15 / 16
        K = Fraction(1 / (4 * float(theta) ** 2 * t2)).limit_denominator(1 << 40)
    N = math.ceil(abs(K))
    return theta, K, N


def build(T: int, eps, variant: str = "printed") -> Thm4Net:
    T = as_int("T", T, 2)
    if T > MAX_T:
        raise InvalidParameter(f"T={T}: must be <= {MAX_T}")
    eps = as_fraction("eps", eps)
    if not 0 < eps < 1:
        raise InvalidParameter(f"eps={eps}: must be in (0, 1)")
    if eps < Fraction(1, 10 ** 6):
        raise InvalidParameter(f"eps={eps}: must be >= 1e-6 (F1 has about 3/eps units)")
    if variant not in VARIANTS:
        raise InvalidParameter(f"variant={variant!r}: must be one of {', '.join(VARIANTS)}")
    share = 54 if variant == "printed" else 72
    beta = math.ceil(share * _ln_hi(T) / eps)
    e2_budget = eps / share
    theta, K, N = design_F1(e2_budget)
    alpha = K / N
    # embedding (step 1), layer 1 (steps 2-3)
    embed = _zeros(D, 3)
    for i in range(3):
        embed[i][i] = Fraction(1, 3)
    WQ1, WK1, WV1, WO1 = _zeros(), _zeros(), _zeros(), _zeros()
    for i in range(3):
        WQ1[i][i], WK1[i][i], WO1[3 + i][i] = Fraction(-1), Fraction(1), Fraction(1)
    for i in range(D):
        WV1[i][i] = Fraction(1)
    # F1 (step 4): coordinate 0 ~ (x/3).v, coordinate 1 = 1/2 (bias), the rest 0
    groups = []
    for i in range(3):
        for sx, sy, sgn in ((1, 1, 1), (-1, -1, 1), (1, -1, -1), (-1, 1, -1)):
            groups.append(Group(((i, sx * theta), (3 + i, sy * theta)), B_UNIT, ((0, sgn * alpha),), N))
    F1 = FFN(D, D, tuple(groups), (Fraction(0), Fraction(1, 2), Fraction(0), Fraction(0), Fraction(0), Fraction(0)))
    # layer 2 (steps 5-6): (W_Q^T W_K)_{2,1} = -2 through two rows
    WQ2, WK2, WV2, WO2 = _zeros(), _zeros(), _zeros(), _zeros()
    WQ2[0][1] = WQ2[1][1] = Fraction(-1)
    WK2[0][0] = WK2[1][0] = Fraction(1)
    for i in range(D):
        WV2[i][i] = Fraction(1)
    for i in range(3):
        WO2[3 + i][i] = Fraction(1)
    c1 = tuple(Fraction(0) for _ in range(D))
    if variant == "printed":
        w = [Fraction(0)] * D
        w[3] = Fraction(18)
        out_affine, out_ffn, e4_budget, theta_o = (tuple(w), Fraction(2)), None, Fraction(0), Fraction(0)
    else:
        e4_budget = eps / 4
        cmax = Fraction(1, 3) + e2_budget
        # linear part: error <= 18 theta_o^2 cmax^3 M3 / 6; keep it <= e4_budget / 2
        theta_o = min(Fraction(1), _sqrt_frac_below(float(e4_budget / 2 / (18 * cmax ** 3 * M3 / 6))))
        N_o = math.ceil(18 / theta_o)
        alpha_o = 18 / (N_o * theta_o)
        th1 = math.tanh(1.0)
        alpha_c = Fraction(1 / (2 * th1)).limit_denominator(1 << 40)
        out_ffn = FFN(D, 1, (Group(((3, theta_o),), Fraction(0), ((0, alpha_o),), N_o),
                             Group((), Fraction(1), ((0, alpha_c),), 2)), (Fraction(1),))
        out_affine = None
    return Thm4Net(T=T, eps=eps, variant=variant, beta=beta, embed=_freeze(embed), c1=c1, WQ1=_freeze(WQ1),
                   WK1=_freeze(WK1), WV1=_freeze(WV1), WO1=_freeze(WO1), F1=F1, WQ2=_freeze(WQ2), WK2=_freeze(WK2),
                   WV2=_freeze(WV2), WO2=_freeze(WO2), out_affine=out_affine, out_ffn=out_ffn, theta=theta, K=K,
                   e2_budget=e2_budget, e4_budget=e4_budget, theta_o=theta_o)


# ----------------------------------------------------------------------------------------------- evaluation

def target(X):
    """F(X) = min_{s,t} 2(1 + x(s).x(t)) for a batch X of shape (B, T, 3) (numpy float64)."""
    import numpy as np

    G = np.einsum("bsi,bti->bst", X, X)
    return 2 * (1 + G.min(axis=(1, 2)))


def _np(m):
    import numpy as np

    return np.array([[float(x) for x in row] for row in m], dtype=np.float64)


def _ffn_np(f: FFN, Z):
    """Z: (..., dim_in) -> (..., dim_out); each group is evaluated once and scaled by its count."""
    import numpy as np

    out = np.broadcast_to(np.array([float(b) for b in f.out_bias]), Z.shape[:-1] + (f.dim_out,)).copy()
    for g in f.groups:
        pre = np.full(Z.shape[:-1], float(g.bias))
        for i, w in g.w:
            pre = pre + float(w) * Z[..., i]
        h = np.tanh(pre) * g.count
        for j, a in g.out:
            out[..., j] += float(a) * h
    return out


def forward_np(net: Thm4Net, X):
    """The network on a batch X (B, T, 3), float64, exactly equations (1)-(2) with the stored weights."""
    import numpy as np

    beta = float(net.beta)
    x1 = X @ _np(net.embed).T                                        # (B, T, 6)
    c1 = np.broadcast_to(np.array([float(v) for v in net.c1]), (X.shape[0], D))

    def attend(WQ, WK, WV, queries, keys):
        q = queries @ _np(WQ).T
        k = keys @ _np(WK).T
        s = beta * np.einsum("b...i,bsi->b...s", q, k)
        s = s - s.max(axis=-1, keepdims=True)
        p = np.exp(s)
        p = p / p.sum(axis=-1, keepdims=True)
        return np.einsum("b...s,bsi->b...i", p, keys @ _np(WV).T)

    x1p = x1 + attend(net.WQ1, net.WK1, net.WV1, x1, x1) @ _np(net.WO1).T
    c1p = c1 + attend(net.WQ1, net.WK1, net.WV1, c1, x1) @ _np(net.WO1).T
    x2, c2 = _ffn_np(net.F1, x1p), _ffn_np(net.F1, c1p)
    c2p = c2 + attend(net.WQ2, net.WK2, net.WV2, c2, x2) @ _np(net.WO2).T
    if net.out_ffn is None:
        w, b = net.out_affine
        return c2p @ np.array([float(x) for x in w]) + float(b)
    return _ffn_np(net.out_ffn, c2p)[..., 0]


def forward_mp(net: Thm4Net, Xrow, dps: int = 50):
    """One input (a list of T 3-vectors, exact or float) in mpmath at ``dps`` digits; returns (M2, F)."""
    import mpmath

    with mpmath.workdps(dps):
        mf = lambda x: mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)  # noqa: E731
        X = [[mf(Fraction(c)) if isinstance(c, (int, Fraction)) else mpmath.mpf(c) for c in row] for row in Xrow]
        mat = lambda m, v: [mpmath.fsum(mf(a) * b for a, b in zip(row, v)) for row in m]  # noqa: E731
        beta = mpmath.mpf(net.beta)

        def ffn(f, z):
            out = [mf(b) for b in f.out_bias]
            for g in f.groups:
                h = mpmath.tanh(mf(g.bias) + mpmath.fsum(mf(w) * z[i] for i, w in g.w)) * g.count
                for j, a in g.out:
                    out[j] += mf(a) * h
            return out

        def attend(WQ, WK, WV, q, keys):
            qq = mat(WQ, q)
            sc = [beta * mpmath.fsum(a * b for a, b in zip(qq, mat(WK, k))) for k in keys]
            top = max(sc)
            w = [mpmath.exp(s - top) for s in sc]
            Z = mpmath.fsum(w)
            vals = [mat(WV, k) for k in keys]
            return [mpmath.fsum(wi * v[i] for wi, v in zip(w, vals)) / Z for i in range(D)]

        def layer(WQ, WK, WV, WO, q, keys):
            a = attend(WQ, WK, WV, q, keys)
            return [qi + oi for qi, oi in zip(q, mat(WO, a))]

        x1 = [mat(net.embed, x) for x in X]
        c1 = [mf(v) for v in net.c1]
        x1p = [layer(net.WQ1, net.WK1, net.WV1, net.WO1, x, x1) for x in x1]
        c1p = layer(net.WQ1, net.WK1, net.WV1, net.WO1, c1, x1)
        x2 = [ffn(net.F1, z) for z in x1p]
        c2 = ffn(net.F1, c1p)
        c2p = layer(net.WQ2, net.WK2, net.WV2, net.WO2, c2, x2)
        if net.out_ffn is None:
            w, b = net.out_affine
            y = mpmath.fsum(mf(a) * c for a, c in zip(w, c2p)) + mf(b)
        else:
            y = ffn(net.out_ffn, c2p)[0]
        Fv = min(2 * (1 + mpmath.fsum(a * b for a, b in zip(xs, xt))) for xs in X for xt in X)
        return y, Fv


def certified_bound(net: Thm4Net) -> float:
    """The value the compositional certificate bounds sup |M2 - F| by (<= eps): 18 (2 ln T / beta + e2) + e4."""
    return 18 * (2 * math.log(net.T) / net.beta + float(net.e2_budget)) + float(net.e4_budget)


def adversarial_inputs(T: int, count: int, seed: int = 0):
    """Inputs that stress the construction: near-ties in the minimum, tokens on the boundary and at the
    corners of the cube, repeated tokens. Shape (count, T, 3), float64, seeded."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    corners = np.array([[a, b, c] for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)], dtype=np.float64)
    for j in range(count):
        kind = j % 4
        if kind == 0:      # cube corners
            X = corners[rng.integers(0, 8, size=T)]
        elif kind == 1:    # boundary: one coordinate pinned at +-1
            X = rng.uniform(-1, 1, size=(T, 3))
            idx = rng.integers(0, 3, size=T)
            X[np.arange(T), idx] = rng.choice([-1.0, 1.0], size=T)
        elif kind == 2:    # repeated tokens
            base = rng.uniform(-1, 1, size=(max(1, T // 3), 3))
            X = base[rng.integers(0, len(base), size=T)]
        else:              # near-ties: tokens = u + tiny perturbations, so many pairs share the minimum
            u = rng.uniform(-1, 1, size=3)
            X = np.clip(np.concatenate([u + 1e-9 * rng.standard_normal((T // 2, 3)),
                                        -u + 1e-9 * rng.standard_normal((T - T // 2, 3))]), -1, 1)
        out.append(X)
    return np.stack(out)


def evaluate(net: Thm4Net, random: int = 2000, adversarial: int = 400, seed: int = 0, batch: int = 256) -> dict:
    """Worst |M2 - F| in float64 on seeded random and adversarial inputs (CONFIRMED evidence, not proof)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    worst = {"random": 0.0, "adversarial": 0.0}
    arg = {}
    for name, total in (("random", random), ("adversarial", adversarial)):
        done = 0
        while done < total:
            b = min(batch, total - done)
            X = rng.uniform(-1, 1, size=(b, net.T, 3)) if name == "random" else adversarial_inputs(net.T, b, seed + done + 1)
            err = np.abs(forward_np(net, X) - target(X))
            if not np.all(np.isfinite(err)):
                raise InvalidParameter("float64 evaluation produced a non-finite value")
            i = int(err.argmax())
            if err[i] > worst[name]:
                worst[name], arg[name] = float(err[i]), X[i].tolist()
            done += b
    return {"worst_random": worst["random"], "worst_adversarial": worst["adversarial"], "worst_inputs": arg,
            "random": random, "adversarial": adversarial, "seed": seed}


# ----------------------------------------------------------------------------------------------- certificate

def _matprod_T(A: Matrix, Bm: Matrix, i: int, j: int):
    """(A^T B)_{ij} as a sum of products of the stored constants (the checker multiplies them)."""
    from attncert.core.expr import add, num

    return add(*[num(A[r][i]) * num(Bm[r][j]) for r in range(len(A))])


def _eye_shift(m: Matrix, shift: bool):
    """m == I (shift False) or m == [[0, 0], [I3, 0]] (shift True), entrywise, as exact atoms."""
    from attncert.core.expr import num

    atoms = []
    for i in range(D):
        for j in range(D):
            want = (1 if (i == j + 3 and j < 3) else 0) if shift else (1 if i == j else 0)
            atoms.append(num(m[i][j]).eq(want))
    return atoms


def certificate_claim(net: Thm4Net):
    """The compositional certificate: ONE closed claim over the network's exact weights (see module doc)."""
    from attncert.core.claims import claim
    from attncert.core.expr import abs_, and_, log, num
    from attncert.papers.infoflow.witness import tanh_tree

    atoms = []
    # step 1: the embedding (x/3, 0); the classification token 0
    for i in range(D):
        for j in range(3):
            atoms.append(num(net.embed[i][j]).eq(Fraction(1, 3) if i == j else 0))
    atoms += [num(c).eq(0) for c in net.c1]
    # step 2: W_Q1^T W_K1 = [[-I3, 0], [0, 0]]; step 3: W_V1 = I, W_O1 = [[0, 0], [I3, 0]]
    for i in range(D):
        for j in range(D):
            atoms.append(_matprod_T(net.WQ1, net.WK1, i, j).eq(-1 if (i == j and i < 3) else 0))
            atoms.append(_matprod_T(net.WQ2, net.WK2, i, j).eq(-2 if (i, j) == (1, 0) else 0))
    atoms += _eye_shift(net.WV1, False) + _eye_shift(net.WO1, True) + _eye_shift(net.WV2, False) + _eye_shift(net.WO2, True)
    # step 4: F1's structure: output bias (0, 1/2, 0, 0, 0, 0); groups output only to coordinate 0; each
    # coordinate i has the four groups (+-theta, +-theta) with bias b, output +-alpha, count N, N alpha = K
    atoms += [num(b).eq(w) for b, w in zip(net.F1.out_bias, (0, Fraction(1, 2), 0, 0, 0, 0))]
    th, K = num(net.theta), num(net.K)
    signs = ((1, 1, 1), (-1, -1, 1), (1, -1, -1), (-1, 1, -1))
    if len(net.F1.groups) != 12:
        raise InvalidParameter("F1 must have 12 groups")
    for gi, g in enumerate(net.F1.groups):
        i, (sx, sy, sgn) = gi // 4, signs[gi % 4]
        (ia, wa), (ib, wb) = g.w
        (jo, ao), = g.out
        if (ia, ib, jo) != (i, 3 + i, 0):
            raise InvalidParameter("F1 group wiring differs from the design")
        atoms += [num(wa).eq(sx * th), num(wb).eq(sy * th), num(g.bias).eq(B_UNIT), (g.count * num(ao)).eq(sgn * K)]
    t = tanh_tree(num(B_UNIT))
    t2 = -2 * t * (1 - t * t)
    e2 = 3 * (abs_(4 * K * th * th * t2 - 1) / 9 + abs_(K) * th ** 4 * num(M4) * Fraction(16, 81) / 12)
    atoms.append(e2 <= num(net.e2_budget))
    e4 = num(0)
    if net.variant == "repaired":
        f = net.out_ffn
        (g_lin, g_const) = f.groups
        (ci, tho), = g_lin.w
        (_, a_lin), = g_lin.out
        (_, a_c), = g_const.out
        atoms += [num(ci).eq(3), num(g_lin.bias).eq(0), (g_lin.count * num(a_lin) * num(tho)).eq(18),
                  num(len(g_const.w)).eq(0), num(g_const.bias).eq(1), num(f.out_bias[0]).eq(1)]
        cmax = Fraction(1, 3) + net.e2_budget
        e4 = (abs_(g_lin.count * num(a_lin)) * (num(tho) * cmax) ** 3 * num(M3) / 6
              + abs_(1 + g_const.count * num(a_c) * tanh_tree(num(1)) - 2))
        atoms.append(e4 <= num(net.e4_budget))
        # the constraint of A.1: every weight and bias is at most 1 in magnitude
        mats = (net.embed, net.WQ1, net.WK1, net.WV1, net.WO1, net.WQ2, net.WK2, net.WV2, net.WO2)
        ws = sorted({abs(x) for m in mats for row in m for x in row} | {abs(x) for x in net.c1}
                    | {abs(x) for ff in (net.F1, f) for g in ff.groups for _, x in g.w + g.out}
                    | {abs(g.bias) for ff in (net.F1, f) for g in ff.groups} | {abs(b) for ff in (net.F1, f) for b in ff.out_bias})
        atoms += [num(w) <= 1 for w in ws]
    else:
        w, b = net.out_affine
        atoms += [num(x).eq(18 if i == 3 else 0) for i, x in enumerate(w)] + [num(b).eq(2)]
    # the total: 18 (e1 + e2 + e3) + e4 <= eps, e1 = e3 = log(T)/beta (infoflow.thm4.boltzmann_min_bound)
    atoms.append(18 * (2 * log(num(net.T)) / net.beta + num(net.e2_budget)) + num(net.e4_budget) <= num(net.eps))
    return claim([], [], and_(*atoms))


def certificate_obligation(net: Thm4Net):
    from attncert.core.claims import Obligation

    uses = ("infoflow.thm4.boltzmann_min_bound", "infoflow.thm4.weighted_avg_ge_min", "infoflow.thm4.ffn_product_error",
            "infoflow.thm4.ffn_domain", "infoflow.thm4.tanh4_bound", "infoflow.thm4.tanh3_bound",
            "infoflow.thm4.output_linear_error", "infoflow.thm4.budget_repaired", "infoflow.thm4.budget_network",
            "infoflow.thm4.layer1_score", "infoflow.thm4.layer2_score")
    eps_s = str(net.eps)
    return Obligation(
        id=f"infoflow.thm4.construction.{net.variant}.T{net.T}.eps{eps_s.replace('/', '_')}", paper="infoflow",
        ref="infoflow:A.1 Part 2 (L520-560), compositional certificate",
        statement=(f"the {net.variant} two-layer network (T = {net.T}, eps = {eps_s}, beta = {net.beta}) has "
                   f"sup over [-1,1]^(3T) of |M2 - F| <= 18 (2 ln T / beta + e2) + e4 <= eps: its weights implement "
                   f"steps 1-6 exactly, F1's error is <= e2 = {net.e2_budget}"
                   + (f", the output block's is <= e4 = {net.e4_budget}, and every weight is <= 1 in magnitude"
                      if net.variant == "repaired" else "")),
        claim=certificate_claim(net), methods=("interval",), family="infoflow_thm4_construction",
        options=(("uses", uses),))
