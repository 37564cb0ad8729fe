"""InfoFlow (Yu, Jiang, Bao, Li 2026), Theorem 1 / Theorem 4: depth separation (Appendix A.1).

Equation numbers are the paper's (8)-(43); L... are lines of ../shared/papers/infoflow-2605.17930.txt.
Part 1 (single layer, lower bound): the sets Q0, K_i, P0 and the points b_i (10)-(11), the counting
(12)-(13), the eight weighted-average identities, (14)=(15), the chains (16)-(22), (23), (24)-(38), the
separation of F(W1), F(W2) and the use of Lemma 4 of Yu et al. Part 2 (two layers): the printed weights,
the softmax stages (by the Boltzmann bound of Kajitsuka-Sato B.2), and the error budget (39)-(43). The
built network is certified separately (``attncert construct thm4``, docs/theorem4.md).

Vectors enter the chains through their norms, with the norm axioms of attncert/checker/axioms.json (no
``fact:`` premise is left in this family). e = eps^(k+1) is a named positive quantity. F1's Taylor remainder
is the chain ``taylor4.*`` (the monotonicity rule four times per side).
"""

from __future__ import annotations

from fractions import Fraction as F

from attncert.core.axioms import axiom, same_exp
from attncert.core.claims import Finding, Hyp, Obligation, Var, claim, fact, merge_hyps
from attncert.papers.infoflow.depth import C_ABS, b_points
from attncert.papers.ks.boltzmann import boltz as ks_boltz, entropy as ks_entropy, logsumexp as ks_logsumexp
from attncert.papers.ks.boltzmann import partition as ks_partition, softmax as ks_softmax
from attncert.core.expr import E, abs_, add, and_, diff, exp, free_vars, implies, log, max_, min_, node_of, not_, num, or_, substitute, var
from attncert.core.expr import IDX, at as at_, bmax, bmin, bsum, forall, norm, seq, vadd, vscale, vsub, vvar
from attncert.core.expr import vars_ as v
from attncert.core.families import collector, family
from attncert.papers.infoflow.witness import tanh_tree
from attncert.core.verdict import Verdict
from attncert.core.theorems import cases_hyp, each_hyps, link_hyps, mvt_hyp
from attncert_proofs.infoflow_thm6 import obs as _thm6_obs

PAPER = "infoflow"
obs, ob = collector("infoflow.thm4", PAPER)
REF = "infoflow:A.1"


def closed(id_, ref, vars_, hyps, goal, keep=0):
    """Add obligation ``id_ + '.closed'``: the claim (vars_, hyps, goal) with its plain hypotheses after the first
    ``keep`` (those keep the goal's divisions defined) moved into the goal (an implication), the others kept;
    return the closed goal. A link to the closed form fixes every variable of the claim, so that its remaining
    hypotheses can be carried."""
    expr_ = lambda h: h.expr if isinstance(h, Hyp) else node_of(h)
    # a plain hypothesis that a cited step (a link among ``hyps``) has among its own hypotheses stays: the
    # link carries it, and a premise moved into the goal would leave the link unestablished
    by_id = {o.id: o for o in obs}
    carried = {g.expr for h in hyps if isinstance(h, Hyp) and h.by in by_id for g in by_id[h.by].claim.hyps}
    plain = [i for i, h in enumerate(hyps) if not (isinstance(h, Hyp) and h.by)]
    moved = [i for i in plain[keep:] if expr_(hyps[i]) not in carried]
    while True:    # a kept hypothesis on a variable that neither the goal nor a carried one fixes is moved as well
        g = implies(and_(*[E(expr_(hyps[i])) for i in moved]), goal)
        fixed = free_vars(node_of(g))
        for i in plain[keep:]:
            if i not in moved:
                free_vars(expr_(hyps[i]), fixed)
        more = [i for i in plain[:keep] if i not in moved and not free_vars(expr_(hyps[i])) <= fixed]
        if not more:
            break
        moved = sorted(moved + more)
    ob(f"{id_}.closed", f"{ref} (closed form)",
       f"infoflow.thm4.{id_} with its plain hypotheses{f' (but the first {keep}, the positivity that keeps its divisions defined)' if keep else ''} "
       "moved into the goal (an implication), so that a link fixes every variable", claim(vars_, [h for i, h in enumerate(hyps) if i not in moved], g), ["smt"])
    return g




def sq(xs):
    return add(*[x * x for x in xs])


x1, x2, x3, y1, y2, y3, b1, b2, b3, L, r, s = v("x1", "x2", "x3", "y1", "y2", "y3", "b1", "b2", "b3", "L", "r", "s")
X, Y, B = [x1, x2, x3], [y1, y2, y3], [b1, b2, b3]
half = F(1, 2)

# ================================================================ the sets and the points (10)-(11)
in_Q0 = lambda p: and_(p[0] >= -half, p[0] <= 0, p[1] >= -half, p[1] <= 0, p[2] < 0)     # noqa: E731 (10)
margins = [b1 >= -half + L, b1 <= -L, b2 >= -half + L, b2 <= -L, b3 < -L, L > 0]
ob("ball_coordinates", f"{REF} (10) condition (2)", "||d||^2 <= L^2 gives |d_i| <= L for each coordinate",
   claim(["d1", "d2", "d3", "L"], [L > 0, sq(v("d1", "d2", "d3")) <= L * L],
         and_(*[abs_(d) <= L for d in v("d1", "d2", "d3")])), ["smt"])
ob("ball_in_Q0", f"{REF} (10) condition (2)",
   "if b1, b2 in [-1/2 + L, -L] and b3 < -L, every x with ||x - b|| <= L (so |x_i - b_i| <= L) is in Q0: "
   "B(b, L) cap S^2 is inside Q0",
   claim(["x1", "x2", "x3", "b1", "b2", "b3", "L"],
         margins + [sq([a - c for a, c in zip(X, B)]) <= L * L,
                    fact(and_(*[abs_(a - c) <= L for a, c in zip(X, B)]), "infoflow.thm4.ball_coordinates")],
         in_Q0(X)), ["smt"])
for H in range(1, 9):
    LH, pts = b_points(H)
    conds = []
    for p in pts:
        conds += [sq([num(c) for c in p]).eq(1), num(p[0]) >= -half + LH, num(p[0]) <= -LH,
                  num(p[1]) >= -half + LH, num(p[1]) <= -LH, num(p[2]) < -LH]
    for i, p in enumerate(pts):
        for q in pts[i + 1:]:
            conds.append(sq([num(a) - num(c) for a, c in zip(p, q)]) >= 16 * LH * LH)
    ob(f"b_points.H{H}", f"{REF} (10) 'it is clear that there exists L = C/H'",
       f"H = {H}: the {H + 1} exact rational points b_i (attncert.papers.infoflow.depth.b_points) lie on S^2, satisfy the margins of "
       f"ball_in_Q0 (so condition (2) holds) and ||b_i - b_j||^2 >= 16 L^2 (condition (1)), with L = C/H, C = {C_ABS}",
       claim([], [], and_(*conds)), ["smt", "interval"])

ob("K_literal_empty", f"{REF} (L372) K_i = -B(b_i, L) cap Q0",
   "read literally, K_i = (-B(b_i, L)) cap Q0 = B(-b_i, L) cap Q0 is empty: a point of Q0 has x3 < 0, a point "
   "of B(-b_i, L) has x3 >= -b3 - L > 0",
   claim(["x1", "x2", "x3", "b1", "b2", "b3", "L"], margins + [sq([x1 + b1, x2 + b2, x3 + b3]) <= L * L],
         not_(in_Q0(X))), ["smt"],
   finding=Finding("implicit-convention",
                   "Read K_i = -(B(b_i, L) cap Q0) = B(-b_i, L) cap (-Q0): the points p_i of (11) sit near -b_1, "
                   "and the end of the proof says the rest of the sequence lies in -Q0. With the literal parse "
                   "every K_i is empty and (11) picks from an empty set.", False))
w1, w2 = -b2, b1      # w = (-b2, b1, 0) is orthogonal to b
px = [-b1 * (1 - r / 2) + w1 * s, -b2 * (1 - r / 2) + w2 * s, -b3 * (1 - r / 2)]
ob("p_i_exist", f"{REF} (11) 'it is clear that ... must be non-empty'",
   "for every r in [0, L^2] the point x = -b(1 - r/2) + s w, w = (-b2, b1, 0), s >= 0, s^2 |w|^2 = r - r^2/4, "
   "is on S^2 with ||x + b||^2 = r; then -x is in B(b, L) cap S^2, so in Q0 (ball_in_Q0), and x is in K_1",
   claim(["b1", "b2", "b3", "r", "s", "L"],
         [sq(B).eq(1), b1 * b1 + b2 * b2 > 0, r >= 0, r <= L * L, s >= 0, (s * s * (b1 * b1 + b2 * b2)).eq(r - r * r / 4)],
         and_(sq(px).eq(1), sq([a + c for a, c in zip(px, B)]).eq(r))), ["smt"])
d_i, d_j, d_ij = v("d_i", "d_j", "d_ij")
BI, BJ = list(v("bi1", "bi2", "bi3")), list(v("bj1", "bj2", "bj3"))
ob("parallelogram.n3", f"{REF} (L378) (used for K_disjoint)",
   "||a - c||^2 <= 2 ||x + a||^2 + 2 ||x + c||^2 in R^3 (the difference is ||2x + a + c||^2 >= 0, parallelogram law)",
   claim(["x1", "x2", "x3", "bi1", "bi2", "bi3", "bj1", "bj2", "bj3"], [],
         sq([a - c for a, c in zip(BI, BJ)]) <= 2 * sq([a + c for a, c in zip(X, BI)]) + 2 * sq([a + c for a, c in zip(X, BJ)])),
   ["smt"])
ob("K_disjoint", f"{REF} (L378) K_1..K_{{H+1}} pairwise disjoint",
   "a point x within L of -b_i and of -b_j would give ||b_i - b_j||^2 <= 2 L^2 + 2 L^2 = 4 L^2 < 16 L^2 (condition (1), "
   "as in b_points): no such x (squared distances in R^3)",
   claim(["x1", "x2", "x3", "bi1", "bi2", "bi3", "bj1", "bj2", "bj3", "L"],
         [L > 0, sq([a + c for a, c in zip(X, BI)]) <= L * L, sq([a + c for a, c in zip(X, BJ)]) <= L * L,
          sq([a - c for a, c in zip(BI, BJ)]) >= 16 * L * L,
          fact(sq([a - c for a, c in zip(BI, BJ)]) <= 2 * sq([a + c for a, c in zip(X, BI)])
               + 2 * sq([a + c for a, c in zip(X, BJ)]), "infoflow.thm4.parallelogram.n3")], num(0) > 1), ["smt"])
for H in range(1, 9):
    a = [Var(f"a{j}", "int") for j in range(1, H + 1)]
    av = [var(f"a{j}") for j in range(1, H + 1)]
    ob(f"pigeonhole_Y.H{H}", f"{REF} (L378) some K_i misses Y",
       f"H = {H}: each y_j lies in at most one of the disjoint K_1..K_{H + 1} (a_j = its index, 0 = none); some "
       f"index i in 1..{H + 1} is hit by no y_j",
       claim(a, [and_(x >= 0, x <= H + 1) for x in av],
             or_(*[and_(*[x.ne(i) for x in av]) for i in range(1, H + 2)])), ["smt"])
T, Hh = v("T", "H")
ob("wlog_positions", f"{REF} (L382) 'WLOG i = 1 and t_j = T - j'",
   "the positions: H retrieved positions t_j, one position for b_1 and T0 = T - H - 1 positions for U_1..U_T0",
   claim(["T", "H"], [Hh >= 1, T >= Hh + 2], ((T - Hh - 1) + Hh + 1).eq(T)), ["smt"],
   finding=Finding("implicit-convention",
                   "t_j = T - j is not without loss of generality: with positional encoding P_phi(x, t) the model "
                   "is not permutation invariant, and t_j may even be T (where b_1 is placed). The argument goes "
                   "through by putting b_1 and the U_t on the T0 + 1 positions outside {t_1..t_H}.", False))

# ================================================================ the counting (11)-(13)
Mm, m, eps, i, ii, T0 = v("M", "m", "eps", "i", "ii", "T0")
floor_m = [m * 4 * T0 * eps <= L * L, (m + 1) * 4 * T0 * eps > L * L, m >= 0]      # m = floor(L^2/(4 T0 eps))
ob("U_size", f"{REF} (12)", "|U_j| = #{i : (j-1)M/T0 < i <= jM/T0} = M/T0 = m with M = T0 m",
   claim([Var("j", "int"), "m"], [m >= 1], (var("j") * m - (var("j") - 1) * m).eq(m)), ["smt"])
ob("U_nonempty_threshold", f"{REF} (L392) M = T0 floor(L^2/(4 T0 eps))",
   "if eps > L^2/(4 T0) then m = floor(L^2/(4 T0 eps)) = 0 and every U_j is empty",
   claim([Var("m", "int"), "eps", "T0", "L"], floor_m + [T0 >= 1, L > 0, eps * 4 * T0 > L * L], m.eq(0)), ["smt"],
   finding=Finding("implicit-threshold", "The construction needs eps <= L^2/(4 T0) = C^2/(4 H^2 T0) (else U_j is "
                   "empty); Theorem 4 states every eps > 0. The bound is only claimed as eps -> 0, so the conclusion "
                   "stands; attncert bound thm4 prints the threshold.", False))
ob("U_size_theta", f"{REF} (L406) |U_j| = O(1/eps)",
   "L^2/(8 T0 eps) <= m <= L^2/(4 T0 eps) once eps <= L^2/(8 T0)",
   claim([Var("m", "int"), "eps", "T0", "L"], floor_m + [T0 >= 1, L > 0, eps > 0, eps * 8 * T0 <= L * L],
         and_(m * 8 * T0 * eps >= L * L, m * 4 * T0 * eps <= L * L)), ["smt"])
ob("p_i_in_ball", f"{REF} (11)", "(i-1) L^2/M < L^2 for 1 <= i <= M: every p_i is within L of -b_1",
   claim([Var("i", "int"), Var("M", "int"), "L"], [L > 0, i >= 1, i <= Mm], (i - 1) * L * L / Mm < L * L), ["smt"])
gg = var("g")     # the step L^2/M between consecutive squared distances
ob("step_ge_4eps", f"{REF} (L488) |F(W1) - F(W2)| >= 4 eps",
   "the step g = L^2/M = L^2/(T0 m) is >= 4 eps, as m <= L^2/(4 T0 eps) (M = T0 m, m >= 1)",
   claim(["g", "m", "eps", "T0", "L"], floor_m + [m >= 1, T0 >= 1, L > 0, eps > 0, (gg * T0 * m).eq(L * L)],
         gg >= 4 * eps), ["smt"])
step_h = floor_m + [m >= 1, T0 >= 1, L > 0, eps > 0, (gg * T0 * m).eq(L * L)]
ob("step_ge_4eps.closed", f"{REF} (L488) (used for gap_4eps)",
   "step_ge_4eps with its hypotheses moved into the goal (an implication), so that a link fixes m, T0 and L",
   claim(["g", "m", "eps", "T0", "L"], [], implies(and_(*step_h), gg >= 4 * eps)), ["smt"])
ob("gap_4eps", f"{REF} (L488) |F(W1) - F(W2)| >= 4 eps",
   "two different p_i, p_i' (integers i != i') have squared distances (i-1)g, (i'-1)g to -b_1 that differ by >= g >= 4 eps "
   "(g >= 4 eps by step_ge_4eps, cited in its closed form; i, i' distinct integers, so |i - i'| >= 1)",
   claim(["i", "ii", "g", "eps", "m", "T0", "L"],
         floor_m + [m >= 1, T0 >= 1, L > 0, eps > 0, (gg * T0 * m).eq(L * L),
                    fact(implies(and_(*step_h), gg >= 4 * eps), "infoflow.thm4.step_ge_4eps.closed"),
                    or_(i - ii >= 1, ii - i >= 1)],     # i != i' are integer indices
         abs_((i - 1) * gg - (ii - 1) * gg) >= 4 * eps), ["smt"])
ob("U_ordered", f"{REF} (L486) j* = min J",
   "points of U_t come before points of U_t' (t < t') in squared distance to -b_1: the indices are ordered",
   claim(["i", "ii", "m", Var("t", "int"), Var("tt", "int")],
         [m >= 1, var("t") < var("tt"), i > (var("t") - 1) * m, i <= var("t") * m,
          ii > (var("tt") - 1) * m, ii <= var("tt") * m], i < ii), ["smt"])
k, n, e = v("k", "n", "e")
ob("T0_identity_13", f"{REF} (13)", "T0 = (k+1)(H(n+1)+1) for k = T0/(H(n+1)+1) - 1",
   claim(["T0", "H", "n"], [Hh >= 1, n >= 1], (((T0 / (Hh * (n + 1) + 1) - 1) + 1) * (Hh * (n + 1) + 1)).eq(T0)),
   ["identity"])
ob("exponent_gap_13", f"{REF} (13)", "T0 - (k+1) H (n+1) = k + 1 > 0: choices outgrow constraints by eps^-(k+1)",
   claim(["T0", "H", "n", "k"], [Hh >= 1, n >= 1, T0 >= 1, k.eq(T0 / (Hh * (n + 1) + 1) - 1),    # k as Theorem 4 defines it
                                 fact((((T0 / (Hh * (n + 1) + 1) - 1) + 1) * (Hh * (n + 1) + 1)).eq(T0),
                                      "infoflow.thm4.T0_identity_13")],
         and_((T0 - (k + 1) * Hh * (n + 1)).eq(k + 1), k + 1 > 0)), ["smt"])
# the cells of the pigeonhole, explicitly (attncert bound thm4 evaluates them)
d1, d2, d3, sd = v("d1", "d2", "d3", "sd")
ob("cube_cell_diameter.n3", f"{REF} (L408) accuracy of the average",
   "two points in one cube of side s (n = 3) are within l2 distance s sqrt(n): sum d_i^2 <= n s^2",
   claim(["d1", "d2", "d3", "sd"], [abs_(d1) <= sd, abs_(d2) <= sd, abs_(d3) <= sd], sq([d1, d2, d3]) <= 3 * sd * sd), ["smt"])
# the same for every n: two points in one cube of side s in R^n differ by d with |d_i| <= s, so ||d||^2 <= n s^2
DI, sdv = at_(seq("d"), IDX), var("sd")
ob("cube_cell_diameter", f"{REF} (L408) accuracy of the average, every n",
   "two points in one cube of side s in R^n are within l2 distance s sqrt(n): sum_i d_i^2 <= n s^2 for |d_i| <= s",
   claim([Var("n", "int"), Var("d", "seq"), "sd"],
         [var("n") >= 0, forall(var("n"), abs_(DI) <= sdv),
          axiom("forall_mono", N=var("n"), P=abs_(DI) <= sdv, Q=DI ** 2 <= sdv * sdv),
          axiom("sum_mono", N=var("n"), f=DI ** 2, g=sdv * sdv), axiom("sum_const", N=var("n"), c=sdv * sdv)],
         bsum(var("n"), DI ** 2) <= var("n") * (sdv * sdv)), ["smt"])
S1, S2, G, dl = v("S1", "S2", "G", "dl")
ob("ratio_cell", f"{REF} (L408) accuracy of the ratio",
   "S1, S2 in one geometric cell [G, G(1+delta)) give S1/S2 in [1/(1+delta), 1+delta]",
   claim(["S1", "S2", "G", "dl"], [G > 0, dl > 0, S1 >= G, S1 < G * (1 + dl), S2 >= G, S2 < G * (1 + dl)],
         and_(S1 <= (1 + dl) * S2, S2 <= (1 + dl) * S1)), ["smt"])
c_, R_, ll, lT = v("c", "R", "l", "lT")
ob("avg_cells_bound", f"{REF} (L408)", "ceil(2R/s) <= (2R + 1)/s for 0 < s <= 1",
   claim([Var("c", "int"), "R", "s"], [R_ > 0, s > 0, s <= 1, c_ < 2 * R_ / s + 1], c_ <= (2 * R_ + 1) / s), ["smt"])
rcq_h = [lT >= 0, dl > 0, dl <= 1, axiom("log_one"), axiom("log_tangent", x=1 + dl, y=num(1))]
ob("ratio_cells_quotient", f"{REF} (L408)",
   "log T / log(1+delta) <= 2 log T / delta for 0 < delta <= 1, as log(1+delta) >= delta/(1+delta) (log_tangent at "
   "1+delta, evaluated at 1; lT = log T >= 0)",
   claim(["lT", "dl"], rcq_h, lT / log(1 + dl) <= 2 * lT / dl), ["smt"])
ob("ratio_cells_bound", f"{REF} (L408)",
   "ceil(log T / log(1+delta)) < log T/log(1+delta) + 1 <= (2 log T + 1)/delta for 0 < delta <= 1",
   claim(["c", "lT", "dl"], rcq_h + [c_ < lT / log(1 + dl) + 1,
                                     fact(lT / log(1 + dl) <= 2 * lT / dl, "infoflow.thm4.ratio_cells_quotient")],
         c_ <= (2 * lT + 1) / dl), ["smt"])
ob("floor_half", f"{REF} (L406)", "m = floor(x) >= x/2 for x >= 1",
   claim([Var("m", "int"), "x"], [var("x") >= 1, m > var("x") - 1, m <= var("x")], m * 2 >= var("x")), ["smt"])
lK, lc, ell, sk = v("lK", "lc", "ell", "sk")
ob("pigeonhole_threshold", f"{REF} (13) made explicit",
   "with ell = -log eps: T0 (lc + ell) > lK + (T0 - s) ell whenever s ell > lK - T0 lc, i.e. eps < eps0 = "
   "exp(-(lK - T0 lc)/s), where lc = log(L^2/(8 T0)), lK = log of the cell constant, s = k + 1",
   claim(["T0", "lc", "ell", "lK", "sk"], [sk > 0, T0 >= 1, sk * ell > lK - T0 * lc],
         T0 * (lc + ell) > lK + (T0 - sk) * ell), ["smt"])
NV, Wv1, Wv2, P1, P2 = v("NV", "W1", "W2", "P1", "P2")
ob("values_norm_as_printed", f"{REF} (L408) 'a convex combination of vectors of norm no greater than 1'",
   "under the constraints (||P_phi|| <= 1, |weights| <= 1) a value vector v = W_V P_phi has norm <= 1 "
   "(n = 1, E = 2: W_V = (W1, W2), P = (P1, P2))",
   claim(["W1", "W2", "P1", "P2"], [abs_(Wv1) <= 1, abs_(Wv2) <= 1, P1 * P1 + P2 * P2 <= 1],
         abs_(Wv1 * P1 + Wv2 * P2) <= 1), ["replay", "model", "probe"], expect=Verdict.REFUTED,
   hint=(("W1", F(1)), ("W2", F(1)), ("P1", F(3, 5)), ("P2", F(4, 5))),
   finding=Finding("false-step", "Entries bounded by 1 give ||W_V||_op <= sqrt(n E), so ||v|| <= sqrt(n E); the "
                   "averages live in the ball of radius sqrt(n E). Only the cell count changes (by (nE)^{n/2} per "
                   "head), not the exponent.", False))
ob("values_norm_repaired", f"{REF} (L408) repaired",
   "||W_V P|| <= sqrt(E) ||P|| per row, so |v|^2 <= E = 2 here (Cauchy-Schwarz)",
   claim(["W1", "W2", "P1", "P2"], [abs_(Wv1) <= 1, abs_(Wv2) <= 1, P1 * P1 + P2 * P2 <= 1],
         (Wv1 * P1 + Wv2 * P2) ** 2 <= 2), ["smt"], repairs="infoflow.thm4.values_norm_as_printed")
# the same for every n and E (the bound that `attncert bound thm4` and the repaired chain use: ||V_j|| <= sqrt(nE)):
# W_V an n x E matrix, one family W numbered E (r - 1) + j (docs/axioms.md, "Nested big operators"), |W| <= 1, and
# ||P||^2 = sum_j P_j^2 <= 1. Row r: v_r = sum_j W_rj P_j has v_r^2 <= (sum_j W_rj^2)(sum_j P_j^2) <= E (Cauchy-Schwarz
# for sums); then ||v||^2 = sum_r v_r^2 <= n E, the row step linked at every row
rV, nV, EV = var("r"), var("n"), var("E")
WJ, PJ, VRr = at_(seq("W"), EV * (rV - 1) + IDX), at_(seq("P"), IDX), at_(seq("vr"), rV)
ob("values_norm_row", f"{REF} (L408) repaired, one row, every E",
   "a row v_r = sum_j W_rj P_j of v = W_V P, with |W_rj| <= 1 and sum_j P_j^2 <= 1, has v_r^2 <= E (Cauchy-Schwarz "
   "for sums), at a row r of the family",
   claim([Var("r", "int"), Var("E", "int"), Var("W", "seq"), Var("P", "seq"), Var("vr", "seq")],
         [EV >= 1, forall(EV, abs_(WJ) <= 1), bsum(EV, PJ ** 2) <= 1, VRr.eq(bsum(EV, WJ * PJ)),
          axiom("sum_cauchy_schwarz", N=EV, f=WJ, g=PJ),
          axiom("forall_mono", N=EV, P=abs_(WJ) <= 1, Q=WJ ** 2 <= 1),
          axiom("sum_mono", N=EV, f=WJ ** 2, g=num(1)), axiom("sum_const", N=EV, c=num(1)),
          axiom("forall_intro", N=EV, P=num(0) <= WJ ** 2),
          axiom("sum_mono", N=EV, f=num(0), g=WJ ** 2), axiom("sum_zero", N=EV)],
         VRr ** 2 <= EV), ["smt"])
VALUES_ROW = obs[-1]
VRI = at_(seq("vr"), IDX)
ob("values_norm_repaired_general", f"{REF} (L408) repaired, every n and E",
   "v = W_V P with W_V an n x E matrix of entries |w| <= 1 and ||P||_2 <= 1 has ||v||_2^2 = sum_r v_r^2 <= n E: "
   "v_r^2 <= E at every row (values_norm_row, linked at every row), summed",
   claim([Var("n", "int"), Var("E", "int"), Var("W", "seq"), Var("P", "seq"), Var("vr", "seq")],
         merge_hyps([nV >= 0], each_hyps(VALUES_ROW, "r", nV), [
             axiom("sum_mono", N=nV, f=VRI ** 2, g=EV), axiom("sum_const", N=nV, c=EV)]),
         bsum(nV, VRI ** 2) <= nV * EV), ["smt"])
lam = v("l1", "l2", "l3", "l4")
Mi = var("Mi")
ob("sum_between_M_and_TM", f"{REF} (L408) M_i <= sum <= T M_i",
   "every term is <= M_i and one term equals M_i, so M_i <= sum <= T M_i (T = 4)",
   claim(["l1", "l2", "l3", "l4", "Mi"], [x > 0 for x in lam] + [x <= Mi for x in lam] + [lam[3].eq(Mi)],
         and_(add(*lam) >= Mi, add(*lam) <= 4 * Mi)), ["smt"])
la, lb = v("la", "lb")
# The argmax of L361 ranges over y in P0, an infinite set (a union of spherical caps), so the step cannot be
# written as a maximum over a finite family (bmax; attack round 24 refused that reading); that (z(t), t) is one of
# its candidates (z(t) in U_t, a subset of K_1 and so of P0, and t <= T0 outside t_1..t_{i-1} = T - 1..T - i + 1) is
# a fact about the construction that the language cannot state: la <= lb is a plain premise of the step (it is
# the argmax property at that candidate), so nothing built on it closes (Theorem 4 is OPEN; docs/theorems.md,
# "Premises the language cannot state")
ob("lambda_le_M", f"{REF} (L408) the U-terms are <= M_i",
   "lambda_i(z(t), t) <= lambda_i(y_i, t_i) (the premise: (y_i, t_i) is the argmax of L361 and (z(t), t) one of its "
   "candidates) and lambda_i(y_i, t_i) <= M_i, so lambda_i(z(t), t) <= M_i",
   claim(["la", "lb", "Mi"], [la <= lb,    # the argmax property of (y_i, t_i) at the candidate (z(t), t): a premise
                              lb <= Mi], la <= Mi), ["smt"])

# ================================================================ the eight identities (L426-446)
# a concrete layout: T = 6, H = 1, T0 = 4, J = {1, 3}, I' = {2, 4}, K' = {5, 6}
pos = range(1, 7)
J_, I_, K_ = (1, 3), (2, 4), (5, 6)
lz1 = {t: var(f"u{t}") for t in pos}                         # lambda_i(z1(t), t)
lz2 = {t: (var(f"w{t}") if t in J_ else lz1[t]) for t in pos}   # z2 differs from z1 on J only
lw1 = {t: (var(f"y{t}") if t in I_ else lz1[t]) for t in pos}   # w puts y_1 on I'
lw2 = {t: (var(f"y{t}") if t in I_ else lz2[t]) for t in pos}
vz1 = {t: var(f"vu{t}") for t in pos}
vz2 = {t: (var(f"vw{t}") if t in J_ else vz1[t]) for t in pos}
vw1 = {t: (var(f"vy{t}") if t in I_ else vz1[t]) for t in pos}
vw2 = {t: (var(f"vy{t}") if t in I_ else vz2[t]) for t in pos}
lam_vars = sorted({str(x.node[1]) for d in (lz1, lz2, lw1, lw2) for x in d.values()})
val_vars = sorted({str(x.node[1]) for d in (vz1, vz2, vw1, vw2) for x in d.values()})


def S(lm, ts):
    return add(*[lm[t] for t in ts])


def SV(lm, vv, ts):
    return add(*[lm[t] * vv[t] for t in ts])


Q1, Q2, Q3, Q4, Q5 = S(lz1, J_), S(lz2, J_), S(lz1, I_), S(lw1, I_), S(lz1, K_)
V1, V2, V3, V4, V5 = (SV(lz1, vz1, J_) / Q1, SV(lz2, vz2, J_) / Q2, SV(lz1, vz1, I_) / Q3, SV(lw1, vw1, I_) / Q4,
                      SV(lz1, vz1, K_) / Q5)
allv = lam_vars + val_vars
pos_h = [var(x) > 0 for x in lam_vars]
ident = [
    ("sum_z1", "sum_t lambda(z1(t), t) = Q1 + Q3 + Q5", S(lz1, pos).eq(Q1 + Q3 + Q5)),
    ("sum_z2", "sum_t lambda(z2(t), t) = Q2 + Q3 + Q5", S(lz2, pos).eq(Q2 + Q3 + Q5)),
    ("sum_w1", "sum_t lambda(w1(t), t) = Q1 + Q4 + Q5", S(lw1, pos).eq(Q1 + Q4 + Q5)),
    ("avg_z1", "avg over z1 = (Q1V1 + Q3V3 + Q5V5)/(Q1 + Q3 + Q5)",
     (SV(lz1, vz1, pos) / S(lz1, pos)).eq((Q1 * V1 + Q3 * V3 + Q5 * V5) / (Q1 + Q3 + Q5))),
    ("avg_z2", "avg over z2 = (Q2V2 + Q3V3 + Q5V5)/(Q2 + Q3 + Q5)",
     (SV(lz2, vz2, pos) / S(lz2, pos)).eq((Q2 * V2 + Q3 * V3 + Q5 * V5) / (Q2 + Q3 + Q5))),
    ("avg_w1", "avg over w1 = (Q1V1 + Q4V4 + Q5V5)/(Q1 + Q4 + Q5)",
     (SV(lw1, vw1, pos) / S(lw1, pos)).eq((Q1 * V1 + Q4 * V4 + Q5 * V5) / (Q1 + Q4 + Q5))),
]
for id_, st, goal in ident:
    ob(f"identity.{id_}", f"{REF} (L426-446)", st + " (layout T = 6, J = {1,3}, I' = {2,4}, K' = {5,6})",
       claim(allv, pos_h, goal), ["identity"])
ob("identity.sum_w2_as_printed", f"{REF} (L432) fourth identity",
   "as printed: sum_t lambda(z2(t), t) = Q2 + Q4 + Q5", claim(allv, pos_h, S(lz2, pos).eq(Q2 + Q4 + Q5)),
   ["replay", "model", "probe"], expect=Verdict.REFUTED, hint=(("u1", F(1)), ("u2", F(1)), ("u3", F(1)), ("u4", F(1)), ("u5", F(1)), ("u6", F(1)), ("w1", F(1)), ("w3", F(1)), ("y4", F(1)), ("y2", F(2)), ("vu1", F(0)), ("vu2", F(0)), ("vu3", F(0)), ("vu4", F(0)), ("vu5", F(0)), ("vu6", F(0)), ("vw1", F(0)), ("vw3", F(0)), ("vy2", F(0)), ("vy4", F(0))),
   finding=Finding("typo", "The fourth identity is about w2: sum_t lambda(w2(t), t) = Q2 + Q4 + Q5 (as printed it "
                   "says z2, which would force Q3 = Q4).", False))
ob("identity.sum_w2", f"{REF} (L432) repaired", "sum_t lambda(w2(t), t) = Q2 + Q4 + Q5",
   claim(allv, pos_h, S(lw2, pos).eq(Q2 + Q4 + Q5)), ["identity"], repairs="infoflow.thm4.identity.sum_w2_as_printed")
ob("identity.avg_w2_as_printed", f"{REF} (L446) eighth identity",
   "as printed: avg over w2 = (Q2V2 + Q4V4 + Q5V5)/(Q1 + Q4 + Q5)",
   claim(allv, pos_h, (SV(lw2, vw2, pos) / S(lw2, pos)).eq((Q2 * V2 + Q4 * V4 + Q5 * V5) / (Q1 + Q4 + Q5))),
   ["replay", "model", "probe"], expect=Verdict.REFUTED, hint=(("u1", F(2)), ("u2", F(1)), ("u3", F(1)), ("u4", F(1)), ("u5", F(1)), ("u6", F(1)), ("w1", F(1)), ("w3", F(1)), ("y2", F(1)), ("y4", F(1)), ("vu1", F(1)), ("vu2", F(1)), ("vu3", F(1)), ("vu4", F(1)), ("vu5", F(1)), ("vu6", F(1)), ("vw1", F(1)), ("vw3", F(1)), ("vy2", F(1)), ("vy4", F(1))),
   finding=Finding("typo", "The denominator is Q2 + Q4 + Q5, as used in (14).", False))
ob("identity.avg_w2", f"{REF} (L446) repaired", "avg over w2 = (Q2V2 + Q4V4 + Q5V5)/(Q2 + Q4 + Q5)",
   claim(allv, pos_h, (SV(lw2, vw2, pos) / S(lw2, pos)).eq((Q2 * V2 + Q4 * V4 + Q5 * V5) / (Q2 + Q4 + Q5))),
   ["identity"], repairs="infoflow.thm4.identity.avg_w2_as_printed")

# ================================================================ (14)=(15) and the chains (16)-(38)
q1, q2, q3, q4, q5, v1, v2, v3, v4, v5 = v("q1", "q2", "q3", "q4", "q5", "v1", "v2", "v3", "v4", "v5")
QV = ["q1", "q2", "q3", "q4", "q5", "v1", "v2", "v3", "v4", "v5"]


def split(qa):
    """(14) and the two terms of (15) with Q_a (a = Q4 for the w-sequences, Q3 for the z-sequences)."""
    va = {q3: v3, q4: v4}[qa]
    lhs = (q1 * v1 + qa * va + q5 * v5) / (q1 + qa + q5) - (q2 * v2 + qa * va + q5 * v5) / (q2 + qa + q5)
    first = (q2 - q1) * (qa * (va - v2) + q5 * (v5 - v2)) / ((q1 + qa + q5) * (q2 + qa + q5))
    second = q1 / (q1 + qa + q5) * (v1 - v2)
    return lhs, first, second


lhs4, first4, second4 = split(q4)
lhs3, first3, second3 = split(q3)
qpos = [q1 > 0, q2 > 0, q3 > 0, q4 > 0, q5 > 0]
ob("identity_14_15", f"{REF} (14)=(15)", "(14) = (Q2-Q1)(Q4(V4-V2) + Q5(V5-V2))/(...)(...) + Q1/(Q1+Q4+Q5) (V1 - V2)",
   claim(QV, [q1 > 0, q2 > 0, q4 > 0, q5 > 0], lhs4.eq(first4 + second4)), ["identity"])
ob("identity_14_15.z", f"{REF} (14)=(15) for z (used in (24)-(28))", "the same identity with Q3, V3 in place of Q4, V4",
   claim(QV, [q1 > 0, q2 > 0, q3 > 0, q5 > 0], lhs3.eq(first3 + second3)), ["identity"])

# hypotheses in force (L452): Q's > 0, Q1 >= Q2 (WLOG), Q5 >= M_i >= (Q1 + Q3 + Q5)/T, the ratio condition
dlt = e / (24 * T * T)
Sz1, Sz2 = q1 + q3 + q5, q2 + q3 + q5
H_chain = qpos + [T >= 2, e > 0, e <= 1, q1 >= q2, q5 >= Mi, Mi * T >= Sz1,
                  Sz1 * (1 + dlt) >= Sz2, Sz2 * (1 + dlt) >= Sz1]
CH = ["q1", "q2", "q3", "q4", "q5", "T", "e", "Mi"]
u4, u3 = v("u4", "u3")    # ||Q4 (V4 - V2) + Q5 (V5 - V2)||, and the same with Q3
# the value vectors V_j of (14)-(15) (opaque vectors: only the norm axioms are known of them)
VV = {j: vvar(f"V{j}") for j in (2, 3, 4, 5)}
U4V = ["u4"] + [Var(f"V{j}", "vec") for j in (2, 4, 5)]
U3V = ["u3"] + [Var(f"V{j}", "vec") for j in (2, 3, 5)]


def norm_split(u, qa, a, bound):
    """u = ||Qa (Va - V2) + Q5 (V5 - V2)|| and what bounds it: the triangle inequality and homogeneity
    (axiom instances) and ||V_j|| <= bound for j = 2, a, 5 (plain hypotheses: the paper's L408 claim with
    bound 1, REFUTED as printed by infoflow.thm4.values_norm_as_printed; rho = sqrt(nE) repaired)."""
    Va, V2, V5 = VV[a], VV[2], VV[5]
    Da, D5 = vsub(Va, V2), vsub(V5, V2)
    A, B = vscale(qa, Da), vscale(q5, D5)
    return [u >= 0, u.eq(norm(vadd(A, B))),
            axiom("norm_triangle", x=A, y=B), axiom("norm_scale", c=qa, x=Da), axiom("norm_scale", c=q5, x=D5),
            axiom("norm_triangle", x=Va, y=vscale(-1, V2)), axiom("norm_triangle", x=V5, y=vscale(-1, V2)),
            axiom("norm_scale", c=num(-1), x=V2), norm(V2) <= bound, norm(Va) <= bound, norm(V5) <= bound]


def u_bound(chain, u, qa, a, bound, extra_vars, extra_hyps, note):
    """Obligation {chain}.u{a}_bound: u <= 2 bound (Qa + Q5), and the hypotheses that cite it."""
    uvars = (U4V if a == 4 else U3V)
    base = [qa > 0, q5 > 0] + extra_hyps + norm_split(u, qa, a, bound)
    goal = u <= 2 * bound * (qa + q5)
    ob(f"{chain}.u{a}_bound", f"{REF} (16) <= (17) (L452){note}",
       f"||Q{a}(V{a} - V2) + Q5(V5 - V2)|| <= Q{a}||V{a} - V2|| + Q5||V5 - V2|| <= 2 b (Q{a} + Q5) by the triangle "
       f"inequality and homogeneity, given ||V_j|| <= b{note}",
       claim([f"q{a}", "q5"] + extra_vars + uvars, base, goal), ["smt"])
    return norm_split(u, qa, a, bound) + [fact(goal, f"infoflow.thm4.{chain}.u{a}_bound")]


# the chain as printed rests on ||V_j|| <= 1 (L408), which is false: infoflow.thm4.values_norm_as_printed. It is
# kept as printed; the chain_r obligations below carry the repaired bound ||V_j|| <= rho = sqrt(n E) through
_PRINTED = ", as printed: ||V_j|| <= 1 (L408, REFUTED as printed: infoflow.thm4.values_norm_as_printed)"
H_u4 = u_bound("chain", u4, q4, 4, 1, [], [], _PRINTED)
H_u3 = u_bound("chain", u3, q3, 3, 1, [], [], _PRINTED)
t16 = abs_(q2 - q1) * u4 / ((q1 + q4 + q5) * (q2 + q4 + q5))
t17 = abs_(q2 - q1) * (2 * q4 + 2 * q5) / ((q1 + q4 + q5) * (q2 + q4 + q5))
t18 = 2 * abs_(q2 - q1) / (q1 + q4 + q5)
t19 = 2 * T * abs_(q2 - q1) / Sz1
t20 = abs_(1 - Sz2 / Sz1)
t21 = T * e / (12 * T * T)
t22 = e / (12 * T)
chain = [("16_17", "(16) <= (17)", t16, t17, H_u4, "<="), ("17_18", "(17) <= (18)", t17, t18, [], "<="),
         ("18_19", "(18) <= (19) (Q1+Q4+Q5 >= Q5 >= (Q1+Q3+Q5)/T)", t18, t19, [], "<="),
         ("20_21", "(20) <= (21) (the ratio condition)", t20, t21, [], "<="), ("21_22", "(21) = (22)", t21, t22, [], "=")]
for id_, st, a_, b_, extra, rel in chain:
    ob(f"chain.{id_}", f"{REF} {st}", st, claim(CH + (U4V if extra else []), H_chain + extra,
                                                              a_ <= b_ if rel == "<=" else a_.eq(b_)), ["smt"])
ob("chain.19_20_as_printed", f"{REF} (19) = (20)", "as printed: 2T(Q2 - Q1)/(Q1 + Q3 + Q5) = |1 - sum z2 / sum z1|",
   claim(CH, H_chain, t19.eq(t20)), ["replay", "model", "probe"], expect=Verdict.REFUTED,
   hint=(("Mi", F(7, 8)), ("T", F(3)), ("e", F(243, 256)), ("q1", F(1, 2)), ("q2", F(251, 512)), ("q3", F(1)),
         ("q4", F(1)), ("q5", F(1))),
   finding=Finding("typo", "(19) = 2T |1 - sum z2/sum z1|: the factor 2T is dropped in (20). (21) already carries "
                   "it back (T eps^{k+1}/(12 T^2) = 2T delta), so (16) <= (22) holds.", False))
ob("chain.19_20", f"{REF} (19) = (20) repaired", "(19) = 2T |1 - sum z2 / sum z1|",
   claim(CH, H_chain, t19.eq(2 * T * t20)), ["smt"], repairs="infoflow.thm4.chain.19_20_as_printed")
ob("chain.20_21_repaired", f"{REF} (20) <= (21) repaired", "2T |1 - sum z2 / sum z1| <= 2T delta = T eps^{k+1}/(12 T^2)",
   claim(CH, H_chain, 2 * T * t20 <= t21), ["smt"], repairs="infoflow.thm4.chain.19_20_as_printed")
ob("chain.16_22", f"{REF} (16) <= (22)", "the whole chain: (16) <= eps^{k+1}/(12 T)",
   claim(CH + U4V, H_chain + H_u4, t16 <= t22), ["smt"])
C_16_22 = closed("chain.16_22", f"{REF} (16) <= (22)", CH + U4V, H_chain + H_u4, t16 <= t22, keep=7)
t23 = abs_(q2 - q1) * u3 / (Sz1 * Sz2)
ob("bound_23", f"{REF} (23)", "||(Q2-Q1)(Q3(V3-V2) + Q5(V5-V2))|| / ((Q1+Q3+Q5)(Q2+Q3+Q5)) <= eps^{k+1}/(12T)",
   claim(CH + U3V, H_chain + H_u3, t23 <= t22), ["smt"])
C_23 = closed("bound_23", f"{REF} (23)", CH + U3V, H_chain + H_u3, t23 <= t22, keep=7)
# (24)-(30) over the value vectors: (15) for the z-sequences splits (25) = (26) + (24) (identity_14_15.z, here
# as vectors: the same linear combination of V1, V2, V3, V5, checked by the vector_identity rule)
n31, n16 = v("n31", "n16")
nd = var("nd")   # ||V1 - V2||
VV[1] = vvar("V1")
LHS3 = vadd(vscale(1 / Sz1, vadd(vscale(q1, VV[1]), vscale(q3, VV[3]), vscale(q5, VV[5]))),
            vscale(-1 / Sz2, vadd(vscale(q2, VV[2]), vscale(q3, VV[3]), vscale(q5, VV[5]))))      # (25)
W3 = vadd(vscale(q3, vsub(VV[3], VV[2])), vscale(q5, vsub(VV[5], VV[2])))                        # u3 = ||W3||
C26 = (q2 - q1) / (Sz1 * Sz2)
FIRST3 = vscale(C26, W3)                                                                           # (26) = (28)
SECOND3 = vscale(q1 / Sz1, vsub(VV[1], VV[2]))                                                    # (24)
PV = [Var(f"V{j}", "vec") for j in (1, 2, 3, 5)]


def uniq(*lists):
    """Variable lists joined, each name once (a Var keeps its domain)."""
    out, seen = [], set()
    for x in (y for lst in lists for y in lst):
        name = x.name if isinstance(x, Var) else x
        if name not in seen:
            seen.add(name)
            out.append(x)
    return out


H_24 = [axiom("vector_identity", x=SECOND3, y=vadd(LHS3, vscale(-1, FIRST3))),
        axiom("norm_triangle", x=LHS3, y=vscale(-1, FIRST3)), axiom("norm_scale", c=num(-1), x=FIRST3)]
G_24 = norm(SECOND3) <= norm(LHS3) + norm(FIRST3)
ob("chain.24_26", f"{REF} (24) <= (25) + (26)",
   "(24) = (25) - (26) as vectors ((15) for z, identity_14_15.z), so ||(24)|| <= ||(25)|| + ||(26)|| (triangle inequality)",
   claim(uniq(QV[:5], PV), qpos + H_24, G_24), ["smt"])
ob("chain.25_27", f"{REF} (25) = (27)", "(25) is the difference of the attention averages of z1 and z2",
   claim(allv, pos_h, ((Q1 * V1 + Q3 * V3 + Q5 * V5) / (Q1 + Q3 + Q5) - (Q2 * V2 + Q3 * V3 + Q5 * V5) / (Q2 + Q3 + Q5)).eq(
       SV(lz1, vz1, pos) / S(lz1, pos) - SV(lz2, vz2, pos) / S(lz2, pos))), ["identity"])
# the pigeonhole pair's fourth condition (L400): ||(27)|| <= eps^{k+1}/(6T), with (27) = (25) (chain.25_27). It is
# a hypothesis in force for the chain, as the ratio condition of H_chain is (the pair exists by (13))
PAIR4 = norm(LHS3) <= e / (6 * T)


def pair_steps(chain, ref_note, hc, hu3, c23, c23_id, ch):
    """(27) + (28) <= (29) = (30) and the hypotheses of (31)-(33) for ``chain`` (printed or repaired); ``c23`` is
    the closed form of (23), certificate ``c23_id``."""
    # the closed form of (23) first: a link to this step binds q4 (absent from its goal) through it, not
    # through the first 'q? > 0' it meets
    h27 = [T >= 1, e > 0, PAIR4, fact(c23, c23_id)] + hc + hu3 + [axiom("norm_scale", c=C26, x=W3)]
    g27 = norm(LHS3) + norm(FIRST3) <= e / (4 * T)
    ob(f"{chain}.27_29", f"{REF} (27) + (28) <= (29) = (30){ref_note}",
       "||(27)|| <= eps^{k+1}/(6T) (the pigeonhole pair's fourth condition, (27) = (25)) and ||(28)|| = "
       "|Q2-Q1|/((Q1+Q3+Q5)(Q2+Q3+Q5)) ||Q3(V3-V2) + Q5(V5-V2)|| <= eps^{k+1}/(12T) (23) give <= eps^{k+1}/(4T)",
       claim(uniq(ch, U3V, PV), h27, g27), ["smt"])
    return hc + hu3 + [T >= 1, e > 0, PAIR4, fact(c23, c23_id), axiom("norm_scale", c=C26, x=W3)] + qpos + H_24 + [
        fact(G_24, "infoflow.thm4.chain.24_26"), fact(g27, f"infoflow.thm4.{chain}.27_29"),
        axiom("norm_scale", c=q1 / Sz1, x=vsub(VV[1], VV[2])), nd >= 0, nd.eq(norm(vsub(VV[1], VV[2])))]


H_31 = pair_steps("chain", "", H_chain, H_u3, C_23, "infoflow.thm4.bound_23.closed", CH)
G_31 = and_(q1 / (q1 + q4 + q5) * nd <= T * q1 / Sz1 * nd, T * q1 / Sz1 * nd <= e / 4)
ob("chain.31_33", f"{REF} (31) <= (32) <= (33)",
   "Q1/(Q1+Q4+Q5) ||V1-V2|| <= T Q1/(Q1+Q3+Q5) ||V1-V2|| <= eps^{k+1}/4",
   claim(uniq(CH, ["nd"], U3V, PV), H_31, G_31), ["smt"])
C_31 = closed("chain.31_33", f"{REF} (31) <= (32) <= (33)", uniq(CH, ["nd"], U3V, PV), H_31, G_31, keep=7)
ob("chain.34_35", f"{REF} (34) = (35)", "(35) is the difference of the attention averages of w1 and w2 (repaired identities)",
   claim(allv, pos_h, ((Q1 * V1 + Q4 * V4 + Q5 * V5) / (Q1 + Q4 + Q5) - (Q2 * V2 + Q4 * V4 + Q5 * V5) / (Q2 + Q4 + Q5)).eq(
       SV(lw1, vw1, pos) / S(lw1, pos) - SV(lw2, vw2, pos) / S(lw2, pos))), ["identity"])
ob("chain.35_36_as_printed", f"{REF} (35) <= (36)",
   "as printed: ||(14)|| <= ||Q1/(Q1+Q4+Q5)(V1-V2)|| + ||(Q2-Q1)(Q3(V3-V2)+Q5(V5-V2))/((Q1+Q3+Q5)(Q2+Q3+Q5))|| "
   "(scalar values, n = 1)",
   claim(QV, qpos + [q1 >= q2], abs_(lhs4) <= abs_(second4) + abs_(first3)), ["replay", "model", "probe"], expect=Verdict.REFUTED,
   hint=(("q1", F(2)), ("q2", F(1)), ("q3", F(1)), ("q4", F(1)), ("q5", F(1)), ("v1", F(0)), ("v2", F(0)), ("v3", F(0)),
         ("v4", F(1)), ("v5", F(0))),
   finding=Finding("typo", "The second term of (36) must be the w-term (16) with Q4, V4, not the z-term (26) with Q3: "
                   "(14) = (15) splits with Q4. Both are bounded by eps^{k+1}/(12T) ((22) and (23)), so (37) and "
                   "(38) stand.", False))
ob("chain.35_36", f"{REF} (35) <= (36) repaired",
   "||(14)|| <= ||Q1/(Q1+Q4+Q5)(V1-V2)|| + ||(16)||, by (14) = (15) (identity_14_15; scalar values, n = 1)",
   claim(QV, qpos + [q1 >= q2, fact(lhs4.eq(first4 + second4), "infoflow.thm4.identity_14_15")],
         abs_(lhs4) <= abs_(second4) + abs_(first4)), ["smt"],
   repairs="infoflow.thm4.chain.35_36_as_printed")
def chain_36_38(chain, ref, statement, ch, h31, hu4):
    """(36) <= (37) <= (38) from (31)-(33) and (16)-(22) of ``chain`` ('chain' as printed, 'chain_r' repaired),
    linked with their hypotheses carried; n31, n16 are the norms of the two terms of (36), (31) and (16). The
    links and definitions come first: z3 then needs 0.1 s instead of 25 s (cvc5 0.04 s either way)."""
    ob(f"{chain}.36_38", ref, statement,
       claim(uniq(["n31", "n16"], ch, ["nd"], U3V, PV, U4V),
             [T >= 1, e > 0, fact(G_31, f"infoflow.thm4.{chain}.31_33"), fact(t16 <= t22, f"infoflow.thm4.{chain}.16_22"),
              n31.eq(q1 / (q1 + q4 + q5) * nd), n16.eq(t16)] + h31 + hu4,
             and_(n31 + n16 <= e / 4 + e / (12 * T), e / 4 + e / (12 * T) <= e / 2)), ["smt"])


chain_36_38("chain", f"{REF} (36) <= (37) <= (38)",
            "eps^{k+1}/4 + eps^{k+1}/(12T) <= eps^{k+1}/2 (from (33) and (22), or (23) as printed)",
            CH, H_31, H_u4)

# ---------------------------------------------------------------- (16)-(38) with the repaired norm bound
# ||V_j|| <= rho = sqrt(n E) (values_norm_repaired: entries bounded by 1 give ||W_V||_op <= sqrt(n E)), so the
# triangle inequality gives ||Q4 (V4 - V2) + Q5 (V5 - V2)|| <= 2 rho (Q4 + Q5), and (17)-(22) carry a factor
# rho. The chain still ends at eps^{k+1}/(12T) when the ratio condition (L400) uses delta' = delta / rho =
# eps^{k+1}/(24 T^2 rho) instead of delta: the count of ratio cells grows by a constant factor (rho per head),
# not with 1/eps, so (13) and the exponent stand. rho >= 1 (n, E >= 1) is all the steps use.
rho = var("rho")
dlt_r = e / (24 * T * T * rho)
H_chain_r = qpos + [T >= 2, e > 0, rho >= 1, e <= 1, q1 >= q2, q5 >= Mi, Mi * T >= Sz1,
                    Sz1 * (1 + dlt_r) >= Sz2, Sz2 * (1 + dlt_r) >= Sz1]
CH_r = CH + ["rho"]
_REPAIRED = ", repaired: ||V_j|| <= rho = sqrt(nE) (L408 repaired; instance n = 1, E = 2: infoflow.thm4.values_norm_repaired)"
H_u4_r = u_bound("chain_r", u4, q4, 4, rho, [Var("rho")], [rho >= 1], _REPAIRED)
H_u3_r = u_bound("chain_r", u3, q3, 3, rho, [Var("rho")], [rho >= 1], _REPAIRED)
t17_r = abs_(q2 - q1) * (2 * rho * (q4 + q5)) / ((q1 + q4 + q5) * (q2 + q4 + q5))
t18_r = 2 * rho * abs_(q2 - q1) / (q1 + q4 + q5)
t19_r = 2 * rho * T * abs_(q2 - q1) / Sz1
chain_r = [("16_17", "(16) <= (17)", t16, t17_r, H_u4_r, "<="),
           ("17_18", "(17) <= (18)", t17_r, t18_r, [], "<="),
           ("18_19", "(18) <= (19) (Q1+Q4+Q5 >= Q5 >= (Q1+Q3+Q5)/T)", t18_r, t19_r, [], "<="),
           ("19_20", "(19) = 2 rho T |1 - sum z2 / sum z1|", t19_r, 2 * rho * T * t20, [], "="),
           ("20_22", "(20) <= (22) (the ratio condition with delta' = delta/rho)", 2 * rho * T * t20, t22, [], "<=")]
for id_, st, a_, b_, extra, rel in chain_r:
    ob(f"chain_r.{id_}", f"{REF} {st}, repaired norm bound",
       f"with ||V_j|| <= rho = sqrt(nE) in place of 1 (L408 repaired): {st}, the factor rho carried",
       claim(CH_r + (U4V if extra else []), H_chain_r + extra, a_ <= b_ if rel == "<=" else a_.eq(b_)), ["smt"])
ob("chain_r.16_22", f"{REF} (16) <= (22), repaired norm bound",
   "with ||V_j|| <= rho and delta' = eps^{k+1}/(24 T^2 rho): (16) <= eps^{k+1}/(12 T)",
   claim(CH_r + U4V, H_chain_r + H_u4_r, t16 <= t22), ["smt"])
C_16_22_r = closed("chain_r.16_22", f"{REF} (16) <= (22), repaired norm bound", CH_r + U4V, H_chain_r + H_u4_r,
                   t16 <= t22, keep=8)
ob("chain_r.bound_23", f"{REF} (23), repaired norm bound",
   "with ||V_j|| <= rho and delta': ||(Q2-Q1)(Q3(V3-V2) + Q5(V5-V2))|| / ((Q1+Q3+Q5)(Q2+Q3+Q5)) <= eps^{k+1}/(12T)",
   claim(CH_r + U3V, H_chain_r + H_u3_r, t23 <= t22), ["smt"])
C_23_r = closed("chain_r.bound_23", f"{REF} (23), repaired norm bound", CH_r + U3V, H_chain_r + H_u3_r, t23 <= t22,
                keep=8)
H_31_r = pair_steps("chain_r", ", repaired norm bound", H_chain_r, H_u3_r, C_23_r,
                    "infoflow.thm4.chain_r.bound_23.closed", CH_r)
ob("chain_r.31_33", f"{REF} (31) <= (32) <= (33), repaired norm bound",
   "Q1/(Q1+Q4+Q5) ||V1-V2|| <= T Q1/(Q1+Q3+Q5) ||V1-V2|| <= eps^{k+1}/4 (the ratio condition with delta')",
   claim(uniq(CH_r, ["nd"], U3V, PV), H_31_r, G_31), ["smt"])
C_31_r = closed("chain_r.31_33", f"{REF} (31) <= (32) <= (33), repaired norm bound", uniq(CH_r, ["nd"], U3V, PV), H_31_r,
                G_31, keep=8)
chain_36_38("chain_r", f"{REF} (36) <= (37) <= (38), repaired norm bound",
            "eps^{k+1}/4 + eps^{k+1}/(12T) <= eps^{k+1}/2, from chain_r.31_33 and chain_r.16_22",
            CH_r, H_31_r, H_u4_r)

# ================================================================ the separation and Lemma 4 (L480-520)
ob("sphere_identity", f"{REF} (L482)", "on S^2: 2(1 + x.y) = ||x + y||^2",
   claim(["x1", "x2", "x3", "y1", "y2", "y3"], [sq(X).eq(1), sq(Y).eq(1)],
         (2 * (1 + x1 * y1 + x2 * y2 + x3 * y3)).eq(sq([x1 + y1, x2 + y2, x3 + y3]))), ["smt"])
in_mQ0 = lambda p: [p[0] >= 0, p[0] <= half, p[1] >= 0, p[1] <= half, p[2] > 0]    # noqa: E731  -Q0
ob("minusQ0_height", f"{REF} (L484)", "a point of -Q0 on S^2 has x3^2 = 1 - x1^2 - x2^2 >= 1/2",
   claim(["x1", "x2", "x3"], [sq(X).eq(1)] + in_mQ0(X), x3 * x3 >= half), ["smt"])
mQ0_xy = [sq(X).eq(1)] + in_mQ0(X) + [sq(Y).eq(1)] + in_mQ0(Y)     # x, y: two points of -Q0 on S^2
ob("minusQ0_height_product", f"{REF} (L484)", "x, y in -Q0 on S^2: x3, y3 > 0 with x3^2, y3^2 >= 1/2 (as in minusQ0_height) give x3 y3 >= 1/2",
   claim(["x1", "x2", "x3", "y1", "y2", "y3"], mQ0_xy, x3 * y3 >= half), ["smt"])
ob("expand_sum_square", f"{REF} (L484)", "||x + y||^2 = ||x||^2 + ||y||^2 + 2 x.y",
   claim(["x1", "x2", "x3", "y1", "y2", "y3"], [],
         sq([x1 + y1, x2 + y2, x3 + y3]).eq(sq(X) + sq(Y) + 2 * (x1 * y1 + x2 * y2 + x3 * y3))), ["identity"])
ob("nonneg_products", f"{REF} (L484)", "on -Q0: x1 y1 >= 0 and x2 y2 >= 0",
   claim(["x1", "x2", "y1", "y2"], [x1 >= 0, x2 >= 0, y1 >= 0, y2 >= 0], and_(x1 * y1 >= 0, x2 * y2 >= 0)), ["smt"])
pr1, pr2, pr3, Ssq = v("p1", "p2", "p3", "Ssq")
expand_e = sq([x1 + y1, x2 + y2, x3 + y3]).eq(sq(X) + sq(Y) + 2 * (x1 * y1 + x2 * y2 + x3 * y3))
expand_h = fact(expand_e, "infoflow.thm4.expand_sum_square")
nonneg_h = fact(and_(x1 * y1 >= 0, x2 * y2 >= 0), "infoflow.thm4.nonneg_products")
height_h = fact(implies(and_(*mQ0_xy), x3 * y3 >= half), "infoflow.thm4.minusQ0_height_product.closed")
ob("minusQ0_height_product.closed", f"{REF} (L484) (used for minusQ0_pairs)",
   "minusQ0_height_product with its hypotheses moved into the goal (an implication), so that a link fixes x1, x2, y1, y2",
   claim(["x1", "x2", "x3", "y1", "y2", "y3"], [], implies(and_(*mQ0_xy), x3 * y3 >= half)), ["smt"])
Nx, Ny = v("Nx", "Ny")
ob("pairs_algebra", f"{REF} (L484) (used for minusQ0_pairs)",
   "Ssq = Nx + Ny + 2 (p1 + p2 + p3) with Nx = Ny = 1 (||x||^2, ||y||^2), p1, p2 >= 0 and p3 >= 1/2 (p_i = x_i y_i) "
   "gives Ssq >= 3",
   claim(["Ssq", "Nx", "Ny", "p1", "p2", "p3"], [],
         implies(and_(Nx.eq(1), Ny.eq(1), Ssq.eq(Nx + Ny + 2 * (pr1 + pr2 + pr3)), and_(pr1 >= 0, pr2 >= 0), pr3 >= half),
                 Ssq >= 3)), ["smt"])
H_pairs = mQ0_xy + [expand_h, nonneg_h, height_h,
                    fact(implies(and_(sq(X).eq(1), sq(Y).eq(1), expand_e, and_(x1 * y1 >= 0, x2 * y2 >= 0),
                                      x3 * y3 >= half), sq([x1 + y1, x2 + y2, x3 + y3]) >= 3), "infoflow.thm4.pairs_algebra")]
G_pairs = sq([x1 + y1, x2 + y2, x3 + y3]) >= 3
ob("minusQ0_pairs", f"{REF} (L484) 'the rest of the sequence are in -Q0'",
   "two points of -Q0 on S^2 (possibly equal) have ||x + y||^2 = 2 + 2 x.y >= 3, far above every ||w + b_1||^2 < L^2 "
   "(Ssq = ||x + y||^2, in coordinates)",
   claim(["x1", "x2", "x3", "y1", "y2", "y3"], H_pairs, G_pairs), ["smt"])
# the triangle inequality in R^3, from Cauchy-Schwarz (Lagrange's identity), over coordinates
Ua, Wa = list(v("ua1", "ua2", "ua3")), list(v("wa1", "wa2", "wa3"))
nu, nw, nuw = v("nu", "nw", "nuw")
UWv = ["ua1", "ua2", "ua3", "wa1", "wa2", "wa3"]


def dot(a_, b_):
    return add(*[x * y for x, y in zip(a_, b_)])


def cross_sq(a_, b_):
    return (a_[1] * b_[2] - a_[2] * b_[1]) ** 2 + (a_[2] * b_[0] - a_[0] * b_[2]) ** 2 + (a_[0] * b_[1] - a_[1] * b_[0]) ** 2


ob("lagrange_identity.n3", f"{REF} (L484) (used for b1_vs_other_K)", "||u||^2 ||w||^2 - (u.w)^2 = ||u x w||^2 in R^3",
   claim(UWv, [], (sq(Ua) * sq(Wa) - dot(Ua, Wa) ** 2).eq(cross_sq(Ua, Wa))), ["identity"])
cs_h = lambda a_, b_: fact((sq(a_) * sq(b_) - dot(a_, b_) ** 2).eq(cross_sq(a_, b_)),
                           "infoflow.thm4.lagrange_identity.n3")
ob("cauchy_schwarz.n3", f"{REF} (L484) (used for b1_vs_other_K)",
   "(u.w)^2 <= ||u||^2 ||w||^2 in R^3 (lagrange_identity.n3: the difference is a sum of squares)",
   claim(UWv, [cs_h(Ua, Wa)], dot(Ua, Wa) ** 2 <= sq(Ua) * sq(Wa)), ["smt"])
Su, Sw, Pd = v("Su", "Sw", "Pd")


def tri_core(na, nb, nab, sa, sb, pab):
    return implies(and_(na >= 0, nb >= 0, nab >= 0, (na * na).eq(sa), (nb * nb).eq(sb), (nab * nab).eq(sa + sb - 2 * pab),
                        pab * pab <= sa * sb), nab <= na + nb)


ob("triangle.core", f"{REF} (L484) (used for triangle.n3)",
   "for non-negative nu, nw, nuw with nu^2 = Su, nw^2 = Sw, nuw^2 = Su + Sw - 2P and P^2 <= Su Sw: nuw <= nu + nw "
   "(an implication, so that a link fixes every variable)",
   claim(["nu", "nw", "nuw", "Su", "Sw", "Pd"], [], tri_core(nu, nw, nuw, Su, Sw, Pd)), ["smt"])
ob("expand_diff_square.n3", f"{REF} (L484) (used for triangle.n3)", "||u - w||^2 = ||u||^2 + ||w||^2 - 2 u.w in R^3",
   claim(UWv, [], sq([x - y for x, y in zip(Ua, Wa)]).eq(sq(Ua) + sq(Wa) - 2 * dot(Ua, Wa))), ["identity"])


def tri_defs(a_, b_, na, nb, nab):
    """na, nb, nab are the norms of a, b and a - b (the non-negative square roots)."""
    return [na >= 0, nb >= 0, nab >= 0, (na * na).eq(sq(a_)), (nb * nb).eq(sq(b_)),
            (nab * nab).eq(sq([x - y for x, y in zip(a_, b_)]))]


def tri_h(a_, b_, na, nb, nab):
    return [cs_h(a_, b_), fact(dot(a_, b_) ** 2 <= sq(a_) * sq(b_), "infoflow.thm4.cauchy_schwarz.n3"),
            fact(sq([x - y for x, y in zip(a_, b_)]).eq(sq(a_) + sq(b_) - 2 * dot(a_, b_)), "infoflow.thm4.expand_diff_square.n3"),
            fact(tri_core(na, nb, nab, sq(a_), sq(b_), dot(a_, b_)), "infoflow.thm4.triangle.core")]


def tri_goal(a_, b_, na, nb, nab):
    return implies(and_(*tri_defs(a_, b_, na, nb, nab)), nab <= na + nb)


ob("triangle.n3", f"{REF} (L484) (used for b1_vs_other_K)",
   "||u - w|| <= ||u|| + ||w|| in R^3 (norms as the non-negative square roots nu, nw, nuw; by Cauchy-Schwarz "
   "-u.w <= ||u|| ||w||; the definitions of the norms are in the goal, as an implication, so that a link fixes "
   "every variable)",
   claim(UWv + ["nu", "nw", "nuw"], tri_h(Ua, Wa, nu, nw, nuw), tri_goal(Ua, Wa, nu, nw, nuw)), ["smt"])
# y in K_i, b_i, b_1 (BI, BJ) in R^3: u = y + b_i, w = y + b_1, u - w = b_i - b_1
Ui, Wj = [a_ + c_ for a_, c_ in zip(Y, BI)], [a_ + c_ for a_, c_ in zip(Y, BJ)]
H_b1K = [L > 0, d_i <= L, d_ij >= 4 * L] + tri_defs(Ui, Wj, d_i, d_j, d_ij) + tri_h(Ui, Wj, d_i, d_j, d_ij)
b1K_core = implies(and_(L > 0, d_i <= L, d_ij >= 4 * L, d_j >= 0, d_ij <= d_i + d_j), d_j >= 3 * L)
ob("b1_vs_other_K.core", f"{REF} (L484) (used for b1_vs_other_K)",
   "d_ij <= d_i + d_j, d_i <= L and d_ij >= 4L give d_j >= 3L (an implication, so that a link fixes every variable)",
   claim(["d_i", "d_j", "d_ij", "L"], [], b1K_core), ["smt"])
H_b1K += [fact(tri_goal(Ui, Wj, d_i, d_j, d_ij), "infoflow.thm4.triangle.n3"), fact(b1K_core, "infoflow.thm4.b1_vs_other_K.core")]
ob("b1_vs_other_K", f"{REF} (L484) Y cap B(-b_1, L) empty",
   "y in K_i (i != 1): ||y + b_1|| >= ||b_i - b_1|| - ||y + b_i|| >= 4L - L = 3L (d_i = ||y + b_i||, d_j = "
   "||y + b_1||, d_ij = ||(y + b_i) - (y + b_1)|| = ||b_i - b_1||, in coordinates; triangle.n3)",
   claim(["d_i", "d_j", "d_ij", "L", "y1", "y2", "y3", "bi1", "bi2", "bi3", "bj1", "bj2", "bj3"], H_b1K, d_j >= 3 * L),
   ["smt"])
C_b1K = closed("b1_vs_other_K", f"{REF} (L484) Y cap B(-b_1, L) empty",
               ["d_i", "d_j", "d_ij", "L", "y1", "y2", "y3", "bi1", "bi2", "bi3", "bj1", "bj2", "bj3"], H_b1K, d_j >= 3 * L)
dJ, o1, o2, o3 = v("dJ", "o1", "o2", "o3")
Sxy = var("Sxy")


def core_FJ(sxy):
    return implies(and_(L > 0, L <= F(1, 16), dJ >= 0, dJ < L * L, sxy >= 3, o1.eq(sxy), d_j >= 3 * L, o2.eq(d_j * d_j),
                        o3.eq(4)), min_(dJ, o1, o2, o3).eq(dJ))


ob("F_reduces_to_J.core", f"{REF} (L484-486) (used for F_reduces_to_J)",
   "the minimum of the four kinds of pair terms is the J-term when dJ < L^2 <= 1/256, o1 = Sxy >= 3, o2 = d_j^2 with "
   "d_j >= 3L, and o3 = 4 (an implication, so that a link fixes every variable)",
   claim(["dJ", "o1", "o2", "o3", "L", "Sxy", "d_j"], [], core_FJ(Sxy)), ["smt"])
ob("F_reduces_to_J", f"{REF} (L484-486)",
   "F(W) = min over pairs = min_{t in J} ||w(t) + b_1||^2: the J-terms are < L^2, the others >= min(3, 9L^2, 4)",
   claim(["dJ", "o1", "o2", "o3", "L", "x1", "x2", "x3", "y1", "y2", "y3", "d_i", "d_j", "d_ij",
          "bi1", "bi2", "bi3", "bj1", "bj2", "bj3"],
         [L > 0, L <= F(1, 16), dJ >= 0, dJ < L * L]
         + H_pairs + [fact(G_pairs, "infoflow.thm4.minusQ0_pairs"),
                      o1.eq(sq([x1 + y1, x2 + y2, x3 + y3]))]    # o1 = ||x + y||^2, x, y in -Q0
         + H_b1K + [fact(C_b1K, "infoflow.thm4.b1_vs_other_K.closed"),
                    o2.eq(d_j * d_j)]    # o2 = ||y + b_1||^2, y in some K_i, i != 1
         + [o3.eq(4), fact(core_FJ(sq([x1 + y1, x2 + y2, x3 + y3])), "infoflow.thm4.F_reduces_to_J.core")],
         min_(dJ, o1, o2, o3).eq(dJ)), ["smt"])
Fa, Fb, Ma, Mb = v("Fa", "Fb", "Ma", "Mb")
sep_h = [eps > 0, abs_(Fa - Fb) >= 4 * eps, abs_(Fa - Ma) <= eps, abs_(Fb - Mb) <= eps]
ob("model_gap_as_printed", f"{REF} (L488) '|M1(W1,T) - M1(W1,T)| <= 2 eps'",
   "as printed (read with W2 in the second slot): delta(M1) <= eps and |F(W1) - F(W2)| >= 4 eps give "
   "|M1(W1) - M1(W2)| <= 2 eps",
   claim(["eps", "Fa", "Fb", "Ma", "Mb"], sep_h, abs_(Ma - Mb) <= 2 * eps), ["replay", "model", "probe"], expect=Verdict.REFUTED,
   hint=(("eps", F(1, 10)), ("Fa", F(0)), ("Fb", F(2, 5)), ("Ma", F(0)), ("Mb", F(2, 5))),
   finding=Finding("typo", "The step needs |M1(W1) - M1(W2)| >= 2 eps (W2, and >=), which is what Lemma 4's B >= "
                   "eps uses.", False))
ob("model_gap", f"{REF} (L488) repaired", "|M1(W1) - M1(W2)| >= 4 eps - 2 eps = 2 eps",
   claim(["eps", "Fa", "Fb", "Ma", "Mb"], sep_h, abs_(Ma - Mb) >= 2 * eps), ["smt"],
   repairs="infoflow.thm4.model_gap_as_printed")
Aa, Bb, Ek, sn, P = v("A", "B", "Ek", "sn", "P")
ob("lemma4_exponent", f"{REF} (L508-514) Lemma 4 of Yu et al.: Omega(B/(A sqrt n))",
   "A <= eps^{k+1}/2 and B >= eps give B/(A sqrt n) >= 2 eps^{-k}/sqrt n (Ek = eps^k, sn = sqrt n)",
   claim(["A", "B", "eps", "Ek", "sn"], [eps > 0, Ek > 0, sn >= 1, Aa > 0, Aa <= eps * Ek / 2, Bb >= eps],
         Bb / (Aa * sn) >= 2 / (Ek * sn)), ["smt"])
dd1, dd2, o11, o12, o21, o22 = v("dd1", "dd2", "o11", "o12", "o21", "o22")
ob("lemma4_A_as_printed", f"{REF} (L514) 'Having A <= eps^(k+1)/2'",
   "as printed, the distance A of the FFN inputs is <= eps^{k+1}/2; here H = 2 heads, n = 1: the FFN input "
   "differs by W_O (dd1, dd2) with |dd_i| <= e/2 per head (38) and |W_O entries| <= 1",
   claim(["dd1", "dd2", "o11", "o12", "o21", "o22", "e"],
         [e > 0, abs_(dd1) <= e / 2, abs_(dd2) <= e / 2] + [abs_(x) <= 1 for x in (o11, o12, o21, o22)],
         (o11 * dd1 + o12 * dd2) ** 2 + (o21 * dd1 + o22 * dd2) ** 2 <= e * e / 4), ["replay", "model", "probe"],
   expect=Verdict.REFUTED, hint=(("dd1", F(1, 2)), ("dd2", F(1, 2)), ("o11", F(1)), ("o12", F(1)), ("o21", F(1)),
                                 ("o22", F(1)), ("e", F(1))),
   finding=Finding("false-step", "(38) bounds each head. The FFN input c0 + W_O Concat(heads) moves by at most "
                   "||W_O||_op sqrt(H) eps^{k+1}/2 <= E sqrt(H) eps^{k+1}/2, and Lemma 4's n is the FFN input "
                   "dimension E. Only the constant of Omega(eps^{-k}) changes (by E^{-3/2} H^{-1/2}).", False))
ob("lagrange_identity.n2", f"{REF} (L514) repaired", "(o1 d1 + o2 d2)^2 + (o1 d2 - o2 d1)^2 = (o1^2 + o2^2)(d1^2 + d2^2)",
   claim(["dd1", "dd2", "o11", "o12"], [], ((o11 * dd1 + o12 * dd2) ** 2 + (o11 * dd2 - o12 * dd1) ** 2).eq(
       (o11 * o11 + o12 * o12) * (dd1 * dd1 + dd2 * dd2))), ["identity"])
r1, r2, nrm = v("r1", "r2", "nrm")
lag_h = lambda a_, b_: fact(((a_ * dd1 + b_ * dd2) ** 2 + (a_ * dd2 - b_ * dd1) ** 2).eq(    # noqa: E731
    (a_ * a_ + b_ * b_) * (dd1 * dd1 + dd2 * dd2)), "infoflow.thm4.lagrange_identity.n2")
row_e = lambda a_, b_: (a_ * dd1 + b_ * dd2) ** 2 <= (a_ * a_ + b_ * b_) * (dd1 * dd1 + dd2 * dd2)   # noqa: E731
wt_e = lambda a_, b_: (a_ * a_ + b_ * b_) * (dd1 * dd1 + dd2 * dd2) <= 2 * (dd1 * dd1 + dd2 * dd2)   # noqa: E731
row_h = lambda a_, b_: fact(row_e(a_, b_), "infoflow.thm4.row_cauchy_schwarz.n2")   # noqa: E731
wt_h = lambda a_, b_: fact(wt_e(a_, b_), "infoflow.thm4.row_weights.n2")   # noqa: E731
ob("row_cauchy_schwarz.n2", f"{REF} (L514) repaired (used for lemma4_A_repaired)",
   "(o1 d1 + o2 d2)^2 <= (o1^2 + o2^2)(d1^2 + d2^2): lagrange_identity.n2 less the square (o1 d2 - o2 d1)^2 >= 0",
   claim(["dd1", "dd2", "o11", "o12"], [lag_h(o11, o12)],
         (o11 * dd1 + o12 * dd2) ** 2 <= (o11 * o11 + o12 * o12) * (dd1 * dd1 + dd2 * dd2)), ["smt"])
Ra, Rb, Pa, Pb, Nd = v("Ra", "Rb", "Pa", "Pb", "Nd")
ob("rows_sum", f"{REF} (L514) repaired (used for lemma4_A_repaired)",
   "Ra <= Pa <= 2 Nd and Rb <= Pb <= 2 Nd give Ra + Rb <= 4 Nd (Ra, Rb: the squared rows of W_O d; Nd = ||d||^2)",
   claim(["Ra", "Rb", "Pa", "Pb", "Nd"], [],
         implies(and_(Ra <= Pa, Pa <= 2 * Nd, Rb <= Pb, Pb <= 2 * Nd), Ra + Rb <= 4 * Nd)), ["smt"])
ob("row_weights.n2", f"{REF} (L514) repaired (used for lemma4_A_repaired)",
   "|o1|, |o2| <= 1 give (o1^2 + o2^2)(d1^2 + d2^2) <= 2 (d1^2 + d2^2)",
   claim(["dd1", "dd2", "o11", "o12"], [abs_(o11) <= 1, abs_(o12) <= 1],
         (o11 * o11 + o12 * o12) * (dd1 * dd1 + dd2 * dd2) <= 2 * (dd1 * dd1 + dd2 * dd2)), ["smt"])
ob("lemma4_A_repaired", f"{REF} (L514) repaired",
   "each row: (W_O d)_r^2 <= (o_r1^2 + o_r2^2) ||d||^2 <= 2 ||d||^2, so ||W_O d||^2 <= 4 ||d||^2 (E = 2, Cauchy-Schwarz)",
   claim(["dd1", "dd2", "o11", "o12", "o21", "o22"],
         [abs_(x) <= 1 for x in (o11, o12, o21, o22)]
         + [h(a_, b_) for a_, b_ in ((o11, o12), (o21, o22)) for h in (lag_h, row_h, wt_h)]
         + [fact(implies(and_(*[c_ for a_, b_ in ((o11, o12), (o21, o22)) for c_ in (row_e(a_, b_), wt_e(a_, b_))]),
                         (o11 * dd1 + o12 * dd2) ** 2 + (o21 * dd1 + o22 * dd2) ** 2 <= 4 * (dd1 * dd1 + dd2 * dd2)),
                 "infoflow.thm4.rows_sum")],
         (o11 * dd1 + o12 * dd2) ** 2 + (o21 * dd1 + o22 * dd2) ** 2 <= 4 * (dd1 * dd1 + dd2 * dd2)), ["smt"],
   repairs="infoflow.thm4.lemma4_A_as_printed")
ob("k_formal_vs_informal", "infoflow:Thm 1 (L68) vs Thm 4 (L320)",
   "formal k = (T-H-1)/(H(n+1)+1) - 1 exceeds the informal k(T) = (T-2H)/(H(n+1)+1) - 1 by (H-1)/(H(n+1)+1) >= 0",
   claim(["T", "H", "n"], [Hh >= 1, n >= 1],
         and_((((T - Hh - 1) / (Hh * (n + 1) + 1) - 1) - ((T - 2 * Hh) / (Hh * (n + 1) + 1) - 1)).eq(
             (Hh - 1) / (Hh * (n + 1) + 1)), (Hh - 1) / (Hh * (n + 1) + 1) >= 0)), ["smt"],
   finding=Finding("statement-mismatch", "Informal Theorem 1 states k(T) = (T-2H)/(H(n+1)+1) - 1; Theorem 4 and its "
                   "proof give k = (T-H-1)/(H(n+1)+1) - 1. They agree for H = 1; for H >= 2 the informal exponent is "
                   "weaker (smaller), so it is implied.", False))
ob("constraints_informal", "infoflow:Thm 1 (L64-74) vs A.1 (L306-312)",
   "the lower bound needs k > 0, i.e. T0 = T - H - 1 > H(n+1) + 1 (T0 > 0 alone, 'the nontrivial case', gives k > -1)",
   claim(["T", "H", "n"], [Hh >= 1, n >= 1, T - Hh - 1 > Hh * (n + 1) + 1], (T - Hh - 1) / (Hh * (n + 1) + 1) - 1 > 0),
   ["smt"],
   finding=Finding("implicit-convention", "Informal Theorem 1 omits the model constraints of A.1 (embedding norm <= 1, "
                   "every weight <= 1 in magnitude) on which the lower bound rests (Lemma 4 needs bounded weights), "
                   "and the bound is only non-trivial when T - H - 1 > H(n+1) + 1.", False))

# ================================================================ Part 2: the two-layer construction (L520-560)
ob("embedding_norm", f"{REF} Part 2 step 1", "||P_phi(x, t)|| = ||(x/3, 0)|| <= 1 on [-1, 1]^3",
   claim(["x1", "x2", "x3"], [abs_(x1) <= 1, abs_(x2) <= 1, abs_(x3) <= 1], sq([x1 / 3, x2 / 3, x3 / 3]) <= 1), ["smt"])
ob("layer1_score", f"{REF} Part 2 step 2",
   "W_Q = -[I3 0; 0 0], W_K = [I3 0; 0 0] (entries <= 1): (W_Q x1(s))^T W_K x1(t) = -(1/9) x(s).x(t)",
   claim(["x1", "x2", "x3", "y1", "y2", "y3"], [],
         add(*[(-a / 3) * (c / 3) for a, c in zip(X, Y)]).eq(-(x1 * y1 + x2 * y2 + x3 * y3) / 9)), ["identity"])
# step 3 as printed: x(t)^T v(t) -> (1/9) min_s x(s)^T x(t). At T = 2 with x(1) = x(2) = e_1 both scores tie, the
# weights are 1/2 and x(t)^T v(t) = 1/3 for every beta, while (1/9) min = 1/9.
bt = num(10)
sc = -bt / 9
p_eq = exp(sc) / (exp(sc) + exp(sc))
ob("step3_as_printed", f"{REF} Part 2 step 3",
   "as printed, uniformly: |x(t)^T v(t) - (1/9) min_s x(s)^T x(t)| <= 1/beta; at T = 2, x(1) = x(2) = e_1, beta = 10",
   claim([], [], abs_(p_eq * F(1, 3) + p_eq * F(1, 3) - F(1, 9)) <= 1 / bt), ["interval"], expect=Verdict.REFUTED,
   finding=Finding("typo", "v(t) = sum_s p_s x(s)/3, so x(t)^T v(t) -> (1/3) min; the quantity that tends to "
                   "(1/9) min is (x(t)/3)^T v(t), which is what G receives in step 4 (and what (40) needs).", False))
avg, mn, ln_n, bet = v("avg", "mn", "ln_n", "beta")
aa = v("a1", "a2", "a3")
# n = 3 positions, in Kajitsuka-Sato's own terms: c = -beta a, p = softmax(c), Z = sum e^{c_j}; the three
# ks.boltz facts are cited as exact instances (a := c, p := softmax(c)), each with its own hypotheses carried
# (axiom instances, and p in the simplex by ks.boltz.softmax_pos.n3 / softmax_sum.n3)
cb = [-bet * x for x in aa]
Zb, pb = ks_partition(cb), ks_softmax(cb)
bmb_h = ([bet > 0] + [axiom("exp_pos", x=x) for x in cb]
         + [fact(exp(x) / Zb > 0, "ks.boltz.softmax_pos.n3") for x in cb]
         + [fact(add(*pb).eq(1), "ks.boltz.softmax_sum.n3"), axiom("log_one")]
         + [axiom("log_tangent", x=3 * q, y=num(1)) for q in pb] + [axiom("log_mul", x=num(3), y=q) for q in pb]
         + [fact(-add(*[q * log(q) for q in pb]) <= log(num(3)), "ks.boltz.fact.entropy_le_log_n.n3")]
         + [axiom("log_le", x=exp(x), y=Zb) for x in cb] + [axiom("log_exp", x=x) for x in cb]
         + [fact(max_(*cb) <= log(Zb), "ks.boltz.fact.max_le_L.n3"),
            fact(ks_boltz(cb).eq(ks_logsumexp(cb) - ks_entropy(pb)), "ks.boltz.identity_85.n3"),
            # what avg, mn and ln_n name (definitions)
            avg.eq(add(*[x * q for x, q in zip(aa, pb)])), mn.eq(min_(*aa)), ln_n.eq(log(num(3)))])
ob("boltzmann_min_bound", f"{REF} Part 2 steps 3 and 6, via ks:B.2 (85)",
   "a softmax(-beta a)-weighted average exceeds min a by at most log(n)/beta (n = 3): with c = -beta a, boltz(c) = "
   "L(c) - S(p) (85), max c <= L(c), S(p) <= log n, and boltz(c) = -beta avg, max c = -beta min a",
   claim(["avg", "mn", "ln_n", "beta", "a1", "a2", "a3"], bmb_h, avg - mn <= ln_n / bet), ["smt"],
   finding=Finding("implicit-convention",
                   "beta is the fixed softmax scale of Section 3, not a weight: the constraints of A.1 do not bound "
                   "it and it is not counted. The construction needs beta >= 54 ln(T)/eps (printed budget; 72 "
                   "ln(T)/eps in the repaired network). With beta fixed (say 1), the first layer's scores are "
                   "bounded (E = 6, ||x1|| <= 1, entries <= 1) and its error cannot go to 0.", False))
pp = v("p1", "p2", "p3")
ob("weighted_avg_ge_min", f"{REF} Part 2 steps 3 and 6", "a convex combination of a1..a3 is >= min(a1, a2, a3)",
   claim(["p1", "p2", "p3", "a1", "a2", "a3"], [x >= 0 for x in pp] + [add(*pp).eq(1)],
         add(*[p_ * a_ for p_, a_ in zip(pp, aa)]) >= min_(*aa)), ["smt"])
at, c2 = v("at", "c2")
ob("layer2_score", f"{REF} Part 2 step 5",
   "W_Q, W_K with rows (W_Q)_{1,2} = (W_Q)_{2,2} = -1, (W_K)_{1,1} = (W_K)_{2,1} = 1 (entries <= 1) give "
   "(W_Q^T W_K)_{2,1} = -2 and, with c2 = (., 1/2, 0, ...), (W_Q c2)^T W_K x2(t) = -a(t)",
   claim(["at", "c2"], [c2.eq(half)], ((-1 * c2) * (1 * at) + (-1 * c2) * (1 * at)).eq(-at)), ["smt"],
   finding=Finding("implicit-convention", "The paper gives only the products W_Q^T W_K; the entry -2 exceeds 1 but "
                   "factors through two rows with entries +-1, which the constraint (on W_Q, W_K) allows. Step 5 "
                   "also writes W_{K,1,1} for W_{K,1,2}.", False))
ob("output_identity", f"{REF} Part 2 step 6", "2 + 18 (mu/9) = 2(1 + mu) = F when (c2')_4 = (1/9) min_{s,t} x(s).x(t)",
   claim(["mu"], [], (2 + 18 * (var("mu") / 9)).eq(2 * (1 + var("mu")))), ["identity"])
ob("output_block_weights", f"{REF} Part 2 step 6 vs the constraints (L306-312)",
   "the output block y = 2 + 18 (c2')_4 has weights bounded by 1: |18| <= 1 and |2| <= 1",
   claim([], [], and_(abs_(num(18)) <= 1, abs_(num(2)) <= 1)), ["interval"], expect=Verdict.REFUTED,
   finding=Finding("constraint-violation",
                   "The output block has weight 18 and bias 2. The repaired network (attncert construct thm4 "
                   "--variant repaired) realises 2 + 18 c with tanh units of weights <= 1 (many replicated units in "
                   "the linear regime plus constant units), within a budgeted share of eps.", False))
# the error budget (39)-(43). Over the tokens t = 1..T, three sequences (docs/axioms.md, "Indexed families"):
# a(t), the FFN's first output at t (step 4); w(t) = x(t)^T v(t), step 3's attention output; g(t) =
# (1/9) min_s x(s)^T x(t), its limit. mu = min_{s,t} x(s)^T x(t) = 9 min_t g(t) (F = 2(1 + mu)): a definition.
c4, amin, mu, Adev, e1, e2, e3 = v("c4", "amin", "mu", "Adev", "e1", "e2", "e3")
a_s, w_s, g_s = seq("a"), seq("w"), seq("g")
A_, W_, G_ = at_(a_s, IDX), at_(w_s, IDX), at_(g_s, IDX)
SEQS = [Var("a", "seq"), Var("w", "seq"), Var("g", "seq")]
STEP3 = abs_(W_ - G_) <= e1   # step 3: the softmax at scale beta is within e1 of the minimum, at every t
STEP4 = abs_(A_ - W_) <= e2   # step 4: F1 is within e2 of the inner product, at every t
DEV = abs_(A_ - G_)
MAXDEV, AMIN, GMIN = bmax(T, DEV), bmin(T, A_), bmin(T, G_)
ob("budget_dev_max", f"{REF} Part 2 steps 3-4 (inside (40))",
   "max_t |a(t) - (1/9) min_s x(s)^T x(t)| <= e1 + e2: at each t, |a - g| <= |a - w| + |w - g| (the step-3 and "
   "step-4 errors), then the maximum over t",
   claim([Var("T"), "e1", "e2"] + SEQS,
         [T >= 1, forall(T, STEP3), forall(T, STEP4),
          axiom("forall_and", N=T, P=STEP3, Q=STEP4),
          axiom("forall_mono", N=T, P=and_(STEP3, STEP4), Q=DEV <= e1 + e2),
          axiom("bmax_least", N=T, f=DEV, c=e1 + e2)],
         MAXDEV <= e1 + e2), ["smt"])
ob("budget_min_gap", f"{REF} (40)-(41)",
   "|min_t a(t) - min_t g(t)| <= max_t |a(t) - g(t)|: each a(t) >= g(t) - max|a - g| >= min g - max|a - g|, "
   "so min a >= min g - max|a - g|, and the same with a and g exchanged",
   claim([Var("T")] + SEQS[:1] + SEQS[2:],
         [T >= 1, axiom("bmax_upper", N=T, f=DEV),
          axiom("bmin_lower", N=T, f=G_),
          axiom("forall_and", N=T, P=DEV <= MAXDEV, Q=GMIN <= G_),
          axiom("forall_mono", N=T, P=and_(DEV <= MAXDEV, GMIN <= G_), Q=GMIN - MAXDEV <= A_),
          axiom("bmin_greatest", N=T, f=A_, c=GMIN - MAXDEV),
          axiom("bmin_lower", N=T, f=A_),
          axiom("forall_and", N=T, P=DEV <= MAXDEV, Q=AMIN <= A_),
          axiom("forall_mono", N=T, P=and_(DEV <= MAXDEV, AMIN <= A_), Q=AMIN - MAXDEV <= G_),
          axiom("bmin_greatest", N=T, f=G_, c=AMIN - MAXDEV)],
         abs_(AMIN - GMIN) <= MAXDEV), ["smt"])
bud_f_bounds = [e1 <= eps / 54, e2 <= eps / 54, e3 <= eps / 54]
bud_f = merge_hyps([eps > 0, e1 >= 0, e2 >= 0, e3 >= 0] + bud_f_bounds + [mu.eq(9 * GMIN)],
                   link_hyps(obs[-2]), link_hyps(obs[-1]), [abs_(c4 - AMIN) <= e3])
BVf = ["c4", "mu", "e1", "e2", "e3", "eps", Var("T")] + SEQS
ob("budget_39_40", f"{REF} (39) <= (40)-(41)",
   "|M2 - F| = 18 |c4 - mu/9| <= 18 [max_t(e1 + |a(t) - mu_t/9|) + |c4 - min_t a(t)|]",
   claim(BVf, bud_f, 18 * abs_(c4 - mu / 9) <= 18 * (e1 + MAXDEV + abs_(c4 - AMIN))), ["smt"])
# the printed (42), refuted by exact replay at a point: its premises are plain numbers here (Adev = max_t |a(t) -
# mu_t/9|, amin = min_t a(t)); a refutation needs no source for them, and their proved forms are budget_dev_max
# and budget_min_gap above
bud_h = [eps > 0, e1 >= 0, e2 >= 0, e3 >= 0, e1 <= eps / 54, e2 <= eps / 54, e3 <= eps / 54,
         Adev <= e1 + e2, abs_(amin - mu / 9) <= Adev, abs_(c4 - amin) <= e3]
BV = ["c4", "amin", "mu", "Adev", "e1", "e2", "e3", "eps"]
ob("budget_41_42_as_printed", f"{REF} (40)-(41) <= (42)",
   "as printed: each of the three terms of (40)-(41) is <= eps/54, so 18 [ ... ] <= eps/3 + eps/3 + eps/3",
   claim(BV, bud_h, 18 * (e1 + Adev + e3) <= eps), ["replay", "model", "probe"], expect=Verdict.REFUTED,
   hint=(("c4", F(0)), ("amin", F(0)), ("mu", F(0)), ("Adev", F(2, 54)), ("e1", F(1, 54)), ("e2", F(1, 54)),
         ("e3", F(1, 54)), ("eps", F(1))),
   finding=Finding("false-step", "|a(t) - (1/9) min_s| is the step-3 error plus the FFN error, <= 2 eps/54, so the "
                   "printed (40)-(41) only gives 4 eps/3. The budget closes with the tighter split |M2 - F| <= "
                   "18 [|c4 - min a| + max_t |a(t) - (1/9) min_s|] <= 18 (e3 + e1 + e2) = eps.", False))
ob("budget_repaired", f"{REF} (39)-(43) repaired", "18 (|c4 - min a| + max_t |a(t) - mu_t/9|) <= 18 (e3 + e1 + e2) <= eps",
   claim(BVf, bud_f, 18 * abs_(c4 - mu / 9) <= eps), ["smt"], repairs="infoflow.thm4.budget_41_42_as_printed")
ob("budget_42_43", f"{REF} (42) = (43)", "eps/3 + eps/3 + eps/3 = eps", claim(["eps"], [], (eps / 3 * 3).eq(eps)), ["identity"])

# ---------------------------------------------------------------- the explicit F1 and output block (attncert.papers.infoflow.thm4net)
xx = var("x")
tnh = tanh_tree(xx)
ob("tanh_d3", f"{REF} Part 2 step 4 (F1 of attncert.papers.infoflow.thm4net)", "tanh''' = (1 - t^2)(6 t^2 - 2), t = tanh",
   claim(["x"], [], diff(diff(diff(tnh, xx), xx), xx).eq((1 - tnh * tnh) * (6 * tnh * tnh - 2))), ["identity"])
ob("tanh_d4", f"{REF} Part 2 step 4 (F1 of attncert.papers.infoflow.thm4net)", "tanh'''' = 8 t (1 - t^2)(2 - 3 t^2), t = tanh",
   claim(["x"], [], diff(diff(diff(diff(tnh, xx), xx), xx), xx).eq(8 * tnh * (1 - tnh * tnh) * (2 - 3 * tnh * tnh))),
   ["identity"])
uu = var("u")
ob("tanh3_bound", f"{REF} Part 2 (output block)", "|tanh'''| = |(1 - u^2)(6u^2 - 2)| <= 2 for u = tanh x in (-1, 1)",
   claim(["u"], [uu > -1, uu < 1], abs_((1 - uu * uu) * (6 * uu * uu - 2)) <= 2), ["smt"])
ob("tanh4_bound", f"{REF} Part 2 step 4 (F1)", "|tanh''''| = |8u(1 - u^2)(2 - 3u^2)| <= 409/100 for u = tanh x in (-1, 1)",
   claim(["u"], [uu > -1, uu < 1], abs_(8 * uu * (1 - uu * uu) * (2 - 3 * uu * uu)) <= F(409, 100)), ["smt"])
# ---- Taylor with Lagrange remainder for f(h) = tanh(b + h) + tanh(b - h), the even part of F1 (thm4net), by the
# monotonicity rule four times (docs/axioms.md): R(h) = f(h) - 2 tanh b - h^2 tanh''(b) has R = R' = R'' = R''' = 0
# at h = 0 and |R''''| = |tanh''''(b + h) + tanh''''(b - h)| <= 2 M4, M4 = 409/100 (tanh4_bound). For s = +1, -1,
# G_k is the k-th derivative of M4 y^4/12 - s R(y): G_k' = G_(k+1), G_k(0) = 0 and G_4 = 2 M4 - s R'''' >= 0, so
# G_3, G_2, G_1, G_0 >= 0 on y >= 0 in turn, that is |R(y)| <= M4 y^4/12 for y >= 0; y <= 0 by R(-y) = R(y)
bb, yy, YY, zz, hh = v("b", "y", "Y", "z", "h")
M4c = num(F(409, 100))
T_ = tanh_tree


def _d(k: int, z):
    """The k-th derivative of tanh at z, k = 1..4, as a polynomial in t = tanh z (tanh_d2, tanh_d3, tanh_d4)."""
    t = T_(z)
    return {1: 1 - t * t, 2: -2 * t * (1 - t * t), 3: (1 - t * t) * (6 * t * t - 2),
            4: 8 * t * (1 - t * t) * (2 - 3 * t * t)}[k]


def _R(k: int, y):
    """The k-th derivative of R at y, k = 0..4."""
    if k == 0:
        return T_(bb + y) + T_(bb - y) - 2 * T_(bb) - y * y * _d(2, bb)
    if k == 1:
        return _d(1, bb + y) - _d(1, bb - y) - 2 * y * _d(2, bb)
    if k == 2:
        return _d(2, bb + y) + _d(2, bb - y) - 2 * _d(2, bb)
    return _d(k, bb + y) + (-1) ** k * _d(k, bb - y)


def _G(sgn: int, k: int, y):
    """G_k(y): the k-th derivative of M4 y^4/12 - sgn R(y)."""
    poly = {0: M4c * y ** 4 / 12, 1: M4c * y ** 3 / 3, 2: M4c * y * y, 3: 2 * M4c * y, 4: 2 * M4c}[k]
    return poly - _R(k, y) if sgn > 0 else poly + _R(k, y)


ob("tanh_d2", f"{REF} Part 2 step 4 (F1 of attncert.papers.infoflow.thm4net)", "tanh'' = -2 t (1 - t^2), t = tanh",
   claim(["x"], [], diff(diff(tnh, xx), xx).eq(_d(2, xx))), ["identity"])
ob("tanh_range_lo", f"{REF} Part 2 step 4 (F1)", "tanh z > -1 (tanh z = (e^{2z} - 1)/(e^{2z} + 1), e^{2z} > 0)",
   claim(["z"], [axiom("exp_pos", x=2 * zz)], T_(zz) > -1), ["smt"])
ob("tanh_range_hi", f"{REF} Part 2 step 4 (F1)", "tanh z < 1 (tanh z = (e^{2z} - 1)/(e^{2z} + 1), e^{2z} > 0)",
   claim(["z"], [axiom("exp_pos", x=2 * zz)], T_(zz) < 1), ["smt"])
TANH4 = next(o for o in obs if o.id == "infoflow.thm4.tanh4_bound")
ob("tanh4_at", f"{REF} Part 2 step 4 (F1)", "|tanh''''(z)| <= 409/100 for every real z (tanh4_bound at u = tanh z)",
   claim(["z"], merge_hyps(link_hyps(obs[-2]), link_hyps(obs[-1]), link_hyps(TANH4, u=T_(zz))), abs_(_d(4, zz)) <= M4c),
   ["smt"])
TANH4_AT = obs[-1]


def _at0(z):
    """z with y sent to 0, as the monotonicity rule writes f(0): b + 0, b - 0."""
    return E(substitute(node_of(z), {"y": node_of(num(0))}))


# tanh(b + 0) = tanh(b - 0) = tanh b, so that G_k(0) = 0: stated once, as two small steps, and linked where f(0)
# appears
SHIFT0 = []
for z, tag in ((bb + yy, "plus"), (bb - yy, "minus")):
    ob(f"taylor4.tanh_at_0_{tag}", f"{REF} Part 2 step 4 (F1), Taylor",
       f"tanh({_at0(z)}) = tanh(b) (equal exp arguments)",
       claim(["b"], same_exp(2 * _at0(z), 2 * bb), T_(_at0(z)).eq(T_(bb))), ["smt"])
    SHIFT0 += link_hyps(obs[-1])


TAYLOR_HALF = {}
for sgn, tag in ((1, "upper"), (-1, "lower")):
    prev = None
    for k in (3, 2, 1, 0):
        ob(f"taylor4.{tag}.d{k}", f"{REF} Part 2 step 4 (F1), Taylor",
           f"d/dy G_{k}(y) = G_{k + 1}(y), G_k the k-th derivative of M4 y^4/12 {'-' if sgn > 0 else '+'} R(y)",
           claim(["y", "b"], [], diff(_G(sgn, k, yy), yy).eq(_G(sgn, k + 1, yy))), ["identity"])
        ident = obs[-1]
        if prev is None:   # G_4 = 2 M4 -+ (tanh''''(b + y) + tanh''''(b - y)) >= 0 by |tanh''''| <= M4
            above = link_hyps(TANH4_AT, z=bb + yy) + link_hyps(TANH4_AT, z=bb - yy)
        else:              # G_(k+1)(y) >= 0 for y >= 0: the step above at Y = y
            above = link_hyps(prev, Y=yy)
        ob(f"taylor4.{tag}.inc{k}", f"{REF} Part 2 step 4 (F1), Taylor",
           f"0 <= y < Y  =>  d/dy G_{k}(y) = G_{k + 1}(y) >= 0",
           claim(["y", "Y", "b"], merge_hyps(yy >= 0, yy < YY, link_hyps(ident), above), diff(_G(sgn, k, yy), yy) >= 0),
           ["smt"])
        inc = obs[-1]
        ob(f"taylor4.{tag}.g{k}", f"{REF} Part 2 step 4 (F1), Taylor",
           f"G_{k}(Y) >= G_{k}(0) = 0 for Y >= 0 (the mean value theorem on G_{k} over (0, Y))",
           claim(["Y", "b"], merge_hyps(YY >= 0, SHIFT0, [mvt_hyp(inc)]), _G(sgn, k, YY) >= 0), ["smt"])
        prev = obs[-1]
    TAYLOR_HALF[sgn] = prev
TAYLOR_GOAL = abs_(_R(0, hh)) <= M4c * hh ** 4 / 12
ob("taylor4.pos", f"{REF} Part 2 step 4 (F1), Taylor",
   "h >= 0  =>  |R(h)| <= M4 h^4/12 (both halves at Y = h)",
   claim(["h", "b"], merge_hyps(hh >= 0, link_hyps(TAYLOR_HALF[1], Y=hh), link_hyps(TAYLOR_HALF[-1], Y=hh)), TAYLOR_GOAL),
   ["smt"])
T_POS = obs[-1]
NEG_NONNEG = next(o for o in _thm6_obs if o.id == "infoflow.thm6.fact.neg_nonneg")
# R(-h) = R(h): tanh(b - (-h)) and tanh(b + h), tanh(b + (-h)) and tanh(b - h) have equal exp arguments
SWAP = same_exp(2 * (bb - (-hh)), 2 * (bb + hh)) + same_exp(2 * (bb + (-hh)), 2 * (bb - hh))
ob("taylor4.neg", f"{REF} Part 2 step 4 (F1), Taylor",
   "h <= 0  =>  |R(h)| <= M4 h^4/12 (the case h >= 0 at -h, and R(-h) = R(h): f is even)",
   claim(["h", "b"], merge_hyps(hh <= 0, link_hyps(NEG_NONNEG), link_hyps(TAYLOR_HALF[1], Y=-hh)[1:],
                                link_hyps(TAYLOR_HALF[-1], Y=-hh)[1:], SWAP), TAYLOR_GOAL), ["smt"])
ob("taylor4", f"{REF} Part 2 step 4 (F1), Taylor with Lagrange remainder",
   "|tanh(b + h) + tanh(b - h) - 2 tanh b - h^2 tanh''(b)| <= M4 h^4/12, M4 = 409/100, for all real b, h (by cases "
   "on h)", claim(["h", "b"], [cases_hyp(T_POS, obs[-1])], TAYLOR_GOAL), ["smt"])
TAYLOR = obs[-1]
Kf, th, t2v, Rp, Rq, gv = v("K", "theta", "t2", "Rp", "Rq", "g")
P_, Q_ = th * (xx + y1), th * (xx - y1)
F1_ = Kf * (T_(bb + P_) + T_(bb - P_) - T_(bb + Q_) - T_(bb - Q_))   # F1 (thm4net): K [f(theta p) - f(theta q)]
# the solvers take the bound over plain reals (g, t2, Rp, Rq) and time out with the tanh atoms in the query: the core
# below is cited with g = F1, t2 = tanh''(b), Rp = R(theta p), Rq = R(theta q) (a link with terms); its premises are
# then taylor4 at theta p and theta q and the identity ffn_taylor_form
CORE_GOAL = (abs_(gv - xx * y1) <= abs_(4 * Kf * th * th * t2v - 1) * abs_(xx * y1)
             + abs_(Kf) * th ** 4 * M4c * ((xx + y1) ** 4 + (xx - y1) ** 4) / 12)
ob("ffn_product_core", f"{REF} Part 2 step 4 (F1)",
   "|Rp| <= M4 (theta p)^4/12, |Rq| <= M4 (theta q)^4/12 and g = K[theta^2 t2 (p^2 - q^2) + Rp - Rq], p = x + y, "
   "q = x - y, M4 = 409/100: |g - xy| <= |4 K theta^2 t2 - 1| |xy| + |K| theta^4 M4 (p^4 + q^4)/12",
   claim(["K", "theta", "t2", "Rp", "Rq", "g", "x", "y1"],
         [abs_(Rp) <= M4c * P_ ** 4 / 12, abs_(Rq) <= M4c * Q_ ** 4 / 12,
          gv.eq(Kf * (th * th * t2v * ((xx + y1) ** 2 - (xx - y1) ** 2) + Rp - Rq))],
         CORE_GOAL), ["smt"])
CORE = obs[-1]
AT = {"g": F1_, "t2": _d(2, bb), "Rp": _R(0, P_), "Rq": _R(0, Q_)}
AT_NODES = {k: node_of(t) for k, t in AT.items()}
ob("ffn_taylor_form", f"{REF} Part 2 step 4 (F1)",
   "K[f(theta p) - f(theta q)] = K[theta^2 tanh''(b) (p^2 - q^2) + R(theta p) - R(theta q)] (f(h) = 2 tanh b + "
   "h^2 tanh''(b) + R(h): the even Taylor form, the constant terms cancel)",
   claim(["K", "theta", "x", "y1", "b"], [], E(substitute(node_of(CORE.claim.hyps[2].expr), AT_NODES))),
   ["identity"])
ob("ffn_product_error", f"{REF} Part 2 step 4 (F1)",
   "g = K[f(theta p) - f(theta q)] with f(h) = tanh(b + h) + tanh(b - h) = 2 tanh b + h^2 t2 + R(h), t2 = tanh''(b), "
   "|R(h)| <= h^4 M4/12 (taylor4), p = x + y, q = x - y: |g - xy| <= |4 K theta^2 t2 - 1| |xy| + |K| theta^4 M4 "
   "(p^4 + q^4)/12 (ffn_product_core at these terms)",
   claim(["K", "theta", "x", "y1", "b"],
         merge_hyps(link_hyps(TAYLOR, h=P_), link_hyps(TAYLOR, h=Q_), link_hyps(obs[-1]), link_hyps(CORE, **AT)),
         E(substitute(node_of(CORE_GOAL), AT_NODES))), ["smt"])
ob("ffn_domain", f"{REF} Part 2 step 4 (F1)",
   "on F1's domain (x(t)/3 and v(t) in [-1/3, 1/3]^3, per coordinate): |xy| <= 1/9 and (x+y)^4 + (x-y)^4 <= 16/81",
   claim(["x", "y1"], [abs_(xx) <= F(1, 3), abs_(y1) <= F(1, 3)],
         and_(abs_(xx * y1) <= F(1, 9), (xx + y1) ** 4 + (xx - y1) ** 4 <= F(16, 81))), ["smt"])
cc, Ko, tho = v("c", "Ko", "tho")
TANH_CUBIC = next(o for o in _thm6_obs if o.id == "infoflow.thm6.tanh.cubic")
# |tanh h - h| <= |h|^3/3 = |h|^3 M3/6 with M3 = 2 (tanh3_bound) is infoflow.thm6.tanh.cubic (the mean value
# theorem twice and a case split on the sign of h; docs/axioms.md), cited at h = tho c
ob("output_linear_error", f"{REF} Part 2 step 6 (repaired output block)",
   "Ko tanh(tho c) with Ko tho = 18 and |tanh h - h| <= |h|^3 M3/6, M3 = 2: |Ko tanh(tho c) - 18 c| <= |Ko| |tho c|^3 M3/6",
   claim(["Ko", "tho", "c"],
         [(Ko * tho).eq(18)] + link_hyps(TANH_CUBIC, h=tho * cc),
         abs_(Ko * tanh_tree(tho * cc) - 18 * cc) <= abs_(Ko) * abs_(tho * cc) ** 3 * 2 / 6), ["smt"])
amax_, e2b = v("amax", "e2b")
ob("output_input_range", f"{REF} Part 2 step 6 (repaired output block)",
   "(c2')_4 = sum_t p_t a(t) lies in [min a, max a] and |a(t)| <= |(x/3).v| + e2 <= 1/3 + e2",
   claim(["c4", "amin", "amax", "e2b"], [e2b >= 0, amin >= -F(1, 3) - e2b, amax_ <= F(1, 3) + e2b, c4 >= amin, c4 <= amax_],
         abs_(c4) <= F(1, 3) + e2b), ["smt"])
e4, y_ = v("e4", "y")
ob("budget_network", f"{REF} (39)-(43) for the repaired network",
   "|M2 - F| <= |F_hat(c2') - (2 + 18 c4)| + 18 |c4 - mu/9| <= e4 + 18 (e3 + e1 + e2)",
   claim(["y", "e4"] + BVf, [e4 >= 0, abs_(y_ - (2 + 18 * c4)) <= e4]
         + [h for h in bud_f if h.expr not in {x.node for x in bud_f_bounds}],
         abs_(y_ - 2 * (1 + mu)) <= e4 + 18 * (e1 + e2 + e3)), ["smt"])

FAMILY = family("infoflow_thm4", PAPER, "Theorem 1 / 4: depth separation (A.1), step by step", obs,
                doc="docs/theorem4.md")


def planted() -> list[Obligation]:
    """A planted wrong constant: (37) <= (38) with eps^{k+1}/4 in place of eps^{k+1}/2 (false for every T)."""
    return [Obligation("infoflow.thm4.planted.38_quarter", PAPER, f"{REF} (38) planted",
                       "PLANTED: eps^{k+1}/4 + eps^{k+1}/(12T) <= eps^{k+1}/4 for T >= 1",
                       claim([Var("e", lo=F(0), hi=F(1)), Var("T", lo=F(1), hi=F(8))], [T >= 1, e > 0],
                             e / 4 + e / (12 * T) <= e / 4), ("smt", "model", "probe"), expect=Verdict.REFUTED,
                       family="infoflow_thm4_planted")]
