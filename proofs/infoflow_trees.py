"""InfoFlow (Yu, Jiang, Bao, Li 2026), Trees of Comparison: Definitions 1-2 (Sec. 5.3), Figure 2 and
Appendix D.1 (L1250-1354 of ../shared/papers/infoflow-2605.17930.txt). See docs/trees.md.

- Figure 2: each printed internal value follows from the printed rule f_in (exact comparisons).
- The App. D upper-bound trees cover I_F on exact grids (treegrid: replayed by the checker).
- The exact minima of the lower-bound abstractions (treemin: z3 and cvc5 unsat one below, a witness
  family at the minimum) against the printed bounds D(T-D) (D-retrieval), C(T,2) (target (6)) and
  C(T,3) leaves / C(T,3) - 3 comparisons (target (7)).
"""

from __future__ import annotations

from fractions import Fraction as F
from itertools import combinations_with_replacement
from math import comb

from attncert.papers.infoflow import trees as tr
from attncert.papers.infoflow import trees_backend  # noqa: F401  (registers the treemin and treegrid methods)
from attncert.papers.infoflow.treesat import ENCODING, defined_name
from attncert.core.claims import Finding, Var, claim
from attncert.core.expr import and_, num, var
from attncert.core.families import collector, family
from attncert.core.verdict import Verdict

PAPER = "infoflow"
obs, ob = collector("infoflow.trees", PAPER)



# ------------------------------------------------------------------------------------------ Figure 2
X = tr.FIG2_X
for panel, rule in (("a", "f_in(x) = x"), ("b", "f_in(x) = -x")):
    pr = tr.FIG2_PRINTED[panel]
    cmp_ = tr.figure2_comparisons(panel)
    ob(f"fig2.{panel}_values_follow_rule", "infoflow:D Figure 2" + panel,
       f"Figure 2({panel}), x = (0.1, 0.3, 0.4, 0.2), {rule}: the printed internal values "
       f"{', '.join('{%d}' % w for (w,) in pr)} (left pair, right pair, root) each beat their sibling",
       claim([], [], and_(*[num(w) > num(lo) for w, lo in cmp_])), ["interval"])
ob("fig2.roots_cover_active_set", "infoflow:D Figure 2 caption",
   "the roots {3} and {1} are the argmax and argmin of x, so I_F of max x + min x = {1, 3} is their union",
   claim([], [], and_(*[num(X[2]) > num(X[t]) for t in (0, 1, 3)], *[num(X[0]) < num(X[t]) for t in (1, 2, 3)])),
   ["interval"])

# --------------------------------------------------------------------------- App. D upper-bound trees
for target, T, D, g in (("dretrieval", 4, 1, 6), ("dretrieval", 4, 2, 6), ("dretrieval", 4, 3, 6),
                        ("dretrieval", 5, 3, 4), ("triangle", 3, 3, 3), ("triangle", 4, 3, 2)):
    what = (f"D.1: D = {D} trees of the T = {T} leaves {{t}}, f_in = f_j (f_j(z) = -(z - z_j)^2, z_j = (2j-1)/(2D))"
            if target == "dretrieval" else f"D.1: one tree of the T^3 = {T ** 3} ordered triples, f_in = -||sum x||^2")
    ob(f"cover.{target}.T{T}D{D}g{g}", "infoflow:D.1 upper bound",
       f"{what}: I_F(X) is in the union of the roots at every point of the exact grid "
       + (f"{{0, 1/{g}, .., 1}}^{T}" if target == "dretrieval" else
          f"{{(i - {g})/{g + 1} + i^2/{100 * g * g} : i = 0..{2 * g}}}^{T}")
       + " (points with a non-unique maximiser, a null set, skipped)",
       claim([Var(fn := defined_name("treegrid", target, T, D, g), "defined")], [], var(fn).eq(0)), ["treegrid"],
       options=(("target", target), ("T", T), ("D", D), ("g", g), ("encoding", ENCODING)))

# ------------------------------------------------------------------------- lower-bound abstractions


def _nmin(target, T, D):
    """The defined variable 'least quantity of the abstraction (target, T, D)' and its Var."""
    name = defined_name("treemin", target, T, D)
    return var(name), [Var(name, "defined")]


for D in (1, 2, 3):
    for T in range(D, 9):
        opts = (("target", "dretrieval"), ("T", T), ("D", D), ("encoding", ENCODING))
        N, V = _nmin("dretrieval", T, D)
        ob(f"dret.lower.T{T}D{D}", "infoflow:D.1 (lower bound D(T-D))",
           f"D-retrieval, T = {T}, D = {D}: every family of D trees that covers every admissible active set "
           f"(any D positions) has sum (|I_j| - 1) >= D(T-D) = {D * (T - D)}",
           claim(V, [], N >= D * (T - D)), ["treemin"], options=opts)
        ob(f"dret.exact.T{T}D{D}", "infoflow:D.1 (lower bound D(T-D) is tight)",
           f"D-retrieval, T = {T}, D = {D}: the least Number of Comparison under the D.1 abstraction is exactly "
           f"D(T-D) = {D * (T - D)} (upper bound as printed: D(T-1) = {D * (T - 1)})",
           claim(V, [], N.eq(D * (T - D))), ["treemin"], options=opts)
for T in range(2, 7):
    N, V = _nmin("pairwise", T, 1)
    ob(f"pairwise.leaves.T{T}", "infoflow:B.1 (every pair is a leaf)",
       f"target (6), T = {T}, D = 1 (at most 2 trees), UNDER THE LEAF PREMISE of B.1 (every pair {{s,t}}, "
       f"s != t, must be a leaf of some tree; assumed by the paper, not derived from Definitions 1-2): the "
       f"least number of leaves is C(T,2) = {comb(T, 2)}",
       claim(V, [], N.eq(comb(T, 2))), ["treemin"],
       options=(("target", "pairwise"), ("T", T), ("D", 1), ("encoding", ENCODING)))
for T in range(3, 7):
    N, V = _nmin("triangle", T, 3)
    ob(f"triangle.leaves.T{T}", "infoflow:D.1 (C(T,3) leaves, C(T,3) - 3 comparisons)",
       f"target (7), T = {T} (at most D_0 = 3 trees), UNDER THE LEAF PREMISE of D.1 (every triple of distinct "
       f"indices must be a leaf of some tree; assumed by the paper, not derived from Definitions 1-2): at least "
       f"C(T,3) = {comb(T, 3)} leaves, so >= C(T,3) - 3 = {comb(T, 3) - 3} comparisons",
       claim(V, [], N >= comb(T, 3)), ["treemin"],
       options=(("target", "triangle"), ("T", T), ("D", 3), ("encoding", ENCODING)))

# ------------------------------------------------------------------------------------ D.1 findings
# (i) 'I_fi = argmax_{I subset [T], |I| = 3} ||sum x||^2 = I_F(X)' as printed: the tree with
# f_in = -||.||^2 returns the argmin; the printed argmax is the maximiser of the norm.
XA = (F(1, 2), F(-2, 5), F(1, 4), F(1, 8))
arg_printed = sorted(tr.triangle_printed_argmax(XA))
best = min(tr.sqnorm([XA[t - 1] for t in m]) for m in combinations_with_replacement(range(1, 5), 3))
ob("d1.triangle_root_as_printed", "infoflow:D.1 triangle upper bound, step 2",
   f"as printed, I_fi = argmax_(|I|=3) ||sum_(t in I) x(t)||^2 = I_F(X); at x = (1/2, -2/5, 1/4, 1/8) the printed "
   f"argmax {set(arg_printed)} has ||sum||^2 equal to min over (t1,t2,t3) of ||x(t1)+x(t2)+x(t3)||^2",
   claim([], [], num(tr.sqnorm([XA[t - 1] for t in arg_printed])).eq(num(best))), ["interval"],
   expect=Verdict.REFUTED,
   finding=Finding("typo", "I_fi = argmax_I f_in(X[I]) = argmin_I ||sum_(t in I) x(t)||^2 (the minus sign of "
                   "f_in = -||.||^2 was dropped), over ordered triples with repetition as in step 1.", False,
                   "The construction itself (f_in = -||.||^2 on T^3 leaves) is right; the grid obligations replay it."))
# (ii) (7) ranges over t1, t2, t3 with repetition: the minimiser can be a multiset with a repeat on an
# open (positive-measure) set, while the lower-bound argument counts only distinct triples.
XR = (F(2, 5), F(-3, 4), F(9, 10))
rep = min(tr.sqnorm([XR[t - 1] for t in m]) for m in combinations_with_replacement(range(1, 4), 3))
ob("d1.triangle_minimiser_distinct", "infoflow:D.1 triangle lower bound ('all unordered I_0 with distinct t_i')",
   "the minimum of (7) over all (t1,t2,t3) is attained at three distinct indices; at x = (2/5, -3/4, 9/10) "
   "the distinct triple gives ||sum||^2 = 121/400 <= the minimum",
   claim([], [], num(tr.sqnorm(XR)) <= num(rep)), ["interval"], expect=Verdict.REFUTED,
   finding=Finding("implicit-convention", "(7) allows t1 = t2; the minimiser here is (1,1,2) (||.||^2 = 1/400), "
                   "strictly, so on an open set. There I_F = {1, 2} has two elements; any leaf containing both "
                   "(a distinct triple {1, 2, t}) can return it, so the printed count of distinct-triple leaves, "
                   "C(T,3), is unaffected.", False))

# Section 6's 's >= D heads' (L204) is an obligation of infoflow_model (infoflow.model.s6.heads_ge_D_*).

FAMILY = family("infoflow_trees", PAPER, "InfoFlow Trees of Comparison (Defs 1-2, Figure 2, App. D)", obs,
                "docs/trees.md")
