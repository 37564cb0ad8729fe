"""Existence axioms (docs/axioms.md, "Existence"; axiom list v9): a hypothesis may cite exists_sqrt, exists_floor or
exists_seq_sqrt with a fresh variable of the claim as the witness. The engine (core.axioms.witness_gap and
engine.axiom_gap) and the checker (verify._check_witnesses and the ordering check of verify_paths) each refuse a
witness that is not fresh: a certificate that lets the witness meet a plain hypothesis, the goal, an earlier
hypothesis or a second citation would prove false statements, and here each does (the claims below are false once
the witness is eliminated). Each is tried on both sides: the engine must answer UNKNOWN, and a certificate forged
with the engine's check switched off must be REJECTED (or CONDITIONAL, for the ordering) by `verify`."""

from __future__ import annotations

from fractions import Fraction

import pytest
from forging import accepted_by_both, refused_by_both, verify_dir

from attncert.api import run_obligation
from attncert.core import engine
from attncert.core.axioms import axiom
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Hyp, Obligation, Var, claim
from attncert.core.expr import IDX, and_, forall, seq, var

pytestmark = pytest.mark.filterwarnings("ignore")
x, y, z, b, k, n = (var(s) for s in ("x", "y", "z", "b", "k", "n"))


def ob(id_, cl):
    return Obligation(id=f"e.{id_}", paper="mine", ref="t", statement=id_, claim=cl, methods=("smt",), family="fam")


def good_sqrt():
    """x > 3 and y = sqrt(x) give y*y > 3 (then a consequence that does not mention y): PROVED."""
    return ob("good_sqrt", claim(["x", "y"], [x > 3, axiom("exists_sqrt", y=y, x=x),
                                              Hyp((y * y > 3).node, by="axiom:follows")], x + 1 > 4))


def good_floor():
    """x > 5/2 and k = floor(x) give k >= 2 (k is an integer above 3/2), then x >= k >= 2."""
    return ob("good_floor", claim(["x", Var("k", "int")], [x > Fraction(5, 2), axiom("exists_floor", k=k, x=x),
                                                           Hyp((k >= 2).node, by="axiom:follows")], x >= 2))


def good_seq():
    """s(i) = sqrt(i) for i = 1..n: every s(i)^2 is at most n."""
    s = seq("s")
    cond = Hyp(forall(n, IDX >= 0).node, by="axiom:forall_intro")
    return ob("good_seq", claim(["n", Var("s", "seq")],
                                [n >= 1, cond, axiom("exists_seq_sqrt", s=s, N=n, F=IDX)],
                                forall(n, IDX >= 0)))


BAD = {   # a false statement each, once the witness is eliminated
    # y > 5 is a plain hypothesis about the witness: 'x >= 0 gives x > 25' is false
    "plain": (claim(["x", "y"], [x >= 0, y > 5, axiom("exists_sqrt", y=y, x=x)], x > 25), "occurs in hypothesis 2"),
    # the witness in the goal: the goal is about a chosen y, not every y
    "goal": (claim(["x", "y"], [x >= 0, axiom("exists_sqrt", y=y, x=x)], y > -1), "occurs in the goal"),
    # one witness for two citations: y^2 = x and y^2 = x + 1 contradict, so anything follows
    "twice": (claim(["x", "y"], [x >= 0, axiom("exists_sqrt", y=y, x=x), axiom("exists_sqrt", y=y, x=x + 1)], x < 0),
              "already binds"),
    # the witness in its own instance's terms: y^2 = y^2 + 1 has no solution, so anything follows
    "own": (claim(["x", "y"], [axiom("exists_sqrt", y=y, x=y * y + 1)], x < 0), "a term of the citation"),
    # an integer witness of a real axiom: y^2 = 2 has no integer solution, so anything follows
    "int": (claim(["x", Var("y", "int")], [x.eq(2), axiom("exists_sqrt", y=y, x=x)], x < 0), "declared real"),
    # a witness with a box
    "box": (claim(["x", Var("y", lo=Fraction(0), hi=Fraction(1))], [x >= 0, axiom("exists_sqrt", y=y, x=x)], x >= 0),
            "without a box"),
    # the witness in an earlier (sourced) hypothesis
    "earlier": (claim(["x", "y"], [x >= 0, axiom("exp_pos", x=y), axiom("exists_sqrt", y=y, x=x)], x >= 0),
                "occurs in hypothesis 2"),
}


@pytest.fixture(scope="module", autouse=True)
def _solvers():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")


@pytest.mark.parametrize("make", [good_sqrt, good_floor, good_seq])
def test_a_fresh_witness_is_accepted_by_both(make, tmp_path):
    accepted_by_both(make(), tmp_path)


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_witness_that_is_not_fresh_is_refused_by_both(name, tmp_path, monkeypatch):
    cl, why = BAD[name]
    refused_by_both(ob(name, cl), why, tmp_path, monkeypatch)


def test_an_existence_axiom_is_never_cited_at_every_index():
    cl = claim(["n", "y"], [n >= 1, Hyp(forall(n, and_(y >= 0, (y * y).eq(IDX))).node, by="axiom:exists_sqrt")],
               n >= 1)
    r = run_obligation(ob("pointwise", cl))
    assert r.evidence.verdict.name == "UNKNOWN" and "not an instance" in r.evidence.detail["reason"]


def test_a_citation_that_rests_on_a_later_hypothesis_is_conditional(tmp_path, monkeypatch):
    """The condition b*b >= 0 of the citation is hypothesis 2, a link placed after it: the witness would be
    chosen before what it rests on. Sound here, but the rule (each citation rests only on what comes before it,
    also through links) is what keeps a chain of witnesses from depending on itself: refused by both."""
    lemma = ob("square", claim(["b"], [], b * b >= 0))
    cites = ob("late", claim(["b", "y"], [axiom("exists_sqrt", y=y, x=b * b), Hyp((b * b >= 0).node, by="e.square")],
                             b * b + 1 > 0))
    engine.remember([lemma, cites])
    lr = run_obligation(lemma)
    r = run_obligation(cites)
    assert r.evidence.verdict.name == "UNKNOWN" and "not before it" in r.evidence.detail["reason"], r.evidence
    monkeypatch.setattr(engine, "axiom_gap", lambda ob_, t: None)
    forged = run_obligation(cites)
    for res in (lr, forged):
        atomic_write(path_for(str(tmp_path), res), dumps(build(res)))
    code, text, rep = verify_dir(tmp_path)
    late = next(x for x in rep if x.get("id") == "e.late")
    assert code == 1 and late["status"] == "CONDITIONAL" and "not before it" in late["conditions"][0], text
    # in the right order it is accepted
    fixed = ob("early", claim(["b", "y"], [Hyp((b * b >= 0).node, by="e.square"), axiom("exists_sqrt", y=y, x=b * b)],
                              b * b + 1 > 0))
    engine.remember([fixed])
    monkeypatch.undo()
    assert run_obligation(fixed).evidence.verdict.name == "PROVED"


def test_an_empty_source_is_refused_before_any_method():
    """Attack round 32: by="" read as sourced by the witness check and as plain elsewhere let the engine prove
    'x >= 0 => x > 25'. A claim with an empty source is malformed (as the checker says)."""
    from attncert.core.claims import Claim
    from attncert.core.errors import ExprError

    hyps = [x >= 0, axiom("exists_sqrt", y=y, x=x), Hyp((y > 5).node, by="")]
    with pytest.raises(ExprError, match="non-empty string"):
        claim(["x", "y"], hyps, x > 25)
    good = claim(["x", "y"], hyps[:2], x > 25)     # a Claim made directly is checked before any method too
    cl = Claim(good.vars, tuple(good.hyps) + (hyps[2],), good.goal)
    r = run_obligation(ob("empty_by", cl))
    assert r.evidence.verdict.name == "UNKNOWN" and "non-empty string" in r.evidence.detail["reason"], r.evidence


# ------------------------------------------------------------------ the two implementations agree on random claims
from hypothesis import given, settings, strategies as st  # noqa: E402

from attncert.checker.trees import Reject  # noqa: E402
from attncert.checker.verify import _claim, axiom_instances  # noqa: E402
from attncert.core.axioms import witness_gap  # noqa: E402

a_ = var("a")
# hypotheses a random claim is made of: (expression builder, mentions the witness y?)
PIECES = {
    "plain_x": lambda: x >= 0,
    "plain_y": lambda: y > 0,
    "exp_pos_y": lambda: axiom("exp_pos", x=y),
    "exp_pos_a": lambda: axiom("exp_pos", x=a_),
    "sqrt_y": lambda: axiom("exists_sqrt", y=y, x=x * x + 1),
    "sqrt_y_own": lambda: axiom("exists_sqrt", y=y, x=y * y + 1),
    "sqrt_a": lambda: axiom("exists_sqrt", y=a_, x=x * x + 1),
    "follows_y": lambda: Hyp((y * y >= 0).node, by="axiom:follows"),
    "floor_k": lambda: axiom("exists_floor", k=k, x=x),
}


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(sorted(PIECES)), min_size=1, max_size=5), st.booleans(), st.booleans(),
       st.sampled_from(["real", "int", "boxed"]))
def test_engine_and_checker_agree_on_witnesses(pieces, goal_y, k_int, ydom):
    """Random claims built from the pieces above: the engine's witness_gap and the checker's witness check (its
    axiom instance pass, without re-running SMT) accept exactly the same ones."""
    yvar = Var("y", "int") if ydom == "int" else Var("y", lo=Fraction(0), hi=Fraction(9)) if ydom == "boxed" else "y"
    hyps = [PIECES[p]() for p in pieces]
    goal = (y >= -1) if goal_y else (x * x >= 0)
    try:
        cl = claim(["x", "a", yvar, Var("k", "int") if k_int else "k"], hyps, goal)
    except Exception:   # noqa: BLE001 - a claim the builder refuses (an integer y in a real axiom) is not a case
        return
    engine_ok = witness_gap(cl) is None
    obj = cl.to_json()
    domains, boxes, parsed, g = _claim(obj)
    try:
        axiom_instances(obj, parsed, domains, 60.0, False, g, boxes)
        checker_ok = True
    except Reject:
        checker_ok = False
    assert engine_ok == checker_ok, (pieces, goal_y, k_int, ydom, witness_gap(cl))
