"""Theorem 5 witnesses: certified, re-verified by the checker, deterministic, tamper-evident, and the
instance width bound is the largest P the rigorous data allows."""

from __future__ import annotations

import io
import json
from fractions import Fraction as F

import mpmath
import pytest

pytest.importorskip("flint")

from attncert.papers.infoflow import witness  # noqa: E402
from attncert.api import write_certificates  # noqa: E402
from attncert.checker.verify import verify_paths  # noqa: E402
from attncert.core.engine import run_obligation  # noqa: E402
from attncert.core.errors import InvalidParameter  # noqa: E402
from attncert.core.verdict import Verdict  # noqa: E402

CASES = [dict(T=6, k=2, n=1, eps=F(1, 1000), seed=0, beta=3), dict(T=5, k=3, n=2, eps=F(1, 500), seed=2, beta=1)]


@pytest.mark.parametrize("kw", CASES)
def test_witness_is_certified_and_reverified(kw, tmp_path):
    w = witness.thm5(**kw)
    r = run_obligation(w.obligation)
    assert r.verdict == Verdict.PROVED, r.evidence.detail
    [p] = write_certificates([r], str(tmp_path / "a"))
    assert verify_paths([p], io.StringIO()) == 0
    # determinism: a second run writes the same bytes
    w2 = witness.thm5(**kw)
    [p2] = write_certificates([run_obligation(w2.obligation)], str(tmp_path / "b"))
    assert open(p, "rb").read() == open(p2, "rb").read()
    # the instance bound is maximal: P^2 n ||dA||^2 >= 4 eps^2 > (P-1)^2 n ||dA||^2 (mpmath, 60 digits)
    with mpmath.workdps(60):
        from attncert.numeric.evaluate import MpNumbers, evaluate
        from attncert.core.expr import add

        AX = witness.attention_tree(_net(kw), F(kw["beta"]), w.X)
        AY = witness.attention_tree(_net(kw), F(kw["beta"]), w.Y)
        d2 = evaluate(add(*[(a - b) * (a - b) for a, b in zip(AX, AY)]).node, {}, MpNumbers(60))
        e = mpmath.mpf(kw["eps"].numerator) / kw["eps"].denominator
        P = w.width_bound
        assert (P - 1) ** 2 * kw["n"] * d2 < 4 * e * e
        assert (P + 1) ** 2 * kw["n"] * d2 >= 4 * e * e   # within one of the largest integer allowed
    assert P > 1000  # a concrete f1 forces a far wider f2 than the generic bound (p >= 1 here)


def _net(kw):
    from attncert.papers.infoflow.pigeonhole import TanhNet

    return TanhNet.seeded(1, kw["n"], 4, kw["seed"])


def test_tampered_witness_is_rejected(tmp_path):
    w = witness.thm5(**CASES[0])
    [p] = write_certificates([run_obligation(w.obligation)], str(tmp_path))
    text = open(p).read()
    obj = json.loads(text)
    # raise the claimed width bound by a factor 10 and recompute every hash: the checker must refuse
    from attncert.core.certificate import dumps
    from attncert.checker.verify import digest

    claim_txt = json.dumps(obj["claim"])
    P = w.width_bound
    bumped = claim_txt.replace(f'"{(P - 1) ** 2}"', f'"{(10 * P) ** 2}"', 1)  # n = 1: coefficient (P-1)^2
    assert bumped != claim_txt
    obj["claim"] = json.loads(bumped)
    obj["claim_sha256"] = digest(obj["claim"])
    obj["cert_sha256"] = digest({k: v for k, v in obj.items() if k != "cert_sha256"})
    open(p, "w").write(dumps(obj))
    buf = io.StringIO()
    assert verify_paths([p], buf) == 1
    assert "REJECTED" in buf.getvalue()


@pytest.mark.parametrize("kw,needle", [
    (dict(T=6, k=1, n=1, eps=F(1, 1000)), "k=1"),
    (dict(T=6, k=7, n=1, eps=F(1, 1000)), "k=7"),
    (dict(T=6, k=2, n=0, eps=F(1, 1000)), "n=0"),
    (dict(T=6, k=2, n=1, eps=F(1, 100)), "1/(64 m)"),
    (dict(T=6, k=2, n=1, eps=F(1, 1000), beta=-1), "beta"),
    (dict(T=14, k=2, n=1, eps=F(1, 10 ** 6)), "max_candidates"),
])
def test_witness_bad_input(kw, needle):
    with pytest.raises(InvalidParameter) as e:
        witness.thm5(**kw)
    assert needle in str(e.value)
