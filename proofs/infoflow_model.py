"""InfoFlow (Yu, Jiang, Bao, Li 2026): the InfoFlow model of Section 5 on the page.

- Appendix E (Figure 5): every printed value of (65)-(67) against the printed rule, on the printed input.
- Proposition 1 (B.1): the information-set sizes and every step of (45)-(48), and the conclusion h1 >= D.
- Proposition 2 (B.2): the chain (51)-(55), the bound on M it implies, and the exponent stated in 6.2.
- Section 6's consistency claims (s >= D heads; O(eps^(-Td/E))) and the cost law of 5.2.

Line numbers (L...) refer to ../shared/papers/infoflow-2605.17930.txt. The executable model (information
sets, update rules, active index sets) is ``attncert.papers.infoflow.model``; ``attncert infoflow`` runs it."""

from __future__ import annotations

from fractions import Fraction as F

from attncert.core.axioms import axiom, axiom_at_each
from attncert.core.claims import Finding, Obligation, Var, claim, fact, merge_hyps
from attncert.core.expr import IDX, and_, bsum, bunion, card, exp, forall, fset, fsets, log, max_, min_, num, sat, subset, union, var
from attncert.core.families import collector, family
from attncert.core.theorems import each_hyps, link_hyps
from attncert.core.verdict import Verdict

PAPER = "infoflow"
obs, ob = collector("infoflow.model", PAPER)



# ======================================================================================== Appendix E
# the printed input (L1365): x(1) = (0,-1), x(2) = (0.7,0.7), x(3) = (0,1), x(4) = (-0.2,-0.9)
XE = {1: (F(0), F(-1)), 2: (F(7, 10), F(7, 10)), 3: (F(0), F(1)), 4: (F(-1, 5), F(-9, 10))}
XV = [f"x{t}_{j}" for t in range(1, 5) for j in (1, 2)]
POINT = tuple((f"x{t}_{j + 1}", XE[t][j]) for t in range(1, 5) for j in range(2))
PIN = [var(f"x{t}_{j + 1}").eq(XE[t][j]) for t in range(1, 5) for j in range(2)]   # hypotheses: the printed input


def xdot(t, s):
    """x(t)^T x(s) as a tree over the input variables."""
    return var(f"x{t}_1") * var(f"x{s}_1") + var(f"x{t}_2") * var(f"x{s}_2")


def cdot(t, s):
    """x(t)^T x(s) as an exact constant tree (closed claims)."""
    return num(XE[t][0]) * num(XE[s][0]) + num(XE[t][1]) * num(XE[s][1])


S65 = {1: 3, 2: 4, 3: 1, 4: 3}                                      # (65) as printed (L1369)
I66 = {1: {1, 3}, 2: {2, 4}, 3: {1, 3}, 4: {3, 4}}                  # (66) as printed
E_REF = "infoflow:App. E (65)"
fig5_finding = Finding(
    "false-step", "With the printed score A_{1,1} = x(t)^T x(s) the argmax gives s(1..4) = 1, 2, 3, 1 (each token "
    "attends to itself or to its most aligned token). The printed values are the argmin, i.e. the argmax of "
    "-x(t)^T x(s) (the natural score for a *minimum* target). Repair: A_{1,1} := -min x(t')^T x(s').", False,
    "With the printed rule followed end to end, I(5,2) = {1} or {3}, which does not contain I_F = {1,3}: the model "
    "as printed does not learn the target on the paper's own input (attncert infoflow --target min-inner-product "
    "--variant printed). With the repaired sign every printed value of (65)-(67) follows.")
for t in range(1, 5):
    s_star = S65[t]
    others = [s for s in range(1, 5) if s != s_star]
    ob(f"fig5.s65_t{t}_as_printed", E_REF,
       f"s_1,0({t}) = {s_star}: position {s_star} maximises A_1,1(X[I({t},0)], X[I(s,0)]) = x({t})^T x(s) on the "
       f"printed input", claim(XV, PIN, and_(*[xdot(t, s_star) >= xdot(t, s) for s in others])), ["replay"],
       hint=POINT, expect=Verdict.REFUTED, finding=fig5_finding)
    ob(f"fig5.s65_t{t}_repaired", E_REF + " repaired",
       f"s_1,0({t}) = {s_star} is the argmax of -x({t})^T x(s) (argmin of the printed score), strictly",
       claim([], [], and_(*[cdot(t, s_star) < cdot(t, s) for s in others])), ["interval"],
       repairs=f"infoflow.model.fig5.s65_t{t}_as_printed")


def member(j, S):
    return num(1 if j in S else 0)


for t in range(1, 5):
    # (66) from the printed (65) and rule (1): I(t,1) = I(s(t),0) u I(t,0); membership indicators j = 1..5
    ob(f"fig5.I66_t{t}", "infoflow:App. E (66)",
       f"I({t},1) = I(s_1,0({t}),0) u I({t},0) = {sorted(I66[t])} as printed, from (65) and rule (1)",
       claim([], [], and_(*[max_(member(j, {S65[t]}), member(j, {t})).eq(member(j, I66[t])) for j in range(1, 6)])),
       ["interval"])

A21 = {s: min_(*[xdot(a, b) for a in sorted(I66[s]) for b in sorted(I66[s])]) for s in range(1, 5)}
A21c = {s: min_(*[cdot(a, b) for a in sorted(I66[s]) for b in sorted(I66[s])]) for s in range(1, 5)}
ob("fig5.s67_as_printed", "infoflow:App. E (67)",
   "s_1,1(5) = 1: position 1 maximises A_2,1(X[I(5,1)], X[I(s,1)]) = min_{s1,s2 in I(s,1)} x(s1)^T x(s2) over "
   "the sets (66)", claim(XV, PIN, and_(*[A21[1] >= A21[s] for s in (2, 3, 4)])), ["replay"], hint=POINT,
   expect=Verdict.REFUTED,
   finding=Finding("false-step", "With the printed A_{2,1} the argmax is s = 2 (score -0.77 > -1); s = 1 is an argmin "
                   "(tied with s = 3, both with I(s,1) = {1,3}, so the tie is harmless). Repair: A_{2,1} := -min ...",
                   False, "Same sign slip as (65)."))
ob("fig5.s67_repaired", "infoflow:App. E (67) repaired",
   "s_1,1(5) = 1 maximises -A_2,1 (ties only with s = 3, and I(1,1) = I(3,1) = {1,3})",
   claim([], [], and_(A21c[1] <= A21c[2], A21c[1] <= A21c[4], A21c[1].eq(A21c[3]))), ["interval"],
   repairs="infoflow.model.fig5.s67_as_printed")
ob("fig5.I67", "infoflow:App. E (67)",
   "I(5,2) = I(s_1,1(5),1) = I(1,1) = {1,3}, from s_1,1(5) = 1 and (66) (rule (1) taking the subset without I(5,1))",
   claim([], [], and_(*[member(j, I66[1]).eq(member(j, {1, 3})) for j in range(1, 6)])), ["interval"],
   finding=Finding("implicit-convention", "I(5,1) is neither printed (Figure 5 shows no set at the layer-1 CLS node) "
                   "nor defined by the printed rule: A_{1,1}(X[I(5,0)], .) is a minimum over the empty set X[{}]. "
                   "(67) also drops I(5,1) from the union of rule (1), which the 'subset of' in rule (1) allows. "
                   "attncert reads I(5,1) = {} (the CLS token does not update at layer 1).", False))
PAIRS = [(a, b) for a in range(1, 5) for b in range(a, 5)]
ob("fig5.IF_min_pair", "infoflow:App. E (L1379) 'minimum attained at (s,t) = (1,3)'",
   "x(1)^T x(3) = -1 is strictly below x(s)^T x(t) for every other unordered pair {s,t} (s = t allowed)",
   claim([], [], and_(*[cdot(1, 3) < cdot(a, b) for a, b in PAIRS if (a, b) != (1, 3)])), ["interval"])
ob("fig5.IF_gradients", "infoflow:App. E (L1379) I_F(X) = {1,3}",
   "dF/dx(1) = x(3) = (0,1) != 0 and dF/dx(3) = x(1) = (0,-1) != 0; dF/dx(2) = dF/dx(4) = 0 (F = x(1)^T x(3) "
   "near X, by the strict minimum above), so I_F(X) = {1,3} by (4)",
   claim([], [], and_(max_(num(XE[3][0]) * num(XE[3][0]), num(XE[3][1]) * num(XE[3][1])) > 0,
                      max_(num(XE[1][0]) * num(XE[1][0]), num(XE[1][1]) * num(XE[1][1])) > 0)), ["interval"])
# (the reading F = x(1)^T x(3) near X rests on fig5.IF_min_pair; this closed claim itself does not)
ob("fig5.learns", "infoflow:App. E (L1379) I_F(X) subset of I(5,2)",
   "I_F(X) = {1,3} is contained in I(5,2) = {1,3}: the (repaired) model learns the target on this input",
   claim([], [], and_(*[member(j, {1, 3}) <= member(j, I66[1]) for j in range(1, 6)])), ["interval"])

# ======================================================================================== Proposition 1 (B.1)
h1, h2, T, n, c1, c2, m, S2, D = (var(s) for s in ("h1", "h2", "T", "n", "c1", "c2", "m", "S2", "D"))
INT = lambda *ns: [Var(s, "int") for s in ns]  # noqa: E731
SETS = lambda *ns: [Var(s, "set") for s in ns]  # noqa: E731


def union_bound(size, target, heads, fam, own, each, own_size):
    """The hypotheses that bound |target| by rule (1) of the model (L116): target is a subset of the union of
    the sets fam(1..heads) (the sets of the positions the heads select) and own (the token's own set); each
    selected set has |fam(i)| = each (or <= each, when ``each`` is a bound named by the claim), and
    |own| = own_size. The union bound (card_union, card_bunion), the subset bound (card_subset) and the sum
    over the heads (sum_mono, sum_const) are axiom instances (docs/axioms.md, "Finite sets"); ``size`` names
    |target|. Gives size <= heads * each + own_size."""
    sel = sat(fsets(fam), IDX)
    U = bunion(heads, sel)
    whole = union(U, fset(own))
    exact = isinstance(each, int)
    per = [forall(heads, card(sel).eq(each)),
           axiom("forall_mono", N=heads, P=card(sel).eq(each), Q=card(sel) <= each)] if exact else \
        [forall(heads, card(sel) <= each)]
    return [size.eq(card(fset(target))), subset(fset(target), whole), card(fset(own)).eq(own_size)] + per + [
        axiom("card_subset", A=fset(target), B=whole), axiom("card_union", A=U, B=fset(own)),
        axiom("card_bunion", N=heads, F=sel), axiom("sum_mono", N=heads, f=card(sel), g=num(each) if exact else each),
        axiom("sum_const", N=heads, c=num(each) if exact else each)]


# |I(t,1)| <= h1 + 1 (L1034): I(t,1) is a subset of the union of I(s_i(t),0), i <= h1, and I(t,0) (rule (1)), and
# |I(s,0)| = |I(t,0)| = 1 by (3)
ob("p1.size_I_t1", "infoflow:B.1 (L1034) |I(t,1)| <= h1+1",
   "|I(t,1)| <= sum_i |I(s_i(t),0)| + |I(t,0)| = h1*1 + 1 (rule (1), the union bound, (3))",
   claim(INT("n", "h1") + SETS("It1", "It0") + [Var("J", "sets")],
         [h1 >= 1] + union_bound(n, "It1", h1, "J", "It0", 1, 1), n <= h1 + 1), ["smt"])
SIZE_T1 = obs[-1]
# |I(T+1,1)| <= h1: the same with I(T+1,0) = {} by (3)
ob("p1.size_I_cls1", "infoflow:B.1 (L1034) |I(T+1,1)| <= h1",
   "|I(T+1,1)| <= sum_i |I(s_i(T+1),0)| + |I(T+1,0)| = h1*1 + 0 (rule (1), the union bound, (3))",
   claim(INT("c1", "h1") + SETS("Ic1", "Ic0") + [Var("J", "sets")],
         [h1 >= 1] + union_bound(c1, "Ic1", h1, "J", "Ic0", 1, 0), c1 <= h1), ["smt"])
SIZE_CLS1 = obs[-1]
# |I(T+1,2)| <= h2 m + |I(T+1,1)|, with m = max_i |I(s_i(T+1),1)| (a bound on each selected set)
ob("p1.union_I_cls2", "infoflow:B.1 (L1034) |I(T+1,2)| <= sum_i |I(s_i(T+1),1)| + |I(T+1,1)|",
   "|I(T+1,2)| <= sum_{i<=h2} |I(s_i(T+1),1)| + |I(T+1,1)| <= h2 m + |I(T+1,1)|, m = max_i |I(s_i(T+1),1)| "
   "(rule (1), the union bound)",
   claim(INT("c2", "c1", "m", "h2") + SETS("Ic2", "Ic1") + [Var("K", "sets")],
         [h2 >= 1] + union_bound(c2, "Ic2", h2, "K", "Ic1", m, c1), c2 <= h2 * m + c1), ["smt"])
UNION_CLS2 = obs[-1]
ob("p1.size_I_cls2", "infoflow:B.1 (L1034) |I(T+1,2)| <= h1 h2 + h2 + h1",
   "|I(T+1,2)| <= sum_{i<=h2} |I(s_i(T+1),1)| + |I(T+1,1)| <= h2 (h1+1) + h1 = h1 h2 + h2 + h1",
   claim(INT("c2", "c1", "m", "h1", "h2") + SETS("Ic2", "Ic1") + [Var("K", "sets")],
         merge_hyps([h1 >= 1, h2 >= 1, m <= h1 + 1, c1 <= h1], link_hyps(UNION_CLS2)),
         c2 <= h1 * h2 + h2 + h1), ["smt"])
ob("p1.size_lt_product", "infoflow:B.1 (L1034)", "h1 h2 + h2 + h1 < (h1+1)(h2+1)",
   claim(INT("h1", "h2"), [h1 >= 1, h2 >= 1], h1 * h2 + h2 + h1 < (h1 + 1) * (h2 + 1)), ["smt"])

# |I(t,1)| <= h1 + 1 at a token t named by the claim, over families indexed by the token: I1(t) = I(t,1),
# I0(t) = I(t,0), and the selected sets I(s_i(t),0) of the h1 heads numbered J(h1 (t-1) + i) (one family for all
# tokens and heads, so that the whole layer is one hypothesis per rule). The same union bound as p1.size_I_t1;
# this form is cited at every token (a link at every index, docs/axioms.md)
tt, I1f, I0f, Jf = var("t"), fsets("I1"), fsets("I0"), fsets("J")
SEL_T = sat(Jf, h1 * (tt - 1) + IDX)    # head i's selected set at token t (i the index of the union over heads)


def union_bound_at(target, sel, heads, own, each, own_size):
    """``union_bound`` over set terms: target is a subset of union_{i<=heads} sel(i) and own, each |sel(i)| =
    each, |own| = own_size; gives |target| <= heads * each + own_size."""
    U = bunion(heads, sel)
    whole = union(U, own)
    return [subset(target, whole), card(own).eq(own_size), forall(heads, card(sel).eq(each)),
            axiom("forall_mono", N=heads, P=card(sel).eq(each), Q=card(sel) <= each),
            axiom("card_subset", A=target, B=whole), axiom("card_union", A=U, B=own),
            axiom("card_bunion", N=heads, F=sel), axiom("sum_mono", N=heads, f=card(sel), g=num(each)),
            axiom("sum_const", N=heads, c=num(each))]


ob("p1.size_I_at", "infoflow:B.1 (L1034) |I(t,1)| <= h1+1, at a token t",
   "|I(t,1)| <= sum_i |I(s_i(t),0)| + |I(t,0)| = h1*1 + 1 (rule (1), the union bound, (3)); the sets as families over "
   "the tokens, head i's selected set at token t numbered h1 (t-1) + i",
   claim(INT("t", "h1") + [Var("I1", "sets"), Var("I0", "sets"), Var("J", "sets")],
         [h1 >= 1] + union_bound_at(sat(I1f, tt), SEL_T, h1, sat(I0f, tt), 1, 1), card(sat(I1f, tt)) <= h1 + 1),
   ["smt"])
SIZE_AT = obs[-1]

# the set sizes of B.1, each with its source: links to p1.size_I_t1 (for the selected set of largest size m =
# max_i |I(s_i(T+1),1)|, which the CLS token reads at layer 2), p1.size_I_cls1 and p1.union_I_cls2, with the
# hypotheses those carry (the sets and rule (1)); and S2 = sum_t |I(t,1)|^2 <= T (h1+1)^2 from p1.size_I_at at
# every token t (its hypotheses, rule (1) and (3) at every token, then carried as foralls over the T tokens):
# squared termwise (card_nonneg, forall_and, forall_mono), then summed (sum_mono, sum_const)
CT = card(sat(I1f, IDX))
S2_SUM = merge_hyps(
    [S2.eq(bsum(T, CT ** 2))], each_hyps(SIZE_AT, "t", T), [
        axiom_at_each("card_nonneg", T, A=sat(I1f, IDX)),
        axiom("forall_and", N=T, P=CT >= 0, Q=CT <= h1 + 1),
        axiom("forall_mono", N=T, P=and_(CT >= 0, CT <= h1 + 1), Q=CT ** 2 <= (h1 + 1) ** 2),
        axiom("sum_mono", N=T, f=CT ** 2, g=(h1 + 1) ** 2), axiom("sum_const", N=T, c=(h1 + 1) ** 2)])
HYP46 = merge_hyps([T >= 1, h1 >= 1, h2 >= 1, S2 >= 0, c1 >= 0, c2 >= 0, m >= 0], S2_SUM,
                   link_hyps(SIZE_T1, n=m, It1=fset("Im1"), It0=fset("Im0"), J=fsets("Jm")),
                   link_hyps(SIZE_CLS1, J=fsets("Jc")), link_hyps(UNION_CLS2))   # the CLS token's own selections
# the printed (47) is REFUTED by exact replay: a refutation needs no source, so its premises are plain numbers
HYP46_PLAIN = [T >= 1, h1 >= 1, h2 >= 1, S2 >= 0, c1 >= 0, c2 >= 0, m >= 0, S2 <= T * (h1 + 1) ** 2, m <= h1 + 1,
               c1 <= h1, c2 <= h2 * m + c1]
V46 = INT("T", "h1", "h2", "S2", "c1", "c2")
V46m = V46 + INT("m")
V46s = V46m + SETS("Im1", "Im0", "Ic1", "Ic0", "Ic2") + [Var(s, "sets") for s in ("J", "Jm", "Jc", "K", "I1", "I0")]
# S2 = sum_t |I(t,1)|^2; (45) at L = 2 and beta' = 2
e45 = (S2 - T + T * h1 * (T - 1)) + (c1 ** 2 - 1 + h1 * (T - 1)) + (c2 ** 2 - 1 + h2 * (T - 1))
e46 = (S2 - T + h1 * T * (T - 1)) + (c1 ** 2 - 1 + h1 * (T - 1)) + (c2 ** 2 - 1 + h2 * (T - 1))
P = (h1 + 1) * (h2 + 1)
e47 = T * (h1 + 1) ** 2 - T + h1 * T * (T - 1) + h1 ** 2 + P ** 2 - 2 + 2 * (T - 1)
e47r = T * (h1 + 1) ** 2 - T + h1 * T * (T - 1) + h1 ** 2 + P ** 2 - 2 + (h1 + h2) * (T - 1)
ob("p1.eq45_46", "infoflow:B.1 (45)->(46)",
   "(45) at L = 2, beta' = 2, with S2 = sum_t |I(t,1)|^2: the sums expand to (46) exactly",
   claim(V46, [], e45.eq(e46)), ["identity"],
   finding=Finding("statement-mismatch", "(45) raises |I(t,l)| to beta' where (5) has beta_1; harmless here since "
                   "beta' = beta_1 = 2 for target (6).", False))
ob("p1.le46_47_as_printed", "infoflow:B.1 (46)->(47)",
   "(46) <= (47) = T(h1+1)^2 - T + h1 T(T-1) + h1^2 + (h1+1)^2(h2+1)^2 - 2 + 2(T-1), with the set sizes of B.1",
   claim(V46m, HYP46_PLAIN, e46 <= e47), ["replay"],
   hint=(("T", F(10)), ("h1", F(2)), ("h2", F(2)), ("S2", F(90)), ("c1", F(2)), ("c2", F(8)), ("m", F(3))),
   expect=Verdict.REFUTED,
   finding=Finding("false-step", "The CLS-token terms of (46) carry sum_{l=1,2} sum_{i<=h_l} (T-1) = (h1+h2)(T-1) "
                   "attention comparisons; (47) writes 2(T-1), which is right only for h1 = h2 = 1. Repair: "
                   "+ (h1+h2)(T-1). The leading term h1 T^2 and the conclusion (48) are unaffected.", False,
                   "The counterexample is realised by an InfoFlow model: T = 10, heads (2,2), every |I(t,1)| = 3, "
                   "|I(T+1,1)| = 2, |I(T+1,2)| = 8 gives (5) = 362 > 361 = (47) (tests/test_infoflow_model.py)."))
ob("p1.sq_c1", "infoflow:B.1 (46)->(47), one term", "0 <= |I(T+1,1)| <= h1 implies |I(T+1,1)|^2 <= h1^2",
   claim(["c1", "h1"], [c1 >= 0, c1 <= h1], c1 ** 2 <= h1 ** 2), ["smt"])
pp = var("p")
ob("p1.sq_c2", "infoflow:B.1 (46)->(47), one term",
   "0 <= |I(T+1,2)| <= p implies |I(T+1,2)|^2 <= p^2 (p: the union bound h2 m + |I(T+1,1)| < (h1+1)(h2+1))",
   claim(["c2", "p"], [c2 >= 0, c2 <= pp], c2 ** 2 <= pp ** 2), ["smt"])
ob("p1.le46_47_repaired", "infoflow:B.1 (46)->(47) repaired",
   "(46) <= T(h1+1)^2 - T + h1 T(T-1) + h1^2 + (h1+1)^2(h2+1)^2 - 2 + (h1+h2)(T-1)",
   claim(V46s, HYP46 + [fact(c1 ** 2 <= h1 ** 2, "infoflow.model.p1.sq_c1"),
                        fact(c2 ** 2 <= (h2 * m + c1) ** 2, "infoflow.model.p1.sq_c2")], e46 <= e47r), ["smt"],
   repairs="infoflow.model.p1.le46_47_as_printed")
ob("p1.eq47_48", "infoflow:B.1 (47)->(48)",
   "(47) = h1 T^2 + (h1^2 + h1 + 2) T + (h1^2 + (h1+1)^2(h2+1)^2 - 4): leading coefficient h1, rest O(T)",
   claim(INT("T", "h1", "h2"), [], e47.eq(h1 * T ** 2 + (h1 ** 2 + h1 + 2) * T + (h1 ** 2 + P ** 2 - 4))), ["identity"])
ob("p1.eq47r_48", "infoflow:B.1 (48) from the repaired (47)",
   "repaired (47) = h1 T^2 + (h1^2 + 2 h1 + h2) T + (h1^2 + (h1+1)^2(h2+1)^2 - h1 - h2 - 2): still h1 T^2 + O(T)",
   claim(INT("T", "h1", "h2"), [], e47r.eq(h1 * T ** 2 + (h1 ** 2 + 2 * h1 + h2) * T + (h1 ** 2 + P ** 2 - h1 - h2 - 2))),
   ["identity"])
ob("p1.O_T_explicit", "infoflow:B.1 (48) O(T) explicit",
   "for T >= 1: repaired (47) - h1 T^2 <= K T with K = 2 h1^2 + 2 h1 + h2 + (h1+1)^2(h2+1)^2",
   claim(INT("T", "h1", "h2"), [T >= 1, h1 >= 1, h2 >= 1],
         e47r - h1 * T ** 2 <= (2 * h1 ** 2 + 2 * h1 + h2 + P ** 2) * T), ["smt"])
binT2 = T * (T - 1) / 2
ob("p1.h1_ge_D_as_printed", "infoflow:B.1 (L1041) 'we need h1 >= D'",
   "if the model's Number of Comparison (48) is at least the target's lower bound that B.1 derives (every {t1,t2}, "
   "t1 != t2, on a leaf: C(T,2) - D), then h1 >= D",
   claim(INT("h1", "h2", "D", "T"),
         [h1 >= 1, h2 >= 1, D >= 2, T >= 7,
          e47r >= binT2 - D],  # the model's count (repaired (47)) reaches the target's derived lower bound
         h1 >= D), ["replay"], hint=(("h1", F(1)), ("h2", F(2)), ("D", F(2)), ("T", F(64))), expect=Verdict.REFUTED,
   finding=Finding("false-step", "Forcing h1 >= D from h1 T^2 + O(T) >= N(F) needs a LOWER bound N(F) >= D T^2 - o(T^2) "
                   "(more precisely > (D-1) T^2 + O(T)). B.1 derives the UPPER bound D T^2 + o(T^2) and a lower bound "
                   "Omega(T^2) with no constant (C(T,2) - D by the D.1 argument), which a single head (h1 = 1) "
                   "already meets. Repair: prove N(F) >= D T^2 - o(T^2) for target (6) (not done in the paper).", True,
                   "The experiment of 6.1 supports h1 = D; the derivation as printed does not."))

ob("p1.construction_49_50_size", "infoflow:B.1 (49)-(50)",
   "the (D,D) construction: |I(t,1)| <= D + 1 by (49), so with I(T+1,1) = {} the CLS set of (50) has at most "
   "D (D+1) positions (a retrieval target: independent of T)",
   claim(INT("c2", "c1", "m", "D") + SETS("Ic2", "Ic1") + [Var("K", "sets")],
         merge_hyps([D >= 1, m <= D + 1, c1.eq(0)], link_hyps(UNION_CLS2, h2=D)),   # c1 = |I(T+1,1)| = 0 by (50)
         c2 <= D * (D + 1)), ["smt"],
   finding=Finding("implicit-convention", "(50) writes I(T+1,2) as a set of pairs (t, s_i(t)), not of positions, and "
                   "its selection argmax_t x(s_i(t))^T A_i x(t) needs to know which element of X[I(t,1)] is x(s_i(t)), "
                   "which a score on the subsequence cannot name. Read: the union of the sets I(t,1) of the selected "
                   "t; attncert's plan scores X[I(s,1)] by max_{u,v in I(s,1)} x(u)^T A_i x(v), which selects them.",
                   False))

# ======================================================================================== Proposition 2 (B.2)
a, M, h, H, L, Mb, N, C2 = (var(s) for s in ("a", "M", "h", "H", "L", "Mb", "N", "C2"))
for b1 in (2, 3):
    ob(f"p2.le51_52.b{b1}", "infoflow:B.2 (51)->(52)",
       f"each summand |I|^b - 1 + sum_(i<=h_l) (T-1) <= M^b - 1 + H(T-1) when |I| <= M, h_l <= H (beta_1 = {b1})",
       claim(["a", "M", "h", "H", "T"], [a >= 0, a <= M, h >= 0, h <= H, T >= 1],
             a ** b1 - 1 + h * (T - 1) <= M ** b1 - 1 + H * (T - 1)), ["smt"])
e52 = T * (L - 1) * (Mb - 1 + H * (T - 1)) + L * (Mb - 1 + H * (T - 1))
e53 = T * (L - 1) * Mb + T * (L - 1) * H * (T - 1) + L * Mb + L * H * (T - 1)
e54 = T * L * Mb + H * L * T ** 2 + L * Mb + L * H * T
HYP5 = [T >= 1, L >= 1, H >= 1, Mb >= 1]
ob("p2.le52_53", "infoflow:B.2 (52)->(53)", "(52) <= (53) (they differ by T(L-1) + L >= 0), Mb = M^beta_1",
   claim(["T", "L", "H", "Mb"], HYP5, e52 <= e53), ["smt"])
ob("p2.le53_54", "infoflow:B.2 (53)->(54)", "(53) <= T L M^b + H L T^2 + L M^b + L H T",
   claim(["T", "L", "H", "Mb"], HYP5, e53 <= e54), ["smt"])
ob("p2.eq54_55", "infoflow:B.2 (54)->(55)",
   "(54) = T L M^b + H L T^2 + R with R = L M^b + L H T <= L H (M^b + T): the O(M^b + T) of (55), constant L H",
   claim(["T", "L", "H", "Mb"], HYP5, L * Mb + L * H * T <= L * H * (Mb + T)), ["smt"])
ob("p2.closed_form_54", "infoflow:B.2 (54)", "(54) = L (T+1) M^b + H L T (T+1)",
   claim(["T", "L", "H", "Mb"], [], e54.eq(L * (T + 1) * Mb + H * L * T * (T + 1))), ["identity"])
ob("p2.M_exact", "infoflow:B.2 (L1065) bound on M, solved exactly",
   "(54) >= N  iff  M^b >= (N - H L T (T+1)) / (L (T+1)); the exact bound on M = max |I(t,l)| is its b-th root",
   claim(["T", "L", "H", "Mb", "N"], HYP5 + [e54 >= N], Mb >= (N - H * L * T * (T + 1)) / (L * (T + 1))), ["smt"])
e_typo = T * L * Mb + H * L * T ** 3 + L * Mb + L * H * T
ob("p2.L1064_as_printed", "infoflow:B.2 (L1065) 'TLM^b1 + HLT^b1 + ...'",
   "with HLT^{beta_1} as printed (beta_1 = beta' = 3, C1 = 1/6), T >= 24 H L: TLM^3 + HLT^3 + O(M^3 + T) >= C1 T^3 "
   "forces T L M^3 >= C2 T^3 (here C2 = C1/4, i.e. M^3 >= T^2/(24 L))",
   claim(["T", "L", "H", "Mb"], HYP5 + [T >= 24 * H * L, e_typo >= T ** 3 / 6], Mb >= T ** 2 / (24 * L)), ["replay"],
   hint=(("T", F(1000)), ("L", F(1)), ("H", F(1)), ("Mb", F(1))), expect=Verdict.REFUTED,
   finding=Finding("typo", "(55) has H L T^2; the next line writes H L T^{beta_1}. With T^{beta_1} (= T^3 for the "
                   "triangle target) the attention term alone can meet C1 T^3 and nothing forces M to grow. "
                   "Repair: H L T^2, as in (55); then the step holds (next obligation).", False,
                   "The failure is not tied to C2 = 1/24: with M = 1 and H = L = 1 the printed hypothesis holds for "
                   "every T, while T L M^3 = T >= C2 T^3 fails once T > C2^(-1/2), for any C2 > 0."))
ob("p2.L1064_repaired", "infoflow:B.2 (L1065) repaired",
   "with H L T^2 as in (55) (beta_1 = beta' = 3, C1 = 1/6), T >= 24 H L: (54) >= T^3/6 implies M^3 >= T^2/(24 L)",
   claim(["T", "L", "H", "Mb"], HYP5 + [T >= 24 * H * L, e54 >= T ** 3 / 6], Mb >= T ** 2 / (24 * L)), ["smt"],
   repairs="infoflow.model.p2.L1064_as_printed")
y, z = var("y"), var("z")
# y = (z^3/L)^(1/3) is written as the term exp(log(z^3/L)/3) (the real cube root of a positive number):
# its comparison with z/L then rests on axiom instances only (log is additive and increasing, exp is
# increasing and inverts log), instead of the unchecked defining equation y^3 L = z^3
Xc = z * z * z / L
cube_root = exp(log(Xc) / 3)
ob("p2.M_bound_L_power", "infoflow:B.2 (L1065) M >= C T^((b'-1)/b1) / L",
   "T L M^3 >= C2 T^b' gives M >= y T^((b'-1)/3) with y = (C2/L)^(1/3) = (z^3/L)^(1/3) = exp(log(z^3/L)/3); the "
   "printed C T^(..)/L (C = C2^(1/3) = z) is implied: y >= z/L for L >= 1",
   claim(["z", "L"],
         [L >= 1, z > 0, axiom("log_one"), axiom("log_le", x=num(1), y=L),
          axiom("log_div", x=z, y=L), axiom("log_div", x=z * z * z, y=L),
          axiom("log_mul", x=z * z, y=z), axiom("log_mul", x=z, y=z),
          axiom("exp_le", x=log(z / L), y=log(Xc) / 3), axiom("exp_log", x=z / L)],
         cube_root >= z / L), ["smt"],
   finding=Finding("statement-mismatch", "Solving T L M^{beta_1} >= C2 T^{beta'} gives M >= (C2/L)^{1/beta_1} "
                   "T^{(beta'-1)/beta_1}: the L-dependence is L^{-1/beta_1}, the paper prints L^{-1} (weaker, still "
                   "true for L >= 1).", False))
E = var("E")
ob("p2.exponent_B2_vs_statement", "infoflow:B.2 (L1065) vs Prop. 2 (L240)",
   "the exponent of eps in B.2's O(1/eps^{M/E}), -M/E, equals Proposition 2's 1 - M/E (the cost law 5.2: 1 - M d/E)",
   claim(["M", "E"], [M >= 1, E >= 1], (-M / E).eq(1 - M / E)), ["replay"], hint=(("M", F(1)), ("E", F(1))),
   expect=Verdict.REFUTED,
   finding=Finding("statement-mismatch", "Three forms of one bound: B.2 ends with O(1/eps^{M/E}) (no factor eps, no d, "
                   "and O for what is a lower bound), Proposition 2 states Omega(eps^{1 - C T^{..}/(LE)}), 5.3 says "
                   "'a parameter cost lower bound of O(eps^{1 - M d/E_l})'. Use Omega(eps^{1 - M d/E}) with the M of B.2.",
                   False, "The discrepancy is a factor eps^{-1} and the token dimension d; the growth in T is the same."))
# 6.2 prints the exponent 1 - T^{2/3}/(6LE). B.2 only asserts "some C > 0", and solving it exactly gives the
# coefficient (6L)^{-1/3} (times d). The printed 1/(6L) is smaller, so the printed line follows (next
# obligation). An earlier "(1/(6L))^3 = 1/(6L)" REFUTED obligation tested a claim the paper does not make
# and was removed after review; the loose constant is a remark in docs/infoflow.md.
# c = (6L)^(-1/3) is written as the term exp(-log(6L)/3); the comparison rests on axiom instances only
c62 = exp(-log(6 * L) / 3)
ob("s62.triangle_printed_weaker", "infoflow:6.2 (L250)",
   "the printed coefficient 1/(6L) is at most the derived c = (6L)^(-1/3) = exp(-log(6L)/3) for L >= 1",
   claim(["L"], [L >= 1, axiom("log_one"), axiom("log_le", x=num(1), y=6 * L), axiom("log_div", x=num(1), y=6 * L),
                 axiom("exp_le", x=log(1 / (6 * L)), y=-log(6 * L) / 3), axiom("exp_log", x=1 / (6 * L))],
         1 / (6 * L) <= c62), ["smt"])
ob("s62.triangle_lower_C1", "infoflow:D.1 (L1348) C(T,3) - 3 = T^3/6 + O(T^2)",
   "C(T,3) - 3 = T^3/6 - T^2/2 + T/3 - 3, so C1 = 1/6",
   claim(INT("T"), [], (T * (T - 1) * (T - 2) / 6 - 3).eq(T ** 3 / 6 - T ** 2 / 2 + T / 3 - 3)), ["identity"])

# ======================================================================================== Section 6 consistency
s_ = var("s")
ob("s6.heads_ge_D_as_printed", "infoflow:6 (L204) 's >= D heads'",
   "s(T-1) >= D(T-D) (model comparisons >= target's lower bound) implies s >= D",
   claim(INT("s", "D", "T"), [s_ >= 1, D >= 1, T >= 1, s_ * (T - 1) >= D * (T - D)], s_ >= D), ["replay"],
   hint=(("s", F(1)), ("D", F(2)), ("T", F(2))), expect=Verdict.REFUTED,
   finding=Finding("implicit-threshold", "s(T-1) >= D(T-D) forces s >= D only for T >= D^2 - D + 2 (s = D-1 "
                   "satisfies it iff T <= D^2 - D + 1). The claim is asymptotic; the threshold is explicit here.",
                   False))
ob("s6.heads_ge_D_threshold", "infoflow:6 (L204) with the threshold",
   "for T >= D^2 - D + 2: s(T-1) >= D(T-D) implies s > D - 1 (so s >= D for integer s)",
   claim(["s", "D", "T"], [s_ >= 0, D >= 1, T >= D * D - D + 2, s_ * (T - 1) >= D * (T - D)], s_ > D - 1), ["smt"],
   repairs="infoflow.model.s6.heads_ge_D_as_printed")
cc = var("cc")
ob("s6.formula5_single_layer", "infoflow:6 (L204) vs (5)",
   "for one layer with s heads and beta_1 = 1, (5) = |I(T+1,1)| - 1 + s(T-1) is at most the printed s(T-1)",
   claim(INT("s", "cc", "T"), [s_ >= 1, T >= 2, cc >= 0, cc <= s_], cc - 1 + s_ * (T - 1) <= s_ * (T - 1)), ["replay"],
   hint=(("s", F(2)), ("cc", F(2)), ("T", F(5))), expect=Verdict.REFUTED,
   finding=Finding("statement-mismatch", "Formula (5) also counts |I(T+1,1)|^{beta_1} - 1 <= s - 1 comparisons inside "
                   "the CLS token's set, so a one-layer s-head model has up to sT - 1, not s(T-1). With (5) the "
                   "conclusion s >= D still follows, for T >= D^2 (next obligation).", False))
ob("s6.heads_ge_D_formula5", "infoflow:6 (L204) with (5)",
   "for T >= D^2: sT - 1 >= D(T-D) implies s > D - 1",
   claim(["s", "D", "T"], [s_ >= 0, D >= 1, T >= D * D, s_ * T - 1 >= D * (T - D)], s_ > D - 1), ["smt"])
d = d_ = var("d")
ob("s6.global_exponent", "infoflow:6 (L206) O(eps^{-Td/E}) vs 5.2 law 2",
   "the cost law's exponent 1 - Td/E exceeds the stated -Td/E by exactly 1",
   claim(["T", "d", "E"], [E >= 1], ((1 - T * d / E) - (-T * d / E)).eq(1)), ["identity"],
   finding=Finding("statement-mismatch", "Global aggregation by law 2 of 5.2 costs O(eps^{1 - Td/E}); Section 6 states "
                   "O(eps^{-Td/E}), weaker by a factor 1/eps (implied for eps <= 1). The match with Theorem 2.3 of "
                   "Yu et al. (2026) is as printed and not re-proved.", False))

# ======================================================================================== cost law 5.2
k_, kp, mm = var("k"), var("kp"), var("mm")
# |I(t,l+1)| <= |I'(t,l+1)| max_s |I(s,l)|: I(t,l+1) is a subset of the union of I(j,l) over the kp = |I'(t,l+1)|
# positions j of I'(t,l+1) (rule (3), L124), enumerated as J(1..kp); each has at most mm = max_s |I(s,l)|
# elements; the union bound and the sum over j are axiom instances
selJ = sat(fsets("J"), IDX)
ob("cost.law3_union_bound", "infoflow:5.2 law 3 (rule (3), L124)",
   "|I(t,l+1)| <= sum_{j in I'(t,l+1)} |I(j,l)| <= |I'(t,l+1)| max_s |I(s,l)| (rule (3), the union bound)",
   claim([Var("k", "int"), Var("kp", "int"), "mm", Var("It", "set"), Var("J", "sets")],
         [kp >= 0, k_.eq(card(fset("It"))), subset(fset("It"), bunion(kp, selJ)), forall(kp, card(selJ) <= mm),
          axiom("card_subset", A=fset("It"), B=bunion(kp, selJ)), axiom("card_bunion", N=kp, F=selJ),
          axiom("sum_mono", N=kp, f=card(selJ), g=mm), axiom("sum_const", N=kp, c=mm)],
         k_ <= kp * mm), ["smt"])
LAW3_UNION = obs[-1]
ob("cost.law3_covers_law1", "infoflow:5.2 law 3",
   "with |I(t,l+1)| <= |I'(t,l+1)| max_s |I(s,l)| (rule (3)), law 3's exponent 1 - |I'| max|I| d/E is at most law "
   "1's 1 - |I(t,l+1)| d/E: law 3 is the coarser (larger) cost bound",
   claim(LAW3_UNION.claim.vars + ("d", "E"), merge_hyps([E >= 1, d_ >= 1, k_ >= 0, kp >= 0, mm >= 0],
                                                       link_hyps(LAW3_UNION)),
         1 - kp * mm * d_ / E <= 1 - k_ * d_ / E), ["smt"])
ob("cost.law1_vs_theorem6", "infoflow:5.2 law 1 vs Thm 6 (L810)",
   "the cost law's exponent 1 - |I| d/E equals Theorem 6's lower-bound exponent min(1 - T0 d/n, 0) (T0 = |I|, n = E)",
   claim(["k", "d", "E"], [k_ >= 1, d_ >= 1, E >= 1], (1 - k_ * d_ / E).eq(min_(1 - k_ * d_ / E, num(0)))), ["replay"],
   hint=(("k", F(1)), ("d", F(1)), ("E", F(4))), expect=Verdict.REFUTED,
   finding=Finding("statement-mismatch", "Theorem 6 (the formal Theorem 3 that 5.2 rests on) bounds the cost below by "
                   "eps^{min(1 - T0 d/n, 0)}; the law of 5.2 drops the min. When |I| d < E the law assigns a cost "
                   "eps^{positive} -> 0, which no parameter count can be; read it as O(1) there (attncert infoflow "
                   "prints both).", False, "Only small sets are affected; the growth predictions of Section 6 are not. The mismatches "
                   "between Theorem 3 and Theorem 6 themselves are in infoflow_thm6 (exponent_bullet2_vs_proof, "
                   "exponent_informal_vs_upper)."))
ob("cost.law2_is_law1_full", "infoflow:5.2 law 2", "law 2 is law 1 with |I(t,l+1)| = T: 1 - T d/E",
   claim(["T", "d", "E"], [E >= 1], (1 - T * d / E).eq(1 - (T * d) / E)), ["identity"])
ob("cost.theorem3_to_law1", "infoflow:5.2 (L146) Theorem 3 -> law 1",
   "Theorem 3's exponent 1 - T0 d/n with T0 = |I(t,l+1)| and n = E_{l+1} is law 1's 1 - |I| d/E",
   claim(["k", "d", "E"], [E >= 1], (1 - k_ * d_ / E).eq((E - k_ * d_) / E)), ["identity"])


FAMILY = family("infoflow_model", PAPER, "The InfoFlow model (Section 5): Figure 5, Propositions 1-2, Section 6",
                obs, doc="docs/infoflow.md")


def planted() -> list[Obligation]:
    """Planted wrong values (negative tests): a wrong Figure 5 entry and a wrong leading coefficient.
    Both must come out REFUTED."""
    wrong66 = Obligation(
        "infoflow.model.planted.I66_t4", PAPER, "infoflow:App. E (66) planted",
        "PLANTED: I(4,1) = {2,4} from s_1,0(4) = 3 and rule (1)",
        claim([], [], and_(*[max_(member(j, {S65[4]}), member(j, {4})).eq(member(j, {2, 4})) for j in range(1, 6)])),
        ("interval",), expect=Verdict.REFUTED, family="infoflow_model_planted")
    wrong48 = Obligation(
        "infoflow.model.planted.coef48", PAPER, "infoflow:B.1 (48) planted",
        "PLANTED: (47) = (h1+1) T^2 + (h1^2 + h1 + 2) T + (h1^2 + (h1+1)^2(h2+1)^2 - 4)",
        claim(INT("T", "h1", "h2"), [],
              e47.eq((h1 + 1) * T ** 2 + (h1 ** 2 + h1 + 2) * T + (h1 ** 2 + P ** 2 - 4))),
        ("identity", "replay"), expect=Verdict.REFUTED, family="infoflow_model_planted",
        hint=(("T", F(3)), ("h1", F(1)), ("h2", F(1))))
    wrong65 = Obligation(
        "infoflow.model.planted.s65_t2", PAPER, "infoflow:App. E (65) planted",
        "PLANTED: s_1,0(2) = 3 is the argmin of x(2)^T x(s)",
        claim([], [], and_(*[cdot(2, 3) < cdot(2, s) for s in (1, 2, 4)])), ("interval",),
        expect=Verdict.REFUTED, family="infoflow_model_planted")
    return [wrong66, wrong48, wrong65]
