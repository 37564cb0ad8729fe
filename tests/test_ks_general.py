"""Kajitsuka-Sato Lemmas 4 and 5 for every n (proofs/ks_general.py; docs/theorems.md, "General n") and the
pointwise axiom instances they rest on (docs/axioms.md, "Pointwise instances").

- the encoding is the paper's: at random n, b and x, the definitions the roots name (P, Q, L, S over the
  family b, the varying coordinate x) evaluate to boltz, L and S(softmax) of a = (b, x) as
  attncert.papers.ks.boltzmann writes them from (80)-(82), and (83), (97) match numerical derivatives;
- every step is PROVED, both roots verify as closed theorems (Lemma 4 and 5: PROVED), planted constants are
  not PROVED (a plain-real sign step with the wrong threshold is REFUTED by a replayed point);
- pointwise instances: forged citations are rejected by the checker for what they forge, and the prover's and
  the checker's matchers agree on pointwise conditions."""

from __future__ import annotations

import json

import mpmath
import pytest
from forging import verify_dir, verify_forged
from treeval import value
from hypothesis import given, settings, strategies as st

from attncert.api import run_obligation
from attncert.core.axioms import axiom, axiom_at_each
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Obligation, Var, claim
from attncert.core.errors import ExprError
from attncert.core.expr import IDX, at, bsum, exp, forall, free_vars, num, seq, show, var
from attncert.core.verdict import Verdict

pytestmark = pytest.mark.filterwarnings("ignore")


def _obs():
    from attncert.core.families import all_families
    return {o.id: o for f in all_families() if f.name == "ks_general" for o in f.obligations}


def _mp(n, env, i=None):
    """A tree's value in mpmath at a concrete finite sequence b (1-indexed) and real values, ``i`` the index of the
    one big operator around it (tests/treeval.py)."""
    return value(n, env, () if i is None else (i,))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.fractions(-6, 6, max_denominator=8), min_size=1, max_size=6), st.fractions(-6, 6, max_denominator=8))
def test_the_general_encoding_is_the_papers_boltzmann_operator(bs, x0):
    from attncert.papers.ks.boltzmann import boltz, entropy, logsumexp, softmax

    mpmath.mp.dps = 40
    root = _obs()["ks.general.lemma5.conclusion"]
    defs = {h.expr[1][1]: h.expr[2] for h in root.claim.hyps if h.by is None and h.expr[0] == "eq"}
    assert set(defs) == {"P", "Q", "l", "ln", "w", "S"}
    env = {"N": mpmath.mpf(len(bs)), "b": [mpmath.mpf(b.numerator) / b.denominator for b in bs],
           "x": mpmath.mpf(x0.numerator) / x0.denominator}
    for name in ("P", "Q", "l", "ln"):          # in this order: each uses only the ones before
        env[name] = _mp(defs[name], env)
    env["S"] = _mp(defs["S"], env)
    a = [var(f"a{j}") for j in range(len(bs) + 1)]
    aenv = {f"a{j}": v for j, v in enumerate(env["b"] + [env["x"]])}
    paper_boltz = _mp(boltz(a).node, aenv)
    assert mpmath.almosteq(paper_boltz, (env["P"] + env["x"] * mpmath.exp(env["x"])) / (env["Q"] + mpmath.exp(env["x"])), 1e-30)
    assert mpmath.almosteq(env["l"], _mp(logsumexp(a).node, aenv), 1e-30)
    assert mpmath.almosteq(env["ln"], mpmath.log(len(bs) + 1), 1e-30)
    assert mpmath.almosteq(env["S"], _mp(entropy(softmax(a)).node, aenv), 1e-25)
    # (83) and (97) against numerical derivatives of the paper's boltz in its last coordinate
    f = lambda t: _mp(boltz(a).node, dict(aenv, **{f"a{len(bs)}": t}))  # noqa: E731
    p = mpmath.exp(env["x"]) / (env["Q"] + mpmath.exp(env["x"]))
    B = paper_boltz
    assert mpmath.almosteq(mpmath.diff(f, env["x"]), p * (1 + mpmath.log(p) + env["S"]), 1e-15)
    assert mpmath.almosteq(mpmath.diff(f, env["x"], 2), p * ((1 - 2 * p) * (1 + env["x"] - B) + 1), 1e-12)
    # Gibbs' inequality and max <= L, the facts the roots rest on
    assert env["S"] <= env["ln"] + mpmath.mpf(10) ** -30
    assert max(env["b"] + [env["x"]]) <= env["l"]


@pytest.fixture(scope="module")
def general_results(all_results):
    """The verdicts of every ks_general step, as the session's `certify all` computed them (through its cache:
    each obligation is run once per session)."""
    ids = set(_obs())
    got = {r.obligation.id: r for r in all_results if r.obligation.id in ids}
    assert set(got) == ids
    return got


def test_every_general_step_is_proved(general_results):
    bad = {k: r.evidence.detail.get("reason", "") for k, r in general_results.items() if r.verdict != Verdict.PROVED}
    assert not bad, bad


def test_lemmas_4_5_and_6_are_proved_closed(general_results):
    """The theorem closure (the prover's walk over the general steps alone) gives PROVED for the three records (the
    checker's own computation over the committed certificates: tests/test_committed_certificates.py)."""
    from attncert.core.theorems import Closure, theorem_verdict

    from attncert_proofs.theorems import THEOREMS
    recs = {t.id: t for t in THEOREMS}
    results = list(general_results.values())
    closure = Closure({r.obligation.id: r.obligation for r in results}, {r.obligation.id: r.verdict.name for r in results})
    for tid in ("ks.lemma4", "ks.lemma5", "ks.lemma6", "ks.lemma7"):
        verdict, blocking, axioms = theorem_verdict(recs[tid], closure)
        assert verdict == "PROVED", (tid, blocking)
        assert "exp_tangent" in axioms and "sum_mono" in axioms
    assert {"sum_first", "forall_elim"} <= set(theorem_verdict(recs["ks.lemma7"], closure)[2])


def _planted(id_, cl, methods=("smt",)):
    return run_obligation(Obligation(id_, "mine", "t", "t", cl, methods), 120)


def test_planted_constants_are_not_proved():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    obs = _obs()
    sign = obs["ks.general.sign_84"]
    x, ln, M = var("x"), var("ln"), var("M")
    from attncert.core.expr import implies, max_
    # (84) with the threshold log n instead of log n + 1: false (D = p (1 + x - B) can be positive)
    wrong = claim(sign.claim.vars, sign.claim.hyps, implies(x < max_(M, x) - ln, var("D") < 0))
    r = _planted("planted.sign_84", wrong, ("smt", "model"))
    assert r.verdict == Verdict.REFUTED, r.evidence.detail
    # Gibbs with log n halved: not proved (over families only PROVED or UNKNOWN)
    g = obs["ks.general.gibbs"]
    l = var("l")
    P, Q = var("P"), var("Q")
    wrong_g = claim(g.claim.vars, g.claim.hyps, P + x * exp(x) >= (l - ln / 2) * (Q + exp(x)))
    assert _planted("planted.gibbs", wrong_g).verdict == Verdict.UNKNOWN


# ----------------------------------------------------------------------------------- pointwise instances

N_ = var("N")
B_ = at(seq("b"), IDX)
PV = [Var("N"), Var("b", "seq"), Var("c")]


def _pw_claims():
    c = var("c")
    return {
        # sum_i e^{b_i + c} >= sum_i (1 + b_i + c): the tangent line at every index
        "tangent": claim(PV, [axiom_at_each("exp_tangent", N_, x=B_ + c),
                              axiom("forall_mono", N=N_, P=exp(B_ + c) >= 1 + (B_ + c), Q=1 + (B_ + c) <= exp(B_ + c)),
                              axiom("sum_mono", N=N_, f=1 + (B_ + c), g=exp(B_ + c))],
                         bsum(N_, 1 + (B_ + c)) <= bsum(N_, exp(B_ + c))),
        # exp_lt at every index, its condition given at every index
        "strict": claim(PV, [forall(N_, B_ < B_ + c), axiom_at_each("exp_lt", N_, x=B_, y=B_ + c)],
                        forall(N_, exp(B_) < exp(B_ + c))),
    }


@pytest.fixture(scope="module")
def pw_certs(tmp_path_factory):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    out = tmp_path_factory.mktemp("pw")
    res = {}
    for k, cl in _pw_claims().items():
        r = run_obligation(Obligation(f"pw.{k}", "mine", "t", k, cl, ("smt",), family="pw"), 60)
        res[k] = r
        atomic_write(path_for(str(out), r), dumps(build(r)))
    return out, res


def test_pointwise_instances_prove_and_verify(pw_certs):
    out, res = pw_certs
    assert all(r.verdict == Verdict.PROVED for r in res.values()), {k: r.evidence.detail for k, r in res.items()}
    code, text, _ = verify_dir(out)
    assert code == 0, text


def _cert(out, k):
    return json.loads((out / "mine" / "pw" / f"pw.{k}.json").read_text())


WHY = {"condition dropped": "exp_lt", "condition at one index only": "exp_lt", "bound changed": "exp_lt",
       "a family axiom pointwise": "not an instance of axiom sum_mono", "another tangent": "not an instance"}
FORGERIES = {
    # exp_lt's condition b_i < b_i + c removed: it must then follow, at every index, from nothing
    "condition dropped": ("strict", lambda c: c["claim"]["hyps"].pop(0)),
    # the condition stated outside the forall (at no particular index): not the condition at every index
    "condition at one index only": ("strict", lambda c: c["claim"]["hyps"].__setitem__(0, {"expr": ["lt", ["var", "c"], ["mul", ["num", "2"], ["var", "c"]]]})),
    # the instance's bound N replaced by c (the condition holds for N indices, not for c)
    "bound changed": ("strict", lambda c: (c["claim"]["hyps"][1]["expr"].__setitem__(1, ["var", "c"]),
                                           c["claim"].__setitem__("goal", ["forall", ["var", "c"], c["claim"]["goal"][2]]))),
    # sum_mono (a family axiom, with a big operator) cited inside a forall: never pointwise
    "a family axiom pointwise": ("tangent", lambda c: c["claim"]["hyps"][2].__setitem__("expr", ["forall", ["var", "N"], c["claim"]["hyps"][2]["expr"]])),
    # the tangent line at the index with a false constant: e^u >= 2 + u
    "another tangent": ("tangent", lambda c: c["claim"]["hyps"][0]["expr"][2][2].__setitem__(1, ["num", "2"])),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_checker_rejects_forged_pointwise_citations(pw_certs, tmp_path, name):
    out, _ = pw_certs
    which, edit = FORGERIES[name]
    code, text, rep = verify_forged(_cert(out, which), edit, tmp_path, f"mine/pw/pw.{which}.json")
    assert code != 0 and all(r_["status"] != "VERIFIED" for r_ in rep), (name, text)
    assert WHY[name] in text, (name, text)


def test_a_family_axiom_cannot_be_cited_pointwise():
    with pytest.raises(ExprError):
        axiom_at_each("sum_mono", N_, N=N_, f=B_, g=B_)
    with pytest.raises(ExprError):
        axiom_at_each("norm_triangle", N_, x=var("x"), y=var("y"))


def test_both_matchers_agree_on_pointwise_conditions():
    """The prover's conditions() and the checker's check_instance read a pointwise citation the same way: the
    same derived conditions, each a forall over the instance's bound."""
    from attncert.checker import axioms as checker_axioms, verify as V
    from attncert.checker.trees import parse
    from attncert.core.axioms import conditions
    from attncert.core.expr import to_json

    c = var("c")
    for name, terms in (("exp_lt", dict(x=B_, y=B_ + c)), ("exp_le", dict(x=B_ * c, y=num(1))),
                        ("exp_le_rev", dict(x=B_, y=c)), ("exp_tangent", dict(x=B_ - c))):
        cl = claim(PV, [axiom_at_each(name, N_, **terms)], num(0) <= num(1))
        _, mine = conditions(cl, 0)
        parsed = [parse(to_json(h.expr)) for h in cl.hyps]
        doms = {v.name: v.domain for v in cl.vars}
        _, theirs = checker_axioms.check_instance(name, parsed, 0, doms, V._match, V._subst, V._mark_int_vars, V._unmark)
        assert [to_json(m) for m in mine] == [to_json(t) for t in theirs], name
        assert all(m[0] == "forall" and m[1] == ("var", "N") for m in mine)


# ----------------------------------------------------------------------------------- Lemma 7 for every n

def _sorted_separated(draw_gaps, top):
    """A decreasing vector from its first entry and its gaps."""
    out = [top]
    for g in draw_gaps:
        out.append(out[-1] - g)
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n - 1),
    st.lists(st.fractions(0, 4, max_denominator=4), min_size=n, max_size=n),   # extra gaps of a, beyond delta
    st.lists(st.fractions(0, 4, max_denominator=4), min_size=n, max_size=n),   # of b
    st.fractions(-3, 3, max_denominator=4), st.fractions(0, 3, max_denominator=4))))
def test_lemma_7_roots_state_117_for_the_papers_boltzmann_operator(data):
    """At random decreasing, delta-separated a, b in R^n sharing their first k entries (delta just above
    2 log n + 3): the block encoding of each root (b(1..k), x, d) evaluates to the paper's boltz of the whole
    vector, every plain hypothesis of the root holds, and so does its goal, (117)."""
    from attncert.papers.ks.boltzmann import boltz

    n, k, ga, gb, top, extra = data
    mpmath.mp.dps = 40
    delta = 2 * mpmath.log(n) + 3 + mpmath.mpf(extra.numerator) / extra.denominator + mpmath.mpf(1) / 8
    q = lambda f: mpmath.mpf(f.numerator) / f.denominator  # noqa: E731
    a = _sorted_separated([delta + q(g) + mpmath.mpf(1) / 16 for g in ga[:n - 1]], q(top))
    # b: the same first k entries, then b_{k+1} < a_{k+1} - delta, decreasing and separated
    bk1 = a[k] - delta - q(gb[0]) - mpmath.mpf(1) / 16
    b = a[:k] + _sorted_separated([delta + q(g) + mpmath.mpf(1) / 16 for g in gb[1:n - k]], bk1)
    obs = _obs()
    if k >= 1:
        root = obs["ks.general.lemma7.conclusion_117.k_ge_1"]
        env = {"N": mpmath.mpf(k), "M": mpmath.mpf(n - k - 1), "b": a[:k], "x": a[k], "y": b[k], "d": a[k + 1:],
               "e": b[k + 1:], "delta": delta}
    else:
        root = obs["ks.general.lemma7.k0.conclusion_117"]
        env = {"M": mpmath.mpf(n - 1), "x": a[0], "y": b[0], "d": a[1:], "e": b[1:], "delta": delta}
    defs = [h.expr for h in root.claim.hyps if h.by is None and h.expr[0] == "eq" and h.expr[1][0] == "var"]
    todo = list(defs)
    while todo:      # the definitions, each once the names it uses are known
        h = next(h for h in todo if all(v in env for v in free_vars(h[2])))
        env[h[1][1]] = _mp(h[2], env)
        todo.remove(h)

    def holds(f):
        if f[0] == "forall":
            N = int(_mp(f[1], env))
            return all(holds_at(f[2], i) for i in range(1, N + 1))
        return _rel(f, lambda t: _mp(t, env))

    def holds_at(f, i):
        return _rel(f, lambda t: _mp(t, env, i))

    for h in root.claim.hyps:
        if h.by is None and h.expr not in defs:
            assert holds(h.expr), (show(h.expr), n, k)
    va = {f"a{j}": v for j, v in enumerate(a)}
    vb = {f"a{j}": v for j, v in enumerate(b)}
    xs = [var(f"a{j}") for j in range(n)]
    goal = root.claim.goal
    lhs = goal[1][1]   # abs(boltz(a) - boltz(b))
    assert mpmath.almosteq(_mp(lhs[1], env), _mp(boltz(xs).node, va), 1e-25)
    assert mpmath.almosteq(_mp(lhs[2][1], env), _mp(boltz(xs).node, vb), 1e-25)
    assert holds(goal), (n, k)
    # (117) itself, on the paper's operator: |boltz(a) - boltz(b)| > (log n)^2 e^{-(a_1 - b_{k+1})}
    assert abs(_mp(boltz(xs).node, va) - _mp(boltz(xs).node, vb)) > mpmath.log(n) ** 2 * mpmath.exp(-(a[0] - b[k]))


def _rel(f, val):
    op = f[0]
    if op == "and":
        return all(_rel(c, val) for c in f[1:])
    x, y = val(f[1]), val(f[2])
    return {"lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y, "eq": mpmath.almosteq(x, y, 1e-25)}[op]


def test_lemma_7_planted_constants_are_not_proved():
    """The last step with (log n)^2 tripled, and tail_raise without t0 <= Bbar - 1 (lowering entries far
    above the average minus 1 can lower it): neither is PROVED."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    obs = _obs()
    core = obs["ks.general.lemma7.core_128"]
    g = core.claim.goal
    from attncert.core.expr import E
    wrong = claim(core.claim.vars, core.claim.hyps, E(g[1]) > 3 * E(g[2]))
    assert _planted("planted.core_128", wrong, ("smt", "model")).verdict != Verdict.PROVED
    raise_ = obs["ks.general.lemma7.tail_raise"]
    hyps = [h for h in raise_.claim.hyps if not (h.by is None and show(h.expr) == "t0 <= (Bbar - 1)")]
    assert len(hyps) == len(raise_.claim.hyps) - 1
    assert _planted("planted.tail_raise", claim(raise_.claim.vars, hyps, raise_.claim.goal)).verdict == Verdict.UNKNOWN
