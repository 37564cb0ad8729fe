"""Targets for the InfoFlow model: the paper's built-in examples and a registry for user targets.

A target is a Python function F(X) of T tokens (each a tuple of d coordinates) written with + - * /
integer powers and min/max, so that its active index set is computed by exact differentiation. Each
target carries its Dimension of Comparison beta_1 (used in (5)), the Number of Comparison of the target
where the paper states it (with its provenance), and a *plan*: the update rules that InfoFlow's step 2
uses to learn it on a given architecture (heads and embedding dimension per layer)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from math import comb
from typing import Callable

from attncert.core.errors import InvalidParameter, UsageError
from attncert.papers.infoflow.model import GlobalAggregation, InfoFlowModel, Keep, Layer, MaxRetrieval, SpecificPositions


def dot(u, v):
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


def quad(u, A, v):
    """u^T A v for a matrix A of Fractions."""
    return sum((u[i] * A[i][j] * v[j] for i in range(len(u)) for j in range(len(v))), Fraction(0))


@dataclass(slots=True, frozen=True)
class Bound:
    """A Number of Comparison bound and where it comes from ("paper: D (L...)" or "attncert: ...")."""

    value: int
    source: str


@dataclass(slots=True, frozen=True)
class Target:
    """A registered target. ``fn(X, params)``; ``plan(T, heads, embs, params, variant)`` -> InfoFlowModel."""

    name: str
    description: str
    ref: str
    fn: Callable
    beta1: int
    d: int
    plan: Callable
    upper: Callable | None = None      # (T, params) -> Bound
    lower: Callable | None = None      # (T, params) -> Bound
    params: dict = field(default_factory=dict)

    def F(self, params: dict | None = None) -> Callable:
        p = dict(self.params, **(params or {}))
        return lambda X: self.fn(X, p)


TARGETS: dict[str, Target] = {}


def register_target(t: Target) -> Target:
    """Add a target to the registry (the names used by ``attncert infoflow --target``)."""
    if t.name in TARGETS:
        raise UsageError(f"target {t.name!r} is already registered")
    TARGETS[t.name] = t
    return t


def get_target(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        raise InvalidParameter(f"--target {name!r}: unknown; known targets: {', '.join(sorted(TARGETS))}") from None


def _layers(heads, embs, rules_per_layer) -> list[Layer]:
    out = []
    for l, (h, e) in enumerate(zip(heads, embs)):
        default, rules = rules_per_layer[l] if l < len(rules_per_layer) else (Keep(), {})
        out.append(Layer(h, e, default, rules))
    return out


def _fit(scores, h):
    """The plan's heads that the architecture has room for (the rest are dropped: the plan may fail)."""
    return tuple(scores[:h])


# ------------------------------------------------------------------------------------------------
# min-inner-product (Appendix E, Figure 5): F = min_{s,t} x(t)^T x(s)


def _minip(X, p):
    T = len(X)
    return min(dot(X[t], X[s]) for t in range(T) for s in range(T))


def A11_printed(a, b):
    """Appendix E: A_{1,1}(X[I(t,0)], X[I(s,0)]) = min over t' in I(t,0), s' in I(s,0) of x(t')^T x(s')."""
    return min(dot(u, v) for u in a for v in b)


def A21_printed(a, b):
    """Appendix E: A_{2,1}(X[I(5,1)], X[I(s,1)]) = min over s1, s2 in I(s,1) of x(s1)^T x(s2)."""
    return min(dot(u, v) for u in b for v in b)


def A11_repaired(a, b):
    """The score whose argmax gives the printed values (65): minus the printed score."""
    return -A11_printed(a, b)


def A21_repaired(a, b):
    return -A21_printed(a, b)


def _plan_minip(T, heads, embs, p, variant="repaired"):
    A1, A2 = (A11_printed, A21_printed) if variant == "printed" else (A11_repaired, A21_repaired)
    T1 = T + 1
    rules = [(MaxRetrieval(_fit((A1,), heads[0])), {T1: Keep()})]
    if len(heads) >= 2:
        rules.append((Keep(), {T1: MaxRetrieval(_fit((A2,), heads[1]))}))
    return InfoFlowModel(T, p["d"], _layers(heads, embs, rules))


APPENDIX_E_INPUT = [(Fraction(0), Fraction(-1)), (Fraction(7, 10), Fraction(7, 10)), (Fraction(0), Fraction(1)),
                    (Fraction(-1, 5), Fraction(-9, 10))]

register_target(Target(
    "min-inner-product", "F(X) = min_{1<=s,t<=T} x(t)^T x(s) (Appendix E, Figure 5)", "infoflow:App. E", _minip,
    beta1=2, d=2, plan=_plan_minip,
    upper=lambda T, p: Bound(T * (T + 1) // 2 - 1, "attncert: one tree over the T(T+1)/2 unordered pairs "
                             "with repetition (x^T y is symmetric), as in B.1 with D = 1; not printed in the paper"),
    params={"d": 2}))


# ------------------------------------------------------------------------------------------------
# generalized D-retrieval: F = F0(+_i max_t f_i(x(t))), here f_i(x) = -||x - z_i||^2, F0 = sum


def _z(i, d):
    return tuple(Fraction((i * 7 + j * 3) % 11 - 5, 10) for j in range(d))


def _dret(X, p):
    D, d = p["D"], len(X[0])
    return sum((max(-dot(tuple(a - b for a, b in zip(x, _z(i, d))), tuple(a - b for a, b in zip(x, _z(i, d))))
                    for x in X) for i in range(D)), Fraction(0))


def _plan_dret(T, heads, embs, p, variant="repaired"):
    d = p["d"]

    def head(i):
        return lambda a, b: -sum((dot(tuple(u - w for u, w in zip(x, _z(i, d))),
                                      tuple(u - w for u, w in zip(x, _z(i, d)))) for x in b), Fraction(0))

    rules = [(Keep(), {T + 1: MaxRetrieval(_fit(tuple(head(i) for i in range(p["D"])), heads[0]))})]
    return InfoFlowModel(T, d, _layers(heads, embs, rules))


register_target(Target(
    "d-retrieval", "F(X) = sum_{i<=D} max_t f_i(x(t)), f_i(x) = -||x - z_i||^2 (generalized D-retrieval, 5.3)",
    "infoflow:5.3, D.1", _dret, beta1=1, d=1, plan=_plan_dret,
    upper=lambda T, p: Bound(p["D"] * (T - 1), "paper: D(T-1) (5.3, D.1)"),
    lower=lambda T, p: Bound(max(p["D"] * (T - p["D"]), 0), "paper: D(T-D) (5.3, D.1; meaningful for T > D)"),
    params={"D": 2, "d": 1}))


# ------------------------------------------------------------------------------------------------
# pairwise (6): F = sum_i max_{s,t} x(s)^T A_i x(t)


def _A(i, d):
    return tuple(tuple(Fraction(((i + 1) * (3 * r + 5 * c + 1)) % 7 - 3, 4) for c in range(d)) for r in range(d))


def _pairwise(X, p):
    D, d = p["D"], len(X[0])
    return sum((max(quad(xs, _A(i, d), xt) for xs in X for xt in X) for i in range(D)), Fraction(0))


def _plan_pairwise(T, heads, embs, p, variant="repaired"):
    """(49)-(50): layer 1, head i at every t: s_i(t) = argmax_s x(s)^T A_i x(t); layer 2, head i at
    CLS: the position whose set holds the largest pair value max_{u,v in I(s,1)} x(u)^T A_i x(v)."""
    D, d = p["D"], p["d"]

    def h1(i):
        return lambda a, b: quad(b[0], _A(i, d), a[0])

    def h2(i):
        return lambda a, b: max(quad(u, _A(i, d), v) for u in b for v in b)

    T1 = T + 1
    rules = [(MaxRetrieval(_fit(tuple(h1(i) for i in range(D)), heads[0])), {T1: Keep()})]
    if len(heads) >= 2:
        rules.append((Keep(), {T1: MaxRetrieval(_fit(tuple(h2(i) for i in range(D)), heads[1]))}))
    return InfoFlowModel(T, d, _layers(heads, embs, rules))


register_target(Target(
    "pairwise", "F(X) = sum_{i<=D} max_{s,t} x(s)^T A_i x(t) (target (6), 6.1)", "infoflow:6.1 (6)", _pairwise,
    beta1=2, d=2, plan=_plan_pairwise,
    upper=lambda T, p: Bound(p["D"] * (T * T - 1), "paper: D trees of T^2 leaves, D(T^2 - 1) = DT^2 + o(T^2) (B.1)"),
    lower=lambda T, p: Bound(max(comb(T, 2) - p["D"], 0), "attncert: every {t1,t2}, t1 != t2, on a leaf (B.1, as in D.1): "
                             "C(T,2) - D; the paper prints only Omega(T^2)"),
    params={"D": 2, "d": 2}))


# ------------------------------------------------------------------------------------------------
# triangle-center (7): F = min_{t1,t2,t3} ||x(t1) + x(t2) + x(t3)||^2


def _triangle(X, p):
    out = None
    for a, b, c in product(X, repeat=3):
        s = tuple(u + v + w for u, v, w in zip(a, b, c))
        v = dot(s, s)
        out = v if out is None or v < out else out
    return out


def _plan_triangle(T, heads, embs, p, variant="repaired"):
    """Global aggregation at the CLS token in the first layer (rule (2)); cost eps^(1 - T d/E)."""
    rules = [(Keep(), {T + 1: GlobalAggregation()})]
    return InfoFlowModel(T, p["d"], _layers(heads, embs, rules))


register_target(Target(
    "triangle-center", "F(X) = min_{t1,t2,t3} ||x(t1)+x(t2)+x(t3)||_2^2 (target (7), 6.2)", "infoflow:6.2 (7), D.1",
    _triangle, beta1=3, d=2, plan=_plan_triangle,
    upper=lambda T, p: Bound(T ** 3 - 1, "paper: T^3 - 1 (D.1)"),
    lower=lambda T, p: Bound(max(comb(T, 3) - 3, 0), "paper: C(T,3) - 3 (D.1)"),
    params={"d": 2}))


# ------------------------------------------------------------------------------------------------
# sum-first-three: F = x(1) + x(2) + x(3) (Figure 4), summed over coordinates


def _sum3(X, p):
    return sum((v for x in X[:3] for v in x), Fraction(0))


def _plan_sum3(T, heads, embs, p, variant="repaired"):
    """Specific position aggregation at CLS: I'(T+1, 1) = {1, 2, 3} (rule (3))."""
    rules = [(Keep(), {T + 1: SpecificPositions(lambda t, l: range(1, min(3, T) + 1))})]
    return InfoFlowModel(T, p["d"], _layers(heads, embs, rules))


register_target(Target(
    "sum-first-three", "F(X) = x(1) + x(2) + x(3), coordinates summed (Figure 4, 4.3)", "infoflow:4.3, Fig. 4",
    _sum3, beta1=1, d=1, plan=_plan_sum3,
    upper=lambda T, p: Bound(0, "attncert: three one-leaf trees {1}, {2}, {3}: no comparison (not in the paper)"),
    lower=lambda T, p: Bound(0, "attncert: trivially >= 0"),
    params={"d": 1}))
