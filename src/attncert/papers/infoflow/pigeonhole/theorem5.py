"""Theorem 5 (L605-680): the tables of the first layer on the grids, the pigeonhole pair search, and the
inputs X, Y built from a pair (``build_XY``); ``find_pair_reference`` is the pure-Python reference."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from attncert.core.errors import InvalidParameter
from attncert.core.params import as_fraction, as_int
from attncert.papers.infoflow.pigeonhole.nets import TanhNet
from attncert.papers.infoflow.pigeonhole.grids import DEFAULT_MAX_CANDIDATES, GridSet, _eta, grids
from attncert.papers.infoflow.pigeonhole.layout import SAMPLE_MAX, make_layout
from attncert.papers.infoflow.pigeonhole.search import DEFAULT_WINDOW, SearchResult, SumSource, _INF, _better, _default_chunk, search




def _check_f1(f1: TanhNet, n: int) -> None:
    if not isinstance(f1, TanhNet):
        raise InvalidParameter(f"f1 must be a TanhNet, got {type(f1).__name__}")
    if f1.d_in != 1 or f1.d_out != n:
        raise InvalidParameter(f"f1 must map R^1 -> R^n with n={n}, got R^{f1.d_in} -> R^{f1.d_out}")


def _check_beta(beta) -> Fraction:
    beta = as_fraction("beta", beta)
    if beta < 0:
        raise InvalidParameter(f"beta={beta}: must be >= 0 (rho(x) = beta x must be non-decreasing)")
    return beta


def theorem5_tables(f1: TanhNet, beta, gs: GridSet) -> np.ndarray:
    """(m, N, n+1) float64: a(x) = lambda(x) f1(x) (n columns) and b(x) = lambda(x) at the points of
    G_j, lambda(x) = exp(beta (x - 1)) = exp(rho(x) - rho(1)). Clipped to [0, 1] (a no-op in exact
    arithmetic; it keeps float sums of m entries inside [0, m])."""
    bf = float(_check_beta(beta))
    out = np.empty((gs.m, gs.N, f1.d_out + 1))
    for j, G in enumerate(gs.G):
        x = G.floats()
        lam = np.exp(bf * (x - 1.0))
        out[j, :, :-1] = lam[:, None] * f1.eval_np(x[:, None])
        out[j, :, -1] = lam
    np.clip(out, 0.0, 1.0, out=out)
    return out


def theorem5_tables_py(f1: TanhNet, beta, gs: GridSet) -> list:
    """The same tables in plain Python (math.exp, TanhNet.eval_py): nested lists [j][i][d]."""
    bf = float(_check_beta(beta))
    out = []
    for G in gs.G:
        rows = []
        for i in range(gs.N):
            x = float(G[i])
            lam = math.exp(bf * (x - 1.0))
            rows.append([min(max(lam * v, 0.0), 1.0) for v in f1.eval_py([x])] + [min(max(lam, 0.0), 1.0)])
        out.append(rows)
    return out


def keys_possible(m: int, D: int, eta: float) -> int:
    """Number of float cube keys that points of [0, m]^D can get: (floor(fl(m fl(1/eta))) + 1)^D."""
    return (math.floor(m * (1.0 / eta)) + 1) ** D


@dataclass
class WitnessPair:
    """A candidate pigeonhole pair for Theorem 5 (module doc). Indices are 0-based: z_index[j] = i means
    z_{j+1} = alpha_{j+1} + (i + 1) Delta. z precedes zprime lexicographically. ``distance`` is the float
    l_inf distance ||S(z) - S(z')||_inf; ``same_cube``: they share a (float) eta-cube; ``forced``: the
    candidates outnumber the possible cube keys (then ``same_cube`` is guaranteed)."""

    m: int
    n: int
    k: int
    T: int
    eps: Fraction
    beta: Fraction
    N: int
    Delta: Fraction
    eta: float
    candidates: int
    z_index: tuple[int, ...] | None
    zprime_index: tuple[int, ...] | None
    z: tuple[Fraction, ...] | None
    zprime: tuple[Fraction, ...] | None
    distance: float
    same_cube: bool
    keys_possible: int
    forced: bool
    occupied_cubes: int
    collision_cubes: int
    max_occupancy: int
    window: int | None
    backend: str
    device: str
    seconds: dict[str, float]
    collisions: list[tuple[int, ...]] | None = field(default=None, repr=False)

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())

    @property
    def candidates_per_s(self) -> float:
        t = self.total_seconds
        return self.candidates / t if t > 0 else _INF

    def xy(self):
        """X, Y of the proof (L665-673) built from this pair."""
        if self.z is None:
            raise InvalidParameter("no pair (fewer than two candidates)")
        return build_XY(self.z, self.zprime, self.k, self.T)


def _unflatten(i: int, N: int, m: int) -> tuple[int, ...]:
    out = []
    for _ in range(m):
        i, r = divmod(i, N)
        out.append(r)
    return tuple(reversed(out))


def _setup(f1, beta, m, n, eps, k, max_candidates):
    m = as_int("m", m, 1)
    n = as_int("n", n, 1)
    k = as_int("k", k, 2)
    _check_f1(f1, n)
    beta = _check_beta(beta)
    gs = grids(m, eps, max_candidates=max_candidates)
    return m, n, k, beta, gs


def _record(m, n, k, beta, gs, eta, pair, dist, occ, coll, mx, window, backend, device, secs, ckeys):
    kp = keys_possible(m, n + 1, eta)
    M = gs.candidates
    forced = M > kp
    if forced and not coll:
        raise AssertionError(f"pigeonhole: {M} candidates > {kp} cube keys, yet no cube holds two")
    if pair is None:
        zi = zpi = z = zp = None
    else:
        zi, zpi = _unflatten(pair[0], gs.N, m), _unflatten(pair[1], gs.N, m)
        z = tuple(gs.G[j][zi[j]] for j in range(m))
        zp = tuple(gs.G[j][zpi[j]] for j in range(m))
    return WitnessPair(m, n, k, m + k - 1, gs.eps, beta, gs.N, gs.Delta, eta, M, zi, zpi, z, zp, dist, coll > 0,
                       kp, forced, occ, coll, mx, window, backend, device, secs, ckeys)


def find_pair(f1: TanhNet, beta, m: int, n: int, eps, k: int, backend: str = "numpy", chunk: int | None = None, *,
              window: int | None = DEFAULT_WINDOW, order: str = "grid", seed: int = 0,
              max_candidates: int = DEFAULT_MAX_CANDIDATES, workers: int | None = None,
              return_collisions: bool = False, device: str | None = None, part_size: int = 1 << 16) -> WitnessPair:
    """The Theorem 5 pigeonhole pair for f1: [0,1] -> [0,1]^n and rho(x) = beta x (module doc; the
    keyword arguments are those of ``search``). Parameters, the eps range and N^m <= max_candidates are
    checked before anything is allocated."""
    m, n, k, beta, gs = _setup(f1, beta, m, n, eps, k, max_candidates)
    eta = _eta(m, n, gs.N)
    t0 = time.perf_counter()
    tables = theorem5_tables(f1, beta, gs)
    src = SumSource(tables, chunk=chunk or _default_chunk(backend, device))
    t1 = time.perf_counter()
    res = search(src, eta, window=window, backend=backend, order=order, chunk=chunk, seed=seed, workers=workers,
                 return_collisions=return_collisions, device=device, part_size=part_size)
    secs = {"tables": t1 - t0, **res.seconds}
    return _record(m, n, k, beta, gs, eta, res.pair, res.distance, res.occupied_cubes, res.collision_cubes,
                   res.max_occupancy, window, backend, res.device, secs, res.collisions)


def reference_search(tables, eta: float, *, window: int | None = DEFAULT_WINDOW, order: str = "grid",
                     seed: int = 0, return_collisions: bool = False) -> SearchResult:
    """Plain-Python ``search`` over the SumSource of ``tables`` (nested lists [j][i][d]; no numpy):
    every S(z) by itertools.product (same right fold), eta-cubes as dict buckets, the same key layout,
    examined pairs and tie-breaks. On the same tables it returns what ``search`` returns."""
    if window is not None:
        window = as_int("window", window, 1)
    m, N, D = len(tables), len(tables[0]), len(tables[0][0])
    t0 = time.perf_counter()
    lo, hi = [], []   # right fold of per-table minima / maxima, as SumSource.bounds
    for d in range(D):
        a = min(r[d] for r in tables[m - 1])
        b = max(r[d] for r in tables[m - 1])
        for j in range(m - 2, -1, -1):
            a = min(r[d] for r in tables[j]) + a
            b = max(r[d] for r in tables[j]) + b
        lo.append(a)
        hi.append(b)
    points = []
    for z in itertools.product(range(N), repeat=m):
        S = tables[m - 1][z[m - 1]]
        for j in range(m - 2, -1, -1):
            r = tables[j][z[j]]
            S = [r[d] + S[d] for d in range(D)]
        points.append(S)
    M = len(points)
    ns = min(M, SAMPLE_MAX)
    lay = make_layout(lo, hi, M, eta, order=order, sample=[points[(i * M) // ns] for i in range(ns)], seed=seed)
    t1 = time.perf_counter()
    buckets: dict[tuple[int, ...], list] = {}
    for idx, S in enumerate(points):
        q, sec = lay.keys_py(S)
        buckets.setdefault(q, []).append((sec, idx, S))
    t2 = time.perf_counter()

    def pair(p, r):
        return (max(abs(x - y) for x, y in zip(p[2], r[2])), min(p[1], r[1]), max(p[1], r[1]))

    best = None
    cubes = sorted(buckets)
    coll = [c for c in cubes if len(buckets[c]) >= 2]
    mx = max((len(v) for v in buckets.values()), default=0)
    if coll:
        for c in coll:
            mem = sorted(buckets[c])
            w = len(mem) - 1 if window is None else window
            for i in range(len(mem)):
                for j in range(i + 1, min(len(mem), i + w + 1)):
                    best = _better(best, pair(mem[i], mem[j]))
    else:
        seq = [e for c in cubes for e in sorted(buckets[c])]
        w = 1 if window is None else window
        for i in range(len(seq)):
            for j in range(i + 1, min(len(seq), i + w + 1)):
                best = _better(best, pair(seq[i], seq[j]))
    t3 = time.perf_counter()
    secs = {"enumerate": t1 - t0, "bucket": t2 - t1, "pairs": t3 - t2}
    return SearchResult(None if best is None else (best[1], best[2]), _INF if best is None else best[0],
                        bool(coll), len(buckets), len(coll), mx, window, lay,
                        coll if return_collisions else None, secs, "python", "cpu")


def find_pair_reference(f1: TanhNet, beta, m: int, n: int, eps, k: int, *, window: int | None = DEFAULT_WINDOW,
                        order: str = "grid", seed: int = 0, tables: list | None = None,
                        max_candidates: int = 10**7, return_collisions: bool = False) -> WitnessPair:
    """Plain-Python reference for ``find_pair`` (no numpy): ``theorem5_tables_py`` and
    ``reference_search``. tables: nested lists [j][i][d] to use instead (pass
    ``theorem5_tables(...).tolist()`` for input identical to the engine's; then the record is the same)."""
    m, n, k, beta, gs = _setup(f1, beta, m, n, eps, k, max_candidates)
    eta = _eta(m, n, gs.N)
    t0 = time.perf_counter()
    if tables is None:
        tables = theorem5_tables_py(f1, beta, gs)
    t1 = time.perf_counter()
    res = reference_search(tables, eta, window=window, order=order, seed=seed, return_collisions=return_collisions)
    return _record(m, n, k, beta, gs, eta, res.pair, res.distance, res.occupied_cubes, res.collision_cubes,
                   res.max_occupancy, window, "python", "cpu", {"tables": t1 - t0, **res.seconds}, res.collisions)


def build_XY(z: Sequence, zprime: Sequence, k: int, T: int | None = None):
    """X, Y in [0,1]^T of the proof (L665-673): x(1..k-1) = y(1..k-1) = 1; for j in J = {j : z_j != z'_j}
    x(k-1+j) = z_j and y(k-1+j) = z'_j, otherwise 0; T = m + k - 1. Exact Fractions (tuples)."""
    k = as_int("k", k, 2)
    z = tuple(Fraction(v) for v in z)
    zp = tuple(Fraction(v) for v in zprime)
    m = len(z)
    if len(zp) != m or m < 1:
        raise InvalidParameter(f"build_XY: z and z' must have the same length m >= 1 (got {len(z)}, {len(zp)})")
    if T is None:
        T = m + k - 1
    if T != m + k - 1:
        raise InvalidParameter(f"build_XY: T={T} must equal m + k - 1 = {m + k - 1}")
    J = {j for j in range(m) if z[j] != zp[j]}
    if not J:
        raise InvalidParameter("build_XY: z and z' must differ (J is empty)")
    one, zero = Fraction(1), Fraction(0)
    X = (one,) * (k - 1) + tuple(z[j] if j in J else zero for j in range(m))
    Y = (one,) * (k - 1) + tuple(zp[j] if j in J else zero for j in range(m))
    return X, Y
