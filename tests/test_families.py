"""Indexed families in the expression language (docs/axioms.md, "Indexed families"): sequences, at, and the
big operators sum, bmax, bmin and forall over the integers 1..N, with ("idx",) the index of the innermost one.
They are opaque atoms in both SMT translations; a step over them is PROVED only from cited axiom instances
(the finite-sum and finite-max/min facts, and the pointwise rules forall_intro and forall_mono, whose
condition is shown by SMT with the index a fresh real). Never sampled, never refuted by a point; the checker
rejects every misplaced index, every partial body and every forged citation."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from forging import SAMPLE_EVIDENCE, reseal, verify_dir, verify_forged
from hypothesis import given, settings, strategies as st

from attncert.api import run_obligation
from attncert.core.axioms import axiom
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Obligation, Var, claim
from attncert.core.errors import ExprError
from attncert.core.expr import IDX, abs_, and_, at, bmax, bmin, bsum, forall, log, num, seq, var
from attncert.core.verdict import Verdict

pytestmark = pytest.mark.filterwarnings("ignore")
T, E = var("T"), var("E")
A, G = at(seq("a"), IDX), at(seq("g"), IDX)
VARS = [Var("T"), Var("E"), Var("a", "seq"), Var("g", "seq")]
D = abs_(A - G)


def gap_hyps(bound):
    """|min a - min g| <= bound from forall |a - g| <= bound: a >= g - bound >= min g - bound pointwise, so
    min a >= min g - bound (and the same with a and g exchanged)."""
    out = [T >= 1, forall(T, D <= bound)]
    for x, y in ((G, A), (A, G)):
        out += [axiom("bmin_lower", N=T, f=x),
                axiom("forall_and", N=T, P=D <= bound, Q=bmin(T, x) <= x),
                axiom("forall_mono", N=T, P=and_(D <= bound, bmin(T, x) <= x), Q=bmin(T, x) - bound <= y),
                axiom("bmin_greatest", N=T, f=y, c=bmin(T, x) - bound)]
    return out


def ob(id_, cl):
    return Obligation(id=f"f.{id_}", paper="mine", ref="t", statement=id_, claim=cl,
                      methods=("smt", "model", "probe"), family="fam")


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    out = tmp_path_factory.mktemp("fam")
    gap = abs_(bmin(T, A) - bmin(T, G))
    obs = {"gap": ob("gap", claim(VARS, gap_hyps(E), gap <= E)),
           # a planted wrong constant: half the bound
           "planted": ob("planted", claim(VARS, gap_hyps(E), gap <= E / 2)),
           # true, but one side's minimum bound is not cited
           "uncited": ob("uncited", claim(VARS, gap_hyps(E)[:6], gap <= E)),
           # a false pointwise rule: |a - g| <= E does not give |a - g| <= E/2 at each index
           "badmono": ob("badmono", claim(VARS, [T >= 1, forall(T, D <= E),
                                                 axiom("forall_mono", N=T, P=D <= E, Q=D <= E / 2)],
                                          forall(T, D <= E / 2))),
           # sums: sum_i lam(i) f(i) <= sum_i lam(i) from 0 <= f <= 1 and lam > 0 pointwise
           "sum": ob("sum", claim(VARS + [Var("lam", "seq")],
                                  [forall(T, and_(and_(num(0) <= A, A <= 1), num(0) < at(seq("lam"), IDX))),
                                   axiom("forall_mono", N=T, P=and_(and_(num(0) <= A, A <= 1), num(0) < at(seq("lam"), IDX)),
                                         Q=at(seq("lam"), IDX) * A <= at(seq("lam"), IDX)),
                                   axiom("sum_mono", N=T, f=at(seq("lam"), IDX) * A, g=at(seq("lam"), IDX))],
                                  bsum(T, at(seq("lam"), IDX) * A) <= bsum(T, at(seq("lam"), IDX))))}
    res = {k: run_obligation(o) for k, o in obs.items()}
    for r_ in res.values():
        atomic_write(path_for(str(out), r_), dumps(build(r_)))
    return out, res


_verify = verify_dir


def test_prover_verdicts_over_families(certs):
    _, res = certs
    v = {k: r_.evidence.verdict for k, r_ in res.items()}
    assert v["gap"] == v["sum"] == Verdict.PROVED
    # false, or true but not from what is cited, or resting on a false pointwise rule: never PROVED, and
    # never REFUTED by a point either (no point gives a sequence or a big operator a value)
    assert v["planted"] == v["uncited"] == v["badmono"] == Verdict.UNKNOWN
    assert "big operators" in res["planted"].evidence.detail["reason"]
    assert "forall_mono" in res["badmono"].evidence.detail["reason"]


def test_checker_verifies_the_family_certificates(certs):
    out, _ = certs
    code, text, rep = _verify(out)
    assert code == 0, text
    status = {r_["path"].rsplit("/", 1)[-1]: r_["status"] for r_ in rep}
    assert status["f.gap.json"] == status["f.sum.json"] == "VERIFIED"
    assert "axiom bmin_greatest (axiom list v10)" in text and "forall formulas as free Booleans" in text


def _cert(out, name):
    p = out / "mine" / "fam" / f"f.{name}.json"
    return p, json.loads(p.read_text())


_reseal = reseal


def _goal_E_half(c):
    c["claim"]["goal"][2] = ["mul", ["num", "1/2"], ["var", "E"]]


def _idx_free_hyp(c):
    c["claim"]["hyps"].append({"expr": ["le", ["at", ["seq", "a"], ["idx"]], ["var", "E"]]})


# each forgery with the words of the checker's reason (so it is refused for what it forges, not by accident)
WHY = {"goal halved": "not unsat", "pointwise condition dropped": "forall_mono", "sequence used as a real": "sequence",
       "real declared a sequence": "declared a sequence", "free index": "idx outside", "index in a bound": "bound",
       "log in a body": "log inside", "division in a body": "division inside",
       "bound depends on the index": "not an instance of axiom bmin_greatest", "sample evidence": "only smt"}
FORGERIES = {
    # the planted constant with the proved evidence kept
    "goal halved": _goal_E_half,
    # the proved certificate's pointwise rule with a weaker antecedent: |a - g| <= E replaced by true
    "pointwise condition dropped": lambda c: c["claim"]["hyps"][4]["expr"][1].__setitem__(
        2, ["eq", ["num", "0"], ["num", "0"]]),
    # a sequence read as a real
    "sequence used as a real": lambda c: c["claim"]["hyps"][1]["expr"][2][1][1].__setitem__(1, ["var", "a"]),
    # a real declared a sequence
    "real declared a sequence": lambda c: [v.__setitem__("domain", "seq") for v in c["claim"]["vars"] if v["name"] == "E"],
    # an index outside every big operator
    "free index": _idx_free_hyp,
    # an index in a bound
    "index in a bound": lambda c: c["claim"]["hyps"][1]["expr"].__setitem__(1, ["idx"]),
    # a partial body: log inside a sum (its atom would need a definedness condition at every index)
    "log in a body": lambda c: c["claim"]["hyps"].append(
        {"expr": ["ge", ["sum", ["var", "T"], ["log", ["at", ["seq", "a"], ["idx"]]]], ["num", "0"]]}),
    # a division by a variable inside a body
    "division in a body": lambda c: c["claim"]["hyps"].append(
        {"expr": ["ge", ["sum", ["var", "T"], ["div", ["num", "1"], ["var", "E"]]], ["num", "0"]]}),
    # bmin_greatest's bound c sent to a term of the index: c <= min_i a(i) read as a(i) <= min_i a(i)
    "bound depends on the index": lambda c: c["claim"]["hyps"][5].__setitem__(
        "expr", ["forall", ["var", "T"], ["le", ["at", ["seq", "g"], ["idx"]],
                                          ["bmin", ["var", "T"], ["at", ["seq", "a"], ["idx"]]]]]),
    # a sampled CONFIRMED 'check' of a family claim (no point gives a big operator a value)
    "sample evidence": lambda c: c.update(SAMPLE_EVIDENCE),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_checker_rejects_forged_family_certificates(certs, tmp_path, name):
    out, _ = certs
    _, obj = _cert(out, "gap")
    code, text, rep = verify_forged(obj, FORGERIES[name], tmp_path, "mine/fam/f.gap.json")
    assert code != 0 and rep and all(r_["status"] != "VERIFIED" for r_ in rep), (name, text)
    assert WHY[name] in text, (name, text)


def test_a_false_pointwise_rule_is_rejected_by_the_checker(certs, tmp_path):
    """badmono's claim, sealed as PROVED with smt evidence of its own (which a forger can make: the main query
    is unsat given forall_mono's instance), is rejected: the checker re-runs forall_mono's condition
    |a - g| <= E => |a - g| <= E/2 (the index a fresh real) and finds it does not follow."""
    from attncert.backends.solver_terms import shape
    from attncert.core.expr import from_json

    out, _ = certs
    _, good = _cert(out, "gap")
    _, bad = _cert(out, "badmono")
    forged = copy.deepcopy(good)
    forged["id"], forged["claim"] = bad["id"], bad["claim"]
    doms = {v["name"]: v["domain"] for v in bad["claim"]["vars"]}
    atoms, n_conds = shape(doms, [from_json(h["expr"]) for h in bad["claim"]["hyps"]], from_json(bad["claim"]["goal"]))
    forged["evidence"] = dict(good["evidence"], atoms=atoms, side_queries=n_conds)
    q_ = tmp_path / "mine" / "fam" / "f.badmono.json"
    q_.parent.mkdir(parents=True)
    q_.write_text(dumps(_reseal(forged)))
    code, text, _ = _verify(tmp_path)
    assert code != 0 and "REJECTED" in text and "forall_mono" in text, text


def test_sort_and_scope_errors_in_the_prover():
    with pytest.raises(ExprError):
        claim(VARS, [], at(seq("a"), IDX) >= 0)                          # an index outside a big operator
    with pytest.raises(ExprError):
        claim(VARS, [], bsum(IDX, A) >= 0)                               # an index in a bound
    with pytest.raises(ExprError):
        claim(VARS, [], bsum(T, log(A)) >= 0)                            # log in a body
    with pytest.raises(ExprError):
        claim(VARS, [], bsum(T, A / E) >= 0)                             # a division by a variable in a body
    with pytest.raises(ExprError):
        claim(VARS, [], bsum(T, A) >= var("a"))                          # a sequence used as a real
    with pytest.raises(ExprError):
        claim([Var("T"), Var("a")], [], bsum(T, A) >= 0)                 # a real used as a sequence
    with pytest.raises(ExprError):
        claim(VARS, [], forall(T, A))                                    # forall of a term


def test_matchers_keep_the_index_out_of_plain_variables():
    """Both matchers (the checker's and the prover's, written apart): a body variable takes a real term that
    may use the index, a pred variable a formula; every other variable only a term without a free index."""
    from attncert.checker.verify import _match
    from attncert.core.axioms import bind

    for m in (lambda p, t, cv: _match(p, t, cv, {}), lambda p, t, cv: bind(p, t, cv, set(), {})):
        assert m(("var", "f"), A.node, {"f": "body"})
        assert not m(("var", "f"), (A <= 1).node, {"f": "body"})
        assert m(("var", "P"), (A <= 1).node, {"P": "pred"})
        assert not m(("var", "P"), A.node, {"P": "pred"})
        assert not m(("var", "c"), A.node, {"c": "real"})
        assert m(("var", "c"), bmax(T, A).node, {"c": "real"})             # the index is bound there
        assert m(("seq", "s"), ("seq", "a"), {"s": "seq"}) and not m(("seq", "s"), ("var", "a"), {"s": "seq"})


def _value(n, env, i=None):
    """A tree's value at concrete finite sequences (Fractions, 1-indexed lists), the index i of the innermost
    big operator: the semantics docs/axioms.md states."""
    op = n[0]
    if op == "num":
        return n[1]
    if op == "var":
        return env[n[1]]
    if op == "idx":
        return i
    if op == "at":
        j = _value(n[2], env, i)
        assert j.denominator == 1 and 1 <= j <= len(env[n[1][1]]), "a sequence read outside its range"
        return env[n[1][1]][int(j) - 1]
    if op in ("sum", "bmax", "bmin", "forall"):
        N = _value(n[1], env, i)
        vals = [_value(n[2], env, k) for k in range(1, int(N) + 1)] if N >= 1 else []
        if op == "forall":
            return all(vals)
        if op == "sum":
            return sum(vals, Fraction(0))
        assert vals, "max or min of the empty family"
        return max(vals) if op == "bmax" else min(vals)
    if op == "pow":
        return _value(n[1], env, i) ** n[2]
    a = [_value(c, env, i) for c in n[1:] if isinstance(c, tuple)]
    if op == "add":
        return sum(a, Fraction(0))
    if op == "mul":
        out = Fraction(1)
        for x in a:
            out *= x
        return out
    if op == "neg":
        return -a[0]
    if op == "abs":
        return abs(a[0])
    if op == "and":
        return all(a)
    if op == "implies":
        return (not a[0]) or a[1]
    if op == "not":
        return not a[0]
    return {"le": lambda: a[0] <= a[1], "ge": lambda: a[0] >= a[1], "eq": lambda: a[0] == a[1],
            "lt": lambda: a[0] < a[1], "ne": lambda: a[0] != a[1]}[op]()


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.fractions(-5, 5, max_denominator=4), min_size=n, max_size=n),
    st.lists(st.fractions(-5, 5, max_denominator=4), min_size=n, max_size=n),
    st.fractions(-5, 5, max_denominator=4), st.integers(0, 6), st.integers(-1, 6))))
def test_the_family_axioms_hold_on_concrete_sequences(data):
    """Every family axiom but the two pointwise rules (logic, tested by the forgeries above), read from the list
    with its body variables set to a(i), g(i) (and c to a number, N to the length) and evaluated exactly at
    random finite sequences: whenever its conditions hold, its goal holds."""
    from attncert.core.axioms import _instantiate, axiom_list
    from attncert.core.expr import substitute

    n, a, g, c, K, L = data
    env = {"a": a, "g": g, "N": Fraction(n), "c": c}
    terms = {"f": at(seq("a"), IDX).node, "g": at(seq("g"), IDX).node,   # sum_ge_term's f: a(i), of either sign
             "P": (at(seq("a"), IDX) <= c).node, "Q": (at(seq("g"), IDX) >= c).node,
             "j": num(1 + n % 3).node,   # forall_elim's index: 1, 2 or 3 (its conditions need j <= N)
             "K": num(K).node, "L": num(L).node}   # sum_split's and forall_shift's offset and range (conditions
    # K >= 0, K + 1 <= N and L + K <= N: the evaluator reads a(i) only at indices those make valid)
    names = [x for x in axiom_list()[1].values() if {"body", "pred"} & set(x.vars.values()) or x.name == "sum_zero"
             or x.name == "sum_const"]
    assert {x.name for x in names} >= {"bmax_upper", "bmax_least", "bmin_lower", "bmin_greatest", "sum_mono",
                                       "sum_const", "sum_zero", "sum_ge_term", "sum_add", "sum_scale", "forall_and",
                                       "sum_first", "forall_elim", "sum_cauchy_schwarz", "sum_split", "forall_shift"}
    for x in names:
        if x.name in ("forall_intro", "forall_mono", "follows", "forall_swap"):   # logic: tested by the forgeries
            # (forall_swap: tests/test_split.py)
            continue
        if x.exists:   # an existence axiom: its witness is built in the next test
            continue
        sub = {k: v for k, v in terms.items() if k in x.vars}
        hyps = [substitute(h, sub) for h in x.hyps]
        if all(_value(h, env) for h in hyps):
            assert _value(_instantiate(x.goal, sub), env), (x.name, n, a, g, c)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5).flatmap(lambda n: st.lists(st.fractions(-5, 5, max_denominator=7), min_size=n, max_size=n)))
def test_exists_seq_sqrt_holds_with_its_witness(a):
    """exists_seq_sqrt at F(i) = a(i)^2 (>= 0 at every index): the witness s(i) = |a(i)| meets its goal, exactly."""
    from attncert.core.axioms import _instantiate, axiom_list
    from attncert.core.expr import substitute

    x = axiom_list()[1]["exists_seq_sqrt"]
    sub = {"F": (at(seq("a"), IDX) * at(seq("a"), IDX)).node, "N": num(len(a)).node}
    env = {"a": a, "s": [abs(v) for v in a]}
    assert all(_value(substitute(h, sub), env) for h in x.hyps)
    assert _value(_instantiate(x.goal, sub), env)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 6).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-2, 2), min_size=n, max_size=n), st.lists(st.integers(-2, 2), min_size=n, max_size=n))))
def test_exists_first_diff_and_seq_eq_hold_with_their_witnesses(data):
    """exists_first_diff at f = a(i), g = b(i): whenever a and b differ on [1, n], k = (the first index where they
    differ) - 1 meets its goal, exactly; and exists_seq_eq at F(i) = a(i + 1) on [1, n - 1] with s(i) = a(i + 1)."""
    from attncert.core.axioms import _instantiate, axiom_list
    from attncert.core.expr import substitute

    a, b = (list(map(Fraction, v)) for v in data)
    n = len(a)
    x = axiom_list()[1]["exists_first_diff"]
    sub = {"f": at(seq("a"), IDX).node, "g": at(seq("b"), IDX).node, "N": num(n).node}
    env = {"a": a, "b": b}
    if all(_value(substitute(h, sub), env) for h in x.hyps):
        env["k"] = Fraction(next(i for i in range(n) if a[i] != b[i]))
        assert _value(_instantiate(x.goal, sub), env)
    else:
        assert a == b
    y = axiom_list()[1]["exists_seq_eq"]
    sub = {"F": at(seq("a"), IDX + 1).node, "N": num(n - 1).node}
    assert _value(_instantiate(y.goal, sub), {"a": a, "s": a[1:]})


def test_a_users_claim_over_families():
    """ac.Claim declares the names used as sequences 'seq' (as it declares vectors 'vec'); the claim is PROVED
    from a cited axiom instance, and the same claim with a wrong constant is not."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    import attncert as ac

    A_, G_ = ac.at(ac.seq("a"), ac.IDX), ac.at(ac.seq("g"), ac.IDX)
    D_ = ac.abs_(A_ - G_)
    given = [T >= 1, ac.forall(T, D_ <= E), ac.axiom("bmax_least", N=T, f=D_, c=E)]
    ok = ac.Claim("my.maxdev", ac.bmax(T, D_) <= E, given=given)
    assert {v.name: v.domain for v in ok.claim.vars} == {"T": "real", "E": "real", "a": "seq", "g": "seq"}
    assert run_obligation(ok).evidence.verdict == Verdict.PROVED
    bad = ac.Claim("my.maxdev_half", ac.bmax(T, D_) <= E / 2, given=given)
    assert run_obligation(bad).evidence.verdict == Verdict.UNKNOWN


# ----------------------------------------------------------------------------- instances at an index (v6)
# sum_first and forall_elim (docs/axioms.md, "Instances at an index"): F with its free index replaced by a term

KI, C1 = var("K"), at(seq("c"), num(1))
CI = at(seq("c"), IDX)
VK = [Var("K", "int"), Var("c", "seq"), Var("j", "int"), Var("r")]


def _elim_hyps(j=num(1)):
    return [KI >= 2, axiom("bmax_upper", N=KI, f=CI), axiom("forall_elim", N=KI, P=CI <= bmax(KI, CI), j=j)]


def _first_hyps():
    return [KI >= 1, axiom("sum_first", N=KI, f=CI * CI),
            axiom("forall_intro", N=KI - 1, P=num(0) <= at(seq("c"), IDX + 1) * at(seq("c"), IDX + 1)),
            axiom("sum_mono", N=KI - 1, f=num(0), g=at(seq("c"), IDX + 1) * at(seq("c"), IDX + 1)),
            axiom("sum_zero", N=KI - 1)]


@pytest.fixture(scope="module")
def inst_certs(tmp_path_factory):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    out = tmp_path_factory.mktemp("inst")
    obs = {"elim": ob("elim", claim(VK, _elim_hyps(), C1 <= bmax(KI, CI))),
           # the instance at 1 says nothing of c_2
           "elim_other": ob("elim_other", claim(VK, _elim_hyps(), at(seq("c"), num(2)) <= bmax(KI, CI) - 1)),
           # at an integer variable j, whose conditions 1 <= j <= K are not known: the engine refuses
           "elim_j": ob("elim_j", claim(VK, _elim_hyps(var("j")), at(seq("c"), var("j")) <= bmax(KI, CI))),
           "first": ob("first", claim(VK, _first_hyps(), bsum(KI, CI * CI) >= C1 * C1)),
           # a planted wrong constant
           "first_planted": ob("first_planted", claim(VK, _first_hyps(), bsum(KI, CI * CI) >= 2 * C1 * C1))}
    res = {k: run_obligation(o) for k, o in obs.items()}
    for r_ in res.values():
        atomic_write(path_for(str(out), r_), dumps(build(r_)))
    return out, res


def test_instances_at_an_index_prove_and_refuse(inst_certs):
    out, res = inst_certs
    v = {k: r_.evidence.verdict for k, r_ in res.items()}
    assert v["elim"] == v["first"] == Verdict.PROVED
    assert v["elim_other"] == v["first_planted"] == v["elim_j"] == Verdict.UNKNOWN
    assert "forall_elim" in res["elim_j"].evidence.detail["reason"]
    code, text, rep = verify_dir(out)
    assert code == 0, text
    assert "axiom sum_first (axiom list v10)" in text and "axiom forall_elim (axiom list v10)" in text


def _inst_cert(out, name):
    p = out / "mine" / "fam" / f"f.{name}.json"
    return json.loads(p.read_text())


INST_FORGERIES = {
    # forall_elim's hypothesis names c_2 while the index term is read off as 1 elsewhere: not F at one index
    "elim mixed index": ("elim", lambda c: c["claim"]["hyps"][2]["expr"][2].__setitem__(
        2, ["bmax", ["var", "K"], ["at", ["seq", "c"], ["num", "2"]]]), "not an instance of axiom forall_elim"),
    # forall_elim at a fractional index: no integer of [1, K]
    "elim at 3/2": ("elim", lambda c: c["claim"]["hyps"][2]["expr"][2][1].__setitem__(2, ["num", "3/2"]),
                    "not an instance of axiom forall_elim"),
    # sum_first with the rest shifted by 2 (it would drop c_2 from the sum)
    "first shifted by 2": ("first", lambda c: c["claim"]["hyps"][1]["expr"][2][2][2].__setitem__(
        1, ["at", ["seq", "c"], ["add", ["idx"], ["num", "2"]]]), "not an instance of axiom sum_first"),
    # sum_first with the rest running to K instead of K - 1
    "first one too many": ("first", lambda c: c["claim"]["hyps"][1]["expr"][2][2].__setitem__(1, ["var", "K"]),
                           "not an instance of axiom sum_first"),
    # a certificate writing the axiom list's own inst node
    "inst in a claim": ("first", lambda c: c["claim"]["hyps"].append(
        {"expr": ["ge", ["inst", ["var", "r"], ["num", "1"]], ["num", "0"]]}), "unknown operator"),
}


@pytest.mark.parametrize("name", sorted(INST_FORGERIES))
def test_forged_instances_at_an_index_are_rejected(inst_certs, tmp_path, name):
    out, _ = inst_certs
    which, edit, why = INST_FORGERIES[name]
    code, text, _ = verify_forged(_inst_cert(out, which), edit, tmp_path, f"mine/fam/f.{which}.json")
    assert code != 0 and why in text, text
