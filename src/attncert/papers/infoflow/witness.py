"""Constructive witnesses: the pigeonhole pair of Theorem 5 turned into a checkable certificate.

The pair (z, z') comes from the vectorised search in ``pigeonhole``; everything that matters is then
stated as ONE closed claim (no variables) over exact rationals, exp and max/min, and proved by the
interval backend, so ``attncert verify`` re-checks it with its own arithmetic without searching:

  |F_k(X) - F_k(Y)| >= 4 eps                        (F_k as a max of mins: exact, ties counted, L567)
  (P - 1)^2 * n * ||A(X) - A(Y)||_2^2 < 4 eps^2     (so 2 eps / (sqrt(n) ||A(X) - A(Y)||_2) > P - 1)
  and, when the pair shares an eta-cube, the proof's own inequalities on it: |S(z) - S(z')| <= eta
  coordinatewise (L649-657), B_X >= k - 1 (L693) and |A(X) - A(Y)| <= 2 eta / (k - 1) (L722)

where A(X) = sum_t e^{beta x_t} f1(x_t) / sum_t e^{beta x_t} (44) and tanh u = (e^{2u} - 1)/(e^{2u} + 1).
With the PROVED steps L730-766 (|f2(A(X)) - f2(A(Y))| >= 2 eps and the p sqrt(n) Lipschitz bound), any
f2 of hidden width p, weights <= 1, that eps-approximates F_k on top of this f1 and rho has p >= P."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from attncert.core.claims import Obligation, claim
from attncert.core.errors import InvalidParameter
from attncert.core.params import as_fraction, as_int, check_limit, sci
from attncert.core.expr import E, abs_, add, and_, exp, log, max_, min_, num

USES = ("infoflow.thm5.separation_at_least_delta", "infoflow.thm5.lipschitz_758_sum.p2",
        "infoflow.thm5.width_bound_766", "infoflow.thm5.coord_bound_717")
MAX_TOKENS_FOR_EXACT_FK = 12


def tanh_tree(u: E) -> E:
    return (exp(2 * u) - 1) / (exp(2 * u) + 1)


def f1_tree(net, x: Fraction) -> list[E]:
    """f1(x) for a scalar input, as trees with the network's exact weights."""
    hid = [tanh_tree(num(row[0] * x + b)) for row, b in zip(net.W1, net.b1)]
    return [add(*[w * h for w, h in zip(row, hid)]) + b for row, b in zip(net.W2, net.b2)]


def attention_tree(net, beta: Fraction, X) -> list[E]:
    """A(X) of (44): the softmax-weighted average of f1 over the tokens, one tree per coordinate."""
    ws = [exp(num(beta * x)) for x in X]
    fs = [f1_tree(net, x) for x in X]
    Z = add(*ws)
    return [add(*[w * f[l] for w, f in zip(ws, fs)]) / Z for l in range(net.d_out)]


def kth_largest_tree(X, k: int) -> E:
    """F_k(X) = max over k-subsets of the min of the subset: the k-th largest with multiplicity."""
    if len(X) > MAX_TOKENS_FOR_EXACT_FK:
        raise InvalidParameter(f"T={len(X)}: witness certificates state F_k exactly only for T <= {MAX_TOKENS_FOR_EXACT_FK}")
    return max_(*[min_(*[num(X[i]) for i in S]) for S in itertools.combinations(range(len(X)), k)])


@dataclass(slots=True, frozen=True)
class Thm5Witness:
    obligation: Obligation
    X: tuple
    Y: tuple
    z: tuple
    zprime: tuple
    distance_float: float
    width_bound: int
    same_cube: bool
    seconds: float
    candidates: int


def S_tree(net, beta: Fraction, z) -> list[E]:
    """S(z) = (sum_j a(z_j), sum_j b(z_j)) with b(x) = lambda(x) = e^{beta (x - 1)}, a = lambda f1 (L601, L633)."""
    lam = [exp(num(beta * (x - 1))) for x in z]
    fs = [f1_tree(net, x) for x in z]
    return [add(*[l_ * f[i] for l_, f in zip(lam, fs)]) for i in range(net.d_out)] + [add(*lam)]


def width_bound(d2: E, eps: Fraction, n: int) -> int:
    """The largest integer P with (P - 1)^2 n d2 < 4 eps^2, using a rigorous upper bound of d2 (a squared
    l2 distance as a closed tree): then 2 eps / (sqrt(n) ||.||_2) > P - 1, so any width p >= P."""
    from attncert.backends.arb import arb_eval, upper_fraction

    hi = upper_fraction(arb_eval(d2.node, {}, 256))
    if hi <= 0:
        return 1
    q = 4 * eps * eps / (n * hi)
    r = isqrt(q.numerator // q.denominator)
    return max(1, r + 1 if Fraction(r * r) < q else r)


def thm5_obligation(net, beta, T, k, n, eps, X, Y, P: int, label: str, z=None, zprime=None, N=None) -> Obligation:
    eps = Fraction(eps)
    m = T - k + 1
    AX, AY = attention_tree(net, beta, X), attention_tree(net, beta, Y)
    dA2 = add(*[(a - b) * (a - b) for a, b in zip(AX, AY)])
    sep = kth_largest_tree(X, k) - kth_largest_tree(Y, k)
    parts = [abs_(sep) >= 4 * num(eps), (P - 1) ** 2 * n * dA2 < 4 * num(eps) ** 2]
    if z is not None:
        # the proof's own inequalities on this pair: S-closeness within eta (L649-657), B_X >= k - 1
        # (L693), and the coordinate bound 2 eta / (k - 1) (L722); eta = 4 m N^{-m/(n+1)} (L641)
        eta = 4 * m * exp(-Fraction(m, n + 1) * log(num(N)))
        Sz, Szp = S_tree(net, beta, z), S_tree(net, beta, zprime)
        parts += [abs_(a - b) <= eta for a, b in zip(Sz, Szp)]
        BX = add(*[exp(num(beta * (x - 1))) for x in X])
        parts.append(BX >= k - 1)
        parts += [abs_(a - b) <= 2 * eta / (k - 1) for a, b in zip(AX, AY)]
    goal = and_(*parts)
    stmt = (f"witness ({label}): X, Y with |F_k(X) - F_k(Y)| >= 4 eps and (P-1)^2 n ||A(X)-A(Y)||^2 < 4 eps^2, "
            f"so any f2 (weights <= 1) needs width p >= {P} (T={T}, k={k}, n={n}, eps={eps})")
    return Obligation(id=f"infoflow.thm5.witness.{label}", paper="infoflow", ref="infoflow:A.2 (L649-766) witness",
                      statement=stmt, claim=claim([], [], goal), methods=("interval",),
                      options=(("uses", USES),), family="infoflow_thm5_witness")


def thm5(T: int, k: int, n: int, eps, seed: int = 0, beta=1, hidden: int = 4, backend: str = "numpy",
         max_candidates: int | None = None) -> Thm5Witness:
    """Search the pigeonhole pair for a seeded f1 and rho(x) = beta x, and state it as a certificate claim."""
    from attncert.papers.infoflow import pigeonhole as ph

    T, k, n, hidden = as_int("T", T, 2), as_int("k", k, 2), as_int("n", n, 1), as_int("hidden", hidden, 1)
    if k > T:
        raise InvalidParameter(f"k={k}: must be <= T={T}")
    try:
        beta = Fraction(str(beta))
    except ValueError:
        raise InvalidParameter(f"rho beta={beta!r}: not a number") from None
    if beta < 0:
        raise InvalidParameter(f"rho beta={beta}: must be >= 0 (rho(x) = beta x must be non-decreasing)")
    m = T - k + 1
    net = ph.TanhNet.seeded(1, n, hidden, seed)
    kw = {} if max_candidates is None else {"max_candidates": max_candidates}
    pair = ph.find_pair(net, beta, m, n, eps, k, backend=backend, **kw)
    if pair.z is None:
        raise InvalidParameter(f"no pair: N^m = {pair.candidates} candidate sequences give no two distinct ones")
    X, Y = ph.build_XY(pair.z, pair.zprime, k, T)
    eps = Fraction(eps)
    # rigorous upper bound of ||A(X) - A(Y)||_2^2, then the width bound P
    AX, AY = attention_tree(net, beta, X), attention_tree(net, beta, Y)
    P = width_bound(add(*[(a - b) * (a - b) for a, b in zip(AX, AY)]), eps, n)
    label = f"T{T}_k{k}_n{n}_eps{eps.numerator}_{eps.denominator}_seed{seed}_beta{beta.numerator}_{beta.denominator}"
    ob = thm5_obligation(net, beta, T, k, n, eps, X, Y, P, label,
                         *((pair.z, pair.zprime, pair.N) if pair.same_cube else (None, None, None)))
    return Thm5Witness(ob, X, Y, tuple(pair.z), tuple(pair.zprime), float(pair.distance), P,
                       bool(pair.same_cube), pair.total_seconds, int(pair.candidates))


# ------------------------------------------------------------------------------------------ Theorem 6


class _GridNetSource:
    """f1 evaluated on the packing grid {0, 4 eps, 8 eps, ...}^m (L995): K^m candidates in R^n, computed
    elementwise in a fixed order (no matmul), so every backend gives the same bits."""

    def __init__(self, net, K: int, eps: Fraction):
        from attncert.papers.infoflow import pigeonhole as ph

        self._ph = ph
        self.net, self.K, self.step = net, K, float(4 * eps)
        self.m, self.dim = net.d_in, net.d_out
        self.count = K ** self.m
        W1, b1, W2, b2 = net._float
        self.W1, self.b1, self.W2, self.b2 = W1.tolist(), b1.tolist(), W2.tolist(), b2.tolist()

    def bounds(self):
        return [0.0] * self.dim, [1.0] * self.dim

    def ranges(self, chunk: int):
        return [(a, min(a + chunk, self.count)) for a in range(0, self.count, chunk)]

    def values(self, xp, start: int, stop: int):
        return self.values_at(xp, xp.arange(start, stop))

    def values_at(self, xp, idx):
        coords, rest = [], idx
        for _ in range(self.m):
            coords.append((rest % self.K) * self.step)
            rest = rest // self.K
        coords = coords[::-1]  # first coordinate is the most significant digit
        hidden = []
        for r in range(len(self.W1)):
            acc = coords[0] * self.W1[r][0]
            for j in range(1, self.m):
                acc = acc + coords[j] * self.W1[r][j]
            hidden.append(xp.mod.tanh(acc + self.b1[r]))
        outs = []
        for l in range(self.dim):
            acc = hidden[0] * self.W2[l][0]
            for r in range(1, len(hidden)):
                acc = acc + hidden[r] * self.W2[l][r]
            outs.append(acc + self.b2[l])
        return xp.stack(outs)


def f1_tree_vec(net, V) -> list[E]:
    hid = [tanh_tree(num(sum((w * v for w, v in zip(row, V)), Fraction(0)) + b)) for row, b in zip(net.W1, net.b1)]
    return [add(*[w * h for w, h in zip(row, hid)]) + b for row, b in zip(net.W2, net.b2)]


@dataclass(slots=True, frozen=True)
class Thm6Witness:
    obligation: Obligation
    V1: tuple
    V2: tuple
    distance_float: float
    width_bound: int
    candidates: int
    seconds: float


def thm6(T0: int, d: int, n: int, eps, seed: int = 0, hidden: int = 4, backend: str = "numpy",
         max_candidates: int = 2 * 10 ** 8) -> Thm6Witness:
    """The packing pair of A.3 (L995) for a seeded f1: [0,1]^m -> [0,1]^n, m = T0 d, and the implied width
    bound for any f2 (weights <= 1) with L-infinity round-trip error <= eps (L999-1012)."""
    from attncert.papers.infoflow import pigeonhole as ph

    T0, d, n, hidden = as_int("T0", T0, 1), as_int("d", d, 1), as_int("n", n, 1), as_int("hidden", hidden, 1)
    eps = as_fraction("eps", eps)
    if not 0 < eps <= Fraction(1, 4):
        raise InvalidParameter(f"eps={eps}: must be in (0, 1/4] (the packing grid needs 4 eps <= 1)")
    m = T0 * d
    K = int(1 / (4 * eps)) + 1
    check_limit(f"eps={sci(eps) if eps.denominator > 10 ** 12 else eps}, m = T0 d = {m}: the packing grid has "
                f"K^m = {sci(K)}^{m} =", max_candidates, log10=m * math.log10(K), unit="grid points",
                hint="use a larger eps or a smaller T0 d (the limit is max_candidates)")
    net = ph.TanhNet.seeded(m, n, hidden, seed)
    src = _GridNetSource(net, K, eps)
    eta = 2.0 * K ** (-m / n)
    res = ph.search(src, eta, backend=backend)
    if res.pair is None:
        raise InvalidParameter("fewer than two grid points")
    def point(i):
        ks = []
        for _ in range(m):
            ks.append(i % K)
            i //= K
        return tuple(4 * eps * k for k in ks[::-1])
    V1, V2 = point(res.pair[0]), point(res.pair[1])
    F1, F2 = f1_tree_vec(net, V1), f1_tree_vec(net, V2)
    du2 = add(*[(a - b) * (a - b) for a, b in zip(F1, F2)])
    P = width_bound(du2, eps, n)
    sep = max_(*[abs_(num(a - b)) for a, b in zip(V1, V2)])
    goal = and_(sep >= 4 * num(eps), (P - 1) ** 2 * n * du2 < 4 * num(eps) ** 2)
    label = f"T0{T0}_d{d}_n{n}_eps{eps.numerator}_{eps.denominator}_seed{seed}"
    stmt = (f"witness ({label}): V1, V2 in [0,1]^{m} with ||V1 - V2||_inf >= 4 eps and (P-1)^2 n ||f1(V1) - f1(V2)||^2 < "
            f"4 eps^2, so any f2 (weights <= 1) with L-inf round-trip error <= eps needs width p >= {P}")
    ob = Obligation(id=f"infoflow.thm6.witness.{label}", paper="infoflow", ref="infoflow:A.3 (L995-1012) witness",
                    statement=stmt, claim=claim([], [], goal), methods=("interval",),
                    options=(("uses", ("infoflow.thm5.lipschitz_758_sum.p2", "infoflow.thm5.width_bound_766")),),
                    family="infoflow_thm6_witness")
    return Thm6Witness(ob, V1, V2, float(res.distance), P, K ** m, sum(res.seconds.values()))
