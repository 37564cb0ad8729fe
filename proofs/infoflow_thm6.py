"""InfoFlow (Yu, Jiang, Bao, Li 2026), Theorem 3 / Theorem 6: encoding and decoding cost (Appendix A.3).

Every displayed step of A.3: the counts (L831-896), Lemma 1 (L900-943), the replacement argument
(L945-1000), the case n >= T0 d (L1001) and the packing chain (L995-1012). The built objects (the
Heaviside construction with its tanh replacement, and the packing witness) are certified separately
(docs/theorem6.md). m = T0 d (L825); t = 2^L with L = ceil(log2(2m/eps)) (L831); q = ceil(mL/n) (L868).
Powers with real exponents are exp/log terms, b^a = exp(a log b) (b > 0); a named power is a
variable with its definition as a hypothesis, and what is used about exp/log comes from axiom instances
(attncert.core.axioms). Facts about vector norms, tanh bounds and Lipschitz maps stay ``fact:`` premises.
"""

from __future__ import annotations

from fractions import Fraction as F

from attncert.core.axioms import axiom
from attncert.core.claims import Finding, Hyp, Var, claim, fact, merge_hyps
from attncert.core.expr import IDX, abs_, and_, at, bmax, bsum, diff, exp, forall, implies, log, lpnorm, node_of, num, seq, var, vsub, vvar
from attncert.core.theorems import cases_hyp, link_hyps, mvt_hyp
from attncert.core.families import collector, family
from attncert.papers.infoflow.witness import tanh_tree

PAPER = "infoflow"
obs, ob = collector("infoflow.thm6", PAPER)



m, n, eps, t, u, q, L, M, s, E, delta = (var(x) for x in ("m", "n", "eps", "t", "u", "q", "L", "M", "s", "E", "delta"))
p = var("p")
# Powers with a non-integer exponent are exp/log terms: b^a := exp(a log b) for b > 0 (Rudin, (8.6) (45)),
# so 2^L = exp(L log 2). log2 y = log y / log 2. Everything about exp/log comes from axiom instances.
l2 = log(num(2))
LOG2_POS = [axiom("log_one"), axiom("log_lt", x=num(1), y=num(2))]     # log 2 > log 1 = 0
y2m = log(2 * m / eps)                                                  # log2(2m/eps) = y2m / log 2
pow2L = exp(L * l2)                                                     # 2^L
# L = ceil(log2(2m/eps)) (L831): L - 1 < log2(2m/eps) <= L (that L is an integer is never used)
L_CHOICE_HYPS = [m >= 1, eps > 0] + LOG2_POS + [
    L >= y2m / l2, L - 1 < y2m / l2,
    axiom("exp_log", x=2 * m / eps),                                    # e^{log(2m/eps)} = 2m/eps
    axiom("exp_le", x=y2m, y=L * l2),                                   # log(2m/eps) <= L log 2
    axiom("exp_add", x=y2m, y=l2), axiom("exp_log", x=num(2)),          # e^{log(2m/eps) + log 2} = 4m/eps
    axiom("exp_lt", x=L * l2, y=y2m + l2)]                              # L log 2 < log(2m/eps) + log 2
L_CHOICE_GOAL = and_(1 / pow2L <= eps / (2 * m), pow2L < 4 * m / eps)
ob("L_choice_831.pow2", "infoflow:A.3 (L831)",
   "with L = ceil(log2(2m/eps)), i.e. L - 1 < log2(2m/eps) <= L, and 2^L = exp(L log 2): 2^-L <= eps/(2m) and "
   "2^L < 4m/eps (that L is an integer is not used, so L is a real here)",
   claim(["m", "eps", "L"], L_CHOICE_HYPS, L_CHOICE_GOAL), ["smt"])
ob("L_choice_831", "infoflow:A.3 (L831)",
   "t = 2^L with L = ceil(log2(2m/eps)): 2^-L <= eps/(2m) and 2^L < 4m/eps",
   claim(["m", "eps", "t", "L"],
         [t.eq(pow2L)] + L_CHOICE_HYPS + [fact(L_CHOICE_GOAL, "infoflow.thm6.L_choice_831.pow2")],
         and_(1 / t <= eps / (2 * m), t < 4 * m / eps)), ["smt"])
ob("truncation_lp_839", "infoflow:A.3 (L839)",
   "||V - V^(L)||_p <= m^(1/p) eps/(2m) <= eps/2 for p >= 1 (u = m^(1/p) in [1, m])",
   claim(["m", "eps", "u", "p"],
         [m >= 1, eps > 0, p >= 1, u.eq(exp(log(m) / p)),                # u = m^(1/p)
          axiom("log_one"), axiom("log_le", x=num(1), y=m),              # log m >= 0
          axiom("exp_le", x=log(m) / p, y=log(m)), axiom("exp_log", x=m)],  # m^(1/p) <= e^{log m} = m
         u * eps / (2 * m) <= eps / 2), ["smt"])
two_q, two_L_mn = exp(q * log(num(2))), exp(m * L / n * log(num(2)))
# q = ceil(mL/n) (L868): q < mL/n + 1
TWO_Q_HYPS = [n >= 1, q < m * L / n + 1] + LOG2_POS + [
    axiom("exp_lt", x=q * l2, y=m * L / n * l2 + l2),                   # 2^q < 2^(mL/n + 1)
    axiom("exp_add", x=m * L / n * l2, y=l2), axiom("exp_log", x=num(2))]   # 2^(mL/n + 1) = 2 (2^L)^(m/n)
ob("two_q_892", "infoflow:A.3 (L892)", "2^q = 2^ceil(mL/n) <= 2 (2^L)^(m/n)",
   claim(["q", "m", "n", "L"], TWO_Q_HYPS, two_q <= 2 * two_L_mn), ["smt"])
lw = log(4 * m / eps)


def pow_mono_hyps(l_choice):
    """2^L < 4m/eps (from ``l_choice``, the goal of L_choice_831.pow2), then log / exp monotonicity."""
    return [n >= 1, m >= 1, eps > 0, l_choice,
            axiom("log_lt", x=pow2L, y=4 * m / eps), axiom("log_exp", x=L * l2),   # L log 2 < log(4m/eps)
            axiom("exp_lt", x=m * L / n * l2, y=m / n * lw)]                       # times m/n > 0, exp increasing


def uniq(hs):
    """The hypotheses in order, each once."""
    out, seen = [], set()
    for h in hs:
        key = (h.expr, h.by) if isinstance(h, Hyp) else (node_of(h), None)
        if key not in seen:
            seen.add(key)
            out.append(h)
    return out


ob("decoder_count_896.pow_mono", "infoflow:A.3 (L896)",
   "x -> x^(m/n) is increasing: 2^L < 4m/eps gives (2^L)^(m/n) = 2^(mL/n) < (4m/eps)^(m/n) (powers as exp(a log b))",
   claim(["n", "m", "eps", "L"], pow_mono_hyps(L_CHOICE_GOAL), two_L_mn < exp(m / n * lw)), ["smt"])
ob("decoder_count_896", "infoflow:A.3 (L896)",
   "decoder units n(2^q - 1) < 2 n (4m/eps)^(m/n), from 2^q <= 2 (2^L)^(m/n) and 2^L < 4m/eps",
   claim(["n", "Q", "P", "W", "q", "m", "eps", "L"],
         # each link after the hypotheses it carries (an axiom condition shown by SMT rests on every earlier one)
         uniq(L_CHOICE_HYPS + TWO_Q_HYPS + [fact(two_q <= 2 * two_L_mn, "infoflow.thm6.two_q_892")]
              + pow_mono_hyps(fact(L_CHOICE_GOAL, "infoflow.thm6.L_choice_831.pow2"))
              + [fact(two_L_mn < exp(m / n * lw), "infoflow.thm6.decoder_count_896.pow_mono")]
              # Q = 2^q, P = (2^L)^(m/n) = 2^(mL/n), W = (4m/eps)^(m/n)
              + [var("Q").eq(two_q), var("P").eq(two_L_mn), var("W").eq(exp(m / n * lw))]),
         n * (var("Q") - 1) < 2 * n * var("W")), ["smt"])
ob("total_count_exponent", "infoflow:A.3 (L896) vs Thm 6 bullet 1 (L808)",
   "encoder O(m 2^L) = O(1/eps) is dominated by the decoder O(eps^(-m/n)) when m > n: exponent -m/n <= -1",
   claim(["m", "n"], [n >= 1, m > n], -m / n <= -1), ["smt"])
# Lemma 1 (L900-943) with explicit R, for p = 2: the two tail terms are < delta^p / 3
R = var("R")
ob("lemma1_tail_927.p2", "infoflow:A.3 Lemma 1 (L927)",
   "with s = (1 - tanh R)/2 = 1/(1 + e^{2R}) and e^{4R} > 6M/delta^2: s^2 M + s^2 M < delta^2/3 (p = 2)",
   claim(["s", "E", "M", "delta", "R"],
         [M > 0, delta > 0, s.eq((1 - tanh_tree(R)) / 2), E.eq(exp(2 * R)),    # s = (1 - tanh R)/2, E = e^{2R}
          fact((1 - (1 + tanh_tree(R)) / 2).eq(1 / (1 + exp(2 * R))), "infoflow.thm6.lemma1_phi_right_927"),
          E * E * delta ** 2 > 6 * M],                                         # the choice e^{4R} > 6M/delta^2
         s ** 2 * M + s ** 2 * M < delta ** 2 / 3), ["smt"])
# ------------------------------------------------------------------ Lemma 1 (L900-943), every displayed step
x, B, C, R, eta, sR, sC, sp, dp, W, mu0, T1, T2, mid, atom = (
    var(v) for v in ("x", "B", "C", "R", "eta", "sR", "sC", "sp", "dp", "W", "mu0", "T1", "T2", "mid", "atom"))
ob("lemma1_phi_left_927", "infoflow:A.3 (L913, L927)",
   "left tail: phi(-R) = (1 + tanh(-R))/2 = 1/(1 + e^{2R}) = s(R), tanh(-R) = (e^{-2R} - 1)/(e^{-2R} + 1)",
   claim(["R"], [], ((1 + (exp(-(2 * R)) - 1) / (exp(-(2 * R)) + 1)) / 2).eq(1 / (1 + exp(2 * R)))), ["identity"])
ob("lemma1_phi_right_927", "infoflow:A.3 (L913, L927)",
   "right tail: 1 - phi(R) = 1 - (1 + tanh R)/2 = 1/(1 + e^{2R}) = s(R)",
   claim(["R"], [], (1 - (1 + tanh_tree(R)) / 2).eq(1 / (1 + exp(2 * R)))), ["identity"])
ob("lemma1_B_choice_930", "infoflow:A.3 Lemma 1 (L930)",
   "B = (R + C)/eta (R > 0, C >= 0, eta > 0) satisfies -B eta + C <= -R and B eta + C >= R",
   claim(["R", "C", "eta", "B"], [R > 0, C >= 0, eta > 0, B.eq((R + C) / eta)],
         and_(-B * eta + C <= -R, B * eta + C >= R)), ["smt"])
ob("lemma1_tails_930", "infoflow:A.3 Lemma 1 (L932)",
   "with B > 0, -B eta + C <= -R and B eta + C >= R: x <= -eta gives Bx + C <= -R, and x >= eta gives Bx + C >= R",
   claim(["B", "C", "R", "eta", "x"], [B > 0, eta > 0, -B * eta + C <= -R, B * eta + C >= R],
         and_(implies(x <= -eta, B * x + C <= -R), implies(x >= eta, B * x + C >= R))), ["smt"])


def s_of(v):
    """s(v) = 1 - phi(v) = 1/(1 + e^{2v}) (lemma1_phi_right_927)."""
    return 1 / (1 + exp(2 * v))


def s_pow(v):
    """s(v)^p = exp(p log s(v))."""
    return exp(p * log(s_of(v)))


def choice_hyps(v, mass, k, mass_pos):
    """p >= 1, ``mass_pos`` (M > 0, mu({0}) >= 0), delta^p = dp > 0, the choice e^{2vp} dp > k mass, and the axiom instances
    that give s(v)^p e^{2vp} <= 1: s(v) < e^{-2v}, so p log s(v) + 2vp <= 0."""
    return [p >= 1, mass_pos, dp > 0, exp(2 * v * p) * dp > k * mass,
            axiom("exp_neg", x=2 * v),                                   # e^{-2v} e^{2v} = 1
            axiom("log_lt", x=s_of(v), y=exp(-(2 * v))), axiom("log_exp", x=-(2 * v)),   # log s(v) < -2v
            axiom("exp_le", x=p * log(s_of(v)) + 2 * v * p, y=num(0)), axiom("exp_zero"),
            axiom("exp_add", x=p * log(s_of(v)), y=2 * v * p)]          # s(v)^p e^{2vp} <= e^0 = 1


R_CHOICE_HYPS, R_CHOICE_GOAL = choice_hyps(R, M, 6, M > 0), s_pow(R) * M + s_pow(R) * M < dp / 3
C_CHOICE_HYPS, C_CHOICE_GOAL = choice_hyps(C, mu0, 3, mu0 >= 0), s_pow(C) * mu0 < dp / 3
ob("lemma1_R_choice_927.exp", "infoflow:A.3 Lemma 1 (L927), any p",
   "s(R) = 1/(1 + e^{2R}) < e^{-2R}, so s(R)^p e^{2Rp} <= 1 (s^p = exp(p log s)); with e^{2Rp} delta^p > 6M: "
   "s(R)^p M + s(R)^p M < delta^p/3",
   claim(["R", "p", "M", "dp"], R_CHOICE_HYPS, R_CHOICE_GOAL), ["smt"])
ob("lemma1_C_choice_923.exp", "infoflow:A.3 Lemma 1 (L923), any p",
   "s(C) = 1/(1 + e^{2C}) < e^{-2C}, so s(C)^p e^{2Cp} <= 1; with e^{2Cp} delta^p > 3 mu({0}): s(C)^p mu({0}) < delta^p/3",
   claim(["C", "p", "mu0", "dp"], C_CHOICE_HYPS, C_CHOICE_GOAL), ["smt"])
ob("lemma1_R_choice_927", "infoflow:A.3 Lemma 1 (L927), any p",
   "s(R) < e^{-2R}; with W = e^{2Rp} > 6M/delta^p (R > ln(6M/delta^p)/(2p)): s^p M + s^p M < delta^p/3",
   claim(["sp", "M", "dp", "R", "p"],
         [sp.eq(s_pow(R))] + R_CHOICE_HYPS + [fact(R_CHOICE_GOAL, "infoflow.thm6.lemma1_R_choice_927.exp")],
         sp * M + sp * M < dp / 3), ["smt"])
ob("lemma1_C_choice_923", "infoflow:A.3 Lemma 1 (L923), any p",
   "|1 - phi(C)|^p mu({0}) < delta^p/3 once e^{2Cp} > 3 mu({0})/delta^p (1 - phi(C) = s(C) < e^{-2C})",
   claim(["sp", "mu0", "dp", "C", "p"],
         [sp.eq(s_pow(C))] + C_CHOICE_HYPS + [fact(C_CHOICE_GOAL, "infoflow.thm6.lemma1_C_choice_923.exp")],
         sp * mu0 < dp / 3), ["smt"])
ob("lemma1_sum_934", "infoflow:A.3 Lemma 1 (L934-941)",
   "the four terms of the displayed bound: T1 <= s^p M1, T2 <= s^p M2 (M1 + M2 <= M), 2 s^p M < delta^p/3, "
   "window < delta^p/3, atom < delta^p/3, so ||H - phi||^p < delta^p",
   claim(["T1", "T2", "sp", "M", "dp", "mid", "atom", "M1", "M2", "R", "C", "p", "mu0"],
         uniq([sp.eq(s_pow(R)), var("M1") >= 0, var("M2") >= 0, var("M1") + var("M2") <= M, T1 <= sp * var("M1"),
               T2 <= sp * var("M2")] + R_CHOICE_HYPS
              + [fact(R_CHOICE_GOAL, "infoflow.thm6.lemma1_R_choice_927.exp"), mid < dp / 3,
                 atom.eq(s_pow(C) * mu0)]                                # atom = |1 - phi(C)|^p mu({0}) = s(C)^p mu({0})
              + C_CHOICE_HYPS + [fact(C_CHOICE_GOAL, "infoflow.thm6.lemma1_C_choice_923.exp")]),
         T1 + T2 + mid + atom < dp), ["smt"])
LEMMA1_SUM = obs[-1]
# Lemma 1's conclusion (L943): ||H - phi||^p = I <= the four terms (the display's first line: the split of the
# integral over [a, -eta], [eta, b], (-eta, eta) minus {0} and {0} with the pointwise bounds on each piece, a plain
# premise: integrals are not in the language) < delta^p (lemma1_sum_934, linked), so ||H - phi|| = I^{1/p} < delta.
# I > 0: nu is not the zero measure (the pushforward of the input distribution) and 0 < phi < 1 while H is 0 or 1
Ip, Enorm, dlt = var("I"), var("E"), var("delta")
ob("lemma1_conclusion_943", "infoflow:A.3 Lemma 1 (L934-943)",
   "||H - phi||_{L_p(nu)}^p = I <= T1 + T2 + mid + atom (L934, the split of the integral) < delta^p "
   "(lemma1_sum_934), so ||H - phi||_{L_p(nu)} = I^{1/p} < delta (the p-th root is increasing)",
   claim(["E", "I", "delta"] + ["T1", "T2", "sp", "M", "dp", "mid", "atom", "M1", "M2", "R", "C", "p", "mu0"],
         merge_hyps(Ip > 0,                                              # nu != 0 and |H - phi| > 0 everywhere
                    Enorm.eq(exp(log(Ip) / p)),                         # E = ||H - phi||_{L_p(nu)} = I^{1/p}
                    dlt.eq(exp(log(dp) / p)),                           # delta = (delta^p)^{1/p}: dp = delta^p
                    Ip <= T1 + T2 + mid + atom,                         # L934, first line: the split of the integral
                    link_hyps(LEMMA1_SUM),
                    axiom("log_lt", x=Ip, y=dp),                        # I < delta^p, so log I < log delta^p
                    axiom("exp_lt", x=log(Ip) / p, y=log(dp) / p)),     # and the p-th roots in the same order
         Enorm < dlt), ["smt"])
LEMMA1_CONCLUSION = obs[-1]
ob("lemma1_p_range_900", "infoflow:A.3 Lemma 1 (L900) vs Thm 6 bullet 1 (L808)",
   "Lemma 1 at p = 1: with e^{2R} > 6M/delta, s(R) M + s(R) M < delta/3 (the proof never uses p > 1)",
   claim(["sp", "W", "M", "dp", "R"], [M > 0, dp > 0, sp.eq(s_of(R)), W.eq(exp(2 * R)),   # s(R)^1 = s(R), W = e^{2R}
                                        W * dp > 6 * M],                                   # the choice of R
         sp * M + sp * M < dp / 3), ["smt"],
   finding=Finding("statement-mismatch", "Lemma 1 assumes p > 1 (L900) but Theorem 6 bullet 1 is for every p >= 1 "
                   "(L808). Nothing in the proof uses p > 1; read p >= 1 (the p = 1 case is checked here and in "
                   "`construct thm6 --p 1`).", False))

# ------------------------------------------------------------------ the replacement argument (L945-1000)
LG, delta, ch, N0 = (var(v) for v in ("LG", "delta", "ch", "N0"))
# ch <= L_G E is a plain premise: G is L_G-Lipschitz in the unit's scalar output (L969-975: a tanh/affine network on a
# compact range), so pointwise |G(H(z), .) - G(phi(z), .)| <= L_G |H(z) - phi(z)|, and integrating against the input
# distribution (nu its pushforward under z) gives the bound in L_p. Functions and integrals are not in the language
# (docs/theorems.md, "Premises the language cannot state"); E < delta is Lemma 1's conclusion, linked
ob("replacement_unit_979", "infoflow:A.3 (L967-979)",
   "replacing one unit changes the output by ch <= L_G ||H - phi||_{L_p(nu)} (the premise: G is L_G-Lipschitz in the "
   "unit's output) < L_G delta (Lemma 1, infoflow.thm6.lemma1_conclusion_943) <= eps/(2 N0)",
   claim(["ch", "LG", "delta", "eps", "N0", "E"] + ["I", "T1", "T2", "sp", "M", "dp", "mid", "atom", "M1", "M2", "R", "C",
                                                  "p", "mu0"], [LG >= 0, N0 >= 1, eps > 0, delta > 0, E >= 0,
                                                  ch <= LG * E,   # G is L_G-Lipschitz in the unit's output, in L_p
                                                  LG * delta <= eps / (2 * N0)] + link_hyps(LEMMA1_CONCLUSION),
         ch <= eps / (2 * N0)), ["smt"],
   finding=Finding("implicit-convention", "The L_p norm of Theorem 6 needs a measure on X^{T0}, and L965 uses "
                   "'the input distribution' without fixing one. attncert takes V uniform on [0,1]^m and the "
                   "pointwise l_p norm of L839; the argument works for any finite measure, as Lemma 1 handles atoms.",
                   False))
ob("replacement_sum_985", "infoflow:A.3 (L985)", "sum_{r=1}^{N0} eps/(2 N0) = eps/2",
   claim(["N0", "eps"], [N0 >= 1], (N0 * (eps / (2 * N0))).eq(eps / 2)), ["identity"])
# the three maps of L993-1000 as elements of L^p (the vector V -> V, the Heaviside network F^ = f2^ o f1^ and the
# tanh network F = f2 o f1, as functions of V): lpnorm is their L^p norm (docs/axioms.md, "L^p norms")
Vf, Fh, Ft = vvar("V"), vvar("Fh"), vvar("F")
ob("triangle_1000", "infoflow:A.3 (L993-1000)",
   "||V - F||_p <= ||V - F^||_p + ||F^ - F||_p (Minkowski) with both terms <= eps/2 gives <= eps",
   claim(["eps", Var("V", "vec"), Var("Fh", "vec"), Var("F", "vec")],
         [lpnorm(vsub(Vf, Fh)) <= eps / 2, lpnorm(vsub(Fh, Ft)) <= eps / 2,
          axiom("lpnorm_triangle", x=Vf, y=Fh, z=Ft)], lpnorm(vsub(Vf, Ft)) <= eps), ["smt"])
# tanh y <= y and tanh y >= y - y^3/3 for y >= 0, by the monotonicity rule (docs/axioms.md): y - tanh y and
# tanh y - y + y^3/3 have the derivatives tanh(y)^2 >= 0 and y^2 - tanh(y)^2 >= 0 (the latter since
# 0 <= tanh y <= y), and both vanish at 0 (exp(2 * 0) = 1: exp_zero and exp_le both ways).
y_, Y_ = var("y"), var("Y")
TH = tanh_tree(y_)
ZERO2 = [axiom("exp_zero"), axiom("exp_le", x=2 * num(0), y=num(0)), axiom("exp_le", x=num(0), y=2 * num(0))]


def _ob(id_):
    return next(o for o in obs if o.id == f"infoflow.thm6.{id_}")


ob("tanh.d_gap_le", "infoflow:A.3 (L1001) (tanh y <= y)", "d/dy (y - tanh y) = tanh(y)^2",
   claim(["y"], [], diff(y_ - TH, y_).eq(TH * TH)), ["identity"])
ob("tanh.gap_le_increasing", "infoflow:A.3 (L1001) (tanh y <= y)", "0 < y < Y  =>  d/dy (y - tanh y) >= 0",
   claim(["y", "Y"], [y_ > 0, y_ < Y_] + link_hyps(_ob("tanh.d_gap_le")), diff(y_ - TH, y_) >= 0), ["smt"])
ob("tanh.le_id", "infoflow:A.3 (L1001)", "tanh Y <= Y for Y >= 0 (the mean value theorem on y - tanh y over (0, Y))",
   claim(["Y"], [Y_ >= 0] + ZERO2 + [mvt_hyp(_ob("tanh.gap_le_increasing"))], tanh_tree(Y_) <= Y_), ["smt"])
G3 = TH - y_ + y_ ** 3 / 3
ob("tanh.d_gap_ge", "infoflow:A.3 (L1001) (tanh y >= y - y^3/3)", "d/dy (tanh y - y + y^3/3) = y^2 - tanh(y)^2",
   claim(["y"], [], diff(G3, y_).eq(y_ * y_ - TH * TH)), ["identity"])
ob("tanh.gap_ge_increasing", "infoflow:A.3 (L1001) (tanh y >= y - y^3/3)",
   "0 <= y < Y  =>  d/dy (tanh y - y + y^3/3) = y^2 - tanh(y)^2 >= 0 (0 <= tanh y <= y)",
   claim(["y", "Y"], merge_hyps(y_ >= 0, y_ < Y_, link_hyps(_ob("tanh.d_gap_ge")), link_hyps(_ob("tanh.le_id"), Y=y_),
                                axiom("exp_zero"), axiom("exp_le", x=num(0), y=2 * y_)),
         diff(G3, y_) >= 0), ["smt"])
ob("tanh.ge_cubic", "infoflow:A.3 (L1001)",
   "tanh Y >= Y - Y^3/3 for Y >= 0 (the mean value theorem on tanh y - y + y^3/3 over (0, Y))",
   claim(["Y"], [Y_ >= 0] + ZERO2 + [mvt_hyp(_ob("tanh.gap_ge_increasing"))], tanh_tree(Y_) >= Y_ - Y_ ** 3 / 3),
   ["smt"])
# |tanh h - h| <= |h|^3/3 for every real h: by cases on the sign of h (docs/axioms.md, proof by cases), h >= 0
# from the two bounds above at Y = h, h <= 0 from them at Y = -h and tanh(-h) = -tanh(h)
h_ = var("h")
# exp(2(-h)) exp(2h) = exp(2(-h) + 2h) = exp(0) = 1 (exp_add; exp_le both ways, since the argument is 0)
S0 = 2 * (-h_) + 2 * h_
ob("tanh.odd", "infoflow:A.3 (tanh is odd)", "tanh(-h) = -tanh(h)",
   claim(["h"], [axiom("exp_add", x=2 * (-h_), y=2 * h_), axiom("exp_zero"), axiom("exp_le", x=S0, y=num(0)),
                 axiom("exp_le", x=num(0), y=S0)], tanh_tree(-h_).eq(-tanh_tree(h_))), ["smt"])
ob("fact.neg_nonneg", "infoflow:A.3 (h <= 0 gives -h >= 0)", "h <= 0  =>  -h >= 0", claim(["h"], [h_ <= 0], -h_ >= 0),
   ["smt"])
CUBIC = abs_(tanh_tree(h_) - h_) <= abs_(h_) ** 3 / 3
ob("tanh.cubic_pos", "infoflow:A.2-A.3 (tanh h = h + O(h^3))", "h >= 0  =>  |tanh h - h| <= |h|^3/3",
   claim(["h"], merge_hyps(h_ >= 0, link_hyps(_ob("tanh.le_id"), Y=h_), link_hyps(_ob("tanh.ge_cubic"), Y=h_)),
         CUBIC), ["smt"])
ob("tanh.cubic_neg", "infoflow:A.2-A.3 (tanh h = h + O(h^3))", "h <= 0  =>  |tanh h - h| <= |h|^3/3 (tanh is odd)",
   claim(["h"], merge_hyps(h_ <= 0, link_hyps(_ob("fact.neg_nonneg")), link_hyps(_ob("tanh.le_id"), Y=-h_)[1:],
                           link_hyps(_ob("tanh.ge_cubic"), Y=-h_)[1:], link_hyps(_ob("tanh.odd"))),
         CUBIC), ["smt"])
ob("tanh.cubic", "infoflow:A.2-A.3 (tanh h = h + O(h^3))", "|tanh h - h| <= |h|^3/3 for every real h (by cases on h)",
   claim(["h"], [cases_hyp(_ob("tanh.cubic_pos"), _ob("tanh.cubic_neg"))], CUBIC), ["smt"])
# tanh is 1-Lipschitz: for a <= b, tanh and y - tanh y are nondecreasing on (a, b) (derivatives 1 - tanh^2 and
# tanh^2), so 0 <= tanh b - tanh a <= b - a (the mean value theorem twice); the case b <= a is the same with
# a and b exchanged; by cases on the sign of b - a
a_, b_ = var("a"), var("b")
ob("tanh.d_tanh", "infoflow:A.2 (tanh is 1-Lipschitz)", "d/dy tanh y = 1 - tanh(y)^2",
   claim(["y"], [], diff(TH, y_).eq(1 - TH * TH)), ["identity"])
ob("tanh.increasing", "infoflow:A.2 (tanh is 1-Lipschitz)", "a < y < b  =>  d/dy tanh y = 1 - tanh(y)^2 >= 0",
   claim(["y", "a", "b"], merge_hyps(y_ > a_, y_ < b_, link_hyps(_ob("tanh.d_tanh"))), diff(TH, y_) >= 0), ["smt"])
ob("tanh.gap_increasing", "infoflow:A.2 (tanh is 1-Lipschitz)", "a < y < b  =>  d/dy (y - tanh y) = tanh(y)^2 >= 0",
   claim(["y", "a", "b"], merge_hyps(y_ > a_, y_ < b_, link_hyps(_ob("tanh.d_gap_le"))), diff(y_ - TH, y_) >= 0),
   ["smt"])
LIP = abs_(tanh_tree(a_) - tanh_tree(b_)) <= abs_(a_ - b_)
ob("tanh.lipschitz_pos", "infoflow:A.2 (tanh is 1-Lipschitz)", "b - a >= 0  =>  |tanh a - tanh b| <= |a - b|",
   claim(["a", "b"], [b_ - a_ >= 0, mvt_hyp(_ob("tanh.increasing")), mvt_hyp(_ob("tanh.gap_increasing"))], LIP), ["smt"])
ob("tanh.lipschitz_neg", "infoflow:A.2 (tanh is 1-Lipschitz)", "b - a <= 0  =>  |tanh a - tanh b| <= |a - b|",
   claim(["a", "b"], [b_ - a_ <= 0, mvt_hyp(_ob("tanh.increasing"), a=b_, b=a_),
                      mvt_hyp(_ob("tanh.gap_increasing"), a=b_, b=a_)], LIP), ["smt"])
ob("tanh.lipschitz", "infoflow:A.2 (L756)", "|tanh a - tanh b| <= |a - b| for all real a, b (by cases on b - a)",
   claim(["a", "b"], [cases_hyp(_ob("tanh.lipschitz_pos"), _ob("tanh.lipschitz_neg"))], LIP), ["smt"])
wx = var("w") * x
ob("identity_case_1001", "infoflow:A.3 (L1001)",
   "n >= T0 d: a tanh unit approximates the identity: |tanh(w x)/w - x| <= w^2/3 on x in [0,1], 0 < w <= 1",
   claim(["x", "w"], merge_hyps(x >= 0, x <= 1, var("w") > 0, var("w") <= 1, wx >= 0,
                                link_hyps(_ob("tanh.le_id"), Y=wx), link_hyps(_ob("tanh.ge_cubic"), Y=wx)),
         abs_(tanh_tree(wx) / var("w") - x) <= var("w") ** 2 / 3), ["smt"],
   finding=Finding("implicit-convention", "'exact representation with O(1) parameters' (L1001) needs a linear "
                   "(identity) path: a two-layer tanh network is bounded and analytic, so it cannot equal V -> (V, 0) "
                   "on [0,1]^m. With tanh only, x -> tanh(w x)/w has error <= w^2/3, so O(1) parameters still reach "
                   "any eps; the conclusion stands.", False))

# ------------------------------------------------------------------ the packing chain (L995-1012)
K, yK, cc = var("K"), var("yK"), var("cc")
ob("packing_grid_995", "infoflow:A.3 (L995) packing, grid",
   "grid {0, 4 eps, ..., 4 eps (K-1)}^m with K = floor(1/(4 eps)) + 1 > 1/(4 eps) >= 1 points per axis lies in [0,1]^m",
   claim([Var("K", "int"), "eps", "q"], [eps > 0, eps <= F(1, 4), K * 4 * eps > 1, (K - 1) * 4 * eps <= 1, q >= 0, q <= K - 1],
         and_(4 * eps * q >= 0, 4 * eps * q <= 1, K >= 2)), ["smt"])
for nn in (1, 2, 3):
    ob(f"packing_count_995.n{nn}", "infoflow:A.3 (L995) packing, count",
       f"cubes of side s = 2 K^(-m/n): per axis cc = ceil(yK/2) cubes, yK = K^(m/n) > 2, and cc^n < yK^n = K^m (n = {nn})",
       claim([Var("cc", "int"), "yK"], [yK > 2, cc >= 1, 2 * cc >= yK, 2 * cc < yK + 2],
             cc ** nn < yK ** nn), ["smt"])
lK, l4e = m / n * log(K), m / n * log(4 * eps)       # log K^(m/n), log (4 eps)^(m/n)
# the diameter of a cube of side s in R^n, over the n coordinates (docs/axioms.md, "Indexed families"): two
# points p, q of one cube differ by at most s in each coordinate; dist = ||p - q||_2 and rn = sqrt(n) by their
# definitions (dist >= 0, dist^2 = sum_l (p - q)(l)^2; rn >= 0, rn^2 = n)
Pc, Qc, sc, distv, rnv = at(seq("p"), IDX), at(seq("q"), IDX), var("s"), var("dist"), var("rn")
ob("cube_diameter_995", "infoflow:A.3 (L995) packing, the cube's diameter",
   "two points of one cube of side s in R^n are at 2-norm distance <= sqrt(n) s: each of the n squared coordinate "
   "differences is <= s^2",
   claim([Var("n", "int"), "s", "dist", "rn", Var("p", "seq"), Var("q", "seq")],
         [n >= 1, sc >= 0, rnv >= 0, (rnv * rnv).eq(n), distv >= 0, (distv * distv).eq(bsum(n, (Pc - Qc) * (Pc - Qc))),
          forall(n, abs_(Pc - Qc) <= sc),
          axiom("forall_mono", N=n, P=abs_(Pc - Qc) <= sc, Q=(Pc - Qc) * (Pc - Qc) <= sc * sc),
          axiom("sum_mono", N=n, f=(Pc - Qc) * (Pc - Qc), g=sc * sc),
          axiom("sum_const", N=n, c=sc * sc)],
         distv * distv <= (rnv * sc) * (rnv * sc)), ["smt"])
CUBE_DIAM = obs[-1]
av_, bv_, cv_ = var("a"), var("b"), var("c")
ob("cube_diameter_995.root", "infoflow:A.3 (L995) packing, the cube's diameter (square roots)",
   "a, b, c >= 0 and a^2 <= (b c)^2 give a <= b c",
   claim(["a", "b", "c"], [av_ >= 0, bv_ >= 0, cv_ >= 0, av_ * av_ <= (bv_ * cv_) * (bv_ * cv_)], av_ <= bv_ * cv_),
   ["smt"])
SQ_ROOT = obs[-1]
PD_GOAL = var("dist") < 2 * var("rn") * var("z4")
ob("packing_distance_995.core", "infoflow:A.3 (L995) packing, constant",
   "two grid points in one cube, given ||f1(V1) - f1(V2)||_2 <= sqrt(n) s with s = 2 K^(-m/n): < 2 sqrt(n) "
   "(4 eps)^(m/n)",
   claim(["yK", "z4", "rn", "dist", "K", "eps", "m", "n", "s"],
         [m >= 1, n >= 1, eps > 0, K * (4 * eps) > 1,                      # K = floor(1/(4 eps)) + 1 > 1/(4 eps)
          yK.eq(exp(lK)), var("z4").eq(exp(l4e)), var("rn") >= 1,           # yK = K^(m/n), z4 = (4 eps)^(m/n)
          axiom("log_one"), axiom("log_lt", x=num(1), y=K * (4 * eps)), axiom("log_mul", x=K, y=4 * eps),
          axiom("exp_zero"), axiom("exp_lt", x=num(0), y=lK + l4e), axiom("exp_add", x=lK, y=l4e),  # yK z4 > 1
          sc.eq(2 / yK), var("dist") <= var("rn") * sc],                    # s = 2 K^(-m/n), the cube's side
         PD_GOAL), ["smt"])
ob("packing_distance_995", "infoflow:A.3 (L995) packing, constant",
   "two grid points in one cube: ||f1(V1) - f1(V2)||_2 <= sqrt(n) s = 2 sqrt(n) K^(-m/n) < 2 sqrt(n) (4 eps)^(m/n): "
   "C = 2 sqrt(n) 4^(m/n) (the diameter by cube_diameter_995, at s = 2/yK)",
   claim(["yK", "z4", "rn", "dist", "K", "eps", "m", Var("n", "int"), "s", Var("p", "seq"), Var("q", "seq")],
         merge_hyps(link_hyps(CUBE_DIAM), link_hyps(SQ_ROOT, a=distv, b=rnv, c=sc), link_hyps(obs[-1])), PD_GOAL),
   ["smt"])
# L997-1000 over the n coordinates (docs/axioms.md, "Indexed families"): sequences v1, v2 (the grid points V1,
# V2) and r1, r2 (their round trips f2(f1(V))); ||x||_inf = max_l |x(l)|, and g = ||r1 - r2||_2 is named by
# g >= 0, g^2 = sum_l (r1 - r2)(l)^2 (a definition). The triangle inequality is taken coordinate by coordinate.
V1s, V2s, R1s, R2s = (at(seq(s_), IDX) for s_ in ("v1", "v2", "r1", "r2"))
nc, gq = var("n"), var("g")
W_ = R1s - R2s
DV, E1, E2 = abs_(V1s - V2s), abs_(V1s - R1s), abs_(V2s - R2s)
M1, M2 = bmax(nc, E1), bmax(nc, E2)
SW = bsum(nc, W_ * W_)
ob("packing_separation_1004", "infoflow:A.3 (L997-1000)",
   "||V1 - V2||_inf >= 4 eps and round-trip errors ||V - f2(f1(V))||_inf <= eps give ||f2(f1(V1)) - f2(f1(V2))||_2 "
   ">= 2 eps: at each coordinate |V1 - V2| <= |V1 - r1| + |r1 - r2| + |r2 - V2|, and each |r1 - r2| <= the 2-norm",
   claim(["n", "eps", "g", Var("v1", "seq"), Var("v2", "seq"), Var("r1", "seq"), Var("r2", "seq")],
         [nc >= 1, eps > 0, bmax(nc, DV) >= 4 * eps, M1 <= eps, M2 <= eps, gq >= 0, (gq * gq).eq(SW),
          axiom("bmax_upper", N=nc, f=E1), axiom("bmax_upper", N=nc, f=E2),
          axiom("forall_and", N=nc, P=E1 <= M1, Q=E2 <= M2),
          axiom("forall_mono", N=nc, P=and_(E1 <= M1, E2 <= M2), Q=DV <= abs_(W_) + M1 + M2),
          axiom("forall_intro", N=nc, P=num(0) <= W_ * W_),
          axiom("sum_ge_term", N=nc, f=W_ * W_),
          axiom("forall_mono", N=nc, P=W_ * W_ <= SW, Q=abs_(W_) <= gq),
          axiom("forall_and", N=nc, P=DV <= abs_(W_) + M1 + M2, Q=abs_(W_) <= gq),
          axiom("forall_mono", N=nc, P=and_(DV <= abs_(W_) + M1 + M2, abs_(W_) <= gq), Q=DV <= gq + M1 + M2),
          axiom("bmax_least", N=nc, f=DV, c=gq + M1 + M2)],
         gq >= 2 * eps), ["smt"])
ob("packing_lemma4_1008", "infoflow:A.3 (L1008-1010)",
   "Lemma 4 of Yu et al. with A = C eps^(m/n), B = 2 eps: B/(A sqrt(n)) = (2/(C sqrt(n))) eps^(1 - m/n) (eps = e^le)",
   claim(["C", "le", "rn", "m", "n"], [C > 0, var("rn") > 0, n >= 1],
         ((2 * exp(var("le"))) / (C * exp(m / n * var("le")) * var("rn"))).eq(
             2 / (C * var("rn")) * exp(var("le") - m / n * var("le")))),
   ["identity"],
   finding=Finding("implicit-convention", "B names the weight-norm bound in Theorem 6 bullet 2 (L810) and 2 eps in L1008; "
                   "A names a Lemma 4 distance here and a tanh coefficient in Lemma 1. Harmless clashes.", False))
ob("packing_exponent_1010", "infoflow:A.3 (L1010)", "eps^(1 - m/n) = 1/eps^(m/n - 1)",
   claim(["eps", "m", "n"], [eps > 0, n >= 1], exp(log(eps) - m / n * log(eps)).eq(1 / exp(m / n * log(eps) - log(eps)))),
   ["identity"])

# ------------------------------------------------------------------ bullet 2 is vacuous (n = 1 by IVT)
g0, g1, av, bv, wv = (var(v) for v in ("g0", "g1", "av", "bv", "wv"))
ob("bullet2_antipodal_ivt_n1", "infoflow:Thm 6 bullet 2 (L810), n = 1",
   "on the boundary loop of a 2-face of [0,1]^m, g(s) = f1(gamma(s)) - f1(gamma(s + 1/2)) is odd under the half "
   "shift: g(1/2) = -g(0), so g(0) g(1/2) <= 0 and (IVT, f1 continuous) some antipodal V, V' = 1 - V on that "
   "face have f1(V) = f1(V') and ||V - V'||_inf = 1",
   claim(["g0", "g1"], [g1.eq(-g0)], g0 * g1 <= 0), ["smt"])
ob("bullet2_vacuous_n1", "infoflow:Thm 6 bullet 2 (L810), n = 1",
   "if f1(V) = f1(V') with |V_i - V'_i| = 1, one output w = f2(f1(V)) = f2(f1(V')) is within eps of both in "
   "coordinate i, so eps >= 1/2: the L_inf hypothesis fails for every eps < 1/2 when T0 d >= 2 > n = 1",
   claim(["av", "bv", "wv", "eps"], [abs_(av - bv).eq(1), abs_(av - wv) <= eps, abs_(bv - wv) <= eps],
         eps >= F(1, 2)), ["smt"])

# statements compared
ob("exponent_bullet2_vs_proof", "infoflow:Thm 6 bullet 2 (L810) vs A.3 (L1012)",
   "bullet 2's exponent min(1 - m/n, 0) is the proof's lower-bound exponent 1 - m/n when m > n (as 1 - m/n < 0)",
   claim(["m", "n"], [n >= 1, m > n], 1 - m / n < 0), ["smt"],
   finding=Finding("statement-mismatch", "Theorem 6 bullet 2 (L810) and informal Theorem 3 (L144) write O(eps^(1 - T0 d/n)) "
                   "for what the proof (L1004-1012) derives as a LOWER bound: read Omega.", False,
                   "Also: for continuous f1, f2 and T0 d > n the bullet-2 hypothesis (L-infinity error <= eps < 1/2) "
                   "cannot hold, so bullet 2 is vacuous as stated: machine-checked for n = 1 by the intermediate "
                   "value theorem (infoflow.thm6.bullet2_antipodal_ivt_n1, bullet2_vacuous_n1); for n >= 2 it is "
                   "Borsuk-Ulam (cited, not checked)."))
ob("exponent_informal_vs_upper", "infoflow:Thm 3 (L144) vs Thm 6 bullet 1 (L808)",
   "the informal exponent 1 - T0 d/n and the upper bound's -T0 d/n differ by exactly 1",
   claim(["m", "n"], [n >= 1], ((1 - m / n) - (-m / n)).eq(1)), ["identity"],
   finding=Finding("statement-mismatch", "Informal Theorem 3 states O(eps^(1 - T0 d/n)); the construction of Theorem 6 "
                   "gives O(eps^(-T0 d/n)) and the packing argument gives Omega(eps^(1 - T0 d/n)): the informal "
                   "statement mixes the lower bound's exponent with the upper bound's O.", False))

FAMILY = family("infoflow_thm6", PAPER, "Theorem 3 / 6: encoding and decoding cost (A.3), every step", obs,
                doc="docs/theorem6.md")
