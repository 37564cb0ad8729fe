"""Attack round 22 (docs/soundness.md): pointwise axiom instances and Lemmas 4-5 for every n. The hole was in the
prover's SMT translation, not in the new features: solver atoms are keyed by the repr of their tree, and the
claim check accepted subclasses of str, Fraction and int, so a name or a number with its own repr made two
different terms one atom (exp(a) = exp(b) PROVED for all a, b; exp(2) = exp(1) PROVED through ac.prove). The
checker refused the certificates ("abstracted atoms differ"). The prover's arity check now requires the exact
types; the attacks on pointwise instances that held are kept as regressions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from attncert.core.axioms import axiom_at_each
from attncert.core.claims import Claim, Hyp, Obligation, Var, claim
from attncert.core.engine import run_obligation
from attncert.core.errors import ExprError
from attncert.core.expr import IDX, at, exp, forall, seq, var
from attncert.core.verdict import Verdict


class Alias(str):
    def __repr__(self):
        return "'a'"


class One(Fraction):
    def __repr__(self):
        return "Fraction(1, 1)"


def _run(cl):
    return run_obligation(Obligation("adv.r22", "mine", "adversarial", "adversarial", cl, ("smt",),
                                     family="adversarial"), 60)


def test_a_name_with_its_own_repr_is_not_another_name():
    goal = ("eq", ("exp", ("var", "a")), ("exp", ("var", Alias("b"))))
    r = _run(Claim((Var("a"), Var("b")), (), goal))
    assert r.verdict == Verdict.UNKNOWN and "malformed claim" in r.evidence.detail["reason"]


def test_a_number_with_its_own_repr_is_not_another_number():
    goal = ("eq", ("exp", ("num", One(2))), ("exp", ("num", Fraction(1))))
    r = _run(Claim((), (), goal))
    assert r.verdict == Verdict.UNKNOWN and "malformed claim" in r.evidence.detail["reason"]
    with pytest.raises(ExprError):
        claim([], [], ("eq", ("num", One(2)), ("num", Fraction(2))))


def test_pointwise_conditions_are_needed_at_every_index_of_the_same_bound():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    N, M = var("N"), var("M")
    b = at(seq("b"), IDX)
    V = [Var("N"), Var("M"), Var("b", "seq")]
    # exp_lt at every index of N, its condition given over M >= N only: not shown
    r = _run(claim(V, [M >= N, forall(M, b < b + 1), axiom_at_each("exp_lt", N, x=b, y=b + 1)],
                   forall(N, exp(b) < exp(b + 1))))
    assert r.verdict == Verdict.UNKNOWN and "exp_lt" in r.evidence.detail["reason"]
    # exp_le and exp_le_rev citing each other's conclusions at every index: circular
    r2 = _run(claim(V, [axiom_at_each("exp_le_rev", N, x=b, y=b + 1), axiom_at_each("exp_le", N, x=b, y=b + 1)],
                    forall(N, b <= b + 1)))
    assert r2.verdict == Verdict.UNKNOWN
    # bmax_upper (an axiom with a big operator) wrapped in one more forall: never a pointwise instance
    inner = ("forall", N.node, ("le", b.node, ("bmax", N.node, b.node)))
    r3 = _run(claim(V, [Hyp(("forall", M.node, inner), "axiom:bmax_upper")], ("forall", M.node, inner)))
    assert r3.verdict == Verdict.UNKNOWN and "not an instance of axiom bmax_upper" in r3.evidence.detail["reason"]
