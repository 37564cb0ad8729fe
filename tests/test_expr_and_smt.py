"""The shared case table (tests/expr_cases.py) through the engine, through both SMT solvers, and through
the independent checker (prover verdict -> certificate -> checker verdict)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from attncert.core.certificate import build
from attncert.checker import smtlib
from attncert.checker.verify import check_cert
from attncert.core.claims import Obligation, claim
from attncert.core.engine import run_obligation
from attncert.core.errors import ExprError
from attncert.core.expr import E, from_json, num, show, to_json, var
from attncert.core.verdict import Verdict
from expr_cases import CASES, SMT_CASES, SMT_FALSE, Case

pytest.importorskip("z3")
pytest.importorskip("cvc5")
pytest.importorskip("flint")

TIMEOUT = 10.0
GAP_TIMEOUT = 1.0


def _param(cases):
    out = []
    for c in cases:
        marks = [pytest.mark.xfail(reason=c.known_gap, strict=False)] if c.known_gap else []
        out.append(pytest.param(c, id=c.name, marks=marks))
    return out


_RESULTS: dict[str, object] = {}


def _result(c: Case):
    if c.name not in _RESULTS:
        _RESULTS[c.name] = run_obligation(c.obligation(), GAP_TIMEOUT if c.known_gap else TIMEOUT)
    return _RESULTS[c.name]


@pytest.mark.parametrize("case", _param(CASES))
def test_engine_verdict(case: Case):
    r = _result(case)
    assert r.verdict == case.expected_verdict, (case.name, r.verdict, r.evidence.detail)
    assert r.tried and r.tried[0] == case.methods[0]


@pytest.mark.parametrize("case", _param(CASES))
def test_certificate_round_trip_through_checker(case: Case):
    """The independent checker accepts the prover's certificate and reaches the same verdict."""
    r = _result(case)
    if r.verdict not in (Verdict.PROVED, Verdict.REFUTED):
        pytest.fail(f"prover did not decide {case.name}: {r.evidence.detail}")
    cert = build(r)
    verdict, checked, trusted = check_cert(cert, solver_timeout=TIMEOUT)
    assert verdict == r.verdict.name
    assert checked


def _solve_all(c: Case, timeout: float):
    domains = {v.name: v.domain for v in c.claim.vars}
    main, sides, atoms, _ = smtlib.queries(domains, [h.expr for h in c.claim.hyps], c.claim.goal)
    out = {}
    for name in ("z3", "cvc5"):
        # the guarded runner: cvc5 may ignore its own tlimit on nonlinear goals
        out[name] = [smtlib.SOLVERS[name](text, timeout) for text in [main] + sides]
    return out


@pytest.mark.parametrize("case", _param(SMT_CASES + SMT_FALSE))
def test_z3_and_cvc5_agree(case: Case):
    ans = _solve_all(case, GAP_TIMEOUT if case.known_gap else TIMEOUT)
    assert ans["z3"] == ans["cvc5"], ans
    if case.expected_verdict == Verdict.PROVED:
        assert all(a == "unsat" for a in ans["z3"]), ans
    else:  # a false claim: the negated goal is satisfiable (over the abstraction too)
        assert ans["z3"][0] == "sat", ans


def test_raw_runners_agree_on_linear_cases():
    """run_z3 / run_cvc5 directly (not through the guarded child process) on the easy SMT cases."""
    for c in SMT_CASES:
        if c.known_gap:
            continue
        domains = {v.name: v.domain for v in c.claim.vars}
        main, sides, _, _ = smtlib.queries(domains, [h.expr for h in c.claim.hyps], c.claim.goal)
        for text in [main] + sides:
            assert smtlib.run_z3(text, 5) == smtlib.run_cvc5(text, 5) == "unsat", c.name


# ------------------------------------------------------------------------------ division by zero


def _ob(c, methods=("smt",), name="div"):
    return Obligation(id=f"test.{name}", paper="ks", ref="test", statement=name, claim=c, methods=methods,
                      family="test")


def test_division_by_possibly_zero_denominator_is_not_proved():
    x, y = var("x"), var("y")
    c = claim(["x", "y"], [], (x / y * y).eq(x))
    r = run_obligation(_ob(c), TIMEOUT)
    assert r.verdict != Verdict.PROVED, r.evidence.detail
    assert r.verdict == Verdict.UNKNOWN
    # the side query (y == 0 is possible) is what fails: both solvers answer sat on it
    main, sides, _, _ = smtlib.queries({"x": "real", "y": "real"}, [], c.goal)
    assert len(sides) == 1
    assert smtlib.run_z3(sides[0], 5) == "sat"
    assert smtlib.run_cvc5(sides[0], 5) == "sat"


@pytest.mark.parametrize("goal", [
    lambda x, y: (x / y).eq(x / y),          # even a syntactic tautology needs y != 0
    lambda x, y: x / y * y <= x,
    # constant numerator: the quotient's defining equation q*y = 1 must not be what rules out y = 0
    lambda x, y: (1 / y) * y > 0,
    lambda x, y: ((1 / y) * y).eq(1),
    lambda x, y: (x / y).eq(x * (1 / y)),
    lambda x, y: (x / (y - y)).eq(0),         # denominator identically 0
    lambda x, y: (x * y ** -1 * y).eq(x),    # negative power is a division too
], ids=["x/y==x/y", "x/y*y<=x", "1/y*y>0", "1/y*y==1", "x/y==x*(1/y)", "x/(y-y)==0", "x*y^-1*y==x"])
def test_possible_division_by_zero_never_proved(goal):
    x, y = var("x"), var("y")
    r = run_obligation(_ob(claim(["x", "y"], [], goal(x, y))), TIMEOUT)
    assert r.verdict != Verdict.PROVED, r.evidence.detail


def test_checker_rejects_constant_numerator_division_without_hypothesis():
    """The same hole seen from the checker: a genuine prover certificate for (1/y)*y == 1 with no
    hypothesis on y must not verify (y = 0 makes the goal undefined)."""
    from attncert.checker.trees import Reject

    y = var("y")
    r = run_obligation(_ob(claim(["y"], [], ((1 / y) * y).eq(1))), TIMEOUT)
    if r.verdict != Verdict.PROVED:
        return  # the prover already refuses: nothing to feed the checker
    with pytest.raises(Reject):
        check_cert(build(r), solver_timeout=TIMEOUT)


def test_division_with_nonzero_hypothesis_is_proved():
    x, y = var("x"), var("y")
    r = run_obligation(_ob(claim(["x", "y"], [y > 0], (x / y * y).eq(x))), TIMEOUT)
    assert r.verdict == Verdict.PROVED


def test_checker_rejects_smt_certificate_for_possibly_zero_denominator():
    """A forged smt certificate for x/y*y == x (claiming unsat) must not verify."""
    from attncert.checker.trees import Reject

    x, y = var("x"), var("y")
    c = claim(["x", "y"], [], (x / y * y).eq(x))
    good = run_obligation(_ob(claim(["x", "y"], [y.ne(0)], (x / y * y).eq(x))), TIMEOUT)
    assert good.verdict == Verdict.PROVED
    from attncert.core.claims import Result

    forged = Result(_ob(c), good.evidence, 0.0)
    cert = build(forged)
    with pytest.raises(Reject):
        check_cert(cert, solver_timeout=TIMEOUT)


# ------------------------------------------------------------------------------ expression trees


def test_json_round_trip_of_every_case():
    for c in CASES:
        j = c.claim.to_json()
        assert from_json(j["goal"]) == c.claim.goal
        for h, hj in zip(c.claim.hyps, j["hyps"]):
            assert from_json(hj["expr"]) == h.expr
        show(c.claim.goal)


def test_floats_and_bools_are_refused():
    with pytest.raises(ExprError):
        num(0.5)
    with pytest.raises(ExprError):
        var("x") + 0.1
    with pytest.raises(ExprError):
        num(True)
    with pytest.raises(ExprError):
        bool(var("x") < 1)
    with pytest.raises(ExprError):
        var("x") ** F(1, 2)


def test_claim_with_undeclared_variable_is_refused():
    with pytest.raises(ExprError):
        claim(["x"], [], var("x") < var("y"))


def test_constant_folding_is_exact():
    assert (num(1) / 4).node == ("num", F(1, 4))
    assert to_json((num(-3) / 6).node) == ["num", "-1/2"]
    assert isinstance(num(1) / 0, E)  # not folded: division by zero stays a tree
