"""The checker's sign rules (checker.smtlib.sign), which settle a definedness condition without a side
query: POS must mean > 0 and NONNEG >= 0 at every point where the term is defined. Random trees at random
points, evaluated in mpmath; and the SMT side query of every settled condition is unsat on z3 too (two
methods on the same claim)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from attncert.checker import smtlib

mpmath.mp.dps = 60

VARS = ("x", "y")


def trees(depth: int):
    leaf = st.one_of(st.sampled_from([("var", v) for v in VARS]),
                     st.fractions(min_value=-3, max_value=3, max_denominator=4).map(lambda q: ("num", q)))
    if depth == 0:
        return leaf
    sub = trees(depth - 1)
    return st.one_of(
        leaf,
        sub.map(lambda a: ("exp", a)), sub.map(lambda a: ("abs", a)), sub.map(lambda a: ("neg", a)),
        sub.map(lambda a: ("log", a)),
        st.tuples(sub, st.integers(-3, 4)).map(lambda t: ("pow", t[0], t[1])),
        st.tuples(st.sampled_from(["add", "mul", "max", "min"]), st.lists(sub, min_size=2, max_size=3))
        .map(lambda t: (t[0], *t[1])),
        st.tuples(sub, sub).map(lambda t: ("div", t[0], t[1])),
    )


class Undef(Exception):
    pass


def ev(n, env):
    op = n[0]
    if op == "num":
        return mpmath.mpf(n[1].numerator) / n[1].denominator
    if op == "var":
        return env[n[1]]
    a = [ev(c, env) for c in n[1:] if isinstance(c, tuple)]
    if op == "exp":
        return mpmath.exp(a[0])
    if op == "log":
        if a[0] <= 0:
            raise Undef
        return mpmath.log(a[0])
    if op == "abs":
        return abs(a[0])
    if op == "neg":
        return -a[0]
    if op == "pow":
        if n[2] < 0 and a[0] == 0:
            raise Undef
        return a[0] ** n[2]
    if op == "div":
        if a[1] == 0:
            raise Undef
        return a[0] / a[1]
    if op == "add":
        return mpmath.fsum(a)
    if op == "mul":
        out = mpmath.mpf(1)
        for t in a:
            out *= t
        return out
    return max(a) if op == "max" else min(a)


points = st.tuples(*[st.fractions(min_value=-4, max_value=4, max_denominator=8) for _ in VARS])


@settings(max_examples=400, deadline=None, derandomize=True)
@given(trees(3), st.lists(points, min_size=1, max_size=4))
def test_sign_rules_are_true_wherever_the_term_is_defined(t, pts):
    s = smtlib.sign(t)
    if s is None:
        return
    for p in pts:
        env = {v: mpmath.mpf(q.numerator) / q.denominator for v, q in zip(VARS, p)}
        try:
            val = ev(t, env)
        except (Undef, OverflowError):
            continue
        assert val > 0 if s == smtlib.POS else val >= 0, (t, p, val)


@pytest.mark.parametrize("t,want", [
    (("num", Fraction(1, 3)), smtlib.POS), (("num", Fraction(0)), smtlib.NONNEG), (("num", Fraction(-1)), None),
    (("var", "x"), None), (("exp", ("var", "x")), smtlib.POS), (("abs", ("var", "x")), smtlib.NONNEG),
    (("pow", ("var", "x"), 2), smtlib.NONNEG), (("pow", ("var", "x"), 3), None), (("pow", ("var", "x"), 0), smtlib.POS),
    (("pow", ("var", "x"), -2), None), (("pow", ("exp", ("var", "x")), -3), smtlib.POS),
    (("add", ("pow", ("var", "x"), 2), ("num", Fraction(1))), smtlib.POS),
    (("add", ("pow", ("var", "x"), 2), ("abs", ("var", "y"))), smtlib.NONNEG),
    (("mul", ("pow", ("var", "x"), 2), ("num", Fraction(1))), smtlib.NONNEG),
    (("div", ("num", Fraction(1)), ("abs", ("var", "x"))), None),  # |x| may be 0: not POS
    (("max", ("var", "x"), ("num", Fraction(1))), smtlib.POS), (("min", ("var", "x"), ("num", Fraction(1))), None),
    (("log", ("exp", ("var", "x"))), None), (("neg", ("num", Fraction(-1))), None), (("add",), None),
])
def test_sign_exact_values(t, want):
    assert smtlib.sign(t) == want


def _settled(domains, hyps, goal):
    tr_main, sides, _, n = smtlib.queries(domains, hyps, goal)
    return n, len(sides)


X, Y = ("var", "x"), ("var", "y")
ONE, ZERO = ("num", Fraction(1)), ("num", Fraction(0))


@pytest.mark.parametrize("hyps,goal,n,queried", [
    ([], ("gt", ("div", ONE, ("add", ("pow", X, 2), ONE)), ZERO), 1, 0),         # 1/(x^2 + 1): settled by form
    ([], ("gt", ("div", ONE, ("pow", X, 2)), ZERO), 1, 1),                       # 1/x^2: x may be 0, queried
    ([("gt", X, ZERO)], ("gt", ("div", ONE, X), ZERO), 1, 0),                    # stated: x > 0
    ([("lt", ZERO, X)], ("gt", ("log", X), ("num", Fraction(-9))), 1, 0),         # stated, flipped: 0 < x
    ([("lt", X, ZERO)], ("lt", ("div", ONE, X), ZERO), 1, 0),                    # x < 0 gives x != 0
    ([("lt", X, ZERO)], ("gt", ("log", ("neg", X)), ("num", Fraction(-9))), 1, 1),  # -x > 0 is not stated: queried
    ([("lt", X, ZERO)], ("gt", ("log", X), ZERO), 1, 1),                         # x < 0 does not give x > 0
    ([("ge", X, ZERO)], ("gt", ("div", ONE, X), ZERO), 1, 1),                    # x >= 0 allows 0: queried
    ([("ge", X, ONE)], ("gt", ("div", ONE, X), ZERO), 1, 0),                     # x >= 1 > 0
    ([("ne", X, ZERO)], ("gt", ("log", X), ZERO), 1, 1),                         # x != 0 does not give log x
    ([("gt", X, ("var", "y"))], ("gt", ("div", ONE, X), ZERO), 1, 1),             # not a number on the other side
    ([("or", ("gt", X, ZERO), ("gt", Y, ZERO))], ("gt", ("div", ONE, X), ZERO), 1, 1),  # inside or: not stated
])
def test_settled_conditions(hyps, goal, n, queried):
    assert _settled({"x": "real", "y": "real"}, hyps, goal) == (n, queried)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(trees(2))
def test_every_condition_settled_by_form_is_also_unsat_on_z3(t):
    """Two methods: a denominator the sign rules call POS, given to z3 as the side query the checker skips."""
    pytest.importorskip("z3")
    if smtlib.sign(t) != smtlib.POS or t[0] in ("num",):
        return
    tr = smtlib._Tr({v: "real" for v in VARS})
    text = tr.term(t)
    decl = "".join(f"(declare-fun {tr.sym[v]} () Real)\n" for v in VARS)
    decl += "".join(f"(declare-fun {a} () Real)\n" for a in tr.decls)
    guarded = "".join(f"(assert (=> (not (= {v} 0.0)) (= (* {q} {v}) {u})))\n" for q, u, v in tr.quot)
    # the term's own conditions hold (they are other conditions, each settled or queried)
    own = "".join(f"(assert {c})\n" for c in tr.conds)
    pos = "".join(f"(assert {p})\n" for p in tr.positive)
    query = "(set-logic ALL)\n" + decl + pos + guarded + own + f"(assert (not (> {text} 0.0)))\n(check-sat)\n"
    assert smtlib.run_z3(query, 20) == "unsat", query
