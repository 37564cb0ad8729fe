"""Theorem 5's last step (L782-786) with its powers written t^s = exp(s log t): the monotonicity of t -> t^s
and (ab)^s >= a^s b^s (the direction the bound uses) are axiom instances now, not free-text facts. The step is PROVED; without the instances
that give w E = Cm, or with a planted constant, it is not; and the definitions hold together at real points."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import mpmath
import pytest

from attncert.api import run_obligation
from attncert.core.claims import claim
from attncert.core.families import select
from attncert.core.verdict import Verdict

pytestmark = pytest.mark.filterwarnings("ignore")
ID = "infoflow.thm5.final_bound_786.core"   # the power rules; final_bound_786 links it with width_bound_766


def _ob(id_=ID):
    (ob,) = select(id_)
    return ob


def test_no_free_text_premise():
    for id_ in (ID, "infoflow.thm5.final_bound_786", "infoflow.thm5.width_bound_766"):
        assert not [h.by for h in _ob(id_).claim.hyps if h.by and h.by.startswith("fact:")], id_
    axioms = sorted(h.by for h in _ob().claim.hyps if h.by and h.by.startswith("axiom:"))
    assert axioms == ["axiom:exp_add", "axiom:exp_le", "axiom:exp_le", "axiom:log_div", "axiom:log_le"]


def test_proved_and_not_without_the_power_rules():
    pytest.importorskip("z3")
    ob = _ob()
    assert run_obligation(ob).evidence.verdict == Verdict.PROVED
    # drop the exp_le instance exp(s log(3/(64m))) <= exp(s log a + s log eps): w E >= Cm is lost
    hs = [h for h in ob.claim.hyps if not (h.by == "axiom:exp_le" and h.expr[2][1][0] == "add")]
    assert len(hs) == len(ob.claim.hyps) - 1
    weak = replace(ob, id=ID + ".weak", claim=claim(list(ob.claim.vars), hs, ob.claim.goal), expect=None)
    assert run_obligation(weak).evidence.verdict != Verdict.PROVED
    # a planted constant: (k-1)/(2mn) instead of (k-1)/(4mn) in the bound
    g = ob.claim.goal
    planted_goal = (g[0], g[1], ("mul", ("num", Fraction(2)), g[2]))
    bad = replace(ob, id=ID + ".planted", claim=claim(list(ob.claim.vars), list(ob.claim.hyps), planted_goal), expect=None)
    assert run_obligation(bad).evidence.verdict != Verdict.PROVED


@pytest.mark.parametrize("m,n,eps", [(1, 1, Fraction(1, 1000)), (3, 2, Fraction(1, 5000)), (2, 5, Fraction(1, 300))])
def test_the_definitions_hold_together(m, n, eps):
    """At real points (mpmath, 50 digits): N = floor(x) > 3x/4, y = N^s >= w = (3/(64 m eps))^s and
    w eps^s = (3/(64 m))^s: the hypotheses the step rests on are not vacuous and say what L782-786 says."""
    mpmath.mp.dps = 50
    s = mpmath.mpf(m) / (n + 1)
    x = 1 / (16 * mpmath.mpf(m) * mpmath.mpf(eps.numerator) / eps.denominator)
    N = mpmath.floor(x)
    e = mpmath.mpf(eps.numerator) / eps.denominator
    assert x > 4 and N * 4 > 3 * x
    y, w, E, Cm = N ** s, (3 / (64 * m * e)) ** s, e ** s, (mpmath.mpf(3) / (64 * m)) ** s
    assert y >= w and abs(w * E - Cm) < mpmath.mpf(10) ** -40
