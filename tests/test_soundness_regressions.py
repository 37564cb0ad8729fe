"""Regressions for soundness holes found during development: each must stay closed.

1. sympy's expand_log(force=True) splits log(x*y) even for negative x, y: a false identity was PROVED.
2. A forged identity certificate for that false law must be REJECTED by the checker (its log laws only
   apply to syntactically positive arguments).
3. The SMT side query for a goal denominator v used to include v's own quotient definition q*v = u,
   which alone rules out v = 0 when u is a non-zero constant: (1/y)*y == 1 was PROVED with no
   hypothesis on y."""

from __future__ import annotations

import io

import pytest

from attncert.core.certificate import build, dumps
from attncert.checker.verify import verify_paths
from attncert.core.claims import Evidence, Obligation, Result, claim
from attncert.core.engine import run_obligation
from attncert.core.expr import exp, log, vars_
from attncert.core.verdict import Verdict

x, y = vars_("x", "y")


def _ob(c, methods):
    return Obligation("test.reg", "ks", "test", "regression", c, tuple(methods), family="test")


def test_log_split_of_reals_is_not_proved():
    r = run_obligation(_ob(claim(["x", "y"], [], log(x * y).eq(log(x) + log(y))), ["identity"]))
    assert r.verdict == Verdict.UNKNOWN


def test_log_split_of_positives_is_proved():
    r = run_obligation(_ob(claim(["x", "y"], [], log(exp(x) * exp(y)).eq(x + y)), ["identity"]))
    assert r.verdict == Verdict.PROVED


def test_forged_identity_certificate_is_rejected(tmp_path):
    ob = _ob(claim(["x", "y"], [], log(x * y).eq(log(x) + log(y))), ["identity"])
    forged = Result(ob, Evidence(Verdict.PROVED, "identity", {"kind": "identity", "prover": "forged", "trials": 4}), 0.0)
    p = tmp_path / "forged.json"
    p.write_text(dumps(build(forged, {"python": "x"})))
    buf = io.StringIO()
    assert verify_paths([str(p)], buf) == 1
    assert "REJECTED" in buf.getvalue()


@pytest.mark.parametrize("goal", [(1 / y * y).eq(1), (x / y).eq(x * (1 / y)), 1 / y * y > 0])
def test_goal_denominator_needs_a_hypothesis(goal):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    r = run_obligation(_ob(claim(["x", "y"], [], goal), ["smt"]))
    assert r.verdict != Verdict.PROVED
    r = run_obligation(_ob(claim(["x", "y"], [y > 0], goal), ["smt"]))
    assert r.verdict == Verdict.PROVED


# Claims with several definedness conditions, only one of them not implied: a forged PROVED certificate must be
# rejected. (Attack round 8: the checker briefly ran the side queries joined into one conjunction; that was
# sound but could stall, and was reverted. These tests stay.)

def _forged_smt(tmp_path, c, name):
    from attncert.checker import smtlib

    mains, sides, atoms, n_conds = smtlib.plan(*_checker_claim(c))
    ob = _ob(c, ["smt"])
    ev = Evidence(Verdict.PROVED, "smt", {"kind": "smt", "solvers": {"z3": "unsat", "cvc5": "unsat"},
                                          "atoms": atoms, "side_queries": n_conds})
    p = tmp_path / f"{name}.json"
    p.write_text(dumps(build(Result(ob, ev, 0.0), {"python": "x"})))
    return p, n_conds


def _checker_claim(c):
    """The checker's own reading of a claim: (domains, hypotheses, goal) as smtlib.plan takes them."""
    from attncert.checker import verify as cv

    dom, _boxes, hyps, goal = cv._claim(c.to_json())
    return dom, hyps, goal


@pytest.mark.parametrize("hyps,goal", [
    ([y > 0], (x / y + 1 / x) * x * y > -10 ** 9),     # y != 0 holds, x != 0 does not
    ([x > 0], (x / y + 1 / x) * x * y > -10 ** 9),     # x != 0 holds, y != 0 does not
    ([x > 0, y > 0], (log(x - y) + 1 / x) * 0 < 1),       # log(x - y) is not defined for x <= y
])
def test_one_undefined_term_among_several_is_rejected(tmp_path, hyps, goal):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    p, n_conds = _forged_smt(tmp_path, claim(["x", "y"], hyps, goal), "one_undefined")
    assert n_conds >= 2  # (a condition a hypothesis states, x > 0 for x != 0, is settled without a query)
    buf = io.StringIO()
    assert verify_paths([str(p)], buf) == 1 and "REJECTED" in buf.getvalue(), buf.getvalue()


def test_valid_claims_with_several_conditions_still_verify(tmp_path):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    c = claim(["x", "y"], [x > 0, y > 0], (x / y) * (y / x) * log(x * y) <= log(x * y) + 0)
    r = run_obligation(_ob(c, ["smt"]))
    assert r.verdict == Verdict.PROVED
    p = tmp_path / "ok.json"
    p.write_text(dumps(build(r, {"python": "x"})))
    buf = io.StringIO()
    assert verify_paths([str(p)], buf) == 0, buf.getvalue()


def test_round8_certificates_verify_without_a_joined_query():
    """Attack round 8: true claims whose definedness side queries are easy alone but hard joined (cvc5 ran
    past its resource limit to the 300 s wall-clock kill on the conjunction). Each side query runs alone, so
    they verify in about a second each, as before the join."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from pathlib import Path

    files = sorted(str(p) for p in (Path(__file__).parent / "data" / "round8").glob("*.json"))
    assert len(files) == 2
    buf = io.StringIO()
    assert verify_paths(files, buf, solver_timeout=60) == 0, buf.getvalue()
