"""Attack round 21 (docs/soundness.md): finite sets. The one hole was not about sets: the prover's check of a
claim did not count an operator's arguments, so a Claim built directly with the goal
("le", |A|, |A|, |A| - 1) (false read as a chain, for every finite A) was PROVED (the translation reads two
arguments), and a one-argument bunion raised IndexError out of run_obligation. The checker's parser refused
both. The prover now checks arity first (expr.check_arity) and turns any failure of the claim check into
UNKNOWN. The attacks on sets that held are kept here as regressions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from attncert.core.axioms import axiom
from attncert.core.claims import Claim, Hyp, Obligation, Var, claim
from attncert.core.engine import run_obligation
from attncert.core.expr import IDX, bunion, card, fset, fsets, sat, subset, union, var
from attncert.core.verdict import Verdict

A, B = fset("A"), fset("B")
CA = ("card", ("fset", "A"))


def _run(cl):
    return run_obligation(Obligation("adv.r21", "mine", "adversarial", "adversarial", cl, ("smt",),
                                     family="adversarial"), 60)


@pytest.mark.parametrize("goal", [
    ("le", CA, CA, ("add", CA, ("neg", ("num", Fraction(1))))),          # a relation with three arguments
    ("ge", ("card", ("bunion", ("var", "N"))), ("num", Fraction(0))),   # a big union without a body
    ("ge", ("card", ("fset", "A"), ("fset", "B")), ("num", Fraction(0))),   # card of two sets
    ("le", ("num",), ("num", Fraction(1))),                              # num without a value
])
def test_a_malformed_tree_gets_no_verdict(goal):
    r = _run(Claim((Var("N"), Var("A", "set"), Var("B", "set")), (), goal))
    assert r.verdict == Verdict.UNKNOWN and "malformed claim" in r.evidence.detail["reason"], r.evidence.detail


def test_false_cardinality_claims_are_not_proved():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    V = [Var("A", "set"), Var("B", "set")]
    # the union bound reversed (false: A = B = {1})
    r1 = _run(claim(V, [axiom("card_union", A=A, B=B)], card(union(A, B)) >= card(A) + card(B)))
    # a subset used backwards (false: A = {1, 2}, B = {1})
    r2 = _run(claim(V, [subset(B, A), axiom("card_subset", A=A, B=B)], card(A) <= card(B)))
    # a ternary union read as the binary card_union: not an instance
    r3 = _run(claim(V, [Hyp(("le", card(union(A, B, A)).node, (card(A) + card(B)).node), "axiom:card_union")],
                    card(union(A, B, A)) <= card(A) + card(B)))
    assert r1.verdict == r2.verdict == r3.verdict == Verdict.UNKNOWN
    assert "card_subset" in r2.evidence.detail["reason"]
    assert "card_union" in r3.evidence.detail["reason"]


def test_the_index_stays_out_of_a_plain_set_variable():
    """card_nonneg's A is a plain set: the citation forall_N |J(i)| >= 0 (A := J(i), a term of the index) is not
    an instance, in the engine and in the prover's matcher; the setbody F of card_bunion takes J(i)."""
    from attncert.core.axioms import bind

    N = var("N")
    sel = sat(fsets("J"), IDX)
    r = _run(claim([Var("N"), Var("J", "sets")],
                   [Hyp(("forall", N.node, ("ge", card(sel).node, ("num", Fraction(0)))), "axiom:card_nonneg")],
                   card(bunion(N, sel)) >= 0))
    assert r.verdict == Verdict.UNKNOWN
    assert not bind(("fset", "A"), sel.node, {"A": "set"}, set(), {})
    assert bind(("fset", "F"), sel.node, {"F": "setbody"}, set(), {})
