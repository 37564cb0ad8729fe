"""Theorem 6 packing witnesses (A.3, L995): certified, re-verified, numpy = torch, bad input refused."""

from __future__ import annotations

import io
from fractions import Fraction as F

import pytest

pytest.importorskip("flint")

from attncert.papers.infoflow import witness  # noqa: E402
from attncert.api import write_certificates  # noqa: E402
from attncert.checker.verify import verify_paths  # noqa: E402
from attncert.core.engine import run_obligation  # noqa: E402
from attncert.core.errors import InvalidParameter  # noqa: E402
from attncert.core.verdict import Verdict  # noqa: E402


@pytest.mark.parametrize("args", [(2, 1, 1, F(1, 100)), (3, 1, 2, F(1, 40)), (2, 2, 1, F(1, 20))])
def test_thm6_witness_certified(args, tmp_path):
    w = witness.thm6(*args, seed=0)
    assert max(abs(a - b) for a, b in zip(w.V1, w.V2)) >= 4 * args[3]
    assert all(0 <= v <= 1 for v in w.V1 + w.V2)
    r = run_obligation(w.obligation)
    assert r.verdict == Verdict.PROVED
    [p] = write_certificates([r], str(tmp_path))
    assert verify_paths([p], io.StringIO()) == 0


def test_thm6_torch_path_certifies_too():
    """tanh in numpy and torch may differ in the last ulp, so the float search can pick a different (equally
    valid) pair; both must certify and be of the same quality."""
    pytest.importorskip("torch")
    a = witness.thm6(2, 1, 1, F(1, 60), seed=3)
    b = witness.thm6(2, 1, 1, F(1, 60), seed=3, backend="torch")
    assert run_obligation(a.obligation).verdict == Verdict.PROVED
    assert run_obligation(b.obligation).verdict == Verdict.PROVED
    assert 0.5 < a.distance_float / b.distance_float < 2


@pytest.mark.parametrize("kw,needle", [((2, 1, 1, F(1, 2)), "1/4"), ((0, 1, 1, F(1, 8)), "T0=0"),
                                       ((4, 2, 1, F(1, 1000)), "max_candidates")])
def test_thm6_bad_input(kw, needle):
    with pytest.raises(InvalidParameter) as e:
        witness.thm6(*kw)
    assert needle in str(e.value)
