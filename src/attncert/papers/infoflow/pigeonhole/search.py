"""The vectorised closest-pair search over point sources, on numpy (threads) or torch (a GPU); see the package docstring."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from attncert.core.errors import BackendUnavailable, InvalidParameter
from attncert.core.params import as_int
from attncert.papers.infoflow.pigeonhole.layout import Layout, SAMPLE_MAX, make_layout


DEFAULT_WINDOW = 4


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
        window = as_int("window", window, 1)
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
