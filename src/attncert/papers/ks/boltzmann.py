"""The Boltzmann operator of Kajitsuka-Sato (B.2, (80)-(82)) as expression trees and as numbers.

Trees are written exactly as the paper defines them: p = softmax(a), boltz(a) = sum a_i p_i (80),
L(a) = log sum e^{a_i} (81), S(p) = -sum p_i log p_i (82)."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from attncert.core.expr import E, add, exp, log
from attncert.numeric.evaluate import arb_prec


def partition(a: Sequence[E]) -> E:
    return add(*[exp(x) for x in a])


def softmax(a: Sequence[E]) -> list[E]:
    z = partition(a)
    return [exp(x) / z for x in a]


def boltz(a: Sequence[E]) -> E:
    """(80): boltz(a) = sum_i a_i p_i with p = softmax(a)."""
    p = softmax(a)
    return add(*[x * q for x, q in zip(a, p)])


def logsumexp(a: Sequence[E]) -> E:
    """(81): L(a) = log(sum_i e^{a_i})."""
    return log(partition(a))


def entropy(p: Sequence[E]) -> E:
    """(82): S(p) = -sum_i p_i log p_i."""
    return -add(*[q * log(q) for q in p])


# --------------------------------------------------------------------------- numbers (mpmath)


def boltz_mp(a, dps: int = 50):
    """boltz(a) in mpmath, shifted by max(a) for stability (boltz(a + c) = boltz(a) + c)."""
    import mpmath

    with mpmath.workdps(dps):
        xs = [mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator if isinstance(x, Fraction)
              else mpmath.mpf(x) for x in a]
        m = max(xs)
        w = [mpmath.exp(x - m) for x in xs]
        return m + mpmath.fsum((x - m) * wi for x, wi in zip(xs, w)) / mpmath.fsum(w)


def boltz_arb(a, bits: int = 256):
    """A rigorous arb ball containing boltz(a) for rational a (needs python-flint)."""
    import flint

    with arb_prec(bits):
        xs = [flint.arb(flint.fmpq(Fraction(x).numerator, Fraction(x).denominator)) for x in a]
        w = [x.exp() for x in xs]
        return sum((x * wi for x, wi in zip(xs, w)), flint.arb(0)) / sum(w, flint.arb(0))
