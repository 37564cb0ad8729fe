"""F1's Taylor remainder (infoflow.thm4.taylor4, proofs/infoflow_thm4.py): the transcribed claims, evaluated in
mpmath at random points, say what the paper's construction needs, and no more: |R(h)| <= M4 h^4/12 holds, the
constant M4 = 409/100 is nearly tight (max |tanh''''| = 4.0859), and each link of the chain G_k' = G_(k+1) is the
derivative it claims to be (numerical differentiation of the transcribed trees)."""

from __future__ import annotations

import mpmath
from hypothesis import given, settings, strategies as st

from attncert import api
from attncert.numeric.evaluate import MpNumbers, evaluate

OBS = {o.id: o for o in api.select("infoflow.thm4.*")}
NUMS = MpNumbers(40)


def _value(tree, env):
    with mpmath.workdps(40):
        return evaluate(tree, {k: mpmath.mpf(v) for k, v in env.items()}, NUMS)


def _sides(tree, env):
    """The two sides of a relation, evaluated."""
    return _value(tree[1], env), _value(tree[2], env)


@settings(max_examples=200, deadline=None)
@given(st.floats(-3, 3), st.floats(-2, 2))
def test_the_taylor_bound_holds_and_is_nearly_tight(b, h):
    goal = OBS["infoflow.thm4.taylor4"].claim.goal
    assert goal[0] == "le"
    lhs, rhs = _sides(goal, {"b": b, "h": h})
    assert lhs <= rhs * (1 + mpmath.mpf(10) ** -30) + mpmath.mpf(10) ** -35, (b, h, lhs, rhs)


def test_a_smaller_constant_fails_somewhere():
    """409/100 cannot be lowered to 408/100: near b = 0.42 (where |tanh''''| peaks) and small h the
    remainder exceeds 4.08 h^4/12, so the bound is not vacuous."""
    goal = OBS["infoflow.thm4.taylor4"].claim.goal
    lhs, _ = _sides(goal, {"b": 0.4195, "h": 0.014})
    assert lhs > mpmath.mpf("4.08") * mpmath.mpf(0.014) ** 4 / 12


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["upper", "lower"]), st.integers(0, 3), st.floats(-2, 2), st.floats(0.05, 2))
def test_each_derivative_step_is_the_derivative(tag, k, b, y):
    """taylor4.{tag}.d{k} states diff(G_k, y) = G_(k+1): the right side matches a central difference of the
    left side's function."""
    goal = OBS[f"infoflow.thm4.taylor4.{tag}.d{k}"].claim.goal
    assert goal[0] == "eq" and goal[1][0] == "diff"
    f, var = goal[1][1], goal[1][2]
    step = mpmath.mpf(10) ** -12
    at = lambda t: _value(f, {"b": b, var: t})  # noqa: E731
    with mpmath.workdps(40):
        numeric = (at(mpmath.mpf(y) + step) - at(mpmath.mpf(y) - step)) / (2 * step)
    claimed = _value(goal[2], {"b": b, var: y})
    assert abs(numeric - claimed) <= mpmath.mpf(10) ** -8 * (1 + abs(claimed)), (tag, k, b, y, numeric, claimed)
