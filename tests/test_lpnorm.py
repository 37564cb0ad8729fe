"""L^p norms (docs/axioms.md, "L^p norms"): `lpnorm` is an opaque real of a vector term, and only Minkowski's
inequality (the axiom lpnorm_triangle) is known of it. A claim that needs it is PROVED when it is cited and not
otherwise; a planted wrong constant stays UNKNOWN; the checker refuses an lpnorm read as a Euclidean norm."""

from __future__ import annotations

import json

import pytest
from forging import verify_forged

import attncert as ac
from attncert.api import run_obligation
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Hyp
from attncert.core.expr import node_of
from attncert.core.verdict import Verdict

V, Fh, F = ac.vvar("V"), ac.vvar("Fh"), ac.vvar("F")
eps = ac.var("eps")
HALVES = [ac.lpnorm(ac.vsub(V, Fh)) <= eps / 2, ac.lpnorm(ac.vsub(Fh, F)) <= eps / 2]
MINK = ac.axiom("lpnorm_triangle", x=V, y=Fh, z=F)


def test_minkowski_proves_the_triangle_step_and_nothing_more():
    pytest.importorskip("z3")
    goal = ac.lpnorm(ac.vsub(V, F)) <= eps
    assert ac.prove(goal, given=HALVES + [MINK]).verdict == "PROVED"
    assert ac.prove(goal, given=HALVES).verdict == "UNKNOWN"                       # Minkowski not cited
    assert ac.prove(ac.lpnorm(ac.vsub(V, F)) <= eps / 2, given=HALVES + [MINK]).verdict == "UNKNOWN"   # planted
    # the Euclidean norm of the same vectors is another quantity: nothing is known of it
    assert ac.prove(ac.norm(ac.vsub(V, F)) <= eps, given=HALVES + [MINK]).verdict == "UNKNOWN"
    # a hypothesis that says it is Minkowski but has the points in another order (||x - z|| <= ||x - y|| + ||z - y||)
    # is not an instance: the engine does not take it
    bad = Hyp(node_of(ac.lpnorm(ac.vsub(V, F)) <= ac.lpnorm(ac.vsub(V, Fh)) + ac.lpnorm(ac.vsub(F, Fh))),
              "axiom:lpnorm_triangle")
    assert ac.prove(goal, given=[HALVES[0], ac.lpnorm(ac.vsub(F, Fh)) <= eps / 2, bad]).verdict == "UNKNOWN"


@pytest.fixture(scope="module")
def cert(tmp_path_factory):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    out = tmp_path_factory.mktemp("lp")
    ob = ac.Claim("mine.minkowski", ac.lpnorm(ac.vsub(V, F)) <= eps, given=HALVES + [MINK])
    r = run_obligation(ob)
    assert r.evidence.verdict == Verdict.PROVED
    atomic_write(path_for(str(out), r), dumps(build(r)))
    return out, r


def _swap(tree, old, new):
    if isinstance(tree, list):
        if tree and tree[0] == old:
            tree[0] = new
        for t in tree[1:]:
            _swap(t, old, new)


def test_checker_verifies_and_refuses_forgeries(cert, tmp_path):
    from forging import verify_dir

    out, r = cert
    code, text, _ = verify_dir(out)
    assert code == 0 and "axiom lpnorm_triangle (axiom list v10)" in text and "L^p norm" in text, text
    rel = path_for("", r).lstrip("/")
    obj = json.loads((out / rel).read_text())
    # the prover's own trust entry names what was abstracted: norms here, not exp/log terms
    assert any("L^p norm" in t for t in obj["trust"]) and not any("exp/log" in t for t in obj["trust"]), obj["trust"]

    def goal_halved(c):
        c["claim"]["goal"][2] = ["mul", ["num", "1/2"], ["var", "eps"]]

    def cited_as_euclidean(c):   # the axiom instance read with the Euclidean norm: not an instance of lpnorm_triangle
        for h in c["claim"]["hyps"]:
            if h.get("by") == "axiom:lpnorm_triangle":
                _swap(h["expr"], "lpnorm", "norm")
        _swap(c["claim"]["goal"], "lpnorm", "norm")

    def points_swapped(c):       # ||x - z|| <= ||x - y|| + ||z - y||: not Minkowski's form
        for h in c["claim"]["hyps"]:
            if h.get("by") == "axiom:lpnorm_triangle":
                h["expr"][2][2][1] = ["vadd", ["vvar", "F"], ["vscale", ["num", "-1"], ["vvar", "Fh"]]]

    for forge, why in ((goal_halved, "not unsat"), (cited_as_euclidean, "not an instance"),
                       (points_swapped, "not an instance")):
        code, text, rep = verify_forged(obj, forge, tmp_path / forge.__name__, rel)
        assert code != 0 and all(x["status"] != "VERIFIED" for x in rep), (forge.__name__, text)
        assert why in text, (forge.__name__, text)
