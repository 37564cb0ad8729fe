"""Attack round 20 (docs/soundness.md): a cycle through a link. adv.b proves forall(N, s <= c) from
bmax(N, s) <= c; adv.a cites bmax_least for bmax(N, s) <= c, with its condition forall(N, s <= c) carried from
a link to adv.b, which carries bmax(N, s) <= c back: "N >= 1 => bmax(N, s) <= c", false at N = 1, s = (1),
c = 0. The engine printed PROVED (links were leaves of its cycle check); the checker and the theorem closure
said circular. Run together (as `check`/`certify` run a set), the engine now sees the link and says UNKNOWN."""

from __future__ import annotations

import pytest

from attncert.core.axioms import axiom
from attncert.core.claims import Claim, Hyp, Obligation, Var, claim
from attncert.core.expr import IDX, at, bmax, forall, seq, var
from attncert.core.runner import run_many
from attncert.core.theorems import link_hyps
from attncert.core.verdict import Verdict


def test_a_cycle_through_a_link_is_not_proved():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    N, c = var("N"), var("c")
    s = at(seq("s"), IDX)
    V = [Var("N"), Var("c"), Var("s", "seq")]
    bm = bmax(N, s)

    def ob(i, cl):
        return Obligation(i, "mine", "adversarial", "adversarial", cl, ("smt",), family="adversarial")

    b = ob("adv.r20.b", claim(V, [N >= 1, bm <= c, axiom("bmax_upper", N=N, f=s),
                                  axiom("forall_mono", N=N, P=s <= bm, Q=s <= c)], forall(N, s <= c)))
    lh = link_hyps(b)
    a = ob("adv.r20.a", Claim(tuple(V), (Hyp((N >= 1).node), axiom("bmax_least", N=N, f=s, c=c), lh[2], lh[3], lh[4]),
                              (bm <= c).node))
    rb, ra = run_many([b, a], 60)
    assert rb.verdict == Verdict.PROVED                     # adv.b is true
    assert ra.verdict == Verdict.UNKNOWN and "circular" in ra.evidence.detail["reason"], ra.evidence.detail
