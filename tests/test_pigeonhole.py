"""The pigeonhole witness engine of InfoFlow Theorem 5 (attncert.papers.infoflow.pigeonhole).

* the numpy engine against the plain-Python reference (same tables: the same record, bit for bit;
  tables computed independently in plain Python: the same pair up to float noise);
* with window=None the distance is the minimum over all same-cube pairs, computed here by brute force;
* the generic search on random tables (many cubes, no collisions, small partitions and chunks);
* the pigeonhole guarantee, parameter checks, torch against numpy, grids, TanhNet and build_XY."""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attncert.core.errors import InvalidParameter
from attncert.papers.infoflow.pigeonhole import (
    SumSource,
    TanhNet,
    build_XY,
    find_pair,
    find_pair_reference,
    grids,
    keys_possible,
    reference_search,
    search,
    theorem5_tables,
    theorem5_tables_py,
)

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RECORD = ("z_index", "zprime_index", "z", "zprime", "distance", "same_cube", "forced", "occupied_cubes",
          "collision_cubes", "max_occupancy", "collisions", "N", "eta", "candidates")


def same_record(a, b) -> bool:
    return all(getattr(a, f) == getattr(b, f) for f in RECORD)


@st.composite
def small_case(draw, max_m=3):
    """m in 1..3, n in 1..2, N small (eps in the upper part of (0, 1/(64 m)))."""
    m = draw(st.integers(1, max_m))
    n = draw(st.integers(1, 2))
    N = draw(st.integers(5, {1: 12, 2: 9, 3: 5}[m]))
    # eps in (1/(16 m (N+1)), 1/(16 m N)]: then floor(1/(16 m eps)) = N
    lo, hi = Fraction(1, 16 * m * (N + 1)), Fraction(1, 16 * m * N)
    t = Fraction(draw(st.integers(1, 64)), 64)
    eps = lo + t * (hi - lo)
    seed = draw(st.integers(0, 10**6))
    hidden = draw(st.integers(1, 5))
    beta = Fraction(draw(st.integers(0, 16)), 4)
    k = draw(st.integers(2, 4))
    return m, n, eps, seed, hidden, beta, k


@SETTINGS
@given(small_case(), st.sampled_from([None, 1, 2, 4]), st.sampled_from(["grid", "projection"]))
def test_numpy_matches_reference(case, window, order):
    m, n, eps, seed, hidden, beta, k = case
    f1 = TanhNet.seeded(1, n, hidden, seed)
    gs = grids(m, eps)
    tables = theorem5_tables(f1, beta, gs)
    got = find_pair(f1, beta, m, n, eps, k, window=window, order=order, return_collisions=True)
    ref = find_pair_reference(f1, beta, m, n, eps, k, window=window, order=order, tables=tables.tolist(),
                              return_collisions=True)
    assert same_record(got, ref)
    # a pair is found iff the reference finds one; when forced, it shares a cube (pigeonhole)
    assert (got.z is None) == (ref.z is None) == (gs.candidates < 2)
    if got.forced:
        assert got.same_cube and got.collision_cubes >= 1
    if got.same_cube:
        assert got.distance < got.eta * (1 + 1e-12)


def _brute_same_cube_min(tables, eta):
    """min l_inf distance over pairs sharing a float eta-cube, by brute force (plain Python)."""
    m, N, D = len(tables), len(tables[0]), len(tables[0][0])
    inv = 1.0 / eta
    pts = []
    for z in itertools.product(range(N), repeat=m):
        S = tables[m - 1][z[m - 1]]
        for j in range(m - 2, -1, -1):
            S = [tables[j][z[j]][d] + S[d] for d in range(D)]
        pts.append((tuple(math.floor(v * inv) for v in S), S))
    best = math.inf
    for (qa, a), (qb, b) in itertools.combinations(pts, 2):
        if qa == qb:
            best = min(best, max(abs(x - y) for x, y in zip(a, b)))
    return best


@SETTINGS
@given(small_case(max_m=2))
def test_exhaustive_window_is_min_over_same_cube_pairs(case):
    m, n, eps, seed, hidden, beta, k = case
    f1 = TanhNet.seeded(1, n, hidden, seed)
    tables = theorem5_tables(f1, beta, grids(m, eps)).tolist()
    got = find_pair(f1, beta, m, n, eps, k, window=None)
    assert got.distance == _brute_same_cube_min(tables, got.eta)
    for w in (1, 4):  # a window examines fewer pairs: never better than the exhaustive minimum
        assert find_pair(f1, beta, m, n, eps, k, window=w).distance >= got.distance


@SETTINGS
@given(small_case())
def test_reference_with_its_own_tables_agrees(case):
    """Tables from math.tanh / math.exp instead of numpy: the same values up to a few ulps."""
    m, n, eps, seed, hidden, beta, k = case
    f1 = TanhNet.seeded(1, n, hidden, seed)
    gs = grids(m, eps)
    tn = theorem5_tables(f1, beta, gs)
    tp = np.array(theorem5_tables_py(f1, beta, gs))
    assert np.allclose(tn, tp, rtol=0, atol=1e-14)
    got = find_pair(f1, beta, m, n, eps, k, window=None)
    ref = find_pair_reference(f1, beta, m, n, eps, k, window=None)
    assert got.same_cube == ref.same_cube
    assert abs(got.distance - ref.distance) <= 1e-13


@pytest.mark.parametrize("seed", range(40))
def test_search_random_tables(seed):
    """Many cubes, cases with no collision, exact duplicates, constant coordinates; tiny partitions and
    chunks so that runs and window pairs cross partition borders."""
    rng = np.random.default_rng(seed)
    m, D = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    N = int(rng.integers(2, 14 if m < 3 else 7))
    tab = rng.random((m, N, D))
    if seed % 3 == 0:
        tab[:, :, -1] = 1.0
    if seed % 4 == 1:
        tab = np.round(tab * 8) / 8
    eta = float(10 ** rng.uniform(-3, 0.5))
    window = [None, 1, 2, 4][seed % 4]
    order = ["grid", "projection"][seed % 2]
    ref = reference_search(tab.tolist(), eta, window=window, order=order, return_collisions=True)
    got = search(SumSource(tab, chunk=int(rng.integers(1, 50))), eta, window=window, order=order,
                 part_size=int(rng.integers(4, 64)), chunk=int(rng.integers(1, 50)), return_collisions=True)
    fields = ("pair", "distance", "same_cube", "occupied_cubes", "collision_cubes", "max_occupancy", "collisions")
    assert [getattr(got, f) for f in fields] == [getattr(ref, f) for f in fields]
    if window is None and ref.same_cube:
        assert got.distance == _brute_same_cube_min(tab.tolist(), eta)


def test_pigeonhole_forced_on_paper_parameters():
    """eps < 1/(64 m) with the paper's eta: here every run is forced, so a same-cube pair comes back."""
    f1 = TanhNet.seeded(1, 2, 4, seed=7)
    for m, eps in [(1, Fraction(1, 65)), (2, Fraction(1, 300)), (3, Fraction(1, 500))]:
        r = find_pair(f1, Fraction(1), m, 2, eps, 3)
        assert r.candidates > keys_possible(m, 3, r.eta)
        assert r.forced and r.same_cube and r.distance <= r.eta


@pytest.mark.parametrize("m, eps", [(1, Fraction(1, 64)), (2, Fraction(1, 128)), (2, Fraction(1, 100)),
                                    (3, 0), (1, -Fraction(1, 1000)), (1, 1)])
def test_invalid_eps(m, eps):
    f1 = TanhNet.seeded(1, 2, 3, seed=0)
    with pytest.raises(InvalidParameter) as e:
        find_pair(f1, 0, m, 2, eps, 2)
    assert f"1/(64 m)) = (0, {Fraction(1, 64 * m)})" in str(e.value)
    with pytest.raises(InvalidParameter):
        grids(m, eps)


def test_too_many_candidates_raises_before_allocating():
    t = time.perf_counter()
    with pytest.raises(InvalidParameter) as e:
        grids(5, Fraction(1, 10**12))
    assert "over the limit of 2.0e+08 candidates; use a larger eps" in str(e.value)
    with pytest.raises(InvalidParameter) as e:
        find_pair(TanhNet.seeded(1, 2, 3, seed=0), 0, 3, 2, Fraction(1, 48 * 30), 2, max_candidates=10**4)
    assert "N^m = 30^3 = about 27000 candidates, over the limit of 10000 candidates" in str(e.value)
    assert time.perf_counter() - t < 1.0


@pytest.mark.parametrize("bad", [dict(k=1), dict(n=3), dict(beta=-1), dict(window=0), dict(backend="jax")])
def test_invalid_arguments(bad):
    args = dict(f1=TanhNet.seeded(1, 2, 3, seed=0), beta=0, m=2, n=2, eps=Fraction(1, 200), k=2)
    kw = {}
    for key, v in bad.items():
        (args if key in args else kw)[key] = v
    with pytest.raises(InvalidParameter):
        find_pair(*args.values(), **kw)


@SETTINGS
@given(small_case(), st.sampled_from([None, 2, 4]))
def test_torch_matches_numpy(case, window):
    pytest.importorskip("torch")
    m, n, eps, seed, hidden, beta, k = case
    f1 = TanhNet.seeded(1, n, hidden, seed)
    a = find_pair(f1, beta, m, n, eps, k, window=window, return_collisions=True)
    b = find_pair(f1, beta, m, n, eps, k, window=window, return_collisions=True, backend="torch", chunk=37)
    assert same_record(a, b)


def test_grids_exact():
    gs = grids(2, Fraction(1, 300))
    assert gs.N == math.floor(Fraction(300, 32)) == 9 and gs.Delta == Fraction(1, 75)
    assert list(gs.G[0]) == [q * Fraction(1, 75) for q in range(1, 10)]
    assert list(gs.G[1]) == [Fraction(1, 4) + q * Fraction(1, 75) for q in range(1, 10)]
    assert all(float(gs.G[j][i]) == x for j in range(2) for i, x in enumerate(gs.G[j].floats()))
    assert max(gs.G[0]) < min(gs.G[1]) and max(gs.G[1]) < Fraction(1, 2)


def test_tanhnet():
    raw = TanhNet.seeded(1, 3, 5, seed=11, unit_range=False)
    assert raw == TanhNet.seeded(1, 3, 5, seed=11, unit_range=False)
    assert raw.hidden == 5 and raw.d_in == 1 and raw.d_out == 3 and raw.weight_bound <= 1
    entries = [v for r in raw.W1 + raw.W2 for v in r] + list(raw.b1 + raw.b2)
    assert all(v.denominator <= 2**16 and 2**16 % v.denominator == 0 for v in entries)
    f1 = raw.unit_range()
    assert f1 == TanhNet.seeded(1, 3, 5, seed=11)
    assert all(w == v / 12 for r, s in zip(f1.W2, raw.W2) for w, v in zip(r, s))
    assert all(b == Fraction(1, 2) + v / 12 for b, v in zip(f1.b2, raw.b2))
    assert f1.weight_bound <= 1
    x = np.linspace(-3, 3, 101)[:, None]
    y = f1.eval_np(x)
    assert y.shape == (101, 3) and (y > 0).all() and (y < 1).all()
    r = raw.eval_np(x)
    assert np.allclose(y, (1 + r / 6) / 2, atol=1e-15)
    assert np.allclose(y[17], f1.eval_py([x[17, 0]]), atol=1e-15)


def test_build_xy_separates_kth_largest():
    f1 = TanhNet.seeded(1, 2, 3, seed=5)
    for k in (2, 3):
        r = find_pair(f1, Fraction(1, 2), 3, 2, Fraction(1, 500), k)
        X, Y = r.xy()
        assert len(X) == len(Y) == r.T == r.m + k - 1
        assert X[:k - 1] == Y[:k - 1] == (1,) * (k - 1)
        for j in range(r.m):
            same = r.z[j] == r.zprime[j]
            assert (X[k - 1 + j], Y[k - 1 + j]) == ((0, 0) if same else (r.z[j], r.zprime[j]))

        def F(v):  # k-th largest, ties with multiplicity (L567)
            return sorted(v, reverse=True)[k - 1]

        assert abs(F(X) - F(Y)) >= r.Delta
    with pytest.raises(InvalidParameter):
        build_XY([Fraction(1, 8)], [Fraction(1, 8)], 2)
    with pytest.raises(InvalidParameter):
        build_XY([Fraction(1, 8)], [Fraction(1, 4)], 2, T=5)
