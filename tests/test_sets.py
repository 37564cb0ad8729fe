"""Finite sets in the expression language (docs/axioms.md, "Finite sets"): set variables (fset, domain "set"),
sequences of sets (fsets, domain "sets", read with sat), union, the big union bunion over 1..N, the cardinality
card and the formula subset. They are opaque in both SMT translations (each card term a fresh real atom, each
subset formula a fresh Boolean atom); a step over them is PROVED only from cited axiom instances (card_nonneg,
card_subset, card_union, card_bunion, with the sum and pointwise axioms). Never sampled, never refuted by a
point; the checker rejects every forged citation, sort and declaration."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from forging import SAMPLE_EVIDENCE, verify_dir, verify_forged
from hypothesis import given, settings, strategies as st

from attncert.api import run_obligation
from attncert.core.axioms import axiom
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Obligation, Var, claim
from attncert.core.errors import ExprError
from attncert.core.expr import IDX, at, bsum, bunion, card, forall, fset, fsets, num, sat, seq, subset, union, var
from attncert.core.verdict import Verdict

pytestmark = pytest.mark.filterwarnings("ignore")
h, n = var("h"), var("n")
SEL = sat(fsets("J"), IDX)
U = bunion(h, SEL)
W = union(U, fset("B"))
VARS = [Var("n", "int"), Var("h", "int"), Var("A", "set"), Var("B", "set"), Var("J", "sets")]


def hyps():
    """Rule (1) of the InfoFlow model at one token: A is a subset of the union of J(1..h) and B, each of size 1;
    n = |A|."""
    return [h >= 1, n.eq(card(fset("A"))), subset(fset("A"), W), card(fset("B")).eq(1), forall(h, card(SEL).eq(1)),
            axiom("forall_mono", N=h, P=card(SEL).eq(1), Q=card(SEL) <= 1),
            axiom("card_subset", A=fset("A"), B=W), axiom("card_union", A=U, B=fset("B")),
            axiom("card_bunion", N=h, F=SEL), axiom("sum_mono", N=h, f=card(SEL), g=num(1)),
            axiom("sum_const", N=h, c=num(1))]


def ob(id_, cl):
    return Obligation(id=f"s.{id_}", paper="mine", ref="t", statement=id_, claim=cl,
                      methods=("smt", "model", "probe"), family="sets")


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    out = tmp_path_factory.mktemp("sets")
    hs = hyps()
    obs = {"bound": ob("bound", claim(VARS, hs, n <= h + 1)),
           # a planted wrong constant: the token's own set forgotten
           "planted": ob("planted", claim(VARS, hs, n <= h)),
           # true, but the union bound over A u B is not cited
           "uncited": ob("uncited", claim(VARS, hs[:7] + hs[8:], n <= h + 1)),
           # card_subset cited without its condition (A is a subset of the union): not established
           "nosubset": ob("nosubset", claim(VARS, hs[:2] + hs[3:], n <= h + 1))}
    res = {k: run_obligation(o) for k, o in obs.items()}
    for r_ in res.values():
        atomic_write(path_for(str(out), r_), dumps(build(r_)))
    return out, res


def test_prover_verdicts_over_sets(certs):
    _, res = certs
    v = {k: r_.evidence.verdict for k, r_ in res.items()}
    assert v["bound"] == Verdict.PROVED
    # false, or true but not from what is cited: never PROVED, and never REFUTED by a point either
    assert v["planted"] == v["uncited"] == v["nosubset"] == Verdict.UNKNOWN
    assert "finite sets" in res["planted"].evidence.detail["reason"]
    assert "card_subset" in res["nosubset"].evidence.detail["reason"]


def test_checker_verifies_the_set_certificate(certs):
    out, _ = certs
    code, text, rep = verify_dir(out)
    assert code == 0, text
    status = {r_["path"].rsplit("/", 1)[-1]: r_["status"] for r_ in rep}
    assert status["s.bound.json"] == "VERIFIED"
    assert "axiom card_bunion (axiom list v10)" in text and "subset formulas as free Booleans" in text


def _cert(out, name):
    p = out / "mine" / "sets" / f"s.{name}.json"
    return p, json.loads(p.read_text())


def _hyp(c, i, expr):
    c["claim"]["hyps"][i]["expr"] = expr


A_J, B_J = ["fset", "A"], ["fset", "B"]
# each forgery with the words of the checker's reason (so it is refused for what it forges, not by accident)
WHY = {"goal lowered": "not unsat", "subset dropped": "card_subset", "set used as a real": "declared a finite set",
       "real declared a set": "declared a finite set", "union bound weakened": "not an instance of axiom card_union",
       "sets declared a set": "not declared with domain 'sets'", "index outside": "idx outside",
       "subset of a real": "subset", "sample evidence": "only smt", "plain set takes the index":
       "not an instance of axiom card_subset"}
FORGERIES = {
    # the planted constant with the proved evidence kept
    "goal lowered": lambda c: c["claim"].__setitem__("goal", ["le", ["var", "n"], ["var", "h"]]),
    # card_subset's condition removed: it must then follow from the hypotheses before it, and does not
    "subset dropped": lambda c: c["claim"]["hyps"].pop(2),
    # a set read as a real
    "set used as a real": lambda c: _hyp(c, 1, ["eq", ["var", "n"], ["var", "A"]]),
    # a real declared a set
    "real declared a set": lambda c: [v.__setitem__("domain", "set") for v in c["claim"]["vars"] if v["name"] == "n"],
    # the union bound with one side left out: |(union J) u B| <= |union J|
    "union bound weakened": lambda c: c["claim"]["hyps"][7]["expr"].__setitem__(2, c["claim"]["hyps"][7]["expr"][2][1]),
    # the sequence of sets declared a single set
    "sets declared a set": lambda c: [v.__setitem__("domain", "set") for v in c["claim"]["vars"] if v["name"] == "J"],
    # a set at the index of no big operator
    "index outside": lambda c: c["claim"]["hyps"].append(
        {"expr": ["eq", ["card", ["sat", ["fsets", "J"], ["idx"]]], ["num", "1"]]}),
    # subset of a real term
    "subset of a real": lambda c: _hyp(c, 2, ["subset", A_J, ["var", "h"]]),
    # a sampled CONFIRMED 'check' of a set claim
    "sample evidence": lambda c: c.update(SAMPLE_EVIDENCE),
    # card_subset's plain set variable A sent to the set J(i) of each index, inside a forall: a plain variable
    # takes no term of the index (only setbody does)
    "plain set takes the index": lambda c: _hyp(c, 6, ["forall", ["var", "h"], [
        "implies", ["subset", ["sat", ["fsets", "J"], ["idx"]], B_J],
        ["le", ["card", ["sat", ["fsets", "J"], ["idx"]]], ["card", B_J]]]]),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_checker_rejects_forged_set_certificates(certs, tmp_path, name):
    out, _ = certs
    _, obj = _cert(out, "bound")
    code, text, rep = verify_forged(obj, FORGERIES[name], tmp_path, "mine/sets/s.bound.json")
    assert code != 0 and rep and all(r_["status"] != "VERIFIED" for r_ in rep), (name, text)
    assert WHY[name] in text, (name, text)


def test_sort_and_scope_errors_in_the_prover():
    with pytest.raises(ExprError):
        claim(VARS, [], card(var("h")) >= 0)                              # card of a real
    with pytest.raises(ExprError):
        claim(VARS, [], subset(fset("A"), var("h")))                      # subset of a real
    with pytest.raises(ExprError):
        claim(VARS, [], card(bunion(h, var("n"))) >= 0)                   # a union of reals
    with pytest.raises(ExprError):
        claim(VARS, [], card(sat(fsets("J"), IDX)) >= 0)                  # an index outside a big operator
    with pytest.raises(ExprError):
        claim(VARS, [], card(sat(seq("J"), num(1))) >= 0)                 # sat of a real sequence
    with pytest.raises(ExprError):
        claim([Var("h", "int"), Var("A")], [], card(fset("A")) <= h)      # a real used as a set
    with pytest.raises(ExprError):
        claim(VARS, [], card(fset("J")) >= 0)                             # a sequence of sets used as a set
    with pytest.raises(ExprError):
        claim(VARS, [], fset("A"))                                        # a set is not a formula


def test_matchers_keep_sets_apart():
    """Both matchers (the checker's and the prover's, written apart): a set variable takes a set term without a
    free index, a setbody variable one that may use it; neither takes a real, and a real variable takes no set."""
    from attncert.checker.verify import _match
    from attncert.core.axioms import bind

    for m in (lambda p, t, cv: _match(p, t, cv, {}), lambda p, t, cv: bind(p, t, cv, set(), {})):
        assert m(("fset", "A"), W.node, {"A": "set"})
        assert m(("fset", "A"), U.node, {"A": "set"})                      # the index is bound there
        assert not m(("fset", "A"), SEL.node, {"A": "set"})
        assert m(("fset", "F"), SEL.node, {"F": "setbody"})
        assert not m(("fset", "F"), (h + 1).node, {"F": "setbody"})
        assert not m(("fset", "A"), ("var", "h"), {"A": "set"})
        assert not m(("var", "x"), W.node, {"x": "real"})
        assert not m(("var", "f"), W.node, {"f": "body"})
        assert m(("var", "f"), card(SEL).node, {"f": "body"})


def _value(t, env, i=None):
    """A tree's value at concrete finite sets (Python frozensets; a sequence of sets a 1-indexed list), i the
    index of the innermost big operator: the semantics docs/axioms.md states."""
    op = t[0]
    if op == "num":
        return t[1]
    if op in ("var", "fset"):
        return env[t[1]]
    if op == "idx":
        return i
    if op == "sat":
        return env[t[1][1]][int(_value(t[2], env, i)) - 1]
    if op == "union":
        return frozenset().union(*[_value(c, env, i) for c in t[1:]])
    if op == "card":
        return Fraction(len(_value(t[1], env, i)))
    if op == "subset":
        return _value(t[1], env, i) <= _value(t[2], env, i)
    if op in ("sum", "bunion", "forall"):
        N = _value(t[1], env, i)
        vals = [_value(t[2], env, k) for k in range(1, int(N) + 1)] if N >= 1 else []
        return {"sum": lambda: sum(vals, Fraction(0)), "bunion": lambda: frozenset().union(*vals),
                "forall": lambda: all(vals)}[op]()
    a = [_value(c, env, i) for c in t[1:] if isinstance(c, tuple)]
    if op == "add":
        return sum(a, Fraction(0))
    if op == "implies":
        return (not a[0]) or a[1]
    return {"le": lambda: a[0] <= a[1], "ge": lambda: a[0] >= a[1]}[op]()


subsets = st.frozensets(st.integers(1, 8), max_size=8)


@settings(max_examples=80, deadline=None)
@given(subsets, subsets, st.lists(subsets, min_size=0, max_size=5), st.booleans())
def test_the_set_axioms_hold_on_concrete_sets(a, b, fam, inside):
    """Every set axiom, read from the list with its variables set to concrete sets (A, B, and F = J(i) for a
    random list J of sets, N its length) and evaluated exactly: whenever its conditions hold, its goal holds.
    ``inside`` makes A a subset of B half the time, so card_subset's condition is met."""
    from attncert.core.axioms import axiom_list
    from attncert.core.expr import substitute

    if inside:
        a = a & b
    env = {"A": a, "B": b, "J": fam, "N": Fraction(len(fam))}
    terms = {"F": SEL.node}
    names = [x for x in axiom_list()[1].values() if x.name.startswith("card_")]
    assert {x.name for x in names} == {"card_nonneg", "card_subset", "card_union", "card_bunion"}
    for x in names:
        sub = {k: v for k, v in terms.items() if k in x.vars}
        conds = [substitute(c, sub) for c in x.hyps]
        if all(_value(c, env) for c in conds):
            assert _value(substitute(x.goal, sub), env), (x.name, a, b, fam)


def test_a_users_claim_over_sets():
    """ac.Claim declares the names used as sets 'set' and 'sets'; the union bound over h heads is PROVED from
    cited axiom instances, and the same claim with a wrong constant is not."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    import attncert as ac

    sel = ac.sat(ac.fsets("J"), ac.IDX)
    hh = ac.var("h")
    given = [hh >= 0, ac.forall(hh, ac.card(sel) <= 2), ac.axiom("card_bunion", N=hh, F=sel),
             ac.axiom("sum_mono", N=hh, f=ac.card(sel), g=ac.Q(2)), ac.axiom("sum_const", N=hh, c=ac.Q(2))]
    good = ac.Claim("mine.union2", ac.card(ac.bunion(hh, sel)) <= 2 * hh, given=given, ints=["h"])
    assert {v.name: v.domain for v in good.claim.vars} == {"h": "int", "J": "sets"}
    assert ac.prove(ac.card(ac.bunion(hh, sel)) <= 2 * hh, given=given, ints=["h"]).proved
    bad = ac.prove(ac.card(ac.bunion(hh, sel)) <= hh, given=given, ints=["h"])
    assert bad.result.evidence.verdict == Verdict.UNKNOWN


def test_sequences_and_sets_do_not_mix():
    """A real sequence is not a sequence of sets, and at does not read one."""
    with pytest.raises(ExprError):
        claim(VARS, [], bsum(h, at(fsets("J"), IDX)) >= 0)
