"""Errata of InfoFlow (Yu, Jiang, Bao, Li, 2026), Theorem 1 / Theorem 4 and its proof (Appendix A.1).

Data only (see attncert_proofs.errata for the fields). Quotes are verbatim from
papers/infoflow-2605.17930.txt of the shared folder, at the lines given; the evidence is the obligations of
proofs/infoflow_thm4.py named in each entry. In the paper's reading order."""

from __future__ import annotations

ERRATA = [
    dict(
        id="infoflow-thm1-exponent-k",
        where="Section 4.1, Theorem 1 (informal), part 1, against Appendix A.1, Theorem 4, part 1",
        lines=(70, 318),
        quote=r"k(T)=\frac{T-2H}{H(n+1)+1}-1 [...] k=\frac{T-H-1}{H(n+1)+1}-1",
        severity="constant",
        title="The exponent of the single-layer lower bound differs between Theorem 1, k(T) = (T-2H)/(H(n+1)+1) - 1, "
              "and its formal version Theorem 4, k = (T-H-1)/(H(n+1)+1) - 1.",
        explanation="The two exponents differ by (H-1)/(H(n+1)+1). They agree for H = 1, and for H >= 2 the exponent "
                    "of Theorem 1 is smaller: for H = 2, n = 1 they are (T-4)/5 - 1 and (T-3)/5 - 1. The proof in A.1 "
                    "gives the exponent of Theorem 4 (T0 = T - H - 1 = (k+1)(H(n+1)+1) before (13)). Since eps < 1, "
                    "Omega(eps^{-k}) implies Omega(eps^{-k(T)}), so Theorem 1 as printed is true but weaker than what "
                    "is proved. Nothing downstream changes.",
        repair="State k(T) = (T-H-1)/(H(n+1)+1) - 1 in Theorem 1, as in Theorem 4.",
        obligations=["infoflow.thm4.k_formal_vs_informal"],
    ),
    dict(
        id="infoflow-thm1-hypotheses",
        where="Section 4.1, Theorem 1 (informal), part 1; Appendix A.1, the constraints before Theorem 4 and the "
              "start of its proof",
        lines=(70, 330),
        quote=r"A single-layer Transformer with [...] must incur parameter count at least [...] For the theorem to "
              r"hold, we also post the following constraints on the models. [...] We consider only the nontrivial "
              r"case, where [...] T_{0}=T-H-1>0",
        severity="convention",
        title="Theorem 1 is to be read with the model constraints that only A.1 states (embedding norm at most 1, "
              "every weight at most 1 in magnitude), and its lower bound has content only when "
              "T - H - 1 > H(n+1) + 1.",
        explanation="The lower bound of part 1 rests on these constraints: its last step applies Lemma 4 of Yu et al. "
                    "(2026), which needs a feed-forward network with bounded weights. Theorem 1 states none of them, "
                    "so the reader must carry them over from A.1, as the pointer to the formal statement intends. "
                    "The exponent k = (T-H-1)/(H(n+1)+1) - 1 is positive exactly when T0 = T - H - 1 > H(n+1) + 1. "
                    "In the case 0 < T0 <= H(n+1) + 1, which the proof still calls nontrivial, -1 < k <= 0 and "
                    "Omega(eps^{-k}) holds for every model, so the bound says nothing there. The proof itself is "
                    "not affected.",
        repair="Add to Theorem 1 'under the constraints of A.1 (||P_phi|| <= 1, all weights at most 1 in "
               "magnitude)', and note that the bound is non-trivial only for T - H - 1 > H(n+1) + 1.",
        obligations=["infoflow.thm4.constraints_informal"],
    ),
    dict(
        id="infoflow-a1-sets-k",
        where="A.1, proof of Theorem 4 (first part), the definition of K_i before (11)",
        lines=(354, 354),
        quote=r"K_{i}=-B(b_{i},L)\cap Q_{0}",
        severity="convention",
        title="K_i = -B(b_i, L) cap Q0 must be read as -(B(b_i, L) cap Q0) = B(-b_i, L) cap S^2. Read literally, "
              "(-B(b_i, L)) cap Q0 is empty.",
        explanation="Every point of Q0 has x3 < 0. Every point of -B(b_i, L) = B(-b_i, L) has "
                    "x3 >= -b_{i,3} - L > 0, because b_i in Q0 has b_{i,3} <= -1/sqrt(2) and L is much smaller. "
                    "With the literal reading every K_i is empty, and (11) picks p_i from an empty set. The intended "
                    "set is the reflected cap -(B(b_i, L) cap Q0), which by condition (2) is B(-b_i, L) cap S^2, a "
                    "subset of -Q0. This is consistent with (11), which places the p_i at prescribed distances from "
                    "-b_1, and with the end of the proof, which says that every point other than b_1 lies in -Q0. "
                    "With that reading the argument holds as written.",
        repair="K_i = -(B(b_i, L) cap Q0) = B(-b_i, L) cap S^2 (a subset of -Q0).",
        obligations=["infoflow.thm4.K_literal_empty"],
    ),
    dict(
        id="infoflow-a1-wlog-positions",
        where="A.1, proof of Theorem 4 (first part), after the choice of the pairs (y_j, t_j)",
        lines=(368, 368),
        quote=r"Without loss of generality, we assume that [...] t_{j}=T-j for",
        severity="convention",
        title="The positions t_j = T - j are not a loss-free assumption, because the positional encoding "
              "P_phi(x, t) makes the model depend on positions. The argument only needs a relabelling of where "
              "b_1 and the U_t are placed.",
        explanation="The positions t_j are chosen by the argmax together with the y_j, so they cannot be prescribed. "
                    "The positional encoding breaks permutation invariance, and t_1 may even equal T, the position "
                    "the proof gives to b_1. What the proof uses is that b_1 and the sets U_1, ..., U_T0 occupy the "
                    "T0 + 1 positions outside {t_1, ..., t_H}, in any fixed order. Then every U-token has lambda_i at "
                    "most lambda_i(y_i, t_i) <= M_i, because its position is not among t_1, ..., t_{i-1}. With the "
                    "conditions on Z_{1,T}, Z_{2,T}, the definition of M_i and the set K' re-indexed this way, every "
                    "later step holds unchanged.",
        repair="Instead of assuming t_j = T - j, place b_1 at a position t_b outside {t_1, ..., t_H} and "
               "U_1, ..., U_T0 at the remaining T0 positions; read T, T - i and K' = {T-H, ..., T} as t_b, t_i and "
               "{t_1, ..., t_H, t_b}.",
        obligations=["infoflow.thm4.wlog_positions"],
    ),
    dict(
        id="infoflow-a1-uj-threshold",
        where="A.1, proof of Theorem 4 (first part), the sets U_j of (12)",
        lines=(384, 384),
        quote=r"|U_{j}|=\frac{M}{T_{0}}=\lfloor\frac{L^{2}}{4T_{0}\varepsilon}\rfloor=O(1/\varepsilon)",
        severity="convention",
        title="The construction needs eps <= L^2/(4 T0) = C^2/(4 H^2 T0), since for larger eps every U_j is empty. "
              "The lower bound of Theorem 4 is therefore a statement for eps small enough, as the Omega notation "
              "intends.",
        explanation="If eps > L^2/(4 T0), then floor(L^2/(4 T0 eps)) = 0, so M = 0, every U_j is empty, and no "
                    "sequences Z_{1,T}, Z_{2,T} exist. The count before (13) also needs |U_j| of order 1/eps from "
                    "below, not only O(1/eps). The lower bound L^2/(8 T0 eps) <= |U_j| holds once "
                    "eps <= L^2/(8 T0). Theorem 4 states no range for eps, but its Omega(eps^{-k}) is an asymptotic "
                    "statement as eps -> 0. It absorbs these thresholds, and the conclusion stands.",
        repair="Add 'for eps <= eps0', with eps0 <= L^2/(8 T0) and small enough for (13), to part 1 of Theorem 4, "
               "or read Omega(eps^{-k}) as eps -> 0.",
        obligations=["infoflow.thm4.U_nonempty_threshold"],
    ),
    dict(
        id="infoflow-a1-value-norm",
        where="A.1, proof of Theorem 4 (first part), the count of the constraint space before (13); used again "
              "in (17)",
        lines=(404, 404),
        quote=r"\leq 1 as it is a convex combination of vectors of norm no greater than",
        severity="constant",
        title="The value vectors v_i(x, t) = W_{V,i,1} P_phi(x, t) need not have norm at most 1. The constraints only "
              "give ||v_i|| <= sqrt(nE), so the attention averages lie in the ball of radius sqrt(nE), not in the "
              "unit ball.",
        explanation="||P_phi|| <= 1 and entries of the n x E matrix W_V bounded by 1 give "
                    "||W_V P_phi|| <= ||W_V||_F <= sqrt(nE), and no better: for n = 1, E = 2, W_V = (1, 1) and "
                    "P_phi = (3/5, 4/5) give v = 7/5 > 1. The same bound ||V_j|| <= 1 gives (17): "
                    "||Q4(V4 - V2) + Q5(V5 - V2)|| <= 2Q4 + 2Q5. With sqrt(nE) in its place, (17)-(21) carry the "
                    "factor sqrt(nE). The chain still ends at (22) if the ratio condition on Z_{1,T}, Z_{2,T} (the "
                    "last of their conditions) uses eps^{k+1}/(24 T^2 sqrt(nE)) instead of eps^{k+1}/(24 T^2). The "
                    "numbers of cells in the count then grow by a constant factor per head: about (nE)^{n/2} for "
                    "the averages and sqrt(nE) for the ratios. So (13), the exponent k and Omega(eps^{-k}) are "
                    "unchanged; only the constants and the threshold on eps below which the pigeonhole applies "
                    "change.",
        repair="||v_i(x, t)|| <= sqrt(nE): discretize the averages in the ball of radius sqrt(nE), use "
               "2 sqrt(nE)(Q4 + Q5) in (17), and take the ratio tolerance eps^{k+1}/(24 T^2 sqrt(nE)) in the last "
               "condition on Z_{1,T}, Z_{2,T}.",
        obligations=["infoflow.thm4.values_norm_as_printed"],
    ),
    dict(
        id="infoflow-a1-identity-sum-w2",
        where="A.1, proof of Theorem 4 (first part), the fourth of the identities before (14)",
        lines=(450, 450),
        quote=r"\sum_{t=1}^{T}\lambda_{i}(z_{2}(t),t)=Q_{2,i}+Q_{4,i}+Q_{5,i}",
        severity="typo",
        title="The fourth identity should be about w_2, not z_2: "
              "sum_t lambda_i(w_2(t), t) = Q_{2,i} + Q_{4,i} + Q_{5,i}.",
        explanation="By the second identity, sum_t lambda_i(z_2(t), t) = Q_{2,i} + Q_{3,i} + Q_{5,i}, so the printed "
                    "one would force Q_{3,i} = Q_{4,i}. Take T = 6, J = {1, 3}, I' = {2, 4}, K' = {5, 6}, "
                    "lambda_i = 1 at every token of Z_{2,T}, lambda_i(y_1, 2) = 2 and lambda_i(y_1, 4) = 1. Then "
                    "the left side is 6 and the right side is 7. The identity for w_2 holds, and it is the one used "
                    "in (14).",
        repair="sum_t lambda_i(w_2(t), t) = Q_{2,i} + Q_{4,i} + Q_{5,i}.",
        obligations=["infoflow.thm4.identity.sum_w2_as_printed"],
    ),
    dict(
        id="infoflow-a1-identity-avg-w2",
        where="A.1, proof of Theorem 4 (first part), the eighth of the identities before (14)",
        lines=(458, 458),
        quote=r"\frac{Q_{2,i}V_{2,i}+Q_{4,i}V_{4,i}+Q_{5,i}V_{5,i}}{Q_{1,i}+Q_{4,i}+Q_{5,i}}",
        severity="typo",
        title="In the eighth identity, the attention average over W_{2,T}, the denominator should be "
              "Q_{2,i} + Q_{4,i} + Q_{5,i}, not Q_{1,i} + Q_{4,i} + Q_{5,i}.",
        explanation="The denominator is sum_t lambda_i(w_2(t), t) = Q_{2,i} + Q_{4,i} + Q_{5,i}. As printed, the "
                    "identity fails whenever Q_{1,i} != Q_{2,i}. With every value vector equal to 1, the left side "
                    "is 1 and the right side is (Q_{2,i} + Q_{4,i} + Q_{5,i})/(Q_{1,i} + Q_{4,i} + Q_{5,i}), which "
                    "is 6/7 at Q_{1,i} = 3, Q_{2,i} = Q_{4,i} = Q_{5,i} = 2. (14) and (35) use the correct "
                    "denominator, so nothing downstream changes.",
        repair="The average over W_{2,T} is (Q_{2,i}V_{2,i} + Q_{4,i}V_{4,i} + Q_{5,i}V_{5,i})/"
               "(Q_{2,i} + Q_{4,i} + Q_{5,i}).",
        obligations=["infoflow.thm4.identity.avg_w2_as_printed"],
    ),
    dict(
        id="infoflow-a1-eq19-20",
        where="A.1, proof of Theorem 4 (first part), (19) = (20)",
        lines=(470, 471),
        quote=r"\displaystyle\|\frac{2T(Q_{2,i}-Q_{1,i})}{(Q_{1,i}+Q_{3,i}+Q_{5,i})}\| [...] "
              r"\displaystyle\|1-\frac{\sum_{t=1}^{T}\lambda_{i}(z_{2}(t),t)}{\sum_{t=1}^{T}\lambda_{i}(z_{1}(t),t)}\|",
        severity="typo",
        title="The equality (19) = (20) drops the factor 2T: (19) equals "
              "2T ||1 - sum_t lambda_i(z_2(t), t) / sum_t lambda_i(z_1(t), t)||.",
        explanation="Since 1 - (Q_{2,i} + Q_{3,i} + Q_{5,i})/(Q_{1,i} + Q_{3,i} + Q_{5,i}) = "
                    "(Q_{1,i} - Q_{2,i})/(Q_{1,i} + Q_{3,i} + Q_{5,i}), (19) is exactly 2T times (20), so the "
                    "printed equality fails whenever Q_{1,i} != Q_{2,i}. For example, T = 3, Q_{1,i} = 1/2, "
                    "Q_{2,i} = 251/512, Q_{3,i} = Q_{5,i} = 1 satisfy the ratio condition for eps^{k+1} = 243/256, "
                    "and give (19) = 3/128 and (20) = 1/256. The next bound already has the factor back: 2T times "
                    "the ratio tolerance eps^{k+1}/(24 T^2) is T eps^{k+1}/(12 T^2), which is (21). So "
                    "(16) <= (22) holds as stated.",
        repair="(19) = 2T ||1 - sum_t lambda_i(z_2(t), t) / sum_t lambda_i(z_1(t), t)|| <= 2T eps^{k+1}/(24 T^2) "
               "= (21).",
        obligations=["infoflow.thm4.chain.19_20_as_printed"],
    ),
    dict(
        id="infoflow-a1-eq36",
        where="A.1, proof of Theorem 4 (first part), (35) <= (36)",
        lines=(499, 499),
        quote=r"(V_{1,i}-V_{2,i})\|+\|\frac{(Q_{2,i}-Q_{1,i})(Q_{3,i}(V_{3,i}-V_{2,i})+Q_{5,i}(V_{5,i}-V_{2,i}))}"
              r"{(Q_{1,i}+Q_{3,i}+Q_{5,i})(Q_{2,i}+Q_{3,i}+Q_{5,i})}\|",
        severity="typo",
        title="The second term of (36) should be the w-term of (16), with Q_{4,i} and V_{4,i}, not the z-term of "
              "(23) and (26), with Q_{3,i} and V_{3,i}.",
        explanation="(35) is (14). The identity (14) = (15) splits it into "
                    "Q_{1,i}/(Q_{1,i} + Q_{4,i} + Q_{5,i}) (V_{1,i} - V_{2,i}) plus the term of (16), and the "
                    "triangle inequality gives (36) with that term. As printed the bound fails. Take scalar values "
                    "V_{1,i} = V_{2,i} = V_{3,i} = V_{5,i} = 0, V_{4,i} = 1 and Q_{1,i} = 2, "
                    "Q_{2,i} = Q_{3,i} = Q_{4,i} = Q_{5,i} = 1. Then (35) equals 1/12, while both printed terms "
                    "of (36) vanish. The w-term is bounded by eps^{k+1}/(12T) in (22), the same bound that (23) "
                    "gives for the z-term, so (37) and (38) stand.",
        repair="(35) <= ||Q_{1,i}/(Q_{1,i} + Q_{4,i} + Q_{5,i}) (V_{1,i} - V_{2,i})|| + "
               "||(Q_{2,i} - Q_{1,i})(Q_{4,i}(V_{4,i} - V_{2,i}) + Q_{5,i}(V_{5,i} - V_{2,i}))/"
               "((Q_{1,i} + Q_{4,i} + Q_{5,i})(Q_{2,i} + Q_{4,i} + Q_{5,i}))||, and by (22) the second term is at "
               "most eps^{k+1}/(12T).",
        obligations=["infoflow.thm4.chain.35_36_as_printed"],
    ),
    dict(
        id="infoflow-a1-model-gap",
        where="A.1, proof of Theorem 4 (first part), the separation of M_1(W_{1,T}) and M_1(W_{2,T}) before "
              "Lemma 4",
        lines=(509, 509),
        quote=r"\delta(M_{1})\leq\varepsilon, we have that [...] |M_{1}(W_{1,T})-M_{1}(W_{1,T})|\leq 2\varepsilon",
        severity="typo",
        title="|M_1(W_{1,T}) - M_1(W_{1,T})| <= 2 eps should read |M_1(W_{1,T}) - M_1(W_{2,T})| >= 2 eps.",
        explanation="As printed, the inequality compares M_1(W_{1,T}) with itself and is trivially true. With "
                    "W_{2,T} in the second place, the upper bound does not follow. Take eps = 1/10, "
                    "F(W_{1,T}) = M_1(W_{1,T}) = 0 and F(W_{2,T}) = M_1(W_{2,T}) = 2/5. Then delta(M_1) <= eps and "
                    "the 4 eps separation hold, but the gap is 2/5 > 2 eps. The intended, and true, statement is the "
                    "lower bound |M_1(W_{1,T}) - M_1(W_{2,T})| >= |F(W_{1,T}) - F(W_{2,T})| - 2 delta(M_1) >= "
                    "4 eps - 2 eps = 2 eps. The next step uses exactly this, as B >= eps.",
        repair="|M_1(W_{1,T}) - M_1(W_{2,T})| >= 4 eps - 2 eps = 2 eps.",
        obligations=["infoflow.thm4.model_gap_as_printed"],
    ),
    dict(
        id="infoflow-a1-lemma4-input",
        where="A.1, proof of Theorem 4 (first part), the application of Lemma 4 of Yu et al. (2026)",
        lines=(511, 519),
        quote=r"for two vectors [...] v_{1},v_{2}\in\mathbb{R}^{n}. If [...] Having [...] "
              r"A\leq\frac{\varepsilon^{k+1}}{2}",
        severity="constant",
        title="The distance A between the inputs of the output feed-forward block is not bounded by "
              "eps^{k+1}/2. (38) bounds each head's attention output, while the block receives "
              "c_1 + W_{O,1} Concat of all H heads, of dimension E = nH.",
        explanation="(38) gives eps^{k+1}/2 per head, so the concatenation moves by at most sqrt(H) eps^{k+1}/2. The "
                    "block input then moves by at most ||W_{O,1}||_op sqrt(H) eps^{k+1}/2 <= E sqrt(H) eps^{k+1}/2, "
                    "since the E x E matrix W_{O,1} has entries bounded by 1. The printed bound can fail: with "
                    "H = 2, n = 1, both heads moving by eps^{k+1}/2 and W_{O,1} the all-ones 2 x 2 matrix, the input "
                    "moves by sqrt(2) eps^{k+1}. The dimension in Lemma 4 is also that of the block input, E, not "
                    "the per-head n. With A <= E sqrt(H) eps^{k+1}/2 and B >= eps, Lemma 4 gives at least of order "
                    "eps^{-k}/(E^{3/2} H^{1/2}) parameters instead of eps^{-k}/sqrt(n). The exponent k stands; only "
                    "the constant of Omega(eps^{-k}) changes.",
        repair="A <= ||W_{O,1}||_op sqrt(H) eps^{k+1}/2 <= E sqrt(H) eps^{k+1}/2, and Lemma 4 in dimension E gives "
               "Omega(eps/(A sqrt(E))) = Omega(eps^{-k}/(E^{3/2} H^{1/2})), which is Omega(eps^{-k}) for fixed H "
               "and n.",
        obligations=["infoflow.thm4.lemma4_A_as_printed"],
    ),
    dict(
        id="infoflow-a1-step3-inner-product",
        where="A.1, proof of Theorem 4 (second part), step 3 (and the first term of (40))",
        lines=(535, 535),
        quote=r"x(t)^{T}v(t)\to\frac{1}{9}\min_{1\leq s\leq T}x(s)^{T}x(t) uniformly for all",
        severity="typo",
        title="In step 3, x(t)^T v(t) tends to (1/3) min_s x(s)^T x(t), not (1/9) min_s x(s)^T x(t). The quantity "
              "meant is (x(t)/3)^T v(t).",
        explanation="With W_{V,1,1} = I_6 and W_{O,1} as given, v(t) is the softmax average of the vectors x(s)/3, so "
                    "as beta -> infinity, x(t)^T v(t) tends to (1/3) min_s x(s)^T x(t). At T = 2 with "
                    "x(1) = x(2) = e_1, v(t) = e_1/3 for every beta. Then x(t)^T v(t) = 1/3 while "
                    "(1/9) min_s x(s)^T x(t) = 1/9, and their gap 2/9 does not shrink as beta grows. The quantity "
                    "that tends to (1/9) min is (x(t)/3)^T v(t), the inner product of the two halves of x_1'(t) "
                    "that G computes in step 4. The first term of (40) has the same misprint. With (x(t)/3)^T v(t) "
                    "in both places, the construction and the terms of the budget are as intended.",
        repair="As beta -> infinity, (x(t)/3)^T v(t) -> (1/9) min_s x(s)^T x(t) uniformly; choose beta with "
               "|(x(t)/3)^T v(t) - (1/9) min_s x(s)^T x(t)| <= eps/54, and write (x(t)/3)^T v(t) in (40) as well.",
        obligations=["infoflow.thm4.step3_as_printed"],
    ),
    dict(
        id="infoflow-a1-softmax-scale",
        where="A.1, proof of Theorem 4 (second part), steps 3 and 6",
        lines=(535, 547),
        quote=r"we can apply a scaling factor [...] \beta>0 to this term in soft attention, we have that when [...] "
              r"\beta\to\infty [...] we also have a large enough",
        severity="convention",
        title="In the two-layer construction the softmax scale beta of Section 3 is taken as large as needed, of "
              "order ln(T)/eps. It is a fixed constant of the architecture, neither a weight bounded by 1 nor "
              "counted among the parameters.",
        explanation="A softmax(-beta a)-weighted average of n numbers exceeds their minimum by at most ln(n)/beta "
                    "(log-sum-exp minus entropy, with entropy at most ln n). So steps 3 and 6 reach their eps/54 "
                    "with beta >= 54 ln(T)/eps. Section 3 defines the softmax with a scaling factor beta > 0, and "
                    "the constraints of A.1 bound only the weights and the entries of the attention matrices, so "
                    "this is allowed. The reader must know, however, that beta grows as eps -> 0 and is not counted "
                    "in the O(eps^{-1}). With beta fixed, the weight bound caps the first layer's scores, and its "
                    "softmax cannot approach the minimum as eps -> 0. The lower bound of part 1 holds for every beta, "
                    "which enters only through lambda_i, so the separation is unaffected. (Where lambda_i is "
                    "defined, A.1 calls this scale gamma, though the formula uses beta.)",
        repair="State in part 2 of Theorem 4 that the softmax scale is beta >= 54 ln(T)/eps, a fixed hyperparameter "
               "not counted as a parameter.",
        obligations=["infoflow.thm4.boltzmann_min_bound"],
    ),
    dict(
        id="infoflow-a1-step5-keys",
        where="A.1, proof of Theorem 4 (second part), step 5",
        lines=(543, 543),
        quote=r"A_{2,1}=-2 is the only non-zero element of [...] (W_{Q,1,2}c_{2})^{T}W_{K,1,1}x_{2}(t)=-a(t)",
        severity="typo",
        title="Step 5 writes the first layer's key matrix W_{K,1,1} where the second layer's W_{K,1,2} is meant. It "
              "also gives only the product A = W_{Q,1,2}^T W_{K,1,2}, whose entry -2 is compatible with the weight "
              "bound only through a factorization that it leaves to the reader.",
        explanation="The score of layer 2 is (W_{Q,1,2} c_2)^T W_{K,1,2} x_2(t); W_{K,1,1} is the key matrix of "
                    "layer 1. The constraints of A.1 bound the entries of W_Q and W_K, not those of their product, "
                    "and A_{2,1} = -2 has magnitude 2. A factorization with entries of magnitude 1 exists: "
                    "(W_Q)_{1,2} = (W_Q)_{2,2} = -1 and (W_K)_{1,1} = (W_K)_{2,1} = 1, with all other entries 0, "
                    "give W_Q^T W_K = A. With (c_2)_2 = 1/2, the constant that G outputs, the score is -a(t), as "
                    "stated.",
        repair="(W_{Q,1,2} c_2)^T W_{K,1,2} x_2(t) = -a(t), where W_{Q,1,2} has -1 at entries (1,2) and (2,2), "
               "W_{K,1,2} has 1 at entries (1,1) and (2,1), and all other entries are 0.",
        obligations=["infoflow.thm4.layer2_score"],
    ),
    dict(
        id="infoflow-a1-output-block",
        where="A.1, proof of Theorem 4 (second part), step 6, against the constraints before Theorem 4",
        lines=(547, 547),
        quote=r"Then the output feed-forward block maps [...] 2+18(c_{2}^{\prime})_{4} with [...] O(1) parameters",
        severity="false-step",
        title="The output block y = 2 + 18 (c_2')_4 has weight 18 and bias 2. This breaks the constraint of A.1 that "
              "every weight of a feed-forward block is at most 1 in magnitude.",
        explanation="The constraints before Theorem 4 bound all weights of every feed-forward block, the output "
                    "block included, by 1, so the printed network is not among the models Theorem 4 speaks of. A "
                    "compliant block exists. N tanh units alpha tanh(theta c), with |alpha|, |theta| <= 1 and "
                    "N alpha theta = 18, reproduce 18c up to a Taylor error of at most 6 theta^2 |c|^3, and units "
                    "with bias only supply the constant 2. Keeping that error a fixed share of eps needs theta of "
                    "order sqrt(eps), so the block has of order eps^{-1/2} units instead of O(1) parameters. The "
                    "budget (39)-(43) gets a fourth share for its error (e.g. eps/4 each, with "
                    "beta >= 72 ln(T)/eps). The network still has O(eps^{-1}) parameters and delta(M_2) <= eps, so "
                    "part 2 of Theorem 4 stands.",
        repair="Realise 2 + 18c with a tanh block of weights at most 1: N = ceil(18/theta) units alpha tanh(theta c) "
               "with N alpha theta = 18 and theta of order sqrt(eps), plus units with bias only for the constant. "
               "Give its error e4 a share of eps: 18 (e1 + e2 + e3) + e4 <= eps, for example with each of the four "
               "shares eps/4.",
        obligations=["infoflow.thm4.output_block_weights"],
    ),
    dict(
        id="infoflow-a1-budget-42",
        where="A.1, proof of Theorem 4 (second part), step 7, (40)-(41) <= (42)",
        lines=(554, 556),
        quote=r"|a(t)-\frac{1}{9}\min_{1\leq s\leq T}x(s)^{T}x(t)|) [...] "
              r"\frac{\varepsilon}{3}+\frac{\varepsilon}{3}+\frac{\varepsilon}{3}",
        severity="false-step",
        title="The second term of (40), |a(t) - (1/9) min_s x(s)^T x(t)|, is bounded by the step-3 error plus the "
              "step-4 error, 2 eps/54, not eps/54. So (40)-(41) only give 4 eps/3, not "
              "eps/3 + eps/3 + eps/3 as in (42).",
        explanation="a(t) is F_1's approximation of (x(t)/3)^T v(t), so |a(t) - (1/9) min_s x(s)^T x(t)| "
                    "<= eps/54 + eps/54. With the first term of (40) and the term (41) at eps/54 each, this gives "
                    "18 (eps/54 + 2 eps/54 + eps/54) = 4 eps/3. For example, with eps = 1, the errors of steps 3, 4 "
                    "and 6 each at 1/54 and the second term of (40) at 1/27, (40)-(41) equals 4/3 > 1. The first "
                    "term of (40) is not needed. Since M_2 = 2 + 18 (c_2')_4 and "
                    "F = 2 + 18 (1/9) min_{s,t} x(s)^T x(t), we have |M_2 - F| <= 18 [|(c_2')_4 - min_t a(t)| + "
                    "max_t |a(t) - (1/9) min_s x(s)^T x(t)|] <= 18 (eps/54 + 2 eps/54) = eps. So delta(M_2) <= eps "
                    "holds with the same choices of beta and F_1.",
        repair="|M_2 - F| <= 18 [|(c_2')_4 - min_t a(t)| + max_t |a(t) - (1/9) min_s x(s)^T x(t)|] "
               "<= 18 (eps/54 + eps/54 + eps/54) = eps.",
        obligations=["infoflow.thm4.budget_41_42_as_printed"],
    ),
]
