"""The direct check of the Theorem 4 network (issue 4, Part 2): interval branch-and-bound of the WHOLE
network against F over [-1, 1]^(3T), independent of the compositional certificate.

It uses none of the lemmas the compositional certificate rests on (no Boltzmann bound, no Taylor bound
of F1, no budget). What it uses:

1. **The network's exact function, read from the stored weights.** ``reduce`` multiplies the stored
   rational matrices and checks, exactly, that the network computes
       u_t = e x_t,   p_ts = softmax_s(lam1 u_t.u_s),   v_t = sum_s p_ts u_s,
       a_t = b0 + sum_g A_g tanh(bias_g + wu_g u_{t,i_g} + wy_g v_{t,i_g})     (F1, coordinate 0),
       q_t = softmax_t(lam2 a_t),   C = sum_t q_t a_t,   y = Out(C)
   (the classification token's own F1 value drops out: the layer-2 query and the output never read its
   coordinate 0). Any other wiring is refused. This is equations (1)-(2) with the stored weights, not
   the paper's description of them.
2. **Rigorous arithmetic:** python-flint arb balls for every operation, including exp and tanh.
3. **Exact rearrangements that keep cancellations** (each checked against the plain form in tests):
   - F1's four units per coordinate sum to A [f(w1 u + w2 y) - f(w1 u - w2 y)] with f(h) = tanh(b + h) +
     tanh(b - h) = 2 sinh 2b / (cosh 2b + cosh 2h), i.e. the product form
     -4 A sinh 2b sinh(2 w1 u) sinh(2 w2 y) / ((cosh 2b + cosh 2(w1 u + w2 y)) (cosh 2b + cosh 2(w1 u - w2 y)));
     a plain interval sum of the four tanh loses everything to cancellation;
   - in the gradient, sum_s dp_ts = 0 and sum_t dq_t = 0 are used before any product is taken, so the
     O(beta) softmax derivative meets the small W_ts - W_tr near a tie (``_grad1``, ``_grad2``).
4. **Bounds of y - F on a box B** (``evaluate_box``). F = min_P F_P with F_P = 2(1 + x_s.x_t), so
   sup_B (y - F) = max_P sup_B (y - F_P) exactly, and y - F >= y - F_P for every P. Each smooth y - F_P is
   bounded by the first of: the plain interval form; the monotone mean value form (the vertex of B picked
   by the signs of the interval gradient, the centre in the other coordinates); the layer-2 hull form
   (C is a convex combination of the a_t and Out is increasing, so y <= max_t Out(a_t)).
5. **Symmetry (checked, not assumed).** Token permutations always leave the network and F unchanged. When
   F1's units for coordinate i are the same multiset for every i, closed under (wu, wy) -> (-wu, -wy),
   so do signed permutations of the three coordinates applied to every token. Then it is enough to cover
   x_1 in {1 >= x_11 >= x_12 >= x_13 >= 0} with x_11 >= |x_ti| for every other token: 1/(48 T) of the cube.

Modules: reduce (step 1), enclose (steps 2-4), search (step 5 and the search). The search bisects boxes depth-first (deterministic: no clocks, no randomness; the same record for any
number of worker processes) until each box proves -eps <= y - F <= eps, or a box's centre violates it
(REFUTED, with the centre as an exact dyadic counterexample that ``replay`` re-evaluates in mpmath), or
a budget runs out (UNKNOWN, with the volume fraction decided). A PROVED run records its split tree, and
``check_tree`` re-verifies it from the tree alone.

Cost: boxes must shrink to about 1/beta near the tie surfaces of the minimum, in 3T dimensions. T = 2 at
eps = 9/10 (beta = 42) is proved over the whole domain in about 2.4 million boxes (docs/theorem4.md);
T = 3 (9 dimensions) ends UNKNOWN within any budget this machine can afford.
"""

from attncert.papers.infoflow.thm4direct.enclose import PREC, evaluate_box
from attncert.papers.infoflow.thm4direct.reduce import MAX_DIRECT_T, Reduced, forward_reduced, reduce
from attncert.papers.infoflow.thm4direct.search import (MAX_DEPTH, SECONDS_PER_BOX, check_tree, direct_check,
                                                        prefix_levels, replay, start_box, sub_box_count, tree_leaves)

__all__ = ["MAX_DEPTH", "MAX_DIRECT_T", "PREC", "Reduced", "SECONDS_PER_BOX", "check_tree", "direct_check",
           "evaluate_box", "forward_reduced", "prefix_levels", "reduce", "replay", "start_box", "sub_box_count",
           "tree_leaves"]
