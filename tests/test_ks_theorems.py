"""Kajitsuka-Sato Theorems 1-2, Corollaries 1-2, Proposition 1: the hardmax z3/cvc5 proofs (and a broken
variant), the built contextual mapping verified by the checker, the float64 guard, the ReLU pieces, bad
dataset files."""

from __future__ import annotations

import io
import json
import math
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from attncert.core.engine import run_obligation
from attncert.core.errors import InvalidParameter
from attncert.core.verdict import Verdict

pytest.importorskip("flint")

from attncert.papers.ks import construct as ks  # noqa: E402


def _obs():
    from attncert.core.families import all_families

    return {o.id: o for f in all_families() if f.name == "ks_theorems" for o in f.obligations}


@pytest.fixture(scope="module")
def obs():
    return _obs()


# ----------------------------------------------------------------------------- Theorem 1 (hardmax)

def test_hardmax_repaired_is_proved_by_both_solvers(obs):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    r = run_obligation(obs["ks.thm.thm1.equal_outputs_repaired"], 60)
    assert r.verdict == Verdict.PROVED
    assert "z3" in json.dumps(r.evidence.detail) and "cvc5" in json.dumps(r.evidence.detail)


def test_hardmax_as_printed_is_refuted_by_replay(obs):
    for oid in ("ks.thm.thm1.argmax_extremes_as_printed", "ks.thm.thm1.equal_outputs_as_printed"):
        r = run_obligation(obs[oid], 60)
        assert r.verdict == Verdict.REFUTED and r.evidence.detail["kind"] == "counterexample"
        assert r.evidence.detail["point"]["c"] == "0"


def test_hardmax_broken_variant_is_not_proved(obs):
    """Dropping a2 + a5 = a3 + a6 from the repaired claim must not be PROVED (z3 finds a model)."""
    import dataclasses

    from attncert.core.claims import Claim

    pytest.importorskip("z3")
    ob = obs["ks.thm.thm1.equal_outputs_repaired"]
    hyps = tuple(h for h in ob.claim.hyps if h.expr[0] != "eq" or "a5" not in repr(h.expr))
    assert len(hyps) == len(ob.claim.hyps) - 1
    broken = dataclasses.replace(ob, claim=Claim(ob.claim.vars, hyps, ob.claim.goal), id=ob.id + ".broken")
    assert run_obligation(broken, 60).verdict != Verdict.PROVED


@pytest.mark.parametrize("cq", [F(0), F(1), F(-2)])
def test_hardmax_uniform_ties_numerically(cq):
    """Exact hardmax averages (uniform ties) of the repaired pair agree for every c alpha_q, the printed pair
    only when c alpha_q != 0."""
    def hard(toks):
        s = [cq * t for t in toks]
        m = max(s)
        win = [t for t, x in zip(toks, s) if x == m]
        return sum(win, F(0)) / len(win)
    assert hard([0, 1, 4, 5]) == hard([0, 2, 3, 5])
    assert (hard([1, 2, 4]) == hard([1, 3, 4])) == (cq != 0)


# ----------------------------------------------------------------------------- Proposition 1

def relu(x):
    return max(x, F(0))


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.fractions(min_value=-3, max_value=3), st.fractions(min_value=F(1, 100), max_value=F(49, 100)))
def test_penalty_59_repaired_and_printed(z, dt):
    printed = relu((z - 1) / dt) - relu((z - 1) / dt - 1) - relu(-z / dt) - relu(-z / dt - 1)
    fixed = -(relu((z - 1) / dt) - relu((z - 1) / dt - 1)) - (relu(-z / dt) - relu(-z / dt - 1))
    if z < -dt or z >= 1 + dt:
        assert fixed == -1
        assert printed != -1
    elif 0 < z < 1:
        assert fixed == 0 == printed


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.fractions(min_value=-3, max_value=3))
def test_bump_67(x):
    assert relu(x - 1) - 2 * relu(x) + relu(x + 1) == max(F(0), 1 - abs(x))
    if x >= 1:
        assert relu(x - 1) - relu(x) + relu(x + 1) == x     # the printed summand is unbounded


def test_prop1_and_cor2_verdicts(obs):
    expect = {"ks.thm.prop1.penalty_59_as_printed": Verdict.REFUTED, "ks.thm.prop1.penalty_59_repaired": Verdict.PROVED,
              "ks.thm.prop1.bump_67_as_printed": Verdict.REFUTED, "ks.thm.prop1.bump_67_repaired": Verdict.PROVED,
              "ks.thm.prop1.quant_58_as_printed.D2": Verdict.REFUTED, "ks.thm.prop1.quant_57.D2": Verdict.PROVED,
              "ks.thm.cor2.separation_48_as_printed": Verdict.REFUTED, "ks.thm.thm2.step_42_as_printed": Verdict.REFUTED,
              "ks.thm.thm2.step_42_repaired": Verdict.PROVED, "ks.thm.thm2.delta_47_vs_8": Verdict.PROVED}
    for oid, v in expect.items():
        assert run_obligation(obs[oid], 60).verdict == v, oid


# ----------------------------------------------------------------------------- Theorem 2, built

@pytest.mark.parametrize("seed", [1, 2])
def test_construction_certified_and_checker_verifies(seed, tmp_path):
    from attncert.api import write_certificates
    from attncert.checker.verify import verify_paths

    ds = ks.random_dataset(2, 2, 2, seed, vocab_size=3)
    r = ks.run(ds, seed=0)
    assert r.lemma3["eq74"] and r.lemma3["eq75"]
    assert r.arb["norms_ok"] and r.arb["separated"] and not r.arb["undecided"]
    # mpmath at the same digits agrees with arb on the achieved separation
    assert abs(r.mpmath["log10_min_separation"] - r.arb["log10_min_separation"]) < 1e-6
    assert r.arb["log10_min_separation"] > r.arb["log10_delta_up"]
    res = run_obligation(ks.certify_layer(r.layer, r.cert_bits), 120)
    assert res.verdict == Verdict.PROVED
    path = write_certificates([res], str(tmp_path))[0]
    assert verify_paths([path], io.StringIO()) == 0
    # the certificate is deterministic
    again = write_certificates([run_obligation(ks.certify_layer(r.layer, r.cert_bits), 120)], str(tmp_path / "b"))[0]
    assert open(path, "rb").read() == open(again, "rb").read()


def test_lemma2_vector_satisfies_72_exactly():
    ds = ks.random_dataset(3, 3, 3, 5, vocab_size=5)
    v, _ = ks.lemma2_vector(ds, seed=3)
    assert sum(c * c for c in v) <= 1
    pts = list(ds.vocab) + [tuple(F(0) for _ in range(3))]
    c2 = 8 / (F(333, 106) * 3 * F(len(pts)) ** 4)
    for a in pts:
        for b in pts:
            if a != b:
                df = [x - y for x, y in zip(a, b)]
                assert sum(x * y for x, y in zip(v, df)) ** 2 >= c2 * sum(x * x for x in df)


@pytest.mark.parametrize("args", [(2, 2, 2, 1, 3), (3, 3, 2, 0, 6)])
def test_float64_never_passes(args):
    N, n, d, seed, V = args
    layer = ks.build(ks.random_dataset(N, n, d, seed, vocab_size=V))
    f = ks.verify_float64(layer)
    assert f["verdict"] == "UNKNOWN" and "float64 cannot represent delta" in f["reason"]


def test_planted_wrong_weight_is_refuted():
    """A W_O ten times too large breaks the norm bound r of (7): the certificate claim is REFUTED."""
    import dataclasses

    ds = ks.random_dataset(2, 2, 2, 1, vocab_size=3)
    layer = ks.build(ds)
    big = dataclasses.replace(layer, wo=layer.wo * 40)
    assert run_obligation(ks.certify_layer(big, 4096), 120).verdict == Verdict.REFUTED


# ----------------------------------------------------------------------------- bad input

BAD = {
    "dup": ({"sequences": [[[1, 0], [1, 0]]]}, "duplicate tokens"),
    "close": ({"sequences": [[[1, 0], [1.001, 0]]], "eps": 0.1}, "closer than eps"),
    "zero": ({"sequences": [[[0, 0], [1, 0]]]}, "zero tokens"),
    "shape": ({"sequences": [[[1, 0], [0, 1]], [[1, 0]]]}, "wrong shape"),
    "shape2": ({"sequences": [[[1, 0], [0, 1, 2]]]}, "wrong shape"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_dataset_files(name, tmp_path):
    from attncert.cli import run

    obj, msg = BAD[name]
    p = tmp_path / "d.json"
    p.write_text(json.dumps(obj))
    out, err = io.StringIO(), io.StringIO()
    assert run(["construct", "ks-thm2", "--dataset", str(p)], out, err) == 2
    line = err.getvalue().strip()
    assert msg in line and "\n" not in line and "Traceback" not in line


def test_nan_dataset(tmp_path):
    from attncert.cli import run

    p = tmp_path / "d.json"
    p.write_text('{"sequences": [[[NaN, 0], [1, 0]]]}')
    err = io.StringIO()
    assert run(["construct", "ks-thm2", "--dataset", str(p)], io.StringIO(), err) == 2
    assert "not finite" in err.getvalue()
    with pytest.raises(InvalidParameter, match="not finite"):
        ks.dataset([[["nan", 0], [1, 0]]])


def test_cli_random_small(tmp_path):
    from attncert.cli import run

    out, err = io.StringIO(), io.StringIO()
    rc = run(["construct", "ks-thm2", "--random", "2,2,2,1", "--vocab", "3", "--out", str(tmp_path),
              "--json", str(tmp_path / "r.json")], out, err)
    assert rc == 0, err.getvalue()
    text = out.getvalue()
    assert "PROVED" in text and "float64: UNKNOWN" in text and "mpmath reference" in text
    rec = json.loads((tmp_path / "r.json").read_text())
    assert rec["verdict"] == "PROVED" and rec["float64"]["verdict"] == "UNKNOWN"
    assert math.isfinite(rec["log10_delta_up"])
