"""InfoFlow (Yu, Jiang, Bao, Li 2026), Theorem 2 / Theorem 5: k-th largest retrieval (Appendix A.2).

Line numbers (L...) refer to ../shared/papers/infoflow-2605.17930.txt. Symbols: m = T - k + 1 (L587),
Delta = 4 eps, N = floor(1/(16 m eps)) (L613), alpha_j = (j-1)/(2m) (L617), G_j = {alpha_j + q Delta}
(L621), eta = 4 m N^{-m/(n+1)} (L641). Fractional powers y = N^{m/(n+1)} are named variables whose
defining facts are hypotheses (a power with a rational exponent is not an operator of the trees).
"""

from __future__ import annotations

from fractions import Fraction as F

from attncert.core.axioms import axiom
from attncert.core.claims import Finding, Obligation, Var, claim, fact
from attncert.core.expr import IDX, abs_, add, and_, at, bsum, exp, forall, log, num, or_, seq, var
from attncert.core.families import collector, family
from attncert.core.verdict import Verdict
from attncert.core.claims import merge_hyps
from attncert.core.theorems import each_hyps, link_hyps, link_plain
from attncert.papers.infoflow.witness import tanh_tree
from attncert_proofs.infoflow_thm6 import obs as _thm6_obs

TANH_LIP = next(o for o in _thm6_obs if o.id == "infoflow.thm6.tanh.lipschitz")

PAPER = "infoflow"
obs, ob = collector("infoflow.thm5", PAPER)



m, n, k, eps, N, j, q, qq, y, x = (var(s) for s in ("m", "n", "k", "eps", "N", "j", "q", "qq", "y", "x"))
range_ = [m >= 1, eps > 0, eps * 64 * m < 1]                          # L609
floorN = [N * 16 * m * eps <= 1, (N + 1) * 16 * m * eps > 1, N >= 1]   # N = floor(1/(16 m eps)), L613
R = ["m", "eps", "N"]

# -------------------------------------------------------------------------------------- grids (L617-625)
ob("grid_points_in_half", "infoflow:A.2 (L623) grids in [0,1/2]",
   "each G_j lies in (0, 1/2]: 0 < (j-1)/(2m) + 4 q eps < 1/2 for 1 <= j <= m, 1 <= q <= N (for every eps in range)",
   claim(R + ["j", "q"], range_ + floorN + [j >= 1, j <= m, q >= 1, q <= N],
         and_((j - 1) / (2 * m) + 4 * q * eps > 0, (j - 1) / (2 * m) + 4 * q * eps < F(1, 2))), ["smt"],
   finding=Finding("implicit-threshold", "No threshold is needed: the grids lie in (0, 1/2) for every eps in "
                   "(0, 1/(64m)) (indeed every eps <= 1/(16m)); 'for sufficiently small eps' (L623) can be dropped.",
                   False, "Recorded as a harmless over-qualification."))
ob("grids_strictly_ordered", "infoflow:A.2 (L623) grids ordered",
   "max G_j + Delta <= min G_{j+1}: (j-1)/(2m) + 4 N eps + 4 eps <= j/(2m) + 4 eps",
   claim(R + ["j"], range_ + floorN + [j >= 1, j < m],
         (j - 1) / (2 * m) + 4 * N * eps + 4 * eps <= j / (2 * m) + 4 * eps), ["smt"])
ob("grid_gap_at_least_delta", "infoflow:A.2 (L625) gaps >= Delta",
   "two different points of one grid differ by at least Delta = 4 eps (|q - q'| >= 1)",
   claim(R + ["q", "qq"], range_ + [or_(q - qq >= 1, qq - q >= 1)],
         abs_(4 * q * eps - 4 * qq * eps) >= 4 * eps), ["smt"])

# -------------------------------------------------------------------------------------- cube count (L641-647)
ob("cube_count_identity", "infoflow:A.2 (L643-645)",
   "with eta = 4 m N^{-m/(n+1)} and y = N^{m/(n+1)}: m/eta + 1 = y/4 + 1",
   claim(["m", "y"], [m >= 1, y > 0], (m / (4 * m / y) + 1).eq(y / 4 + 1)), ["identity"])
for nn in (1, 2, 3, 5):
    ob(f"cube_count_lt_Nm.n{nn}", "infoflow:A.2 (L647) 'for N large enough'",
       f"(y/4 + 1)^(n+1) < y^(n+1) = N^m whenever y = N^(m/(n+1)) > 4/3 (n = {nn}); i.e. N0 = floor((4/3)^((n+1)/m)) + 1",
       claim(["y"], [y > F(4, 3)], (y / 4 + 1) ** (nn + 1) < y ** (nn + 1)), ["smt"])
    ob(f"cube_count_exact_lt_Nm.n{nn}", "infoflow:A.2 (L643-647) repaired count",
       f"exact count c^(n+1), c = ceil(y/4) (integer), is < y^(n+1) = N^m for every N >= 2 (y > 1; n = {nn})",
       claim([Var("c", "int"), "y"], [y > 1, var("c") >= 1, var("c") * 4 >= y, var("c") * 4 < y + 4],
             var("c") ** (nn + 1) < y ** (nn + 1)), ["smt"],
       repairs="infoflow.thm5.cube_count_as_printed_m1_n5")
# the printed count at an allowed eps where N is not yet "large enough": m = 1, n = 5, eps = 1/65 -> N = 4
ob("cube_count_as_printed_m1_n5", "infoflow:A.2 (L643-647)",
   "the proof applies 'for N large enough, this number is strictly smaller than N^m' (L647) at the theorem's own eps "
   "(eps < 1/(64m), so N >= 4), where it can fail: m = 1, n = 5, eps = 1/65, N = 4 gives (N^{m/(n+1)}/4 + 1)^{n+1} >= N^m",
   claim([], [], (exp(F(1, 6) * log(num(4))) / 4 + 1) ** 6 < 4), ["interval"], expect=Verdict.REFUTED,
   finding=Finding("implicit-threshold", "The pigeonhole step needs N > (4/3)^{(n+1)/m}, which eps < 1/(64m) "
                   "(N >= 4) implies only when (n+1)/m <= ln 4 / ln(4/3) ~ 4.82. Count the cubes exactly "
                   "(ceil(N^{m/(n+1)}/4)^{n+1} < N^m for every N >= 2) and no threshold is needed.", False,
                   "Where it binds, the final exponent 1 - m/(n+1) is positive and the bound is trivial anyway."))

# -------------------------------------------------------------------------------------- the pair (L677-743)
ob("separation_at_least_delta", "infoflow:A.2 (L685)",
   "|F_k(X) - F_k(Y)| = |z_{j*} - z'_{j*}| >= Delta, since z_{j*} != z'_{j*} lie on the same grid",
   claim(["eps", "q", "qq", "j", "m"], [eps > 0, m >= 1, or_(q - qq >= 1, qq - q >= 1)],
         abs_(((j - 1) / (2 * m) + q * 4 * eps) - ((j - 1) / (2 * m) + qq * 4 * eps)) >= 4 * eps), ["smt"])
Brest = var("Brest")
ob("B_X_ge_k_minus_1", "infoflow:A.2 (L689-693)", "B_X = (k-1) b(1) + sum of the other b >= k - 1, as b(1) = 1 and b > 0",
   claim(["k", "Brest"], [k >= 2, Brest >= 0], (k - 1) * 1 + Brest >= k - 1), ["smt"])
AX, AY, BX, BY, eta = (var(s) for s in ("AX", "AY", "BX", "BY", "eta"))
BrX, BrY = var("BrX"), var("BrY")
# B_X = sum_t b(x(t)) (L707) splits as (k-1) b(1) + BrX with b(1) = 1 (x(1) = ... = x(k-1) = 1) and BrX the sum
# of b > 0 over the other m tokens: the split is the definition of B_X on this input (a sum over the tokens,
# not a term here), and B_X >= k-1 is then the instance of B_X_ge_k_minus_1 (L693) at Brest = BrX
close_h = [abs_(AX - AY) <= eta, abs_(BX - BY) <= eta, k >= 2, BrX >= 0, BrY >= 0,
           BX.eq((k - 1) * 1 + BrX), BY.eq((k - 1) * 1 + BrY),
           fact((k - 1) * 1 + BrX >= k - 1, "infoflow.thm5.B_X_ge_k_minus_1"),
           fact((k - 1) * 1 + BrY >= k - 1, "infoflow.thm5.B_X_ge_k_minus_1")]
V5 = ["AX", "AY", "BX", "BY", "eta", "k", "BrX", "BrY"]
ob("coord_bound_713", "infoflow:A.2 (L713)", "|A_X/B_X - A_Y/B_Y| <= |A_X - A_Y|/B_X + A_Y |1/B_X - 1/B_Y|",
   claim(V5, close_h + [AY >= 0], abs_(AX / BX - AY / BY) <= abs_(AX - AY) / BX + AY * abs_(1 / BX - 1 / BY)), ["smt"])
# 0 <= (A_Y)_l <= B_Y (L715): A_Y = sum_t lambda(y(t)) f1(y(t)) and B_Y = sum_t lambda(y(t)) over the T tokens
# (L707, a(x) = lambda(x) f1(x), b(x) = lambda(x) in (0, 1]: L600), with 0 <= f1(x)_l <= 1 because Theorem 5
# takes f1 : [0,1] -> [0,1]^n (L571). Sequences over t (docs/axioms.md, "Indexed families"): lam(t) =
# lambda(y(t)), f(t) = f1(y(t))_l.
Tn = var("T")
LAM, F1 = at(seq("lam"), IDX), at(seq("f"), IDX)
RANGE = and_(and_(0 <= F1, F1 <= 1), 0 < LAM)
ob("A_Y_range_715", "infoflow:A.2 (L715)",
   "0 <= (A_Y)_l <= B_Y: each term lambda(y(t)) f1(y(t))_l lies in [0, lambda(y(t))], since f1 maps into "
   "[0,1]^n and lambda > 0; sum over the T tokens",
   claim(["T", "AY", "BY", Var("lam", "seq"), Var("f", "seq")],
         [Tn >= 1, forall(Tn, 0 <= F1), forall(Tn, F1 <= 1), forall(Tn, 0 < LAM),   # f1 : [0,1] -> [0,1]^n; lambda > 0
          AY.eq(bsum(Tn, LAM * F1)), BY.eq(bsum(Tn, LAM)),                         # the definitions of A_Y, B_Y
          axiom("forall_and", N=Tn, P=0 <= F1, Q=F1 <= 1),
          axiom("forall_and", N=Tn, P=and_(0 <= F1, F1 <= 1), Q=0 < LAM),
          axiom("forall_mono", N=Tn, P=RANGE, Q=LAM * F1 <= LAM),
          axiom("forall_mono", N=Tn, P=RANGE, Q=num(0) <= LAM * F1),
          axiom("sum_mono", N=Tn, f=LAM * F1, g=LAM),
          axiom("sum_mono", N=Tn, f=num(0), g=LAM * F1),
          axiom("sum_zero", N=Tn)],
         and_(AY >= 0, AY <= BY)), ["smt"])
A_Y_RANGE = obs[-1]
# the two halves of A_Y_range_715's conclusion, each by a projection step; then the bound itself over plain
# numbers (its SMT query stays free of the family atoms, which slow cvc5's nonlinear search past its limit),
# and coord_bound_717 joins them
xq, yq = var("x"), var("y")
for side, goal_ in (("lower", xq >= 0), ("upper", xq <= yq)):
    ob(f"A_Y_range_715.{side}", "infoflow:A.2 (L715)", f"0 <= x <= y gives {'0 <= x' if side == 'lower' else 'x <= y'}",
       claim(["x", "y"], [and_(xq >= 0, xq <= yq)], goal_), ["smt"])
AY_LOW, AY_UP = obs[-2], obs[-1]
CB717 = abs_(AX - AY) / BX + AY * abs_(1 / BX - 1 / BY) <= 2 * eta / (k - 1)
ob("coord_bound_717.core", "infoflow:A.2 (L715-718)",
   "<= eta/(k-1) + B_Y |B_X - B_Y|/(B_X B_Y) <= 2 eta/(k-1), given 0 <= (A_Y)_l <= B_Y",
   claim(V5, close_h + [AY >= 0, AY <= BY], CB717), ["smt"])
ob("coord_bound_717", "infoflow:A.2 (L715-718)",
   "<= eta/(k-1) + B_Y |B_X - B_Y|/(B_X B_Y) <= 2 eta/(k-1), using 0 <= (A_Y)_l <= B_Y (A_Y_range_715)",
   claim(V5 + ["T", Var("lam", "seq"), Var("f", "seq")],
         merge_hyps(link_hyps(A_Y_RANGE), link_hyps(AY_LOW, x=AY, y=BY), link_hyps(AY_UP, x=AY, y=BY),
                    link_hyps(obs[-1])), CB717), ["smt"])
for nn in (1, 2, 3):
    ds = [var(f"d{i}") for i in range(1, nn + 1)]
    c_ = var("c")
    ob(f"l2_from_linf.n{nn}", "infoflow:A.2 (L726)",
       f"||A(X) - A(Y)||_2^2 <= n (2 eta/(k-1))^2 from the coordinate bound (n = {nn})",
       claim([f"d{i}" for i in range(1, nn + 1)] + ["c"], [abs_(d) <= c_ for d in ds],
             add(*[d * d for d in ds]) <= nn * c_ * c_), ["smt"])

# -------------------------------------------------------------------------------------- Lipschitz (L747-766)
# L755-758, line by line (p = 2 or 3 hidden units, n = 1..3 inputs)
A1, av, bv = var("A"), var("a"), var("b")
ob("lipschitz_756_term", "infoflow:A.2 (L756) line 2 (one term)",
   "|alpha_r| |dT_r| <= |theta_r^T (u - v)| when |alpha_r| <= 1, with dT_r = tanh a - tanh b, theta_r^T (u - v) = a - b "
   "(tanh is 1-Lipschitz: infoflow.thm6.tanh.lipschitz)",
   claim(["A", "a", "b"], [A1 >= 0, A1 <= 1] + link_hyps(TANH_LIP),
         A1 * abs_(tanh_tree(av) - tanh_tree(bv)) <= abs_(av - bv)), ["smt"])
LIP_TERM = obs[-1]
for pp in (2,):
    al = [var(f"al{r}") for r in range(1, pp + 1)]
    dT = [var(f"dT{r}") for r in range(1, pp + 1)]       # tanh(theta_r.u + beta_r) - tanh(theta_r.v + beta_r)
    ob(f"lipschitz_755_triangle.p{pp}", "infoflow:A.2 (L755) line 1",
       f"|f2(u) - f2(v)| = |sum_r alpha_r dT_r| <= sum_r |alpha_r| |dT_r| (p = {pp})",
       claim([f"al{r}" for r in range(1, pp + 1)] + [f"dT{r}" for r in range(1, pp + 1)], [],
             abs_(add(*[a * d for a, d in zip(al, dT)])) <= add(*[abs_(a) * abs_(d) for a, d in zip(al, dT)])), ["smt"])
    # the per-term bound with a_r = theta_r.u + beta_r, b_r = theta_r.v + beta_r: dT_r = tanh a_r - tanh b_r and
    # theta_r^T (u - v) = a_r - b_r; A_r = |alpha_r| (docs/infoflow.md)
    Aa = [var(f"A{r}") for r in range(1, pp + 1)]
    ua = [var(f"a{r}") for r in range(1, pp + 1)]
    ub = [var(f"b{r}") for r in range(1, pp + 1)]
    ob(f"lipschitz_756_sum.p{pp}", "infoflow:A.2 (L756) line 2 (summed)",
       f"sum_r |alpha_r| |dT_r| <= sum_r |theta_r^T (u - v)| from the per-term bound (p = {pp}; A_r = |alpha_r|, "
       f"dT_r = tanh a_r - tanh b_r, theta_r^T (u - v) = a_r - b_r)",
       claim([f"A{r}" for r in range(1, pp + 1)] + [f"a{r}" for r in range(1, pp + 1)] + [f"b{r}" for r in range(1, pp + 1)],
             merge_hyps(*[link_hyps(LIP_TERM, A=A_, a=a_, b=b_) for A_, a_, b_ in zip(Aa, ua, ub)]),
             add(*[A_ * abs_(tanh_tree(a_) - tanh_tree(b_)) for A_, a_, b_ in zip(Aa, ua, ub)])
             <= add(*[abs_(a_ - b_) for a_, b_ in zip(ua, ub)])), ["smt"])
# p = 3: cvc5 does not settle the product form within the time limit, so the step is split in two:
# |alpha_r dT_r| = |alpha_r| |dT_r| (one product, proved above for p = 2's terms as well), then the linear
# triangle inequality over the named products x_r = alpha_r dT_r
ob("abs_product", "infoflow:A.2 (L755) line 1, one term", "|alpha dT| = |alpha| |dT|",
   claim(["a", "b"], [], abs_(var("a") * var("b")).eq(abs_(var("a")) * abs_(var("b")))), ["smt"])
for pp in (3,):
    al = [var(f"al{r}") for r in range(1, pp + 1)]
    dT = [var(f"dT{r}") for r in range(1, pp + 1)]
    ob(f"lipschitz_755_triangle.p{pp}", "infoflow:A.2 (L755) line 1",
       f"|f2(u) - f2(v)| = |sum_r alpha_r dT_r| <= sum_r |alpha_r| |dT_r|, with |alpha_r dT_r| = |alpha_r| |dT_r| "
       f"(abs_product) for each r (p = {pp})",
       claim([f"al{r}" for r in range(1, pp + 1)] + [f"dT{r}" for r in range(1, pp + 1)],
             [fact(abs_(a * d).eq(abs_(a) * abs_(d)), "infoflow.thm5.abs_product") for a, d in zip(al, dT)],
             abs_(add(*[a * d for a, d in zip(al, dT)])) <= add(*[abs_(a) * abs_(d) for a, d in zip(al, dT)])),
       ["smt"])
for nn in (1, 2):
    th = [var(f"t{i}") for i in range(1, nn + 1)]
    dd = [var(f"d{i}") for i in range(1, nn + 1)]
    Th, G = var("Th"), var("G")
    ob(f"lipschitz_757_cauchy_schwarz.n{nn}", "infoflow:A.2 (L757) line 3",
       f"|theta^T (u - v)| <= ||theta||_2 ||u - v||_2 (Cauchy-Schwarz, n = {nn})",
       claim([f"t{i}" for i in range(1, nn + 1)] + [f"d{i}" for i in range(1, nn + 1)] + ["Th", "G"],
             [Th >= 0, G >= 0, (Th * Th).eq(add(*[t * t for t in th])), (G * G).eq(add(*[d * d for d in dd]))],
             abs_(add(*[t * d for t, d in zip(th, dd)])) <= Th * G), ["smt"])
    ob(f"lipschitz_theta_norm.n{nn}", "infoflow:A.2 (L751)", f"entries |theta_i| <= 1  =>  ||theta||_2 <= sqrt(n) (n = {nn})",
       claim([f"t{i}" for i in range(1, nn + 1)] + ["Th", "S"],
             [Th >= 0, var("S") > 0, (var("S") * var("S")).eq(nn), (Th * Th).eq(add(*[t * t for t in th]))]
             + [abs_(t) <= 1 for t in th],
             Th <= var("S")), ["smt"])
th3 = [t1, t2, t3] = [var(f"t{i}") for i in (1, 2, 3)]
ob("lipschitz_theta_norm.n3", "infoflow:A.2 (L751)", "entries |theta_i| <= 1  =>  ||theta||_2 <= sqrt(n) (n = 3)",
   claim(["t1", "t2", "t3", "Th", "S"],
         [var("Th") >= 0, var("S") > 0, (var("S") * var("S")).eq(3), (var("Th") * var("Th")).eq(add(*[t * t for t in th3]))]
         + [abs_(t) <= 1 for t in th3],
         var("Th") <= var("S")), ["smt"])
# n = 3: cvc5 times out on the direct form; Lagrange's identity (sympy) reduces it to (Th G)^2 >= S^2
d1, d2, d3 = (var(v) for v in ("d1", "d2", "d3"))
LAG3 = ((t1 * t1 + t2 * t2 + t3 * t3) * (d1 * d1 + d2 * d2 + d3 * d3) - (t1 * d1 + t2 * d2 + t3 * d3) ** 2).eq(
    (t1 * d2 - t2 * d1) ** 2 + (t1 * d3 - t3 * d1) ** 2 + (t2 * d3 - t3 * d2) ** 2)
ob("lagrange_identity.n3", "infoflow:A.2 (L757) line 3, n = 3",
   "(t1^2 + t2^2 + t3^2)(d1^2 + d2^2 + d3^2) - (t.d)^2 = sum_{i<j} (t_i d_j - t_j d_i)^2",
   claim(["t1", "t2", "t3", "d1", "d2", "d3"], [], LAG3), ["identity"])
# Cauchy-Schwarz for n = 3 in three checked pieces (cvc5 does not settle the norm form in one query): the
# squared form over the entries (true for all entries; Lagrange's identity above is the textbook reason),
# ||theta||^2 ||u - v||^2 = (Th G)^2 from the norms' definitions, and |a| <= b1 b2 from a^2 <= (b1 b2)^2
Q3, R3, P3 = t1 * t1 + t2 * t2 + t3 * t3, d1 * d1 + d2 * d2 + d3 * d3, t1 * d1 + t2 * d2 + t3 * d3
CS3 = P3 ** 2 <= Q3 * R3
ob("cauchy_schwarz_squared.n3", "infoflow:A.2 (L757) line 3, n = 3 (squared form)",
   "(t.d)^2 <= (t1^2 + t2^2 + t3^2)(d1^2 + d2^2 + d3^2) (the difference is Lagrange's sum of three squares)",
   claim(["t1", "t2", "t3", "d1", "d2", "d3"], [], CS3), ["smt"])
Th_, G_ = var("Th"), var("G")
# the norms' definitions (Th >= 0 with Th^2 = sum of squares names ||theta||_2, and so on) are plain
# hypotheses: definitions of the names, not facts to be trusted; the helpers carry the same equations
NORM3 = [(Th_ * Th_).eq(Q3), (G_ * G_).eq(R3)]
V757 = ["t1", "t2", "t3", "d1", "d2", "d3", "Th", "G"]
Qv, Rv = var("Q"), var("R")
ob("product_of_squares", "infoflow:A.2 (L757) line 3 (algebra)", "Th^2 = Q and G^2 = R imply (Th G)^2 = Q R",
   claim(["Th", "G", "Q", "R"], [(Th_ * Th_).eq(Qv), (G_ * G_).eq(Rv)], ((Th_ * G_) ** 2).eq(Qv * Rv)), ["smt"])
PROD3 = ((Th_ * G_) ** 2).eq(Q3 * R3)
CSN3 = P3 ** 2 <= (Th_ * G_) ** 2
LINKS3 = [fact(PROD3, "infoflow.thm5.product_of_squares"), fact(CS3, "infoflow.thm5.cauchy_schwarz_squared.n3")]
ob("cauchy_schwarz_norm_squared.n3", "infoflow:A.2 (L757) line 3, n = 3",
   "(t.d)^2 <= (Th G)^2 when Th^2 = t1^2 + t2^2 + t3^2 and G^2 = d1^2 + d2^2 + d3^2",
   claim(V757, [(Th_ * Th_).eq(Q3), (G_ * G_).eq(R3)] + LINKS3, CSN3), ["smt"])
a_, b1_, b2_ = var("a"), var("b1"), var("b2")
ob("abs_le_of_square_le", "infoflow:A.2 (L757) line 3 (square roots)",
   "b1, b2 >= 0 and a^2 <= (b1 b2)^2 imply |a| <= b1 b2",
   claim(["a", "b1", "b2"], [b1_ >= 0, b2_ >= 0, a_ ** 2 <= (b1_ * b2_) ** 2], abs_(a_) <= b1_ * b2_), ["smt"])
ob("lipschitz_757_cauchy_schwarz.n3", "infoflow:A.2 (L757) line 3",
   "|theta^T (u - v)| <= ||theta||_2 ||u - v||_2 (Cauchy-Schwarz, n = 3)",
   claim(V757, [Th_ >= 0, G_ >= 0] + NORM3 + LINKS3 + [fact(CSN3, "infoflow.thm5.cauchy_schwarz_norm_squared.n3"),
                                             fact(abs_(P3) <= Th_ * G_, "infoflow.thm5.abs_le_of_square_le")],
         abs_(P3) <= Th_ * G_), ["smt"])
# ||theta_r||_2 <= sqrt(n) for a row theta_r of f2's first layer, over its n entries (docs/axioms.md, "Indexed
# families"): every weight is bounded by 1 (Theorem 5's hypothesis on f2), Th = ||theta_r||_2 and S = sqrt(n)
# by their definitions (Th >= 0, Th^2 = sum_l theta_r(l)^2; S >= 0, S^2 = n)
TH_L, nI, Thv, Sv = at(seq("t"), IDX), var("n"), var("Th"), var("S")
ob("theta_norm_758", "infoflow:A.2 (L758) ||theta_r||_2 <= sqrt(n)",
   "a row theta_r of n weights, each |theta_r(l)| <= 1, has ||theta_r||_2 <= sqrt(n): sum_l theta_r(l)^2 <= n",
   claim([Var("n", "int"), "Th", "S", Var("t", "seq")],
         [nI >= 1, Sv >= 0, (Sv * Sv).eq(nI), Thv >= 0, (Thv * Thv).eq(bsum(nI, TH_L * TH_L)),
          forall(nI, abs_(TH_L) <= 1),
          axiom("forall_mono", N=nI, P=abs_(TH_L) <= 1, Q=TH_L * TH_L <= 1),
          axiom("sum_mono", N=nI, f=TH_L * TH_L, g=num(1)),
          axiom("sum_const", N=nI, c=num(1))],
         Thv <= Sv), ["smt"])
THETA_NORM = obs[-1]
for pp in (2, 3):
    Ths = [var(f"Th{r}") for r in range(1, pp + 1)]
    ob(f"lipschitz_758_sum.p{pp}", "infoflow:A.2 (L758) line 4",
       f"sum_r ||theta_r||_2 ||u - v||_2 <= p sqrt(n) ||u - v||_2 (p = {pp}; ||theta_r||_2 <= sqrt(n) by theta_norm_758 "
       f"for each row theta_r, a sequence t_r of n weights)",
       claim([f"Th{r}" for r in range(1, pp + 1)] + ["S", "G", Var("n", "int")]
             + [Var(f"t{r}", "seq") for r in range(1, pp + 1)],
             merge_hyps([var("G") >= 0], *[link_hyps(THETA_NORM, Th=t, t=seq(f"t{r}"))
                                           for r, t in enumerate(Ths, 1)]),
             add(*[t * var("G") for t in Ths]) <= pp * var("S") * var("G")), ["smt"])
# ---- L755-758 for every width p and input dimension n (docs/theorem5.md): f2(u) = sum_r alpha_r tanh(theta_r^T u
# + beta_r) + gamma over sequences: the rows theta_r as one family th numbered n (r-1) + l (docs/axioms.md, "Nested
# big operators"), zu(r) = theta_r^T u + beta_r the pre-activations at u and zv(r) at v, tu(r) = tanh zu(r), tv(r) =
# tanh zv(r); G = ||u - v||_2 and Th(r) = ||theta_r||_2 by their definitions. tanh is 1-Lipschitz (the model's
# activations are, L50): |tu(r) - tv(r)| <= |zu(r) - zv(r)| is the model's hypothesis at each row
rI, nI2, pI = var("r"), var("n"), var("p")
THL = at(seq("th"), nI2 * (rI - 1) + IDX)            # theta_r(l), l the index
UL, VL = at(seq("u"), IDX), at(seq("v"), IDX)
Zr, Wr, Br, Thr = (at(seq(s_), rI) for s_ in ("zu", "zv", "b", "Th"))
Gv, Sv2 = var("G"), var("S")
NORM_G = [Gv >= 0, (Gv * Gv).eq(bsum(nI2, (UL - VL) ** 2))]
ROW_DEF = [Zr.eq(bsum(nI2, THL * UL) + Br), Wr.eq(bsum(nI2, THL * VL) + Br)]
ROW_NORM = [Thr >= 0, (Thr * Thr).eq(bsum(nI2, THL ** 2))]
DIFF = THL * UL + (-1) * (THL * VL)
ob("row_cauchy_schwarz_757", "infoflow:A.2 (L756-757) one row, every n",
   "|theta_r^T u + beta_r - (theta_r^T v + beta_r)| = |sum_l theta_r(l) (u_l - v_l)| <= ||theta_r||_2 ||u - v||_2 "
   "(Cauchy-Schwarz for sums) at a row r, for every n",
   claim([Var("r", "int"), Var("n", "int"), "G"] + [Var(s_, "seq") for s_ in ("th", "u", "v", "zu", "zv", "b", "Th")],
         [nI2 >= 1] + NORM_G + ROW_DEF + ROW_NORM + [
             axiom("sum_add", N=nI2, f=THL * UL, g=(-1) * (THL * VL)),
             axiom("sum_scale", N=nI2, c=num(-1), f=THL * VL),
             axiom("forall_intro", N=nI2, P=THL * (UL - VL) <= DIFF),
             axiom("forall_intro", N=nI2, P=DIFF <= THL * (UL - VL)),
             axiom("sum_mono", N=nI2, f=THL * (UL - VL), g=DIFF),
             axiom("sum_mono", N=nI2, f=DIFF, g=THL * (UL - VL)),
             axiom("sum_cauchy_schwarz", N=nI2, f=THL, g=UL - VL)],
         abs_(Zr - Wr) <= Thr * Gv), ["smt"])
ROW_CS = obs[-1]
ob("row_norm_758", "infoflow:A.2 (L751, L758) one row, every n",
   "a row theta_r of n weights, each |theta_r(l)| <= 1, has ||theta_r||_2 <= sqrt(n), at a row r of the family",
   claim([Var("r", "int"), Var("n", "int"), "S", Var("th", "seq"), Var("Th", "seq")],
         [nI2 >= 1, Sv2 >= 0, (Sv2 * Sv2).eq(nI2)] + ROW_NORM + [
             forall(nI2, abs_(THL) <= 1),                                          # every weight bounded by 1
             axiom("forall_mono", N=nI2, P=abs_(THL) <= 1, Q=THL ** 2 <= 1),
             axiom("sum_mono", N=nI2, f=THL ** 2, g=num(1)), axiom("sum_const", N=nI2, c=num(1))],
         Thr <= Sv2), ["smt"])
ROW_NORM_758 = obs[-1]
# the whole chain: |f2(u) - f2(v)| <= sum_r |alpha_r| |tu(r) - tv(r)| <= sum_r |zu(r) - zv(r)| <= sum_r ||theta_r||
# ||u - v|| <= p sqrt(n) ||u - v||, the two row steps linked at every row r = 1..p
AL, TU, TV = at(seq("al"), IDX), at(seq("tu"), IDX), at(seq("tv"), IDX)
ZI, WI, THI = at(seq("zu"), IDX), at(seq("zv"), IDX), at(seq("Th"), IDX)
Mx_, My_, gam = var("Mx"), var("My"), var("gam")
TERM = AL * TU + (-1) * (AL * TV)
ROWS = and_(and_(and_(abs_(AL) <= 1, abs_(TU - TV) <= abs_(ZI - WI)), abs_(ZI - WI) <= THI * Gv), THI <= Sv2)
ob("lipschitz_758_general", "infoflow:A.2 (L755-758) every p, n",
   "|f2(u) - f2(v)| <= sum_r |alpha_r| |tanh(theta_r^T u + beta_r) - tanh(theta_r^T v + beta_r)| <= sum_r "
   "|theta_r^T (u - v)| <= sum_r ||theta_r||_2 ||u - v||_2 <= p sqrt(n) ||u - v||_2, for every width p and dimension n",
   claim([Var("p", "int"), Var("n", "int"), "G", "S", "Mx", "My", "gam"]
         + [Var(s_, "seq") for s_ in ("th", "u", "v", "zu", "zv", "b", "Th", "al", "tu", "tv")],
         merge_hyps(
             [pI >= 1, Gv >= 0, Sv2 >= 0,
              Mx_.eq(bsum(pI, AL * TU) + gam), My_.eq(bsum(pI, AL * TV) + gam),     # f2 at u and at v
              forall(pI, abs_(AL) <= 1),                                           # |alpha_r| <= 1
              forall(pI, abs_(TU - TV) <= abs_(ZI - WI))],                         # tanh is 1-Lipschitz
             each_hyps(ROW_CS, "r", pI),
             each_hyps(ROW_NORM_758, "r", pI), [
                 axiom("forall_and", N=pI, P=abs_(AL) <= 1, Q=abs_(TU - TV) <= abs_(ZI - WI)),
                 axiom("forall_and", N=pI, P=and_(abs_(AL) <= 1, abs_(TU - TV) <= abs_(ZI - WI)),
                       Q=abs_(ZI - WI) <= THI * Gv),
                 axiom("forall_and", N=pI, P=and_(and_(abs_(AL) <= 1, abs_(TU - TV) <= abs_(ZI - WI)),
                                                  abs_(ZI - WI) <= THI * Gv), Q=THI <= Sv2),
                 axiom("forall_mono", N=pI, P=ROWS, Q=abs_(TERM) <= Sv2 * Gv),
                 axiom("sum_add", N=pI, f=AL * TU, g=(-1) * (AL * TV)),
                 axiom("sum_scale", N=pI, c=num(-1), f=AL * TV),
                 axiom("forall_intro", N=pI, P=TERM <= abs_(TERM)),
                 axiom("forall_intro", N=pI, P=(-1) * TERM <= abs_(TERM)),
                 axiom("sum_mono", N=pI, f=TERM, g=abs_(TERM)),
                 axiom("sum_mono", N=pI, f=(-1) * TERM, g=abs_(TERM)),
                 axiom("sum_scale", N=pI, c=num(-1), f=TERM),
                 axiom("sum_mono", N=pI, f=abs_(TERM), g=Sv2 * Gv),
                 axiom("sum_const", N=pI, c=Sv2 * Gv)]),
         abs_(Mx_ - My_) <= pI * Sv2 * Gv), ["smt"])

LIPSCHITZ_GENERAL = obs[-1]

def _union_vars(cited, extra=()) -> list:
    """The variables of the cited claims (the first declaration of a name wins) and ``extra`` names (reals)."""
    out: dict = {}
    for o in cited:
        for v in o.claim.vars:
            out.setdefault(v.name, v)
    return list(out.values()) + [x for x in extra if x not in out]


# ---- L713-726 at every coordinate l = 1..n (docs/theorem5.md): (A_X)_l = ax(l), (A_Y)_l = ay(l), the coordinates
# of A(X) = A_X/B_X and A(Y) = A_Y/B_Y are u(l), v(l) (u(l) B_X = ax(l)), and f1(y(t))_l = f(T (l-1) + t) (one
# family over (l, t)). The coordinate bound for one l is coord_bound_713 and coord_bound_717.core at AX := ax(l),
# AY := ay(l), with A_Y_range_715 restated at l; it is linked at every coordinate, squared and summed (L726)
lI = var("l")
AXl, AYl, Ul, Vl = at(seq("ax"), lI), at(seq("ay"), lI), at(seq("u"), lI), at(seq("v"), lI)
F1L = at(seq("f"), Tn * (lI - 1) + IDX)
RANGE_L = and_(and_(0 <= F1L, F1L <= 1), 0 < LAM)
ob("A_Y_range_715.at_l", "infoflow:A.2 (L715) at a coordinate l",
   "0 <= (A_Y)_l <= B_Y at a coordinate l of the family: each term lambda(y(t)) f1(y(t))_l lies in [0, lambda(y(t))]",
   claim([Var("T", "int"), Var("l", "int"), "BY", Var("lam", "seq"), Var("f", "seq"), Var("ay", "seq")],
         [Tn >= 1, forall(Tn, 0 <= F1L), forall(Tn, F1L <= 1), forall(Tn, 0 < LAM),
          AYl.eq(bsum(Tn, LAM * F1L)), BY.eq(bsum(Tn, LAM)),
          axiom("forall_and", N=Tn, P=0 <= F1L, Q=F1L <= 1),
          axiom("forall_and", N=Tn, P=and_(0 <= F1L, F1L <= 1), Q=0 < LAM),
          axiom("forall_mono", N=Tn, P=RANGE_L, Q=LAM * F1L <= LAM),
          axiom("forall_mono", N=Tn, P=RANGE_L, Q=num(0) <= LAM * F1L),
          axiom("sum_mono", N=Tn, f=LAM * F1L, g=LAM), axiom("sum_mono", N=Tn, f=num(0), g=LAM * F1L),
          axiom("sum_zero", N=Tn)],
         and_(AYl >= 0, AYl <= BY)), ["smt"])
AY_RANGE_L = obs[-1]
COORD713 = next(o for o in obs if o.id == "infoflow.thm5.coord_bound_713")
CORE717 = next(o for o in obs if o.id == "infoflow.thm5.coord_bound_717.core")
kI = var("k")
ob("coord_bound_718.at_l", "infoflow:A.2 (L713-718) at a coordinate l",
   "|A(X)_l - A(Y)_l| = |(A_X)_l/B_X - (A_Y)_l/B_Y| <= 2 eta/(k-1) at a coordinate l (written times k - 1)",
   claim(V5[2:] + [Var("T", "int"), Var("l", "int")] + [Var(s_, "seq") for s_ in ("lam", "f", "ax", "ay", "u", "v")],
         merge_hyps(link_hyps(AY_RANGE_L), link_hyps(AY_LOW, x=AYl, y=BY), link_hyps(AY_UP, x=AYl, y=BY),
                    link_hyps(CORE717, AX=AXl, AY=AYl), link_hyps(COORD713, AX=AXl, AY=AYl),
                    [(Ul * BX).eq(AXl), (Vl * BY).eq(AYl)]),                     # u = A(X) = A_X/B_X, v likewise
         abs_((kI - 1) * (Ul - Vl)) <= 2 * eta), ["smt"])
COORD_L = obs[-1]
UV = at(seq("u"), IDX) - at(seq("v"), IDX)
ob("l2_726.core", "infoflow:A.2 (L726) square roots",
   "G, S >= 0, S^2 = n, k >= 2, eta > 0 and (k-1)^2 G^2 <= 4 n eta^2 give G (k-1) <= 2 S eta",
   claim(["G", "S", "n", "k", "eta"], [Gv >= 0, Sv2 >= 0, (Sv2 * Sv2).eq(nI2), kI >= 2, eta > 0,
                                       (kI - 1) ** 2 * (Gv * Gv) <= 4 * nI2 * eta ** 2],
         Gv * (kI - 1) <= 2 * Sv2 * eta), ["smt"])
L2_CORE = obs[-1]
L2_SQ = (kI - 1) ** 2 * (Gv * Gv) <= 4 * nI2 * eta ** 2
ob("l2_from_linf_726", "infoflow:A.2 (L720-726) every n",
   "(k-1)^2 ||A(X) - A(Y)||_2^2 <= 4 n eta^2: the coordinate bound at every coordinate l = 1..n, squared and summed",
   claim(V5[2:] + [Var("T", "int"), Var("n", "int"), "G", "S"]
         + [Var(s_, "seq") for s_ in ("lam", "f", "ax", "ay", "u", "v")],
         merge_hyps(
             # the pointwise condition of forall_mono is shown from the hypotheses before it: k >= 2 and eta > 0
             [kI >= 2, eta > 0, axiom("forall_mono", N=nI2, P=abs_((kI - 1) * UV) <= 2 * eta,
                                      Q=(kI - 1) ** 2 * UV ** 2 <= 4 * eta ** 2),
              nI2 >= 1, Gv >= 0, (Gv * Gv).eq(bsum(nI2, UV ** 2)), Sv2 >= 0, (Sv2 * Sv2).eq(nI2)],
             each_hyps(COORD_L, "l", nI2), [
                 axiom("sum_mono", N=nI2, f=(kI - 1) ** 2 * UV ** 2, g=4 * eta ** 2),
                 axiom("sum_const", N=nI2, c=4 * eta ** 2),
                 axiom("sum_scale", N=nI2, c=(kI - 1) ** 2, f=UV ** 2)]),
         L2_SQ), ["smt"])
L2_SUM = obs[-1]
# the square root: L2_SUM's conclusion is l2_726.core's premise, so the link to the sum carries it with its source
ob("l2_726", "infoflow:A.2 (L726) every n",
   "||A(X) - A(Y)||_2 (k-1) <= 2 sqrt(n) eta, from (k-1)^2 ||A(X) - A(Y)||_2^2 <= 4 n eta^2 (l2_from_linf_726)",
   claim(_union_vars([L2_SUM, L2_CORE]), merge_hyps(link_plain(L2_SUM), link_plain(L2_CORE)),
         Gv * (kI - 1) <= 2 * Sv2 * eta), ["smt"])
L2_726 = obs[-1]
Fx, Fy, j_, q_, qq_ = var("Fx"), var("Fy"), var("j"), var("q"), var("qq")
SEP = next(o for o in obs if o.id == "infoflow.thm5.separation_at_least_delta")
ob("separation_735", "infoflow:A.2 (L728-735)",
   "|M(X) - M(Y)| >= |F_k(X) - F_k(Y)| - |M(X) - F_k(X)| - |M(Y) - F_k(Y)| >= 4 eps - 2 eps = 2 eps (M eps-approximates "
   "F_k; F_k(X), F_k(Y) on the same grid, L685)",
   claim(["eps", "q", "qq", "j", "m", "Fx", "Fy", "Mx", "My"],
         merge_hyps([Fx.eq((j_ - 1) / (2 * m) + q_ * 4 * eps), Fy.eq((j_ - 1) / (2 * m) + qq_ * 4 * eps),   # F_k(X), F_k(Y)
                     abs_(Mx_ - Fx) <= eps, abs_(My_ - Fy) <= eps],                                   # M eps-approximates F_k
                    link_hyps(SEP)),
         2 * eps <= abs_(Mx_ - My_)), ["smt"])   # written as width_766.core's premise, so a link carries it with its source
SEP735 = obs[-1]
p_, D2 = var("p"), var("D2")


Xsep = var("X")
ob("width_766.core", "infoflow:A.2 (L762-766) arithmetic",
   "2 eps <= X <= p S G and G (k-1) <= 2 S eta with S^2 = n give p >= (k-1) eps/(n eta)",
   claim(["p", "n", "eps", "eta", "k", "S", "G", "X"],   # over the reals (p and n are integers where it is linked)
         [pI >= 1, nI2 >= 1, eps > 0, eta > 0, kI >= 2, Sv2 >= 0, (Sv2 * Sv2).eq(nI2), Gv >= 0,
          2 * eps <= Xsep, Xsep <= pI * Sv2 * Gv, Gv * (kI - 1) <= 2 * Sv2 * eta],
         pI >= (kI - 1) * eps / (nI2 * eta)), ["smt"])
WIDTH_CORE = obs[-1]
# L762-766: the separation (L735), the Lipschitz chain for every p and n (L755-758) at u = A(X), v = A(Y), and
# the coordinate bound at every coordinate (L713-726), each linked with the plain hypotheses it carries: the
# model (f2's weights bounded by 1, 1-Lipschitz activations, A's definition) and the pair X, Y of L677-743
ob("width_bound_766", "infoflow:A.2 (L762-766)",
   "2 eps <= |f2(A(X)) - f2(A(Y))| <= p sqrt(n) ||A(X) - A(Y)||_2 <= p sqrt(n) 2 sqrt(n) eta/(k-1)  =>  "
   "p >= (k-1) eps/(n eta)",
   claim(_union_vars([LIPSCHITZ_GENERAL, L2_726, SEP735, WIDTH_CORE]),
         merge_hyps(link_plain(SEP735), link_plain(LIPSCHITZ_GENERAL), link_plain(L2_726),
                    link_plain(WIDTH_CORE, X=abs_(Mx_ - My_))),
         pI >= (kI - 1) * eps / (nI2 * eta)), ["smt"])
WIDTH_766 = obs[-1]

# -------------------------------------------------------------------------------------- exponent (L778-790)
xx = var("x")
ob("N_gt_three_quarters", "infoflow:A.2 (L778) N = Theta(1/eps)",
   "N = floor(x) > 3x/4 for x = 1/(16 m eps) > 4, i.e. N > 3/(64 m eps)",
   claim(["N", "x"], [N > xx - 1, N <= xx, xx > 4], N * 4 > 3 * xx), ["smt"])
w, Cm, sx = var("w"), var("Cm"), var("s")
# the powers t^s, s = m/(n+1), are exp(s log t): y = N^s, w = (3/(64 m eps))^s, E = eps^s, Cm = (3/(64 m))^s.
# t -> t^s is increasing (log_le, then exp_le with s > 0) and (ab)^s = a^s b^s (log_div, exp_add, and exp_le
# both ways for equal arguments) are axiom instances; N = floor(x), x = 1/(16 m eps) > 4, N > 3x/4
# (N_gt_three_quarters, linked). Only w E >= Cm is used: exp_le one way
a3 = (3 / (64 * m)) / eps                     # 3/(64 m eps)
la, lN, le_, lc = sx * log(a3), sx * log(N), sx * log(eps), sx * log(3 / (64 * m))
ob("final_bound_786.core", "infoflow:A.2 (L782-786) given L766",
   "p >= (k-1) eps/(n eta) at eta = 4 m / y gives p >= (k-1) eps N^{m/(n+1)}/(4mn) >= C_{T,k,n} eps^{1 - m/(n+1)}",
   claim(["p", "k", "m", "n", "eps", "eta", "y", "w", "Cm", "E", "s", "N", "x"],
         [k >= 2, m >= 1, n >= 1, eps > 0, sx.eq(m / (n + 1)),
          xx.eq(1 / (16 * m * eps)), N > xx - 1, N <= xx, xx > 4, fact(N * 4 > 3 * xx, "infoflow.thm5.N_gt_three_quarters"),
          y.eq(exp(lN)), w.eq(exp(la)), var("E").eq(exp(le_)), Cm.eq(exp(lc)),
          axiom("log_le", x=a3, y=N), axiom("exp_le", x=la, y=lN),                    # N >= 3/(64 m eps): y >= w
          axiom("log_div", x=3 / (64 * m), y=eps), axiom("exp_add", x=la, y=le_),     # w E >= Cm (all the
          axiom("exp_le", x=lc, y=la + le_),                                          # bound needs of w E = Cm)
          # width_bound_766's conclusion at eta = 4 m N^{-m/(n+1)} = 4 m / y (L641)
          p_ >= 1, eta.eq(4 * m / y), eta > 0, p_ >= (k - 1) * eps / (n * eta)],
         p_ * var("E") >= (k - 1) / (4 * m * n) * Cm * eps), ["smt"])
FINAL_CORE = obs[-1]
# the norms of L757-758 exist: ||theta_r||_2^2 = sum_l theta_r(l)^2 is a sum of squares, so it is >= 0 at each row
TH_ROW = at(seq("th"), nI2 * (rI - 1) + IDX)
ob("row_square_sum_nonneg", "infoflow:A.2 (L757) ||theta_r||_2^2 >= 0",
   "sum_l theta_r(l)^2 >= 0 at a row r (a sum of squares): the norm ||theta_r||_2 of L757 exists",
   claim([Var("r", "int"), Var("n", "int"), Var("th", "seq")],
         [axiom("forall_intro", N=nI2, P=num(0) <= TH_ROW ** 2), axiom("sum_zero", N=nI2),
          axiom("sum_mono", N=nI2, f=num(0), g=TH_ROW ** 2)],
         bsum(nI2, TH_ROW ** 2) >= 0), ["smt"])
ROW_SQ = obs[-1]
# and so is ||u - v||_2^2 = sum_l (u(l) - v(l))^2 (over a real n: the pointwise condition is then real arithmetic,
# which cvc5 decides at once; with an integer n it ran to the wall)
UV_L = at(seq("u"), IDX) - at(seq("v"), IDX)
ob("uv_square_sum_nonneg", "infoflow:A.2 (L757) ||u - v||_2^2 >= 0",
   "sum_l (u(l) - v(l))^2 >= 0 (a sum of squares): the norm ||A(X) - A(Y)||_2 of L757 exists",
   claim(["n", Var("u", "seq"), Var("v", "seq")],
         [axiom("forall_intro", N=nI2, P=num(0) <= UV_L ** 2), axiom("sum_zero", N=nI2),
          axiom("sum_mono", N=nI2, f=num(0), g=UV_L ** 2)],
         bsum(nI2, UV_L ** 2) >= 0), ["smt"])
UV_SQ = obs[-1]


def _norms(plain: list) -> list:
    """The proof's norms as witnesses (docs/axioms.md, "Existence"), before the links that use them: G = ||u - v||_2,
    S = sqrt(n) and Th(r) = ||theta_r||_2 (exists_sqrt, exists_seq_sqrt: each a fresh variable that no plain premise
    mentions), their forms at every row (follows, forall_intro, forall_mono), and eta = 4 m / y > 0 (follows, from
    the definitions before it). ``plain``: the root's plain premises, from which the definitions are taken."""
    from attncert.core.claims import Hyp
    from attncert.core.expr import E, show

    got = {show(h.expr): h for h in plain}
    pre = [got[t] for t in ("m >= 1", "eps > 0", "x == 1/(16*m*eps)", "x > 4", "N > (x - 1)",
                            "y == exp(s*log(N))", "eta == 4*m/y")]
    RG = E(got["G*G == sum_{i=1..n} [(u(i) - v(i))^2]"].expr[2])
    follows = [Hyp(e.node, by="axiom:follows") for e in (Gv >= 0, (Gv * Gv).eq(RG))]
    each = each_hyps(ROW_SQ, "r", pI)                     # forall_{r <= p} sum_l theta_r(l)^2 >= 0
    FT = E(each[0].expr[2][1])
    THI_, TH2 = at(seq("Th"), IDX), and_(at(seq("Th"), IDX) >= 0, (at(seq("Th"), IDX) * at(seq("Th"), IDX)).eq(FT))
    # the bare bounds that links at every row or coordinate carry as forall(N, .), shown from the bounds themselves
    bare = [got["n >= 1"], got["k >= 2"], Tn >= 1,
            axiom("forall_intro", N=pI, P=nI2 >= 1), axiom("forall_intro", N=nI2, P=kI >= 2),
            axiom("forall_intro", N=nI2, P=Tn >= 1)]
    return bare + link_plain(UV_SQ) + [   # the norms first: their conditions are shown from little
        axiom("exists_sqrt", y=Gv, x=RG)] + follows + [
        axiom("forall_intro", N=pI, P=Gv >= 0), axiom("forall_intro", N=pI, P=(Gv * Gv).eq(RG)),
        axiom("exists_sqrt", y=Sv2, x=nI2),
        Hyp((Sv2 >= 0).node, by="axiom:follows"), Hyp((Sv2 * Sv2).eq(nI2).node, by="axiom:follows"),
        axiom("forall_intro", N=pI, P=Sv2 >= 0), axiom("forall_intro", N=pI, P=(Sv2 * Sv2).eq(nI2))] + each + [
        axiom("exists_seq_sqrt", s=seq("Th"), N=pI, F=FT),
        axiom("forall_mono", N=pI, P=TH2, Q=THI_ >= 0), axiom("forall_mono", N=pI, P=TH2, Q=(THI_ * THI_).eq(FT)),
        Hyp(forall(pI, THI_ >= 0).node, by="axiom:follows"), Hyp(forall(pI, (THI_ * THI_).eq(FT)).node, by="axiom:follows"),
    ] + pre + [axiom("exp_pos", x=lN), Hyp((eta > 0).node, by="axiom:follows")]


# the bound for the model itself: the core linked with width_bound_766, whose plain hypotheses (the model and
# the pair X, Y) it carries; the norms G, S, Th are the root's witnesses (_norms), not premises
_ROOT_PLAIN = merge_hyps(link_plain(WIDTH_766), link_plain(FINAL_CORE))
ob("final_bound_786", "infoflow:A.2 (L782-786)",
   "p >= (k-1) eps N^{m/(n+1)}/(4mn) >= C_{T,k,n} eps^{1 - m/(n+1)}, C = (k-1)/(4mn) (3/(64m))^{m/(n+1)}",
   claim(_union_vars([WIDTH_766, FINAL_CORE]), merge_hyps(_norms(_ROOT_PLAIN), _ROOT_PLAIN),
         p_ * var("E") >= (k - 1) / (4 * m * n) * Cm * eps), ["smt"])

# the three exponents of 1/eps: informal Thm 2 (L88), formal Thm 5 (L577), end of proof (L790)
T_ = var("T")
ob("exponent_proof_vs_formal", "infoflow:Thm 5 (L577) vs A.2 (L790)",
   "proof exponent (T-k+1)/(n+1) - 1 exceeds the formal statement's (T-k)/(n+1) - 1 by 1/(n+1)",
   claim(["T", "k", "n"], [n >= 1], (((T_ - k + 1) / (n + 1) - 1) - ((T_ - k) / (n + 1) - 1)).eq(1 / (n + 1))), ["identity"],
   finding=Finding("statement-mismatch", "Theorem 5 states o = (T-k)/(n+1) - 1; the proof gives (T-k+1)/(n+1) - 1. "
                   "The proof is stronger by eps^{-1/(n+1)} and implies the statement for eps <= 1.", False))
ob("exponent_formal_vs_informal", "infoflow:Thm 2 (L88) vs Thm 5 (L577)",
   "formal exponent (T-k)/(n+1) - 1 exceeds the informal Theorem 2's (T-k-1)/(n+1) - 1 by 1/(n+1)",
   claim(["T", "k", "n"], [n >= 1], (((T_ - k) / (n + 1) - 1) - ((T_ - k - 1) / (n + 1) - 1)).eq(1 / (n + 1))), ["identity"],
   finding=Finding("statement-mismatch", "Informal Theorem 2 states Omega(eps^{1 - (T-k-1)/(n+1)}), weaker again by "
                   "eps^{-1/(n+1)} than Theorem 5; all three exponents differ. Use the proof's (T-k+1)/(n+1) - 1.", False))


FAMILY = family("infoflow_thm5", PAPER, "Theorem 2 / 5: k-th largest retrieval (A.2), step by step", obs,
                doc="docs/theorem5.md")


def planted() -> list[Obligation]:
    """A planted wrong constant: N = floor(1/(8 m eps)) instead of floor(1/(16 m eps)) pushes the last
    grid to 1/2; 'G_j in (0, 1/2)' must come out REFUTED (negative test)."""
    floor8 = [N * 8 * m * eps <= 1, (N + 1) * 8 * m * eps > 1, N >= 1]
    return [Obligation("infoflow.thm5.planted.N_floor_8m", PAPER, "infoflow:A.2 (L613) planted",
                       "PLANTED: with N = floor(1/(8 m eps)), every grid point is < 1/2",
                       claim([Var("m", lo=F(1), hi=F(4)), Var("eps", lo=F(1, 1000), hi=F(1, 64)), Var("N"),
                              Var("j"), Var("q")], range_ + floor8 + [j >= 1, j <= m, q >= 1, q <= N],
                             (j - 1) / (2 * m) + 4 * q * eps < F(1, 2)),
                       ("smt", "replay"), expect=Verdict.REFUTED, family="infoflow_thm5_planted",
                       hint=(("m", F(1)), ("eps", F(1, 128)), ("N", F(16)), ("j", F(1)), ("q", F(16))))]
