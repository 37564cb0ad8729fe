"""Nested big operators (["idx", k], de Bruijn levels) and links at every index ('each:t:C'): docs/axioms.md,
"Nested big operators" and "Links at every index".

The substitutions are tested against the semantics (exact values at random finite sequences) and the prover's
and the checker's own implementations against each other; the link at every index end to end (prove, certify,
verify) with a planted wrong constant and forged certificates."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from forging import reseal, verify_dir
from hypothesis import given, settings, strategies as st

from attncert.api import run_obligation
from attncert.checker import axioms as checker_axioms
from attncert.checker.trees import Reject, check_binders as checker_binders, parse
from attncert.core.axioms import _idx_image, axiom
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Hyp, Obligation, Var, claim
from attncert.core.errors import ExprError
from attncert.core.expr import (IDX, at, bsum, check_binders, forall, free_idx, from_json, idx, num, seq, shift_idx,
                                subst_idx, to_json, var)
from attncert.core.theorems import Closure, each_gap, each_hyps
from attncert.core.verdict import Verdict


def _value(n, env, stack=()):
    """A tree's value at concrete finite sequences (1-indexed lists of Fractions); ``stack`` holds the indices of
    the big operators around it, innermost last: ["idx", k] is stack[-1 - k]."""
    op = n[0]
    if op == "num":
        return n[1]
    if op == "var":
        return env[n[1]]
    if op == "idx":
        return stack[-1 - (n[1] if len(n) > 1 else 0)]
    if op == "at":
        k = _value(n[2], env, stack)
        a = env[n[1][1]]
        return a[int(k) - 1] if k.denominator == 1 and 1 <= k <= len(a) else Fraction(0)   # 0 off the list
    if op in ("sum", "bmax", "forall"):
        N = _value(n[1], env, stack)
        vals = [_value(n[2], env, stack + (Fraction(k),)) for k in range(1, int(N) + 1)]
        return all(vals) if op == "forall" else sum(vals, Fraction(0)) if op == "sum" else max(vals, default=Fraction(0))
    a = [_value(c, env, stack) for c in n[1:] if isinstance(c, tuple)]
    if op == "add":
        return sum(a, Fraction(0))
    if op == "mul":
        return a[0] * a[1]
    if op == "neg":
        return -a[0]
    return {"le": lambda: a[0] <= a[1], "eq": lambda: a[0] == a[1]}[op]()


def _index(depth: int):
    """Strategy: an index term valid under ``depth`` big operators (an affine mix of their indices)."""
    lv = st.integers(0, depth - 1).map(lambda k: ("idx",) if k == 0 else ("idx", k))
    return st.one_of(lv, st.tuples(lv, st.integers(0, 2)).map(lambda p: ("add", p[0], ("num", Fraction(p[1])))),
                     st.tuples(lv, lv).map(lambda p: ("add", ("mul", ("num", Fraction(2)), p[0]), p[1])))


def _body(depth: int, size: int):
    """Strategy: a real term valid under ``depth`` big operators, with sums nested inside it."""
    leaf = st.one_of(st.integers(-3, 3).map(lambda k: ("num", Fraction(k))), _index(depth).map(lambda i: ("at", ("seq", "a"), i)))
    if size <= 0 or depth >= 4:
        return leaf
    return st.one_of(leaf,
                     st.tuples(_body(depth, size - 1), _body(depth, size - 1)).map(lambda p: ("add",) + p),
                     st.tuples(st.integers(0, 3), _body(depth + 1, size - 1)).map(
                         lambda p: ("sum", ("num", Fraction(p[0])), p[1])))


SEQ = st.lists(st.fractions(-4, 4, max_denominator=3), min_size=12, max_size=12)


@settings(max_examples=150, deadline=None)
@given(_body(1, 3), _index(1), SEQ, st.integers(1, 3))
def test_substitution_at_the_free_index_is_evaluation_there(body, t, a, outer):
    """B with its free index replaced by t has, under one more operator (index ``outer``), the value of B at t's
    value: both sides' subst_idx (written apart) agree with the semantics and with each other; reading t back
    off the instance gives t again."""
    env = {"a": a}
    stack = (Fraction(outer),)
    mine = subst_idx(body, t)
    theirs = checker_axioms.subst_idx(body, t)
    assert mine == theirs
    check_binders(("sum", ("num", Fraction(3)), mine))
    checker_binders(("sum", ("num", Fraction(3)), theirs))
    assert _value(mine, env, stack) == _value(body, env, stack + (_value(t, env, stack),))
    if free_idx(body):
        assert _idx_image(body, mine) == checker_axioms.idx_image(body, theirs) == t


@settings(max_examples=80, deadline=None)
@given(_body(2, 3), st.integers(0, 2))
def test_shifting_out_and_back_is_the_identity(body, d):
    assert shift_idx(shift_idx(body, d), -d) == body
    assert checker_axioms.shift_idx(checker_axioms.shift_idx(body, d), -d) == body
    assert shift_idx(body, d) == checker_axioms.shift_idx(body, d)


def test_levels_parse_once_and_only_under_enough_operators():
    inner = ["at", ["seq", "a"], ["idx", 1]]
    two = ["sum", ["var", "T"], ["sum", ["var", "h"], inner]]
    one = ["sum", ["var", "T"], inner]
    check_binders(from_json(two))
    checker_binders(parse(two))
    assert to_json(from_json(two)) == two
    for bad in (one, ["sum", ["var", "T"], ["at", ["seq", "a"], ["idx", 0]]],
                ["sum", ["var", "T"], ["sum", ["var", "h"], ["at", ["seq", "a"], ["idx", 9]]]],
                ["sum", ["var", "T"], ["sum", ["var", "h"], ["at", ["seq", "a"], ["idx", True]]]],
                ["sum", ["var", "T"], ["sum", ["idx", 1], ["at", ["seq", "a"], ["idx"]]]]):
        with pytest.raises(ExprError):
            check_binders(from_json(bad))
        with pytest.raises(Reject):
            checker_binders(parse(bad))
    with pytest.raises(ExprError):
        idx(9)
    assert idx(0).node == IDX.node and idx(2).node == ("idx", 2)


def test_an_index_naming_an_outer_operator_is_not_replaced_nor_left_dangling():
    """Under forall_elim's P an index of the outer operator would dangle after the replacement: refused."""
    body = ("le", ("at", ("seq", "a"), ("idx", 1)), ("num", Fraction(0)))   # names an operator outside P's own
    with pytest.raises(ExprError):
        subst_idx(body, ("num", Fraction(1)))
    with pytest.raises(Reject):
        checker_axioms.subst_idx(body, ("num", Fraction(1)))


# ------------------------------------------------------------------------------ links at every index

N, t, h = var("N"), var("t"), var("h")
A = seq("a")
AT = at(A, t)
AI = at(A, IDX)


def _ob(id_, cl):
    return Obligation(id=f"mine.each.{id_}", family="each", paper="mine", ref="test", statement=id_, claim=cl,
                      methods=("smt",))


# C: a_t <= 1 and h >= 0 (a plain hypothesis without t) give 2 a_t <= 2
LEMMA = _ob("lemma", claim([Var("t", "int"), Var("a", "seq"), "h"], [AT <= 1, h >= 0], 2 * AT <= 2))


def _summed(goal, extra=()):
    hyps = [N >= 1] + each_hyps(LEMMA, "t", N) + [axiom("sum_mono", N=N, f=2 * AI, g=num(2)),
                                                 axiom("sum_const", N=N, c=num(2))] + list(extra)
    return claim([Var("N", "int"), Var("a", "seq"), "h"], hyps, goal)


def _with_carried(expr):
    """The summed claim with the carried a_i <= 1 replaced by ``expr``."""
    good = _summed(bsum(N, 2 * AI) <= 2 * N)
    k = next(i for i, x in enumerate(good.hyps) if (x.by or "").startswith("each:"))
    hyps = list(good.hyps)
    hyps[k - 2] = Hyp(expr.node)
    return claim(good.vars, hyps, good.goal)


CARRIED_FORGERIES = {
    "carried over another N": forall(N + 1, AI <= 1),   # a different range than the link's
    "carried weakened": forall(N, AI <= 2),             # no longer C's hypothesis at i
    "carried at one token": forall(N, at(A, num(1)) <= 1),   # read at a fixed token, not at every one
}


@pytest.fixture(scope="module")
def each_certs(tmp_path_factory):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    out = tmp_path_factory.mktemp("each")
    obs = {"lemma": LEMMA, "sum": _ob("sum", _summed(bsum(N, 2 * AI) <= 2 * N)),
           "planted": _ob("planted", _summed(bsum(N, 2 * AI) <= N))}
    obs.update({k: _ob(k.replace(" ", "_"), _with_carried(e)) for k, e in CARRIED_FORGERIES.items()})
    res = {k: run_obligation(o) for k, o in obs.items()}
    for r_ in res.values():
        atomic_write(path_for(str(out), r_), dumps(build(r_)))
    return out, res, obs


def test_a_link_at_every_index_proves_and_verifies(each_certs):
    out, res, obs = each_certs
    assert res["lemma"].evidence.verdict == res["sum"].evidence.verdict == Verdict.PROVED
    assert res["planted"].evidence.verdict == Verdict.UNKNOWN
    hyps = obs["sum"].claim.hyps
    k = next(i for i, x in enumerate(hyps) if (x.by or "").startswith("each:"))
    assert hyps[k].by == "each:t:mine.each.lemma"
    assert each_gap(obs["sum"], k, LEMMA, "t") == (None, [k - 2, k - 1])
    clo = Closure({o.id: o for o in obs.values()}, {r_.obligation.id: r_.evidence.verdict.name for r_ in res.values()})
    assert clo.why("mine.each.sum") == []
    code, text, rep = verify_dir(out)
    lines = {x.split("PROVED ")[1].split(" ")[0]: x for x in text.splitlines() if "PROVED mine.each." in x}
    assert lines["mine.each.sum"].startswith("OK") and lines["mine.each.lemma"].startswith("OK"), text
    # a carried hypothesis that is not C's at every index: the engine proves the sum from the linked forall, but
    # neither the checker nor the prover's closure counts the link
    for k in CARRIED_FORGERIES:
        fid = "mine.each." + k.replace(" ", "_")
        assert res[k].evidence.verdict == Verdict.PROVED
        assert lines[fid].startswith("CONDITIONAL") and "with the same N" in lines[fid], lines[fid]
        assert clo.why(fid) and "with the same N" in clo.why(fid)[0]


def _cert(out, name):
    return json.loads((out / "mine" / "each" / f"mine.each.{name}.json").read_text())


def _hyp_index(c, prefix):
    return next(i for i, x in enumerate(c["claim"]["hyps"]) if x.get("by", "").startswith(prefix))


def _set_by(c, by):
    c["claim"]["hyps"][_hyp_index(c, "each:")]["by"] = by


EACH_FORGERIES = {
    # the linked goal names an outer level that does not exist there
    "goal at a dangling level": lambda c: c["claim"]["hyps"][_hyp_index(c, "each:")]["expr"][2][1].__setitem__(
        2, ["idx", 1]),
    "not an integer variable": lambda c: _set_by(c, "each:h:mine.each.lemma"),
    "no such variable": lambda c: _set_by(c, "each:x:mine.each.lemma"),
    "no variable": lambda c: _set_by(c, "each::mine.each.lemma"),
    "no certificate": lambda c: _set_by(c, "each:t:"),
}


@pytest.mark.parametrize("name", sorted(EACH_FORGERIES))
def test_forged_links_at_every_index_are_not_verified(each_certs, tmp_path, name):
    """Each forgery is re-sealed (hashes recomputed) into a copy of the set; the checker must not count it as
    verified (rejected, or conditional on a link that does not check)."""
    import shutil

    out, _, _ = each_certs
    shutil.copytree(out, tmp_path / "set")
    src = tmp_path / "set" / "mine" / "each" / "mine.each.sum.json"
    cert = json.loads(src.read_text())
    EACH_FORGERIES[name](cert)
    src.write_text(dumps(reseal(cert)))
    code, text, _ = verify_dir(tmp_path / "set")
    line = next(x for x in text.splitlines() if "mine.each.sum" in x)
    assert code != 0 and not line.startswith("OK"), text


def test_the_prover_refuses_the_same_links():
    """each_gap (the prover's reading, written apart from the checker's) refuses a carried hypothesis over
    another N, a non-integer variable, and a cited variable in a bound."""
    good = _summed(bsum(N, 2 * AI) <= 2 * N)
    k = next(i for i, x in enumerate(good.hyps) if (x.by or "").startswith("each:"))
    assert each_gap(_ob("g", good), k, LEMMA, "t")[0] is None
    hyps = list(good.hyps)
    hyps[k - 2] = Hyp(forall(N + 1, AI <= 1).node)
    assert "same N" in each_gap(_ob("g", claim(good.vars, hyps, good.goal)), k, LEMMA, "t")[0]
    assert "not an integer variable" in each_gap(_ob("g", good), k, LEMMA, "h")[0]
    bounded = _ob("b", claim([Var("t", "int"), Var("a", "seq")], [], bsum(t, AI) <= bsum(t, AI)))
    fa = Hyp(forall(N, AI <= 1).node, "each:t:mine.each.b")
    assert "bound" in each_gap(_ob("g", claim(good.vars, [fa], N >= 0)), 0, bounded, "t")[0]
