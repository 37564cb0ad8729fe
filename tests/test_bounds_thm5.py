"""Theorem 5's explicit bound: exact values, rigorous enclosures (checked against mpmath), thresholds,
bad input, and a planted wrong constant that must be REFUTED."""

from __future__ import annotations

import io
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from attncert.papers.infoflow import bounds
from attncert.checker.verify import verify_paths
from attncert.core.engine import run_obligation
from attncert.core.errors import InvalidParameter
from attncert.core.verdict import Verdict


def _mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


@settings(derandomize=True, deadline=None, max_examples=40)
@given(T=st.integers(2, 12), k=st.integers(2, 12), n=st.integers(1, 8), frac=st.integers(1, 999))
def test_thm5_enclosures_contain_mpmath_values(T, k, n, frac):
    if k > T:
        with pytest.raises(InvalidParameter):
            bounds.thm5(T=T, k=k, n=n, eps=F(1, 1000))
        return
    m = T - k + 1
    eps = F(frac, 1000) / (64 * m)  # strictly inside (0, 1/(64 m))
    b = bounds.thm5(T=T, k=k, n=n, eps=eps)
    assert b.m == m and b.Delta == 4 * eps and b.N == int(1 / (16 * m * eps))
    assert b.exponent == F(m, n + 1) - 1
    with mpmath.workdps(60):
        s = mpmath.mpf(m) / (n + 1)
        eta = 4 * m * mpmath.mpf(b.N) ** (-s)
        C = mpmath.mpf(k - 1) / (4 * m * n) * (mpmath.mpf(3) / (64 * m)) ** s
        for iv, v in ((b.eta, eta), (b.C, C), (b.width_lower, (k - 1) * _mp(eps) / (n * eta)),
                      (b.C_eps_bound, C * _mp(eps) ** (1 - s))):
            assert _mp(iv.lo) <= v <= _mp(iv.hi)
            assert iv.hi - iv.lo <= F(1, 10 ** 20) * max(1, abs(iv.hi))
    # the explicit bound never exceeds the instance bound it was derived from (L786 <= L766)
    assert b.C_eps_bound.lo <= b.width_lower.hi


def test_thm5_N0_thresholds():
    # m = 1, n = 5: N0 = 6; eps = 1/65 gives N = 4 < N0 (the printed count fails there)
    b = bounds.thm5(T=6, k=6, n=5, eps=F(1, 65))
    assert (b.N, b.N0_printed_count, b.printed_count_applies) == (4, 6, False)
    assert bounds.thm5(T=7, k=6, n=10, eps=F(1, 1000)).N0_printed_count == 5     # m = 2, n = 10
    assert bounds.thm5(T=6, k=6, n=20, eps=F(1, 1000)).N0_printed_count == 421   # m = 1, n = 20
    for m, n in ((1, 5), (2, 10), (1, 20), (3, 2)):
        N0 = bounds.thm5(T=m + 1, k=2, n=n, eps=F(1, 10 ** 6)).N0_printed_count
        assert F(N0) ** m > F(4, 3) ** (n + 1) >= F(N0 - 1) ** m


@pytest.mark.parametrize("kw,needle", [
    ({"T": 8, "k": 1, "n": 2, "eps": F(1, 1000)}, "k=1"),
    ({"T": 8, "k": 9, "n": 2, "eps": F(1, 1000)}, "k=9"),
    ({"T": 8, "k": 3, "n": 0, "eps": F(1, 1000)}, "n=0"),
    ({"T": 8, "k": 3, "n": 2, "eps": F(1, 384)}, "1/384"),
    ({"T": 8, "k": 3, "n": 2, "eps": 0}, "eps=0"),
    ({"T": 8, "k": 3, "n": 2, "eps": "x"}, "not a number"),
])
def test_thm5_bad_input(kw, needle):
    with pytest.raises(InvalidParameter) as e:
        bounds.thm5(**kw)
    assert needle in str(e.value)


def test_thm5_planted_wrong_N_is_refuted(tmp_path):
    from attncert.api import write_certificates
    from attncert_proofs.infoflow_thm5 import planted

    for ob in planted():
        r = run_obligation(ob)
        assert r.verdict == Verdict.REFUTED, r.evidence.detail
        paths = write_certificates([r], str(tmp_path))
        assert verify_paths(paths, io.StringIO()) == 0


def test_bound_cli(tmp_path):
    from attncert import cli

    out, err = io.StringIO(), io.StringIO()
    j = tmp_path / "b.json"
    assert cli.run(["bound", "thm5", "--T", "8", "--k", "3", "--n", "2", "--eps", "1/1000", "--json", str(j)], out, err) == 0
    assert "p >= C * (1/eps)^(1)" in out.getvalue()
    import json

    d = json.loads(j.read_text())
    assert d["schema"] == "attncert.bound/1" and d["exponent"] == "1" and d["N"] == 10
    assert cli.run(["bound", "thm5", "--T", "8", "--k", "3", "--n", "2", "--eps", "1"], out, err) == 2
    assert "1/(64 m)" in err.getvalue()
