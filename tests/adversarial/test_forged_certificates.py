"""Crafted certificates of false, undefined or unjustified claims, one group per class of hole
(docs/soundness.md). Each is written by this test with both hashes recomputed, and `verify` must not
accept it: REJECTED, or for a link, CONDITIONAL (exit 1 without --allow-conditional).

Classes: 1 names injected into solver text; 2 predictable randomness in the zero test; 3 division side
conditions; 4 identities where undefined; 5 n-ary max/min; 6 links (by/uses/duplicate ids); plus the
holes found by the attack rounds (boxes, sorts, derivative domains, atom arguments, samples, hostile
input that crashes or stalls)."""

from __future__ import annotations

import io
import subprocess
import sys
import time

from fractions import Fraction

import pytest

from attncert.checker import smtlib
from attncert.checker.trees import parse
from attncert.checker.verify import verify_paths

from .forge import cert, claim, num, old_sz_standins, op, var, write

pytestmark = pytest.mark.filterwarnings("ignore")
x, y = var("x"), var("y")
E1 = op("exp", num(1))


def smt_ev(c: dict) -> dict:
    """The most plausible smt evidence for a claim: the atoms and side-query count the checker's own
    translation gives, and 'unsat' from both solvers."""
    doms = {v["name"]: v["domain"] for v in c["vars"]}
    try:
        _, _, atoms, n_conds = smtlib.queries(doms, [parse(h["expr"]) for h in c["hyps"]], parse(c["goal"]))
    except Exception:  # a claim the translation refuses: forge with empty lists
        n_conds, atoms = 0, []
    return {"kind": "smt", "solvers": {"z3": "unsat", "cvc5": "unsat"}, "atoms": atoms, "side_queries": n_conds}


def id_ev(c: dict) -> dict:
    doms = {v["name"]: v["domain"] for v in c["vars"]}
    try:
        _, _, _, n_conds = smtlib.queries(doms, [parse(h["expr"]) for h in c["hyps"]], parse(c["goal"]))
    except Exception:
        n_conds = 0
    return {"kind": "identity", "prover": "forged", "solvers": {"z3": "unsat", "cvc5": "unsat"} if n_conds else {},
            "side_queries": n_conds}


def iv_ev(bits: int = 128) -> dict:
    return {"kind": "interval", "bits": bits, "margin": None}


def cx_ev(point: dict, bits: int = 128, zero: bool = False) -> dict:
    return {"kind": "counterexample", "point": {k: str(v) for k, v in point.items()}, "bits": bits,
            "margin": None, "zero_test": zero}


def verify(paths, allow_conditional: bool = False) -> tuple[int, str]:
    buf = io.StringIO()
    code = verify_paths([str(p) for p in paths], buf, solver_timeout=60.0, allow_conditional=allow_conditional)
    return code, buf.getvalue()


def needs_solvers():
    if not smtlib.available():
        pytest.skip("z3/cvc5 not installed")


# ------------------------------------------------------------------------- the forged single certificates

# declared, never used: the old printer produced "(declare-fun |x| () Real)(assert false)(declare-fun |y| ..."
INJECT = "x| () Real)\n(assert false)\n(declare-fun |y"
CASES = {
    # 1. names reaching the solver text
    "inject_bar_in_name": (claim([INJECT], [], op("lt", num(1), num(0))), "smt", "PROVED"),
    "inject_newline_in_name": (claim(["x\n(assert false)"], [], op("lt", num(1), num(0))), "smt", "PROVED"),
    "inject_in_var_node": (claim(["x"], [], op("lt", var("x) (assert false"), num(0))), "smt", "PROVED"),
    "inject_in_diff_var": (claim(["x"], [], op("eq", op("diff", x, "x|)(assert false)(|"), num(7))), "smt", "PROVED"),
    "name_too_long": (claim(["a" * 300], [], op("lt", num(1), num(0))), "smt", "PROVED"),
    # 2. predictable randomness: 'e is rational' with the old fixed seed's stand-in, and friends
    # (e - e) + 2^-3000 (e - A1)(e - A2)(e - A3)(e - A4) = 0 with A_i the old zero test's stand-ins for exp(1):
    # the intervals cannot separate it from 0, the old test found 0 at all 4 trials: 'e is algebraic' was accepted
    "e_is_a_root_of_the_standins": (claim([], [], op("eq", op("add", E1, op("neg", E1), op(
        "mul", num(Fraction(1, 2 ** 3000)), *[op("add", E1, op("neg", num(a))) for a in old_sz_standins()])),
        num(0))), "interval", "PROVED"),
    "e_minus_e_le_minus_tiny": (claim([], [], op("le", op("add", E1, op("neg", E1)), num(-1))), "interval", "PROVED"),
    "true_closed_undecidable": (claim([], [], op("eq", E1, E1)), "interval", "REFUTED"),
    "false_identity_exp": (claim(["x"], [], op("eq", op("exp", op("add", x, num(1))), op("mul", op("exp", x), num(3)))),
                           "identity", "PROVED"),
    # 3. division side conditions
    "div_twice_same_term": (claim(["x"], [op("eq", x, num(0))],
                                  op("le", op("add", num(1), op("mul", num(0), op("div", num(1), x)),
                                              op("mul", num(0), op("div", num(1), x))), num(0))), "smt", "PROVED"),
    "div_x_plus_1_over_x": (claim(["x"], [op("eq", x, num(0))],
                                  op("eq", op("add", op("div", op("add", x, num(1)), x), op("neg", op("div", num(1), x))),
                                     num(1))), "smt", "PROVED"),
    "div_in_hypothesis": (claim(["x"], [op("eq", x, num(0)), op("eq", op("div", num(1), x), num(5))],
                                op("lt", num(1), num(0))), "smt", "PROVED"),
    "div_inside_exp_atom": (claim(["x"], [op("eq", x, num(0))], op("gt", op("exp", op("div", num(1), x)), num(0))),
                            "smt", "PROVED"),
    "log_of_zero_atom": (claim([], [], op("gt", op("exp", op("log", num(0))), num(0))), "smt", "PROVED"),
    "negative_power_at_zero": (claim(["x"], [op("eq", x, num(0))], op("eq", op("mul", x, op("pow", x, -1)), num(1))),
                               "smt", "PROVED"),
    # 4. identities where a side is undefined
    "identity_x_over_x": (claim(["x"], [op("eq", x, num(0))], op("eq", op("mul", x, op("div", num(1), x)), num(1))),
                          "identity", "PROVED"),
    "identity_removable_pole": (claim(["x"], [op("eq", x, num(1))],
                                      op("eq", op("div", op("add", op("pow", x, 2), num(-1)), op("add", x, num(-1))),
                                         op("add", x, num(1)))), "identity", "PROVED"),
    "identity_exp_log_negative": (claim(["x"], [op("lt", x, num(0))], op("eq", op("exp", op("log", x)), x)),
                                  "identity", "PROVED"),
    "identity_derivative_of_log_neg": (claim(["x"], [], op("eq", op("diff", op("log", op("add", num(-1), op("neg", op(
        "pow", x, 2)))), "x"), op("div", op("mul", num(2), x), op("add", num(1), op("pow", x, 2))))), "identity", "PROVED"),
    "identity_atoms_collide": (claim(["x"], [], op("eq", op("div", op("add", op("pow", op("exp", x), 2),
                                                                             op("neg", op("exp", op("mul", num(2), x)))),
                                                                  op("add", op("pow", op("exp", x), 2),
                                                                     op("neg", op("exp", op("mul", num(2), x))))), num(1))),
                               "identity", "PROVED"),
    # 5. n-ary max/min
    "max_three_args": (claim([], [], op("lt", op("max", E1, E1, num(10)), num(5))), "interval", "PROVED"),
    "min_three_args": (claim([], [], op("gt", op("min", E1, E1, num(-10)), num(-5))), "interval", "PROVED"),
    # attack round 0: boxes, sorts, derivative domains, samples
    "counterexample_outside_box": (claim([("x", "real", 0, 1)], [], op("ge", x, num(0))), ("cx", {"x": -1}), "REFUTED"),
    "empty_box": (claim([("x", "real", 1, 0)], [], op("lt", num(1), num(0))), ("cx", {"x": 1}), "REFUTED"),
    "sort_or_with_number": (claim([], [], op("or", op("lt", num(1), num(0)), num(1))), "interval", "PROVED"),
    "sort_bool_as_number": (claim([], [], op("eq", op("add", op("lt", num(1), num(0)), num(1)), num(1))),
                            "interval", "PROVED"),
    "sort_term_as_goal": (claim(["x"], [], op("mul", x, num(0))), ("cx", {"x": 0}), "REFUTED"),
    "diff_drops_undefined_log": (claim(["x"], [], op("eq", op("diff", op("add", x, op("log", num(-1))), "x"), num(1))),
                                 ("cx_closed",), "PROVED"),
    "diff_of_pole": (claim(["x"], [], op("eq", op("diff", op("div", num(1), num(0)), "x"), num(0))), "identity", "PROVED"),
    "diff_nowhere_defined_refuted": (claim(["x"], [], op("ne", op("diff", op("log", op("add", num(-1), op(
        "neg", op("pow", x, 2)))), "x"), op("div", op("mul", num(2), x), op("add", num(1), op("pow", x, 2))))),
                                     ("cx", {"x": 1}), "REFUTED"),
    "sample_undecided_worst": (claim([("x", "real", "1/2", 2)], [], op("gt", op("log", x), num(100))),
                               ("sample", {"x": "1/2"}), "CONFIRMED"),
    "sample_outside_box": (claim([("x", "real", "1/2", 2)], [], op("gt", op("log", x), num(-100))),
                           ("sample", {"x": 0}), "CONFIRMED"),
    "diff_of_abs": (claim(["x"], [op("eq", x, num(0))], op("eq", op("pow", op("diff", op("abs", x), "x"), 2), num(1))),
                    "smt", "PROVED"),
}


def _evidence(c: dict, kind):
    if kind == "smt":
        return smt_ev(c)
    if kind == "identity":
        return id_ev(c)
    if kind == "interval":
        return iv_ev()
    if kind[0] == "cx":
        return cx_ev(kind[1])
    if kind[0] == "cx_closed":
        return cx_ev({v["name"]: 0 for v in c["vars"]})
    if kind[0] == "sample":
        return {"kind": "sample", "samples": 100, "seed": 0, "dps": 30, "box": {},
                "worst_point": {k: str(v) for k, v in kind[1].items()}, "worst_margin": None}
    raise ValueError(kind)


@pytest.mark.parametrize("name", sorted(CASES))
def test_forged_certificate_is_rejected(tmp_path, name):
    c, kind, verdict = CASES[name]
    if kind in ("smt", "identity"):
        needs_solvers()
    ev = _evidence(c, kind)
    if kind == ("cx_closed",):  # a derivative claim 'proved' by a point evaluation needs the interval kind
        ev = iv_ev()
        c = dict(c, vars=[])
        c["goal"] = op("eq", op("diff", op("add", num(0), op("log", num(-1))), "x"), num(1))
    p = write(tmp_path, cert(f"forged.{name}", c, ev, verdict))
    code, text = verify([p])
    assert code == 1, text
    assert "REJECTED" in text or "CANNOT CHECK" in text, text
    assert "OK " not in text


def test_every_known_verdict_kind_has_a_forgery():
    kinds = {k if isinstance(k, str) else k[0] for _, k, _ in CASES.values()}
    assert {"smt", "identity", "interval", "cx", "sample"} <= kinds


# ------------------------------------------------------------------------- hostile input

def test_crashing_input_does_not_stop_the_batch(tmp_path):
    bad = cert("forged.crash", claim([], [], op("gt", op("exp", op("pow", op("lt", num(1), num(0)), 3)), num(0))),
               iv_ev())
    good_claim = claim([], [], op("lt", num(1), num(2)))
    good = cert("fine.closed", good_claim, iv_ev())
    pb, pg = write(tmp_path, bad), write(tmp_path, good)
    code, text = verify([pb, pg])
    assert code == 1
    assert "REJECTED" in text and "OK " in text  # the good one is still reported


def test_huge_exp_argument_is_refused_fast(tmp_path):
    c = claim([], [], op("gt", op("exp", num(10 ** 60)), num(0)))
    p = write(tmp_path, cert("forged.huge_exp", c, iv_ev()))
    t0 = time.perf_counter()
    code, text = verify([p])
    assert code == 1 and "REJECTED" in text
    assert time.perf_counter() - t0 < 20


def test_retired_schema_is_rejected_with_a_reason(tmp_path):
    c = claim([], [], op("lt", num(1), num(2)))
    p = write(tmp_path, cert("old.one", c, iv_ev(), schema="attncert.cert/1"))
    code, text = verify([p])
    assert code == 1 and "retired" in text and "re-issue" in text


# ------------------------------------------------------------------------- 6. links

def _proved_fact(tmp_path, cid="lemma.sq_nonneg"):
    c = claim(["t"], [], op("ge", op("pow", var("t"), 2), num(0)))
    return write(tmp_path, cert(cid, c, smt_ev(c)))


def test_link_to_an_unrelated_goal_is_conditional(tmp_path):
    needs_solvers()
    lemma = _proved_fact(tmp_path)
    # 'x > 5' is not an instance of 't^2 >= 0'
    c = claim(["x"], [(op("gt", x, num(5)), "lemma.sq_nonneg")], op("gt", x, num(4)))
    p = write(tmp_path, cert("uses.unrelated", c, smt_ev(c)))
    code, text = verify([lemma, p])
    assert code == 1 and "CONDITIONAL" in text and "not an instance" in text
    code, text = verify([lemma, p], allow_conditional=True)
    assert code == 0 and "CONDITIONAL" in text


def test_link_that_is_an_instance_verifies(tmp_path):
    needs_solvers()
    lemma = _proved_fact(tmp_path)
    inst = op("ge", op("pow", op("add", x, num(1)), 2), num(0))
    c = claim(["x"], [(inst, "lemma.sq_nonneg")], op("ge", op("add", op("pow", op("add", x, num(1)), 2), num(1)), num(1)))
    p = write(tmp_path, cert("uses.instance", c, smt_ev(c)))
    code, text = verify([lemma, p])
    assert code == 0, text
    assert "CONDITIONAL" not in text


def test_cited_hypotheses_must_come_along(tmp_path):
    needs_solvers()
    lc = claim(["t"], [op("gt", var("t"), num(0))], op("gt", op("mul", var("t"), var("t")), num(0)))
    lemma = write(tmp_path, cert("lemma.pos_sq", lc, smt_ev(lc)))
    # instance t := x, but the citing claim does not assume x > 0
    c = claim(["x"], [(op("gt", op("mul", x, x), num(0)), "lemma.pos_sq")], op("ne", x, num(0)))
    p = write(tmp_path, cert("uses.missing_premise", c, smt_ev(c)))
    code, text = verify([lemma, p])
    assert code == 1 and "CONDITIONAL" in text and "is not another hypothesis" in text


def test_link_to_a_refuted_certificate_is_conditional(tmp_path):
    needs_solvers()
    lc = claim(["t"], [], op("ge", var("t"), num(0)))
    lemma = write(tmp_path, cert("lemma.false", lc, cx_ev({"t": -1}), "REFUTED"))
    c = claim(["x"], [(op("ge", x, num(0)), "lemma.false")], op("ge", op("add", x, num(1)), num(1)))
    p = write(tmp_path, cert("uses.refuted", c, smt_ev(c)))
    code, text = verify([lemma, p])
    assert code == 1 and "CONDITIONAL" in text and "REFUTED" in text


def test_missing_source_is_conditional(tmp_path):
    needs_solvers()
    c = claim(["x"], [(op("ge", x, num(0)), "some.lemma.not.here")], op("ge", op("add", x, num(1)), num(1)))
    p = write(tmp_path, cert("uses.missing", c, smt_ev(c)))
    code, text = verify([p])
    assert code == 1 and "CONDITIONAL" in text and "not a certificate in this set" in text


def test_uses_must_equal_the_cited_sources(tmp_path):
    c = claim(["x"], [(op("ge", x, num(0)), "lemma.a")], op("ge", x, num(0)))
    for uses in ([], ["lemma.a", "lemma.b"], ["lemma.b"]):
        p = write(tmp_path, cert("uses.mismatch", c, iv_ev(), uses=uses))
        code, text = verify([p])
        assert code == 1 and "REJECTED" in text and "uses must list exactly" in text


def test_duplicate_ids_are_an_error(tmp_path):
    c1 = claim([], [], op("lt", num(1), num(2)))
    c2 = claim([], [], op("lt", num(1), num(3)))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    p1 = write(tmp_path / "a", cert("same.id", c1, iv_ev()))
    p2 = write(tmp_path / "b", cert("same.id", c2, iv_ev()))
    code, text = verify([p1, p2])
    assert code == 1 and "duplicate id" in text


def test_cli_exit_codes_for_conditional(tmp_path):
    needs_solvers()
    lemma = _proved_fact(tmp_path)
    c = claim(["x"], [(op("gt", x, num(5)), "lemma.sq_nonneg")], op("gt", x, num(4)))
    write(tmp_path, cert("uses.unrelated", c, smt_ev(c)))
    run = lambda *a: subprocess.run([sys.executable, "-m", "attncert.cli", "verify", str(tmp_path), *a],  # noqa: E731
                                    capture_output=True, text=True)
    assert run().returncode == 1
    r = run("--allow-conditional")
    assert r.returncode == 0 and "1 conditional" in r.stdout
    assert lemma.exists()


# ------------------------------------------------------------------------- 6b. links, attack round 1

def _exp_diff(a: str, b: str) -> list:
    return op("exp", op("add", var(a), op("neg", var(b))))


def test_derivative_variable_capture_is_not_an_instance(tmp_path):
    """A: d/dx exp(x - z) = exp(x - z) (true); A2: d/dy exp(y - y) = 0 (true). The 'instance' x, z := y of
    A would say d/dy exp(y - y) = exp(y - y) = 1: false, and with A2 it gave a verified 1 < 0."""
    needs_solvers()
    idev = {"kind": "identity", "prover": "forged", "solvers": {}, "side_queries": 0}
    a = cert("lemma.A", claim(["x", "z"], [], op("eq", op("diff", _exp_diff("x", "z"), "x"), _exp_diff("x", "z"))), idev)
    a2 = cert("lemma.A2", claim(["y"], [], op("eq", op("diff", _exp_diff("y", "y"), "y"), num(0))), idev)
    h1 = op("eq", op("diff", _exp_diff("y", "y"), "y"), _exp_diff("y", "y"))
    h2 = op("eq", op("diff", _exp_diff("y", "y"), "y"), num(0))
    c = claim(["y"], [(h1, "lemma.A"), (h2, "lemma.A2")], op("lt", num(1), num(0)))
    b = cert("uses.capture", c, smt_ev(c))
    paths = [write(tmp_path, x) for x in (a, a2, b)]
    code, text = verify(paths)
    assert code == 1 and "CONDITIONAL" in text and "derivative" in text, text
    assert "OK " + str(paths[2]) not in text


def test_defined_quantity_is_not_a_lemma(tmp_path):
    """A tree minimum's defined variable is one number, not a universally quantified variable."""
    ev = {"kind": "none", "reason": "forged"}
    t = cert("tree.min", claim([("nmin[pairwise,T=3,D=1]", "defined")], [], op("eq", var("nmin[pairwise,T=3,D=1]"),
                                                                                 num(3))), ev, "UNKNOWN")
    t["verdict"] = "PROVED"  # the link check must not care how the cited certificate got verified
    c = claim([], [(op("eq", num(0), num(3)), "tree.min")], op("lt", num(1), num(0)))
    b = cert("uses.defined", c, iv_ev())
    # b's own evidence fails (0 = 3 is false at the empty point), so check the link function directly
    from attncert.checker.verify import check_link
    reason, _ = check_link(b, 0, t)
    assert reason and "defined quantity" in reason


def test_self_and_mutual_support_are_circular(tmp_path):
    needs_solvers()
    # A: 1 = 4 => 0 = 3 ; C: 0 = 3 => 1 = 4 (both vacuously true implications)
    h03, h14 = op("eq", num(0), num(3)), op("eq", num(1), num(4))
    a_c = claim([], [h14], h03)
    c_c = claim([], [h03], h14)
    a = write(tmp_path, cert("lemma.A", a_c, smt_ev(a_c)))
    cc = write(tmp_path, cert("lemma.C", c_c, smt_ev(c_c)))
    # B: 0 = 3 (by A, carrying 1 = 4) and 1 = 4 (by C, carrying 0 = 3) => 1 < 0
    bc = claim([], [(h03, "lemma.A"), (h14, "lemma.C")], op("lt", num(1), num(0)))
    b = write(tmp_path, cert("uses.mutual", bc, smt_ev(bc)))
    code, text = verify([a, cc, b])
    assert code == 1 and "circular" in text, text
    # self support: A' is 0 = 3 => 0 = 3; B' cites A' for its only hypothesis 0 = 3, which A' needs carried
    s_c = claim([], [h03], h03)
    s = write(tmp_path, cert("lemma.S", s_c, smt_ev(s_c)))
    b2c = claim([], [(h03, "lemma.S")], op("lt", num(1), num(0)))
    b2 = write(tmp_path, cert("uses.self", b2c, smt_ev(b2c)))
    code, text = verify([s, b2])
    assert code == 1 and "CONDITIONAL" in text and "is not another hypothesis" in text, text


def test_a_certificate_citing_itself_is_circular(tmp_path):
    needs_solvers()
    h03 = op("eq", num(0), num(3))
    # hypothesis 1 cites the certificate itself, carrying its own hypothesis (a copy at index 2)
    c = claim([], [(h03, "lemma.self"), h03], h03)
    p = write(tmp_path, cert("lemma.self", c, smt_ev(c)))
    code, text = verify([p])
    assert code == 1 and "circular" in text, text


def test_conditional_status_propagates(tmp_path):
    needs_solvers()
    ac = claim(["t"], [(op("ge", var("t"), num(0)), "not.in.the.set")], op("ge", op("add", var("t"), num(1)), num(1)))
    a = write(tmp_path, cert("lemma.cond", ac, smt_ev(ac)))
    bc = claim(["x"], [(op("ge", op("add", x, num(1)), num(1)), "lemma.cond"), op("ge", x, num(0))],
               op("ge", op("add", x, num(2)), num(1)))
    b = write(tmp_path, cert("uses.cond", bc, smt_ev(bc)))
    code, text = verify([a, b])
    assert code == 1
    assert text.count("CONDITIONAL") == 2 and "not verified itself" in text, text


def test_a_free_text_fact_is_an_open_premise(tmp_path):
    """'fact:...' names nothing checkable: the certificate is CONDITIONAL (it used to verify, with the fact
    only listed as trusted), and exit 1 without --allow-conditional."""
    needs_solvers()
    c = claim([], [(op("eq", num(0), num(3)), "fact:arithmetic")], op("lt", num(1), num(0)))
    p = write(tmp_path, cert("uses.fact", c, smt_ev(c)))
    code, text = verify([p])
    assert code == 1 and "CONDITIONAL" in text and "unchecked premise ('arithmetic')" in text, text


# ------------------------------------------------------------------------- attack round 2

def test_exp_cutoff_is_sound_under_raised_precision(tmp_path):
    """exp(q) for q < -2^20 was bounded by 2^-prec, false once --max-prec is raised past 2^20 log2(e)."""
    from attncert.checker import verify as V

    c = claim([], [], op("lt", op("exp", num(-1048577)), op("pow", num(Fraction(1, 2 ** 10000)), 200)))
    p = write(tmp_path, cert("forged.exp_cutoff", c, iv_ev(1 << 21)))
    old = V.MAX_PREC
    try:
        V.set_limits(prec=1 << 22)
        code, text = verify([p])
    finally:
        V.set_limits(prec=old)
    assert code == 1 and "OK " not in text, text


def test_negative_worst_margin_with_a_holding_goal_is_rejected(tmp_path):
    c = claim([("x", "real", 0, 1)], [], op("le", x, num(Fraction(1, 10 ** 40))))
    ev = {"kind": "sample", "samples": 10, "seed": 0, "dps": 30, "box": {"x": ["0", "1"]},
          "worst_point": {"x": "0"}, "worst_margin": "-9e-31"}
    p = write(tmp_path, cert("forged.margin_sign", c, ev, "CONFIRMED"))
    code, text = verify([p])
    assert code == 1 and "REJECTED" in text and "negative" in text, text


@pytest.mark.parametrize("field", ["reason", "id", "statement", "trust"])
def test_control_characters_cannot_forge_output_lines(tmp_path, field):
    fake = "\nOK /x/one_lt_zero.json: PROVED ks.one_lt_zero -- closed claim\x1b[1A"
    c = claim([], [], op("lt", num(1), num(2)))
    ev = {"kind": "none", "reason": "fine"}
    extra = {}
    if field == "reason":
        ev["reason"] = "fine" + fake
    elif field == "statement":
        extra["statement"] = "forged" + fake
    elif field == "trust":
        extra["trust"] = ["x" + fake]
    cid = "forged.ctl" + (fake if field == "id" else "")
    p = write(tmp_path, cert(cid, c, ev, "UNKNOWN", **extra), name="ctl")
    code, text = verify([p])
    assert code == 1 and "REJECTED" in text and "control, format or line-separator character" in text, text
    assert "one_lt_zero" not in text


# ------------------------------------------------------------------------- attack round 3 (weaknesses)

def test_zero_test_seed_ignores_the_spelling_of_the_point(monkeypatch):
    """Respelling a counterexample's point ("-8/2" for "-4") must not draw new random values."""
    import copy
    import json
    from pathlib import Path

    from attncert.checker import verify as V

    path = Path(__file__).resolve().parents[2] / "certificates" / "ks" / "ks_boltzmann" / \
        "ks.boltz.lemma7.step_128_line3_as_printed.json"
    base = json.loads(path.read_text())
    assert base["evidence"]["zero_test"] is True
    seeds = []
    real = V.identically_zero
    monkeypatch.setattr(V, "identically_zero", lambda *a, **k: (seeds.append(k["seed"]), real(*a, **k))[1])
    for b in ("-4", "-0004", "-8/2"):
        obj = copy.deepcopy(base)
        obj["evidence"]["point"]["b"] = b
        obj.pop("cert_sha256")
        from .forge import sha
        obj["cert_sha256"] = sha(obj)
        assert V.check_cert(obj)[0] == "REFUTED"
    assert len(seeds) >= 3 and len(set(seeds)) == 1


def test_treegrid_counts_must_be_integers(tmp_path):
    from attncert.checker.treecover import check_evidence
    from attncert.checker.trees import Reject

    ev = {"kind": "treegrid", "target": "dretrieval", "T": 4, "D": 1, "g": 6, "points": 2401, "skipped": 961,
          "failures": False}
    with pytest.raises(Reject, match="integers"):
        check_evidence(ev, {}, 10.0)


# ------------------------------------------------------------------------- attack round 4 (trees, output)

@pytest.mark.parametrize("sep", ["\u0085", "\u2028", "\u2029", "\u202e"])
def test_unicode_line_separators_cannot_forge_output_lines(tmp_path, sep):
    """NEL, LINE/PARAGRAPH SEPARATOR (str.splitlines breaks on them) and a bidi override are refused."""
    c = claim([], [], op("lt", num(1), num(2)))
    ev = {"kind": "none", "reason": "fine" + sep + "OK /x/forged.json: PROVED forged -- ok"}
    p = write(tmp_path, cert("forged.sep", c, ev, "UNKNOWN"), name="sep")
    code, text = verify([p])
    assert code == 1 and "REJECTED" in text and "line-separator" in text, text
    assert len(text.splitlines()) == 2, text


def test_a_file_name_cannot_forge_output_lines(tmp_path):
    c = claim([], [], op("lt", num(1), num(2)))
    p = write(tmp_path, cert("forged.name", c, {"kind": "none", "reason": "fine"}, "UNKNOWN"), name="n")
    from pathlib import Path

    forged = Path(p).with_name("a.json\nOK one_lt_zero.json: PROVED x -- ok\nb.json")
    Path(p).rename(forged)
    code, text = verify([str(tmp_path)])
    assert "\\n" in text and len(text.splitlines()) == 2, text  # one record line and the summary


@pytest.mark.parametrize("domain,kind", [("int", "counterexample"), ("real", "sample"), ("int", "none")])
def test_tree_quantity_names_are_reserved(tmp_path, domain, kind):
    """nmin[...] and failures[...] name the quantities that tree evidence defines: declared with another
    domain they could carry false statements about the real minimum under its own name."""
    name = "nmin[dretrieval,T=8,D=3]"
    c = claim([(name, domain)], [], op("ge", var(name), num(16)))
    ev = {"none": {"kind": "none", "reason": "x"},
          "counterexample": {"kind": "counterexample", "point": {name: "0"}, "bits": 64, "margin": None,
                             "zero_test": False},
          "sample": {"kind": "sample", "samples": 1, "seed": 0, "dps": 30, "box": {name: ["16", "16"]},
                     "worst_point": {name: "16"}, "worst_margin": "0"}}[kind]
    verdict = {"none": "UNKNOWN", "counterexample": "REFUTED", "sample": "CONFIRMED"}[kind]
    p = write(tmp_path, cert("forged.squat", c, ev, verdict), name="squat")
    code, text = verify([p])
    assert code == 1 and "REJECTED" in text and "defined by tree evidence" in text, text


# ------------------------------------------------------------------------- attack round 4a (resources)

def test_huge_exact_powers_are_evaluated_as_intervals(tmp_path):
    """3^(10^8) built as an exact integer took 133 s; past 2^20 result bits the power is an interval."""
    import time

    c = claim([], [], op("gt", op("pow", op("pow", num(3), 10000), 10000), num(0)))
    p = write(tmp_path, cert("forged.bigpow", c, {"kind": "interval", "bits": 128, "margin": None}))
    t0 = time.perf_counter()
    code, text = verify([p])
    assert code == 0 and "OK " in text and time.perf_counter() - t0 < 10, text  # true, and quick


def test_worst_margin_exponent_is_bounded(tmp_path):
    """'1e-999999999' as the recorded margin made the checker build 10^999999999 (218 MB, minutes)."""
    c = claim([("x", "real", 0, 1)], [], op("le", x, num(2)))
    ev = {"kind": "sample", "samples": 10, "seed": 0, "dps": 30, "box": {"x": ["0", "1"]},
          "worst_point": {"x": "1"}, "worst_margin": "1e-999999999"}
    p = write(tmp_path, cert("forged.margin_exp", c, ev, "CONFIRMED"))
    code, text = verify([p])
    assert code == 1 and "REJECTED" in text and "exponent" in text, text


def test_exp_log_work_budget_rejects_with_one_line(tmp_path):
    """A deterministic budget of exp/log work per certificate (not a clock): past it, REJECTED naming the
    budget. 300 distinct logs at 131,072 bits would take hours; here a small budget shows the rule."""
    from attncert.checker import qarith
    from attncert.checker import verify as V

    goal = op("gt", op("add", *[op("log", num(Fraction(k + 2, k + 1))) for k in range(40)]), num(0))
    p = write(tmp_path, cert("forged.work", claim([], [], goal), {"kind": "interval", "bits": 4096, "margin": None}))
    assert verify([p])[0] == 0  # within the default budget: a true claim, accepted
    old = qarith.MAX_WORK
    try:
        V.set_limits(work=200)
        code, text = verify([p])
    finally:
        V.set_limits(work=old)
    assert code == 1 and "exp/log work than the checker's budget" in text, text


# ------------------------------------------------------------------------- attack round 5 (resources, exit codes)

def test_exact_products_are_capped_too(tmp_path):
    """A product of 50 powers of about 2^20 bits each ran 106 s exactly (439 s at 100); an exact result
    that may exceed 2^20 bits is an interval now, for every operation, not only pow."""
    import time

    X = op("pow", op("pow", num(3), 10000), 66)
    c = claim([], [], op("gt", op("mul", *[X] * 100), num(0)))
    p = write(tmp_path, cert("forged.bigmul", c, {"kind": "interval", "bits": 32, "margin": None}))
    t0 = time.perf_counter()
    code, text = verify([p])
    assert code == 0 and "OK " in text and time.perf_counter() - t0 < 10, text


def test_a_broken_tree_certificate_is_rejected_even_without_solvers(tmp_path):
    """With no solver to re-run, a treemin file with nothing valid in it was CANNOT CHECK (exit 3); the
    evidence is validated and the witness replayed first, so it is REJECTED (exit 1)."""
    from attncert.checker import smtlib

    name = "nmin[dretrieval,T=8,D=3]"
    ev = {"kind": "treemin", "target": "dretrieval", "T": 8, "D": 3, "minimum": 100, "witness": [[1], [2], [3]],
          "solvers": {"cvc5": "unsat", "z3": "unsat"}}
    p = write(tmp_path, cert("forged.tree", claim([(name, "defined")], [], op("ge", var(name), num(100))), ev))
    smtlib.choose([])
    try:
        code, text = verify([p])
    finally:
        smtlib.choose(None)
    assert code == 1 and "REJECTED" in text and "CANNOT" not in text, text
