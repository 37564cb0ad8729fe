"""Theorem-level records (issue 16): one record per numbered lemma, theorem, proposition and corollary of the
two papers, in reading order (InfoFlow, then Kajitsuka-Sato), with a separate record for the repaired version
of each statement that is false as printed. Verdicts are computed by ``attncert.core.theorems`` from the step
graph, never declared here.

How the records were made
- A root is a step whose claim states the result: its goal is the result's conclusion and its plain
  hypotheses are the result's hypotheses. Where only instances are transcribed (n = 3, ...) the roots are
  those instances and ``instances`` gives the range exactly. Where no step states the result (only pieces of
  its proof are transcribed), ``blocking`` says what is missing; a root is still listed only when it truly
  states the conclusion (infoflow Theorem 5, ks Lemma 3), and then ``blocking`` keeps the record OPEN for
  what the root does not carry.
- ``hypotheses`` names a plain hypothesis of a root only when it is a hypothesis (or a definition) of the
  paper's statement. Plain premises that are facts about the proof's own quantities are deliberately NOT
  named (they stay as blocking steps); each case is listed in a comment at the record.
- Sampled roots (CONFIRMED) are listed with every sampled instance: several CONFIRMED roots make the record
  OPEN ("... is CONFIRMED"), which is the honest result (numerical evidence for a few n, no proof).
- Refs: ``infoflow:... (Lnnn)`` are line numbers of papers/infoflow-2605.17930.txt; ``ks:... (Lnnn)`` of
  papers/kajitsuka-sato-iclr2024.txt; (nn) are the papers' equation numbers.
"""

from __future__ import annotations

from attncert.core.theorems import theorem

# ------------------------------------------------------------------------------------------------ InfoFlow


# the definitions named by the general-n roots of Lemmas 4 and 5 (proofs/ks_general.py): a = (b_1, ..., b_N, x),
# x the coordinate a_i that varies, b the others in their order
GENERAL_DEFS = {
    "Q == sum_{i=1..N} [exp(b(i))]": "definition: Q = sum_{j != i} e^{a_j} (b = the coordinates other than a_i = x, "
                                     "in their order)",
    "P == sum_{i=1..N} [b(i)*exp(b(i))]": "definition: P = sum_{j != i} a_j e^{a_j}, so boltz(a) = (P + x e^x)/(Q + e^x)",
    "l == log((Q + exp(x)))": "definition: L(a) = log sum_j e^{a_j}",
    "ln == log((N + 1))": "definition: log n",
    "w == exp((l - ln))": "definition: w = e^{L(a) - log n} (an auxiliary of Gibbs' inequality)",
    "S == -(sum_{i=1..N} [exp(b(i))*(b(i) - l)] + exp(x)*(x - l))/(Q + exp(x))":
        "definition: S(p) = -sum_j p_j log p_j with log p_j = a_j - L(a) (the rewrite (85) rests on; a log of a term "
        "of the index is not a total body, docs/theorems.md)",
}

INFOFLOW = [
    theorem(
        "infoflow.theorem1", "infoflow", "Theorem 1", "infoflow:Thm 1 (informal, L64-74)",
        "There exists a target F: X^T -> R such that (1) a single-layer Transformer with H heads and per-head "
        "dimension n must incur parameter count at least Omega(eps^{-k(T)}), k(T) = (T - 2H)/(H(n+1) + 1) - 1, "
        "to eps-approximate F; (2) for every eps > 0 there is a two-layer Transformer with one head per layer "
        "and per-head dimension 6 with parameter count at most O(eps^{-1}) that eps-approximates F.",
        blocking="informal version of Theorem 4 (infoflow.theorem4), which is not established; no step states "
                 "this statement. Its k(T) is weaker than Theorem 4's k (infoflow.thm4.k_formal_vs_informal) and "
                 "it omits the model constraints (||P_phi|| <= 1, weights <= 1) and the condition T - H - 1 > "
                 "H(n+1) + 1 on which the bound rests (infoflow.thm4.constraints_informal)",
    ),
    theorem(
        "infoflow.theorem2", "infoflow", "Theorem 2", "infoflow:Thm 2 (informal, L86-88)",
        "For a given k with 2 <= k << T, if a softmax attention head with embedding dimension n retrieves the "
        "information of the token with the k-th largest attention score with precision eps > 0, then it "
        "requires at least Omega(eps^{1 - (T-k-1)/(n+1)}) parameters in the feed-forward blocks.",
        blocking="informal version of Theorem 5 (infoflow.theorem5), which is not established; no step states "
                 "this statement. Its exponent is weaker than Theorem 5's by 1/(n+1) "
                 "(infoflow.thm5.exponent_formal_vs_informal)",
    ),
    theorem(
        "infoflow.theorem3", "infoflow", "Theorem 3", "infoflow:Thm 3 (informal, L142-144)",
        "For an index set I of size T0, if a two-layer FFN f1 encodes X[I] in [0,1]^n and f2 decodes X^[I] "
        "from [0,1]^n, and X^[I] = f2(f1(X[I])) is eps-close to X[I] for all X_T, then f1 and f2 have "
        "parameter count of O(eps^{1 - T0 d/n}).",
        blocking="informal version of Theorem 6 (infoflow.theorem6), which is not established; no step states "
                 "this statement. It writes O with the lower bound's exponent 1 - T0 d/n, while Theorem 6's "
                 "construction gives O(eps^{-T0 d/n}) and its packing argument Omega(eps^{1 - T0 d/n}) "
                 "(infoflow.thm6.exponent_informal_vs_upper, exponent_bullet2_vs_proof)",
    ),
    theorem(
        "infoflow.proposition1", "infoflow", "Proposition 1", "infoflow:Prop. 1 (informal, L222-225); B.1 (45)-(50)",
        "For target (6), F(X_T) = sum_{i=1}^D max_{s,t} x(s)^T A_i x(t): the Number of Comparison of F is upper "
        "bounded by D T^2 + o(T^2), and its Dimension and Order of Comparison are beta_1 = beta' = 2. A "
        "two-layer Transformer with (h1, h2) heads using only max position aggregation has Number of "
        "Comparison at most O(h1 T^2); to learn F we need h1 >= D. There exists a two-layer Transformer with "
        "(D, D) heads using only max position aggregation that learns the target.",
        blocking="no step states the proposition: B.1's pieces are transcribed (the set sizes (L1034), "
                 "(45)->(48) with (47) repaired, the (D,D) construction size (49)-(50), the pairwise leaves for "
                 "small T), but the step 'we need h1 >= D' (L1041) is REFUTED as derived "
                 "(infoflow.model.p1.h1_ge_D_as_printed: B.1 gives no lower bound D T^2 - o(T^2) on the "
                 "target's Number of Comparison, and h1 = 1 already meets C(T,2) - D); the claim is unsupported, "
                 "not shown false",
    ),
    theorem(
        "infoflow.proposition2", "infoflow", "Proposition 2", "infoflow:Prop. 2 (informal, L238-240); B.2 (51)-(55), L1065",
        "If a target F has Order of Comparison beta' > 2, then for an L-layer, H-heads-per-layer Transformer "
        "with embedding dimension E there is a constant C > 0 such that eps-approximation of F_T requires a "
        "parameter cost of Omega(eps^{1 - C T^{(beta'-1)/beta_1}/(L E)}).",
        blocking="no step states the proposition: B.2's chain (51)-(55) and the bound M >= C T^{(beta'-1)/beta_1}/L "
                 "(L1065, with H L T^{beta_1} repaired to H L T^2) are transcribed, but the passage from M to the "
                 "parameter cost rests on the cost law of 5.2, which is not a theorem; and B.2 ends with "
                 "O(1/eps^{M/E}), not the stated Omega(eps^{1 - M/E}) (infoflow.model.p2.exponent_B2_vs_statement)",
    ),
    theorem(
        "infoflow.theorem4", "infoflow", "Theorem 4", "infoflow:Thm 4 (L314-320), with (8)-(9) and the constraints (L302-312)",
        "For X = [-1,1]^3, F(X_T) = min_{s,t} 2(1 + x(s)^T x(t)) (8), delta(M) = sup |F - M| (9), and models "
        "with ||P_phi(x(s), s)||_2 <= 1 and every FFN weight and attention-matrix entry bounded by 1 in "
        "magnitude: (i) a single-layer transformer M1 with H heads and per-head dimension n with "
        "delta(M1) <= eps has parameter count Omega(eps^{-k}), k = (T - H - 1)/(H(n+1) + 1) - 1; (ii) for "
        "every eps > 0 there is a two-layer transformer M2 with 1 head per layer and per-head dimension 6, "
        "with parameter count O(eps^{-1}), such that delta(M2) <= eps.",
        blocking="only steps of the proof are transcribed: part (i) through (10)-(38) (as printed on ||V_j|| <= 1 "
                 "of L408, REFUTED as printed; the repaired norm bound sqrt(nE) is carried through in "
                 "infoflow.thm4.chain_r.*, with the ratio cells delta/sqrt(nE)), the 4 eps gap and Lemma 4 "
                 "of Yu et al. (cited, not transcribed; infoflow.thm4.lemma4_exponent takes its inputs A, B as "
                 "premises, one of them, A <= eps^{k+1}/2, REFUTED as printed and repaired only up to the "
                 "constant); part (ii) through the weights, the error budget (39)-(43) and the repaired network "
                 "(the printed output block violates the weight constraint, infoflow.thm4.output_block_weights). "
                 "No step states Omega(eps^{-k}) for every single-layer M1, nor the existence of M2 with its "
                 "parameter count. The argmax of L361 ranges over an infinite set: that (z(t), t) is one of its "
                 "candidates is a plain premise of infoflow.thm4.lambda_le_M (docs/theorems.md, 'Premises the "
                 "language cannot state')",
    ),
    # Root: the final width bound of A.2 (L786), p >= C_{T,k,n} eps^{1 - m/(n+1)}, m = T - k + 1, which implies
    # the statement's Omega(eps^{-o}) (o is smaller by 1/(n+1): infoflow.thm5.exponent_proof_vs_formal).
    # The definitions s = m/(n+1), x = 1/(16 m eps), y = exp(s log N), w = exp(s log(3/(64 m eps))),
    # E = exp(s log eps), Cm = exp(s log(3/(64 m))) and eta = 4 m / y are checked as definitions (E, Cm and s
    # write the statement's eps^{-o} and C; the others are the proof's). Not named (they stay as blocking
    # premises): N = floor(x) (the pair's grid size: it is in eta's definition, which the pair's closeness uses, so
    # it cannot be a witness while the pair is a premise; a
    # definition names one value), and the colliding pair. The norms G, S, Th are the root's witnesses
    # (exists_sqrt, exists_seq_sqrt: docs/axioms.md, "Existence"), and eta > 0 is shown in place (follows).
    # The power rules between them are axiom instances (log_le, exp_le, log_div, exp_add).
    theorem(
        "infoflow.theorem5", "infoflow", "Theorem 5", "infoflow:Thm 5 (L571-577), (44); A.2 (L782-790)",
        "Let f1: [0,1] -> [0,1]^n and f2: [0,1]^n -> [0,1] be two-layer tanh FFNs with weights bounded by 1, "
        "rho: [0,1] -> R non-decreasing, and M(X_T) = f2(sum_t exp(rho(x(t))) f1(x(t)) / sum_t "
        "exp(rho(x(t)))) (44). If max_{X_T} |M(X_T) - F_k(X_T)| <= eps (F_k the k-th largest value) and "
        "k >= 2, then f1 and f2 have parameter count at least Omega(eps^{-o}), o = (T - k)/(n+1) - 1.",
        roots=["infoflow.thm5.final_bound_786"],
        hypotheses={
            "k >= 2": "k >= 2: hypothesis of Theorem 5 (L577)",
            "m >= 1": "m = T - k + 1 >= 1, i.e. k <= T: implicit in the definition of F_k (L567)",
            "n >= 1": "n >= 1: the dimension of the range [0,1]^n of f1 (L573)",
            "eps > 0": "eps > 0: the approximation accuracy of Theorem 5 (L577)",
            "p >= 1": "p >= 1: p is the hidden width of f2 (a count of units), which the parameter count bounds",
            "x > 4": "eps < 1/(64 m), i.e. x = 1/(16 m eps) > 4: the Omega bound is for eps small enough, and A.2 "
                     "chooses this threshold (L611: 'choose eps sufficiently small, for instance 0 < eps < 1/(64m)')",
            # the theorem's own setting, at the two inputs X, Y of the proof (the pair itself is not named: below)
            "abs((Mx - Fx)) <= eps": "max_X |M(X) - F_k(X)| <= eps (L577) at the input X (Mx = M(X), Fx = F_k(X))",
            "abs((My - Fy)) <= eps": "max_X |M(X) - F_k(X)| <= eps (L577) at the input Y",
            "Mx == (sum_{i=1..p} [al(i)*tu(i)] + gam)": "M(X) = f2(A(X)) (44), f2(u) = sum_r alpha_r tanh(theta_r^T u "
                                                        "+ beta_r) + gamma of width p (L749); tu(r) = tanh zu(r)",
            "My == (sum_{i=1..p} [al(i)*tv(i)] + gam)": "M(Y) = f2(A(Y)) (44); tv(r) = tanh zv(r)",
            "forall_{i=1..p} [abs(al(i)) <= 1]": "|alpha_r| <= 1: the weights of f2 are bounded by 1 (L571, L751)",
            "forall_{i=1..p} [forall_{i2=1..n} [abs(th((n*(i - 1) + i2))) <= 1]]":
                "|theta_r(l)| <= 1: the weights of f2 are bounded by 1 (L571), theta_r(l) numbered n(r-1) + l",
            "forall_{i=1..p} [abs((tu(i) - tv(i))) <= abs((zu(i) - zv(i)))]":
                "tanh is 1-Lipschitz (L50, L753), at each unit r of f2",
            "forall_{i=1..p} [zu(i) == (sum_{i2=1..n} [th((n*(i - 1) + i2))*u(i2)] + b(i))]":
                "zu(r) = theta_r^T u + beta_r at u = A(X): f2's pre-activations (L749)",
            "forall_{i=1..p} [zv(i) == (sum_{i2=1..n} [th((n*(i - 1) + i2))*v(i2)] + b(i))]":
                "zv(r) = theta_r^T v + beta_r at v = A(Y) (L749)",
            "T >= 1": "T >= 1: the number of tokens (X_T = (x(1), ..., x(T)), L567)",
            "forall_{i=1..n} [forall_{i2=1..T} [f((T*(i - 1) + i2)) >= 0]]":
                "f1 maps into [0,1]^n (L571): f1(y(t))_l >= 0, numbered T(l-1) + t",
            "forall_{i=1..n} [forall_{i2=1..T} [f((T*(i - 1) + i2)) <= 1]]": "f1 maps into [0,1]^n (L571): f1(y(t))_l <= 1",
            "forall_{i=1..n} [forall_{i2=1..T} [lam(i2) > 0]]": "lambda(y(t)) = b(y(t)) in (0, 1] (L600)",
            "forall_{i=1..n} [ay(i) == sum_{i2=1..T} [lam(i2)*f((T*(i - 1) + i2))]]":
                "(A_Y)_l = sum_t lambda(y(t)) f1(y(t))_l: the numerator of A (44), L707",
            "forall_{i=1..n} [BY == sum_{i2=1..T} [lam(i2)]]": "B_Y = sum_t lambda(y(t)): the denominator of A (44), L707",
            "forall_{i=1..n} [u(i)*BX == ax(i)]": "A(X)_l = (A_X)_l / B_X (44)",
            "forall_{i=1..n} [v(i)*BY == ay(i)]": "A(Y)_l = (A_Y)_l / B_Y (44)",
        },
        definitions={
            "s == m/(n + 1)": "s = m/(n+1), the exponent of eps in the statement (L786; m = T - k + 1)",
            "E == exp(s*log(eps))": "E = eps^{m/(n+1)}: the power of eps in C eps^{1 - m/(n+1)} (L786)",
            "Cm == exp(s*log(3/(64*m)))": "Cm = (3/(64m))^{m/(n+1)}, the factor of the constant C_{T,k,n} (L786)",
            "x == 1/(16*m*eps)": "x = 1/(16 m eps): the grid size before rounding down, N = floor(x) (L613)",
            "y == exp(s*log(N))": "y = N^{m/(n+1)} (L641)",
            "w == exp(s*log(3/(64*m)/eps))": "w = (3/(64 m eps))^{m/(n+1)}: the lower bound of y from N >= 3/(64 m eps)",
            "eta == 4*m/y": "eta = 4 m N^{-m/(n+1)}: the side of the cubes of the pigeonhole argument (L641)",
        },
        blocking="the root states the width bound p >= C eps^{1 - m/(n+1)} (L786) for every width p and "
                 "dimension n, closed down to plain hypotheses (L762-764 from the separation L735, the "
                 "Lipschitz chain L755-758 for every p, n and the coordinate bound L713-726 at every "
                 "coordinate). The theorem's setting at the two inputs X, Y is named; what is not is the "
                 "colliding pair X, Y of the pigeonhole argument (|(A_X)_l - (A_Y)_l| <= eta, |B_X - B_Y| <= eta, "
                 "B_X = (k-1) + the rest, F_k(X), F_k(Y) on the grid with q != q', L641-693), which no step "
                 "derives from the theorem's hypotheses (the pigeonhole step is transcribed for instances only), "
                 "and N = floor(1/(16 m eps)) (N <= x < N + 1 exists by exists_floor, but N enters eta = 4 m "
                 "N^{-m/(n+1)}, which the pair's closeness uses, so it is a premise as long as the pair is). The "
                 "norms G = ||A(X) - A(Y)||_2, S = sqrt(n) and Th(r) = ||theta_r||_2 are the root's witnesses "
                 "(exists_sqrt, exists_seq_sqrt), not premises; and the passage from the width p to the parameter count with exponent -o "
                 "is not a step",
    ),
    theorem(
        "infoflow.theorem6", "infoflow", "Theorem 6", "infoflow:Thm 6 (L804-810); A.3 (L812-1012)",
        "For 1 <= T0 <= T, two-layer tanh networks f1: X^{T0} -> [0,1]^n, f2: [0,1]^n -> X^{T0}, and I in [T] "
        "with |I| = T0: (i) for a fixed p >= 1 there exist f1, f2 with total parameter count of order "
        "O(eps^{-T0 d/n}) such that ||X(I) - f2(f1(X(I)))||_{L_p} <= eps; (ii) if ||X(I) - f2(f1(X(I)))||_{L_inf} "
        "<= eps and the norms of the weights of f1, f2 are bounded by B, then f1, f2 must have total "
        "parameter count of order O(eps^{min(1 - T0 d/n, 0)}).",
        blocking="only steps are transcribed: for (i) the choice of L (L831), the truncation (L839), the unit "
                 "counts (L892-896), Lemma 1's choices and conclusion (infoflow.thm6.lemma1_conclusion_943) and the "
                 "replacement sum (L967-1000; that G is L_G-Lipschitz in the unit's output, in L_p, is a plain premise "
                 "of infoflow.thm6.replacement_unit_979: functions and integrals are not in the language); for (ii) "
                 "the packing "
                 "grid, count and separation (L995-1010). No step states the existence of f1, f2 with the count "
                 "and the L_p error, nor the lower bound; (ii) writes O for a lower bound "
                 "(infoflow.thm6.exponent_bullet2_vs_proof) and is vacuous for T0 d > n (checked for n = 1: "
                 "infoflow.thm6.bullet2_vacuous_n1; Borsuk-Ulam for n >= 2, cited)",
    ),
    theorem(
        "infoflow.lemma1", "infoflow", "Lemma 1", "infoflow:A.3 Lemma 1 (L900-904), proof (L905-943)",
        "Let p > 1, a < 0 < b, mu a finite positive measure on [a,b], H(x) = 1{x >= 0}. Then for every "
        "delta > 0 there exist A, B, C, D in R such that ||H - (A tanh(Bx + C) + D)||_{L_p(mu)} < delta.",
        blocking="the choices of the proof are transcribed (C (L923), R (L927), B (L930), the tails (L932), the "
                 "four-term sum infoflow.thm6.lemma1_sum_934, whose terms are premises) and the conclusion "
                 "||H - phi_{B,C}||_{L_p(mu)} < delta follows from them by the p-th root "
                 "(infoflow.thm6.lemma1_conclusion_943); but the choice of eta by continuity of mu, the split of "
                 "||H - phi||^p over [a,-eta], [eta,b], (-eta,eta) minus {0} and {0} with the pointwise bounds on "
                 "each piece (an integral, which the language cannot state) and the four terms' bounds are plain "
                 "premises, not steps. (The proof never uses p > 1: infoflow.thm6.lemma1_p_range_900.)",
    ),
    # Not numbered results, but the bounds of App. B.1 and D.1 that Proposition 1's and Section 6's counting
    # rests on: the obligations prove the minimum of the leaf-premise abstraction (issue 16, item 8); the
    # premise itself is not derived from Definitions 1-2 (docs/trees.md, finding 7), so these stay OPEN.
    theorem(
        "infoflow.B1.pairwise_leaves", "infoflow", "B.1 pair leaves", "infoflow:B.1 (L1030-1032)",
        "Trees of Comparison computing target (6) with at most 2 trees need at least C(T,2) leaves.",
        roots=[f"infoflow.trees.pairwise.leaves.T{T}" for T in range(2, 7)], instances="T = 2..6",
        blocking="the leaf premise (every pair {s, t} must be a leaf of some tree) is assumed by B.1, not derived "
                 "from Definitions 1-2; with several trees a fixed union of roots can cover [T] (docs/trees.md)",
    ),
    theorem(
        "infoflow.D1.triangle_leaves", "infoflow", "D.1 triple leaves", "infoflow:D.1 (L1330-1354)",
        "Trees of Comparison computing target (7) with at most 3 trees need at least C(T,3) leaves, so at least "
        "C(T,3) - 3 comparisons.",
        roots=[f"infoflow.trees.triangle.leaves.T{T}" for T in range(3, 7)], instances="T = 3..6",
        blocking="the leaf premise (every triple of distinct indices must be a leaf of some tree) is assumed by "
                 "D.1, not derived from Definitions 1-2 (docs/trees.md, finding 7)",
    ),
]

# ---------------------------------------------------------------------------------------- Kajitsuka-Sato

KS = [
    theorem(
        "ks.theorem1", "ks", "Theorem 1", "ks:3.3 Thm 1 (L127), (5); A.1 (23)-(24)",
        "1-layer multi-head self-attention F_H^(SA) with the hardmax function (5) cannot be a contextual "
        "mapping (Definition 2), for any number of heads and any weights.",
        blocking="only steps are transcribed: the scores (24), the one-head hardmax averages and the sum over "
                 "heads. The printed argument is REFUTED for heads with (W_K v)^T (W_Q v) = 0 "
                 "(ks.thm.thm1.argmax_extremes_as_printed, equal_outputs_as_printed); the repaired pair gives "
                 "equal one-head averages for every weight (ks.thm.thm1.equal_outputs_repaired) under the "
                 "uniform reading of hardmax ties. No step states that F_H^(SA) fails Definition 2 for every h "
                 "and every weight",
    ),
    theorem(
        "ks.theorem2", "ks", "Theorem 2", "ks:3.4 Thm 2 (L139-147), (6)-(8); A.2 (26)-(45)",
        "Let X^(1), ..., X^(N) in R^{d x n} have no duplicate token in any sequence (6) and be tokenwise "
        "(r_min, r_max, eps)-separated. Then there are W^(O) in R^{d x s} and W^(V), W^(K), W^(Q) in "
        "R^{s x d} of rank 1 such that the 1-layer single-head softmax attention F_S^(SA) is an (r, delta)-"
        "contextual mapping for X^(1..N), with r = r_max + eps/4 (7) and delta as in (8).",
        blocking="only steps of A.2 are transcribed ((27), (28), (33)-(34), (37)-(38), Lemma 1's hypothesis at "
                 "(39)/(43), (41)-(42) with both REFUTED as printed and repaired, (45) = (8)); the norm steps "
                 "cite axiom instances (triangle inequality, Cauchy-Schwarz for (31)'s upper half); (39)-(41) is a "
                 "checked step (ks.thm.thm2.gap_41: delta' < r_max K G from (29), (31) and the factorisation of "
                 "(41)), but its premises (40) (Lemma 1's conclusion at a^(i), a^(j)) and the matrix expansion of "
                 "(41) lines 1-3 are plain, Lemma 1 is proved for every n only for sorted vectors (and for n = 2 in any order: the permutation step is open); Lemma 3 is PROVED, at the unit vector of Lemma 2 (the cited axioms park_unit and park_lemma13), but no step of A.2 links it yet. No step states that F_S^(SA) is an (r, delta)-contextual mapping; the built "
                 "mapping for concrete data is certified separately (attncert construct ks-thm2), not as a step",
    ),
    theorem(
        "ks.lemma1.printed", "ks", "Lemma 1 (as printed)", "ks:3.4 Lemma 1 (L181-191), (14)-(16)",
        "As printed: let a^(1), ..., a^(m) in R^n be tokenwise (r, delta)-separated vectors with no duplicate "
        "element in each vector and delta > 2 log n + 3 (14). Then |boltz(a^(i))| <= r (15) and "
        "|boltz(a^(i)) - boltz(a^(j))| > delta' = (log n)^2 e^{-2r} (16) for every i, j with a^(i) != a^(j). "
        "False for a pair that is one vector permuted (boltz is symmetric): n = 2, a = (1, -5), b = (-5, 1), "
        "r = 11/2, delta = 5.",
        printed="ks.boltz.lemma1.statement_16_as_printed.n2", repaired="ks.lemma1",
    ),
    theorem(
        "ks.lemma1", "ks", "Lemma 1 (repaired)", "ks:3.4 Lemma 1 (L181-191), (14)-(16); B.3 (110)-(113)",
        "Let a^(1), ..., a^(m) in R^n be tokenwise (r, delta)-separated vectors with no duplicate element in "
        "each vector and delta > 2 log n + 3 (14). Then boltz(a) = a^T softmax(a) is (r, delta')-separated: "
        "|boltz(a^(i))| <= r (15) and |boltz(a^(i)) - boltz(a^(j))| > delta' = (log n)^2 e^{-2r} (16) for "
        "every i, j such that a^(i) is not a permutation of a^(j) (repaired: 'a^(i) != a^(j)' as printed).",
        roots=["ks.boltz.lemma1.conclusion_15.n2", "ks.boltz.lemma1.conclusion_16.n2",
               "ks.general.lemma1.conclusion_15", "ks.general.lemma1.sorted_16"],
        instances="(15) for every n (ks.general.lemma1.conclusion_15: a weighted average). (16) for every n >= 1 "
                  "when a and b are in decreasing order (ks.general.lemma1.sorted_16: the w.l.o.g. of B.3 L860 taken "
                  "as a hypothesis; the first index k + 1 where they differ by exists_first_diff, the tails as Lemma "
                  "7's blocks, Lemma 7 closed for every n in both of its cases, for (a, b) or (b, a), then (113)); "
                  "(16) for n = 2 in any order, closed (by cases on the order of each vector and on the first entry "
                  "that differs). What blocks (16) for every n in any order is the permutation step: boltz is "
                  "symmetric, so w.l.o.g. a and b are sorted. It needs sums invariant under a permutation of [1, n] "
                  "and the separation hypotheses carried to the sorted vectors (an integer-valued sequence, or a "
                  "value substitution in a body: neither is in the language). m > 2 is pairwise: (16) is a statement "
                  "about each pair.",
        hypotheses={
            "abs(a1) < r": "Definition 1 (2): every token has norm < r (a_1)",
            "abs(a2) < r": "Definition 1 (2): every token has norm < r (a_2)",
            "abs(b1) < r": "Definition 1 (2): every token has norm < r (b_1)",
            "abs(b2) < r": "Definition 1 (2): every token has norm < r (b_2)",
            "a1 != a2": "no duplicate element in a",
            "b1 != b2": "no duplicate element in b",
            "((a1 - a2) == 0) or (abs((a1 - a2)) > delta)": "Definition 1 (3): a_1 != a_2 => |a_1 - a_2| > delta",
            "((b1 - b2) == 0) or (abs((b1 - b2)) > delta)": "Definition 1 (3): b_1 != b_2 => |b_1 - b_2| > delta",
            "((a1 - b1) == 0) or (abs((a1 - b1)) > delta)": "Definition 1 (3): a_1 != b_1 => |a_1 - b_1| > delta",
            "((a1 - b2) == 0) or (abs((a1 - b2)) > delta)": "Definition 1 (3): a_1 != b_2 => |a_1 - b_2| > delta",
            "((a2 - b1) == 0) or (abs((a2 - b1)) > delta)": "Definition 1 (3): a_2 != b_1 => |a_2 - b_1| > delta",
            "((a2 - b2) == 0) or (abs((a2 - b2)) > delta)": "Definition 1 (3): a_2 != b_2 => |a_2 - b_2| > delta",
            "(a1 != b1) or (a2 != b2)": "a^(1) != a^(2): (a_1, a_2) != (b_1, b_2) (as printed)",
            "(a1 != b2) or (a2 != b1)": "repaired: b is not a permutation of a, so also (a_1, a_2) != (b_2, b_1)",
            "delta > (2*log(2) + 3)": "(14) at n = 2: delta > 2 log 2 + 3",
            "n >= 1": "a, b in R^n, n >= 1 (the roots for every n)",
            "forall_{i=1..n} [abs(a(i)) < r]": "Definition 1 (2): every token has norm < r (every a_i)",
            "forall_{i=1..n} [abs(b(i)) < r]": "Definition 1 (2): every token has norm < r (every b_i)",
            "forall_{i=1..n} [forall_{i2=1..n} [(i2 <= i) or ((a(i) - a(i2)) > delta)]]":
                "the instance: a in decreasing order (B.3 L860, w.l.o.g.) with no duplicate element and Definition 1 "
                "(3), so i < j => a_i - a_j > delta (for every i, for every j; the other nesting by forall_swap)",
            "forall_{i=1..n} [forall_{i2=1..n} [(i2 <= i) or ((b(i) - b(i2)) > delta)]]":
                "the instance: b in decreasing order with no duplicate element and Definition 1 (3): i < j => "
                "b_i - b_j > delta",
            "forall_{i=1..n} [forall_{i2=1..n} [(a(i) == b(i2)) or (abs((a(i) - b(i2))) > delta)]]":
                "Definition 1 (3): a_i != b_j => |a_i - b_j| > delta, for every i, j",
            "not (forall_{i=1..n} [a(i) == b(i)])": "a^(i) != a^(j), as printed (a sorted rearrangement is "
                                                     "unique, so for sorted vectors it is the same as 'not a "
                                                     "permutation')",
            "delta > (2*log(n) + 3)": "(14): delta > 2 log n + 3",
        },
        # The exact hard instances (ks.boltz.lemma1.hard_instance.n2/n3/n5) are single points, not instances of
        # the lemma for a parameter range, so they are not roots. The sharpness obligations (REFUTED below
        # (14)) show (16) can fail when (14) is dropped; they do not refute the lemma as printed.
    ),
    theorem(
        "ks.corollary1", "ks", "Corollary 1", "ks:4.1 Cor 1 (L203-209), (17); A.3 (46)-(47)",
        "Let eps > 0, r_max > r_min > 0 and (X^(i), Y^(i)) in R^{d x n} x [C]^{d x n}, i in [N], with "
        "X^(1..N) tokenwise (r_min, r_max, eps)-separated, no duplicate token in each sentence, and "
        "consistently labeled. Then there exist 4(s + d) + d(2nN + d) weight parameters such that "
        "F(X^(i)) = F^(FF)(F_S^(SA)(X^(i))) = Y^(i) for every i in [N] (17).",
        blocking="the memorising block and (17) are built and checked exactly only on concrete datasets "
                 "(`attncert construct ks-cor1`: the Theorem 2 layer, the block with rational weights, its sides "
                 "certified by interval arithmetic, and the lemmas ks.thm.cor1.ramp_low, ramp_high, relu_split), "
                 "not for every dataset; Theorem 2, on which the corollary rests, is not established in general. "
                 "The block built there has more parameters than 4(s + d) + d(2nN + d) (it cancels the skip "
                 "connection and uses two units per label step, with rational weights; the count cited from Zhang "
                 "et al. uses real weights). The delta restated in (47) differs from (8) by the factor "
                 "2 eps log n (ks.thm.thm2.delta_47_vs_8)",
    ),
    theorem(
        "ks.corollary2", "ks", "Corollary 2", "ks:4.1 Cor 2 (L215-221), (18); A.4 (48)-(50)",
        "Let eps > 0, r_max > r_min > 0 and (X^(i), Y^(i)) in R^{d x n} x [C]^{d x n}, i in [N], with "
        "X^(1..N) tokenwise (r_min, r_max, eps)-separated and consistently labeled. Then there exist "
        "4(s + d) + d(2nN + d) weight parameters and positional encodings E in R^{d x n} such that "
        "F(X^(i) + E) = F^(FF)(F_S^(SA)(X^(i) + E)) = Y^(i) for every i in [N] (18).",
        blocking="only steps of A.4 are transcribed: (49), (50), no duplicates after (48); the two separation "
                 "claims of (48) are REFUTED as printed and repaired with a different encoding "
                 "(ks.thm.cor2.upper_norm_48_repaired, separation_repaired). No step states (18); it rests on "
                 "Theorem 2 and Corollary 1, which are not established",
    ),
    theorem(
        "ks.proposition1", "ks", "Proposition 1", "ks:4.2 Prop. 1 (L231), (19); A.5 (56)-(68)",
        "Let 1 <= p < infinity. For any permutation equivariant continuous f on a compact domain in R^{d x n} "
        "(f in F_PE) and eps > 0 there is a Transformer g in T_2 (19) with one-layer single-head self-"
        "attention such that d_p(f, g) < eps.",
        blocking="only the ReLU pieces of A.5 are transcribed: (56), (57), (60)-(61) hold; (58), (59) and the "
                 "bump (67)-(68) are REFUTED as printed and repaired piece by piece. The audit notes two further "
                 "gaps not encoded (a sum of per-coordinate hats is not a cell indicator; summing over all "
                 "positions is not token-wise). No step states d_p(f, g) < eps",
    ),
    theorem(
        "ks.lemma2", "ks", "Lemma 2", "ks:B.1 Lemma 2 (L684-688), (72)",
        "(Park et al. 2021, Lemma 13.) For any finite X in R^d there is a unit vector v in R^d with "
        "(1/|X|^2) sqrt(8/(pi d)) ||x - x'|| <= |v^T (x - x')| <= ||x - x'|| for all x, x' in X (72).",
        blocking="cited from Park et al. (2021), Lemma 13, and not proved in the paper; attncert does not prove it "
                 "either: it is in the axiom list as park_unit and park_lemma13 (docs/axioms.md, 'Cited results'), for a "
                 "family X_1, ..., X_M (at most M distinct points, so 1/M^2 <= 1/|X|^2), and Lemma 3 rests on it there. "
                 "The upper half of (72) is Cauchy-Schwarz with ||v|| = 1",
    ),
    # Root: (74) and (75) at the unit vector v = park(X, M) of Lemma 2 (the cited axioms) for V u {0}, linking the
    # arithmetic of (79) (ks.thm.lemma3.chain_79)
    theorem(
        "ks.lemma3", "ks", "Lemma 3", "ks:B.1 Lemma 3 (L692-702), (73)-(75); proof (76)-(79)",
        "Given an (r_min, r_max, eps)-separated finite vocabulary V in R^d with r_min > 0: for any delta > 0 "
        "there is a unit vector v in R^d such that for any u, u' in R^s with |u^T u'| = (|V|+1)^4 (pi d/8) "
        "delta/(eps r_min) (73), |(W_K v_a)^T (W_Q v_c) - (W_K v_b)^T (W_Q v_c)| > delta (74) and "
        "(1/(|V|+1)^2) sqrt(8/(pi d)) ||v_c|| <= |v^T v_c| <= ||v_c|| (75) for all v_a, v_b, v_c in V with "
        "v_a != v_b, where W_K = u v^T and W_Q = u' v^T.",
        roots=["ks.thm.lemma3.statement_74_75", "ks.thm.lemma3.statement_75"],
        cases="the two parts of the statement, at the same v = park(X, M): (74) (with (75)) for every v_a != v_b, v_c "
              "and every u, u' with (73); (75) for every v_c on its own (|V| = 1 included)",
        hypotheses={
            "M >= 2": "M = |V| + 1 >= 2: V is a non-empty finite vocabulary (for V empty the lemma is vacuous), "
                      "enumerated with 0 as X_1, ..., X_M (L706: Lemma 2 applied to V u {0}; 0 is not in V since "
                      "r_min > 0, so M = |V u {0}|)",
            "a >= 1": "v_a = X_a in V (1 <= a <= |V|)",
            "a <= (M - 1)": "v_a = X_a in V (a <= |V| = M - 1)",
            "b >= 1": "v_b = X_b in V (1 <= b <= |V|)",
            "b <= (M - 1)": "v_b = X_b in V (b <= |V| = M - 1)",
            "c >= 1": "v_c = X_c in V (1 <= c <= |V|)",
            "c <= (M - 1)": "v_c = X_c in V (c <= |V| = M - 1)",
            "||(X[a] + -1*X[b])|| > eps": "||v_a - v_b|| > eps for v_a != v_b: Definition 1, condition 3 (V is "
                                          "(r_min, r_max, eps)-separated)",
            "||X[c]|| > rmin": "||v_c|| > r_min: Definition 1, condition 1 (V is (r_min, r_max, eps)-separated)",
            "||X[M]|| == 0": "X_M = 0: the family is V u {0} (L706)",
            "Sq > 0": "Sq = sqrt(8/(pi d)) > 0: the constant of (72)/(75)",
            "Sq*Sq*P == 8": "definition of Sq = sqrt(8/(pi d)) (with Sq > 0), P = pi d (72)/(75)",
            "abs(k) == W2*W2*P*dl/(8*eps*rmin)": "(73): |u^T u'| = (|V|+1)^4 (pi d/8) delta/(eps r_min), hypothesis of "
                                                 "Lemma 3 (k = u^T u')",
            "dl > 0": "delta > 0: 'for any delta > 0' (L692)",
            "eps > 0": "eps > 0: the separation constant of the (r_min, r_max, eps)-separated vocabulary "
                       "(Definition 1; implicit in (73), which divides by eps: for eps < 0 no u, u' meet (73) and the "
                       "lemma is vacuous)",
            "rmin > 0": "r_min > 0: hypothesis of Lemma 3 (L692)",
        },
        definitions={
            "W2 == M*M": "definition: W2 = (|V| + 1)^2 = M^2",
            "P == pi()*dim()": "definition: P = pi d, d the dimension of the space R^d of V (dim)",
        },
        note="v is park(X, M), the unit vector of Lemma 2 (Park et al.'s Lemma 13, the cited axioms park_unit and "
             "park_lemma13) for V u {0}: one v for every v_a, v_b, v_c and every u, u' (it depends on V only). (74) is "
             "stated as (v^T v_a) k (v^T v_c) - (v^T v_b) k (v^T v_c) with k = u^T u', which is (W_K v_a)^T (W_Q v_c) - "
             "(W_K v_b)^T (W_Q v_c) for the rank-one W_K = u v^T, W_Q = u' v^T (matrices are not in the language). "
             "(77) is (76) at (v_c, 0), by bilinearity of the inner product (dot_add, dot_scale). The arithmetic of "
             "(79) is ks.thm.lemma3.chain_79, linked. (75) is also a root on its own (ks.thm.lemma3.statement_75), "
             "for every v_c in V, |V| = 1 included, without v_a, v_b and (73).",
    ),
    theorem(
        "ks.lemma4", "ks", "Lemma 4", "ks:B.2 Lemma 4 (L736-744), (83)-(84); proof (85)-(93)",
        "Let n in N_+, i in [n], a in R^n. Then d/da_i boltz(a) = p_i (1 + log p_i + S(p)) (83), p = softmax(a), "
        "S(p) = -sum p_k log p_k; in particular boltz is monotonically decreasing in a_i whenever "
        "a_i < max_j a_j - log n - 1 (84).",
        roots=["ks.general.lemma4.conclusion"],
        hypotheses={"N >= 1": "n = N + 1 >= 2, the number of coordinates (n = 1, where boltz(a) = a_1, (83) reads "
                              "1 = 1 and (84) is vacuous, is the step ks.general.lemma4.n1, PROVED)"},
        definitions=GENERAL_DEFS,
        note="Proved for every n over indexed families (proofs/ks_general.py): (83) as the derivative of (P + x e^x)/"
             "(Q + e^x) in x (identity), log p = x - L, S(p) = L - boltz (85); (84) from Gibbs' inequality S(p) <= "
             "log n (the tangent line of exp at each index, a pointwise axiom instance, and at x), max_j a_j <= "
             "L(a) (exp_le_rev at each index) and log n >= 0. The instances n = 2..6 of (83) and n = 2, 3 of (84) "
             "(ks.boltz.deriv_83.n*, ks.boltz.lemma4.conclusion_84*) are kept as steps.",
    ),
    theorem(
        "ks.lemma5", "ks", "Lemma 5", "ks:B.2 Lemma 5 (L780-786), (94)-(95); proof (96)-(101)",
        "Let n in N_+, i in [n], a in R^n. Then boltz(a) is concave in a_i: d^2/da_i^2 boltz(a) < 0 (94) on the "
        "domain where a_i < max_j a_j - log n - 3 (95).",
        roots=["ks.general.lemma5.conclusion"],
        definitions=GENERAL_DEFS,
        hypotheses={"N >= 1": "n = N + 1 >= 2, the number of coordinates (at n = 1, (95) reads a_1 < a_1 - 3, never "
                              "true: the step ks.general.lemma5.n1, PROVED)",
                    "x < ((max(max_{i=1..N} [b(i)], x) - ln) - 3)": "(95): a_i < max_j a_j - log n - 3, the "
                                                                     "hypothesis of Lemma 5 (x = a_i)"},
        note="Proved for every n over indexed families (proofs/ks_general.py): (97) as the second derivative of "
             "(P + x e^x)/(Q + e^x) in x (identity), log p + S(p) = x - boltz ((85), (92)); (94) from Gibbs' "
             "inequality, max_j a_j <= L(a), p = e^{x - L} < e^{-3} <= 1/4 and log n >= 0, (98)-(101). The "
             "instances n = 2, 3 (ks.boltz.lemma5.conclusion_94*) are kept as steps.",
    ),
    theorem(
        "ks.lemma6.printed", "ks", "Lemma 6 (as printed)", "ks:B.2 Lemma 6 (L816-822), prose before (103)",
        "As printed: for n >= 2 and a, b in R^n with a_i = b_i (i in [n-1]) and max_{i in [n-1]} a_i - delta > "
        "a_n > b_n (102), delta > log n + 3, 'the difference boltz(a) - boltz(b) is lower-bounded by' "
        "(a_n - b_n)(delta + a_n - b_n - log n - 1) e^{b_n}/sum_i e^{b_i}. (The display (103) itself bounds "
        "boltz(b) - boltz(a); the sentence has the difference reversed.)",
        printed="ks.boltz.lemma6.prose_103_as_printed", repaired="ks.lemma6",
    ),
    theorem(
        "ks.lemma6", "ks", "Lemma 6 (repaired)", "ks:B.2 Lemma 6 (L816-822), (102)-(103); proof (104)-(105)",
        "For n >= 2 and a, b in R^n with a_i = b_i for i in [n-1] and max_{i in [n-1]} a_i - delta > a_n > b_n "
        "(102) with delta > log n + 3: boltz(b) - boltz(a) > (a_n - b_n)(delta + a_n - b_n - log n - 1) "
        "e^{b_n}/sum_i e^{b_i} (103), as displayed.",
        roots=["ks.general.lemma6.conclusion"],
        definitions={
            "Q == sum_{i=1..N} [exp(b(i))]": "definition: Q = sum_{i<n} e^{b_i} (b = the first n - 1 coordinates, "
                                             "shared by a and b)",
            "P == sum_{i=1..N} [b(i)*exp(b(i))]": "definition: P = sum_{i<n} b_i e^{b_i}, so boltz(b) = "
                                                  "(P + b_n e^{b_n})/(Q + e^{b_n}) and boltz(a) likewise with a_n",
            "l == log((Q + exp(bn)))": "definition: L(b) = log sum_i e^{b_i}",
            "ln == log((N + 1))": "definition: log n",
            "w == exp((l - ln))": "definition: w = e^{L(b) - log n} (an auxiliary of Gibbs' inequality)",
        },
        hypotheses={
            "N >= 1": "n = N + 1 >= 2: the lemma's own range",
            "(max_{i=1..N} [b(i)] - delta) > an": "(102): max_{i in [n-1]} a_i - delta > a_n",
            "an > bn": "(102): a_n > b_n",
            "delta > (ln + 3)": "delta > log n + 3: hypothesis of Lemma 6",
        },
        note="Proved for every n >= 2 over indexed families (proofs/ks_general.py): (104) by the mean value "
             "theorem on the tangent gap, whose derivative is negative by Lemma 5 for every n at x = y (its "
             "definitions L, w, S depend on y: definitions in the monotonicity rule, docs/axioms.md); (105) from "
             "(83), Gibbs' inequality and max <= L at b_n. The instances n = 2, 3 (ks.boltz.lemma6.conclusion_103.n2, "
             ".n3) are kept as steps.",
    ),
    theorem(
        "ks.lemma7.printed", "ks", "Lemma 7 (as printed)", "ks:B.3 Lemma 7 (L880-896), (114)",
        "As printed: a, b in R^n are 'tokenwise delta-separated vectors in a decreasing order with no duplicate "
        "element ... and delta > 2 log n + 3, that is, i > j => a_i - a_j, b_i - b_j > delta (114), a_i != b_j "
        "=> |a_i - b_j| > delta (115)'; with (116), |boltz(a) - boltz(b)| > (log n)^2 e^{-(a_1 - b_{k+1})} "
        "(117). The 'that is' (114) is false for vectors in decreasing order (and read literally makes the "
        "hypotheses contradictory for n >= 2).",
        printed="ks.boltz.lemma7.hyp_114_as_printed", repaired="ks.lemma7",
    ),
    theorem(
        "ks.lemma7", "ks", "Lemma 7 (repaired)", "ks:B.3 Lemma 7 (L880-896), (114)-(117); proof (118)-(131)",
        "Let a, b in R^n be in decreasing order, tokenwise delta-separated with no duplicate element and "
        "delta > 2 log n + 3: i > j => a_j - a_i, b_j - b_i > delta (114, repaired), a_i != b_j => |a_i - b_j| > "
        "delta (115). If there is k in {0, ..., n-1} with (a_1..a_k) = (b_1..b_k) and a_{k+1} > b_{k+1} (116), "
        "then |boltz(a) - boltz(b)| > (log n)^2 e^{-(a_1 - b_{k+1})} (117).",
        roots=["ks.general.lemma7.conclusion_117.k_ge_1", "ks.general.lemma7.k0.conclusion_117"],
        cases="the two cases of the proof, which cover every k in {0, ..., n-1} and every n >= 1: k >= 1 "
              "(conclusion_117.k_ge_1: a = (a_1..a_k, a_{k+1}, a_{k+2}..a_n) written (b(1..k), x, d(1..M)), b = "
              "(b(1..k), y, e(1..M)), M = n - k - 1 >= 0) and k = 0 (k0.conclusion_117: a = (x, d(1..M)), b = "
              "(y, e(1..M)), M = n - 1 >= 0)",
        hypotheses={
            "N >= 1": "k = N >= 1: the case k >= 1 of the proof (the root k0.conclusion_117 is the case k = 0)",
            "M >= 0": "M = n - k - 1 >= 0 coordinates after a_{k+1} (and after b_{k+1}); n = k + 1 + M",
            "forall_{i=1..(N - 1)} [b((i + 1)) < (b(1) - delta)]": "(114), repaired: a_1 - a_j > delta for j = 2..k",
            "forall_{i=1..N} [(b(i) - x) > delta]": "(114), repaired: a_i - a_{k+1} > delta for i <= k (x = a_{k+1})",
            "forall_{i=1..M} [(x - d(i)) > delta]": "(114), repaired: a_{k+1} - a_{k+1+j} > delta (d = a's last M "
                                                    "coordinates)",
            "forall_{i=1..M} [(y - e(i)) > delta]": "(114), repaired, for b: b_{k+1} - b_{k+1+j} > delta (y = "
                                                    "b_{k+1}, e = b's last M coordinates)",
            "(x - y) > delta": "(115) with (116): a_{k+1} > b_{k+1} and a_{k+1} != b_{k+1}, so a_{k+1} - b_{k+1} > delta",
            "delta > (2*log(((N + 1) + M)) + 3)": "delta > 2 log n + 3: hypothesis of Lemma 7 (n = k + 1 + M)",
            "delta > (2*log((M + 1)) + 3)": "delta > 2 log n + 3: hypothesis of Lemma 7 (k = 0, n = 1 + M)",
        },
        definitions={
            "P == sum_{i=1..N} [b(i)*exp(b(i))]": "definition: P = sum_{i<=k} a_i e^{a_i}, over the shared prefix "
                                                  "(a_1..a_k) = (b_1..b_k) of (116), written b(1..k)",
            "Q == sum_{i=1..N} [exp(b(i))]": "definition: Q = xi_k = sum_{i<=k} e^{a_i} (121)",
            "ln == log((N + 1))": "definition: log(k + 1), the log n of Lemma 6 applied to the k + 1 coordinates "
                                  "(a_1..a_k, .) in (124)",
            "l == log((Q + exp((y + log((M + 1))))))": "definition: L = log(xi_k + e^{b_{k+1} + log(n-k)}), Lemma 6's "
                                                       "L(b) at (a_1..a_k, b_{k+1} + log(n - k)) (124)",
            "w == exp((l - ln))": "definition: w = e^{L - log(k+1)} (an auxiliary of Gibbs' inequality in Lemma 6)",
            "Bu == (P + x*exp(x))/(Q + exp(x))": "definition: boltz(underline a), underline a = (a_1..a_{k+1}) (118)",
            "Bbar == ((P + y*exp(y)) + M*y*exp(y))/((Q + exp(y)) + M*exp(y))": "definition: boltz(bar b), bar b = "
                                                                              "(a_1..a_k, b_{k+1}, ..., b_{k+1}) (119)",
            "By == y*exp(y)/exp(y)": "definition: boltz((b_1)) (k = 0: boltz(b) <= b_1 by comparing with b_1 alone)",
            "Ba0 == (x*exp(x) + M*(x - delta)*exp((x - delta)))/(exp(x) + M*exp((x - delta)))":
                "definition: boltz(bar a), bar a = (a_1, a_1 - delta, ..., a_1 - delta) (129)-(130) (k = 0, x = a_1)",
        },
        note="Proved for every n over indexed families (proofs/ks_general.py, 'Lemma 7 for every n'), in the two "
             "cases of the proof: k >= 1 with a = (a_1..a_k, x, d_1..d_M), b = (a_1..a_k, y, e_1..e_M), and k = 0 "
             "with a = (x, d), b = (y, e) (n = 1 included). The hypotheses are the instances of (114)-(116) the "
             "proof uses, each over one index. (120) and (129) compare the tails term by term (tail_drop, "
             "tail_raise: e^t (t - B) decreases on t <= B - 1) instead of moving one coordinate at a time by "
             "Lemma 4; (124) is Lemma 6 for every n at b_n := b_{k+1} + log(n - k); (127) splits a_1 off the "
             "prefix sum (axiom sum_first) and bounds the rest by (k - 1) e^{a_1 - delta}, with e^delta > n in "
             "place of the printed geometric series. The instances (n, k) = (2, 0), (2, 1), (3, 0), (3, 2) "
             "(ks.boltz.lemma7.conclusion_117.*) are kept as steps.",
    ),
]

THEOREMS = INFOFLOW + KS
