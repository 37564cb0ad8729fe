"""Errata catalogue for Kajitsuka and Sato, "Are Transformers with One Layer Self-Attention Using Low-Rank
Weight Matrices Universal Approximators?" (ICLR 2024). Paper text: shared/papers/kajitsuka-sato-iclr2024.txt.

One entry per erratum (or convention / remark), in the paper's reading order; the checked steps that are
the evidence for an entry are listed in its ``obligations``. Format: attncert issue 17, item 2.
"""

from __future__ import annotations

ERRATA = [
    dict(
        id="ks-sec2-hardmax-ties",
        where="2.1, definition of the hardmax function σ_H (ties), as used in the proof of Theorem 1 (A.1)",
        lines=(47, 47),
        quote="Note that when there are multiple indices with maximum values, the hardmax function is defined "
              "such that the sum of the values at these indices equals one.",
        severity="convention",
        title="Section 2.1 fixes only that tied hardmax weights sum to one; the argument for Theorem 1 needs a "
              "definite split, and the natural reading is the uniform split over the tied indices.",
        explanation="A head whose scores all tie (by (24), when (W_i^K v)^T (W_i^Q v) α_q = 0, e.g. W_i^K = 0) "
                    "outputs a combination of all values whose weights the definition leaves open. Under the "
                    "uniform split such a head outputs the plain average, and the sequences "
                    "(α_1, α_2, α_5, α_4) v and (α_1, α_3, α_6, α_4) v with α_2 + α_5 = α_3 + α_6 (the pair used "
                    "to repair the proof of Theorem 1, next entry) give equal outputs at the α_1 and α_4 positions "
                    "for every choice of weights; the same holds if all weight goes to the first index. A split "
                    "that weights the tied positions unequally would need a different pair of sequences.",
        repair="Read σ_H with ties as the uniform distribution over the indices attaining the maximum.",
        obligations=["ks.thm.thm1.equal_outputs_repaired"],
    ),
    dict(
        id="ks-thm1-argmax",
        where="A.1, proof of Theorem 1, after (24) and final sentence",
        lines=(412, 412),
        quote="So it is evident that the maximum value of the vector on the right-hand side is achieved only at "
              "the indices where the values of the input sequence $\\mathbf{v} \\mathbf{a}^\\top$ are α_1 or α_4 "
              "[...] one-layer self-attention with the hardmax function cannot distinguish input sequences, e.g., "
              "$(\\alpha_1 \\mathbf{v}, \\alpha_2 \\mathbf{v}, \\alpha_4 \\mathbf{v})$ and "
              "$(\\alpha_1 \\mathbf{v}, \\alpha_3 \\mathbf{v}, \\alpha_4 \\mathbf{v})$",
        severity="false-step",
        title="The claim that the maximum is attained only at α_1 or α_4 fails when a head's coefficient "
              "c_i = (W_i^K v)^T (W_i^Q v) or the query α_q is zero: then hardmax averages all tokens and "
              "separates the two example sequences.",
        explanation="By (24) the scores of head i at a query α_q v are c_i α_q a. If c_i α_q = 0 every score ties, "
                    "hardmax averages all tokens, and the middle token matters. Counterexample: one head with "
                    "W^K = 0 and α = (1, 2, 3, 4); at the α_1 position the outputs for (α_1, α_2, α_4) v and "
                    "(α_1, α_3, α_4) v are α_1 v + (7/3) W^O W^V v and α_1 v + (8/3) W^O W^V v, which differ "
                    "whenever W^O W^V v ≠ 0. Theorem 1 itself stands with a different pair of sequences (repair), "
                    "which is not separated by any weights or any number of heads.",
        repair="The maximum of c_i α_q a is attained only at α_1 or α_4 when c_i α_q ≠ 0. For all weights use "
               "sequences whose middle tokens differ but have equal sums: (α_1, α_2, α_5, α_4) v and "
               "(α_1, α_3, α_6, α_4) v with α_1 < α_2, α_3, α_5, α_6 < α_4 and α_2 + α_5 = α_3 + α_6, e.g. "
               "(0, 1, 4, 5) v and (0, 2, 3, 5) v. At the α_1 and α_4 positions every head then gives the same "
               "output for both: the value at α_1 or α_4 when c_i α_q ≠ 0, and the common average when "
               "c_i α_q = 0 (ties split uniformly).",
        obligations=["ks.thm.thm1.argmax_extremes_as_printed", "ks.thm.thm1.equal_outputs_as_printed"],
    ),
    dict(
        id="ks-lemma1-permutation",
        where="3.4, Lemma 1, statement, (16)",
        lines=(181, 191),
        quote="Let $\\mathbf{a}^{(1)}, \\dots, \\mathbf{a}^{(m)} \\in \\mathbb{R}^n$ be tokenwise (r, δ) -separated "
              "vectors with no duplicate element in each vector [...] hold for each $i, j \\in [m]$ with "
              "$\\mathbf{a}^{(i)} \\neq \\mathbf{a}^{(j)}$.",
        severity="false-step",
        title="Lemma 1 claims (16) for every pair with a^(i) ≠ a^(j), but boltz is symmetric: a vector and a "
              "permutation of it meet every hypothesis and have equal outputs.",
        explanation="Counterexample at n = 2: a = (1, -5), b = (-5, 1), r = 11/2, δ = 5. Both are tokenwise "
                    "(r, δ)-separated (every entry has |·| < r, distinct entries differ by 6 > δ), neither has a "
                    "duplicate element, δ = 5 > 2 log 2 + 3 ≈ 4.39 and a ≠ b, yet boltz(a) = boltz(b), so (16) "
                    "fails. The proof assumes w.l.o.g. that both vectors are sorted and then compares the sorted "
                    "ones, i.e. it reads a ≠ b as 'different up to order'. The only use, in the proof of "
                    "Theorem 2 (line 491), has V^(i) ≠ V^(j), which is that reading.",
        repair="Read a^(i) ≠ a^(j) as 'a^(i) is not a permutation of a^(j)' (different multisets of entries). "
               "attncert proves the repaired lemma for n = 2 as a closed proof (theorem ks.lemma1).",
        obligations=["ks.boltz.lemma1.statement_16_as_printed.n2"],
    ),
    dict(
        id="ks-thm2-lemma1-threshold",
        where="A.2, proof of Theorem 2, application of Lemma 1 in (39) with δ of (43)",
        lines=(491, 522),
        quote="it follows from Lemma 1 that [...] \\delta' = (\\log n)^2 e^{-2r}, \\tag{39} [...] "
              "\\delta = 2 \\log n + 3, \\quad (43)",
        severity="remark",
        title="Lemma 1 requires δ > 2 log n + 3 strictly (14), while the proof of Theorem 2 applies it with "
              "δ = 2 log n + 3; the application is nonetheless valid.",
        explanation="By (30) every score gap exceeds 2 log n + 3 strictly, and there are finitely many gaps, so "
                    "a^(i) and a^(j) are tokenwise (r, δ*)-separated with δ* the least gap, and δ* > 2 log n + 3 "
                    "meets (14). Lemma 1's conclusion δ' = (log n)^2 e^{-2r} does not depend on δ, so (39) and "
                    "everything after it are unchanged.",
        repair="Apply Lemma 1 with δ* = the least of the gaps in (30), which exceeds 2 log n + 3.",
        obligations=["ks.thm.thm2.lemma1_hypothesis_39"],
    ),
    dict(
        id="ks-thm2-41",
        where="A.2, proof of Theorem 2, (41), fourth line",
        lines=(505, 505),
        quote="\\left| \\mathbf{u}'^\\top \\mathbf{u}' \\right|",
        severity="typo",
        title="In (41) the factor |u'^T u'| should be |u'^T u|.",
        explanation="With W^(K) = u v^T and W^(Q) = u' v^T, the middle factor of (X_k^(i))^T v u'^T u v^T (...) is "
                    "u'^T u, whose absolute value is fixed by (29); |u'^T u'| is a different number (for s = 1, "
                    "u = 2, u' = 1 it is 1 instead of 2). The next line of (41) substitutes (29), i.e. it already "
                    "uses |u'^T u|, so nothing downstream changes.",
        repair="(41), fourth line: |v^T X_k^(i)| · |u'^T u| · |(v^T X^(i)) σ_S[a^(i)] - (v^T X^(j)) σ_S[a^(j)]|.",
        obligations=["ks.thm.thm2.expansion_41_as_printed"],
    ),
    dict(
        id="ks-thm2-42",
        where="A.2, proof of Theorem 2, (42), last line",
        lines=(517, 517),
        quote="&> \\frac{\\epsilon}{4r_{\\max}} \\cdot \\frac{\\delta'}{(|\\mathcal{V}| + 1)^4 \\pi d \\delta "
              "r_{\\max}}, \\quad (42)",
        severity="false-step",
        title="The lower bound in (42) drops the factor 8 ε r_min that (41) provides, so it does not follow "
              "from (41) when 8 ε r_min < 1.",
        explanation="Write G = |(v^T X^(i)) σ_S[a^(i)] - (v^T X^(j)) σ_S[a^(j)]|. By (41) and (29), "
                    "G > 8 ε r_min δ' / (r_max (|V|+1)^4 π d δ), so the gap ε G / (4 r_max) exceeds "
                    "2 ε^2 r_min δ' / (r_max^2 (|V|+1)^4 π d δ), which is 8 ε r_min times the printed bound; the "
                    "printed bound is therefore unjustified whenever 8 ε r_min < 1 (e.g. ε = 1/100, "
                    "r_min = 1). The simplified bound (45), and hence δ in (8), already carry the correct factor "
                    "2 ε^2 r_min, so Theorem 2 is unchanged.",
        repair="(42), last line: > (ε / (4 r_max)) · 8 ε r_min δ' / (r_max (|V|+1)^4 π d δ) "
               "= 2 ε^2 r_min δ' / (r_max^2 (|V|+1)^4 π d δ).",
        obligations=["ks.thm.thm2.step_42_as_printed"],
    ),
    dict(
        id="ks-cor1-47",
        where="A.3, proof of Corollary 1, (47)",
        lines=(537, 542),
        quote="According to Theorem 2, we can construct such self-attention to be contextual mapping [...] "
              "\\delta &= \\frac{\\epsilon r_{\\min} \\log n}{r_{\\max}^2 (|\\mathcal{V}| + 1)^4 "
              "(2 \\log n + 3) \\pi d}",
        severity="constant",
        title="(47) restates the separation δ of Theorem 2 with the prefactor ε r_min log n in place of "
              "2 (log n)^2 ε^2 r_min of (8).",
        explanation="Theorem 2 ((8), derived in (45)) gives δ = 2 (log n)^2 ε^2 r_min / (r_max^2 (|V|+1)^4 "
                    "(2 log n + 3) π d) · exp(...), which is 2 ε log n times the value printed in (47), with the "
                    "same exponential factor. The printed value is covered by Theorem 2 only when 2 ε log n ≥ 1; "
                    "for smaller ε it exceeds what Theorem 2 provides. Corollary 1 only needs some δ > 0, so its "
                    "statement is unchanged.",
        repair="(47): δ = 2 (log n)^2 ε^2 r_min / (r_max^2 (|V|+1)^4 (2 log n + 3) π d) · "
               "exp(-(|V|+1)^4 (2 log n + 3) π d r_max^2 / (4 ε r_min)), as in (8).",
        obligations=["ks.thm.thm2.delta_47_vs_8"],
    ),
    dict(
        id="ks-cor2-48-norm",
        where="A.4, proof of Corollary 2, (48) and the sentence after it (upper norm bound)",
        lines=(554, 556),
        quote="2r_{\\max} & 4r_{\\max} & \\cdots & 2nr_{\\max} [...] are tokenwise "
              "$(r_{\\max}, (2n + 1)r_{\\max}, \\epsilon)$ -separated",
        severity="false-step",
        title="For d ≥ 2 the positional encoding (48) can push token norms above the claimed bound "
              "(2n + 1) r_max.",
        explanation="Column k of E is 2k r_max (1, ..., 1)^T, whose norm is 2k r_max sqrt(d), so one only gets "
                    "||X_k + E_k|| < (2n sqrt(d) + 1) r_max. Counterexample: d = 2, n = 1, r_max = 1, "
                    "X_1 = (1/2, 0)^T gives X_1 + E_1 = (5/2, 2)^T with norm sqrt(41)/2 > 3 = (2n + 1) r_max. "
                    "The statement of Corollary 2 (existence and parameter count) is unaffected; with E scaled by "
                    "1/sqrt(d) the bound and hence (49)-(50) hold as printed.",
        repair="Either take E with columns 2k r_max (1, ..., 1)^T / sqrt(d), or replace (2n + 1) r_max by "
               "(2n sqrt(d) + 1) r_max in the separation claim and in (49)-(50).",
        obligations=["ks.thm.cor2.upper_norm_48_as_printed"],
    ),
    dict(
        id="ks-cor2-48-separation",
        where="A.4, proof of Corollary 2, (48) and the sentence after it (ε-separation)",
        lines=(554, 556),
        quote="2r_{\\max} & 4r_{\\max} & \\cdots & 2nr_{\\max} [...] are tokenwise "
              "$(r_{\\max}, (2n + 1)r_{\\max}, \\epsilon)$ -separated",
        severity="false-step",
        title="Adding the positional encoding (48) does not keep tokens at different positions ε-separated.",
        explanation="Tokens at positions k ≠ l are shifted by different amounts, and ||X_k - X_l|| < 2 r_max only "
                    "gives ||(X_k + E_k) - (X_l + E_l)|| > 0. Counterexample: d = 1, n = 2, r_max = 1, ε = 1/10, "
                    "tokens 99/100 at position 1 and -99/100 at position 2 (distance 198/100 > ε) become 299/100 "
                    "and 301/100, only 1/50 < ε apart. Corollary 2 is unaffected: spacing the positions by "
                    "2 r_max + ε restores ε-separation, at the price of a larger norm bound in (49)-(50).",
        repair="Take E_k = k (2 r_max + ε) (1, ..., 1)^T / sqrt(d); then tokens at different positions are more "
               "than ε apart, norms lie between r_max and n (2 r_max + ε) + r_max, and (49)-(50) are recomputed "
               "with the upper bound n (2 r_max + ε) + r_max.",
        obligations=["ks.thm.cor2.separation_48_as_printed"],
    ),
    dict(
        id="ks-prop1-58",
        where="A.5, proof of Proposition 1, step 2, (58)",
        lines=(610, 614),
        quote="and subtracting the last step function from it, [...] \\sum_{t=1}^D \\frac{\\sigma_R[z/\\delta - "
              "t/\\delta D] - \\sigma_R[z/\\delta - 1 - t/\\delta D]}{D} [...] approximately quantize $[0, 1]$ "
              "into $\\{1/D, \\dots, 1\\}$, while it projects $\\mathbb{R} \\setminus [0, 1]$ to 0.",
        severity="false-step",
        title="The sum in (58) runs over t = 1, ..., D instead of t = 0, ..., D - 1 as in (57), so on [0, 1) it "
              "takes the values 0, 1/D, ..., (D - 1)/D rather than 1/D, ..., 1.",
        explanation="The t-th step rises on [t/D, t/D + δ], so (58) is 0 on [0, 1/D) and k/D on "
                    "[k/D + δ, (k + 1)/D); for example, for D = 1, 2, 3, z = 1/(2D) and δ = 1/(4D) it gives 0 where "
                    "quant_D(z) = 1/D. The cell [0, 1/D) is then mapped to 0 like the points outside [0, 1], "
                    "against the separation (65)-(66) used in step 3. With the steps indexed as in (57) the "
                    "construction works and Proposition 1 is unchanged.",
        repair="sum_{t=0}^{D-1} (σ_R[z/δ - t/(δD)] - σ_R[z/δ - 1 - t/(δD)]) / D - (σ_R[z/δ - 1/δ] - "
               "σ_R[z/δ - 1 - 1/δ]), i.e. (57) minus the unit step at 1: for δ < 1/D it equals quant_D(z) on "
               "[0, 1] and 0 outside [0, 1], away from the ramps of width δ.",
        obligations=["ks.thm.prop1.quant_58_as_printed.D1", "ks.thm.prop1.quant_58_as_printed.D2",
                     "ks.thm.prop1.quant_58_as_printed.D3"],
    ),
    dict(
        id="ks-prop1-59",
        where="A.5, proof of Proposition 1, step 2, penalty term (59)",
        lines=(620, 620),
        quote="\\sigma_R[(z-1)/\\delta] - \\sigma_R[(z-1)/\\delta - 1] - \\sigma_R[-z/\\delta] - "
              "\\sigma_R[-z/\\delta - 1] \\\\ & \\approx \\mathbf{penalty}(z)",
        severity="false-step",
        title="The ReLU expression in (59) has wrong signs and does not approximate penalty(z): it equals +1 for "
              "large z and is unbounded below for z < 0.",
        explanation="For z ≥ 1 + δ the first pair equals 1 and the last two terms vanish, giving +1 instead of -1 "
                    "(e.g. z = 2, δ = 1/4). For z < -δ the first pair vanishes and "
                    "-σ_R[-z/δ] - σ_R[-z/δ - 1] = 2z/δ + 1, which is unbounded instead of -1. With the corrected "
                    "signs the penalty, (60)-(61) and Proposition 1 are unchanged.",
        repair="-(σ_R[(z - 1)/δ] - σ_R[(z - 1)/δ - 1]) - (σ_R[-z/δ] - σ_R[-z/δ - 1]), which equals -1 for "
               "z ≤ -δ and z ≥ 1 + δ and 0 for 0 ≤ z ≤ 1.",
        obligations=["ks.thm.prop1.penalty_59_as_printed"],
    ),
    dict(
        id="ks-prop1-67",
        where="A.5, proof of Proposition 1, step 3, bump function (67)-(68)",
        lines=(658, 664),
        quote="(\\sigma_R[R(Z_{t,k} - L_{t,k}) - 1] - \\sigma_R[R(Z_{t,k} - L_{t,k})]) [...] "
              "+ \\sigma_R[R(Z_{t,k} - L_{t,k}) + 1] [...] the value of $\\mathcal{F}_2^{(FF)}$ is always "
              "bounded: $0 \\leq \\mathcal{F}_2^{(FF)} \\leq 1$",
        severity="false-step",
        title="The summand σ_R[x - 1] - σ_R[x] + σ_R[x + 1] of (67)-(68) is not a bump: it equals x for x ≥ 1, so "
              "bump_R is neither localized at L nor bounded.",
        explanation="With x = R(Z_{t,k} - L_{t,k}) the summand is 0 for x ≤ -1, x + 1 on [-1, 0], 1 on [0, 1] and x "
                    "for x ≥ 1 (e.g. x = 2 gives 2), so it does not vanish away from L and does not stay in [0, 1]; "
                    "the hat function is σ_R[x - 1] - 2σ_R[x] + σ_R[x + 1] = max(0, 1 - |x|). Two further gaps "
                    "remain even with the hat: a sum of per-coordinate hats is not an indicator of the cell of L "
                    "(a Z agreeing with L in m of the dn entries receives f(L) m/(dn)), and the sum over all "
                    "positions k is not computed token-wise, as the feed-forward layer (3) must be. These call for "
                    "reworking the construction of F_2^(FF) (for instance mapping each token's context id to its "
                    "label, as in the proof of Corollary 1), not the statement of Proposition 1.",
        repair="Use the hat σ_R[x - 1] - 2σ_R[x] + σ_R[x + 1] = max(0, 1 - |x|), and build F_2^(FF) token-wise "
               "from functions localized at each context id rather than from a sum of per-entry hats.",
        obligations=["ks.thm.prop1.bump_67_as_printed"],
    ),
    dict(
        id="ks-lemma6-103",
        where="B.2, Lemma 6, sentence introducing (103)",
        lines=(820, 822),
        quote="the difference $\\mathbf{boltz}(\\mathbf{a}) - \\mathbf{boltz}(\\mathbf{b})$ is lower-bounded by "
              "[...] \\mathbf{boltz}(\\mathbf{b}) - \\mathbf{boltz}(\\mathbf{a}) >",
        severity="typo",
        title="The sentence introducing (103) names the difference boltz(a) - boltz(b), while (103) bounds "
              "boltz(b) - boltz(a).",
        explanation="Under (102) a and b differ only in the last entry, with a_n > b_n, and boltz decreases in that "
                    "entry in this regime (Lemma 4), so boltz(a) - boltz(b) is negative and cannot exceed the "
                    "positive right-hand side of (103) (e.g. a = (0, -5), b = (0, -6), δ = 4). The display (103), "
                    "its proof (105) and its use in (124) all have boltz(b) - boltz(a).",
        repair="\"..., the difference boltz(b) - boltz(a) is lower-bounded by\".",
        obligations=["ks.boltz.lemma6.prose_103_as_printed"],
    ),
    dict(
        id="ks-lemma7-114",
        where="B.3, Lemma 7, hypothesis (114)",
        lines=(880, 882),
        quote="tokenwise δ -separated vectors in a decreasing order [...] "
              "i > j \\Rightarrow a_i - a_j, b_i - b_j > \\delta",
        severity="typo",
        title="Hypothesis (114) has the differences reversed: for vectors in decreasing order, i > j should give "
              "a_j - a_i > δ and b_j - b_i > δ.",
        explanation="For i > j a decreasing vector has a_i < a_j, so a_i - a_j > δ > 0 is impossible; as printed "
                    "the hypotheses of Lemma 7 cannot hold for n ≥ 2 and the lemma would be vacuous (e.g. "
                    "a = (2, 0), δ = 1 is decreasing and δ-separated, yet a_2 - a_1 = -2). The proof uses the "
                    "intended reading, e.g. in (127).",
        repair="i > j => a_j - a_i > δ and b_j - b_i > δ.",
        obligations=["ks.boltz.lemma7.hyp_114_as_printed"],
    ),
    dict(
        id="ks-lemma7-120",
        where="B.3, proof of Lemma 7, case k ≥ 1, (120)",
        lines=(910, 910),
        quote="\\mathbf{boltz}(\\mathbf{a}) < \\underline{\\mathbf{a}}^\\top \\sigma_S[\\underline{\\mathbf{a}}] "
              "= \\mathbf{boltz}(\\underline{\\mathbf{a}}) \\quad \\text{and} \\quad \\mathbf{boltz}(\\mathbf{b}) "
              "> \\mathbf{boltz}(\\bar{\\mathbf{b}})",
        severity="false-step",
        title="For k = n - 1 the strict inequalities in (120) fail: then underline a = a and bar b = b, so both "
              "hold with equality.",
        explanation="By (118)-(119), underline a = (a_1, ..., a_{k+1}) is a itself when k + 1 = n, and "
                    "bar b = (a_1, ..., a_{n-1}, b_n) = b because a_i = b_i for i ≤ k; e.g. for n = 2, k = 1, "
                    "a = (0, -6), b = (0, -12), δ = 5 both sides of each inequality coincide. The strict "
                    "inequalities hold only for k < n - 1. With ≤ and ≥ in (120) the proof goes through, because "
                    "the bound on boltz(bar b) - boltz(underline a) in (124)-(128) is strict, so Lemma 7 is "
                    "unchanged.",
        repair="boltz(a) ≤ boltz(underline a) and boltz(b) ≥ boltz(bar b), with strict inequality when "
               "k < n - 1.",
        obligations=["ks.boltz.lemma7.step_120_as_printed.k_eq_n_minus_1"],
    ),
    dict(
        id="ks-lemma7-128",
        where="B.3, proof of Lemma 7, case k ≥ 1, (128), last step",
        lines=(944, 944),
        quote="&> \\frac{e^{b_{k+1} + \\log(n-k)}}{2e^{a_1}} \\cdot 2(\\log n)^2 \\\\ "
              "&> (\\log n)^2 e^{-(a_1 - b_{k+1})}",
        severity="false-step",
        title="The last step of (128) is strict only for k < n - 1; for k = n - 1 it is an equality.",
        explanation="The middle expression equals (n - k)(log n)^2 e^{-(a_1 - b_{k+1})}, which exceeds "
                    "(log n)^2 e^{-(a_1 - b_{k+1})} only when n - k ≥ 2; for k = n - 1 the two coincide (e.g. "
                    "n = 2, k = 1, a_1 = 0, b_2 = -4). Since the preceding step of (128) is strict, writing ≥ here "
                    "still gives boltz(bar b) - boltz(underline a) > (log n)^2 e^{-(a_1 - b_{k+1})}, so Lemma 7 "
                    "is unchanged.",
        repair="(128), last step: ≥ (log n)^2 e^{-(a_1 - b_{k+1})} (strict when k < n - 1); the strict "
               "conclusion follows from the strict preceding step.",
        obligations=["ks.boltz.lemma7.step_128_line3_as_printed"],
    ),
    dict(
        id="ks-masking-133",
        where="C, extension to masked self-attention, (132)-(133)",
        lines=(980, 987),
        quote="whose elements are either 0 or $-\\infty$. [...] "
              "&= \\mathbf{a}^\\top \\sigma_S [\\mathbf{a} + \\mathbf{c}] + \\mathbf{c}^\\top \\sigma_S "
              "[\\mathbf{a} + \\mathbf{c}] \\\\ &= \\mathbf{a}^\\top \\sigma_S [\\mathbf{a} + \\mathbf{c}]",
        severity="convention",
        title="The last step of (133), c^T σ_S[a + c] = 0, must be read as a limit of finite masks c_i -> -∞ "
              "(equivalently 0 · (-∞) = 0), with at least one entry left unmasked.",
        explanation="For a masked entry c_i = -∞ the term c_i σ_S[a + c]_i is (-∞) · 0, which is undefined as "
                    "written. Taking c_i = -t for the masked entries, each such term is bounded in absolute value "
                    "by t e^{a_i - t - a_j} for any unmasked j, which tends to 0 as t -> ∞, so (133) holds in the "
                    "limit. If every entry is masked, σ_S[a + c] is 0/0 and (133) has no meaning.",
        repair="Read (133) as the limit c_i = -t, t -> ∞, for the masked entries (or adopt 0 · (-∞) = 0), and "
               "require every mask vector to leave at least one entry unmasked.",
        obligations=["ks.boltz.masking_133.masked_term_vanishes"],
    ),
]
