"""The torch backend against the numpy reference (float64, 1e-12 relative) and the dtype guard."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from attncert import thm4net  # noqa: E402
from attncert.torch_backend import dtype_guard, forward_thm4  # noqa: E402


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
