"""False or undefined claims given to the engine through its public building blocks: none may come out
PROVED (or CONFIRMED), whatever methods are asked for. Each was PROVED before the soundness fixes
(docs/soundness.md), or is a variant of one that was."""

from __future__ import annotations

from fractions import Fraction

import pytest

from attncert.core.claims import Obligation, Var, claim
from attncert.core.engine import run_obligation
from attncert.core.errors import ExprError
from attncert.core.expr import diff, exp, log, max_, min_, num, var, vars_
from attncert.core.verdict import Verdict

x, y = vars_("x", "y")
ALL = ("identity", "smt", "interval", "sample", "probe", "model", "replay")


def ob(c, methods=ALL, **kw):
    return Obligation("adv.engine", "ks", "adversarial", "adversarial", c, tuple(methods), family="adversarial", **kw)


def smt_ready():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")


FALSE_OR_UNDEFINED = {
    # 3. divisions: every denominator needs a proof that it is non-zero, from the hypotheses alone
    "two_divisions_same_term": claim(["x"], [x.eq(0)], 1 + 0 * (1 / x) + 0 * (1 / x) <= 0),
    "x_plus_1_over_x": claim(["x"], [x.eq(0)], ((x + 1) / x - 1 / x).eq(1)),
    "division_in_hypothesis": claim(["x"], [x.eq(0), (1 / x).eq(5)], num(1) < 0),
    "division_inside_exp": claim(["x"], [x.eq(0)], exp(1 / x) > 0),
    "negative_power_at_zero": claim(["x"], [x.eq(0)], (x * x ** -1).eq(1)),
    # 4. identities where undefined
    "x_times_1_over_x": claim(["x"], [x.eq(0)], (x * (1 / x)).eq(1)),
    "removable_pole": claim(["x"], [x.eq(1)], ((x ** 2 - 1) / (x - 1)).eq(x + 1)),
    "exp_log_of_negative": claim(["x"], [x < 0], exp(log(x)).eq(x)),
    "log_of_zero_closed": claim([], [], exp(log(num(0))) > 0),
    "derivative_of_log_of_negative": claim(["x"], [], diff(log(-1 - x ** 2), x).eq(2 * x / (1 + x ** 2))),
    "derivative_drops_undefined_constant": claim(["x"], [], diff(x + log(num(-1)), x).eq(1)),
    "derivative_of_pole": claim(["x"], [], diff(1 / num(0) + x, x).eq(1)),
    # 5. n-ary max/min: every argument counts
    "max_of_three": claim([], [], max_(exp(num(1)), exp(num(1)), 10) < 5),
    "min_of_three": claim([], [], min_(exp(num(1)), exp(num(1)), -10) > -5),
    "max_of_four_late": claim([], [], max_(exp(num(1)), exp(num(1)), 1, 100) < 3),
    # plain false claims
    "e_below_2": claim([], [], exp(num(1)) < 2),
    "log_2_above_1": claim([], [], log(num(2)) > 1),
    "x_squared_ge_x": claim(["x"], [], x * x >= x),
}


@pytest.mark.parametrize("name", sorted(FALSE_OR_UNDEFINED))
def test_engine_never_proves_false_or_undefined(name):
    smt_ready()
    r = run_obligation(ob(FALSE_OR_UNDEFINED[name]), timeout=60.0)
    assert r.verdict not in (Verdict.PROVED, Verdict.CONFIRMED), (name, r.evidence)


@pytest.mark.parametrize("method", ["identity", "smt"])
def test_true_claims_with_their_hypotheses_are_still_proved(method):
    """The fixes are not a blanket refusal: the same shapes, with hypotheses that make every term defined."""
    smt_ready()
    cases = {"identity": [claim(["x"], [x > 0], (x * (1 / x)).eq(1)),
                          claim(["x"], [x > 1], ((x ** 2 - 1) / (x - 1)).eq(x + 1)),
                          claim(["x"], [x > 0], exp(log(x)).eq(x))],
             "smt": [claim(["x"], [x > 0], 1 + 0 * (1 / x) + 0 * (1 / x) >= 1),
                     claim(["x", "y"], [x > 0, (1 / x).eq(y)], x * y > 0)]}
    for c in cases[method]:
        assert run_obligation(ob(c, (method,)), timeout=60.0).verdict == Verdict.PROVED, c


def test_counterexamples_stay_inside_the_box():
    smt_ready()
    # x >= 0 is true on the box [0, 1] the claim declares; no point outside it may refute it
    c = claim([Var("x", lo=Fraction(0), hi=Fraction(1))], [], x >= 0)
    r = run_obligation(ob(c, ("probe", "replay", "model")), timeout=30.0)
    assert r.verdict != Verdict.REFUTED, r.evidence


@pytest.mark.parametrize("bad", ["x|y", "a b", "x\n(assert false)", "", "1x", "a" * 65, "n[a b]", "n[]"])
def test_variable_names_outside_the_grammar_are_refused(bad):
    with pytest.raises(ExprError):
        claim([bad], [], var(bad) > 0)


def test_terms_and_formulas_are_kept_apart():
    with pytest.raises(ExprError):
        claim([], [], num(1) + (num(1) < 0))  # a relation used as a number
    with pytest.raises(ExprError):
        claim(["x"], [], x * 0)  # a term as the goal
