"""Re-check the counterexamples to Kajitsuka-Sato Lemma 1, (16), stored in proofs/data/boltz_sharpness.json.

Each stored pair (a, b) claims: a, b in Q^n are tokenwise (r, delta)-separated (|entries| < r, distinct
values of a and b differ by more than delta, no duplicate inside a vector), a != b as multisets, and
|boltz(a) - boltz(b)| <= (log n)^2 e^{-2r}. The check below is independent of attncert.papers.ks.sharpness:
exact Fractions for the separation, python-flint arb balls for the gap."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

flint = pytest.importorskip("flint")

DATA = Path(__file__).resolve().parents[1] / "proofs" / "data" / "boltz_sharpness.json"


def _arb(q: Fraction):
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def _boltz(xs):
    xs = [_arb(x) for x in xs]
    w = [x.exp() for x in xs]
    return sum((x * wi for x, wi in zip(xs, w)), flint.arb(0)) / sum(w, flint.arb(0))


def assert_counterexample(n: int, delta, r, a, b) -> None:
    delta, r = Fraction(delta), Fraction(r)
    a, b = [Fraction(x) for x in a], [Fraction(x) for x in b]
    assert len(a) == n and len(b) == n
    assert len(set(a)) == n and len(set(b)) == n, "duplicate inside a vector"
    assert sorted(a) != sorted(b), "a and b are the same multiset"
    assert all(abs(x) < r for x in a + b), "an entry is not below r"
    vals = sorted(set(a) | set(b))
    assert all(y - x > delta for x, y in zip(vals, vals[1:])), "two distinct entries within delta"
    assert delta < Fraction(2 * math.log(n) + 3), "delta above hypothesis (14) would refute Lemma 1"
    old = flint.ctx.prec
    flint.ctx.prec = 256
    try:
        gap = abs(_boltz(a) - _boltz(b))
        bound = flint.arb(n).log() ** 2 * (-2 * _arb(r)).exp()
        assert gap < bound, f"not certain: |gap| {gap} vs bound {bound}"  # arb: True only if certain
    finally:
        flint.ctx.prec = old


def _stored():
    doc = json.loads(DATA.read_text())
    assert doc["schema"] == "attncert.sharpness/1"
    out = [(row["n"], row["counterexample"]) for row in doc["rows"] if row["counterexample"]]
    out += [(row["n"], row["counterexample"]) for row in doc["sweep"] if row["status"] == "found"]
    return out


def test_file_has_one_counterexample_per_n():
    doc = json.loads(DATA.read_text())
    assert sorted(row["n"] for row in doc["rows"]) == [2, 3, 4, 5]
    for row in doc["rows"]:
        assert row["counterexample"] is not None
        assert Fraction(row["largest_delta_with_counterexample"]) == Fraction(row["counterexample"]["delta"])
        t = float(row["threshold_2logn_plus_3"])
        assert abs(t - (2 * math.log(row["n"]) + 3)) < 1e-6


@pytest.mark.parametrize("n,c", _stored(), ids=lambda v: str(v) if isinstance(v, int) else v["delta"])
def test_stored_counterexample(n, c):
    assert_counterexample(n, c["delta"], c["r"], c["a"], c["b"])


def test_search_finds_counterexample_n2():
    from attncert.papers.ks.sharpness import search

    res = search(2, Fraction(1, 2), seed=0)
    assert res is not None
    assert res["n"] == 2 and Fraction(res["delta"]) == Fraction(1, 2)
    assert_counterexample(2, res["delta"], res["r"], res["a"], res["b"])
