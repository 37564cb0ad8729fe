"""Axiom citations ('by': 'axiom:NAME', issue 16): forged certificates that cite an axiom for what is not
an instance of it, or whose conditions are not established, are rejected; a cycle through axiom
conditions and links is not established; and every axiom of the list is true (checked at random points
in mpmath, and against the prover's own reading of the list)."""

from __future__ import annotations

import json
import random

import mpmath
import pytest

from attncert.checker import axioms as checker_axioms
from attncert.core import axioms as prover_axioms
from attncert.core.claims import Hyp, Var, claim as p_claim
from attncert.core.errors import ExprError
from attncert.core.expr import exp as p_exp, var as p_var

from .forge import cert, claim, num, op, var, write
from .test_forged_certificates import needs_solvers, smt_ev, verify

x, y, a, b = var("x"), var("y"), var("a"), var("b")


def ex(t):
    return op("exp", t)


def lg(t):
    return op("log", t)


# ----------------------------------------------------------------------------- the list itself


def _mp(n, env):
    o = n[0]
    if o == "num":
        return mpmath.mpf(n[1].numerator) / n[1].denominator
    if o in ("var", "vvar"):
        return env[n[1]]
    if o == "lpnorm":   # one L^p(nu) norm: the l^p norm of R^d (nu the counting measure), p drawn per point
        u, p = _mp(n[1], env), env["_p"]
        return max(abs(t) for t in u) if p == mpmath.inf else mpmath.fsum(abs(t) ** p for t in u) ** (1 / p)
    args = [_mp(c, env) if isinstance(c, tuple) else c for c in n[1:]]
    return {"vadd": lambda *v: [mpmath.fsum(t) for t in zip(*v)], "vscale": lambda c, u: [c * t for t in u],
            "norm": lambda u: mpmath.sqrt(mpmath.fsum(t * t for t in u)),
            "dot": lambda u, w: mpmath.fsum(s * t for s, t in zip(u, w)),
            "add": lambda *v: mpmath.fsum(v), "mul": lambda *v: mpmath.fprod(v), "neg": lambda v: -v,
            "and": lambda *v: all(v), "div": lambda u, v: u / v, "exp": mpmath.exp, "log": mpmath.log, "abs": abs,
            "pow": lambda u, k: u ** k, "lt": lambda u, v: u < v, "le": lambda u, v: u <= v + mpmath.mpf(10) ** -40,
            "gt": lambda u, v: u > v, "ge": lambda u, v: u + mpmath.mpf(10) ** -40 >= v,
            "eq": lambda u, v: abs(u - v) <= mpmath.mpf(10) ** -40 * (1 + abs(u))}[o](*args)


def test_every_axiom_holds_at_random_points():
    """Not a proof (the list is what we trust): a guard against a typo that makes an axiom false."""
    _, table = checker_axioms.axioms()
    rng = random.Random(16)
    mpmath.mp.dps = 60
    # an existence axiom holds when its witnesses can be chosen: here they are built (a square root, an integer part)
    witness = {"exists_sqrt": lambda env: {"y": mpmath.sqrt(env["x"]) if env["x"] >= 0 else mpmath.mpf(0)},
               "exists_floor": lambda env: {"k": mpmath.floor(env["x"])},
               "exists_eq": lambda env: {"y": env["x"]}}
    assert {n for n, t in table.items() if t[4] and not {"body", "pred"} & set(t[0].values())} == set(witness)
    for name, (vs, hyps, goal, _, wit) in table.items():
        if name in checker_axioms.SIDE_RULES:  # true only for instances that pass the side check (test_vectors.py)
            continue
        if {"body", "pred"} & set(vs.values()) or name == "sum_zero" or name == "sum_const":
            continue   # indexed families: evaluated at random finite sequences in tests/test_families.py
        if {"set", "setbody"} & set(vs.values()):
            continue   # finite sets: evaluated at random concrete sets in tests/test_sets.py
        if "vecs" in vs.values():
            continue   # the cited Park et al. Lemma 13 (a Skolem vector): its bound is met by random unit vectors
            #            found for random families in tests/test_park.py
        held = 0
        for _ in range(1000):
            # a vector variable: a random vector of R^d, d = 1..4 (one d per point, as in one claim)
            d = rng.randint(1, 4)
            env = {v: ([mpmath.mpf(rng.uniform(-6, 6)) for _ in range(d)] if vs[v] == "vec"
                       else mpmath.mpf(rng.uniform(-6, 6))) for v in vs}
            env["_p"] = rng.choice([mpmath.mpf(1), mpmath.mpf(3) / 2, mpmath.mpf(2), mpmath.mpf(3), mpmath.inf])
            if wit:
                env.update(witness[name](env))
            if all(_mp(h, env) for h in hyps):
                held += 1
                assert _mp(goal, env), (name, env)
        assert held >= 100 or not vs, name


def test_prover_and_checker_read_the_same_list():
    version, table = checker_axioms.axioms()
    pversion, ptable = prover_axioms.axiom_list()
    assert version == pversion and set(table) == set(ptable)
    for name, (vs, hyps, goal, statement, wit) in table.items():
        ax = ptable[name]
        assert ax.vars == vs and ax.statement == statement and ax.ref and ax.exists == wit
        assert len(ax.hyps) == len(hyps)


def test_the_list_is_the_documented_one():
    """docs/axioms.md lists every axiom by name."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "axioms.md").read_text()
    data = json.loads((Path(checker_axioms.PATH)).read_text())
    for ax in data["axioms"]:
        assert f"`{ax['name']}`" in doc, ax["name"]


# ----------------------------------------------------------------------------- citations


def test_an_instance_with_established_conditions_verifies(tmp_path):
    needs_solvers()
    # exp(a) > 0, exp(b) > 0 (axioms); a < b; so exp(a) < exp(b) (axiom, condition a < b a hypothesis): goal
    c = claim(["a", "b"], [op("lt", a, b), (op("lt", ex(a), ex(b)), "axiom:exp_lt")],
              op("lt", op("add", ex(a), op("neg", ex(b))), num(0)))
    code, text = verify([write(tmp_path, cert("ax.ok", c, smt_ev(c)))])
    assert code == 0 and "axiom exp_lt" in text, text


@pytest.mark.parametrize("name,c", [
    # not an instance: exp_lt's goal is exp(x) < exp(y), this is exp(x) <= exp(y) with a < b
    ("wrong_relation", claim(["a", "b"], [op("lt", a, b), (op("le", ex(b), ex(a)), "axiom:exp_lt")],
                             op("le", ex(b), ex(a)))),
    # an instance whose condition (b < a) is neither a hypothesis nor derivable: exp(b) < exp(a) from a < b
    ("condition_not_established", claim(["a", "b"], [op("lt", a, b), (op("lt", ex(b), ex(a)), "axiom:exp_lt")],
                                        op("lt", ex(b), ex(a)))),
    # a condition that only a LATER hypothesis gives does not count (the order is the derivation order)
    ("condition_from_a_later_hypothesis", claim(["a", "b"], [(op("lt", ex(b), ex(a)), "axiom:exp_lt"),
                                                             op("lt", op("add", b, num(1)), a)],
                                                op("lt", ex(b), ex(a)))),
    ("unknown_axiom", claim([], [(op("lt", num(1), num(0)), "axiom:everything")], op("lt", num(1), num(0)))),
    ("fact_prefix_spoof", claim([], [(op("lt", num(1), num(0)), "axiom: exp_pos")], op("lt", num(1), num(0)))),
    # inconsistent substitution: log_mul needs the same x in log(x y) and log(x)
    ("inconsistent_substitution", claim(["a", "b"], [op("gt", a, num(0)), op("gt", b, num(0)),
                                                     (op("eq", lg(op("mul", a, b)), op("add", lg(b), lg(b))),
                                                      "axiom:log_mul")],
                                        op("eq", lg(op("mul", a, b)), op("add", lg(b), lg(b))))),
    # log_lt needs 0 < x: log(a) < log(b) from a < b alone is not an instance with established conditions
    ("log_of_a_negative", claim(["a", "b"], [op("lt", a, b), (op("lt", lg(a), lg(b)), "axiom:log_lt")],
                                op("lt", lg(a), lg(b)))),
])
def test_a_bad_axiom_citation_is_rejected(tmp_path, name, c):
    needs_solvers()
    code, text = verify([write(tmp_path, cert(f"ax.{name}", c, smt_ev(c)))])
    assert code == 1 and "REJECTED" in text, text


def test_an_integer_axiom_variable_takes_no_real_term(monkeypatch, tmp_path):
    """A (test-only) axiom over an integer k: a real variable may not stand for k."""
    needs_solvers()
    orig = checker_axioms.axioms()
    table = dict(orig[1])
    table["int_sq"] = ({"k": "int"}, [], ("ge", ("pow", ("var", "k"), 2), ("var", "k")), "k^2 >= k (integers)", ())
    monkeypatch.setattr(checker_axioms, "axioms", lambda: (orig[0], table))
    half = op("ge", op("pow", x, 2), x)  # false at x = 1/2
    c = claim(["x"], [(half, "axiom:int_sq")], half)
    code, text = verify([write(tmp_path, cert("ax.int", c, smt_ev(c)))])
    assert code == 1 and "not an instance" in text, text
    c = claim([("n", "int")], [(op("ge", op("pow", var("n"), 2), var("n")), "axiom:int_sq")],
              op("ge", op("pow", var("n"), 2), var("n")))
    code, text = verify([write(tmp_path, cert("ax.int_ok", c, smt_ev(c)))])
    assert code == 0, text
    # an integer term (n - 1, 2 n) is an integer; n/2 and n + 1/2 are not
    n = var("n")
    for k, (t, ok) in enumerate(((op("add", n, op("neg", num(1))), True), (op("mul", num(2), n), True),
                                 (op("div", n, num(2)), False), (op("add", n, num("1/2")), False))):
        g = op("ge", op("pow", t, 2), t)
        c = claim([("n", "int")], [(g, "axiom:int_sq")], g)
        (tmp_path / f"t{k}").mkdir()
        code, text = verify([write(tmp_path / f"t{k}", cert("ax.int_term", c, smt_ev(c)))])
        assert (code == 0) == ok and (ok or "not an instance" in text), (t, text)


def test_a_condition_derived_from_earlier_hypotheses_verifies(tmp_path):
    """log(exp(a)) <= log(exp(a) + b): log_le's conditions exp(a) > 0 (a hypothesis) and exp(a) <= exp(a) + b
    (derived, by SMT, from b >= 0 before it)."""
    needs_solvers()
    z = op("add", ex(a), b)
    pos = (op("gt", ex(a), num(0)), "axiom:exp_pos")
    c = claim(["a", "b"], [pos, op("ge", b, num(0)), (op("le", lg(ex(a)), lg(z)), "axiom:log_le"),
                           (op("eq", lg(ex(a)), a), "axiom:log_exp")], op("le", a, lg(z)))
    code, text = verify([write(tmp_path, cert("ax.derived", c, smt_ev(c)))])
    assert code == 0 and "shown from earlier ones" in text, text
    # the same with b >= 0 moved AFTER the citation: the condition is not derivable from what comes before
    c2 = claim(["a", "b"], [pos, (op("le", lg(ex(a)), lg(z)), "axiom:log_le"), op("ge", b, num(0)),
                            (op("eq", lg(ex(a)), a), "axiom:log_exp")], op("le", a, lg(z)))
    code, text = verify([write(tmp_path, cert("ax.derived_late", c2, smt_ev(c2)))])
    assert code == 1 and "REJECTED" in text and "before it" in text, text


def test_a_cycle_through_an_axiom_condition_is_circular(tmp_path):
    """h1 rests, by a link, on h2 (the lemma's hypothesis, carried); h2 is an axiom instance whose condition
    was derived from the hypotheses before it, so (conservatively) from h1: each rests on the other, so
    neither is established, although every piece checks on its own."""
    needs_solvers()
    lc = claim(["a", "b"], [op("le", ex(a), ex(b))], op("le", ex(a), op("add", ex(b), num(1))))
    lemma = cert("ax.lem", lc, smt_ev(lc))
    h1 = op("le", ex(a), op("add", ex(b), num(1)))   # by ax.lem: carries h2
    c = claim(["a", "b"], [(h1, "ax.lem"), (op("le", ex(a), ex(b)), "axiom:exp_le"), op("le", a, b)],
              op("le", ex(a), op("add", ex(b), num(1))))
    # hypothesis 2 = exp(a) <= exp(b) by exp_le needs a <= b: a LATER hypothesis (literal), so it is carried;
    # the link carries hypothesis 2; no cycle here: verifies
    code, text = verify([write(tmp_path, lemma), write(tmp_path, cert("ax.nocycle", c, smt_ev(c)))])
    assert code == 0, text
    c = claim(["a", "b"], [op("le", a, op("add", b, num(0))), (h1, "ax.lem"), (op("le", ex(a), ex(b)), "axiom:exp_le")],
              op("le", ex(a), op("add", ex(b), num(1))))
    # hypothesis 3's condition a <= b is not literal (a <= b + 0): derived from hypotheses 1-2, so it rests
    # on hypothesis 2, which (by its link) rests on hypothesis 3
    code, text = verify([write(tmp_path, lemma), write(tmp_path, cert("ax.cycle", c, smt_ev(c)))])
    assert code == 1 and "circular" in text, text


# ----------------------------------------------------------------------------- the prover's side


def _ob(c):
    from attncert.core.claims import Obligation
    return Obligation(id="t.axiom", paper="test", ref="t", statement="t", claim=c, methods=("smt",))


def test_the_engine_refuses_an_unestablished_axiom_condition():
    """The prover checks the conditions itself: PROVED with them, UNKNOWN (with the reason) without."""
    pytest.importorskip("z3")
    from attncert.core.axioms import axiom
    from attncert.core.engine import run_obligation
    from attncert.core.verdict import Verdict

    A, B = p_var("a"), p_var("b")
    good = p_claim(["a", "b"], [A < B, axiom("exp_lt", x=A, y=B)], p_exp(A) < p_exp(B) + 1)
    assert run_obligation(_ob(good)).evidence.verdict == Verdict.PROVED
    bad = p_claim(["a", "b"], [axiom("exp_lt", x=A, y=B), A < B], p_exp(A) < p_exp(B) + 1)  # condition comes later
    assert run_obligation(_ob(bad)).evidence.verdict == Verdict.PROVED  # literal: a later hypothesis is carried
    bad = p_claim(["a", "b"], [axiom("exp_lt", x=A, y=B)], p_exp(A) < p_exp(B) + 1)
    r = run_obligation(_ob(bad))
    assert r.evidence.verdict == Verdict.UNKNOWN and "not shown" in r.evidence.detail["reason"]
    spoof = p_claim(["a", "b"], [A < B, Hyp((p_exp(A) <= p_exp(B)).node, by="axiom:exp_lt")], p_exp(A) <= p_exp(B))
    r = run_obligation(_ob(spoof))
    assert r.evidence.verdict == Verdict.UNKNOWN and "not an instance" in r.evidence.detail["reason"]
    with pytest.raises(ExprError):
        axiom("exp_lt", x=A)  # every variable must be given


def test_prover_and_checker_agree_on_random_instances():
    """The prover's instance matcher and the checker's (two translations) agree on which conditions of an
    axiom are literal hypotheses, for random substitutions and random hypothesis lists."""
    from attncert.checker import verify as V
    from attncert.core.axioms import axiom, axiom_conditions, axiom_list, derived_conditions
    from attncert.core.expr import to_json
    from attncert.checker.trees import parse

    rng = random.Random(7)
    names = sorted(axiom_list()[1])
    terms = [p_var("a"), p_var("b"), p_exp(p_var("a")), p_var("a") + 1, p_var("b") * 2]
    # the vector axioms have no conditions: the matchers' sorts are tested in tests/test_vectors.py
    names = [n for n in names if not {"vec", "vecs"} & set(axiom_list()[1][n].vars.values())]
    from attncert.core.expr import IDX, at, free_idx, num as p_num, seq as p_seq

    # indexed families: a body variable takes a term of the index, a pred variable a formula of it, an
    # integer variable an integer constant; a condition with a free index is never a hypothesis (always derived)
    bodies = [at(p_seq("s"), IDX), at(p_seq("s"), IDX) + p_var("a"), p_num(0), p_var("b") * at(p_seq("s"), IDX)]
    preds = [at(p_seq("s"), IDX) <= p_var("a"), p_var("b") < at(p_seq("s"), IDX) * 2]
    # finite sets: a set variable takes a set term without a free index, a setbody one of the index
    from attncert.core.expr import bunion, fset, fsets, sat, union
    sets = [fset("A"), fset("B"), union(fset("A"), fset("B")), bunion(p_var("b"), sat(fsets("J"), IDX))]
    setbodies = [sat(fsets("J"), IDX), union(sat(fsets("J"), IDX), fset("A")), fset("B")]
    pick = {"body": bodies, "pred": preds, "int": [p_num(2), p_num(0)], "real": terms, "set": sets,
            "setbody": setbodies, "seq": [p_seq("s")]}   # seq: only an existence axiom's witness
    doms = {"a": "real", "b": "real", "s": "seq", "A": "set", "B": "set", "J": "sets"}
    for _ in range(300):
        name = rng.choice(names)
        ax = axiom_list()[1][name]
        sub = {v: rng.choice(pick[d]) for v, d in ax.vars.items()}
        try:
            h = axiom(name, **sub)
        except ExprError:   # sum_first, forall_elim at a body without a free index: no instance (both sides)
            continue
        conds = axiom_conditions(name, **sub)
        extra = [c for c in conds if rng.random() < 0.5 and not free_idx(c.node)]
        hyps = [Hyp(c.node) for c in extra] + [h]
        try:
            c = p_claim([Var(k, d) for k, d in doms.items()], hyps, p_var("a") >= p_var("a"))
        except ExprError:   # follows at a formula of the index: an index outside a big operator, no claim
            continue
        i = len(hyps) - 1
        mine = {to_json(n).__repr__() for n in derived_conditions(c, i)}
        table: dict = {}
        parsed = [parse(to_json(x.expr), table=table) for x in c.hyps]
        _, theirs = checker_axioms.check_instance(name, parsed, i, doms, V._match, V._subst,
                                                  V._mark_int_vars, V._unmark)
        assert len(mine) == len({repr(t) for t in theirs}), (name, sub)


# ----------------------------------------------------------------------------- attack round 6 (stalls)


def _timed_verify(paths):
    import time
    t = time.perf_counter()
    code, text = verify(paths)
    return code, text, time.perf_counter() - t


def test_many_axiom_citations_are_refused_fast(tmp_path):
    """3000 citations of exp_pos in an UNKNOWN certificate took 69 s (every citation re-marked the claim)."""
    h = (op("gt", ex(x), num(0)), "axiom:exp_pos")
    c = claim(["x"], [h] * 3000, op("gt", ex(x), num(0)))
    code, text, secs = _timed_verify([write(tmp_path, cert("dos1", c, {"kind": "none", "reason": "x"}, "UNKNOWN"))])
    assert code == 1 and "more than 256 axiom citations" in text and secs < 20, (secs, text[-300:])


def test_derivations_are_not_rerun_for_a_certificate_that_proves_nothing(tmp_path):
    """55 citations with derived conditions, behind 55 divisions: 152 s of solver runs for an UNKNOWN."""
    needs_solvers()
    x1 = op("add", x, num(1))
    divs = op("add", *[op("div", num(1), op("add", x, num(j))) for j in range(1, 56)])
    hyps = [op("gt", x, num(0)), op("gt", divs, num(0))] + [(op("eq", ex(lg(x1)), x1), "axiom:exp_log")] * 55
    c = claim(["x"], hyps, op("gt", x, num(0)))
    code, text, secs = _timed_verify([write(tmp_path, cert("dos2", c, {"kind": "none", "reason": "x"}, "UNKNOWN"))])
    assert code == 0 and secs < 20, (secs, text[-300:])


def test_a_nested_power_is_refused_before_any_solver_runs(tmp_path):
    """pow(pow(a, 3000), 3000) was written out as 9,000,000 factors (78 s for a 751-byte file)."""
    needs_solvers()
    P = op("pow", op("pow", a, 3000), 3000)
    c = claim(["a", "b"], [op("lt", P, b), (op("lt", ex(op("add", P, num(0))), ex(b)), "axiom:exp_lt")],
              op("gt", a, op("add", a, num(-1))))
    code, text, secs = _timed_verify([write(tmp_path, cert("dos3", c, smt_ev(c)))])
    assert code == 1 and "SMT translation larger" in text and secs < 20, (secs, text[-300:])


def test_theorem_certificates_with_repeated_roots_or_self_repair_are_rejected(tmp_path):
    from attncert.core.expr import sha256
    lc = claim(["a"], [op("gt", a, num(0))], op("gt", op("add", a, num(1)), num(0)))
    step = cert("t.root", lc, smt_ev(lc))

    def thm(tid, **kw):
        body = {"schema": "attncert.theorem/2", "id": tid, "paper": "mine", "label": "Theorem 1", "ref": "t",
                "statement": "t", "verdict": "OPEN", "roots": ["t.root"], "root_claims": {}, "instances": None,
                "hypotheses": [], "printed": None, "printed_claim": None, "repaired": None, "blocking": [],
                "declared": None, "axioms": [], "note": ""}
        body.update(kw)
        body["root_claims"] = {r: step["claim_sha256"] for r in body["roots"]}
        if body["printed"] is not None:
            body["printed_claim"] = step["claim_sha256"]
        body["cert_sha256"] = sha256(body)
        return body

    write(tmp_path, step)
    for name, body, why in [
        ("dup", thm("t.dup", roots=["t.root"] * 2, instances="n = 1"), "roots must be distinct"),
        ("self", thm("t.self", roots=[], printed="t.root", repaired="t.self", verdict="REFUTED AS PRINTED"),
         "its own repair"),
        ("label", thm("t.label", label="Theorem 1 (t) PROVED; axioms: none\u2028"), "label"),
    ]:
        d = tmp_path / name
        d.mkdir()
        write(d, body)
        code, text = verify([d])
        assert code == 1 and "REJECTED" in text and why in text, text
