"""Vectorised pigeonhole witness engine (InfoFlow Theorem 5, Appendix A.2; later also Theorem 6).

Line numbers (L...) refer to ``../shared/papers/infoflow-2605.17930.txt``.

Theorem 5 (k-th largest retrieval). With m = T - k + 1, 0 < eps < 1/(64 m) (L609), Delta = 4 eps,
N = floor(1/(16 m eps)) (L613), alpha_j = (j-1)/(2m) (L617) and grids G_j = {alpha_j + q Delta : q = 1..N}
(L621), every sequence z in G_1 x ... x G_m gives

    S(z) = (sum_j a(z_j), sum_j b(z_j)) in [0, m]^{n+1},  a(x) = lambda(x) f1(x),  b(x) = lambda(x),

lambda(x) = exp(rho(x) - rho(1)), here with rho(x) = beta x. Cutting [0, m]^{n+1} into cubes of side
eta = 4 m N^{-m/(n+1)} (L641), two of the N^m sequences share a cube once N^m exceeds the number of
cubes (L643-651); ``build_XY`` turns such a pair into the inputs X, Y of the proof (L665-673).

The engine has two layers:

* a generic search over a *point source*: M candidates with flat indices 0..M-1, each a point in R^D
  (float64). A source tells the engine per-coordinate bounds and computes the points of a range of flat
  indices, or of an arbitrary index array, for numpy or torch. Theorem 5 uses ``SumSource`` (sums of
  per-coordinate tables); Theorem 6 will plug in a source that evaluates f1 on a product grid. Nothing
  in ``search`` knows about Theorem 5.
* ``find_pair`` (Theorem 5): tables, source, search, and a ``WitnessPair`` record with exact values.

What the search computes (the same on every backend, bit for bit):

1. For every candidate, s = S / eta (as S * fl(1/eta)) in float64 and cube coordinates q_d = floor(s_d),
   plus a secondary key: by default ("grid" order) the cell of a finer grid, lexicographic in the
   coordinates, whose resolution is chosen from a sample so that a fine cell holds about three
   candidates; or ("projection" order) a random projection of the position inside the cube. Candidates
   are sorted by (cube, secondary key, flat index); this total order is the *sorted order*.
2. Cube collisions are found exactly: runs of equal cubes in the sorted order. If any cube holds two
   candidates, a same-cube pair is returned. In particular whenever N^m exceeds the number of cube keys
   that points of [0, m]^{n+1} can get (``keys_possible``, counted for the float cube assignment), a
   same-cube pair is returned: the pigeonhole step of the proof, asserted by ``find_pair``.
3. The examined pairs are the pairs at distance <= w in the sorted order (``window=w``); with
   ``window=None`` every same-cube pair is examined (the exact closest pair inside cubes; for small
   cases). The result is the examined same-cube pair with the smallest l_inf distance or, if no cube
   holds two candidates, the examined pair (w = 1 for ``window=None``) with the smallest distance. Ties
   go to the smallest (lo, hi) flat-index pair, lo < hi, so every backend returns the same pair.

The distance returned is an upper bound on the closest-pair distance; it is exact inside cubes with
``window=None``. In grid order with the default window (4) it matched the exact global closest pair
(brute force) on every case tried (docs/benchmarks_witness.md); nothing guarantees that in general.

The points are float64 evaluations (tables from ``TanhNet.eval_np`` and ``numpy.exp``), summed in the
fixed order S = T_1[z_1] + (T_2[z_2] + (... + T_m[z_m])); cubes are those of the float points. A returned
pair is a candidate witness: its exact (rigorous) check belongs to the checker, not to this module.

numpy only at import; torch is imported when ``backend="torch"`` is requested.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from .errors import BackendUnavailable, InvalidParameter
from .params import as_fraction, as_int

DEFAULT_MAX_CANDIDATES = 2 * 10**8
DYADIC_BITS = 16
SEC_BITS_MAX = 20  # bits of the secondary (projection) key, at most
DEFAULT_WINDOW = 4

__all__ = [
    "TanhNet", "Grid", "GridSet", "grids", "Layout", "make_layout", "PointSource", "SumSource", "SearchResult",
    "search", "reference_search", "WitnessPair", "theorem5_tables", "theorem5_tables_py", "keys_possible",
    "find_pair", "find_pair_reference", "build_XY",
]


# --------------------------------------------------------------------------------------------------
# parameters
# --------------------------------------------------------------------------------------------------

_as_int = as_int
_as_fraction = as_fraction


# --------------------------------------------------------------------------------------------------
# two-layer tanh networks
# --------------------------------------------------------------------------------------------------

def _frac_matrix(rows) -> tuple[tuple[Fraction, ...], ...]:
    return tuple(tuple(Fraction(v) for v in r) for r in rows)


@dataclass(frozen=True)
class TanhNet:
    """A two-layer tanh network x -> W2 tanh(W1 x + b1) + b2 from R^d_in to R^d_out, hidden width h.

    All weights are exact ``Fraction`` s: W1 (h x d_in), b1 (h), W2 (d_out x h), b2 (d_out).

    ``TanhNet.seeded(d_in, d_out, hidden, seed)`` draws W1, b1, W2, b2 (in this order, row major) as
    dyadic rationals k / 2^16 with k uniform in [-2^16, 2^16] from ``random.Random(seed)``, so every
    entry is in [-1, 1]. With ``unit_range=True`` (the default) it returns f1 = ``raw.unit_range()``:

    Output map into [0, 1]^n (a choice of this module; Theorem 5 assumes range(f1) in [0, 1]^n, which
    tanh networks with weights <= 1 do not satisfy by themselves). For the raw output r(x), every
    coordinate satisfies |r| <= h * 1 * 1 + 1 = h + 1 (weights in [-1, 1], |tanh| <= 1), so

        f1(x) = (1 + r(x) / (h + 1)) / 2 in [0, 1]^n   (in fact in (0, 1)^n, since |tanh| < 1).

    ``unit_range`` folds this affine map into the output layer exactly: W2' = W2 / (2 (h + 1)) and
    b2' = 1/2 + b2 / (2 (h + 1)). The result is again a two-layer tanh network with weights bounded by 1:
    |W2'| <= 1 / (2 (h + 1)) <= 1/4 and b2' in [1/2 - 1/(2(h+1)), 1/2 + 1/(2(h+1))] in [0, 1]. The scaled
    entries are exact rationals, no longer dyadic unless h + 1 is a power of two.
    """

    W1: tuple[tuple[Fraction, ...], ...]
    b1: tuple[Fraction, ...]
    W2: tuple[tuple[Fraction, ...], ...]
    b2: tuple[Fraction, ...]

    def __post_init__(self):
        object.__setattr__(self, "W1", _frac_matrix(self.W1))
        object.__setattr__(self, "W2", _frac_matrix(self.W2))
        object.__setattr__(self, "b1", tuple(Fraction(v) for v in self.b1))
        object.__setattr__(self, "b2", tuple(Fraction(v) for v in self.b2))
        h = len(self.W1)
        if h < 1 or len(self.b1) != h or not self.W1[0]:
            raise InvalidParameter(f"TanhNet: W1 must be h x d_in with h >= 1 and b1 of length h (h={h})")
        if any(len(r) != len(self.W1[0]) for r in self.W1):
            raise InvalidParameter("TanhNet: W1 rows differ in length")
        if not self.W2 or any(len(r) != h for r in self.W2) or len(self.b2) != len(self.W2):
            raise InvalidParameter(f"TanhNet: W2 must be d_out x h (h={h}) and b2 of length d_out")

    @property
    def d_in(self) -> int:
        return len(self.W1[0])

    @property
    def d_out(self) -> int:
        return len(self.W2)

    @property
    def hidden(self) -> int:
        return len(self.W1)

    @property
    def weight_bound(self) -> Fraction:
        """max |entry| over W1, b1, W2, b2 (exact)."""
        return max(abs(v) for v in itertools.chain(itertools.chain.from_iterable(self.W1), self.b1,
                                                   itertools.chain.from_iterable(self.W2), self.b2))

    @classmethod
    def seeded(cls, d_in: int, d_out: int, hidden: int, seed: int, *, unit_range: bool = True) -> "TanhNet":
        d_in, d_out, hidden = _as_int("d_in", d_in, 1), _as_int("d_out", d_out, 1), _as_int("hidden", hidden, 1)
        rng = random.Random(seed)
        one = 1 << DYADIC_BITS

        def draw():
            return Fraction(rng.randint(-one, one), one)

        W1 = [[draw() for _ in range(d_in)] for _ in range(hidden)]
        b1 = [draw() for _ in range(hidden)]
        W2 = [[draw() for _ in range(hidden)] for _ in range(d_out)]
        b2 = [draw() for _ in range(d_out)]
        net = cls(W1, b1, W2, b2)
        return net.unit_range() if unit_range else net

    def unit_range(self) -> "TanhNet":
        """The exact affine output map r -> (1 + r / (h + 1)) / 2 folded into W2, b2 (see class doc).

        Maps into [0, 1]^d_out provided the weights of ``self`` are in [-1, 1]."""
        if self.weight_bound > 1:
            raise InvalidParameter(f"unit_range: weights must be in [-1, 1], got max |w| = {self.weight_bound}")
        c = Fraction(1, 2 * (self.hidden + 1))
        return TanhNet(self.W1, self.b1, [[c * w for w in r] for r in self.W2],
                       [Fraction(1, 2) + c * b for b in self.b2])

    @cached_property
    def _float(self):
        return (np.array([[float(v) for v in r] for r in self.W1]), np.array([float(v) for v in self.b1]),
                np.array([[float(v) for v in r] for r in self.W2]), np.array([float(v) for v in self.b2]))

    def eval_np(self, x) -> np.ndarray:
        """float64 evaluation; x has shape (..., d_in), the result (..., d_out)."""
        W1, b1, W2, b2 = self._float
        x = np.asarray(x, dtype=np.float64)
        if x.shape[-1:] != (self.d_in,):
            raise InvalidParameter(f"eval_np: last axis must have length d_in={self.d_in}, got shape {x.shape}")
        return np.tanh(x @ W1.T + b1) @ W2.T + b2

    def eval_py(self, x: Sequence) -> list[float]:
        """Plain-Python float evaluation (math.tanh) of one input of length d_in."""
        xs = [float(v) for v in x]
        hid = [math.tanh(sum(float(w) * xv for w, xv in zip(row, xs)) + float(b)) for row, b in zip(self.W1, self.b1)]
        return [sum(float(w) * hv for w, hv in zip(row, hid)) + float(b) for row, b in zip(self.W2, self.b2)]


# --------------------------------------------------------------------------------------------------
# grids (L609-625)
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Grid(Sequence):
    """G_j = {alpha_j + q Delta : q = 1..N} as a lazy sequence of exact Fractions: item i is q = i + 1."""

    alpha: Fraction
    delta: Fraction
    N: int

    def __len__(self) -> int:
        return self.N

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.N))]
        if i < 0:
            i += self.N
        if not 0 <= i < self.N:
            raise IndexError(i)
        return self.alpha + (i + 1) * self.delta

    def floats(self) -> np.ndarray:
        """float(G_j[i]) for i = 0..N-1, each correctly rounded (exact integer numerators when possible)."""
        den = math.lcm(self.alpha.denominator, self.delta.denominator)
        a = self.alpha.numerator * (den // self.alpha.denominator)
        d = self.delta.numerator * (den // self.delta.denominator)
        if a + self.N * d < 2**53 and den < 2**53:
            return (a + d * np.arange(1, self.N + 1, dtype=np.int64)).astype(np.float64) / float(den)
        return np.array([float(self[i]) for i in range(self.N)])


@dataclass(frozen=True)
class GridSet:
    m: int
    eps: Fraction
    N: int
    Delta: Fraction
    G: tuple[Grid, ...]

    @property
    def candidates(self) -> int:
        return self.N ** self.m


def grids(m: int, eps, *, max_candidates: int = DEFAULT_MAX_CANDIDATES) -> GridSet:
    """Delta = 4 eps, N = floor(1/(16 m eps)), G_j = {(j-1)/(2m) + q Delta : q = 1..N} (L609-621).

    Raises InvalidParameter when eps is not in (0, 1/(64 m)) or when N^m > max_candidates; both are
    checked before anything is allocated."""
    m = _as_int("m", m, 1)
    eps = _as_fraction("eps", eps)
    bound = Fraction(1, 64 * m)
    if not (0 < eps < bound):
        raise InvalidParameter(f"eps={eps}: must be in (0, 1/(64 m)) = (0, {bound}) for m = {m} (L609)")
    N = math.floor(1 / (16 * m * eps))
    M = N ** m
    if M > max_candidates:
        raise InvalidParameter(f"eps={eps}, m={m}: N^m = {N}^{m} = {M} candidates exceeds max_candidates = {max_candidates}")
    Delta = 4 * eps
    G = tuple(Grid(Fraction(j - 1, 2 * m), Delta, N) for j in range(1, m + 1))
    return GridSet(m, eps, N, Delta, G)


def _eta(m: int, n: int, N: int) -> float:
    """eta = 4 m N^{-m/(n+1)} (L641) in float64."""
    return 4.0 * m * float(N) ** (-m / (n + 1))


# --------------------------------------------------------------------------------------------------
# key layout (pure Python: shared by the engine and the reference)
# --------------------------------------------------------------------------------------------------

GRID_BITS_MAX = 21      # fine-grid bits per dimension, at most
OCC_TARGET = 2.0        # grid order: aim for about this many other candidates per fine cell
SAMPLE_MAX = 8192       # sample size for the grid resolution and the partition boundaries


@dataclass(frozen=True)
class Layout:
    """How a point becomes a sort key (all integer arithmetic fits in 63 bits).

    s = point * inv_eta, cube coordinates q_d = floor(s_d), cube = sum_d (q_d - qlo_d) stride_d.
    Secondary key ``sec`` (F = sec_bits bits), by ``order``:
      * "grid": a fine grid inside the cube, lexicographic in the dimensions: g_d = floor(frac(s_d) 2^b)
        ("cube" mode, used when the points spread over at least one cube width in dimension d) or
        g_d = min(floor((point_d - glo_d) gscale_d), 2^b - 1) ("box" mode: the points' extent in d is
        smaller than eta, so the fine grid covers that extent); sec = sum_d g_d << gshift_d. The
        resolution b is chosen from a sample so that a fine cell holds about OCC_TARGET + 1 candidates.
      * "projection": sec = min(floor(2^F sum_d u_d frac(s_d)), 2^F - 1), u > 0 random (seeded), sum 1.
    Packed key: (cube << (F + I)) | (sec << I) | flat_index, I = idx_bits."""

    D: int
    M: int
    eta: float
    inv_eta: float
    qlo: tuple[int, ...]
    K: tuple[int, ...]
    strides: tuple[int, ...]
    idx_bits: int
    cube_bits: int
    sec_bits: int
    order: str
    u: tuple[float, ...] = ()
    gbits: tuple[int, ...] = ()
    gcube: tuple[bool, ...] = ()
    glo: tuple[float, ...] = ()
    gscale: tuple[float, ...] = ()
    gshift: tuple[int, ...] = ()

    @property
    def K_total(self) -> int:
        return math.prod(self.K)

    @property
    def sec_shift(self) -> int:
        return self.idx_bits

    @property
    def cube_shift(self) -> int:
        return self.idx_bits + self.sec_bits

    @property
    def used_bits(self) -> int:
        return self.idx_bits + self.sec_bits + self.cube_bits

    def decode_cube(self, key: int) -> tuple[int, ...]:
        return tuple(int(key) // s % k + lo for s, k, lo in zip(self.strides, self.K, self.qlo))

    def keys_py(self, S: Sequence[float]) -> tuple[tuple[int, ...], int]:
        """Cube coordinates and secondary key of one point, float op for float op as the engine."""
        q, proj, sec = [], 0.0, 0
        for d, v in enumerate(S):
            s = v * self.inv_eta
            f = math.floor(s)
            q.append(f)
            frac = s - f
            if self.order == "projection":
                term = self.u[d] * frac
                proj = term if d == 0 else proj + term
            elif self.gbits[d]:
                if self.gcube[d]:
                    g = int(frac * self.gscale[d])
                else:
                    g = min(int((v - self.glo[d]) * self.gscale[d]), (1 << self.gbits[d]) - 1)
                sec |= g << self.gshift[d]
        if self.order == "projection" and self.sec_bits:
            sec = min(int(proj * float(1 << self.sec_bits)), (1 << self.sec_bits) - 1)
        return tuple(q), sec


def _grid_fields(lo, hi, inv, b: int, active):
    gcube = tuple(bool(a and (h - l) * inv >= 1.0) for l, h, a in zip(lo, hi, active))
    gbits = tuple(b if a else 0 for a in active)
    gscale = tuple(float(1 << b) if c else (float(1 << b) / (h - l) if a else 0.0)
                   for l, h, a, c in zip(lo, hi, active, gcube))
    shifts, acc = [], 0
    for bd in reversed(gbits):
        shifts.append(acc)
        acc += bd
    return gbits, gcube, tuple(float(v) for v in lo), gscale, tuple(reversed(shifts))


def make_layout(lo: Sequence[float], hi: Sequence[float], M: int, eta: float, *, order: str = "grid",
                sample=None, seed: int = 0) -> Layout:
    """lo, hi: float bounds with lo_d <= point_d <= hi_d for every candidate. sample: the points of the
    candidates with flat indices (i M) // ns, i < ns = min(M, SAMPLE_MAX), as a list of points or an
    (ns, D) array (order="grid" only)."""
    D = len(lo)
    inv = 1.0 / eta
    qlo = tuple(math.floor(float(v) * inv) for v in lo)
    qhi = tuple(math.floor(float(v) * inv) for v in hi)
    K = tuple(h - l + 1 for l, h in zip(qlo, qhi))
    strides = tuple(math.prod(K[d + 1:]) for d in range(D))
    idx_bits = max(1, (M - 1).bit_length())
    cube_bits = (math.prod(K) - 1).bit_length()
    budget = 63 - idx_bits - cube_bits
    if budget < 0:
        raise InvalidParameter(f"key layout: {idx_bits} index bits + {cube_bits} cube bits exceed 63 "
                               f"(M = {M}, cubes = {math.prod(K)}); lower max_candidates")
    base = dict(D=D, M=M, eta=eta, inv_eta=inv, qlo=qlo, K=K, strides=strides, idx_bits=idx_bits,
                cube_bits=cube_bits)
    if order == "projection":
        rng = random.Random(seed)
        w = [rng.uniform(0.5, 1.5) for _ in range(D)]
        tot = sum(w)
        return Layout(**base, sec_bits=min(SEC_BITS_MAX, budget), order=order, u=tuple(x / tot for x in w))
    if order != "grid":
        raise InvalidParameter(f"order={order!r}: must be 'grid' or 'projection'")
    # a dimension takes part in the fine grid when the points spread in it (and 2^b / extent is finite)
    active = [h > l and math.isfinite(float(1 << GRID_BITS_MAX) / (h - l)) for l, h in zip(lo, hi)]
    na = sum(active)
    bmax = min(GRID_BITS_MAX, budget // na) if na else 0
    b = _choose_grid_bits(lo, hi, M, inv, bmax, active, sample, qlo, D) if bmax else 0
    gb, gc, gl, gs, gsh = _grid_fields(lo, hi, inv, b, active)
    return Layout(**base, sec_bits=sum(gb), order=order, gbits=gb, gcube=gc, glo=gl, gscale=gs, gshift=gsh)


def _grid_pair_counts(sample, inv, bmax, active, gc, gl, gs) -> list[int]:
    """For b = 0, 1, ...: the number of ordered pairs of distinct sample points that share a fine cell
    (cube and grid cell at b bits) -- stopping after the first level with none. The sample is a list of
    points (plain Python, the reference) or an (ns, D) array (numpy, the engine); both compute the
    same cells float op for float op."""
    top = (1 << bmax) - 1
    D = len(active)
    pairs: list[int] = []
    if isinstance(sample, np.ndarray):
        s = sample * inv
        f = np.floor(s)
        q = f.astype(np.int64)
        g = np.zeros_like(q)
        for d in range(D):
            if active[d] and gc[d]:
                g[:, d] = ((s[:, d] - f[:, d]) * gs[d]).astype(np.int64)
            elif active[d]:
                g[:, d] = np.minimum(((sample[:, d] - gl[d]) * gs[d]).astype(np.int64), top)
        # one sort by (cube, Morton code of the finest cell): every coarser cell is then a contiguous run
        act = [d for d in range(D) if active[d]]
        code = np.zeros(len(sample), np.int64)
        for bit in range(bmax - 1, -1, -1):
            for d in act:
                code = (code << 1) | ((g[:, d] >> bit) & 1)
        qrank = np.zeros(len(sample), np.int64)
        for d in range(D):
            qrank = qrank * (int(q[:, d].max() - q[:, d].min()) + 1) + (q[:, d] - q[:, d].min())
        order = np.lexsort((code, qrank))
        code, qrank = code[order], qrank[order]
        qnew = np.concatenate(([True], qrank[1:] != qrank[:-1]))
        for b in range(bmax + 1):
            c = code >> ((bmax - b) * len(act))
            new = qnew.copy()
            new[1:] |= c[1:] != c[:-1]
            ln = np.diff(np.append(np.flatnonzero(new), len(c)))
            pairs.append(int((ln * (ln - 1)).sum()))
            if pairs[-1] == 0:
                break
        return pairs
    cells = []
    for S in sample:
        q, g = [], []
        for d, v in enumerate(S):
            sv = v * inv
            fv = math.floor(sv)
            q.append(fv)
            if not active[d]:
                g.append(0)
            elif gc[d]:
                g.append(int((sv - fv) * gs[d]))
            else:
                g.append(min(int((v - gl[d]) * gs[d]), top))
        cells.append((tuple(q), tuple(g)))
    for b in range(bmax + 1):
        cnt: dict = {}
        sh = bmax - b
        for q, g in cells:
            key = (q, tuple(x >> sh for x in g))
            cnt[key] = cnt.get(key, 0) + 1
        pairs.append(sum(c * (c - 1) for c in cnt.values()))
        if pairs[-1] == 0:
            break
    return pairs


def _choose_grid_bits(lo, hi, M, inv, bmax, active, sample, qlo, D) -> int:
    """Smallest resolution b (bits per active dimension) at which a random candidate shares its fine cell
    with about OCC_TARGET others, estimated from the sample (exact when the sample is everything); beyond
    the resolution of the sample, extrapolated with the local dimension seen between the last two levels."""
    if sample is None or len(sample) < 2:
        return 0
    ns = len(sample)
    _, gc, gl, gs, _ = _grid_fields(lo, hi, inv, bmax, active)
    pairs = _grid_pair_counts(sample, inv, bmax, active, gc, gl, gs)
    scale = (M - 1) / (ns - 1)
    E = [p / ns * scale for p in pairs]
    reliable = [b for b, p in enumerate(pairs) if p >= ns or ns == M]
    for b in reliable:
        if E[b] <= OCC_TARGET:
            return b
    if ns == M:
        return bmax
    if not reliable:
        return 0
    b1 = reliable[-1]
    na = sum(active)
    d_eff = math.log2(pairs[b1 - 1] / pairs[b1]) if b1 >= 1 and pairs[b1] > 0 else float(na)
    d_eff = min(max(d_eff, 0.5), float(na))
    extra = math.ceil(math.log2(E[b1] / OCC_TARGET) / d_eff)
    return min(b1 + max(extra, 1), bmax)


# --------------------------------------------------------------------------------------------------
# array namespaces (numpy / torch)
# --------------------------------------------------------------------------------------------------

class _XP:
    """The few array operations the sources need, for numpy or torch (float64 / int64 throughout)."""

    def __init__(self, backend: str, device: str | None = None):
        self.backend = backend
        if backend == "numpy":
            self.mod, self.device = np, "cpu"
        elif backend == "torch":
            self.mod = _torch()
            self.device = str(device or ("cuda" if self.mod.cuda.is_available() else "cpu"))
        else:
            raise InvalidParameter(f"backend={backend!r}: must be 'numpy' or 'torch'")

    def asarray(self, a):
        if self.backend == "numpy":
            return np.asarray(a)
        return self.mod.as_tensor(np.asarray(a), device=self.device)

    def arange(self, a: int, b: int):
        if self.backend == "numpy":
            return np.arange(a, b, dtype=np.int64)
        return self.mod.arange(a, b, dtype=self.mod.int64, device=self.device)

    def stack(self, cols):
        return np.stack(cols) if self.backend == "numpy" else self.mod.stack(cols)

    def sync(self):
        if self.backend == "torch" and self.device.startswith("cuda"):
            self.mod.cuda.synchronize()


def _torch():
    try:
        import torch
    except ImportError as e:
        raise BackendUnavailable(f"backend='torch' needs torch ({e})") from None
    return torch


# --------------------------------------------------------------------------------------------------
# point sources
# --------------------------------------------------------------------------------------------------

class PointSource:
    """M candidates in R^D with flat indices 0..M-1 (the interface ``search`` uses).

    Subclasses set ``count`` and ``dim`` and provide ``bounds()`` (per-coordinate float lo, hi valid for
    every candidate), ``ranges(chunk)`` (flat index ranges covering 0..M-1 in order, each about chunk
    long), ``values(xp, start, stop)`` and ``values_at(xp, idx)``, both returning (D, L) float64 arrays of
    the backend ``xp``. ``values`` and ``values_at`` must agree bit for bit on every index, on every
    backend (use only elementwise IEEE operations in a fixed order, no reductions or matmuls)."""

    count: int
    dim: int

    def bounds(self) -> tuple[list[float], list[float]]:
        raise NotImplementedError

    def ranges(self, chunk: int) -> list[tuple[int, int]]:
        return [(a, min(a + chunk, self.count)) for a in range(0, self.count, chunk)]

    def values(self, xp: _XP, start: int, stop: int):
        return self.values_at(xp, xp.arange(start, stop))

    def values_at(self, xp: _XP, idx):
        raise NotImplementedError


class SumSource(PointSource):
    """Points S(z) = T_1[z_1] + (T_2[z_2] + (... + T_m[z_m])) for z in [N]^m (right fold, float64).

    tables: array (m, N, D). Flat index of z: z_1 N^{m-1} + ... + z_m (z_1 most significant), so index
    order is the lexicographic order of index tuples. The last m - s coordinates are precomputed as a
    suffix table R of N^{m-s} <= chunk points; the first s (the prefix) are added per chunk."""

    def __init__(self, tables, chunk: int = 1 << 16):
        T = np.ascontiguousarray(np.asarray(tables, dtype=np.float64))
        if T.ndim != 3 or T.shape[1] < 1:
            raise InvalidParameter(f"SumSource: tables must have shape (m, N, D), got {T.shape}")
        self.T = T
        self.m, self.N, self.dim = T.shape
        self.count = self.N ** self.m
        s = 0
        while self.N ** (self.m - s) > max(chunk, 1):
            s += 1
        self.s = s                       # prefix length
        self.L = self.N ** (self.m - s)  # suffix size
        if s < self.m:
            R = T[self.m - 1].T.copy()   # (D, N)
            for j in range(self.m - 2, s - 1, -1):
                R = (T[j].T[:, :, None] + R[:, None, :]).reshape(self.dim, -1)
            self.R = np.ascontiguousarray(R)  # (D, L)
        else:
            self.R = None
        self._dev: dict[Any, tuple] = {}

    def bounds(self):
        mins, maxs = self.T.min(axis=1), self.T.max(axis=1)  # (m, D)
        lo, hi = [], []
        for d in range(self.dim):
            a, b = float(mins[self.m - 1, d]), float(maxs[self.m - 1, d])
            for j in range(self.m - 2, -1, -1):
                a, b = float(mins[j, d]) + a, float(maxs[j, d]) + b
            lo.append(a)
            hi.append(b)
        return lo, hi

    def _arrays(self, xp: _XP):
        key = (xp.backend, xp.device)
        if key not in self._dev:
            T = [[xp.asarray(np.ascontiguousarray(self.T[j, :, d])) for d in range(self.dim)] for j in range(self.m)]
            R = None if self.R is None else [xp.asarray(self.R[d]) for d in range(self.dim)]
            self._dev[key] = (T, R)
        return self._dev[key]

    def ranges(self, chunk: int):
        b = max(1, chunk // self.L)
        P = self.N ** self.s
        return [(p * self.L, min(p + b, P) * self.L) for p in range(0, P, b)]

    def _fold(self, T, prefix, suffix_vals):
        """Right fold over the prefix digits of ``prefix`` onto suffix_vals (list of D arrays, or None
        when s == m: then the fold starts from T_m)."""
        digits = []
        p = prefix
        for _ in range(self.s):
            digits.append(p % self.N)
            p = p // self.N
        digits.reverse()                  # digits[j] = z_{j+1}, j = 0..s-1
        out = []
        for d in range(self.dim):
            if suffix_vals is not None:
                acc, js = suffix_vals[d], range(self.s - 1, -1, -1)
            else:
                acc, js = T[self.m - 1][d][digits[self.m - 1]], range(self.m - 2, -1, -1)
            for j in js:
                acc = T[j][d][digits[j]] + acc
            out.append(acc)
        return out

    def values(self, xp: _XP, start: int, stop: int):
        T, R = self._arrays(xp)
        L = self.L
        p0, p1 = start // L, stop // L
        if p0 * L != start or p1 * L != stop:
            return self.values_at(xp, xp.arange(start, stop))
        if self.s == 0:
            return xp.stack(R)
        suf = None if R is None else [R[d][None, :] for d in range(self.dim)]
        cols = self._fold(T, xp.arange(p0, p1)[:, None], suf)
        return xp.stack([c.reshape(-1) for c in cols])

    def values_at(self, xp: _XP, idx):
        T, R = self._arrays(xp)
        if self.s == 0:
            return xp.stack([R[d][idx] for d in range(self.dim)])
        if R is None:
            return xp.stack(self._fold(T, idx, None))
        prefix = idx // self.L
        suf = idx - prefix * self.L
        return xp.stack(self._fold(T, prefix, [R[d][suf] for d in range(self.dim)]))


# --------------------------------------------------------------------------------------------------
# the search
# --------------------------------------------------------------------------------------------------

_INF = float("inf")


@dataclass
class SearchResult:
    """Outcome of ``search``. ``pair`` = (lo, hi) flat indices, lo < hi, or None when M < 2."""

    pair: tuple[int, int] | None
    distance: float
    same_cube: bool
    occupied_cubes: int
    collision_cubes: int
    max_occupancy: int
    window: int | None
    layout: Layout
    collisions: list[tuple[int, ...]] | None
    seconds: dict[str, float]
    backend: str
    device: str

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())


def _better(a, b):
    """Lexicographic min of (distance, lo, hi) tuples; None = no pair."""
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def _keys_np(V: np.ndarray, lay: Layout, idx: np.ndarray) -> np.ndarray:
    """Packed keys of the points V (D, L) with flat indices idx (Layout doc)."""
    s = V * lay.inv_eta
    f = np.floor(s)
    q = f.astype(np.int64)
    if q.shape[1]:
        qmin, qmax = q.min(axis=1), q.max(axis=1)
        for d in range(lay.D):
            if qmin[d] < lay.qlo[d] or qmax[d] >= lay.qlo[d] + lay.K[d]:
                raise AssertionError(f"a point lies outside the bounds declared by the source (dimension {d})")
    packed = None
    for d in range(lay.D):
        if lay.K[d] > 1:
            t = q[d] - lay.qlo[d]
            if lay.strides[d] != 1:
                t *= lay.strides[d]
            packed = t if packed is None else packed + t
    packed = np.zeros(V.shape[1], np.int64) if packed is None else packed
    packed <<= lay.cube_shift
    if lay.sec_bits and lay.order == "projection":
        proj = None
        for d in range(lay.D):
            term = lay.u[d] * (s[d] - f[d])
            proj = term if proj is None else proj + term
        sec = (proj * float(1 << lay.sec_bits)).astype(np.int64)
        np.minimum(sec, (1 << lay.sec_bits) - 1, out=sec)
        packed |= sec << lay.sec_shift
    elif lay.sec_bits:
        for d in range(lay.D):
            if not lay.gbits[d]:
                continue
            if lay.gcube[d]:
                g = ((s[d] - f[d]) * lay.gscale[d]).astype(np.int64)
            else:
                g = ((V[d] - lay.glo[d]) * lay.gscale[d]).astype(np.int64)
                np.minimum(g, (1 << lay.gbits[d]) - 1, out=g)
            g <<= lay.gshift[d] + lay.sec_shift
            packed |= g
    packed |= idx
    return packed


def _keys_torch(torch, V, lay: Layout, idx):
    """``_keys_np`` in torch, operation for operation."""
    s = V * lay.inv_eta
    f = torch.floor(s)
    q = f.to(torch.int64)
    packed = None
    for d in range(lay.D):
        if lay.K[d] > 1:
            t = q[d] - lay.qlo[d]
            if lay.strides[d] != 1:
                t = t * lay.strides[d]
            packed = t if packed is None else packed + t
    packed = torch.zeros_like(idx) if packed is None else packed
    packed = packed << lay.cube_shift
    if lay.sec_bits and lay.order == "projection":
        proj = None
        for d in range(lay.D):
            term = lay.u[d] * (s[d] - f[d])
            proj = term if proj is None else proj + term
        sec = torch.clamp((proj * float(1 << lay.sec_bits)).to(torch.int64), max=(1 << lay.sec_bits) - 1)
        packed = packed | (sec << lay.sec_shift)
    elif lay.sec_bits:
        for d in range(lay.D):
            if not lay.gbits[d]:
                continue
            if lay.gcube[d]:
                g = ((s[d] - f[d]) * lay.gscale[d]).to(torch.int64)
            else:
                g = torch.clamp(((V[d] - lay.glo[d]) * lay.gscale[d]).to(torch.int64), max=(1 << lay.gbits[d]) - 1)
            packed = packed | (g << (lay.gshift[d] + lay.sec_shift))
    return packed | idx


BLOCK = 1 << 16  # numpy work unit: temporaries stay small (large temporaries page-fault on every use)


def _pairs_block_np(src, xp, lay, seg, w, first, want_same, want_any, best_same, best_any):
    """Fold into (best_same, best_any) the pairs (p - k, p), k = 1..w, first <= p < len(seg), of a
    segment of sorted packed keys; best = lexicographic min of (distance, lo, hi)."""
    n = seg.shape[0]
    if n < 2 or first >= n:
        return best_same, best_any
    cube = seg >> lay.cube_shift
    idx = seg & ((1 << lay.idx_bits) - 1)
    V = src.values_at(xp, idx)
    one_cube = bool(cube[0] == cube[-1])

    def update(best, dist, a, b):
        dm = float(dist.min())
        if dm == _INF or (best is not None and dm > best[0]):
            return best
        hits = np.flatnonzero(dist == dm)
        ia, ib = idx[a][hits], idx[b][hits]
        plo, phi = np.minimum(ia, ib), np.maximum(ia, ib)
        j = np.lexsort((phi, plo))[0]
        return _better(best, (dm, int(plo[j]), int(phi[j])))

    dist = np.empty(n)
    tmp = np.empty(n)
    for k in range(1, min(w, n - 1) + 1):
        st = max(first, k)
        if st >= n:
            continue
        a, b = slice(st - k, n - k), slice(st, n)
        L = n - st
        dv, tv = dist[:L], tmp[:L]
        np.subtract(V[0, b], V[0, a], out=dv)
        np.abs(dv, out=dv)
        for d in range(1, lay.D):
            np.subtract(V[d, b], V[d, a], out=tv)
            np.abs(tv, out=tv)
            np.maximum(dv, tv, out=dv)
        if want_any:
            best_any = update(best_any, dv, a, b)
        if want_same:
            if not one_cube:
                diff = cube[b] != cube[a]
                if diff.all():
                    continue
                np.copyto(dv, _INF, where=diff)
            best_same = update(best_same, dv, a, b)
    return best_same, best_any


def _pairs_best_np(src, xp, lay, arr, w, first, want_same, want_any):
    """``_pairs_block_np`` over a long sorted array, in blocks of BLOCK right ends."""
    best_same = best_any = None
    n = arr.shape[0]
    for a0 in range(first, n, BLOCK):
        lo = max(0, a0 - w)
        best_same, best_any = _pairs_block_np(src, xp, lay, arr[lo:a0 + BLOCK], w, a0 - lo, want_same, want_any,
                                              best_same, best_any)
    return best_same, best_any


def _block_runs(cube: np.ndarray, want_keys: bool):
    """Runs of equal cubes in a sorted block: (first (cube, len), last (cube, len), single run?,
    interior (count, collisions, max, collision keys))."""
    n = cube.shape[0]
    starts = np.flatnonzero(np.concatenate(([True], cube[1:] != cube[:-1])))
    lengths = np.diff(np.append(starts, n))
    inner = lengths[1:-1]
    keys = cube[starts[1:-1][inner >= 2]].tolist() if want_keys and inner.size else []
    return ((int(cube[0]), int(lengths[0])), (int(cube[-1]), int(lengths[-1])), starts.size == 1,
            (int(inner.size), int((inner >= 2).sum()), int(inner.max()) if inner.size else 0, keys))


class _RunMerger:
    """Occupied cubes, collision cubes and the largest occupancy from block summaries (``_block_runs``)
    given in sorted order; a run may continue over several blocks."""

    def __init__(self, want_keys: bool):
        self.occ = self.coll = self.max = 0
        self.keys = [] if want_keys else None
        self.pending = None

    def _flush(self):
        if self.pending is None:
            return
        c, ln = self.pending
        self.occ += 1
        self.max = max(self.max, ln)
        if ln >= 2:
            self.coll += 1
            if self.keys is not None:
                self.keys.append(c)
        self.pending = None

    def _add(self, c: int, ln: int):
        if self.pending is not None and self.pending[0] == c:
            self.pending = (c, self.pending[1] + ln)
        else:
            self._flush()
            self.pending = (c, ln)

    def add_block(self, summary):
        first, last, single, (occ, coll, mx, keys) = summary
        self._add(*first)
        if single:
            return
        self._flush()
        self.occ += occ
        self.coll += coll
        self.max = max(self.max, mx)
        if self.keys is not None:
            self.keys.extend(keys)
        self.pending = last

    def close(self):
        self._flush()


def _tasks(ranges, target: int):
    """Group consecutive index ranges into tasks of about ``target`` candidates."""
    out, cur, size = [], [], 0
    for r in ranges:
        cur.append(r)
        size += r[1] - r[0]
        if size >= target:
            out.append(cur)
            cur, size = [], 0
    if cur:
        out.append(cur)
    return out


def _search_numpy(src, lay, window, block, workers, want_collisions, part_size):
    """numpy backend: (A) keys of every candidate in flat-index order, with per-task partition counts;
    (B) scatter into partitions = packed-key ranges (from sample quantiles); (C) per partition, in
    threads: in-place sort, cube runs, window pairs; (D) merge runs and pairs across partition borders."""
    xp = _XP("numpy")
    M = src.count
    t0 = time.perf_counter()
    P = 1 if window is None else max(1, min(65535, -(-M // part_size)))
    if P > 1:
        hbits = min(20, lay.used_bits - lay.idx_bits, max(10, P.bit_length() + 6))
        hshift = lay.used_bits - hbits
        ns = min(M, max(SAMPLE_MAX, 32 * P))
        sidx = (np.arange(ns, dtype=np.int64) * M) // ns
        hk = np.sort(_keys_np(src.values_at(xp, sidx), lay, sidx) >> hshift)
        bounds = np.unique(hk[(np.arange(1, P, dtype=np.int64) * hk.size) // P])
        P = bounds.size + 1
        lut = np.repeat(np.arange(P, dtype=np.uint16), np.diff(np.concatenate(([0], bounds, [1 << hbits]))))
    tasks = _tasks(src.ranges(block), min(1 << 20, max(block, M // (4 * workers))))
    keys_all = np.empty(M, np.int64)

    def pass_a(t):
        cnt = np.zeros(P, np.int64)
        for a, b in tasks[t]:
            k = _keys_np(src.values(xp, a, b), lay, np.arange(a, b, dtype=np.int64))
            keys_all[a:b] = k
            if P > 1:
                cnt += np.bincount(lut[k >> hshift], minlength=P)
        return cnt

    with ThreadPoolExecutor(max_workers=workers) as ex:
        cnts = np.array(list(ex.map(pass_a, range(len(tasks)))), dtype=np.int64).reshape(len(tasks), P)
        if P > 1:
            plen = cnts.sum(axis=0)
            pstart = np.cumsum(plen) - plen
            offsets = pstart[None, :] + np.cumsum(cnts, axis=0) - cnts
            keys = np.empty(M, np.int64)

            def pass_b(t):
                cur = offsets[t].copy()
                for a, b in tasks[t]:
                    k = keys_all[a:b]
                    part = lut[k >> hshift]
                    order = np.argsort(part, kind="stable")
                    bc = np.bincount(part, minlength=P)
                    dest = (cur - (np.cumsum(bc) - bc))[part[order]]
                    dest += np.arange(b - a, dtype=np.int64)
                    keys[dest] = k[order]
                    cur += bc

            list(ex.map(pass_b, range(len(tasks))))
            del keys_all
        else:
            keys, pstart, plen = keys_all, np.zeros(1, np.int64), np.array([M], np.int64)
        t1 = time.perf_counter()
        wb = window if window is not None else 1  # window for pairs across partition borders

        def part_job(p):
            arr = keys[pstart[p]:pstart[p] + plen[p]]
            n = arr.shape[0]
            if n == 0:
                return None
            arr.sort()
            blocks = [_block_runs(arr[a:a + BLOCK] >> lay.cube_shift, want_collisions) for a in range(0, n, BLOCK)]
            mx = max(max(s[0][1], s[1][1], s[3][2]) for s in blocks)
            has_pair = mx >= 2 or any(blocks[i][1][0] == blocks[i + 1][0][0] for i in range(len(blocks) - 1))
            if window is None:  # all same-cube pairs: the longest run within this (only) partition
                rm = _RunMerger(False)
                for s in blocks:
                    rm.add_block(s)
                rm.close()
                w = max(rm.max - 1, 1)
            else:
                w = window
            bs, ba = _pairs_best_np(src, xp, lay, arr, w, 0, has_pair, not has_pair)
            return blocks, bs, ba

        parts = list(ex.map(part_job, range(P)))
    t2 = time.perf_counter()
    runs = _RunMerger(want_collisions)
    best_same = best_any = None
    for p, r in enumerate(parts):
        if r is None:
            continue
        blocks, bs, ba = r
        for s in blocks:
            runs.add_block(s)
        best_same, best_any = _better(best_same, bs), _better(best_any, ba)
        s0 = int(pstart[p])
        if s0 > 0:  # pairs straddling the partition border: right end in the first wb of this partition
            lo = max(0, s0 - wb)
            bs, ba = _pairs_block_np(src, xp, lay, keys[lo:s0 + wb], wb, s0 - lo, True, True, None, None)
            best_same, best_any = _better(best_same, bs), _better(best_any, ba)
    runs.close()
    t3 = time.perf_counter()
    best = best_same if runs.coll else best_any
    ckeys = sorted(lay.decode_cube(c) for c in runs.keys) if want_collisions else None
    secs = {"keys": t1 - t0, "sort_pairs": t2 - t1, "merge": t3 - t2}
    return best, runs.occ, runs.coll, runs.max, ckeys, secs, "cpu"


def _search_torch(src, lay, window, chunk, want_collisions, device):
    xp = _XP("torch", device)
    torch = xp.mod
    M = src.count
    xp.sync()
    t0 = time.perf_counter()
    packed = torch.empty(M, dtype=torch.int64, device=xp.device)
    for a, b in src.ranges(chunk):
        packed[a:b] = _keys_torch(torch, src.values(xp, a, b), lay, xp.arange(a, b))
    xp.sync()
    t1 = time.perf_counter()
    packed = torch.sort(packed).values
    xp.sync()
    t2 = time.perf_counter()
    cube = packed >> lay.cube_shift
    _, counts = torch.unique_consecutive(cube, return_counts=True)
    occ = int(counts.numel())
    coll = int((counts >= 2).sum())
    mx = int(counts.max()) if occ else 0
    ckeys = None
    if want_collisions:
        change = torch.ones(M, dtype=torch.bool, device=xp.device)
        change[1:] = cube[1:] != cube[:-1]
        starts = torch.nonzero(change).flatten()
        ckeys = sorted(lay.decode_cube(c) for c in cube[starts[counts >= 2]].cpu().tolist())
    del cube, counts
    same_only = coll > 0
    w = window if window is not None else (max(mx - 1, 1) if same_only else 1)
    mask = (1 << lay.idx_bits) - 1
    best = None
    for a0 in range(0, M, max(chunk, 1)):
        b0 = min(M, a0 + max(chunk, 1))
        lo = max(0, a0 - w)
        seg = packed[lo:b0]
        segc = seg >> lay.cube_shift
        segi = seg & mask
        V = src.values_at(xp, segi)
        n = seg.numel()
        first = a0 - lo
        for k in range(1, w + 1):
            st = max(first, k)
            if st >= n:
                continue
            ia, ib = slice(st - k, n - k), slice(st, n)
            dist = torch.abs(V[0, ib] - V[0, ia])
            for d in range(1, lay.D):
                dist = torch.maximum(dist, torch.abs(V[d, ib] - V[d, ia]))
            if same_only:
                dist = torch.where(segc[ib] == segc[ia], dist, torch.full_like(dist, _INF))
            dm = float(dist.min())
            if dm == _INF or (best is not None and dm > best[0]):
                continue
            hits = torch.nonzero(dist == dm).flatten()
            pa, pb = segi[ia][hits], segi[ib][hits]
            plo, phi = torch.minimum(pa, pb).cpu().numpy(), torch.maximum(pa, pb).cpu().numpy()
            j = np.lexsort((phi, plo))[0]
            best = _better(best, (dm, int(plo[j]), int(phi[j])))
    xp.sync()
    t3 = time.perf_counter()
    return best, occ, coll, mx, ckeys, {"enumerate": t1 - t0, "sort": t2 - t1, "pairs": t3 - t2}, xp.device


def _default_chunk(backend: str, device: str | None) -> int:
    if backend == "torch":
        return (1 << 22) if _XP("torch", device).device.startswith("cuda") else (1 << 20)
    return BLOCK


def search(src: PointSource, eta: float, *, window: int | None = DEFAULT_WINDOW, backend: str = "numpy",
           order: str = "grid", chunk: int | None = None, seed: int = 0, workers: int | None = None,
           return_collisions: bool = False, part_size: int = 1 << 16, device: str | None = None) -> SearchResult:
    """Closest-pair search with exact eta-cube collision detection over a ``PointSource`` (module doc).

    window: pairs at distance <= window in the sorted order are examined (int >= 1), or None: all
    same-cube pairs (one partition; for small cases). order: secondary sort key, "grid" (fine grid inside
    the cube, resolution from a sample) or "projection" (random projection). chunk: candidates per
    enumeration chunk (numpy default BLOCK = 2^16; torch 2^22 on cuda, 2^20 on cpu). workers: numpy threads
    (default: CPU count). part_size: target size of the numpy partitions (packed-key ranges, sorted
    independently). device: torch device (default cuda when available)."""
    if window is not None:
        window = _as_int("window", window, 1)
    if backend not in ("numpy", "torch"):
        raise InvalidParameter(f"backend={backend!r}: must be 'numpy' or 'torch'")
    t0 = time.perf_counter()
    M = src.count
    npx = _XP("numpy")
    ns = min(M, SAMPLE_MAX)
    sidx = (np.arange(ns, dtype=np.int64) * M) // ns
    spts = src.values_at(npx, sidx)
    lo, hi = src.bounds()
    lay = make_layout(lo, hi, M, eta, order=order, sample=np.ascontiguousarray(spts.T), seed=seed)
    t1 = time.perf_counter()
    if backend == "numpy":
        out = _search_numpy(src, lay, window, chunk or BLOCK, workers or os.cpu_count() or 1,
                            return_collisions, part_size)
    else:
        dev = _XP("torch", device).device
        out = _search_torch(src, lay, window, chunk or _default_chunk(backend, dev), return_collisions, dev)
    best, occ, coll, mx, ckeys, secs, dev = out
    secs = {"layout": t1 - t0, **secs}
    pair = None if best is None else (best[1], best[2])
    return SearchResult(pair, _INF if best is None else best[0], coll > 0, occ, coll, mx, window, lay, ckeys,
                        secs, backend, dev)


# --------------------------------------------------------------------------------------------------
# Theorem 5
# --------------------------------------------------------------------------------------------------

def _check_f1(f1: TanhNet, n: int) -> None:
    if not isinstance(f1, TanhNet):
        raise InvalidParameter(f"f1 must be a TanhNet, got {type(f1).__name__}")
    if f1.d_in != 1 or f1.d_out != n:
        raise InvalidParameter(f"f1 must map R^1 -> R^n with n={n}, got R^{f1.d_in} -> R^{f1.d_out}")


def _check_beta(beta) -> Fraction:
    beta = _as_fraction("beta", beta)
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
    m = _as_int("m", m, 1)
    n = _as_int("n", n, 1)
    k = _as_int("k", k, 2)
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
        window = _as_int("window", window, 1)
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
    k = _as_int("k", k, 2)
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
