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
