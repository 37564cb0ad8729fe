"""Definitions in theorem records (docs/theorems.md, "Definitions"): a root's plain hypothesis v == e that a
theorem names a definition is accepted only when it is one (v a real variable without a box, not in e, not a
derivative's variable, defined once, no cycle). The prover (core.theorems.definition_gaps) and the checker
(checker.theorems.definition_faults) decide this separately; both are tried on the same claims here, and
end to end: a constraint passed off as a definition keeps the theorem OPEN, and a certificate that records it
PROVED anyway is CONDITIONAL."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from attncert.api import run_obligation
from attncert.checker.theorems import definition_faults
from attncert.checker.trees import parse
from attncert.checker.verify import _claim, verify_paths
from attncert.core.axioms import axiom
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Obligation, Var, claim
from attncert.core.expr import diff, exp, show, to_json, var
from attncert.core.theorems import Closure, build_theorem_cert, definition_gaps, theorem, theorem_verdict

pytestmark = pytest.mark.filterwarnings("ignore")
a, b, c, w, x, y, k = (var(n) for n in "abcwxyk")


def ob(id_, cl, methods=("smt",)):
    return Obligation(id=f"d.{id_}", paper="mine", ref="t", statement=id_, claim=cl, methods=methods, family="fam")


def both(o: Obligation, defs: list) -> tuple[list, list]:
    """(prover's reasons, checker's reasons) for the named definitions ``defs`` of ``o``'s claim."""
    names = {show(d.node) for d in defs}
    prover = definition_gaps(o, names)
    domains, boxes, hyps, goal = _claim(o.claim.to_json())
    parsed = {parse(to_json(d.node)) for d in defs}
    return prover, definition_faults(domains, boxes, hyps, goal, parsed)


GOOD = ob("good", claim(["a", "b", "w", "c"], [a < b, w.eq(exp(a)), c.eq(w + 1), axiom("exp_pos", x=a)], c > 1))

BAD = {   # name -> (claim, the hypotheses named definitions, what the reasons must say)
    "self": (claim(["x"], [x.eq(2 - x)], x.eq(1)), [x.eq(2 - x)], "own definition"),
    "twice": (claim(["a", "b", "x"], [x.eq(a), x.eq(b)], a.eq(b)), [x.eq(a), x.eq(b)], "defined twice"),
    "cycle": (claim(["x", "y"], [x.eq(y), y.eq(2 - x)], x.eq(1)), [x.eq(y), y.eq(2 - x)], "cycle"),
    "int": (claim(["a", Var("k", "int")], [k.eq(a), a > 0, a < 1], a.eq(5)), [k.eq(a)], "real variable"),
    "box": (claim(["a", Var("x", lo=Fraction(0), hi=Fraction(1))], [x.eq(a)], a * a >= 0), [x.eq(a)], "box"),
    "diff": (claim(["a", "x"], [x.eq(a), diff(x * x, x).eq(2 * x)], a * a >= 0), [x.eq(a)], "derivative"),
    # attack round 31: a derivative holds the other variables of its body constant, so a defined v inside
    # d/da f is not its e when e depends on a, directly or through a chain (d/da (a^2) = 0, d/da (a^3) = a^2)
    "diffbody": (claim(["a", "y"], [y.eq(a * a)], diff(y, a).eq(0)), [y.eq(a * a)], "occurs in a derivative"),
    "diffchain": (claim(["a", "y", "z"], [var("z").eq(a), y.eq(var("z") * var("z"))], diff(y * a, a).eq(y)),
                  [var("z").eq(a), y.eq(var("z") * var("z"))], "occurs in a derivative"),
    "shape": (claim(["a", "b"], [a < b], a < b + 1), [a < b], "v == e"),
    "reversed": (claim(["a", "x"], [(a + 0).eq(x)], x.eq(a)), [(a + 0).eq(x)], "v == e"),
}


def test_a_definition_chain_is_accepted_by_both():
    assert both(GOOD, [w.eq(exp(a)), c.eq(w + 1)]) == ([], [])
    # a defined variable in a derivative in a variable it does not depend on is a constant there: accepted
    dx = ob("dx", claim(["a", "b", "w"], [w.eq(exp(b))], diff(w * a, a).eq(w)))
    assert both(dx, [w.eq(exp(b))]) == ([], [])


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_constraint_named_a_definition_is_refused_by_both(name):
    cl, defs, why = BAD[name]
    prover, checker = both(ob(name, cl), defs)
    assert prover and why in " ".join(prover), prover
    assert checker and why in " ".join(checker), checker


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.lists(st.integers(0, n - 1), max_size=3), min_size=n, max_size=n),
    st.booleans())))
def test_random_definition_graphs_agree(case):
    """Variables v0..v{n-1}, each defined from some others plus the free variable a; both sides accept exactly
    when the 'defined from' graph has no cycle (and no self-reference)."""
    n, uses, _ = case
    vs = [var(f"v{i}") for i in range(n)]
    defs = []
    for i in range(n):
        e = a
        for j in uses[i]:
            e = e + vs[j]
        defs.append(vs[i].eq(e))
    cl = claim(["a"] + [f"v{i}" for i in range(n)], defs, a * a >= 0)
    prover, checker = both(ob("rand", cl), defs)
    state: dict = {}

    def cyc(i):
        if state.get(i) == 1:
            return True
        if i in state:
            return False
        state[i] = 1
        r = any(cyc(j) for j in uses[i])
        state[i] = 2
        return r
    acyclic = not any(cyc(i) for i in range(n))
    assert (not prover) == acyclic and (not checker) == acyclic, (uses, prover, checker)


# ---------------------------------------------------------------------------------------- end to end

def _theorems():
    hyp = {show((a < b).node): "a < b (hypothesis)"}
    return [
        theorem("d.thm_good", "mine", "Theorem D1", "t", "c > 1 for c = exp(a) + 1", roots=["d.good"], hypotheses=hyp,
                definitions={show(w.eq(exp(a)).node): "w = exp(a)", show(c.eq(w + 1).node): "c = w + 1"}),
        theorem("d.thm_self", "mine", "Theorem D2", "t", "x = 1", roots=["d.self"],
                definitions={show(x.eq(2 - x).node): "not a definition: x = 2 - x constrains x"}),
    ]


@pytest.fixture(scope="module")
def run():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    return [run_obligation(o) for o in (GOOD, ob("self", BAD["self"][0]))]


def _write(tmp_path, run, edit=None):
    clo = Closure({r.obligation.id: r.obligation for r in run}, {r.obligation.id: r.evidence.verdict.name for r in run})
    for r in run:
        atomic_write(path_for(str(tmp_path), r), dumps(build(r)))
    for t in _theorems():
        body = build_theorem_cert(t, clo)
        if edit and t.id in edit:
            body = edit[t.id](body)
        atomic_write(str(tmp_path / "mine" / "theorems" / f"{t.id}.json"), dumps(body))
    return clo


def _resign(body):
    from attncert.core.expr import sha256
    body = {k: v for k, v in body.items() if k != "cert_sha256"}
    body["cert_sha256"] = sha256(body)
    return body


def _verify(tmp_path):
    buf, rep = io.StringIO(), []
    code = verify_paths([str(tmp_path)], buf, report=rep)
    return code, buf.getvalue(), {r["id"]: r for r in rep if r.get("theorem")}


def test_definitions_end_to_end(run, tmp_path):
    assert all(r.evidence.verdict.name == "PROVED" for r in run)
    clo = _write(tmp_path, run)
    ths = {t.id: t for t in _theorems()}
    assert theorem_verdict(ths["d.thm_good"], clo) == ("PROVED", [], ["exp_pos"])
    v, why, _ = theorem_verdict(ths["d.thm_self"], clo)
    assert v == "OPEN" and "own definition" in why[0]
    code, text, th = _verify(tmp_path)
    assert th["d.thm_good"]["status"] == "VERIFIED" and th["d.thm_good"]["computed"] == "PROVED", th
    assert th["d.thm_self"]["status"] == "VERIFIED" and th["d.thm_self"]["computed"] == "OPEN", th
    assert "own definition" in " ".join(th["d.thm_self"]["blocking"])


@pytest.mark.parametrize("tid,edit,why", [
    # the constraint recorded PROVED anyway
    ("d.thm_self", lambda bd: _resign({**bd, "verdict": "PROVED", "blocking": []}), "own definition"),
    # the hypothesis a < b moved from the hypotheses to the definitions
    ("d.thm_good", lambda bd: _resign({**bd, "hypotheses": [], "definitions": bd["definitions"] + [
        {**bd["hypotheses"][0], "name": "smuggled"}]}), "does not read v == e"),
    # a definition that is not among the root's hypotheses
    ("d.thm_good", lambda bd: _resign({**bd, "definitions": bd["definitions"] + [
        {"root": "d.good", "expr": ["eq", ["var", "b"], ["var", "a"]], "name": "smuggled"}]}), "not a hypothesis of the root"),
    # the same premise named both ways
    ("d.thm_good", lambda bd: _resign({**bd, "hypotheses": bd["hypotheses"] + bd["definitions"][:1]}),
     "named both"),
])
def test_a_tampered_definition_makes_the_theorem_conditional(run, tmp_path, tid, edit, why):
    _write(tmp_path, run, {tid: edit})
    code, text, th = _verify(tmp_path)
    assert code == 1 and th[tid]["status"] == "CONDITIONAL" and why in " ".join(th[tid]["conditions"]), th[tid]


def test_an_empty_definitions_field_is_rejected(run, tmp_path):
    _write(tmp_path, run, {"d.thm_good": lambda bd: _resign({**bd, "definitions": []})})
    code, text, _ = _verify(tmp_path)
    assert code == 1 and "REJECTED" in text and "leave the field out" in text, text


def test_the_prover_refuses_a_premise_named_both_ways():
    with pytest.raises(ValueError):
        theorem("d.x", "mine", "Theorem D3", "t", "s", roots=["d.good"], hypotheses={"a < b": "h"},
                definitions={"a < b": "d"})
