"""InfoFlow (Yu, Jiang, Bao, Li 2026), Theorem 3 / Theorem 6: encoding and decoding cost (Appendix A.3).

Only the counting and exponent steps are encoded so far (the built construction and the packing witness
are not; see docs/theorem6.md). m = T0 d (L825); t = 2^L with L = ceil(log2(2m/eps)) (L831);
q = ceil(mL/n) (L868). Powers with real exponents are named variables with their facts as hypotheses.
"""

from __future__ import annotations


from attncert.claims import Finding, Obligation, claim, fact
from attncert.expr import and_, exp, implies, log, num, var
from attncert.families import family

PAPER = "infoflow"
obs: list[Obligation] = []


def ob(id_, ref, statement, c, methods, **kw):
    obs.append(Obligation(id=f"infoflow.thm6.{id_}", paper=PAPER, ref=ref, statement=statement, claim=c,
                          methods=tuple(methods), **kw))


m, n, eps, t, u, q, L, M, s, E, delta = (var(x) for x in ("m", "n", "eps", "t", "u", "q", "L", "M", "s", "E", "delta"))

ob("L_choice_831", "infoflow:A.3 (L831)",
   "t = 2^L with L = ceil(log2(2m/eps)): 2^-L <= eps/(2m) and 2^L < 4m/eps",
   claim(["m", "eps", "t"], [m >= 1, eps > 0, fact(t * eps >= 2 * m, "ceil: 2^L >= 2m/eps"),
                             fact(t * eps < 4 * m, "ceil: L < log2(2m/eps) + 1")],
         and_(1 / t <= eps / (2 * m), t < 4 * m / eps)), ["smt"])
ob("truncation_lp_839", "infoflow:A.3 (L839)",
   "||V - V^(L)||_p <= m^(1/p) eps/(2m) <= eps/2 for p >= 1 (u = m^(1/p) in [1, m])",
   claim(["m", "eps", "u"], [m >= 1, eps > 0, fact(u >= 1, "fact:m^(1/p) >= 1"), fact(u <= m, "fact:m^(1/p) <= m for p >= 1")],
         u * eps / (2 * m) <= eps / 2), ["smt"])
two_q, two_L_mn = exp(q * log(num(2))), exp(m * L / n * log(num(2)))
ob("two_q_892", "infoflow:A.3 (L892)", "2^q = 2^ceil(mL/n) <= 2 (2^L)^(m/n)",
   claim(["q", "m", "n", "L"], [n >= 1, fact(q < m * L / n + 1, "ceil: q < mL/n + 1"),
                                fact(implies(q < m * L / n + 1, two_q < exp((m * L / n + 1) * log(num(2)))), "fact:exp is increasing"),
                                fact(exp((m * L / n + 1) * log(num(2))).eq(2 * two_L_mn), "fact:e^(x + log 2) = 2 e^x")],
         two_q <= 2 * two_L_mn), ["smt"])
ob("decoder_count_896", "infoflow:A.3 (L896)",
   "decoder units n(2^q - 1) < 2 n (4m/eps)^(m/n), from 2^q <= 2 (2^L)^(m/n) and 2^L < 4m/eps",
   claim(["n", "Q", "P", "W"], [n >= 1, fact(var("Q") <= 2 * var("P"), "infoflow.thm6.two_q_892"),
                                 fact(var("P") < var("W"), "fact:x -> x^(m/n) increasing, 2^L < 4m/eps (L_choice_831)")],
         n * (var("Q") - 1) < 2 * n * var("W")), ["smt"])
ob("total_count_exponent", "infoflow:A.3 (L896) vs Thm 6 bullet 1 (L808)",
   "encoder O(m 2^L) = O(1/eps) is dominated by the decoder O(eps^(-m/n)) when m > n: exponent -m/n <= -1",
   claim(["m", "n"], [n >= 1, m > n], -m / n <= -1), ["smt"])
# Lemma 1 (L900-943) with explicit R, for p = 2: the two tail terms are < delta^p / 3
ob("lemma1_tail_927.p2", "infoflow:A.3 Lemma 1 (L927)",
   "with s = (1 - tanh R)/2 = 1/(1 + e^{2R}) and e^{4R} > 6M/delta^2: s^2 M + s^2 M < delta^2/3 (p = 2)",
   claim(["s", "E", "M", "delta"], [M > 0, delta > 0, E > 0, fact((s * (1 + E)).eq(1), "(1 - tanh R)/2 = 1/(1 + e^{2R}), E = e^{2R}"),
                                     fact(E * E * delta ** 2 > 6 * M, "choice R > ln(6M/delta^2)/4")],
         s ** 2 * M + s ** 2 * M < delta ** 2 / 3), ["smt"])
# statements compared
ob("exponent_bullet2_vs_proof", "infoflow:Thm 6 bullet 2 (L810) vs A.3 (L1012)",
   "bullet 2's exponent min(1 - m/n, 0) is the proof's lower-bound exponent 1 - m/n when m > n (as 1 - m/n < 0)",
   claim(["m", "n"], [n >= 1, m > n], 1 - m / n < 0), ["smt"],
   finding=Finding("statement-mismatch", "Theorem 6 bullet 2 (L810) and informal Theorem 3 (L144) write O(eps^(1 - T0 d/n)) "
                   "for what the proof (L1004-1012) derives as a LOWER bound: read Omega.", False,
                   "Also: for continuous f1, f2 and T0 d > n the bullet-2 hypothesis (L-infinity error <= eps < 1/2) "
                   "cannot hold (Borsuk-Ulam), so bullet 2 is vacuous as stated; not machine-checked here."))
ob("exponent_informal_vs_upper", "infoflow:Thm 3 (L144) vs Thm 6 bullet 1 (L808)",
   "the informal exponent 1 - T0 d/n and the upper bound's -T0 d/n differ by exactly 1",
   claim(["m", "n"], [n >= 1], ((1 - m / n) - (-m / n)).eq(1)), ["identity"],
   finding=Finding("statement-mismatch", "Informal Theorem 3 states O(eps^(1 - T0 d/n)); the construction of Theorem 6 "
                   "gives O(eps^(-T0 d/n)) and the packing argument gives Omega(eps^(1 - T0 d/n)): the informal "
                   "statement mixes the lower bound's exponent with the upper bound's O.", False))

FAMILY = family("infoflow_thm6", PAPER, "Theorem 3 / 6: encoding and decoding cost (A.3), counting steps", obs,
                doc="docs/theorem6.md")
