"""Kajitsuka-Sato, Appendices B.2-B.3: Lemmas 4, 5, 6 and 7 for every n, over indexed families (docs/axioms.md,
"Indexed families", "Pointwise instances", "Instances at an index"; docs/theorems.md, "General n"). Lemma 7's
section is at the end of the file; what follows describes the setting of Lemmas 4-6.

The Boltzmann operator of a = (b_1, ..., b_N, x), n = N + 1, as a function of the coordinate x that varies
(boltz is symmetric, so the varying coordinate is written last; the paper's a_i):

    boltz(a) = (P + x e^x) / (Q + e^x),  P = sum_{j<=N} b_j e^{b_j},  Q = sum_{j<=N} e^{b_j},

with L(a) = log(Q + e^x), p = e^x / (Q + e^x) the softmax weight of x, and the entropy
S(p) = -sum_j p_j log p_j written with log p_j = a_j - L(a) (the identity (85) rests on; a logarithm of a
term of the index is not total, so the rewrite is made in the definition, docs/theorems.md):

    S(p) = -(sum_{j<=N} e^{b_j} (b_j - L) + e^x (x - L)) / (Q + e^x).

P and Q are the two sums; inside the steps they are real variables tied to the sums by their definitions,
so the derivative in x treats them as constants, as it must (they do not depend on x).

Steps:
- gibbs_terms, gibbs: S(p) <= log n, i.e. boltz(a) >= L(a) - log n (Gibbs' inequality), from the tangent
  line e^u >= 1 + u at each index (a pointwise instance of exp_tangent) and at x, summed;
- lse_ge_max: max_j b_j <= L(a) (p.72 of Boyd & Vandenberghe, as the paper cites it), from e^{b_j} <= Q
  and exp_le_rev at each index;
- deriv_83: d/dx boltz = p (1 + x - boltz) (the identity test, P and Q constants);
- log_p, entropy_85: log p = x - L and S(p) = L - boltz (85);
- lemma4.conclusion: (83) d/dx boltz = p (1 + log p + S(p)) and (84) d/dx boltz < 0 when
  x < max(b_1, ..., b_N, x) - log n - 1, for every N >= 1 and every b.
"""

from __future__ import annotations

from attncert.core.axioms import axiom, axiom_at_each, same_exp
from attncert.core.claims import Var, claim, merge_hyps
from attncert.core.expr import IDX, E, abs_, and_, at, bmax, bsum, diff, exp, forall, idx, implies, log, max_, not_, num, or_, seq, var
from attncert.core.families import collector, family
from attncert.core.theorems import cases_hyp, definitions_as_witnesses, link_hyps, link_plain, link_shown, mvt_hyp

PAPER = "ks"
obs, ob = collector("ks.general", PAPER)

N, x, l, ln, w = (var(s) for s in ("N", "x", "l", "ln", "w"))
Pv, Qv, S = var("P"), var("Q"), var("S")
b = at(seq("b"), IDX)
Eb = exp(b)
SUM_P, SUM_Q = bsum(N, b * Eb), bsum(N, Eb)
VN = [Var("N", "int"), Var("b", "seq")]


def _tangent_each():
    """At every index j: e^{-u} >= 1 - u with -u = -b_j + (l - ln), e^{-b_j + (l - ln)} = e^{-b_j} e^{l - ln}
    and e^{-b_j} e^{b_j} = 1 (three pointwise instances); joined in two steps (forall_and, forall_mono), first
    e^{b_j} e^{-b_j + (l - ln)} = w, then the tangent line times e^{b_j} > 0."""
    t1 = axiom_at_each("exp_tangent", N, x=-b + (l - ln))
    t2 = axiom_at_each("exp_add", N, x=-b, y=l - ln)
    t3 = axiom_at_each("exp_neg", N, x=b)
    p1, p2, p3 = (E(h.expr[2]) for h in (t1, t2, t3))
    prod = (Eb * exp(-b + (l - ln))).eq(w)
    return [t1, t2, t3, axiom("forall_and", N=N, P=p2, Q=p3), axiom("forall_mono", N=N, P=and_(p2, p3), Q=prod),
            axiom("forall_and", N=N, P=p1, Q=prod)], and_(p1, prod)


# Gibbs' inequality, the N terms: e^{b_j} - w <= b_j e^{b_j} + (ln - l) e^{b_j} at each j (w = e^{l - ln}),
# summed: P + (ln - l) Q >= Q - N w
TANGENT, BOTH = _tangent_each()
EACH = Eb - w <= b * Eb + (ln - l) * Eb
ob("gibbs_terms", "ks:B.2 (85), S(p) <= log n (the first n - 1 terms)",
   "e^{b_j} (b_j - L + log n) >= e^{b_j} - e^{L - log n} at each j <= N (the tangent line e^u >= 1 + u), summed: "
   "P + (log n - L) Q >= Q - N e^{L - log n}",
   claim(VN + ["l", "ln", "w"],
         [N >= 1, w.eq(exp(l - ln))] + TANGENT
         + [axiom("forall_mono", N=N, P=BOTH, Q=EACH),
            axiom("sum_mono", N=N, f=Eb - w, g=b * Eb + (ln - l) * Eb),
            axiom("sum_add", N=N, f=b * Eb, g=(ln - l) * Eb), axiom("sum_scale", N=N, c=ln - l, f=Eb),
            axiom("sum_add", N=N, f=Eb, g=-w), axiom("sum_const", N=N, c=-w)],
         SUM_P + (ln - l) * SUM_Q >= SUM_Q - N * w), ["smt"])
GIBBS_TERMS = obs[-1]

# Q >= 0 (a sum of exponentials), so Q + e^x > 0: stated before any log, whose argument's positivity it gives
def _expand(n, f, c):
    """sum_i e^{f_i} (f_i - c) = sum_i f_i e^{f_i} + (-c) sum_i e^{f_i} (sum_add, sum_scale, the bodies equal at
    each index both ways)."""
    ef = exp(f)
    return [axiom("sum_add", N=n, f=f * ef, g=(-c) * ef), axiom("sum_scale", N=n, c=-c, f=ef),
            axiom("forall_intro", N=n, P=ef * (f - c) <= f * ef + (-c) * ef),
            axiom("forall_intro", N=n, P=f * ef + (-c) * ef <= ef * (f - c)),
            axiom("sum_mono", N=n, f=ef * (f - c), g=f * ef + (-c) * ef),
            axiom("sum_mono", N=n, f=f * ef + (-c) * ef, g=ef * (f - c))]


def _nonneg(n, f):
    """sum_i e^{f_i} >= 0."""
    return [axiom("forall_intro", N=n, P=num(0) <= exp(f)), axiom("sum_mono", N=n, f=num(0), g=exp(f)),
            axiom("sum_zero", N=n)]


Q_NONNEG = [Qv.eq(SUM_Q)] + _nonneg(N, b)
Z = Qv + exp(x)
# e^l = Q + e^x and e^ln = N + 1 for l = log(Q + e^x), ln = log(N + 1): exp(log t) = t, and exp_le both ways
# for the equal arguments (an exp atom is a function of its argument's tree, not of its value)
EXP_L = [l.eq(log(Z)), axiom("exp_log", x=Z), axiom("exp_le", x=l, y=log(Z)), axiom("exp_le", x=log(Z), y=l)]
EXP_LN = [ln.eq(log(N + 1)), axiom("exp_log", x=N + 1), axiom("exp_le", x=ln, y=log(N + 1)),
          axiom("exp_le", x=log(N + 1), y=ln)]
ob("gibbs_last", "ks:B.2 (85), S(p) <= log n (the last term)",
   "e^x (x - L + log n) >= e^x - e^{L - log n}: the tangent line e^u >= 1 + u at u = -(x - L + log n), times e^x",
   claim(["x", "l", "ln", "w"],
         [w.eq(exp(l - ln)), axiom("exp_tangent", x=-x + (l - ln)), axiom("exp_add", x=-x, y=l - ln),
          axiom("exp_neg", x=x)],
         exp(x) - w <= x * exp(x) + (ln - l) * exp(x)), ["smt"])
GIBBS_LAST = obs[-1]
ob("gibbs_weight", "ks:B.2 (85), S(p) <= log n (the weights)",
   "e^{L - log n} = e^L / e^{log n} = (Q + e^x)/n, with n = N + 1 and Q = sum_j e^{b_j} >= 0",
   claim(VN + ["x", "Q", "l", "ln", "w"],
         [N >= 1, w.eq(exp(l - ln))] + Q_NONNEG + EXP_L + EXP_LN
         + [axiom("exp_add", x=l, y=-ln), axiom("exp_neg", x=ln)],
         (w * (N + 1)).eq(Z)), ["smt"])
GIBBS_WEIGHT = obs[-1]
ob("gibbs", "ks:B.2 (85), S(p) <= log n",
   "boltz(a) >= L(a) - log n for a = (b_1, ..., b_N, x), n = N + 1: P + x e^x >= (L - log n)(Q + e^x) (Gibbs' "
   "inequality: the N terms, the last term, and n e^{L - log n} = Q + e^x)",
   claim(VN + ["x", "P", "Q", "l", "ln", "w"],
         merge_hyps(link_hyps(GIBBS_WEIGHT), link_hyps(GIBBS_TERMS), link_hyps(GIBBS_LAST), [Pv.eq(SUM_P)]),
         Pv + x * exp(x) >= (l - ln) * Z), ["smt"])
GIBBS = obs[-1]

# max_j b_j <= L: e^{b_j} <= Q <= Q + e^x = e^L at each j, so b_j <= L (exp_le_rev at each j)
M = bmax(N, b)
ob("lse_ge_max", "ks:B.2 (93), max_j a_j <= L(a) (Boyd and Vandenberghe, p. 72)",
   "max_{j<=N} b_j <= L(a) = log(Q + e^x): each e^{b_j} <= Q (a sum of non-negative terms) <= e^L",
   claim(VN + ["x", "Q", "l"],
         [N >= 1] + Q_NONNEG + EXP_L
         + [axiom("sum_ge_term", N=N, f=Eb),
            axiom("forall_mono", N=N, P=Eb <= SUM_Q, Q=Eb <= exp(l)),
            axiom_at_each("exp_le_rev", N, x=b, y=l),
            axiom("bmax_least", N=N, f=b, c=l)],
         M <= l), ["smt"])
LSE_MAX = obs[-1]

# (83) in x: P and Q do not depend on x
B = (Pv + x * exp(x)) / Z
p = exp(x) / Z
D = diff(B, x)
ob("deriv_83", "ks:B.2 (83), the derivative in the varying coordinate",
   "d/dx (P + x e^x)/(Q + e^x) = p (1 + x - boltz), p = e^x/(Q + e^x), for all reals P, Q with Q + e^x != 0",
   claim(["P", "Q", "x"], [Z > 0], D.eq(p * (1 + x - B))), ["identity"])
DERIV = obs[-1]
ob("log_p", "ks:B.2 (92), log p = a_i - L(a)",
   "log(e^x/(Q + e^x)) = x - log(Q + e^x)",
   claim(["Q", "x", "l"], [Z > 0, l.eq(log(Z)), axiom("log_div", x=exp(x), y=Z), axiom("log_exp", x=x)],
         log(p).eq(x - l)), ["smt"])
LOG_P = obs[-1]
SDEF = S.eq(-(bsum(N, Eb * (b - l)) + exp(x) * (x - l)) / Z)
ob("entropy_85", "ks:B.2 (85), S(p) = L(a) - boltz(a)",
   "S(p) = -(sum_j e^{b_j} (b_j - L) + e^x (x - L))/(Q + e^x) = L - (P + x e^x)/(Q + e^x)",
   claim(VN + ["x", "P", "Q", "l", "S"],
         merge_hyps([Pv.eq(SUM_P), Qv.eq(SUM_Q), Z > 0, SDEF],
                    _expand(N, b, l)),
         S.eq(l - B)), ["smt"])
ENTROPY = obs[-1]

ob("z_pos", "ks:B.2 (83), the partition function", "Q + e^x > 0: Q = sum_j e^{b_j} >= 0 and e^x > 0",
   claim(VN + ["x", "Q"], Q_NONNEG, Z > 0), ["smt"])
Z_POS = obs[-1]

# Lemma 4 for every n >= 2, at the coordinate x = a_i (b: the other n - 1 coordinates, in their order; P, Q, L,
# S the quantities above): (83) and (84). The sign argument of (92)-(93) is a step over plain reals (sign_84),
# linked with the terms it is about, so that no solver meets the sums and the derivative in one nonlinear query
ob("p_pos", "ks:B.2 (83), the softmax weight", "p = e^x/(Q + e^x) > 0", claim(["Q", "x"], [Z > 0], p > 0), ["smt"])
P_POS = obs[-1]
ob("gibbs_boltz", "ks:B.2 (85), S(p) <= log n", "boltz(a) = (P + x e^x)/(Q + e^x) >= L - log n (Gibbs, divided by Q + e^x > 0)",
   claim(VN + ["x", "P", "Q", "l", "ln", "w"], merge_hyps(link_hyps(Z_POS), link_hyps(GIBBS)), B >= l - ln), ["smt"])
GIBBS_BOLTZ = obs[-1]
ob("log_n_nonneg", "ks:B.2 (84), log n >= 0", "log n = log(N + 1) >= log 1 = 0 for N >= 1",
   claim([Var("N", "int"), "ln"], [N >= 1, ln.eq(log(N + 1)), axiom("log_le", x=num(1), y=N + 1), axiom("log_one")],
         ln >= 0), ["smt"])
LN_NONNEG = obs[-1]
Dv, pv, Bv, Mv = var("D"), var("p"), var("B"), var("M")
ob("sign_84", "ks:B.2 (92)-(93)",
   "D = p (1 + x - B) with p > 0, B >= L - log n, max_{j<=N} b_j <= L and log n >= 0: x < max(max_j b_j, x) - log n - 1 "
   "gives D < 0",
   claim(["D", "p", "B", "x", "l", "ln", "M"],
         [Dv.eq(pv * (1 + x - Bv)), pv > 0, Bv >= l - ln, Mv <= l, ln >= 0],
         implies(x < max_(Mv, x) - ln - 1, Dv < 0)), ["smt"])
SIGN_84 = obs[-1]
M_ALL = max_(M, x)   # max_j a_j over all n coordinates


def _facts_at_x(deriv):
    """The links both roots carry: Q + e^x > 0, Gibbs' inequality, max <= L, the derivative (``deriv``), log p,
    S = L - boltz, p > 0 and log n >= 0."""
    return [link_hyps(o) for o in (Z_POS, GIBBS_BOLTZ, LSE_MAX, deriv, LOG_P, ENTROPY, P_POS, LN_NONNEG)]


ob("lemma4.conclusion", "ks:B.2 Lemma 4 (83)-(84), every n >= 2",
   "d/dx boltz(a) = p (1 + log p + S(p)) (83), and d/dx boltz(a) < 0 when x < max_j a_j - log n - 1 (84), for "
   "a = (b_1, ..., b_N, x), n = N + 1 >= 2, every real sequence b and every real x (x is any coordinate a_i, b "
   "the others)",
   claim(VN + ["x", "P", "Q", "l", "ln", "w", "S"],
         merge_hyps(*_facts_at_x(DERIV), link_hyps(SIGN_84, D=D, p=p, B=B, M=M)),
         and_(D.eq(p * (1 + log(p) + S)), implies(x < M_ALL - ln - 1, D < 0))), ["smt"])

# Lemma 5 for every n >= 2: (97) as the second derivative in x, and (94) under (95), by (98)-(101): the sign
# argument is a step over plain reals (sign_94), as for (84)
D2 = diff(D, x)
ob("deriv_97", "ks:B.2 (97), the second derivative in the varying coordinate",
   "d^2/dx^2 (P + x e^x)/(Q + e^x) = p ((1 - 2p)(1 + x - boltz) + 1), p = e^x/(Q + e^x)",
   claim(["P", "Q", "x"], [Z > 0], D2.eq(p * ((1 - 2 * p) * (1 + x - B) + 1))), ["identity"])
DERIV2 = obs[-1]
ob("p_exp", "ks:B.2 (99), p = e^{a_i - L(a)}", "e^x/(Q + e^x) = e^{x - L}",
   claim(["Q", "x", "l"], [Z > 0] + EXP_L + [axiom("exp_add", x=x, y=-l), axiom("exp_neg", x=l)], p.eq(exp(x - l))),
   ["smt"])
P_EXP = obs[-1]
D2v = var("D2")
H95 = x < M_ALL - ln - 3
ob("sign_94", "ks:B.2 (98)-(101)",
   "D2 = p ((1 - 2p)(1 + x - B) + 1) with p = e^{x - L} > 0, B >= L - log n, max_{j<=N} b_j <= L, log n >= 0 and "
   "x < max(max_j b_j, x) - log n - 3: then x - L < -3, p < e^{-3} <= 1/4 (e^3 >= 1 + 3) and 1 + x - B < -2, so D2 < 0",
   claim(["D2", "p", "B", "x", "l", "ln", "M"],
         [D2v.eq(pv * ((1 - 2 * pv) * (1 + x - Bv) + 1)), pv > 0, pv.eq(exp(x - l)), Bv >= l - ln, Mv <= l, ln >= 0,
          x < max_(Mv, x) - ln - 3, axiom("exp_lt", x=x - l, y=-num(3)), axiom("exp_tangent", x=num(3)),
          axiom("exp_neg", x=num(3))],
         D2v < 0), ["smt"])
SIGN_94 = obs[-1]
ob("lemma5.conclusion", "ks:B.2 Lemma 5 (94)-(95), every n >= 2",
   "d^2/dx^2 boltz(a) = p ((1 - 2p)(log p + S(p) + 1) + 1) (97) < 0 (94) when x < max_j a_j - log n - 3 (95), for "
   "a = (b_1, ..., b_N, x), n = N + 1 >= 2, every real sequence b and every real x (x is any coordinate a_i, b "
   "the others)",
   claim(VN + ["x", "P", "Q", "l", "ln", "w", "S"],
         merge_hyps(*_facts_at_x(DERIV2), link_hyps(P_EXP), [H95], link_hyps(SIGN_94, D2=D2, p=p, B=B, M=M)),
         and_(D2.eq(p * ((1 - 2 * p) * (log(p) + S + 1) + 1)), D2 < 0)), ["smt"])
LEMMA5 = obs[-1]

# Lemma 6 for every n >= 2 (its own range): a = (b_1, ..., b_N, a_n) and b = (b_1, ..., b_N, b_n) share their
# first N coordinates (the family b). (104): the tangent gap h(y) = boltz(b, y) + (a_n - y) d/dy boltz(b, y)
# - boltz(b, a_n) has h'(y) = (a_n - y) d^2/dy^2 boltz(b, y) < 0 on (b_n, a_n) by Lemma 5 at x = y (whose
# definitions L, w, S depend on y: definitions in the monotonicity rule, docs/axioms.md), and h(a_n) = 0, so
# h(b_n) > 0 by the mean value theorem. (105): (83) at b_n, Gibbs' inequality and max <= L at b_n.
y, an, bn, dl = var("y"), var("an"), var("bn"), var("delta")


def Bof(t):
    return (Pv + t * exp(t)) / (Qv + exp(t))


By = Bof(y)
H6 = By + (an - y) * diff(By, y) - Bof(an)
SEP6 = [M - dl > an, dl > ln + 3]     # (102): max_{i<n} a_i - delta > a_n, and delta > log n + 3
ob("lemma6.tangent_deriv", "ks:B.2 (104) (the tangent gap's derivative)",
   "d/dy [boltz(b, y) + (a_n - y) d/dy boltz(b, y) - boltz(b, a_n)] = (a_n - y) d^2/dy^2 boltz(b, y)",
   claim(["P", "Q", "y", "an"], [Qv + exp(y) > 0, Qv + exp(an) > 0], diff(H6, y).eq((an - y) * diff(diff(By, y), y))),
   ["identity"])
TANGENT_DERIV = obs[-1]
ob("lemma6.concavity_applies", "ks:B.2 (104) (Lemma 5 applies on y < a_n)",
   "y < a_n, max_{i<n} a_i - delta > a_n, delta > log n + 3  =>  y < max(max_{i<n} a_i, y) - log n - 3",
   claim(VN + ["y", "an", "delta", "ln"], [y < an] + SEP6, y < max_(M, y) - ln - 3), ["smt"])
CONC_APPLIES = obs[-1]
# the sign of h'(y) over plain reals: with every atom of Lemma 5 in one query, z3 took about a minute on the
# checker's re-run (cvc5 0.2 s); linked with the terms it is about, the query is a literal hypothesis
Gv, D2w, Ew = var("G"), var("D2"), var("E")
ob("lemma6.sign_decreasing", "ks:B.2 (104) (the sign of the tangent gap's derivative)",
   "G = (a_n - y) D2, D2 = E and D2 < 0, y < a_n  =>  G < 0",
   claim(["G", "D2", "E", "y", "an"], [Gv.eq((an - y) * D2w), and_(D2w.eq(Ew), D2w < 0), y < an], Gv < 0), ["smt"])
SIGN_DEC = obs[-1]
D2y = diff(diff(By, y), y)
p_y = exp(y) / (Qv + exp(y))
ob("lemma6.tangent_decreasing", "ks:B.2 (104) (the tangent gap decreases on (b_n, a_n))",
   "b_n < y < a_n (with (102)): h'(y) = (a_n - y) d^2/dy^2 boltz(b, y) < 0 (Lemma 5 at x = y)",
   claim(VN + ["y", "P", "Q", "l", "ln", "w", "S", "an", "bn", "delta"],
         merge_hyps([y > bn, y < an] + SEP6, link_hyps(CONC_APPLIES), link_hyps(Z_POS, x=y), link_hyps(Z_POS, x=an),
                    link_hyps(TANGENT_DERIV), link_hyps(LEMMA5, x=y),
                    link_hyps(SIGN_DEC, G=diff(H6, y), D2=D2y,
                              E=p_y * ((1 - 2 * p_y) * (log(p_y) + S + 1) + 1), y=y, an=an)),
         diff(H6, y) < 0), ["smt"])
TANGENT_DECREASING = obs[-1]
B_b, B_a = Bof(bn), Bof(an)
ob("lemma6.tangent_104", "ks:B.2 (104) at x = b_n, every n >= 2",
   "boltz(b) + (a_n - b_n) d/db_n boltz(b) > boltz(a) for b_n < a_n (the mean value theorem on the tangent gap)",
   claim(VN + ["P", "Q", "ln", "an", "bn", "delta"],
         merge_hyps(Q_NONNEG, [an > bn] + SEP6, [N >= 1, Pv.eq(SUM_P), ln.eq(log(N + 1))],
                    [mvt_hyp(TANGENT_DECREASING)]),
         B_b + (an - bn) * diff(B_b, bn) > B_a), ["smt"])
TANGENT_104 = obs[-1]
Bbv, Bav, pbv, lbv = var("Bb"), var("Ba"), var("pb"), var("lb")
ob("lemma6.core_105", "ks:B.2 (105), over plain reals",
   "(104), D = p_n (1 + b_n - boltz(b)) (83), p_n > 0, boltz(b) >= L(b) - log n, max_{i<n} b_i <= L(b), (102)  =>  "
   "boltz(b) - boltz(a) > (a_n - b_n)(delta + a_n - b_n - log n - 1) p_n",
   claim(["Bb", "Ba", "D", "pb", "lb", "ln", "M", "an", "bn", "delta"],
         [Bbv + (an - bn) * Dv > Bav, Dv.eq(pbv * (1 + bn - Bbv)), pbv > 0, Bbv >= lbv - ln, Mv <= lbv, Mv - dl > an,
          an > bn],
         Bbv - Bav > (an - bn) * (dl + an - bn - ln - 1) * pbv), ["smt"])
CORE_105 = obs[-1]
p_b = exp(bn) / (Qv + exp(bn))
ob("lemma6.conclusion", "ks:B.2 Lemma 6 (103), every n >= 2",
   "boltz(b) - boltz(a) > (a_n - b_n)(delta + a_n - b_n - log n - 1) e^{b_n} / sum_i e^{b_i} for a, b in R^n sharing "
   "their first n - 1 coordinates, under (102): max_{i<n} a_i - delta > a_n > b_n with delta > log n + 3",
   claim(VN + ["P", "Q", "l", "ln", "w", "an", "bn", "delta"],
         merge_hyps(link_hyps(Z_POS, x=bn), link_hyps(TANGENT_104), link_hyps(DERIV, x=bn), link_hyps(P_POS, x=bn),
                    link_hyps(GIBBS_BOLTZ, x=bn), link_hyps(LSE_MAX, x=bn),
                    link_hyps(CORE_105, Bb=B_b, Ba=B_a, D=diff(B_b, bn), pb=p_b, lb=l, M=M)),
         B_b - B_a > (an - bn) * (dl + an - bn - ln - 1) * p_b), ["smt"])
LEMMA6 = obs[-1]

# n = 1: boltz(a) = a_1 = x, p = 1, S(p) = 0; (83) reads 1 = 1 and (84) is vacuous (x < x - log 1 - 1)
B1 = (x * exp(x)) / exp(x)
P1 = exp(x) / exp(x)
D1 = diff(B1, x)
S1 = -(exp(x) * (x - l)) / exp(x)
ob("deriv_83.n1", "ks:B.2 (83), n = 1", "d/dx (x e^x)/e^x = 1", claim(["x"], [], D1.eq(1)), ["identity"])
ob("lemma4.n1", "ks:B.2 Lemma 4 (83)-(84), n = 1",
   "for n = 1 (a = (x)): d/dx boltz(a) = 1 = p (1 + log p + S(p)) with p = 1, S(p) = -p (x - L) = 0, L = log e^x; "
   "(84) is vacuous",
   claim(["x", "l"], [l.eq(log(exp(x))), axiom("log_exp", x=x), axiom("log_div", x=exp(x), y=exp(x)), axiom("log_one")]
         + link_hyps(obs[-1]),
         and_(D1.eq(P1 * (1 + log(P1) + S1)), implies(x < x - log(num(1)) - 1, D1 < 0))), ["smt"])
ob("lemma5.n1", "ks:B.2 Lemma 5 (94)-(95), n = 1",
   "for n = 1 (a = (x)), (95) reads x < x - log 1 - 3, which never holds: (94) is vacuous",
   claim(["x"], [axiom("log_one")], implies(x < x - log(num(1)) - 3, diff(D1, x) < 0)), ["smt"])


# ----------------------------------------------------------------------------------------------------------
# Lemma 7 for every n (B.3, (114)-(131)). The vectors are written in blocks, as the proof reads them:
#   k >= 1:  a = (b_1, ..., b_N, x, d_1, ..., d_M),  b = (b_1, ..., b_N, y, e_1, ..., e_M),  n = N + 1 + M,
# with k = N >= 1 shared coordinates (the family b of Lemmas 4-6), a_{k+1} = x > b_{k+1} = y, and the tails d, e;
#   k = 0:   a = (x, d_1, ..., d_M),  b = (y, e_1, ..., e_M),  n = 1 + M.
# a_1 = b(1) (k >= 1) or x (k = 0). The hypotheses are the instances of (114)-(116) the proof uses, each over one
# index (docs/theorems.md, "General n"). Instead of moving one coordinate at a time with Lemma 4 (the paper's
# "by abuse of notation"), (120) and (129) compare the tails term by term: appending entries no larger than a
# weighted average does not raise it (tail_drop), and lowering entries below B - 1, where B is the average, raises
# it (tail_raise: e^t (t - B) decreases on t <= B - 1, from the tangent line of exp at each index).
Mv_, tI, dI, eI = var("M"), at(seq("t"), IDX), at(seq("d"), IDX), at(seq("e"), IDX)
Hh, Zh, Bh, t0, Bbar = var("H"), var("Z"), var("Bh"), var("t0"), var("Bbar")
VT = [Var("M", "int"), Var("t", "seq")]


def _tail_sums(t):
    return bsum(Mv_, t * exp(t)), bsum(Mv_, exp(t))




PT, QT = _tail_sums(tI)
ob("lemma7.tail_drop", "ks:B.3 (120), left (the tail of a below boltz(underline a))",
   "Z > 0, Bh = H/Z and t_j <= Bh for every j <= M  =>  (H + sum_j t_j e^{t_j})/(Z + sum_j e^{t_j}) <= Bh: "
   "appending entries no larger than a weighted average does not raise it",
   claim(VT + ["H", "Z", "Bh"],
         [Zh > 0, Bh.eq(Hh / Zh), forall(Mv_, tI <= Bh), axiom_at_each("exp_pos", Mv_, x=tI),
          axiom("forall_and", N=Mv_, P=tI <= Bh, Q=exp(tI) > 0),
          axiom("forall_mono", N=Mv_, P=and_(tI <= Bh, exp(tI) > 0), Q=exp(tI) * (tI - Bh) <= 0),
          axiom("sum_mono", N=Mv_, f=exp(tI) * (tI - Bh), g=num(0)), axiom("sum_zero", N=Mv_)]
         + _expand(Mv_, tI, Bh) + _nonneg(Mv_, tI),
         (Hh + PT) / (Zh + QT) <= Bh), ["smt"])
TAIL_DROP = obs[-1]


def _raise_each():
    """At each index: e^{t_j} (t_j - B) >= e^{t0} (t0 - B) when t_j <= t0 <= B - 1: with u = t0 - t_j >= 0 and
    c = B - t0 >= 1, e^{t0} = e^{t_j} e^u and e^u c >= (1 + u) c >= c + u (the tangent line at each index)."""
    parts = [axiom_at_each("exp_tangent", Mv_, x=-tI + t0), axiom_at_each("exp_add", Mv_, x=-tI, y=t0),
             axiom_at_each("exp_neg", Mv_, x=tI), axiom_at_each("exp_pos", Mv_, x=tI)]
    preds = [E(h.expr[2]) for h in parts] + [tI <= t0]
    out, acc = list(parts), preds[0]
    for q in preds[1:]:
        out.append(axiom("forall_and", N=Mv_, P=acc, Q=q))
        acc = and_(acc, q)
    e1, et, e0 = exp(-tI + t0), exp(tI), exp(t0)
    # three pointwise steps, each a small query: e^{t0} = e^u e^{t_j}; e^u c >= c + u; the product with e^{t_j}
    q1 = and_(e1 >= 1 + (-tI + t0), e0.eq(e1 * et), et > 0, tI <= t0)
    q2 = and_(e1 * (Bbar - t0) >= (Bbar - t0) + (t0 - tI), e0.eq(e1 * et), et > 0)
    each = e0 * (t0 - Bbar) <= et * (tI - Bbar)
    return out + [axiom("forall_mono", N=Mv_, P=acc, Q=q1), axiom("forall_mono", N=Mv_, P=q1, Q=q2),
                  axiom("forall_mono", N=Mv_, P=q2, Q=each)], each


RAISE_PARTS, RAISE_EACH = _raise_each()
ob("lemma7.tail_raise", "ks:B.3 (120), right, and (129) (entries lowered below the average minus 1)",
   "Z > 0, M >= 0, Bbar = (H + M t0 e^{t0})/(Z + M e^{t0}), t0 <= Bbar - 1 and t_j <= t0 for every j <= M  =>  "
   "(H + sum_j t_j e^{t_j})/(Z + sum_j e^{t_j}) >= Bbar: e^t (t - Bbar) decreases on t <= Bbar - 1, so each "
   "entry t_j adds at least what t0 adds",
   claim(VT + ["H", "Z", "t0", "Bbar"],
         [Zh > 0, Mv_ >= 0, Bbar.eq((Hh + Mv_ * t0 * exp(t0)) / (Zh + Mv_ * exp(t0))), t0 <= Bbar - 1,
          forall(Mv_, tI <= t0)] + RAISE_PARTS
         + [axiom("sum_mono", N=Mv_, f=exp(t0) * (t0 - Bbar), g=exp(tI) * (tI - Bbar)),
            axiom("sum_const", N=Mv_, c=exp(t0) * (t0 - Bbar))]
         + _expand(Mv_, tI, Bbar) + _nonneg(Mv_, tI),
         (Hh + PT) / (Zh + QT) >= Bbar), ["smt"])
TAIL_RAISE = obs[-1]


# the case k >= 1: the prefix b (N = k >= 1 coordinates, a_1 = b(1)), a_{k+1} = x, b_{k+1} = y, the tails d, e
# (M = n - k - 1 >= 0 coordinates each); n = N + 1 + M. Every step below is over the lemma's own names, so that
# the root links each without renaming.
A1 = at(seq("b"), num(1))
bI1 = at(seq("b"), IDX + 1)
NN = N + 1 + Mv_                       # n
LN, LAM = log(NN), log(Mv_ + 1)        # log n, log(n - k)
Y1 = var("y") + LAM                    # b_{k+1} + log(n - k)
xk, yk = var("x"), var("y")
VL7 = VN + [Var("M", "int"), Var("d", "seq"), Var("e", "seq"), "x", "y", "delta", "P", "Q"]
H114_first = forall(N - 1, bI1 < A1 - dl)     # (114): a_1 - a_j > delta, j = 2..k
H114_prefix = forall(N, b - xk > dl)          # (114): a_i - a_{k+1} > delta, i <= k
H114_a = forall(Mv_, xk - dI > dl)            # (114): a_{k+1} - a_{k+1+j} > delta, j <= M
H114_b = forall(Mv_, yk - eI > dl)            # (114): b_{k+1} - b_{k+1+j} > delta, j <= M
H115 = xk - yk > dl                           # (115) with (116): a_{k+1} > b_{k+1}, so a_{k+1} - b_{k+1} > delta
H_DELTA = dl > 2 * LN + 3                     # delta > 2 log n + 3
H_NM = [N >= 1, Mv_ >= 0]
DEF_PQ = [Pv.eq(SUM_P), Qv.eq(SUM_Q)]


def _l7(id_, ref, statement, hyps, goal, names=()):
    ob(f"lemma7.{id_}", ref, statement, claim(VL7 + list(names), merge_hyps(hyps), goal), ["smt"])
    return obs[-1]


PREFIX_ABOVE = _l7(
    "prefix_above", "ks:B.3 (120) (boltz(underline a) >= a_{k+1})",
    "b_i - x > delta > 0 for every i <= N  =>  sum_i e^{b_i} (b_i - x) >= 0, i.e. P - x Q >= 0",
    H_NM + DEF_PQ + [H114_prefix, dl > 0, axiom_at_each("exp_pos", N, x=b),
                     axiom("forall_and", N=N, P=b - xk > dl, Q=exp(b) > 0),
                     axiom("forall_mono", N=N, P=and_(b - xk > dl, exp(b) > 0), Q=num(0) <= exp(b) * (b - xk)),
                     axiom("sum_mono", N=N, f=num(0), g=exp(b) * (b - xk)), axiom("sum_zero", N=N)]
    + _expand(N, b, xk), Pv - xk * Qv >= 0)
PREFIX_SPLIT = _l7(
    "prefix_split", "ks:B.3 (127) line 2 (the first term split off)",
    "Q = e^{a_1} + sum_{i<N} e^{b_{i+1}} (sum_first), each b_{i+1} < a_1 - delta: e^{a_1} <= Q <= e^{a_1} + "
    "(N - 1) e^{a_1 - delta}",
    H_NM + DEF_PQ + [H114_first, axiom("sum_first", N=N, f=exp(b)),
                     axiom_at_each("exp_lt", N - 1, x=bI1, y=A1 - dl),
                     axiom("forall_mono", N=N - 1, P=exp(bI1) < exp(A1 - dl), Q=exp(bI1) <= exp(A1 - dl)),
                     axiom("sum_mono", N=N - 1, f=exp(bI1), g=exp(A1 - dl)),
                     axiom("sum_const", N=N - 1, c=exp(A1 - dl))] + _nonneg(N - 1, bI1),
    and_(Qv >= exp(A1), Qv <= exp(A1) + (N - 1) * exp(A1 - dl)))
Q_GE_A1 = _l7("prefix_lower", "ks:B.3 (127) line 2", "Q >= e^{a_1}",
              H_NM + DEF_PQ + [H114_first] + link_hyps(PREFIX_SPLIT), Qv >= exp(A1))
Q_LE = _l7("prefix_upper", "ks:B.3 (127) line 2", "Q <= e^{a_1} + (N - 1) e^{a_1 - delta}",
           H_NM + DEF_PQ + [H114_first] + link_hyps(PREFIX_SPLIT), Qv <= exp(A1) + (N - 1) * exp(A1 - dl))
FIRST_SEP = _l7("first_sep", "ks:B.3 (114) at i = 1",
                "b_i - x > delta for every i <= N gives a_1 - x > delta (forall_elim at i = 1)",
                H_NM + [H114_prefix, axiom("forall_elim", N=N, P=b - xk > dl, j=num(1))], A1 - xk > dl)
MAX_SEP = _l7("max_sep", "ks:B.3 (124) line 1 ((102) for Lemma 6)",
              "max_{i<=k} a_i >= a_1 (bmax_upper, forall_elim at 1) and a_1 - x > delta: max_{i<=k} a_i - delta > a_{k+1}",
              H_NM + [H114_prefix] + link_hyps(FIRST_SEP)
              + [axiom("bmax_upper", N=N, f=b), axiom("forall_elim", N=N, P=b <= bmax(N, b), j=num(1))],
              M - dl > xk)

# log n, log(k + 1) (Lemma 6's ln) and log(n - k): their order, each a step (a link carries a literal hypothesis)
LNDEF = [ln.eq(log(N + 1))]
LN_POS = _l7("log_n_pos", "ks:B.3 (128) (log n > 0)", "log n > log 1 = 0 for n = N + 1 + M >= 2",
             H_NM + [axiom("log_lt", x=num(1), y=NN), axiom("log_one")], LN > 0)
LN_GE0 = _l7("log_k1_nonneg", "ks:B.3 (124)", "log(k + 1) >= log 1 = 0",
             H_NM + LNDEF + [axiom("log_le", x=num(1), y=N + 1), axiom("log_one")], ln >= 0, ["ln"])
LN_LE = _l7("log_k1_le", "ks:B.3 (124) line 2", "log(k + 1) <= log n (k + 1 <= n)",
            H_NM + LNDEF + [axiom("log_le", x=N + 1, y=NN)], ln <= LN, ["ln"])
LAM_GE0 = _l7("log_nk_nonneg", "ks:B.3 (122)", "log(n - k) >= log 1 = 0",
              H_NM + [axiom("log_le", x=num(1), y=Mv_ + 1), axiom("log_one")], LAM >= 0)
LAM_LE = _l7("log_nk_le", "ks:B.3 (124) line 2", "log(n - k) <= log n",
             H_NM + [axiom("log_le", x=Mv_ + 1, y=NN)], LAM <= LN)
DELTA_POS = _l7("delta_pos", "ks:B.3 Lemma 7", "delta > 2 log n + 3 > 0", H_NM + [H_DELTA] + link_hyps(LN_POS), dl > 0)
DELTA_LN = _l7("delta_log_k1", "ks:B.3 (124) line 1 (delta > log(k + 1) + 3, for Lemma 6)",
               "delta > 2 log n + 3 and log(k + 1) <= log n, log n > 0  =>  delta > log(k + 1) + 3",
               H_NM + LNDEF + [H_DELTA] + link_hyps(LN_POS) + link_hyps(LN_LE), dl > ln + 3, ["ln"])
X_GT = _l7("x_gt_shift", "ks:B.3 (127) line 1, (124) ((102) for Lemma 6: a_{k+1} > b_{k+1} + log(n - k))",
           "a_{k+1} - b_{k+1} > delta > 2 log n + 3 > log(n - k)",
           H_NM + [H115, H_DELTA] + link_hyps(LN_POS) + link_hyps(LAM_LE), xk > Y1)

# the exponentials: e^{a_1 - delta} e^delta = e^{a_1}, e^delta > n, e^y < e^{a_1 - delta},
# e^{y + log(n - k)} = (n - k) e^y, e^{-(a_1 - y)} e^{a_1} = e^y
E_W = _l7("exp_w", "ks:B.3 (127)", "e^{a_1 - delta} e^delta = e^{a_1}",
          [axiom("exp_add", x=A1 - dl, y=dl)] + same_exp((A1 - dl) + dl, A1), (exp(A1 - dl) * exp(dl)).eq(exp(A1)))
E_DELTA = _l7("exp_delta", "ks:B.3 (127) line 3 (delta > log n)", "e^delta > e^{log n} = n",
              H_NM + [H_DELTA] + link_hyps(LN_POS) + [axiom("exp_lt", x=LN, y=dl), axiom("exp_log", x=NN)],
              exp(dl) > NN)
E_Y = _l7("exp_y", "ks:B.3 (127)", "b_{k+1} < a_{k+1} - delta < a_1 - 2 delta: e^{b_{k+1}} < e^{a_1 - delta}",
          H_NM + [H114_prefix, H115, H_DELTA] + link_hyps(FIRST_SEP) + link_hyps(DELTA_POS)
          + [axiom("exp_lt", x=yk, y=A1 - dl)], exp(yk) < exp(A1 - dl))
E_Y1 = _l7("exp_shift", "ks:B.3 (122) line 2", "e^{b_{k+1} + log(n - k)} = e^{b_{k+1}} e^{log(n-k)} = (n - k) e^{b_{k+1}}",
           H_NM + [axiom("exp_add", x=yk, y=LAM), axiom("exp_log", x=Mv_ + 1)], exp(Y1).eq((Mv_ + 1) * exp(yk)))
E_G = _l7("exp_gap", "ks:B.3 (128) line 3", "e^{-(a_1 - b_{k+1})} e^{a_1} = e^{b_{k+1}}",
          [axiom("exp_add", x=-(A1 - yk), y=A1)] + same_exp(-(A1 - yk) + A1, yk), (exp(-(A1 - yk)) * exp(A1)).eq(exp(yk)))

# the tails below the averages
Bu, Bbv = var("Bu"), var("Bbar")
BU_DEF = Bu.eq(Bof(xk))
BU_GE = _l7("bu_ge_x", "ks:B.3 (120) (boltz(underline a) >= a_{k+1})",
            "boltz(underline a) = (P + x e^x)/(Q + e^x) >= x since P - x Q >= 0",
            H_NM + DEF_PQ + link_hyps(Z_POS) + link_hyps(PREFIX_ABOVE) + [BU_DEF], Bu >= xk, ["Bu"])
D_BELOW = _l7("tail_a_below", "ks:B.3 (120), left", "a's tail: d_j < a_{k+1} - delta <= boltz(underline a)",
              H_NM + [H114_a] + link_hyps(DELTA_POS) + link_hyps(BU_GE)
              + [axiom("forall_mono", N=Mv_, P=xk - dI > dl, Q=dI <= Bu)], forall(Mv_, dI <= Bu), ["Bu"])
E_BELOW = _l7("tail_b_below", "ks:B.3 (120), right", "b's tail: e_j < b_{k+1} - delta",
              H_NM + [H114_b] + link_hyps(DELTA_POS) + [axiom("forall_mono", N=Mv_, P=yk - eI > dl, Q=eI <= yk)],
              forall(Mv_, eI <= yk))
HB, ZB = Pv + yk * exp(yk), Qv + exp(yk)
BBAR_DEF = Bbv.eq((HB + Mv_ * yk * exp(yk)) / (ZB + Mv_ * exp(yk)))   # boltz(bar b), bar b = (b, y, ..., y) (119)
BBAR_GAP = _l7("bbar_gap", "ks:B.3 (120), right (b_{k+1} <= boltz(bar b) - 1)",
               "boltz(bar b) - b_{k+1} = (P - y Q)/(Q + (n - k) e^y) with P - y Q >= (x - y) Q > delta Q, Q >= e^{a_1} and "
               "(n - k) e^y < n e^{a_1 - delta} < e^{a_1}: so boltz(bar b) >= b_{k+1} + 1",
               H_NM + DEF_PQ + [H115, H_DELTA, axiom("exp_pos", x=yk), axiom("exp_pos", x=A1 - dl)]
               + link_hyps(Z_POS, x=yk) + link_hyps(PREFIX_ABOVE) + link_hyps(Q_GE_A1) + link_hyps(LN_POS)
               + link_hyps(E_Y) + link_hyps(E_W) + link_hyps(E_DELTA) + [BBAR_DEF],
               yk <= Bbv - 1, ["Bbar"])
SUM_127 = _l7("sum_127", "ks:B.3 (127)",
              "xi_k + e^{b_{k+1} + log(n-k)} <= e^{a_1} + (k - 1) e^{a_1 - delta} + (n - k) e^{a_1 - delta} < e^{a_1} + "
              "n e^{a_1 - delta} < 2 e^{a_1} (e^delta > n)",
              H_NM + DEF_PQ + [axiom("exp_pos", x=A1 - dl)] + link_hyps(Q_LE) + link_hyps(E_Y1) + link_hyps(E_Y)
              + link_hyps(E_W) + link_hyps(E_DELTA),
              Qv + exp(Y1) < 2 * exp(A1))
Q1 = exp(Y1) / (Qv + exp(Y1))
# (122) over plain reals (E = e^y, E1 = e^{y + lam}): with the sums and every exponential atom in one query cvc5
# gave unknown after 220 s; linked with the terms it is about, the query is a literal hypothesis
Ev, E1v, lamv = var("E"), var("E1"), var("lam")
ob("lemma7.core_122", "ks:B.3 (122), over plain reals",
              "Bbar = (P + y E + M y E)/(Q + E + M E), E1 = (M + 1) E, Q + E > 0, Q + E1 > 0, M >= 0  =>  "
              "Bbar = (P + (y + lam) E1)/(Q + E1) - lam E1/(Q + E1)",
              claim(["P", "Q", "y", "lam", "E", "E1", "M", "Bbar"],
                    [Qv + Ev > 0, Qv + E1v > 0, Mv_ >= 0, E1v.eq((Mv_ + 1) * Ev),
                     Bbv.eq((Pv + yk * Ev + Mv_ * yk * Ev) / (Qv + Ev + Mv_ * Ev))],
                    Bbv.eq((Pv + (yk + lamv) * E1v) / (Qv + E1v) - lamv * (E1v / (Qv + E1v)))), ["smt"])
CORE_122 = obs[-1]
IDENT_122 = _l7("identity_122", "ks:B.3 (122)",
                "boltz(bar b) = boltz(a_1..a_k, b_{k+1} + log(n-k)) - log(n-k) e^{b_{k+1} + log(n-k)}/(xi_k + "
                "e^{b_{k+1} + log(n-k)}), with (n - k) e^{b_{k+1}} = e^{b_{k+1} + log(n-k)}",
                H_NM + DEF_PQ + link_hyps(Z_POS, x=yk) + link_hyps(Z_POS, x=Y1) + link_hyps(E_Y1) + [BBAR_DEF]
                + link_hyps(CORE_122, E=exp(yk), E1=exp(Y1), lam=LAM),
                Bbv.eq(Bof(Y1) - LAM * Q1), ["Bbar"])

# (124)-(128) over plain reals, then linked at the terms: boltz(b) - boltz(a) >= boltz(bar b) - boltz(underline a)
# (120) = B1 - lam q - Bx (122)-(123) > q [(x - y - lam)(delta + x - y - lam - log(k+1) - 1) - lam] (124) > 2 (log n)^2 q
# (125)-(126), and q = E1/(Q + E1) > E1/(2 e^{a_1}) >= e^y/(2 e^{a_1}) (127)-(128)
Ba_, Bb_, B1_, Bx_, q_, Lnv = var("Ba"), var("Bb"), var("B1"), var("Bx"), var("q"), var("Ln")
ob("lemma7.core_124_126", "ks:B.3 (120), (123)-(126), over plain reals",
              "Ba <= Bu, Bb >= Bbar (120), Bbar = B1 - lam q (122), Bu = Bx, B1 - Bx > (x - (y + lam))(delta + x - "
              "(y + lam) - ln - 1) q (124, Lemma 6), q > 0, x - y > delta > 2 Ln + 3, 0 <= lam <= Ln, 0 <= ln <= Ln, "
              "Ln > 0  =>  Bb - Ba > 2 Ln^2 q",
              claim(["Ba", "Bu", "Bb", "Bbar", "B1", "Bx", "q", "x", "y", "lam", "ln", "Ln", "delta"],
                    [Ba_ <= Bu, Bb_ >= Bbv, Bbv.eq(B1_ - lamv * q_), Bu.eq(Bx_),
                     B1_ - Bx_ > (xk - (yk + lamv)) * (dl + xk - (yk + lamv) - ln - 1) * q_, q_ > 0, H115,
                     dl > 2 * Lnv + 3, lamv >= 0, lamv <= Lnv, ln >= 0, ln <= Lnv, Lnv > 0],
                    Bb_ - Ba_ > 2 * Lnv ** 2 * q_), ["smt"])
CORE_126 = obs[-1]
Av, Gv_, Eyv = var("A"), var("G"), var("Ey")
ob("lemma7.core_128", "ks:B.3 (127)-(128), (117), over plain reals",
              "Bb - Ba > 2 Ln^2 E1/(Q + E1), Q + E1 < 2 A, Q + E1 > 0, E1 = (M + 1) Ey, G A = Ey, A > 0, Ey > 0, M >= 0, "
              "Ln > 0  =>  |Ba - Bb| > Ln^2 G",
              claim(["Ba", "Bb", "Ln", "Q", "E1", "Ey", "A", "G", "M"],
                    [Bb_ - Ba_ > 2 * Lnv ** 2 * (E1v / (Qv + E1v)), Qv + E1v > 0, Qv + E1v < 2 * Av,
                     E1v.eq((Mv_ + 1) * Eyv), (Gv_ * Av).eq(Eyv), Av > 0, Eyv > 0, Mv_ >= 0, Lnv > 0],
                    abs_(Ba_ - Bb_) > Lnv ** 2 * Gv_), ["smt"])
CORE_128 = obs[-1]

# the root: (117) for every n >= 2 and every k >= 1
PD_, QD_ = bsum(Mv_, dI * exp(dI)), bsum(Mv_, exp(dI))
PE_, QE_ = bsum(Mv_, eI * exp(eI)), bsum(Mv_, exp(eI))
BOLTZ_A = ((Pv + xk * exp(xk)) + PD_) / ((Qv + exp(xk)) + QD_)
BOLTZ_B = ((Pv + yk * exp(yk)) + PE_) / ((Qv + exp(yk)) + QE_)
L7_K1 = _l7(
    "conclusion_117.k_ge_1", "ks:B.3 Lemma 7 (117), case k >= 1 ((118)-(128)), every n",
    "|boltz(a) - boltz(b)| > (log n)^2 e^{-(a_1 - b_{k+1})} for a = (b_1..b_k, x, d_1..d_M), b = (b_1..b_k, y, "
    "e_1..e_M), n = k + 1 + M, k >= 1, M >= 0, under (114)-(116) and delta > 2 log n + 3",
    H_NM + DEF_PQ + [H114_first, H114_prefix, H114_a, H114_b, H115, H_DELTA]
    + _nonneg(Mv_, dI) + _nonneg(Mv_, eI)    # the denominators of boltz(a), boltz(b) are positive
    + link_plain(LN_POS) + link_plain(LN_GE0) + link_plain(LN_LE) + link_plain(LAM_GE0) + link_plain(LAM_LE)
    + link_plain(DELTA_POS) + link_plain(DELTA_LN) + link_plain(X_GT) + link_plain(FIRST_SEP) + link_plain(MAX_SEP)
    + link_plain(Z_POS, x=xk) + link_plain(Z_POS, x=yk) + link_plain(Z_POS, x=Y1) + link_plain(P_POS, x=Y1)
    + link_plain(PREFIX_ABOVE) + link_plain(PREFIX_SPLIT) + link_plain(Q_GE_A1) + link_plain(Q_LE)
    + link_plain(E_W) + link_plain(E_DELTA) + link_plain(E_Y) + link_plain(E_Y1) + link_plain(E_G)
    + link_plain(BU_GE) + link_plain(D_BELOW) + link_plain(E_BELOW) + link_plain(BBAR_GAP) + link_plain(SUM_127)
    + link_plain(IDENT_122)
    + link_plain(TAIL_DROP, t=seq("d"), H=Pv + xk * exp(xk), Z=Qv + exp(xk), Bh=Bu)
    + link_plain(TAIL_RAISE, t=seq("e"), H=HB, Z=ZB, t0=yk, Bbar=Bbv)
    + link_plain(LEMMA6, an=xk, bn=Y1) + [axiom("exp_pos", x=A1), axiom("exp_pos", x=yk)]
    + link_plain(CORE_126, Ba=BOLTZ_A, Bb=BOLTZ_B, B1=Bof(Y1), Bx=Bof(xk), q=Q1, lam=LAM, Ln=LN)
    + link_plain(CORE_128, Ba=BOLTZ_A, Bb=BOLTZ_B, Ln=LN, E1=exp(Y1), Ey=exp(yk), A=exp(A1), G=exp(-(A1 - yk))),
    abs_(BOLTZ_A - BOLTZ_B) > LN ** 2 * exp(-(A1 - yk)), ["l", "ln", "w", "Bu", "Bbar"])


# the case k = 0 ((129)-(131)): a = (x, d_1..d_M), b = (y, e_1..e_M), n = 1 + M (n = 1 included), a_1 = x,
# b_1 = y; boltz(b) <= b_1 (tail_drop: b's tail is below b_1), boltz(a) >= boltz(bar a), bar a = (a_1, a_1 -
# delta, ..., a_1 - delta) (129) (tail_raise: a's tail is below a_1 - delta <= boltz(bar a) - 1)
VL0 = [Var("M", "int"), Var("d", "seq"), Var("e", "seq"), "x", "y", "delta"]
LN0 = log(Mv_ + 1)
H_DELTA0 = dl > 2 * LN0 + 3
H0 = [Mv_ >= 0, H114_a, H114_b, H115, H_DELTA0]
By, Ba0 = var("By"), var("Ba0")
W0, X0 = exp(xk - dl), exp(xk)


def _k0(id_, ref, statement, hyps, goal, names=()):
    ob(f"lemma7.k0.{id_}", ref, statement, claim(VL0 + list(names), merge_hyps(hyps), goal), ["smt"])
    return obs[-1]


K0_LN = _k0("log_n_nonneg", "ks:B.3 (131)", "log n = log(M + 1) >= log 1 = 0",
            [Mv_ >= 0, axiom("log_le", x=num(1), y=Mv_ + 1), axiom("log_one")], LN0 >= 0)
K0_LN_LE = _k0("log_n_le", "ks:B.3 (131)", "log n <= n - 1 (the tangent line of log at 1)",
               [Mv_ >= 0, axiom("log_tangent", x=num(1), y=Mv_ + 1), axiom("log_one")], LN0 <= Mv_)
K0_DPOS = _k0("delta_pos", "ks:B.3 Lemma 7", "delta > 2 log n + 3 > 0", [H_DELTA0] + link_plain(K0_LN), dl > 0)
K0_EDELTA = _k0("exp_delta", "ks:B.3 (131)", "e^delta > e^{log n} = n",
                [Mv_ >= 0, H_DELTA0] + link_plain(K0_LN) + [axiom("exp_lt", x=LN0, y=dl), axiom("exp_log", x=Mv_ + 1)],
                exp(dl) > Mv_ + 1)
K0_EW = _k0("exp_w", "ks:B.3 (130)", "e^{a_1 - delta} e^delta = e^{a_1}",
            [axiom("exp_add", x=xk - dl, y=dl)] + same_exp((xk - dl) + dl, xk), (W0 * exp(dl)).eq(X0))
K0_EY = _k0("exp_y", "ks:B.3 (131)", "b_1 < a_1 - delta: e^{b_1} < e^{a_1 - delta}",
            [H115, axiom("exp_lt", x=yk, y=xk - dl)], exp(yk) < W0)
K0_EG = _k0("exp_gap", "ks:B.3 (131)", "e^{-(a_1 - b_1)} e^{a_1} = e^{b_1}",
            [axiom("exp_add", x=-(xk - yk), y=xk)] + same_exp(-(xk - yk) + xk, yk), (exp(-(xk - yk)) * X0).eq(exp(yk)))
BY_DEF = By.eq((yk * exp(yk)) / exp(yk))
K0_BY = _k0("by_eq_y", "ks:B.3 (131) (boltz of (b_1) alone)", "y e^y / e^y = y",
            [axiom("exp_pos", x=yk), BY_DEF], By.eq(yk), ["By"])
K0_E_BELOW = _k0("tail_b_below", "ks:B.3 (131) (boltz(b) <= b_1)", "b's tail: e_j < b_1 - delta < b_1",
                 H0 + link_plain(K0_DPOS) + [axiom("exp_pos", x=yk), BY_DEF] + link_plain(K0_BY)
                 + [axiom("forall_mono", N=Mv_, P=yk - eI > dl, Q=eI <= By)], forall(Mv_, eI <= By), ["By"])
K0_D_BELOW = _k0("tail_a_below", "ks:B.3 (129)", "a's tail: d_j < a_1 - delta",
                 H0 + [axiom("forall_mono", N=Mv_, P=xk - dI > dl, Q=dI <= xk - dl)], forall(Mv_, dI <= xk - dl))
BA0_DEF = Ba0.eq((xk * X0 + Mv_ * (xk - dl) * W0) / (X0 + Mv_ * W0))     # boltz(bar a) (129)-(130)
K0_GAP = _k0("bbar_gap", "ks:B.3 (130) (a_1 - delta <= boltz(bar a) - 1)",
             "boltz(bar a) - (a_1 - delta) = delta e^{a_1}/(e^{a_1} + (n-1) e^{a_1 - delta}) >= 1: e^{a_1} = e^{a_1 - "
             "delta} e^delta > n e^{a_1 - delta} and delta > 3",
             H0 + [axiom("exp_pos", x=xk), axiom("exp_pos", x=xk - dl)] + link_plain(K0_LN) + link_plain(K0_EW)
             + link_plain(K0_EDELTA) + [BA0_DEF], xk - dl <= Ba0 - 1, ["Ba0"])
Xv, Wv, Edv = var("X"), var("W"), var("Ed")
ob("lemma7.k0.core_131", "ks:B.3 (130)-(131), over plain reals",
               "Ba >= Ba0 (129), Bb <= By = y, Ba0 = (x X + M (x - delta) W)/(X + M W) (130), W Ed = X, Ed > M + 1, "
               "0 <= Ln <= M, delta > 2 Ln + 3, x - y > delta, X, W > 0  =>  Ba - Bb > Ln (131)",
               claim(["Ba", "Bb", "Ba0", "By", "x", "y", "delta", "X", "W", "Ed", "M", "Ln"],
                     [Ba_ >= Ba0, Bb_ <= By, By.eq(yk), Xv > 0, Wv > 0, Mv_ >= 0,
                      Ba0.eq((xk * Xv + Mv_ * (xk - dl) * Wv) / (Xv + Mv_ * Wv)), (Wv * Edv).eq(Xv), Edv > Mv_ + 1,
                      Lnv >= 0, Lnv <= Mv_, dl > 2 * Lnv + 3, H115],
                     Ba_ - Bb_ > Lnv), ["smt"])
K0_CORE_A = obs[-1]
ob("lemma7.k0.core_117", "ks:B.3 (131) last line, (117), over plain reals",
               "Ba - Bb > Ln >= 0, Ln <= M, G X = Ey < W, W Ed = X, Ed > M + 1, W, X > 0, G > 0  =>  |Ba - Bb| > "
               "Ln^2 G (Ln G < G Ed < 1)",
               claim(["Ba", "Bb", "Ln", "G", "X", "Ey", "W", "Ed", "M"],
                     [Ba_ - Bb_ > Lnv, Lnv >= 0, Lnv <= Mv_, (Gv_ * Xv).eq(Eyv), Eyv < Wv, (Wv * Edv).eq(Xv),
                      Edv > Mv_ + 1, Wv > 0, Xv > 0, Gv_ > 0],
                     abs_(Ba_ - Bb_) > Lnv ** 2 * Gv_), ["smt"])
K0_CORE_B = obs[-1]
BOLTZ_A0 = (xk * X0 + PD_) / (X0 + QD_)
BOLTZ_B0 = (yk * exp(yk) + PE_) / (exp(yk) + QE_)
L7_K0 = _k0(
    "conclusion_117", "ks:B.3 Lemma 7 (117), case k = 0 ((129)-(131)), every n",
    "|boltz(a) - boltz(b)| > (log n)^2 e^{-(a_1 - b_1)} for a = (x, d_1..d_M), b = (y, e_1..e_M), n = 1 + M >= 1, "
    "under (114)-(116) with k = 0 and delta > 2 log n + 3",
    H0 + _nonneg(Mv_, dI) + _nonneg(Mv_, eI)
    + [axiom("exp_pos", x=xk), axiom("exp_pos", x=yk), axiom("exp_pos", x=xk - dl), axiom("exp_pos", x=-(xk - yk))]
    + link_plain(K0_LN) + link_plain(K0_LN_LE) + link_plain(K0_DPOS) + link_plain(K0_EDELTA) + link_plain(K0_EW)
    + link_plain(K0_EY) + link_plain(K0_EG) + link_plain(K0_BY) + link_plain(K0_E_BELOW) + link_plain(K0_D_BELOW)
    + link_plain(K0_GAP)
    + link_plain(TAIL_DROP, t=seq("e"), H=yk * exp(yk), Z=exp(yk), Bh=By)
    + link_plain(TAIL_RAISE, t=seq("d"), H=xk * X0, Z=X0, t0=xk - dl, Bbar=Ba0)
    + link_plain(K0_CORE_A, Ba=BOLTZ_A0, Bb=BOLTZ_B0, X=X0, W=W0, Ed=exp(dl), Ln=LN0)
    + link_plain(K0_CORE_B, Ba=BOLTZ_A0, Bb=BOLTZ_B0, Ln=LN0, G=exp(-(xk - yk)), X=X0, Ey=exp(yk), W=W0, Ed=exp(dl)),
    abs_(BOLTZ_A0 - BOLTZ_B0) > LN0 ** 2 * exp(-(xk - yk)), ["By", "Ba0"])



# ----------------------------------------------------------------------------------------------------------
# Lemma 1 (16) for every n, for sorted vectors (B.3, (110)-(113)): a, b in R^n in decreasing order with
# i < j => a_i - a_j > delta and b_i - b_j > delta ((114) repaired, as the w.l.o.g. of the proof gives it: sorted,
# no duplicate element, tokenwise separated), a_i != b_j => |a_i - b_j| > delta (115), |a_i|, |b_i| < r, a != b
# and delta > 2 log n + 3 (14)  =>  |boltz(a) - boltz(b)| > (log n)^2 e^{-2r} (16). The proof reads the vectors
# in Lemma 7's blocks: k + 1 is the first index where they differ (exists_first_diff), d and e are the tails
# d_i = a_{i+k+1}, e_i = b_{i+k+1} (exists_seq_eq), X = a_{k+1}, Y = b_{k+1} (exists_eq); by cases on the
# order of X and Y (the case X < Y is the case X > Y with a and b exchanged) and on k = 0 or k >= 1, Lemma 7's
# root gives (112), and (113) follows from |a_1|, |b_{k+1}| < r. The sums over [1, n] are split at k + 1
# (sum_split). Each "for every i, j" hypothesis is stated once, for every i, for every j; forall_swap gives the
# other nesting where an instance at j comes first (the language instantiates the outer index first).
nV, rV, kV = var("n"), var("r"), var("k")
aS, bS, dS, eS = seq("a"), seq("b"), seq("d"), seq("e")
aI, bI_, dI1, eI1 = at(aS, IDX), at(bS, IDX), at(dS, IDX), at(eS, IDX)
XA, YB = var("X"), var("Y")
K1 = kV + 1
aK, bK = at(aS, K1), at(bS, K1)


def _split(s_):
    """sum_split at K := k for the two sums of boltz over the sequence s_: (sum_i s_i e^{s_i}, sum_i e^{s_i})."""
    si = at(s_, IDX)
    return [axiom("sum_split", N=nV, K=kV, f=si * exp(si)), axiom("sum_split", N=nV, K=kV, f=exp(si))]


_SPL = _split(aS)
MT = E(_SPL[0].expr[2][3][1])            # n - k - 1, as sum_split writes it
aT = at(aS, IDX + K1)                    # a_{i+k+1}, the tail's index as sum_split writes it
assert aT.node == _SPL[0].expr[2][3][2][1]
I1, J1 = idx(1), IDX                     # under two foralls: the outer index i, the inner j


def _boltz(s_, n_):
    si = at(s_, IDX)
    return bsum(n_, si * exp(si)) / bsum(n_, exp(si))


BA1, BB1 = _boltz(aS, nV), _boltz(bS, nV)
G16 = abs_(BA1 - BB1) > log(nV) ** 2 * exp(-(2 * rV))      # (16)
VL1 = [Var("n", "int"), Var("a", "seq"), Var("b", "seq"), "r", "delta"]
VW = [Var("k", "int"), Var("d", "seq"), Var("e", "seq"), "X", "Y"]      # the witnesses


def _sep(s_):
    """(114) repaired in both nestings: for every i, every j: j <= i or s_i - s_j > delta; and for every j, every i
    (the premise is the first; the top step derives the second by forall_swap)."""
    return (forall(nV, forall(nV, or_(J1 <= I1, at(s_, I1) - at(s_, J1) > dl))),
            forall(nV, forall(nV, or_(I1 <= J1, at(s_, J1) - at(s_, I1) > dl))))


SA1, SA2 = _sep(aS)
SB1, SB2 = _sep(bS)
HX = forall(nV, forall(nV, or_(at(aS, I1).eq(at(bS, J1)), abs_(at(aS, I1) - at(bS, J1)) > dl)))      # (115)
HRA, HRB = forall(nV, abs_(aI) < rV), forall(nV, abs_(bI_) < rV)
HNE = not_(forall(nV, aI.eq(bI_)))                                   # a != b
HD1 = dl > 2 * log(nV) + 3                                           # (14)
H_L1 = [nV >= 1, HRA, HRB, SA1, SB1, HX, HNE, HD1]


def _other_nesting(s_):
    """(114) in the other nesting (for every j, for every i), from the premise (for every i, for every j) by
    forall_swap."""
    one, other = _sep(s_)
    return [axiom("forall_swap", N=nV, M=nV, P=E(one.node[2][2])), axiom("follows", P=other)]


def _follows(e):
    return axiom("follows", P=e)


def _block_facts(a_, b_, d_, e_, x_, y_):
    """What the case 'a_{k+1} > b_{k+1}' rests on, in Lemma 7's blocks (x_ = a_{k+1}, d_ the tail of a_)."""
    ai, ak = at(a_, IDX), at(a_, K1)
    return [nV >= 1, kV >= 0, K1 <= nV, forall(kV, ai.eq(at(b_, IDX))), x_.eq(ak), y_.eq(at(b_, K1)), x_.ne(y_),
            or_(x_.eq(y_), abs_(x_ - y_) > dl), forall(kV - 1, at(a_, IDX + 1) < at(a_, num(1)) - dl),
            forall(kV, ai - x_ > dl), forall(MT, at(d_, IDX).eq(at(a_, IDX + K1))),
            forall(MT, at(e_, IDX).eq(at(b_, IDX + K1))), forall(MT, x_ - at(d_, IDX) > dl),
            forall(MT, y_ - at(e_, IDX) > dl), abs_(at(a_, num(1))) < rV, abs_(x_) < rV, abs_(y_) < rV, HD1]


BF = _block_facts(aS, bS, dS, eS, XA, YB)
BF_SWAP = _block_facts(bS, aS, eS, dS, YB, XA)


def _l1(id_, ref, statement, hyps, goal, names=()):
    ob(f"lemma1.{id_}", ref, statement, claim(VL1 + list(names), merge_hyps(hyps), goal), ["smt"])
    return obs[-1]


# sums of the boltz terms equal when the sequences agree termwise (s_i = t(i) on [1, M], t(i) a body)
Mq, Kq = var("M"), var("K")
sq_, tq_ = seq("s"), seq("t")


def _eq_sums(id_, ref, tbody, names):
    si = at(sq_, IDX)
    es, et = exp(si), exp(tbody)
    ok = si.eq(tbody)
    hyps = [forall(Mq, ok),
            axiom("forall_mono", N=Mq, P=ok, Q=si <= tbody), axiom("forall_mono", N=Mq, P=ok, Q=tbody <= si),
            axiom_at_each("exp_le", Mq, x=si, y=tbody), axiom_at_each("exp_le", Mq, x=tbody, y=si),
            axiom("forall_and", N=Mq, P=ok, Q=es <= et), axiom("forall_and", N=Mq, P=and_(ok, es <= et), Q=et <= es)]
    both = and_(and_(ok, es <= et), et <= es)
    for f_, g_ in ((si * es, tbody * et), (tbody * et, si * es), (es, et), (et, es)):
        hyps += [axiom("forall_mono", N=Mq, P=both, Q=f_ <= g_), axiom("sum_mono", N=Mq, f=f_, g=g_)]
    ob(f"lemma1.{id_}", ref, "s_i = t_i for every i <= M  =>  sum_i s_i e^{s_i} = sum_i t_i e^{t_i} and "
       "sum_i e^{s_i} = sum_i e^{t_i} (termwise; exp_le both ways at each index)",
       claim(names, hyps, and_(bsum(Mq, si * es).eq(bsum(Mq, tbody * et)), bsum(Mq, es).eq(bsum(Mq, et)))), ["smt"])
    return obs[-1]


EQ_TAIL = _eq_sums("tail_sums", "ks:B.3 (111) (the tails after a_{k+1})", at(tq_, IDX + Kq),
                   [Var("M"), Var("K"), Var("s", "seq"), Var("t", "seq")])
EQ_PREFIX = _eq_sums("prefix_sums", "ks:B.3 (111) (the shared prefix a_1..a_k = b_1..b_k)", at(tq_, IDX),
                     [Var("M"), Var("s", "seq"), Var("t", "seq")])
_sI = at(sq_, IDX)
ob("lemma1.empty_sums", "ks:B.3 (111) (k = 0: no shared prefix)",
   "M <= 0  =>  sum_{i<=M} s_i e^{s_i} = 0 and sum_{i<=M} e^{s_i} = 0 (the empty sums)",
   claim([Var("M"), Var("s", "seq")],
         [Mq <= 0, axiom("forall_intro", N=Mq, P=_sI * exp(_sI) <= 0), axiom("forall_intro", N=Mq, P=num(0) <= _sI * exp(_sI)),
          axiom("forall_intro", N=Mq, P=exp(_sI) <= 0), axiom("forall_intro", N=Mq, P=num(0) <= exp(_sI)),
          axiom("sum_mono", N=Mq, f=_sI * exp(_sI), g=num(0)), axiom("sum_mono", N=Mq, f=num(0), g=_sI * exp(_sI)),
          axiom("sum_mono", N=Mq, f=exp(_sI), g=num(0)), axiom("sum_mono", N=Mq, f=num(0), g=exp(_sI)),
          axiom("sum_zero", N=Mq)],
         and_(bsum(Mq, _sI * exp(_sI)).eq(0), bsum(Mq, exp(_sI)).eq(0))), ["smt"])
EMPTY = obs[-1]

# (113) over plain reals: the sums are the blocks, |U1/U2 - V1/V2| > L1^2 G (Lemma 7), L1 = L0, G >= G2
A1q, A2q, B1q, B2q, U1q, U2q, V1q, V2q, L0q, L1q, Gq, G2q = (
    var(s_) for s_ in ("A1", "A2", "B1", "B2", "U1", "U2", "V1", "V2", "L0", "L1", "G", "G2"))
ob("lemma1.core_113", "ks:B.3 (112)-(113), over plain reals",
   "A1 = U1, A2 = U2 > 0, B1 = V1, B2 = V2 > 0, |U1/U2 - V1/V2| > L1^2 G (112), L1 = L0, G >= G2  =>  "
   "|A1/A2 - B1/B2| > L0^2 G2 (113)",
   claim(["A1", "A2", "B1", "B2", "U1", "U2", "V1", "V2", "L0", "L1", "G", "G2"],
         [A1q.eq(U1q), A2q.eq(U2q), B1q.eq(V1q), B2q.eq(V2q), U2q > 0, V2q > 0,
          abs_(U1q / U2q - V1q / V2q) > L1q ** 2 * Gq, L1q.eq(L0q), Gq >= G2q],
         abs_(A1q / A2q - B1q / B2q) > L0q ** 2 * G2q), ["smt"])
CORE_113 = obs[-1]


def _same_log(u, v):
    return [axiom("log_le", x=u, y=v), axiom("log_le", x=v, y=u)]


def _sums_facts(k_ge_1):
    """The splits of the four sums at k + 1, the tails and the prefix (or the empty prefix) as Lemma 7's blocks."""
    out = _split(aS) + _split(bS)
    out += link_shown(EQ_TAIL, M=MT, K=K1, s=dS, t=aS) + link_shown(EQ_TAIL, M=MT, K=K1, s=eS, t=bS)
    if k_ge_1:
        out += link_shown(EQ_PREFIX, M=kV, s=aS, t=bS)
    else:
        out += [_follows(kV <= 0)] + link_shown(EMPTY, M=kV, s=aS) + link_shown(EMPTY, M=kV, s=bS)
    out += same_exp(XA, aK) + same_exp(YB, bK)
    out += [axiom("exp_pos", x=XA), axiom("exp_pos", x=YB)] + _nonneg(MT, dI1) + _nonneg(MT, eI1)
    return out


CASE_GT = [XA - YB >= 0]
L7_NAMES, K0_NAMES = ["ln", "l", "w", "Bu", "Bbar"], ["By", "Ba0"]
PA, QA = bsum(kV, aI * exp(aI)), bsum(kV, exp(aI))
PD1, QD1 = bsum(MT, dI1 * exp(dI1)), bsum(MT, exp(dI1))
PE1, QE1 = bsum(MT, eI1 * exp(eI1)), bsum(MT, exp(eI1))
GT1 = _l1(
    "gt.k_ge_1", "ks:B.3 (111)-(113), case k >= 1 and a_{k+1} > b_{k+1}",
    "k >= 1 shared coordinates, X = a_{k+1} > Y = b_{k+1}: Lemma 7 (k >= 1) at the blocks (a_1..a_k, X, d), "
    "(a_1..a_k, Y, e) gives (112); (113) from |a_1|, |Y| < r",
    [2 * kV - 1 >= 0] + CASE_GT + BF
    + [_follows(kV >= 1), _follows(MT >= 0), _follows(XA - YB > dl)]
    + _same_log((kV + 1) + MT, nV)
    + _nonneg(kV, aI) + _sums_facts(True)
    + definitions_as_witnesses(L7_K1, L7_NAMES, N=kV, M=MT, b=aS, d=dS, e=eS, x=XA, y=YB, P=PA, Q=QA)
    + link_shown(L7_K1, N=kV, M=MT, b=aS, d=dS, e=eS, x=XA, y=YB, P=PA, Q=QA)
    + [axiom("exp_le", x=-(2 * rV), y=-(at(aS, num(1)) - YB))]
    + link_shown(CORE_113, A1=bsum(nV, aI * exp(aI)), A2=bsum(nV, exp(aI)), B1=bsum(nV, bI_ * exp(bI_)),
              B2=bsum(nV, exp(bI_)), U1=(PA + XA * exp(XA)) + PD1, U2=(QA + exp(XA)) + QD1,
              V1=(PA + YB * exp(YB)) + PE1, V2=(QA + exp(YB)) + QE1, L0=log(nV), L1=log((kV + 1) + MT),
              G=exp(-(at(aS, num(1)) - YB)), G2=exp(-(2 * rV))),
    G16, VW + L7_NAMES)
GT0 = _l1(
    "gt.k0", "ks:B.3 (111)-(113), case k = 0 and a_1 > b_1",
    "no shared coordinate, X = a_1 > Y = b_1: Lemma 7 (k = 0) at (X, d), (Y, e) gives (112); (113) from "
    "|X|, |Y| < r",
    [2 * kV - 1 <= 0] + CASE_GT + BF
    + [_follows(MT >= 0), _follows(XA - YB > dl)]
    + _same_log(MT + 1, nV) + _sums_facts(False)
    + definitions_as_witnesses(L7_K0, K0_NAMES, M=MT, d=dS, e=eS, x=XA, y=YB)
    + link_shown(L7_K0, M=MT, d=dS, e=eS, x=XA, y=YB)
    + [axiom("exp_le", x=-(2 * rV), y=-(XA - YB))]
    + link_shown(CORE_113, A1=bsum(nV, aI * exp(aI)), A2=bsum(nV, exp(aI)), B1=bsum(nV, bI_ * exp(bI_)),
              B2=bsum(nV, exp(bI_)), U1=XA * exp(XA) + PD1, U2=exp(XA) + QD1, V1=YB * exp(YB) + PE1,
              V2=exp(YB) + QE1, L0=log(nV), L1=log(MT + 1), G=exp(-(XA - YB)), G2=exp(-(2 * rV))),
    G16, VW + K0_NAMES)

def _pos_sum(s_):
    """sum_{i<=n} e^{s_i} >= e^{s_1} > 0 (n >= 1): the denominators of boltz are defined."""
    e_ = exp(at(s_, IDX))
    return [axiom("forall_intro", N=nV, P=num(0) <= e_), axiom("sum_ge_term", N=nV, f=e_),
            axiom("forall_elim", N=nV, P=e_ <= bsum(nV, e_), j=num(1)), axiom("exp_pos", x=at(s_, num(1)))]


POS_SUMS = _pos_sum(aS) + _pos_sum(bS)
GT = _l1("gt", "ks:B.3 (111)-(113), case a_{k+1} > b_{k+1}",
         "X = a_{k+1} > Y = b_{k+1}: by cases on k >= 1 (gt.k_ge_1) or k = 0 (gt.k0)",
         CASE_GT + BF + POS_SUMS + [cases_hyp(GT1, GT0)], G16, VW)
LT = _l1("lt", "ks:B.3 (111)-(113), case a_{k+1} < b_{k+1}",
         "X = a_{k+1} < Y = b_{k+1}: the case gt with a and b exchanged (|boltz(a) - boltz(b)| is symmetric)",
         [XA - YB <= 0] + BF_SWAP + POS_SUMS + [_follows(YB - XA >= 0)]
         + link_shown(GT, a=bS, b=aS, d=eS, e=dS, X=YB, Y=XA), G16, VW)


def _outer(h):
    """The body of a forall over the outer index (a formula with a free ["idx", 1] inside its own forall)."""
    return E(h.node[2])


def _derive_prefix_first(s_):
    """forall_{i<=k-1} s_{i+1} < s_1 - delta, from (114) at i = 1 (forall_elim, forall_shift, forall_mono)."""
    s1, sep = at(s_, num(1)), _sep(s_)[0]
    p1 = or_(IDX <= 1, s1 - at(s_, IDX) > dl)
    p2 = or_(IDX + 1 <= 1, s1 - at(s_, IDX + 1) > dl)
    return [axiom("forall_elim", N=nV, P=_outer(sep), j=num(1)),
            axiom("forall_shift", N=nV, K=num(1), L=kV - 1, P=p1),
            axiom("forall_mono", N=kV - 1, P=p2, Q=at(s_, IDX + 1) < s1 - dl),
            _follows(forall(kV - 1, at(s_, IDX + 1) < s1 - dl))]


def _derive_prefix_above(s_, x_):
    """forall_{i<=k} s_i - x_ > delta (x_ = s_{k+1}), from (114) at j = k + 1 (the other nesting)."""
    sep, sk = _sep(s_)[1], at(s_, K1)
    p1 = or_(K1 <= IDX, at(s_, IDX) - sk > dl)
    return [axiom("forall_elim", N=nV, P=_outer(sep), j=K1), axiom("forall_restrict", N=nV, L=kV, P=p1),
            axiom("forall_mono", N=kV, P=p1, Q=at(s_, IDX) - x_ > dl), _follows(forall(kV, at(s_, IDX) - x_ > dl))]


def _derive_tail_below(s_, t_, x_):
    """forall_{i<=n-k-1} x_ - t_i > delta (x_ = s_{k+1}, t_i = s_{i+k+1}), from (114) at i = k + 1."""
    sep, sk = _sep(s_)[0], at(s_, K1)
    p1 = or_(IDX <= K1, sk - at(s_, IDX) > dl)
    p2 = or_(IDX + K1 <= K1, sk - at(s_, IDX + K1) > dl)
    tdef = at(t_, IDX).eq(at(s_, IDX + K1))
    return [axiom("forall_elim", N=nV, P=_outer(sep), j=K1), axiom("forall_shift", N=nV, K=K1, L=MT, P=p1),
            axiom("forall_and", N=MT, P=p2, Q=tdef),
            axiom("forall_mono", N=MT, P=and_(p2, tdef), Q=x_ - at(t_, IDX) > dl),
            _follows(forall(MT, x_ - at(t_, IDX) > dl))]


def _derive_bounds(s_, x_):
    si = at(s_, IDX)
    return [axiom("forall_elim", N=nV, P=abs_(si) < rV, j=num(1)), axiom("forall_elim", N=nV, P=abs_(si) < rV, j=K1),
            _follows(abs_(at(s_, num(1))) < rV), _follows(abs_(x_) < rV)]


_cross = or_(aK.eq(at(bS, IDX)), abs_(aK - at(bS, IDX)) > dl)
SORTED_16 = _l1(
    "sorted_16", "ks:B.3 Lemma 1 (16), proof (110)-(113), sorted vectors, every n",
    "|boltz(a) - boltz(b)| > (log n)^2 e^{-2r} (16) for a != b in R^n (n >= 1) in decreasing order with i < j => "
    "a_i - a_j > delta, b_i - b_j > delta ((114) repaired), a_i != b_j => |a_i - b_j| > delta (115), |a_i|, |b_i| "
    "< r and delta > 2 log n + 3 (14): the first index k + 1 where a and b differ, the tails after it, and Lemma 7 "
    "(both cases of k) for (a, b) or (b, a)",
    H_L1 + _other_nesting(aS) + _other_nesting(bS)
    + [axiom("exists_first_diff", k=kV, N=nV, f=aI, g=bI_),
       _follows(kV >= 0), _follows(K1 <= nV), _follows(forall(kV, aI.eq(bI_))), _follows(aK.ne(bK)),
       axiom("exists_seq_eq", s=dS, N=MT, F=aT), axiom("exists_seq_eq", s=eS, N=MT, F=at(bS, IDX + K1)),
       axiom("exists_eq", y=XA, x=aK), axiom("exists_eq", y=YB, x=bK),
       _follows(XA.ne(YB)), _follows(YB.ne(XA)),
       axiom("forall_mono", N=kV, P=aI.eq(bI_), Q=bI_.eq(aI)), _follows(forall(kV, bI_.eq(aI))),
       axiom("forall_elim", N=nV, P=_outer(HX), j=K1), axiom("forall_elim", N=nV, P=_cross, j=K1),
       _follows(or_(XA.eq(YB), abs_(XA - YB) > dl)), _follows(or_(YB.eq(XA), abs_(YB - XA) > dl))]
    + _derive_prefix_first(aS) + _derive_prefix_first(bS)
    + _derive_prefix_above(aS, XA) + _derive_prefix_above(bS, YB)
    + _derive_tail_below(aS, dS, XA) + _derive_tail_below(bS, eS, YB)
    + _derive_bounds(aS, XA) + _derive_bounds(bS, YB) + POS_SUMS
    + [cases_hyp(GT, LT)],
    G16, VW)


# (15) for every n: boltz(a) is a weighted average of the a_i, so |boltz(a)| <= r when every |a_i| < r (110)
_ea = exp(aI)
CONCL_15 = _l1(
    "conclusion_15", "ks:3.4 Lemma 1 (15), B.3 (110), every n",
    "|a_i| < r for every i <= n (n >= 1)  =>  |boltz(a)| <= r: -r e^{a_i} <= a_i e^{a_i} <= r e^{a_i} at each i, "
    "summed (a weighted average of the a_i)",
    [nV >= 1, HRA]
    + [axiom("forall_mono", N=nV, P=abs_(aI) < rV, Q=aI * _ea <= rV * _ea),
       axiom("forall_mono", N=nV, P=abs_(aI) < rV, Q=(-rV) * _ea <= aI * _ea),
       axiom("sum_mono", N=nV, f=aI * _ea, g=rV * _ea), axiom("sum_mono", N=nV, f=(-rV) * _ea, g=aI * _ea),
       axiom("sum_scale", N=nV, c=rV, f=_ea), axiom("sum_scale", N=nV, c=-rV, f=_ea)] + _pos_sum(aS),
    abs_(BA1) <= rV)


FAMILY = family("ks_general", PAPER, "Boltzmann operator for every n: Lemmas 4-7 over indexed families (B.2-B.3)", obs,
                doc="docs/boltzmann.md")
