"""Vectors in the expression language (docs/axioms.md, "Vectors"): opaque vector variables, norm and dot
atoms, and the norm axioms. The prover and the checker translate them independently; a step over vectors is
PROVED only from cited axiom instances, never sampled, never refuted by a point, and the checker rejects
every mix-up of sorts and every forged citation."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from forging import reseal, verify_dir
from hypothesis import given, settings, strategies as st

from attncert.api import run_obligation
from attncert.core.axioms import axiom
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Obligation, Var, claim
from attncert.core.errors import ExprError
from attncert.core.expr import abs_, dot, norm, var, vadd, vscale, vsub, vvar
from attncert.core.verdict import Verdict

pytestmark = pytest.mark.filterwarnings("ignore")
x, y = vvar("x"), vvar("y")
q, r, b = var("q"), var("r"), var("b")
VARS = [Var("x", "vec"), Var("y", "vec"), Var("q"), Var("r"), Var("b")]


def ob(id_, cl):
    return Obligation(id=f"v.{id_}", paper="mine", ref="t", statement=id_, claim=cl, methods=("smt", "model", "probe"),
                      family="vec")


def split(bound):
    """||q x + r y|| <= (q + r) bound from the triangle inequality and homogeneity, given ||x||, ||y|| <= bound."""
    A, B = vscale(q, x), vscale(r, y)
    return claim(VARS, [q > 0, r > 0, norm(x) <= b, norm(y) <= b, axiom("norm_triangle", x=A, y=B),
                        axiom("norm_scale", c=q, x=x), axiom("norm_scale", c=r, x=y)],
                 norm(vadd(A, B)) <= (q + r) * bound)


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    out = tmp_path_factory.mktemp("vec")
    obs = {"split": ob("split", split(b)),
           # a planted wrong constant: half the bound
           "planted": ob("planted", split(b / 2)),
           # the same claim without the homogeneity instances: true, but not provable from what is cited
           "uncited": ob("uncited", claim(VARS, [q > 0, r > 0, norm(x) <= b, norm(y) <= b,
                                                 axiom("norm_triangle", x=vscale(q, x), y=vscale(r, y))],
                                          norm(vadd(vscale(q, x), vscale(r, y))) <= (q + r) * b)),
           "cs": ob("cs", claim(VARS, [norm(x).eq(1), norm(y) < b, axiom("cauchy_schwarz", x=x, y=y)],
                                abs_(dot(x, y)) < b)),
           "reverse": ob("reverse", claim(VARS, [norm(vsub(x, y)) > b, norm(y) < b / 4,
                                                 axiom("norm_reverse_triangle", x=vsub(x, y), y=y)],
                                          norm(vadd(vsub(x, y), y)) > 3 * b / 4))}
    res = {k: run_obligation(o) for k, o in obs.items()}
    for r_ in res.values():
        atomic_write(path_for(str(out), r_), dumps(build(r_)))
    return out, res


_verify = verify_dir


def test_prover_verdicts_over_vectors(certs):
    _, res = certs
    v = {k: r_.evidence.verdict for k, r_ in res.items()}
    assert v["split"] == v["cs"] == v["reverse"] == Verdict.PROVED
    # false, or true but not from what is cited: never PROVED, and never REFUTED by a point either (no point
    # gives a vector a value); the other methods say why they did not run
    assert v["planted"] == Verdict.UNKNOWN and v["uncited"] == Verdict.UNKNOWN
    assert "vector" in res["planted"].evidence.detail["reason"]


def test_checker_verifies_the_vector_certificates(certs):
    out, _ = certs
    code, text, rep = _verify(out)
    assert code == 0 and all(r_["status"] == "VERIFIED" for r_ in rep), text
    assert "axiom norm_triangle (axiom list v10)" in text and "axiom cauchy_schwarz" in text


def _cert(out, name):
    p = out / "mine" / "vec" / f"v.{name}.json"
    return p, json.loads(p.read_text())


_reseal = reseal


FORGERIES = {
    # a vector variable read as a real
    "vector used as a real": lambda c: c["claim"]["hyps"][2]["expr"].__setitem__(1, ["norm", ["var", "x"]]),
    # a real declared a vector
    "real declared a vector": lambda c: [v.__setitem__("domain", "vec") for v in c["claim"]["vars"] if v["name"] == "q"],
    # norm of a real number
    "norm of a real": lambda c: c["claim"]["hyps"][2].__setitem__("expr", ["le", ["norm", ["var", "b"]], ["var", "b"]]),
    # the triangle inequality cited for a different vector: ||q x + r y|| <= ||q x|| + ||r x||
    "askew citation": lambda c: c["claim"]["hyps"][4]["expr"][2][2][1].__setitem__(2, ["vvar", "x"]),
    # the homogeneity axiom's right side with another vector: ||q x|| = |q| ||y||
    "askew homogeneity": lambda c: c["claim"]["hyps"][5].__setitem__(
        "expr", ["eq", ["norm", ["vscale", ["var", "q"], ["vvar", "x"]]],
                 ["mul", ["abs", ["var", "q"]], ["norm", ["vvar", "y"]]]]),
    # a sampled CONFIRMED 'check' of a vector claim (no point gives a vector a value)
    "sample evidence": lambda c: c.update(verdict="CONFIRMED", method="sample", evidence={
        "kind": "sample", "samples": 1, "seed": 0, "dps": 30, "box": {}, "worst_point": {}, "worst_margin": "1"}),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_checker_rejects_forged_vector_certificates(certs, tmp_path, name):
    out, _ = certs
    p, obj = _cert(out, "split")
    forged = copy.deepcopy(obj)
    FORGERIES[name](forged)
    body = _reseal(forged)
    q_ = tmp_path / "mine" / "vec" / "v.split.json"
    q_.parent.mkdir(parents=True)
    q_.write_text(dumps(body))
    code, text, rep = _verify(tmp_path)
    assert code != 0 and rep and all(r_["status"] != "VERIFIED" for r_ in rep), (name, text)


def test_vector_names_are_compared_not_skipped(certs, tmp_path):
    """The citation matcher compares vector variable names (a vvar leaf is not skipped as a string child):
    ||x + y|| <= ||x|| + ||y|| does not stand for ||x + x|| <= ||x|| + ||y||."""
    out, _ = certs
    p, obj = _cert(out, "split")
    forged = copy.deepcopy(obj)
    hyp = forged["claim"]["hyps"][4]["expr"]
    hyp[1][1][2][2] = ["vvar", "x"]     # the left side's second vector, r y -> r x
    q_ = tmp_path / "mine" / "vec" / "v.split.json"
    q_.parent.mkdir(parents=True)
    q_.write_text(dumps(_reseal(forged)))
    code, text, _ = _verify(tmp_path)
    assert code != 0 and "REJECTED" in text


def test_sort_errors_in_the_prover():
    with pytest.raises(ExprError):
        claim([Var("x", "vec"), Var("q")], [], vadd(x, q) .eq(x))   # a real added to a vector; eq of vectors
    with pytest.raises(ExprError):
        claim([Var("x")], [], norm(x) >= 0)                          # x declared real, used as a vector
    with pytest.raises(ExprError):
        claim([Var("x", "vec")], [], var("x") >= 0)                 # x declared a vector, used as a real
    with pytest.raises(ExprError):
        axiom("norm_scale", c=x, x=x)                                # builds, but the claim's sort check refuses it
        claim([Var("x", "vec")], [axiom("norm_scale", c=x, x=x)], norm(x) >= 0)


def _eval(n, env):
    """A vector axiom's tree at concrete vectors of R^3 (floats): the list's own statements, evaluated."""
    import math

    op = n[0]
    if op in ("var", "vvar"):
        return env[n[1]]
    if op == "num":
        return float(n[1])
    a = [_eval(c, env) for c in n[1:] if isinstance(c, tuple)]
    if op == "vadd":
        return [sum(t) for t in zip(*a)]
    if op == "vscale":
        return [a[0] * t for t in a[1]]
    if op == "norm":
        return math.sqrt(sum(t * t for t in a[0]))
    if op == "lpnorm":   # the l^p norm of R^3 (p = env["p"]), one L^p(nu) norm (nu the counting measure)
        p = env["p"]
        return max(abs(t) for t in a[0]) if p == math.inf else sum(abs(t) ** p for t in a[0]) ** (1 / p)
    if op == "dot":
        return sum(s_ * t for s_, t in zip(*a))
    if op == "add":
        return sum(a)
    if op == "mul":
        return math.prod(a)
    if op == "neg":
        return -a[0]
    if op == "abs":
        return abs(a[0])
    if op == "pow":
        return a[0] ** n[2]
    tol = 1e-9 * (1 + abs(a[0]) + abs(a[1]))
    return {"le": a[0] <= a[1] + tol, "ge": a[0] + tol >= a[1], "eq": abs(a[0] - a[1]) <= tol}[op]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(-9, 9), min_size=3, max_size=3), min_size=3, max_size=3),
       st.fractions(min_value=Fraction(-5), max_value=Fraction(5), max_denominator=7),
       st.sampled_from([1.0, 1.5, 2.0, 3.0, float("inf")]))
def test_the_vector_axioms_hold_on_concrete_vectors(vs, c, p):
    """Every axiom with a vector variable, read from the list and evaluated at random integer vectors of R^3
    and a rational scalar (floats, with a relative margin): the list says nothing false of Euclidean space, nor
    of the l^p norms (p = 1, 1.5, 2, 3, inf) that lpnorm_triangle speaks of."""
    from attncert.core.axioms import axiom_list

    env = {"x": [float(t) for t in vs[0]], "y": [float(t) for t in vs[1]], "z": [float(t) for t in vs[2]], "c": float(c),
           "p": p}
    from attncert.core.axioms import SIDE_RULES

    # vector_identity is a rule (true only for instances that pass its side check): tested above
    vector_axioms = [a for a in axiom_list()[1].values() if "vec" in a.vars.values() and a.name not in SIDE_RULES]
    assert {a.name for a in vector_axioms} == {"norm_nonneg", "norm_scale", "norm_triangle", "norm_reverse_triangle",
                                               "cauchy_schwarz", "dot_self", "lpnorm_triangle", "dot_add", "dot_scale"}
    for a in vector_axioms:
        assert not a.hyps and _eval(a.goal, env), a.name


def test_matchers_keep_sorts_apart():
    """Both matchers (the checker's and the prover's, written apart) send a vector variable only to a vector
    term and a real variable only to a real term."""
    from attncert.checker.verify import _match
    from attncert.core.axioms import bind

    for m in (lambda p, t, cv: _match(p, t, cv, {}), lambda p, t, cv: bind(p, t, cv, set(), {})):
        assert m(("vvar", "x"), ("vvar", "u"), {"x": "vec"})
        assert not m(("vvar", "x"), ("var", "q"), {"x": "vec"})
        assert not m(("var", "c"), ("vvar", "u"), {"c": "real"})
        assert not m(("var", "c"), ("vscale", ("var", "q"), ("vvar", "u")), {"c": "real"})
        assert not m(("vvar", "u"), ("vvar", "w"), {})          # names compared, not skipped
        assert m(("vvar", "u"), ("vvar", "u"), {})


def test_no_derivative_through_a_norm():
    """Attack round 17: ||t x|| = |t| ||x|| has a kink at t = 0, so d/dt ||t x|| is refused as d/dt |t| is, by
    the checker (the reviewer's forged PROVED certificate, tests/adversarial/data/round17/) and by the prover."""
    from pathlib import Path

    from attncert.core.expr import E, node_of

    pytest.importorskip("z3")
    data = Path(__file__).parent / "adversarial" / "data" / "round17"
    code, text, _ = _verify(data)
    assert code != 0 and "REJECTED" in text and "derivative of norm" in text, text
    t = var("t")
    d = ("diff", node_of(norm(vscale(t, x))), "t")
    res = run_obligation(ob("kink", claim([Var("t"), Var("x", "vec")], [t.eq(0)], E(("eq", d, d)))))
    assert res.evidence.verdict == Verdict.UNKNOWN and "derivative of norm" in res.evidence.detail["reason"]


def test_users_state_vector_claims_with_cited_axioms():
    """ac.Claim/ac.prove: a name used as a vector is declared 'vec', and a given may cite an axiom instance."""
    import attncert as ac

    pytest.importorskip("z3")
    u, w, c = ac.vvar("u"), ac.vvar("w"), ac.var("c")
    goal = ac.norm(ac.vadd(u, ac.vscale(c, w))) <= ac.norm(u) + ac.abs_(c) * ac.norm(w)
    cites = [ac.axiom("norm_triangle", x=u, y=ac.vscale(c, w)), ac.axiom("norm_scale", c=c, x=w)]
    assert ac.prove(goal, given=cites).verdict == "PROVED"
    assert ac.prove(goal, given=cites[:1]).verdict == "UNKNOWN"       # homogeneity not cited: not shown
    ob_ = ac.Claim("mine.vec", goal, given=cites)
    assert {v.name: v.domain for v in ob_.claim.vars} == {"u": "vec", "w": "vec", "c": "real"}


def test_vector_identity_rule(tmp_path):
    """||A|| = ||B|| is citable (vector_identity) exactly when A and B are the same linear combination of the
    vector variables: the prover checks it by simplification, the checker by a zero test; a forged citation of
    a wrong identity is REJECTED, and the prover's step over it is UNKNOWN."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    a_, b_ = vadd(vscale(q, x), y), vadd(y, vscale(q, x))                           # q x + y = y + q x
    c_, d_ = vscale(1 / (q + 1), vadd(vscale(q, x), x)), x                           # (q x + x)/(q + 1) = x
    hyps_ok = [q > 0, axiom("vector_identity", x=a_, y=b_), axiom("vector_identity", x=c_, y=d_)]
    good = ob("vid", claim(VARS, hyps_ok, norm(a_) + norm(c_) <= norm(b_) + norm(x)))
    # q x + y against y + 2 q x: not the same combination
    wrong = ob("vid_wrong", claim(VARS, [q > 0, axiom("vector_identity", x=a_, y=vadd(y, vscale(2 * q, x)))],
                                  norm(a_) <= norm(vadd(y, vscale(2 * q, x)))))
    r_good, r_wrong = run_obligation(good), run_obligation(wrong)
    assert r_good.evidence.verdict == Verdict.PROVED
    assert r_wrong.evidence.verdict == Verdict.UNKNOWN and "coefficients of x differ" in r_wrong.evidence.detail["reason"]
    atomic_write(path_for(str(tmp_path / "ok"), r_good), dumps(build(r_good)))
    code, text, _ = _verify(tmp_path / "ok")
    assert code == 0 and "axiom vector_identity" in text, text
    # a forger turns the wrong step into a PROVED certificate with the good step's kind of evidence
    from attncert.core.certificate import build as _b
    forged = _b(r_wrong)
    forged = dict(forged, verdict="PROVED", method="smt", evidence=dict(r_good.evidence.detail))
    atomic_write(str(tmp_path / "bad" / "mine" / "vec" / "v.vid_wrong.json"), dumps(_reseal(forged)))
    code, text, _ = _verify(tmp_path / "bad")
    assert code != 0 and "not the same linear combination" in text, text
