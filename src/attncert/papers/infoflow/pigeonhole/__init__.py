"""Vectorised pigeonhole witness engine (InfoFlow Theorem 5, Appendix A.2; later also Theorem 6).

Line numbers (L...) refer to ``../shared/papers/infoflow-2605.17930.txt``.

Theorem 5 (k-th largest retrieval). With m = T - k + 1, 0 < eps < 1/(64 m) (L609), Delta = 4 eps,
N = floor(1/(16 m eps)) (L613), alpha_j = (j-1)/(2m) (L617) and grids G_j = {alpha_j + q Delta : q = 1..N}
(L621), every sequence z in G_1 x ... x G_m gives

    S(z) = (sum_j a(z_j), sum_j b(z_j)) in [0, m]^{n+1},  a(x) = lambda(x) f1(x),  b(x) = lambda(x),

lambda(x) = exp(rho(x) - rho(1)), here with rho(x) = beta x. Cutting [0, m]^{n+1} into cubes of side
eta = 4 m N^{-m/(n+1)} (L641), two of the N^m sequences share a cube once N^m exceeds the number of
cubes (L643-651); ``build_XY`` turns such a pair into the inputs X, Y of the proof (L665-673).

The engine has two layers (modules: nets, grids, layout, search, theorem5):

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

from attncert.papers.infoflow.pigeonhole.grids import Grid, GridSet, grids
from attncert.papers.infoflow.pigeonhole.layout import Layout, make_layout
from attncert.papers.infoflow.pigeonhole.nets import TanhNet
from attncert.papers.infoflow.pigeonhole.search import DEFAULT_WINDOW, PointSource, SearchResult, SumSource, search
from attncert.papers.infoflow.pigeonhole.theorem5 import (WitnessPair, build_XY, find_pair, find_pair_reference,
                                                         keys_possible, reference_search, theorem5_tables,
                                                         theorem5_tables_py)

__all__ = [
    "TanhNet", "Grid", "GridSet", "grids", "Layout", "make_layout", "PointSource", "SumSource", "SearchResult",
    "search", "reference_search", "WitnessPair", "theorem5_tables", "theorem5_tables_py", "keys_possible",
    "find_pair", "find_pair_reference", "build_XY", "DEFAULT_WINDOW",
]
