"""The torch backend against the numpy reference (float64, 1e-12 relative) and the dtype guard."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from attncert.papers.infoflow import thm4net  # noqa: E402
from attncert.gpu.torch_models import dtype_guard, forward_thm4  # noqa: E402


@pytest.mark.parametrize("variant", thm4net.VARIANTS)
@pytest.mark.parametrize("T,eps", [(2, "1/4"), (16, "1/100"), (64, "1/100")])
def test_torch_matches_numpy_float64(variant, T, eps):
    net = thm4net.build(T, eps, variant)
    rng = np.random.default_rng(T)
    X = np.concatenate([rng.uniform(-1, 1, size=(32, T, 3)), thm4net.adversarial_inputs(T, 16, 3)])
    ref = thm4net.forward_np(net, X)
    got = forward_thm4(net, X).numpy()
    # 1e-12 relative, or the conditioning of the softmax: a rounding of beta * score (beta * 1/3 * 2^-52 per
    # stage, a few roundings each) moves the output by up to 18 times that, whatever the summation order
    cond = 18 * 2 * 8 * float(net.beta) / 3 * np.finfo(np.float64).eps
    assert np.all(np.abs(got - ref) <= np.maximum(1e-12 * np.maximum(1.0, np.abs(ref)), cond))
    assert np.all(np.abs(got - thm4net.target(X)) <= float(net.eps))


def test_dtype_guard():
    net = thm4net.build(64, "1/100", "repaired")
    assert dtype_guard(net, torch.float64) is None
    reason = dtype_guard(net, torch.float16)
    assert reason and "cannot" in reason
    assert dtype_guard(thm4net.build(64, "1/10000", "printed"), torch.float32) is not None


# ------------------------------------------------------------------------------ the general (1)-(2) module

def _np_infoflow(m, X):
    """An independent numpy reading of InfoFlow (1)-(2) from the module's parameters."""
    P = {k: v.detach().numpy().astype(np.float64) for k, v in m.named_parameters()}
    act = np.tanh
    x = X @ P["enc.weight"].T + P["enc.bias"]
    c = np.broadcast_to(P["cls"], (X.shape[0], 1, x.shape[-1]))
    L = len(m.heads)

    def attend(l, q, keys):
        out = []
        for i in range(m.heads[l]):
            qq, kk, vv = q @ P[f"WQ.{l}"][i].T, keys @ P[f"WK.{l}"][i].T, keys @ P[f"WV.{l}"][i].T
            s = m.beta[l] * np.einsum("bqn,btn->bqt", qq, kk)
            s = np.exp(s - s.max(axis=-1, keepdims=True))
            out.append(np.einsum("bqt,btn->bqn", s / s.sum(axis=-1, keepdims=True), vv))
        return np.concatenate(out, axis=-1) @ P[f"WO.{l}"].T

    for l in range(L - 1):
        xp, cp = x + attend(l, x, x), c + attend(l, c, x)
        f = lambda z: act(z @ P[f"ffns.{l}.0.weight"].T + P[f"ffns.{l}.0.bias"]) @ P[f"ffns.{l}.1.weight"].T + P[f"ffns.{l}.1.bias"]  # noqa: E731,B023
        x, c = f(xp), f(cp)
    cp = (c + attend(L - 1, c, x))[:, 0]
    if len(m.out) == 1:
        return cp @ P["out.0.weight"].T + P["out.0.bias"]
    return act(cp @ P["out.0.weight"].T + P["out.0.bias"]) @ P["out.1.weight"].T + P["out.1.bias"]


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 3), st.lists(st.integers(1, 3), min_size=1, max_size=3), st.integers(2, 6), st.integers(0, 3),
       st.integers(0, 10**6))
def test_infoflow_module_matches_numpy_reading(d, heads, T, out_hidden, seed):
    from attncert.gpu.torch_models import InfoFlowTransformer

    torch.manual_seed(seed)
    emb = [2 * h for h in heads]
    m = InfoFlowTransformer(d, 2, heads, emb, [5] * (len(heads) - 1), out_hidden, dtype=torch.float64)
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.randn_like(p))
    X = np.random.default_rng(seed).standard_normal((4, T, d))
    got = m(torch.as_tensor(X)).detach().numpy()
    ref = _np_infoflow(m, X)
    assert np.allclose(got, ref, rtol=1e-12, atol=1e-12 * max(1.0, float(np.abs(ref).max())))


def test_infoflow_module_rejects_bad_shapes():
    from attncert.gpu.torch_models import InfoFlowTransformer

    with pytest.raises(ValueError, match="multiple"):
        InfoFlowTransformer(2, 1, [3], [4], [], 0)
    with pytest.raises(ValueError, match="one entry per layer"):
        InfoFlowTransformer(2, 1, [1, 1], [4, 4], [], 0)


# ------------------------------------------------------------------------------ Kajitsuka-Sato layers

@pytest.fixture(scope="module")
def ks_layer():
    pytest.importorskip("flint")
    from attncert.papers.ks import construct as ks

    return ks.build(ks.random_dataset(3, 3, 2, 0, vocab_size=6), 0)


def test_ks_rank1_and_general_match_mpmath(ks_layer):
    import mpmath

    from attncert.papers.ks import construct as ks
    from attncert.gpu.torch_models import forward_ks

    got = forward_ks(ks_layer).numpy()
    gen = forward_ks(ks_layer, form="general").numpy()
    with mpmath.workdps(50):
        ref = ks._outputs(ks_layer, lambda q: mpmath.mpf(Fraction(q).numerator) / Fraction(q).denominator, mpmath.exp)
    ds = ks_layer.ds
    for i in range(ds.N):
        for k in range(ds.n):
            for c in range(ds.d):
                r = float(ref[i][k][c])
                assert abs(got[i, c, k] - r) <= 1e-12 * max(1.0, abs(r))
                assert abs(gen[i, c, k] - r) <= 1e-12 * max(1.0, abs(r))


def test_ks_self_attention_multihead_and_ffn_against_numpy():
    from attncert.gpu.torch_models import ks_feedforward, ks_self_attention

    rng = np.random.default_rng(5)
    B, d, n, h, s, q = 3, 4, 5, 2, 3, 7
    Z = rng.standard_normal((B, d, n))
    WQ, WK, WV, WO = (rng.standard_normal(sh) for sh in ((h, s, d), (h, s, d), (h, s, d), (h, d, s)))
    ref = Z.copy()
    for b in range(B):
        for i in range(h):
            A = (WK[i] @ Z[b]).T @ (WQ[i] @ Z[b])                      # (keys, queries)
            P = np.exp(A - A.max(axis=0)) / np.exp(A - A.max(axis=0)).sum(axis=0)
            ref[b] += WO[i] @ (WV[i] @ Z[b]) @ P
    T = lambda a: torch.as_tensor(a)  # noqa: E731
    assert np.allclose(ks_self_attention(T(Z), T(WQ), T(WK), T(WV), T(WO)).numpy(), ref, rtol=1e-12, atol=1e-12)
    W1, b1, W2, b2 = rng.standard_normal((q, d)), rng.standard_normal(q), rng.standard_normal((d, q)), rng.standard_normal(d)
    ref2 = np.stack([Z[b] + W2 @ np.maximum(W1 @ Z[b] + b1[:, None], 0) + b2[:, None] for b in range(B)])
    assert np.allclose(ks_feedforward(T(Z), T(W1), T(b1), T(W2), T(b2)).numpy(), ref2, rtol=1e-12, atol=1e-12)


def test_ks_dtype_guard_default_size_is_unknown(ks_layer, monkeypatch):
    from attncert.papers.ks import construct as ks
    from attncert.gpu.torch_models import ks_dtype_guard

    for dtype in (torch.float64, torch.float32):
        reason = ks_dtype_guard(ks_layer, dtype)
        assert reason and "cannot represent delta" in reason and str(dtype) in reason
    assert ks.verify_float64(ks_layer)["verdict"] == "UNKNOWN"
    # the guard is not vacuous: a delta float64 can hold passes, one below the resolution does not
    monkeypatch.setattr(ks, "log_delta8", lambda ds: -10.0)
    assert ks_dtype_guard(ks_layer, torch.float64) is None
    assert ks_dtype_guard(ks_layer, torch.float16) is not None
    monkeypatch.setattr(ks, "log_delta8", lambda ds: -34.0)
    assert "resolution" in ks_dtype_guard(ks_layer, torch.float64)
