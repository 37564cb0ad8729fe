"""The key layout of the pigeonhole search (pure Python: shared by the engine and the reference): cubes of side eta,
a fine grid for the sort order, and the partition of the key range."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attncert.core.errors import InvalidParameter


DYADIC_BITS = 16


SEC_BITS_MAX = 20  # bits of the secondary (projection) key, at most


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
