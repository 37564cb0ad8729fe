"""Property tests for the Boltzmann operator lemmas of Kajitsuka-Sato on random tokenwise-separated
vectors, checked rigorously with arb balls (attncert.papers.ks.boltzmann.boltz_arb), plus the planted wrong
constants of proofs/ks_boltzmann.py, which must be REFUTED with a replayable counterexample."""

from __future__ import annotations

import io
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from attncert.papers.ks.boltzmann import boltz_arb, boltz_mp

flint = pytest.importorskip("flint")

SETTINGS = settings(derandomize=True, deadline=None, max_examples=300)
UNIT = 256  # entries are multiples of 2^-8
LO, HI = -20, 20
RATIOS: dict[str, list] = {"lemma7": [], "lemma1": []}


def min_gap(n: int) -> Fraction:
    """Smallest dyadic (in 1/UNIT) strictly above 2 log n + 3 (irrational for n >= 2)."""
    return Fraction(math.ceil((2 * math.log(n) + 3) * UNIT), UNIT)


@st.composite
def separated_pair(draw):
    """(n, k, a, b): a, b decreasing, sharing the first k entries, a_{k+1} > b_{k+1}, all 2n - k values
    distinct with consecutive gaps > 2 log n + 3, dyadic, inside [-20, 20]."""
    n = draw(st.integers(2, 5))
    g = min_gap(n)
    m_max = 1 + int((HI - LO - Fraction(1, UNIT)) / g)
    k = draw(st.integers(max(0, 2 * n - m_max), n - 1))
    m = 2 * n - k
    budget = HI - LO - (m - 1) * g  # room left for the extra width of the gaps
    per = max(1, int(budget * UNIT) // max(1, m - 1) - 1)
    extras = draw(st.lists(st.integers(1, per), min_size=m - 1, max_size=m - 1))
    gaps = [g + Fraction(e, UNIT) for e in extras]
    span = sum(gaps, Fraction(0))
    assert span <= HI - LO
    top = Fraction(draw(st.integers(math.ceil((LO + span) * UNIT), HI * UNIT)), UNIT)
    vals = [top]
    for d in gaps:
        vals.append(vals[-1] - d)
    shared, rest = vals[:k], vals[k:]
    mask = draw(st.permutations([True] * (n - k - 1) + [False] * (n - k)))
    a = shared + [rest[0]] + [v for v, keep in zip(rest[1:], mask) if keep]
    b = shared + [v for v, keep in zip(rest[1:], mask) if not keep]
    return n, k, a, b


def _arb(q: Fraction):
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def _check_hypotheses(n, k, a, b):
    vals = sorted(set(a) | set(b), reverse=True)
    assert len(vals) == 2 * n - k
    assert all(x - y > 2 * math.log(n) + 3 for x, y in zip(vals, vals[1:]))
    assert a == sorted(a, reverse=True) and b == sorted(b, reverse=True)
    assert a[:k] == b[:k] and a[k] > b[k]
    assert all(LO <= x <= HI and (x * UNIT).denominator == 1 for x in a + b)


@pytest.fixture(scope="module", autouse=True)
def report_ratios(request):
    yield
    from conftest import summary_line

    for name, rs in RATIOS.items():
        if rs:
            worst = min(rs, key=lambda t: t[0])
            msg = f"\n[boltzmann props] {name}: smallest |boltz(a)-boltz(b)| / bound = {worst[0]:.6g} over {len(rs)} " \
                  f"examples (n={worst[1]}, k={worst[2]})\n"
            summary_line(request.config, msg.strip())


def _tight_pairs():
    """Every (n, k, interleaving) with all gaps at the minimum 2 log n + 3 + 2^-8 (the hardest spacing),
    centred so that r is as small as possible."""
    from itertools import combinations

    out = []
    for n in range(2, 6):
        g = min_gap(n)
        for k in range(n):
            m = 2 * n - k
            if (m - 1) * g > HI - LO:
                continue
            vals = [((m - 1) * g) / 2 - i * g for i in range(m)]
            vals = [Fraction(math.floor(v * UNIT), UNIT) for v in vals]
            shared, rest = vals[:k], vals[k:]
            for chosen in combinations(range(1, len(rest)), n - k - 1):
                a = shared + [rest[0]] + [rest[i] for i in chosen]
                b = shared + [rest[i] for i in range(1, len(rest)) if i not in chosen]
                out.append((n, k, a, b))
    return out


TIGHT = _tight_pairs()


@pytest.mark.parametrize("pair", TIGHT, ids=[f"n{n}k{k}-{i}" for i, (n, k, _, _) in enumerate(TIGHT)])
def test_lemmas_on_tight_spacing(pair):
    test_lemma7_conclusion.hypothesis.inner_test(pair)
    test_lemma1_conclusion_16.hypothesis.inner_test(pair)


@SETTINGS
@given(separated_pair())
def test_lemma7_conclusion(pair):
    n, k, a, b = pair
    _check_hypotheses(n, k, a, b)
    old = flint.ctx.prec
    flint.ctx.prec = 256
    try:
        diff = abs(boltz_arb(a, 256) - boltz_arb(b, 256))
        bound = flint.arb(n).log() ** 2 * (-(_arb(a[0]) - _arb(b[k]))).exp()
        assert diff > bound, (n, k, a, b, diff, bound)  # arb: True only if certainly greater
        ratio = diff / bound
        assert ratio > 1
        RATIOS["lemma7"].append((float(ratio.lower()), n, k))
    finally:
        flint.ctx.prec = old


@SETTINGS
@given(separated_pair())
def test_lemma1_conclusion_16(pair):
    n, k, a, b = pair
    _check_hypotheses(n, k, a, b)
    r = max(abs(x) for x in a + b) + Fraction(1, 1 << 10)
    old = flint.ctx.prec
    flint.ctx.prec = 256
    try:
        ba, bb = boltz_arb(a, 256), boltz_arb(b, 256)
        assert abs(ba) < _arb(r) and abs(bb) < _arb(r)  # (15)
        diff = abs(ba - bb)
        bound = flint.arb(n).log() ** 2 * (-2 * _arb(r)).exp()
        assert diff > bound, (n, k, a, b, diff, bound)  # (16)
        RATIOS["lemma1"].append((float((diff / bound).lower()), n, k))
    finally:
        flint.ctx.prec = old


@settings(derandomize=True, deadline=None, max_examples=150)
@given(st.lists(st.fractions(min_value=-30, max_value=30, max_denominator=1 << 12), min_size=1, max_size=8))
def test_boltz_mp_agrees_with_arb(a):
    import mpmath

    ball = boltz_arb(a, 256)
    old = flint.ctx.prec
    flint.ctx.prec = 256  # lower()/upper()/str() work at the context precision
    try:
        lo_s, hi_s = ball.lower().str(75, radius=False), ball.upper().str(75, radius=False)
        # boltz is a weighted mean: the ball must meet [min a, max a]
        assert not (ball < _arb(min(a))) and not (ball > _arb(max(a))), (a, ball)
        assert ball.rad() < flint.arb(10) ** -60 * max(1, abs(float(ball.mid())))
    finally:
        flint.ctx.prec = old
    with mpmath.workdps(60):
        mp = boltz_mp(a, dps=60)
        lo, hi = mpmath.mpf(lo_s), mpmath.mpf(hi_s)
        tol = mpmath.mpf(10) ** -50 * max(1, abs(mp))
        assert lo - tol <= mp <= hi + tol, (a, mp, ball)


# ------------------------------------------------------------------------------ planted constants


def _planted():
    ks = pytest.importorskip("attncert_proofs.ks_boltzmann")
    return ks.planted()


@pytest.mark.parametrize("idx", [0, 1, 2, 3, 4])
def test_planted_constants_are_refuted_and_replay(idx, tmp_path):
    from attncert import cli
    from attncert.core.certificate import build, dumps, path_for
    from attncert.core.engine import run_obligation
    from attncert.core.verdict import Verdict

    obs = _planted()
    assert len(obs) >= 3
    ob = obs[idx]
    res = run_obligation(ob, 30)
    assert res.verdict == Verdict.REFUTED, (ob.id, res.evidence.detail)
    assert res.as_expected
    ev = res.evidence.detail
    assert ev["kind"] == "counterexample"
    # the point is exact (dyadic) and gives every variable a value
    assert set(ev["point"]) == {v.name for v in ob.claim.vars}
    for s in ev["point"].values():
        Fraction(s)
    p = path_for(str(tmp_path), res)
    import os

    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as fh:
        fh.write(dumps(build(res)))
    out = io.StringIO()
    rc = cli.run(["verify", str(tmp_path)], out, io.StringIO())
    assert rc == 0, out.getvalue()
    assert "OK " in out.getvalue() and "REFUTED" in out.getvalue()


def test_planted_constants_all_refuted():
    from attncert.core.engine import run_obligation
    from attncert.core.verdict import Verdict

    for ob in _planted():
        assert ob.expect == Verdict.REFUTED
        assert run_obligation(ob, 30).verdict == Verdict.REFUTED, ob.id
