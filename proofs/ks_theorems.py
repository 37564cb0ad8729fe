"""Kajitsuka-Sato (ICLR 2024): Theorem 1 (hardmax, A.1), the steps of Theorem 2's proof (A.2, (26)-(45),
Lemma 3 / (79)), Corollaries 1-2 (A.3-A.4, (46)-(50)) and the ReLU pieces of Proposition 1 (A.5,
(56)-(61), (67)-(68)). The built contextual mapping of Theorem 2 is certified separately
(``attncert construct ks-thm2``, docs/ks-theorems.md).

Conventions
- Hardmax with ties (Section 2.1: "the sum of the values at these indices equals one") is read as the
  UNIFORM split over the argmax; it is encoded exactly by constraints on the weights w_k (not as a fact).
- Norms, pi, sqrt and logs that only enter through their defining facts are named variables with those
  facts as hypotheses; ``by=`` names where a fact comes from.
- Steps false as printed keep their printed form, expect REFUTED with a replayed counterexample, carry a
  Finding, and have a separate repaired obligation (``repairs=``).
"""

from __future__ import annotations

from fractions import Fraction as F

from attncert.core.axioms import axiom
from attncert.core.claims import Finding, Var, claim, fact
from attncert.core.expr import DIM, IDX, PI, abs_, add, and_, at, bsum, dot, exp, forall, implies, max_, norm, num, or_, park, seq, var, vadd, vat, vscale, vseq, vsub, vvar
from attncert.core.expr import vars_ as V
from attncert.core.families import collector, family
from attncert.core.theorems import link_hyps, link_shown
from attncert.core.verdict import Verdict

PAPER = "ks"
obs, ob = collector("ks.thm", PAPER)




def relu(x):
    return max_(x, num(0))


# ===================================================================================== Theorem 1 (A.1)
# (23)-(24): with tokens alpha v, the scores of head i at a query alpha_q v are c_i alpha_q a, where
# c_i = (W_K v)^T (W_Q v) is ONE real number per head. Checked for symbolic 2x2 weights.
k11, k12, k21, k22, q11, q12, q21, q22, v1, v2, ak, aq = V("k11", "k12", "k21", "k22", "q11", "q12", "q21", "q22",
                                                          "v1", "v2", "ak", "aq")
Kv = [k11 * v1 + k12 * v2, k21 * v1 + k22 * v2]
Qv = [q11 * v1 + q12 * v2, q21 * v1 + q22 * v2]
ob("thm1.scores_24", "ks:A.1 (23)-(24)",
   "(W_K v a_k)^T (W_Q v a_q) = [(W_K v)^T (W_Q v)] a_q a_k: every head's scores are c_i a_q a (s = d = 2, symbolic)",
   claim(["k11", "k12", "k21", "k22", "q11", "q12", "q21", "q22", "v1", "v2", "ak", "aq"], [],
         ((Kv[0] * ak) * (Qv[0] * aq) + (Kv[1] * ak) * (Qv[1] * aq)).eq(
             (Kv[0] * Qv[0] + Kv[1] * Qv[1]) * aq * ak)), ["identity"])


def hardmax_avg(tag: str, c, q, toks):
    """Variables and constraints for A = sum_k w_k t_k with w = hardmax of the scores c q t_k (uniform ties)."""
    n = len(toks)
    w = [var(f"w{tag}{k}") for k in range(n)]
    m = var(f"m{tag}")
    s = [c * q * t for t in toks]
    hy = [m >= sk for sk in s] + [or_(*[m.eq(sk) for sk in s])]
    hy += [implies(sk < m, wk.eq(0)) for sk, wk in zip(s, w)]
    hy += [implies(and_(s[a].eq(m), s[b].eq(m)), w[a].eq(w[b])) for a in range(n) for b in range(a + 1, n)]
    hy.append(add(*w).eq(1))
    return [f"w{tag}{k}" for k in range(n)] + [f"m{tag}"], hy, add(*[wk * t for wk, t in zip(w, toks)]), w


c, q, a1, a2, a3, a4, a5, a6 = V("c", "q", "a1", "a2", "a3", "a4", "a5", "a6")
order = [a1 < a2, a2 < a3, a3 < a4]
q_ext = or_(q.eq(a1), q.eq(a4))
v1_, h1, A1, w1 = hardmax_avg("x", c, q, [a1, a2, a4])
v2_, h2, A2, w2 = hardmax_avg("y", c, q, [a1, a3, a4])
T1_VARS = ["c", "q", "a1", "a2", "a3", "a4"]
HINT_C0 = (("c", F(0)), ("q", F(1)), ("a1", F(1)), ("a2", F(2)), ("a3", F(3)), ("a4", F(4)),
           ("wx0", F(1, 3)), ("wx1", F(1, 3)), ("wx2", F(1, 3)), ("mx", F(0)),
           ("wy0", F(1, 3)), ("wy1", F(1, 3)), ("wy2", F(1, 3)), ("my", F(0)))
T1_FINDING = Finding(
    "false-step", "The maximum of c_i alpha_q a is attained only at alpha_1 or alpha_4 when c_i alpha_q != 0. When "
    "c_i = (W_K v)^T (W_Q v) = 0 (e.g. W_K = 0) or alpha_q = 0, every score ties, hardmax averages ALL tokens, "
    "and (alpha_1, alpha_2, alpha_4), (alpha_1, alpha_3, alpha_4) are told apart. Repair: use sequences whose "
    "middle tokens differ but have equal sums, e.g. (a1, a2, a5, a4) and (a1, a3, a6, a4) with a2 + a5 = a3 + a6 "
    "(ks.thm.thm1.equal_outputs_repaired); Theorem 1 then holds for every weight value and head count.", False,
    "Concrete counterexample: one head, W_K = 0, alpha = (1, 2, 3, 4): outputs at alpha_1 are 7/3 vs 8/3 times W_O W_V v.")
ob("thm1.argmax_extremes_as_printed", "ks:A.1 (24) 'maximum ... only at alpha_1 or alpha_4'",
   "for every head (every real c) the hardmax of c a_q (a1, a2, a4) puts no weight on the middle token a2",
   claim(T1_VARS + v1_, order + [q_ext] + h1, w1[1].eq(0)), ["replay", "smt"], expect=Verdict.REFUTED,
   hint=tuple(p for p in HINT_C0 if not p[0].startswith(("wy", "my"))), finding=T1_FINDING)
ob("thm1.equal_outputs_as_printed", "ks:A.1 last sentence",
   "for every head (every real c), hardmax attention at the alpha_1 / alpha_4 position gives the same average for "
   "(a1, a2, a4) and (a1, a3, a4)",
   claim(T1_VARS + v1_ + v2_, order + [q_ext] + h1 + h2, A1.eq(A2)), ["replay", "smt"], expect=Verdict.REFUTED,
   hint=HINT_C0, finding=Finding("false-step", "Follows from the refuted argmax step; see "
                                  "ks.thm.thm1.argmax_extremes_as_printed.", False))
ob("thm1.equal_outputs_c_nonzero", "ks:A.1, repaired hypothesis",
   "if c a_q != 0 (the head's score is not identically 0 at the query), the two averages are equal",
   claim(T1_VARS + v1_ + v2_, order + [q_ext, (c * q).ne(0)] + h1 + h2, A1.eq(A2)), ["smt"],
   repairs="ks.thm.thm1.equal_outputs_as_printed")
v3_, h3, A3, _ = hardmax_avg("u", c, q, [a1, a2, a5, a4])
v4_, h4, A4, _ = hardmax_avg("z", c, q, [a1, a3, a6, a4])
mid = [a1 < a2, a2 < a4, a1 < a3, a3 < a4, a1 < a5, a5 < a4, a1 < a6, a6 < a4, a2 < a3, a3 < a5,
       (a2 + a5).eq(a3 + a6)]
ob("thm1.equal_outputs_repaired", "ks:A.1, repaired dataset",
   "for EVERY real c (including 0): hardmax averages of (a1, a2, a5, a4) and (a1, a3, a6, a4) at the a1 / a4 "
   "position are equal when a2 + a5 = a3 + a6 and the middle tokens lie strictly between a1 and a4",
   claim(T1_VARS + ["a5", "a6"] + v3_ + v4_, mid + [q_ext] + h3 + h4, A3.eq(A4)), ["smt"],
   repairs="ks.thm.thm1.equal_outputs_as_printed",
   finding=Finding("implicit-convention", "Section 2.1 only says tied hardmax weights sum to one. attncert reads "
                   "the split as uniform; under that reading (or any split that ignores the tied tokens' values, "
                   "such as first-index) the repaired pair gives equal outputs for every weight, so Theorem 1 "
                   "stands. A value-dependent split could separate them.", False))
S1, S2, Mi = V("S1", "S2", "Mi")
ob("thm1.sum_over_heads", "ks:A.1 'no matter how many heads'",
   "induction over heads: equal partial sums plus one head's equal average times the same W_O W_V v stay equal "
   "(base: the skip connection X_q is the same token)",
   claim(["S1", "S2", "Mi", "A1", "A2"], [S1.eq(S2), var("A1").eq(var("A2"))],
         (S1 + Mi * var("A1")).eq(S2 + Mi * var("A2"))), ["smt"])


def softmax_avg(cq, toks):
    ws = [exp(num(cq * t)) for t in toks]
    return add(*[w * t for w, t in zip(ws, toks)]) / add(*ws)


# the contrast: softmax separates the same pairs (c = 1, alpha = (1, 2, 3, 4), query alpha_1 = 1); the
# bounds are rational lower bounds of the computed gaps
ob("thm1.softmax_separates_printed_pair", "ks:A.1 contrast (3.4)",
   "softmax instead of hardmax, c = 1, alpha = (1, 2, 3, 4), query alpha_1: |A(1,2,4) - A(1,3,4)| > 1/100 (it is 0.01043...)",
   claim([], [], abs_(softmax_avg(1, [1, 2, 4]) - softmax_avg(1, [1, 3, 4])) > F(1, 100)), ["interval"])
ob("thm1.softmax_separates_repaired_pair", "ks:A.1 contrast (3.4)",
   "softmax, c = 1, alpha = (0, 1, 2, 3, 4, 5): the repaired pair (0, 1, 4, 5), (0, 2, 3, 5) at the query 0 gives "
   "equal (uniform) averages, but at the query 5: |A - A'| > 1/200 (it is 0.00660...)",
   claim([], [], and_(abs_(softmax_avg(0, [0, 1, 4, 5]) - softmax_avg(0, [0, 2, 3, 5])) < F(1, 10 ** 30),
                      abs_(softmax_avg(5, [0, 1, 4, 5]) - softmax_avg(5, [0, 2, 3, 5])) > F(1, 200))), ["interval"])

# ===================================================================================== Theorem 2 (A.2)
eps, rmin, rmax, nx, na, nb, nsa, nsb, g = V("eps", "rmin", "rmax", "nx", "na", "nb", "nsa", "nsb", "g")
# the columns X_k (X_l of X^(j)) and the attention terms att_k, att_l of (27)-(28) as opaque vectors: only the
# norm axioms are known of them; ||X_k|| < r_max and ||X_k - X_l|| > eps are the theorem's hypotheses, and
# ||att|| < eps/4 is (26)
Xk, Xl, Ak, Al = vvar("Xk"), vvar("Xl"), vvar("Ak"), vvar("Al")
XA = [Var(n, "vec") for n in ("Xk", "Ak")]
ob("thm2.norm_bound_27", "ks:A.2 (27)",
   "||F(X)_k|| = ||X_k + att_k|| <= ||X_k|| + ||att_k|| < r_max + eps/4 (triangle inequality; ||X_k|| < r_max, (26))",
   claim(["rmax", "eps"] + XA, [norm(Xk) < rmax, norm(Ak) < eps / 4, axiom("norm_triangle", x=Xk, y=Ak)],
         norm(vadd(Xk, Ak)) < rmax + eps / 4), ["smt"])
# F(X^i)_k - F(X^j)_l = (X_k + att_k) - (X_l + att_l), written (X_k - X_l) + (att_k - att_l)
Dx, Da = vsub(Xk, Xl), vsub(Ak, Al)
ob("thm2.separation_28", "ks:A.2 (28)",
   "||F(X^i)_k - F(X^j)_l|| = ||(X_k - X_l) + (att_k - att_l)|| >= ||X_k - X_l|| - ||att_k|| - ||att_l|| "
   "> eps - eps/4 - eps/4 = eps/2 (reverse triangle inequality, then the triangle inequality)",
   claim(["eps"] + [Var(n, "vec") for n in ("Xk", "Xl", "Ak", "Al")],
         [norm(Dx) > eps, norm(Ak) < eps / 4, norm(Al) < eps / 4, axiom("norm_reverse_triangle", x=Dx, y=Da),
          axiom("norm_triangle", x=Ak, y=vscale(-1, Al)), axiom("norm_scale", c=num(-1), x=Al)],
         norm(vadd(Dx, Da)) > eps / 2), ["smt"])
s1_, s2_, s3_, n1_, n2_, n3_, Mx = V("s1", "s2", "s3", "n1", "n2", "n3", "Mx")
ob("thm2.convex_33", "ks:A.2 (33) lines 2-3",
   "sum_k' s_k' ||W_O W_V X_k'|| <= max_k' ||W_O W_V X_k'|| from s >= 0, sum s = 1 (n = 3)",
   claim(["s1", "s2", "s3", "n1", "n2", "n3", "Mx"],
         [s1_ >= 0, s2_ >= 0, s3_ >= 0, (s1_ + s2_ + s3_).eq(1), n1_ <= Mx, n2_ <= Mx, n3_ <= Mx],
         s1_ * n1_ + s2_ * n2_ + s3_ * n3_ <= Mx), ["smt"])
wo = var("wo")
# v: the unit vector of Lemma 2 ((31): |v^T x| <= ||x|| is Cauchy-Schwarz with ||v|| = 1), X: a column X_k'
vv, Xc = vvar("v"), vvar("X")
ob("thm2.att_bound_33_34", "ks:A.2 (33)-(34)",
   "||W_O u''|| max |v^T X_k'| <= eps/(4 r_max) max ||X_k'|| < eps/4, from (31) |v^T x| <= ||v|| ||x|| = ||x|| "
   "(Cauchy-Schwarz, ||v|| = 1) and (32) (X = the maximising column)",
   claim(["wo", "rmax", "eps", Var("v", "vec"), Var("X", "vec")],
         [rmax > 0, eps > 0, wo.eq(eps / (4 * rmax)), norm(vv).eq(1), axiom("cauchy_schwarz", x=vv, y=Xc), norm(Xc) < rmax],
         wo * abs_(dot(vv, Xc)) < eps / 4), ["smt"])
K, d_, Vs, P, dl = V("K", "d", "Vs", "P", "dl")     # Vs = |V| + 1, P = pi d
x1, x2 = V("x1", "x2")
X1, X2 = vvar("X1"), vvar("X2")
ob("thm2.score_bound_38", "ks:A.2 (37)-(38)",
   "|a_k'| = |v^T X_k'| |u^T u'| |v^T X_k| <= r_max K r_max with K = |u^T u'| = (|V|+1)^4 pi d delta/(8 eps r_min), "
   "by (31) |v^T x| <= ||v|| ||x|| (Cauchy-Schwarz, ||v|| = 1) and ||X|| < r_max",
   claim(["K", "rmax"] + [Var(n, "vec") for n in ("v", "X1", "X2")],
         [K > 0, norm(vv).eq(1), axiom("cauchy_schwarz", x=vv, y=X1), axiom("cauchy_schwarz", x=vv, y=X2),
          norm(X1) < rmax, norm(X2) < rmax],
         abs_(dot(vv, X1)) * K * abs_(dot(vv, X2)) <= K * rmax * rmax), ["smt"])
Sq, ga, hc, W2 = V("Sq", "ga", "hc", "W2")   # Sq = sqrt(8/(pi d)), W2 = (|V|+1)^2
# the arithmetic of (79): x1 = |(v_a - v_b)^T v|, x2 = |v^T v_c|, ga = ||v_a - v_b||, hc = ||v_c||; (76) and (77) are
# plain premises here, shown at the unit vector of Lemma 2 by ks.thm.lemma3.statement_74_75, which links this step
ob("lemma3.chain_79", "ks:B.1 Lemma 3 (79)",
   "|(v_a - v_b)^T v| K |v^T v_c| >= [Sq ||v_a - v_b||/W2] [W2^2 pi d delta/(8 eps r_min)] [Sq ||v_c||/W2] "
   "= ||v_a - v_b|| ||v_c|| delta/(eps r_min) > delta, with Sq^2 pi d = 8, ||v_a - v_b|| > eps, ||v_c|| > r_min, "
   "from (76) at v_a, v_b and (77) at v_c",
   claim(["x1", "x2", "K", "Sq", "W2", "P", "ga", "hc", "dl", "eps", "rmin"],
         [Sq > 0, W2 > 0, P > 0, dl > 0, eps > 0, rmin > 0, x1 >= 0, x2 >= 0, (Sq * Sq * P).eq(8),   # Sq = sqrt(8/(pi d)) (Sq > 0), P = pi d: the definition
          K.eq(W2 * W2 * P * dl / (8 * eps * rmin)), ga > eps, hc > rmin,
          x1 * W2 >= Sq * ga,    # (76) at v_a, v_b: |(v_a - v_b)^T v| >= Sq ||v_a - v_b||/W2
          x2 * W2 >= Sq * hc],   # (77): (76) at v_c and 0
         x1 * K * x2 > dl), ["smt"])
CHAIN79 = obs[-1]
# Lemma 3 with v the unit vector of Lemma 2 (Park et al.'s Lemma 13, the axioms park_unit and park_lemma13; docs/axioms.md,
# "Cited results") for V u {0}, enumerated as the family X_1, ..., X_M (M = |V| + 1, X_M = 0): (74) in the form
# (W_K v_a)^T (W_Q v_c) = (v^T v_a) (u^T u') (v^T v_c) for W_K = u v^T, W_Q = u' v^T, with k = u^T u', and (75).
# (77) is (76) at (v_c, 0): v^T (v_c - 0) = v^T v_c by bilinearity (dot_add, dot_scale) and |v^T 0| <= ||v|| 0
Xf, Mv, kk = vseq("X"), var("M"), var("k")
ia, ib, ic = V("a", "b", "c")
pv = park(Xf, Mv)
Xa, Xb, Xcc, XM = vat(Xf, ia), vat(Xf, ib), vat(Xf, ic), vat(Xf, Mv)
dab, dcM = vsub(Xa, Xb), vsub(Xcc, XM)
LEMMA3_PLAIN = [Mv >= 2, ia >= 1, ia <= Mv - 1, ib >= 1, ib <= Mv - 1, ic >= 1, ic <= Mv - 1,
                norm(dab) > eps, norm(Xcc) > rmin, norm(XM).eq(0),
                W2.eq(Mv * Mv), P.eq(PI * DIM), Sq > 0, (Sq * Sq * P).eq(8),
                dl > 0, eps > 0, rmin > 0, abs_(kk).eq(W2 * W2 * P * dl / (8 * eps * rmin))]
# at v_c: v^T (v_c - 0) = v^T v_c (bilinearity, and v^T 0 = 0 by Cauchy-Schwarz with ||0|| = 0), ||v_c - 0|| >= ||v_c||,
# and the upper half of (75), |v^T v_c| <= ||v_c|| (Cauchy-Schwarz): what turns (76) at (v_c, 0) into (77) and (75)
AT_VC = [axiom("dot_add", x=pv, y=Xcc, z=vscale(-1, XM)), axiom("dot_scale", c=num(-1), x=pv, y=XM),
         axiom("cauchy_schwarz", x=pv, y=XM),
         axiom("norm_reverse_triangle", x=Xcc, y=vscale(-1, XM)), axiom("norm_scale", c=num(-1), x=XM),
         axiom("cauchy_schwarz", x=pv, y=Xcc)]
ob("lemma3.statement_74_75", "ks:B.1 Lemma 3 (73)-(79)",
   "for v = park(X, M), the unit vector of Lemma 2 for V u {0} = {X_1, ..., X_M} (X_M = 0): "
   "|(v^T v_a) k (v^T v_c) - (v^T v_b) k (v^T v_c)| > delta (74) for |k| = |u^T u'| as in (73), and "
   "Sq ||v_c||/W2 <= |v^T v_c| <= ||v_c|| (75), from (76) at (v_a, v_b) and at (v_c, 0) (= (77)) and the chain (79)",
   claim([Var("X", "vecs"), Var("M", "int"), Var("a", "int"), Var("b", "int"), Var("c", "int"),
          "k", "W2", "P", "Sq", "dl", "eps", "rmin"],
         LEMMA3_PLAIN + [
             axiom("park_unit", X=Xf, M=Mv),                                          # ||v|| = 1
             axiom("park_lemma13", X=Xf, M=Mv, i=ia, j=ib, c=Sq),                     # (76) at v_a, v_b
             axiom("park_lemma13", X=Xf, M=Mv, i=ic, j=Mv, c=Sq),                     # (76) at v_c, 0
             axiom("dot_add", x=pv, y=Xa, z=vscale(-1, Xb)), axiom("dot_scale", c=num(-1), x=pv, y=Xb)]
         + AT_VC
         + link_shown(CHAIN79, x1=abs_(dot(pv, dab)), x2=abs_(dot(pv, Xcc)), ga=norm(dab), hc=norm(Xcc), K=abs_(kk)),
         and_(abs_(dot(pv, Xa) * kk * dot(pv, Xcc) - dot(pv, Xb) * kk * dot(pv, Xcc)) > dl,
              Sq * norm(Xcc) <= W2 * abs_(dot(pv, Xcc)), abs_(dot(pv, Xcc)) <= norm(Xcc), norm(pv).eq(1))), ["smt"])
# (75) alone, for every v_c in V (also when V has one element, where (74) has no pair v_a != v_b): it needs neither
# v_a, v_b nor (73), so a later link (Theorem 2's (31)) can take it without them
ob("lemma3.statement_75", "ks:B.1 Lemma 3 (75), (77)",
   "for v = park(X, M), the unit vector of Lemma 2 for V u {0} = {X_1, ..., X_M} (X_M = 0): "
   "Sq ||v_c||/W2 <= |v^T v_c| <= ||v_c|| (75), from (76) at (v_c, 0) (= (77)) and Cauchy-Schwarz",
   claim([Var("X", "vecs"), Var("M", "int"), Var("c", "int"), "W2", "P", "Sq"],
         [Mv >= 2, ic >= 1, ic <= Mv - 1, norm(XM).eq(0), W2.eq(Mv * Mv), P.eq(PI * DIM), Sq > 0, (Sq * Sq * P).eq(8),
          axiom("park_unit", X=Xf, M=Mv),
          axiom("park_lemma13", X=Xf, M=Mv, i=ic, j=Mv, c=Sq)] + AT_VC,                # (76) at v_c, 0
         and_(Sq * norm(Xcc) <= W2 * abs_(dot(pv, Xcc)), abs_(dot(pv, Xcc)) <= norm(Xcc), norm(pv).eq(1))), ["smt"])
g1, g2, g3, dstar = V("g1", "g2", "g3", "dstar")
ob("thm2.lemma1_hypothesis_39", "ks:A.2 (39) with (43) and Lemma 1 (14)",
   "(43) sets delta = 2 log n + 3, but Lemma 1 needs delta > 2 log n + 3 (14); the score gaps are strictly > delta "
   "(30) and finitely many, so delta* = their minimum satisfies (14) (three gaps shown)",
   claim(["g1", "g2", "g3", "dl", "dstar"], [g1 > dl, g2 > dl, g3 > dl, dstar <= g1, dstar <= g2, dstar <= g3,
                                             or_(dstar.eq(g1), dstar.eq(g2), dstar.eq(g3))],
         and_(dstar > dl, dstar <= g1, dstar <= g2, dstar <= g3)), ["smt"],
   finding=Finding("implicit-threshold", "Lemma 1 is applied with delta = 2 log n + 3 (43) although its hypothesis "
                   "(14) is strict. It still applies because the separations (30) are strict and finitely many: use "
                   "delta* = the least gap > 2 log n + 3. The resulting delta' = (log n)^2 e^{-2r} is unchanged.",
                   False))
up, u_ = V("up", "u")
ob("thm2.expansion_41_as_printed", "ks:A.2 (41) line 3 -> 4",
   "|X_k^T v u'^T u v^T Y| = |v^T X_k| |u'^T u'| |v^T Y| (s = 1: scalars u, u')",
   claim(["x1", "x2", "up", "u"], [], abs_(x1 * up * u_ * x2).eq(abs_(x1) * abs_(up * up) * abs_(x2))),
   ["replay", "smt"], expect=Verdict.REFUTED, hint=(("x1", F(1)), ("x2", F(1)), ("up", F(1)), ("u", F(2))),
   finding=Finding("typo", "(41) writes |u'^T u'| where the product is |u'^T u| = K of (29); the next line uses "
                   "(29), i.e. the intended |u'^T u|.", False))
ob("thm2.expansion_41_repaired", "ks:A.2 (41)", "|X_k^T v u'^T u v^T Y| = |v^T X_k| |u'^T u| |v^T Y|",
   claim(["x1", "x2", "up", "u"], [], abs_(x1 * up * u_ * x2).eq(abs_(x1) * abs_(up * u_) * abs_(x2))), ["smt"],
   repairs="ks.thm.thm2.expansion_41_as_printed")
EXP41 = obs[-1]
G, dp, W4 = V("G", "dp", "W4")   # G = |(v^T X^i) s(a^i) - (v^T X^j) s(a^j)|, dp = delta', W4 = (|V|+1)^4
# (39)-(41): delta' < B (Lemma 1, (39)-(40)), B = |x1 u' u x2| ((41) lines 1-3, with X_k^(i) = X_l^(j)), the
# factorisation of (41) line 4 (expansion_41_repaired, linked), K = |u'^T u| = (29), |x1| = |v^T X_k| < r_max
# by (31) (Cauchy-Schwarz with ||v|| = 1, ||X_k|| < r_max) and G = |x2|: so delta' < r_max K G. The premises
# left plain are what they are in the paper: Lemma 1's conclusion (40) at these a^(i), a^(j) (Lemma 1 is
# proved for every n only for sorted vectors, so Theorem 2 stays OPEN on it), the expansion (41) lines 1-3 and the definitions
B41, Xk41 = var("B"), vvar("Xk")
ob("thm2.gap_41", "ks:A.2 (39)-(41) with (29) and (31)",
   "delta' < |a^T s(a) - b^T s(b)| = |v^T X_k| |u'^T u| G <= r_max K G, K = (|V|+1)^4 pi d delta/(8 eps r_min), "
   "so G > 8 eps r_min delta'/(r_max (|V|+1)^4 pi d delta)",
   claim(["G", "dp", "B", "K", "W4", "P", "dl", "eps", "rmin", "rmax", "x1", "x2", "up", "u",
          Var("v", "vec"), Var("Xk", "vec")],
         [rmax > 0, rmin > 0, eps > 0, W4 > 0, P > 0, dl > 0, dp > 0,
          dp < B41,                                                        # (39)-(40): Lemma 1
          B41.eq(abs_(x1 * up * u_ * x2)),                                 # (41) lines 1-3
          fact(abs_(x1 * up * u_ * x2).eq(abs_(x1) * abs_(up * u_) * abs_(x2)), EXP41.id),   # (41) line 4
          K.eq(abs_(up * u_)), K.eq(W4 * P * dl / (8 * eps * rmin)),     # (29)
          x1.eq(dot(vv, Xk41)), norm(vv).eq(1), axiom("cauchy_schwarz", x=vv, y=Xk41), norm(Xk41) < rmax,  # (31)
          G.eq(abs_(x2))],
         G > 8 * eps * rmin * dp / (rmax * W4 * P * dl)), ["smt"])
GAP41 = obs[-1]
h41_plain = [rmax > 0, rmin > 0, eps > 0, W4 > 0, P > 0, dl > 0, dp > 0, G > 8 * eps * rmin * dp / (rmax * W4 * P * dl)]
h41 = link_hyps(GAP41)
# the ranges the paper's quantities take (|V| >= 1, d >= 1, n >= 2): the counterexample to the printed (42)
# is then a point the paper allows, not merely a point of the algebra
# the printed (42) is REFUTED by exact replay: a refutation needs no source, so its premises are plain numbers
h41_paper = h41_plain + [rmax > rmin, W4 >= 16, P > 3, dl > 4]
ob("thm2.step_42_as_printed", "ks:A.2 (41) -> (42)",
   "||W_O u''|| G > eps/(4 r_max) * delta'/((|V|+1)^4 pi d delta r_max), as printed in (42)",
   claim(["G", "dp", "W4", "P", "dl", "eps", "rmin", "rmax"], h41_paper,
         eps / (4 * rmax) * G > eps / (4 * rmax) * dp / (W4 * P * dl * rmax)),
   ["replay", "smt"], expect=Verdict.REFUTED,
   # |V| = 1 (W4 = 16), d = 1 (P = 22/7 for pi), n = 2 (dl = 5 for 2 log 2 + 3), eps = 1/100, r_min = 1, r_max = 2,
   # delta' = 1: (41) gives G > 1.6e-4; the printed (42) needs G > 2.0e-3; G = 1/1000 is between them
   hint=(("G", F(1, 1000)), ("dp", F(1)), ("W4", F(16)), ("P", F(22, 7)), ("dl", F(5)), ("eps", F(1, 100)),
         ("rmin", F(1)), ("rmax", F(2))),
   finding=Finding("false-step", "(42) drops the factor 8 eps r_min that (41) carries: from (41), "
                   "G > 8 eps r_min delta'/(r_max (|V|+1)^4 pi d delta), so the gap exceeds "
                   "2 eps^2 r_min delta'/(r_max^2 (|V|+1)^4 pi d delta), not eps delta'/(4 r_max^2 (|V|+1)^4 pi d "
                   "delta); these agree only when 8 eps r_min = 1. (45) and (8) follow the correct form.", False))
ob("thm2.step_42_repaired", "ks:A.2 (41) -> (42)",
   "||W_O u''|| G > eps/(4 r_max) * 8 eps r_min delta'/(r_max (|V|+1)^4 pi d delta) = 2 eps^2 r_min delta'/(r_max^2 ...)",
   claim(GAP41.claim.vars, h41,
         eps / (4 * rmax) * G > 2 * eps * eps * rmin * dp / (rmax * rmax * W4 * P * dl)), ["smt"],
   repairs="ks.thm.thm2.step_42_as_printed")
Lg = var("Lg")   # log n
delta_43 = 2 * Lg + 3
r_44 = W4 * P * delta_43 * rmax * rmax / (8 * eps * rmin)
delta8 = 2 * Lg ** 2 * eps ** 2 * rmin / (rmax ** 2 * W4 * (2 * Lg + 3) * P) * exp(
    -W4 * (2 * Lg + 3) * P * rmax ** 2 / (4 * eps * rmin))
ob("thm2.plug_45", "ks:A.2 (42') with (43)-(44) = (45) = (8)",
   "2 eps^2 r_min delta'/(r_max^2 (|V|+1)^4 pi d delta) with delta = 2 log n + 3, delta' = (log n)^2 e^{-2r}, "
   "r = (44), equals the right-hand side of (45), which is (8)",
   claim(["eps", "rmin", "rmax", "W4", "P", "Lg"], [eps > 0, rmin > 0, rmax > 0, W4 > 0, P > 0, Lg > 0],
         (2 * eps * eps * rmin * (Lg ** 2 * exp(-2 * r_44)) / (rmax * rmax * W4 * P * delta_43)).eq(delta8)),
   ["identity"])
delta47 = eps * rmin * Lg / (rmax ** 2 * W4 * (2 * Lg + 3) * P) * exp(-W4 * (2 * Lg + 3) * P * rmax ** 2 / (4 * eps * rmin))
ob("thm2.delta_47_vs_8", "ks:Cor 1 proof (47) vs Thm 2 (8)",
   "the delta restated in (47) is (8) divided by 2 eps log n: delta_(8) = 2 eps log n * delta_(47)",
   claim(["eps", "rmin", "rmax", "W4", "P", "Lg"], [eps > 0, rmin > 0, rmax > 0, W4 > 0, P > 0, Lg > 0],
         delta8.eq(2 * eps * Lg * delta47)), ["identity"],
   finding=Finding("statement-mismatch", "(47) restates delta as eps r_min log n/(...) exp(...), but (8) and (45) "
                   "give 2 (log n)^2 eps^2 r_min/(...) exp(...): they differ by the factor 2 eps log n. (47) is "
                   "smaller (hence still valid) only when 2 eps log n >= 1; Corollary 1 needs only some delta > 0, "
                   "so its conclusion stands. Use (8).", False))
ob("thm2.r_7_vs_27", "ks:Thm 2 (7) vs A.2 (27)", "(27) gives r = r_max + eps/4, as stated in (7) and (46)",
   claim(["rmax", "eps"], [], (rmax + eps / 4).eq(rmax + eps / 4)), ["identity"])

# ===================================================================================== Corollaries
s_, nn, NN, dd = V("s", "n", "N", "dd")
ob("cor1.param_count", "ks:A.3 Corollary 1",
   "four rank-1 matrices with s + d parameters each (u v^T) plus the memorising FFN d(2nN + d) give "
   "4(s + d) + d(2nN + d)",
   claim(["s", "dd", "n", "N"], [], (4 * (s_ + dd) + dd * (2 * nn * NN + dd)).eq(4 * s_ + 4 * dd + 2 * dd * nn * NN + dd * dd)),
   ["identity"])
# The memorising feed-forward block of Corollary 1 (A.3), built by `attncert construct ks-cor1`
# (attncert.papers.ks.memorise): with rational weights the skip connection of (3) is cancelled by the units
# relu(x), relu(-x), and each label step is a ramp relu(z - b + h) - relu(z - b), flat outside [b - h, b].
# These three facts hold for all reals; with the certified sides of each built instance they give (17) exactly.
zr, br, hr, xr = V("z", "b", "h", "x")
ob("cor1.ramp_low", "ks:A.3 (17), the memorising block (ramp below)",
   "a ramp is 0 below its start: z <= b - h, h > 0 => relu(z - b + h) - relu(z - b) = 0",
   claim(["z", "b", "h"], [hr > 0, zr <= br - hr], (relu(zr - br + hr) - relu(zr - br)).eq(0)), ["smt"])
ob("cor1.ramp_high", "ks:A.3 (17), the memorising block (ramp above)",
   "a ramp is h above its end: z >= b, h > 0 => relu(z - b + h) - relu(z - b) = h",
   claim(["z", "b", "h"], [hr > 0, zr >= br], (relu(zr - br + hr) - relu(zr - br)).eq(hr)), ["smt"])
ob("cor1.relu_split", "ks:A.3 (17), the memorising block (skip connection cancelled)",
   "relu(x) - relu(-x) = x, so the units relu(H_c), relu(-H_c) with output weights -1, +1 cancel the skip "
   "connection H of (3)",
   claim(["x"], [], (relu(xr) - relu(-xr)).eq(xr)), ["smt"])
n2 = var("n2")
ob("cor2.r_49", "ks:A.4 (49)", "(7) with r_max -> (2n+1) r_max gives r = (2n+1) r_max + eps/4",
   claim(["n2", "rmax", "eps"], [], ((2 * n2 + 1) * rmax + eps / 4).eq((2 * n2 + 1) * rmax + eps / 4)), ["identity"])
NV = var("NV")   # (nN + 1)^4
delta50 = 2 * Lg ** 2 * eps ** 2 / ((2 * n2 + 1) ** 2 * rmax * NV * (2 * Lg + 3) * P) * exp(
    -(2 * n2 + 1) ** 2 * NV * (2 * Lg + 3) * P * rmax / (4 * eps))
delta8_sub = (2 * Lg ** 2 * eps ** 2 * rmax / (((2 * n2 + 1) * rmax) ** 2 * NV * (2 * Lg + 3) * P)
              * exp(-NV * (2 * Lg + 3) * P * ((2 * n2 + 1) * rmax) ** 2 / (4 * eps * rmax)))
ob("cor2.delta_50", "ks:A.4 (50)",
   "(8) with r_min -> r_max, r_max -> (2n+1) r_max, (|V|+1)^4 -> (nN+1)^4 is exactly (50)",
   claim(["Lg", "eps", "n2", "rmax", "NV", "P"], [eps > 0, rmax > 0, NV > 0, P > 0, n2 >= 1, Lg > 0],
         delta8_sub.eq(delta50)), ["identity"])
# (48): E adds 2k r_max to every coordinate of token k. Printed claim: X + E is (r_max, (2n+1) r_max, eps)-
# separated. Counterexamples on concrete data (closed claims, squared norms, exact rationals):
ob("cor2.upper_norm_48_as_printed", "ks:A.4 (48) 'tokenwise (r_max, (2n+1) r_max, eps)-separated'",
   "d = 2, n = 1, r_max = 1, X_1 = (1/2, 0): ||X_1 + E_1||^2 = (5/2)^2 + 2^2 < ((2n+1) r_max)^2 = 9",
   claim([], [], num(F(5, 2)) ** 2 + num(2) ** 2 < num(9)), ["interval"], expect=Verdict.REFUTED,
   finding=Finding("false-step", "For d >= 2 the column 2k r_max (1, ..., 1) has norm 2k r_max sqrt(d), so "
                   "||X_k + E_k|| can exceed (2n+1) r_max. Repair: use the bound (2n sqrt(d) + 1) r_max, or scale "
                   "E by 1/sqrt(d).", False))
sdv, kk, dd = V("sdv", "kk", "d")
# E_k = c u with c = 2k r_max and u = 1_d, the all-ones vector of R^d, given by its defining property u . u = d (the
# sum of d ones); ||u|| = sqrt(d) = sdv follows from dot_self and norm_nonneg
Xk_, ones = vvar("X"), vvar("u")
cE = 2 * kk * rmax


def e_k_hyps(k_range, triangle) -> list:
    """The hypotheses both norm bounds of X_k + E_k rest on: r_max > 0, sdv = sqrt(d) (d >= 1), the range of k,
    ||X_k|| < r_max, u . u = d, then the triangle inequality given, ||c u|| = |c| ||u||, u . u = ||u||^2, ||u|| >= 0."""
    return ([rmax > 0, dd >= 1, sdv >= 0, (sdv * sdv).eq(dd)] + k_range + [norm(Xk_) < rmax, dot(ones, ones).eq(dd),
            triangle, axiom("norm_scale", c=cE, x=ones), axiom("dot_self", x=ones), axiom("norm_nonneg", x=ones)])


ob("cor2.upper_norm_48_repaired", "ks:A.4 (48) repaired",
   "||X_k + E_k|| <= ||X_k|| + ||2k r_max 1_d|| = ||X_k|| + 2k r_max sqrt(d) < (2n sqrt(d) + 1) r_max for 1 <= k <= n "
   "(triangle inequality; ||c u|| = |c| ||u||; ||1_d||^2 = 1_d . 1_d = d)",
   claim([Var("d", "int"), "kk", "n2", "sdv", "rmax", Var("X", "vec"), Var("u", "vec")],
         e_k_hyps([kk >= 1, kk <= n2], axiom("norm_triangle", x=Xk_, y=vscale(cE, ones))),
         norm(vadd(Xk_, vscale(cE, ones))) < (2 * n2 * sdv + 1) * rmax), ["smt"],
   repairs="ks.thm.cor2.upper_norm_48_as_printed")
ob("cor2.lower_norm_48", "ks:A.4 (48) 'r_min := r_max'",
   "||X_k + E_k|| >= ||2k r_max 1_d|| - ||X_k|| = 2k r_max sqrt(d) - ||X_k|| > 2k r_max - r_max >= r_max for k >= 1 "
   "(the lower norm of (48) holds as printed: reverse triangle inequality, ||c u|| = |c| ||u||, ||1_d||^2 = d)",
   claim([Var("d", "int"), "kk", "sdv", "rmax", Var("X", "vec"), Var("u", "vec")],
         e_k_hyps([kk >= 1], axiom("norm_reverse_triangle", x=vscale(cE, ones), y=Xk_))
         + [axiom("vector_identity", x=vadd(Xk_, vscale(cE, ones)), y=vadd(vscale(cE, ones), Xk_))],
         norm(vadd(Xk_, vscale(cE, ones))) > rmax), ["smt"])
ob("cor2.separation_48_as_printed", "ks:A.4 (48) 'eps-separated'",
   "d = 1, n = 2, r_max = 1, eps = 1/10: tokens 99/100 at position 1 and -99/100 at position 2 (distance 198/100 > eps "
   "in the data) become 299/100 and 301/100 after adding E = (2, 4): still more than eps apart",
   claim([], [], abs_(num(F(301, 100)) - num(F(299, 100))) > F(1, 10)), ["interval"], expect=Verdict.REFUTED,
   finding=Finding("false-step", "Adding 2k r_max per position does not keep eps-separation across positions: "
                   "||X_k - X_l|| < 2 r_max only gives ||(X_k + E_k) - (X_l + E_l)|| > 0. Repair: space the "
                   "positions by 2 r_max + eps (E_k = k (2 r_max + eps) 1 / sqrt(d)), which gives separation > eps "
                   "(ks.thm.cor2.separation_repaired).", False))
Dk, dx = V("Dk", "dx")
ob("cor2.separation_repaired", "ks:A.4 (48) repaired",
   "with spacing 2 r_max + eps per position (d = 1): |(x_k + k S) - (x_l + l S)| > eps for k != l, |x| < r_max",
   claim(["x1", "x2", Var("Dk", "int"), "rmax", "eps"], [rmax > 0, eps > 0, abs_(x1) < rmax, abs_(x2) < rmax, abs_(Dk) >= 1],
         abs_(x1 - x2 + Dk * (2 * rmax + eps)) > eps), ["smt"], repairs="ks.thm.cor2.separation_48_as_printed")
ob("cor2.no_duplicates_48", "ks:A.4 (48) 'each sentence has no duplicate token'",
   "x_k + 2k r_max = x_l + 2l r_max with k != l would need |x_k - x_l| >= 2 r_max, impossible for |x| < r_max (d = 1)",
   claim(["x1", "x2", Var("Dk", "int"), "rmax"], [rmax > 0, abs_(x1) < rmax, abs_(x2) < rmax, abs_(Dk) >= 1],
         (x1 + 2 * Dk * rmax).ne(x2)), ["smt"])

# ===================================================================================== Proposition 1 (A.5)
z, dt = V("z", "dt")     # dt = delta of (56)-(59)


def step(zz, shift, D):
    """(sigma_R[z/delta - shift] - sigma_R[z/delta - 1 - shift]) / D"""
    return (relu(zz / dt - shift) - relu(zz / dt - 1 - shift)) / D


Dv = var("D")
ob("prop1.step_56", "ks:A.5 (56)",
   "(sigma_R[z/delta] - sigma_R[z/delta - 1])/D = 0 (z < 0), z/(delta D) (0 <= z < delta), 1/D (z >= delta)",
   claim(["z", "dt", "D"], [dt > 0, Dv >= 1],
         and_(implies(z < 0, step(z, 0, Dv).eq(0)), implies(and_(z >= 0, z < dt), step(z, 0, Dv).eq(z / (dt * Dv))),
              implies(z >= dt, step(z, 0, Dv).eq(1 / Dv)))), ["smt"])


def quant(zz, D):
    """quant_D of (57): 0 for z < 0, (t+1)/D on [t/D, (t+1)/D), 1 for z >= 1 - 1/D."""
    parts = [implies(zz < 0, var("QV").eq(0)), implies(zz >= F(D - 1, D), var("QV").eq(1))]
    parts += [implies(and_(zz >= F(t, D), zz < F(t + 1, D)), var("QV").eq(F(t + 1, D))) for t in range(D - 1)]
    return parts


def outside_ramps(zz, starts):
    """z is outside every ramp window [s, s + delta)."""
    return and_(*[or_(zz < s, zz >= s + dt) for s in starts])


for D in (1, 2, 3):   # D = 4 takes cvc5/z3 ~17 s for (58) repaired; D = 1..3 keep `check` fast
    net57 = add(*[step(z, F(t, D) / dt, D) for t in range(D)])
    ob(f"prop1.quant_57.D{D}", "ks:A.5 (57)",
       f"sum_{{t=0}}^{{D-1}} steps at t/D equals quant_D(z) outside the ramps [t/D, t/D + delta), 0 < delta < 1/D (D = {D})",
       claim(["z", "dt", "QV"], [dt > 0, dt < F(1, D), outside_ramps(z, [F(t, D) for t in range(D)])] + quant(z, D),
             net57.eq(var("QV"))), ["smt"])
    net58 = add(*[step(z, F(t, D) / dt, D) for t in range(1, D + 1)]) - (relu(z / dt - 1 / dt) - relu(z / dt - 1 - 1 / dt))
    ramps58 = [F(t, D) for t in range(1, D + 1)]
    ob(f"prop1.quant_58_as_printed.D{D}", "ks:A.5 (58)",
       f"(58) quantizes [0,1] into {{1/D, ..., 1}} (= quant_D there) and maps R minus [0,1] to 0, outside its ramps (D = {D})",
       claim(["z", "dt", "QV"], [dt > 0, dt < F(1, D), outside_ramps(z, ramps58)] + quant(z, D),
             and_(implies(and_(z >= 0, z <= 1), net58.eq(var("QV"))), implies(or_(z < 0, z > 1), net58.eq(0)))),
       ["replay", "smt"], expect=Verdict.REFUTED,
       hint=(("z", F(1, 2 * D)), ("dt", F(1, 4 * D)), ("QV", F(1, D))),
       finding=Finding("false-step", "(58) sums the steps at t/D for t = 1..D, so it maps [0, 1/D) to 0 and "
                       "[k/D, (k+1)/D) to k/D: values {0, ..., (D-1)/D}, not {1/D, ..., 1}. The interior cell "
                       "[0, 1/D) is then indistinguishable from the outside, against (66). Repair: steps at "
                       "t = 0..D-1 as in (57), minus the step at 1 (ks.thm.prop1.quant_58_repaired).", False))
    net58r = net57 - (relu(z / dt - 1 / dt) - relu(z / dt - 1 - 1 / dt))
    ob(f"prop1.quant_58_repaired.D{D}", "ks:A.5 (58) repaired",
       f"(57) minus the step at 1: quant_D on [0,1] and 0 outside, away from the ramps (D = {D})",
       claim(["z", "dt", "QV"], [dt > 0, dt < F(1, D), outside_ramps(z, [F(t, D) for t in range(D)] + [F(1)])] + quant(z, D),
             and_(implies(and_(z >= 0, z <= 1), net58r.eq(var("QV"))), implies(or_(z < 0, z > 1), net58r.eq(0)))),
       ["smt"], repairs=f"ks.thm.prop1.quant_58_as_printed.D{D}")


def penalty(zz):
    return and_(implies(zz <= 0, var("PV").eq(-1)), implies(and_(zz > 0, zz <= 1), var("PV").eq(0)),
                implies(zz > 1, var("PV").eq(-1)))


net59 = relu((z - 1) / dt) - relu((z - 1) / dt - 1) - relu(-z / dt) - relu(-z / dt - 1)
out59 = or_(z < -dt, and_(z > 0, z < 1), z >= 1 + dt)
ob("prop1.penalty_59_as_printed", "ks:A.5 (59)",
   "sigma_R[(z-1)/delta] - sigma_R[(z-1)/delta - 1] - sigma_R[-z/delta] - sigma_R[-z/delta - 1] = penalty(z) away from "
   "the ramps [-delta, 0] and [1, 1 + delta]",
   claim(["z", "dt", "PV"], [dt > 0, dt < F(1, 2), out59, penalty(z)], net59.eq(var("PV"))),
   ["replay", "smt"], expect=Verdict.REFUTED, hint=(("z", F(2)), ("dt", F(1, 4)), ("PV", F(-1))),
   finding=Finding("false-step", "Two sign errors: for z > 1 the first pair gives +1 (penalty is -1), and for "
                   "z < 0 the last two terms give 2z/delta + 1, which is unbounded, not -1. Repair: "
                   "-(sigma_R[(z-1)/delta] - sigma_R[(z-1)/delta - 1]) - (sigma_R[-z/delta] - sigma_R[-z/delta - 1]) "
                   "(ks.thm.prop1.penalty_59_repaired).", False))
net59r = -(relu((z - 1) / dt) - relu((z - 1) / dt - 1)) - (relu(-z / dt) - relu(-z / dt - 1))
ob("prop1.penalty_59_repaired", "ks:A.5 (59) repaired",
   "-(sigma_R[(z-1)/delta] - sigma_R[(z-1)/delta - 1]) - (sigma_R[-z/delta] - sigma_R[-z/delta - 1]) = penalty(z) "
   "away from the ramps",
   claim(["z", "dt", "PV"], [dt > 0, dt < F(1, 2), out59, penalty(z)], net59r.eq(var("PV"))), ["smt"],
   repairs="ks.thm.prop1.penalty_59_as_printed")
qv, pv, nd, sd = V("qv", "pv", "nd", "sd")
# over the d entries of a column (docs/axioms.md, "Indexed families"): the l-th entry is q(l) + p(l), the
# quantization in [0, 1] plus the sum of dn penalties in [-dn, 0]; x1 = its 2-norm (x1 >= 0, x1^2 = sum_l of the
# squares: the definition) and sd = sqrt(d) (sd >= 0, sd^2 = d)
Qe, Pe, dd = at(seq("q"), IDX), at(seq("p"), IDX), var("d")
ENTRY = and_(and_(num(0) <= Qe, Qe <= 1), and_(-nd <= Pe, Pe <= 0))
ob("prop1.norm_61", "ks:A.5 (60)-(61)",
   "each entry of F1 is quant + (sum of dn penalties) in [-dn, 1], so each column has norm <= dn sqrt(d) (dn >= 1): "
   "each squared entry is <= dn^2, and a column has d of them",
   claim([Var("d", "int"), "nd", "sd", "x1", Var("q", "seq"), Var("p", "seq")],
         [dd >= 1, nd >= 1, sd >= 0, (sd * sd).eq(dd), x1 >= 0, (x1 * x1).eq(bsum(dd, (Qe + Pe) * (Qe + Pe))),
          forall(dd, and_(num(0) <= Qe, Qe <= 1)), forall(dd, and_(-nd <= Pe, Pe <= 0)),
          axiom("forall_and", N=dd, P=and_(num(0) <= Qe, Qe <= 1), Q=and_(-nd <= Pe, Pe <= 0)),
          axiom("forall_mono", N=dd, P=ENTRY, Q=(Qe + Pe) * (Qe + Pe) <= nd * nd),
          axiom("sum_mono", N=dd, f=(Qe + Pe) * (Qe + Pe), g=nd * nd),
          axiom("sum_const", N=dd, c=nd * nd)],
         x1 * x1 <= (nd * sd) ** 2), ["smt"])
xb = var("xb")
gb = relu(xb - 1) - relu(xb) + relu(xb + 1)
ob("prop1.bump_67_as_printed", "ks:A.5 (67)-(68)",
   "each summand sigma_R[x - 1] - sigma_R[x] + sigma_R[x + 1] (x = R(Z - L)) lies in [0, 1] and vanishes for "
   "|x| >= 1, as a bump with 0 <= F2 <= 1 needs",
   claim(["xb"], [], and_(gb >= 0, gb <= 1, implies(abs_(xb) >= 1, gb.eq(0)))),
   ["replay", "smt"], expect=Verdict.REFUTED, hint=(("xb", F(2)),),
   finding=Finding("false-step", "sigma_R[x-1] - sigma_R[x] + sigma_R[x+1] equals x for x >= 1 (unbounded), and "
                   "1 on [0, 1]: not a bump. The hat is sigma_R[x-1] - 2 sigma_R[x] + sigma_R[x+1] = max(0, 1 - |x|) "
                   "(ks.thm.prop1.bump_67_repaired). Two further gaps are noted, not encoded: a sum of per-coordinate "
                   "hats is not a cell indicator (partial matches leak f(L) (#matching)/(dn)), and summing over all "
                   "positions k is not token-wise, as the FFN (3) must be.", False))
ob("prop1.bump_67_repaired", "ks:A.5 (67) repaired",
   "sigma_R[x-1] - 2 sigma_R[x] + sigma_R[x+1] = max(0, 1 - |x|)",
   claim(["xb"], [], (relu(xb - 1) - 2 * relu(xb) + relu(xb + 1)).eq(relu(1 - abs_(xb)))), ["smt"],
   repairs="ks.thm.prop1.bump_67_as_printed")

FAMILY = family("ks_theorems", PAPER, "Theorems 1-2, Corollaries 1-2, Proposition 1 (3.3-4.2, A.1-A.5, B.1)", obs,
                doc="docs/ks-theorems.md")
