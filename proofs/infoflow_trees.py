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
from attncert.core.expr import add, and_, max_, min_, num, or_, var
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

# ------------------------------------------- D.1, D-retrieval lower bound, step 4: the chain (60)-(64)
# Step 4 (L1291-1301) assumes |I_j| <= T - D for some tree T_j, takes t_1..t_D outside I_j (the union of
# T_j's leaf sets) and x(t_i) = z_i, so that I_F(X_T) = {t_1, .., t_D}; as I_fi(X_T, T_j) is a subset of
# I_j, [I_F cap I_fi(X_T, T_j)] is a subset of [I_F cap I_j] = {}. The sets are written for fixed (T, D)
# as 0/1 integer indicators over the positions t = 1..T, with j = 1 (the D trees are interchangeable):
# f<t> = [t in I_F(X_T)], y<i>_<t> = [t in I_fi(X_T, T_i)], l<t> = [t in I_j]. A cardinality is a sum of
# indicators, a union a maximum, an intersection a minimum. Each relation is then proved for EVERY
# configuration of the sets (SMT over the integers): the union bound and |A cap B| <= |B| are shown, not
# assumed. |I_fi(X_T, T_i)| = 1 (step 2) is used as <= 1, which is all the chain needs.
# The union of (60) (and of the contradicted identity, L1301) runs over i = 1..T where there are D trees:
# read literally, with T - D further trees T_{D+1}..T_T, the chain fails (as_printed below); the steps are
# stated with the union over the D trees.
def _ind(name):
    return Var(name, "int", F(0), F(1))


def _step4(T, trees):
    """The indicators of step 4 for T positions and ``trees`` trees: (f, y, l) as expressions, by position."""
    f = {t: var(f"f{t}") for t in range(1, T + 1)}
    y = {(i, t): var(f"y{i}_{t}") for i in range(1, trees + 1) for t in range(1, T + 1)}
    l_ = {t: var(f"l{t}") for t in range(1, T + 1)}
    return f, y, l_


def _vars(T, trees=0, fs=True, ls=False, tree_ids=None):
    ids = list(range(1, trees + 1)) if tree_ids is None else list(tree_ids)
    names = ([f"f{t}" for t in range(1, T + 1)] if fs else []) + [f"y{i}_{t}" for i in ids for t in range(1, T + 1)]
    names += [f"l{t}" for t in range(1, T + 1)] if ls else []
    return [_ind(s) for s in names], [var(s) for s in names]


def _union(y, ids, t):
    """[t in the union over i in ids of I_fi(X_T, T_i)] (0 for an empty union)."""
    terms = [y[i, t] for i in ids]
    return num(0) if not terms else terms[0] if len(terms) == 1 else max_(*terms)


def _box(vs):
    return [h for v in vs for h in (v >= 0, v <= 1)]


def _step4_hyps(T, D, trees):
    """The facts of step 4 for tree j = 1: |I_F| = D, |I_fi(X_T, T_i)| <= 1 for each tree, I_fi(X_T, T_1) subset
    I_1 and I_F cap I_1 = {} (t_1..t_D outside I_j)."""
    f, y, l_ = _step4(T, trees)
    return ([add(*f.values()).eq(D)] + [add(*[y[i, t] for t in range(1, T + 1)]) <= 1 for i in range(1, trees + 1)]
            + [y[1, t] <= l_[t] for t in range(1, T + 1)] + [f[t] + l_[t] <= 1 for t in range(1, T + 1)])


def _q60(T, trees):
    """(60): |I_F(X_T) cap union_{i=1}^{trees} I_fi(X_T, T_i)|."""
    f, y, _ = _step4(T, trees)
    return add(*[min_(f[t], _union(y, range(1, trees + 1), t)) for t in range(1, T + 1)])


# as printed: the union of (60) over i = 1..T, i.e. T trees T_1..T_T; then (60) <= (63) = D - 1 fails
T_P, D_P = 3, 2
vs_p, ex_p = _vars(T_P, T_P, ls=True)
ob("d1.dret.step4_chain_as_printed", "infoflow:D.1 (60)-(64) (D-retrieval lower bound, step 4)",
   f"as printed, (60) = |I_F(X_T) cap union_(i=1)^T I_fi(X_T, T_i)| <= ... <= (63) = D - 1 < (64) = |I_F(X_T)|, "
   f"reading the union over i = 1..T literally (T trees, |I_fi| <= 1 each, I_fi(X_T, T_j) subset I_j, "
   f"I_F cap I_j = {{}}, |I_F| = D; T = {T_P}, D = {D_P}, j = 1)",
   claim(vs_p, _box(ex_p) + _step4_hyps(T_P, D_P, T_P),
         and_(_q60(T_P, T_P) <= D_P - 1, num(D_P - 1) < add(*_step4(T_P, T_P)[0].values()))),
   ["replay"], expect=Verdict.REFUTED,
   # I_F = {1, 2}, I_1 = I_fi(X_T, T_1) = {3}, I_fi(X_T, T_2) = {1}, I_fi(X_T, T_3) = {2}: (60) = 2 > D - 1 = 1
   hint=tuple(sorted({"f1": F(1), "f2": F(1), "f3": F(0), "l1": F(0), "l2": F(0), "l3": F(1),
                      "y1_1": F(0), "y1_2": F(0), "y1_3": F(1), "y2_1": F(1), "y2_2": F(0), "y2_3": F(0),
                      "y3_1": F(0), "y3_2": F(1), "y3_3": F(0)}.items())),
   finding=Finding("typo", "There are D trees T_1..T_D (step 2), so the union in (60) and in the identity it "
                   "contradicts (L1301, which also misplaces the bars: |I_F(X_T)| vs I_F(X_T) = union) runs over "
                   "i = 1..D. Read literally over i = 1..T, further trees could cover I_F and (60) can reach "
                   "|I_F| = D: e.g. T = 3, D = 2, I_F = {1, 2}, I_fi(T_1) = I_1 = {3}, I_fi(T_2) = {1}, "
                   "I_fi(T_3) = {2} gives (60) = 2 > D - 1. With i = 1..D every step holds.", False))

DRET4 = ((3, 2), (4, 2), (5, 3))
for T, D in DRET4:
    f, y, l_ = _step4(T, D)
    others = range(2, D + 1)                    # i != j = 1
    q60 = _q60(T, D)
    q61 = add(*[min_(f[t], _union(y, others, t)) for t in range(1, T + 1)])
    q62 = add(*[_union(y, others, t) for t in range(1, T + 1)])
    q64 = add(*f.values())
    tag = f"T{T}D{D}"
    where = f"(T = {T}, D = {D}, j = 1; union over the D trees)"
    vs_all, ex_all = _vars(T, D, ls=True)
    ob(f"d1.dret.step4_60_eq_61.{tag}", "infoflow:D.1 (60)-(61)",
       f"(60) = (61): |I_F cap union_(i=1)^D I_fi(X_T, T_i)| = |I_F cap union_(i != j) I_fi(X_T, T_i)|, since "
       f"[I_F cap I_fi(X_T, T_j)] subset [I_F cap I_j] = {{}} {where}",
       claim(vs_all, _box(ex_all) + [y[1, t] <= l_[t] for t in range(1, T + 1)]
             + [f[t] + l_[t] <= 1 for t in range(1, T + 1)], q60.eq(q61)), ["smt"])
    vs_o, ex_o = _vars(T, tree_ids=others)
    ob(f"d1.dret.step4_61_le_62.{tag}", "infoflow:D.1 (61)-(62)",
       f"(61) <= (62): |I_F cap union_(i != j) I_fi(X_T, T_i)| <= |union_(i != j) I_fi(X_T, T_i)| {where}",
       claim(vs_o, _box(ex_o), q61 <= q62), ["smt"])
    vs_y, ex_y = _vars(T, fs=False, tree_ids=others)
    ob(f"d1.dret.step4_62_le_63.{tag}", "infoflow:D.1 (62)-(63)",
       f"(62) <= (63): |union_(i != j) I_fi(X_T, T_i)| <= D - 1 when |I_fi(X_T, T_i)| <= 1 for each of the D - 1 "
       f"trees i != j {where}",
       claim(vs_y, _box(ex_y) + [add(*[y[i, t] for t in range(1, T + 1)]) <= 1 for i in others], q62 <= D - 1),
       ["smt"])
    vs_f, ex_f = _vars(T)
    ob(f"d1.dret.step4_63_lt_64.{tag}", "infoflow:D.1 (63)-(64)",
       f"(63) < (64): D - 1 < |I_F(X_T)| when I_F(X_T) = {{t_1, .., t_D}} has D elements {where}",
       claim(vs_f, _box(ex_f) + [q64.eq(D)], num(D - 1) < q64), ["smt"])
    H = _box(ex_all) + _step4_hyps(T, D, D)
    ob(f"d1.dret.step4_chain.{tag}", "infoflow:D.1 (60)-(64) repaired",
       f"repaired (union over i = 1..D): (60) = |I_F cap union_(i=1)^D I_fi(X_T, T_i)| <= D - 1 < |I_F(X_T)| "
       f"{where}", claim(vs_all, H, and_(q60 <= D - 1, num(D - 1) < q64)), ["smt"],
       repairs="infoflow.trees.d1.dret.step4_chain_as_printed")
    ob(f"d1.dret.step4_contradiction.{tag}", "infoflow:D.1 (64) 'which contradicts' (L1301)",
       f"the facts of step 4 contradict I_F(X_T) subset union_(i=1)^D I_fi(X_T, T_i) (step 3 of the upper bound): "
       f"some t in I_F is in no root's set {where}",
       claim(vs_all, H, or_(*[f[t] > _union(y, range(1, D + 1), t) for t in range(1, T + 1)])), ["smt"])

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
