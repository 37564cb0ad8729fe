"""Trees of Comparison (InfoFlow Defs 1-2, Figure 2, App. D): the executable model, the App. D covering
property (hypothesis + exact grids), the exact minima (z3 and cvc5 agree, witnesses replay), a planted
wrong bound refuted, tampered certificates rejected, and the `trees` command."""

from __future__ import annotations

import io
import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from attncert.papers.infoflow import trees as tr
from attncert.checker import treecover as tc
from attncert.checker.trees import Reject
from attncert.papers.infoflow import trees_backend  # noqa: F401  (registers treemin, treegrid)
from attncert.papers.infoflow.treesat import defined_name

FRACS = st.fractions(min_value=0, max_value=1, max_denominator=64)


# ----------------------------------------------------------------------------------- model, Figure 2

@pytest.mark.parametrize("panel,root", [("a", (3,)), ("b", (1,))])
def test_figure2_values_reproduced(panel, root):
    t = tr.figure2_tree(panel)
    final, trace = t.evaluate(tr.FIG2_X)
    assert trace == tr.FIG2_PRINTED[panel] and final == root
    assert (t.size, t.dimension, tr.number_of_comparison([t])) == (4, 1, 3)
    assert all(w > lo for w, lo in tr.figure2_comparisons(panel))  # every printed value follows from the rule


def test_figure2_roots_give_active_set():
    trees = [tr.figure2_tree("a"), tr.figure2_tree("b")]
    X = tr.FIG2_X
    assert tr.finals(trees, X) == {X.index(max(X)) + 1, X.index(min(X)) + 1} == {1, 3}
    assert tr.number_of_comparison(trees) == 6 == 2 * (4 - 1)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.lists(FRACS, min_size=2, max_size=8, unique=True))
def test_figure2_trees_cover_max_plus_min_on_random_inputs(X):
    """The Figure 2 construction (f_in = x and f_in = -x on the leaves {1}..{T}) for any T and input."""
    T = len(X)
    trees = [tr.balanced([(t,) for t in range(1, T + 1)], tr.FIG2_RULE[p]) for p in "ab"]
    assert tr.finals(trees, X) == {X.index(max(X)) + 1, X.index(min(X)) + 1}


def test_tree_basics():
    t = tr.balanced([(1, 1), (2,), (3, 1, 2)], lambda xs: sum(xs))
    assert t.size == 3 and t.dimension == 3 and t.leaves() == [(1, 1), (2,), (3, 1, 2)]
    assert t.final([F(1), F(5), F(0)]) == (3, 1, 2)  # 2 vs 5, then 5 vs 0 + 1 + 5 = 6: the leaf (3, 1, 2) wins
    assert t.evaluate([F(1), F(5), F(-10)]) == ((2,), [(2,), (2,)])  # 5 vs -10 + 1 + 5 = -4
    assert t.final([F(3), F(5), F(-10)]) == (1, 1)  # 3 + 3 = 6 beats 5


# ----------------------------------------------------------------------------------- covering (App. D)

@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.integers(1, 3), st.lists(FRACS, min_size=3, max_size=9))
def test_dretrieval_trees_cover_random_inputs(D, X):
    T = len(X)
    act = tr.dretrieval_active(X, D)
    if act is not None:
        assert act <= tr.finals(tr.dretrieval_trees(T, D), X)
        assert tr.number_of_comparison(tr.dretrieval_trees(T, D)) == D * (T - 1)


VEC = st.tuples(st.fractions(-1, 1, max_denominator=32), st.fractions(-1, 1, max_denominator=32))


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.lists(VEC, min_size=3, max_size=4))
def test_triangle_tree_covers_random_inputs(X):
    act = tr.triangle_active(X)
    tree = tr.triangle_tree(len(X))
    assert tree.size == len(X) ** 3 and tree.dimension == 3
    if act is not None:
        assert act <= set(tree.final(X))


@pytest.mark.parametrize("args", [("dretrieval", 4, 2, 4), ("dretrieval", 3, 3, 5), ("triangle", 3, 3, 2)])
def test_grid_cover_prover_and_checker_agree(args):
    got = tr.cover_grid(*args)
    assert got == tc.grid_cover(*args) and got[2] == 0 and got[1] < got[0]


# ----------------------------------------------------------------------------------- exact minima

needs_solvers = pytest.mark.skipif(
    not all(__import__("importlib").util.find_spec(m) for m in ("z3", "cvc5")), reason="z3 and cvc5 needed")


@needs_solvers
@pytest.mark.parametrize("T,D", [(2, 1), (4, 2), (5, 3), (6, 2), (7, 3)])
def test_dretrieval_minimum_witness_and_both_solvers(T, D):
    from attncert.checker import smtlib
    from attncert.papers.infoflow.treesat import solve

    from attncert.papers.infoflow.treesat import _query

    r = solve("dretrieval", T, D)
    assert r.minimum == D * (T - D)
    assert tc.replay("dretrieval", T, D, r.witness) == r.minimum  # the sat witness replays on the checker
    # the two encodings agree, on both solvers: the checker's SMT-LIB text and the prover's API terms
    below, at = tc.problem("dretrieval", T, D, r.minimum - 1), tc.problem("dretrieval", T, D, r.minimum)
    for name in ("z3", "cvc5"):
        assert smtlib.SOLVERS[name](below, 60) == "unsat"
        assert smtlib.SOLVERS[name](at, 60) == "sat"
        assert _query(name, "dretrieval", T, D, r.minimum - 1, 60)[0] == "unsat"
        assert _query(name, "dretrieval", T, D, r.minimum, 60)[0] == "sat"


@needs_solvers
@pytest.mark.parametrize("target,T,D,want", [("pairwise", 5, 2, 10), ("triangle", 5, 3, 10), ("triangle", 3, 3, 1)])
def test_leaf_minima(target, T, D, want):
    from attncert.papers.infoflow.treesat import solve

    r = solve(target, T, D)
    assert r.minimum == want and tc.replay(target, T, D, r.witness) == want
    assert r.solvers == {"z3": "unsat", "cvc5": "unsat"}


@pytest.mark.parametrize("T,D", [(3, 1), (4, 2), (4, 3), (5, 2)])
def test_brute_force_agrees(T, D):
    from attncert.papers.infoflow.treesat import brute_force

    assert brute_force(T, D) == D * (T - D)


def test_replay_rejects_non_covering_family():
    with pytest.raises(Reject, match="does not cover"):
        tc.replay("dretrieval", 4, 2, [[1, 2], [3, 4]])
    with pytest.raises(Reject, match="no leaf"):
        tc.replay("triangle", 4, 3, [[[1, 2, 3]], [[1, 2, 4]], [[1, 3, 4]]])


# ----------------------------------------------------------------------------------- certificates

def _certify(ob, tmp_path):
    from attncert.api import write_certificates
    from attncert.core.engine import run_obligation

    r = run_obligation(ob)
    return r, write_certificates([r], str(tmp_path))[0]


def _planted(T, D, lower, fewer=False):
    from attncert.core.claims import Obligation, Var, claim
    from attncert.core.expr import var

    name = defined_name("treemin", "dretrieval", T, D)
    n = var(name)
    return Obligation(f"test.trees.planted.T{T}D{D}", "infoflow", "test",
                      f"planted: a covering family with <= {lower} comparisons" if fewer else f"planted: minimum >= {lower}",
                      claim([Var(name, "defined")], [], n <= lower if fewer else n >= lower), ("treemin",),
                      options=(("target", "dretrieval"), ("T", T), ("D", D)), family="test_trees")


def _verify(path) -> tuple[int, str]:
    from attncert.checker.verify import verify_paths

    buf = io.StringIO()
    return verify_paths([path], buf), buf.getvalue()


@needs_solvers
def test_planted_wrong_bound_is_refuted(tmp_path):
    from attncert.core.verdict import Verdict

    T, D = 6, 3
    r, p = _certify(_planted(T, D, D * (T - D) + 1), tmp_path)  # one comparison more than the minimum
    assert r.verdict == Verdict.REFUTED and r.evidence.detail["minimum"] == D * (T - D)
    assert _verify(p)[0] == 0
    r2, p2 = _certify(_planted(T, D, D * (T - D)), tmp_path / "ok")
    assert r2.verdict == Verdict.PROVED and _verify(p2)[0] == 0
    # one comparison fewer than the minimum: refuted by the unsat at D(T-D) - 1 (z3 and cvc5)
    r3, p3 = _certify(_planted(T, D, D * (T - D) - 1, fewer=True), tmp_path / "fewer")
    assert r3.verdict == Verdict.REFUTED and r3.evidence.detail["solvers"] == {"cvc5": "unsat", "z3": "unsat"}
    assert _verify(p3)[0] == 0


def _tamper(path, fn):
    from attncert.checker.verify import digest

    obj = json.loads(open(path).read())
    fn(obj)
    body = {k: v for k, v in obj.items() if k != "cert_sha256"}
    obj["cert_sha256"] = digest(body)  # a careful forger also fixes the hash
    with open(path, "w") as fh:
        json.dump(obj, fh)


@needs_solvers
@pytest.mark.parametrize("how,msg", [
    ("witness", "does not cover"),
    ("problem", "unknown field"),
    ("minimum", "recorded minimum"),
    ("verdict", "contradicts verdict"),
])
def test_tampered_certificate_rejected(tmp_path, how, msg):
    _, p = _certify(_planted(5, 2, 6), tmp_path)
    assert _verify(p)[0] == 0

    def fn(obj):
        ev = obj["evidence"]
        if how == "witness":
            ev["witness"][0] = ev["witness"][0][:-2]
        elif how == "problem":  # the checker writes the problem itself: a stored one is refused
            ev["problem_below"] = "(assert false)"
        elif how == "minimum":
            ev["minimum"] += 1
        else:
            obj["verdict"] = "REFUTED"

    _tamper(p, fn)
    code, text = _verify(p)
    assert code == 1 and "REJECTED" in text and msg in text, text


@needs_solvers
def test_tampered_grid_rejected(tmp_path):
    import attncert_proofs.infoflow_trees as fam

    ob = next(o for o in fam.FAMILY.obligations if o.id.startswith("infoflow.trees.cover.dretrieval.T4D2"))
    _, p = _certify(ob, tmp_path)
    assert _verify(p)[0] == 0
    _tamper(p, lambda obj: obj["evidence"].__setitem__("skipped", obj["evidence"]["skipped"] - 1))
    code, text = _verify(p)
    assert code == 1 and "grid replay" in text


@needs_solvers
def test_certificates_byte_identical(tmp_path):
    _, p1 = _certify(_planted(6, 2, 8), tmp_path / "a")
    trees_backend._solve.cache_clear()
    _, p2 = _certify(_planted(6, 2, 8), tmp_path / "b")
    assert open(p1, "rb").read() == open(p2, "rb").read()


# ----------------------------------------------------------------------------------- CLI

def _cli(argv):
    from attncert.cli import run

    out, err = io.StringIO(), io.StringIO()
    return run(argv, out, err), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [
    ["trees", "--target", "dretrieval", "--T", "2", "--D", "3"],
    ["trees", "--target", "dretrieval", "--T", "99", "--D", "1"],
    ["trees", "--target", "pairwise", "--T", "4"],
    ["trees", "--target", "triangle", "--T", "5", "--D", "2"],
    ["trees", "--target", "nope", "--T", "5"],
])
def test_cli_bad_input_is_one_line_exit_2(argv, capsys):
    code, out, err = _cli(argv)
    err += capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) <= 3, err


@needs_solvers
def test_cli_json_and_certificates(tmp_path):
    js = tmp_path / "r.json"
    code, out, _ = _cli(["trees", "--target", "dretrieval", "--T", "5", "--D", "2", "--json", str(js),
                         "--out", str(tmp_path / "c")])
    assert code == 0 and "minimum: 6" in out
    rec = json.loads(js.read_text())
    assert (rec["minimum"], rec["paper_lower"], rec["paper_upper"]) == (6, 6, 8)
    assert rec["verdicts"] == {"lower": "PROVED", "upper": "UNKNOWN", "tight": "PROVED"}  # lower bounds only
    assert _verify(str(tmp_path / "c"))[0] == 0


def test_family_errata_refuted_as_printed():
    from attncert.core.engine import run_obligation
    from attncert.core.verdict import Verdict
    import attncert_proofs.infoflow_trees as fam

    errata = [o for o in fam.FAMILY.obligations if o.id.startswith("infoflow.trees.d1.") and o.expect == Verdict.REFUTED]
    # the triangle root, the distinct-triples convention, and (60)'s union over i = 1..T (Section 6's
    # 's >= D heads' lives in infoflow_model)
    assert len(errata) == 3
    for o in errata:
        assert run_obligation(o).verdict == Verdict.REFUTED


@pytest.mark.parametrize("blocked", [["cvc5"], ["z3"]])
def test_missing_solver_gives_unknown_never_proved(blocked):
    import subprocess
    import sys

    code = (f"import sys\nfor m in {blocked!r}: sys.modules[m] = None\n"
            "import attncert_proofs.infoflow_trees as fam\nfrom attncert.core.engine import run_obligation\n"
            "o = next(o for o in fam.FAMILY.obligations if o.id == 'infoflow.trees.dret.lower.T5D2')\n"
            "r = run_obligation(o)\nprint(r.verdict.name, r.evidence.detail.get('reason', ''))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.startswith("UNKNOWN") and blocked[0] in p.stdout, p.stdout


@needs_solvers
@pytest.mark.parametrize("name", ["infoflow.trees.dret.lower.T4D2", "infoflow.trees.cover.dretrieval.T4D1g6",
                                  "infoflow.trees.triangle.leaves.T4"])
def test_fuzzed_tree_certificates_end_clean(name, tmp_path):
    import os
    import random

    from attncert.qa.fuzz import KINDS, check_one, mutate

    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "certificates", "infoflow", "infoflow_trees",
                        f"{name}.json")
    raw = open(path, "rb").read()
    for kind in KINDS:
        rng = random.Random(kind)
        for _ in range(3):
            clean, outcome, _ = check_one(raw, mutate(raw, kind, rng), str(tmp_path))
            assert clean, (name, kind, outcome)


@pytest.mark.parametrize("X,pattern", [
    ((F(1, 10), F(1), F(1)), (1, 1, 1)),
    ((F(2, 5), F(-3, 4), F(9, 10)), (1, 1, 2)),
    ((F(-1), F(-3, 10), F(1)), (1, 2, 3)),
])
def test_every_multiset_pattern_is_a_strict_minimiser(X, pattern):
    """Each pattern (a,a,a), (a,a,b), (a,b,c) is the strict unique minimiser of (7) at an exact point, so on
    an open set. The active set is the set of its indices (1 to 3 of them), which a distinct-triple leaf
    contains: repetition does not enlarge the leaf count (the review's counterexample to 'every multiset
    must be a leaf')."""
    from itertools import combinations, combinations_with_replacement

    vals = sorted((tr.sqnorm([X[t - 1] for t in m]), m) for m in combinations_with_replacement(range(1, 4), 3))
    assert vals[0][1] == pattern and vals[0][0] < vals[1][0] and vals[0][0] > 0
    assert tr.triangle_active(X) == set(pattern)
    assert any(set(pattern) <= set(leaf) for leaf in combinations(range(1, 4), 3))


def test_tree_evidence_is_bound_to_its_problem(tmp_path):
    """Evidence for one (target, T, D) cannot be moved into a certificate about another: the defined
    variable's name spells out its problem, and the claim hash covers it (review finding, critical)."""
    import copy
    import glob
    import json

    from attncert.checker.verify import check_cert, digest

    src = json.load(open(glob.glob("certificates/infoflow/infoflow_trees/infoflow.trees.triangle.leaves.T6.json")[0]))
    dst = json.load(open(glob.glob("certificates/infoflow/infoflow_trees/infoflow.trees.dret.lower.T8D3.json")[0]))
    forged = copy.deepcopy(dst)
    forged["evidence"] = src["evidence"]
    forged["cert_sha256"] = digest({k: v for k, v in forged.items() if k != "cert_sha256"})
    with pytest.raises(Reject, match="defined variable"):
        check_cert(forged)


@needs_solvers
@pytest.mark.parametrize("n,k", [(4, 1), (5, 2), (5, 4)])
def test_sequential_counter_is_exact(n, k):
    """The at-most-k encoding used in the stored D-retrieval problems: satisfiable with the xs fixed
    exactly when at most k of them are true."""
    from itertools import product

    from attncert.checker import smtlib

    xs = [f"x{i}" for i in range(n)]
    counter, clauses = tc.at_most(xs, k)
    head = "(set-logic QF_UF)\n" + "".join(f"(declare-const {v} Bool)\n" for v in xs + counter)
    head += "".join(f"(assert {c})\n" for c in clauses)
    for bits in product((0, 1), repeat=n):
        fix = "".join(f"(assert {v if b else f'(not {v})'})\n" for v, b in zip(xs, bits))
        want = "sat" if sum(bits) <= k else "unsat"
        assert smtlib.run_z3(head + fix + "(check-sat)\n", 10) == want, bits


@pytest.mark.parametrize("D", [1, 2, 3])
def test_general_family_attains_d_t_minus_d(D):
    """I_j = [T] minus ([D] minus {j}) covers every D-set with sum (|I_j| - 1) = D(T-D), for every T >= D."""
    for T in range(D, 13):
        fam = [[t for t in range(1, T + 1) if t == j or t > D] for j in range(1, D + 1)]
        assert tc.replay("dretrieval", T, D, fam) == D * (T - D)


def test_defined_quantity_is_not_a_universal_claim():
    """A claim about the minimum is decided only by treemin: the generic counterexample methods (which read
    a claim as 'for all values') answer UNKNOWN, and the checker rejects such a claim on other evidence."""
    import copy
    import json

    from attncert.checker.trees import Reject
    from attncert.checker.verify import check_cert
    from attncert.core.claims import Obligation, Var, claim
    from attncert.core.engine import run_obligation
    from attncert.core.expr import var
    from attncert.core.verdict import Verdict

    n = var("nmin")
    ob = Obligation("x.defined", "infoflow", "infoflow:D.1", "least comparisons >= -15",
                    claim([Var("nmin", "defined")], [], n >= -15), ("probe", "model", "search"),
                    options=(("target", "dretrieval"), ("T", 8), ("D", 3)), family="t")
    r = run_obligation(ob, 5.0)
    assert r.verdict == Verdict.UNKNOWN and "only treemin/treegrid" in r.evidence.detail["reason"]
    import glob

    from attncert.checker.verify import digest

    path = sorted(glob.glob("certificates/infoflow/infoflow_trees/infoflow.trees.dret.lower*.json"))[0]
    cert = json.load(open(path))
    assert check_cert(cert)[0] == "PROVED"
    bad = copy.deepcopy(cert)
    bad["evidence"] = {"kind": "interval", "bits": 64, "margin": "1"}
    bad["method"] = "interval"
    body = {k: v for k, v in bad.items() if k != "cert_sha256"}
    bad["cert_sha256"] = digest(body)          # a well-formed file that claims PROVED on other evidence
    with pytest.raises(Reject, match="defined"):
        check_cert(bad)


def test_prover_and_checker_agree_on_names_and_replays():
    """The prover's tree helpers are its own (treesat), written apart from the checker's: they must agree."""
    from attncert.papers.infoflow import treesat as ts

    for target, T, D in (("dretrieval", 5, 2), ("pairwise", 4, 2), ("triangle", 5, 3)):
        assert ts.defined_name("treemin", target, T, D) == tc.defined_name("treemin", target, T, D)
        assert ts.universe(target, T) == tc.universe(target, T) and ts.n_trees(target, D) == tc.n_trees(target, D)
        fam = ts.start_family(target, T, D)
        assert ts.replay(target, T, D, fam) == tc.replay(target, T, D, ts.canonical(target, fam))
    assert ts.defined_name("treegrid", "triangle", 4, 3, 2) == tc.defined_name("treegrid", "triangle", 4, 3, 2)
    with pytest.raises(ValueError, match="misses the active set"):
        ts.replay("dretrieval", 4, 2, [[1, 2], [3, 4]])
    with pytest.raises(ValueError, match="misses a leaf"):
        ts.replay("triangle", 4, 3, [[[1, 2, 3]], [[1, 2, 4]], [[1, 3, 4]]])


@needs_solvers
@pytest.mark.parametrize("solver", ["z3", "cvc5"])
@pytest.mark.parametrize("n,k", [(4, 1), (5, 2), (5, 4), (6, 3)])
def test_prover_cardinality_is_exact(solver, n, k):
    """The prover's at-most-k (z3: AtMost; cvc5: a totalizer), through the solvers' APIs: satisfiable
    with the inputs fixed exactly when at most k of them are true."""
    from itertools import product

    from attncert.backends.solver_terms import BUILDERS
    from attncert.papers.infoflow.treesat import _at_most

    for bits in product((0, 1), repeat=n):
        B = BUILDERS[solver]()
        xs = [B.boolean(f"x{i}") for i in range(n)]
        facts = _at_most(B, xs, k, "t") + [x if b else B.not_(x) for x, b in zip(xs, bits)]
        assert B.solve(facts, 10)[0] == ("sat" if sum(bits) <= k else "unsat"), bits


def test_oversized_dretrieval_problems_are_refused_quickly():
    """Attack round 4: a 3.5 KB treemin certificate with T = 24, D = 12 made the checker enumerate 2.7
    million active sets. Both sides refuse C(T, D) D^2 > 100,000 up front, with one line."""
    import time

    from attncert.core.errors import InvalidParameter
    from attncert.papers.infoflow.treesat import params

    t0 = time.perf_counter()
    with pytest.raises(Reject, match="matching variables"):
        tc.replay("dretrieval", 24, 12, [[1]] * 12)
    with pytest.raises(InvalidParameter, match="matching variables"):
        params("dretrieval", 24, 12)
    assert time.perf_counter() - t0 < 1
    assert tc.params("dretrieval", 24, 3) == ("dretrieval", 24, 3)  # the benchmark's largest case stays
    counter, clauses = tc.at_most(["a", "b"], 0)  # k = 0: every x false
    assert counter == [] and clauses == ["(not a)", "(not b)"]
