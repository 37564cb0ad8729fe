"""Splitting and shifting (docs/axioms.md, "Splitting and shifting"; axiom list v9): sum_split, forall_shift,
forall_restrict, forall_swap, exists_eq, exists_seq_eq and exists_first_diff. Each is used once in a true claim that both the
engine and the checker accept, and each is cited where its conditions fail, or with a term of the wrong kind, in
a claim that is then false: the engine must answer UNKNOWN, and the certificate forged with the engine's axiom
check switched off must be REJECTED by `verify`."""

from __future__ import annotations

from fractions import Fraction

import pytest
from forging import accepted_by_both, refused_by_both

from attncert.core.axioms import axiom
from attncert.core.claims import Hyp, Obligation, Var, claim
from attncert.core.expr import IDX, E, and_, at, forall, idx, not_, num, seq, var

pytestmark = pytest.mark.filterwarnings("ignore")
n, k, X, m = var("n"), var("k"), var("X"), var("m")
aS, bS, dS = seq("a"), seq("b"), seq("d")
aI, bI, dI = at(aS, IDX), at(bS, IDX), at(dS, IDX)
V = [Var("n", "int"), Var("a", "seq"), Var("b", "seq")]


def ob(id_, cl):
    return Obligation(id=f"s.{id_}", paper="mine", ref="t", statement=id_, claim=cl, methods=("smt",), family="fam")


_SPLIT1 = axiom("sum_split", N=n, K=num(1), f=aI)   # its statement, as the axiom writes the terms
GOOD = {
    # a positive family stays positive on its tail, re-indexed: a(i + 1) > 0 for i in [1, n - 1]
    "shift": claim(V, [n >= 1, forall(n, aI > 0), axiom("forall_shift", N=n, K=num(1), L=n - 1, P=aI > 0)],
                   forall(n - 1, at(aS, IDX + 1) > 0)),
    # and on a prefix
    "restrict": claim(V, [n >= 2, forall(n, aI > 0), axiom("forall_restrict", N=n, L=num(2), P=aI > 0)],
                      forall(num(2), aI > 0)),
    # a sum split at k + 1 = 2 (k = 1), for n >= 2: sum_i a_i = a_1-prefix + a_2 + the rest
    "split": claim(V, [n >= 2, axiom("sum_split", N=n, K=num(1), f=aI)], E(_SPLIT1.expr)),
    # two families that differ somewhere differ at a first index, inside [1, n]
    "first_diff": claim(V + [Var("k", "int")],
                        [not_(forall(n, aI.eq(bI))), axiom("exists_first_diff", k=k, N=n, f=aI, g=bI),
                         axiom("follows", P=k + 1 <= n)], n >= 1),
    # a name for a term and for a family: X = a(1), d(i) = a(i) + 1 > a(i)
    "names": claim(V + ["X", Var("d", "seq")],
                   [n >= 1, forall(n, aI > 0), axiom("exists_eq", y=X, x=at(aS, num(1))),
                    axiom("exists_seq_eq", s=dS, N=n, F=aI + 1),
                    axiom("forall_and", N=n, P=aI > 0, Q=dI.eq(aI + 1)),
                    axiom("forall_mono", N=n, P=and_(aI > 0, dI.eq(aI + 1)), Q=dI > 1),
                    axiom("follows", P=forall(n, dI > 1))], n >= 1),
}

_I1 = idx(1)
_PAIR = aI <= at(bS, _I1)     # under two foralls: a(j) <= b(i), i the outer index
GOOD["swap"] = claim(V + [Var("m", "int")], [forall(n, forall(m, _PAIR)), axiom("forall_swap", N=n, M=m, P=_PAIR)],
                     forall(m, forall(n, at(aS, _I1) <= bI)))

BAD = {   # each false as stated; (claim, what the refusal says)
    # the bounds exchanged but not the indices: for n != m this reads a and b outside what was assumed
    "swap_bounds_only": (claim(V + [Var("m", "int")],
                               [forall(n, forall(m, _PAIR)),
                                Hyp(("implies", forall(n, forall(m, _PAIR)).node, forall(m, forall(n, _PAIR)).node),
                                    by="axiom:forall_swap")],
                               forall(m, forall(n, _PAIR))), "not an instance"),
    # the shifted range reaches past n: a(n + 1) is not known to be positive
    "shift_past_the_end": (claim(V, [n >= 1, forall(n, aI > 0),
                                     axiom("forall_shift", N=n, K=num(1), L=n, P=aI > 0)],
                                 forall(n, at(aS, IDX + 1) > 0)), "condition"),
    # a shift by a half: the family says nothing at i + 1/2
    "half_shift": (claim(V, [n >= 2, forall(n, aI > 0),
                             Hyp(("implies", forall(n, aI > 0).node,
                                  forall(n - 1, at(aS, IDX + Fraction(1, 2)) > 0).node), by="axiom:forall_shift")],
                         forall(n - 1, at(aS, IDX + Fraction(1, 2)) > 0)), "not an instance"),
    # a restriction to a longer range
    "restrict_longer": (claim(V, [n >= 1, forall(n, aI > 0), axiom("forall_restrict", N=n, L=n + 1, P=aI > 0)],
                              forall(n + 1, aI > 0)), "condition"),
    # a split at K + 1 = n + 1 > n: it would say a(n + 1) = 0 (the last sum is empty)
    "split_past_the_end": (claim(V, [n >= 1, axiom("sum_split", N=n, K=n, f=aI)],
                                 E(axiom("sum_split", N=n, K=n, f=aI).expr)), "condition"),
    # a first difference of two families that may be equal: it would put k + 1 in [1, n], so n >= 1 from n >= 0
    "first_diff_of_equal": (claim(V + [Var("k", "int")],
                                  [n >= 0, axiom("exists_first_diff", k=k, N=n, f=aI, g=bI)], n >= 1), "condition"),
    # the witness in the goal: 'k + 1 <= n' for the chosen k, not for every k
    "first_diff_in_goal": (claim(V + [Var("k", "int")],
                                 [not_(forall(n, aI.eq(bI))), axiom("exists_first_diff", k=k, N=n, f=aI, g=bI)],
                                 k + 1 <= n), "occurs in the goal"),
    # a family named by itself: d(i) = d(i) + 1 has no solution
    "seq_eq_own": (claim(V + [Var("d", "seq")], [n >= 1, axiom("exists_seq_eq", s=dS, N=n, F=dI + 1),
                                                 axiom("forall_mono", N=n, P=dI.eq(dI + 1), Q=aI > 0)],
                         forall(n, aI > 0)), "a term of the citation"),
    # a name given twice: X = a(1) and X = a(1) + 1
    "eq_twice": (claim(V + ["X"], [axiom("exists_eq", y=X, x=at(aS, num(1))),
                                   axiom("exists_eq", y=X, x=at(aS, num(1)) + 1)], n < 0), "already binds"),
}


@pytest.fixture(scope="module", autouse=True)
def _solvers():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")


@pytest.mark.parametrize("name", sorted(GOOD))
def test_each_rule_proves_a_true_claim_both_sides_accept(name, tmp_path):
    accepted_by_both(ob(name, GOOD[name]), tmp_path)


@pytest.mark.parametrize("name", sorted(BAD))
def test_each_rule_out_of_its_conditions_is_refused_by_both(name, tmp_path, monkeypatch):
    cl, why = BAD[name]
    refused_by_both(ob(name, cl), why, tmp_path, monkeypatch)
