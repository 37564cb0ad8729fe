"""Attack round 19 (docs/soundness.md): indexed families, and two engine gaps found with them. Each claim here
came out PROVED from the engine before the fix (the checker already refused the certificates: CONDITIONAL
circular, or REJECTED); each is false, and must now be UNKNOWN with the reason."""

from __future__ import annotations

import pytest

from attncert.core.axioms import axiom
from attncert.core.claims import Claim, Hyp, Obligation, Var, claim
from attncert.core.engine import run_obligation
from attncert.core.expr import IDX, at, exp, forall, seq, var
from attncert.core.verdict import Verdict

T, c1, c2, u, v, N, c = (var(s) for s in ("T", "c1", "c2", "u", "v", "N", "c"))


def ob(cl):
    return Obligation("adv.round19", "mine", "adversarial", "adversarial", cl, ("smt",), family="adversarial")


@pytest.fixture(autouse=True)
def _solvers():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")


def _unknown(cl, words):
    r = run_obligation(ob(cl))
    assert r.evidence.verdict == Verdict.UNKNOWN and words in r.evidence.detail["reason"], r.evidence.detail
    return r


def test_a_circle_of_axiom_conditions_is_not_proved():
    """sum_mono's condition forall(T, c1 <= c2) is the later forall_intro hypothesis, whose own condition was
    derived by SMT from the hypotheses before it, the sum_mono instance among them: c1 <= c2 from T >= 1 alone
    (false at T = 1, c1 = 1, c2 = 0)."""
    cl = claim([Var("T", "int"), "c1", "c2"],
               [T >= 1, axiom("sum_const", N=T, c=c1), axiom("sum_const", N=T, c=c2),
                axiom("sum_mono", N=T, f=c1, g=c2), axiom("forall_intro", N=T, P=c1 <= c2)], c1 <= c2)
    _unknown(cl, "circular")


def test_a_circle_without_families_is_not_proved():
    """The same gap with exp and log only: u < v from nothing (false at u = 1, v = 0)."""
    eu, ev = exp(u), exp(v)
    hyps = [axiom("exp_pos", x=u), axiom("exp_pos", x=eu), axiom("exp_lt", x=eu, y=ev),
            axiom("log_lt", x=exp(eu), y=exp(ev)), axiom("log_exp", x=eu), axiom("log_exp", x=ev),
            axiom("log_lt", x=eu, y=ev), axiom("log_exp", x=u), axiom("log_exp", x=v), axiom("exp_lt", x=u, y=v)]
    _unknown(claim(["u", "v"], hyps, u < v), "circular")


def test_a_claim_built_directly_is_checked_like_one_built_by_claim():
    """Claim(...) bypasses claim()'s checks; the engine re-runs them. A variable declared int and real: sum_const
    matched it as an integer, the solver read it as a real (N = 1/2, c = 2: the empty sum 0 is not N c = 1)."""
    from attncert.core.expr import bsum

    dup = Claim((Var("N", "int"), Var("c"), Var("N")), (Hyp((N >= 0).node), axiom("sum_const", N=N, c=c)),
                bsum(N, c).eq(N * c).node)
    _unknown(dup, "declared twice")
    # an index outside every big operator, in a plain hypothesis: one atom with forall_intro's fresh index
    A = at(seq("a"), IDX)
    free = Claim((Var("T"), Var("a", "seq")),
                 (Hyp((A <= 0).node), axiom("forall_intro", N=T, P=A <= 0)), forall(T, A <= 0).node)
    _unknown(free, "idx outside")
