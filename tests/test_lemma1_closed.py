"""Kajitsuka-Sato Lemma 1 at n = 2, closed (issue 16): the printed statement is refuted by a permuted pair, the
repaired statement's hypotheses are satisfiable (the closed proof is not vacuous), the repaired statement holds
on an exhaustive grid of separated pairs (mpmath), and without the repair the closed proof is not accepted."""

from __future__ import annotations

import dataclasses
import io
import itertools
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from test_settled_conditions_prop import ev

from attncert import api
from attncert.checker.verify import verify_paths
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.engine import run_obligation
from attncert.core.verdict import Verdict

ROOT = Path(__file__).resolve().parents[1]
ROOT16 = "ks.boltz.lemma1.conclusion_16.n2"
PRINTED = "ks.boltz.lemma1.statement_16_as_printed.n2"
REPAIR = "(a1 != b2) or (a2 != b1)"


def holds(n, env) -> bool:
    """A hypothesis or goal at a point, in 60-digit mpmath (the comparisons here are far from equality)."""
    op = n[0]
    if op == "and":
        return all(holds(c, env) for c in n[1:])
    if op == "or":
        return any(holds(c, env) for c in n[1:])
    x, y = ev(n[1], env), ev(n[2], env)
    return {"lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y, "eq": x == y, "ne": x != y}[op]


def _one(oid):
    (o,) = api.select(oid)
    return o


def _point(a1, a2, b1, b2, r, delta):
    return {k: mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator
            for k, v in dict(a1=a1, a2=a2, b1=b1, b2=b2, r=r, delta=delta).items()}


def _plain(o):
    return [h.expr for h in o.claim.hyps if h.by is None]


def test_the_closed_proof_is_not_vacuous():
    """A point where every plain hypothesis of the root holds: a = (1, -5), b = (7, 1) (sharing one entry)."""
    o = _one(ROOT16)
    with mpmath.workdps(60):
        env = _point(1, -5, 7, 1, 8, 5)
        assert all(holds(h, env) for h in _plain(o))
        assert holds(o.claim.goal, env)
        # the printed statement's counterexample breaks exactly the repair hypothesis
        env = _point(1, -5, -5, 1, Fraction(11, 2), 5)
        failing = [h for h in _plain(o) if not holds(h, env)]
        from attncert.core.expr import show
        assert [show(h) for h in failing] == [REPAIR]


@pytest.mark.parametrize("s,delta", [(Fraction(44, 10), Fraction(439, 100)), (6, 5)])
def test_repaired_statement_on_a_grid(s, delta):
    """Every pair over five values s apart (delta < s, delta > 2 log 2 + 3), in any order, that is not one
    vector permuted, meets the hypotheses and the conclusion; every permuted pair meets the hypotheses but (16)
    fails (boltz is symmetric)."""
    o = _one(ROOT16)
    hyps, goal = _plain(o), o.claim.goal
    vals = [k * s for k in range(-2, 3)]
    r = 2 * s + Fraction(1, 1024)
    seen = refuted = 0
    with mpmath.workdps(60):
        for a1, a2, b1, b2 in itertools.product(vals, repeat=4):
            if a1 == a2 or b1 == b2:
                continue
            env = _point(a1, a2, b1, b2, r, delta)
            if (a1, a2) == (b2, b1):
                assert not holds(goal, env)
                refuted += 1
                continue
            if (a1, a2) == (b1, b2):
                continue
            assert all(holds(h, env) for h in hyps), (a1, a2, b1, b2)
            assert holds(goal, env), (a1, a2, b1, b2)
            seen += 1
    assert seen == 20 * 20 - 20 - 20 and refuted == 20


def test_printed_statement_is_refuted_and_the_repair_is_needed(tmp_path):
    printed = _one(PRINTED)
    res = run_obligation(printed, 30)
    assert res.verdict == Verdict.REFUTED and res.as_expected
    assert res.evidence.detail["point"] == {"a1": "1", "a2": "-5", "b1": "-5", "b2": "1", "r": "11/2", "delta": "5"}
    # the closed root with the repair hypothesis dropped: its case split no longer carries what the cases need,
    # so no method may prove it, and the printed counterexample refutes it
    from attncert.core.expr import show
    root = _one(ROOT16)
    hyps = tuple(h for h in root.claim.hyps if show(h.expr) != REPAIR)
    assert len(hyps) == len(root.claim.hyps) - 1
    weak = dataclasses.replace(root, id="t.lemma1_without_repair", claim=dataclasses.replace(root.claim, hyps=hyps),
                               expect=None, repairs=None)
    # the step's own evidence still checks (its goal is the case split's conclusion), but the checker does not
    # accept the case split: neither case certificate's plain hypotheses are all carried any more
    res = run_obligation(weak, 30)
    assert res.verdict == Verdict.PROVED
    path = path_for(str(tmp_path), res)
    atomic_write(path, dumps(build(res)))
    report: list = []
    verify_paths([str(ROOT / "certificates" / "ks" / "ks_boltzmann"), path], io.StringIO(), quiet=True,
                 report=report, allow_conditional=True)
    (mine,) = [r for r in report if r["id"] == weak.id]
    assert mine["status"] == "CONDITIONAL" and "order_ge, instantiated, is not another hypothesis" in " ".join(
        mine["conditions"]), mine
    assert {r["status"] for r in report if r["id"] != weak.id} <= {"VERIFIED", "CONDITIONAL"}
    bare = dataclasses.replace(weak, claim=dataclasses.replace(weak.claim, hyps=tuple(
        h for h in hyps if h.by is None or h.by.startswith("axiom:"))), methods=("replay",), hint=printed.hint)
    assert run_obligation(bare, 30).verdict == Verdict.REFUTED
