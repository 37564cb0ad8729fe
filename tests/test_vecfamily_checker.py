"""The checker's half of the vector-family extension (docs/notes/vector_families.md, axiom list v10): the nodes
vseq, vat, park, dim and pi, their sorts, the two restrictions, the SMT translation and the citation of the new
axioms. The checker alone: nothing of the prover is imported here."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from attncert.checker import axioms as axiom_list
from attncert.checker import smtlib
from attncert.checker.trees import Reject, check_binders, parse, sort_of
from attncert.checker.verify import _claim, axiom_instances, check_cert, digest

ROOT = Path(__file__).resolve().parents[1]


def num(q):
    return ["num", str(q)]


def var(n):
    return ["var", n]


X = ["vseq", "X"]
Y = ["vseq", "Y"]
PI, DIM = ["pi"], ["dim"]


def vat(f, i):
    return ["vat", f, i]


def park(f, m):
    return ["park", f, m]


def diff_of(f, i, j):
    """X_i - X_j, as the axiom writes it."""
    return ["vadd", vat(f, i), ["vscale", num(-1), vat(f, j)]]


def lemma13(f, m, i, j, c):
    """park_lemma13's goal at X := f, M := m, i := i, j := j, c := c."""
    d = diff_of(f, i, j)
    return ["le", ["mul", c, ["norm", d]], ["mul", m, m, ["abs", ["dot", park(f, m), d]]]]


def conditions(m, i, j, c):
    return [["ge", m, num(1)], ["ge", i, num(1)], ["le", i, m], ["ge", j, num(1)], ["le", j, m],
            ["gt", c, num(0)], ["le", ["mul", c, c, PI, DIM], num(8)]]


VARS = [{"name": "Y", "domain": "vecs"}, {"name": "N", "domain": "int"}, {"name": "a", "domain": "int"},
        {"name": "b", "domain": "int"}, {"name": "s", "domain": "real"}]
N, A, B, S = var("N"), var("a"), var("b"), var("s")


def claim(hyps, goal, vars_=None):
    return {"vars": copy.deepcopy(VARS if vars_ is None else vars_),
            "hyps": [h if isinstance(h, dict) else {"expr": h} for h in hyps], "goal": goal}


def cited_claim(goal=None, conds=None):
    """The conditions of park_lemma13 at X := Y, M := N, i := a, j := b, c := s, then the citation."""
    conds = conditions(N, A, B, S) if conds is None else conds
    cite = {"expr": lemma13(Y, N, A, B, S), "by": "axiom:park_lemma13"}
    return claim(conds + [cite], goal if goal is not None else lemma13(Y, N, A, B, S))


def seal(cl, evidence, verdict="PROVED"):
    obj = {"schema": "attncert.cert/2", "id": "t.vecfamily", "family": "t", "paper": "mine", "ref": "t",
           "statement": "t", "claim": cl, "claim_sha256": digest(cl), "verdict": verdict, "expected": None,
           "finding": None, "repairs": None, "method": evidence["kind"], "evidence": evidence, "uses": [],
           "trust": [], "tools": {}}
    obj["cert_sha256"] = digest(obj)
    return obj


def smt_evidence(cl):
    dom, _, hyps, goal = _claim(cl)
    _, _, atoms, n_conds = smtlib.plan(dom, hyps, goal)
    return {"kind": "smt", "solvers": {"z3": "unsat", "cvc5": "unsat"}, "atoms": atoms, "side_queries": n_conds}


def solvers():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")


# ---------------------------------------------------------------------------------------- the axiom list


def test_axiom_list_v10_loads_with_the_four_new_axioms():
    version, table = axiom_list.axioms()
    assert version == 10 and len(table) == 60
    assert {"dot_add", "dot_scale", "park_unit", "park_lemma13"} <= set(table)
    assert table["park_lemma13"][0] == {"X": "vecs", "M": "int", "i": "int", "j": "int", "c": "real"}
    assert table["park_unit"][0] == {"X": "vecs", "M": "int"}


# ---------------------------------------------------------------------------------------- parsing and sorts


def test_the_new_nodes_parse_with_their_sorts():
    assert sort_of(parse(X)) == "vecs"
    assert sort_of(parse(vat(X, var("i")))) == "vec"
    assert sort_of(parse(park(X, num(3)))) == "vec"
    assert sort_of(parse(DIM)) == sort_of(parse(PI)) == "real"
    assert sort_of(parse(["mul", PI, DIM, ["norm", vat(X, ["add", var("i"), num(1)])]])) == "real"
    dom, _, hyps, goal = _claim(cited_claim())
    assert dom["Y"] == "vecs" and len(hyps) == 8


@pytest.mark.parametrize("expr, why", [
    (["dim", num(1)], "dim takes no argument"),
    (["pi", var("s")], "pi takes no argument"),
    (["vat", X], "vat takes two arguments"),
    (["park", X, num(1), num(2)], "park takes two arguments"),
    (["vseq"], "vseq takes one name"),
    (["vseq", "X", "Z"], "vseq takes one name"),
    (["vseq", "bad name"], "bad variable name"),
])
def test_malformed_nodes_are_rejected(expr, why):
    with pytest.raises(Reject, match=why):
        parse(["le", ["norm", vat(X, num(1))], ["mul", expr, num(1)]] if expr[0] in ("dim", "pi")
              else ["le", ["norm", expr], num(1)] if expr[0] in ("vat", "park") else ["le", ["norm", vat(expr, num(1))],
                                                                                         num(1)])


FAM_VARS = [{"name": "X", "domain": "vecs"}, {"name": "x", "domain": "vec"}, {"name": "t", "domain": "seq"},
            {"name": "i", "domain": "int"}, {"name": "M", "domain": "int"}, {"name": "r", "domain": "real"}]


@pytest.mark.parametrize("goal, why", [
    # vat and park of something that is not a family
    (["le", ["norm", vat(["vvar", "x"], var("i"))], num(1)], "vat: an argument must be a family of vectors"),
    (["le", ["norm", vat(["seq", "t"], var("i"))], num(1)], "vat: an argument must be a family of vectors"),
    (["le", ["norm", park(["vvar", "x"], var("M"))], num(1)], "park: an argument must be a family of vectors"),
    (["le", ["norm", park(["vadd", ["vvar", "x"]], var("M"))], num(1)], "park: an argument must be a family"),
    # the index and count are real terms
    (["le", ["norm", vat(X, ["vvar", "x"])], num(1)], "vat: an argument must be a real term"),
    (["le", ["norm", park(X, X)], num(1)], "park: an argument must be a real term"),
    # a family is not a vector, nor a real
    (["le", ["norm", X], num(1)], "norm: an argument must be a vec term"),
    (["le", X, num(1)], "le: an argument must be a real term"),
    (["le", vat(X, var("i")), num(1)], "le: an argument must be a real term"),
    (["le", ["mul", ["var", "X"], num(1)], num(1)], "declared a family of vectors but used as a real"),
    (["le", ["norm", ["vvar", "X"]], num(1)], "not declared with domain 'vec'"),
    # a family must be declared 'vecs'
    (["le", ["norm", vat(["vseq", "Z"], var("i"))], num(1)], "'Z' is used as a family of vectors but not declared"),
    (["le", ["norm", vat(["vseq", "x"], var("i"))], num(1)], "'x' is used as a family of vectors but not declared"),
    (["le", ["norm", vat(["vseq", "r"], var("i"))], num(1)], "'r' is used as a family of vectors but not declared"),
    # none of the five inside a big operator's body
    (["le", ["sum", var("M"), ["mul", PI, ["idx"]]], num(1)], "pi inside a big operator's body"),
    (["le", ["sum", var("M"), ["mul", DIM, ["idx"]]], num(1)], "dim inside a big operator's body"),
    (["forall", var("M"), ["le", PI, num(4)]], "pi inside a big operator's body"),
    (["le", ["sum", var("M"), ["norm", vat(X, ["idx"])]], num(1)], "inside a big operator's body"),
    # lpnorm together with park or dim (restriction 1)
    (["le", ["add", ["lpnorm", ["vvar", "x"]], ["norm", park(X, var("M"))]], num(2)],
     "a claim that mentions dim or park may not mention lpnorm"),
    (["le", ["mul", DIM, ["lpnorm", ["vvar", "x"]]], num(2)], "a claim that mentions dim or park may not mention lpnorm"),
])
def test_claims_that_misuse_the_new_nodes_are_rejected(goal, why):
    with pytest.raises(Reject, match=why.replace("(", r"\(").replace(")", r"\)")) as e:
        _claim(claim([], goal, FAM_VARS))
    assert "\n" not in str(e.value)


def test_a_family_declared_vec_or_a_vector_declared_vecs_is_rejected():
    vs = [{"name": "X", "domain": "vec"}, {"name": "i", "domain": "int"}]
    with pytest.raises(Reject, match="'X' is used as a family of vectors but not declared with domain 'vecs'"):
        _claim(claim([], ["le", ["norm", vat(X, var("i"))], num(1)], vs))
    vs = [{"name": "x", "domain": "vecs"}]
    with pytest.raises(Reject, match="not declared with domain 'vec'"):
        _claim(claim([], ["le", ["norm", ["vvar", "x"]], num(1)], vs))


def test_the_lpnorm_restriction_spans_hypotheses_and_goal_and_spares_pi():
    vs = FAM_VARS
    with pytest.raises(Reject, match="may not mention lpnorm"):   # park in a hypothesis, lpnorm in the goal
        _claim(claim([["le", ["norm", park(X, var("M"))], num(1)]], ["ge", ["lpnorm", ["vvar", "x"]], num(0)], vs))
    # pi and families without park are fine with lpnorm (the restriction names dim and park only)
    _claim(claim([["le", ["norm", vat(X, var("i"))], PI]], ["ge", ["lpnorm", ["vvar", "x"]], num(0)], vs))


@pytest.mark.parametrize("op", ["vseq", "vat", "park", "dim", "pi"])
def test_check_binders_refuses_each_new_node_in_a_body(op):
    node = {"vseq": ("vseq", "X"), "vat": ("vat", ("vseq", "X"), ("idx",)), "park": ("park", ("vseq", "X"), ("idx",)),
            "dim": ("dim",), "pi": ("pi",)}[op]
    with pytest.raises(Reject, match=f"^{op} inside a big operator's body"):
        check_binders(("sum", ("var", "N"), node))
    outside = {"vat": ("vat", ("vseq", "X"), ("var", "N")), "park": ("park", ("vseq", "X"), ("var", "N"))}.get(op, node)
    check_binders(("add", ("var", "N"), outside))   # outside a body: fine


# ---------------------------------------------------------------------------------------- the SMT translation


def _translate(hyps, goal, doms):
    return smtlib.queries(doms, [parse(h) for h in hyps], parse(goal))


def test_smt_translation_of_pi_dim_vat_and_park():
    doms = {"X": "vecs", "i": "int", "M": "int", "c": "real", "pi": "real", "dim": "real"}
    hyps = [["le", ["mul", var("c"), var("c"), PI, DIM], num(8)], ["gt", var("pi"), var("dim")]]
    goal = ["le", ["mul", var("c"), ["norm", vat(X, ["div", num(1), var("i")])]],
            ["mul", var("M"), ["abs", ["dot", park(X, var("M")), vat(X, var("i"))]], PI]]
    main, sides, atoms, n_conds = _translate(hyps, goal, doms)
    assert "(declare-fun k_pi () Real)" in main and "(declare-fun k_dim () Real)" in main
    # each declared once and nothing asserted of them alone: they stand only where the claim has them
    assert main.count("(declare-fun k_pi ") == 1 and main.count("(declare-fun k_dim ") == 1
    assert "(assert (> k_pi" not in main and "(assert (>= k_dim" not in main
    # the variables named pi and dim are generated symbols v.., distinct from the constants
    sym = smtlib.symbols(doms)
    assert sym["pi"] != "k_pi" and sym["dim"] != "k_dim" and sym["pi"].startswith("v")
    assert f"(declare-fun {sym['pi']} () Real)" in main and f"(> {sym['pi']} {sym['dim']})" in main
    # the family is never declared; its vectors are inside atoms keyed by their trees
    assert sym["X"] not in main.replace(f"(declare-fun {sym['X']}", "")
    assert "('dim',)" in atoms and "('pi',)" in atoms
    assert any(a.startswith("('norm', ('vat',") for a in atoms)
    assert any(a.startswith("('dot', ('park',") for a in atoms)
    # the index of vat is translated for its definedness condition: 1/i needs i != 0
    assert n_conds == 1 and len(sides) == 1 and "(not (= (to_real" in sides[0]


def test_smt_symbols_of_the_constants_collide_with_no_generated_symbol():
    # many atoms, quotients and variables: every declared symbol is declared once
    doms = {f"v{k}": "real" for k in range(12)} | {"X": "vecs", "k_pi": "real", "k_dim": "real"}
    terms = [["div", var(f"v{k}"), ["add", var(f"v{k}"), num(1)]] for k in range(12)]
    goal = ["le", ["add", *terms, ["norm", vat(X, var("v1"))], PI, DIM, var("k_pi"), var("k_dim")], num(0)]
    main, *_ = _translate([], goal, doms)
    decls = [ln.split()[1] for ln in main.splitlines() if ln.startswith("(declare-fun")]
    assert len(decls) == len(set(decls)) and {"k_pi", "k_dim"} <= set(decls)


def test_smt_refuses_a_derivative_of_the_new_nodes():
    doms = {"x": "real"}
    with pytest.raises(Reject, match="derivative of pi"):
        _translate([], ["gt", ["diff", ["mul", PI, var("x")], "x"], num(0)], doms)


def test_pi_is_opaque_and_distinct_from_a_variable_named_pi():
    pytest.importorskip("z3")
    doms = {"pi": "real"}
    # nothing is known of pi: pi > 3 is not shown, and a variable named pi does not stand for it
    for hyps, goal in (([], ["gt", PI, num(3)]), ([["eq", var("pi"), num(4)]], ["eq", PI, num(4)])):
        main, *_ = _translate(hyps, goal, doms if hyps else {})
        assert smtlib.run_z3(main, 30) == "sat"
    main, *_ = _translate([["eq", PI, num(4)]], ["gt", PI, num(3)], {})
    assert smtlib.run_z3(main, 30) == "unsat"


# ---------------------------------------------------------------------------------------- axiom instances


def _instances(cl, prove=True):
    dom, boxes, hyps, goal = _claim(cl)
    return axiom_instances(cl, hyps, dom, 60.0, prove, goal, boxes)


def test_park_lemma13_is_cited_with_its_conditions_carried():
    out, queries = _instances(cited_claim())
    assert out == {7: "park_lemma13"} and queries == 0


def test_park_lemma13_conditions_derived_by_smt():
    solvers()
    conds = [["ge", N, num(2)], ["eq", A, num(1)], ["eq", B, N], ["eq", S, num("1/4")], ["le", PI, num(4)],
             ["le", DIM, num(8)], ["ge", PI, num(0)], ["ge", DIM, num(0)]]
    out, queries = _instances(cited_claim(conds=conds))
    assert out == {8: "park_lemma13"} and queries > 0
    # without the bound on pi, c c pi dim <= 8 does not follow (pi is an opaque real)
    with pytest.raises(Reject, match="a condition of it is neither another hypothesis nor shown"):
        _instances(cited_claim(conds=[c for c in conds if c[1] != PI]))


def test_park_unit_is_cited():
    cite = {"expr": ["eq", ["norm", park(Y, ["add", N, num(1)])], num(1)], "by": "axiom:park_unit"}
    out, _ = _instances(claim([["ge", ["add", N, num(1)], num(1)], cite], ["ge", num(1), num(0)]))
    assert out == {1: "park_unit"}


@pytest.mark.parametrize("edit, why", [
    # M, i and j are integer variables of the axiom: a real term is no instance
    (lambda e: e.__setitem__(2, ["mul", ["var", "s"], e[2][2], e[2][3]]), "not an instance"),
    # two different families for the one X
    (lambda e: e[2][3][1][1].__setitem__(1, ["vseq", "Z"]), "not an instance"),
])
def test_forged_park_lemma13_citations_are_rejected(edit, why):
    cl = cited_claim()
    cl["vars"].append({"name": "Z", "domain": "vecs"})
    e = cl["hyps"][7]["expr"]
    edit(e)
    with pytest.raises(Reject, match=why):
        _instances(cl, prove=False)


def test_a_family_variable_takes_only_a_family():
    # the index variable i := a real variable: not an integer term
    cl = cited_claim()
    cl["vars"][2]["domain"] = "real"
    with pytest.raises(Reject, match="not an instance"):
        _instances(cl, prove=False)
    # the family variable itself can only be matched by a vseq leaf (a vec term has the wrong sort)
    from attncert.checker.verify import _match
    pat = parse(["eq", ["norm", park(X, var("M"))], num(1)])
    ok_sub, bad_sub = {}, {}
    assert _match(pat, parse(["eq", ["norm", park(Y, var("M"))], num(1)]), {"X": "vecs", "M": "real"}, ok_sub)
    assert ok_sub["X"] == ("vseq", "Y")
    assert not _match(("vseq", "X"), ("vvar", "Y"), {"X": "vecs"}, bad_sub)
    assert not _match(("vseq", "X"), ("var", "Y"), {"X": "vecs"}, bad_sub)


def test_vector_identity_rejects_vat_and_park():
    vs = [{"name": "X", "domain": "vecs"}, {"name": "i", "domain": "int"}]
    for v in (vat(X, var("i")), park(X, var("i"))):
        cite = {"expr": ["eq", ["norm", v], ["norm", v]], "by": "axiom:vector_identity"}
        with pytest.raises(Reject, match="vector_identity expands only vector variables") as e:
            _instances(claim([cite], ["ge", num(1), num(0)], vs))
        assert "\n" not in str(e.value)


def test_dot_axioms_are_cited():
    vs = [{"name": "x", "domain": "vec"}, {"name": "y", "domain": "vec"}, {"name": "X", "domain": "vecs"},
          {"name": "c", "domain": "real"}, {"name": "i", "domain": "int"}]
    px, vi = park(X, var("i")), vat(X, var("i"))
    add = {"expr": ["eq", ["dot", px, ["vadd", vi, ["vvar", "y"]]], ["add", ["dot", px, vi], ["dot", px, ["vvar", "y"]]]],
           "by": "axiom:dot_add"}
    scale = {"expr": ["eq", ["dot", ["vvar", "x"], ["vscale", var("c"), vi]], ["mul", var("c"), ["dot", ["vvar", "x"], vi]]],
             "by": "axiom:dot_scale"}
    out, _ = _instances(claim([add, scale], ["ge", num(1), num(0)], vs))
    assert out == {0: "dot_add", 1: "dot_scale"}


# ---------------------------------------------------------------------------------------- whole certificates


def _goal_from_lemma13():
    d = diff_of(Y, A, B)
    return ["le", ["mul", S, ["norm", d]], ["add", ["mul", N, N, ["abs", ["dot", park(Y, N), d]]], num(1)]]


def test_a_certificate_citing_park_lemma13_is_proved_by_smt():
    solvers()
    cl = cited_claim(goal=_goal_from_lemma13())
    verdict, checked, trusted = check_cert(seal(cl, smt_evidence(cl)), 60.0)
    assert verdict == "PROVED"
    assert any("park_lemma13" in t for t in trusted)
    assert any("dim and the number pi abstracted" in t for t in trusted)


@pytest.mark.parametrize("kind", ["sample", "interval", "counterexample", "identity", "bnb"])
def test_claims_with_families_dim_or_pi_rest_on_smt_only(kind):
    ev = {"sample": {"kind": "sample", "samples": 1, "seed": 0, "dps": 30, "box": {}, "worst_point": {},
                     "worst_margin": None},
          "interval": {"kind": "interval", "bits": 64, "margin": None},
          "counterexample": {"kind": "counterexample", "point": {}, "bits": 64, "margin": None, "zero_test": False},
          "identity": {"kind": "identity", "prover": "x", "solvers": {}, "side_queries": 0},
          "bnb": {"kind": "bnb", "bits": 64, "tree": None, "leaves": 1}}[kind]
    verdict = {"sample": "CONFIRMED", "counterexample": "REFUTED"}.get(kind, "PROVED")
    msg = "a claim over families of vectors, dim or pi cannot rest on"
    # a closed claim with pi, one with dim, and a claim that only declares a family
    for cl in (claim([], ["gt", PI, num(3)], []), claim([], ["eq", ["mul", DIM, num(0)], num(0)], []),
               claim([], ["eq", var("r"), var("r")], [{"name": "r", "domain": "real"}, {"name": "X", "domain": "vecs"}])):
        with pytest.raises(Reject, match=msg):
            check_cert(seal(cl, copy.deepcopy(ev), verdict), 60.0)


def test_pi_greater_than_3_is_not_proved_by_smt():
    solvers()
    cl = claim([], ["gt", PI, num(3)], [])
    with pytest.raises(Reject, match="answered sat"):
        check_cert(seal(cl, smt_evidence(cl)), 60.0)


def test_a_forged_atom_list_is_rejected():
    cl = cited_claim(goal=_goal_from_lemma13())
    ev = smt_evidence(cl)
    ev["atoms"] = [a for a in ev["atoms"] if a not in ("('dim',)", "('pi',)")]
    with pytest.raises(Reject, match="abstracted atoms differ"):
        check_cert(seal(cl, ev), 60.0)


# ---------------------------------------------------------------------------------------- schemas


def test_the_schemas_accept_the_new_nodes_and_refuse_malformed_ones():
    jsonschema = pytest.importorskip("jsonschema")
    for name in ("attncert.cert-2", "attncert.axioms-1", "attncert.check-1", "attncert.theorem-2"):
        pkg = (ROOT / "src" / "attncert" / "schemas" / f"{name}.schema.json").read_bytes()
        assert pkg == (ROOT / "docs" / "schemas" / f"{name}.schema.json").read_bytes()
    s = json.loads((ROOT / "src" / "attncert" / "schemas" / "attncert.cert-2.schema.json").read_text())
    formula = jsonschema.Draft202012Validator({"$ref": "#/$defs/formula", "$defs": s["$defs"]})
    cl = cited_claim(goal=_goal_from_lemma13())
    for h in cl["hyps"]:
        assert formula.is_valid(h["expr"])
    assert jsonschema.Draft202012Validator(s).is_valid(seal(cl, smt_evidence(cl)))
    for bad in (["le", ["dim", num(1)], num(8)], ["le", ["norm", park(["vvar", "x"], N)], num(1)],
                ["le", ["norm", ["vat", X]], num(1)], ["le", ["norm", X], num(1)], ["le", X, num(1)]):
        assert not formula.is_valid(bad)
    ax = json.loads((ROOT / "src" / "attncert" / "schemas" / "attncert.axioms-1.schema.json").read_text())
    data = json.loads((ROOT / "src" / "attncert" / "checker" / "axioms.json").read_text())
    assert not list(jsonschema.Draft202012Validator(ax).iter_errors(data))
