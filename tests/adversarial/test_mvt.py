"""The monotonicity rule ('by': 'mvt:ID', the mean value theorem; docs/axioms.md) and links whose cited
variables the goal leaves free. Forged certificates: a correct use verifies; every broken condition
(direction, order of the endpoints, a plain hypothesis on x, a cited step that is not PROVED, a missing
carried hypothesis, an endpoint where f is undefined) leaves the citing certificate unverified. The
prover's closure is checked on the same cases."""

from __future__ import annotations

import pytest

from .forge import cert, claim, num, op, var, write
from .test_forged_certificates import id_ev, needs_solvers, smt_ev, verify

x, u, w = var("x"), var("u"), var("w")


def _prover_constants():
    from fractions import Fraction

    from attncert.core.expr import E, num as pn

    half = pn(Fraction(1, 2))
    m1 = pn(-1)
    h_m1 = E(("add", ("mul", half.node, m1.node, m1.node), ("neg", m1.node)))   # h(-1), written as in the forgery
    return half, E(("diff", h_m1.node, "y"))
SQ = lambda t: op("mul", t, t)  # noqa: E731
D_SQ = op("diff", SQ(x), "x")


def _sources(tmp_path, extra_hyp=None, sign="gt"):
    """d/dx x^2 = x + x (identity) and, for u > 0 and u < x < w, d/dx x^2 > 0 (smt)."""
    dc = claim(["x"], [], op("eq", D_SQ, op("add", x, x)))
    d = cert("mvt.dsq", dc, id_ev(dc))
    hyps = [op("gt", x, u), op("lt", x, w), op("gt", u, num(0)), (op("eq", D_SQ, op("add", x, x)), "mvt.dsq")]
    if extra_hyp is not None:
        hyps.append(extra_hyp)
    goal = op(sign, D_SQ, num(0))
    cc = claim(["x", "u", "w"], hyps, goal)
    return [write(tmp_path, d), write(tmp_path, cert("mvt.inc", cc, smt_ev(cc)))]


def _citing(tmp_path, hyps, goal, cid="mvt.use"):
    c = claim(["u", "w"], hyps, goal)
    return write(tmp_path, cert(cid, c, smt_ev(c)))


GOOD = op("lt", SQ(u), SQ(w))


def test_a_correct_use_verifies(tmp_path):
    needs_solvers()
    paths = _sources(tmp_path) + [_citing(tmp_path, [op("gt", u, num(0)), op("lt", u, w), (GOOD, "mvt:mvt.inc")], GOOD)]
    code, text = verify(paths)
    assert code == 0 and "mean value theorem" in text, text


@pytest.mark.parametrize("name,hyps,goal", [
    # the conclusion in the wrong direction: f(U) < f(L) from f' > 0
    ("direction", [op("gt", u, num(0)), op("lt", u, w), (op("lt", SQ(w), SQ(u)), "mvt:mvt.inc")], op("lt", SQ(w), SQ(u))),
    # L < U not shown: the interval may be empty or reversed
    ("no_order", [op("gt", u, num(0)), (GOOD, "mvt:mvt.inc")], GOOD),
    # L < U only after the citation: the conditions must follow from the hypotheses before it
    ("order_later", [op("gt", u, num(0)), (GOOD, "mvt:mvt.inc"), op("lt", u, w)], GOOD),
    # the cited claim's plain hypothesis u > 0 is not carried
    ("not_carried", [op("lt", u, w), (GOOD, "mvt:mvt.inc")], GOOD),
])
def test_a_broken_use_is_not_verified(tmp_path, name, hyps, goal):
    needs_solvers()
    code, text = verify(_sources(tmp_path) + [_citing(tmp_path, hyps, goal)])
    assert code == 1 and "CONDITIONAL" in text and "mvt.use" in text, text


def test_endpoints_are_instances_of_L_and_U(tmp_path):
    """U = w may be instantiated by any term (w + 1 here: a valid instance, verified); but where the cited
    interval is (u, u + 1), f(u + 2) is not f(U) for the instance that gives f(L) = f(u)."""
    needs_solvers()
    w1 = op("add", w, num(1))
    h = op("lt", SQ(u), SQ(w1))
    code, text = verify(_sources(tmp_path) + [_citing(tmp_path, [op("gt", u, num(0)), op("lt", u, w), (h, "mvt:mvt.inc")], h)])
    assert code == 0, text
    dc = claim(["x"], [], op("eq", D_SQ, op("add", x, x)))
    cc = claim(["x", "u"], [op("gt", x, u), op("lt", x, op("add", u, num(1))), op("gt", u, num(0)),
                            (op("eq", D_SQ, op("add", x, x)), "mvt.dsq")], op("gt", D_SQ, num(0)))
    paths = [write(tmp_path, cert("mvt.dsq", dc, id_ev(dc))), write(tmp_path, cert("mvt.inc", cc, smt_ev(cc)))]
    h2 = op("lt", SQ(u), SQ(op("add", u, num(2))))
    c = claim(["u"], [op("gt", u, num(0)), (h2, "mvt:mvt.inc")], h2)
    code, text = verify(paths + [write(tmp_path, cert("mvt.use", c, smt_ev(c)))])
    assert code == 1 and "points other than L and U" in text, text


def test_a_plain_hypothesis_on_x_breaks_the_shape(tmp_path):
    """x^2 < 1 restricts x inside (u, w): the derivative bound is not known on the whole interval."""
    needs_solvers()
    paths = _sources(tmp_path, extra_hyp=op("lt", SQ(x), num(1)))
    paths.append(_citing(tmp_path, [op("gt", u, num(0)), op("lt", u, w), (GOOD, "mvt:mvt.inc")], GOOD))
    code, text = verify(paths)
    assert code == 1 and "exactly one plain hypothesis" in text, text


def test_a_cited_step_that_is_not_proved_gives_nothing(tmp_path):
    needs_solvers()
    paths = _sources(tmp_path)
    cc = claim(["x", "u", "w"], [op("gt", x, u), op("lt", x, w), op("gt", u, num(0))], op("gt", D_SQ, num(0)))
    paths[1] = write(tmp_path, cert("mvt.inc", cc, {"kind": "none", "reason": "not decided"}, verdict="UNKNOWN"))
    paths.append(_citing(tmp_path, [op("gt", u, num(0)), op("lt", u, w), (GOOD, "mvt:mvt.inc")], GOOD))
    code, text = verify(paths)
    assert code == 1 and "which is UNKNOWN" in text, text


def test_f_undefined_at_an_endpoint(tmp_path):
    """f = -1/x has f' = 1/x^2 > 0 on (u, w) for u >= 0, but f(0) is undefined: -1/u < -1/w is not
    established for u = 0 (the citing certificate is not verified)."""
    needs_solvers()
    f = op("neg", op("div", num(1), x))
    df = op("diff", f, "x")
    dc = claim(["x", "u"], [op("gt", x, u), op("ge", u, num(0))], op("eq", df, op("div", num(1), SQ(x))))
    cc = claim(["x", "u", "w"], [op("gt", x, u), op("lt", x, w), op("ge", u, num(0)),
                                 (op("eq", df, op("div", num(1), SQ(x))), "mvt.d")],
               op("gt", df, num(0)))
    paths = [write(tmp_path, cert("mvt.d", dc, id_ev(dc))), write(tmp_path, cert("mvt.inc", cc, smt_ev(cc)))]
    h = op("lt", op("neg", op("div", num(1), u)), op("neg", op("div", num(1), w)))
    paths.append(_citing(tmp_path, [op("ge", u, num(0)), op("lt", u, w), (h, "mvt:mvt.inc")], h))
    code, text = verify(paths)
    assert code == 1 and "REJECTED" in text and "mvt.use" in text, text  # its own definedness query fails
    # u > 0 only after the citation: the certificate's own queries pass, the rule's condition does not
    paths[-1] = _citing(tmp_path, [op("ge", u, num(0)), op("lt", u, w), (h, "mvt:mvt.inc"), op("gt", u, num(0))], h)
    code, text = verify(paths)
    assert code == 1 and "CONDITIONAL" in text and "f defined at L and U" in text, text


def test_a_middle_variable_is_fixed_by_the_cited_hypotheses(tmp_path):
    """p < q, q < r => p < r: q is not in the goal; the link binds it from the citing hypotheses."""
    needs_solvers()
    p, q, r, a, b, c = (var(n) for n in "pqrabc")
    tc = claim(["p", "q", "r"], [op("lt", p, q), op("lt", q, r)], op("lt", p, r))
    t = write(tmp_path, cert("mvt.trans", tc, smt_ev(tc)))
    ok = claim(["a", "b", "c"], [op("lt", a, b), op("lt", b, c), (op("lt", a, c), "mvt.trans")], op("lt", a, c))
    code, text = verify([t, write(tmp_path, cert("mvt.chain", ok, smt_ev(ok)))])
    assert code == 0, text
    bad = claim(["a", "b", "c"], [op("lt", a, b), (op("lt", a, c), "mvt.trans")], op("lt", a, c))
    code, text = verify([t, write(tmp_path, cert("mvt.chain", bad, smt_ev(bad)))])
    assert code == 1 and "CONDITIONAL" in text, text


# ----------------------------------------------------------------------------- the prover's closure


def _prover_obligations(citing_hyps):
    from attncert.core.claims import Hyp, Obligation, claim as p_claim
    from attncert.core.expr import diff, var as pv
    from attncert.core.theorems import Closure

    X, U, W = pv("x"), pv("u"), pv("w")
    d = Obligation("p.d", "test", "t", "t", p_claim(["x"], [], diff(X * X, X).eq(X + X)), ("identity",))
    inc = Obligation("p.inc", "test", "t", "t",
                     p_claim(["x", "u", "w"], [X > U, X < W, U > 0, Hyp(diff(X * X, X).eq(X + X).node, "p.d")],
                             diff(X * X, X) > 0), ("smt",))
    hyps = citing_hyps(inc, U, W)
    use = Obligation("p.use", "test", "t", "t", p_claim(["u", "w"], hyps, U * U < W * W), ("smt",))
    obs = {o.id: o for o in (d, inc, use)}
    return Closure(obs, {k: "PROVED" for k in obs})


def test_the_prover_closure_agrees():
    pytest.importorskip("z3")
    from attncert.core.claims import Hyp
    from attncert.core.theorems import mvt_hyp

    good = _prover_obligations(lambda inc, U, W: [U > 0, U < W, mvt_hyp(inc, u=U, w=W)])
    assert good.why("p.use") == []
    no_order = _prover_obligations(lambda inc, U, W: [U > 0, mvt_hyp(inc, u=U, w=W)])
    assert any("mean value theorem" in r for r in no_order.why("p.use"))
    wrong = _prover_obligations(lambda inc, U, W: [U > 0, U < W, Hyp((W * W < U * U).node, "mvt:p.inc")])
    assert wrong.why("p.use")
    uncarried = _prover_obligations(lambda inc, U, W: [U < W, mvt_hyp(inc, u=U, w=W)])
    assert any("is not a hypothesis" in r for r in uncarried.why("p.use"))


def test_a_derivative_in_a_carried_hypothesis_keeps_its_meaning(tmp_path):
    """Attack round 11: the cited claim carries h'(y) = 0 (so y = 1) and proves d/dx (x y) > 0 on (0, 1); the
    rule instantiated at y := -1 turned the carried h'(y) = 0 into d/dy h(-1) = 0 (a constant's derivative,
    true) and derived 0 < -1, so 1 < 0 verified. Now the instance is refused (checker and prover)."""
    needs_solvers()
    y = var("y")
    h = lambda t: op("add", op("mul", num("1/2"), t, t), op("neg", t))  # noqa: E731  h(y) = y^2/2 - y
    Dh = lambda t: op("diff", h(t), "y")  # noqa: E731
    fx = op("mul", x, y)
    c1 = claim(["y"], [], op("eq", Dh(y), op("add", y, num(-1))))
    c2 = claim(["x", "y"], [], op("eq", op("diff", fx, "x"), y))
    c3 = claim(["y"], [], op("eq", Dh(num(-1)), num(0)))
    cd = claim(["x", "y"], [op("gt", x, num(0)), op("lt", x, num(1)), op("eq", Dh(y), num(0)),
                            (op("eq", Dh(y), op("add", y, num(-1))), "a.i1"), (op("eq", op("diff", fx, "x"), y), "a.i2")],
               op("gt", op("diff", fx, "x"), num(0)))
    m1 = num(-1)
    ce = claim(["y"], [(op("eq", Dh(m1), num(0)), "a.i3"),
                       (op("lt", op("mul", num(0), m1), op("mul", num(1), m1)), "mvt:a.D")], op("lt", num(1), num(0)))
    paths = [write(tmp_path, cert("a.i1", c1, id_ev(c1))), write(tmp_path, cert("a.i2", c2, id_ev(c2))),
             write(tmp_path, cert("a.i3", c3, id_ev(c3))), write(tmp_path, cert("a.D", cd, smt_ev(cd))),
             write(tmp_path, cert("a.E", ce, smt_ev(ce)))]
    code, text = verify(paths)
    assert code == 1 and "CONDITIONAL" in text and "moves a derivative's variable" in text, text

    from attncert.core.claims import Hyp, Obligation, claim as p_claim
    from attncert.core.expr import diff, num as pn, var as pv
    from attncert.core.theorems import Closure

    F_HALF, E_DIFF_CONST = _prover_constants()
    X, Y = pv("x"), pv("y")
    H = lambda t: t * t * F_HALF - t  # noqa: E731
    i1 = Obligation("a.i1", "t", "t", "t", p_claim(["y"], [], diff(H(Y), Y).eq(Y - 1)), ("identity",))
    i2 = Obligation("a.i2", "t", "t", "t", p_claim(["x", "y"], [], diff(X * Y, X).eq(Y)), ("identity",))
    i3 = Obligation("a.i3", "t", "t", "t", p_claim(["y"], [], E_DIFF_CONST.eq(0)), ("identity",))
    d = Obligation("a.D", "t", "t", "t", p_claim(["x", "y"], [X > 0, X < 1, diff(H(Y), Y).eq(0),
                                                            Hyp(diff(H(Y), Y).eq(Y - 1).node, "a.i1"),
                                                            Hyp(diff(X * Y, X).eq(Y).node, "a.i2")],
                                                 diff(X * Y, X) > 0), ("smt",))
    e = Obligation("a.E", "t", "t", "t", p_claim(["y"], [Hyp(E_DIFF_CONST.eq(0).node, "a.i3"),
                                                         Hyp((pn(0) * pn(-1) < pn(1) * pn(-1)).node, "mvt:a.D")],
                                                 pn(1) < pn(0)), ("smt",))
    obs = {o.id: o for o in (i1, i2, i3, d, e)}
    assert any("moves a derivative" in r for r in Closure(obs, {k: "PROVED" for k in obs}).why("a.E"))


# ----------------------------------------------------------------------------- proof by cases ('cases:POS,NEG')

a_, b_ = var("a"), var("b")
ABS_GE = op("ge", op("abs", a_), a_)  # |a| >= a


def _case_certs(tmp_path, pos_case=None, neg_case=None, pos_extra=(), pos_goal=ABS_GE):
    pc = claim(["a"], [pos_case or op("ge", a_, num(0)), *pos_extra], pos_goal)
    nc = claim(["a"], [neg_case or op("le", a_, num(0))], ABS_GE)
    return [write(tmp_path, cert("c.pos", pc, smt_ev(pc))), write(tmp_path, cert("c.neg", nc, smt_ev(nc)))]


def _use(tmp_path, hyps, goal=ABS_GE):
    c = claim(["a", "b"], hyps, goal)
    return write(tmp_path, cert("c.use", c, smt_ev(c)))


def test_a_case_split_verifies(tmp_path):
    needs_solvers()
    code, text = verify(_case_certs(tmp_path) + [_use(tmp_path, [(ABS_GE, "cases:c.pos,c.neg")])])
    assert code == 0, text


@pytest.mark.parametrize("name,pos_case,neg_case,pos_extra", [
    # the cases do not cover the line: a >= 1 and a <= 0 leave (0, 1) out
    ("gap", op("ge", op("add", a_, num(-1)), num(0)), None, ()),
    # the case term is not a polynomial: 1/a is undefined at 0 (neither case holds there)
    ("not_polynomial", op("ge", op("div", num(1), a_), num(0)), op("le", op("div", num(1), a_), num(0)), ()),
    # both cases on the same side
    ("same_side", None, op("ge", a_, num(0)), ()),
    # a plain hypothesis of one case that the citing claim does not have
    ("extra_plain", None, None, (op("gt", a_, num(5)),)),
])
def test_a_broken_case_split_is_not_verified(tmp_path, name, pos_case, neg_case, pos_extra):
    needs_solvers()
    paths = _case_certs(tmp_path, pos_case, neg_case, pos_extra)
    code, text = verify(paths + [_use(tmp_path, [(ABS_GE, "cases:c.pos,c.neg")])])
    assert code == 1 and "CONDITIONAL" in text and "c.use" in text, text


def test_a_case_split_with_one_case_missing_or_named_twice(tmp_path):
    needs_solvers()
    paths = _case_certs(tmp_path)
    for src in ("cases:c.pos,c.pos", "cases:c.pos,c.none", "cases:c.pos"):
        code, text = verify(paths + [_use(tmp_path, [(ABS_GE, src)])])
        assert code == 1 and "CONDITIONAL" in text, (src, text)


def test_the_prover_closure_agrees_on_case_splits():
    pytest.importorskip("z3")
    from attncert.core.claims import Obligation, claim as p_claim
    from attncert.core.expr import abs_ as pabs, var as pv
    from attncert.core.theorems import Closure, cases_hyp

    A = pv("a")

    def run(pos_case, neg_case):
        pos = Obligation("c.pos", "t", "t", "t", p_claim(["a"], [pos_case], pabs(A) >= A), ("smt",))
        neg = Obligation("c.neg", "t", "t", "t", p_claim(["a"], [neg_case], pabs(A) >= A), ("smt",))
        use = Obligation("c.use", "t", "t", "t", p_claim(["a"], [cases_hyp(pos, neg)], pabs(A) >= A), ("smt",))
        obs = {o.id: o for o in (pos, neg, use)}
        return Closure(obs, {k: "PROVED" for k in obs}).why("c.use")

    assert run(A >= 0, A <= 0) == []
    assert run(A - 1 >= 0, A <= 0)                # a gap
    assert run(1 / A >= 0, 1 / A <= 0)            # not a polynomial


# ------------------------------------------------------------------ definitions in the cited claim (docs/axioms.md)


def _with_defs(tmp_path, extra):
    """The cited claim of _sources with extra plain hypotheses (definitions v = t(x), or not)."""
    dc = claim(["x"], [], op("eq", D_SQ, op("add", x, x)))
    d = cert("mvt.dsq", dc, id_ev(dc))
    hyps = [op("gt", x, u), op("lt", x, w), op("gt", u, num(0))] + extra + [(op("eq", D_SQ, op("add", x, x)), "mvt.dsq")]
    names = sorted({"x", "u", "w"} | {n for h in extra for n in ("v", "t") if n in repr(h)})
    cc = claim(names, hyps, op("gt", D_SQ, num(0)))
    return [write(tmp_path, d), write(tmp_path, cert("mvt.inc", cc, smt_ev(cc)))]


V_, T_ = var("v"), var("t")


@pytest.mark.parametrize("name,extra,ok", [
    # v = x + x defines v from x: at each x its witness satisfies it, so the rule still applies
    ("definition", [op("eq", V_, op("add", x, x))], True),
    # a chain of definitions: t = v + 1 after v = x x
    ("chain", [op("eq", V_, SQ(x)), op("eq", T_, op("add", V_, num(1)))], True),
    # v = x x with v < 1: the defined variable restricts x (only |x| < 1 is covered)
    ("constrains x", [op("eq", V_, SQ(x)), op("lt", V_, num(1))], False),
    # v defined twice: no definition at all, and both mention x
    ("twice", [op("eq", V_, SQ(x)), op("eq", V_, op("add", x, x))], False),
    # v and t defined from each other (and x): a cycle, no definitions
    ("cycle", [op("eq", V_, op("add", x, T_)), op("eq", T_, op("add", V_, num(1)))], False),
])
def test_definitions_in_the_cited_claim(tmp_path, name, extra, ok):
    needs_solvers()
    paths = _with_defs(tmp_path, extra)
    paths.append(_citing(tmp_path, [op("gt", u, num(0)), op("lt", u, w), (GOOD, "mvt:mvt.inc")], GOOD))
    code, text = verify(paths)
    if ok:
        assert code == 0, (name, text)
    else:
        assert code == 1 and "exactly one plain hypothesis" in text, (name, text)


def test_the_prover_reads_definitions_alike():
    from attncert.core.expr import var as pv
    from attncert.core.theorems import definitions

    X, V, T = pv("x"), pv("v"), pv("t")
    doms = {"x": "real", "v": "real", "t": "real", "u": "real"}
    assert set(definitions([V.eq(X * X).node, T.eq(V + 1).node], "x", doms, {"x", "u"})) == {"v", "t"}
    assert definitions([V.eq(X * X).node, V.eq(X + X).node], "x", doms, {"x"}) == {}
    assert definitions([V.eq(X + T).node, T.eq(V + 1).node], "x", doms, {"x"}) == {}
    assert definitions([V.eq(X * X).node], "x", doms, {"x", "v"}) == {}          # v is used by f, L or U
    assert definitions([V.eq(pv("u") + 1).node], "x", doms, {"x"}) == {}         # not defined from x
