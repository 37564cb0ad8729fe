"""Errata catalogue, InfoFlow (Yu, Jiang, Bao, Li 2026), everything except the proof of Theorem 4.

Theorems 2/3/5/6 (Appendices A.2, A.3), the InfoFlow model and its cost laws (Sections 5-6), Propositions 1
and 2 (Appendix B), the Trees of Comparison (Appendix D) and the example of Figure 5 (Appendix E). Data only:
one entry per erratum or note, in the paper's reading order; quotes are verbatim from
papers/infoflow-2605.17930.txt of the shared folder (see attncert_proofs.errata for the fields)."""

from __future__ import annotations

ERRATA = [
    # ------------------------------------------------------------------ Theorem 2 (informal), Section 4.2
    dict(
        id="infoflow-thm2-exponent",
        where="Section 4.2, Theorem 2 (informal), against Theorem 5 (A.2)",
        lines=(88, 88),
        quote=r"then it requires at least [...] \Omega\!\left(\varepsilon^{1-\frac{T-k-1}{n+1}}\right) parameters in the feed-forward blocks.",
        severity="constant",
        title="The exponent of informal Theorem 2, 1 - (T-k-1)/(n+1), is weaker by 1/(n+1) than that of its formal "
              "version, Theorem 5, and by 2/(n+1) than what the proof in A.2 gives.",
        explanation="Theorem 5 states Omega(eps^{-o}) with o = (T-k)/(n+1) - 1, i.e. Omega(eps^{1 - (T-k)/(n+1)}), and "
                    "the proof ends with Omega(eps^{1 - (T-k+1)/(n+1)}). Informal Theorem 2 has exponent "
                    "1 - (T-k-1)/(n+1): the three exponents differ pairwise by multiples of 1/(n+1). For eps <= 1 "
                    "the informal bound is implied by the other two, so nothing is false, but the informal statement "
                    "understates the result by a factor eps^{-2/(n+1)}.",
        repair="Theorem 2 (informal): at least Omega(eps^{1 - (T-k+1)/(n+1)}) parameters, the exponent the proof of "
               "Theorem 5 gives.",
        obligations=["infoflow.thm5.exponent_formal_vs_informal"],
    ),
    # ------------------------------------------------------------------ Theorem 3 (informal), Section 5.2
    dict(
        id="infoflow-thm3-informal-exponent",
        where="Section 5.2, Theorem 3 (informal), against Theorem 6 (A.3)",
        lines=(144, 144),
        quote=r"\varepsilon-close to [...] X_{T}, then [...] f_{1} and [...] f_{2} have parameter count of "
              r"[...] O(\varepsilon^{1-\frac{T_{0}d}{n}}).",
        severity="constant",
        title="Informal Theorem 3 gives the encoding-decoding cost as O(eps^{1 - T0 d/n}); the construction of "
              "Theorem 6 gives O(eps^{-T0 d/n}), larger by a factor 1/eps, and 1 - T0 d/n is the exponent of the "
              "lower bound.",
        explanation="Theorem 6 proves two bounds: eps-approximation in L_p with O(eps^{-T0 d/n}) parameters (first "
                    "bullet), and a lower bound Omega(eps^{1 - T0 d/n}) under an L-infinity error and bounded weights "
                    "(second bullet, proof in A.3). Informal Theorem 3 pairs the lower bound's exponent with O; read "
                    "as an upper bound, as Section 5.2 does ('it requires O(...) parameters', the cost laws), its "
                    "exponent differs from the construction's by exactly 1, so it is not what A.3 proves. A.3 itself "
                    "says that O(1/eps^{|I|d/E}) parameters are enough, i.e. the exponent -T0 d/n.",
        repair="Theorem 3 (informal): O(eps^{-T0 d/n}) parameters suffice (in L_p), and if the error is at most eps "
               "in L-infinity with bounded weights then Omega(eps^{1 - T0 d/n}) parameters are needed.",
        obligations=["infoflow.thm6.exponent_informal_vs_upper"],
    ),
    # ------------------------------------------------------------------ Section 5.2, cost law 1
    dict(
        id="infoflow-cost-law-min",
        where="Section 5.2, parameter cost law 1 (max position aggregation), against Theorem 6 (A.3)",
        lines=(150, 150),
        quote=r"In max position aggregation, the parameter cost is [...] O(\varepsilon^{1-|I(t,l+1)|d/E_{l+1}}).",
        severity="constant",
        title="The cost law drops the min(., 0) of Theorem 6, so for small sets (|I(t,l+1)| d < E_{l+1}) it assigns "
              "a cost that tends to 0 as eps -> 0.",
        explanation="Theorem 6 (second bullet), on which the law rests, has exponent min(1 - T0 d/n, 0), with "
                    "T0 = |I(t,l+1)| and n = E_{l+1}. Without the min, a set with |I| d < E gets a positive exponent: "
                    "for E = 4, d = 1, |I| = 1 the law gives O(eps^{3/4}), which no parameter count (at least 1) can "
                    "be. The same happens in laws 2 and 3 whenever their exponent is positive. Only small sets are "
                    "affected; the growth predictions of Section 6 are not.",
        repair="Cost O(eps^{min(1 - |I(t,l+1)| d/E_{l+1}, 0)}), i.e. O(1) when |I(t,l+1)| d <= E_{l+1} (likewise "
               "for laws 2 and 3).",
        obligations=["infoflow.model.cost.law1_vs_theorem6"],
    ),
    # ------------------------------------------------------------------ Section 6, consistency with Yu et al.
    dict(
        id="infoflow-s6-single-layer-count",
        where="Section 6, first paragraph (generalized D-retrieval target), against formula (5)",
        lines=(204, 204),
        quote=r"a single-layer Transformer with [...] heads using only max position aggregation has at most "
              r"[...] s(T-1) comparisons",
        severity="false-step",
        title="By formula (5), a single-layer model with s heads has up to sT - 1 comparisons, not at most s(T-1).",
        explanation="For L = 1 and beta_1 = 1, (5) equals |I(T+1,1)| - 1 + s(T-1), and the CLS set I(T+1,1) can hold "
                    "up to s positions (one per head), so the count is up to sT - 1; e.g. T = 5, s = 2, "
                    "|I(T+1,1)| = 2 gives 9 > 8 = s(T-1). With the count of (5) the prediction s >= D still follows, "
                    "for T >= D^2 (see the next entry).",
        repair="'has at most sT - 1 comparisons' (formula (5) with |I(T+1,1)| <= s).",
        obligations=["infoflow.model.s6.formula5_single_layer"],
    ),
    dict(
        id="infoflow-s6-heads-threshold",
        where="Section 6, first paragraph (generalized D-retrieval target)",
        lines=(204, 204),
        quote=r"while the target requires at least [...] D(T-D) comparisons. InfoFlow therefore predicts that at "
              r"least [...] s\geq D heads are needed",
        severity="convention",
        title="The inference from 's(T-1) comparisons against D(T-D)' to 's >= D heads' holds only for T large "
              "enough, here T >= D^2 - D + 2; the reader must read it as a large-T statement.",
        explanation="With s = D - 1 heads, s(T-1) >= D(T-D) holds exactly when T <= D^2 - D + 1, so the comparison "
                    "forces s >= D only for T >= D^2 - D + 2; for instance D = 2, T = 2, s = 1 gives 1 >= 0. With "
                    "the count sT - 1 of formula (5) (previous entry) the threshold is T >= D^2. The prediction is "
                    "asymptotic in T, as is Theorem 2.2 of Yu et al. (2026), so nothing changes once the threshold "
                    "is stated.",
        repair="'... so for T >= D^2 InfoFlow predicts that at least s >= D heads are needed' (T >= D^2 - D + 2 with "
               "the count s(T-1)).",
        obligations=["infoflow.model.s6.heads_ge_D_as_printed"],
    ),
    dict(
        id="infoflow-s6-global-exponent",
        where="Section 6, second paragraph (global aggregation), against cost law 2 of Section 5.2",
        lines=(206, 206),
        quote=r"global information aggregation to [...] -approximate the generalized [...] -retrieval target with "
              r"[...] O(\varepsilon^{-Td/E}) parameters.",
        severity="constant",
        title="Section 6 costs global aggregation at O(eps^{-Td/E}), while cost law 2 of Section 5.2, which InfoFlow "
              "uses for the same update, gives O(eps^{1 - Td/E}).",
        explanation="The two exponents differ by exactly 1, a factor 1/eps. Section 6's figure is the exponent of the "
                    "construction of Theorem 6 (first bullet); law 2 uses the exponent of the lower bound (second "
                    "bullet). For eps <= 1 law 2's bound implies Section 6's, so Section 6 is consistent but does "
                    "not apply the law as stated. The match with Theorem 2.3 of Yu et al. (2026) was not re-checked.",
        repair="Use one exponent for global aggregation in both places (law 2's 1 - Td/E, or state in Section 6 that "
               "-Td/E is the construction's exponent).",
        obligations=["infoflow.model.s6.global_exponent"],
    ),
    # ------------------------------------------------------------------ A.2, Theorem 5
    dict(
        id="infoflow-thm5-exponent",
        where="A.2, Theorem 5 (statement) against the end of its proof",
        lines=(577, 790),
        quote=r"have parameter count at least [...] \Omega(\varepsilon^{-o}), where [...] o=\frac{T-k}{n+1}-1. "
              r"[...] P_{2}=\Omega\!\left(\varepsilon^{-\left(\frac{T-k+1}{n+1}-1\right)}\right).",
        severity="constant",
        title="Theorem 5 states the exponent o = (T-k)/(n+1) - 1, but its proof gives (T-k+1)/(n+1) - 1.",
        explanation="The proof works with m = T - k + 1 free coordinates and ends with "
                    "P_2 = Omega(eps^{-((T-k+1)/(n+1) - 1)}). The stated bound is weaker by a factor eps^{-1/(n+1)}; "
                    "it is implied for eps <= 1, so nothing is false, but the theorem understates what is proved "
                    "(and informal Theorem 2 is weaker again, see that entry).",
        repair="o = (T-k+1)/(n+1) - 1 in Theorem 5.",
        obligations=["infoflow.thm5.exponent_proof_vs_formal"],
    ),
    dict(
        id="infoflow-thm5-grids-in-half",
        where="A.2, proof of Theorem 5, the grids G_j",
        lines=(623, 623),
        quote=r"For sufficiently small [...] \varepsilon, each [...] G_{j}\subset[0,1/2]",
        severity="remark",
        title="The qualifier 'for sufficiently small eps' is not needed: every G_j lies in (0, 1/2) for every eps "
              "the proof allows.",
        explanation="The largest point of G_j is (j-1)/(2m) + 4 N eps <= (m-1)/(2m) + 1/(4m) < 1/2, since "
                    "N = floor(1/(16 m eps)) gives 4 N eps <= 1/(4m); the smallest is 4 eps > 0. This holds for every "
                    "eps <= 1/(16m), in particular for the proof's range 0 < eps < 1/(64m).",
        repair="",
        obligations=["infoflow.thm5.grid_points_in_half"],
    ),
    dict(
        id="infoflow-thm5-cube-count",
        where="A.2, proof of Theorem 5, the count of cubes before the pigeonhole step",
        lines=(647, 647),
        quote=r"N large enough, this number is strictly smaller than [...] N^{m}.",
        severity="false-step",
        title="The count of cubes holds, as printed, 'for N large enough'; the proof applies it at every eps < "
              "1/(64m) of Theorem 5, where N can be too small (m = 1, n = 5, eps = 1/65 gives N = 4).",
        explanation="The printed count (N^{m/(n+1)}/4 + 1)^{n+1} is below N^m exactly when N > (4/3)^{(n+1)/m}. The "
                    "choice eps < 1/(64m) only gives N >= 4, which suffices when (n+1)/m < ln 4/ln(4/3) (about 4.82) "
                    "but not always: m = 1, n = 5, eps = 1/65 gives N = 4 and a count (4^{1/6}/4 + 1)^6, about 5.17, "
                    "above N^m = 4. Theorem 5 is an Omega bound as eps -> 0, so the extra condition is harmless, and "
                    "where it binds m/(n+1) < 1, so the bound eps^{1 - m/(n+1)} is trivial anyway. Counting the cubes "
                    "exactly removes the threshold.",
        repair="The number of cubes is at most ceil(N^{m/(n+1)}/4)^{n+1}, which is < N^m for every N >= 2 (or: "
               "require N > (4/3)^{(n+1)/m} explicitly).",
        obligations=["infoflow.thm5.cube_count_as_printed_m1_n5"],
    ),
    # ------------------------------------------------------------------ A.3, Theorem 6
    dict(
        id="infoflow-thm6-lemma1-p",
        where="A.3, Lemma 1 (hypothesis p > 1) against Theorem 6, first bullet (p >= 1)",
        lines=(808, 902),
        quote=r"For a fixed [...] p\geq 1 [...] Let p>1p>1,",
        severity="typo",
        title="Lemma 1 assumes p > 1, but Theorem 6 is stated for every p >= 1 and applies the lemma at that p; the "
              "proof of the lemma works for p = 1 unchanged.",
        explanation="Nothing in the proof of Lemma 1 uses p > 1. At p = 1, choosing R with e^{2R} > 6M/delta gives "
                    "each tail s(R) = (1 - tanh R)/2 = 1/(1 + e^{2R}) < delta/(6M), so s(R) M + s(R) M < delta/3, and "
                    "the other terms are as printed. So the case p = 1 of Theorem 6 is covered once the hypothesis "
                    "is relaxed.",
        repair="Lemma 1: 'Let p >= 1'.",
        obligations=["infoflow.thm6.lemma1_p_range_900"],
    ),
    dict(
        id="infoflow-thm6-bullet2-omega",
        where="A.3, Theorem 6, second bullet",
        lines=(810, 810),
        quote=r"must have total parameter count of order [...] O(\varepsilon^{\min(1-\frac{T_{0}d}{n},0)}).",
        severity="typo",
        title="The second bullet of Theorem 6 states a lower bound with O; the proof derives "
              "Omega(eps^{1 - T0 d/n}) (and Omega(1) when T0 d <= n).",
        explanation="The proof ends with 'at least Omega(eps^{1 - T0 d/n})' in the regime T0 d > n, so the exponent "
                    "min(1 - T0 d/n, 0) is right and only the symbol is wrong: as printed, O(...) bounds the count "
                    "from above and says nothing. Informal Theorem 3 also writes O (see that entry). A further point "
                    "for the authors: for continuous f1, f2 and T0 d > n the hypothesis (L-infinity error <= eps) "
                    "cannot hold for any eps < 1/2, since f1 identifies two points V, V' with ||V - V'||_inf = 1 "
                    "(for n = 1 by the intermediate value theorem on the boundary loop of a 2-face of [0,1]^m, for "
                    "n >= 2 by the Borsuk-Ulam theorem); so the bound holds vacuously as stated.",
        repair="'... must have total parameter count Omega(eps^{min(1 - T0 d/n, 0)})'.",
        obligations=["infoflow.thm6.exponent_bullet2_vs_proof"],
    ),
    dict(
        id="infoflow-thm6-input-measure",
        where="A.3, Theorem 6 (the L_p norm) and the tanh replacement step of its proof",
        lines=(957, 957),
        quote=r"be the pushforward of the input distribution under",
        severity="convention",
        title="The L_p norm of Theorem 6 and 'the input distribution' of the replacement step need a measure on "
              "X^{T0} that the paper does not fix.",
        explanation="Theorem 6 measures the error in L_p without naming a measure, and the replacement step pushes "
                    "'the input distribution' forward under z. The argument works for any finite measure on [0,1]^m: "
                    "each replacement changes the output by at most L_G ||H - phi||_{L_p(nu)} < L_G delta <= "
                    "eps/(2 N0), and Lemma 1 handles atoms of the pushforward (which the Heaviside encoder creates at "
                    "the decoder's inputs). A natural reading is V uniform on [0,1]^m with the pointwise l_p norm "
                    "used in the truncation estimate.",
        repair="State the measure in Theorem 6, e.g. 'L_p with respect to the uniform probability measure on "
               "[0,1]^m' (any finite measure works).",
        obligations=["infoflow.thm6.replacement_unit_979"],
    ),
    dict(
        id="infoflow-thm6-identity-case",
        where="A.3, proof of Theorem 6, first part, the case n >= T0 d",
        lines=(989, 989),
        quote=r"and [...] f_{2}((U,0))=U, then we can achieve exact representation with [...] O(1) parameters.",
        severity="false-step",
        title="A two-layer tanh network cannot represent V -> (V, 0) exactly, as claimed for n >= T0 d; it can "
              "approximate it to any accuracy with O(1) parameters, so the first bullet stands.",
        explanation="A two-layer tanh network is a finite sum of tanh ridge functions plus a constant: it is "
                    "real-analytic and bounded on all of R^m, so if it equalled the identity on [0,1]^m it would "
                    "equal it everywhere, which is impossible. Exact representation needs a linear (identity) path. "
                    "With tanh units only, x -> tanh(w x)/w maps [0,1] into [0,1] and is within w^2/3 of x for "
                    "0 < w <= 1, so one unit per coordinate in f1 and in f2 gives error at most 2w^2/3 per "
                    "coordinate, below any eps for w small.",
        repair="When n >= T0 d, take f1(V) = (tanh(wV)/w, 0) and f2(U, 0) = tanh(wU)/w coordinatewise, with w > 0 "
               "small enough for accuracy eps: O(1) parameters (weights of size 1/w, which the first bullet allows).",
        obligations=["infoflow.thm6.identity_case_1001"],
    ),
    dict(
        id="infoflow-thm6-letters-a-b",
        where="A.3, proof of Theorem 6, second part (application of Lemma 4 of Yu et al. 2026)",
        lines=(1002, 1004),
        quote=r"Applying the Lemma 4 from Yu et al. [2026] to [...] A=C\varepsilon^{m/n},\qquad B=2\varepsilon,",
        severity="convention",
        title="The letters A and B each carry two meanings in A.3.",
        explanation="B is the weight-norm bound in the second bullet of Theorem 6 and 2 eps in the application of "
                    "Lemma 4; A is a distance of Lemma 4 here and the tanh coefficient in Lemma 1. The computation is "
                    "right as printed: B/(A sqrt(n)) = (2/(C sqrt(n))) eps^{1 - m/n}. The reader must keep the "
                    "meanings apart.",
        repair="Rename one of each pair, e.g. B_w for the weight bound of Theorem 6.",
        obligations=["infoflow.thm6.packing_lemma4_1008"],
    ),
    # ------------------------------------------------------------------ B.1, Proposition 1
    dict(
        id="infoflow-b1-eq45-exponent",
        where="B.1, derivation of Proposition 1, display (45) against formula (5)",
        lines=(1036, 1036),
        quote=r"\Bigl(|I(t,l)|^{\beta^{\prime}}-1+\sum_{i=1}^{h_{l}}(T-1)\Bigr)",
        severity="typo",
        title="(45) restates formula (5) with the power beta' where (5) has beta_1.",
        explanation="Formula (5) raises |I(t,l)| and |I(T+1,l)| to the Dimension of Comparison beta_1; (45) uses the "
                    "Order of Comparison beta'. For target (6) both equal 2, so (46) and the rest of the derivation "
                    "are unaffected.",
        repair="|I(t,l)|^{beta_1} and |I(T+1,l)|^{beta_1} in (45).",
        obligations=["infoflow.model.p1.eq45_46"],
    ),
    dict(
        id="infoflow-b1-eq47-cls-heads",
        where="B.1, derivation of Proposition 1, the step (46) <= (47)",
        lines=(1038, 1038),
        quote=r"+h_{1}^{2}+(h_{1}+1)^{2}(h_{2}+1)^{2}-2+2(T-1)",
        severity="false-step",
        title="(47) counts the CLS token's attention comparisons as 2(T-1); (46) has (h1 + h2)(T-1), so (46) <= (47) "
              "fails when h1 + h2 > 2.",
        explanation="The CLS terms of (46) carry sum over l = 1, 2 of h_l (T-1) comparisons, which (47) replaces by "
                    "2(T-1), correct only for h1 = h2 = 1. An InfoFlow model realises the gap: T = 10, heads (2, 2), "
                    "every |I(t,1)| = 3, |I(T+1,1)| = 2, |I(T+1,2)| = 8 gives 362 in (46) against 361 in (47). The "
                    "difference is O(T), so the leading term h1 T^2 of (48) is unchanged.",
        repair="Replace + 2(T-1) in (47) by + (h1 + h2)(T-1); (48) = h1 T^2 + O(T) stands.",
        obligations=["infoflow.model.p1.le46_47_as_printed"],
    ),
    dict(
        id="infoflow-b1-h1-ge-d",
        where="B.1, derivation of Proposition 1, after (48); Proposition 1 (Section 6.1)",
        lines=(1041, 1041),
        quote=r"Therefore we need [...] h_{1}\geq D to have large enough Number of Comparison.",
        severity="conclusion",
        title="The claim of Proposition 1 that learning target (6) needs h1 >= D does not follow from the Number of "
              "Comparison bounds derived in B.1.",
        explanation="The model's count is h1 T^2 + O(T) by (48). To force h1 >= D one needs the target's Number of "
                    "Comparison to be at least D T^2 - o(T^2) (more precisely above (D-1) T^2 + O(T)). B.1 proves an "
                    "upper bound D T^2 + o(T^2), which points the wrong way, and a lower bound Omega(T^2) with no "
                    "constant (every pair {t1, t2}, t1 != t2, on a leaf: about T(T-1)/2 - D comparisons). A single "
                    "first-layer head already meets that lower bound: for D = 2, T = 64, h1 = 1, h2 = 2 the count "
                    "h1 T^2 + O(T) of (47)-(48) is about 4400, above T(T-1)/2 - D = 2014. The experiment of Section 6.1 supports h1 = D, but "
                    "the derivation as printed does not.",
        repair="Either prove a lower bound N(F) >= D T^2 - o(T^2) for target (6), or weaken Proposition 1 to 'h1 >= 1 "
               "and O(T^2) comparisons suffice' and present h1 >= D as the experimental finding of Section 6.1.",
        obligations=["infoflow.model.p1.h1_ge_D_as_printed"],
    ),
    dict(
        id="infoflow-b1-eq50-pairs",
        where="B.1, construction of the (D, D) model, display (50)",
        lines=(1049, 1049),
        quote=r"I(T+1,2)=\{(t,s_{i}(t)):t\in\bigcup_{i=1}^{D}\{\arg\max_{1\leq t\leq T}x(s_{i}(t))^{\top}A_{i}x(t)\}\}.",
        severity="convention",
        title="(50) writes the CLS information set as a set of pairs (t, s_i(t)) and selects t by a score that names "
              "x(s_i(t)); the reader must read it as a union of the sets I(t,1).",
        explanation="An information set is a set of positions, and the second-layer score may depend only on the "
                    "subsequence X[I(t,1)], which does not say which of its elements is x(s_i(t)). Reading (50) as "
                    "the union of I(t,1) over the selected t, selected by max over u, v in I(t,1) of "
                    "x(u)^T A_i x(v), gives a valid max-position update: the maximising pair of head i lies in some "
                    "I(t,1) by (49), so I_F(X) is contained in I(T+1,2), and |I(T+1,2)| <= D(D+1) does not grow "
                    "with T (with I(T+1,1) empty).",
        repair="I(T+1,2) = union over i of I(t_i, 1), t_i = argmax_t max_{u,v in I(t,1)} x(u)^T A_i x(v).",
        obligations=["infoflow.model.p1.construction_49_50_size"],
    ),
    # ------------------------------------------------------------------ B.2, Proposition 2
    dict(
        id="infoflow-b2-attention-term",
        where="B.2, derivation of Proposition 2, the sentence after (55)",
        lines=(1065, 1065),
        quote=r"If [...] TLM^{\beta_{1}}+HLT^{\beta_{1}}+O(M^{\beta_{1}}+T)\geq C_{1}T^{\beta^{\prime}}",
        severity="typo",
        title="The attention term H L T^2 of (55) is restated as H L T^{beta_1}.",
        explanation="With T^{beta_1} the step fails: for the triangle target (beta_1 = beta' = 3, C1 = 1/6) the "
                    "attention term alone meets C1 T^3, so nothing forces M to grow; e.g. H = L = M = 1, T = 1000 "
                    "satisfies the printed hypothesis while T L M^3 = 1000 < T^3/24. With H L T^2, as in (55), and "
                    "beta' > 2, T >> HL, the step to T L M^{beta_1} >= C2 T^{beta'} holds.",
        repair="'If T L M^{beta_1} + H L T^2 + O(M^{beta_1} + T) >= C1 T^{beta'} holds for T >> HL, ...'.",
        obligations=["infoflow.model.p2.L1064_as_printed"],
    ),
    dict(
        id="infoflow-b2-m-bound-l",
        where="B.2, derivation of Proposition 2, the bound on M",
        lines=(1065, 1065),
        quote=r"thus we have [...] M\geq CT^{\frac{\beta^{\prime}-1}{\beta_{1}}}/L for positive constant",
        severity="remark",
        title="The bound M >= C T^{(beta'-1)/beta_1}/L is correct but loose in L: solving gives L^{-1/beta_1}.",
        explanation="T L M^{beta_1} >= C2 T^{beta'} gives M >= (C2/L)^{1/beta_1} T^{(beta'-1)/beta_1}, which for "
                    "L >= 1 implies the printed bound with C = C2^{1/beta_1}. The step is valid; with the sharper "
                    "form, the exponent of Proposition 2 could carry L^{1/beta_1} in place of L.",
        repair="",
        obligations=["infoflow.model.p2.M_bound_L_power"],
    ),
    dict(
        id="infoflow-b2-final-exponent",
        where="B.2, end of the derivation of Proposition 2, against Proposition 2 (Section 6.2) and Section 5.3",
        lines=(1065, 1065),
        quote=r"This leads to a parameter cost of [...] O(1/\varepsilon^{M/E})=O(1/\varepsilon^{CT^{\frac{\beta^{\prime}-1}{\beta_{1}}}/LE}).",
        severity="constant",
        title="B.2 ends with the cost O(1/eps^{M/E}), while Proposition 2 states Omega(eps^{1 - C T^{(beta'-1)/beta_1}/(LE)}) "
              "and Section 5.3 a lower bound O(eps^{1 - Md/E_l}): the exponents differ by 1 and by the factor d.",
        explanation="The three forms of one bound: B.2 has exponent -M/E (no factor eps, no d) and writes O for what "
                    "is a lower bound; Proposition 2 has 1 - M/E in effect; Section 5.3 has 1 - Md/E, again with O. "
                    "For E = 1, M = 1, d = 1 they give eps^{-1} against eps^0. The growth in T, through "
                    "M >= C T^{(beta'-1)/beta_1}/L, is the same in all three, so the qualitative prediction stands "
                    "(Section 6.2 also writes O for this lower bound).",
        repair="State the lower bound once, as Omega(eps^{1 - Md/E}) with M >= C T^{(beta'-1)/beta_1}/L, in B.2, "
               "Proposition 2 and Section 5.3 (the factor d can be absorbed into C for fixed d).",
        obligations=["infoflow.model.p2.exponent_B2_vs_statement"],
    ),
    # ------------------------------------------------------------------ D.1, generalized D-retrieval target
    dict(
        id="infoflow-d1-dret-union-index",
        where="D.1, generalized D-retrieval target, lower bound, step 4, (60) and the identity it contradicts",
        lines=(1295, 1301),
        quote=r"|I_{F}(X_{T})\cap\bigcup_{i=1}^{T}I_{fi}(X_{T},\mathcal{T}_{i})| [...] which contradicts with "
              r"[...] |I_{F}(X_{T})=\bigcup_{i=1}^{T}I_{fi}(X_{T},\mathcal{T}_{i})|.",
        severity="typo",
        title="The unions in (60) and in the identity it contradicts run over i = 1..T, but there are only D trees "
              "T_1, ..., T_D; the index should stop at D.",
        explanation="Step 2 of the lower bound fixes exactly D Trees of Comparison, and (63) bounds the union over "
                    "i != j by D - 1, one index per tree. Read literally over i = 1..T, further trees T_{D+1}, ..., T_T "
                    "could cover I_F and the chain (60) <= D - 1 fails: for T = 3, D = 2, j = 1, I_F = {1, 2}, "
                    "I_1 = I_fi(X_T, T_1) = {3}, I_fi(X_T, T_2) = {1}, I_fi(X_T, T_3) = {2} the set in (60) has 2 "
                    "elements, more than D - 1 = 1. With the unions over i = 1..D every step of (60)-(64) holds. "
                    "The closing identity also misplaces the bars (|I_F(X_T) = ...| for I_F(X_T) = ...), and step 3 "
                    "of the upper bound writes the same union over j = 1..T.",
        repair="(60): |I_F(X_T) cap union_{i=1}^{D} I_fi(X_T, T_i)|; the contradiction is with "
               "I_F(X_T) = union_{i=1}^{D} I_fi(X_T, T_i).",
        obligations=["infoflow.trees.d1.dret.step4_chain_as_printed"],
    ),
    # ------------------------------------------------------------------ D.1, triangle-center target
    dict(
        id="infoflow-d1-triangle-root",
        where="D.1, triangle-center target, upper-bound construction, step 2",
        lines=(1321, 1321),
        quote=r"Thus at the root, we have [...] I_{fi}(X_{T},\mathcal{T})=\operatorname*{arg\,max}_{I\subseteq[T],|I|=3}\|\sum_{t\in I}x(t)\|_{2}^{2}=I_{F}(X_{T}).",
        severity="typo",
        title="The root of the tree returns the argmin of ||sum_{t in I} x(t)||^2, not the argmax: the minus sign of "
              "f_in = -||.||^2 was dropped.",
        explanation="With f_in = -||sum x(t)||^2 at every node the root returns the maximiser of f_in, i.e. the "
                    "minimiser of the squared norm, which is I_F for target (7). As printed the root would be the "
                    "maximiser: for d = 1, T = 4, x = (1/2, -2/5, 1/4, 1/8) it is {1, 3, 4}, with value 49/64, far "
                    "from the minimum ((x(2) + x(3) + x(4))^2 = 1/1600). The index set should also range over the "
                    "ordered triples with repetition of step 1, not over subsets of size 3. The construction itself "
                    "is right.",
        repair="I_fi(X_T, T) = argmax_I f_in(X[I]) = argmin over ordered triples I = (t1, t2, t3) (repetition "
               "allowed) of ||sum_{t in I} x(t)||^2, which contains I_F(X_T).",
        obligations=["infoflow.trees.d1.triangle_root_as_printed"],
    ),
    dict(
        id="infoflow-d1-triangle-distinct",
        where="D.1, triangle-center target, lower-bound argument",
        lines=(1348, 1348),
        quote=r"we have that all unordered [...] with distinct [...] should be on the leaf of at least one Tree of Comparison.",
        severity="convention",
        title="The lower-bound argument compares triples of distinct indices only, while the minimum in (7) is over "
              "triples with repetition; the reader must let the competing triples include repetitions.",
        explanation="(7) allows t1 = t2, and on an open set of inputs the minimiser is a triple with a repetition: "
                    "for d = 1, T = 3, x = (2/5, -3/4, 9/10) the distinct triple gives (x(1)+x(2)+x(3))^2 = 121/400 "
                    "while (1, 1, 2) gives 1/400, strictly smaller. There I_F = {1, 2} has two elements. The sets "
                    "Gamma'' must therefore compare I_0, J_0 also against triples with repetition; any leaf {1, 2, t} "
                    "can return such an I_F, so the count of C(T,3) distinct-triple leaves, and the bound "
                    "T^3/6 + O(T^2), are unaffected.",
        repair="In the definition of Gamma'' (and its variants) let I' range over all triples (t1, t2, t3) with "
               "repetition, as in (7).",
        obligations=["infoflow.trees.d1.triangle_minimiser_distinct"],
    ),
    # ------------------------------------------------------------------ Appendix E, Figure 5
    dict(
        id="infoflow-fig5-score-sign",
        where="Appendix E, illustrative example of InfoFlow (Figure 5), the scores A_{1,1}, A_{2,1} against (65) and (67)",
        lines=(1367, 1375),
        quote=r"A_{1,1}(X[I(t,0)],X[I(s,0)])=\min_{t^{\prime}\in I(t,0),s^{\prime}\in I(s,0)}x(t^{\prime})^{\top}x(s^{\prime}), "
              r"we compute the argmax positions [...] s_{1,0}(1)=3,\quad s_{1,0}(2)=4,\quad s_{1,0}(3)=1,\quad s_{1,0}(4)=3. "
              r"[...] A_{2,1}(X[I(5,1)],X[I(s,1)])=\min_{s_{1},s_{2}\in I(s,1)}x(s_{1})^{\top}x(s_{2}), we obtain [...] s_{1,1}(5)=1",
        severity="typo",
        title="The attention scores of the example have the wrong sign: the printed argmax positions in (65) and "
              "(67) are the argmin positions of the printed scores.",
        explanation="On the example's input x(1) = (0, -1), x(2) = (7/10, 7/10), x(3) = (0, 1), x(4) = (-1/5, -9/10), "
                    "the scores x(1)^T x(s), s = 1..4, are 1, -7/10, -1, 9/10, so the argmax is s = 1, not 3; over all "
                    "t the argmax gives s_{1,0} = 1, 2, 3, 1 instead of 3, 4, 1, 3. At layer 2 the printed score over "
                    "the sets (66) is -1, -77/100, -1, -9/10 for s = 1..4, whose argmax is 2, not 1. Followed as "
                    "printed, the example ends with I(5,2) = {1} or {3}, which does not contain I_F = {1, 3}. With "
                    "the scores negated, every value of (65)-(67) and of Figure 5 follows as printed.",
        repair="A_{1,1}(X[I(t,0)], X[I(s,0)]) = -min x(t')^T x(s') and A_{2,1}(X[I(5,1)], X[I(s,1)]) = "
               "-min_{s1,s2 in I(s,1)} x(s1)^T x(s2) (equivalently, argmin in place of argmax in (65) and (67)).",
        obligations=[
            "infoflow.model.fig5.s65_t1_as_printed",
            "infoflow.model.fig5.s65_t2_as_printed",
            "infoflow.model.fig5.s65_t3_as_printed",
            "infoflow.model.fig5.s65_t4_as_printed",
            "infoflow.model.fig5.s67_as_printed",
        ],
    ),
    dict(
        id="infoflow-fig5-cls-layer1",
        where="Appendix E, illustrative example of InfoFlow (Figure 5), the CLS set I(5,1) and (67)",
        lines=(1367, 1377),
        quote=r"I(5,0)=\varnothing [...] A_{2,1}(X[I(5,1)],X[I(s,1)]) [...] I(5,2)=I(s_{1,1}(5),1)=I(1,1)=\{1,3\}.",
        severity="convention",
        title="The CLS set I(5,1) is neither printed nor defined by the example; the reader must take I(5,1) empty.",
        explanation="I(5,0) is empty, so the layer-1 score A_{1,1}(X[I(5,0)], .) is a minimum over the empty "
                    "subsequence, and Figure 5 shows no set at the layer-1 CLS node. (67) also writes "
                    "I(5,2) = I(s_{1,1}(5),1), leaving I(5,1) out of the union of rule (1), which the inclusion in "
                    "rule (1) allows. Reading I(5,1) as empty (the CLS token takes nothing at layer 1), (67) follows "
                    "from s_{1,1}(5) = 1 and (66).",
        repair="State I(5,1) = {} in the example (and in Figure 5).",
        obligations=["infoflow.model.fig5.I67"],
    ),
]
