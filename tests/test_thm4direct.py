"""The direct interval branch-and-bound of the whole Theorem 4 network (attncert.papers.infoflow.thm4direct).

What is asserted: the reduced form read from the stored weights is the network (numpy, mpmath); every
enclosure contains sampled true values (mpmath at 40 digits), including the final upper/lower bounds of
M2 - F on random boxes; the symmetries the search relies on hold; a planted wrong eps is REFUTED with a
replayed counterexample; a tampered network or split tree is refused; the search is deterministic."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

flint = pytest.importorskip("flint")

from attncert.papers.infoflow import thm4direct as td  # noqa: E402
from attncert.papers.infoflow.thm4direct import enclose as td_enclose  # noqa: E402
from attncert.papers.infoflow.thm4direct import search as td_search  # noqa: E402
from attncert.papers.infoflow import thm4net  # noqa: E402
from attncert.core.errors import InvalidParameter  # noqa: E402

NETS = {(T, v): thm4net.build(T, Fraction(9, 10), v) for T in (2, 3) for v in thm4net.VARIANTS}
# a sub-box of the fundamental domain that the search closes in well under a second
ROOT = [(0.5, 0.625), (0.25, 0.375), (0.0, 0.125), (-0.5, -0.375), (0.25, 0.375), (0.5, 0.625)]


@pytest.fixture(autouse=True)
def _prec():
    old = flint.ctx.prec
    flint.ctx.prec = td.PREC
    yield
    flint.ctx.prec = old


@pytest.mark.parametrize("key", sorted(NETS))
def test_reduced_form_is_the_network(key):
    net = NETS[key]
    red = td.reduce(net)
    assert red.symmetric and len(red.quads) == 3 and not red.groups
    X = np.random.default_rng(1).uniform(-1, 1, size=(200, net.T, 3))
    assert np.max(np.abs(td.forward_reduced(red, X) - thm4net.forward_np(net, X))) < 1e-12


def _tamper(net, name, i, j, value):
    m = [list(r) for r in getattr(net, name)]
    m[i][j] = Fraction(value)
    return dataclasses.replace(net, **{name: tuple(tuple(r) for r in m)})


@pytest.mark.parametrize("name,i,j,value", [("WK1", 0, 1, 1), ("WO1", 3, 0, "1/2"), ("embed", 1, 1, "1/4"),
                                            ("WQ2", 0, 0, 1), ("WO2", 3, 1, 1)])
def test_reduce_refuses_other_wiring(name, i, j, value):
    net = NETS[(2, "printed")]
    bad = _tamper(net, name, i, j, value)
    if name == "WO2":      # c2p[3] would read the constant 1/2 as well: still the layout, the constant moves
        red = td.reduce(bad)
        X = np.random.default_rng(0).uniform(-1, 1, size=(20, 2, 3))
        assert np.max(np.abs(td.forward_reduced(red, X) - thm4net.forward_np(bad, X))) < 1e-12
        return
    with pytest.raises(InvalidParameter, match="wiring"):
        td.reduce(bad)


def _L(m):
    return [list(r) for r in m]


def _T(m):
    return tuple(tuple(r) for r in m)


def test_reduce_refuses_shapes_and_indices_it_cannot_read():
    """Found in review: wirings that numpy reads differently from what a loose reader would read."""
    net = NETS[(2, "printed")]
    # a 3-row W_Q1/W_K1 (same scores) must not shrink the stream width that the other checks cover
    WO1 = _L(net.WO1)
    for i in range(3):
        WO1[3 + i][i] = Fraction(2)
    bad = dataclasses.replace(net, WQ1=_T(_L(net.WQ1)[:3]), WK1=_T(_L(net.WK1)[:3]), WO1=_T(WO1))
    with pytest.raises(InvalidParameter, match="wiring"):
        td.reduce(bad)
    # an F1 unit reading index -3 (numpy: coordinate 3 = v_0)
    extra = (thm4net.Group(((-3, Fraction(1)),), Fraction(0), ((0, Fraction(1)),), 1),)
    with pytest.raises(InvalidParameter, match="index"):
        td.reduce(dataclasses.replace(net, F1=dataclasses.replace(net.F1, groups=net.F1.groups + extra)))
    # a 7-wide stream after F1
    with pytest.raises(InvalidParameter, match="F1"):
        td.reduce(dataclasses.replace(net, F1=dataclasses.replace(net.F1, dim_out=7)))
    # the repaired output block reading index -6 (numpy: coordinate 0 of the classification token)
    rep = NETS[(2, "repaired")]
    g = thm4net.Group(((-6, Fraction(1)),), Fraction(0), ((0, Fraction(1)),), 1)
    with pytest.raises(InvalidParameter, match="index"):
        td.reduce(dataclasses.replace(rep, out_ffn=dataclasses.replace(rep.out_ffn, groups=rep.out_ffn.groups + (g,))))


def test_symmetry_flag_needs_the_unit_multiset():
    net = NETS[(2, "printed")]
    g = net.F1.groups[0]
    groups = (dataclasses.replace(g, bias=g.bias + Fraction(1, 1000)),) + net.F1.groups[1:]
    red = td.reduce(dataclasses.replace(net, F1=dataclasses.replace(net.F1, groups=groups)))
    assert not red.symmetric and len(red.quads) == 2 and len(red.groups) == 4
    assert td.start_box(2, red.symmetric)[0] == (-1.0, 1.0)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from(["printed", "repaired"]))
def test_network_is_invariant_under_the_symmetries(seed, variant):
    """Signed coordinate permutations (applied to every token) and token permutations leave M2 and F unchanged."""
    net = NETS[(3, variant)]
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(8, 3, 3))
    P = np.eye(3)[rng.permutation(3)] * rng.choice([-1.0, 1.0], size=3)
    Y = (X @ P.T)[:, rng.permutation(3)]
    assert np.allclose(thm4net.forward_np(net, X), thm4net.forward_np(net, Y), atol=1e-12)
    assert np.allclose(thm4net.target(X), thm4net.target(Y), atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1, 1), min_size=6, max_size=6))
def test_fundamental_domain_is_reached(xs):
    """Every input maps into the fundamental domain: largest-norm token first, signs flipped, sorted."""
    X = np.array(xs).reshape(2, 3)
    X = X[np.argsort(-np.abs(X).max(axis=1), kind="stable")]
    s = np.where(X[0] < 0, -1.0, 1.0)
    order = np.argsort(-np.abs(X[0]), kind="stable")
    Y = (X * s)[:, order]
    box = tuple((float(v), float(v)) for v in Y.reshape(-1))
    assert td_search._in_domain(box, 2, True)


def _dyadic_box(rng, T, k):
    w = 2.0 ** -k
    lo = np.floor(rng.uniform(-1, 1 - w, size=3 * T) / w) * w
    return tuple((float(a), float(a + w)) for a in lo)


def _mp_y_minus_F(net, x):
    y, F = thm4net.forward_mp(net, [[Fraction(float(c)) for c in x[3 * t:3 * t + 3]] for t in range(net.T)], dps=40)
    return float(y - F), float(y)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 6), st.sampled_from(sorted(NETS)))
def test_box_enclosures_contain_true_values(seed, k, key):
    """y and dy/dx over a box contain the values at points inside (mpmath; central differences)."""
    net = NETS[key]
    T = net.T
    kc = td_enclose._Consts(td.reduce(net))
    rng = np.random.default_rng(seed)
    box = _dyadic_box(rng, T, k)
    xb = [[td_enclose._ball(*box[3 * t + i]) for i in range(3)] for t in range(T)]
    mid = [(a + b) / 2 for a, b in box]
    xc = [[flint.arb(mid[3 * t + i]) for i in range(3)] for t in range(T)]
    rad = [flint.arb((b - a) / 2) for a, b in box]
    fb, fc, gy, da = td_enclose._box(kc, xb, xc, rad)
    for _ in range(3):
        x = np.array([rng.uniform(a, b) for a, b in box])
        _, y = _mp_y_minus_F(net, x)
        assert float(fb["y"].lower()) - 1e-12 <= y <= float(fb["y"].upper()) + 1e-12
        h = 1e-6
        for j in range(3 * T):
            xp, xm = x.copy(), x.copy()
            xp[j] += h
            xm[j] -= h
            if not (box[j][0] <= xm[j] and xp[j] <= box[j][1]):
                continue
            g = (thm4net.forward_np(net, xp.reshape(1, T, 3))[0] - thm4net.forward_np(net, xm.reshape(1, T, 3))[0]) / (2 * h)
            assert float(gy[j].lower()) - 1e-4 <= g <= float(gy[j].upper()) + 1e-4


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 6), st.sampled_from([(2, "printed"), (2, "repaired"), (3, "printed")]))
def test_box_bounds_are_sound(seed, k, key):
    """Whenever a box is proved, at any threshold (tight ones force the mean value and hull forms),
    lower <= M2 - F <= upper and |M2 - F| <= threshold at sampled points and a vertex (mpmath, 40 digits)."""
    net = NETS[key]
    kc = td_enclose._Consts(td.reduce(net))
    rng = np.random.default_rng(seed)
    box = _dyadic_box(rng, net.T, k)
    pts = [np.array([rng.uniform(a, b) for a, b in box]) for _ in range(4)]
    pts += [np.array([b if rng.random() < 0.5 else a for a, b in box])]
    errs = [_mp_y_minus_F(net, x)[0] for x in pts]
    for thr in ("1/50", "1/20", "1/10", "1/5", "1/2", "9/10"):
        ok, upper, lower, centre, score = td.evaluate_box(kc, box, td_enclose._q(Fraction(thr)))
        assert len(score) == 3 * net.T and max(score) > 0
        if ok:
            assert -float(Fraction(thr)) <= lower and upper <= float(Fraction(thr))
            for e in errs:
                assert lower - 1e-12 <= e <= upper + 1e-12
        e0 = float(centre.mid())
        assert abs(e0 - _mp_y_minus_F(net, np.array([(a + b) / 2 for a, b in box]))[0]) < 1e-12


def test_quad_product_form_equals_the_four_units():
    import mpmath

    net = NETS[(2, "printed")]
    red = td.reduce(net)
    i, w1, w2, b, A = red.quads[0]
    rng = np.random.default_rng(3)
    for u, y in rng.uniform(-1 / 3, 1 / 3, size=(20, 2)):
        with mpmath.workdps(40):
            u_, y_, b_, w1_, w2_ = (mpmath.mpf(float(v)) for v in (u, y, b, w1, w2))
            t = mpmath.tanh
            four = mpmath.mpf(A.numerator) / A.denominator * (
                t(b_ + w1_ * u_ + w2_ * y_) + t(b_ - w1_ * u_ - w2_ * y_) - t(b_ + w1_ * u_ - w2_ * y_) - t(b_ - w1_ * u_ + w2_ * y_))
        kc = td_enclose._Consts(red)
        g = td_enclose._quad(kc.quads[0], flint.arb(float(u)), flint.arb(float(y)))["g"]
        assert abs(float(g.mid()) - float(four)) < 1e-14


def test_sub_box_is_proved_and_its_tree_rechecks():
    net = NETS[(2, "printed")]
    r = td.direct_check(net, box_budget=2000, root=ROOT)
    assert r["verdict"] == "PROVED" and not r["whole_domain"]
    assert r["volume_proved"] + r["volume_outside_domain"] == pytest.approx(1.0, abs=1e-12) and r["volume_proved"] > 0.5
    assert -0.9 <= r["inf_bound"] <= r["sup_bound"] <= 0.9
    assert td.check_tree(net, r["tree"], ROOT)["ok"]
    # the same tree does not cover the whole domain: it fails there
    with pytest.raises(InvalidParameter):
        td.tree_leaves(r["tree"] + ".", ROOT)
    with pytest.raises(InvalidParameter):
        td.tree_leaves(r["tree"][:-1], ROOT)
    with pytest.raises(InvalidParameter):
        td.tree_leaves("z" + r["tree"][1:], ROOT)


def test_a_coarser_tree_is_not_verified():
    """A forged tree that stops at the 64 fixed sub-boxes (each one leaf) fails the re-check of the whole domain."""
    res = td.check_tree(NETS[(2, "printed")], td_search._join_codes(list(range(6)), ["."] * 64))
    assert not res["ok"] and res["failed"] > 0


def test_planted_wrong_eps_is_refuted_and_replayed():
    net = dataclasses.replace(NETS[(2, "printed")], eps=Fraction(1, 1000))
    r = td.direct_check(net, box_budget=100)
    assert r["verdict"] == "REFUTED"
    rp = td.replay(net, r["counterexample"])
    assert rp["exceeds_eps"] and rp["error"] > 0.001


def test_budget_gives_unknown_with_reason():
    r = td.direct_check(NETS[(2, "printed")], box_budget=1)
    assert r["verdict"] == "UNKNOWN" and "budget" in r["reason"] and "tree" not in r
    r3 = td.direct_check(NETS[(3, "printed")], box_budget=1, root=[(0.5, 0.625)] * 3 + [(0.0, 0.125)] * 6)
    assert r3["verdict"] in ("UNKNOWN", "PROVED") and r3["sub_boxes"] == 512
    with pytest.raises(InvalidParameter, match="T <= 3"):
        td.direct_check(thm4net.build(4, Fraction(9, 10)), box_budget=1)


def test_deterministic_across_jobs():
    net = NETS[(2, "printed")]
    a = td.direct_check(net, box_budget=2000, root=ROOT, jobs=1)
    b = td.direct_check(net, box_budget=2000, root=ROOT, jobs=2)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_cli_direct(tmp_path, capsys):
    from attncert.cli import run as main

    assert main(["construct", "thm4", "--T", "4", "--eps", "0.9", "--direct"]) == 2
    assert main(["construct", "thm4", "--T", "2", "--eps", "0.9", "--variant", "printed", "--samples", "10",
                 "--direct", "--box-budget", "1"]) == 1
    assert "direct check: UNKNOWN" in capsys.readouterr().out
    assert main(["construct", "thm4", "--direct-verify", str(tmp_path / "nope.json")]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"T": 2, "eps": "9/10", "variant": "printed", "tree": td_search._join_codes(list(range(6)), ["."] * 64)}))
    assert main(["construct", "thm4", "--direct-verify", str(bad)]) == 1
    assert "NOT VERIFIED" in capsys.readouterr().out
    bad.write_text("{}")
    assert main(["construct", "thm4", "--direct-verify", str(bad)]) == 2
    bad.write_text(json.dumps({"T": 2, "eps": 0.9, "variant": "printed", "tree": "."}))   # a float eps is not exact
    assert main(["construct", "thm4", "--direct-verify", str(bad)]) == 2


def test_split_refuses_an_inexact_midpoint():
    box = ((1.0 - 2.0 ** -53, 1.0),)
    with pytest.raises(InvalidParameter, match="exact"):
        td_search._split(box, 0)
    with pytest.raises(InvalidParameter, match="exact"):
        td.tree_leaves("a" * 60 + "." * 61, [(0.5, 1.0)])
    with pytest.raises(InvalidParameter, match="exact"):      # a leaf whose own centre is not exact
        td.tree_leaves("a." * 52 + ".", [(0.5, 1.0)])
    with pytest.raises(InvalidParameter, match="inside"):
        td.direct_check(NETS[(2, "printed")], box_budget=1, root=[(0.5, 1.5)] + [(0.0, 0.5)] * 5)
    assert td_search._split(((0.5, 0.75),), 0) == (((0.5, 0.625),), ((0.625, 0.75),))


@settings(max_examples=200, deadline=None)
@given(st.floats(-3, 3), st.floats(1e-9, 2))
def test_cosh_enclosure_contains_the_range(m, r):
    """Found in review: a union ball of the endpoints could reach below 0 and lose cosh(0) = 1."""
    x = flint.arb(m, r)
    c = td_enclose._cosh(x)
    if x.contains(0):
        assert c.contains(flint.arb(1))          # cosh(0) = 1 exactly
    flint.ctx.prec = 300                         # references far tighter than c (radius >= ~1e-18)
    for v in (m, m - r / 2, m + r / 2, 0.0):
        if x.contains(flint.arb(v)):
            assert c.contains(flint.arb(v).cosh())
