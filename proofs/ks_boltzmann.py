"""Kajitsuka-Sato (ICLR 2024): the Boltzmann operator lemmas, step by step.

Sources: section 3.4 (Lemma 1, (13)-(16)), appendix B.2 (Lemmas 4-6, (80)-(105)), B.3 (Lemma 7 and the
proof of Lemma 1, (106)-(131)) and appendix C (masking, (132)-(133)).

Conventions of this transcription
- Identities are stated in the paper's own variables a_1..a_n for n = 2..6 and proved symbolically.
- Inequality chains are stated over the paper's terms (log p_i, L(a), max a, log n, e^{-delta}, ...) where a
  fact about them is used, with the facts in force as hypotheses. A hypothesis with ``by=<id>`` is an
  instance of another obligation's goal (its hypotheses carried, see ``cite``); ``by="axiom:NAME"`` is an
  instance of a standard fact of checker/axioms.json; the few ``by="fact:..."`` left are unchecked
  premises (their certificates are CONDITIONAL).
- A step that is false as printed stays as printed, expects REFUTED, carries a Finding, and has a
  separate repaired obligation (``repairs=``).
"""

from __future__ import annotations

import json
import math
import os
from fractions import Fraction as F

from attncert.papers.ks.boltzmann import boltz, entropy, logsumexp, partition, softmax
from attncert.core.axioms import axiom
from attncert.core.claims import Finding, Obligation, Var, claim, merge_hyps
from attncert.core.theorems import cases_hyp, link_hyps, mvt_hyp
from attncert.core.expr import E, abs_, add, and_, diff, exp, implies, log, max_, node_of, num, or_, substitute, var
from attncert.core.expr import vars_ as V
from attncert.core.families import collector, family
from attncert_proofs.ks_general import Bof as _general_Bof, obs as _general_obs
from attncert.core.verdict import Verdict

PAPER = "ks"
NS = (2, 3, 4, 5, 6)
ob_list, ob = collector("ks.boltz", PAPER)



def avars(n, name="a", lo=-6, hi=6):
    return [Var(f"{name}{i}", "real", F(lo), F(hi)) for i in range(1, n + 1)], [var(f"{name}{i}") for i in range(1, n + 1)]



# ------------------------------------------------------------------------------------------------
# (85): boltz = L - S, as printed line by line.
for n in NS:
    vs, a = avars(n)
    p = softmax(a)
    ob(f"identity_85.n{n}", "ks:B.2 (85)", f"boltz(a) = L(a) - S(p) for n = {n}",
       claim(vs, [], boltz(a).eq(logsumexp(a) - entropy(p))), ["identity"])

vs, a = avars(3)
p, Z = softmax(a), partition(a)
ob("identity_85.line2.n3", "ks:B.2 (85) line 1->2",
   "log(sum e^{a_j}) + sum p_k log p_k = sum p_k log(p_k sum e^{a_j}) (n = 3)",
   claim(vs, [], (log(Z) + add(*[q * log(q) for q in p])).eq(add(*[q * log(q * Z) for q in p]))), ["identity"])
ob("identity_85.line3.n3", "ks:B.2 (85) line 2->3", "sum p_k log(p_k sum e^{a_j}) = sum p_k log e^{a_k} (n = 3)",
   claim(vs, [], add(*[q * log(q * Z) for q in p]).eq(add(*[q * log(exp(x)) for q, x in zip(p, a)]))), ["identity"])
ob("identity_85.line4.n3", "ks:B.2 (85) line 3->4", "sum p_k log e^{a_k} = sum p_k a_k = boltz(a) (n = 3)",
   claim(vs, [], add(*[q * log(exp(x)) for q, x in zip(p, a)]).eq(boltz(a))), ["identity"])
ob("log_p_eq_a_minus_L.n3", "ks:B.2 (92) (a_i - L(a) = log p_i)", "log p_i = a_i - L(a) (n = 3, i = 1)",
   claim(vs, [], log(p[0]).eq(a[0] - logsumexp(a))), ["identity"])

# (87), (89), (90): the pieces of the derivative, for n = 2..6.
for n in NS:
    vs_n, a_n = avars(n)
    p_n = softmax(a_n)
    ob(f"dp_da_87.diag.n{n}", "ks:B.2 (87)", f"d p_1 / d a_1 = p_1 (1 - p_1) (n = {n})",
       claim(vs_n, [], diff(p_n[0], a_n[0]).eq(p_n[0] * (1 - p_n[0]))), ["identity"])
    ob(f"dp_da_87.offdiag.n{n}", "ks:B.2 (87)", f"d p_1 / d a_2 = p_2 (0 - p_1) (n = {n})",
       claim(vs_n, [], diff(p_n[0], a_n[1]).eq(p_n[1] * (0 - p_n[0]))), ["identity"])
    ob(f"dL_da_89.n{n}", "ks:B.2 (89)", f"d L / d a_1 = p_1 (n = {n})",
       claim(vs_n, [], diff(logsumexp(a_n), a_n[0]).eq(p_n[0])), ["identity"])
    ob(f"dS_da_90.n{n}", "ks:B.2 (90)", f"d S(p) / d a_1 = -p_1 (log p_1 + S(p)) (n = {n})",
       claim(vs_n, [], diff(entropy(p_n), a_n[0]).eq(-p_n[0] * (log(p_n[0]) + entropy(p_n)))), ["identity"])

# (83)/(91) and (97): first and second derivative, symbolically for n = 2..6.
for n in NS:
    vs, a = avars(n)
    p = softmax(a)
    S = entropy(p)
    ob(f"deriv_83.n{n}", "ks:B.2 (83)/(91)", f"d boltz / d a_1 = p_1 (1 + log p_1 + S(p)) for n = {n}",
       claim(vs, [], diff(boltz(a), a[0]).eq(p[0] * (1 + log(p[0]) + S))), ["identity"])
    ob(f"deriv2_97.n{n}", "ks:B.2 (97)",
       f"d^2 boltz / d a_1^2 = p_1 [(1 - 2 p_1)(log p_1 + S(p) + 1) + 1] for n = {n}",
       claim(vs, [], diff(diff(boltz(a), a[0]), a[0]).eq(p[0] * ((1 - 2 * p[0]) * (log(p[0]) + S + 1) + 1))),
       ["identity"])

# (83) at high precision for large n (numerical: CONFIRMED only).
for n in (10, 25, 50):
    vs, a = avars(n, lo=-8, hi=8)
    p = softmax(a)
    lhs, rhs = diff(boltz(a), a[0]), p[0] * (1 + log(p[0]) + entropy(p))
    ob(f"deriv_83.n{n}.numeric", "ks:B.2 (83)/(91)",
       f"|d boltz / d a_1 - p_1 (1 + log p_1 + S)| <= 10^-40 at random points, n = {n} (60-digit samples)",
       claim(vs, [], abs_(lhs - rhs) <= F(1, 10 ** 40)), ["sample"], options=(("samples", 12), ("dps", 80)))

# ------------------------------------------------------------------------------------------------
# Standard facts used by the chains, each mechanised from axiom instances (docs/axioms.md).


def cite(id_, **terms):
    """The hypotheses that a link to obligation ``ks.boltz.<id_>`` needs: the cited claim's hypotheses,
    instantiated (each keeps its own source; the checker requires them to be hypotheses of the citing
    claim), then the instance of its goal, citing it. ``terms`` replaces the cited claim's variables;
    the others are kept as they are."""
    # renaming a variable also renames it where it is a derivative's variable (diff(f, a1) at a1 := x is
    # diff(f(x), x)); the checker accepts such an instance only when the renaming is valid
    return link_hyps(_o(id_), **terms)


def _o(id_):
    """The obligation ``ks.boltz.<id_>`` transcribed so far."""
    return next(o for o in ob_list if o.id == f"ks.boltz.{id_}")


hyps_ = merge_hyps


def conclusion_id(lemma, eq, n):
    """The id of Lemma 4's (84) or Lemma 5's (94) conclusion at i = 1 for this n: the n = 3 one came first and
    keeps its id without a suffix."""
    return f"{lemma}.conclusion_{eq}" + ("" if n == 3 else f".n{n}")


a1, a2, a3 = V("a1", "a2", "a3")
xs_ = var("x")


def simplex_facts(n):
    """The facts about a in R^n and p = softmax(a) that the chains cite (n = 3 and n = 2): max a <= L(a)
    and max a < L(a), p_i > 0, sum p_i = 1, and (n = 2; n = 3 is stated with (85)) log p_1 = a_1 - L(a)."""
    names = [f"a{i}" for i in range(1, n + 1)]
    a_ = list(V(*names))
    Z = partition(a_)  # e^{a_1} + ... + e^{a_n}, as softmax and L write it
    # exp(a_j) > 0; log is increasing (its conditions exp(a_j) > 0 and exp(a_j) <= Z follow from those);
    # log(exp(a_j)) = a_j: all axiom instances (docs/axioms.md)
    pos = [axiom("exp_pos", x=x) for x in a_]
    inv = [axiom("log_exp", x=x) for x in a_]
    ob(f"fact.max_le_L.n{n}", "ks:B.2 (93) (Boyd-Vandenberghe p.72)", f"max_j a_j <= L(a) = log sum e^{{a_j}} (n = {n})",
       claim(names, pos + [axiom("log_le", x=exp(x), y=Z) for x in a_] + inv, max_(*a_) <= log(Z)), ["smt"])
    ob(f"fact.max_lt_L.n{n}", "ks:B.2 (98) (strict form, n >= 2)", f"max_j a_j < L(a) (n = {n}; strict since n >= 2)",
       claim(names, pos + [axiom("log_lt", x=exp(x), y=Z) for x in a_] + inv, max_(*a_) < log(Z)), ["smt"])
    # p = softmax(a) lies in the simplex (exp atoms are positive in the SMT translation)
    ob(f"softmax_pos.n{n}", "ks:B.2 (80) (p = softmax(a) > 0)",
       "e^x / (" + " + ".join(f"e^{{a_{i}}}" for i in range(1, n + 1)) + f") > 0 (n = {n}; x = a_i gives p_i > 0)",
       claim(["x"] + names, [], exp(xs_) / Z > 0), ["smt"])
    ob(f"softmax_sum.n{n}", "ks:B.2 (80) (sum_i p_i = 1)", f"sum_i e^{{a_i}} / sum_j e^{{a_j}} = 1 (n = {n})",
       claim(names, [], add(*softmax(a_)).eq(1)), ["identity"])
    if n != 3:
        vs_, av_ = avars(n)
        ob(f"log_p_eq_a_minus_L.n{n}", "ks:B.2 (92) (a_i - L(a) = log p_i)", f"log p_i = a_i - L(a) (n = {n}, i = 1)",
           claim(vs_, [], log(softmax(av_)[0]).eq(av_[0] - logsumexp(av_))), ["identity"])


for _n in (3, 2):
    simplex_facts(_n)
vs, a = avars(3)
ob("log_p3_eq_a3_minus_L.n3", "ks:B.2 (92) (a_i - L(a) = log p_i)", "log p_i = a_i - L(a) (n = 3, i = 3)",
   claim(vs, [], log(softmax(a)[2]).eq(a[2] - logsumexp(a))), ["identity"])
for n in (2, 3):
    ps = V(*[f"p{i}" for i in range(1, n + 1)])
    # log(1) <= log(n p_k) + (1 - n p_k)/(n p_k) (log is concave: tangent at n p_k), log(n p_k) = log n + log p_k;
    # times p_k and summed: sum_k p_k log p_k >= -log n
    hyps = [q > 0 for q in ps] + [add(*ps).eq(1), axiom("log_one")]
    hyps += [axiom("log_tangent", x=n * q, y=num(1)) for q in ps]
    hyps += [axiom("log_mul", x=num(n), y=q) for q in ps]
    ob(f"fact.entropy_le_log_n.n{n}", "ks:B.2 (93) (S(p) <= log n)", f"S(p) <= log n for p in the simplex, n = {n}",
       claim([f"p{i}" for i in range(1, n + 1)], hyps, -add(*[q * log(q) for q in ps]) <= log(num(n))), ["smt"])
    # 0 < p_k <= 1, so log p_k <= log 1 = 0
    hyps0 = [q > 0 for q in ps] + [add(*ps).eq(1), axiom("log_one")] + [axiom("log_le", x=q, y=num(1)) for q in ps]
    ob(f"fact.entropy_nonneg.n{n}", "ks:B.2 (100) (S(p) >= 0)", f"S(p) >= 0 for p in the simplex, n = {n}",
       claim([f"p{i}" for i in range(1, n + 1)], hyps0, -add(*[q * log(q) for q in ps]) >= 0), ["smt"])

# The facts in force for p = softmax(a), n = 3, in the paper's own terms: p_i > 0 and sum p_i = 1,
# log p_1 = a_1 - L(a), max a <= L(a) (or <), S(p) <= log 3, S(p) >= 0.
A3 = [a1, a2, a3]
P3 = softmax(A3)
L3 = logsumexp(A3)
LN3 = log(num(3))
MAX3 = max_(a1, a2, a3)


def _as(a_, name="a"):
    return {f"{name}{i + 1}": x for i, x in enumerate(a_)}


def simplex(a_):
    n = len(a_)
    return hyps_([cite(f"softmax_pos.n{n}", x=x, **_as(a_))[-1] for x in a_], cite(f"softmax_sum.n{n}", **_as(a_)))


def ent_le(a_):
    return hyps_(simplex(a_), cite(f"fact.entropy_le_log_n.n{len(a_)}", **_as(softmax(a_), "p")))


def ent_nonneg(a_):
    return hyps_(simplex(a_), cite(f"fact.entropy_nonneg.n{len(a_)}", **_as(softmax(a_), "p")))


def max_le(a_, strict=False):
    return cite(f"fact.max_lt_L.n{len(a_)}" if strict else f"fact.max_le_L.n{len(a_)}", **_as(a_))


LOGP1 = cite("log_p_eq_a_minus_L.n3")

# ------------------------------------------------------------------------------------------------
# Lemma 4 (monotonicity): (92), (93), (84).
# The steps are stated for n = 3 and i = 1 over the paper's own terms (p = softmax(a), L(a), S(p),
# log 3), which ``at`` puts in place of the placeholders of the step's printed form.


def at(e, **terms):
    """``e`` with each placeholder variable named in ``terms`` replaced by its term."""
    return E(substitute(node_of(e), {k: node_of(v) for k, v in terms.items()}))


p, lp, S, ai, L, amax, Ln, D = V("p", "lp", "S", "ai", "L", "amax", "Ln", "D")
ob("lemma4.step_92", "ks:B.2 (92)", "1 + S + log p_i < 0  <=>  a_i < L(a) - S(p) - 1 (given log p_i = a_i - L)",
   claim(["a1", "a2", "a3", "S"], LOGP1,
         at(and_(implies(1 + S + lp < 0, ai < L - S - 1), implies(ai < L - S - 1, 1 + S + lp < 0)),
            lp=log(P3[0]), ai=a1, L=L3)), ["smt"])
# S(p) <= log n is used for p in the simplex (the entropy lemma's own hypotheses, carried): the step
# needs nothing else of p, so it is stated for every p in the simplex (p = softmax(a) included, as the
# conclusions (84) and (94) below use it).
PG = V("p1", "p2", "p3")
SG = -add(*[q * log(q) for q in PG])
ENT_LE_G = cite("fact.entropy_le_log_n.n3")
ENT_NN_G = cite("fact.entropy_nonneg.n3")
ob("lemma4.step_93", "ks:B.2 (93)", "a_i < max a - log n - 1, max a <= L, S <= log n  =>  a_i < L - S - 1",
   claim(["ai", "a1", "a2", "a3", "p1", "p2", "p3"],
         hyps_(at(ai < amax - Ln - 1, amax=MAX3, Ln=LN3), max_le(A3), ENT_LE_G),
         at(ai < L - S - 1, L=L3, S=SG)), ["smt"])
# (84) over the paper's terms for n = 3, i = 1: d boltz / d a_1 = p_1 (1 + log p_1 + S(p)) (deriv_83), p_1 > 0,
# log p_1 = a_1 - L(a), max a <= L(a) and S(p) <= log 3 for p = softmax(a), each linked with its hypotheses
# n = 3 (the theorem's root) and n = 2 (lemma4.conclusion_84.n2), the same claim over (a1, a2)
for _n in (3, 2):
    _a = [a1, a2, a3][:_n]
    ob(conclusion_id("lemma4", 84, _n), "ks:B.2 Lemma 4 (84)", f"a_i < max_j a_j - log n - 1  =>  d boltz / d a_i < 0 (n = {_n}, i = 1)",
       claim([f"a{i}" for i in range(1, _n + 1)],
             hyps_(cite(f"deriv_83.n{_n}"), cite(f"softmax_pos.n{_n}", x=a1)[-1], cite(f"log_p_eq_a_minus_L.n{_n}"),
                   max_le(_a), ent_le(_a), at(ai < amax - Ln - 1, ai=a1, amax=max_(*_a), Ln=log(num(_n)))),
             diff(boltz(_a), a1) < 0), ["smt"])

def _lemma4_sampler(n, strict_gap):
    def sample(rng):
        xs = [F(rng.randrange(-6 << 10, 6 << 10), 1 << 10) for _ in range(n - 1)]
        top = max(xs)
        gap = F(rng.randrange(0, 8 << 10), 1 << 10)
        last = top - strict_gap - gap
        return {**{f"a{i + 1}": x for i, x in enumerate(xs)}, f"a{n}": last}
    return sample


# the boxes of the sampled claims contain every point their samplers draw (a sample outside the box
# is not accepted by the checker)
for n in (3, 5):
    vs, a = avars(n, lo=-32, hi=32)
    ob(f"lemma4.deriv_neg.n{n}.sampled", "ks:B.2 Lemma 4 (84)",
       f"a_n < max_j a_j - log n - 1 => d boltz / d a_n < 0 (n = {n}, 60 samples near the threshold)",
       claim(vs, [a[-1] < max_(*a) - log(num(n)) - 1], diff(boltz(a), a[-1]) < 0), ["sample"],
       options=(("samples", 60), ("sampler", _lemma4_sampler(n, F(math.log(n) + 1 + 1e-3).limit_denominator(1 << 20)))))

# ------------------------------------------------------------------------------------------------
# Lemma 5 (concavity): (97)-(101).
D2 = var("D2")
ob("lemma5.step_98", "ks:B.2 (98)", "a_i < max a - log n - 3 < L(a) - S(p) - 3 (given max a < L, S <= log n)",
   claim(["ai", "a1", "a2", "a3", "p1", "p2", "p3"],
         hyps_(at(ai < amax - Ln - 3, amax=MAX3, Ln=LN3), max_le(A3, strict=True), ENT_LE_G),
         at(and_(ai < amax - Ln - 3, amax - Ln - 3 < L - S - 3), amax=MAX3, Ln=LN3, L=L3, S=SG)), ["smt"])
ob("lemma5.step_99", "ks:B.2 (99)", "a_i < L - S - 3 and log p_i = a_i - L  =>  log p_i < -S(p) - 3",
   claim(["a1", "a2", "a3", "S"], hyps_(at(ai < L - S - 3, ai=a1, L=L3), LOGP1), at(lp < -S - 3, lp=log(P3[0]))),
   ["smt"])
ob("lemma5.step_100a", "ks:B.2 (100) (log p_i < -3)", "log p_i < -S - 3 and S >= 0  =>  log p_i < -3",
   claim(["lp", "p1", "p2", "p3"], hyps_(at(lp < -S - 3, S=SG), ENT_NN_G), lp < -3), ["smt"])
x = var("x")
ob("lemma5.step_100b", "ks:B.2 (100)", "p_i < e^{-3}  (from log p_i < -3, p_i = e^{log p_i})",
   claim(["lp"], [lp < -3, axiom("exp_lt", x=lp, y=num(-3))], exp(lp) < exp(num(-3))), ["smt"])
ob("lemma5.step_100c", "ks:B.2 (100)", "e^{-3} <= 1/(1+3) = 1/4", claim([], [], exp(num(-3)) <= F(1, 4)), ["interval"])
ob("lemma5.ineq_100", "ks:B.2 (100) (e^{-x} <= 1/(1+x))", "e^{-x} <= 1/(1+x) for x > -1",
   claim(["x"], [x > -1, axiom("exp_tangent", x=x), axiom("exp_neg", x=x)],
         exp(-x) <= 1 / (1 + x)), ["smt"])
X = var("X")
ob("lemma5.step_101", "ks:B.2 (101)",
   "(1 - 2 p_i)(log p_i + S + 1) + 1 < (1 - 2/4)(-2) + 1 = 0 (given 0 < p_i < 1/4, log p_i + S + 1 < -2)",
   claim(["p", "X"], [p > 0, p < F(1, 4), X < -2], and_((1 - 2 * p) * X + 1 < (1 - 2 * num(F(1, 4))) * (-2) + 1,
                                                         ((1 - 2 * num(F(1, 4))) * (-2) + 1).eq(0))), ["smt"])
# (94)-(95) over the paper's terms for n = 3, i = 1: d^2 boltz / d a_1^2 = p_1 [(1 - 2 p_1)(log p_1 + S(p) + 1) + 1]
# (deriv2_97), p_1 > 0, log p_1 = a_1 - L(a), max a < L(a), 0 <= S(p) <= log 3 (linked with their hypotheses);
# then log p_1 < -3 (as in (98)-(100), shown from those by the axiom check), p_1 = e^{log p_1} < e^{-3} <= 1/4
for _n in (3, 2):
    _a = [a1, a2, a3][:_n]
    _p = softmax(_a)
    ob(conclusion_id("lemma5", 94, _n), "ks:B.2 Lemma 5 (94)-(95)", f"a_i < max a - log n - 3  =>  d^2 boltz / d a_i^2 < 0 (n = {_n}, i = 1)",
       claim([f"a{i}" for i in range(1, _n + 1)],
             hyps_(cite(f"deriv2_97.n{_n}"), cite(f"softmax_pos.n{_n}", x=a1)[-1], cite(f"log_p_eq_a_minus_L.n{_n}"),
                   max_le(_a, strict=True), ent_le(_a), ent_nonneg(_a),
                   at(ai < amax - Ln - 3, ai=a1, amax=max_(*_a), Ln=log(num(_n))),
                   axiom("exp_log", x=_p[0]), axiom("exp_lt", x=log(_p[0]), y=num(-3)), cite("lemma5.step_100c")),
             diff(diff(boltz(_a), a1), a1) < 0), ["smt"])

# (84) and (94) for every i at n = 2, 3: boltz is symmetric, so the i-th coordinate is moved first, where the
# conclusions above are stated. The derivative of boltz(a) in a_i equals that of boltz(a_i, the others) (an
# identity of the symbolic derivatives), the hypothesis a_i < max a - log n - c is the same after the
# reordering of max's arguments, and the conclusion at i = 1 is linked at the reordered vector.


# lemma -> (its conclusion's equation, the equation of its hypothesis, c in a_i < max a - log n - c, the order of
# the derivative)
LEMMA45 = {"lemma4": (84, 84, 1, 1), "lemma5": (94, 95, 3, 2)}


def every_i(n, i, lemma):
    """(84) or (94) at coordinate i of a in R^n."""
    eq, hyp_eq, c, order = LEMMA45[lemma]
    a_ = [a1, a2, a3][:n]
    ai_ = a_[i - 1]
    moved = [ai_] + [x for x in a_ if x is not ai_]
    names = [f"a{j}" for j in range(1, n + 1)]

    def d(e):
        return diff(e, ai_) if order == 1 else diff(diff(e, ai_), ai_)
    tag = f"n{n}.i{i}"
    ob(f"{lemma}.deriv_perm.{tag}", f"ks:B.2 (80) (boltz is symmetric; the derivative of order {order})",
       f"the derivative of order {order} of boltz(a) in a_{i} is that of boltz(a_{i}, the others) (n = {n})",
       claim(names, [], d(boltz(a_)).eq(d(boltz(moved)))), ["identity"])
    hyp = ai_ < max_(*a_) - log(num(n)) - c
    ob(f"{lemma}.max_perm.{tag}", f"ks:B.2 ({hyp_eq}) (max is symmetric)",
       f"a_{i} < max a - log {n} - {c}  =>  the same with a_{i} written first in max (n = {n})",
       claim(names, [hyp], ai_ < max_(*moved) - log(num(n)) - c), ["smt"])
    label = "Lemma 4 (84)" if lemma == "lemma4" else "Lemma 5 (94)-(95)"
    rel = "d boltz / d a_i < 0" if order == 1 else "d^2 boltz / d a_i^2 < 0"
    ob(f"{lemma}.conclusion_{eq}.{tag}", f"ks:B.2 {label}",
       f"a_i < max_j a_j - log n - {c}  =>  {rel} (n = {n}, i = {i})",
       claim(names, hyps_(hyp, cite(f"{lemma}.max_perm.{tag}"), cite(conclusion_id(lemma, eq, n), **_as(moved)),
                          cite(f"{lemma}.deriv_perm.{tag}")),
             d(boltz(a_)) < 0), ["smt"])


for _n in (2, 3):
    for _i in range(2, _n + 1):
        every_i(_n, _i, "lemma4")
        every_i(_n, _i, "lemma5")

# ------------------------------------------------------------------------------------------------
# Lemma 6: (102)-(105).
fa, fb, dfb, an, bn, delta, pn, lpn, bmax = V("fa", "fb", "dfb", "an", "bn", "delta", "pn", "lpn", "bmax")
# (104) for every n is ks.general.lemma6.tangent_104 (proofs/ks_general.py: boltz over a family of n - 1 shared
# coordinates, the varying one last); line 1 of (105) follows from it by rearranging
_T104 = next(o for o in _general_obs if o.id == "ks.general.lemma6.tangent_104")
_Bb, _Ba, _bn, _an = _general_Bof(var("bn")), _general_Bof(var("an")), var("bn"), var("an")
ob("lemma6.step_105_line1", "ks:B.2 (104)->(105) line 1",
   "boltz(b) - boltz(a) > (a_n - b_n)(-d/dx boltz(b_1..b_{n-1}, x)|_{x=b_n}) (from (104) at x = b_n, every n >= 2)",
   claim(_T104.claim.vars, link_hyps(_T104), _Bb - _Ba > (_an - _bn) * (-diff(_Bb, _bn))), ["smt"])
# (105) for n = 3 over b = (b_1, b_2, b_3): log p_3 = b_3 - L(b), max b < L(b), and S(p) <= log 3 for p in
# the simplex (see lemma4.step_93)
B3 = list(V("b1", "b2", "b3"))
PB = softmax(B3)
LOGPB3 = cite("log_p3_eq_a3_minus_L.n3", a1=B3[0], a2=B3[1], a3=B3[2])
BRACKET = {"lpn": log(PB[2]), "L": logsumexp(B3), "bn": B3[2], "bmax": max_(*B3), "S": SG, "Ln": LN3}
ob("lemma6.step_105_line3.bracket", "ks:B.2 (105) line 2->3 (inside the brackets)",
   "-(1 + log p_n + S(p)) > -(1 + b_n - max_i b_i + log n)",
   claim(["b1", "b2", "b3", "p1", "p2", "p3"], hyps_(LOGPB3, max_le(B3, strict=True), ENT_LE_G),
         at(-(1 + lpn + S) > -(1 + bn - bmax + Ln), **BRACKET)), ["smt"])
Xb, Yb = V("Xb", "Yb")
ob("lemma6.step_105_line3.scale", "ks:B.2 (105) line 2->3 (times (a_n - b_n) p_n > 0)",
   "(a_n - b_n)[p_n X] > (a_n - b_n)[p_n Y] when X > Y, w = a_n - b_n > 0, p_n > 0",
   # p_n > 0 here is p_3 of the simplex point p of S(p) (a hypothesis of the bracket step, carried): the
   # claim holds for every p in the simplex, p = softmax(b) included
   claim(["w", "b1", "b2", "b3", "p1", "p2", "p3"],
         hyps_(var("w") > 0, cite("lemma6.step_105_line3.bracket")),
         at(var("w") * (pn * Xb) > var("w") * (pn * Yb), pn=PG[2],
            Xb=at(-(1 + lpn + S), **BRACKET), Yb=at(-(1 + bn - bmax + Ln), **BRACKET))), ["smt"])
ob("lemma6.step_105_line4", "ks:B.2 (105) line 3->4",
   "(a_n - b_n)[-p_n(1 + b_n - max b + log n)] > (a_n - b_n) p_n (delta + a_n - b_n - log n - 1), w = a_n - b_n > 0",
   claim(["w", "an", "b1", "b2", "b3", "bmax", "Ln", "delta"],
         hyps_(at(var("w").eq(an - bn), bn=B3[2]), var("w") > 0,
               cite("softmax_pos.n3", x=B3[2], a1=B3[0], a2=B3[1], a3=B3[2])[-1], bmax - delta > an),
         at(var("w") * (-pn * (1 + bn - bmax + Ln)) > var("w") * pn * (delta + an - bn - Ln - 1), pn=PB[2], bn=B3[2])),
   ["smt"])

def _lemma6_sampler(n):
    def sample(rng):
        xs = [F(rng.randrange(-4 << 10, 4 << 10), 1 << 10) for _ in range(n - 1)]
        d = F(math.log(n) + 3).limit_denominator(1 << 16) + F(rng.randrange(1, 2 << 10), 1 << 10)
        an_ = max(xs) - d - F(rng.randrange(1, 3 << 10), 1 << 10)
        bn_ = an_ - F(rng.randrange(1, 4 << 10), 1 << 10)
        pt = {f"a{i + 1}": v for i, v in enumerate(xs)}
        pt.update({f"a{n}": an_, f"b{n}": bn_, "delta": d})
        return pt
    return sample


# Lemma 6 for n = 3 and n = 2, closed: (104) by the mean value theorem (docs/axioms.md, the monotonicity
# rule) on the tangent gap h(x) = boltz(x, a1, a2) + (a3 - x) d/dx boltz(x, a1, a2) - boltz(a3, a1, a2) (n = 3;
# for n = 2, boltz(x, a1) and a2), whose derivative is (a3 - x) d^2/dx^2 boltz(x, a1, a2) < 0 for x < a3 by
# Lemma 5 (conclusion_94 at (x, a1, a2): x < a3 < max(a1, a2) - delta and delta > log 3 + 3 give
# x < max(x, a1, a2) - log 3 - 3). h(a3) = 0, so h(b3) > 0 for b3 < a3: that is (104) at x = b3. The varying
# coordinate is written first, where Lemmas 4 and 5 are stated (i = 1); boltz is symmetric (boltz_perm.n3),
# and the conclusion is (103) in the paper's order, over the variables of the sampled claims below.
xg, dg = V("x", "delta")
wv, pv, Xv, Yv = V("w", "p", "X", "Y")
ob("fact.scale_pos", "ks:B.2 (105) (multiplying by positive factors)", "w > 0, p > 0, X > Y  =>  w (p X) > w (p Y)",
   claim(["w", "p", "X", "Y"], [wv > 0, pv > 0, Xv > Yv], wv * (pv * Xv) > wv * (pv * Yv)), ["smt"])
yv2 = var("y")
ob("fact.sub_pos", "ks:B.2 (105) (a_n > b_n gives a_n - b_n > 0)", "x > y  =>  x - y > 0",
   claim(["x", "y"], [xs_ > yv2], xs_ - yv2 > 0), ["smt"])
Av, Bv, A2v, B2v, Dv, p2v, Kv = V("A", "B", "A2", "B2", "D", "p2", "K")
ob("fact.chain_103", "ks:B.2 (105) (the chain, over placeholders)",
   "A2 = A, B2 = B, p2 = p, A - B > w (-D), w (-D) > w (p K)  =>  A2 - B2 > w K p2",
   claim(["A", "B", "A2", "B2", "w", "D", "p", "p2", "K"],
         [A2v.eq(Av), B2v.eq(Bv), p2v.eq(pv), Av - Bv > wv * (-Dv), wv * (-Dv) > wv * (pv * Kv)],
         A2v - B2v > wv * Kv * p2v), ["smt"])


def lemma6_closed(n):
    """Lemma 6's (103) for this n, closed: the tangent gap, the monotonicity rule, (105) line by line."""
    o = [a1, a2, a3][:n - 1]                     # a_1 .. a_{n-1} (= b_1 .. b_{n-1})
    an, bn = var(f"a{n}"), var(f"b{n}")
    on = ", ".join(f"a{i}" for i in range(1, n))  # their names, as the statements print them
    ln = log(num(n))
    BX = boltz([xg] + o)
    H6 = BX + (an - xg) * diff(BX, xg) - boltz([an] + o)
    SEP6 = [max_(*o) - dg > an, dg > log(num(n)) + 3]
    names = [f"a{i}" for i in range(1, n + 1)]
    ob(f"boltz_perm.n{n}", "ks:B.2 (80) (boltz is symmetric)", f"boltz({on}, a{n}) = boltz(a{n}, {on})",
       claim(names, [], boltz(o + [an]).eq(boltz([an] + o))), ["identity"])
    ob(f"lemma6.tangent_deriv.n{n}", "ks:B.2 (104) (the tangent gap's derivative)",
       f"d/dx [boltz(x, {on}) + (a{n} - x) d/dx boltz(x, {on}) - boltz(a{n}, {on})] = (a{n} - x) d^2/dx^2 boltz(x, {on})",
       claim(["x"] + names, [], diff(H6, xg).eq((an - xg) * diff(diff(BX, xg), xg))), ["identity"])
    ob(f"lemma6.concavity_applies.n{n}", "ks:B.2 (104) (Lemma 5 applies on x < a_n)",
       f"x < a{n}, max({on}) - delta > a{n}, delta > log {n} + 3  =>  x < max(x, {on}) - log {n} - 3",
       claim(["x"] + names + ["delta"], [xg < an] + SEP6, xg < max_(xg, *o) - ln - 3), ["smt"])
    ob(f"lemma6.tangent_decreasing.n{n}", "ks:B.2 (104) (the tangent gap decreases on (b_n, a_n))",
       f"b{n} < x < a{n} (with (102)): d/dx h(x) = (a{n} - x) boltz''(x) < 0 (Lemma 5 at (x, {on}))",
       claim(["x"] + names + [f"b{n}", "delta"],
             hyps_(xg > bn, xg < an, SEP6, cite(f"lemma6.tangent_deriv.n{n}", **{f"a{n}": an}),
                   cite(f"lemma6.concavity_applies.n{n}"), cite(conclusion_id("lemma5", 94, n), **_as([xg] + o))),
             diff(H6, xg) < 0), ["smt"])
    ob(f"lemma6.tangent_104.n{n}", "ks:B.2 (104) at x = b_n",
       f"boltz(b{n}, {on}) + (a{n} - b{n}) d/db{n} boltz(b{n}, {on}) > boltz(a{n}, {on}) for b{n} < a{n} (n = {n})",
       claim(names + [f"b{n}", "delta"],
             hyps_(an > bn, SEP6, mvt_hyp(_o(f"lemma6.tangent_decreasing.n{n}"),
                                          **{f"b{n}": bn})),
             boltz([bn] + o) + (an - bn) * diff(boltz([bn] + o), bn) > boltz([an] + o)), ["smt"])
    BB = [bn] + o
    PB = softmax(BB)
    DB = diff(boltz(BB), bn)
    W6, K6 = an - bn, dg + an - bn - ln - 1
    M6 = 1 + log(PB[0]) + entropy(PB)
    ob(f"softmax_perm.n{n}", "ks:B.2 (80) (softmax is equivariant)",
       f"e^{{a{n}}} / (" + " + ".join(f"e^{{{v}}}" for v in names) + f") = e^{{a{n}}} / ("
       + " + ".join(f"e^{{{v}}}" for v in names[-1:] + names[:-1]) + ")",
       claim(names, [], softmax(o + [an])[n - 1].eq(softmax([an] + o)[0])), ["identity"])
    ob(f"lemma6.step_105_line1.n{n}", f"ks:B.2 (105) line 1 (n = {n})",
       "(104) at x = b_n: boltz(b) - boltz(a) > (a_n - b_n)(-d/db_n boltz(b))",
       claim(names + [f"b{n}", "delta"], cite(f"lemma6.tangent_104.n{n}"),
             boltz(BB) - boltz([an] + o) > W6 * (-DB)), ["smt"])
    SEP = [max_(*o) - dg > an, an > bn, dg > ln + 3]
    ob(f"lemma6.step_105_bracket.n{n}", f"ks:B.2 (105) lines 2-4, inside the brackets (n = {n})",
       "log p_n = b_n - L(b), max b < L(b), S(p) <= log n, max_{i<n} a_i - delta > a_n > b_n  =>  "
       "-(1 + log p_n + S(p)) > delta + a_n - b_n - log n - 1",
       claim(names + [f"b{n}", "delta"],
             hyps_(SEP, cite(f"log_p_eq_a_minus_L.n{n}", **_as(BB)), max_le(BB, strict=True), ent_le(BB)),
             -M6 > K6), ["smt"])
    ob(f"lemma6.step_105_scale.n{n}", f"ks:B.2 (105) lines 2-4 (n = {n})",
       "d/db_n boltz(b) = p_n (1 + log p_n + S(p)) (83), p_n > 0, a_n > b_n  =>  "
       "(a_n - b_n)(-d/db_n boltz(b)) > (a_n - b_n)(p_n (delta + a_n - b_n - log n - 1))",
       claim(names + [f"b{n}", "delta"],
             hyps_(SEP, cite(f"deriv_83.n{n}", **_as(BB)), cite(f"softmax_pos.n{n}", x=bn, **_as(BB))[-1],
                   cite(f"lemma6.step_105_bracket.n{n}"), cite("fact.sub_pos", x=an, y=bn),
                   cite("fact.scale_pos", w=W6, p=PB[0], X=-M6, Y=K6)),
             W6 * (-DB) > W6 * (PB[0] * K6)), ["smt"])
    ob(f"lemma6.conclusion_103.n{n}", "ks:B.2 Lemma 6 (103), (104)-(105)",
       f"boltz(b) - boltz(a) > (a_n - b_n)(delta + a_n - b_n - log n - 1) e^{{b_n}} / sum e^{{b_i}} (n = {n}, closed)",
       claim(names + [f"b{n}", "delta"],
             hyps_(SEP, cite(f"boltz_perm.n{n}", **{f"a{n}": bn}), cite(f"boltz_perm.n{n}"),
                   cite(f"softmax_perm.n{n}", **{f"a{n}": bn}),
                   cite(f"lemma6.step_105_line1.n{n}"), cite(f"lemma6.step_105_scale.n{n}"),
                   cite("fact.chain_103", A=boltz(BB), B=boltz([an] + o), A2=boltz(o + [bn]),
                        B2=boltz(o + [an]), w=W6, D=DB, p=PB[0], p2=softmax(o + [bn])[n - 1], K=K6)),
             boltz(o + [bn]) - boltz(o + [an])
             > (an - bn) * (dg + an - bn - ln - 1) * softmax(o + [bn])[n - 1]), ["smt"])


for _n in (3, 2):
    lemma6_closed(_n)

for n in (2, 3):
    vs, a = avars(n, lo=-32, hi=32)
    b = a[:-1] + [var(f"b{n}")]
    vs_all = vs + [Var(f"b{n}", "real", F(-32), F(32)), Var("delta", "real", F(0), F(32))]
    hyps = [max_(*a[:-1]) - var("delta") > a[-1], a[-1] > b[-1], var("delta") > log(num(n)) + 3]
    rhs = (a[-1] - b[-1]) * (var("delta") + a[-1] - b[-1] - log(num(n)) - 1) * softmax(b)[-1]
    ob(f"lemma6.conclusion_103.n{n}.sampled", "ks:B.2 Lemma 6 (103)",
       f"boltz(b) - boltz(a) > (a_n - b_n)(delta + a_n - b_n - log n - 1) e^{{b_n}} / sum e^{{b_i}} (n = {n})",
       claim(vs_all, hyps, boltz(b) - boltz(a) > rhs), ["sample"],
       options=(("samples", 60), ("sampler", _lemma6_sampler(n))))
    if n == 2:
        ob("lemma6.prose_103_as_printed", "ks:B.2 Lemma 6 (prose before (103))",
           "'the difference boltz(a) - boltz(b) is lower-bounded by' the right-hand side of (103)",
           claim(vs_all, hyps, boltz(a) - boltz(b) > rhs), ["replay", "search"], expect=Verdict.REFUTED,
           hint=(("a1", F(0)), ("a2", F(-5)), ("b2", F(-6)), ("delta", F(4))),
           finding=Finding("typo", "The sentence should read boltz(b) - boltz(a), as in the display (103); "
                           "boltz(b) > boltz(a) because boltz decreases in the last coordinate.", False))
        ob("lemma6.prose_103_repaired", "ks:B.2 Lemma 6 (103)",
           "repaired prose: boltz(b) - boltz(a) is lower-bounded by the RHS of (103) (n = 2, sampled)",
           claim(vs_all, hyps, boltz(b) - boltz(a) > rhs), ["sample"], repairs="ks.boltz.lemma6.prose_103_as_printed",
           options=(("samples", 40), ("sampler", _lemma6_sampler(2)), ("seed", 7)))

# ------------------------------------------------------------------------------------------------
# B.3, the proof sketch of Lemma 1 (L836-858): the numeric examples (106)-(108), closed claims over
# boltz at integer points, each decided by an arb enclosure (the margins are far above the enclosure width).
# The '~' (approx) of (106) are no claims (boltz(8,6,5) = 7.65.., boltz(4,3,1) = 3.63..); only its strict middle,
# carried to the two boltz values as the sketch uses it ('can readily separate these two inputs'), is checked.
ob("sketch.example_106", "ks:B.3 (106) (proof sketch of Lemma 1)",
   "boltz(a^(i)) > boltz(a^(j)) for a^(i) = (8, 6, 5), a^(j) = (4, 3, 1) (the strict part of "
   "'boltz(a^(i)) ~ 8 > 4 ~ boltz(a^(j))')",
   claim([], [], boltz([num(8), num(6), num(5)]) > boltz([num(4), num(3), num(1)])), ["interval"])
ob("sketch.example_107", "ks:B.3 (107) (proof sketch of Lemma 1)",
   "boltz(a^(j)) >= boltz(bar a^(j)) with a^(j) = (8, 3, 1), bar a^(j) = (8, 3, 3)",
   claim([], [], boltz([num(8), num(3), num(1)]) >= boltz([num(8), num(3), num(3)])), ["interval"])
# (108) writes underline a^(i) = (8, 6, -inf), 'or by abuse of notation boltz(a^(i)) <= boltz(8, 6)': the
# entry -inf has weight e^{-inf} = 0, so boltz(8, 6, -inf) is read as boltz(8, 6), as the paper says
ob("sketch.example_108", "ks:B.3 (108) (proof sketch of Lemma 1)",
   "boltz(a^(i)) <= boltz(underline a^(i)) with a^(i) = (8, 6, 5), underline a^(i) = (8, 6, -inf), "
   "read 'by abuse of notation' as boltz(8, 6, 5) <= boltz(8, 6)",
   claim([], [], boltz([num(8), num(6), num(5)]) <= boltz([num(8), num(6)])), ["interval"])

# ------------------------------------------------------------------------------------------------
# Lemma 7: (114)-(131).
ob("lemma7.hyp_114_as_printed", "ks:B.3 Lemma 7 (114)",
   "tokenwise delta-separated vectors in decreasing order satisfy: i > j => a_i - a_j > delta",
   claim([Var("a1", lo=F(-5), hi=F(5)), Var("a2", lo=F(-5), hi=F(5)), Var("delta", lo=F(0), hi=F(5))],
         [var("a1") > var("a2"), var("a1") - var("a2") > var("delta"), var("delta") > 0],
         var("a2") - var("a1") > var("delta")),
   ["replay", "search"], expect=Verdict.REFUTED, hint=(("a1", F(2)), ("a2", F(0)), ("delta", F(1))),
   finding=Finding("typo", "i > j => a_j - a_i > delta (the larger index holds the smaller value); as printed the "
                   "hypotheses of Lemma 7 are contradictory for n >= 2 and the lemma would be vacuous.", False))
ob("lemma7.hyp_114_repaired", "ks:B.3 Lemma 7 (114)", "repaired: decreasing and separated => a_j - a_i > delta for i > j",
   claim(["a1", "a2", "delta"], [var("a1") > var("a2"), var("a1") - var("a2") > var("delta")],
         var("a1") - var("a2") > var("delta")), ["smt"], repairs="ks.boltz.lemma7.hyp_114_as_printed")

# (120) with k = n - 1: underline-a equals a and bar-b equals b, so the strict inequalities fail.
vs2, (A1, A2) = avars(2)
B2 = var("b2")
ob("lemma7.step_120_as_printed.k_eq_n_minus_1", "ks:B.3 (120)",
   "boltz(a) < boltz(underline a) and boltz(b) > boltz(bar b), here with n = 2, k = 1 = n - 1",
   # under Lemma 7's own hypotheses for n = 2, k = 1: (114) (as intended), (115), (116) and delta > 2 log 2 + 3
   claim(vs2 + [Var("b2", lo=F(-16), hi=F(16)), Var("dl7", lo=F(0), hi=F(16))],
         [A1 - A2 > var("dl7"), A1 - B2 > var("dl7"), A2 - B2 > var("dl7"), var("dl7") > 2 * log(num(2)) + 3],
         and_(boltz([A1, A2]) < boltz([A1, A2]), boltz([A1, B2]) > boltz([A1, B2]))),
   ["replay"], expect=Verdict.REFUTED, hint=(("a1", F(0)), ("a2", F(-6)), ("b2", F(-12)), ("dl7", F(5))),
   finding=Finding("false-step", "For k = n - 1, underline a = a and bar b = b, so (120) holds with equality: "
                   "write <= and >= (strict only when k < n - 1). The conclusion survives because (124)-(128) "
                   "are strict.", False))


ob("lemma7.step_120_repaired.k_eq_n_minus_1", "ks:B.3 (120)",
   "repaired for k = n - 1: underline a = a and bar b = b, so boltz(a) = boltz(underline a) (n = 2, k = 1)",
   claim(vs2, [], boltz([A1, A2]).eq(boltz([A1, A2][:2]))), ["identity"],
   repairs="ks.boltz.lemma7.step_120_as_printed.k_eq_n_minus_1")


def _lemma7_sampler(n, k, gap):
    """Decreasing, tokenwise gap-separated a, b sharing the first k entries, with a_{k+1} > b_{k+1}:
    2n - k distinct values, consecutive ones more than ``gap`` apart, dealt out alternately."""
    def sample(rng):
        vals = [F(rng.randrange(8 << 8, 16 << 8), 1 << 8)]
        for _ in range(2 * n - k - 1):
            vals.append(vals[-1] - gap - F(rng.randrange(1, 2 << 8), 1 << 8))
        shared, rest = vals[:k], vals[k:]
        a_, b_ = shared + rest[0::2], shared + rest[1::2]
        return {**{f"a{i + 1}": v for i, v in enumerate(a_)}, **{f"b{i + 1}": v for i, v in enumerate(b_)}}
    return sample


vs3a, a3v = avars(3, lo=-128, hi=128)
vs3b, b3v = avars(3, "b", lo=-128, hi=128)
ob("lemma7.step_120.n3k1.sampled", "ks:B.3 (120)", "boltz(a) < boltz(a_1, a_2) for k = 1 < n - 1 (n = 3, sampled)",
   claim(vs3a + vs3b, [], boltz(a3v) < boltz(a3v[:2])), ["sample"],
   options=(("samples", 40), ("sampler", _lemma7_sampler(3, 1, F(2 * math.log(3) + 3).limit_denominator(1 << 10)))))

# (120), left inequality, proved for (n, k) = (3, 1): boltz(a) < boltz(a_1, a_2) is, after clearing the positive
# denominators, a_3 < boltz(a_1, a_2), which holds since a_3 < a_2 < a_1 (a weighted average of a_1, a_2)
ob("lemma7.step_120.n3k1", "ks:B.3 (120) (left, (n, k) = (3, 1))",
   "a_1 - delta > a_2, a_2 - delta > a_3, delta > 0  =>  boltz(a_1, a_2, a_3) < boltz(a_1, a_2)",
   claim(["a1", "a2", "a3", "delta"], [a3v[0] - var("delta") > a3v[1], a3v[1] - var("delta") > a3v[2], var("delta") > 0],
         boltz(a3v) < boltz(a3v[:2])), ["smt"])

# (122): decomposition of boltz(bar b), exact for (n, k) = (3, 1) and (4, 2).
for n, k in ((3, 1), (4, 2)):
    vs, a = avars(n)
    bb = var(f"b{k + 1}")
    barb = a[:k] + [bb] * (n - k)
    shift = bb + log(num(n - k))
    xi = add(*[exp(x) for x in a[:k]])
    rhs = boltz(a[:k] + [shift]) - log(num(n - k)) * exp(shift) / (xi + exp(shift))
    ob(f"lemma7.identity_122.n{n}k{k}", "ks:B.3 (122)",
       f"boltz(bar b) = boltz(a_1..a_k, b_(k+1) + log(n-k)) - log(n-k) e^(b+log(n-k)) / (xi_k + e^(b+log(n-k))) (n={n}, k={k})",
       claim(vs[:k] + [Var(f"b{k + 1}")], [], boltz(barb).eq(rhs)), ["identity"])
    # (123): (122) minus boltz(underline a), underline a = (a_1, ..., a_{k+1}) of (118)
    unda = a[:k + 1]
    ob(f"lemma7.identity_123.n{n}k{k}", "ks:B.3 (123)",
       f"boltz(bar b) - boltz(underline a) = boltz(a_1..a_k, b_(k+1) + log(n-k)) - boltz(underline a) "
       f"- log(n-k) e^(b+log(n-k)) / (xi_k + e^(b+log(n-k))), underline a = (a_1..a_(k+1)) (n={n}, k={k})",
       claim(vs[:k + 1] + [Var(f"b{k + 1}")], [], (boltz(barb) - boltz(unda)).eq(
           boltz(a[:k] + [shift]) - boltz(unda) - log(num(n - k)) * exp(shift) / (xi + exp(shift)))), ["identity"])

ak, ak1, bk1, Lnk, Lk1, Q, c = V("ak", "ak1", "bk1", "Lnk", "Lk1", "Q", "c")
# n >= 2 tokens, case k >= 1 of the proof: 1 <= k <= n - 1 (n and k are declared real: every step holds
# for real n, k in that range, and cvc5 does not decide the product step over the integers). log n, log(n - k), log(k + 1) are
# the paper's terms; the facts about them are axiom instances (docs/axioms.md), each condition shown from
# the hypotheses before it.
nI, kI = V("n", "k")
LOGN, LOGNK, LOGK1 = log(nI), log(nI - kI), log(kI + 1)
NK = [nI >= 2, kI >= 1, kI <= nI - 1]
LOGN_POS = [axiom("log_one"), axiom("log_lt", x=num(1), y=nI)]  # log n > log 1 = 0
log_facts = [axiom("log_le", x=num(1), y=nI - kI),    # log(n - k) >= log 1 = 0
             axiom("log_le", x=nI - kI, y=nI),        # log(n - k) <= log n
             axiom("log_lt", x=num(1), y=kI + 1),     # log(k + 1) > log 1 = 0
             axiom("log_le", x=kI + 1, y=nI)]         # log(k + 1) <= log n
L7 = {"Ln": LOGN, "Lnk": LOGNK, "Lk1": LOGK1}
sep = [ak - ak1 > delta, ak1 - bk1 > delta, at(delta > 2 * Ln + 3, **L7)]
H124 = NK + sep + LOGN_POS + log_facts
V124 = ["ak", "ak1", "bk1", "delta", "n", "k"]
ob("lemma7.step_124_lemma6_applies", "ks:B.3 (124) line 1 (hypotheses of Lemma 6)",
   "max_{i<=k} a_i - delta > a_{k+1} > b_{k+1} + log(n-k) and delta > log(k+1) + 3",
   claim(V124, H124, at(and_(ak - delta > ak1, ak1 > bk1 + Lnk, delta > Lk1 + 3), **L7)), ["smt"])
FACTORS = and_(ak1 - bk1 - Lnk > delta - Ln, delta - Ln > 0,
               delta + ak1 - bk1 - Lnk - Lk1 - 1 > 2 * delta - 2 * Ln - 1, 2 * delta - 2 * Ln - 1 > 0)
ob("lemma7.step_124_line2.factors", "ks:B.3 (124) line 1->2 (each factor)",
   "a_{k+1} - b_{k+1} - log(n-k) > delta - log n > 0 and delta + a_{k+1} - b_{k+1} - log(n-k) - log(k+1) - 1 > 2 delta - 2 log n - 1 > 0",
   # (a_k, hence a_k - a_{k+1} > delta, plays no part in the factors: left out, so that a link to this step
   # fixes every variable of its hypotheses)
   claim(V124[1:], [h for h in H124 if h is not sep[0]], at(FACTORS, **L7)), ["smt"])
x1, y1, x2, y2 = V("x1", "y1", "x2", "y2")
# the factors are the terms of (124): x1 = a_{k+1} - b_{k+1} - log(n-k), y1 = delta - log n,
# x2 = delta + a_{k+1} - b_{k+1} - log(n-k) - log(k+1) - 1, y2 = 2 delta - 2 log n - 1
FAC = {"x1": at(ak1 - bk1 - Lnk, **L7), "y1": at(delta - Ln, **L7),
       "x2": at(delta + ak1 - bk1 - Lnk - Lk1 - 1, **L7), "y2": at(2 * delta - 2 * Ln - 1, **L7)}
# the product of the bounds as a lemma over plain reals (its hypothesis is the factors' conjunction, as
# that step states it), then linked at the terms of (124): the instance is the product step's goal itself
ob("lemma7.step_124_line2.mono_product", "ks:B.3 (124) line 1->2 (product of positive bounds)",
   "x1 > y1 > 0 and x2 > y2 > 0 and Q > 0  =>  x1 x2 Q > y1 y2 Q (real numbers)",
   claim(["x1", "y1", "x2", "y2", "Q"], [and_(x1 > y1, y1 > 0, x2 > y2, y2 > 0), Q > 0], x1 * x2 * Q > y1 * y2 * Q),
   ["smt"])
ob("lemma7.step_124_line2.product", "ks:B.3 (124) line 1->2 (product of the factors, times Q > 0)",
   "x1 x2 Q > y1 y2 Q when x1 > y1 > 0, x2 > y2 > 0, Q > 0",
   claim(V124[1:] + ["Q"],
         hyps_(cite("lemma7.step_124_line2.factors"), Q > 0, cite("lemma7.step_124_line2.mono_product", **FAC)),
         at(x1 * x2 * Q > y1 * y2 * Q, **FAC)),
   ["smt"])
ob("lemma7.step_125", "ks:B.3 (125)", "(delta - log n)(2 delta - 2 log n - 1) > (log n + 3)(2 log n + 5) when delta > 2 log n + 3",
   claim(["delta", "n"], [nI >= 2, at(delta > 2 * Ln + 3, Ln=LOGN), axiom("log_one"), axiom("log_le", x=num(1), y=nI)],
         at((delta - Ln) * (2 * delta - 2 * Ln - 1) > (Ln + 3) * (2 * Ln + 5), Ln=LOGN)), ["smt"])
D1, R = V("D1", "R")
ob("lemma7.step_126_plug", "ks:B.3 (126) lines 1->2", "D1 > (log n+3)(2 log n+5) Q and R = log(n-k) Q  =>  D1 - R > Q [(log n+3)(2 log n+5) - log(n-k)]",
   claim(["D1", "R", "Q", "Ln", "Lnk"], [D1 > (Ln + 3) * (2 * Ln + 5) * Q, R.eq(Lnk * Q), Q > 0],
         D1 - R > Q * ((Ln + 3) * (2 * Ln + 5) - Lnk)), ["smt"])
ob("lemma7.step_126", "ks:B.3 (126) line 2->3", "Q [(log n + 3)(2 log n + 5) - log(n-k)] > Q * 2 (log n)^2",
   claim(["Q", "n", "k"],
         [Q > 0] + NK + [axiom("log_one"), axiom("log_le", x=num(1), y=nI)] + log_facts[:2],
         at(Q * ((Ln + 3) * (2 * Ln + 5) - Lnk) > Q * 2 * Ln ** 2, **L7)), ["smt"])
xi_, E1, E2, Ea1 = V("xi", "E1", "E2", "Ea1")
# E1 = e^{b_{k+1} + log(n-k)} and E2 = e^{a_{k+1}}; log(n-k) stays a placeholder (nothing about it is used)
ob("lemma7.step_127a", "ks:B.3 (127) line 1", "xi_k + e^{b_{k+1} + log(n-k)} < xi_k + e^{a_{k+1}} (since a_{k+1} > b_{k+1} + log(n-k))",
   claim(["xi", "ak1", "bk1", "Lnk"], [ak1 > bk1 + Lnk, axiom("exp_lt", x=bk1 + Lnk, y=ak1)],
         at(xi_ + E1 < xi_ + E2, E1=exp(bk1 + Lnk), E2=exp(ak1))), ["smt"])
for k in (1, 2, 3):
    es = V(*[f"e{l}" for l in range(1, k + 2)])
    t = var("t")
    av_ = V(*[f"a{l}" for l in range(1, k + 2)])
    # a_{l+1} < a_1 - l delta (consecutive entries more than delta apart), so e^{a_{l+1}} < e^{a_1 + D_l}
    # = e^{a_1} e^{D_l}, D_l = -delta + ... + -delta (l terms) and e^{D_l} = (e^{-delta})^l
    hyps = [av_[l] - av_[l + 1] > delta for l in range(k)]
    dl = -delta
    for l in range(1, k + 1):
        if l > 1:
            hyps.append(axiom("exp_add", x=dl, y=-delta))
            dl = dl + (-delta)
        hyps += [axiom("exp_add", x=av_[0], y=dl), axiom("exp_lt", x=av_[l], y=av_[0] + dl)]
    goal = at(add(*es) < es[0] * add(*[t ** l for l in range(k + 1)]),
              t=exp(-delta), **{f"e{l + 1}": exp(av_[l]) for l in range(k + 1)})
    ob(f"lemma7.step_127b.k{k}", "ks:B.3 (127) line 2",
       f"sum_{{l<=k+1}} e^{{a_l}} < e^{{a_1}} sum_{{l<=k+1}} e^{{-(l-1) delta}} (k = {k}; t = e^{{-delta}})",
       claim([f"a{l}" for l in range(1, k + 2)] + ["delta"], hyps, goal), ["smt"])
    # delta > log 2 (the reason printed in (127)): e^{-delta} < e^{-log 2} = 1/2
    ln2 = log(num(2))
    ob(f"lemma7.step_127c.k{k}", "ks:B.3 (127) line 3", f"sum_{{l=0}}^{{k}} e^{{-l delta}} < 2 when e^{{-delta}} < 1/2 (k = {k})",
       claim(["delta"], [delta > ln2, axiom("exp_lt", x=-delta, y=-ln2), axiom("exp_neg", x=ln2), axiom("exp_log", x=num(2))],
             at(add(*[t ** l for l in range(k + 1)]) < 2, t=exp(-delta))), ["smt"])
# (127) as a whole for k = 1: xi_1 + e^{b_2 + log(n-1)} < e^{a_1} + e^{a_2} < e^{a_1}(1 + e^{-delta}) < 2 e^{a_1}
a1_, a2_, b2_ = V("a1", "a2", "b2")
T127 = exp(-delta) ** 0 + exp(-delta) ** 1
ob("lemma7.step_127.k1", "ks:B.3 (127) lines 1-3 (k = 1)",
   "xi_1 + e^{b_2 + log(n-1)} < e^{a_1} + e^{a_2} < e^{a_1}(1 + e^{-delta}) < 2 e^{a_1} (k = 1, xi_1 = e^{a_1})",
   claim(["a1", "a2", "b2", "Lnk", "delta"],
         hyps_(cite("lemma7.step_127a", xi=exp(a1_), ak1=a2_, bk1=b2_), cite("lemma7.step_127b.k1"),
               cite("lemma7.step_127c.k1")),
         and_(exp(a1_) + exp(b2_ + Lnk) < exp(a1_) + exp(a2_), exp(a1_) + exp(a2_) < exp(a1_) * T127,
              exp(a1_) * T127 < 2 * exp(a1_))), ["smt"])
Nb, Dn = V("Nb", "Dn")
N128 = exp(b2_ + Lnk)
ob("lemma7.step_128_line2", "ks:B.3 (128) line 1->2", "N/(xi + N) 2 (log n)^2 > N/(2 e^{a_1}) 2 (log n)^2 (given xi + N < 2 e^{a_1})",
   claim(["a1", "a2", "b2", "Lnk", "delta", "n"],
         hyps_(nI >= 2, LOGN_POS, cite("lemma7.step_127.k1")),
         at(Nb / Dn * 2 * Ln ** 2 > Nb / (2 * Ea1) * 2 * Ln ** 2, Nb=N128, Dn=exp(a1_) + N128, Ea1=exp(a1_), Ln=LOGN)),
   ["smt"])
a1v, bv = var("a1"), var("b")
ob("lemma7.step_128_line3_as_printed", "ks:B.3 (128) line 2->3",
   "e^{b_{k+1} + log(n-k)} / (2 e^{a_1}) * 2 (log n)^2 > (log n)^2 e^{-(a_1 - b_{k+1})}, here n = 2, k = 1",
   claim([Var("a1", lo=F(-5), hi=F(5)), Var("b", lo=F(-5), hi=F(5))], [a1v > bv],
         exp(bv + log(num(1))) / (2 * exp(a1v)) * 2 * log(num(2)) ** 2 > log(num(2)) ** 2 * exp(-(a1v - bv))),
   ["replay"], expect=Verdict.REFUTED, hint=(("a1", F(0)), ("b", F(-4))),
   finding=Finding("false-step", "The left side equals (n-k)(log n)^2 e^{-(a_1-b_{k+1})}, so '>' holds only for "
                   "k < n-1; for k = n-1 it is an equality. Write '>=' here; (128) stays strict through line 1->2.",
                   False))
m, Ee = V("m", "Ee")
ob("lemma7.step_128_line3_repaired", "ks:B.3 (128) line 2->3",
   "repaired: (n-k)(log n)^2 E >= (log n)^2 E for n - k >= 1, E = e^{-(a_1 - b_{k+1})} > 0",
   claim(["m", "Ee", "Ln"], [m >= 1, Ee > 0], m * Ln ** 2 * Ee >= Ln ** 2 * Ee), ["smt"],
   repairs="ks.boltz.lemma7.step_128_line3_as_printed")

# case k = 0: (129)-(131)
for n in (2, 3, 4):
    vs = [Var("a1"), Var("delta")]
    a1_, d_ = var("a1"), var("delta")
    bara = [a1_] + [a1_ - d_] * (n - 1)
    line2 = (a1_ + (n - 1) * (a1_ - d_) * exp(-d_)) / (1 + (n - 1) * exp(-d_))
    line3 = a1_ - (n - 1) * d_ * exp(-d_) / (1 + (n - 1) * exp(-d_))
    ob(f"lemma7.identity_130.line2.n{n}", "ks:B.3 (130) line 1->2",
       f"boltz(a_1, a_1 - delta, ...) = (a_1 + (n-1)(a_1 - delta) e^-delta) / (1 + (n-1) e^-delta) (n = {n})",
       claim(vs, [], boltz(bara).eq(line2)), ["identity"])
    ob(f"lemma7.identity_130.line3.n{n}", "ks:B.3 (130) line 2->3",
       f"(a_1 + (n-1)(a_1 - delta) e^-delta) / (1 + (n-1) e^-delta) = a_1 - (n-1) delta e^-delta / (1 + (n-1) e^-delta) (n = {n})",
       claim(vs, [], line2.eq(line3)), ["identity"])
nv, t, ba, b1 = V("n", "t", "ba", "b1")
# n = 3, over the paper's terms: boltz(bar a) = (130) line 2 = a_1 - F (both identities of (130) linked),
# F = (n-1) delta e^{-delta} / (1 + (n-1) e^{-delta}) written as (130) line 3 writes it
BARA3 = [a1_, a1_ - d_, a1_ - d_]
F131 = (3 - 1) * d_ * exp(-d_) / (1 + (3 - 1) * exp(-d_))
ob("lemma7.step_131_line2", "ks:B.3 (131) line 1->2", "boltz(bar a) - b_1 > a_1 - F - (a_1 - delta), F = (n-1) delta e^-delta / (1 + (n-1) e^-delta) (given b_1 < a_1 - delta; n = 3)",
   claim(["b1", "a1", "delta"],
         hyps_(cite("lemma7.identity_130.line2.n3"), cite("lemma7.identity_130.line3.n3"), b1 < a1_ - d_),
         at(ba - b1 > a1_ - var("F") - (a1_ - d_), ba=boltz(BARA3), F=F131)), ["smt"])
ob("lemma7.step_131_line34", "ks:B.3 (131) lines 2->4", "delta - (n-1) delta t / (1 + (n-1) t) = delta / (1 + (n-1) t)",
   # t = e^{-delta} > 0 and n >= 2 (the lemma's setting): they keep the denominator 1 + (n-1) t non-zero
   claim(["n", "delta", "t"], [nv >= 2, t > 0],
         (delta - (nv - 1) * delta * t / (1 + (nv - 1) * t)).eq(delta / (1 + (nv - 1) * t))),
   ["identity"])
# log n > 0 and e^{-delta} < e^{-log n - log n} = (1/n)^2 (since delta > 2 log n): axiom instances
LN_ = log(nv)
ob("lemma7.step_131_line5", "ks:B.3 (131) line 4->5", "delta / (1 + (n-1) e^{-delta}) >= log n when delta > 2 log n",
   claim(["n", "delta"], [nv >= 2, delta > 2 * LN_] + [axiom("log_one"), axiom("log_lt", x=num(1), y=nv)] +
         [axiom("exp_lt", x=-delta, y=-LN_ + -LN_), axiom("exp_add", x=-LN_, y=-LN_), axiom("exp_neg", x=LN_),
          axiom("exp_log", x=nv)],
         at(delta / (1 + (nv - 1) * t) >= Ln, t=exp(-delta), Ln=LN_)), ["smt"])
# log n <= log 1 + (n - 1)/1 < n (log is concave: tangent at 1); e^{-(a_1 - b_1)} < e^{-log n} = 1/n
a1b, b1b = V("a1", "b1")
ob("lemma7.step_131_note", "ks:B.3 (131) closing note", "log n > (log n)^2 e^{-(a_1 - b_1)} when a_1 - b_1 > log n",
   claim(["n", "a1", "b1"], [nv >= 2, a1b - b1b > LN_, axiom("log_one"), axiom("log_lt", x=num(1), y=nv),
                             axiom("log_tangent", x=num(1), y=nv), axiom("exp_lt", x=-(a1b - b1b), y=-LN_),
                             axiom("exp_neg", x=LN_), axiom("exp_log", x=nv)],
         at(Ln > Ln ** 2 * Ee, Ln=LN_, Ee=exp(-(a1b - b1b)))), ["smt"])

# Lemma 7 closed for (n, k) = (2, 1): a = (a_1, a_2), b = (a_1, b_2) ((116) with k = 1 writes b_1 = a_1). Then
# underline a = a and bar b = b (118)-(120) (equalities for k = n - 1, step_120_repaired), n - k = 1, so
# log(n - k) = 0 and (122)-(123) say boltz(bar b) = boltz(a_1, b_2): the terms with log(n - k) vanish and are
# left out below. (124): Lemma 6 at n = 2 (linked, closed); its hypothesis delta > log 2 + 3 from delta > 2 log 2
# + 3. (124) line 2 - (126): the factors and their product, then (delta - log 2)(2 delta - 2 log 2 - 1) >
# 2 (log 2)^2. (127)-(128): e^{b_2} < e^{a_1} gives q = e^{b_2}/(e^{a_1} + e^{b_2}) > e^{b_2}/(2 e^{a_1}), and
# e^{-(a_1 - b_2)} = e^{b_2} e^{-a_1} (exp_le both ways round would give =; one way is what is used).
L2 = log(num(2))
LOG2 = [axiom("log_one"), axiom("log_lt", x=num(1), y=num(2))]
E7 = exp(-(A1 - B2))
R7 = exp(B2) / exp(A1)
H117 = [A1 - delta > A2, A2 > B2, A2 - B2 > delta, delta > 2 * L2 + 3]  # the lemma's hypotheses at (2, 1)
V117 = ["a1", "a2", "b2", "delta"]


def _es(names):
    return " + ".join(f"e^{{{x}}}" for x in names)


def lemma7_last_steps(n, a_, bn, ln_, log_n, h, step_127):
    """(124) line 2 - (128) at (n, k) = (n, n - 1), where underline a = a, bar b = b and log(n - k) = 0: Lemma 6's
    hypotheses, the factors and their product times q = e^{b_n} / (e^{a_1} + ... + e^{b_n}) > 0, (125)-(126), then
    ``step_127`` = (statement, hypotheses) of (127)-(128) line 1->2, and (128) line 2->3. Returns the chain's terms."""
    an, b = a_[-1], bn.node[1]
    names = [f"a{i}" for i in range(1, n + 1)] + [b, "delta"]
    w, kk = an - bn, delta + an - bn - ln_ - 1
    q = softmax(a_[:-1] + [bn])[n - 1]
    y1, y2 = delta - ln_, 2 * delta - 2 * ln_ - 1
    p_, e, r = y1 * y2, exp(-(A1 - bn)), exp(bn) / exp(A1)
    tag, nk = f"lemma7.n{n}k{n - 1}", f"n = {n}, k = {n - 1}"
    qs = f"e^{{{b[0]}_{b[1:]}}}/({_es([f'a_{i}' for i in range(1, n)] + [f'{b[0]}_{b[1:]}'])})"
    if n > 2:
        ob(f"{tag}.max_lemma6", f"ks:B.3 (124) (Lemma 6's hypothesis (102) at n = {n})",
           f"a_1 - delta > a_2 > ... > a_{n} + delta  =>  max(a_1, ..., a_{n - 1}) - delta > a_{n}",
           claim(names[:n] + ["delta"], h[:n - 1], max_(*a_[:-1]) - delta > an), ["smt"])
    ob(f"{tag}.delta_lemma6", f"ks:B.3 (124) (Lemma 6's hypothesis at n = {n})",
       f"delta > 2 log {n} + 3 and log {n} > log 1 = 0  =>  delta > log {n} + 3",
       claim(["delta"], [delta > 2 * ln_ + 3] + log_n, delta > ln_ + 3), ["smt"])
    ob(f"{tag}.factors", f"ks:B.3 (124) line 1->2 (each factor, {nk})",
       f"a_{n} - b_{n} > delta - log {n} > 0 and delta + a_{n} - b_{n} - log {n} - 1 > 2 delta - 2 log {n} - 1 > 0 "
       "(log(n - k) = 0)",
       claim([f"a{n}", b, "delta"], [an - bn > delta, delta > 2 * ln_ + 3] + log_n,
             and_(w > y1, y1 > 0, kk > y2, y2 > 0)), ["smt"])
    ob(f"{tag}.product", f"ks:B.3 (124) line 1->2 (the product, times q > 0; {nk})",
       f"(a_{n} - b_{n})(delta + a_{n} - b_{n} - log {n} - 1) q > (delta - log {n})(2 delta - 2 log {n} - 1) q, q = {qs}",
       claim(names, hyps_(cite(f"{tag}.factors"), cite(f"softmax_pos.n{n}", x=bn, **{f"a{n}": bn})[-1],
                          cite("lemma7.step_124_line2.mono_product", x1=w, y1=y1, x2=kk, y2=y2, Q=q)),
             w * kk * q > p_ * q), ["smt"])
    ob(f"{tag}.step_125_126", f"ks:B.3 (125)-(126) ({nk})",
       f"(delta - log {n})(2 delta - 2 log {n} - 1) > (log {n} + 3)(2 log {n} + 5) - log 1 > 2 (log {n})^2 when delta > "
       f"2 log {n} + 3",
       claim(["delta"], [delta > 2 * ln_ + 3] + log_n, p_ > 2 * ln_ ** 2), ["smt"])
    ob(f"{tag}.step_126_scaled", f"ks:B.3 (126) (times q > 0; {nk})",
       f"(delta - log {n})(2 delta - 2 log {n} - 1) q > 2 (log {n})^2 q",
       claim(["delta"] + names[:n - 1] + [b], hyps_(cite(f"{tag}.step_125_126"),
                                                    cite(f"softmax_pos.n{n}", x=bn, **{f"a{n}": bn})[-1]),
             p_ * q > 2 * ln_ ** 2 * q), ["smt"])
    ob(f"{tag}.step_127_128", f"ks:B.3 (127)-(128) line 1->2 ({nk})", step_127[0],
       claim(names, step_127[1], 2 * ln_ ** 2 * q > ln_ ** 2 * r), ["smt"])
    ob(f"{tag}.step_128_line3", f"ks:B.3 (128) line 2->3 ({nk}; repaired '>=' is '=' here)",
       f"(log {n})^2 e^{{-(a_1 - b_{n})}} <= (log {n})^2 e^{{b_{n}}}/e^{{a_1}}  (e^{{-(a_1 - b_{n})}} <= e^{{b_{n} - a_1}} = "
       f"e^{{b_{n}}} e^{{-a_1}})",
       claim(["a1", b], log_n + [axiom("exp_add", x=bn, y=-A1), axiom("exp_neg", x=A1),
                                 axiom("exp_le", x=-(A1 - bn), y=bn + -A1)], ln_ ** 2 * e <= ln_ ** 2 * r), ["smt"])
    return names, w * kk * q, p_ * q, 2 * ln_ ** 2 * q, ln_ ** 2 * r, ln_ ** 2 * e


def lemma7_last_chain(n, a_, bn, h, terms):
    """The chain (120)-(128) at (n, n - 1) over fact.chain_117, from Lemma 6 at n (linked, closed)."""
    names, x1, x2, x3, x4, y = terms
    tag = f"lemma7.n{n}k{n - 1}"
    bs = ", ".join([f"a_{i}" for i in range(1, n)] + [f"b_{n}"])
    ob(f"{tag}.chain", f"ks:B.3 (120)-(128) for (n, k) = ({n}, {n - 1})",
       f"boltz({bs}) - boltz({', '.join(f'a_{i}' for i in range(1, n + 1))}) > (log {n})^2 e^{{-(a_1 - b_{n})}} "
       f"(Lemma 6 at n = {n}, then (124)-(128))",
       claim(names, hyps_(h, cite(f"{tag}.max_lemma6") if n > 2 else [], cite(f"{tag}.delta_lemma6"),
                          cite(f"lemma6.conclusion_103.n{n}"), cite(f"{tag}.product"), cite(f"{tag}.step_126_scaled"),
                          cite(f"{tag}.step_127_128"), cite(f"{tag}.step_128_line3"),
                          cite("fact.chain_117", D=boltz(a_[:-1] + [bn]) - boltz(a_), X1=x1, X2=x2, X3=x3, X4=x4, Y=y)),
             boltz(a_[:-1] + [bn]) - boltz(a_) > y), ["smt"])


T21 = lemma7_last_steps(2, [A1, A2], B2, L2, LOG2, H117, (
    "e^{b_2} < e^{a_1} (b_2 < a_2 < a_1), so 2 (log 2)^2 e^{b_2}/(e^{a_1} + e^{b_2}) > (log 2)^2 e^{b_2}/e^{a_1}",
    H117[:2] + [delta > 2 * L2 + 3] + LOG2 + [axiom("exp_lt", x=B2, y=A1)]))
Dc, X1c, X2c, X3c, X4c, Yc = V("D", "X1", "X2", "X3", "X4", "Y")
ob("fact.chain_117", "ks:B.3 (124)-(128) (the chain, over placeholders)",
   "D > X1 > X2 > X3 > X4 >= Y  =>  D > Y",
   claim(["D", "X1", "X2", "X3", "X4", "Y"], [Dc > X1c, X1c > X2c, X2c > X3c, X3c > X4c, Yc <= X4c], Dc > Yc), ["smt"])
lemma7_last_chain(2, [A1, A2], B2, H117, T21)
Ac, Bc = V("A", "B")
ob("fact.abs_117", "ks:B.3 (117) (the absolute value)", "B - A > Y  =>  |A - B| > Y",
   claim(["A", "B", "Y"], [Bc - Ac > Yc], abs_(Ac - Bc) > Yc), ["smt"])


def conclusion_117(k, vars_, hyps, b_, e, abs_lemma, note, a_=(A1, A2), ln_=L2):
    """(117) at (n, k), n = len(a_), closed: the chain step's goal, then |.| by ``abs_lemma`` (over placeholders)."""
    n, a_, y = len(a_), list(a_), ln_ ** 2 * e
    ob(f"lemma7.conclusion_117.n{n}k{k}", f"ks:B.3 Lemma 7 (117), (n, k) = ({n}, {k})",
       f"|boltz(a) - boltz(b)| > (log n)^2 e^{{-(a_1 - b_{{k+1}})}} for n = {n}, k = {k} ({note})",
       claim(vars_, hyps_(hyps, cite(f"lemma7.n{n}k{k}.chain"), cite(abs_lemma, A=boltz(a_), B=boltz(b_), Y=y)),
             abs_(boltz(a_) - boltz(b_)) > y), ["smt"])


conclusion_117(1, V117, H117, [A1, B2], E7, "fact.abs_117", "b_1 = a_1; closed")

# Lemma 7 closed for (n, k) = (2, 0): a_1 > b_1, so (115) gives b_1 < a_1 - delta. (129): boltz(a) >
# boltz(bar a), bar a = (a_1, a_1 - delta), by Lemma 4 at n = 2 and the monotonicity rule: x -> boltz(x, a_1) is
# decreasing for x < a_1 - log 2 - 1, which holds on [a_2, a_1 - delta]. (130) at n = 2 (the identities above,
# linked), boltz(b) <= b_1 (a weighted average), and (131) with n = 2: delta - F = delta / (1 + e^{-delta}) >=
# log 2 > (log 2)^2 e^{-(a_1 - b_1)}.
B1 = var("b1")
ob("lemma7.n2k0.lemma4_applies", "ks:B.3 (129) (Lemma 4 applies on x < a_1 - delta, n = 2)",
   "x < a_1 - delta and delta > 2 log 2 + 3 (log 2 > 0)  =>  x < max(x, a_1) - log 2 - 1",
   claim(["x", "a1", "delta"], [xg < A1 - delta, delta > 2 * L2 + 3] + LOG2, xg < max_(xg, A1) - L2 - 1), ["smt"])
ob("lemma7.n2k0.decreasing", "ks:B.3 (129) (boltz(x, a_1) decreases on (a_2, a_1 - delta), n = 2)",
   "a_2 < x < a_1 - delta: d/dx boltz(x, a_1) < 0 (Lemma 4 (84) at (x, a_1))",
   claim(["x", "a1", "a2", "delta"],
         hyps_(xg > A2, xg < A1 - delta, delta > 2 * L2 + 3, cite("lemma7.n2k0.lemma4_applies"),
               cite("lemma4.conclusion_84.n2", a1=xg, a2=A1)),
         diff(boltz([xg, A1]), xg) < 0), ["smt"])
ob("lemma7.n2k0.step_129", "ks:B.3 (129) (boltz(a) > boltz(bar a), n = 2)",
   "a_2 < a_1 - delta: boltz(a_2, a_1) > boltz(a_1 - delta, a_1) (the mean value theorem on the step above)",
   claim(["a1", "a2", "delta"],
         hyps_(A1 - delta > A2, delta > 2 * L2 + 3,
               mvt_hyp(_o("lemma7.n2k0.decreasing"), a1=A1, a2=A2)),
         boltz([A2, A1]) > boltz([A1 - delta, A1])), ["smt"])
ob("lemma7.n2k0.boltz_le_b1", "ks:B.3 (131) line 1 (boltz(b) <= b_1, a weighted average; n = 2)",
   "b_1 - delta > b_2, delta > 2 log 2 + 3 > 0  =>  boltz(b_1, b_2) <= b_1",
   claim(["b1", "b2", "delta"], [B1 - delta > B2, delta > 2 * L2 + 3] + LOG2, boltz([B1, B2]) <= B1), ["smt"])
F2 = (2 - 1) * delta * exp(-delta) / (1 + (2 - 1) * exp(-delta))
E70 = exp(-(A1 - B1))
ob("lemma7.n2k0.step_131", "ks:B.3 (131) lines 2-5 and closing note (n = 2)",
   "delta - F = delta / (1 + e^{-delta}) >= log 2 > (log 2)^2 e^{-(a_1 - b_1)}, F = delta e^{-delta} / (1 + e^{-delta})",
   claim(["a1", "b1", "delta"],
         [B1 < A1 - delta, delta > 2 * L2 + 3] + LOG2 +
         [axiom("log_tangent", x=num(1), y=num(2)), axiom("exp_lt", x=-delta, y=-L2 + -L2),
          axiom("exp_add", x=-L2, y=-L2), axiom("exp_neg", x=L2), axiom("exp_log", x=num(2)),
          axiom("exp_lt", x=-(A1 - B1), y=num(0)), axiom("exp_zero")],
         delta - F2 > L2 ** 2 * E70), ["smt"])
Ac2, A2c, A3c, A4c, A5c, Bc2, bc, ac, dc, Fc = V("A", "A2", "A3", "A4", "A5", "B", "b", "a", "d", "F")
ob("fact.chain_131", "ks:B.3 (129)-(131) (the chain, over placeholders)",
   "A = A2 > A3 = A4 = A5 = a - F, B <= b < a - d, d - F > Y  =>  A - B > Y",
   claim(["A", "A2", "A3", "A4", "A5", "B", "b", "a", "d", "F", "Y"],
         [Ac2.eq(A2c), A2c > A3c, A3c.eq(A4c), A4c.eq(A5c), A5c.eq(ac - Fc), Bc2 <= bc, bc < ac - dc, dc - Fc > Yc],
         Ac2 - Bc2 > Yc), ["smt"])
BARA2 = [A1, A1 - delta]
LINE2 = (A1 + (2 - 1) * (A1 - delta) * exp(-delta)) / (1 + (2 - 1) * exp(-delta))
H1170 = [A1 - delta > A2, B1 - delta > B2, B1 < A1 - delta, delta > 2 * L2 + 3]  # the lemma's hypotheses at (2, 0)
V1170 = ["a1", "a2", "b1", "b2", "delta"]
ob("lemma7.n2k0.chain", "ks:B.3 (129)-(131) for (n, k) = (2, 0)",
   "boltz(a) - boltz(b) > (log 2)^2 e^{-(a_1 - b_1)} (Lemma 4 at n = 2, (130), boltz(b) <= b_1, (131))",
   claim(V1170, hyps_(H1170, cite("boltz_perm.n2"), cite("lemma7.n2k0.step_129"),
                      cite("boltz_perm.n2", a1=A1 - delta, a2=A1), cite("lemma7.identity_130.line2.n2"),
                      cite("lemma7.identity_130.line3.n2"), cite("lemma7.n2k0.boltz_le_b1"),
                      cite("lemma7.n2k0.step_131"),
                      cite("fact.chain_131", A=boltz([A1, A2]), A2=boltz([A2, A1]), A3=boltz([A1 - delta, A1]),
                           A4=boltz(BARA2), A5=LINE2, B=boltz([B1, B2]), b=B1, a=A1, d=delta, F=F2, Y=L2 ** 2 * E70)),
         boltz([A1, A2]) - boltz([B1, B2]) > L2 ** 2 * E70), ["smt"])
ob("fact.abs_117.pos", "ks:B.3 (117) (the absolute value)", "A - B > Y  =>  |A - B| > Y",
   claim(["A", "B", "Y"], [Ac - Bc > Yc], abs_(Ac - Bc) > Yc), ["smt"])

# Lemma 7 closed for (n, k) = (3, 0): a_1 > b_1, so (115) gives b_1 < a_1 - delta. (129): boltz(a) > boltz(bar a),
# bar a = (a_1, a_1 - delta, a_1 - delta), in two moves by Lemma 4 (84) at n = 3 and the monotonicity rule:
# x -> boltz(a_1, x, a_3) decreases on (a_2, a_1 - delta) (i = 2), then x -> boltz(a_1, a_1 - delta, x) on
# (a_3, a_1 - delta) (i = 3). (130) at n = 3 (the identities above, linked), boltz(b) <= b_1, and (131) with
# n = 3: delta - F = delta / (1 + 2 e^{-delta}) > (log 3)^2 e^{-(a_1 - b_1)}.
A3v, B3v = var("a3"), var("b3")
LOG3 = [axiom("log_one"), axiom("log_lt", x=num(1), y=num(3))]
AD = A1 - delta
ob("lemma7.n3k0.sorted", "ks:B.3 (114), repaired (n = 3)",
   "a_1 - delta > a_2, a_2 - delta > a_3, delta > 2 log 3 + 3  =>  a_1 - delta > a_3",
   claim(["a1", "a2", "a3", "delta"], [AD > A2, A2 - delta > A3v, delta > 2 * LN3 + 3] + LOG3, AD > A3v), ["smt"])
for i_, lo_, others in ((2, A2, {}), (3, A3v, {"a2": AD})):
    vec = [A1, xg, A3v] if i_ == 2 else [A1, AD, xg]
    ob(f"lemma7.n3k0.applies.i{i_}", f"ks:B.3 (129) (Lemma 4's hypothesis at i = {i_}, n = 3)",
       f"x < a_1 - delta and delta > 2 log 3 + 3 (log 3 > 0)  =>  x < max(the vector) - log 3 - 1 (x at coordinate {i_})",
       claim(["x", "a1", "a3", "delta"] if i_ == 2 else ["x", "a1", "delta"],
             [xg < AD, delta > 2 * LN3 + 3] + LOG3, xg < max_(*vec) - LN3 - 1), ["smt"])
    ob(f"lemma7.n3k0.decreasing.i{i_}", f"ks:B.3 (129) (boltz decreases in coordinate {i_} on "
       f"({'a_2' if i_ == 2 else 'a_3'}, a_1 - delta), n = 3)",
       f"{'a_2' if i_ == 2 else 'a_3'} < x < a_1 - delta: d/dx boltz({'a_1, x, a_3' if i_ == 2 else 'a_1, a_1 - delta, x'}) < 0 "
       f"(Lemma 4 (84) at n = 3, i = {i_})",
       claim(["x", "a1", "a2", "a3", "delta"] if i_ == 2 else ["x", "a1", "a3", "delta"],
             hyps_(xg > lo_, xg < AD, delta > 2 * LN3 + 3, cite(f"lemma7.n3k0.applies.i{i_}"),
                   cite(f"lemma4.conclusion_84.n3.i{i_}", **{f"a{i_}": xg}, **others)),
             diff(boltz(vec), xg) < 0), ["smt"])
BARA3V = [A1, AD, AD]
ob("lemma7.n3k0.boltz_le_b1", "ks:B.3 (131) line 1 (boltz(b) <= b_1, a weighted average; n = 3)",
   "b_1 - delta > b_2, b_2 - delta > b_3, delta > 2 log 3 + 3 > 0  =>  boltz(b_1, b_2, b_3) <= b_1",
   claim(["b1", "b2", "b3", "delta"], [B1 - delta > B2, B2 - delta > B3v, delta > 2 * LN3 + 3] + LOG3,
         boltz([B1, B2, B3v]) <= B1), ["smt"])
F3 = (3 - 1) * delta * exp(-delta) / (1 + (3 - 1) * exp(-delta))
ob("lemma7.n3k0.step_131", "ks:B.3 (131) lines 2-5 and closing note (n = 3)",
   "delta - F = delta / (1 + 2 e^{-delta}) >= log 3 > (log 3)^2 e^{-(a_1 - b_1)}, F = 2 delta e^{-delta} / (1 + 2 "
   "e^{-delta})",
   claim(["a1", "b1", "delta"],
         [B1 < AD, delta > 2 * LN3 + 3] + LOG3 +
         [axiom("log_tangent", x=num(1), y=num(3)), axiom("exp_lt", x=-delta, y=-LN3 + -LN3),
          axiom("exp_add", x=-LN3, y=-LN3), axiom("exp_neg", x=LN3), axiom("exp_log", x=num(3)),
          axiom("exp_lt", x=-(A1 - B1), y=num(0)), axiom("exp_zero")],
         delta - F3 > LN3 ** 2 * exp(-(A1 - B1))), ["smt"])
ob("fact.chain_131.n3", "ks:B.3 (129)-(131) (the chain with two moves, over placeholders)",
   "A > A2 > A3 = A4 = a - F, B <= b < a - d, d - F > Y  =>  A - B > Y",
   claim(["A", "A2", "A3", "A4", "B", "b", "a", "d", "F", "Y"],
         [Ac2 > A2c, A2c > A3c, A3c.eq(A4c), A4c.eq(ac - Fc), Bc2 <= bc, bc < ac - dc, dc - Fc > Yc],
         Ac2 - Bc2 > Yc), ["smt"])
LINE2_3 = (A1 + (3 - 1) * AD * exp(-delta)) / (1 + (3 - 1) * exp(-delta))
H3K0 = [AD > A2, A2 - delta > A3v, B1 - delta > B2, B2 - delta > B3v, B1 < AD, delta > 2 * LN3 + 3]
V3K0 = ["a1", "a2", "a3", "b1", "b2", "b3", "delta"]
E30 = exp(-(A1 - B1))
ob("lemma7.n3k0.chain", "ks:B.3 (129)-(131) for (n, k) = (3, 0)",
   "boltz(a) - boltz(b) > (log 3)^2 e^{-(a_1 - b_1)} ((129) by Lemma 4 at n = 3 twice, (130), boltz(b) <= b_1, (131))",
   # (129) in two moves, each the mean value theorem on a step above: boltz(a) > boltz(a_1, a_1 - delta, a_3) >
   # boltz(bar a) (a_2 < a_1 - delta, and a_3 < a_1 - delta from the sorted step)
   claim(V3K0, hyps_(H3K0, LOG3, cite("lemma7.n3k0.sorted"),
                     mvt_hyp(_o("lemma7.n3k0.decreasing.i2"), a1=A1, a3=A3v),
                     mvt_hyp(_o("lemma7.n3k0.decreasing.i3"), a1=A1),
                     cite("lemma7.identity_130.line2.n3"), cite("lemma7.identity_130.line3.n3"),
                     cite("lemma7.n3k0.boltz_le_b1"), cite("lemma7.n3k0.step_131"),
                     cite("fact.chain_131.n3", A=boltz([A1, A2, A3v]), A2=boltz([A1, AD, A3v]), A3=boltz(BARA3V), A4=LINE2_3,
                          B=boltz([B1, B2, B3v]), b=B1, a=A1, d=delta, F=F3, Y=LN3 ** 2 * E30)),
         boltz([A1, A2, A3v]) - boltz([B1, B2, B3v]) > LN3 ** 2 * E30), ["smt"])
conclusion_117(0, V3K0, H3K0, [B1, B2, B3v], E30, "fact.abs_117.pos", "closed", a_=(A1, A2, A3v), ln_=LN3)
conclusion_117(0, V1170, H1170, [B1, B2], E70, "fact.abs_117.pos", "closed")

# Lemma 7 closed for (n, k) = (3, 2) = (n, n - 1): a = (a_1, a_2, a_3), b = (a_1, a_2, b_3) ((116) with k = 2 writes
# b_1 = a_1, b_2 = a_2). As at (2, 1): underline a = a and bar b = b (step_120_repaired), log(n - k) = 0, (124) is
# Lemma 6 at n = 3 (linked, closed), (124) line 2 - (126) the factors and their product, and (127): e^{a_1} +
# e^{a_2} + e^{b_3} < 2 e^{a_1}, since e^{a_2}, e^{b_3} < e^{a_1 - delta} = e^{a_1} e^{-delta} < e^{a_1} / 9.
B3_ = var("b3")
ADm = A1 + -delta
E32 = exp(-(A1 - B3_))
H32 = [AD > A2, A2 - delta > A3v, A3v > B3_, A3v - B3_ > delta, delta > 2 * LN3 + 3]  # the lemma's hypotheses at (3, 2)
V32 = ["a1", "a2", "a3", "b3", "delta"]
T32 = lemma7_last_steps(3, [A1, A2, A3v], B3_, LN3, LOG3, H32, (
    "e^{a_2}, e^{b_3} < e^{a_1 - delta} = e^{a_1} e^{-delta} and e^{-delta} < e^{-2 log 3} = 1/9, so e^{a_1} + e^{a_2} + "
    "e^{b_3} < 2 e^{a_1} and 2 (log 3)^2 q > (log 3)^2 e^{b_3}/e^{a_1}",
    H32 + LOG3 + [axiom("exp_lt", x=A2, y=ADm), axiom("exp_lt", x=B3_, y=ADm), axiom("exp_add", x=A1, y=-delta),
                  axiom("exp_lt", x=-delta, y=-LN3 + -LN3), axiom("exp_add", x=-LN3, y=-LN3), axiom("exp_neg", x=LN3),
                  axiom("exp_log", x=num(3))]))
lemma7_last_chain(3, [A1, A2, A3v], B3_, H32, T32)
conclusion_117(2, V32, H32, [A1, A2, B3_], E32, "fact.abs_117", "b_1 = a_1, b_2 = a_2; closed", a_=(A1, A2, A3v),
               ln_=LN3)

# Lemma 7 conclusion (117), sampled on random separated vectors.
for n, k in ((2, 1), (3, 1), (3, 0), (4, 2)):
    vsa, av = avars(n, lo=-128, hi=128)
    vsb, bv_ = avars(n, "b", lo=-128, hi=128)
    gap = F(2 * math.log(n) + 3).limit_denominator(1 << 10) + F(1, 1 << 10)
    ob(f"lemma7.conclusion_117.n{n}k{k}.sampled", "ks:B.3 Lemma 7 (117)",
       f"|boltz(a) - boltz(b)| > (log n)^2 e^{{-(a_1 - b_{{k+1}})}} (n = {n}, k = {k}, delta > 2 log n + 3)",
       claim(vsa + vsb, [], abs_(boltz(av) - boltz(bv_)) > log(num(n)) ** 2 * exp(-(av[0] - bv_[k]))), ["sample"],
       options=(("samples", 40), ("dps", 60), ("sampler", _lemma7_sampler(n, k, gap))))

# ------------------------------------------------------------------------------------------------
# Lemma 1: (110)-(113), (15)-(16).
a = V("a1", "a2", "a3")
ps = V("p1", "p2", "p3")
ob("lemma1.step_110.n3", "ks:B.3 (110)",
   "|boltz(a)| = |sum a_i p_i| <= max(|a_1|, |a_n|) for a_1 > a_2 > a_3, p in the simplex (weighted average)",
   claim(["a1", "a2", "a3"], hyps_(a[0] > a[1], a[1] > a[2], simplex(a)),
         at(abs_(add(*[x * q for x, q in zip(a, ps)])) <= max_(abs_(a[0]), abs_(a[2])),
            **{f"p{i + 1}": q for i, q in enumerate(softmax(a))})), ["smt"])
r, a1v, bk = V("r", "a1", "bk")
ob("lemma1.step_113a", "ks:B.3 (113)", "|a_1| < r and |b_{k+1}| < r  =>  a_1 - b_{k+1} < 2 r",
   claim(["r", "a1", "bk"], [abs_(a1v) < r, abs_(bk) < r], a1v - bk < 2 * r), ["smt"])
ob("lemma1.step_113b", "ks:B.3 (113)", "(log n)^2 e^{-(a_1 - b_{k+1})} > (log n)^2 e^{-2r}",
   claim(["r", "a1", "bk", "n"], [a1v - bk < 2 * r, nv >= 2, axiom("log_one"), axiom("log_lt", x=num(1), y=nv),
                                  axiom("exp_lt", x=-2 * r, y=-(a1v - bk))],
         at(Ln ** 2 * exp(-(a1v - bk)) > Ln ** 2 * exp(-2 * r), Ln=LN_)), ["smt"])

for n in (2, 3, 4):
    vsa, av = avars(n, lo=-128, hi=128)
    vsb, bv_ = avars(n, "b", lo=-128, hi=128)
    gap = F(2 * math.log(n) + 3).limit_denominator(1 << 10) + F(1, 1 << 10)
    rr = max_(*[abs_(x) for x in av + bv_]) + F(1, 1 << 10)
    ob(f"lemma1.conclusion_16.n{n}.sampled", "ks:3.4 Lemma 1 (15)-(16)",
       f"|boltz(a)| <= r and |boltz(a) - boltz(b)| > (log n)^2 e^{{-2r}} (n = {n}, r = max|entry| + 2^-10)",
       claim(vsa + vsb, [], and_(abs_(boltz(av)) <= rr, abs_(boltz(av) - boltz(bv_)) > log(num(n)) ** 2 * exp(-2 * rr))),
       ["sample"], options=(("samples", 40), ("dps", 60), ("sampler", _lemma7_sampler(n, n // 2, gap))))

# Lemma 1 closed for n = 2 (m = 2, the pair a, b), from Lemma 7 closed at n = 2.
# As printed, (16) is claimed for every pair with a^(i) != a^(j). boltz is symmetric, so a pair that is one
# vector permuted (a = (1, -5), b = (-5, 1)) meets every hypothesis and has boltz(a) = boltz(b): the proof's
# "w.l.o.g. a_1 > ... > a_n and b_1 > ... > b_n" then "if a != b" reads a != b for the *sorted* vectors.
# Repaired (what Theorem 2 uses, V^(i) != V^(j)): a^(i) and a^(j) are not permutations of each other; for n = 2,
# (a_1, a_2) != (b_1, b_2) and (a_1, a_2) != (b_2, b_1).
# Definition 1 (3) for scalars: x != y => |x - y| > delta, written x - y = 0 or |x - y| > delta.
R1 = var("r")
Xl, Yl, Zl = V("x", "y", "z")


def tsep(x, y):
    return or_((x - y).eq(0), abs_(x - y) > delta)


NE_AB = or_(A1.ne(B1), A2.ne(B2))            # (a_1, a_2) != (b_1, b_2)
NE_AB_SWAP = or_(A1.ne(B2), A2.ne(B1))       # (a_1, a_2) != (b_2, b_1): the repair
BOUNDS_R = [abs_(x) < R1 for x in (A1, A2, B1, B2)]                                 # Definition 1 (2)
SEP_AB = [tsep(A1, B1), tsep(A1, B2), tsep(A2, B1), tsep(A2, B2)]                        # Definition 1 (3)
G16 = abs_(boltz([A1, A2]) - boltz([B1, B2])) > L2 ** 2 * exp(-2 * R1)               # (16) at n = 2
V16 = ["a1", "a2", "b1", "b2", "r", "delta"]
ob("lemma1.statement_16_as_printed.n2", "ks:3.4 Lemma 1 (15)-(16) (L181-191)",
   "as printed, for n = 2: a^(1) = a, a^(2) = b tokenwise (r, delta)-separated with no duplicate element, "
   "delta > 2 log 2 + 3 and a != b  =>  |boltz(a) - boltz(b)| > (log 2)^2 e^{-2r}",
   claim([Var(s, "real", F(-8), F(8)) for s in ("a1", "a2", "b1", "b2")] + [Var("r", "real", F(0), F(8)),
                                                                              Var("delta", "real", F(0), F(8))],
         BOUNDS_R + [A1.ne(A2), B1.ne(B2), tsep(A1, A2), tsep(B1, B2)] + SEP_AB + [NE_AB, delta > 2 * L2 + 3], G16),
   ["replay"], expect=Verdict.REFUTED,
   hint=(("a1", F(1)), ("a2", F(-5)), ("b1", F(-5)), ("b2", F(1)), ("r", F(11, 2)), ("delta", F(5))),
   finding=Finding("false-step", "Read a^(i) != a^(j) as 'a^(i) is not a permutation of a^(j)' (different "
                   "multisets; with no duplicate element, different sets of entries). boltz is symmetric, so a "
                   "permuted pair has equal outputs; the proof sorts both vectors w.l.o.g. and then compares the "
                   "sorted ones. Theorem 2 applies the lemma with V^(i) != V^(j), which is the repaired reading.",
                   False))

# Small steps, over their own variables (instantiated by the links below).
ob("lemma1.n2.gap_k0", "ks:B.3 (111) with k = 0 (the case a_1 - b_1 >= delta/2)",
   "2(x - y) - delta >= 0, x - y = 0 or |x - y| > delta, delta > 2 log 2 + 3  =>  y < x - delta",
   claim(["x", "y", "delta"], [2 * (Xl - Yl) - delta >= 0, tsep(Xl, Yl), delta > 2 * L2 + 3] + LOG2,
         Yl < Xl - delta), ["smt"])
ob("lemma1.n2.gap_k0.sw", "ks:B.3 (111) with k = 0, a and b swapped (the case b_1 - a_1 >= delta/2)",
   "2(y - x) - delta >= 0, x - y = 0 or |x - y| > delta, delta > 2 log 2 + 3  =>  x < y - delta",
   claim(["x", "y", "delta"], [2 * (Yl - Xl) - delta >= 0, tsep(Xl, Yl), delta > 2 * L2 + 3] + LOG2,
         Xl < Yl - delta), ["smt"])
for sw, (hi, lo, hn, ln_) in (("", (Xl, Yl, "x", "y")), (".sw", (Yl, Xl, "y", "x"))):
    ob(f"lemma1.n2.gap_k1{sw}", "ks:B.3 (111) with k = 1" + (", a and b swapped" if sw else ""),
       f"2({hn} - {ln_}) - delta >= 0, x - y = 0 or |x - y| > delta, delta > 2 log 2 + 3  =>  {hn} - {ln_} > delta",
       claim(["x", "y", "delta"], [2 * (hi - lo) - delta >= 0, tsep(Xl, Yl), delta > 2 * L2 + 3] + LOG2,
             hi - lo > delta), ["smt"])
    ob(f"lemma1.n2.gt_k1{sw}", "ks:B.3 (111) with k = 1" + (", a and b swapped" if sw else ""),
       f"2({hn} - {ln_}) - delta >= 0, x - y = 0 or |x - y| > delta, delta > 2 log 2 + 3  =>  {hn} > {ln_}",
       claim(["x", "y", "delta"], [2 * (hi - lo) - delta >= 0, tsep(Xl, Yl), delta > 2 * L2 + 3] + LOG2,
             hi > lo), ["smt"])
ob("lemma1.n2.equal", "ks:B.3 (111) (the shared entries)",
   "|x - y| <= delta/2 (both signs), x - y = 0 or |x - y| > delta, delta > 2 log 2 + 3  =>  x = y",
   claim(["x", "y", "delta"], [2 * (Xl - Yl) - delta <= 0, 2 * (Yl - Xl) - delta <= 0, tsep(Xl, Yl),
                               delta > 2 * L2 + 3] + LOG2, Xl.eq(Yl)), ["smt"])
ob("lemma1.n2.sorted_gap", "ks:B.3 (proof of Lemma 1: sorted, no duplicate element)",
   "x - y >= 0, x != y, x - y = 0 or |x - y| > delta  =>  x - delta > y",
   claim(["x", "y", "delta"], [Xl - Yl >= 0, Xl.ne(Yl), tsep(Xl, Yl)], Xl - delta > Yl), ["smt"])
ob("lemma1.n2.sorted_gap.sw", "ks:B.3 (proof of Lemma 1: sorted, no duplicate element)",
   "x - y <= 0, x != y, x - y = 0 or |x - y| > delta  =>  y - delta > x",
   claim(["x", "y", "delta"], [Xl - Yl <= 0, Xl.ne(Yl), tsep(Xl, Yl)], Yl - delta > Xl), ["smt"])
x1_, y1_, x2_, y2_ = V("x1", "y1", "x2", "y2")
ob("lemma1.n2.or_swap", "ks:B.3 (proof of Lemma 1: a != b read for the sorted vectors)",
   "x1 != y1 or x2 != y2  =>  x2 != y2 or x1 != y1",
   claim(["x1", "y1", "x2", "y2"], [or_(x1_.ne(y1_), x2_.ne(y2_))], or_(x2_.ne(y2_), x1_.ne(y1_))), ["smt"])
ob("lemma1.n2.boltz_first_eq", "ks:B.3 (116) (b_1 = a_1: the same first entry)",
   "x = y  =>  boltz(x, z) = boltz(y, z)  (e^x = e^y: exp_le both ways)",
   claim(["x", "y", "z"], [Xl.eq(Yl), axiom("exp_le", x=Xl, y=Yl), axiom("exp_le", x=Yl, y=Xl)],
         boltz([Xl, Zl]).eq(boltz([Yl, Zl]))), ["smt"])
ob("lemma1.step_113.n2", "ks:B.3 (113) (n = 2)",
   "|a_1| < r, |b_{k+1}| < r  =>  (log 2)^2 e^{-(a_1 - b_{k+1})} > (log 2)^2 e^{-2r}",
   claim(["a1", "bk", "r"], [abs_(a1v) < R1, abs_(bk) < R1] + LOG2 + [axiom("exp_lt", x=-2 * R1, y=-(a1v - bk))],
         L2 ** 2 * exp(-(a1v - bk)) > L2 ** 2 * exp(-2 * R1)), ["smt"])
Dl, Yc_, Zc_, Ap, Bp = V("D", "Y", "Z", "A2", "B2")
Av_, Bv_ = V("A", "B")
ob("fact.chain_16", "ks:B.3 (112)-(113) (the chain, over placeholders)", "|D| > Y > Z  =>  |D| > Z",
   claim(["D", "Y", "Z"], [abs_(Dl) > Yc_, Yc_ > Zc_], abs_(Dl) > Zc_), ["smt"])
ob("fact.chain_16.swap", "ks:B.3 (112)-(113) (the chain, a and b swapped, over placeholders)",
   "|B - A| > Y > Z  =>  |A - B| > Z", claim(["A", "B", "Y", "Z"], [abs_(Bv_ - Av_) > Yc_, Yc_ > Zc_],
                                             abs_(Av_ - Bv_) > Zc_), ["smt"])
ob("fact.chain_16.eq", "ks:B.3 (112)-(113) (the chain, b_1 = a_1, over placeholders)",
   "|A - B2| > Y > Z, B2 = B  =>  |A - B| > Z",
   claim(["A", "B", "B2", "Y", "Z"], [abs_(Av_ - Bp) > Yc_, Bp.eq(Bv_), Yc_ > Zc_], abs_(Av_ - Bv_) > Zc_), ["smt"])
ob("fact.chain_16.swap_eq", "ks:B.3 (112)-(113) (the chain, a and b swapped, a_1 = b_1, over placeholders)",
   "|B - A2| > Y > Z, A = A2  =>  |A - B| > Z",
   claim(["A", "B", "A2", "Y", "Z"], [abs_(Bv_ - Ap) > Yc_, Av_.eq(Ap), Yc_ > Zc_], abs_(Av_ - Bv_) > Zc_), ["smt"])
ob("fact.perm_16.a", "ks:B.3 (proof of Lemma 1: w.l.o.g. sorted, over placeholders)",
   "|A2 - B| > Z, A2 = A  =>  |A - B| > Z",
   claim(["A", "B", "A2", "Z"], [abs_(Ap - Bv_) > Zc_, Ap.eq(Av_)], abs_(Av_ - Bv_) > Zc_), ["smt"])
ob("fact.perm_16.b", "ks:B.3 (proof of Lemma 1: w.l.o.g. sorted, over placeholders)",
   "|A - B2| > Z, B2 = B  =>  |A - B| > Z",
   claim(["A", "B", "B2", "Z"], [abs_(Av_ - Bp) > Zc_, Bp.eq(Bv_)], abs_(Av_ - Bv_) > Zc_), ["smt"])
ob("fact.perm_16", "ks:B.3 (proof of Lemma 1: w.l.o.g. sorted, over placeholders)",
   "|A2 - B2| > Z, A2 = A, B2 = B  =>  |A - B| > Z",
   claim(["A", "B", "A2", "B2", "Z"], [abs_(Ap - Bp) > Zc_, Ap.eq(Av_), Bp.eq(Bv_)], abs_(Av_ - Bv_) > Zc_), ["smt"])


def _split(id_, ref, statement, first, plain, pos, neg, goal, vars_, **kw):
    """A node of a proof by cases on a sign: ``pos`` (T >= 0) and ``neg`` (T <= 0) both prove ``goal``."""
    ob(id_, ref, statement, claim(vars_, hyps_([first] if first is not None else [], plain,
                                                [cases_hyp(_o(pos), _o(neg))]), goal), ["smt"], **kw)


# The sorted core: a_1 > a_2, b_1 > b_2 (separated), (a_1, a_2) != (b_1, b_2). Cases on the first entries
# (T_A = 2(a_1 - b_1) - delta, T_B = 2(b_1 - a_1) - delta), then on the second (T_C, T_D) when a_1 = b_1:
# k = 0 for (a, b) or (b, a), k = 1 for (a, b) or (b, a), or a = b (excluded).
H_CORE = [A1 - delta > A2, B1 - delta > B2] + SEP_AB + [NE_AB] + BOUNDS_R + [delta > 2 * L2 + 3] + LOG2
TA, TB, TC, TD = (2 * (A1 - B1) - delta, 2 * (B1 - A1) - delta, 2 * (A2 - B2) - delta, 2 * (B2 - A2) - delta)
CORE = "lemma1.n2.sorted"
REF_L1 = "ks:B.3 proof of Lemma 1 (111)-(113), n = 2"
ob(f"{CORE}.k0", REF_L1 + ", k = 0",
   "a_1 - b_1 >= delta/2: then b_1 < a_1 - delta and Lemma 7 (2, 0) gives (117), so (113)",
   claim(V16, hyps_(TA >= 0, H_CORE, cite("lemma1.n2.gap_k0", x=A1, y=B1),
                    cite("lemma7.conclusion_117.n2k0"), cite("lemma1.step_113.n2", bk=B1),
                    cite("fact.chain_16", D=boltz([A1, A2]) - boltz([B1, B2]), Y=L2 ** 2 * exp(-(A1 - B1)),
                         Z=L2 ** 2 * exp(-2 * R1))), G16), ["smt"])
ob(f"{CORE}.k0.sw", REF_L1 + ", k = 0 with a and b swapped",
   "b_1 - a_1 >= delta/2: then a_1 < b_1 - delta and Lemma 7 (2, 0) for (b, a) gives (117), so (113)",
   claim(V16, hyps_(TB >= 0, TA <= 0, H_CORE, cite("lemma1.n2.gap_k0.sw", x=A1, y=B1),
                    cite("lemma7.conclusion_117.n2k0", a1=B1, a2=B2, b1=A1, b2=A2),
                    cite("lemma1.step_113.n2", a1=B1, bk=A1),
                    cite("fact.chain_16.swap", A=boltz([A1, A2]), B=boltz([B1, B2]), Y=L2 ** 2 * exp(-(B1 - A1)),
                         Z=L2 ** 2 * exp(-2 * R1))), G16), ["smt"])
EQ1 = cite("lemma1.n2.equal", x=A1, y=B1)
ob(f"{CORE}.k1", REF_L1 + ", k = 1",
   "a_1 = b_1 and a_2 - b_2 >= delta/2: Lemma 7 (2, 1) gives (117) (b_1 written a_1), so (113)",
   claim(V16, hyps_(TC >= 0, TB <= 0, TA <= 0, H_CORE, EQ1, cite("lemma1.n2.gap_k1", x=A2, y=B2),
                    cite("lemma1.n2.gt_k1", x=A2, y=B2), cite("lemma7.conclusion_117.n2k1"),
                    cite("lemma1.n2.boltz_first_eq", x=A1, y=B1, z=B2), cite("lemma1.step_113.n2", bk=B2),
                    cite("fact.chain_16.eq", A=boltz([A1, A2]), B=boltz([B1, B2]), B2=boltz([A1, B2]),
                         Y=L2 ** 2 * exp(-(A1 - B2)), Z=L2 ** 2 * exp(-2 * R1))), G16), ["smt"])
ob(f"{CORE}.k1.sw", REF_L1 + ", k = 1 with a and b swapped",
   "a_1 = b_1 and b_2 - a_2 >= delta/2: Lemma 7 (2, 1) for (b, a) gives (117), so (113)",
   claim(V16, hyps_(TD >= 0, TC <= 0, TB <= 0, TA <= 0, H_CORE, EQ1, cite("lemma1.n2.gap_k1.sw", x=A2, y=B2),
                    cite("lemma1.n2.gt_k1.sw", x=A2, y=B2), cite("lemma7.conclusion_117.n2k1", a1=B1, a2=B2, b2=A2),
                    cite("lemma1.n2.boltz_first_eq", x=A1, y=B1, z=A2), cite("lemma1.step_113.n2", a1=B1, bk=A2),
                    cite("fact.chain_16.swap_eq", A=boltz([A1, A2]), B=boltz([B1, B2]), A2=boltz([B1, A2]),
                         Y=L2 ** 2 * exp(-(B1 - A2)), Z=L2 ** 2 * exp(-2 * R1))), G16), ["smt"])
ob(f"{CORE}.same", REF_L1 + ", a = b (excluded)",
   "|a_i - b_i| <= delta/2 for i = 1, 2 gives a = b, which (a_1, a_2) != (b_1, b_2) excludes",
   claim(V16, hyps_(TD <= 0, TC <= 0, TB <= 0, TA <= 0, H_CORE, EQ1, cite("lemma1.n2.equal", x=A2, y=B2)), G16),
   ["smt"])
_split(f"{CORE}.second", REF_L1, "a_1 = b_1 (|a_1 - b_1| <= delta/2), a_2 - b_2 <= delta/2: cases on b_2 - a_2",
       TC <= 0, [TB <= 0, TA <= 0] + H_CORE, f"{CORE}.k1.sw", f"{CORE}.same", G16, V16)
_split(f"{CORE}.equal_first", REF_L1, "|a_1 - b_1| <= delta/2: cases on a_2 - b_2",
       TB <= 0, [TA <= 0] + H_CORE, f"{CORE}.k1", f"{CORE}.second", G16, V16)
_split(f"{CORE}.not_k0", REF_L1, "a_1 - b_1 <= delta/2: cases on b_1 - a_1",
       TA <= 0, H_CORE, f"{CORE}.k0.sw", f"{CORE}.equal_first", G16, V16)
_split(CORE, REF_L1, "sorted a_1 > a_2, b_1 > b_2 (separated), (a_1, a_2) != (b_1, b_2)  =>  (16): cases on a_1 - b_1",
       None, H_CORE, f"{CORE}.k0", f"{CORE}.not_k0", G16, V16)

# (16) at n = 2 for any order of the entries: cases on a_1 - a_2 and b_1 - b_2 (no duplicate element and
# Definition 1 (3) make each vector separated once sorted); the sorted core at the sorted vectors, and boltz is
# symmetric (boltz_perm.n2).
H_TOP = BOUNDS_R + [A1.ne(A2), B1.ne(B2), tsep(A1, A2), tsep(B1, B2)] + SEP_AB + [NE_AB, NE_AB_SWAP, delta > 2 * L2 + 3] + LOG2
U1, U2 = A1 - A2, B1 - B2
REF_TOP = "ks:3.4 Lemma 1 (16), repaired; B.3 proof (w.l.o.g. sorted), n = 2"
GAP_A = {True: cite("lemma1.n2.sorted_gap", x=A1, y=A2), False: cite("lemma1.n2.sorted_gap.sw", x=A1, y=A2)}
GAP_B = {True: cite("lemma1.n2.sorted_gap", x=B1, y=B2), False: cite("lemma1.n2.sorted_gap.sw", x=B1, y=B2)}
for pa in (True, False):
    for pb in (True, False):
        sa, sb = ([A1, A2] if pa else [A2, A1]), ([B1, B2] if pb else [B2, B1])
        inst = dict(a1=sa[0], a2=sa[1], b1=sb[0], b2=sb[1])
        swap = []
        if pa != pb:   # the core's (a_1, a_2) != (b_1, b_2) at the sorted vectors is the other one, reordered
            swap = cite("lemma1.n2.or_swap", x1=A1, y1=B2, x2=A2, y2=B1) if not pa else []
        elif not pa:
            swap = cite("lemma1.n2.or_swap", x1=A1, y1=B1, x2=A2, y2=B2)
        perm = (cite("boltz_perm.n2", a1=A2, a2=A1)[-1:] if not pa else []) + \
               (cite("boltz_perm.n2", a1=B2, a2=B1)[-1:] if not pb else [])
        Zt = L2 ** 2 * exp(-2 * R1)
        tail = ([] if pa and pb else
                cite("fact.perm_16.b", A=boltz([A1, A2]), B=boltz([B1, B2]), B2=boltz(sb), Z=Zt) if pa else
                cite("fact.perm_16.a", A=boltz([A1, A2]), B=boltz([B1, B2]), A2=boltz(sa), Z=Zt) if pb else
                cite("fact.perm_16", A=boltz([A1, A2]), B=boltz([B1, B2]), A2=boltz(sa), B2=boltz(sb), Z=Zt))
        tag = ("ge" if pa else "le") + ("ge" if pb else "le")
        ob(f"lemma1.n2.order_{tag}", REF_TOP,
           f"a_1 - a_2 {'>=' if pa else '<='} 0, b_1 - b_2 {'>=' if pb else '<='} 0: the sorted core at "
           f"({'a_1, a_2' if pa else 'a_2, a_1'}), ({'b_1, b_2' if pb else 'b_2, b_1'})",
           claim(V16, hyps_(U2 >= 0 if pb else U2 <= 0, U1 >= 0 if pa else U1 <= 0, H_TOP, GAP_A[pa], GAP_B[pb], swap,
                            perm, cite(CORE, **inst), tail), G16), ["smt"])
_split("lemma1.n2.order_ge", REF_TOP, "a_1 - a_2 >= 0: cases on b_1 - b_2", U1 >= 0, H_TOP,
       "lemma1.n2.order_gege", "lemma1.n2.order_gele", G16, V16)
_split("lemma1.n2.order_le", REF_TOP, "a_1 - a_2 <= 0: cases on b_1 - b_2", U1 <= 0, H_TOP,
       "lemma1.n2.order_lege", "lemma1.n2.order_lele", G16, V16)
_split("lemma1.conclusion_16.n2", "ks:3.4 Lemma 1 (16), repaired, n = 2",
       "(16) for n = 2, repaired: a, b tokenwise (r, delta)-separated with no duplicate element, delta > 2 log 2 + 3, "
       "b not a permutation of a  =>  |boltz(a) - boltz(b)| > (log 2)^2 e^{-2r}: cases on a_1 - a_2",
       None, H_TOP, "lemma1.n2.order_ge", "lemma1.n2.order_le", G16, V16,
       repairs="ks.boltz.lemma1.statement_16_as_printed.n2")
ob("lemma1.conclusion_15.n2", "ks:3.4 Lemma 1 (15), n = 2 (B.3 (110))",
   "|a_1| < r, |a_2| < r  =>  |boltz(a_1, a_2)| <= r (a weighted average)",
   claim(["a1", "a2", "r"], BOUNDS_R[:2], abs_(boltz([A1, A2])) <= R1), ["smt"])

# Rigorous hard instances: delta barely above 2 log n + 3 and the first k entries shared.


def _hard_instance(n):
    d = F(2 * math.log(n) + 3).limit_denominator(1 << 12) + F(1, 1 << 12)
    a_ = [F(0) - i * d for i in range(n)]           # a shares all but the last entry with b
    b_ = a_[:-1] + [a_[-1] - d]
    shift = (a_[0] + b_[-1]) / 2                     # centre to keep r small
    return [x - shift for x in a_], [x - shift for x in b_]


for n in (2, 3, 5):
    a_, b_ = _hard_instance(n)
    rr = max(abs(x) for x in a_ + b_) + F(1, 1 << 10)
    A = [num(x) for x in a_]
    B = [num(x) for x in b_]
    ob(f"lemma1.hard_instance.n{n}", "ks:3.4 Lemma 1 (16)",
       f"|boltz(a) - boltz(b)| > (log n)^2 e^{{-2r}} on a hard instance: shared prefix, delta = 2 log n + 3 + 2^-12 (n = {n})",
       claim([], [], abs_(boltz(A) - boltz(B)) > log(num(n)) ** 2 * exp(-2 * num(rr))), ["interval"])

# ------------------------------------------------------------------------------------------------
# Appendix C: masking (133).
vs, a = avars(3)
cs = V("c1", "c2", "c3")
ac = [x + y for x, y in zip(a, cs)]
pc = softmax(ac)
ob("masking_133.finite", "ks:C (133) lines 1->2", "boltz(a + c) = a^T softmax(a + c) + c^T softmax(a + c) (n = 3, finite c)",
   claim(vs + [Var(c_.node[1]) for c_ in cs], [],
         boltz(ac).eq(add(*[x * q for x, q in zip(a, pc)]) + add(*[y * q for y, q in zip(cs, pc)]))), ["identity"])
tt, Ea, Eb = V("t", "Ea", "Eb")
ob("masking_133.masked_term_vanishes", "ks:C (133) line 2->3",
   "with c = (0, -t): |c^T softmax(a + c)| <= t e^{a_2 - t} / e^{a_1}, which tends to 0 as t -> infinity",
   claim(["t", "a1", "a2"], [tt > 0, axiom("exp_pos", x=var("a1")), axiom("exp_pos", x=var("a2") - tt)],
         at(abs_(-tt * Eb / (Ea + Eb)) <= tt * Eb / Ea, Ea=exp(var("a1")), Eb=exp(var("a2") - tt))), ["smt"],
   finding=Finding("implicit-convention",
                   "Read (133) as the limit c_i -> -inf (each masked term is bounded by t e^{a_i - a_j - t} -> 0), "
                   "or adopt 0 * (-inf) = 0; also require at least one unmasked entry, else softmax(a + c) is 0/0. "
                   "Evaluated literally in IEEE arithmetic, (-inf) * 0 is NaN.", False))

# ------------------------------------------------------------------------------------------------
# Sharpness experiment: counterexamples to Lemma 1's conclusion below its hypothesis (data file
# written by benchmarks/sharpness_sweep.py). Each is replayed rigorously; they are not errata.
_DATA = os.path.join(os.path.dirname(__file__), "data", "boltz_sharpness.json")
if os.path.exists(_DATA):
    with open(_DATA, encoding="utf-8") as fh:
        _rows = json.load(fh).get("rows", [])
    for row in _rows:
        cx = row.get("counterexample")
        if not cx:
            continue
        n = int(row["n"])
        vsa, av = avars(n)
        vsb, bv_ = avars(n, "b")
        point = tuple([(f"a{i + 1}", F(s)) for i, s in enumerate(cx["a"])] + [(f"b{i + 1}", F(s)) for i, s in enumerate(cx["b"])])
        rr = F(cx["r"])
        ob(f"lemma1.sharpness.n{n}", "ks:3.4 Lemma 1 (14) sharpness",
           f"below (14): at delta = {float(F(cx['delta'])):.4g} < 2 log {n} + 3 the conclusion (16) fails for some "
           f"tokenwise (r, delta)-separated a != b (n = {n}, r = {float(rr):.4g})",
           claim(vsa + vsb, [], abs_(boltz(av) - boltz(bv_)) > log(num(n)) ** 2 * exp(-2 * num(rr))),
           ["replay"], expect=Verdict.REFUTED, hint=point)


def planted() -> list[Obligation]:
    """Wrong constants planted in (84) and (16): each must come out REFUTED (negative tests)."""
    out = []
    vs, a = avars(2)
    out.append(Obligation("ks.boltz.planted.lemma4_log_n_minus_1", PAPER, "ks:B.2 (84) planted",
                          "PLANTED: a_2 < max a - log n + 1 => d boltz / d a_2 < 0",
                          claim(vs, [a[1] < max_(*a) - log(num(2)) + 1], diff(boltz(a), a[1]) < 0),
                          ("search",), expect=Verdict.REFUTED, family="ks_boltzmann_planted"))
    # (16) with e^{-2r} replaced by e^{-r}. ((log n)^3 in place of (log n)^2 is NOT refutable for small n:
    # the proof of Lemma 7 has slack (n-k)(log n + 3)(2 log n + 5) / (2 (log n)^2); see docs/boltzmann.md.)
    n = 3
    vsa, av = avars(n, lo=-128, hi=128)
    vsb, bv_ = avars(n, "b", lo=-128, hi=128)
    gap = F(2 * math.log(n) + 3).limit_denominator(1 << 10) + F(1, 1 << 10)
    rr = max_(*[abs_(x) for x in av + bv_]) + F(1, 1 << 10)
    out.append(Obligation("ks.boltz.planted.lemma1_exp_minus_r", PAPER, "ks:3.4 (16) planted",
                          "PLANTED: |boltz(a) - boltz(b)| > (log n)^2 e^{-r} (e^{-2r} replaced by e^{-r})",
                          claim(vsa + vsb, [], abs_(boltz(av) - boltz(bv_)) > log(num(n)) ** 2 * exp(-rr)),
                          ("search",), expect=Verdict.REFUTED, family="ks_boltzmann_planted",
                          options=(("samples", 60), ("dps", 60), ("sampler", _lemma7_sampler(n, 2, gap)))))
    # the closed (117) at (n, k) = (2, 1) with the exponent's sign dropped: e^{+(a_1 - b_2)} >= e^delta is far
    # above any difference of two boltz values in [b_2, a_1]; replayed at a point of the lemma's hypotheses
    vs2_ = avars(2, lo=-16, hi=16)[0] + [Var("b2", "real", F(-16), F(16)), Var("delta", "real", F(0), F(16))]
    out.append(Obligation("ks.boltz.planted.lemma7_n2k1_exp_plus", PAPER, "ks:B.3 (117) planted",
                          "PLANTED: |boltz(a) - boltz(b)| > (log 2)^2 e^{+(a_1 - b_2)} at (n, k) = (2, 1)",
                          claim(vs2_, H117, abs_(boltz([A1, A2]) - boltz([A1, B2])) > L2 ** 2 * exp(A1 - B2)),
                          ("replay",), expect=Verdict.REFUTED, family="ks_boltzmann_planted",
                          hint=(("a1", F(0)), ("a2", F(-6)), ("b2", F(-12)), ("delta", F(5)))))
    # the closed (117) at (n, k) = (3, 0) with the exponent's sign dropped, at a point of the lemma's hypotheses
    vs3_ = [Var(f"{c}{i}", "real", F(-32), F(32)) for c in "ab" for i in (1, 2, 3)] + [Var("delta", "real", F(0), F(16))]
    out.append(Obligation("ks.boltz.planted.lemma7_n3k0_exp_plus", PAPER, "ks:B.3 (117) planted",
                          "PLANTED: |boltz(a) - boltz(b)| > (log 3)^2 e^{+(a_1 - b_1)} at (n, k) = (3, 0)",
                          claim(vs3_, H3K0, abs_(boltz([A1, A2, A3v]) - boltz([B1, B2, B3v])) > LN3 ** 2 * exp(A1 - B1)),
                          ("replay",), expect=Verdict.REFUTED, family="ks_boltzmann_planted",
                          hint=(("a1", F(0)), ("a2", F(-6)), ("a3", F(-12)), ("b1", F(-6)), ("b2", F(-12)),
                                ("b3", F(-18)), ("delta", F(11, 2)))))
    # and at (n, k) = (3, 2)
    vs32_ = [Var(s_, "real", F(-32), F(32)) for s_ in ("a1", "a2", "a3", "b3")] + [Var("delta", "real", F(0), F(16))]
    out.append(Obligation("ks.boltz.planted.lemma7_n3k2_exp_plus", PAPER, "ks:B.3 (117) planted",
                          "PLANTED: |boltz(a) - boltz(b)| > (log 3)^2 e^{+(a_1 - b_3)} at (n, k) = (3, 2)",
                          claim(vs32_, H32, abs_(boltz([A1, A2, A3v]) - boltz([A1, A2, B3_])) > LN3 ** 2 * exp(A1 - B3_)),
                          ("replay",), expect=Verdict.REFUTED, family="ks_boltzmann_planted",
                          hint=(("a1", F(0)), ("a2", F(-6)), ("a3", F(-12)), ("b3", F(-18)), ("delta", F(11, 2)))))
    return out


FAMILY = family("ks_boltzmann", PAPER, "Boltzmann operator: Lemmas 1, 4-7 and masking (3.4, B.2, B.3, C)",
                ob_list, doc="docs/boltzmann.md")
