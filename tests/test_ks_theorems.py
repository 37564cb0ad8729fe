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


# ----------------------------------------------------------------------------- Corollary 1, built


@pytest.fixture(scope="module")
def cor1():
    from attncert.papers.ks import memorise as mem

    ds = ks.random_dataset(3, 2, 2, 1, vocab_size=4)
    r = ks.run(ds, seed=0, reference=False)
    net, info = mem.build(r.layer, 3, 0, r.bits)
    assert net is not None, info
    return r, net, info


def test_cor1_memorises_exactly(cor1, tmp_path):
    """(17) on a built instance: every projection on its side of every ramp (arb), the labels exact, the
    mpmath evaluation of the whole block (3) equal to the labels, the sides certified and re-verified."""
    from attncert.api import write_certificates
    from attncert.checker.verify import verify_paths
    from attncert.papers.ks import memorise as mem

    r, net, info = cor1
    ds = r.layer.ds
    sides = mem.check_sides_arb(r.layer, net, info["rep"], r.bits)
    assert sides["all"] and not sides["undecided"] and sides["checks"] == len(net.order) * len(net.live)
    assert not mem.check_structure(net)
    exact = mem.outputs_exact(net, ds, info["rep"])
    assert all(exact[(i, k)] == info["labels"][mem.context_key(ds, i, k)] for i in range(ds.N) for k in range(ds.n))
    # the reference needs the digits of the gaps (about 10^-14000 here): at 400 digits it cannot see the ramps
    assert mem.mpmath_outputs(r.layer, net, info["rep"], int(r.bits * 0.30103) + 10) == 0
    res = run_obligation(mem.certify_sides(r.layer, net, info["rep"], mem.cert_bits(net, r.layer)), 300)
    assert res.verdict == Verdict.PROVED
    path = write_certificates([res], str(tmp_path))[0]
    assert verify_paths([path], io.StringIO()) == 0


def test_cor1_labels_are_consistent():
    from attncert.papers.ks import memorise as mem

    ds = ks.random_dataset(4, 3, 2, 3, vocab_size=4)
    lab = mem.labels(ds, 5, ds.d, 0)
    seen: dict = {}
    for i in range(ds.N):
        for k in range(ds.n):
            key = (frozenset(ds.X[i]), ds.X[i][k])
            y = lab[mem.context_key(ds, i, k)]
            assert all(1 <= c <= 5 for c in y) and seen.setdefault(key, y) == y


def test_cor1_planted_wrong_side_is_not_proved(cor1):
    """Ramps of the wrong width (a ramp wider than the gap it sits in) put a projection inside a ramp: the
    side check fails and the certificate claim is REFUTED, never PROVED."""
    import dataclasses

    from attncert.papers.ks import memorise as mem

    r, net, info = cor1
    wide = dataclasses.replace(net, k=tuple(0 for _ in net.k))       # h_j = 1: wider than every gap here
    assert not mem.check_sides_arb(r.layer, wide, info["rep"], r.bits)["all"]
    assert run_obligation(mem.certify_sides(r.layer, wide, info["rep"], r.bits), 300).verdict == Verdict.REFUTED
    # a wrong label in the block is caught by the exact evaluation
    bad = dataclasses.replace(net, y=(tuple(c + 1 for c in net.y[0]),) + net.y[1:])
    ds = r.layer.ds
    exact = mem.outputs_exact(bad, ds, info["rep"])
    assert any(exact[(i, k)] != info["labels"][mem.context_key(ds, i, k)] for i in range(ds.N) for k in range(ds.n))


def test_cor1_exact_evaluation_reads_the_weights(cor1, monkeypatch):
    """A block whose weights are not the memorising block (a cancelling unit of the wrong sign, a ramp's second
    output weight zeroed) is refused before any label is computed (attack round 10)."""
    from attncert.papers.ks import memorise as mem

    r, net, info = cor1
    real = mem.MemoNet.weights
    for plant in ("sign", "zero"):
        def weights(self, plant=plant):
            W1, b1, cols, b2 = real(self)
            cols = list(cols)
            if plant == "sign":
                cols[0] = tuple(-x for x in cols[0])
            else:
                cols[2 * self.d + 1] = tuple(0 for _ in cols[2 * self.d + 1])
            return W1, b1, cols, b2
        monkeypatch.setattr(mem.MemoNet, "weights", weights)
        assert mem.check_structure(net)
        with pytest.raises(ValueError, match="not the memorising block"):
            mem.outputs_exact(net, r.layer.ds, info["rep"])
    monkeypatch.setattr(mem.MemoNet, "weights", real)


@pytest.mark.parametrize("text, msg", [
    ('{"sequences": [[[1, 0], [0, 1]]], "labels": [[[5, 5], [7, 7]]]}', "unknown keys"),
    ('{"sequences": [[[1, 0], [0, 1]]], "eps": "1e-400"}', "outside"),
    ('{"sequences": [[["1_0", 0], [0, 1]]]}', "not a number"),
    ('{"sequences": [[[1, 0], [0, 1]]], "eps": 1e-400}', "outside"),        # a JSON float below 1e-308: not 0.0
    ('{"sequences": [[[1e308, 0], [0, 1]]]}', "outside"),
    ("[" * 100000 + "]" * 100000, "nested too deeply"),
])
def test_cor1_bad_dataset_files(text, msg, tmp_path):
    from attncert.cli import run

    p = tmp_path / "d.json"
    p.write_text(text)
    err = io.StringIO()
    assert run(["construct", "ks-cor1", "--dataset", str(p)], io.StringIO(), err) == 2
    assert msg in err.getvalue() and len(err.getvalue().strip().splitlines()) == 1


def test_random_vocab_larger_than_the_grid():
    from attncert.cli import run

    err = io.StringIO()
    assert run(["construct", "ks-cor1", "--random", "2,2,1,0", "--vocab", "9"], io.StringIO(), err) == 2
    assert "grid" in err.getvalue()


@given(st.integers(1, 200_000))
@settings(max_examples=60, deadline=None)
def test_two_to_minus_is_exact(k):
    from attncert.core.expr import eval_exact
    from attncert.papers.ks.memorise import _two_to_minus

    node = _two_to_minus(k)
    assert eval_exact(node, {}) == F(1, 2 ** k)
    stack = [node]
    while stack:
        n = stack.pop()
        if n[0] == "pow":
            assert abs(n[2]) <= 10_000
        stack.extend(c for c in n[1:] if isinstance(c, tuple))


def test_cli_cor1(tmp_path):
    from attncert.cli import run

    out, err = io.StringIO(), io.StringIO()
    rc = run(["construct", "ks-cor1", "--random", "2,2,2,1", "--vocab", "3", "--classes", "4", "--out", str(tmp_path),
              "--json", str(tmp_path / "r.json")], out, err)
    assert rc == 0, err.getvalue()
    rec = json.loads((tmp_path / "r.json").read_text())
    m = rec["memorise"]
    assert m["verdict"] == "PROVED" and m["sides"]["all"] and m["wrong_tokens"] == 0
    assert set(m["lemmas"].values()) == {"PROVED"} and m["mpmath_max_error"] == 0 and not m["reasons"]
    assert [len(m["Y"]), len(m["Y"][0]), len(m["Y"][0][0])] == [2, 2, 2]
    assert "(17) F(X^(i)) = Y^(i) exactly for all 4 tokens: PROVED" in out.getvalue()
    assert run(["construct", "ks-cor1", "--random", "2,2,2,1", "--classes", "0"], io.StringIO(), io.StringIO()) == 2
